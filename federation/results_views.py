"""Results others can read: a member club's tournament as a pulka-tournament/1 file and as
CSV, its results page with the standings per category, and the files the federation
imports (from an upload or another Pulka site's address) with their persons matched.

Reading follows the tournament's club: a public club's tournament is public, a private
club's is for its members and the federation's officers (404 for everyone else); only
tournaments of member clubs are served here. Importing and re-matching are for officers
(a judge or the owner). Imported results are public like the federation's calendar.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from club.errors import ServiceError
from club.exports import export_response, safe_dataset
from club.rendering import after_action, render_page
from competition.models import Tournament
from federation import results_file, selectors
from federation.access import FederationAccess, get_federation_for_user
from federation.models import ImportedResult, OfficerRole, Person
from federation.results_file import ResultsFileError
from federation.results_forms import PersonFilterForm, RematchForm, ResultsImportForm
from scoring.formatting import export_value, figure_html

LIST_MAX = 50
FORMATS = ("json", "csv")
INDEX = "federation/results_index.html"
DETAIL = "federation/results_detail.html"
IMPORT = "federation/results_import.html"
IMPORTED = "federation/results_imported.html"


def _context(access: FederationAccess, **extra) -> dict:
    return {"federation": access.federation, "access": access, **extra}


def _tournaments(request: HttpRequest, access: FederationAccess):
    """The member clubs' tournaments this visitor may read (an officer reads them all)."""
    found = Tournament.objects.filter(
        club_id__in=selectors.member_club_ids(access.federation)
    ).select_related("club")
    return found if access.can_judge else selectors.readable(found, request.user)


def _tournament(request: HttpRequest, access: FederationAccess, tournament_id: int) -> Tournament:
    tournament = _tournaments(request, access).filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404
    return tournament


def _imported(access: FederationAccess, imported_id: int) -> ImportedResult:
    imported = ImportedResult.objects.filter(federation=access.federation, pk=imported_id).first()
    if imported is None:
        raise Http404
    return imported


# --- the tables shown ------------------------------------------------------------------------


