"""A pulka's and an evening's printouts as downloads: A4 PDFs built by scoring.printouts.

Whoever may read the pulka or the evening may print it (anyone for a public club, its
members for a private one; outsiders get 404). An htmx request gets a client-side redirect
to the same address instead of the file: htmx would swap the PDF's bytes into the page,
while the browser downloads it. An evening of more tables than its printout holds gets a
page saying so, with its tables to print one by one.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from club.access import get_club_for_user
from club.printing import pdf_response
from club.rendering import after_action, club_context, render_page, wants_fragment
from scoring import printouts, selectors
from scoring.access import get_pulka_for_user


@require_safe
def pulka_print(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    """The pulka on A4: its sheet, money, drawing and deal log."""
    _access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    if wants_fragment(request):
        return after_action(request, url=request.get_full_path())
    return pdf_response(printouts.pulka_pdf(pulka), printouts.pulka_filename(pulka))


@require_safe
def evening_print(request: HttpRequest, club_slug: str, evening_id: int) -> HttpResponse:
    """The evening on A4: the summary, the payments and each table's result."""
    access = get_club_for_user(request, club_slug)
    evening = selectors.evening_for_club(access.club, evening_id)
    try:
        printouts.evening_printable(evening)
    except printouts.TooBig as exc:
        refusal = _(
            "This evening has %(count)s tables: its printout holds at most %(limit)s. "
            "Print its tables one by one from their pages."
        ) % {"count": exc.count, "limit": exc.limit}
        pulkas = list(evening.pulkas.order_by("table"))
        context = club_context(access, evening=evening, refusal=refusal, pulkas=pulkas)
        return render_page(request, "scoring/print_refused.html", context, fragment="refusal")
    if wants_fragment(request):
        return after_action(request, url=request.get_full_path())
    return pdf_response(printouts.evening_pdf(evening), printouts.evening_filename(evening))
