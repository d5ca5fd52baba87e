"""How a tournament's totals read: whole numbers as they are, anything else to one decimal.

A round under caps counts fractions of whists (×0.1 from 200 on): "617/5" is exact but no
one reads it across a room, so a total shows 123,4 (in the user's locale) instead.
"""

from __future__ import annotations

from fractions import Fraction

from django import template

from scoring.formatting import rounded

register = template.Library()


@register.filter
def total(value: int | Fraction | None) -> str:
    """12, −3, or one decimal: 123,4 (Ukrainian) / 123.4 (English); "" for None."""
    return rounded(value, 1)


@register.filter
def signed_total(value: int | Fraction | None) -> str:
    """As `total`, with the sign always shown: +12, −3, 0."""
    text = total(value)
    return f"+{text}" if value is not None and round(value, 1) > 0 else text
