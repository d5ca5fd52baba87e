"""The one tenant gate: every club-scoped view starts here.

A public club can be read by anyone; a private club only by its members (others get 404, as
if it did not exist). Writing needs a role: a player reads, a secretary runs evenings, tables
and deals, the owner also manages the club and its members.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import CharField, IntegerField, OuterRef, Subquery, Value
from django.http import Http404, HttpRequest

from club.models import ROLE_RANK, Club, Membership, Player, Role
from club.selectors import display_name


class LoginRequired(Exception):
    """An anonymous visitor asked for something that needs a role: send him to log in."""


class ClubMoved(Exception):
    """The URL names the club by an old short name: send the visitor to its current one.

    club.middleware answers with the same URL under the new slug (301 for GET and HEAD,
    308 for the other methods).
    """

    def __init__(self, slug: str) -> None:
        super().__init__(slug)
        self.slug = slug


@dataclass(frozen=True)
class ClubAccess:
    club: Club
    role: str | None  # None: a visitor of a public club
    # How the club's pages name the visitor (club.selectors.display_names), when the gate
    # read it with the club: a member's answer to his own entry then needs no query for it.
    viewer: tuple[int, str] | None = None
    # The roster player linked to the visitor's account in this club ("my profile" in the
    # nav), read in the gate's own query; None: none, or not read on this path.
    player_id: int | None = None

    @property
    def can_record(self) -> bool:
        return self.role is not None and ROLE_RANK[self.role] >= ROLE_RANK[Role.SECRETARY]

    @property
    def can_manage(self) -> bool:
        return self.role == Role.OWNER

    @property
    def role_label(self) -> str:
        return Role(self.role).label if self.role else ""


def member_role(user, club: str = "pk") -> Subquery | Value:
    """The user's role in the query's club (its field `club`), as an annotation; None: none.

    A plain subquery. Its `.order_by()` matters: Membership's default ordering would join
    the user table into every club page's query just to sort a single row.
    """
    if not user.is_authenticated:
        return Value(None, output_field=CharField())
    roles = Membership.objects.filter(club=OuterRef(club), user=user.pk).order_by()
    return Subquery(roles.values("role")[:1], output_field=CharField())


def member_name(user, club: str = "pk") -> Subquery | Value:
    """The name of the user's roster player in the query's club, as an annotation (None: no
    player of that club is linked to his account)."""
    if not user.is_authenticated:
        return Value(None, output_field=CharField())
    players = Player.objects.filter(club=OuterRef(club), user=user.pk).order_by()
    return Subquery(players.values("name")[:1], output_field=CharField())


def member_player(user, club: str = "pk") -> Subquery | Value:
    """The id of the user's roster player in the query's club, as an annotation; None: none."""
    if not user.is_authenticated:
        return Value(None, output_field=IntegerField())
    players = Player.objects.filter(club=OuterRef(club), user=user.pk).order_by()
    return Subquery(players.values("pk")[:1], output_field=IntegerField())


def get_club_for_user(request: HttpRequest, slug: str, *, role: str | None = None) -> ClubAccess:
    """Resolve the club of the URL for this user, or raise 404/403/LoginRequired.

    `role` is the least role the view needs (None: reading). Superusers act as owners.
    """
    user = request.user
    club = (
        Club.objects.filter(slug=slug)
        .annotate(
            member_role=member_role(user),
            member_name=member_name(user),
            member_player=member_player(user),
        )
        .first()
    )
    if club is None:
        moved_to(request, slug)
        raise Http404
    return club_access(
        request,
        club,
        club.member_role,
        role=role,
        name=club.member_name,
        player_id=club.member_player,
    )


def moved_to(request: HttpRequest, slug: str) -> None:
    """Raise ClubMoved when `slug` is a club's old short name and the user may see that club.

    Only a visitor who could read the club learns its new name: anyone else gets the same
    404 as for a name no club ever had. The role the view needs is checked at the new URL.
    """
    club = (
        Club.objects.filter(old_slugs__slug=slug)
        .annotate(member_role=member_role(request.user))
        .first()
    )
    if club is None:
        return
    club_access(request, club, club.member_role)
    raise ClubMoved(club.slug)


def club_access(
    request: HttpRequest,
    club: Club,
    member_role: str | None,
    *,
    role: str | None = None,
    name: str | None = None,
    player_id: int | None = None,
) -> ClubAccess:
    """The gate's decision for a club already read with the user's role in it (see above).

    `name`: the user's roster name there, when the query read it (member_name).
    """
    user = request.user
    viewer = None
    if user.is_authenticated and member_role is not None:
        viewer = (user.pk, display_name(name, user.get_full_name(), member_role))
    if user.is_authenticated and user.is_superuser:
        member_role = Role.OWNER
    if member_role is None and not club.is_public:
        raise Http404
    if role is not None:
        if not user.is_authenticated:
            raise LoginRequired
        if member_role is None or ROLE_RANK[member_role] < ROLE_RANK[role]:
            raise PermissionDenied
    return ClubAccess(club=club, role=member_role, viewer=viewer, player_id=player_id)
