"""Import and export of pulkas (pulka/1 and pulka-sheet/1 JSON files).

Whoever may read a pulka may download it; a secretary uploads a pulka/1 file as a new table
of an evening. The upload form works as a plain multipart POST and through htmx.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from club.access import get_club_for_user
from club.models import Role
from club.rendering import after_action, club_context, render_page
from scoring import exchange, selectors, services
from scoring.access import get_pulka_for_user
from scoring.forms import PulkaImportForm
from scoring.models import Pulka
from scoring.services import ScoringError


def _filename(pulka: Pulka, suffix: str = "") -> str:
    evening = pulka.evening
    return f"pulka-{evening.club.slug}-{evening.date:%Y-%m-%d}-table-{pulka.table}{suffix}.json"


def _json_download(document: dict[str, Any], filename: str) -> HttpResponse:
    body = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    response = HttpResponse(body.encode(), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@require_safe
def pulka_export(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    _, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    return _json_download(exchange.pulka_document(pulka), _filename(pulka))


@require_safe
def sheet_export(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    _, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    return _json_download(exchange.sheet_document(pulka), _filename(pulka, "-sheet"))


@require_http_methods(["GET", "HEAD", "POST"])
def pulka_import(request: HttpRequest, club_slug: str, evening_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    evening = selectors.evening_for_club(access.club, evening_id)
    if request.method == "POST":
        form = PulkaImportForm(request.POST, request.FILES)
    else:
        form = PulkaImportForm()
    if form.is_bound and form.is_valid():
        try:
            document = exchange.read_upload(form.cleaned_data["file"])
            pulka = services.pulka_import(
                evening=evening, document=document, imported_by=request.user
            )
        except ScoringError as exc:
            form.add_error(None, exc.message)
        else:
            return after_action(
                request,
                _("The file was imported as table %(table)s.") % {"table": pulka.table},
                url=pulka.get_absolute_url(),
            )
    context = club_context(access, evening=evening, import_form=form)
    return render_page(request, "scoring/pulka_import.html", context, fragment="import")
