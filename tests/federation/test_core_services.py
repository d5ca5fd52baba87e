"""The federation's core services: opening a federation, its officers (the last owner
stays), and its member clubs from the invitation to the end, with counts_from on a return."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from club.models import AccountSettings, Player, Role
from federation import services
from federation.models import (
    Federation,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    PersonLink,
)
from federation.services import FederationError
from federation.signals import counting_changed
from tests.conftest import make_club, make_member, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def told():
    """The federations counting_changed was sent for, in order."""
    heard: list[Federation] = []

    def receiver(sender, federation, **kwargs):
        heard.append(federation)

    counting_changed.connect(receiver, weak=False)
    yield heard
    counting_changed.disconnect(receiver)


# --- federations ---------------------------------------------------------------------------------


def test_the_one_who_opens_a_federation_is_its_owner():
    user = make_user(username="ivan")

    federation = services.federation_create(
        name="  Lviv   Federation ", slug="LVIV", place="Lviv", owner=user
    )

    assert (federation.name, federation.slug, federation.place) == (
        "Lviv Federation",
        "lviv",
        "Lviv",
    )
    assert Officer.objects.get(federation=federation).user == user
    assert Officer.objects.get(federation=federation).role == OfficerRole.OWNER


@pytest.mark.parametrize(
    ("name", "slug", "message"),
    [
        ("Fed", "not a slug", "Use only Latin letters"),
        ("Fed", "new", "the site's own"),
        ("Fed", "kpf", "already uses the link /f/kpf/"),
        ("\u200bFed", "fed", "invisible"),
        ("", "fed", "is empty"),
    ],
)
def test_a_federation_the_rules_refuse_is_not_opened(federation, name, slug, message):
    before = Federation.objects.count()

    with pytest.raises(FederationError, match=message):
        services.federation_create(name=name, slug=slug, place="", owner=make_user())

    assert Federation.objects.count() == before


def test_an_account_owns_at_most_ten_federations():
    user = make_user()
    for n in range(services.OWNED_MAX):
        services.federation_create(name=f"Fed {n}", slug=f"fed-{n}", place="", owner=user)

    with pytest.raises(FederationError, match="10 federations already"):
        services.federation_create(name="One more", slug="one-more", place="", owner=user)

    assert not Federation.objects.filter(slug="one-more").exists()


# --- officers -------------------------------------------------------------------------------------


def test_an_officer_is_added_by_username_or_address(federation, fed_owner):
    by_name = make_user(username="olha")
    by_address = make_user(username="petro", email="petro@example.org")

    services.officer_add(federation=federation, to=" olha ", role=OfficerRole.JUDGE)
    services.officer_add(federation=federation, to="PETRO@example.org", role=OfficerRole.OWNER)

    roles = dict(Officer.objects.filter(federation=federation).values_list("user", "role"))
    assert roles[by_name.pk] == OfficerRole.JUDGE
    assert roles[by_address.pk] == OfficerRole.OWNER


@pytest.mark.parametrize(
    ("to", "message"),
    [
        ("nobody-here", "No account goes by nobody-here"),
        ("yurii", "already an officer"),
        ("", "Write"),
    ],
)
def test_an_unknown_account_or_an_officer_already_is_refused(
    federation, fed_owner, judge, to, message
):
    before = list(Officer.objects.values_list("pk", "role"))

    with pytest.raises(FederationError, match=message):
        services.officer_add(federation=federation, to=to, role=OfficerRole.JUDGE)

    assert list(Officer.objects.values_list("pk", "role")) == before


def test_the_last_owner_can_be_neither_demoted_nor_removed(federation, fed_owner, judge):
    owner = Officer.objects.get(user=fed_owner)

    with pytest.raises(FederationError, match="only owner: make someone else"):
        services.officer_set_role(officer=owner, role=OfficerRole.JUDGE)
    with pytest.raises(FederationError, match="only owner and cannot be removed"):
        services.officer_remove(officer=owner)

    owner.refresh_from_db()
    assert owner.role == OfficerRole.OWNER


def test_with_a_second_owner_the_first_may_step_down(federation, fed_owner, judge):
    services.officer_set_role(officer=Officer.objects.get(user=judge), role=OfficerRole.OWNER)

    services.officer_remove(officer=Officer.objects.get(user=fed_owner))

    assert list(Officer.objects.filter(federation=federation).values_list("user", "role")) == [
        (judge.pk, OfficerRole.OWNER)
    ]


# --- member clubs ---------------------------------------------------------------------------


@pytest.fixture
def newcomer(federation):
    club = make_club(name="Odesa Club", slug="odesa", city="Odesa")
    make_member(club, Role.OWNER, username="oksana")
    return club


def test_an_invited_club_becomes_a_member_when_its_owner_accepts(
    federation, fed_owner, newcomer, told
):
    oksana = newcomer.memberships.get().user
    Player.objects.create(club=newcomer, name="Taras", user=oksana)

    member = services.club_invite(federation=federation, slug="/c/odesa/", actor=fed_owner)
    assert member.state == MemberState.INVITED
    assert told == []
    services.member_accept(member=member, actor=oksana)

    member.refresh_from_db()
    assert member.state == MemberState.MEMBER
    assert member.joined_on == timezone.localdate()
    assert member.counts_from is None  # its first membership: its whole history counts
    assert PersonLink.objects.get(player__club=newcomer).person.user == oksana
    assert federation in told


def test_the_invited_clubs_owners_are_mailed_in_their_language_with_the_answer_page(
    federation, fed_owner, newcomer, mailoutbox, django_capture_on_commit_callbacks
):
    oksana = newcomer.memberships.get().user
    oksana.email = "oksana@example.org"
    oksana.save()
    AccountSettings.objects.update_or_create(user=oksana, defaults={"language": "uk"})
    make_member(newcomer, Role.OWNER, username="ivan", email="ivan@example.org")
    make_member(newcomer, Role.SECRETARY, username="sasha", email="sasha@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        services.club_invite(federation=federation, slug="odesa", actor=fed_owner)

    assert sorted(mail.to[0] for mail in mailoutbox) == ["ivan@example.org", "oksana@example.org"]
    for mail in mailoutbox:
        assert "/f/kpf/clubs/" in mail.body
        assert "Odesa Club" in mail.subject
    ukrainian = next(mail for mail in mailoutbox if mail.to == ["oksana@example.org"])
    english = next(mail for mail in mailoutbox if mail.to == ["ivan@example.org"])
    assert ukrainian.body != english.body  # each in his own language
    assert "invites your club" in english.body


def test_a_club_declines_or_the_federation_withdraws(federation, fed_owner, newcomer):
    oksana = newcomer.memberships.get().user
    declined = services.club_invite(federation=federation, slug="odesa", actor=fed_owner)
    services.member_decline(member=declined, actor=oksana)
    withdrawn = services.club_invite(federation=federation, slug="odesa", actor=fed_owner)
    services.member_withdraw(member=withdrawn, actor=fed_owner)

    states = list(
        MemberClub.objects.filter(club=newcomer).order_by("pk").values_list("state", flat=True)
    )
    assert states == [MemberState.DECLINED, MemberState.CANCELLED]
    with pytest.raises(FederationError, match="no longer open"):
        services.member_accept(member=withdrawn, actor=oksana)


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("kyiv", "Kyiv Club is already a member"),
        ("nowhere", "No club goes by the link /c/nowhere/"),
    ],
)
def test_a_club_already_in_or_unknown_is_not_invited(federation, clubs, fed_owner, slug, message):
    before = MemberClub.objects.count()

    with pytest.raises(FederationError, match=message):
        services.club_invite(federation=federation, slug=slug, actor=fed_owner)

    assert MemberClub.objects.count() == before


def test_a_club_invited_twice_is_told_it_waits(federation, fed_owner, newcomer):
    services.club_invite(federation=federation, slug="odesa", actor=fed_owner)

    with pytest.raises(FederationError, match="already invited"):
        services.club_invite(federation=federation, slug="odesa", actor=fed_owner)


def test_a_club_that_leaves_keeps_its_row_and_a_return_counts_from_that_day(
    federation, clubs, fed_owner, club_owner, told, monkeypatch
):
    kyiv = clubs[0]
    first = MemberClub.objects.get(club=kyiv)

    services.member_end(member=first, actor=club_owner)
    first.refresh_from_db()
    assert (first.state, first.left_on, first.ended_by) == (
        MemberState.LEFT,
        timezone.localdate(),
        club_owner,
    )
    assert told == [federation]
    later = datetime.date(2030, 5, 1)
    monkeypatch.setattr(timezone, "localdate", lambda *args: later)
    again = services.club_invite(federation=federation, slug="kyiv", actor=fed_owner)
    services.member_accept(member=again, actor=club_owner)

    again.refresh_from_db()
    assert again.pk != first.pk
    assert (again.state, again.joined_on, again.counts_from) == (MemberState.MEMBER, later, later)
    assert MemberClub.objects.filter(club=kyiv).count() == 2


def test_a_membership_ended_twice_is_refused(federation, clubs, fed_owner):
    member = MemberClub.objects.get(club=clubs[1])
    services.member_end(member=member, actor=fed_owner)

    with pytest.raises(FederationError, match="not a member any more"):
        services.member_end(member=member, actor=fed_owner)
