"""Reads: clubs a visitor can see, a club's members and its roster."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from club.models import (
    AccountSettings,
    ClaimStatus,
    Club,
    ClubSlug,
    Invitation,
    InvitationUse,
    Membership,
    MembershipEvent,
    NameClaim,
    Player,
    Role,
    RosterMerge,
)
from club.names import collation_key


def address_owners(email: str) -> QuerySet:
    """The accounts an address belongs to: their own address, or one they confirmed. An
    address somebody only typed and never confirmed is nobody's (club.account_signup)."""
    owned = Q(email__iexact=email) | Q(
        emailaddress__email__iexact=email, emailaddress__verified=True
    )
    return get_user_model().objects.filter(owned).distinct()


def addressed_to_user(user: AbstractBaseUser) -> Q:
    """The invitations addressed to this account: by the account, or by an address it owns."""
    addresses = [user.email] if user.email else []
    addresses += list(user.emailaddress_set.filter(verified=True).values_list("email", flat=True))
    by_address = Q(pk__in=[])
    for address in addresses:
        by_address |= Q(addressed_to__iexact=address)
    return Q(addressed_user=user) | by_address


def invitations_for_user(user: AbstractBaseUser | AnonymousUser) -> list[Invitation]:
    """The invitations waiting for this account's answer, newest first (its home page)."""
    if not user.is_authenticated:
        return []
    waiting = Invitation.objects.filter(
        addressed_to_user(user),
        revoked_at__isnull=True,
        declined_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).exclude(uses__gte=1)
    return list(waiting.select_related("club", "player").order_by("-created_at"))


def public_clubs() -> QuerySet[Club]:
    return Club.objects.filter(is_public=True).order_by("name")


def memberships_for_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Membership]:
    """The clubs a user belongs to, with his role in each (none for anonymous), and the id
    and name of the roster player linked to his account there (`player_id`, `player_name`,
    None when he has no name on that club's roster). One query."""
    if not user.is_authenticated:
        return Membership.objects.none()
    mine = Player.objects.filter(club=OuterRef("club"), user=user.pk).order_by()
    return (
        Membership.objects.filter(user=user)
        .select_related("club")
        .annotate(
            player_id=Subquery(mine.values("pk")[:1]),
            player_name=Subquery(mine.values("name")[:1]),
        )
        .order_by("club__name")
    )


def club_members(club: Club) -> list[Membership]:
    """The club's members in alphabetical order of the name the members page shows (full
    name, else username), each with the roster name linked to his account (`player_id`,
    `player_name`, None when he has none). One query."""
    linked = Player.objects.filter(club=club, user=OuterRef("user")).order_by()
    members = (
        Membership.objects.filter(club=club)
        .select_related("user")
        .annotate(
            player_id=Subquery(linked.values("pk")[:1]),
            player_name=Subquery(linked.values("name")[:1]),
        )
    )
    return sorted(members, key=lambda member: collation_key(member_shown_name(member.user)))


def member_shown_name(user: AbstractBaseUser) -> str:
    """How the members page names an account: its full name, else its username."""
    return user.get_full_name().strip() or user.get_username()


def unlinked_members(club: Club) -> list[Membership]:
    """The club's members whose account has no name on its roster yet, in the members
    page's order: whom a roster name may be offered to."""
    return [member for member in club_members(club) if member.player_id is None]


def club_roster(club: Club, *, active_only: bool = True) -> QuerySet[Player]:
    """The club's players by name; with active_only=False also those taken off the roster."""
    players = Player.objects.filter(club=club).select_related("user")
    if active_only:
        players = players.filter(is_active=True)
    return players.order_by("-is_active", "sort_key", "pk")


def roster_merges(club: Club) -> QuerySet[RosterMerge]:
    """The club's roster merges (competition.roster.services makes them), newest first."""
    return RosterMerge.objects.filter(club=club).select_related("merged_by")


def user_by_username(username: str) -> AbstractBaseUser | None:
    """The account with this username (exact, as typed at login), or None."""
    return get_user_model().objects.filter(username=username.strip()).first()


def slug_is_taken(slug: str, *, exclude: Club | None = None) -> bool:
    """Whether a club's links use this short name, now or as an old link that redirects.

    `exclude`: the club being renamed, which may take back one of its own old names.
    """
    clubs = Club.objects.filter(slug=slug)
    old = ClubSlug.objects.filter(slug=slug)
    if exclude is not None:
        clubs = clubs.exclude(pk=exclude.pk)
        old = old.exclude(club=exclude)
    return clubs.exists() or old.exists()


# How an account with neither a roster name nor a full name is named: by its role.
ROLE_WORDS: dict[str | None, Promise] = {
    Role.OWNER: _("an owner"),
    Role.SECRETARY: _("a secretary"),
    Role.PLAYER: _("a player"),
    None: _("someone"),  # no longer a member, or staff acting from the admin
}


