"""How a tournament's totals read: the one figure of scoring.formatting, everywhere.

A round under caps counts fractions of whists (×0,1 from 200 on), a table of 3 settles in
thirds: "617/5" and "317/3" are exact, but no one reads them across a room, so a total
shows 123,4 or 105,67 (in the user's locale), the exact value on hover where it differs.
"""

from __future__ import annotations

import unicodedata
from fractions import Fraction

from django import template
from django.utils.safestring import SafeString

from scoring.formatting import figure, figure_html, signed_figure

register = template.Library()


@register.filter
def total(value: int | Fraction | None) -> str:
    """12, −3, or two decimals: 105,67 (Ukrainian) / 105.67 (English); "" for None."""
    return figure(value)


@register.filter
def signed_total(value: int | Fraction | None) -> str:
    """As `total`, with the sign always shown: +12, −3, 0."""
    return signed_figure(value)


@register.filter
def total_title(value: int | Fraction | None) -> SafeString:
    """As `total`, with the exact value on hover where it differs."""
    return figure_html(value)


@register.filter
def signed_total_title(value: int | Fraction | None) -> SafeString:
    """As `signed_total`, with the exact value on hover where it differs."""
    return figure_html(value, sign=True)


@register.filter
def letters(name: str) -> int:
    """How long a name prints: its characters without the combining marks on them (an
    accented letter takes one letter's room), what the printouts size a name by."""
    return sum(1 for char in str(name) if not unicodedata.combining(char))
