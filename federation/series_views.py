"""/f/<slug>/series/: a federation's series (cups, grand prix), their standings, exports and
printout, their settings and stages, and the final's field.

Everyone reads (the federation's pages are public); creating and changing a series, its
stages and the final's entries needs an officer (a judge or the owner): anonymous visitors
are sent to log in, anyone else gets 403. An unknown series is 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.exports import EXPORTS, export_response, safe_dataset
from club.printing import file_name, pdf_response, render_pdf
from club.rendering import after_action, render_page, wants_fragment
from federation import series_selectors as selectors
from federation import series_services as services
from federation.access import FederationAccess, get_federation_for_user
from federation.models import OfficerRole, Series
from federation.series_forms import ActionForm, SeriesForm, StageForm
from scoring.formatting import export_value, figure

JUDGE = OfficerRole.JUDGE
STYLESHEET = "css/print_tournament.css"


def _context(access: FederationAccess, **extra) -> dict:
    return {"federation": access.federation, "access": access, **extra}


# --- the list and the settings -------------------------------------------------------------


@require_safe
def series_list(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    items = list(selectors.series_list(access.federation))
    context = _context(access, series_items=items)
    return render_page(request, "federation/series_list.html", context, fragment="series-list")


def _form_page(
    request: HttpRequest, access: FederationAccess, form: SeriesForm, series: Series | None
) -> HttpResponse:
    context = _context(access, form=form, series=series)
    return render_page(request, "federation/series_form.html", context, fragment="form")


@require_http_methods(["GET", "HEAD", "POST"])
def series_create(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=JUDGE)
    federation = access.federation
    if request.method != "POST":
        return _form_page(request, access, SeriesForm(federation=federation), None)
    form = SeriesForm(request.POST, federation=federation)
    if form.is_valid():
        try:
            series = services.series_create(federation=federation, **form.settings())
        except services.SeriesError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("«%(name)s» is open: add its stages.") % {"name": series.name},
                url=series.get_absolute_url(),
            )
    return _form_page(request, access, form, None)


@require_http_methods(["GET", "HEAD", "POST"])
def series_settings(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=JUDGE)
    series = selectors.series_of(access.federation, series_id)
    federation = access.federation
    if request.method != "POST":
        return _form_page(request, access, SeriesForm(federation=federation, series=series), series)
    form = SeriesForm(request.POST, federation=federation, series=series)
    if form.is_valid():
        try:
            series = services.series_update(series=series, **form.settings())
        except services.SeriesError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("«%(name)s» is saved.") % {"name": series.name},
                url=series.get_absolute_url(),
            )
    return _form_page(request, access, form, series)


# --- the standings -------------------------------------------------------------------------


def _detail(
    request: HttpRequest,
    access: FederationAccess,
    series: Series,
    *,
    stage_form: StageForm | None = None,
    outcome: str = "",
) -> HttpResponse:
    table = selectors.SeriesTable(series)
    context = _context(
        access,
        series=series,
        table=table,
        rows=_rows(table),
        rule=selectors.rule_words(series),
        stage_form=stage_form if stage_form is not None else StageForm(series=series),
        outcome=outcome,
    )
    return render_page(request, "federation/series_detail.html", context, fragment="series-body")


def _rows(table: selectors.SeriesTable) -> list[dict]:
    """The standings' lines as the page, the exports and the printout show them."""
    numbers = [stage.number for stage in table.stages]
    rows = []
    for line in table.standings.lines:
        cells = []
        for number in numbers:
            score = line.stages.get(number)
            cells.append(
                None
                if score is None
                else {"points": score.points, "place": score.place, "counted": score.counted}
            )
        rows.append(
            {
                "place": line.place,
                "name": table.names.get(line.key, ""),
                "person": line.key if table.is_person(line.key) else None,
                "cells": cells,
                "total": line.total,
                "played": line.played,
            }
        )
    return rows


