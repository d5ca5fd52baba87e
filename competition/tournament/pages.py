"""What the organiser's tournament pages show, read through the tournament selectors.

- the club's list: each tournament with its rounds played and planned, and its state;
- a draft's review: its tables and byes with the players' names, what keeps it from going
  out (competition.tournament.services.draft_problems), what the organiser should look at
  (competition.lib.seating.warnings) and the repeat-meetings matrix over the rounds played and
  this draft (the pairs that met twice or more, for a field too large for a matrix);
- a published round's tables: the evening page's live tables with the first dealer.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Club, Player
from club.names import collation_key
from competition.lib import seating
from competition.models import EntryStatus, Penalty, Round, RoundState, RoundTable, Tournament
from competition.tournament import selectors
from competition.tournament.messages import bye_reason_text
from competition.tournament.services import draft_problems
from scoring import selectors as scoring_selectors
from scoring.clock import Clock, clock_of
from scoring.models import Deal, DealCheck

#: Up to this many players the draft page shows the whole repeat-meetings matrix.
MATRIX_MAX = 16
#: The home page's standings show this many lines (the standings page has them all).
HOME_STANDINGS = 10


# --- the list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentRow:
    tournament: Tournament
    played: int
    planned: int
    state: str


def tournament_rows(club: Club) -> list[TournamentRow]:
    """The club's tournaments, newest first, with their state in words (one query)."""
    rows = selectors.tournaments_for_club(club).annotate(
        confirmed=Count("rounds", filter=Q(rounds__state=RoundState.CONFIRMED)),
        out=Max(
            "rounds__number",
            filter=Q(rounds__state__in=[RoundState.PUBLISHED, RoundState.PLAYING]),
        ),
        drafting=Max("rounds__number", filter=Q(rounds__state=RoundState.DRAFT)),
    )
    return [
        TournamentRow(t, t.confirmed, t.round_count, _state(t, t.confirmed, t.out, t.drafting))
        for t in rows
    ]


def _state(t: Tournament, confirmed: int, out: int | None, drafting: int | None) -> str:
    if t.finished_at is not None:
        return _("finished")
    if out is not None:
        return _("round %(number)s is being played") % {"number": out}
    if drafting is not None:
        return _("round %(number)s is being seated") % {"number": drafting}
    if not confirmed:
        return _("entries open")
    return _("after round %(number)s") % {"number": confirmed}


def tournament_state(tournament: Tournament, rounds: list[Round]) -> str:
    out = [r.number for r in rounds if r.state in (RoundState.PUBLISHED, RoundState.PLAYING)]
    drafting = [r.number for r in rounds if r.state == RoundState.DRAFT]
    confirmed = sum(1 for r in rounds if r.state == RoundState.CONFIRMED)
    return _state(
        tournament, confirmed, max(out) if out else None, max(drafting) if drafting else None
    )


# --- a draft --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    player: int
    name: str
    deals_first: bool


@dataclass(frozen=True)
class DraftTable:
    number: int
    seats: list[Seat]
    locked: bool


@dataclass(frozen=True)
class Repeat:
    first: str
    second: str
    times: int


@dataclass(frozen=True)
class DraftReview:
    tables: list[DraftTable]
    byes: list[tuple[str, str]]  # name, why
    problems: list[str]
    warnings: list[str]
    players: list[tuple[int, str]]  # everyone in the draft, by name (the swap's choices)
    matrix_names: list[str]  # empty: the field is too large, see `repeats`
    matrix: list[tuple[str, list[int]]]  # a row a player: his name, his meetings
    repeats: list[Repeat]  # the pairs that met twice or more, this draft included
    apart: list[tuple[str, str]]  # the pairs kept apart, by name


