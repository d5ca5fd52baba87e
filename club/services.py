"""Writes: clubs, their members and roles, the roster, and one's own account.

Every function takes keyword arguments only, runs in one transaction and raises ClubError
with a message the user can read; nothing is saved when it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club import selectors
from club.errors import ServiceError
from club.models import (
    WHIST_PRICE_MAX,
    AccountSettings,
    ClaimStatus,
    Club,
    ClubSlug,
    Currency,
    Invitation,
    Membership,
    MembershipAction,
    MembershipEvent,
    NameClaim,
    Player,
    Role,
    may_grant,
)
from club.names import InvalidName, name_key, normalise_name, normalise_text


class ClubError(ServiceError):
    """A change to a club, its members or roster that the club's rules do not allow."""


# The names typed here and shown to others (club.names.normalise_text), as the messages and
# the forms (club.forms, club.account_forms) name them.
CLUB_NAME = gettext_lazy("The club's name")
CLUB_NAME_MAX = Club._meta.get_field("name").max_length
CLUB_CITY = gettext_lazy("The city")
CLUB_CITY_MAX = Club._meta.get_field("city").max_length
DISPLAY_NAME = gettext_lazy("Your name")
DISPLAY_NAME_MAX = 150  # User.first_name, where the whole display name is kept


def _text(value: str, *, field: str, what: str, max_length: int, required: bool = True) -> str:
    """`value` by the one rule for names (club.names), or a ClubError on `field`."""
    try:
        return normalise_text(
            value, max_length=max_length, what=what, required=required, field=field
        )
    except InvalidName as exc:
        raise ClubError(exc.message, field=field) from exc


def club_details_clean(name: str, city: str) -> dict[str, str]:
    """A club's name and city by the one rule for names, or a ClubError on the field."""
    return {
        "name": _text(name, field="name", what=CLUB_NAME, max_length=CLUB_NAME_MAX),
        "city": _text(city, field="city", what=CLUB_CITY, max_length=CLUB_CITY_MAX, required=False),
    }


def display_name_clean(name: str) -> str:
    """An account's display name by the one rule for names ("" is allowed: no name)."""
    return _text(name, field="name", what=DISPLAY_NAME, max_length=DISPLAY_NAME_MAX, required=False)


def _lock_club(club: Club) -> Club:
    """Serialise the changes to one club's members (the last-owner rule needs it)."""
    return Club.objects.select_for_update().get(pk=club.pk)


def membership_event_record(
    *,
    club: Club,
    action: str,
    actor: AbstractBaseUser | None,
    subject: AbstractBaseUser | None = None,
    role: str = "",
    detail: str = "",
) -> MembershipEvent:
    """Write one line of the club's membership history (club.models.MembershipEvent).

    Called inside the transaction of the service that made the change, so the line is
    there exactly when the change is. `detail` is data, not a sentence (the role before a
    change, a roster name), so the page says it in the reader's language; it is cut to its
    column.
    """
    limit = MembershipEvent._meta.get_field("detail").max_length
    return MembershipEvent.objects.create(
        club=club,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        subject=subject,
        role=role,
        detail=detail[:limit],
    )


# Clubs


@transaction.atomic
def club_create(
    *, name: str, slug: str, city: str, is_public: bool, owner: AbstractBaseUser
) -> Club:
    """Open a club; the user who opens it is its first owner. Its name and city follow the
    one rule for names (club.names)."""
    details = club_details_clean(name, city)
    taken = ClubError(
        _("Another club already uses the link /c/%(slug)s/.") % {"slug": slug}, field="slug"
    )
    if Club.objects.filter(slug=slug).exists():
        raise taken
    if ClubSlug.objects.filter(slug=slug).exists():
        raise _retired(slug)
    try:
        with transaction.atomic():
            club = Club.objects.create(slug=slug, is_public=is_public, **details)
    except IntegrityError as exc:  # the same slug, taken a moment ago
        raise taken from exc
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    membership_event_record(
        club=club, action=MembershipAction.ADDED, actor=owner, subject=owner, role=Role.OWNER
    )
    return club


def club_results_bump(*, club_id: int) -> None:
    """Say that the club's results or ratings changed: the cached rankings of its leagues
    are stale from now on. Called inside the transaction of the service that changed them
    (so no savepoint of its own); an F() update, so that two tables finishing at once both
    count."""
    Club.objects.filter(pk=club_id).update(results_version=F("results_version") + 1)


def _retired(slug: str) -> ClubError:
    return ClubError(
        _(
            "The link /c/%(slug)s/ used to belong to another club and still leads there: "
            "choose another short name."
        )
        % {"slug": slug},
        field="slug",
    )


