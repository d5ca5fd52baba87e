"""Printouts as A4 PDFs, rendered on the server by WeasyPrint: what every printout needs.

- :func:`render_pdf`: a template's HTML to PDF bytes, with a stylesheet of static/ handed to
  WeasyPrint by its path (parsed once per process). WeasyPrint may read no file and fetch no
  address: only the data: URLs the template itself holds (a drawing as an SVG image), so
  nothing a user typed can make it read a file or reach the network.
- :func:`pdf_response`: the bytes as a download, never stored by a shared cache.
- :func:`file_name`: a file name made of a text a user typed, without what a header or a
  path cannot hold.

The fonts are DejaVu Sans (Cyrillic included), installed with pango. (The tournament
printouts, competition.tournament.printouts, render the same way.)
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header

if TYPE_CHECKING:
    from weasyprint import CSS


@cache
def _stylesheet(path: str) -> CSS:
    from weasyprint import CSS  # imported on first use: see render_pdf

    found = finders.find(path)
    if found is None:  # a broken checkout, not a user's doing
        raise RuntimeError(f"{path} is missing")
    return CSS(filename=found)


def render_pdf(template: str, context: dict, *, stylesheet: str) -> bytes:
    """The template rendered (in the active language) and printed to PDF."""
    # WeasyPrint is imported on first use: importing it takes half a second, which every
    # process (and test worker) would pay at start-up for a page few requests ask for.
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    html = render_to_string(template, context)
    fetcher = URLFetcher(allowed_protocols=("data",))
    document = HTML(string=html, url_fetcher=fetcher, base_url="about:blank")
    return document.write_pdf(stylesheets=[_stylesheet(stylesheet)])


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"  # a sheet changes with every deal
    return response


def file_name(*parts: str) -> str:
    """'Club - 2024-05-01 - table 2.pdf' from its parts, each without what a header or a
    path cannot hold."""
    clean = [
        " ".join("".join(c if c.isprintable() and c not in "/\\" else " " for c in p).split())
        for p in parts
    ]
    return " - ".join(part for part in clean if part) + ".pdf"
