"""Writes: invitation links, joining a club by one, and requests for a roster name.

Like club.services: keyword-only arguments, one transaction, and a ClubError (here an
InvitationError, with a `code` the accept page picks its words and status by) when the
club's rules refuse; nothing is saved then. Every change writes a line of the club's
membership history (club.services.membership_event_record).

Locks: a membership change locks the club row (club.services._lock_club); accepting a link
locks the invitation row first, then the club, so two people accepting a single-use link at
once are served one after the other and the second finds it used up.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from club import mail, selectors
from club.models import (
    ROLE_RANK,
    ClaimStatus,
    Club,
    Invitation,
    InvitationUse,
    Membership,
    MembershipAction,
    NameClaim,
    Player,
    Role,
    may_grant,
)
from club.services import ClubError, _lock_club, membership_event_record

# token_urlsafe(n) gives ceil(4n/3) characters: 12 for the selector (72 random bits, to
# find the row), 32 for the verifier (192 bits, the secret).
SELECTOR_BYTES, SELECTOR_LENGTH = 9, 12
VERIFIER_BYTES, VERIFIER_LENGTH = 24, 32
TOKEN_LENGTH = SELECTOR_LENGTH + VERIFIER_LENGTH

DEFAULT_VALID_DAYS = 7
ADDRESSED_VALID_DAYS = 14  # an invitation to one person waits for his answer a fortnight
MAX_VALID_DAYS = 90
MAX_USES = 500


class InvitationError(ClubError):
    """A link that cannot be accepted (or made, or revoked) as asked; `code` says why."""

    UNKNOWN = "unknown"  # no such link: a typo, a forged or a deleted one
    EXPIRED = "expired"
    USED_UP = "used_up"
    REVOKED = "revoked"
    LAPSED = "lapsed"  # its maker may no longer grant its role
    DECLINED = "declined"
    NOT_YOURS = "not_yours"  # addressed to somebody else
    NAME_TAKEN = "name_taken"  # the roster name is linked to another account
    ALREADY_LINKED = "already_linked"  # this account has another name on the roster
    INVALID = "invalid"  # a form value the rules refuse

    def __init__(self, message: str, *, code: str, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.code = code

    @property
    def link_is_dead(self) -> bool:
        """The link itself no longer works, for anyone (410 Gone on the accept page)."""
        return self.code in (
            self.EXPIRED,
            self.USED_UP,
            self.REVOKED,
            self.LAPSED,
            self.DECLINED,
        )


def split_token(token: object) -> tuple[str, str] | None:
    """The selector and the verifier of a link's token, or None when it cannot be one."""
    if not isinstance(token, str) or len(token) != TOKEN_LENGTH:
        return None
    return token[:SELECTOR_LENGTH], token[SELECTOR_LENGTH:]


def find_invitation(token: object, *, lock: bool = False) -> Invitation | None:
    """The invitation of a token, or None. The verifier is compared in constant time."""
    parts = split_token(token)
    if parts is None:
        return None
    selector, verifier = parts
    invitations = Invitation.objects.select_related("club", "player")
    if lock:
        invitations = invitations.select_for_update(of=("self",))
    invitation = invitations.filter(selector=selector).first()
    if invitation is None or not constant_time_compare(invitation.verifier, verifier):
        return None
    return invitation


def unknown_link() -> InvitationError:
    return InvitationError(
        _(
            "This invitation link is not valid. Check that it was copied whole, "
            "or ask for a new one."
        ),
        code=InvitationError.UNKNOWN,
    )


def maker_may_still_grant(invitation: Invitation) -> bool:
    """Whether the link's maker is, today, a member who may invite people as its role.

    Authority is checked when it is used: a link made by an owner who was demoted, removed or
    deleted since (the services revoke his links then, but a role changed in the admin does
    not pass through them) no longer makes anybody anything.
    """
    if invitation.created_by_id is None:
        return False  # its maker's account is deleted
    role = (
        Membership.objects.filter(club_id=invitation.club_id, user_id=invitation.created_by_id)
        .values_list("role", flat=True)
        .first()
    )
    return may_grant(role, invitation.role)


