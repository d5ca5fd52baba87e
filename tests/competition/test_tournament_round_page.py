"""A tournament's round page, from the draft to the confirmation: who sees and who does what,
what each action changes, and the clear refusals that change nothing."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from competition.demo import next_valid_deal
from competition.models import Entry, Round, RoundState, RoundTable, Tournament
from competition.tournament import selectors, services
from competition.tournament.pages import MATRIX_MAX
from scoring import engine
from scoring.models import Evening, Pulka, PulkaStatus
from scoring.services import deal_update
from tests.club.factories import (
    MANAGE,
    READ,
    RECORD,
    assert_fragment,
    assert_full_page,
    assert_not_found,
    html,
)
from tests.competition.factories import (
    draft,
    end_all,
    make_tournament,
    play,
    play_round,
    published,
)
from tests.conftest import HTMX, PERSONAS

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(club_a) -> Tournament:
    return make_tournament(club_a)


def url(round: Round, action: str | None = None) -> str:
    name = "competition:round-detail" if action is None else f"competition:round-{action}"
    return reverse(name, args=[round.tournament.club.slug, round.tournament_id, round.number])


def fresh(round: Round) -> Round:
    return Round.objects.get(pk=round.pk)


def pid(tournament: Tournament, name: str) -> int:
    return Player.objects.get(club=tournament.club, name=name).pk


def seats(round: Round) -> list[list[int]]:
    return [table["seats"] for table in fresh(round).seating["tables"]]


def snapshot(tournament: Tournament) -> tuple:
    """What an action could change: the rounds, their seatings and their tables' pulkas."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number").values_list())
    pulkas = list(
        Pulka.objects.filter(tournament_table__round__tournament=tournament)
        .order_by("pk")
        .values_list("pk", "status", "first_dealer")
    )
    seated = list(
        RoundTable.objects.filter(round__tournament=tournament)
        .order_by("pk", "pulka__seats__position")
        .values_list("pk", "pulka__seats__player")
    )
    return rounds, pulkas, seated


# --- reading --------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_draft_is_shown_to_the_owner_only(as_persona, cup, persona):
    round = draft(cup)

    response = as_persona(persona).get(url(round))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(response, "round")
        assert ('id="draft"' in text) == (persona == "owner")
        assert ('id="being-prepared"' in text) == (persona != "owner")
        if persona != "owner":
            assert str(round.seed) not in text
            assert "Anna" not in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_published_round_is_read_by_the_clubs_members(as_persona, cup, persona):
    round = published(cup)

    response = as_persona(persona).get(url(round))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(response, "round-tables")
        for table in selectors.round_tables(round):
            assert f'id="table-{table.pulka.pk}"' in text
            assert f'href="{table.pulka.get_absolute_url()}"' in text
        assert ('id="round-actions"' in text) == (persona == "owner")
        assert ("on time" in text) == (persona in ("secretary", "owner"))


def test_a_public_clubs_round_is_read_by_anyone(client, public_club):
    round = published(make_tournament(public_club))

    text = assert_full_page(client.get(url(round)), "round-tables")

    assert "Anna" in text
    assert 'id="round-actions"' not in text


def test_the_round_fragment_for_htmx(as_persona, cup):
    round = published(cup)

    text = assert_fragment(as_persona("player").get(url(round), headers=HTMX), "round")

    assert 'id="round-tables"' in text


def test_a_round_that_does_not_exist_is_404(as_persona, cup):
    client = as_persona("owner")

    assert_not_found(client.get(f"/c/sochi/tournaments/{cup.pk}/rounds/1/"), cup.name)
    assert_not_found(client.get(f"/c/sochi/tournaments/{cup.pk}/rounds/{'9' * 30}/"), cup.name)
    assert not cup.rounds.exists()


# --- the draft ------------------------------------------------------------------------------


def test_the_draft_shows_its_tables_seats_first_dealers_and_seed(as_persona, cup):
    round = draft(cup)
    names = selectors.names(cup)

    text = html(as_persona("owner").get(url(round)))

    assert f"seed {round.seed}" in text
    assert 'id="draft-ok"' in text
    for table in round.seating["tables"]:
        card = text.split(f'id="draft-table-{table["number"]}"')[1].split("</article>")[0]
        order = [card.index(names[p]) for p in table["seats"]]
        assert order == sorted(order)  # the seats in their order
        dealer = names[table["first_dealer"]]
        assert f'{dealer} <span class="dealer-first">deals first</span>' in card


