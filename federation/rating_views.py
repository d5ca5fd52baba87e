"""/f/<slug>/rating/: the federation's rating list, for everyone; its CSV and XLSX.

The list is read as last built (federation.rating): "calculated on" its latest pulka, the
least pulkas to be listed, filters by member club and by city (GET, validated against the
federation's own clubs), pages of at most PER_PAGE_MAX rows. A constant number of queries
whatever the list's length: the gate, the build's row, the member clubs, the count and the
page. Officers see a rebuild that failed and start it again; the owner sets the least pulkas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.errors import ServiceError
from club.exports import EXPORTS, export_response, safe_dataset
from club.params import PAGE_MAX, IntegerField, int_param
from club.rendering import after_action, render_page
from federation import background, rating
from federation.access import FederationAccess, get_federation_for_user
from federation.models import Federation, FederationRefresh, OfficerRole, RatingList
from scoring.formatting import figure

TEMPLATE = "federation/rating_list.html"
PER_PAGE = 50
PER_PAGE_MAX = 200
CACHE_SECONDS = 600  # a page of the list's HTML, until the list is rebuilt (ListPage)
NUMBER = {"th": {"class": "num"}, "td": {"class": "num"}}


# --- the filters and the owner's form -----------------------------------------------------------


class RatingFilter(forms.Form):
    """?club=<id>&city=<name>: one of the federation's clubs (those who left too), one of
    their cities. A value that is neither is an error on the field, and that filter is off."""

    club = forms.ChoiceField(
        label=gettext_lazy("Club"),
        required=False,
        error_messages={
            "invalid_choice": gettext_lazy(
                "This club is not one of the federation's: choose one from the list."
            )
        },
    )
    city = forms.ChoiceField(
        label=gettext_lazy("City"),
        required=False,
        error_messages={
            "invalid_choice": gettext_lazy(
                "No club of the federation is in this city: choose one from the list."
            )
        },
    )

    def __init__(self, data, *, clubs: Sequence[tuple[int, str, str]]) -> None:
        super().__init__(data)
        self.fields["club"].choices = [("", _("All clubs"))] + [
            (str(pk), name) for pk, name, _city in clubs
        ]
        cities = sorted({city for _pk, _name, city in clubs if city})
        self.fields["city"].choices = [("", _("All cities"))] + [(city, city) for city in cities]

    def chosen(self) -> tuple[int | None, str]:
        """The club id and the city the list is filtered by (None, "": not filtered)."""
        # A bad value is left out of cleaned_data: its filter is off, the other one holds.
        self.is_valid()
        club = self.cleaned_data.get("club") or ""
        return (int(club) if club else None), self.cleaned_data.get("city") or ""


class MinPulkasForm(forms.Form):
    rating_min_pulkas = IntegerField(
        label=gettext_lazy("Pulkas to be listed"),
        min_value=0,
        max_value=background.MIN_PULKAS_MAX,
        help_text=gettext_lazy("Persons with fewer rated pulkas are rated but not listed."),
    )


# --- the rows ----------------------------------------------------------------------------------


class FilteredRows:
    """The list's rows of one club or city, for a Paginator: the matching ids are found in
    one query of the (small) ids and filter columns, a page's rows in one more."""

    def __init__(self, rows: QuerySet[RatingList], club: int | None, city: str) -> None:
        self.rows = rows
        self.ids = [
            pk
            for pk, clubs, cities in rows.values_list("pk", "clubs", "cities")
            if (club is None or club in clubs) and (not city or city in cities)
        ]

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, index: slice) -> list[RatingList]:
        return list(self.rows.filter(pk__in=self.ids[index]))


def _rows(federation: Federation, club: int | None, city: str) -> QuerySet | FilteredRows:
    rows = RatingList.objects.filter(federation=federation).select_related("person")
    rows = rows.order_by("place", "person__sort_key", "pk")
    if club is None and not city:
        return rows
    return FilteredRows(rows, club, city)


