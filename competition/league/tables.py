"""django-tables2 tables of the club pages: a league's ranking.

The rows are competition.league.selectors.LeagueStanding tuples, already aggregated and ranked
by competition.league.selectors.league_ranking(); the table sorts them in memory (stable, so
equal values keep the league's order), paginates, and exports them.

django-tables2's generic cell rendering inspects each render method's signature for every
cell, and a template loop over 300 cells costs as much again: on a page of 25 rows the two
took most of the page's time. So the table renders its rows here (`body_rows`,
`export_rows`) with the same render_*/value_* methods, called directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

import django_tables2 as tables
from django.urls import reverse
from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_tables2.data import TableListData
from django_tables2.utils import OrderBy

from competition.league.selectors import LeagueStanding as Standing
from competition.league.selectors import Ranking
from competition.models import CountingRule, League
from scoring.formatting import export_value, figure

NUMBER = {"th": {"class": "num"}, "td": {"class": "num"}}
PER_PAGE = 25
MISSING = "—"


class StandingData(TableListData):
    """Sorts with plain keys and a stable sort: equal values keep the league's order
    (django-tables2's generic comparator resolves accessors on every comparison)."""

    def order_by(self, aliases) -> None:
        for alias in reversed(list(aliases)):
            order = OrderBy(alias)
            key = self.table.sort_key(order.bare)
            present = [row for row in self.data if key(row) is not None]
            missing = [row for row in self.data if key(row) is None]
            present.sort(key=key, reverse=order.is_descending)
            self.data = present + missing  # no rating yet: last either way


class NumberColumn(tables.Column):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("attrs", NUMBER)
        kwargs.setdefault("initial_sort_descending", True)  # the best first
        super().__init__(*args, **kwargs)


class StandingTable(tables.Table):
    """A league's ranking: the ranked players, or (without places) those below the minimum."""

    place = tables.Column(verbose_name=_("Place"), attrs=NUMBER)
    name = tables.Column(
        verbose_name=_("Player"), accessor="player_id", attrs={"td": {"class": "player"}}
    )
    pulkas = NumberColumn(verbose_name=_("Pulkas"))
    total = NumberColumn(verbose_name=_("Total"))
    average = NumberColumn(verbose_name=_("Average"))
    score = NumberColumn(verbose_name=_("Counted"))
    best = NumberColumn(verbose_name=_("Best result"))
    firsts = NumberColumn(verbose_name=_("1st"))
    seconds = NumberColumn(verbose_name=_("2nd"))
    thirds = NumberColumn(verbose_name=_("3rd"))
    fourths = NumberColumn(verbose_name=_("4th"))
    rating = NumberColumn(verbose_name=_("Rating"))

    class Meta:
        template_name = "competition/league_table.html"
        attrs = {"class": "data ranking"}
        empty_text = _("Nobody yet.")

    def __init__(
        self,
        standings: tuple[Standing, ...],
        *,
        league: League,
        names: dict[int, str],
        with_place: bool = True,
        **kwargs,
    ) -> None:
        exclude = [] if with_place else ["place"]
        if league.rule != CountingRule.BEST:
            exclude.append("score")
        super().__init__(StandingData(list(standings)), exclude=exclude, **kwargs)
        self.names = names
        self.club_slug = league.club.slug
        if league.rule == CountingRule.BEST:
            n = league.best_count or 0
            self.columns["score"].column.verbose_name = ngettext(
                "Best %(n)s pulka", "Best %(n)s pulkas", n
            ) % {"n": n}

    @classmethod
    def pair(
        cls, ranking: Ranking, *, league: League, export: bool = False
    ) -> tuple[StandingTable, StandingTable | None]:
        """The ranked table and, if anyone is below the minimum, the unranked one (its own
        prefix, so that each table sorts and pages on its own).

        In an export the unranked rows keep the (empty) place column, to line up.
        """
        ranked = cls(ranking.ranked, league=league, names=ranking.names)
        unranked = None
        if ranking.unranked:
            unranked = cls(
                ranking.unranked,
                league=league,
                names=ranking.names,
                with_place=export,
                prefix="u-",
            )
        return ranked, unranked

    def sort_key(self, column: str) -> Callable[[Standing], object]:
        if column == "name":
            return lambda record: self.names.get(record.player_id, "")
        return lambda record: getattr(record, column)

    # Cells: render_* for the page, value_* for the exports.

    def render_name(self, record: Standing) -> str:  # a link to the player's profile
        url = self.profile_url(record.player_id)
        return format_html('<a href="{}">{}</a>', url, self.names.get(record.player_id, ""))

    @cached_property
    def profile_url(self) -> Callable[[int], str]:
        """player id -> the profile's URL; reverse() once (it costs some 25 µs a call)."""
        marker = 987654321
        head, tail = reverse("competition:player-detail", args=[self.club_slug, marker]).split(
            str(marker)
        )
        return lambda player_id: f"{head}{player_id}{tail}"

    def value_name(self, record: Standing) -> str:
        return self.names.get(record.player_id, "")

    @cached_property
    def number(self) -> Callable[[int | float, int | None], str]:
        """Format a number for the page, localised (the formats looked up once a table)."""
        formats = ("DECIMAL_SEPARATOR", "NUMBER_GROUPING", "THOUSAND_SEPARATOR")
        separator, grouping, thousands = (get_format(name) for name in formats)
        return lambda value, places: numberformat.format(
            value, separator, places, grouping, thousands, use_l10n=True
        )

    @staticmethod
    def render_total(value: int | float) -> str:
        """Counted whists as every figure reads (scoring.formatting): 12, −3, 12,50."""
        return figure(Fraction(value))

    render_score = render_total
    render_average = render_total
    render_best = render_total

    @staticmethod
    def value_average(value: float) -> object:
        return export_value(Fraction(value))

    def render_rating(self, value: float) -> str:
        # Rounded as in the exports: Django's number format cuts a float's digits off.
        return self.number(round(value, 1), 1)

    @staticmethod
    def value_rating(value: float) -> float:
        return round(value, 1)

    def _cells(self, prefix: str) -> list[tuple[str, str, Callable | None]]:
        return [
            (
                column.name,
                column.attrs["td"].get("class", ""),
                getattr(self, prefix + column.name, None),
            )
            for column in self.columns
        ]

    def body_rows(self) -> list[str]:
        """The current page's rows, as HTML: <tr data-player="id"><td class="...">...</td>..."""
        columns = [
            (name, format_html('<td class="{}">', css), render)
            for name, css, render in self._cells("render_")
        ]
        rows = []
        for row in self.page.object_list:
            record = row.record
            html = [f'<tr data-player="{record.player_id:d}">']
            for name, td, render in columns:
                if name == "name":
                    content = render(record)  # escaped by format_html
                else:
                    # Numbers only, formatted: nothing to escape.
                    value = getattr(record, name)
                    content = MISSING if value is None else render(value) if render else value
                html += [td, str(content), "</td>"]
            html.append("</tr>")
            rows.append(mark_safe("".join(html)))
        return rows

    def export_rows(self) -> Iterator[list[object]]:
        """Every row, sorted as the page (not paginated), as values: numbers stay numbers."""
        columns = self._cells("value_")
        for record in self.data:
            row = []
            for name, _css, value_of in columns:
                if name == "name":
                    row.append(value_of(record))
                else:
                    value = getattr(record, name)
                    row.append(value_of(value) if value_of and value is not None else value)
            yield row

    def export_headers(self) -> list[str]:
        return [str(column.header) for column in self.columns]

    def header_cells(self) -> list[dict]:
        """The header: each column's label, classes, sort state and sort link."""
        query = self.request.GET.copy()
        query.pop(self.prefixed_page_field, None)  # a new order starts at its first page
        cells = []
        for column in self.columns:
            query[self.prefixed_order_by_field] = column.order_by_alias.next
            sort = None
            if column.is_ordered:
                sort = "descending" if column.order_by_alias.is_descending else "ascending"
            cells.append(
                {
                    "name": column.name,
                    "label": column.header,
                    "class": column.attrs["th"].get("class", ""),
                    "sort": sort,
                    "url": "?" + query.urlencode(),
                }
            )
        return cells
