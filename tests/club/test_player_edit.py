import pytest

from club.models import Invitation, Player
from tests.club.factories import RECORD, assert_fragment, assert_full_page, html
from tests.conftest import HTMX, PERSONAS, make_player, make_user


@pytest.fixture
def anna(club_a) -> Player:
    return make_player(club_a, "Anna")


def url(player: Player) -> str:
    return f"/c/{player.club.slug}/players/{player.pk}/edit/"


def form(**overrides) -> dict:
    return {"name": "Anna", "is_active": "on", **overrides}


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_edit_players(as_persona, anna, persona):
    client = as_persona(persona)

    page = client.get(url(anna))
    change = client.post(url(anna), form(name="Anna K."))

    anna.refresh_from_db()
    assert page.status_code == RECORD[persona]
    if RECORD[persona] == 200:
        assert 'value="Anna"' in assert_full_page(page, "player-form")
        assert change["Location"] == "/c/sochi/players/"
        assert anna.name == "Anna K."
    else:
        assert change.status_code == RECORD[persona]
        assert anna.name == "Anna"


@pytest.mark.django_db
def test_the_edit_form_fragment_is_the_form_alone(as_persona, anna):
    assert_fragment(as_persona("secretary").get(url(anna), headers=HTMX), "player-form")


def accept(client, user, invitation: Invitation):
    client.force_login(user)
    return client.post(f"/join/{invitation.token}/")


@pytest.mark.django_db
def test_the_owner_invites_an_account_to_a_name_and_it_is_linked_only_when_accepted(
    as_persona, anna, client
):
    account = make_user(username="anna.k")

    response = as_persona("owner").post(url(anna), form(invite=" anna.k "))

    assert response["Location"] == "/c/sochi/players/"
    anna.refresh_from_db()
    assert anna.user is None  # not before he says yes
    invitation = Invitation.objects.get(player=anna)
    assert (invitation.addressed_user, invitation.role) == (account, "player")
    accept(client, account, invitation)
    anna.refresh_from_db()
    assert anna.user == account


@pytest.mark.django_db
def test_a_secretary_is_not_offered_the_invitation_and_cannot_post_one(as_persona, anna):
    make_user(username="anna.k")
    client = as_persona("secretary")

    assert 'name="invite"' not in html(client.get(url(anna)))
    client.post(url(anna), form(invite="anna.k"))

    assert not Invitation.objects.exists()


@pytest.mark.django_db
def test_unlinking_the_account_needs_no_consent(as_persona, anna):
    anna.user = make_user(username="old")
    anna.save()
    client = as_persona("secretary")
    assert "Linked to the account old." in html(client.get(url(anna)))

    client.post(url(anna), form(unlink="on"))

    anna.refresh_from_db()
    assert anna.user is None


@pytest.mark.django_db
def test_a_player_is_taken_off_the_roster_and_back(as_persona, anna):
    client = as_persona("secretary")

    client.post(url(anna), form(is_active=""))
    anna.refresh_from_db()
    assert anna.is_active is False

    client.post(url(anna), form())
    anna.refresh_from_db()
    assert anna.is_active is True


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_an_unknown_username_gets_the_same_answer_and_links_nobody(as_persona, anna, headers):
    response = as_persona("owner").post(
        url(anna), form(name="Anna K.", invite="nobody"), headers=headers
    )

    assert "There is no user" not in html(response)
    anna.refresh_from_db()
    assert (anna.name, anna.user) == ("Anna K.", None)
    assert Invitation.objects.get(player=anna).addressed_user is None


@pytest.mark.django_db
def test_an_account_already_linked_to_another_name_cannot_accept_a_second(
    as_persona, anna, club_a, client
):
    account = make_user(username="boris")
    make_player(club_a, "Boris", user=account)
    as_persona("owner").post(url(anna), form(invite="boris"))

    response = accept(client, account, Invitation.objects.get(player=anna))

    assert response.status_code == 409
    assert "already linked to the roster name Boris" in html(response)
    anna.refresh_from_db()
    assert anna.user is None


@pytest.mark.django_db
def test_the_same_account_may_take_a_name_in_another_club(as_persona, anna, club_b, client):
    account = make_user(username="boris")
    make_player(club_b, "Boris", user=account)
    as_persona("owner").post(url(anna), form(invite="boris"))

    accept(client, account, Invitation.objects.get(player=anna))

    anna.refresh_from_db()
    assert anna.user == account


@pytest.mark.django_db
def test_renaming_to_another_players_name_is_refused(as_persona, anna, club_a):
    make_player(club_a, "Boris")

    response = as_persona("secretary").post(url(anna), form(name="boris"))

    assert "There is already a player called Boris." in html(response)
    anna.refresh_from_db()
    assert anna.name == "Anna"


@pytest.mark.django_db
def test_changing_the_case_of_his_own_name_is_fine(as_persona, anna):
    as_persona("secretary").post(url(anna), form(name="ANNA"))

    anna.refresh_from_db()
    assert anna.name == "ANNA"


@pytest.mark.django_db
def test_htmx_save_redirects_the_browser_to_the_roster(as_persona, anna):
    response = as_persona("secretary").post(url(anna), form(name="Anna K."), headers=HTMX)

    assert response["HX-Redirect"] == "/c/sochi/players/"
    anna.refresh_from_db()
    assert anna.name == "Anna K."


@pytest.mark.django_db
def test_htmx_invalid_save_returns_the_form_with_the_error(as_persona, anna):
    response = as_persona("secretary").post(url(anna), form(name=""), headers=HTMX)

    text = assert_fragment(response, "player-form")
    assert "This field is required." in text


@pytest.mark.django_db
def test_another_clubs_player_is_404_here(as_persona, club_a, club_b):
    theirs = make_player(club_b, "Theirs")

    response = as_persona("owner").post(f"/c/sochi/players/{theirs.pk}/edit/", form(name="Mine"))

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "Theirs"