class RatingTable(tables.Table):
    """The rating list's columns, for the page (body_rows) and the exports (export_rows).

    Rows are rendered here rather than cell by cell through django-tables2's templates (see
    competition.league.tables, whose bench measured that cost): a page of 200 rows stays a
    few milliseconds."""

    place = tables.Column(verbose_name=gettext_lazy("Place"), attrs=NUMBER)
    name = tables.Column(verbose_name=gettext_lazy("Player"), attrs={"td": {"class": "player"}})
    clubs = tables.Column(verbose_name=gettext_lazy("Clubs"))
    cities = tables.Column(verbose_name=gettext_lazy("City"))
    rating = tables.Column(verbose_name=gettext_lazy("Rating"), attrs=NUMBER)
    pulkas = tables.Column(verbose_name=gettext_lazy("Pulkas"), attrs=NUMBER)
    last_date = tables.Column(verbose_name=gettext_lazy("Last played"))

    class Meta:
        orderable = False
        attrs = {"class": "data ranking", "id": "rating-table"}
        empty_text = gettext_lazy("Nobody is listed yet.")

    def __init__(self, rows: list[RatingList], *, slug: str, club_names: dict[int, str]) -> None:
        super().__init__(rows)
        self.slug = slug
        self.club_names = club_names

    @cached_property
    def person_url(self) -> Callable[[int], str]:
        """person id -> his page; reverse() once a table."""
        marker = 987654321
        head, tail = reverse("federation:person", args=[self.slug, marker]).split(str(marker))
        return lambda pk: f"{head}{pk}{tail}"

    def club_list(self, row: RatingList) -> str:
        return ", ".join(self.club_names[pk] for pk in row.clubs if pk in self.club_names)

    def body_rows(self, page: Sequence[RatingList]) -> Iterator[SafeString]:
        for row in page:
            yield format_html(
                '<tr data-person="{}"><td class="num">{}</td><td class="player">'
                '<a href="{}">{}</a></td><td>{}</td><td>{}</td><td class="num">{}</td>'
                '<td class="num">{}</td><td>{}</td></tr>',
                row.person_id,
                row.place,
                self.person_url(row.person_id),
                row.person.name,
                self.club_list(row),
                ", ".join(row.cities),
                figure(round(row.rating)),
                row.pulkas,
                date_format(row.last_date, "SHORT_DATE_FORMAT"),
            )

    def export_headers(self) -> list[str]:
        return [str(column.header) for column in self.columns]

    def export_rows(self, rows: Sequence[RatingList]) -> Iterator[list[object]]:
        """Numbers stay numbers (the rating whole, as the pages show it), dates stay dates."""
        for row in rows:
            yield [
                row.place,
                row.person.name,
                self.club_list(row),
                ", ".join(row.cities),
                round(row.rating),
                row.pulkas,
                row.last_date,
            ]


# --- the page ----------------------------------------------------------------------------------


@dataclass
class ListView:
    """What the page shows, read once a request."""

    access: FederationAccess
    refresh: FederationRefresh | None
    clubs: list[tuple[int, str, str]]
    filters: RatingFilter
    club: int | None
    city: str

    @classmethod
    def read(cls, request: HttpRequest, access: FederationAccess) -> ListView:
        federation = access.federation
        refresh = FederationRefresh.objects.filter(federation=federation).first()
        clubs = list(
            rating.memberships(federation)
            .order_by("club__name", "club_id")
            .values_list("club_id", "club__name", "club__city")
            .distinct()
        )
        filters = RatingFilter(request.GET, clubs=clubs)
        club, city = filters.chosen()
        return cls(access, refresh, clubs, filters, club, city)

    @property
    def rows(self) -> QuerySet | FilteredRows:
        return _rows(self.access.federation, self.club, self.city)

    def table(self) -> RatingTable:
        names = {pk: name for pk, name, _city in self.clubs}
        return RatingTable([], slug=self.access.federation.slug, club_names=names)

    @property
    def query(self) -> str:
        """The filters, for the export links and the pager (not the page number)."""
        query = self.filters.data.copy()
        query.pop("page", None)
        return query.urlencode()


def _page(request: HttpRequest, rows: QuerySet | FilteredRows) -> Page:
    per_page = int_param(request.GET.get("per_page"), low=1, high=PER_PAGE_MAX) or PER_PAGE
    number = int_param(request.GET.get("page"), low=1, high=PAGE_MAX) or 1
    return Paginator(rows, per_page).get_page(number)  # past the end: the last page


