"""The tenant gate for a pulka's pages: club, role and pulka in one read (see club.access),
and the cheap answers to a spectator's poll."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

from club.access import ClubAccess, club_access, get_club_for_user
from club.rendering import nothing_changed, shared_poll, wants_fragment
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
    *,
    watch: live.Watch | None = None,
) -> bool:
    """True when a poll holding `token` may be answered 204, cheaply; False: ask the view.

    A public club's poll needs no user: a shared cache that vouches for the token answers
    with no query (scoring.live), else one query reads the token (the session and the user
    are never loaded). A private club's needs the user's role: the cache remembers that the
    club is private, so the token and the role come in one query (plus the session and the
    user). False only means "not known to be unchanged": the view runs the full tenant gate
    (404 for outsiders, whatever this said) and compares again. `watch`: the cache as the
    caller read it already (it then holds what this stored).
    """
    if watch is None:
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


def public_poll(
    request: HttpRequest,
    keys: tuple[str, list[str]],
    read: Callable[[object], selectors.LiveState | None],
) -> live.Watch | None:
    """The live state of a public club's page for a poll that carries no session: every such
    visitor sees the same answer, which a shared HTTP cache may keep (see pulka_live).

    No query when a shared cache vouches for it, else one; the session and the user are
    never loaded (the answer then does not vary by cookie). None: a poll with a session, a
    private club or no such page: the caller takes the full path (poll_unchanged, the gate).
    """
    if settings.SESSION_COOKIE_NAME in request.COOKIES or not wants_fragment(request):
        return None
    watch = live.Watch(keys)
    if watch.trusted:
        return watch if watch.state.public else None
    hint = watch.state
    if hint is not None and not hint.public:
        return None
    state = read(None)
    if state is None or not state.club.is_public:
        return None
    watch.store(live.State(public=True, token=state.token))
    return watch if watch.state is not None and watch.state.token == state.token else None


# The audience of a visitor with no role in a public club, in the keys of kept answers.
PUBLIC = "public"


def public_access(club) -> ClubAccess:
    """What the gate gives a visitor with no account at a public club (see club_access),
    without loading the session."""
    return ClubAccess(club=club, role=None)


def public_answer(
    request: HttpRequest,
    watch: live.Watch,
    held: str,
    changed: Callable[[], tuple[HttpResponse, str] | None],
    *extra: object,
) -> HttpResponse | None:
    """The shared answer to a public poll (public_poll): 304 to a conditional poll whose
    ETag is still the current one, 204 to a poll holding the current token, the answer kept
    for this token (`watch.render_key(token, *extra, language, "public")`: no query), else
    `changed()`: the new fragment and the token it shows (None: the club is not public any
    more; the caller takes the full path, and so does this).

    Django's get_conditional_response, as the `condition` decorator uses it: the decorator
    could not hand the view the state it read.
    """
    language = get_language()
    token = watch.state.token
    etag = watch.etag(token, language)
    answer = get_conditional_response(request, etag=etag) if etag else None
    if answer is None and held == token:
        answer = nothing_changed()
    if answer is None:
        answer = live.kept(watch.render_key(token, *extra, language, PUBLIC))
    if answer is None:
        found = changed()
        if found is None:
            return None
        answer, token = found
        etag = watch.etag(token, language)
    return shared_poll(answer, etag)
