"""One page template per screen, with named partials: htmx gets the partial, others the page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect

if TYPE_CHECKING:
    from club.access import ClubAccess


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request that swaps a part of the page (not a boosted or history-restore one)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def render_page(
    request: HttpRequest,
    template: str,
    context: dict,
    *,
    fragment: str,
    status: int = 200,
) -> HttpResponse:
    name = f"{template}#{fragment}" if wants_fragment(request) else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def redirect_after_form(request: HttpRequest, url: str) -> HttpResponse:
    """After a valid form: a redirect, or for htmx a client-side one (never a 302 to htmx)."""
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(url)
    return redirect(url)


def club_context(access: ClubAccess, **extra: Any) -> dict[str, Any]:
    """What every club page shows: the club (in the header) and the visitor's access."""
    return {"club": access.club, "access": access, **extra}
