"""A tournament at tables of 3 only, and pairs of players kept apart (issue #26): the
settings, the rounds they draw, the draft's warning, the schedule's figures and the backup."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from django.urls import reverse

from club.models import Player
from competition.backup import services as backup
from competition.lib import seating
from competition.models import Round, SeatingMethod, TableSizes, Tournament
from competition.tournament import pages, selectors, services
from competition.tournament.forms import TournamentForm
from tests.club.factories import MANAGE, READ, assert_fragment, assert_full_page, html
from tests.competition.factories import (
    draft,
    make_tournament,
    names_for,
    play_round,
    published,
    settings_post,
)
from tests.conftest import HTMX, PERSONAS

pytestmark = pytest.mark.django_db

ROUNDS = 3


def cup(club, players: int, **fields) -> Tournament:
    """A cup of `players` (P01, P02, ...), 3 rounds, its lot fixed (the same draws each run)."""
    return make_tournament(club, names_for(players), seed=4242, round_count=ROUNDS, **fields)


def pid(tournament: Tournament, name: str) -> int:
    return Player.objects.get(club=tournament.club, name=name).pk


def edit_url(tournament: Tournament) -> str:
    return reverse("competition:tournament-edit", args=[tournament.club.slug, tournament.pk])


def round_url(round: Round) -> str:
    args = [round.tournament.club.slug, round.tournament_id, round.number]
    return reverse("competition:round-detail", args=args)


def sizes(round: Round) -> list[int]:
    return sorted((len(table["seats"]) for table in round.seating["tables"]), reverse=True)


def together(round: Round) -> set[tuple[int, int]]:
    return {
        (min(a, b), max(a, b))
        for table in round.seating["tables"]
        for a, b in itertools.combinations(table["seats"], 2)
    }


def edit_post(tournament: Tournament, **overrides) -> dict[str, str]:
    """The settings form as it is shown for `tournament`, with `overrides` typed in."""
    shown = {"name": tournament.name, "round_count": str(tournament.round_count)}
    return settings_post(**{**shown, **overrides})


# --- tables of 3 ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", [SeatingMethod.SWISS, SeatingMethod.MIXING])
def test_fifteen_players_at_tables_of_three_play_five_tables_and_nobody_sits_out(club_a, method):
    t = cup(club_a, 15, tables=TableSizes.THREES, seating=method)

    rounds = [play_round(t, deals=1) for _ in range(ROUNDS)]

    for one in rounds:
        assert sizes(one) == [3] * 5
        assert one.seating["byes"] == []
        seated = Counter(p for table in one.seating["tables"] for p in table["seats"])
        assert set(seated.values()) == {1}
        assert len(seated) == 15
        assert sorted(len(table.pulka.seats.all()) for table in one.tables.all()) == [3] * 5
    assert len(selectors.standings(t).lines) == 15


def test_a_schedule_at_tables_of_three_is_drawn_as_planned_with_no_repeat(club_a):
    t = cup(club_a, 15, tables=TableSizes.THREES, seating=SeatingMethod.SCHEDULE)
    planned = selectors.planned_rounds(t)

    rounds = [play_round(t, deals=1) for _ in range(ROUNDS)]

    assert [selectors.seating_of(one).tables for one in rounds] == [p.tables for p in planned]
    assert all(sizes(one) == [3] * 5 for one in rounds)
    assert seating.repeated_meetings([selectors.seating_of(one) for one in rounds]) == 0


def test_sixteen_players_at_tables_of_three_sit_out_one_at_a_time_in_turn(club_a):
    t = cup(club_a, 16, tables=TableSizes.THREES, seating=SeatingMethod.MIXING)

    rounds = [play_round(t, deals=1) for _ in range(ROUNDS)]

    byes = [[bye["player"] for bye in one.seating["byes"]] for one in rounds]
    assert all(sizes(one) == [3] * 5 for one in rounds)
    assert all(len(out) == 1 for out in byes)
    assert len({out[0] for out in byes}) == ROUNDS  # never the same player twice
    assert {bye["reason"] for one in rounds for bye in one.seating["byes"]} == {"bye_threes"}


def test_a_bye_at_tables_of_three_says_why_on_the_draft(client, owner, club_a):
    t = cup(club_a, 16, tables=TableSizes.THREES)
    client.force_login(owner)

    text = html(client.get(round_url(draft(t))))

    assert "the players do not divide into tables of 3, so the rest sit out" in text


def test_too_few_players_for_a_table_of_three_are_refused_with_a_reason(club_a):
    t = cup(club_a, 2, tables=TableSizes.THREES)

    with pytest.raises(services.TournamentServiceError, match="2 players cannot make a table of 3"):
        draft(t)

    assert not t.rounds.exists()


def test_the_tables_are_fixed_once_round_one_is_out(client, owner, club_a):
    t = cup(club_a, 12)
    client.force_login(owner)
    draft(t)
    services.tournament_update(tournament=t, tables=TableSizes.THREES)  # a draft: still free
    services.tournament_update(tournament=t, tables=TableSizes.MIXED)
    services.round_publish(round=t.rounds.get(), by=None)

    with pytest.raises(services.TournamentServiceError, match="tables cannot change"):
        services.tournament_update(tournament=t, tables=TableSizes.THREES)
    page = html(client.get(edit_url(t)))
    response = client.post(edit_url(t), edit_post(t, tables="3", name="Renamed"))

    assert 'id="tables-locked"' in page
    assert re.search(r'<select name="tables"[^>]* disabled', page)
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.tables) == ("Renamed", TableSizes.MIXED)


# --- keeping players apart ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "tables"),
    [
        (SeatingMethod.SWISS, TableSizes.MIXED),
        (SeatingMethod.MIXING, TableSizes.THREES),
        (SeatingMethod.SCHEDULE, TableSizes.MIXED),
    ],
)
def test_a_pair_kept_apart_never_sits_together_when_it_can_be_helped(club_a, method, tables):
    t = cup(club_a, 12, seating=method, tables=tables)
    named = [("P01", "P02"), ("P01", "P03"), ("P04", "P05"), ("P06", "P07"), ("P08", "P09")]
    apart = [sorted((pid(t, a), pid(t, b))) for a, b in named]
    services.tournament_update(tournament=t, apart=apart)

    rounds = [play_round(t, deals=1) for _ in range(ROUNDS)]

    kept = {tuple(pair) for pair in apart}
    assert all(not together(one) & kept for one in rounds)


def test_a_pair_that_cannot_be_parted_is_named_on_the_draft(client, owner, club_a):
    t = cup(club_a, 3, tables=TableSizes.THREES)
    services.tournament_update(tournament=t, apart=[[pid(t, "P01"), pid(t, "P02")]])
    client.force_login(owner)

    text = html(client.get(round_url(draft(t))))

    assert 'id="draft-warnings"' in text
    assert "P01 and P02 should be kept apart but sit together at table 1" in text
    assert 'id="draft-apart"' in text
    assert "P01 and P02 never at one table" in text


def test_the_pairs_are_typed_by_name_stored_by_id_and_shown_back_by_name(client, owner, club_a):
    t = cup(club_a, 10)
    client.force_login(owner)
    typed = "P01 and P02\n  p03 ,  P04 \n\nP05 - P06\nP07 — P08\np02 AND p01"

    response = client.post(edit_url(t), edit_post(t, apart=typed))

    assert response.status_code == 302
    t.refresh_from_db()
    pairs = [("P01", "P02"), ("P03", "P04"), ("P05", "P06"), ("P07", "P08")]
    assert t.apart == sorted(sorted((pid(t, a), pid(t, b))) for a, b in pairs)
    shown = TournamentForm(club=club_a, instance=t)["apart"].value()
    assert sorted(shown.splitlines()) == ["P01, P02", "P03, P04", "P05, P06", "P07, P08"]
    assert "P05, P06" in html(client.get(edit_url(t)))


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("P01 and Nobody", "Line 1: Nobody is not entered in this tournament."),
        ("P01 and P02\nP03 and p03", "Line 2: P03 is named twice."),
        ("P01 and P02\n\nP03", "Line 3: name two players, as in the example."),
        ("P01, P02, P03", "Line 1: name two players, as in the example."),
        ("P01 and P02\nP04 and \u200bP05", "Line 2: The name"),
    ],
)
def test_a_bad_line_is_refused_by_its_number_and_nothing_changes(
    client, owner, club_a, typed, message
):
    t = cup(club_a, 10)
    services.tournament_update(tournament=t, apart=[[pid(t, "P09"), pid(t, "P10")]])
    client.force_login(owner)

    response = client.post(edit_url(t), edit_post(t, apart=typed, name="Renamed"))
    fragment = client.post(edit_url(t), edit_post(t, apart=typed, name="Renamed"), headers=HTMX)

    assert response.status_code == 200
    assert message in html(response)
    assert message in assert_fragment(fragment, "tournament-form")
    t.refresh_from_db()
    assert (t.name, t.apart) == ("Club Cup", [[pid(t, "P09"), pid(t, "P10")]])


def test_at_most_a_hundred_pairs_are_kept_apart(client, owner, club_a):
    t = cup(club_a, 15)
    client.force_login(owner)
    pairs = list(itertools.combinations(names_for(15), 2))[:101]

    response = client.post(edit_url(t), edit_post(t, apart="\n".join(map(", ".join, pairs))))

    assert "At most 100 pairs can be kept apart." in html(response)
    t.refresh_from_db()
    assert t.apart == []
    with pytest.raises(services.TournamentServiceError, match="At most 100"):
        services.tournament_update(tournament=t, apart=[[pid(t, a), pid(t, b)] for a, b in pairs])


def test_the_services_refuse_a_pair_of_no_entrant_and_a_malformed_pair(club_a):
    t = cup(club_a, 4)
    stranger = Player.objects.create(club=club_a, name="Stranger")

    for bad in ([[pid(t, "P01"), stranger.pk]], [[pid(t, "P01")]], [[1, 1]], "P01", [["a", 2]]):
        with pytest.raises(services.TournamentServiceError):
            services.tournament_update(tournament=t, apart=bad)
    t.refresh_from_db()
    assert t.apart == []


def test_the_pairs_may_change_after_round_one(club_a):
    t = cup(club_a, 12)
    published(t)

    services.tournament_update(tournament=t, apart=[[pid(t, "P02"), pid(t, "P01")]])

    t.refresh_from_db()
    assert t.apart == [[pid(t, "P01"), pid(t, "P02")]]


def test_a_new_tournament_has_no_pairs_to_type_yet(client, owner, club_a):
    client.force_login(owner)

    text = html(client.get(reverse("competition:tournament-create", args=["sochi"])))

    assert 'name="apart"' not in text
    assert 'id="apart-later"' in text


# --- the schedule's figures -------------------------------------------------------------------


def test_the_home_of_a_schedule_shows_its_repeats_against_the_least_possible(client, owner, club_a):
    t = cup(club_a, 16, seating=SeatingMethod.SCHEDULE)
    client.force_login(owner)

    text = html(client.get(t.get_absolute_url()))

    assert 'id="schedule"' in text
    assert "Repeated meetings in this schedule: 0 (the least possible: 0)." in text
    assert "Rounds at a table of 3, a player: 0 to 0." in text
    assert "Over the rounds played (0) and planned (3)" in text


def test_the_schedules_figures_follow_the_rounds_played(club_a):
    t = cup(club_a, 10, seating=SeatingMethod.SCHEDULE)
    play_round(t, deals=1)

    summary = pages.schedule_summary(t)

    assert (summary.played, summary.planned, summary.report.rounds) == (1, 2, 3)
    whole = [selectors.seating_of(t.rounds.get()), *selectors.planned_rounds(t)]
    assert summary.report == seating.report(whole, [p.id for p in selectors.entrants(t, 2)])


def test_a_schedule_is_searched_once_and_then_read_from_the_cache(club_a, monkeypatch):
    t = cup(club_a, 16, seating=SeatingMethod.SCHEDULE)
    first = selectors.planned_rounds(t)
    searches = []
    monkeypatch.setattr(seating, "schedule", lambda *a, **kw: searches.append(a) or ())

    assert selectors.planned_rounds(t) == first
    round_one = draft(t)

    assert searches == []  # the page and the draw read the same cached schedule
    assert selectors.seating_of(round_one).tables == first[0].tables
    services.tournament_update(tournament=t, apart=[[pid(t, "P01"), pid(t, "P02")]])
    selectors.planned_rounds(t)
    assert len(searches) == 1  # a pair kept apart is another schedule


def test_another_method_has_no_schedule_section(client, owner, club_a):
    t = cup(club_a, 12)
    client.force_login(owner)

    assert 'id="schedule"' not in html(client.get(t.get_absolute_url()))
    assert pages.schedule_summary(t) is None


# --- who sees and who changes -----------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_reads_and_changes_the_pairs(as_persona, club_a, persona):
    t = cup(club_a, 10)
    client = as_persona(persona)

    page = client.get(edit_url(t))
    fragment = client.get(edit_url(t), headers=HTMX)
    response = client.post(edit_url(t), edit_post(t, apart="P01 and P02", tables="3"))

    t.refresh_from_db()
    assert page.status_code == fragment.status_code == MANAGE[persona]
    if MANAGE[persona] == 200:
        assert 'name="apart"' in assert_full_page(page, "tournament-form")
        assert 'name="tables"' in assert_fragment(fragment, "tournament-form")
        assert response.status_code == 302
        assert (t.tables, t.apart) == ("3", [[pid(t, "P01"), pid(t, "P02")]])
    else:
        assert response.status_code == MANAGE[persona]
        assert (t.tables, t.apart) == ("mixed", [])


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_schedules_figures_are_read_like_the_home(as_persona, club_a, persona):
    t = cup(club_a, 12, seating=SeatingMethod.SCHEDULE, tables=TableSizes.THREES)
    client = as_persona(persona)

    page = client.get(t.get_absolute_url())
    fragment = client.get(t.get_absolute_url(), headers=HTMX)

    assert page.status_code == fragment.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(page, "schedule")
        assert "Repeated meetings in this schedule: 0 (the least possible: 0)." in text
        assert "Tables: tables of 3 only." in text
        assert 'id="schedule"' not in assert_fragment(fragment, "rounds")


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_sees_the_pairs_on_the_draft(as_persona, club_a, persona):
    t = cup(club_a, 10)
    services.tournament_update(tournament=t, apart=[[pid(t, "P01"), pid(t, "P02")]])
    one = draft(t)
    client = as_persona(persona)

    page = client.get(round_url(one))
    fragment = client.get(round_url(one), headers=HTMX)

    assert page.status_code == fragment.status_code == READ[persona]
    if READ[persona] == 200:
        full = assert_full_page(page, "round")
        part = assert_fragment(fragment, "round")
        for text in (full, part):
            assert ("P01 and P02 never at one table" in text) == (persona == "owner")


# --- the backup -------------------------------------------------------------------------------


def test_a_backup_carries_the_tables_and_the_pairs_by_name(club_a):
    t = cup(club_a, 9, tables=TableSizes.THREES)
    services.tournament_update(tournament=t, apart=[[pid(t, "P01"), pid(t, "P09")]])

    document = backup.club_document(club_a)
    (entry,) = document["tournaments"]
    backup.club_restore(document=document, slug="copy", name="Copy", link_members=True)

    assert entry["apart"] == [["P01", "P09"]]
    restored = Tournament.objects.get(club__slug="copy")
    named = {p.pk: p.name for p in Player.objects.filter(club=restored.club)}
    assert restored.tables == TableSizes.THREES
    assert [[named[a], named[b]] for a, b in restored.apart] == [["P01", "P09"]]
    assert restored.apart != t.apart  # the restored club's own players


def test_a_backup_whose_pair_names_no_entrant_is_refused(club_a):
    make_tournament(club_a, names_for(4))
    document = backup.club_document(club_a)
    document["tournaments"][0]["apart"] = [["P01", "Nobody"]]

    with pytest.raises(backup.BackupError, match=r"tournaments\[0\]\.apart\[0\]"):
        backup.club_restore(document=document, slug="copy", name="Copy", link_members=True)

    assert not Tournament.objects.filter(club__slug="copy").exists()