def link_state_error(invitation: Invitation) -> InvitationError | None:
    """Why the link no longer opens the door, or None while it does."""
    if invitation.is_revoked:
        if not maker_may_still_grant(invitation):
            return _lapsed(invitation)  # revoked when its maker's role ended: say so
        return InvitationError(
            _("This invitation link was revoked by the club. Ask its owner for a new one."),
            code=InvitationError.REVOKED,
        )
    if invitation.is_declined:
        return InvitationError(
            _("This invitation was declined. Ask the club's owner for a new one."),
            code=InvitationError.DECLINED,
        )
    if invitation.is_used_up:
        return InvitationError(
            _("This invitation link has already been used. Ask the club's owner for a new one."),
            code=InvitationError.USED_UP,
        )
    if invitation.is_expired:
        return InvitationError(
            _("This invitation link expired on %(date)s. Ask the club's owner for a new one.")
            % {"date": timezone.localtime(invitation.expires_at).strftime("%Y-%m-%d %H:%M")},
            code=InvitationError.EXPIRED,
        )
    if not maker_may_still_grant(invitation):
        return _lapsed(invitation)
    return None


def _lapsed(invitation: Invitation) -> InvitationError:
    return InvitationError(
        _(
            "This invitation link no longer works: the member who made it can no longer "
            "invite people to this club as %(role)s. Ask the club's owner for a new one."
        )
        % {"role": invitation.get_role_display()},
        code=InvitationError.LAPSED,
    )


@dataclass(frozen=True)
class AcceptPlan:
    """What accepting a link does for one account (club.invitations.plan_acceptance)."""

    invitation: Invitation
    membership: Membership | None  # the account's membership before, if any
    new_role: str | None  # the role it gets; None: it keeps its own (never lowered)
    link_player: Player | None  # the roster name it gets linked to
    already_accepted: bool = False

    @property
    def changes_anything(self) -> bool:
        return not self.already_accepted and (
            self.membership is None or self.new_role is not None or self.link_player is not None
        )

    @property
    def role_after(self) -> str:
        if self.new_role is not None:
            return self.new_role
        return self.membership.role if self.membership is not None else self.invitation.role


def plan_acceptance(invitation: Invitation, user: AbstractBaseUser) -> AcceptPlan:
    """What accepting `invitation` would do for `user`, or the InvitationError that refuses
    it. A read: the accept page shows it, invitation_accept does it under its locks."""
    problem = link_state_error(invitation)
    if problem is not None:
        raise problem
    if invitation.is_addressed and not is_addressee(invitation, user):
        raise not_yours()
    club = invitation.club
    membership = Membership.objects.filter(club=club, user=user).first()
    if InvitationUse.objects.filter(invitation=invitation, user=user).exists():
        return AcceptPlan(invitation, membership, None, None, already_accepted=True)
    link = None
    player = invitation.player
    if player is not None and player.user_id != user.pk:
        if player.user_id is not None:
            raise InvitationError(
                _(
                    "The roster name %(name)s is already linked to another account. "
                    "Ask the club's owner about it."
                )
                % {"name": player.name},
                code=InvitationError.NAME_TAKEN,
            )
        mine = Player.objects.filter(club=club, user=user).first()
        if mine is not None:
            raise InvitationError(
                _(
                    "Your account is already linked to the roster name %(mine)s in this club, "
                    "so it cannot take %(name)s too. Ask the club's owner about it."
                )
                % {"mine": mine.name, "name": player.name},
                code=InvitationError.ALREADY_LINKED,
            )
        link = player
    new_role = None
    if membership is None or ROLE_RANK[invitation.role] > ROLE_RANK[membership.role]:
        new_role = invitation.role
    return AcceptPlan(invitation, membership, new_role, link)


def is_addressee(invitation: Invitation, user: AbstractBaseUser) -> bool:
    """Whether the invitation is addressed to this account (by name, or by an address it
    owns today)."""
    if invitation.addressed_user_id is not None and invitation.addressed_user_id == user.pk:
        return True
    return "@" in invitation.addressed_to and (
        selectors.address_owners(invitation.addressed_to).filter(pk=user.pk).exists()
    )


