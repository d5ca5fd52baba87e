import re

import pytest

from club.models import Invitation, Membership, Role
from tests.club.factories import (
    MANAGE,
    assert_forbidden,
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
        # The error page names the visitor in its header, never the club's members.
        text = html(response)
        assert 'id="members"' not in text
        assert "serhii" not in text.replace('<span class="nav-user">serhii</span>', "")


@pytest.mark.django_db
def test_the_members_fragment_is_the_list_alone(as_persona, club_a, player):
    text = assert_fragment(as_persona("owner").get(URL, headers=HTMX), "members")

    assert "petro" in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_invite_members(as_persona, club_a, persona):
    make_user(username="zoya")

    response = as_persona(persona).post(URL, {"to": "zoya", "role": "secretary"})

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    assert Invitation.objects.filter(club=club_a, addressed_to="zoya").exists() is allowed
    assert not Membership.objects.filter(club=club_a, user__username="zoya").exists()


@pytest.mark.django_db
def test_an_owner_invites_a_member_who_joins_only_by_accepting(as_persona, club_a, client):
    zoya = make_user(username="zoya")
    owner = as_persona("owner")

    response = owner.post(URL, {"to": "zoya", "role": "secretary"})

    assert response["Location"] == URL
    assert not Membership.objects.filter(club=club_a, user=zoya).exists()
    assert "An invitation to join as secretary is on its way to zoya" in html(owner.get(URL))
    invitation = Invitation.objects.get(club=club_a, addressed_user=zoya)
    client.force_login(zoya)
    assert f"/join/{invitation.token}/" in html(client.get("/"))
    client.post(f"/join/{invitation.token}/")
    assert Membership.objects.get(club=club_a, user=zoya).role == Role.SECRETARY


@pytest.mark.django_db
def test_htmx_invite_returns_the_members_with_the_notice(as_persona, club_a):
    make_user(username="zoya")

    response = as_persona("owner").post(URL, {"to": "zoya", "role": "player"}, headers=HTMX)

    text = assert_fragment(response, "members")
    assert "An invitation to join as player is on its way to zoya" in text
    assert not Membership.objects.filter(club=club_a, user__username="zoya").exists()


@pytest.mark.django_db
def test_the_answer_is_the_same_whether_or_not_the_account_exists(as_persona, club_a):
    make_user(username="zoya")
    owner = as_persona("owner")

    def answer(to: str) -> str:
        text = html(owner.post(URL, {"to": to, "role": "player"}, headers=HTMX))
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text).replace(to, "NAME")

    assert answer("zoya") == answer("zorro")
    assert "There is no user" not in answer("nobody-at-all")


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"to": "zoya", "role": "king"}, "Select a valid choice. king is not one of"),
        ({"to": "zoya", "role": ""}, "This field is required."),
        ({"to": "", "role": "player"}, "This field is required."),
        ({"to": "zoya@", "role": "player"}, "is neither a username nor an e-mail address."),
    ],
)
def test_bad_input_invites_nobody_and_says_why(as_persona, club_a, headers, data, message):
    make_user(username="zoya")
    client = as_persona("owner")
    before = (Membership.objects.count(), Invitation.objects.count())

    response = client.post(URL, data, headers=headers)

    assert response.status_code == 200
    assert message in html(response)
    assert (Membership.objects.count(), Invitation.objects.count()) == before


@pytest.mark.django_db
def test_an_existing_members_role_is_not_changed_by_an_invitation(as_persona, club_a, player):
    as_persona("owner").post(URL, {"to": "petro", "role": "owner"})

    assert Membership.objects.get(club=club_a, user=player).role == Role.PLAYER


@pytest.mark.django_db
def test_the_member_of_another_club_is_invited_not_added(as_persona, club_a, outsider):
    as_persona("owner").post(URL, {"to": "bohdan", "role": "player"})

    assert not Membership.objects.filter(club=club_a, user=outsider).exists()
    assert Invitation.objects.get(club=club_a).addressed_user == outsider


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    make_user(username="zoya")
    url = "/c/open/members/"

    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, {"to": "zoya", "role": "owner"}), url)
    assert not Membership.objects.filter(club=public_club).exists()


@pytest.mark.django_db
def test_a_secretary_of_a_public_club_may_not_see_its_members(client, public_club):
    client.force_login(make_member(public_club, Role.SECRETARY).user)
    make_member(public_club, Role.PLAYER, username="zinaida")

    assert_forbidden(client.get("/c/open/members/"), "zinaida")