def test_the_draft_warns_of_pairs_meeting_again_with_their_names(as_persona, cup):
    play_round(cup, deals=2)
    round = draft(cup)
    round.seating["tables"][0]["seats"] = selectors.history(cup, 2)[0].tables[0].seats
    round.seating["tables"][0]["first_dealer"] = round.seating["tables"][0]["seats"][0]
    round.save()
    names = selectors.names(cup)
    a, b = sorted(round.seating["tables"][0]["seats"][:2])

    text = html(as_persona("owner").get(url(round)))

    warnings = text.split('id="draft-warnings"')[1].split("</div>")[0]
    assert f"{names[a]} and {names[b]} met in the last round too" in warnings


def test_the_repeat_meetings_matrix_counts_the_rounds_played_and_the_draft(as_persona, cup):
    play_round(cup, deals=2)
    round = draft(cup)

    text = html(as_persona("owner").get(url(round)))

    matrix = text.split('class="data compact meeting-matrix"')[1].split("</table>")[0]
    assert matrix.count("<tr>") == 11  # a head and a row a player
    assert matrix.count("—") == 10  # nobody meets himself


def test_a_large_field_shows_only_the_pairs_that_met_twice(as_persona, club_a):
    cup = make_tournament(club_a, names=[f"Player {n:02}" for n in range(MATRIX_MAX + 4)])
    first = play_round(cup, deals=2)
    round = draft(cup)
    table = first.seating["tables"][0]["seats"]
    services.draft_swap(round=round, first=table[0], second=round.seating["tables"][0]["seats"][0])
    round = fresh(round)
    round.tournament = cup

    text = html(as_persona("owner").get(url(round)))

    assert "meeting-matrix" not in text
    assert ('id="no-repeats"' in text) != ("These pairs meet more than once:" in text)


def test_five_players_leave_one_out_and_the_page_says_why(as_persona, club_a):
    cup = make_tournament(club_a, names=["Anna", "Boris", "Vera", "Gleb", "Dana"])
    round = draft(cup)
    out = selectors.names(cup)[round.seating["byes"][0]["player"]]

    text = html(as_persona("owner").get(url(round)))

    byes = text.split('id="draft-byes"')[1]
    assert f"<strong>{out}</strong>" in byes
    assert "one player sits out each round in turn" in byes


# --- editing the draft ----------------------------------------------------------------------


DRAFT_ACTIONS = ["swap", "lock", "redraw", "discard", "publish"]


def _draft_data(round: Round, action: str) -> dict:
    tables = round.seating["tables"]
    if action == "swap":
        return {"first": tables[0]["seats"][0], "second": tables[1]["seats"][0]}
    if action == "lock":
        return {"table": "1", "lock": "1"}
    return {}


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "player", "secretary"])
@pytest.mark.parametrize("action", DRAFT_ACTIONS)
def test_only_the_owner_edits_and_publishes_a_draft(as_persona, cup, persona, action):
    round = draft(cup)
    before = snapshot(cup)

    response = as_persona(persona).post(url(round, action), _draft_data(round, action))

    assert response.status_code == MANAGE[persona]
    assert snapshot(cup) == before


@pytest.mark.parametrize("action", DRAFT_ACTIONS)
def test_the_owners_draft_actions_redirect_back_with_a_message(as_persona, cup, action):
    round = draft(cup)

    response = as_persona("owner").post(url(round, action), _draft_data(round, action))

    assert response.status_code == 302
    back = cup.get_absolute_url() if action == "discard" else url(round)
    assert response["Location"] == back
    page = html(as_persona("owner").get(back))
    assert 'class="message success"' in page


def test_swapping_two_players_exchanges_their_seats(as_persona, cup):
    round = draft(cup)
    before = seats(round)
    first, second = before[0][1], before[1][2]
    names = selectors.names(cup)

    response = as_persona("owner").post(
        url(round, "swap"), {"first": first, "second": second}, headers=HTMX
    )

    after = seats(round)
    assert after[0][1] == second
    assert after[1][2] == first
    assert after[2] == before[2]
    text = assert_fragment(response, "round")
    assert f"{names[first]} and {names[second]} have exchanged seats." in text
    assert fresh(round).state == RoundState.DRAFT


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"first": "999999", "second": "FIRST"}, "Choose a player of this tournament."),
        ({"first": "x", "second": "FIRST"}, "Choose two players of this round."),
        ({"first": "٣", "second": "FIRST"}, "Choose two players of this round."),
        ({"second": "FIRST"}, "Choose two players of this round."),
        ({"first": "FIRST", "second": "FIRST"}, "Choose two different players."),
        ({"first": "9" * 30, "second": "FIRST"}, "Choose two players of this round."),
    ],
)
def test_a_swap_that_names_nobody_changes_nothing(as_persona, cup, data, message):
    round = draft(cup)
    first = str(seats(round)[0][0])
    data = {k: first if v == "FIRST" else v for k, v in data.items()}
    before = snapshot(cup)
    client = as_persona("owner")

    fragment = client.post(url(round, "swap"), data, headers=HTMX)
    page = client.post(url(round, "swap"), data, follow=True)

    assert message in assert_fragment(fragment, "round")
    assert 'role="alert" id="round-outcome"' in html(fragment)
    assert message in html(page)
    assert snapshot(cup) == before


