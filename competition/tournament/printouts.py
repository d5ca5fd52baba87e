"""What organisers print: a tournament's A4 PDFs, rendered on the server by WeasyPrint.

- the seating of a round for the notice board (:func:`seating_pdf`);
- a protocol per table of a round, one page each (:func:`protocols_pdf`): the players in
  seat order, the first dealer, a blank pulka sheet to keep by hand, boxes for the
  results and lines for the signatures;
- the standings after a round or at the end (:func:`standings_pdf`);
- the team standings (:func:`team_standings_pdf`).

Each builder reads what it prints through competition.tournament.selectors, renders a
template of ``templates/competition/print/`` and returns the PDF's bytes. The templates are
never served to a browser: the stylesheet (static/css/print_tournament.css) is handed to
WeasyPrint by its path, and the fonts are DejaVu Sans (Cyrillic included), installed with
pango. Each builder has a cheap size that counts everything it draws (``*_size``: the
protocols' pages, the seating's players, the standings' cells and penalties; one small
query or none), so a caller can decide to prepare a big file in the background:
bench/printouts.py prints the milliseconds per unit. Each big one has a version of what it
prints (``*_version``), under which a prepared file is shared until the data change.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from django.contrib.staticfiles import finders
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Club, Role
from club.names import collation_key
from competition.files import services as files
from competition.lib import tournament_scoring as ts
from competition.models import (
    Entry,
    Penalty,
    PenaltyUnit,
    Round,
    RoundState,
    RoundTable,
    Scoring,
    Tournament,
)
from competition.tournament import selectors
from competition.tournament.messages import bye_reason_text
from competition.tournament.standings import StandingsPage
from scoring import engine, table_links
from scoring.drawing import Drawing, pulka_drawing
from scoring.formatting import figure
from scoring.messages import PRESET_LABELS
from scoring.models import PulkaStatus

if TYPE_CHECKING:
    from weasyprint import CSS

STYLESHEET = "css/print_tournament.css"


# --- rendering ------------------------------------------------------------------------------


@cache
def _stylesheet() -> CSS:
    """The printouts' stylesheet, parsed once per process."""
    from weasyprint import CSS  # imported on first use: see _render

    path = finders.find(STYLESHEET)
    if path is None:  # a broken checkout, not a user's doing
        raise RuntimeError(f"{STYLESHEET} is missing")
    return CSS(filename=path)


def _render(template: str, context: dict) -> bytes:
    # WeasyPrint is imported on first use: importing it takes half a second, which every
    # process (and test worker) would pay at start-up for a page few requests ask for.
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    html = render_to_string(template, context)
    # The templates need no file and no URL, only the data: URLs of the sheets they hold:
    # nothing a user typed can make WeasyPrint read a file or fetch an address.
    fetcher = URLFetcher(allowed_protocols=("data",))
    document = HTML(string=html, url_fetcher=fetcher, base_url="about:blank")
    return document.write_pdf(stylesheets=[_stylesheet()])


def printed_number(value: Fraction | int | None) -> str:
    """A tournament number as printed: the figure every page shows (12, −3, 143,33)."""
    return figure(value)


def layout(columns: int, longest: int) -> dict[str, bool]:
    """How a table of standings fits A4, from its columns and its longest name (with the
    team beside it): landscape (`wide`) past 12 columns or past 40 characters; smaller type
    (`dense`) and smaller still (`denser`) as the columns grow, a long name counting as a
    column for every 20 of its characters. The names wrap in their cells whatever it is.

    >>> layout(12, 12)
    {'wide': False, 'dense': False, 'denser': False}
    >>> layout(13, 12), layout(6, 55)["wide"]
    ({'wide': True, 'dense': False, 'denser': False}, True)
    >>> layout(19, 105)
    {'wide': True, 'dense': True, 'denser': True}
    """
    weight = columns + longest // 20
    return {"wide": columns > 12 or longest > 40, "dense": weight > 16, "denser": weight > 21}


def _common(tournament: Tournament, title: str, **extra) -> dict:
    return {
        "club": tournament.club,
        "tournament": tournament,
        "title": title,
        "printed_at": timezone.localtime(),
        **extra,
    }


# --- seating ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    seat: int  # 1 to 4, clockwise
    name: str
    deals_first: bool