def draft_review(round: Round) -> DraftReview:
    tournament = round.tournament
    names = selectors.names(tournament)
    drawn = selectors.seating_of(round)
    locked = selectors.locked_tables(round)
    past = selectors.history(tournament, round.number)

    def name(player: int) -> str:
        return names.get(player, str(player))

    tables = [
        DraftTable(
            table.number,
            [Seat(p, name(p), p == table.first_dealer) for p in table.seats],
            table.number in locked,
        )
        for table in drawn.tables
    ]
    byes = [(name(bye.player), bye_reason_text(bye.reason)) for bye in drawn.byes]
    entrants = selectors.entrants(tournament, round.number)
    problems = seating.warnings(
        drawn, history=past, entrants=entrants, apart=selectors.apart_of(tournament)
    )
    if tournament.team_best:  # teams of 3 to 5: a team of another size is the organiser's call
        problems += seating.team_problems(entrants)
    warnings = selectors.problem_texts(problems, names)
    everyone = list(dict.fromkeys([*drawn.players, *(b.player for b in drawn.byes)]))
    players = sorted(((p, name(p)) for p in everyone), key=lambda item: collation_key(item[1]))
    rounds = [*past, drawn]
    meetings = seating.meetings(rounds)
    repeats = sorted(
        (Repeat(name(a), name(b), times) for (a, b), times in meetings.items() if times > 1),
        key=lambda r: (-r.times, collation_key(r.first), collation_key(r.second)),
    )
    matrix_names: list[str] = []
    matrix: list[tuple[str, list[int]]] = []
    if len(players) <= MATRIX_MAX:
        ids = [p for p, _name in players]
        matrix_names = [n for _p, n in players]
        matrix = list(zip(matrix_names, seating.meeting_matrix(ids, rounds), strict=True))
    return DraftReview(
        tables=tables,
        byes=byes,
        problems=draft_problems(round),
        warnings=warnings,
        players=players,
        matrix_names=matrix_names,
        matrix=matrix,
        repeats=repeats,
        apart=selectors.apart_names(tournament, names),
    )


# --- a schedule published in advance ---------------------------------------------------------


@dataclass(frozen=True)
class ScheduleSummary:
    """How good the schedule published in advance is, over its rounds played and planned."""

    played: int  # rounds published
    planned: int  # rounds still to come
    report: seating.Report


def schedule_summary(tournament: Tournament) -> ScheduleSummary | None:
    """The schedule's figures (competition.lib.seating.report) for the players entered now:
    repeated meetings against the least possible, and how the tables of 3 and the first deals
    went round. None: not a schedule, or nothing left to plan (selectors.planned_rounds,
    cached: a page view does not search again)."""
    planned = selectors.planned_rounds(tournament)
    if not planned:
        return None
    first = planned[0].round
    past = selectors.history(tournament, first)
    players = [p.id for p in selectors.entrants(tournament, first)]
    return ScheduleSummary(len(past), len(planned), seating.report([*past, *planned], players))


METHOD_LABELS = {
    seating.Method.RATING: gettext_lazy("at random, spread by rating"),
    seating.Method.SWISS: gettext_lazy("Swiss: players close in the standings sit together"),
    seating.Method.MIXING: gettext_lazy("maximum mixing"),
}


def method_label(round: Round) -> str:
    """How a round was drawn, in words."""
    try:
        return str(METHOD_LABELS[seating.Method(round.method)])
    except ValueError:
        return round.method


# --- a published round ----------------------------------------------------------------------


@dataclass(frozen=True)
class LiveTable:
    """One table of a published round: the evening page's live table, and who deals first."""

    live: scoring_selectors.Table
    number: int
    first_dealer: str
    running: bool
    deals: int
    deal_cap: int | None


def live_tables(round: Round) -> list[LiveTable]:
    """The round's tables with their pools as the evening page shows them (its cached
    sheets: a few queries whatever the number of tables)."""
    if round.evening_id is None:
        return []
    tables = scoring_selectors.evening_tables(round.evening)
    return [
        LiveTable(
            live=table,
            number=table.pulka.table,
            first_dealer=table.names[table.pulka.first_dealer],
            running=table.pulka.is_running,
            deals=table.deals,
            deal_cap=table.pulka.deal_cap,
        )
        for table in tables
    ]


def live_token(round: Round, now: datetime.datetime | None = None) -> str:
    """What the round page's poll compares: the round's state and clock and its tables'
    versions; while it is played, the minute too (the time since each table's last entry
    grows with it, which no version says)."""
    clock = f"{round.ends_at and round.ends_at.timestamp()}-{round.paused_left}"
    if round.evening_id is None:
        return f"{round.state}-{clock}"
    token = f"{round.state}-{clock}-{scoring_selectors.evening_live_token(round.evening)}"
    if round.state == RoundState.PLAYING and now is not None:
        token += f"-{int(now.timestamp()) // 60}"
    return token


def round_clock(round: Round, now: datetime.datetime) -> Clock | None:
    """The round's clock as a whole (None: untimed, or not started)."""
    if round.state != RoundState.PLAYING:
        return None
    return clock_of(round.ends_at, round.paused_left, now)


# --- a round's tables at a glance -------------------------------------------------------------

#: A running table with no entry for this long is flagged on the organiser's round page.
SILENT_AFTER = datetime.timedelta(minutes=15)


