"""Scores, cards and contracts as players write them: one place for the display format.

Plain functions (no template machinery), used by the template filters of
``scoring/templatetags/pulka.py``, by the drawing of the sheet (``scoring/drawing.py``) and by
the forms, so that a score or a suit looks the same wherever it is shown.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring import engine

#: The suit's sign for each card suit of the engine.
SUIT_SYMBOLS: dict[str, str] = {
    engine.SPADES: "♠",
    engine.CLUBS: "♣",
    engine.DIAMONDS: "♦",
    engine.HEARTS: "♥",
}


def score(value: int | Fraction | None) -> str:
    """A score as players write it: 12, −3, or an exact fraction such as 5/2."""
    if value is None:
        return ""
    if isinstance(value, Fraction) and value.denominator != 1:
        sign = "−" if value < 0 else ""
        return f"{sign}{abs(value.numerator)}/{value.denominator}"
    number = int(value)
    return f"−{-number}" if number < 0 else str(number)


def signed(value: int | Fraction | None) -> str:
    """A score with its sign always shown: +12, −3, 0."""
    if value is None:
        return ""
    text = score(value)
    return f"+{text}" if value > 0 else text


def decimal(value: int | Fraction | None) -> str:
    """An exact result shown to two decimals in the user's locale (for titles and print)."""
    if value is None:
        return ""
    return number_format(round(float(value), 2), decimal_pos=2, use_l10n=True)


def rounded(value: int | Fraction | None, places: int = 1) -> str:
    """A score to read across a room (tournament totals under caps): whole numbers as they
    are (12, −3), anything else to `places` decimals in the user's locale (123,4), with a
    real minus sign, and no minus on a number rounded to zero."""
    if value is None:
        return ""
    value = Fraction(value)
    if value.denominator == 1:
        return score(value)
    text = number_format(round(abs(float(value)), places), decimal_pos=places, use_l10n=True)
    return f"−{text}" if value < 0 and text.strip("0.,") else text


def card_label(card: str) -> str:
    """A talon card as players write it: the rank in their language and the suit's sign."""
    rank, suit = card[:-1], card[-1]
    ranks = {
        engine.ACE: pgettext("card rank: ace", "A"),
        engine.KING: pgettext("card rank: king", "K"),
        engine.QUEEN: pgettext("card rank: queen", "Q"),
        "J": pgettext("card rank: jack", "J"),
    }
    return f"{ranks.get(rank, rank)}{SUIT_SYMBOLS[suit]}"


def contract_label(contract: str) -> str:
    """A contract as players write it: 7♥, 10 NT in their language."""
    level = engine.contract_level(contract)
    suit = contract[len(str(level)) :]
    return f"{level}{SUIT_SYMBOLS.get(suit) or _('NT')}"
