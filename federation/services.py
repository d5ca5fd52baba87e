"""Writes of the federation's core: federations, their officers and their member clubs.

Every function takes keyword arguments only, runs in one transaction and raises
FederationError with a message the user can read; nothing is saved when it does. The views
check who may ask (federation.access for officers, federation.selectors.owns_club for a
club's owner); the services check what the rules allow (states, the last owner, bounds).
The persons across the clubs' rosters are federation.persons.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email, validate_slug
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club import selectors as club_selectors
from club.errors import ServiceError
from club.mail import site_url
from club.models import Club, Membership, Role
from club.names import InvalidName, normalise_text
from federation import persons
from federation.models import (
    Federation,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
)
from federation.signals import counting_changed

log = logging.getLogger(__name__)


class FederationError(ServiceError):
    """A change to a federation, its officers or member clubs that its rules do not allow."""


FEDERATION_NAME = gettext_lazy("The federation's name")
FEDERATION_NAME_MAX = Federation._meta.get_field("name").max_length
FEDERATION_PLACE = gettext_lazy("The city or country")
FEDERATION_PLACE_MAX = Federation._meta.get_field("place").max_length
SLUG_MAX = Federation._meta.get_field("slug").max_length
#: The federations one account may own: a stranger cannot fill the list.
OWNED_MAX = 10
#: Short names a federation cannot take: they are the app's own addresses under /f/.
RESERVED_SLUGS = frozenset({"new"})
ADDRESS_MAX_LENGTH = 254


def _text(value: str, *, field: str, what: str, max_length: int, required: bool = True) -> str:
    try:
        return normalise_text(
            value, max_length=max_length, what=what, required=required, field=field
        )
    except InvalidName as exc:
        raise FederationError(exc.message, field=field) from exc


def _lock(federation: Federation) -> Federation:
    """Serialise the changes to one federation's officers and clubs."""
    return Federation.objects.select_for_update().get(pk=federation.pk)


def _slug_taken(slug: str) -> FederationError:
    return FederationError(
        _("Another federation already uses the link /f/%(slug)s/.") % {"slug": slug}, field="slug"
    )


# Federations


@transaction.atomic
def federation_create(*, name: str, slug: str, place: str, owner: AbstractBaseUser) -> Federation:
    """Open a federation; the user who opens it is its first owner. At most OWNED_MAX
    federations an account owns."""
    name = _text(name, field="name", what=FEDERATION_NAME, max_length=FEDERATION_NAME_MAX)
    place = _text(
        place, field="place", what=FEDERATION_PLACE, max_length=FEDERATION_PLACE_MAX, required=False
    )
    slug = (slug or "").strip().lower()
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise FederationError(
            _("Use only Latin letters, digits, hyphens and underscores."), field="slug"
        ) from exc
    if len(slug) > SLUG_MAX:
        raise FederationError(
            _("The short name is too long: at most %(max)s characters.") % {"max": SLUG_MAX},
            field="slug",
        )
    if slug in RESERVED_SLUGS:
        raise FederationError(
            _("The link /f/%(slug)s/ is the site's own: choose another short name.")
            % {"slug": slug},
            field="slug",
        )
    # The owner's row serialises his creations, so that two at once keep the bound.
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    owned = Officer.objects.filter(user=owner, role=OfficerRole.OWNER).count()
    if owned >= OWNED_MAX and not owner.is_superuser:
        raise FederationError(
            _("You own %(max)s federations already, the most one account may own.")
            % {"max": OWNED_MAX}
        )
    if Federation.objects.filter(slug=slug).exists():
        raise _slug_taken(slug)
    try:
        with transaction.atomic():
            federation = Federation.objects.create(name=name, slug=slug, place=place)
    except IntegrityError as exc:  # the same slug, taken a moment ago
        raise _slug_taken(slug) from exc
    Officer.objects.create(federation=federation, user=owner, role=OfficerRole.OWNER)
    return federation


# Officers


