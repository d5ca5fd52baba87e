"""The tournament standings as a table: a plain list of column specs, and the rows they make.

The rows are competition.lib.tournament_scoring.Line, ranked by the core in the tournament's
tie-break order: the table never sorts them (the order is the standings). Its columns follow
the tournament: the place, the player, the stage once the final is reached, then for each
counted round the whists as played (marked when below the floor), the capped whists or the
place points when the rule counts them, and the table; the penalties, the total, the
tie-breaks in the tournament's order, and the lot when it decided a place.

Numbers show as every figure does (scoring.formatting.figure: 105,67, −3), the exact value
(317/3) on hover, and go to the exports as numbers (whole, or to the same 2 decimals).

A speed trick, kept for its figure: the rows are written here as HTML (`body_rows`), not by
django-tables2's {% render_table %}. 300 players over 9 rounds are some 10,500 cells: 88 ms
so against 2,347 ms through {% render_table %} (bench/tournament.py --standings, which builds
that tournament). Nothing else of django-tables2 was left in use (no render_table, no
RequestConfig, no sorting: the order is the standings), so the table is no
django_tables2.Table either: its columns are `LineColumn` specs, and its header, rows and
exports are read from them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.lib import tournament_scoring as ts
from competition.models import Scoring, Tournament
from competition.tournament.standings import TIE_VALUES, StandingsPage, penalty_total
from scoring.formatting import export_value, figure_html

TIE_BREAK_HEADERS = {
    ts.TieBreak.ADJUSTED_WHISTS: gettext_lazy("Adjusted whists"),
    ts.TieBreak.TABLE_WINS: gettext_lazy("Table wins"),
    ts.TieBreak.BEST_ROUND: gettext_lazy("Best round"),
    ts.TieBreak.OPPONENTS_TOTAL: gettext_lazy("Opponents' total"),
}


def export_number(value: object) -> object:
    """A number as a spreadsheet takes it: a whole Fraction as an int, another to 2 decimals
    (the figure the page shows).

    >>> export_number(Fraction(10, 2)), export_number(Fraction(317, 3)), export_number(None)
    (5, 105.67, None)
    """
    return export_value(value)


def shown(value: object) -> str:
    """A cell's HTML: a number as its figure (the exact value on hover), "" for nothing."""
    if value is None:
        return ""
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        return figure_html(value)
    return escape(value)


@dataclass(frozen=True)
class LineColumn:
    """A column of the standings: its `header`, its value read from a line by `value`;
    `group` names the round it belongs to (the page's header spans it), `css` the class of
    its header and cells, `cell` renders a value as HTML when a number is not enough."""

    header: str
    value: Callable[[ts.Line], object]
    group: str = ""
    css: str = "num"
    cell: Callable[[ts.Line, object], str] | None = None


def _td(css: str) -> str:
    """A cell's opening tag. The standings' cells are numbers aligned right by the table's
    style: a class only where a cell differs, which keeps 300 rows of 40 cells light."""
    classes = " ".join(name for name in css.split() if name != "num")
    return format_html('<td class="{}">', classes) if classes else "<td>"


@dataclass(frozen=True)
class HeaderCell:
    label: str
    css: str = ""
    colspan: int = 1
    rowspan: int = 1
    scope: str = "col"