def not_yours() -> InvitationError:
    return InvitationError(
        _("This invitation is for someone else: log in with the account it was sent to."),
        code=InvitationError.NOT_YOURS,
    )


# Making and revoking links


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    role: str,
    created_by: AbstractBaseUser,
    player: Player | None = None,
    valid_days: int = DEFAULT_VALID_DAYS,
    max_uses: int = 1,
    addressed_to: str = "",
    addressed_user: AbstractBaseUser | None = None,
) -> Invitation:
    """Make an invitation link to the club for `role`, valid `valid_days` days and good for
    `max_uses` acceptances; bound to `player`, it links the account to that roster name
    (and so has one use)."""
    if role not in Role.values:
        raise InvitationError(_("Choose a role."), code=InvitationError.INVALID, field="role")
    if not 1 <= valid_days <= MAX_VALID_DAYS:
        raise InvitationError(
            _("A link is valid for 1 to %(max)d days.") % {"max": MAX_VALID_DAYS},
            code=InvitationError.INVALID,
            field="valid_days",
        )
    if not 1 <= max_uses <= MAX_USES:
        raise InvitationError(
            _("A link is good for 1 to %(max)d people.") % {"max": MAX_USES},
            code=InvitationError.INVALID,
            field="max_uses",
        )
    club = _lock_club(club)
    if player is not None:
        player = Player.objects.filter(pk=player.pk, club=club).first()
        if player is None or not player.is_active:
            raise InvitationError(
                _("Choose a name that is on the roster."),
                code=InvitationError.INVALID,
                field="player",
            )
        if player.user_id is not None:
            raise InvitationError(
                _("%(name)s is already linked to an account.") % {"name": player.name},
                code=InvitationError.NAME_TAKEN,
                field="player",
            )
        if max_uses != 1:
            raise InvitationError(
                _("A link for one roster name is for one person: it has one use."),
                code=InvitationError.INVALID,
                field="max_uses",
            )
    invitation = Invitation.objects.create(
        club=club,
        role=role,
        player=player,
        selector=secrets.token_urlsafe(SELECTOR_BYTES),
        verifier=secrets.token_urlsafe(VERIFIER_BYTES),
        created_by=created_by,
        expires_at=timezone.now() + timedelta(days=valid_days),
        max_uses=max_uses,
        addressed_to=addressed_to,
        addressed_user=addressed_user,
    )
    membership_event_record(
        club=club,
        action=MembershipAction.INVITED,
        actor=created_by,
        role=role,
        detail=player.name if player is not None else addressed_to,
    )
    return invitation


ADDRESS_MAX_LENGTH = 254


def addressee(to: str) -> AbstractBaseUser | None:
    """The account a typed username or address names, if any."""
    if "@" in to:
        return selectors.address_owners(to).first()
    return selectors.user_by_username(to)


@transaction.atomic
def invitation_address(
    *,
    club: Club,
    to: str,
    role: str,
    created_by: AbstractBaseUser,
    player: Player | None = None,
) -> Invitation:
    """Invite one person, named by his username or an e-mail address, to the club as `role`
    (and, with `player`, to that roster name). Nobody becomes a member, nor is linked to a
    name, before he accepts: he finds the invitation on his home page, and gets a mail
    where he has an address (sent after the commit). The owner's answer is the same
    whether or not an account goes by that name, so it tells nobody which accounts exist.
    """
    to = " ".join(str(to).split())
    if not to:
        raise InvitationError(
            _("Write the username or e-mail address of the person to invite."),
            code=InvitationError.INVALID,
            field="to",
        )
    if len(to) > ADDRESS_MAX_LENGTH or ("@" in to and not _is_address(to)):
        raise InvitationError(
            _("%(to)s is neither a username nor an e-mail address.") % {"to": to[:80]},
            code=InvitationError.INVALID,
            field="to",
        )
    invitation = invitation_create(
        club=club,
        role=role,
        created_by=created_by,
        player=player,
        valid_days=ADDRESSED_VALID_DAYS,
        addressed_to=to,
        addressed_user=addressee(to),
    )
    transaction.on_commit(lambda: mail.send_invitation(invitation.pk))
    return invitation