def _status(view: ListView) -> dict:
    refresh, federation = view.refresh, view.access.federation
    return {
        "calculated_on": refresh.calculated_on if refresh else None,
        "owed": background.is_owed(refresh),
        "refresh": refresh,
        "least": federation.rating_min_pulkas,
    }


class ListPage:
    """The table's page, read only when the template's fragment cache misses: the HTML of a
    page of the list is the same for everyone until the list is rebuilt (its key holds the
    build's time, the URL and the language). Measured on the bench's 2,000 persons (the
    profile of bench/federation.py's page, under load): 68 ms without it, 17 ms with it."""

    def __init__(self, request: HttpRequest, view: ListView) -> None:
        self.request, self.view = request, view

    @cached_property
    def table(self) -> RatingTable:
        return self.view.table()

    @cached_property
    def page(self) -> Page:
        return _page(self.request, self.view.rows)

    @cached_property
    def body_rows(self) -> list[SafeString]:
        return list(self.table.body_rows(self.page.object_list))

    @cached_property
    def columns(self) -> list[tuple[str, str]]:
        return [
            (column.header, column.attrs["th"].get("class", "")) for column in self.table.columns
        ]

    @property
    def empty_text(self) -> str:
        return self.table.empty_text


def _render(
    request: HttpRequest,
    access: FederationAccess,
    *,
    fragment: str,
    form: MinPulkasForm | None = None,
    outcome: str = "",
) -> HttpResponse:
    view = ListView.read(request, access)
    refresh = view.refresh
    context = {
        "federation": access.federation,
        "access": access,
        "view": view,
        "list": ListPage(request, view),
        "version": refresh.built_at.timestamp() if refresh and refresh.built_at else 0,
        "cache_seconds": CACHE_SECONDS,
        "form": form
        or MinPulkasForm(initial={"rating_min_pulkas": access.federation.rating_min_pulkas}),
        "outcome": outcome,
        **_status(view),
    }
    return render_page(request, TEMPLATE, context, fragment=fragment)


@require_http_methods(["GET", "HEAD", "POST"])
def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The list (htmx: the table, for the filters and the pages); POST: the owner's least
    pulkas (htmx: the whole list, rebuilt)."""
    if request.method != "POST":
        access = get_federation_for_user(request, slug)
        return _render(request, access, fragment="table")
    access = get_federation_for_user(request, slug, role=OfficerRole.OWNER)
    form = MinPulkasForm(request.POST)
    if form.is_valid():
        try:
            background.rating_min_pulkas_set(
                federation=access.federation, value=form.cleaned_data["rating_min_pulkas"]
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            said = _("Persons with at least %(n)s rated pulkas are listed.") % {
                "n": access.federation.rating_min_pulkas
            }
            return after_action(
                request,
                said,
                url=reverse("federation:rating", args=[slug]),
                fragment=lambda outcome: _render(
                    request, access, fragment="rating", outcome=outcome
                ),
            )
    return _render(request, access, fragment="rating", form=form)


@require_POST
def rating_restart(request: HttpRequest, slug: str) -> HttpResponse:
    """An officer starts a failed (or stuck) rebuild again."""
    access = get_federation_for_user(request, slug, role=OfficerRole.JUDGE)
    try:
        background.refresh_restart(federation=access.federation)
    except ServiceError as exc:
        said = exc.message
    else:
        said = _("The rating list is being updated again.")
    return after_action(
        request,
        said,
        level=messages.INFO,
        url=reverse("federation:rating", args=[slug]),
        fragment=lambda outcome: _render(request, access, fragment="rating", outcome=outcome),
    )


@require_safe
def rating_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The filtered list, every page, as CSV or XLSX."""
    if fmt not in EXPORTS:
        raise Http404
    access = get_federation_for_user(request, slug)
    view = ListView.read(request, access)
    rows = view.rows
    every = list(rows) if isinstance(rows, QuerySet) else rows[:]
    table = view.table()
    dataset = safe_dataset(
        table.export_rows(every), headers=table.export_headers(), title=_("Rating")
    )
    name = _("%(federation)s rating") % {"federation": access.federation.name}
    return export_response(dataset.export(fmt), fmt=fmt, name=name)
