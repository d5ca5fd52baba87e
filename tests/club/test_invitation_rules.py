"""The invitation services called directly (club.invitations): the tokens, the bounds of a
link, what accepting one would do and does, the answers to requests for a roster name, and
the refusals the pages' forms never let through, each leaving everything as it was."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from club import invitations
from club.models import (
    ClaimStatus,
    Invitation,
    InvitationUse,
    Membership,
    MembershipAction,
    MembershipEvent,
    NameClaim,
    Player,
    Role,
)
from club.services import ClubError
from tests.conftest import database_state, make_club, make_member, make_player, make_user

pytestmark = pytest.mark.django_db

Error = invitations.InvitationError


@pytest.fixture
def oksana(club_a) -> Player:
    return make_player(club_a, "Оксана")


def make_link(club, maker, **kwargs) -> Invitation:
    return invitations.invitation_create(club=club, created_by=maker, **kwargs)


def refused(call, **kwargs) -> Error:
    """The InvitationError (or ClubError) that `call(**kwargs)` raises; nothing is written."""
    before = database_state()
    with pytest.raises(ClubError) as raised:
        call(**kwargs)
    assert database_state() == before
    return raised.value


# The token


def test_a_token_is_a_selector_and_a_verifier_that_find_their_link(club_a, owner):
    link = make_link(club_a, owner, role=Role.PLAYER)

    assert (len(link.selector), len(link.verifier)) == (12, 32)
    assert invitations.TOKEN_LENGTH == len(link.token) == 44
    assert invitations.split_token(link.token) == (link.selector, link.verifier)
    assert invitations.find_invitation(link.token) == link
    with transaction.atomic():
        assert invitations.find_invitation(link.token, lock=True) == link


@pytest.mark.parametrize(
    "token", [None, 44, "x" * 43, "x" * 45, ""], ids=["none", "int", "short", "long", "empty"]
)
def test_what_cannot_be_a_token_finds_nothing(club_a, owner, token):
    make_link(club_a, owner, role=Role.PLAYER)

    assert invitations.split_token(token) is None
    assert invitations.find_invitation(token) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="only PostgreSQL refuses a row lock outside one"
)
def test_a_link_is_read_without_a_lock_unless_asked():
    """The accept page reads the link outside a transaction: a lock there is refused."""
    club = make_club()
    link = make_link(club, make_member(club, Role.OWNER).user, role=Role.PLAYER)

    assert invitations.find_invitation(link.token) == link
    with pytest.raises(TransactionManagementError):
        invitations.find_invitation(link.token, lock=True)


def test_a_known_selector_with_another_verifier_finds_nothing(club_a, owner):
    link = make_link(club_a, owner, role=Role.PLAYER)

    assert invitations.find_invitation(link.selector + "x" * 32) is None
    assert invitations.find_invitation("y" * 12 + link.verifier) is None


@pytest.mark.parametrize(
    ("code", "dead"),
    [
        (Error.EXPIRED, True),
        (Error.USED_UP, True),
        (Error.REVOKED, True),
        (Error.LAPSED, True),
        (Error.DECLINED, True),
        (Error.UNKNOWN, False),
        (Error.NOT_YOURS, False),
        (Error.NAME_TAKEN, False),
        (Error.ALREADY_LINKED, False),
        (Error.INVALID, False),
    ],
)
def test_only_an_expired_used_up_revoked_or_lapsed_link_is_dead(code, dead):
    error = Error("x", code=code, field="role")

    assert (error.code, error.field, error.message) == (code, "role", "x")
    assert error.link_is_dead is dead


def test_the_codes_are_the_words_the_accept_page_reads():
    assert (Error.UNKNOWN, Error.EXPIRED, Error.USED_UP, Error.REVOKED) == (
        "unknown",
        "expired",
        "used_up",
        "revoked",
    )
    assert (Error.NAME_TAKEN, Error.ALREADY_LINKED, Error.INVALID) == (
        "name_taken",
        "already_linked",
        "invalid",
    )


# Making a link


@pytest.mark.parametrize(("days", "uses"), [(1, 1), (90, 500)])
def test_a_link_is_made_at_the_bounds_of_its_days_and_uses(club_a, owner, days, uses):
    before = timezone.now()

    link = make_link(club_a, owner, role=Role.SECRETARY, valid_days=days, max_uses=uses)

    link.refresh_from_db()
    assert (link.club, link.role, link.created_by, link.max_uses, link.uses) == (
        club_a,
        Role.SECRETARY,
        owner,
        uses,
        0,
    )
    assert link.player is None
    assert before + timedelta(days=days) <= link.expires_at <= timezone.now() + timedelta(days=days)
    event = MembershipEvent.objects.get(action=MembershipAction.INVITED)
    assert (event.club, event.actor, event.role, event.detail) == (
        club_a,
        owner,
        Role.SECRETARY,
        "",
    )


def test_a_link_is_valid_for_a_week_and_one_use_unless_told(club_a, owner):
    link = make_link(club_a, owner, role=Role.PLAYER)

    assert link.max_uses == 1
    assert timedelta(days=6, hours=23) < link.expires_at - timezone.now() <= timedelta(days=7)


def test_a_link_bound_to_a_name_names_it_in_the_history(club_a, owner, oksana):
    link = make_link(club_a, owner, role=Role.PLAYER, player=oksana)

    assert Invitation.objects.get(pk=link.pk).player == oksana
    assert MembershipEvent.objects.get(action=MembershipAction.INVITED).detail == "Оксана"


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"role": "king"}, "role", "Choose a role."),
        ({"valid_days": 0}, "valid_days", "A link is valid for 1 to 90 days."),
        ({"valid_days": 91}, "valid_days", "A link is valid for 1 to 90 days."),
        ({"max_uses": 0}, "max_uses", "A link is good for 1 to 500 people."),
        ({"max_uses": 501}, "max_uses", "A link is good for 1 to 500 people."),
    ],
)
def test_a_link_out_of_bounds_is_refused(club_a, owner, change, field, message):
    error = refused(
        invitations.invitation_create,
        club=club_a,
        created_by=owner,
        **{"role": Role.PLAYER, **change},
    )

    assert (error.code, error.field, error.message) == (Error.INVALID, field, message)


def test_a_link_for_a_name_off_the_roster_or_linked_or_for_many_is_refused(
    club_a, club_b, owner, oksana
):
    def bound(player, **kwargs):
        return refused(
            invitations.invitation_create,
            club=club_a,
            role=Role.PLAYER,
            created_by=owner,
            player=player,
            **kwargs,
        )

    gone = make_player(club_a, "Gone", is_active=False)
    taken = make_player(club_a, "Taken", user=make_user())

    for player in (gone, make_player(club_b, "Stranger")):
        error = bound(player)
        assert (error.code, error.field, error.message) == (
            Error.INVALID,
            "player",
            "Choose a name that is on the roster.",
        )
    error = bound(taken)
    assert (error.code, error.field, error.message) == (
        Error.NAME_TAKEN,
        "player",
        "Taken is already linked to an account.",
    )
    error = bound(oksana, max_uses=2)
    assert (error.code, error.field) == (Error.INVALID, "max_uses")


@pytest.mark.parametrize(
    ("to", "message"),
    [
        ("", "Write the username or e-mail address of the person to invite."),
        (" \t ", "Write the username or e-mail address of the person to invite."),
        ("zoya@", "zoya@ is neither a username nor an e-mail address."),
        ("a@b@c.ua", "a@b@c.ua is neither a username nor an e-mail address."),
        ("z" * 255, "z" * 80 + " is neither a username nor an e-mail address."),
    ],
    ids=["empty", "blank", "half-address", "two-ats", "too-long"],
)
def test_an_invitation_to_nobody_or_to_no_address_is_refused(club_a, owner, to, message):
    error = refused(
        invitations.invitation_address, club=club_a, to=to, role=Role.PLAYER, created_by=owner
    )

    assert (error.code, error.field, error.message) == (Error.INVALID, "to", message)


# Revoking a link


def test_revoking_a_bound_link_records_who_and_the_name(club_a, owner, oksana):
    link = make_link(club_a, owner, role=Role.SECRETARY, player=oksana)

    revoked = invitations.invitation_revoke(invitation=link, actor=owner)

    link.refresh_from_db()
    assert revoked == link
    assert (link.revoked_by, link.is_revoked) == (owner, True)
    event = MembershipEvent.objects.get(action=MembershipAction.REVOKED)
    assert (event.actor, event.role, event.detail) == (owner, Role.SECRETARY, "Оксана")


def test_revoking_an_unbound_link_names_nobody(club_a, owner):
    link = make_link(club_a, owner, role=Role.PLAYER)

    invitations.invitation_revoke(invitation=link, actor=owner)

    assert MembershipEvent.objects.get(action=MembershipAction.REVOKED).detail == ""


def test_a_revoked_or_used_up_link_cannot_be_revoked(club_a, owner):
    revoked = make_link(club_a, owner, role=Role.PLAYER)
    invitations.invitation_revoke(invitation=revoked, actor=owner)
    used = make_link(club_a, owner, role=Role.PLAYER)
    invitations.invitation_accept(token=used.token, user=make_user())

    again = refused(invitations.invitation_revoke, invitation=revoked, actor=owner)
    spent = refused(invitations.invitation_revoke, invitation=used, actor=owner)

    assert (again.code, again.message) == (Error.REVOKED, "This link is already revoked.")
    assert (spent.code, spent.message) == (
        Error.USED_UP,
        "This link is used up already: there is nothing left to revoke.",
    )


# What accepting would do


def test_a_stranger_would_join_with_the_links_role(club_a, owner):
    link = make_link(club_a, owner, role=Role.SECRETARY)

    plan = invitations.plan_acceptance(link, make_user())

    assert (plan.invitation, plan.membership, plan.new_role, plan.link_player) == (
        link,
        None,
        Role.SECRETARY,
        None,
    )
    assert (plan.already_accepted, plan.changes_anything, plan.role_after) == (
        False,
        True,
        Role.SECRETARY,
    )


def test_a_member_of_the_same_role_keeps_it_and_the_link_changes_nothing(club_a, owner, player):
    link = make_link(club_a, owner, role=Role.PLAYER)

    plan = invitations.plan_acceptance(link, player)

    assert plan.membership == Membership.objects.get(club=club_a, user=player)
    assert (plan.new_role, plan.link_player, plan.changes_anything, plan.role_after) == (
        None,
        None,
        False,
        Role.PLAYER,
    )


def test_a_lower_member_would_be_raised(club_a, owner, player):
    plan = invitations.plan_acceptance(make_link(club_a, owner, role=Role.OWNER), player)

    assert (plan.new_role, plan.changes_anything, plan.role_after) == (Role.OWNER, True, Role.OWNER)


def test_a_higher_member_keeps_his_role_and_takes_the_name(club_a, owner, secretary, oksana):
    link = make_link(club_a, owner, role=Role.PLAYER, player=oksana)

    plan = invitations.plan_acceptance(link, secretary)

    assert (plan.new_role, plan.link_player, plan.changes_anything, plan.role_after) == (
        None,
        oksana,
        True,
        Role.SECRETARY,
    )


def test_a_name_already_his_is_not_linked_again(club_a, owner, player, oksana):
    link = make_link(club_a, owner, role=Role.PLAYER, player=oksana)
    oksana.user = player
    oksana.save()

    plan = invitations.plan_acceptance(invitations.find_invitation(link.token), player)

    assert (plan.link_player, plan.changes_anything) == (None, False)


def test_an_accepted_link_would_change_nothing_again(club_a, owner):
    link = make_link(club_a, owner, role=Role.SECRETARY, max_uses=3)
    user = make_user()
    invitations.invitation_accept(token=link.token, user=user)
    link.refresh_from_db()

    plan = invitations.plan_acceptance(link, user)

    assert (plan.already_accepted, plan.new_role, plan.link_player) == (True, None, None)
    assert (plan.changes_anything, plan.role_after) == (False, Role.SECRETARY)


def test_the_plan_of_a_dead_link_is_its_refusal(club_a, owner):
    revoked = make_link(club_a, owner, role=Role.PLAYER)
    invitations.invitation_revoke(invitation=revoked, actor=owner)
    revoked.refresh_from_db()
    old = make_link(club_a, owner, role=Role.PLAYER)

    with pytest.raises(Error) as dead:
        invitations.plan_acceptance(revoked, make_user())
    assert dead.value.code == Error.REVOKED
    with time_machine.travel(timezone.now() + timedelta(days=8)), pytest.raises(Error) as late:
        invitations.plan_acceptance(old, make_user())
    assert late.value.code == Error.EXPIRED
    assert late.value.message.startswith("This invitation link expired on 20")


def test_a_link_whose_maker_left_has_lapsed(club_a, owner):
    link = make_link(club_a, owner, role=Role.PLAYER)
    Membership.objects.filter(club=club_a, user=owner).delete()

    assert invitations.link_state_error(link).code == Error.LAPSED


def test_a_name_taken_or_a_second_name_is_refused_by_the_plan(club_a, owner, player, oksana):
    link = make_link(club_a, owner, role=Role.PLAYER, player=oksana)
    make_player(club_a, "Петро", user=player)

    second = refused(invitations.plan_acceptance, invitation=link, user=player)
    oksana.user = make_user()
    oksana.save()
    link = invitations.find_invitation(link.token)
    taken = refused(invitations.plan_acceptance, invitation=link, user=make_user())

    assert (second.code, second.message) == (
        Error.ALREADY_LINKED,
        "Your account is already linked to the roster name Петро in this club, so it cannot "
        "take Оксана too. Ask the club's owner about it.",
    )
    assert (taken.code, taken.message) == (
        Error.NAME_TAKEN,
        "The roster name Оксана is already linked to another account. "
        "Ask the club's owner about it.",
    )


# Accepting


def test_accepting_joins_spends_a_use_and_is_recorded(club_a, owner):
    link = make_link(club_a, owner, role=Role.SECRETARY, max_uses=3)
    zoya, yurii = make_user(username="zoya"), make_user(username="yurii")

    plan = invitations.invitation_accept(token=link.token, user=zoya)
    invitations.invitation_accept(token=link.token, user=yurii)

    assert (plan.membership, plan.new_role) == (None, Role.SECRETARY)
    assert Membership.objects.get(club=club_a, user=zoya).role == Role.SECRETARY
    link.refresh_from_db()
    assert link.uses == 2
    assert set(InvitationUse.objects.filter(invitation=link).values_list("user", flat=True)) == {
        zoya.pk,
        yurii.pk,
    }
    event = MembershipEvent.objects.filter(action=MembershipAction.ACCEPTED).earliest("pk")
    assert (event.club, event.actor, event.subject, event.role, event.detail) == (
        club_a,
        zoya,
        zoya,
        Role.SECRETARY,
        "",
    )
    assert not MembershipEvent.objects.filter(action=MembershipAction.ROLE_CHANGED).exists()


def test_accepting_a_higher_role_raises_the_member_and_records_both(club_a, owner, player):
    link = make_link(club_a, owner, role=Role.SECRETARY)

    invitations.invitation_accept(token=link.token, user=player)

    assert Membership.objects.get(club=club_a, user=player).role == Role.SECRETARY
    change = MembershipEvent.objects.get(action=MembershipAction.ROLE_CHANGED)
    assert (change.club, change.actor, change.subject, change.role, change.detail) == (
        club_a,
        player,
        player,
        Role.SECRETARY,
        Role.PLAYER,
    )
    accepted = MembershipEvent.objects.get(action=MembershipAction.ACCEPTED)
    assert accepted.role == Role.SECRETARY
    assert Membership.objects.filter(club=club_a, user=player).count() == 1


def test_accepting_a_bound_link_links_the_name_and_answers_only_his_own_requests(
    club_a, club_b, owner, oksana
):
    user = make_member(club_a, Role.PLAYER).user
    mine = NameClaim.objects.create(club=club_a, user=user, player=oksana)
    theirs = NameClaim.objects.create(
        club=club_a, user=make_member(club_a).user, player=make_player(club_a, "Ira")
    )
    make_member(club_b, Role.PLAYER, user=user)
    elsewhere = NameClaim.objects.create(club=club_b, user=user, player=make_player(club_b, "Ola"))
    link = make_link(club_a, owner, role=Role.PLAYER, player=oksana)

    plan = invitations.invitation_accept(token=link.token, user=user)

    assert plan.link_player == oksana
    assert Player.objects.get(pk=oksana.pk).user == user
    mine.refresh_from_db()
    assert (mine.status, mine.decided_at is not None) == (ClaimStatus.DECLINED, True)
    for other in (theirs, elsewhere):
        other.refresh_from_db()
        assert (other.status, other.decided_at) == (ClaimStatus.PENDING, None)
    assert MembershipEvent.objects.get(action=MembershipAction.ACCEPTED).detail == "Оксана"


def test_accepting_what_changes_nothing_writes_nothing(club_a, owner):
    link = make_link(club_a, owner, role=Role.PLAYER)
    before = database_state()

    # An owner gains nothing from it: nothing is written, no use is spent.
    plan = invitations.invitation_accept(token=link.token, user=owner)

    assert (plan.changes_anything, plan.role_after) == (False, Role.OWNER)
    assert database_state() == before


@pytest.mark.parametrize("how", ["unknown", "revoked", "used_up", "expired"])
def test_a_link_that_does_not_open_refuses_and_writes_nothing(club_a, owner, how):
    link = make_link(club_a, owner, role=Role.SECRETARY)
    token = link.token
    if how == "unknown":
        token = "x" * invitations.TOKEN_LENGTH
    elif how == "revoked":
        invitations.invitation_revoke(invitation=link, actor=owner)
    elif how == "used_up":
        invitations.invitation_accept(token=token, user=make_user())

    with time_machine.travel(timezone.now() + timedelta(days=8 if how == "expired" else 0)):
        error = refused(invitations.invitation_accept, token=token, user=make_user())

    assert error.code == how
    assert error.link_is_dead is (how != "unknown")


# Requests for a roster name


def test_a_member_asks_for_a_name_and_it_is_recorded(club_a, player, oksana):
    claim = invitations.name_claim_create(club=club_a, user=player, player=oksana)

    assert NameClaim.objects.get() == claim
    assert (claim.club, claim.user, claim.player, claim.status) == (
        club_a,
        player,
        oksana,
        ClaimStatus.PENDING,
    )
    event = MembershipEvent.objects.get(action=MembershipAction.CLAIM_REQUESTED)
    assert (event.actor, event.subject, event.detail) == (player, player, "Оксана")


def test_a_request_for_a_name_is_refused_when_it_cannot_be_answered(club_a, club_b, player, oksana):
    def ask(user, name):
        return refused(invitations.name_claim_create, club=club_a, user=user, player=name)

    stranger = make_user()
    assert ask(stranger, oksana).message == (
        "Only the club's members can ask for a name on its roster."
    )
    taken = make_player(club_a, "Taken", user=make_member(club_a).user)
    error = ask(player, taken)
    assert (error.field, error.message) == ("player", "Taken is already linked to an account.")
    for name in (make_player(club_a, "Gone", is_active=False), make_player(club_b, "Far")):
        error = ask(player, name)
        assert (error.field, error.message) == ("player", "Choose a name that is on the roster.")
    invitations.name_claim_create(club=club_a, user=player, player=oksana)
    assert ask(player, make_player(club_a, "Ira")).message == (
        "You have already asked for Оксана: a secretary or the owner will answer."
    )
    linked = make_member(club_a).user
    make_player(club_a, "Петро", user=linked)
    assert ask(linked, oksana).message == (
        "Your account is already linked to the roster name Петро."
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_a_second_request_at_the_same_moment_waits_for_the_first_and_is_told():
    """The first holds the club's lock until it commits: the second, arriving meanwhile,
    waits for it and then finds its request (not a clash in the database)."""
    club = make_club()
    user = make_member(club, Role.PLAYER).user
    oksana, ira = make_player(club, "Оксана"), make_player(club, "Ira")
    first_asked = threading.Event()
    outcomes = {}

    def first():
        try:
            with transaction.atomic():
                invitations.name_claim_create(club=club, user=user, player=oksana)
                first_asked.set()
                time.sleep(0.5)  # still uncommitted while the second one comes in
            outcomes["first"] = "asked"
        finally:
            connection.close()

    def second():
        try:
            first_asked.wait(timeout=10)
            invitations.name_claim_create(club=club, user=user, player=ira)
            outcomes["second"] = "asked"
        except ClubError as exc:
            outcomes["second"] = exc.message
        except IntegrityError:
            outcomes["second"] = "a clash in the database"
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert outcomes == {
        "first": "asked",
        "second": "You have already asked for Оксана: a secretary or the owner will answer.",
    }
    assert list(NameClaim.objects.filter(user=user).values_list("player__name", flat=True)) == [
        "Оксана"
    ]


@pytest.fixture
def claim(club_a, player, oksana) -> NameClaim:
    return invitations.name_claim_create(club=club_a, user=player, player=oksana)


def test_approving_links_the_name_and_declines_the_rivals(club_a, secretary, claim, oksana):
    rival = make_member(club_a).user
    rival_claim = invitations.name_claim_create(club=club_a, user=rival, player=oksana)
    other = invitations.name_claim_create(
        club=club_a, user=make_member(club_a).user, player=make_player(club_a, "Ira")
    )

    answered = invitations.name_claim_decide(claim=claim, actor=secretary, approve=True)

    assert answered == claim
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by, claim.decided_at is not None) == (
        ClaimStatus.APPROVED,
        secretary,
        True,
    )
    assert Player.objects.get(pk=oksana.pk).user == claim.user
    rival_claim.refresh_from_db()
    assert (rival_claim.status, rival_claim.decided_by) == (ClaimStatus.DECLINED, secretary)
    assert rival_claim.decided_at == claim.decided_at
    other.refresh_from_db()
    assert other.status == ClaimStatus.PENDING
    events = MembershipEvent.objects.filter(
        action__in=[MembershipAction.CLAIM_APPROVED, MembershipAction.CLAIM_DECLINED]
    )
    assert sorted((e.action, e.actor, e.subject, e.detail) for e in events) == sorted(
        [
            (MembershipAction.CLAIM_APPROVED, secretary, claim.user, "Оксана"),
            (MembershipAction.CLAIM_DECLINED, secretary, rival, "Оксана"),
        ]
    )


def test_declining_links_nothing_and_leaves_the_rivals_waiting(club_a, owner, claim, oksana):
    rival_claim = invitations.name_claim_create(
        club=club_a, user=make_member(club_a).user, player=oksana
    )

    invitations.name_claim_decide(claim=claim, actor=owner, approve=False)

    claim.refresh_from_db()
    assert (claim.status, claim.decided_by) == (ClaimStatus.DECLINED, owner)
    assert Player.objects.get(pk=oksana.pk).user is None
    rival_claim.refresh_from_db()
    assert rival_claim.status == ClaimStatus.PENDING
    event = MembershipEvent.objects.get(action=MembershipAction.CLAIM_DECLINED)
    assert (event.actor, event.subject, event.detail) == (owner, claim.user, "Оксана")


def test_a_request_that_can_no_longer_be_approved_is_refused(club_a, owner, claim, oksana):
    def approve():
        return refused(invitations.name_claim_decide, claim=claim, actor=owner, approve=True)

    oksana.user = make_user()
    oksana.save()
    assert approve().message == (
        "Оксана is already linked to another account: decline this request."
    )
    oksana.user = None
    oksana.save()
    make_player(club_a, "Петро", user=claim.user)
    assert approve().message == (
        "This account already has a name on the roster: decline this request."
    )
    Membership.objects.filter(club=club_a, user=claim.user).delete()
    assert approve().message == "This account is no longer a member: decline this request."
    invitations.name_claim_decide(claim=claim, actor=owner, approve=False)
    assert approve().message == "This request has already been answered."
