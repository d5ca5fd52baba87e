"""Tournament entries picked from the roster (with a filter that works without JavaScript)
and teams given in bulk ("Team: name, name")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player
from competition.models import Entry, Tournament
from competition.tournament.views import organiser
from tests.club.factories import MANAGE, READ, assert_fragment, assert_full_page, html
from tests.competition.factories import make_tournament
from tests.conftest import HTMX, PERSONAS, database_state, make_player

pytestmark = pytest.mark.django_db

ROSTER = ["Ігор", "Андрій", "Яна", "Ґанна", "Богдан"]
IN_ORDER = ["Андрій", "Богдан", "Ґанна", "Ігор", "Яна"]


@pytest.fixture
def cup(club_a) -> Tournament:
    for name in ROSTER:
        make_player(club_a, name)
    return make_tournament(club_a, names=("Anna", "Boris", "Vera"))


def url(tournament: Tournament) -> str:
    return reverse("competition:tournament-entries", args=[tournament.club.slug, tournament.pk])


def ids(club, *names: str) -> list[int]:
    return [Player.objects.get(club=club, name=name).pk for name in names]


def entered(tournament: Tournament) -> dict[str, str]:
    return dict(Entry.objects.filter(tournament=tournament).values_list("player__name", "team"))


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_owner_is_offered_the_roster_names_not_entered_as_checkboxes(as_persona, cup, persona):
    response = as_persona(persona).get(url(cup))

    assert response.status_code == READ[persona]
    text = html(response)
    if MANAGE[persona] == 200:
        assert_full_page(response, "pick-list")
        for pk in ids(cup.club, *ROSTER):
            assert f'name="picked" value="{pk}"' in text
        assert f'name="picked" value="{ids(cup.club, "Anna")[0]}"' not in text  # entered
        assert "From the roster: 5 players not entered" in text
    else:
        assert 'name="picked"' not in text


def test_the_roster_names_are_offered_in_alphabetical_order(as_persona, cup):
    text = html(as_persona("owner").get(url(cup)))
    block = text[text.index('id="pick-list"') :]

    assert sorted(ROSTER, key=block.index) == IN_ORDER


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_enters_the_players_picked(as_persona, cup, persona):
    response = as_persona(persona).post(
        url(cup), {"picked": ids(cup.club, "Яна", "Богдан"), "team": "Тузи"}
    )

    if MANAGE[persona] == 200:
        assert response.status_code == 302
        assert entered(cup)["Яна"] == entered(cup)["Богдан"] == "Тузи"
    else:
        assert response.status_code == (404 if persona in ("anonymous", "outsider") else 403)
        assert "Яна" not in entered(cup)


def test_picking_answers_htmx_with_the_list_and_the_names_leave_the_picker(as_persona, cup):
    response = as_persona("owner").post(url(cup), {"picked": ids(cup.club, "Яна")}, headers=HTMX)

    text = assert_fragment(response, "entries")
    assert "1 player entered." in text
    assert "<td>Яна</td>" in text
    assert f'name="picked" value="{ids(cup.club, "Яна")[0]}"' not in text


def test_picked_and_typed_players_are_entered_together(as_persona, cup):
    as_persona("owner").post(
        url(cup), {"picked": ids(cup.club, "Ігор"), "names": "Олег Новий\nґанна"}
    )

    assert {"Ігор", "Олег Новий", "Ґанна"} <= set(entered(cup))
    assert Player.objects.filter(club=cup.club, name="Олег Новий").exists()


def test_a_player_picked_and_typed_is_refused_and_nothing_entered(as_persona, cup):
    client = as_persona("owner")
    before = database_state()

    response = client.post(url(cup), {"picked": ids(cup.club, "Яна"), "names": "ЯНА"}, headers=HTMX)

    assert "Яна and ЯНА are the same player" in assert_fragment(response, "entries")
    assert database_state() == before


def test_a_picked_id_not_on_the_roster_is_refused(as_persona, cup, club_b):
    stranger = make_player(club_b, "Чужий")
    client = as_persona("owner")
    before = database_state()

    response = client.post(url(cup), {"picked": [stranger.pk, "x"]}, headers=HTMX)

    assert "A player picked is no longer on the roster" in assert_fragment(response, "entries")
    assert database_state() == before


def test_nothing_picked_nor_typed_is_refused(as_persona, cup):
    response = as_persona("owner").post(url(cup), {"names": " \n"}, headers=HTMX)

    assert "Name at least one player." in assert_fragment(response, "entries")


# Teams in bulk


def test_teams_are_given_a_line_each(as_persona, cup):
    response = as_persona("owner").post(
        url(cup),
        {
            "names": "Тузи: Яна, Богдан , Ґанна\nКозирі:Ігор,Андрій,Новенька\nСам Собі",
            "picked": [],
        },
        headers=HTMX,
    )

    assert "7 players entered." in assert_fragment(response, "entries")
    teams = entered(cup)
    assert [teams[n] for n in ("Яна", "Богдан", "Ґанна")] == ["Тузи"] * 3
    assert [teams[n] for n in ("Ігор", "Андрій", "Новенька")] == ["Козирі"] * 3
    assert teams["Сам Собі"] == ""


def test_the_team_field_is_for_the_players_picked_or_typed_alone(as_persona, cup):
    as_persona("owner").post(
        url(cup),
        {"picked": ids(cup.club, "Яна"), "names": "Тузи: Богдан\nҐанна", "team": "Дами"},
    )

    teams = entered(cup)
    assert (teams["Яна"], teams["Богдан"], teams["Ґанна"]) == ("Дами", "Тузи", "Дами")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Тузи:", "Line 1: The team Тузи has nobody after its colon"),
        (": Яна", "Line 1: The team&#x27;s name is empty: write it."),
        ("Тузи: Яна, \u200bБогдан", "Line 1: The name &lt;U+200B&gt;Богдан contains"),
        ("x" * 61 + ": Яна", "Line 1: The team&#x27;s name is too long"),
    ],
)
def test_a_bad_team_line_is_refused_by_its_number(as_persona, cup, line, said):
    client = as_persona("owner")
    before = database_state()

    response = client.post(url(cup), {"names": line}, headers=HTMX)

    assert said in assert_fragment(response, "entries")
    assert database_state() == before


# The filter, without JavaScript: ?find=


def test_the_filter_narrows_the_list_on_the_server(as_persona, cup):
    text = html(as_persona("owner").get(url(cup) + "?find=%D2%90%D0%90%D0%9D"))  # ҐАН

    block = text[text.index('id="pick-list"') : text.index('id="pick-none"')]
    assert "Ґанна" in block
    assert [name for name in ROSTER if name in block] == ["Ґанна"]
    assert 'value="ҐАН"' in text


def test_a_filter_that_matches_nobody_says_so(as_persona, cup):
    text = html(as_persona("owner").get(url(cup) + "?find=zzz"))

    assert 'id="pick-none">' in text  # shown, not hidden


def test_the_filter_input_filters_in_place_with_javascript(as_persona, cup):
    text = html(as_persona("owner").get(url(cup)))

    assert 'data-filter-list="#pick-list"' in text
    assert "js/filter.js" in text


def test_a_long_roster_is_offered_in_part_with_the_filter_for_the_rest(
    as_persona, cup, monkeypatch
):
    monkeypatch.setattr(organiser, "PICK_MAX", 2)

    text = html(as_persona("owner").get(url(cup)))

    block = text[text.index('id="pick-list"') : text.index('id="pick-none"')]
    assert [name for name in IN_ORDER if name in block] == ["Андрій", "Богдан"]
    assert "data-filter-partial" in text
    assert "3 more names: type part of a name above to find them." in text
    # Found by the filter, a name beyond the first ones is offered.
    found = html(as_persona("owner").get(url(cup) + "?find=%D1%8F%D0%BD"))  # ян
    assert f'name="picked" value="{ids(cup.club, "Яна")[0]}"' in found


def test_the_entries_fragment_carries_the_picker(as_persona, cup):
    text = assert_fragment(as_persona("owner").get(url(cup), headers=HTMX), "entries")

    assert 'id="pick-list"' in text