def officer_account(to: str) -> AbstractBaseUser | None:
    """The account a typed username or e-mail address names, if any."""
    to = " ".join(str(to).split())
    if "@" in to:
        try:
            validate_email(to)
        except ValidationError:
            return None
        return club_selectors.address_owners(to).first()
    return club_selectors.user_by_username(to)


@transaction.atomic
def officer_add(
    *, federation: Federation, to: str, role: str, actor: AbstractBaseUser | None = None
) -> Officer:
    """Make an existing account, named by its username or e-mail address, an officer."""
    if role not in OfficerRole.values:
        raise FederationError(_("Choose a role."), field="role")
    to = " ".join(str(to).split())
    if not to:
        raise FederationError(_("Write the username or e-mail address."), field="to")
    if len(to) > ADDRESS_MAX_LENGTH:
        raise FederationError(
            _("%(to)s is neither a username nor an e-mail address.") % {"to": to[:80]}, field="to"
        )
    user = officer_account(to)
    if user is None:
        raise FederationError(
            _("No account goes by %(to)s: the officer signs up first.") % {"to": to[:80]},
            field="to",
        )
    federation = _lock(federation)
    existing = Officer.objects.filter(federation=federation, user=user).first()
    if existing is not None:
        raise FederationError(
            _("%(user)s is already an officer (%(role)s).")
            % {"user": user.get_username(), "role": existing.get_role_display()},
            field="to",
        )
    return Officer.objects.create(federation=federation, user=user, role=role)


def _other_owners(officer: Officer) -> bool:
    return (
        Officer.objects.filter(federation_id=officer.federation_id, role=OfficerRole.OWNER)
        .exclude(pk=officer.pk)
        .exists()
    )


@transaction.atomic
def officer_set_role(*, officer: Officer, role: str) -> Officer:
    if role not in OfficerRole.values:
        raise FederationError(_("Choose a role."), field="role")
    _lock(officer.federation)
    officer = Officer.objects.select_related("user", "federation").get(pk=officer.pk)
    if (
        officer.role == OfficerRole.OWNER
        and role != OfficerRole.OWNER
        and not _other_owners(officer)
    ):
        raise FederationError(
            _("%(user)s is the federation's only owner: make someone else an owner first.")
            % {"user": officer.user.get_username()}
        )
    if officer.role != role:
        officer.role = role
        officer.save(update_fields=["role"])
    return officer


@transaction.atomic
def officer_remove(*, officer: Officer) -> None:
    _lock(officer.federation)
    officer = Officer.objects.select_related("user").get(pk=officer.pk)
    if officer.role == OfficerRole.OWNER and not _other_owners(officer):
        raise FederationError(
            _("%(user)s is the federation's only owner and cannot be removed.")
            % {"user": officer.user.get_username()}
        )
    officer.delete()


# Member clubs


@transaction.atomic
def club_invite(*, federation: Federation, slug: str, actor: AbstractBaseUser) -> MemberClub:
    """Invite the club with this short name; its owner accepts or declines. A club that left
    may be invited again (a new row)."""
    slug = " ".join(str(slug).split()).strip("/").lower()
    if slug.startswith("c/"):
        slug = slug[2:]
    if not slug:
        raise FederationError(_("Write the club's short name, as in its link."), field="club")
    club = Club.objects.filter(slug=slug[:SLUG_MAX]).first() if len(slug) <= SLUG_MAX else None
    if club is None:
        raise FederationError(
            _("No club goes by the link /c/%(slug)s/.") % {"slug": slug[:80]}, field="club"
        )
    federation = _lock(federation)
    open_row = MemberClub.objects.filter(
        federation=federation, club=club, state__in=[MemberState.INVITED, MemberState.MEMBER]
    ).first()
    if open_row is not None:
        if open_row.state == MemberState.MEMBER:
            message = _("%(club)s is already a member.")
        else:
            message = _("%(club)s is already invited: its owner has not answered yet.")
        raise FederationError(message % {"club": club.name}, field="club")
    member = MemberClub.objects.create(
        federation=federation, club=club, state=MemberState.INVITED, invited_by=actor
    )
    transaction.on_commit(lambda: send_club_invitation(member.pk))
    return member