def test_a_locked_table_keeps_its_players_through_a_swap_and_a_redraw(as_persona, cup):
    round = draft(cup)
    client = as_persona("owner")
    before = seats(round)

    locked = client.post(url(round, "lock"), {"table": "2", "lock": "1"}, headers=HTMX)
    swap = client.post(
        url(round, "swap"), {"first": before[1][0], "second": before[0][0]}, headers=HTMX
    )
    seed = fresh(round).seed
    client.post(url(round, "redraw"), headers=HTMX)

    assert "Table 2 is locked: a new draw keeps it." in assert_fragment(locked, "round")
    assert "sits at locked table 2: unlock it first." in assert_fragment(swap, "round")
    assert fresh(round).seed != seed
    assert seats(round)[1] == before[1]
    assert fresh(round).seating["tables"][1]["locked"] is True


def test_unlocking_a_table(as_persona, cup):
    round = draft(cup)
    services.draft_lock(round=round, table=1, lock=True)

    response = as_persona("owner").post(
        url(round, "lock"), {"table": "1", "lock": "0"}, headers=HTMX
    )

    assert "Table 1 is unlocked." in assert_fragment(response, "round")
    assert fresh(round).seating["tables"][0]["locked"] is False


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table": "9", "lock": "1"}, "There is no table 9 in this seating."),
        ({"table": "one", "lock": "1"}, "Choose a table of this round."),
        ({"table": "1", "lock": "yes"}, "Choose to lock or to unlock the table."),
    ],
)
def test_a_lock_of_no_table_changes_nothing(as_persona, cup, data, message):
    round = draft(cup)
    before = snapshot(cup)

    response = as_persona("owner").post(url(round, "lock"), data, headers=HTMX)

    assert message in assert_fragment(response, "round")
    assert snapshot(cup) == before


def test_discarding_the_draft_goes_back_to_the_tournament(as_persona, cup):
    round = draft(cup)

    response = as_persona("owner").post(url(round, "discard"), headers=HTMX)

    assert response["HX-Redirect"] == cup.get_absolute_url()
    assert not Round.objects.filter(tournament=cup).exists()
    assert "The draft of round 1 is discarded." in html(
        as_persona("owner").get(cup.get_absolute_url())
    )


def test_a_published_round_cannot_be_discarded_or_swapped(as_persona, cup):
    round = published(cup)
    before = snapshot(cup)
    client = as_persona("owner")

    discard = client.post(url(round, "discard"), headers=HTMX)
    swap = client.post(url(round, "swap"), _draft_data(round, "swap"), headers=HTMX)

    for response in (discard, swap):
        assert "Round 1 is already published: its draft cannot change." in assert_fragment(
            response, "round"
        )
    assert snapshot(cup) == before


# --- publishing -----------------------------------------------------------------------------


def test_publishing_seats_each_table_as_drawn(as_persona, club_a):
    cup = make_tournament(club_a, deal_cap=12)
    round = draft(cup)
    drawn = round.seating["tables"]

    response = as_persona("owner").post(url(round, "publish"), headers=HTMX)

    round = fresh(round)
    assert round.state == RoundState.PUBLISHED
    assert round.evening.club == club_a
    tables = list(RoundTable.objects.filter(round=round).order_by("number"))
    assert [t.number for t in tables] == [t["number"] for t in drawn]
    for table, plan in zip(tables, drawn, strict=True):
        pulka = table.pulka
        assert [s.player_id for s in pulka.seats.order_by("position")] == plan["seats"]
        assert (
            pulka.seats.order_by("position")[pulka.first_dealer].player_id == plan["first_dealer"]
        )
        assert (pulka.deal_cap, pulka.table, pulka.status) == (
            12,
            plan["number"],
            PulkaStatus.RUNNING,
        )
        assert pulka.rules == cup.rules
    text = assert_fragment(response, "round")
    assert "Round 1 is published: 3 tables." in text
    assert 'id="round-tables"' in text


