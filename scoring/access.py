"""The tenant gate for a pulka's pages: club, role and pulka in one read (see club.access),
and the cheap answer to a spectator's poll."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest

from club.access import ClubAccess, club_access, get_club_for_user
from scoring import live, selectors
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
    access = club_access(
        request,
        pulka.evening.club,
        pulka.member_role,
        role=role,
        name=pulka.member_name,
        player_id=pulka.member_player,
    )
    return access, pulka


def poll_unchanged(
    request: HttpRequest,
    keys: tuple[str, list[str]],
    read: Callable[[object], selectors.LiveState | None],
    token: str,
) -> bool:
    """True when a poll holding `token` may be answered 204, cheaply; False: ask the view.

    A public club's poll needs no user: a shared cache that vouches for the token answers
    with no query (scoring.live), else one query reads the token (the session and the user
    are never loaded). A private club's needs the user's role: the cache remembers that the
    club is private, so the token and the role come in one query (plus the session and the
    user). False only means "not known to be unchanged": the view runs the full tenant gate
    (404 for outsiders, whatever this said) and compares again.
    """
    watch = live.Watch(keys)
    if watch.unchanged_public(token):
        return True
    hint = watch.state
    private = hint is not None and not hint.public
    state = read(request.user if private else None)
    if state is None:
        return False
    watch.store(live.State(public=state.club.is_public, token=state.token))
    if state.token != token:
        return False
    if state.club.is_public:
        return True
    if not private:
        return False
    club_access(request, state.club, state.member_role)  # outsiders: 404
    return True