def send_club_invitation(member_id: int) -> int:
    """Mail each owner of the invited club (in his own language) that the federation invites
    it, with the page where he answers; returns how many were mailed. A mail server that
    fails is logged, never raised: the invitation waits on /f/ all the same."""
    member = MemberClub.objects.select_related("club", "federation").filter(pk=member_id).first()
    if member is None or member.state != MemberState.INVITED:
        return 0
    owners = (
        Membership.objects.filter(club=member.club, role=Role.OWNER)
        .exclude(user__email="")
        .select_related("user")
    )
    sent = 0
    for owner in owners:
        language = club_selectors.account_language(owner.user) or translation.get_language()
        with translation.override(language):
            context = {
                "federation": member.federation,
                "club": member.club,
                "link": site_url(reverse("federation:clubs", args=[member.federation.slug])),
            }
            subject = render_to_string("federation/mail/club_invited_subject.txt", context)
            body = render_to_string("federation/mail/club_invited_message.txt", context)
        try:
            send_mail(" ".join(subject.split()), body, None, [owner.user.email])
        except OSError:
            log.exception("The invitation of club %s could not be mailed", member.club_id)
            continue
        sent += 1
    return sent


def _locked_member(member: MemberClub) -> MemberClub:
    _lock(member.federation)
    return MemberClub.objects.select_related("club", "federation").get(pk=member.pk)


def _not_invited(member: MemberClub) -> FederationError:
    return FederationError(
        _("The invitation of %(club)s is no longer open.") % {"club": member.club.name}
    )


@transaction.atomic
def member_accept(*, member: MemberClub, actor: AbstractBaseUser) -> MemberClub:
    """The club's owner accepts: the club is a member from today, its roster names become
    persons of the federation (persons.persons_sync). A club that was a member before counts
    from the day it joined again (MemberClub.counts_from)."""
    member = _locked_member(member)
    if member.state != MemberState.INVITED:
        raise _not_invited(member)
    today = timezone.localdate()
    was_member = MemberClub.objects.filter(
        federation=member.federation, club=member.club, state=MemberState.LEFT
    ).exists()
    member.state = MemberState.MEMBER
    member.joined_on = today
    member.counts_from = today if was_member else None
    member.save(update_fields=["state", "joined_on", "counts_from"])
    persons.persons_sync(member.federation, clubs=[member.club], actor=actor)
    counting_changed.send(sender=MemberClub, federation=member.federation)
    return member


def _close_invitation(member: MemberClub, state: str, actor: AbstractBaseUser) -> MemberClub:
    member = _locked_member(member)
    if member.state != MemberState.INVITED:
        raise _not_invited(member)
    member.state = state
    member.ended_by = actor
    member.ended_at = timezone.now()
    member.save(update_fields=["state", "ended_by", "ended_at"])
    return member


@transaction.atomic
def member_decline(*, member: MemberClub, actor: AbstractBaseUser) -> MemberClub:
    """The club's owner declines the invitation."""
    return _close_invitation(member, MemberState.DECLINED, actor)


@transaction.atomic
def member_withdraw(*, member: MemberClub, actor: AbstractBaseUser) -> MemberClub:
    """The federation's owner withdraws an invitation not answered yet."""
    return _close_invitation(member, MemberState.CANCELLED, actor)


@transaction.atomic
def member_end(*, member: MemberClub, actor: AbstractBaseUser) -> MemberClub:
    """End a membership (the federation's owner ends it, or the club's owner leaves): the
    club keeps its data, its pulkas from today on stop counting, and the proposals that
    wait for it or name its roster names are refused."""
    member = _locked_member(member)
    if member.state != MemberState.MEMBER:
        raise FederationError(_("%(club)s is not a member any more.") % {"club": member.club.name})
    now = timezone.now()
    member.state = MemberState.LEFT
    member.left_on = timezone.localdate()
    member.ended_by = actor
    member.ended_at = now
    member.save(update_fields=["state", "left_on", "ended_by", "ended_at"])
    persons.proposals_refuse_for_club(member.federation, member.club, actor=actor)
    counting_changed.send(sender=MemberClub, federation=member.federation)
    return member
