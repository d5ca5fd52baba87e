"""How a view answers: one page template per screen with named partials (htmx gets the
partial, others the page), the answer after an action, the answer to a poll, and what every
club page shows.

- render_page: the page, or for htmx the named fragment of it (Vary: HX-Request);
  render_fragment: a fragment whatever the request (for the views only htmx calls).
- after_action: after a form or a POST that did something (or was refused): without htmx
  the outcome is a flashed message and the browser goes to a page (post-redirect-get);
  with htmx the updated fragment says it, or the browser is sent on by HX-Redirect
  (never a 302 to htmx, which would swap the next page into the fragment's place).
- poll_answer: a spectator's poll holding version ?v=: 204 while nothing changed, else the
  fragment (nothing_changed is that 204, for a poll answered before the page is read);
  shared_poll / private_poll: the HTTP caching a poll's answer allows.
- club_context: the club (the page header) and the visitor's access, plus the page's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect

if TYPE_CHECKING:
    from club.access import ClubAccess


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request that swaps a part of the page (not a boosted or history-restore one)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def render_fragment(
    request: HttpRequest, template: str, context: dict, *, status: int = 200
) -> HttpResponse:
    """A fragment whatever the request (`page.html#name`, or a template that is one)."""
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def render_page(
    request: HttpRequest,
    template: str,
    context: dict,
    *,
    fragment: str,
    status: int = 200,
) -> HttpResponse:
    """The whole page, or for htmx its partial `fragment`."""
    name = f"{template}#{fragment}" if wants_fragment(request) else template
    return render_fragment(request, name, context, status=status)


def redirect_after_form(request: HttpRequest, url: str) -> HttpResponse:
    """A redirect, or for htmx a client-side one (never a 302 to htmx)."""
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(url)
    return redirect(url)


def after_action(
    request: HttpRequest,
    outcome: str = "",
    *,
    url: str,
    fragment: Callable[[str], HttpResponse] | None = None,
    level: int = messages.SUCCESS,
) -> HttpResponse:
    """The answer after an action, which `outcome` says ("" when there is nothing to say).

    For htmx, when the action has a `fragment`: `fragment(outcome)`, the updated part of the
    page with the outcome in its context (a flashed message would wait for the next page).
    Otherwise the outcome is flashed (at `level`) and the browser goes to `url`: a redirect
    after a form, an HX-Redirect for htmx.
    """
    if fragment is not None and wants_fragment(request):
        return fragment(outcome)
    if outcome:
        messages.add_message(request, level, outcome)
    return redirect_after_form(request, url)


def nothing_changed() -> HttpResponse:
    """The answer to a poll whose version is still the current one: 204, so htmx swaps
    nothing."""
    response = HttpResponse(status=204)
    patch_vary_headers(response, ["HX-Request"])
    return response


def is_poll(request: HttpRequest) -> bool:
    """A spectator's poll: an htmx request that says which version it holds (?v=)."""
    return wants_fragment(request) and "v" in request.GET


def poll_answer(
    request: HttpRequest, version: str, fragment: Callable[[], HttpResponse]
) -> HttpResponse:
    """A poll: 204 while the version it holds (?v=) is still `version`, else `fragment()`,
    which carries the new version for the next poll."""
    if request.GET.get("v") == version:
        return nothing_changed()
    return fragment()


# A public poll's answer is the same for every visitor without a session: a reverse proxy
# keeps it a second and serves it to all of them (nginx's proxy_cache_lock lets one request
# through), so a pulka with ten thousand spectators costs the app about one poll a second;
# while it asks again, the proxy may answer from the last one (stale-while-revalidate).
SHARED_MAX_AGE = 1
SHARED_STALE = 2


def shared_poll(response: HttpResponse, etag: str | None) -> HttpResponse:
    """A poll's answer any cache may keep and share (a public club, no session): its ETag
    lets the proxy ask again with If-None-Match and get a 304."""
    patch_cache_control(
        response, public=True, max_age=SHARED_MAX_AGE, stale_while_revalidate=SHARED_STALE
    )
    if etag:
        response.headers.setdefault("ETag", etag)
    patch_vary_headers(response, ["HX-Request", "Accept-Language"])
    return response


def private_poll(response: HttpResponse) -> HttpResponse:
    """A poll's answer for one visitor's eyes (a private club, a member's names, a
    secretary's controls): no shared cache keeps it, the browser asks again each time."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request", "Cookie"])
    return response


def club_context(access: ClubAccess, **extra: Any) -> dict[str, Any]:
    """What every club page shows: the club (in the header) and the visitor's access."""
    return {"club": access.club, "access": access, **extra}