@dataclass(frozen=True)
class TableSeats:
    number: int
    seats: tuple[SeatLine, ...]
    link: str = ""  # the table's link while it runs ("" in a draft, or once it has ended)
    qr: str = ""  # the link's QR code, a data: URL of an SVG image

    @property
    def first_dealer(self) -> str:
        return next(line.name for line in self.seats if line.deals_first)


@dataclass(frozen=True)
class PlayerSeat:
    name: str
    table: int | None  # None: he sits out
    seat: int | None
    note: str = ""


def alphabetical(name: str) -> str:
    """A sort key for names: the one alphabetical order of the site (club.names).

    >>> sorted(["Ігор", "Єва", "Яна", "Ганна", "Ґава", "Anna", "Ольга"], key=alphabetical)
    ['Anna', 'Ганна', 'Ґава', 'Єва', 'Ігор', 'Ольга', 'Яна']
    """
    return collation_key(name)


def _tables(round: Round, names: dict[int, str]) -> tuple[list[TableSeats], list[PlayerSeat]]:
    """The round's tables in seat order, and the byes."""
    seating = selectors.seating_of(round)
    tables = [
        TableSeats(
            table.number,
            tuple(
                SeatLine(k, names.get(player, str(player)), player == table.first_dealer)
                for k, player in enumerate(table.seats, start=1)
            ),
        )
        for table in seating.tables
    ]
    byes = [
        PlayerSeat(names.get(bye.player, str(bye.player)), None, None, bye_reason_text(bye.reason))
        for bye in seating.byes
    ]
    return tables, byes


def _table_tokens(round: Round) -> dict[int, str]:
    """The link's token of each running table of a published round, by table (one query)."""
    if round.state not in (RoundState.PUBLISHED, RoundState.PLAYING):
        return {}
    return dict(
        RoundTable.objects.filter(
            round=round, pulka__status=PulkaStatus.RUNNING, pulka__table_token__isnull=False
        ).values_list("number", "pulka__table_token")
    )


def _with_links(round: Round, tables: list[TableSeats]) -> list[TableSeats]:
    """The tables with their links and QR codes (on the site's own domain: a worker may
    print them, with no request to take a host from)."""
    tokens = _table_tokens(round)
    linked = []
    for table in tables:
        token = tokens.get(table.number)
        if token is None:
            linked.append(table)
            continue
        url = table_links.table_url(token)
        linked.append(replace(table, link=url, qr=table_links.table_qr_image(url)))
    return linked


def seating_size(round: Round) -> int:
    """The players seated (and sitting out): the lines of the alphabetical list."""
    data = round.seating or {}
    return sum(len(t.get("seats", ())) for t in data.get("tables", ())) + len(data.get("byes", ()))


# The list A to Z: so many lines a page, in two columns read down. Laid out by hand, as a
# table of two columns a page: CSS columns made WeasyPrint lay every page out again and again
# (bench/printouts.py: the seating of 300 players took twice as long). Every line is one line
# high, so that a page holds its lines: a long name is printed smaller, the longest cut.
LINES_PER_COLUMN = 36


def columns_of(players: list[PlayerSeat], lines: int = LINES_PER_COLUMN) -> list[list[tuple]]:
    """The list cut into pages of two columns, each read down, as rows (left, right): the
    last page's columns are balanced.

    >>> [[(a, b) for a, b in page] for page in columns_of(list("abcdefg"), lines=2)]
    [[('a', 'c'), ('b', 'd')], [('e', 'g'), ('f', None)]]
    """
    pages = []
    for start in range(0, len(players), 2 * lines):
        chunk = players[start : start + 2 * lines]
        half = (len(chunk) + 1) // 2
        left, right = chunk[:half], chunk[half:]
        pages.append([(one, right[k] if k < len(right) else None) for k, one in enumerate(left)])
    return pages


def seating_context(round: Round) -> dict:
    tournament = round.tournament
    names = selectors.names(tournament)
    tables, byes = _tables(round, names)
    tables = _with_links(round, tables)
    players = [
        PlayerSeat(line.name, table.number, line.seat) for table in tables for line in table.seats
    ]
    players = sorted([*players, *byes], key=lambda one: alphabetical(one.name))
    return _common(
        tournament,
        _("Round %(number)s: seating") % {"number": round.number},
        round=round,
        draft=round.state == RoundState.DRAFT,
        tables=tables,
        card_rows=[tables[k : k + 2] for k in range(0, len(tables), 2)],
        players=players,
        pages=columns_of(players),
        byes=byes,
    )