def test_once_published_the_swapped_fragment_links_the_seating_not_the_draft(as_persona, club_a):
    cup = make_tournament(club_a)
    round = draft(cup)
    client = as_persona("owner")
    seating = reverse(
        "competition:tournament-print-seating", args=[club_a.slug, cup.pk, round.number]
    )
    before = html(client.get(url(round), headers=HTMX))
    assert "Draft seating (PDF)" in before

    text = assert_fragment(client.post(url(round, "publish"), headers=HTMX), "round")

    links = text.split('id="print-links"', 1)[1].split("</nav>", 1)[0]
    assert f'href="{seating}"' in links
    assert "Seating for the notice board (PDF)" in links
    assert "Draft" not in links
    assert "Table protocols (PDF)" in links
    page = html(client.get(url(round)))
    assert page.count('id="print-links"') == 1
    assert "Draft seating (PDF)" not in page


def test_a_withdrawn_player_in_the_draft_blocks_publishing(as_persona, cup):
    round = draft(cup)
    services.entry_withdraw(entry=Entry.objects.get(tournament=cup, player__name="Boris"))
    table = next(t["number"] for t in round.seating["tables"] if pid(cup, "Boris") in t["seats"])
    before = snapshot(cup)

    page = html(as_persona("owner").get(url(round)))
    response = as_persona("owner").post(url(round, "publish"), headers=HTMX)

    message = f"Boris has withdrawn but sits at table {table}"
    assert message in page.split('id="draft-problems"')[1]
    assert message in assert_fragment(response, "round")
    assert snapshot(cup) == before
    assert not Evening.objects.filter(club=cup.club).exists()


def test_the_refusal_to_publish_says_each_problem_as_a_sentence(as_persona, cup):
    # Regression: the problems (listed without stops on the draft page) were run together
    # in the message: "... sits at table 3 9 players sit at tables of 3 + 3 + 3, ...".
    play_round(cup, deals=2)
    round = draft(cup)
    services.entry_withdraw(entry=Entry.objects.get(tournament=cup, player__name="Boris"))
    table = next(t["number"] for t in round.seating["tables"] if pid(cup, "Boris") in t["seats"])

    response = as_persona("owner").post(url(round, "publish"), headers=HTMX)

    assert (
        f"Boris has withdrawn but sits at table {table}. "
        "9 players sit at tables of 3 + 3 + 3, not 4 + 3 + 3."
    ) in assert_fragment(response, "round")
    assert fresh(round).state == RoundState.DRAFT


def test_a_late_entry_left_out_of_the_draft_blocks_publishing(as_persona, cup):
    round = draft(cup)
    services.entries_add(tournament=cup, names=["Olha"])
    before = snapshot(cup)

    response = as_persona("owner").post(url(round, "publish"), follow=True)

    assert "Olha has no seat" in html(response)
    assert snapshot(cup) == before
    assert fresh(round).state == RoundState.DRAFT


# --- playing --------------------------------------------------------------------------------


PLAY_ACTIONS = ["start", "end-table", "reseat", "confirm"]


def _play_data(round: Round, action: str) -> dict:
    tables = round.seating["tables"]
    if action == "reseat":
        return {"first": tables[0]["seats"][0], "second": tables[1]["seats"][0]}
    if action == "end-table":
        return {"table": "1"}
    return {}


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("action", PLAY_ACTIONS)
def test_who_may_run_a_published_round(as_persona, cup, persona, action):
    round = published(cup)
    if action == "confirm":
        end_all(round)
    if action == "end-table":
        services.round_start(round=round)  # a secretary ends tables of a running round
    before = snapshot(cup)

    response = as_persona(persona).post(url(round, action), _play_data(round, action))

    allowed = RECORD if action == "end-table" else MANAGE
    if allowed[persona] == 200:
        assert response.status_code == 302
        assert response["Location"] == url(round)
        assert snapshot(cup) != before
    else:
        assert response.status_code == allowed[persona]
        assert snapshot(cup) == before