@transaction.atomic
def club_set_slug(*, club: Club, slug: str) -> Club:
    """Give the club a new short name in its links; the old one keeps leading to the club.

    The old name is kept as a ClubSlug, which the tenant gate answers with a permanent
    redirect. A club may take back one of its own old names; another club's current or old
    name is refused (old links out in the world must keep leading where they did).
    """
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise ClubError(
            _("Use only Latin letters, digits, hyphens and underscores."), field="slug"
        ) from exc
    club = _lock_club(club)
    if slug == club.slug:
        return club
    if Club.objects.filter(slug=slug).exclude(pk=club.pk).exists():
        raise ClubError(
            _("Another club already uses the link /c/%(slug)s/.") % {"slug": slug}, field="slug"
        )
    if ClubSlug.objects.filter(slug=slug).exclude(club=club).exists():
        raise _retired(slug)
    ClubSlug.objects.filter(club=club, slug=slug).delete()  # back to one of its old names
    try:
        with transaction.atomic():
            ClubSlug.objects.create(club=club, slug=club.slug)
            club.slug = slug
            club.save(update_fields=["slug"])
    except IntegrityError as exc:  # another club took the name a moment ago
        raise ClubError(
            _("Another club already uses the link /c/%(slug)s/.") % {"slug": slug}, field="slug"
        ) from exc
    return club


@transaction.atomic
def club_update(*, club: Club, name: str, city: str, is_public: bool) -> Club:
    """Change the club's name, city and visibility (its conventions: scoring.services)."""
    details = club_details_clean(name, city)
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.name = details["name"]
    club.city = details["city"]
    club.is_public = is_public
    club.save(update_fields=["name", "city", "is_public"])
    return club


@transaction.atomic
def club_stake_update(*, club: Club, whist_price: Decimal | None, currency: str) -> Club:
    """Set what the club plays for: the price of a whist in `currency` (None: whists only)."""
    if currency not in Currency.values:
        raise ClubError(_("Choose a currency."), field="currency")
    if whist_price is not None and not Decimal("0.01") <= whist_price <= WHIST_PRICE_MAX:
        raise ClubError(
            _("The price of a whist is more than zero and at most %(max)s.")
            % {"max": number_format(WHIST_PRICE_MAX, decimal_pos=0, use_l10n=True)},
            field="whist_price",
        )
    if whist_price is not None and whist_price != whist_price.quantize(Decimal("0.01")):
        raise ClubError(_("The price of a whist has at most two decimals."), field="whist_price")
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.whist_price = whist_price
    club.currency = currency
    club.save(update_fields=["whist_price", "currency"])
    return club


# Members and roles


@transaction.atomic
def member_add(
    *, club: Club, user: AbstractBaseUser, role: str, actor: AbstractBaseUser | None = None
) -> Membership:
    """Make an account a member with a role. `actor`: who did it, for the history (None:
    the system, as a backup restore)."""
    if role not in Role.values:
        raise ClubError(_("Choose a role."), field="role")
    _lock_club(club)
    existing = Membership.objects.filter(club=club, user=user).first()
    if existing is not None:
        raise ClubError(
            _("%(user)s is already a member (%(role)s).")
            % {"user": user.get_username(), "role": existing.get_role_display()},
            field="username",
        )
    membership = Membership.objects.create(club=club, user=user, role=role)
    membership_event_record(
        club=club, action=MembershipAction.ADDED, actor=actor, subject=user, role=role
    )
    return membership


def links_revoke_beyond(
    *, club: Club, maker: AbstractBaseUser, role: str | None, actor: AbstractBaseUser | None
) -> int:
    """Revoke the open links `maker` made for `club` that his role now (None: he is no
    member) no longer lets him make; each is recorded in the history. Returns how many."""
    now = timezone.now()
    links = (
        Invitation.objects.select_for_update(of=("self",))
        .filter(club=club, created_by=maker, revoked_at__isnull=True, expires_at__gt=now)
        .filter(uses__lt=F("max_uses"))
        .select_related("player")
    )
    revoked = 0
    for link in links:
        if may_grant(role, link.role):
            continue
        link.revoked_at, link.revoked_by = now, actor
        link.save(update_fields=["revoked_at", "revoked_by"])
        membership_event_record(
            club=club,
            action=MembershipAction.LINK_LAPSED,
            actor=actor,
            subject=maker,
            role=link.role,
            detail=link.player.name if link.player is not None else "",
        )
        revoked += 1
    return revoked