def seating_pdf(round: Round) -> bytes:
    """The notice board's seating: the tables in large type, then everyone A to Z."""
    return _render("competition/print/seating.html", seating_context(round))


# --- table protocols ------------------------------------------------------------------------

# Seat ids for the blank sheet: the engine needs distinct names, the drawing prints others.
_SEAT_IDS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class BlankSheet:
    """The paper pulka of a table before its first deal: `names` labels each player's edge
    ("1. Anna"), `seats` heads each column of whists with the opponent's seat ("2")."""

    names: Drawing
    seats: Drawing


def blank_sheet(rules: engine.Rules, names: list[str]) -> BlankSheet:
    """The sheet's ruling, the players' names by their edges and the pool in the circle.

    The columns are headed by seat numbers, not names: WeasyPrint draws an SVG's text letter
    by letter, and names in twelve columns took a third of the time it spent drawing the
    protocols (bench/printouts.py: 7.3 s for 75 tables with them, 6.4 s without).
    """
    ids = list(_SEAT_IDS[: len(names)])
    sheet = engine.compute_sheet(rules, ids, [])
    labelled = [f"{k}. {name}" for k, name in enumerate(names, start=1)]
    numbers = [str(k) for k in range(1, len(names) + 1)]
    return BlankSheet(pulka_drawing(sheet, labelled), pulka_drawing(sheet, numbers))


@dataclass(frozen=True)
class Protocol:
    table: TableSeats
    sheet: BlankSheet

    @property
    def image(self) -> str:
        """The sheet as an SVG image in a data: URL. An image, not SVG inline in the page:
        WeasyPrint then styles the page without the sheet's elements and draws it faster
        (bench/printouts.py: a fifth off the protocols' time)."""
        context = {"sheet": self.sheet.names, "columns": self.sheet.seats.players}
        svg = render_to_string("competition/print/_sheet.html", context)
        return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def protocols_size(round: Round, table: int | None = None) -> int:
    """The pages: one per table (no query: the seating is on the round)."""
    numbers = [t.get("number") for t in (round.seating or {}).get("tables", ())]
    if table is not None:
        return int(table in numbers)
    return len(numbers)


def has_table(round: Round, number: int) -> bool:
    return protocols_size(round, number) == 1


def protocols_context(round: Round, table: int | None = None) -> dict:
    tournament = round.tournament
    rules = engine.rules_from_dict(tournament.rules)
    tables, _byes = _tables(round, selectors.names(tournament))
    if table is not None:
        tables = [one for one in tables if one.number == table]
    tables = _with_links(round, tables)
    protocols = [
        Protocol(one, blank_sheet(rules, [line.name for line in one.seats])) for one in tables
    ]
    points_label = {
        Scoring.CAPS: _("After caps"),
        Scoring.PLACES: _("Points"),
        Scoring.WHISTS: _("Points"),
    }[Scoring(tournament.scoring)]
    return _common(
        tournament,
        _("Round %(number)s: table protocols") % {"number": round.number},
        round=round,
        protocols=protocols,
        convention=PRESET_LABELS[rules.preset],
        pool_target=rules.pool_target,
        points_label=points_label,
    )


def protocols_pdf(round: Round, table: int | None = None) -> bytes:
    """A protocol per table of the round, one page each (or the one table asked for)."""
    return _render("competition/print/protocols.html", protocols_context(round, table))


# Big printouts are prepared in the background (competition.files.services). Each threshold is about
# a second's worth by bench/printouts.py: 90 ms a table's protocol, 2.1 s the seating of
# 300 players; the standings and the team standings by the cells they draw (Drawn), 1.05 to
# 1.27 ms a cell in three runs (CPU time), so 800 cells: the standings of 80 players after
# two rounds (ten columns with the default tie-breaks and the lot), or of 40 with 60 penalties.
PROTOCOLS_THRESHOLD_TABLES = 12
SEATING_THRESHOLD_PLAYERS = 140
STANDINGS_THRESHOLD_CELLS = 800
PROTOCOLS_KIND = "tournament-protocols"
SEATING_KIND = "tournament-seating"
STANDINGS_KIND = "tournament-standings"
TEAMS_KIND = "tournament-teams"
# What each printout may be downloaded by, once prepared: what its page lets read it.
PRINT_READERS = {
    PROTOCOLS_KIND: Role.SECRETARY,  # they go on the tables
    SEATING_KIND: Role.PLAYER,  # a draft's: the owner's (seating_readers)
    STANDINGS_KIND: Role.PLAYER,
    TEAMS_KIND: Role.PLAYER,
}