class TournamentStandingsTable:
    """The standings of a tournament after the page's round: `columns`, then the header, the
    rows and the exports they make."""

    empty_text = gettext_lazy("No round is confirmed yet.")

    def __init__(self, page: StandingsPage) -> None:
        self.page = page
        self.tournament: Tournament = page.tournament
        self.names = page.names
        self.columns: list[LineColumn] = self._columns()

    # The columns --------------------------------------------------------------------------

    def _columns(self) -> list[LineColumn]:
        page, tournament = self.page, self.tournament
        columns = [
            LineColumn(_("Place"), lambda line: line.place),
            LineColumn(
                _("Player"),
                lambda line: self.names.get(line.player, ""),
                css="player",
                cell=self._player_cell,
            ),
        ]
        if page.stage is not None:
            columns.append(
                LineColumn(
                    _("Stage"), lambda line: _("Final") if line.finalist else "", css="stage"
                )
            )
        scored = {Scoring.CAPS: _("Capped"), Scoring.PLACES: _("Points")}.get(tournament.scoring)
        for number in page.rounds:
            group = _("Round %(number)s") % {"number": number}
            columns.append(
                LineColumn(
                    _("Whists"),
                    self._round(number, lambda one: one.whists),
                    group=group,
                    cell=self._whists_cell(number),
                )
            )
            if scored is not None:
                columns.append(
                    LineColumn(scored, self._round(number, lambda one: one.score), group=group)
                )
            columns.append(
                LineColumn(
                    _("Table"),
                    self._round(number, lambda one: one.table),
                    group=group,
                    css="num table-number",
                    cell=self._table_cell(number),
                )
            )
        if tournament.scoring == Scoring.PLACES:
            columns.append(
                LineColumn(
                    _("Penalty points"), lambda line: penalty_total(line, ts.Unit.POINTS) or None
                )
            )
            whists_penalty = _("Penalty whists")
        else:
            whists_penalty = _("Penalties")
        columns += [
            LineColumn(whists_penalty, lambda line: penalty_total(line, ts.Unit.WHISTS) or None),
            LineColumn(_("Total"), lambda line: line.score, css="num total", cell=self._total_cell),
        ]
        columns += [
            LineColumn(str(TIE_BREAK_HEADERS[key]), TIE_VALUES[key])
            for key in page.standings.tie_breaks
        ]
        if page.lot_decided:
            decided = page.lot_decided
            columns.append(
                LineColumn(_("Lot"), lambda line: line.lot if line.player in decided else None)
            )
        return columns

    @staticmethod
    def _round(number: int, part: Callable[[ts.RoundScore], object]) -> Callable:
        def value(line: ts.Line) -> object:
            one = line.rounds.get(number)
            return None if one is None else part(one)

        return value

    # Cells that are more than a number ----------------------------------------------------

    def _player_cell(self, line: ts.Line, name: object) -> str:
        return format_html('<a href="{}">{}</a>', self.profile_url(line.player), name)

    def _whists_cell(self, number: int) -> Callable[[ts.Line, object], str]:
        below = escape(_("below the floor"))

        def cell(line: ts.Line, value: object) -> str:
            if number not in line.flagged:
                return shown(value)
            return (
                f'{shown(value)} <span class="flag" aria-hidden="true">⚑</span>'
                f'<span class="visually-hidden">{below}</span>'
            )

        return cell

    def _table_cell(self, number: int) -> Callable[[ts.Line, object], str]:
        bye = escape(_("bye"))

        def cell(line: ts.Line, value: object) -> str:
            if value is None and number in line.rounds:
                return bye
            return shown(value)

        return cell

    @staticmethod
    def _total_cell(line: ts.Line, value: object) -> str:
        sign = "plus" if line.score > 0 else "minus" if line.score < 0 else ""
        return f'<span class="{sign}">{shown(value)}</span>' if sign else shown(value)

    @cached_property
    def profile_url(self) -> Callable[[int], str]:
        """player id -> the profile's URL; reverse() once a table (some 25 µs a call)."""
        marker = 987654321
        url = reverse("competition:player-detail", args=[self.tournament.club.slug, marker])
        head, tail = url.split(str(marker))
        return lambda player_id: f"{head}{player_id}{tail}"

    # The page and the exports -------------------------------------------------------------

    def header_rows(self) -> list[list[HeaderCell]]:
        """One header row, or two when rounds are shown: "Round 2" above its columns."""
        top: list[HeaderCell] = []
        below: list[HeaderCell] = []
        grouped = any(column.group for column in self.columns)
        for column in self.columns:
            if not column.group:
                top.append(HeaderCell(column.header, column.css, rowspan=2 if grouped else 1))
                continue
            if top and top[-1].scope == "colgroup" and top[-1].label == column.group:
                last = top.pop()
                top.append(
                    HeaderCell(last.label, last.css, colspan=last.colspan + 1, scope=last.scope)
                )
            else:
                top.append(HeaderCell(column.group, "group", scope="colgroup"))
            below.append(HeaderCell(column.header, column.css))
        return [top, below] if below else [top]

    def body_rows(self) -> list[SafeString]:
        """Every row as HTML: <tr data-player="id" class="..."><td class="...">...</td>...</tr>."""
        specs = [(column.value, column.cell, _td(column.css)) for column in self.columns]
        rows = []
        for line in self.page.standings.lines:
            css = "finalist" if line.finalist else ""
            html = [f'<tr data-player="{line.player:d}" class="{css}">']
            for value_of, cell, td in specs:
                value = value_of(line)
                html += [td, cell(line, value) if cell else shown(value), "</td>"]
            html.append("</tr>")
            rows.append(mark_safe("".join(html)))
        return rows

    def export_headers(self) -> list[str]:
        return [
            f"{column.group}: {column.header}" if column.group else column.header
            for column in self.columns
        ]

    def export_rows(self) -> Iterator[list[object]]:
        """Every row as values: numbers stay numbers."""
        values = [column.value for column in self.columns]
        for line in self.page.standings.lines:
            yield [export_number(value(line)) for value in values]


def team_export(page: StandingsPage) -> tuple[list[str], list[list[object]]]:
    """The team standings as export headers and rows."""
    headers = [_("Place"), _("Team"), _("Players")]
    headers += [_("Round %(number)s") % {"number": number} for number in page.rounds]
    headers += [_("Total"), _("Best round")]
    rows = []
    for line in page.teams:
        row: list[object] = [line.place, line.team, ", ".join(page.team_members.get(line.team, []))]
        row += [export_number(line.rounds.get(number)) for number in page.rounds]
        row += [export_number(line.total), export_number(line.best_round)]
        rows.append(row)
    return headers, rows


@dataclass(frozen=True)
class TeamRow:
    place: int
    team: str
    members: str
    rounds: list[str]
    total: str
    best_round: str


def team_rows(page: StandingsPage) -> list[TeamRow]:
    """The team standings as the page shows them."""
    return [
        TeamRow(
            place=line.place,
            team=line.team,
            members=", ".join(page.team_members.get(line.team, [])),
            rounds=[shown(line.rounds.get(number)) for number in page.rounds],
            total=shown(line.total),
            best_round=shown(line.best_round),
        )
        for line in page.teams
    ]