@require_safe
def series_detail(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    return _detail(request, access, selectors.series_of(access.federation, series_id))


@require_safe
def series_export(request: HttpRequest, slug: str, series_id: int, fmt: str) -> HttpResponse:
    """The standings as CSV or XLSX: place, name, each stage's points, the total, the stages
    played and the stages counted (the best N)."""
    access = get_federation_for_user(request, slug)
    if fmt not in EXPORTS:
        raise Http404
    series = selectors.series_of(access.federation, series_id)
    table = selectors.SeriesTable(series)
    headers = [_("Place"), _("Name")]
    headers += [_("Stage %(number)s") % {"number": stage.number} for stage in table.stages]
    headers += [_("Total"), _("Stages played"), _("Stages counted")]
    numbers = [stage.number for stage in table.stages]
    rows = []
    for row in _rows(table):
        cells = [export_value(cell["points"]) if cell else "" for cell in row["cells"]]
        counted = [
            str(n)
            for n, cell in zip(numbers, row["cells"], strict=True)
            if cell and cell["counted"]
        ]
        rows.append(
            [
                row["place"] or "",
                row["name"],
                *cells,
                export_value(row["total"]),
                row["played"],
                ", ".join(counted),
            ]
        )
    dataset = safe_dataset(rows, headers=headers, title=_("Series standings")[:31])
    return export_response(dataset.export(fmt), fmt=fmt, name=series.name)


def print_context(series: Series) -> dict:
    table = selectors.SeriesTable(series)
    rows = _rows(table)
    for row in rows:
        row["shown"] = [
            None if cell is None else {**cell, "points": figure(cell["points"])}
            for cell in row["cells"]
        ]
        row["total_shown"] = figure(row["total"])
    longest = max((len(row["name"]) for row in rows), default=0)
    return {
        "federation": series.federation,
        "series": series,
        "table": table,
        "rows": rows,
        "rule": selectors.rule_words(series),
        "dense": len(table.stages) > 8 or longest > 30,
        "printed_at": timezone.localtime(),
    }


def series_pdf(series: Series) -> bytes:
    """The standings on A4 landscape: a column a stage (12 fit), the dropped scores in
    brackets."""
    return render_pdf(
        "federation/print/series_standings.html", print_context(series), stylesheet=STYLESHEET
    )


@require_safe
def series_print(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    series = selectors.series_of(access.federation, series_id)
    if wants_fragment(request):  # htmx would swap the PDF's bytes into the page
        return after_action(request, url=request.get_full_path())
    when = date_format(timezone.localdate(), "Y-m-d")
    return pdf_response(series_pdf(series), file_name(series.name, when))


# --- stages --------------------------------------------------------------------------------


@require_POST
def series_stage_add(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=JUDGE)
    series = selectors.series_of(access.federation, series_id)
    form = StageForm(request.POST, series=series)
    if form.is_valid():
        try:
            stage = services.stage_add(
                series=series,
                tournament=form.cleaned_data["tournament"],
                imported=form.cleaned_data["imported"],
            )
        except services.SeriesError as exc:
            exc.add_to_form(form)
        else:
            outcome = _("Stage %(number)s is added.") % {"number": stage.number}
            return after_action(
                request,
                outcome,
                url=series.get_absolute_url(),
                fragment=lambda said: _detail(request, access, series, outcome=said),
            )
    return _detail(request, access, series, stage_form=form)


@require_POST
def series_stage_remove(
    request: HttpRequest, slug: str, series_id: int, stage_id: int
) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=JUDGE)
    series = selectors.series_of(access.federation, series_id)
    stage = selectors.stage_of(series, stage_id)
    services.stage_remove(stage=stage)
    outcome = _("Stage %(number)s is removed; the stages after it moved up.") % {
        "number": stage.number
    }
    return after_action(
        request,
        outcome,
        url=series.get_absolute_url(),
        fragment=lambda said: _detail(request, access, series, outcome=said),
    )


# --- the final's field ---------------------------------------------------------------------


def _final(
    request: HttpRequest,
    access: FederationAccess,
    series: Series,
    *,
    outcome: str = "",
    refused: str = "",
) -> HttpResponse:
    table = selectors.SeriesTable(series)
    final = series.final
    context = _context(
        access,
        series=series,
        field=selectors.final_field(series, table),
        winner=selectors.defending_winner(series),
        final=final,
        started=final is not None
        and (final.finished_at is not None or selectors.has_started(final)),
        entered=selectors.entered_persons(series),
        outcome=outcome,
        refused=refused,
        form=ActionForm(),
    )
    return render_page(request, "federation/series_final.html", context, fragment="field")


@require_safe
def series_final(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    return _final(request, access, selectors.series_of(access.federation, series_id))


@require_POST
def series_final_entries(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    """Every finalist entered in the final tournament; again: only who is missing."""
    access = get_federation_for_user(request, slug, role=JUDGE)
    series = selectors.series_of(access.federation, series_id)
    url = reverse("federation:series-final", args=[slug, series.pk])
    try:
        names = services.final_entries_make(series=series)
    except services.SeriesError as exc:
        if wants_fragment(request):
            return _final(request, access, series, refused=exc.message)
        return after_action(request, exc.message, url=url, level=messages.ERROR)
    if names:
        outcome = ngettext(
            "%(count)s finalist is entered: %(names)s.",
            "%(count)s finalists are entered: %(names)s.",
            len(names),
        ) % {"count": len(names), "names": ", ".join(names)}
    else:
        outcome = _("Every finalist is entered already.")
    series.refresh_from_db(fields=["final"])
    return after_action(
        request,
        outcome,
        url=url,
        fragment=lambda said: _final(request, access, series, outcome=said),
    )
