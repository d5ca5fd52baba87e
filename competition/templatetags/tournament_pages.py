"""Template tags of the tournament pages: links to pages that may not exist on this site."""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag
def optional_url(name: str, *args) -> str:
    """The URL of a view, or "" when the site has no such view: the pages link to the
    standings, "find your table" and the projector only where they are installed."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""