def test_starting_the_round(as_persona, cup):
    round = published(cup)

    response = as_persona("owner").post(url(round, "start"), headers=HTMX)
    again = as_persona("owner").post(url(round, "start"), headers=HTMX)

    assert fresh(round).state == RoundState.PLAYING
    assert fresh(round).started_at is not None
    assert "Round 1 has started." in assert_fragment(response, "round")
    assert "Round 1 is playing: this cannot be done now." in assert_fragment(again, "round")


def test_a_secretary_ends_a_table_on_time(as_persona, club_a):
    rules = engine.rules_to_dict(engine.preset_rules("sochi", pool_target=50))
    round = services.round_start(round=published(make_tournament(club_a, rules=rules)))
    play(round, deals=1)
    table = RoundTable.objects.get(round=round, number=1)
    running_before = table.pulka.is_running

    response = as_persona("secretary").post(url(round, "end-table"), {"table": "1"}, headers=HTMX)

    table.pulka.refresh_from_db()
    assert running_before
    assert table.pulka.status in (PulkaStatus.FINISHED, PulkaStatus.ABANDONED)
    assert "Table 1 is ended." in assert_fragment(response, "round")


def test_only_the_organiser_ends_the_tables_of_a_round_that_has_not_started(as_persona, cup):
    round = published(cup)
    before = snapshot(cup)

    refused = as_persona("secretary").post(url(round, "end-table"), {"table": "1"}, headers=HTMX)

    assert "Round 1 has not started: only the organiser can end its tables." in (
        assert_fragment(refused, "round")
    )
    assert snapshot(cup) == before
    ended = as_persona("owner").post(url(round, "end-table"), {"table": "1"}, headers=HTMX)
    assert "Table 1 is ended." in assert_fragment(ended, "round")


def test_the_loser_of_a_confirm_race_sees_the_round_confirmed(as_persona, cup, monkeypatch):
    round = published(cup)
    end_all(round)
    stale = Round.objects.get(pk=round.pk)
    # The second secretary's request read the round before the first one confirmed it.
    monkeypatch.setattr(selectors, "round_of", _first_read_is(stale, selectors.round_of))
    services.round_confirm(round=round, by=None)

    response = as_persona("owner").post(url(round, "confirm"), headers=HTMX)

    text = assert_fragment(response, "round")
    assert 'id="confirm-round"' not in text
    assert fresh(round).state == RoundState.CONFIRMED


def _first_read_is(stale: Round, read):
    """round_of that answers `stale` once (as the racing request saw it), then reads."""
    calls = []

    def round_of(tournament, number):
        calls.append(number)
        return stale if len(calls) == 1 else read(tournament, number)

    return round_of


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("9", "There is no table 9 in this round."),
        ("", "Choose a table of this round."),
        ("-1", "Choose a table of this round."),
    ],
)
def test_ending_no_table_changes_nothing(as_persona, cup, table, message):
    round = published(cup)
    before = snapshot(cup)

    response = as_persona("owner").post(url(round, "end-table"), {"table": table}, headers=HTMX)

    assert message in assert_fragment(response, "round")
    assert snapshot(cup) == before


def test_confirming_is_refused_while_tables_are_running_and_says_which(as_persona, cup):
    round = published(cup)
    services.table_end(round=round, number=2, by=None)
    before = snapshot(cup)

    fragment = as_persona("owner").post(url(round, "confirm"), headers=HTMX)
    page = as_persona("owner").post(url(round, "confirm"), follow=True)

    message = "Tables still running: 1, 3. End them before confirming the round."
    assert message in assert_fragment(fragment, "round")
    assert message in html(page)
    assert snapshot(cup) == before
    assert fresh(round).state == RoundState.PUBLISHED


def test_a_confirmed_round_counts_in_the_standings_on_the_home(as_persona, cup):
    round = published(cup)
    play(round, deals=2)
    end_all(round)

    response = as_persona("owner").post(url(round, "confirm"), headers=HTMX)

    assert fresh(round).state == RoundState.CONFIRMED
    text = assert_fragment(response, "round")
    assert "Round 1 is confirmed: it counts in the standings." in text
    assert 'id="round-actions"' not in text
    home = html(as_persona("player").get(cup.get_absolute_url()))
    assert len(selectors.standings(cup).lines) == 10
    assert "The standings start when" not in home


def test_reseating_two_players_at_tables_without_deals(as_persona, cup):
    round = published(cup)
    tables = seats(round)
    first, second = tables[0][0], tables[1][1]

    response = as_persona("owner").post(
        url(round, "reseat"), {"first": first, "second": second}, headers=HTMX
    )

    one = RoundTable.objects.get(round=round, number=1).pulka
    two = RoundTable.objects.get(round=round, number=2).pulka
    assert one.seats.get(position=0).player_id == second
    assert two.seats.get(position=1).player_id == first
    assert seats(round)[0][0] == second
    assert "have exchanged seats." in assert_fragment(response, "round")


