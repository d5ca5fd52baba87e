"""Spreadsheet exports that a spreadsheet cannot mistake for formulas.

Exported text comes from users (player and league names), and a spreadsheet runs a cell
that begins with `=`, `+`, `-` or `@` as a formula (tab and carriage return can hide such a
start), which turns a name like `=HYPERLINK(...)` into a live link or worse (CSV injection:
https://owasp.org/www-community/attacks/CSV_Injection). Every export builds its table with
`safe_dataset`: such text cells get a leading apostrophe, the usual sign for "this is text",
so they open as the text written; numbers stay numbers (a negative total is a number cell).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import tablib
from django.http import HttpResponse
from django.utils.http import content_disposition_header

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# The spreadsheet formats a page exports (the URL's suffix), with their content types.
EXPORTS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def safe_cell(value: object) -> object:
    """The value as a spreadsheet should keep it: text that could start a formula is quoted.

    >>> safe_cell("=1+2"), safe_cell("-5"), safe_cell(-5), safe_cell("Олена")
    ("'=1+2", "'-5", -5, 'Олена')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_dataset(
    rows: Iterable[Sequence[object]], *, headers: Sequence[object], title: str
) -> tablib.Dataset:
    """A tablib Dataset of these rows and headers, every cell through safe_cell."""
    return tablib.Dataset(
        *([safe_cell(value) for value in row] for row in rows),
        headers=[safe_cell(str(header)) for header in headers],
        title=title,
    )


def export_response(content: str | bytes, *, fmt: str, name: str) -> HttpResponse:
    """An export (one of EXPORTS) as a download called `name`.`fmt`.

    CSV starts with the byte order mark: Excel then reads UTF-8 names.
    """
    if fmt == "csv" and isinstance(content, str):
        content = "\ufeff" + content
    response = HttpResponse(content, content_type=EXPORTS[fmt])
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.{fmt}")
    return response
