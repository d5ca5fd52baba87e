"""The membership history: every change is written with who made it, and the owner reads it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from club import services
from club.models import Membership, MembershipAction, MembershipEvent, Role
from tests.club.factories import MANAGE, assert_fragment, assert_full_page, html
from tests.conftest import HTMX, PERSONAS, make_member, make_user

pytestmark = pytest.mark.django_db

URL = "/c/sochi/members/history/"


def actions(club) -> list[str]:
    return list(MembershipEvent.objects.filter(club=club).values_list("action", flat=True))


def test_opening_a_club_records_its_first_owner():
    founder = make_user()

    club = services.club_create(name="New", slug="new", city="", is_public=True, owner=founder)

    event = MembershipEvent.objects.get(club=club)
    assert (event.action, event.actor, event.subject, event.role) == (
        MembershipAction.ADDED,
        founder,
        founder,
        Role.OWNER,
    )


def test_adding_changing_and_removing_a_member_are_recorded(club_a, owner):
    zoya = make_user(username="zoya")

    membership = services.member_add(club=club_a, user=zoya, role=Role.PLAYER, actor=owner)
    services.member_set_role(membership=membership, role=Role.SECRETARY, actor=owner)
    services.member_remove(membership=membership, actor=owner)

    events = list(MembershipEvent.objects.filter(club=club_a).order_by("at", "id"))
    assert [(e.action, e.role, e.detail) for e in events] == [
        (MembershipAction.ADDED, Role.PLAYER, ""),
        (MembershipAction.ROLE_CHANGED, Role.SECRETARY, Role.PLAYER),
        (MembershipAction.REMOVED, Role.SECRETARY, ""),
    ]
    assert {(e.actor, e.subject) for e in events} == {(owner, zoya)}


def test_setting_the_same_role_records_nothing(club_a):
    membership = make_member(club_a, Role.PLAYER)

    services.member_set_role(membership=membership, role=Role.PLAYER)

    assert actions(club_a) == []


def test_a_refused_change_records_nothing(club_a, owner):
    only_owner = Membership.objects.get(club=club_a, user=owner)

    with pytest.raises(services.ClubError):
        services.member_remove(membership=only_owner, actor=owner)

    assert actions(club_a) == []


def test_the_members_page_records_who_changed_a_role(as_persona, club_a, owner):
    membership = make_member(club_a, Role.PLAYER)

    as_persona("owner").post(f"/c/sochi/members/{membership.pk}/", {"role": "secretary"})

    event = MembershipEvent.objects.get(club=club_a)
    assert (event.action, event.actor) == (MembershipAction.ROLE_CHANGED, owner)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_read_the_history(as_persona, club_a, owner, persona):
    services.member_add(club=club_a, user=make_user(username="zoya"), role="player", actor=owner)

    response = as_persona(persona).get(URL)

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "events")
        assert "zoya" in text
        assert "added" in text
    else:
        assert "zoya" not in html(response)


def test_the_history_fragment(as_persona, club_a, owner):
    services.member_add(club=club_a, user=make_user(username="zoya"), role="player", actor=owner)

    text = assert_fragment(as_persona("owner").get(URL, headers=HTMX), "events")

    assert "zoya" in text


def test_the_history_names_the_role_before_a_change(as_persona, club_a, owner):
    membership = make_member(club_a, Role.PLAYER, username="zoya")
    services.member_set_role(membership=membership, role=Role.OWNER, actor=owner)

    text = html(as_persona("owner").get(URL))

    row = text.split('data-action="role_changed"')[1].split("</tr>")[0]
    assert "olena" in row
    assert "zoya" in row
    assert "owner" in row
    assert "(was player)" in row


def test_the_history_is_paged_newest_first(as_persona, club_a, owner):
    now = timezone.now()
    MembershipEvent.objects.bulk_create(
        MembershipEvent(
            club=club_a,
            action=MembershipAction.ADDED,
            role=Role.PLAYER,
            detail=f"n{n:03}",
            at=now - timezone.timedelta(minutes=n),
        )
        for n in range(60)
    )
    client = as_persona("owner")

    first = html(client.get(URL))
    second = html(client.get(URL, {"page": "2"}, headers=HTMX))
    beyond = html(client.get(URL, {"page": "9" * 40}))

    assert "n000" in first
    assert "n049" in first
    assert "n050" not in first
    assert "page 1 of 2" in first
    assert "n050" in second
    assert "n059" in second
    assert "n000" not in second
    assert "n000" in beyond  # an unusable page number is the first page