def test_a_table_that_has_started_keeps_its_players(as_persona, cup):
    round = published(cup)
    play(round, deals=1)
    tables = seats(round)
    before = snapshot(cup)

    response = as_persona("owner").post(
        url(round, "reseat"), {"first": tables[0][0], "second": tables[1][0]}, headers=HTMX
    )

    assert "Table 1 has started: its players stay." in assert_fragment(response, "round")
    assert snapshot(cup) == before


def test_a_reseat_of_someone_not_seated_changes_nothing(as_persona, cup):
    round = published(cup)
    services.entries_add(tournament=cup, names=["Olha"])
    before = snapshot(cup)

    response = as_persona("owner").post(
        url(round, "reseat"),
        {"first": pid(cup, "Olha"), "second": seats(round)[0][0]},
        headers=HTMX,
    )

    assert "Olha has no seat in this round." in assert_fragment(response, "round")
    assert snapshot(cup) == before


# --- live pools and corrections -------------------------------------------------------------


def test_the_tables_show_their_live_pools_and_first_dealers(as_persona, cup):
    round = published(cup)
    play(round, deals=1)

    text = html(as_persona("player").get(url(round)))

    for table in selectors.round_tables(round):
        pulka = table.pulka
        card = text.split(f'id="round-table-{table.number}"')[1]
        assert f'id="table-{pulka.pk}"' in card
        assert f"{pulka.names[pulka.first_dealer]} deals first" in card
        for name in pulka.names:
            assert f"<td>{name}</td>" in card


def test_the_tables_poll_answers_204_until_a_deal_is_entered(as_persona, cup):
    round = published(cup)
    client = as_persona("player")
    page = html(client.get(url(round)))
    token = page.split(f"{url(round)}?v=")[1].split('"')[0]

    unchanged = client.get(url(round), {"v": token}, headers=HTMX)
    play(round, deals=1)
    changed = client.get(url(round), {"v": token}, headers=HTMX)

    assert unchanged.status_code == 204
    text = assert_fragment(changed, "round-tables")
    assert 'id="round-actions"' not in text


def test_a_confirmed_round_corrected_later_says_the_standings_include_it(as_persona, cup):
    round = play_round(cup, deals=2)
    pulka = next(t.pulka for t in selectors.round_tables(round) if t.pulka.deals.exists())
    notice = "A deal was corrected after the round was confirmed; the standings include it."
    before = html(as_persona("player").get(url(round)))
    last = pulka.deals.order_by("number").last()
    names = pulka.names
    earlier = [d.to_engine(names) for d in pulka.deals.order_by("number") if d.number < last.number]
    for seed in range(50):  # another valid deal in its place
        data, _sheet = next_valid_deal(
            random.Random(seed), pulka.engine_rules(), names, names[pulka.first_dealer], earlier
        )
        if data != last.to_pulka_dict(names):
            break

    deal_update(
        pulka=pulka,
        number=last.number,
        data=data,
        expected_version=last.version,
        changed_by=None,
        reason="The judge corrected a misread sheet.",
    )

    assert notice not in before
    assert notice in html(as_persona("player").get(url(round)))


# --- cost -----------------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["draft", "published"])
def test_the_round_page_costs_the_same_for_8_players_and_for_24(as_persona, club_a, state):
    counts = []
    client = as_persona("owner")
    for size in (8, 24):
        cup = make_tournament(
            club_a, names=[f"P{size}-{n}" for n in range(size)], name=f"Cup {size}"
        )
        round = draft(cup) if state == "draft" else published(cup)
        client.get(url(round))  # the sheets' cache is warm, as on a busy evening
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(round)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_draft_warns_of_a_team_too_small(client, owner, club_a):
    cup = make_tournament(club_a, team_best=2)
    entries = list(cup.entries.order_by("pk"))
    for entry, team in zip(entries, ["Aces"] * 3 + ["Kings"] * 2, strict=False):
        entry.team = team
        entry.save(update_fields=["team"])
    round = draft(cup)
    client.force_login(owner)

    text = html(client.get(round.get_absolute_url()))

    assert "Team Kings has 2 players: a team has 3 to 5." in text
    assert "Team Aces" not in text