def _other_owners(club: Club, membership: Membership) -> bool:
    return Membership.objects.filter(club=club, role=Role.OWNER).exclude(pk=membership.pk).exists()


@transaction.atomic
def member_set_role(
    *, membership: Membership, role: str, actor: AbstractBaseUser | None = None
) -> Membership:
    if role not in Role.values:
        raise ClubError(_("Choose a role."), field="role")
    club = _lock_club(membership.club)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == Role.OWNER and role != Role.OWNER and not _other_owners(club, membership):
        raise ClubError(
            _("%(user)s is the club's only owner: make someone else an owner first.")
            % {"user": membership.user.get_username()}
        )
    if membership.role == role:
        return membership
    before = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    membership_event_record(
        club=club,
        action=MembershipAction.ROLE_CHANGED,
        actor=actor,
        subject=membership.user,
        role=role,
        detail=before,  # the role it was; the history page says it in the reader's language
    )
    links_revoke_beyond(club=club, maker=membership.user, role=role, actor=actor)
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, actor: AbstractBaseUser | None = None) -> None:
    club = _lock_club(membership.club)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == Role.OWNER and not _other_owners(club, membership):
        raise ClubError(
            _("%(user)s is the club's only owner and cannot be removed.")
            % {"user": membership.user.get_username()}
        )
    membership_event_record(
        club=club,
        action=MembershipAction.REMOVED,
        actor=actor,
        subject=membership.user,
        role=membership.role,
    )
    # His requests for a roster name go with him: nobody is left to approve them for.
    NameClaim.objects.filter(club=club, user=membership.user, status=ClaimStatus.PENDING).update(
        status=ClaimStatus.DECLINED, decided_at=timezone.now()
    )
    links_revoke_beyond(club=club, maker=membership.user, role=None, actor=actor)
    membership.delete()


# The roster


def _name_taken(club: Club, name: str, *, exclude: Player | None = None) -> Player | None:
    players = Player.objects.filter(club=club, name_key=name_key(name))
    if exclude is not None:
        players = players.exclude(pk=exclude.pk)
    return players.first()


def _clean_name(name: str) -> str:
    try:
        return normalise_name(name)
    except InvalidName as exc:
        raise ClubError(exc.message, field="name") from exc


def _taken(player: Player) -> ClubError:
    return ClubError(
        _("There is already a player called %(name)s.") % {"name": player.name}, field="name"
    )


@transaction.atomic
def player_add(*, club: Club, name: str) -> Player:
    """Put a new player on the club's roster.

    Names are unique in a club by their key (club.names): case, Unicode spelling and spaces
    do not make a new person.
    """
    name = _clean_name(name)
    _lock_club(club)
    taken = _name_taken(club, name)
    if taken is not None:
        raise _taken(taken)
    return Player.objects.create(club=club, name=name)


ROSTER_LIST_MAX = 200  # names added at once: a club's evening list, pasted, and then some


@dataclass(frozen=True)
class RosterAddition:
    """What players_add did: the names it added, in the list's order, and the ones it left."""

    added: list[Player]
    on_roster: list[Player]  # already on the roster (the roster's spelling)
    repeated: list[str]  # named again further down the list (as typed the second time)


@transaction.atomic
def players_add(*, club: Club, names: Sequence[str]) -> RosterAddition:
    """Put the players of a list on the roster, in one go: each name by the roster's rule
    (club.names), compared as the roster compares names (name_key).

    What a secretary pasting the evening's list expects: the new names are added; a name
    already on the roster is left as it is, and a name given twice is added once, both
    said in the answer. Refused, with nothing added: a name the rule refuses, more than
    ROSTER_LIST_MAX names, or a list where no name is new (a single name already on the
    roster says so as player_add does).
    """
    tidy = [_clean_name(name) for name in names]
    if not tidy:
        raise ClubError(_("Write the player's name."), field="name")
    if len(tidy) > ROSTER_LIST_MAX:
        raise ClubError(
            _("At most %(max)s names at once: this list has %(count)s. Add it in parts.")
            % {"max": ROSTER_LIST_MAX, "count": len(tidy)},
            field="name",
        )
    _lock_club(club)
    keys = [name_key(name) for name in tidy]
    found = {p.name_key: p for p in Player.objects.filter(club=club, name_key__in=keys)}
    new: dict[str, str] = {}
    on_roster: dict[str, Player] = {}
    repeated: list[str] = []
    for name, key in zip(tidy, keys, strict=True):
        if key in found:
            if key in on_roster:
                repeated.append(name)
            on_roster.setdefault(key, found[key])
        elif key in new:
            repeated.append(name)
        else:
            new[key] = name
    if not new:
        if len(on_roster) == 1:
            raise _taken(next(iter(on_roster.values())))
        raise ClubError(
            _("Every name of the list is on the roster already: %(names)s.")
            % {"names": ", ".join(p.name for p in on_roster.values())},
            field="name",
        )
    added = [Player.objects.create(club=club, name=name) for name in new.values()]
    return RosterAddition(added, list(on_roster.values()), repeated)