@transaction.atomic
def invitation_to_name(
    *, player: Player, membership: Membership, created_by: AbstractBaseUser
) -> Invitation:
    """Invite a member of the club, picked from the members' list, to take the roster name
    `player`: addressed to his account, linked only when he accepts (and as invitation_address,
    mailed where he has an address). Refused for an account that is no longer a member, or
    is already linked to a name of the club."""
    club = _lock_club(player.club)
    member = Membership.objects.filter(pk=membership.pk, club=club).select_related("user").first()
    if member is None:
        raise InvitationError(
            _("Choose a member of the club."), code=InvitationError.INVALID, field="member"
        )
    mine = Player.objects.filter(club=club, user=member.user_id).first()
    if mine is not None:
        raise InvitationError(
            _("This member is already linked to the roster name %(name)s.") % {"name": mine.name},
            code=InvitationError.ALREADY_LINKED,
            field="member",
        )
    invitation = invitation_create(
        club=club,
        role=Role.PLAYER,  # accepting never lowers his role (plan_acceptance)
        created_by=created_by,
        player=player,
        valid_days=ADDRESSED_VALID_DAYS,
        addressed_to=member.user.get_username(),
        addressed_user=member.user,
    )
    transaction.on_commit(lambda: mail.send_invitation(invitation.pk))
    return invitation


