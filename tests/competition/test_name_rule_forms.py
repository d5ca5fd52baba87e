"""The one rule for names (club.names, tested in tests/club/test_name_rule.py) on the
tournament and league pages: each form refuses a right-to-left override and changes nothing,
and the tournament's services refuse it whatever calls them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player
from competition.models import Entry, League, Penalty, Tournament
from competition.tournament import services
from tests.club.factories import assert_fragment, html
from tests.competition.factories import make_tournament, published, settings_post
from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
REFUSED = "invisible, direction or control character (U+202E)"


def url(name: str, *args) -> str:
    return reverse(f"competition:{name}", args=["sochi", *args])


@pytest.fixture
def cup(club_a) -> Tournament:
    return make_tournament(club_a)


def test_the_tournament_form_refuses_an_override_in_the_name_and_opens_none(as_persona, club_a):
    response = as_persona("owner").post(
        url("tournament-create"), settings_post(name=f"Spring{RLO}Cup")
    )

    assert response.status_code == 200
    assert f"The tournament&#x27;s name contains an {REFUSED}" in html(response)
    assert not Tournament.objects.filter(club=club_a).exists()


def test_the_tournament_settings_refuse_an_override_and_rename_nothing(as_persona, cup):
    response = as_persona("owner").post(
        url("tournament-edit", cup.pk), settings_post(name=f"{RLO}Cup")
    )

    assert REFUSED in html(response)
    cup.refresh_from_db()
    assert cup.name == "Club Cup"


def test_the_entries_form_names_each_line_it_refuses_and_enters_nobody(as_persona, cup):
    names = f"Olha\n\nPetro{RLO}\nRoman\nSe\u200bmen\n"

    response = as_persona("owner").post(url("tournament-entries", cup.pk), {"names": names})

    text = html(response)
    assert "Line 3: The name Petro&lt;U+202E&gt; contains an invisible" in text
    assert "Line 5: The name Se&lt;U+200B&gt;men contains an invisible" in text
    assert cup.entries.count() == 10
    assert not Player.objects.filter(club=cup.club, name__in=["Olha", "Roman"]).exists()


def test_the_entries_form_refuses_an_override_in_the_team_and_enters_nobody(as_persona, cup):
    response = as_persona("owner").post(
        url("tournament-entries", cup.pk), {"names": "Olha", "team": f"Aces{RLO}"}
    )

    assert REFUSED in html(response)
    assert cup.entries.count() == 10


def test_the_team_form_refuses_an_override_and_keeps_the_team(as_persona, cup):
    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    services.entry_update(entry=anna, team="Aces")

    response = as_persona("owner").post(
        url("entry-team", cup.pk, anna.pk), {"team": f"{RLO}Aces"}, headers=HTMX
    )

    assert REFUSED in assert_fragment(response, "entries")
    anna.refresh_from_db()
    assert anna.team == "Aces"


def test_the_substitute_form_refuses_an_override_and_brings_in_nobody(as_persona, cup):
    published(cup)
    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    services.entry_withdraw(entry=anna)

    response = as_persona("owner").post(
        url("entry-substitute", cup.pk), {"entry": anna.pk, "name": f"Olha{RLO}"}, headers=HTMX
    )

    assert REFUSED in assert_fragment(response, "entries")
    assert cup.entries.count() == 10
    assert not Player.objects.filter(club=cup.club, name__startswith="Olha").exists()


def test_the_penalty_form_refuses_an_override_in_the_reason_and_gives_none(as_persona, cup):
    published(cup)
    anna = Player.objects.get(club=cup.club, name="Anna")
    data = {"player": anna.pk, "round": "1", "amount": "50", "unit": "whists"}

    response = as_persona("owner").post(
        url("tournament-penalties", cup.pk), {**data, "reason": f"late{RLO}"}
    )

    assert REFUSED in html(response)
    assert not Penalty.objects.filter(tournament=cup).exists()


LEAGUE = {
    "name": "Spring 2024",
    "start": "2024-03-01",
    "end": "2024-05-31",
    "rule": "average",
    "best_count": "",
    "cap": "200",
    "min_pulkas": "3",
}


def test_the_league_form_refuses_an_override_and_opens_none(as_persona, club_a):
    response = as_persona("secretary").post(
        url("league-create"), {**LEAGUE, "name": f"Spring{RLO}2024"}
    )

    assert response.status_code == 200
    assert f"The league&#x27;s name contains an {REFUSED}" in html(response)
    assert not League.objects.filter(club=club_a).exists()


def test_the_league_settings_refuse_an_override_and_rename_nothing(as_persona, club_a):
    as_persona("secretary").post(url("league-create"), LEAGUE)
    league = League.objects.get(club=club_a)

    response = as_persona("secretary").post(
        url("league-edit", league.pk), {**LEAGUE, "name": f"{RLO}Renamed"}
    )

    assert REFUSED in html(response)
    league.refresh_from_db()
    assert league.name == "Spring 2024"


# --- the services, whatever calls them ----------------------------------------------------------


def test_tournament_create_and_update_refuse_an_override(club_a):
    with pytest.raises(services.TournamentServiceError, match="U\\+202E") as refused:
        make_tournament(club_a, names=(), name=f"Cup{RLO}")
    assert refused.value.field == "name"
    assert not Tournament.objects.filter(club=club_a).exists()

    cup = make_tournament(club_a, names=(), name="  Spring   Cup ")
    assert cup.name == "Spring Cup"
    with pytest.raises(services.TournamentServiceError, match="U\\+200B"):
        services.tournament_update(tournament=cup, name="Spring\u200bCup")
    cup.refresh_from_db()
    assert cup.name == "Spring Cup"


def test_the_team_services_refuse_an_override_and_tidy_the_rest(cup):
    with pytest.raises(services.TournamentServiceError, match="U\\+202E") as refused:
        services.entries_add(tournament=cup, names=["Olha"], team=f"Aces{RLO}")
    assert refused.value.field == "team"
    assert cup.entries.count() == 10

    anna = Entry.objects.get(tournament=cup, player__name="Anna")
    with pytest.raises(services.TournamentServiceError, match="U\\+202E"):
        services.entry_update(entry=anna, team=f"{RLO}Aces")
    anna.refresh_from_db()
    assert anna.team == ""
    assert services.entry_update(entry=anna, team="  Aces \n high ").team == "Aces high"
