"""A tournament's standings page and its exports (CSV, XLSX).

Readers of the club read them (anyone for a public club, members for a private one). The
page shows the standings after the last confirmed round, or after round K (`?after=K`); the
numbers come from competition.lib.tournament_scoring through competition.tournament.standings,
whose version keys the page's HTML cache.
"""

from __future__ import annotations

from functools import cached_property

import tablib
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from club.access import get_club_for_user
from club.exports import EXPORTS, export_response, safe_dataset
from club.params import int_param
from club.rendering import club_context, render_page
from competition.models import Tournament
from competition.tournament import selectors
from competition.tournament.standings import StandingsPage, tournament_for_standings
from competition.tournament.tables import (
    TeamRow,
    TournamentStandingsTable,
    team_export,
    team_rows,
)

# How long the page's HTML is kept (its key changes with every change to what it shows).
CACHE_SECONDS = 60 * 60


def _page(request: HttpRequest, tournament: Tournament) -> StandingsPage:
    """The standings the request asks for: after round ?after=K, or after the last round
    confirmed (a K that is not a round number is as if it were not given)."""
    after = int_param(request.GET.get("after"), low=1, high=tournament.round_count)
    return StandingsPage(tournament, through=after)


class Tables:
    """The page's tables, built on first use: the page's HTML cache mostly has them already."""

    def __init__(self, page: StandingsPage) -> None:
        self.page = page

    @cached_property
    def players(self) -> TournamentStandingsTable:
        return TournamentStandingsTable(self.page)

    @cached_property
    def teams(self) -> list[TeamRow]:
        return team_rows(self.page)


@require_safe
def tournament_standings(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    tournament = tournament_for_standings(access.club, tournament_id)
    page = _page(request, tournament)
    context = club_context(
        access,
        tournament=tournament,
        rule=selectors.rule_words(tournament),
        page=page,
        tables=Tables(page),
        after_links=[
            (number, f"{request.path}?after={number}" if number < page.last else request.path)
            for number in range(1, page.last + 1)
        ],
        export_query=f"?after={page.through}" if page.through < page.last else "",
        cache_seconds=CACHE_SECONDS,
    )
    return render_page(
        request, "competition/tournament_standings.html", context, fragment="standings"
    )


@require_safe
def tournament_standings_export(
    request: HttpRequest, club_slug: str, tournament_id: int, fmt: str
) -> HttpResponse:
    """The page's rows as CSV, or as XLSX (with the teams on a second sheet when there are
    teams); after the page's round (?after=K)."""
    access = get_club_for_user(request, club_slug)
    if fmt not in EXPORTS:
        raise Http404
    tournament = tournament_for_standings(access.club, tournament_id)
    page = _page(request, tournament)
    table = TournamentStandingsTable(page)
    players = safe_dataset(
        table.export_rows(), headers=table.export_headers(), title=_("Standings")
    )
    if fmt == "csv":
        content: str | bytes = players.export("csv")
    elif page.teams:
        headers, rows = team_export(page)
        teams = safe_dataset(rows, headers=headers, title=_("Teams"))
        content = tablib.Databook([players, teams]).export("xlsx")
    else:
        content = players.export("xlsx")
    name = tournament.name
    if page.through < page.last:
        name = _("%(name)s after round %(number)s") % {"name": name, "number": page.through}
    return export_response(content, fmt=fmt, name=name)
