"""Views that belong to the site, not to a club: the load balancers' health check, the
"too many requests" page of allauth's rate limits, and the error pages (400, 403, 404, 500
and a refused CSRF token) in the site's layout.

An error page says what happened in the visitor's language and links home, and back to the
club of the URL when the visitor may see that club: a private club he may not see is not
named, so a 404 tells nobody whether it exists. An htmx request gets the message alone, a
fragment static/js/errors.js shows next to the link or button that sent it.
"""

from __future__ import annotations

import logging
import re

from allauth.account import app_settings as account_settings
from allauth.core.internal.ratelimit import parse_rates
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from club.access import ClubMoved, get_club_for_user
from club.models import Club
from club.rendering import wants_fragment
from config import health

log = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """What a load balancer asks every few seconds, answered within 5 s whatever hangs.

    200 when the site can serve: the database answers and takes writes. Its body says
    "ok", or "degraded" when the cache (Redis) or the background worker is down, then one
    line per part (config.health). 503 "unavailable" when the database is down, hangs or is
    read-only. The session and the user are never read (a probe every few seconds must not
    fill the session table or set a cookie).
    """
    report = health.check()
    return HttpResponse(
        report.text(), status=200 if report.serving else 503, content_type="text/plain"
    )


# allauth's rate-limited pages (by URL name) and the action whose limits guard each.
LIMITED_ACTIONS = {
    "account_login": "login",
    "login": "login",
    "account_signup": "signup",
    "account_reset_password": "reset_password",
    "account_reset_password_from_key": "reset_password_from_key",
    "account_email": "manage_email",
    "account_change_password": "change_password",
    "account_set_password": "change_password",
    "account_confirm_email": "confirm_email",
    "account-delete": "reauthenticate",
}


def limit_period(request: HttpRequest) -> int:
    """The longest period (seconds) of the limits that guard the page asked for: how long
    a visitor paused by one of them may have to wait at most. A minute when unknown."""
    try:
        name = resolve(request.path_info).url_name
    except Resolver404:
        name = None
    rates = parse_rates(account_settings.RATE_LIMITS.get(LIMITED_ACTIONS.get(name, ""), ""))
    return int(max((rate.duration for rate in rates), default=60))


def wait_text(seconds: int) -> str:
    """'a minute', '15 minutes', 'an hour', '2 hours', in the reader's language."""
    if seconds >= 3600:
        hours = round(seconds / 3600)
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    minutes = max(1, round(seconds / 60))
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """allauth's 429 (it looks up ROOT_URLCONF.handler429): the site's page, saying how long
    to wait at most for the limit that guards the page asked for."""
    context = {"wait": wait_text(limit_period(request))}
    return render(request, "429.html", context, status=429)


# --- error pages -------------------------------------------------------------------------

# Every club page's URL starts so (club/urls.py, scoring/urls.py, competition/urls.py).
CLUB_PATH = re.compile(r"^/c/(?P<slug>[-\w]+)/")


def visible_club(request: HttpRequest) -> Club | None:
    """The club the URL is under, if the visitor may see it (the tenant gate's own answer);
    None for a URL outside the clubs, a club that does not exist, or one he may not see."""
    match = CLUB_PATH.match(request.path_info)
    if match is None or not hasattr(request, "user"):
        return None
    try:
        return get_club_for_user(request, match["slug"]).club
    except (Http404, ClubMoved, DatabaseError):
        return None


def error_page(request: HttpRequest, status: int, *, csrf: bool = False) -> HttpResponse:
    """The page `<status>.html` (for htmx only its message), with the visible club."""
    template = f"{status}.html"
    if wants_fragment(request):
        template += "#short"
    context = {"error_club": visible_club(request), "csrf": csrf}
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: a request the site could not understand (a broken form, a bad address)."""
    return error_page(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler403: the visitor may see the club, but his role does not allow this."""
    return error_page(request, 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: no such page, or none the visitor may see (which of the two is not said)."""
    return error_page(request, 404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent from a page too old (or without its cookie), a 403 that
    says to reload the page and send it again."""
    return error_page(request, 403, csrf=True)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: rendered without the request's context (no session, user or database,
    any of which may be what failed), in the language the request had."""
    template = "500.html#short" if wants_fragment(request) else "500.html"
    response = HttpResponse(loader.get_template(template).render({}), status=500)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and feed readers ask for whatever the page's <link> says:
    a redirect to the static icon (its hashed, long-cached name in production)."""
    response = redirect(static("img/favicon.ico"))
    response["Cache-Control"] = "public, max-age=86400"
    return response
