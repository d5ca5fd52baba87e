import pytest

from club.models import Player, Role
from tests.club.factories import (
    READ,
    RECORD,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS, make_member, make_player

URL = "/c/sochi/players/"


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_the_roster_is_read_by_members_of_a_private_club(as_persona, club_a, persona):
    make_player(club_a, "Anna")

    response = as_persona(persona).get(URL)

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        assert ">Anna</a></td>" in assert_full_page(response, "roster")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["player", "secretary", "owner"])
def test_the_roster_fragment_is_the_roster_alone(as_persona, club_a, persona):
    make_player(club_a, "Anna")

    text = assert_fragment(as_persona(persona).get(URL, headers=HTMX), "roster")

    assert ">Anna</a></td>" in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_add_players(as_persona, club_a, persona):
    response = as_persona(persona).post(URL, {"name": "Gleb"})

    allowed = RECORD[persona] == 200
    assert response.status_code == (302 if allowed else RECORD[persona])
    assert Player.objects.filter(club=club_a, name="Gleb").exists() is allowed


@pytest.mark.django_db
def test_readers_see_active_players_and_no_add_form(as_persona, club_a):
    make_player(club_a, "Anna")
    make_player(club_a, "Roman", is_active=False)

    text = html(as_persona("player").get(URL))

    assert ">Anna</a></td>" in text
    assert "Roman" not in text
    assert 'name="name"' not in text
    assert "/edit/" not in text


@pytest.mark.django_db
def test_secretaries_see_the_whole_roster_with_edit_links_and_the_add_form(as_persona, club_a):
    make_player(club_a, "Anna")
    roman = make_player(club_a, "Roman", is_active=False)

    text = html(as_persona("secretary").get(URL))

    assert ">Roman</a></td>" in text
    assert "taken off" in text
    assert f'href="/c/sochi/players/{roman.pk}/edit/"' in text
    assert 'hx-post="/c/sochi/players/"' in text


@pytest.mark.django_db
def test_adding_a_player_puts_him_on_the_roster(as_persona, club_a):
    client = as_persona("secretary")

    response = client.post(URL, {"name": "  Gleb   Orlov "})

    assert response["Location"] == URL
    player = Player.objects.get(club=club_a)
    assert (player.name, player.is_active, player.user) == ("Gleb Orlov", True, None)
    assert "Gleb Orlov is on the roster." in html(client.get(URL))


@pytest.mark.django_db
def test_htmx_add_returns_the_roster_with_the_new_player_and_an_empty_form(as_persona, club_a):
    response = as_persona("secretary").post(URL, {"name": "Gleb"}, headers=HTMX)

    text = assert_fragment(response, "roster")
    assert ">Gleb</a></td>" in text
    assert "Gleb is on the roster." in text
    assert 'value="Gleb"' not in text
    assert Player.objects.filter(club=club_a, name="Gleb").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize("typed", ["Anna", "anna", " ANNA "])
def test_a_second_player_with_the_same_name_is_refused(as_persona, club_a, headers, typed):
    make_player(club_a, "Anna")

    response = as_persona("secretary").post(URL, {"name": typed}, headers=headers)

    assert response.status_code == 200
    assert "There is already a player called Anna." in html(response)
    assert Player.objects.filter(club=club_a).count() == 1


@pytest.mark.django_db
def test_the_same_name_is_fine_in_another_club(as_persona, club_a, club_b):
    make_player(club_b, "Anna")

    as_persona("secretary").post(URL, {"name": "Anna"})

    assert Player.objects.filter(club=club_a, name="Anna").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_an_empty_or_too_long_name_is_refused(as_persona, club_a, name):
    response = as_persona("secretary").post(URL, {"name": name})

    assert response.status_code == 200
    assert 'class="errorlist' in html(response)
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_anyone_reads_a_public_roster_but_must_log_in_to_add(client, public_club):
    make_player(public_club, "Anna")
    url = "/c/open/players/"

    assert ">Anna</a></td>" in html(client.get(url))
    assert_login_redirect(client.post(url, {"name": "Gleb"}), url)
    assert_htmx_login_redirect(client.post(url, {"name": "Gleb"}, headers=HTMX))
    assert not Player.objects.filter(name="Gleb").exists()


@pytest.mark.django_db
def test_a_player_of_a_public_club_cannot_add(client, public_club):
    client.force_login(make_member(public_club, Role.PLAYER).user)

    assert client.post("/c/open/players/", {"name": "Gleb"}).status_code == 403
    assert not Player.objects.exists()
