import pytest

from club.models import Role
from scoring.models import PulkaStatus
from tests.club.factories import assert_full_page, assert_not_found
from tests.conftest import HTMX, make_evening, make_member, make_pulka, record
from tests.scoring.factories import PASS_OUT_ROUND, SIX_BY_BORIS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_private_pulka_is_hidden_from_strangers(as_persona, pulka, persona, htmx):
    client = as_persona(persona)

    response = client.get(pulka.get_absolute_url(), headers=HTMX if htmx else {})

    assert response.status_code == 404
    assert b"Anna" not in response.content


@pytest.mark.parametrize("persona", ["player", "secretary", "owner"])
def test_members_see_the_sheet_on_the_full_page(as_persona, pulka, persona):
    record(pulka, SIX_BY_BORIS)

    response = as_persona(persona).get(pulka.get_absolute_url())

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert 'id="board"' in html
    assert 'data-player="Boris"' in html
    assert 'data-pool="2"' in html
    # Greedy lone whister: Vera writes for all 4 defensive tricks at 2 each.
    assert "Vera writes whists on Boris: 8" in html


def test_htmx_request_gets_the_pulka_fragment_only(as_persona, pulka):
    response = as_persona("player").get(pulka.get_absolute_url(), headers=HTMX)

    html = response.content.decode()
    assert 'id="pulka"' in html
    assert 'id="board"' in html
    assert "<html" not in html
    assert response["Vary"].count("HX-Request") == 1


def test_a_player_reads_but_gets_no_entry_form(as_persona, pulka):
    html = as_persona("player").get(pulka.get_absolute_url()).content.decode()

    assert 'id="deal-form"' not in html
    assert "End the pulka" not in html


def test_a_secretary_gets_the_entry_form_with_the_dealer_and_first_hand(as_persona, pulka):
    html = as_persona("secretary").get(pulka.get_absolute_url()).content.decode()

    assert 'id="deal-form"' in html
    assert "Deal 1" in html
    assert "dealer Anna" in html
    # First hand (Boris, left of the dealer) is the default declarer.
    assert 'id="id_declarer_1" checked' in html


def test_anyone_reads_a_public_club_pulka(client, public_club):
    pulka = make_pulka(make_evening(public_club))
    record(pulka, SIX_BY_BORIS)

    html = client.get(pulka.get_absolute_url()).content.decode()

    assert 'data-player="Vera"' in html
    assert 'id="deal-form"' not in html


def test_a_pulka_of_another_club_is_404_even_for_a_member_there(client, pulka, club_b, outsider):
    other = make_pulka(make_evening(club_b), names=("Ira", "Oleh", "Taras"))
    client.force_login(outsider)

    response = client.get(f"/c/{club_b.slug}/p/{pulka.pk}/")

    assert_not_found(response, "Anna", "Boris", "Vera")
    assert "Ira" in assert_full_page(client.get(other.get_absolute_url()), "board")


def test_sheet_shows_results_as_if_the_evening_ended_now(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = as_persona("player").get(pulka.get_absolute_url()).content.decode()

    # Pools 0/2/0 of 10 and 6 whists Vera on Boris: see the engine for the exact figures.
    from scoring import selectors

    sheet = selectors.pulka_sheet(pulka)
    for name, value in sheet.result_rounded.items():
        assert f'<tr data-player="{name}">' in html
        assert f'data-result="{value}"' in html
    assert "as if the evening ended now" in html


def test_finished_pulka_shows_the_final_settlement(as_persona, evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND)
    pulka.refresh_from_db()

    html = as_persona("secretary").get(pulka.get_absolute_url()).content.decode()

    assert pulka.status == PulkaStatus.FINISHED
    assert "Final settlement" in html
    assert 'id="deal-form"' not in html
    assert "This pulka is over." in html


def test_member_of_both_clubs_sees_both(client, pulka, club_b):
    membership = make_member(pulka.evening.club, Role.PLAYER)
    make_member(club_b, Role.PLAYER, user=membership.user)
    client.force_login(membership.user)
    theirs = make_pulka(make_evening(club_b), names=("Ira", "Oleh", "Taras"))

    assert "Anna" in assert_full_page(client.get(pulka.get_absolute_url()), "board")
    assert "Ira" in assert_full_page(client.get(theirs.get_absolute_url()), "board")
