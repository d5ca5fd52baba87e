"""Views that belong to the site, not to a club: the load balancers' health check, and the
"too many requests" page of allauth's rate limits."""

from __future__ import annotations

import logging

from allauth.account import app_settings as account_settings
from allauth.core.internal.ratelimit import parse_rates
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the database answers, 503 otherwise.

    One query, `SELECT 1`, and nothing else: the session and the user are never read (a
    probe every few seconds must not fill the session table or set a cookie).
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        log.error("healthz: the database does not answer: %s", exc.__class__.__name__)
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


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