@transaction.atomic
def roster_players_for_names(*, club: Club, names: Sequence[str]) -> list[Player]:
    """The club's players of these names, in the same order, matched by name key (so "ТАРАС"
    finds "Тарас", with the roster's spelling); the names not on the roster are added,
    tidied. Refuses a list naming one person twice, or a name the roster cannot take.
    """
    tidy = [_clean_name(name) for name in names]
    keys = [name_key(name) for name in tidy]
    seen: dict[str, str] = {}
    for name, key in zip(tidy, keys, strict=True):
        if key in seen:
            raise ClubError(
                _("%(first)s and %(second)s are the same player: each takes only one seat.")
                % {"first": seen[key], "second": name}
            )
        seen[key] = name
    # Locked like player_add, so that two imports adding one name meet no IntegrityError.
    _lock_club(club)
    found = {p.name_key: p for p in Player.objects.filter(club=club, name_key__in=keys)}
    for name, key in zip(tidy, keys, strict=True):
        if key not in found:
            found[key] = Player.objects.create(club=club, name=name)
    return [found[key] for key in keys]


@transaction.atomic
def player_update(
    *, player: Player, name: str, user: AbstractBaseUser | None, is_active: bool
) -> Player:
    """Rename a player, link (or unlink) his user account, or take him off the roster."""
    name = _clean_name(name)
    _lock_club(player.club)
    player = Player.objects.select_related("club").get(pk=player.pk)
    taken = _name_taken(player.club, name, exclude=player)
    if taken is not None:
        raise _taken(taken)
    if user is not None:
        linked = Player.objects.filter(club=player.club, user=user).exclude(pk=player.pk).first()
        if linked is not None:
            raise ClubError(
                _("The account %(user)s is already linked to the player %(name)s.")
                % {"user": user.get_username(), "name": linked.name},
                field="username",
            )
    player.name = name
    player.user = user
    player.is_active = is_active
    player.save(update_fields=["name", "user", "is_active"])
    return player


# One's own account


@transaction.atomic
def account_update(*, user: AbstractBaseUser, name: str, language: str) -> AbstractBaseUser:
    """The display name (kept whole in first_name, by the one rule for names) and the
    language ("" = the browser's)."""
    user.first_name = display_name_clean(name)
    user.last_name = ""
    user.save(update_fields=["first_name", "last_name"])
    account_set_language(user=user, language=language)
    return user


@transaction.atomic
def account_set_language(*, user: AbstractBaseUser, language: str) -> None:
    """Store the language the pages use for this account at every login."""
    if language and language not in dict(settings.LANGUAGES):
        raise ClubError(_("Choose one of the languages offered."), field="language")
    AccountSettings.objects.update_or_create(user=user, defaults={"language": language})


@transaction.atomic
def account_delete(*, user: AbstractBaseUser) -> None:
    """Delete an account: its memberships go, its roster names stay unlinked (Player.user
    becomes NULL), and what it entered keeps its facts with nobody named (entered_by NULL).

    Refused while the account is the last owner of a club that has other members: the club
    would be left with nobody to manage it. A club where it is the only member at all is
    left as it is, ownerless; staff can hand it over in the admin.
    """
    owned = Membership.objects.filter(user=user, role=Role.OWNER).values_list("club", flat=True)
    for club in Club.objects.filter(pk__in=list(owned)).order_by("pk"):
        _lock_club(club)
    orphaned = selectors.clubs_left_ownerless(user).first()
    if orphaned is not None:
        raise ClubError(
            _(
                "You are the only owner of %(club)s. Make another member an owner on "
                "its members page first, so that the club keeps someone to manage it."
            )
            % {"club": orphaned.name}
        )
    # The clubs' histories keep that the member left; the line outlives the account (its
    # subject becomes "a deleted account").
    for membership in Membership.objects.filter(user=user).select_related("club"):
        membership_event_record(
            club=membership.club,
            action=MembershipAction.REMOVED,
            actor=user,
            subject=user,
            role=membership.role,
        )
        links_revoke_beyond(club=membership.club, maker=user, role=None, actor=user)
    user.delete()
