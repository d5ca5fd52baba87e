import pytest

from club.models import Membership, Role
from tests.club.helpers import (
    MANAGE,
    assert_fragment,
    assert_full_page,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS, make_member, make_user

URL = "/c/sochi/members/"


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_see_the_members(as_persona, club_a, secretary, persona):
    response = as_persona(persona).get(URL)

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "members")
        assert "serhii" in text
        assert '<option value="secretary" selected>secretary</option>' in text
    else:
        assert "serhii" not in html(response)


@pytest.mark.django_db
def test_the_members_fragment_is_the_list_alone(as_persona, club_a, player):
    text = assert_fragment(as_persona("owner").get(URL, headers=HTMX), "members")

    assert "petro" in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_add_members(as_persona, club_a, persona):
    make_user(username="zoya")

    response = as_persona(persona).post(URL, {"username": "zoya", "role": "secretary"})

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    assert Membership.objects.filter(club=club_a, user__username="zoya").exists() is allowed


@pytest.mark.django_db
def test_an_owner_adds_a_member_with_a_role(as_persona, club_a):
    zoya = make_user(username="zoya")
    client = as_persona("owner")

    response = client.post(URL, {"username": "zoya", "role": "secretary"})

    assert response["Location"] == URL
    assert Membership.objects.get(club=club_a, user=zoya).role == Role.SECRETARY
    assert "zoya is now a member (secretary)." in html(client.get(URL))


@pytest.mark.django_db
def test_htmx_add_returns_the_members_with_the_new_one(as_persona, club_a):
    make_user(username="zoya")

    response = as_persona("owner").post(URL, {"username": "zoya", "role": "player"}, headers=HTMX)

    text = assert_fragment(response, "members")
    assert "zoya is now a member (player)." in text
    assert Membership.objects.filter(club=club_a, user__username="zoya").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "nobody", "role": "player"}, "There is no user called nobody."),
        ({"username": "zoya", "role": "king"}, "Select a valid choice. king is not one of"),
        ({"username": "zoya", "role": ""}, "This field is required."),
        ({"username": "", "role": "player"}, "This field is required."),
    ],
)
def test_bad_input_adds_nobody_and_says_why(as_persona, club_a, headers, data, message):
    make_user(username="zoya")
    client = as_persona("owner")
    before = Membership.objects.count()

    response = client.post(URL, data, headers=headers)

    assert response.status_code == 200
    assert message in html(response)
    assert Membership.objects.count() == before


@pytest.mark.django_db
def test_an_existing_member_is_not_added_twice(as_persona, club_a, player):
    response = as_persona("owner").post(URL, {"username": "petro", "role": "owner"})

    assert "petro is already a member (player)." in html(response)
    assert Membership.objects.get(club=club_a, user=player).role == Role.PLAYER


@pytest.mark.django_db
def test_the_member_of_another_club_can_join_this_one(as_persona, club_a, outsider):
    as_persona("owner").post(URL, {"username": "bohdan", "role": "player"})

    assert Membership.objects.filter(club=club_a, user=outsider).exists()


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    make_user(username="zoya")
    url = "/c/open/members/"

    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, {"username": "zoya", "role": "owner"}), url)
    assert not Membership.objects.filter(club=public_club).exists()


@pytest.mark.django_db
def test_a_secretary_of_a_public_club_may_not_see_its_members(client, public_club):
    client.force_login(make_member(public_club, Role.SECRETARY).user)

    assert client.get("/c/open/members/").status_code == 403
