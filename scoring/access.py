"""The tenant gate for a pulka's pages: club, role and pulka in one read (see club.access)."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from club.access import ClubAccess, club_access, get_club_for_user
from scoring import selectors
from scoring.models import Pulka


def get_pulka_for_user(
    request: HttpRequest, club_slug: str, pulka_id: int, *, role: str | None = None
) -> tuple[ClubAccess, Pulka]:
    """The pulka of the URL with the user's access to its club, or 404/403/LoginRequired.

    Outsiders and too low a role get the club's own verdict, whether the pulka exists or not.
    """
    pulka = selectors.pulka_with_role(request.user, club_slug, pulka_id)
    if pulka is None:
        get_club_for_user(request, club_slug, role=role)
        raise Http404
    return club_access(request, pulka.evening.club, pulka.member_role, role=role), pulka
