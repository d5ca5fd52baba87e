import pytest

from club.models import Membership, Role
from tests.club.factories import (
    MANAGE,
    assert_fragment,
    assert_login_redirect,
    assert_method_refused,
    html,
)
from tests.conftest import HTMX, PERSONAS, make_member


def url(membership: Membership) -> str:
    return f"/c/{membership.club.slug}/members/{membership.pk}/"


@pytest.fixture
def member(club_a) -> Membership:
    return make_member(club_a, Role.PLAYER, username="zoya")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_change_roles(as_persona, member, persona):
    response = as_persona(persona).post(url(member), {"role": "secretary"})

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    member.refresh_from_db()
    assert member.role == (Role.SECRETARY if allowed else Role.PLAYER)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_remove_members(as_persona, member, persona):
    response = as_persona(persona).post(url(member), {"remove": "1"})

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    assert Membership.objects.filter(pk=member.pk).exists() is not allowed


@pytest.mark.django_db
def test_an_owner_promotes_a_player_and_is_told_so(as_persona, member):
    client = as_persona("owner")

    response = client.post(url(member), {"role": "owner"})

    assert response["Location"] == "/c/sochi/members/"
    member.refresh_from_db()
    assert member.role == Role.OWNER
    assert "zoya is now owner." in html(client.get("/c/sochi/members/"))


@pytest.mark.django_db
def test_htmx_role_change_returns_the_members_fragment(as_persona, member):
    response = as_persona("owner").post(url(member), {"role": "secretary"}, headers=HTMX)

    text = assert_fragment(response, "members")
    assert "zoya is now secretary." in text
    assert f'<tr id="member-{member.pk}">' in text
    member.refresh_from_db()
    assert member.role == Role.SECRETARY


@pytest.mark.django_db
def test_htmx_remove_returns_the_members_without_him(as_persona, member):
    response = as_persona("owner").post(url(member), {"remove": "1"}, headers=HTMX)

    text = assert_fragment(response, "members")
    assert "zoya is no longer a member." in text
    assert f'id="member-{member.pk}"' not in text
    assert not Membership.objects.filter(pk=member.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize(
    ("role", "message"),
    [
        ("king", "Select a valid choice. king is not one of the available choices."),
        ("OWNER", "Select a valid choice. OWNER is not one of the available choices."),
        ("", "This field is required."),
    ],
)
def test_a_tampered_role_changes_nothing_and_says_why(as_persona, member, headers, role, message):
    client = as_persona("owner")

    response = client.post(url(member), {"role": role}, headers=headers)

    if not headers:
        response = client.get(response["Location"])
    assert response.status_code == 200
    assert message in html(response)
    member.refresh_from_db()
    assert member.role == Role.PLAYER


@pytest.mark.django_db
@pytest.mark.parametrize("data", [{"role": "player"}, {"remove": "1"}])
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_last_owner_can_be_neither_demoted_nor_removed(as_persona, club_a, data, headers):
    client = as_persona("owner")
    membership = Membership.objects.get(club=club_a, role=Role.OWNER)

    response = client.post(url(membership), data, headers=headers)

    if not headers:
        assert response["Location"] == "/c/sochi/members/"
        response = client.get(response["Location"])
    assert "olena is the club&#x27;s only owner" in html(response)
    membership.refresh_from_db()
    assert membership.role == Role.OWNER


@pytest.mark.django_db
def test_an_owner_may_step_down_when_another_owner_remains(as_persona, club_a, owner):
    make_member(club_a, Role.OWNER, username="oksana")
    client = as_persona("owner")
    mine = Membership.objects.get(club=club_a, user=owner)

    response = client.post(url(mine), {"role": "secretary"})

    assert response["Location"] == "/c/sochi/"
    mine.refresh_from_db()
    assert mine.role == Role.SECRETARY
    assert client.get("/c/sochi/members/").status_code == 403


@pytest.mark.django_db
def test_an_owner_who_leaves_by_htmx_is_sent_home(as_persona, club_a, owner):
    make_member(club_a, Role.OWNER, username="oksana")
    mine = Membership.objects.get(club=club_a, user=owner)

    response = as_persona("owner").post(url(mine), {"remove": "1"}, headers=HTMX)

    assert response["HX-Redirect"] == "/"
    assert not Membership.objects.filter(pk=mine.pk).exists()


@pytest.mark.django_db
def test_another_clubs_membership_is_404_here(as_persona, club_a, club_b, outsider):
    theirs = Membership.objects.get(club=club_b, user=outsider)

    response = as_persona("owner").post(f"/c/sochi/members/{theirs.pk}/", {"remove": "1"})

    assert response.status_code == 404
    assert Membership.objects.filter(pk=theirs.pk).exists()


@pytest.mark.django_db
def test_get_is_not_allowed(as_persona, member):
    assert_method_refused(as_persona("owner").get(url(member)))
    member.refresh_from_db()
    assert member.role == Role.PLAYER


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    membership = make_member(public_club, Role.PLAYER)

    assert_login_redirect(client.post(url(membership), {"remove": "1"}), url(membership))
    assert Membership.objects.filter(pk=membership.pk).exists()