def seating_readers(round: Round) -> str:
    return Role.OWNER if round.state == RoundState.DRAFT else PRINT_READERS[SEATING_KIND]


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _printed(tournament: Tournament) -> tuple:
    """What every printout of the tournament prints around its data: the club's and the
    tournament's names, its settings (the rules, the scoring) and the entrants' names."""
    settings = [getattr(tournament, name) for name in Tournament.SETTINGS]
    return tournament.club.name, settings, sorted(selectors.names(tournament).items())


def round_version(club: Club, *, tournament_id: int, number: int) -> str:
    """The version of a round's seating and protocols: its state and seating, the names
    and settings they print, and its running tables' links (three small queries)."""
    round = _round_of(club, tournament_id, number)
    tokens = sorted(_table_tokens(round).items())  # a new link, or a table ended, prints anew
    return _digest(_printed(round.tournament), round.number, round.state, round.seating, tokens)


def standings_version(club: Club, *, tournament_id: int, after: int | None = None) -> str:
    """The version of the standings (after round `after`): the standings page's cache
    version (results, confirmed rounds, penalties, settings, names and teams), and whether
    the tournament is over (the title says "final")."""
    tournament = Tournament.objects.select_related("club").get(club=club, pk=tournament_id)
    page = StandingsPage(tournament, through=after)
    return _digest(page.version, tournament.club.name, tournament.finished_at)


def _round_of(club: Club, tournament_id: int, number: int) -> Round:
    return Round.objects.select_related("tournament__club").get(
        tournament__club=club, tournament_id=tournament_id, number=number
    )


def seating_what(round: Round) -> str:
    if round.state == RoundState.DRAFT:
        return _("round %(number)s seating DRAFT") % {"number": round.number}
    return _("round %(number)s seating") % {"number": round.number}


def standings_what(after: int | None) -> str:
    if after is None:
        return _("standings")
    return _("standings after round %(number)s") % {"number": after}


@files.register(SEATING_KIND, label=gettext_lazy("A round's seating (PDF)"), version=round_version)
def seating_file(club: Club, *, tournament_id: int, number: int) -> files.BuiltFile:
    round = _round_of(club, tournament_id, number)
    name = filename(round.tournament, seating_what(round))
    return files.BuiltFile(name, "application/pdf", seating_pdf(round))


@files.register(
    STANDINGS_KIND, label=gettext_lazy("The standings (PDF)"), version=standings_version
)
def standings_file(club: Club, *, tournament_id: int, after: int | None) -> files.BuiltFile:
    tournament = Tournament.objects.select_related("club").get(club=club, pk=tournament_id)
    name = filename(tournament, standings_what(after))
    return files.BuiltFile(name, "application/pdf", standings_pdf(tournament, after))


@files.register(
    PROTOCOLS_KIND, label=gettext_lazy("A round's table protocols (PDF)"), version=round_version
)
def protocols_file(club: Club, *, tournament_id: int, number: int) -> files.BuiltFile:
    """Every table's protocol of a published round, as one file (the worker's way)."""
    round = _round_of(club, tournament_id, number)
    what = _("round %(number)s protocols") % {"number": number}
    return files.BuiltFile(
        filename(round.tournament, what), "application/pdf", protocols_pdf(round)
    )


@files.register(
    TEAMS_KIND, label=gettext_lazy("The team standings (PDF)"), version=standings_version
)
def teams_file(club: Club, *, tournament_id: int) -> files.BuiltFile:
    tournament = Tournament.objects.select_related("club").get(club=club, pk=tournament_id)
    name = filename(tournament, _("teams"))
    return files.BuiltFile(name, "application/pdf", team_standings_pdf(tournament))


