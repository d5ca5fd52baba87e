"""Reads: clubs a visitor can see, a club's members and its roster."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from club.models import AccountSettings, Club, ClubSlug, Membership, Player, Role, RosterMerge


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


def club_members(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("user__username")


def club_roster(club: Club, *, active_only: bool = True) -> QuerySet[Player]:
    """The club's players by name; with active_only=False also those taken off the roster."""
    players = Player.objects.filter(club=club).select_related("user")
    if active_only:
        players = players.filter(is_active=True)
    return players.order_by("-is_active", "name")


def roster_merges(club: Club) -> QuerySet[RosterMerge]:
    """The club's roster merges (competition.roster makes them), newest first."""
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


def display_names(club: Club, user_ids: Iterable[int | None]) -> dict[int, str]:
    """How the club's pages name the accounts that entered or changed something: the name of
    the club's roster player linked to the account, else the user's full name, else his role
    in the club ("a secretary"). Never the login name, which is half of a password.

    For members' eyes only: a visitor of a public club sees nobody's name (the views ask).
    Three small queries, whatever the number of accounts.
    """
    ids = {pk for pk in user_ids if pk is not None}
    if not ids:
        return {}
    # An account is linked to at most one player of a club (club.services.player_update).
    roster = dict(Player.objects.filter(club=club, user_id__in=ids).values_list("user", "name"))
    roles = dict(Membership.objects.filter(club=club, user_id__in=ids).values_list("user", "role"))
    names = {}
    for pk, first, last in (
        get_user_model().objects.filter(pk__in=ids).values_list("pk", "first_name", "last_name")
    ):
        full = f"{first} {last}".strip()
        names[pk] = roster.get(pk) or full or str(ROLE_WORDS[roles.get(pk)])
    return names


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