class ResultsTable(tables.Table):
    """A standings list of a results file: place, name, club, total, each round's score."""

    place = tables.Column(verbose_name=gettext_lazy("Place"), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=gettext_lazy("Name"))
    club = tables.Column(verbose_name=gettext_lazy("Club"))
    total = tables.Column(verbose_name=gettext_lazy("Total"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        empty_text = gettext_lazy("No round is confirmed yet.")

    def render_name(self, value: str, record: dict) -> str:
        url = record.get("url")
        if not url:
            return value
        return format_html('<a href="{}">{}</a>', url, value)

    def render_total(self, value: Fraction) -> str:
        return figure_html(value)


def _round_column(number: int) -> tables.Column:
    return tables.Column(
        verbose_name=_("Round %(number)s") % {"number": number},
        attrs={"td": {"class": "num"}},
        empty_values=(None,),
        default="—",
    )


def _figure_or_dash(value: Fraction | None) -> str:
    return "—" if value is None else figure_html(value)


@dataclass
class Lists:
    """A document's standings for a page: the overall list and one per category."""

    overall: ResultsTable
    categories: list[tuple[str, ResultsTable]]
    rounds: list[int]


def _lists(document: dict[str, Any], urls: dict[str, str]) -> Lists:
    rounds = results_file.round_numbers(document)
    scores = results_file.round_scores(document)
    persons = document["persons"]

    def table(lines: list[dict]) -> ResultsTable:
        rows = []
        for line in lines:
            key = line["person"]
            row = {
                "place": line["place"],
                "name": persons[key]["name"],
                "club": persons[key]["club"],
                "total": results_file.exact(line["total"]),
                "url": urls.get(key, ""),
            }
            mine = scores.get(key, {})
            for number in rounds:
                row[f"round_{number}"] = _figure_or_dash(mine.get(number))
            rows.append(row)
        return ResultsTable(
            rows, extra_columns=[(f"round_{number}", _round_column(number)) for number in rounds]
        )

    standings = document["standings"]
    return Lists(
        overall=table(standings["overall"]),
        categories=[(name, table(lines)) for name, lines in standings["categories"].items()],
        rounds=rounds,
    )


# --- downloads -------------------------------------------------------------------------------


def _json_download(document: dict[str, Any], name: str) -> HttpResponse:
    body = json.dumps(document, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    response = HttpResponse(body.encode(), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.json")
    return response


def _download(document: dict[str, Any], fmt: str, name: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404
    if fmt == "json":
        return _json_download(document, name)
    headers, rows = results_file.csv_rows(document, export_value)
    dataset = safe_dataset(rows, headers=headers, title=document["tournament"]["name"][:31])
    return export_response(dataset.export("csv"), fmt="csv", name=name)


def _file_name(document: dict[str, Any]) -> str:
    tournament = document["tournament"]
    text = f"{tournament['name']} {tournament['date']}"
    kept = "".join(c if c.isalnum() else "-" for c in text)
    return "-".join(part for part in kept.split("-") if part)[:100] or "results"


# --- the federation's results ------------------------------------------------------------------


@require_safe
def results_index(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    context = _context(
        access,
        tournaments=list(_tournaments(request, access).order_by("-start", "-pk")[:LIST_MAX]),
        imports=list(
            ImportedResult.objects.filter(federation=access.federation).order_by("-start", "-pk")[
                :LIST_MAX
            ]
        ),
    )
    return render_page(request, INDEX, context, fragment="results")


@require_safe
def results_detail(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    tournament = _tournament(request, access, tournament_id)
    document = results_file.build(tournament, access.federation)
    urls = {
        key: reverse("federation:person", args=[slug, about["federation"]["person"]])
        for key, about in document["persons"].items()
        if about["federation"]
    }
    context = _context(
        access, tournament=tournament, document=document, lists=_lists(document, urls)
    )
    return render_page(request, DETAIL, context, fragment="results")


@require_safe
def results_export(request: HttpRequest, slug: str, tournament_id: int, fmt: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404
    access = get_federation_for_user(request, slug)
    tournament = _tournament(request, access, tournament_id)
    document = results_file.build(tournament, access.federation)
    return _download(document, fmt, _file_name(document))


# --- importing ---------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def results_import(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=OfficerRole.JUDGE)
    if request.method != "POST":
        return render_page(
            request, IMPORT, _context(access, form=ResultsImportForm()), fragment="import"
        )
    form = ResultsImportForm(request.POST, request.FILES)
    if form.is_valid():
        data = form.cleaned_data
        try:
            if data["file"]:
                document = results_file.read_upload(data["file"])
                source = data["file"].name or ""
            else:
                document = results_file.fetch(data["url"])
                source = data["url"]
            imported = results_file.result_import(
                federation=access.federation,
                document=document,
                source=source,
                imported_by=request.user,
            )
        except ServiceError as exc:
            field = "url" if not data["file"] else "file"
            form.add_error(field if exc.field in (None, "url", "file") else None, exc.message)
        else:
            outcome = _("%(name)s is imported: check how its persons are matched.") % {
                "name": imported.name
            }
            return after_action(
                request,
                outcome,
                url=reverse("federation:imported", args=[slug, imported.pk]),
            )
    return render_page(request, IMPORT, _context(access, form=form), fragment="import")


def _stored(imported: ImportedResult) -> tuple[dict[str, Any] | None, str]:
    """The stored document in its one form, or None and why not (a row written some other
    way than by the import, e.g. in the admin)."""
    try:
        return results_file.normalise(imported.document), ""
    except ResultsFileError as exc:
        return None, exc.message


def _matches(imported: ImportedResult, document: dict[str, Any]) -> list[dict]:
    """Each person of the file with the federation's person he is matched to."""
    ids = [value for value in imported.persons.values() if isinstance(value, int)]
    persons = {person.pk: person for person in Person.objects.filter(pk__in=ids)}
    rows = []
    for key in results_file.ordered_keys(document):
        person = persons.get(imported.persons.get(key))
        rows.append({"key": key, "about": document["persons"][key], "person": person})
    return rows


def _imported_page(
    request: HttpRequest,
    access: FederationAccess,
    imported: ImportedResult,
    *,
    form: RematchForm | None = None,
    outcome: str = "",
    fragment: str = "imported",
) -> HttpResponse:
    slug = access.federation.slug
    urls = {
        key: reverse("federation:person", args=[slug, person_id])
        for key, person_id in imported.persons.items()
        if isinstance(person_id, int)
    }
    filter_form = PersonFilterForm(request.GET)
    query = filter_form.cleaned_data["q"] if filter_form.is_valid() else ""
    document, problem = _stored(imported)
    if access.can_judge and form is None and document is not None:
        form = _rematch_form(access, imported, query=query)
    context = _context(
        access,
        imported=imported,
        document=document,
        problem=problem,
        lists=_lists(document, urls) if document else None,
        matches=_matches(imported, document) if document else [],
        form=form if access.can_judge and document else None,
        filter_form=filter_form,
        outcome=outcome,
    )
    return render_page(request, IMPORTED, context, fragment=fragment)


def _rematch_form(
    access: FederationAccess, imported: ImportedResult, *, data=None, query: str = ""
) -> RematchForm:
    document = imported.document
    file_persons = [
        (key, f"{document['persons'][key]['name']} ({key})")
        for key in results_file.ordered_keys(document)
    ]
    active = Person.objects.filter(federation=access.federation, merged_into__isnull=True)
    return RematchForm(
        data,
        file_persons=file_persons,
        persons=active,
        shown=selectors.persons_search(access.federation, query),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def imported_detail(request: HttpRequest, slug: str, imported_id: int) -> HttpResponse:
    writing = request.method == "POST"
    access = get_federation_for_user(request, slug, role=OfficerRole.JUDGE if writing else None)
    imported = _imported(access, imported_id)
    if not writing or _stored(imported)[0] is None:
        return _imported_page(request, access, imported)
    form = _rematch_form(access, imported, data=request.POST)
    if form.is_valid():
        try:
            person = results_file.imported_rematch(
                imported=imported,
                key=form.cleaned_data["key"],
                person=form.cleaned_data["person"],
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            imported.refresh_from_db()
            name = imported.document["persons"][form.cleaned_data["key"]]["name"]
            outcome = _("%(name)s of the file is now %(person)s.") % {
                "name": name,
                "person": person.name,
            }
            return after_action(
                request,
                outcome,
                url=reverse("federation:imported", args=[slug, imported.pk]),
                fragment=lambda said: _imported_page(
                    request, access, imported, outcome=said, fragment="matches"
                ),
            )
    return _imported_page(request, access, imported, form=form, fragment="matches")


@require_safe
def imported_export(request: HttpRequest, slug: str, imported_id: int, fmt: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404
    access = get_federation_for_user(request, slug)
    imported = _imported(access, imported_id)
    document, _problem = _stored(imported)
    if document is None:
        raise Http404
    return _download(document, fmt, _file_name(document))