@dataclass(frozen=True)
class FlaggedDeal:
    number: int
    disputed: bool
    reason: str  # why it is disputed ("" while it awaits confirmation)


@dataclass(frozen=True)
class TableStatus:
    """One table of a published round as the organiser watches it."""

    number: int
    pulka_id: int
    pulka_url: str
    running: bool
    token: str | None  # its link's token (None: no link)
    clock: Clock | None
    deals: int
    awaiting: list[FlaggedDeal]
    disputed: list[FlaggedDeal]
    last_entry: datetime.datetime | None
    silent_for: datetime.timedelta | None  # since the last entry (or the start): running only
    silent: bool  # running, and silent_for is past SILENT_AFTER


def round_table_status(round: Round, now: datetime.datetime) -> list[TableStatus]:
    """Each table's deals, those awaiting confirmation and disputed, its clock and the time
    since its last entry: three queries whatever the number of tables."""
    if round.evening_id is None:
        return []
    tables = list(
        RoundTable.objects.filter(round=round)
        .select_related("pulka__evening__club")
        .annotate(
            entered=Count("pulka__deals"),
            last_entry=Max("pulka__deals__entered_at"),
        )
        .order_by("number")
    )
    flagged: dict[int, list[Deal]] = {}
    unchecked = Deal.objects.filter(
        pulka__evening_id=round.evening_id,
        confirmation__in=[DealCheck.AWAITING, DealCheck.DISPUTED],
    ).order_by("pulka_id", "number")
    for deal in unchecked.only("pulka_id", "number", "confirmation", "dispute_reason"):
        flagged.setdefault(deal.pulka_id, []).append(deal)
    playing = round.state == RoundState.PLAYING
    out = []
    for table in tables:
        pulka = table.pulka
        deals = [
            FlaggedDeal(d.number, d.confirmation == DealCheck.DISPUTED, d.dispute_reason)
            for d in flagged.get(pulka.pk, ())
        ]
        since = table.last_entry or round.started_at
        silent_for = now - since if pulka.is_running and playing and since else None
        out.append(
            TableStatus(
                number=table.number,
                pulka_id=pulka.pk,
                pulka_url=pulka.get_absolute_url(),
                running=pulka.is_running,
                token=pulka.table_token if pulka.is_running else None,
                clock=clock_of(pulka.ends_at, pulka.paused_left, now) if pulka.is_running else None,
                deals=table.entered,
                awaiting=[d for d in deals if not d.disputed],
                disputed=[d for d in deals if d.disputed],
                last_entry=table.last_entry,
                silent_for=silent_for,
                silent=silent_for is not None and silent_for > SILENT_AFTER,
            )
        )
    return out


# --- the home's standings -------------------------------------------------------------------


@dataclass(frozen=True)
class TopLine:
    place: int
    name: str
    score: Fraction
    rounds: int


def top_standings(tournament: Tournament, limit: int = HOME_STANDINGS) -> tuple[list[TopLine], int]:
    """The first lines of the standings over the confirmed rounds, and how many lines in all."""
    read = selectors.results(tournament)
    table = selectors.standings_from(tournament, read)
    lines = [
        TopLine(
            line.place, read.names.get(line.player, str(line.player)), line.score, len(line.rounds)
        )
        for line in table.lines[:limit]
    ]
    return lines, len(table.lines)


# --- entries and penalties ------------------------------------------------------------------


def entry_counts(tournament: Tournament) -> dict[str, int]:
    """How many players are entered, playing and withdrawn (one query)."""
    counts = tournament.entries.aggregate(
        total=Count("pk"), active=Count("pk", filter=Q(status=EntryStatus.ACTIVE))
    )
    return {**counts, "withdrawn": counts["total"] - counts["active"]}


def roster_names(tournament: Tournament) -> list[str]:
    """The club's active roster players not entered yet (the entry form's suggestions)."""
    return [name for _pk, name in roster_to_enter(tournament)]


def roster_to_enter(tournament: Tournament) -> list[tuple[int, str]]:
    """The id and name of each active roster player not entered yet, alphabetically: whom
    the entry form offers to pick."""
    entered = tournament.entries.values("player_id")
    return list(
        Player.objects.filter(club=tournament.club, is_active=True)
        .exclude(pk__in=entered)
        .order_by("sort_key", "pk")
        .values_list("pk", "name")
    )


def penalty_history(tournament: Tournament) -> list[Penalty]:
    """Every penalty of the tournament, the latest first, with the player and who gave it."""
    return list(
        Penalty.objects.filter(tournament=tournament)
        .select_related("player", "created_by")
        .order_by("-created_at", "-pk")
    )
