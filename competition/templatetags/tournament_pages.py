"""Template tags of the tournament pages: links to pages that may not exist on this site,
and tournament scores as the standings write them."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.formats import number_format

register = template.Library()


@register.simple_tag
def optional_url(name: str, *args) -> str:
    """The URL of a view, or "" when the site has no such view: the pages link to the
    standings, "find your table" and the projector only where they are installed."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@register.filter
def points(value: int | Fraction | None) -> str:
    """A tournament score: whole numbers as they are, fractions (caps) to one decimal, in
    the user's locale (207,5), with a real minus sign."""
    if value is None:
        return ""
    if isinstance(value, Fraction) and value.denominator != 1:
        text = number_format(round(float(value), 1), decimal_pos=1, use_l10n=True)
    else:
        text = str(int(value))
    return text.replace("-", "−")
