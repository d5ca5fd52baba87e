"""Scores, cards and contracts as players write them: one place for the display format.

Plain functions (no template machinery), used by the template filters of
``scoring/templatetags/pulka.py``, by the drawing of the sheet (``scoring/drawing.py``) and by
the forms, so that a score or a suit looks the same wherever it is shown.

A result that is no whole number (a table of 3 settles in thirds) reads one way everywhere:
`figure` (105,67), the exact value (`score`: 317/3) kept for a title on hover and for the
JSON exports, `export_value` for the spreadsheets.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
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


#: The decimals of every figure a person reads that is not a whole number: a table of 3
#: settles in thirds, a round under caps in tenths; two decimals tell 1/3 from 3/10, and the
#: same two are printed, projected, shown and exported.
PLACES = 2
_STEP = Decimal(1).scaleb(-PLACES)


def figure_value(value: int | Fraction | None) -> int | Decimal | None:
    """The number every figure shows: a whole number as it is, anything else to PLACES
    decimals, halves away from zero (so −x reads as x with a minus).

    >>> figure_value(Fraction(317, 3)), figure_value(Fraction(-64, 3)), figure_value(Fraction(8))
    (Decimal('105.67'), Decimal('-21.33'), 8)
    >>> figure_value(Fraction(1, 8)), figure_value(Fraction(-1, 8)), figure_value(None)
    (Decimal('0.13'), Decimal('-0.13'), None)
    """
    if value is None:
        return None
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(_STEP, rounding=ROUND_HALF_UP)


def export_value(value: object) -> object:
    """A number as a spreadsheet (CSV, XLSX) takes it: a whole one as an int, another as the
    float of its figure (105.67): a number, not a text; anything else as it is."""
    if isinstance(value, Fraction | int | Decimal) and not isinstance(value, bool):
        shown = figure_value(Fraction(value))
        return shown if isinstance(shown, int) else float(shown)
    return value


def figure(value: int | Fraction | None) -> str:
    """A number as every page, the projector and the printouts show it: whole numbers as they
    are (12, −3), anything else to PLACES decimals in the reader's locale (105,67 in
    Ukrainian, 105.67 in English), with a real minus sign, and none on a figure of zero.

    >>> figure(Fraction(-64, 3)), figure(-3), figure(Fraction(-1, 1000)), figure(None)
    ('−21.33', '−3', '0.00', '')
    """
    if value is None:
        return ""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    if value.denominator == 1:
        return score(value)
    # In integers, halves away from zero, as figure_value; the locale's decimal mark by hand,
    # not number_format: a standings page writes 10,000 figures, and number_format looked
    # the formats up for each (300 ms against 50 for the 10,500 cells of 300 players over 9
    # rounds). No grouping: the site never turns USE_THOUSAND_SEPARATOR on.
    scale = 10**PLACES
    hundredths, rest = divmod(abs(value.numerator) * scale, value.denominator)
    hundredths += 2 * rest >= value.denominator
    whole, part = divmod(hundredths, scale)
    text = f"{whole}{get_format('DECIMAL_SEPARATOR')}{part:0{PLACES}d}"
    return f"−{text}" if value < 0 and hundredths else text


def signed_figure(value: int | Fraction | None) -> str:
    """A figure with its sign always shown: +86.67, −3, 0.

    >>> signed_figure(Fraction(260, 3)), signed_figure(Fraction(-1, 1000)), signed_figure(0)
    ('+86.67', '0.00', '0')
    """
    text = figure(value)
    return f"+{text}" if value is not None and value > 0 and text.strip("0.,") else text


def is_whole(value: object) -> bool:
    """Whether a number shows exactly as its figure (then it needs no title)."""
    return not isinstance(value, Fraction) or value.denominator == 1


def figure_html(value: int | Fraction | None, *, sign: bool = False) -> SafeString:
    """The figure as HTML, the exact value on hover where they differ:
    <span title="317/3">105,67</span>; a whole number bare."""
    text = signed_figure(value) if sign else figure(value)
    if is_whole(value):
        return mark_safe(text)  # digits and signs only
    exact = signed(value) if sign else score(value)
    # Built by hand for the same 10,000 cells: digits, signs and "/" need no escaping.
    return mark_safe(f'<span title="{exact}">{text}</span>')


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