def filename(tournament: Tournament, what: str) -> str:
    """A printout's file name: the tournament's, without what a header or a path cannot hold."""
    name = "".join(c if c.isprintable() and c not in "/\\" else " " for c in tournament.name)
    return f"{' '.join(name.split())} - {what}.pdf"


# --- standings ------------------------------------------------------------------------------

TIE_BREAK_COLUMNS = {
    ts.TieBreak.ADJUSTED_WHISTS: lambda line: printed_number(line.adjusted),
    ts.TieBreak.TABLE_WINS: lambda line: str(line.table_wins),
    ts.TieBreak.BEST_ROUND: lambda line: printed_number(line.best_round),
    ts.TieBreak.OPPONENTS_TOTAL: lambda line: printed_number(line.opponents_total),
}


@dataclass(frozen=True)
class StandingRow:
    place: int
    name: str
    team: str
    rounds: tuple[str, ...]  # the round's score; "" where he did not play
    penalty: str
    total: str
    breaks: tuple[str, ...]
    lot: str
    flagged: bool
    finalist: bool | None
    first_outside: bool  # the first line below the final's cut: a rule above it


def confirmed_rounds(tournament: Tournament) -> list[int]:
    return list(
        Round.objects.filter(tournament=tournament, state=RoundState.CONFIRMED)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _teams(tournament: Tournament) -> list[tuple[int, str]]:
    """(player, team) for every entry in a team."""
    entries = Entry.objects.filter(tournament=tournament).exclude(team="")
    return list(entries.values_list("player_id", "team"))


@dataclass(frozen=True)
class Drawn:
    """What a table of standings draws: `lines` of `columns` cells, and `listed` more things
    (the penalties listed under the standings, the members named in the teams' lines), each
    costing about `cells_each` cells. `cells` is what its threshold counts."""

    lines: int
    columns: int
    listed: int = 0
    cells_each: int = 1

    @property
    def cells(self) -> int:
        return self.lines * self.columns + self.listed * self.cells_each


# A penalty in the list under the standings, with the longest reason, costs about as much as
# this many cells of the standings: bench/printouts.py measures 3.2 (penalty_cells: 3.3 ms a
# penalty), the report of issue #22 about 8 on its machine (1,000 penalties took the standings
# of 101 players from 0.70 s to 7.6 s); 6 errs towards preparing. A member's name in his
# team's line costs about one cell (teams_ms_per_cell: 1.07 ms, with the members so counted).
PENALTY_CELLS = 6


def _confirmed_count(tournament: Tournament, after: int | None) -> int:
    rounds = Round.objects.filter(tournament=tournament, state=RoundState.CONFIRMED)
    if after is not None:
        rounds = rounds.filter(number__lte=after)
    return rounds.count()


def standings_size(tournament: Tournament, after: int | None = None) -> Drawn:
    """A line per entry, a column per round counted and per tie-break (with the place, the
    name, the total, and the team, the penalty and the lot where they are printed), and a
    line per penalty (three small queries)."""
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        lines=Count("pk"), in_teams=Count("pk", filter=~Q(team=""))
    )
    penalties = Penalty.objects.filter(tournament=tournament).count()
    columns = (
        3
        + _confirmed_count(tournament, after)
        + len(selectors.tie_breaks(tournament))
        + bool(entries["in_teams"])
        + bool(penalties)
        + tournament.lot
    )
    return Drawn(entries["lines"], columns, listed=penalties, cells_each=PENALTY_CELLS)


def _penalty(line: ts.Line, unit: ts.Unit) -> str:
    taken = sum((Fraction(p.amount) for p in line.penalties if p.unit == unit), Fraction(0))
    return printed_number(-taken) if taken else ""


def _standings_title(tournament: Tournament, rounds: list[int], after: int | None) -> str:
    if after is None and tournament.finished_at is not None:
        return _("Final standings")
    last = after if after is not None else (rounds[-1] if rounds else None)
    if last is None:
        return _("Standings")
    return _("Standings after round %(number)s") % {"number": last}


