"""An invitation link is as good as its maker's authority today: demoting, removing or
deleting the maker ends the links his role no longer covers (410, saying why), the history
records it, and a link accepted after an admin's demotion is refused at use."""

from __future__ import annotations

import pytest

from club import invitations, services
from club.models import Invitation, Membership, MembershipAction, MembershipEvent, Role
from tests.conftest import database_state, make_member, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def boris(club_a, owner):
    """A second owner, made so by the first."""
    return make_member(club_a, Role.OWNER, username="boris").user


def owner_link(club, maker, **kwargs) -> Invitation:
    return invitations.invitation_create(
        club=club, role=Role.OWNER, created_by=maker, max_uses=5, **kwargs
    )


def accept(client, link: Invitation, username: str):
    client.force_login(make_user(username=username))
    return client.post(f"/join/{link.token}/")


LAPSED = "the member who made it can no longer invite people"


def assert_dead(client, link: Invitation, username: str, why: str = LAPSED) -> None:
    client.force_login(make_user(username=username))
    before = database_state()
    response = client.post(f"/join/{link.token}/")
    assert response.status_code == 410
    assert why in response.content.decode()
    assert database_state() == before
    assert not Membership.objects.filter(user__username=username).exists()


def test_a_demoted_makers_owner_link_stops_making_owners(client, club_a, owner, boris):
    link = owner_link(club_a, boris)
    services.member_set_role(
        membership=Membership.objects.get(user=boris), role=Role.PLAYER, actor=owner
    )

    assert_dead(client, link, "carl")
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert link.revoked_by == owner
    lapsed = MembershipEvent.objects.get(action=MembershipAction.LINK_LAPSED)
    assert (lapsed.actor, lapsed.subject, lapsed.role) == (owner, boris, Role.OWNER)


def test_a_removed_makers_links_stop_working(client, club_a, owner, boris):
    link = owner_link(club_a, boris)
    services.member_remove(membership=Membership.objects.get(user=boris), actor=owner)

    assert_dead(client, link, "carl")
    assert Invitation.objects.get(pk=link.pk).revoked_at is not None


def test_a_deleted_makers_links_stop_working(client, club_a, owner, boris):
    link = owner_link(club_a, boris)
    services.account_delete(user=boris)

    link.refresh_from_db()
    assert link.created_by is None
    assert link.revoked_at is not None
    assert_dead(client, link, "carl")
    assert MembershipEvent.objects.filter(action=MembershipAction.LINK_LAPSED).count() == 1


def test_a_demotion_in_the_admin_is_caught_when_the_link_is_used(client, club_a, owner, boris):
    link = owner_link(club_a, boris)
    Membership.objects.filter(user=boris).update(role=Role.SECRETARY)  # no service ran

    response = accept(client, link, "carl")

    assert response.status_code == 410
    assert "can no longer invite people to this club as owner" in response.content.decode()
    assert Invitation.objects.get(pk=link.pk).uses == 0


def test_a_maker_made_owner_again_has_only_his_new_links(client, club_a, owner, boris):
    old = owner_link(club_a, boris)
    membership = Membership.objects.get(user=boris)
    services.member_set_role(membership=membership, role=Role.PLAYER, actor=owner)
    services.member_set_role(membership=membership, role=Role.OWNER, actor=owner)
    new = owner_link(club_a, boris)

    # Its maker may grant it again, but it ended with his role: it stays revoked.
    assert_dead(client, old, "carl", why="This invitation link was revoked by the club.")
    response = accept(client, new, "dana")
    assert response.status_code == 302
    assert Membership.objects.get(user__username="dana").role == Role.OWNER


def test_a_demotion_keeps_the_links_that_are_spent_or_made_by_others(client, club_a, owner, boris):
    others = owner_link(club_a, owner)
    spent = invitations.invitation_create(club=club_a, role=Role.PLAYER, created_by=boris)
    accept(client, spent, "erin")
    services.member_set_role(
        membership=Membership.objects.get(user=boris), role=Role.PLAYER, actor=owner
    )

    assert Invitation.objects.get(pk=others.pk).revoked_at is None
    assert Invitation.objects.get(pk=spent.pk).revoked_at is None  # used up: nothing to end
    assert accept(client, others, "fred").status_code == 302
