"""What a club prints of its evenings: A4 PDFs rendered on the server (club.printing).

- a pulka (:func:`pulka_pdf`): the sheet with its whists columns, the money at the club's
  stake, the drawn pulka and the deal log, each deal with what it wrote;
- an evening (:func:`evening_pdf`): the evening added up (scoring.selectors.evening_summary),
  the payments at the club's stake, and each table's result.

Both are bounded: a pulka holds at most MAX_DEALS deals (scoring.models, which every entry
and import keeps to), and an evening prints only up to :data:`EVENING_PRINT_TABLES_MAX`
tables (:func:`evening_printable`; beyond, its page says so and prints its tables one by one).
A printout is kept in Django's cache under the version of what it prints (the pulkas'
versions and names, the club's name and stake, the evening's date and venue, the language),
so that a second click or another reader gets the same file without a new rendering.
"""

from __future__ import annotations

import base64
import hashlib
import unicodedata

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from club.printing import file_name, render_pdf
from scoring import selectors
from scoring.drawing import pulka_drawing
from scoring.forms import convention_summary
from scoring.models import MAX_DEALS, Evening, Pulka
from scoring.money import club_stake, pulka_money

STYLESHEET = "css/print_scoring.css"
# An evening's printout lists its players and tables: beyond this many tables (160 players
# or more) its pages would take seconds to render; a club's evening has a handful.
EVENING_PRINT_TABLES_MAX = 40
# A printout stays in the cache for a day: a key never goes stale (a change makes a new
# key), so the timeout only returns memory.
PRINT_TIMEOUT = 24 * 60 * 60


class TooBig(Exception):
    """The printout would exceed its bound: `count` of at most `limit`."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(count, limit)
        self.count = count
        self.limit = limit


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _club_part(evening: Evening) -> tuple:
    club = evening.club
    return club.name, club.city, club.whist_price, club.currency, get_language()


def _cached(key: str, build) -> bytes:
    content = cache.get(key)
    if content is None:
        content = build()
        cache.set(key, content, PRINT_TIMEOUT)
    return content


# --- a pulka ---------------------------------------------------------------------------------


# The drawing's labels on paper. Its own fitting measures letters by an average width, which
# a name of wide letters (Ш, Щ, Ж) outgrows, and WeasyPrint draws an SVG's text glyph by
# glyph, so that a combining mark gets a dotted circle of its own: on a page nothing may run
# over the edge. (The sheet's table above it prints every name whole.)
LABEL_WIDTH = 22
_WIDE = set("ЖШЩМЮФЫЭжшщмюфыWMwm")


def drawing_label(name: str) -> str:
    """A name as the printed drawing writes it by an edge: composed, without the combining
    marks that compose with no letter, and at most LABEL_WIDTH average letters wide (a
    wide letter counts one and a half).

    >>> drawing_label("Ан" + "\u0301" * 20 + "на"), drawing_label("Щ" * 30)
    ('Анна', 'ЩЩЩЩЩЩЩЩЩЩЩЩЩЩ…')
    >>> drawing_label("Йосип Ёлкин")
    'Йосип Ёлкин'
    """
    letters = "".join(c for c in unicodedata.normalize("NFC", name) if not unicodedata.combining(c))

    def width(text: str) -> float:
        return sum(1.5 if char in _WIDE else 1 for char in text)

    if width(letters) <= LABEL_WIDTH:
        return letters
    kept = letters
    while width(kept) > LABEL_WIDTH - 1:
        kept = kept[:-1]
    return kept + "…"


def _drawing_image(drawing) -> str:
    """The drawn pulka as an SVG image in a data: URL (as the tournaments' protocols: an
    image of its own, which WeasyPrint draws without styling the sheet's every element)."""
    svg = render_to_string("scoring/print/_drawing.svg", {"drawing": drawing})
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def pulka_context(pulka: Pulka) -> dict:
    names = pulka.names
    deals = selectors.pulka_deals(pulka)
    if len(deals) > MAX_DEALS:  # never stored so, but the page must hold what it prints
        raise TooBig(len(deals), MAX_DEALS)
    sheet = selectors.pulka_sheet(pulka, deals, names)
    evening = pulka.evening
    log = [
        {
            "number": deal.number,
            "data": deal.to_pulka_dict(names),
            "dealer": snapshot.dealer,
            "entries": snapshot.entries,
            "raspasy_cost": snapshot.raspasy_cost,
        }
        for deal, snapshot in zip(deals, sheet.snapshots, strict=True)
    ]
    money = pulka_money(evening.club, names, sheet.result)
    amounts = {line.name: line.text for line in money.lines} if money else {}
    rows = [
        {**row, "amount": amounts.get(row["name"], "")}
        for row in selectors.sheet_rows(sheet, names)
    ]
    return {
        "club": evening.club,
        "evening": evening,
        "pulka": pulka,
        "title": str(pulka),
        "names": names,
        "sheet": sheet,
        "rows": rows,
        "pool_sum": selectors.pool_sum(sheet),
        "convention": convention_summary(sheet.rules),
        "drawing_image": _drawing_image(
            pulka_drawing(sheet, [drawing_label(name) for name in names])
        ),
        "log": log,
        "money": money,
        "printed_at": timezone.localtime(),
    }


def pulka_pdf(pulka: Pulka) -> bytes:
    """The pulka on A4: the sheet, the money, the drawing and the deal log."""
    evening = pulka.evening
    digest = _digest(
        pulka.created_at.timestamp(), pulka.names, _club_part(evening), evening.date, evening.venue
    )
    key = f"scoring:print:pulka:{pulka.pk}:{pulka.version}:{digest}"
    return _cached(
        key,
        lambda: render_pdf("scoring/print/pulka.html", pulka_context(pulka), stylesheet=STYLESHEET),
    )


def pulka_filename(pulka: Pulka) -> str:
    evening = pulka.evening
    return file_name(evening.club.name, date_format(evening.date, "Y-m-d"), str(pulka))


# --- an evening ------------------------------------------------------------------------------


def evening_printable(evening: Evening) -> None:
    """Refuses (TooBig) an evening of more tables than its printout holds (one query)."""
    count = evening.pulkas.count()
    if count > EVENING_PRINT_TABLES_MAX:
        raise TooBig(count, EVENING_PRINT_TABLES_MAX)


def evening_context(evening: Evening, tables: list[selectors.Table] | None = None) -> dict:
    if tables is None:
        tables = selectors.evening_tables(evening)
    title = _("Evening of %(date)s") % {"date": date_format(evening.date, "DATE_FORMAT")}
    return {
        "club": evening.club,
        "evening": evening,
        "title": title,
        "summary": selectors.evening_summary(evening, tables),
        "stake": club_stake(evening.club),
        "tables": tables,
        "printed_at": timezone.localtime(),
    }


def evening_pdf(evening: Evening) -> bytes:
    """The evening on A4: the summary, the payments and each table's result."""
    evening_printable(evening)
    tables = selectors.evening_tables(evening)
    keys = [selectors.table_sheet_key(t.pulka, t.names) + t.pulka.status for t in tables]
    digest = _digest(keys, _club_part(evening), evening.date, evening.venue)
    key = f"scoring:print:evening:{evening.pk}:{digest}"
    return _cached(
        key,
        lambda: render_pdf(
            "scoring/print/evening.html", evening_context(evening, tables), stylesheet=STYLESHEET
        ),
    )


def evening_filename(evening: Evening) -> str:
    return file_name(evening.club.name, date_format(evening.date, "Y-m-d"), _("evening"))