def display_name(roster_name: str | None, full_name: str, role: str | None) -> str:
    """One account's name on the club's pages (display_names says which and why)."""
    return roster_name or full_name.strip() or str(ROLE_WORDS[role])


def display_names(
    club: Club, user_ids: Iterable[int | None], *, known: tuple[int, str] | None = None
) -> dict[int, str]:
    """How the club's pages name the accounts that entered or changed something: the name of
    the club's roster player linked to the account, else the user's full name, else his role
    in the club ("a secretary"). Never the login name, which is half of a password.

    For members' eyes only: a visitor of a public club sees nobody's name (the views ask).
    One query, whatever the number of accounts; none when the only account is `known`, the
    viewer as the tenant gate named him (ClubAccess.viewer).
    """
    ids = {pk for pk in user_ids if pk is not None}
    if known is not None and ids <= {known[0]}:
        return {known[0]: known[1]} if ids else {}
    if not ids:
        return {}
    # An account is linked to at most one player of a club (club.services.player_update).
    mine = {"club": club, "user": OuterRef("pk")}
    roster = Player.objects.filter(**mine).order_by().values("name")[:1]
    role = Membership.objects.filter(**mine).order_by().values("role")[:1]
    accounts = (
        get_user_model()
        .objects.filter(pk__in=ids)
        .annotate(roster=Subquery(roster), role=Subquery(role))
        .values_list("pk", "first_name", "last_name", "roster", "role")
    )
    return {
        pk: display_name(roster_name, f"{first} {last}", member_role)
        for pk, first, last, roster_name, member_role in accounts
    }


# Invitations, roster name requests and the membership history


def club_invitations(club: Club) -> QuerySet[Invitation]:
    """The club's invitation links, newest first, with who accepted each and when."""
    acceptances = InvitationUse.objects.select_related("user").order_by("accepted_at", "id")
    return (
        Invitation.objects.filter(club=club)
        .select_related("player", "created_by")
        .prefetch_related(Prefetch("acceptances", queryset=acceptances))
    )


def unclaimed_players(club: Club) -> QuerySet[Player]:
    """The names on the club's roster that no account is linked to yet."""
    return Player.objects.filter(club=club, is_active=True, user__isnull=True).order_by(
        "sort_key", "pk"
    )


def player_for_user(club: Club, user: AbstractBaseUser | AnonymousUser) -> Player | None:
    """The roster name the account is linked to in the club, if any."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(club=club, user=user).first()


def pending_claims(club: Club) -> QuerySet[NameClaim]:
    """The requests for a roster name that wait for a secretary's answer, oldest first."""
    return NameClaim.objects.filter(club=club, status=ClaimStatus.PENDING).select_related(
        "user", "player"
    )


def pending_claim_count(club: Club) -> int:
    """How many requests for a roster name wait for an answer (the club page's badge)."""
    return NameClaim.objects.filter(club=club, status=ClaimStatus.PENDING).count()


@dataclass(frozen=True)
class RosterNameState:
    """Where a member stands with his name on a club's roster (the "your name" block)."""

    player: Player | None  # the name he is linked to
    claim: NameClaim | None  # his request waiting for an answer
    last_declined: NameClaim | None  # his latest request, when it was declined
    unclaimed: list[Player]  # the names he may ask for

    @property
    def can_ask(self) -> bool:
        return self.player is None and self.claim is None and bool(self.unclaimed)


def roster_name_state(club: Club, user: AbstractBaseUser) -> RosterNameState:
    player = player_for_user(club, user)
    claims = NameClaim.objects.filter(club=club, user=user).select_related("player")
    claim = last_declined = None
    if player is None:
        claim = claims.filter(status=ClaimStatus.PENDING).first()
        latest = claims.order_by("-created_at", "-id").first()
        if latest is not None and latest.status == ClaimStatus.DECLINED:
            last_declined = latest
    unclaimed = list(unclaimed_players(club)) if player is None and claim is None else []
    return RosterNameState(player, claim, last_declined, unclaimed)


def membership_events(club: Club) -> QuerySet[MembershipEvent]:
    """The club's membership history, newest first."""
    return MembershipEvent.objects.filter(club=club).select_related("actor", "subject")


def account_language(user: AbstractBaseUser) -> str:
    """The language stored on the account ("" when it follows the browser)."""
    chosen = AccountSettings.objects.filter(user=user).values_list("language", flat=True).first()
    return chosen or ""


def clubs_left_ownerless(user: AbstractBaseUser) -> QuerySet[Club]:
    """The clubs with other members where this account is the only owner."""
    owned = Membership.objects.filter(user=user, role=Role.OWNER).values("club")
    other_owners = Membership.objects.filter(club=OuterRef("pk"), role=Role.OWNER).exclude(
        user=user
    )
    others = Membership.objects.filter(club=OuterRef("pk")).exclude(user=user)
    return (
        Club.objects.filter(pk__in=owned)
        .filter(Exists(others))
        .exclude(Exists(other_owners))
        .order_by("name")
    )