def _is_address(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: AbstractBaseUser) -> Invitation:
    """Close a link before its time: nobody can accept it any more."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("club", "player")
        .get(pk=invitation.pk)
    )
    if invitation.is_revoked:
        raise InvitationError(_("This link is already revoked."), code=InvitationError.REVOKED)
    if invitation.is_used_up:
        raise InvitationError(
            _("This link is used up already: there is nothing left to revoke."),
            code=InvitationError.USED_UP,
        )
    invitation.revoked_at = timezone.now()
    invitation.revoked_by = actor
    invitation.save(update_fields=["revoked_at", "revoked_by"])
    membership_event_record(
        club=invitation.club,
        action=MembershipAction.REVOKED,
        actor=actor,
        role=invitation.role,
        detail=invitation.player.name if invitation.player is not None else "",
    )
    return invitation


# Accepting


@transaction.atomic
def invitation_accept(*, token: str, user: AbstractBaseUser) -> AcceptPlan:
    """Accept the link of `token` for `user`: join the club with the link's role, or raise
    a lower role (never lower one), link the account to the link's roster name, and spend
    one use. When it would change nothing for this account (he is already an owner, or has
    accepted it before) nothing is written and no use is spent."""
    invitation = find_invitation(token, lock=True)
    if invitation is None:
        raise unknown_link()
    club = _lock_club(invitation.club)
    if invitation.player_id is not None:
        # Read again under the club's lock: a name linked a moment ago is taken.
        invitation.player = Player.objects.get(pk=invitation.player_id)
    plan = plan_acceptance(invitation, user)
    if not plan.changes_anything:
        return plan
    membership = plan.membership
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=plan.new_role)
    elif plan.new_role is not None:
        membership_event_record(
            club=club,
            action=MembershipAction.ROLE_CHANGED,
            actor=user,
            subject=user,
            role=plan.new_role,
            detail=membership.role,
        )
        membership.role = plan.new_role
        membership.save(update_fields=["role"])
    if plan.link_player is not None:
        plan.link_player.user = user
        plan.link_player.save(update_fields=["user"])
        # The name is his now: his own requests for a name are answered by this link.
        NameClaim.objects.filter(club=club, user=user, status=ClaimStatus.PENDING).update(
            status=ClaimStatus.DECLINED, decided_at=timezone.now()
        )
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    InvitationUse.objects.create(invitation=invitation, user=user)
    membership_event_record(
        club=club,
        action=MembershipAction.ACCEPTED,
        actor=user,
        subject=user,
        role=membership.role,
        detail=plan.link_player.name if plan.link_player is not None else "",
    )
    return plan


@transaction.atomic
def invitation_decline(*, token: str, user: AbstractBaseUser) -> Invitation:
    """The person an invitation is addressed to says no: it is closed, and the club's
    history says so."""
    invitation = find_invitation(token, lock=True)
    if invitation is None:
        raise unknown_link()
    problem = link_state_error(invitation)
    if problem is not None:
        raise problem
    if not invitation.is_addressed or not is_addressee(invitation, user):
        raise not_yours()
    invitation.declined_at = timezone.now()
    invitation.save(update_fields=["declined_at"])
    membership_event_record(
        club=invitation.club,
        action=MembershipAction.DECLINED,
        actor=user,
        subject=user,
        role=invitation.role,
        detail=invitation.player.name if invitation.player is not None else "",
    )
    return invitation


# Requests for a roster name


@transaction.atomic
def name_claim_create(*, club: Club, user: AbstractBaseUser, player: Player) -> NameClaim:
    """A member without a roster name in the club asks to be linked to an unclaimed one."""
    club = _lock_club(club)
    if not Membership.objects.filter(club=club, user=user).exists():
        raise ClubError(_("Only the club's members can ask for a name on its roster."))
    mine = Player.objects.filter(club=club, user=user).first()
    if mine is not None:
        raise ClubError(
            _("Your account is already linked to the roster name %(name)s.") % {"name": mine.name}
        )
    pending = NameClaim.objects.filter(club=club, user=user, status=ClaimStatus.PENDING).first()
    if pending is not None:
        raise ClubError(
            _("You have already asked for %(name)s: a secretary or the owner will answer.")
            % {"name": pending.player.name}
        )
    player = Player.objects.filter(pk=player.pk, club=club, is_active=True).first()
    if player is None:
        raise ClubError(_("Choose a name that is on the roster."), field="player")
    if player.user_id is not None:
        raise ClubError(
            _("%(name)s is already linked to an account.") % {"name": player.name}, field="player"
        )
    claim = NameClaim.objects.create(club=club, user=user, player=player)
    membership_event_record(
        club=club,
        action=MembershipAction.CLAIM_REQUESTED,
        actor=user,
        subject=user,
        detail=player.name,
    )
    return claim


@transaction.atomic
def name_claim_decide(*, claim: NameClaim, actor: AbstractBaseUser, approve: bool) -> NameClaim:
    """Answer a request for a roster name. Approving links the account to the name and
    declines the other requests for it; it is refused when the name or the account was
    linked meanwhile, or the account is no longer a member."""
    club = _lock_club(claim.club)
    claim = NameClaim.objects.select_related("player", "user").get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise ClubError(_("This request has already been answered."))
    now = timezone.now()
    if approve:
        player, user = claim.player, claim.user
        if player.user_id is not None:
            raise ClubError(
                _("%(name)s is already linked to another account: decline this request.")
                % {"name": player.name}
            )
        if not Membership.objects.filter(club=club, user=user).exists():
            raise ClubError(_("This account is no longer a member: decline this request."))
        if Player.objects.filter(club=club, user=user).exists():
            raise ClubError(
                _("This account already has a name on the roster: decline this request.")
            )
        player.user = user
        player.save(update_fields=["user"])
        others = NameClaim.objects.filter(player=player, status=ClaimStatus.PENDING).exclude(
            pk=claim.pk
        )
        for other in others.select_related("user"):
            _decide(other, actor, ClaimStatus.DECLINED, now)
    _decide(claim, actor, ClaimStatus.APPROVED if approve else ClaimStatus.DECLINED, now)
    return claim


def _decide(claim: NameClaim, actor: AbstractBaseUser, status: str, now) -> None:
    claim.status = status
    claim.decided_by = actor
    claim.decided_at = now
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    action = (
        MembershipAction.CLAIM_APPROVED
        if status == ClaimStatus.APPROVED
        else MembershipAction.CLAIM_DECLINED
    )
    membership_event_record(
        club=claim.club,
        action=action,
        actor=actor,
        subject=claim.user,
        detail=claim.player.name,
    )
