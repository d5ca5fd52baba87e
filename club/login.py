"""Login throttling: what a visitor sees when django-axes has locked his login out.

Ten wrong passwords in a row for one username from one address lock that pair out for the
cool-off (settings AXES_*); any attempt then, even with the right password, gets the login
page back with a message that says why and for how long, with status 429. django-allauth's
rate limits take this over when accounts land.
"""

from __future__ import annotations

import math

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext

TOO_MANY_REQUESTS = 429


def client_address(request: HttpRequest) -> str | None:
    """The visitor's address, which the throttle counts failures by.

    Behind our reverse proxy (BEHIND_PROXY) every request comes from the proxy: the visitor
    is the last address in X-Forwarded-For, the one the proxy itself appended. Earlier
    entries are whatever the visitor sent and are not trusted.
    """
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR")


def lockout_message(request: HttpRequest) -> str:
    minutes = math.ceil(get_cool_off(request).total_seconds() / 60)
    return ngettext(
        "Too many wrong passwords in a row for this username. For its safety, logging in "
        "as this user from your address is paused: try again in %(minutes)d minute.",
        "Too many wrong passwords in a row for this username. For its safety, logging in "
        "as this user from your address is paused: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The login page again, with the username kept and the lockout as its error."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    # Unbound: validating the form again would try to authenticate once more.
    form = AuthenticationForm(request, initial={"username": username})
    next_url = request.POST.get("next") or request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    context = {
        "form": form,
        "lockout": lockout_message(request),
        "next": next_url if safe else "",
    }
    return render(request, "registration/login.html", context, status=TOO_MANY_REQUESTS)
