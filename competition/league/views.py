"""League pages: the club's leagues, a league's ranking and its exports, and the league form.

Reading follows the club (anyone for a public club, members for a private one); creating and
editing needs a secretary. The ranking reads only the result caches (competition.league.selectors).
"""

from __future__ import annotations

import copy
from functools import cached_property

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django_tables2 import RequestConfig

from club.access import ClubAccess, get_club_for_user
from club.exports import EXPORTS, export_response, safe_dataset
from club.models import Role
from club.params import PAGE_MAX, int_param
from club.rendering import after_action, club_context, render_page
from competition.league import selectors, services
from competition.league.forms import LeagueForm
from competition.league.tables import PER_PAGE, StandingTable
from competition.models import League
from competition.rating import background

# The most rows a page shows when the link asks (?per_page=).
PER_PAGE_MAX = 200


def _tables(
    request: HttpRequest, league: League, ranking: selectors.Ranking, *, export: bool = False
) -> tuple[StandingTable, StandingTable | None]:
    """The ranked and the unranked table (None: nobody is below the minimum), sorted as the
    request asks; paginated for the page."""
    ranked, unranked = StandingTable.pair(ranking, league=league, export=export)
    # django-tables2 reads the sort; the page and its size are read here, by the one parser
    # of numbers (its own int() let "-1" through to an empty paginator).
    config = RequestConfig(request, paginate=False)
    for table in (ranked, unranked):
        if table is not None:
            config.configure(table)
            if not export:
                _paginate(request, table)
    return ranked, unranked


def _paginate(request: HttpRequest, table: StandingTable) -> None:
    """The page the request asks for; a page or size it cannot have is the default."""
    get = request.GET.get
    per_page = int_param(get(table.prefixed_per_page_field), low=1, high=PER_PAGE_MAX)
    page = int_param(get(table.prefixed_page_field), low=1, high=PAGE_MAX)
    table.paginate(per_page=per_page or PER_PAGE)
    table.page = table.paginator.get_page(page or 1)  # past the end: the last page


class RankingTables:
    """The page's tables, built on first use: the page's fragment cache (keyed by the
    ranking's version, the URL and the language) mostly has their HTML already."""

    def __init__(self, request: HttpRequest, league: League, ranking: selectors.Ranking) -> None:
        self.request, self.league, self.ranking = request, league, ranking

    @cached_property
    def pair(self) -> tuple[StandingTable, StandingTable | None]:
        return _tables(self.request, self.league, self.ranking)

    @property
    def ranked(self) -> StandingTable:
        return self.pair[0]

    @property
    def unranked(self) -> StandingTable | None:
        return self.pair[1]

    @property
    def export_query(self) -> str:
        """The sort of the page, for the export links (not its page numbers)."""
        query = self.request.GET.copy()
        for table in self.pair:
            if table is not None:
                query.pop(table.prefixed_page_field, None)
        return query.urlencode()


@require_safe
def league_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    items = [
        (league, selectors.rule_sentence(league))
        for league in selectors.leagues_for_club(access.club)
    ]
    context = club_context(access, leagues=items, rerating=background.pending_refresh(access.club))
    return render_page(request, "competition/league_list.html", context, fragment="leagues")


@require_safe
def league_detail(request: HttpRequest, club_slug: str, league_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    league = selectors.league_for_club(access.club, league_id)
    ranking = selectors.league_ranking(league)
    context = club_context(
        access,
        league=league,
        rule=selectors.rule_sentence(league),
        ranking=ranking,
        tables=RankingTables(request, league, ranking),
        cache_seconds=selectors.CACHE_SECONDS,
        rerating=background.pending_refresh(access.club),
    )
    return render_page(request, "competition/league_detail.html", context, fragment="ranking")


@require_safe
def league_export(request: HttpRequest, club_slug: str, league_id: int, fmt: str) -> HttpResponse:
    """The page's rows, ranked then unranked, as CSV or XLSX (sorted as the page is)."""
    access = get_club_for_user(request, club_slug)
    if fmt not in EXPORTS:
        raise Http404
    league = selectors.league_for_club(access.club, league_id)
    ranked, unranked = _tables(request, league, selectors.league_ranking(league), export=True)
    rows = list(ranked.export_rows())
    if unranked is not None:
        rows += unranked.export_rows()
    dataset = safe_dataset(rows, headers=ranked.export_headers(), title=_("Ranking"))
    return export_response(dataset.export(fmt), fmt=fmt, name=league.name)


def _form_page(
    request: HttpRequest, access: ClubAccess, form: LeagueForm, league: League | None
) -> HttpResponse:
    context = club_context(access, form=form, league=league)
    return render_page(request, "competition/league_form.html", context, fragment="form")


@require_http_methods(["GET", "HEAD", "POST"])
def league_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    if request.method != "POST":
        return _form_page(request, access, LeagueForm(), None)
    form = LeagueForm(request.POST)
    if form.is_valid():
        try:
            league = services.league_create(club=access.club, **form.settings())
        except services.LeagueError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("%(league)s is open.") % {"league": league.name},
                url=league.get_absolute_url(),
            )
    return _form_page(request, access, form, None)


@require_http_methods(["GET", "HEAD", "POST"])
def league_edit(request: HttpRequest, club_slug: str, league_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    league = selectors.league_for_club(access.club, league_id)
    if request.method != "POST":
        return _form_page(request, access, LeagueForm(instance=league), league)
    # A copy: an invalid form must not rename the league in the page header.
    form = LeagueForm(request.POST, instance=copy.copy(league))
    if form.is_valid():
        try:
            league = services.league_update(league=league, **form.settings())
        except services.LeagueError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("%(league)s is saved.") % {"league": league.name},
                url=league.get_absolute_url(),
            )
    return _form_page(request, access, form, league)
