"""Template tags of the club pages: the sign-up link, and the "your name" block."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django import template
from django.urls import NoReverseMatch, reverse

from club import selectors
from club.forms import NameClaimForm

register = template.Library()


@register.simple_tag
def signup_url(next_path: str) -> str:
    """The sign-up page with ?next=, or "" while the site has none (the accounts app adds
    it under the URL name `account_signup`)."""
    try:
        url = reverse("account_signup")
    except NoReverseMatch:
        return ""
    return f"{url}?next={quote(next_path, safe='/')}"


@register.inclusion_tag("club/_roster_name.html", takes_context=True)
def roster_name_block(context: template.Context) -> dict[str, Any]:
    """On a club's pages: for a member with no name on the roster, how to get one (a
    request for an unclaimed name, or an owner's link). Nothing for anyone else."""
    access = context.get("access")
    request = context.get("request")
    hidden = {"hidden": True}
    if access is None or access.role is None or request is None:
        return hidden
    if not request.user.is_authenticated:  # a superuser acting as owner needs no login
        return hidden
    state = selectors.roster_name_state(access.club, request.user)
    if state.player is not None:
        return hidden
    return {
        "compact": True,
        "club": access.club,
        "state": state,
        "form": NameClaimForm(club=access.club),
        "csrf_token": context.get("csrf_token"),
    }