def standings_context(tournament: Tournament, after: int | None = None) -> dict:
    """The standings after round `after` (None: every confirmed round, the final ones when
    the tournament is over)."""
    read = selectors.results(tournament, through=after)
    table = selectors.standings_from(tournament, read)
    teams = dict(_teams(tournament))
    counted = ts.Unit.POINTS if tournament.scoring == Scoring.PLACES else ts.Unit.WHISTS
    has_penalties = any(line.penalties for line in table.lines)
    rows = []
    previous: bool | None = None
    for line in table.lines:
        rows.append(
            StandingRow(
                place=line.place,
                name=read.names.get(line.player, str(line.player)),
                team=teams.get(line.player, ""),
                rounds=tuple(
                    printed_number(line.rounds[n].score) if n in line.rounds else ""
                    for n in read.rounds
                ),
                penalty=_penalty(line, counted),
                total=printed_number(line.score),
                breaks=tuple(TIE_BREAK_COLUMNS[key](line) for key in table.tie_breaks),
                lot=str(line.lot) if line.lot is not None else "",
                flagged=bool(line.flagged),
                finalist=line.finalist,
                first_outside=previous is True and line.finalist is False,
            )
        )
        previous = line.finalist
    penalties = [
        {
            "name": read.names.get(p.player, str(p.player)),
            "round": p.round,
            "amount": printed_number(p.amount),
            "unit": PenaltyUnit(p.unit).label,
            "reason": p.reason,
        }
        for line in table.lines
        for p in line.penalties
    ]
    title = _standings_title(tournament, read.rounds, after)
    # The place, the name and the total, the team, a column a round, the penalty, the
    # tie-breaks and the lot: what the printed table has.
    columns = (
        3
        + bool(teams)
        + len(read.rounds)
        + has_penalties
        + len(table.tie_breaks)
        + (table.lot_seed is not None)
    )
    longest = max((len(row.name) + len(row.team) for row in rows), default=0)
    return _common(
        tournament,
        title,
        rule=selectors.rule_words(tournament),
        rounds=read.rounds,
        rows=rows,
        tie_breaks=[selectors.TIE_BREAK_LABELS[key] for key in table.tie_breaks],
        lot_seed=table.lot_seed,
        has_teams=bool(teams),
        has_penalties=has_penalties,
        penalties=penalties,
        any_flagged=any(row.flagged for row in rows),
        **layout(columns, longest),
    )


def standings_pdf(tournament: Tournament, after: int | None = None) -> bytes:
    """The standings with a column per round, the rule in words and when they were made."""
    return _render("competition/print/standings.html", standings_context(tournament, after))


# --- teams ------------------------------------------------------------------------------------


def team_standings_size(tournament: Tournament) -> Drawn:
    """A line per team, with a column per round counted (and the place, the team, the
    total and the best round), and the members' names listed in the lines (two small
    queries)."""
    in_teams = Entry.objects.filter(tournament=tournament).exclude(team="")
    counts = in_teams.aggregate(teams=Count("team", distinct=True), members=Count("pk"))
    columns = 4 + _confirmed_count(tournament, None)
    return Drawn(counts["teams"], columns, listed=counts["members"])


def _team_title(tournament: Tournament, rounds: list[int]) -> str:
    if tournament.finished_at is not None:
        return _("Final team standings")
    if not rounds:
        return _("Team standings")
    return _("Team standings after round %(number)s") % {"number": rounds[-1]}


def team_standings_context(tournament: Tournament) -> dict:
    read = selectors.results(tournament)
    lines = selectors.team_lines(tournament, read)
    members: dict[str, list[str]] = {}
    for player, team in _teams(tournament):
        members.setdefault(team, []).append(read.names.get(player, str(player)))
    rows = [
        {
            "place": line.place,
            "team": line.team,
            "members": sorted(members.get(line.team, ()), key=collation_key),
            "rounds": [
                printed_number(line.rounds[n]) if n in line.rounds else "" for n in read.rounds
            ],
            "total": printed_number(line.total),
            "best_round": printed_number(line.best_round),
        }
        for line in lines
    ]
    return _common(
        tournament,
        _team_title(tournament, read.rounds),
        rule=selectors.rule_words(tournament),
        rounds=read.rounds,
        rows=rows,
        # The place, the team, the total and the best round, and a column a round; the
        # team's name is its longest text (the members below it wrap).
        **layout(4 + len(read.rounds), max((len(row["team"]) for row in rows), default=0)),
    )


def team_standings_pdf(tournament: Tournament) -> bytes:
    """The teams ranked by the sum of their best members' round scores."""
    return _render("competition/print/teams.html", team_standings_context(tournament))
