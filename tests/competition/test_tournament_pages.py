"""The organiser's tournament pages: the club's list, the settings form, the home, entries
and penalties. Who reads and who writes each, their htmx fragments, and what they do.

The round page has its own file (test_tournament_round_page.py)."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.urls import reverse

from club.models import Player, Role
from competition.models import Entry, EntryStatus, Penalty, Round, RoundState, Tournament
from competition.templatetags.tournament_format import total as points
from competition.templatetags.tournament_format import total_title
from competition.tournament import selectors, services
from scoring import engine
from scoring.models import Evening
from tests.club.factories import (
    MANAGE,
    READ,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    html,
)
from tests.competition.factories import (
    draft,
    make_tournament,
    play_round,
    published,
    rules_post,
    settings_post,
)
from tests.conftest import HTMX, PERSONAS, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(club_a) -> Tournament:
    return make_tournament(club_a)


def url(name: str, tournament: Tournament | None = None, *args, club: str = "sochi") -> str:
    ids = [tournament.pk, *args] if tournament is not None else []
    return reverse(f"competition:{name}", args=[club, *ids])


# --- the list -------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_clubs_tournaments_are_read_by_its_members(as_persona, cup, persona):
    play_round(cup, deals=2)
    draft(cup)

    response = as_persona(persona).get(url("tournament-list"))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(response, "tournaments")
        assert "Club Cup" in text
        assert "1 of 3" in text  # rounds played of planned
        assert "round 2 is being seated" in text
        assert ('id="new-tournament"' in text) == (persona == "owner")


def test_a_public_clubs_tournaments_are_read_by_anyone(client, public_club):
    make_tournament(public_club, name="Open Cup")

    text = assert_full_page(client.get(url("tournament-list", club="open")), "tournaments")

    assert "Open Cup" in text
    assert "entries open" in text
    assert 'id="new-tournament"' not in text


def test_the_list_fragment_for_htmx(as_persona, cup):
    text = assert_fragment(
        as_persona("player").get(url("tournament-list"), headers=HTMX), "tournaments"
    )

    assert "Club Cup" in text


def test_the_club_page_links_to_its_tournaments(as_persona, club_a):
    text = html(as_persona("player").get("/c/sochi/"))

    assert f'href="{url("tournament-list")}" id="nav-tournaments"' in text


def test_a_finished_tournament_says_so_in_the_list(as_persona, club_a):
    cup = make_tournament(club_a, round_count=1)
    play_round(cup, deals=2)

    text = html(as_persona("player").get(url("tournament-list")))

    assert "1 of 1" in text
    assert "finished" in text


# --- creating and editing -------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_opens_a_tournament(as_persona, club_a, persona):
    client = as_persona(persona)

    page = client.get(url("tournament-create"))
    response = client.post(url("tournament-create"), settings_post(counted="on"))

    assert page.status_code == MANAGE[persona]
    created = Tournament.objects.filter(club=club_a).first()
    if MANAGE[persona] == 200:
        assert_full_page(page, "tournament-form")
        assert response.status_code == 302
        assert response["Location"] == url("tournament-entries", created)
        assert created.name == "Spring Cup"
        assert created.start == datetime.date(2024, 4, 6)
        assert (created.round_count, created.deal_cap, created.seating) == (5, 18, "swiss")
        assert created.caps == services.caps_from_text(services.CAPS_PRESETS["200-650"])
        assert created.counted is True
        assert created.created_by.username == "olena"
        assert created.rules == engine.rules_to_dict(engine.preset_rules("sochi", pool_target=10))
    else:
        assert response.status_code == MANAGE[persona]
        assert created is None


def test_the_form_starts_from_the_clubs_conventions(as_persona, club_a):
    club_a.rules = engine.rules_to_dict(engine.preset_rules("leningrad"))
    club_a.pool_target = 30
    club_a.save()

    text = html(as_persona("owner").get(url("tournament-create")))

    assert '<option value="leningrad" selected>' in text
    assert 'name="rules-pool_target" value="30"' in text


def test_the_conventions_posted_are_the_tournaments(as_persona, club_a):
    data = {k: v for k, v in settings_post().items() if not k.startswith("rules-")}

    as_persona("owner").post(url("tournament-create"), data | rules_post("leningrad", 20))

    created = Tournament.objects.get(club=club_a)
    assert created.rules == engine.rules_to_dict(engine.preset_rules("leningrad", pool_target=20))


def test_custom_caps_tie_breaks_and_a_final_are_stored(as_persona, club_a):
    data = settings_post(
        caps_preset="custom",
        caps="0:1, 100:1/2, 300:0",
        tie_break_1="table_wins",
        tie_break_2="best_round",
        tie_break_3="",
        tie_break_4="",
        stage_after="4",
        stage_top="4",
        stage_keep_totals="",
        floor="-1000",
        team_best="3",
    )

    as_persona("owner").post(url("tournament-create"), data)

    created = Tournament.objects.get(club=club_a)
    assert created.caps == [["0", "1"], ["100", "1/2"], ["300", "0"]]
    assert created.tie_breaks == ["table_wins", "best_round"]
    assert (created.stage_after, created.stage_top, created.stage_keep_totals) == (4, 4, False)
    assert (created.floor, created.team_best) == (-1000, 3)


def test_caps_that_do_not_increase_are_refused_and_nothing_is_saved(as_persona, club_a):
    data = settings_post(caps_preset="custom", caps="0:1, 650:1/10, 200:0")

    response = as_persona("owner").post(url("tournament-create"), data)
    fragment = as_persona("owner").post(url("tournament-create"), data, headers=HTMX)

    assert response.status_code == 200
    text = html(response)
    assert "The caps&#x27; breakpoints must increase: 200 comes after 650." in text
    assert 'value="0:1, 650:1/10, 200:0"' in text  # what was typed stays to be corrected
    assert "The caps&#x27; breakpoints must increase" in assert_fragment(
        fragment, "tournament-form"
    )
    assert not Tournament.objects.filter(club=club_a).exists()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"caps_preset": "custom", "caps": "0:1, 200"}, "caps", "is not a step"),
        ({"caps_preset": "custom", "caps": ""}, "caps", "The caps rule needs its steps."),
        ({"stage_after": "3", "stage_top": ""}, "stage_top", "A final needs both"),
        ({"stage_after": "5", "stage_top": "4"}, "stage_after", "before the last round"),
        ({"tie_break_2": "adjusted_whists"}, "tie_break_2", "Each tie-break can be chosen once."),
        ({"round_count": "16"}, "round_count", "less than or equal to 15"),
        ({"round_count": "٣"}, "round_count", "Enter a whole number."),
    ],
)
def test_settings_that_make_no_sense_are_refused_on_their_field(
    as_persona, club_a, fields, field, message
):
    response = as_persona("owner").post(url("tournament-create"), settings_post(**fields))

    text = html(response)
    assert response.status_code == 200
    assert message in text.replace("&#x27;", "'")
    assert 'class="field invalid"' in text
    assert not Tournament.objects.filter(club=club_a).exists()


def test_an_htmx_create_sends_the_browser_to_the_entries(as_persona, club_a):
    response = as_persona("owner").post(url("tournament-create"), settings_post(), headers=HTMX)

    created = Tournament.objects.get(club=club_a)
    assert response["HX-Redirect"] == url("tournament-entries", created)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_edits_a_tournament(as_persona, cup, persona):
    client = as_persona(persona)

    page = client.get(url("tournament-edit", cup))
    response = client.post(url("tournament-edit", cup), settings_post(name="Renamed Cup"))

    assert page.status_code == MANAGE[persona]
    cup.refresh_from_db()
    if MANAGE[persona] == 200:
        assert 'value="Club Cup"' in assert_full_page(page, "tournament-form")
        assert response["Location"] == cup.get_absolute_url()
        assert (cup.name, cup.round_count, cup.deal_cap) == ("Renamed Cup", 5, 18)
    else:
        assert response.status_code == MANAGE[persona]
        assert cup.name == "Club Cup"


def test_the_edit_form_shows_the_stored_caps_and_tie_breaks(as_persona, club_a):
    cup = make_tournament(
        club_a, caps=services.caps_from_text("0:1, 100:1/2"), tie_breaks=["best_round"]
    )

    text = html(as_persona("owner").get(url("tournament-edit", cup)))

    assert '<option value="custom" selected>' in text
    assert 'value="0:1, 100:1/2"' in text
    assert '<option value="best_round" selected>' in text


def test_once_a_round_is_out_the_conventions_and_deal_cap_stay(as_persona, cup):
    published(cup)
    rules = dict(cup.rules)
    other = settings_post(name="Renamed", deal_cap="5")
    other["rules-preset"] = "rostov"

    page = html(as_persona("owner").get(url("tournament-edit", cup)))
    as_persona("owner").post(url("tournament-edit", cup), other)

    cup.refresh_from_db()
    assert 'id="rules-locked"' in page
    assert cup.name == "Renamed"
    assert cup.rules == rules
    assert cup.deal_cap is None


def test_counting_a_tournament_in_the_leagues_marks_its_evenings(as_persona, cup):
    published(cup)

    as_persona("owner").post(url("tournament-edit", cup), settings_post(counted="on"))

    assert list(
        Evening.objects.filter(tournament_round__tournament=cup).values_list("counted", flat=True)
    ) == [True]


def test_anonymous_on_a_public_club_is_sent_to_log_in_to_write(client, public_club):
    cup = make_tournament(public_club)
    for address in (
        url("tournament-create", club="open"),
        url("tournament-edit", cup, club="open"),
    ):
        assert_login_redirect(client.get(address), address)
        assert_login_redirect(client.post(address, settings_post()), address)
        assert_htmx_login_redirect(client.post(address, settings_post(), headers=HTMX))
    assert Tournament.objects.filter(club=public_club).count() == 1


# --- the home -------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_home_is_read_by_the_clubs_members(as_persona, cup, persona):
    response = as_persona(persona).get(url("tournament-detail", cup))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(response, "rounds")
        assert "Club Cup" in text
        assert ('id="organiser-links"' in text) == (persona == "owner")
        assert ('id="draw-round"' in text) == (persona == "owner")


def test_the_home_says_the_rules_the_entries_the_rounds_and_the_standings(as_persona, cup):
    one = play_round(cup, deals=2)
    draft(cup)
    Entry.objects.filter(tournament=cup, player__name="Lev").update(status=EntryStatus.WITHDRAWN)
    standings = selectors.standings(cup)
    names = selectors.names(cup)

    text = html(as_persona("player").get(url("tournament-detail", cup)))

    for line in selectors.rule_words(cup):
        assert line.replace("'", "&#x27;") in text
    assert "10 players entered, 1 withdrawn." in text
    assert f'href="{one.get_absolute_url()}"' in text
    assert "being seated" in text  # round 2, a draft: no seat is shown to a player
    assert "not drawn yet" in text  # round 3
    leader = standings.lines[0]
    assert f"<td>{names[leader.player]}</td>" in text
    assert f'<td class="num">{total_title(leader.score)}</td>' in text


def test_the_home_shows_the_first_ten_of_the_standings(as_persona, club_a):
    cup = make_tournament(club_a, names=[f"Player {n:02}" for n in range(12)])
    play_round(cup, deals=2)

    text = html(as_persona("player").get(url("tournament-detail", cup)))

    assert "The first 10 of 12 players." in text
    assert text.count("<tr>", text.index('id="standings-top"')) == 11  # the head and 10 lines


def test_the_home_links_to_the_pages_for_the_players_when_they_exist(as_persona, cup):
    text = html(as_persona("player").get(url("tournament-detail", cup)))

    for name, label in [
        ("tournament-find", "Find your table"),
        ("tournament-screen", "Projector"),
        ("tournament-standings", "The full standings"),
    ]:
        address = reverse(f"competition:{name}", args=["sochi", cup.pk])
        assert (label in text) == bool(address)
        if address:
            assert f'href="{address}"' in text


def test_scores_are_written_as_the_standings_write_them():
    assert points(Fraction(415, 2)) == "207.50"
    assert points(Fraction(-40, 3)) == "−13.33"
    assert total_title(Fraction(-40, 3)) == '<span title="−40/3">−13.33</span>'
    assert points(Fraction(12)) == "12"
    assert points(-3) == "−3"


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_draws_the_next_round(as_persona, cup, persona):
    response = as_persona(persona).post(url("round-draw", cup))

    drawn = Round.objects.filter(tournament=cup).first()
    if MANAGE[persona] == 200:
        assert response.status_code == 302
        assert response["Location"] == url("round-detail", cup, 1)
        assert drawn.state == RoundState.DRAFT
        assert sorted(
            drawn.seating["tables"][0]["seats"]
            + drawn.seating["tables"][1]["seats"]
            + drawn.seating["tables"][2]["seats"]
        ) == sorted(selectors.names(cup))
    else:
        assert response.status_code == MANAGE[persona]
        assert drawn is None


def test_the_next_round_waits_for_the_last_to_be_confirmed(as_persona, cup):
    published(cup)
    client = as_persona("owner")

    fragment = client.post(url("round-draw", cup), headers=HTMX)
    page = client.post(url("round-draw", cup), follow=True)

    message = "Round 1 is not confirmed yet: confirm it before drawing the next."
    assert message in assert_fragment(fragment, "rounds")
    assert message in html(page)
    assert Round.objects.filter(tournament=cup).count() == 1


def test_the_home_fragment_for_htmx(as_persona, cup):
    text = assert_fragment(
        as_persona("player").get(url("tournament-detail", cup), headers=HTMX), "rounds"
    )

    assert "not drawn yet" in text


# --- entries --------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_entries_are_read_by_members_and_added_by_the_owner(as_persona, cup, persona):
    client = as_persona(persona)

    page = client.get(url("tournament-entries", cup))
    response = client.post(
        url("tournament-entries", cup), {"names": "Olha\n\n Petro \n", "team": "Aces"}
    )

    assert page.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(page, "entries")
        assert "Anna" in text
        assert ('id="entries-form"' in text) == (persona == "owner")
    added = Entry.objects.filter(tournament=cup, player__name__in=["Olha", "Petro"])
    if MANAGE[persona] == 200:
        assert response.status_code == 302
        assert sorted(e.player.name for e in added) == ["Olha", "Petro"]
        assert {e.team for e in added} == {"Aces"}
        assert Player.objects.filter(club=cup.club, name="Olha").exists()  # on the roster now
    else:
        assert response.status_code == (404 if persona in ("anonymous", "outsider") else 403)
        assert not added.exists()


def test_entering_answers_htmx_with_the_list(as_persona, cup):
    response = as_persona("owner").post(
        url("tournament-entries", cup), {"names": "Olha"}, headers=HTMX
    )

    text = assert_fragment(response, "entries")
    assert "1 player entered." in text
    assert "<td>Olha</td>" in text


def test_a_player_entered_twice_is_refused(as_persona, cup):
    response = as_persona("owner").post(url("tournament-entries", cup), {"names": "Olha\nanna"})

    assert "Already entered: Anna." in html(response)
    assert not Entry.objects.filter(tournament=cup, player__name="Olha").exists()


def test_an_empty_list_of_names_is_refused(as_persona, cup):
    response = as_persona("owner").post(
        url("tournament-entries", cup), {"names": " \n \n"}, headers=HTMX
    )

    assert "Name at least one player." in assert_fragment(response, "entries")


def test_a_late_entry_plays_from_the_next_round(as_persona, cup):
    published(cup)

    response = as_persona("owner").post(
        url("tournament-entries", cup), {"names": "Olha"}, headers=HTMX
    )

    text = assert_fragment(response, "entries")
    assert "1 player entered, from round 2." in text
    assert "from round 2" in text.split("<td>Olha</td>")[1]
    assert Entry.objects.get(tournament=cup, player__name="Olha").first_round == 2


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_withdraws_and_restores(as_persona, cup, persona):
    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    client = as_persona(persona)

    withdrawn = client.post(url("entry-withdraw", cup, anna.pk))
    anna.refresh_from_db()
    after_withdraw = anna.status
    restored = client.post(url("entry-restore", cup, anna.pk))
    anna.refresh_from_db()

    if MANAGE[persona] == 200:
        assert withdrawn.status_code == restored.status_code == 302
        assert after_withdraw == EntryStatus.WITHDRAWN
        assert anna.status == EntryStatus.ACTIVE
    else:
        assert withdrawn.status_code == restored.status_code == MANAGE[persona]
        assert after_withdraw == anna.status == EntryStatus.ACTIVE


def test_a_withdrawal_shows_in_the_list_after_the_rounds_played(as_persona, cup):
    play_round(cup, deals=2)
    anna = Entry.objects.get(tournament=cup, player__name="Anna")

    response = as_persona("owner").post(url("entry-withdraw", cup, anna.pk), headers=HTMX)

    text = assert_fragment(response, "entries")
    assert "Anna is withdrawn." in text
    assert "withdrawn after round 1" in text.split("<td>Anna</td>")[1]


def test_a_player_restored_after_a_round_plays_again_from_the_next(as_persona, cup):
    # Regression: the message named his first round ("plays again from round 1").
    play_round(cup, deals=2)
    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    client = as_persona("owner")
    client.post(url("entry-withdraw", cup, anna.pk))

    response = client.post(url("entry-restore", cup, anna.pk), headers=HTMX)

    assert "Anna plays again from round 2." in assert_fragment(response, "entries")


def test_withdrawing_twice_says_so(as_persona, cup):
    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    client = as_persona("owner")
    client.post(url("entry-withdraw", cup, anna.pk))

    response = client.post(url("entry-withdraw", cup, anna.pk), follow=True)

    assert "This player is already withdrawn." in html(response)


def test_an_entry_of_another_tournament_is_404(as_persona, club_a, cup):
    other = make_tournament(club_a, names=["Olha", "Petro", "Roman"], name="Other")
    entry = other.entries.first()

    response = as_persona("owner").post(url("entry-withdraw", cup, entry.pk))

    assert response.status_code == 404
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE


def test_the_owner_sets_a_players_team(as_persona, cup):
    anna = Entry.objects.get(tournament=cup, player__name="Anna")

    response = as_persona("owner").post(
        url("entry-team", cup, anna.pk), {"team": " Aces "}, headers=HTMX
    )

    anna.refresh_from_db()
    assert anna.team == "Aces"
    assert "Anna plays for team Aces." in assert_fragment(response, "entries")


def test_a_team_name_too_long_is_refused(as_persona, cup):
    anna = Entry.objects.get(tournament=cup, player__name="Anna")

    response = as_persona("owner").post(
        url("entry-team", cup, anna.pk), {"team": "x" * 61}, headers=HTMX
    )

    anna.refresh_from_db()
    assert anna.team == ""
    assert "at most 60 characters" in assert_fragment(response, "entries")


def test_a_substitute_plays_for_a_withdrawn_player(as_persona, cup):
    play_round(cup, deals=2)
    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    services.entry_withdraw(entry=anna)

    response = as_persona("owner").post(
        url("entry-substitute", cup), {"entry": anna.pk, "name": "Olha"}, headers=HTMX
    )

    text = assert_fragment(response, "entries")
    olha = Entry.objects.get(tournament=cup, player__name="Olha")
    assert (olha.substitute_for, olha.first_round) == (anna, 2)
    assert "Olha plays for Anna from round 2." in text
    assert "plays for Anna" in text.split("<td>Olha</td>")[1]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"entry": "", "name": "Olha"}, "Choose the player he plays for."),
        ({"entry": "999999", "name": "Olha"}, "Choose the player he plays for."),
        ({"entry": "٣", "name": "Olha"}, "Choose the player he plays for."),
        ({"name": ""}, "Name the substitute."),
    ],
)
def test_a_substitute_form_that_names_nobody_is_refused(as_persona, cup, fields, message):
    fields = {"entry": str(cup.entries.first().pk), **fields}

    response = as_persona("owner").post(url("entry-substitute", cup), fields, headers=HTMX)

    assert message in assert_fragment(response, "entries")
    assert cup.entries.count() == 10


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "player", "secretary"])
def test_only_the_owner_brings_in_a_substitute(as_persona, cup, persona):
    anna = Entry.objects.get(tournament=cup, player__name="Anna")

    response = as_persona(persona).post(
        url("entry-substitute", cup), {"entry": anna.pk, "name": "Olha"}
    )

    assert response.status_code == MANAGE[persona]
    assert cup.entries.count() == 10


# --- penalties ------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_penalties_are_read_by_members_and_given_by_the_owner(as_persona, cup, persona):
    published(cup)
    anna = Player.objects.get(club=cup.club, name="Anna")
    data = {"player": anna.pk, "round": "1", "amount": "50", "unit": "whists", "reason": "late"}
    client = as_persona(persona)

    page = client.get(url("tournament-penalties", cup))
    response = client.post(url("tournament-penalties", cup), data)

    assert page.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(page, "penalties")
        assert ('id="penalty-form"' in text) == (persona == "owner")
    given = Penalty.objects.filter(tournament=cup)
    if MANAGE[persona] == 200:
        assert response.status_code == 302
        penalty = given.get()
        assert (penalty.player, penalty.round, penalty.amount, penalty.reason) == (
            anna,
            1,
            50,
            "late",
        )
        assert penalty.created_by.username == "olena"
    else:
        assert response.status_code == MANAGE[persona]
        assert not given.exists()


def test_the_history_says_who_gave_each_penalty_and_when(as_persona, cup):
    published(cup)
    anna = Player.objects.get(club=cup.club, name="Anna")
    owner = make_member(
        cup.club, Role.OWNER, username="judge", first_name="Taras", last_name="Judge"
    ).user
    services.penalty_add(
        tournament=cup,
        player_id=anna.pk,
        round_number=1,
        amount=30,
        unit="whists",
        reason="talking",
        by=owner,
    )

    text = html(as_persona("player").get(url("tournament-penalties", cup)))

    assert "<td>Anna</td>" in text
    assert "30 whists" in text
    assert "talking" in text
    assert "Taras Judge" in text


def test_a_penalty_in_points_under_the_caps_rule_is_refused(as_persona, cup):
    published(cup)
    anna = Player.objects.get(club=cup.club, name="Anna")
    data = {"player": anna.pk, "round": "1", "amount": "1", "unit": "points", "reason": "late"}

    response = as_persona("owner").post(url("tournament-penalties", cup), data, headers=HTMX)

    assert "A penalty in points cannot apply when the rule counts whists." in assert_fragment(
        response, "penalties"
    )
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"round": "2"}, "Select a valid choice"),
        ({"player": "999999"}, "Select a valid choice"),
        ({"amount": "0"}, "A penalty is a number from 1 to 100000"),
        ({"amount": "²"}, "Enter a whole number."),
        ({"reason": ""}, "This field is required."),
    ],
)
def test_a_penalty_that_makes_no_sense_is_refused(as_persona, cup, fields, message):
    published(cup)
    anna = Player.objects.get(club=cup.club, name="Anna")
    data = {
        "player": anna.pk,
        "round": "1",
        "amount": "5",
        "unit": "whists",
        "reason": "late",
        **fields,
    }

    response = as_persona("owner").post(url("tournament-penalties", cup), data)

    assert response.status_code == 200
    assert message in html(response)
    assert not Penalty.objects.exists()


def test_a_penalty_counts_in_the_standings_on_the_home(as_persona, cup):
    play_round(cup, deals=2)
    before = {line.player: line.score for line in selectors.standings(cup).lines}
    anna = Player.objects.get(club=cup.club, name="Anna")

    as_persona("owner").post(
        url("tournament-penalties", cup),
        {"player": anna.pk, "round": "1", "amount": "40", "unit": "whists", "reason": "late"},
        headers=HTMX,
    )

    after = {line.player: line.score for line in selectors.standings(cup).lines}
    assert after[anna.pk] == before[anna.pk] - 40


def test_the_penalties_fragment_for_htmx(as_persona, cup):
    text = assert_fragment(
        as_persona("player").get(url("tournament-penalties", cup), headers=HTMX), "penalties"
    )

    assert "No penalty so far." in text


def test_the_home_says_the_conventions_and_the_seating_method(as_persona, club_a):
    cup = make_tournament(
        club_a,
        rules=engine.rules_to_dict(engine.preset_rules("leningrad", pool_target=30)),
        seating="mixing",
    )

    text = html(as_persona("player").get(url("tournament-detail", cup)))

    assert "Conventions: Leningrad" in text
    assert "pool to 30." in text
    assert "Seating after round 1: maximum mixing." in text
