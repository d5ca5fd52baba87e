"""Seating a tournament's round: who sits at which table, in which seat, and who deals first.

Pure Python (standard library only), seeded: the same players, history, standings and seed
give the same seating, so every seating can be reproduced and audited from its printed seed.

Table sizes (`table_plan`). Tables of 4 (the dealer sits out each deal) and tables of 3 for
the remainder: with N players, r tables of 3 where r (0 to 3) is the number of players
needed to reach a multiple of 4, and (N - 3r) / 4 tables of 4. Every N >= 3 fits except 5:
then four play and one sits out (a bye), in turn, with the reason code
``bye_five_players`` for the page.

Methods (`Method`):

- ``RATING``, round 1: random, stratified by rating. The players, strongest first, are cut
  into strata of one player per table; each stratum is dealt to the tables in a seeded
  random order, so every table gets one player of each stratum and the strong are spread.
- ``SWISS``: players close in the standings sit together (table 1 holds the leaders).
- ``MIXING``: maximum mixing, everyone as far as possible meets someone new.

A schedule published in advance for all rounds (`schedule`) is round 1 by rating and then
mixing rounds, each drawn against the rounds before it.

Whatever the method, the tables are improved by swapping players between tables under a
cost (`Weights`), always minimised:

- a pair that already met costs ``repeat`` x (times met)^2, plus ``last_round`` if it met
  in the last round;
- teammates at one table cost ``teammates``, players of one club ``same_club``: large
  enough that they sit together only when nothing else is possible;
- a player at a table of 3 costs ``three`` x (times he already sat at one)^2;
- Swiss only: each pair at a table costs ``swiss`` x the distance of their places in the
  standings;
- round 1 (by rating) only: two players of one stratum at a table cost ``stratum``, less
  than teammates or clubmates and more than anything else: the strong stay spread, and a
  swap across strata is made only when it parts teammates (or players of one club).

The search is a seeded iterated local search: the best swap for each player with a cost of
his own (a repeat, a teammate, a table of 3 again), then, while some cost remains, a random
swap of such a player followed by the descent again, keeping the best seating seen, for a
fixed number of tries (`effort`): no clock, so the result depends on the inputs only.
No library is needed: the cost is a sum over pairs, and a swap changes at most eight terms.

Seats: at each table the order of the seats is the one that least repeats each player's
past seats, and the first dealer is the player who dealt first least often (ties drawn by
the seed).

A draft is edited with `swap` (two players exchange seats) and `redraw` (keep the locked
tables, draw the rest with a new seed); `check` lists what makes it unplayable (someone
missing or seated twice, a withdrawn player, wrong table sizes) and `warnings` what the
organiser should look at (pairs meeting again, a table of 3 again, teammates together);
`meetings` and `meeting_matrix` count who met whom. Late entries, withdrawals and
substitutes need nothing special: every function takes the players active now.

>>> players = [Entrant(id, rating=2000 - 10 * id) for id in range(1, 11)]
>>> table_plan(10)
TablePlan(sizes=(4, 3, 3), byes=0, reason=None)
>>> first = seat_round(players, round=1, seed=4242, method=Method.RATING)
>>> [table.size for table in first.tables], first.seed
([4, 3, 3], 4242)
>>> first == seat_round(players, round=1, seed=4242, method=Method.RATING)
True
>>> second = seat_round(players, round=2, seed=77, history=[first])
>>> check(second, active=range(1, 11))
[]
>>> repeated_meetings([first, second]) <= 2
True
"""

from __future__ import annotations

import enum
import functools
import itertools
import math
import random
import secrets
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace

from . import designs as _designs
from . import search as _search
from .problems import Problem, TournamentError

__all__ = [
    "BYE_FIVE_PLAYERS",
    "DEFAULT_EFFORT",
    "Bye",
    "Entrant",
    "Method",
    "Seating",
    "Report",
    "Table",
    "TablePlan",
    "Tables",
    "Weights",
    "check",
    "meeting_matrix",
    "meetings",
    "new_seed",
    "redraw",
    "repeated_meetings",
    "report",
    "round_seed",
    "schedule",
    "seat_round",
    "swap",
    "table_plan",
    "team_problems",
    "threes",
    "warnings",
]

BYE_FIVE_PLAYERS = "bye_five_players"
#: The whole-schedule search's steps for a schedule published in advance (about 100,000 a
#: second on the bench machine, so at most about 4 s); it stops sooner at the lower bound.
SCHEDULE_STEPS = 400_000
#: Random swaps tried after the first descent while some cost remains (see the docstring).
DEFAULT_EFFORT = 400


class Tables(enum.StrEnum):
    """Which tables a round has (`table_plan`)."""

    MIXED = "mixed"  # tables of 4, and up to three tables of 3
    THREES = "3"  # tables of 3 only
    FOURS = "4"  # tables of 4 only


class Method(enum.StrEnum):
    """How a round's tables are drawn."""

    RATING = "rating"
    SWISS = "swiss"
    MIXING = "mixing"


@dataclass(frozen=True)
class Entrant:
    """A player active in this round. `team` and `club` are any labels (None: none)."""

    id: int
    rating: float = 0.0
    team: str | None = None
    club: str | None = None


@dataclass(frozen=True)
class Table:
    """One table: the players clockwise from seat 1, and who deals the first deal."""

    number: int
    seats: tuple[int, ...]
    first_dealer: int

    @property
    def size(self) -> int:
        return len(self.seats)

    def seat_of(self, player: int) -> int:
        """The seat (1 to 4) of a player at this table."""
        return self.seats.index(player) + 1


@dataclass(frozen=True)
class Bye:
    """A player who sits out this round, and why (a code of competition.lib.problems)."""

    player: int
    reason: str


@dataclass(frozen=True)
class Seating:
    """A round's seating: reproducible from its players, the history and `seed`."""

    round: int
    seed: int
    method: Method
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...] = ()

    def table_of(self, player: int) -> Table | None:
        """The table a player sits at (None: he sits out, or is not in the round)."""
        for table in self.tables:
            if player in table.seats:
                return table
        return None

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone seated, table by table, seat by seat."""
        return tuple(player for table in self.tables for player in table.seats)


@dataclass(frozen=True)
class TablePlan:
    """The table sizes for a number of players (4s first), and how many sit out."""

    sizes: tuple[int, ...]
    byes: int = 0
    reason: str | None = None


@dataclass(frozen=True)
class Weights:
    """The costs the search minimises (see the module docstring)."""

    repeat: int = 1000
    last_round: int = 1000
    teammates: int = 1_000_000
    same_club: int = 100_000
    three: int = 400
    swiss: int = 1
    stratum: int = 10_000


def table_plan(players: int, tables: Tables = Tables.MIXED) -> TablePlan:
    """How many tables of 4 and of 3 seat `players` (the module docstring). Tables of one
    size only: as many as fit, and the rest sit out in turn.

    >>> table_plan(12), table_plan(7).sizes, table_plan(9).sizes
    (TablePlan(sizes=(4, 4, 4), byes=0, reason=None), (4, 3), (3, 3, 3))
    >>> table_plan(5)
    TablePlan(sizes=(4,), byes=1, reason='bye_five_players')
    >>> table_plan(16, Tables.THREES)
    TablePlan(sizes=(3, 3, 3, 3, 3), byes=1, reason='bye_threes')
    """
    if tables != Tables.MIXED:
        size = 3 if tables == Tables.THREES else 4
        if players < size:
            code = "threes_too_few" if size == 3 else "fours_too_few"
            raise TournamentError(code, players=players)
        rest = players % size
        reason = ("bye_threes" if size == 3 else "bye_fours") if rest else None
        return TablePlan((size,) * (players // size), rest, reason)
    if players < 3:
        raise TournamentError("too_few_players", players=players)
    if players == 5:
        return TablePlan((4,), 1, BYE_FIVE_PLAYERS)
    threes = (4 - players % 4) % 4
    return TablePlan((4,) * ((players - 3 * threes) // 4) + (3,) * threes)


def new_seed() -> int:
    """A fresh six-digit seed, short enough to print on a protocol and type back in."""
    return 100_000 + secrets.randbelow(900_000)


def round_seed(seed: int, round: int) -> int:
    """The seed of one round of a schedule drawn from one seed (six digits).

    >>> round_seed(123456, 2) == round_seed(123456, 2) != round_seed(123456, 3)
    True
    """
    return random.Random(f"{seed}/{round}").randrange(100_000, 1_000_000)


# --- the history ------------------------------------------------------------------------


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings(rounds: Iterable[Seating]) -> Counter[tuple[int, int]]:
    """How many times each pair (smaller id first) sat at one table.

    >>> one = Seating(1, 1, Method.MIXING, (Table(1, (1, 2, 3), 1), Table(2, (4, 5, 6), 4)))
    >>> two = Seating(2, 2, Method.MIXING, (Table(1, (1, 2, 4), 1), Table(2, (3, 5, 6), 3)))
    >>> meetings([one, two])[(1, 2)], meetings([one, two])[(5, 6)], meetings([one, two])[(1, 6)]
    (2, 2, 0)
    """
    counts: Counter[tuple[int, int]] = Counter()
    for seating in rounds:
        for table in seating.tables:
            for a, b in itertools.combinations(table.seats, 2):
                counts[_pair(a, b)] += 1
    return counts


def repeated_meetings(rounds: Iterable[Seating]) -> int:
    """Meetings beyond the first, over all pairs: a pair that met 3 times counts 2."""
    return sum(times - 1 for times in meetings(rounds).values() if times > 1)


def meeting_matrix(players: Sequence[int], rounds: Iterable[Seating]) -> list[list[int]]:
    """The repeat-meetings matrix of the draft page: row i, column j = times i met j.

    >>> one = Seating(1, 1, Method.MIXING, (Table(1, (1, 2, 3), 1),))
    >>> meeting_matrix([3, 1, 2], [one, one])
    [[0, 2, 2], [2, 0, 2], [2, 2, 0]]
    """
    counts = meetings(rounds)
    return [[counts[_pair(a, b)] if a != b else 0 for b in players] for a in players]


def threes(rounds: Iterable[Seating]) -> Counter[int]:
    """How many times each player sat at a table of 3."""
    return Counter(p for seating in rounds for t in seating.tables if t.size == 3 for p in t.seats)


@dataclass
class _Past:
    """What the rounds before tell the search."""

    met: Counter[tuple[int, int]] = field(default_factory=Counter)
    last: set[tuple[int, int]] = field(default_factory=set)
    threes: Counter[int] = field(default_factory=Counter)
    seats: dict[int, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    dealers: Counter[int] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    last_bye: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, history: Sequence[Seating]) -> _Past:
        past = cls()
        ordered = sorted(history, key=lambda seating: seating.round)
        past.met = meetings(ordered)
        past.threes = threes(ordered)
        for seating in ordered:
            for table in seating.tables:
                for seat, player in enumerate(table.seats, start=1):
                    past.seats[player][seat] += 1
                past.dealers[table.first_dealer] += 1
            for bye in seating.byes:
                past.byes[bye.player] += 1
                past.last_bye[bye.player] = seating.round
        if ordered:
            past.last = set(meetings(ordered[-1:]))
        return past


# --- drawing a round --------------------------------------------------------------------


def seat_round(
    entrants: Sequence[Entrant],
    *,
    round: int,
    seed: int,
    method: Method = Method.MIXING,
    history: Sequence[Seating] = (),
    standings: Sequence[int] = (),
    locked: Sequence[Table] = (),
    weights: Weights = Weights(),
    effort: int = DEFAULT_EFFORT,
    tables: Tables = Tables.MIXED,
    apart: Collection[tuple[int, int]] = (),
) -> Seating:
    """Draw one round for the players active now.

    `history`: the rounds played before (as published, after any swaps). `standings`: the
    player ids best first, for Swiss (players missing from it, e.g. late entries, go after
    them by rating). `locked`: tables kept exactly as they are (same number, seats, first
    dealer); the rest is drawn around them. `apart`: pairs of players kept apart, as far
    as possible, like teammates.

    >>> players = [Entrant(id, team="AB"[id % 2] if id < 7 else None) for id in range(1, 13)]
    >>> seating = seat_round(players, round=1, seed=9, method=Method.RATING)
    >>> [table.size for table in seating.tables]
    [4, 4, 4]
    >>> [[p for p in t.seats if p < 7 and p % 2] for t in seating.tables]  # team B apart
    [[1], [3], [5]]
    >>> [[p for p in t.seats if p < 7 and not p % 2] for t in seating.tables]  # and team A
    [[4], [6], [2]]
    """
    return _seat_round(
        entrants,
        round=round,
        seed=seed,
        method=method,
        history=history,
        standings=standings,
        locked=locked,
        weights=weights,
        effort=effort,
        tables=tables,
        apart=apart,
    )


def _seat_round(
    entrants: Sequence[Entrant],
    *,
    round: int,
    seed: int,
    method: Method,
    history: Sequence[Seating],
    standings: Sequence[int],
    locked: Sequence[Table],
    weights: Weights,
    effort: int,
    tables: Tables,
    apart: Collection[tuple[int, int]],
    polish: bool = True,
) -> Seating:
    """`seat_round`; `polish`: mend a repeat left in the round with the whole-history search
    (`schedule` leaves that to its search over all the rounds)."""
    ids = [entrant.id for entrant in entrants]
    for player, times in Counter(ids).items():
        if times > 1:
            raise TournamentError("entrant_twice", player=player)
    by_id = {entrant.id: entrant for entrant in entrants}
    plan = table_plan(len(ids), tables)
    rng = random.Random(seed)
    past = _Past.of(history)

    locked_players: set[int] = set()
    for table in locked:
        for player in table.seats:
            if player not in by_id:
                raise TournamentError("locked_player_not_active", player=player, table=table.number)
            if player in locked_players:
                raise TournamentError("locked_player_twice", player=player)
            locked_players.add(player)
    sizes = list(plan.sizes)
    for table in locked:
        if table.size not in sizes:
            raise TournamentError(
                "locked_sizes", locked=len(locked_players), sizes=_sizes_text(plan.sizes)
            )
        sizes.remove(table.size)

    free = sorted(player for player in by_id if player not in locked_players)
    rank = _ranks(free, by_id, standings)
    byes = _byes(free, plan.byes, past, rank, method, rng)
    pool = [player for player in free if player not in byes]
    if len(pool) != sum(sizes):  # the locked tables took the seats of the byes
        raise TournamentError(
            "locked_sizes", locked=len(locked_players), sizes=_sizes_text(plan.sizes)
        )

    search = _Search(pool, sizes, by_id, past, rank, method, weights, rng, apart)
    groups = search.run(effort)
    if polish and method != Method.RATING:
        groups = _polish(groups, search, past, rng)

    if method == Method.SWISS:  # table 1 holds the leaders
        groups.sort(key=lambda group: sum(rank[p] for p in group) / len(group))
    taken = {table.number for table in locked}
    numbers = iter(n for n in itertools.count(1) if n not in taken)
    drawn = [_seat_table(next(numbers), group, past, rng) for group in groups]
    tables = tuple(sorted([*locked, *drawn], key=lambda table: table.number))
    reason = plan.reason or ""
    return Seating(round, seed, method, tables, tuple(Bye(p, reason) for p in byes))


def schedule(
    entrants: Sequence[Entrant],
    *,
    rounds: int,
    seed: int,
    history: Sequence[Seating] = (),
    weights: Weights = Weights(),
    effort: int = DEFAULT_EFFORT,
    tables: Tables = Tables.MIXED,
    apart: Collection[tuple[int, int]] = (),
    steps: int = SCHEDULE_STEPS,
) -> tuple[Seating, ...]:
    """The seating of `rounds` rounds published in advance, seen as one whole: round 1 by
    rating (when nothing was played yet), then the rest of a known design where one fits
    (`competition.lib.designs`, its players matched to round 1's tables), else drawn by
    mixing round after round; then the whole-schedule search (`competition.lib.search`)
    lowers the repeats, the pairs that should not sit together and the tables of 3 again,
    until it reaches the lower bound or its `steps`. Round k has the seed
    `round_seed(seed, k)`. The played rounds (`history`) stay as they are: while they are
    the schedule's own first rounds, the rest is the rest of the same schedule; after a
    late entry, a withdrawal or a swap, the rest is drawn again against them.

    >>> plan = schedule([Entrant(id) for id in range(1, 25)], rounds=5, seed=31)
    >>> [s.round for s in plan], [s.method.value for s in plan][:2], repeated_meetings(plan)
    ([1, 2, 3, 4, 5], ['rating', 'mixing'], 0)
    >>> repeated_meetings(schedule([Entrant(id) for id in range(1, 17)], rounds=5, seed=1))
    0
    """
    entrants = tuple(entrants)
    pairs = frozenset(_pair_of(pair) for pair in apart)
    ordered = tuple(sorted(history, key=lambda seating: seating.round))
    played = len(ordered)
    if ordered:
        whole = _plan(entrants, played + rounds, seed, (), weights, effort, tables, pairs, steps)
        if all(
            mine.tables == theirs.tables and mine.byes == theirs.byes
            for mine, theirs in zip(whole, ordered, strict=False)
        ):
            return whole[played:]
    return _plan(entrants, rounds, seed, ordered, weights, effort, tables, pairs, steps)


@functools.lru_cache(maxsize=16)
def _plan(
    entrants: tuple[Entrant, ...],
    rounds: int,
    seed: int,
    history: tuple[Seating, ...],
    weights: Weights,
    effort: int,
    tables: Tables,
    apart: frozenset[tuple[int, int]],
    steps: int,
) -> tuple[Seating, ...]:
    """`schedule` for its history (a pure function of its arguments, so kept for the pages
    that show the same plan again)."""
    by_id = {entrant.id: entrant for entrant in entrants}
    if len(by_id) != len(entrants):
        player = next(p for p, n in Counter(e.id for e in entrants).items() if n > 1)
        raise TournamentError("entrant_twice", player=player)
    plan = table_plan(len(by_id), tables)
    first = max((seating.round for seating in history), default=0) + 1
    numbers = list(range(first, first + rounds))
    options = {"weights": weights, "effort": effort, "tables": tables, "apart": apart}

    drawn: list[Seating] = []
    if first == 1 and rounds:
        drawn.append(
            seat_round(entrants, round=1, seed=round_seed(seed, 1), method=Method.RATING, **options)
        )
        if not plan.byes and rounds > 1:
            drawn += _designed(entrants, drawn[0], rounds, plan, weights, apart, seed)
    while len(drawn) < rounds:
        number = numbers[len(drawn)]
        drawn.append(
            _seat_round(
                entrants,
                round=number,
                seed=round_seed(seed, number),
                method=Method.RATING if number == 1 else Method.MIXING,
                history=[*history, *drawn],
                standings=(),
                locked=(),
                polish=False,
                **{**options, "effort": 0},  # a first draft: the whole search follows
            )
        )
    groups = _improved(entrants, drawn, history, weights, apart, steps, seed, fixed=first == 1)
    result: list[Seating] = []
    for seating, tables_now in zip(drawn, groups, strict=True):
        if seating.method == Method.RATING:
            result.append(seating)
            continue
        past = _Past.of([*history, *result])
        rng = random.Random(seating.seed)
        ordered = sorted(tables_now, key=len, reverse=True)  # tables of 4 first
        seated = tuple(
            _seat_table(number, group, past, rng) for number, group in enumerate(ordered, 1)
        )
        result.append(replace(seating, tables=seated))
    return tuple(result)


def _designed(
    entrants: Sequence[Entrant],
    first: Seating,
    rounds: int,
    plan: TablePlan,
    weights: Weights,
    apart: Collection[tuple[int, int]],
    seed: int,
) -> list[Seating]:
    """Rounds 2 .. `rounds` of the best known design that fits (`competition.lib.designs`):
    its first round's tables matched to `first`'s, and within them its points given to the
    players so that teammates, clubmates and the pairs kept apart meet as little as the
    design allows. Fewer rounds when the design has fewer; none when none fits."""
    n, sizes = len(entrants), plan.sizes
    threes = sizes.count(3)
    if threes == len(sizes):
        candidates = [(d, 0) for d in _designs.designs(n, 3)]
    else:
        candidates = [(d, threes) for d in _designs.designs(n + threes, 4)]
    best: tuple[tuple[tuple[int, ...], ...], ...] = ()
    for design, gone in candidates:
        kept, dropped = (), ()
        for usable in range(min(rounds, len(design.rounds)), len(best), -1):
            kept, dropped = _designs.without(design, usable, gone)
            if kept:
                break
        if len(kept) > len(best):
            left = set(dropped)
            best = tuple(
                tuple(tuple(p for p in table if p not in left) for table in r) for r in kept
            )
        if len(best) == rounds:
            break
    if len(best) < 2:
        return []
    # The design's first round onto `first`: tables of one size in order, seat by seat.
    image: dict[int, int] = {}
    mine = sorted(first.tables, key=lambda table: -table.size)
    theirs = sorted(best[0], key=lambda table: -len(table))
    for table, points in zip(mine, theirs, strict=True):
        image.update(zip(points, table.seats, strict=True))
    by_id = {entrant.id: entrant for entrant in entrants}
    ids = sorted(by_id)
    index = {player: i for i, player in enumerate(ids)}
    cost = _pair_costs(ids, by_id, weights, apart)
    if any(any(row) for row in cost):
        image = _relabelled(image, theirs, best[1:], cost, index, first.seed)
    return [
        Seating(
            number,
            round_seed(seed, number),
            Method.MIXING,
            tuple(
                Table(t, tuple(image[p] for p in points), image[points[0]])
                for t, points in enumerate(r, 1)
            ),
        )
        for number, r in enumerate(best[1:], start=2)
    ]


def _relabelled(
    image: dict[int, int],
    blocks: Sequence[Sequence[int]],
    later: Sequence[Sequence[Sequence[int]]],
    cost: list[list[int]],
    index: dict[int, int],
    seed: int,
) -> dict[int, int]:
    """`image` with players exchanged within their round-1 tables (which keeps round 1) while
    that lowers what the later rounds' pairs cost (`_pair_costs`): a seeded descent."""
    rng = random.Random(seed)
    together: dict[int, list[int]] = defaultdict(list)  # point -> its tablemates, all rounds
    for r in later:
        for table in r:
            for p in table:
                together[p].extend(q for q in table if q != p)

    def own(point: int, player: int, skip: int) -> int:
        row = cost[index[player]]
        return sum(row[index[image[q]]] for q in together[point] if q != skip)

    for _ in range(20):
        improved = False
        for block in blocks:
            for a, b in itertools.combinations(block, 2):
                pa, pb = image[a], image[b]
                now = own(a, pa, b) + own(b, pb, a)
                then = own(a, pb, b) + own(b, pa, a)
                if then < now or (then == now and then and rng.random() < 0.1):
                    image[a], image[b] = pb, pa
                    improved = improved or then < now
        if not improved:
            break
    return image


def _improved(
    entrants: Sequence[Entrant],
    drawn: Sequence[Seating],
    history: Sequence[Seating],
    weights: Weights,
    apart: Collection[tuple[int, int]],
    steps: int,
    seed: int,
    *,
    fixed: bool,
) -> list[list[list[int]]]:
    """The tables of each drawn round after the whole-schedule search (ids); round 1 stays
    when `fixed` (it was drawn by rating; any schedule can be relabelled to start with it)."""
    by_id = {entrant.id: entrant for entrant in entrants}
    ids = sorted(by_id)
    index = {player: i for i, player in enumerate(ids)}
    n = len(ids)
    past = _Past.of(history)
    met = _met_matrix(past, index)
    rounds = [[[index[p] for p in t.seats] for t in seating.tables] for seating in drawn]
    free = list(range(1 if fixed else 0, len(rounds)))
    groups = [[list(t.seats) for t in seating.tables] for seating in drawn]
    if not free:
        return groups
    state = _search.Schedule(
        n,
        rounds,
        free=free,
        met=met,
        pair=_pair_costs(ids, by_id, weights, apart),
        threes=[past.threes[p] for p in ids],
        rng=random.Random(seed),
    )
    unmet = n * (n - 1) // 2 - sum(1 for a in range(n) for b in range(a) if met[a][b])
    meetings = sum(len(t) * (len(t) - 1) // 2 for r in rounds for t in r)
    already = sum(max(0, times - 1) for times in past.met.values())
    target = _search.REPEAT * (already + max(0, meetings - unmet))
    target += _search.THREE * _fewest_threes(rounds, past, ids)
    found = state.run(steps, target)
    return [[[ids[i] for i in table] for table in r] for r in found]


def _met_matrix(past: _Past, index: dict[int, int]) -> list[list[int]]:
    """How many times each pair of players met before, by their indices."""
    met = [[0] * len(index) for _ in index]
    for (a, b), times in past.met.items():
        if a in index and b in index:
            met[index[a]][index[b]] = met[index[b]][index[a]] = times
    return met


def _fewest_threes(
    rounds: Sequence[Sequence[Sequence[int]]], past: _Past, ids: Sequence[int]
) -> int:
    """The least sum of squares of the times at a table of 3 (history included): the seats
    at tables of 3 shared out one at a time to whoever has had fewest."""
    counts = sorted(past.threes[p] for p in ids)
    seats = sum(len(t) for r in rounds for t in r if len(t) == 3)
    for _ in range(seats):
        counts[0] += 1
        counts.sort()
    return sum(c * c for c in counts)


def _sizes_text(sizes: Sequence[int]) -> str:
    return " + ".join(str(size) for size in sizes)


def _ranks(
    players: Sequence[int], by_id: dict[int, Entrant], standings: Sequence[int]
) -> dict[int, int]:
    """Each player's place in the order of the round: the standings, then by rating."""
    listed = [player for player in dict.fromkeys(standings) if player in by_id]
    named = set(listed)
    others = sorted(
        (player for player in players if player not in named),
        key=lambda player: (-by_id[player].rating, player),
    )
    return {player: index for index, player in enumerate([*listed, *others])}


def _byes(
    players: Sequence[int],
    count: int,
    past: _Past,
    rank: dict[int, int],
    method: Method,
    rng: random.Random,
) -> list[int]:
    """Who sits out, in turn: fewest byes, then the longest ago; in Swiss the lowest in
    the standings, otherwise by the seed."""
    if not count:
        return []
    lot = {player: rng.random() for player in players}
    order = sorted(
        players,
        key=lambda p: (
            past.byes[p],
            past.last_bye.get(p, 0),
            -rank[p] if method == Method.SWISS else lot[p],
        ),
    )
    return sorted(order[:count])


class _Search:
    """The tables as lists of indices into `players`, improved by swaps (module docstring).

    The cost is a sum over the pairs at each table of `pair[a][b]` plus `three[a]` for each
    player at a table of 3. `conflict` is the part of `pair` that is not Swiss: a player
    with a conflict of his own is "hot", and only hot players start a swap.
    """

    def __init__(
        self,
        players: Sequence[int],
        sizes: Sequence[int],
        by_id: dict[int, Entrant],
        past: _Past,
        rank: dict[int, int],
        method: Method,
        weights: Weights,
        rng: random.Random,
        apart: Collection[tuple[int, int]] = (),
    ) -> None:
        self.rng = rng
        self.swiss = method == Method.SWISS
        self.wide: list[list[int]] | None = None  # round 1: the candidates across strata
        self.sizes = sorted(sizes, reverse=True)
        self.players = list(players)
        n = len(players)
        index = {player: i for i, player in enumerate(players)}
        # `extra`: what a pair at one table costs beyond its repeated meetings.
        extra = _pair_costs(players, by_id, weights, apart)
        conflict = [row[:] for row in extra]
        for (a, b), times in past.met.items():
            if a in index and b in index:
                cost = weights.repeat * times * times
                if (a, b) in past.last:
                    cost += weights.last_round
                    extra[index[a]][index[b]] += weights.last_round
                    extra[index[b]][index[a]] += weights.last_round
                conflict[index[a]][index[b]] += cost
                conflict[index[b]][index[a]] += cost
        self.conflict = conflict
        if method == Method.SWISS:
            position = [rank[player] for player in players]
            distance = [
                [weights.swiss * abs(position[a] - position[b]) for b in range(n)] for a in range(n)
            ]
            self.pair = [
                [c + d for c, d in zip(*rows, strict=True)]
                for rows in zip(conflict, distance, strict=True)
            ]
            extra = [
                [c + d for c, d in zip(*rows, strict=True)]
                for rows in zip(extra, distance, strict=True)
            ]
        else:
            self.pair = conflict
        self.extra = extra
        self.three = [weights.three * past.threes[player] ** 2 for player in players]
        self.temperature = weights.repeat / 2

        order = list(range(n))
        if method == Method.SWISS:
            order.sort(key=lambda i: rank[players[i]])
            # Candidates for a swap: players near in the standings (a far swap never pays).
            window = 24
            ranked = order[:]
            place = {i: k for k, i in enumerate(ranked)}
            self.candidates = [
                ranked[max(0, place[i] - window) : place[i] + window + 1] for i in range(n)
            ]
            self.tables = self._deal_in_order(order)
        elif method == Method.RATING:
            order.sort(key=lambda i: (rank[players[i]], i))
            self.tables, strata = self._deal_by_strata(order)
            # Swaps within a stratum first; then, where teammates (or clubmates) still sit
            # together, any two players may swap, as in the later rounds (`run`), but two of
            # one stratum at a table cost `stratum`, so such a swap pays only when it parts them.
            level = {i: min(stratum) for i, stratum in strata.items()}
            self.pair = [
                [
                    c + (weights.stratum if a != b and level[a] == level[b] else 0)
                    for b, c in enumerate(row)
                ]
                for a, row in enumerate(conflict)
            ]
            self.candidates = [strata[i] for i in range(n)]
            self.wide = [list(range(n))] * n
        else:
            rng.shuffle(order)
            self.tables = self._deal_in_order(order)
            everyone = list(range(n))
            self.candidates = [everyone] * n
        self.where = [0] * n
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t

    def _deal_in_order(self, order: list[int]) -> list[list[int]]:
        tables, start = [], 0
        for size in self.sizes:
            tables.append(order[start : start + size])
            start += size
        return tables

    def _deal_by_strata(self, order: list[int]) -> tuple[list[list[int]], dict[int, list[int]]]:
        """One player of each stratum per table; stratum k = the k-th best at every table
        that has a k-th seat, dealt to the tables in a seeded random order."""
        tables: list[list[int]] = [[] for _ in self.sizes]
        strata: dict[int, list[int]] = {}
        start = 0
        for level in range(max(self.sizes, default=0)):
            open_tables = [t for t, size in enumerate(self.sizes) if size > level]
            stratum = order[start : start + len(open_tables)]
            start += len(open_tables)
            self.rng.shuffle(open_tables)
            for t, i in zip(open_tables, stratum, strict=True):
                tables[t].append(i)
                strata[i] = stratum
        return tables, strata

    # The cost and its changes.

    def own_conflict(self, i: int) -> int:
        table = self.tables[self.where[i]]
        row = self.conflict[i]
        cost = sum(row[x] for x in table)
        return cost + self.three[i] if len(table) == 3 else cost

    def total(self) -> int:
        cost = 0
        for table in self.tables:
            for a, b in itertools.combinations(table, 2):
                cost += self.pair[a][b]
            if len(table) == 3:
                cost += sum(self.three[i] for i in table)
        return cost

    def delta(self, a: int, b: int) -> int:
        """The change of the cost if a and b (at different tables) swap."""
        first, second = self.tables[self.where[a]], self.tables[self.where[b]]
        row_a, row_b = self.pair[a], self.pair[b]
        change = 0
        for x in first:
            if x != a:
                change += row_b[x] - row_a[x]
        for y in second:
            if y != b:
                change += row_a[y] - row_b[y]
        if len(first) != len(second):
            at_three = self.three[b] - self.three[a]
            change += at_three if len(first) == 3 else -at_three
        return change

    def apply(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        first, second = self.tables[ta], self.tables[tb]
        first[first.index(a)] = b
        second[second.index(b)] = a
        self.where[a], self.where[b] = tb, ta

    def best_swap(self, a: int) -> tuple[int, int | None]:
        best, partner = 0, None
        home = self.where[a]
        for b in self.candidates[a]:
            if self.where[b] != home:
                change = self.delta(a, b)
                if change < best:
                    best, partner = change, b
        return best, partner

    def descend(self, everyone: bool = False) -> None:
        """Apply the best swap of each hot player (or each player) until none improves."""
        improved = True
        while improved:
            improved = False
            movers = [i for i in range(len(self.players)) if everyone or self.own_conflict(i)]
            self.rng.shuffle(movers)
            for a in movers:
                if not everyone and not self.own_conflict(a):
                    continue
                change, b = self.best_swap(a)
                if b is not None:
                    self.apply(a, b)
                    improved = True

    def run(self, effort: int) -> list[list[int]]:
        if len(self.tables) > 1:
            self.descend()
            cost = best_cost = self.total()
            best = [table[:] for table in self.tables]
            for step in range(effort):
                hot = [i for i in range(len(self.players)) if self.own_conflict(i)]
                if not hot:
                    break
                a = self.rng.choice(hot)
                others = [b for b in self.candidates[a] if self.where[b] != self.where[a]]
                if not others:
                    break
                kept = [table[:] for table in self.tables]
                self.apply(a, self.rng.choice(others))
                self.descend()
                new = self.total()
                # Accept a worse seating now and then, less and less often (annealing), so
                # that the search leaves a seating no single swap improves.
                heat = self.temperature * (1 - step / effort)
                if new <= cost or self.rng.random() < math.exp((cost - new) / max(heat, 1e-9)):
                    cost = new
                else:
                    self._restore(kept)
                if cost < best_cost:
                    best_cost, best = cost, [table[:] for table in self.tables]
            self._restore(best)
            if self.swiss:  # tidy the standings term too
                self.descend(everyone=True)
            if self.wide is not None:
                self._part_across_strata()
        return [[self.players[i] for i in table] for table in self.tables]

    def _part_across_strata(self) -> None:
        """Round 1: the teammates (or clubmates) no swap within a stratum parted, parted by a
        swap across strata where one lowers the cost. The seed's draw is untouched (no random
        number is drawn) unless such a swap exists, so a seating with nothing to part is the
        one its seed always drew."""
        self.candidates = self.wide
        hot = [i for i in range(len(self.players)) if self.own_conflict(i)]
        if any(self.best_swap(i)[1] is not None for i in hot):
            self.descend()

    def _restore(self, tables: list[list[int]]) -> None:
        self.tables = [table[:] for table in tables]
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t


def _pair_costs(
    players: Sequence[int],
    by_id: dict[int, Entrant],
    weights: Weights,
    apart: Collection[tuple[int, int]],
) -> list[list[int]]:
    """What each pair of `players` (by index) costs at one table for being teammates, of one
    club, or kept apart (as much as teammates)."""
    n = len(players)
    index = {player: i for i, player in enumerate(players)}
    cost = [[0] * n for _ in range(n)]
    for label, weight in (("team", weights.teammates), ("club", weights.same_club)):
        members: dict[str, list[int]] = defaultdict(list)
        for player in players:
            value = getattr(by_id[player], label)
            if value is not None:
                members[value].append(index[player])
        for group in members.values():
            for a, b in itertools.combinations(group, 2):
                cost[a][b] += weight
                cost[b][a] += weight
    for a, b in set(map(_pair_of, apart)):
        if a in index and b in index:
            cost[index[a]][index[b]] += weights.teammates
            cost[index[b]][index[a]] += weights.teammates
    return cost


def _pair_of(pair: Sequence[int]) -> tuple[int, int]:
    first, second = pair
    return _pair(first, second)


#: Steps of the whole-history search that polishes a round drawn by mixing or Swiss while a
#: repeat is left in it (`competition.lib.search`).
POLISH_STEPS = 20_000


def _polish(
    groups: list[list[int]], search: _Search, past: _Past, rng: random.Random
) -> list[list[int]]:
    """The round improved by the whole-schedule search (`competition.lib.search`), the rounds
    before it fixed, when a pair in it meets again; kept only when it has fewer repeats and
    no more pairs that should not sit together than the round drawn (so a round without a
    repeat to mend is the one its seed always drew)."""
    players = search.players
    index = {player: i for i, player in enumerate(players)}
    n = len(players)
    met = _met_matrix(past, index)
    drawn = [[index[p] for p in group] for group in groups]

    def faults(round: list[list[int]]) -> tuple[int, int]:
        pairs = [pair for table in round for pair in itertools.combinations(table, 2)]
        return (
            sum(met[a][b] for a, b in pairs),
            sum(search.extra[a][b] >= _search.HARD for a, b in pairs),
        )

    # The repeats no seating of this round can avoid: its meetings beyond the pairs not met.
    unmet = sum(1 for a in range(n) for b in range(a) if not met[a][b])
    meetings = sum(len(group) * (len(group) - 1) // 2 for group in groups)
    if faults(drawn)[0] <= max(0, meetings - unmet):
        return groups

    def state(round: list[list[int]]) -> _search.Schedule:
        at_three = [past.threes[p] for p in players]
        return _search.Schedule(
            n, [round], free=[0], met=met, pair=search.extra, threes=at_three, rng=rng
        )

    first = state(drawn)
    before = first.cost()
    polished = first.run(POLISH_STEPS, target=0, stall=POLISH_STEPS // 4)
    again = state(polished[0])
    (repeats, hard), (was_repeats, was_hard) = faults(polished[0]), faults(drawn)
    if repeats < was_repeats and hard <= was_hard and again.cost() < before:
        return [[players[i] for i in table] for table in polished[0]]
    return groups


def _seat_table(number: int, players: Sequence[int], past: _Past, rng: random.Random) -> Table:
    """Seat order repeating past seats least; first dealer: who dealt first least often."""
    options = sorted(itertools.permutations(sorted(players)))
    costs = [sum(past.seats[p][s] ** 2 for s, p in enumerate(o, start=1)) for o in options]
    lowest = min(costs)
    seats = rng.choice([o for o, cost in zip(options, costs, strict=True) if cost == lowest])
    fewest = min(past.dealers[p] for p in seats)
    dealer = rng.choice([p for p in seats if past.dealers[p] == fewest])
    return Table(number, tuple(seats), dealer)


# --- editing and checking a draft -------------------------------------------------------


def swap(seating: Seating, first: int, second: int) -> Seating:
    """The draft with two players exchanging their seats (or a seat and a bye). The first
    dealer's seat stays the first dealer's.

    >>> draft = Seating(1, 5, Method.MIXING, (Table(1, (1, 2, 3), 1), Table(2, (4, 5, 6), 6)))
    >>> swapped = swap(draft, 1, 6)
    >>> [t.seats for t in swapped.tables], [t.first_dealer for t in swapped.tables]
    ([(6, 2, 3), (4, 5, 1)], [6, 1])
    """
    for player in (first, second):
        if player not in seating.players and player not in {b.player for b in seating.byes}:
            raise TournamentError("player_not_in_seating", player=player)
    other = {first: second, second: first}

    def moved(player: int) -> int:
        return other.get(player, player)

    tables = tuple(
        replace(t, seats=tuple(map(moved, t.seats)), first_dealer=moved(t.first_dealer))
        for t in seating.tables
    )
    byes = tuple(replace(bye, player=moved(bye.player)) for bye in seating.byes)
    return replace(seating, tables=tables, byes=byes)


def redraw(
    seating: Seating,
    entrants: Sequence[Entrant],
    *,
    keep: Collection[int],
    seed: int,
    history: Sequence[Seating] = (),
    standings: Sequence[int] = (),
    weights: Weights = Weights(),
    effort: int = DEFAULT_EFFORT,
    tables: Tables = Tables.MIXED,
    apart: Collection[tuple[int, int]] = (),
) -> Seating:
    """The draft drawn again with a new seed, keeping the tables numbered in `keep` as they
    are (also: re-seating the tables of a published round that have not started).

    >>> players = [Entrant(id) for id in range(1, 11)]
    >>> draft = seat_round(players, round=1, seed=1, method=Method.RATING)
    >>> again = redraw(draft, players, keep={2}, seed=2)
    >>> again.tables[1] == draft.tables[1], again.seed
    (True, 2)
    """
    numbers = {table.number for table in seating.tables}
    for number in keep:
        if number not in numbers:
            raise TournamentError("table_not_in_seating", table=number)
    return seat_round(
        entrants,
        round=seating.round,
        seed=seed,
        method=seating.method,
        history=history,
        standings=standings,
        locked=[table for table in seating.tables if table.number in keep],
        weights=weights,
        effort=effort,
        tables=tables,
        apart=apart,
    )


def check(
    seating: Seating,
    *,
    active: Iterable[int],
    withdrawn: Iterable[int] = (),
    tables: Tables = Tables.MIXED,
) -> list[Problem]:
    """What makes a draft unplayable; empty when it can be published.

    >>> draft = Seating(1, 5, Method.MIXING, (Table(1, (1, 2, 3, 2), 1), Table(2, (4, 9), 4)))
    >>> [(p.code, dict(p.params)) for p in check(draft, active=[1, 2, 3, 4, 5], withdrawn=[9])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('player_twice', {'player': 2, 'times': 2}), ('player_missing', {'player': 5}),
     ('player_withdrawn', {'player': 9, 'table': 2}), ('table_size', {'table': 2, 'size': 2}),
     ('table_sizes', {'players': 5, 'expected': '4', 'found': '4 + 2'}),
     ('byes', {'expected': 1, 'found': 0})]
    """
    active = list(dict.fromkeys(active))
    withdrawn = set(withdrawn)
    problems: list[Problem] = []
    seen: Counter[int] = Counter(seating.players)
    seen.update(bye.player for bye in seating.byes)
    for player in active:
        if not seen[player]:
            problems.append(Problem("player_missing", {"player": player}))
        elif seen[player] > 1:
            problems.append(Problem("player_twice", {"player": player, "times": seen[player]}))
    known = set(active)
    for table in seating.tables:
        for player in dict.fromkeys(table.seats):
            if player in withdrawn:
                problems.append(
                    Problem("player_withdrawn", {"player": player, "table": table.number})
                )
            elif player not in known:
                problems.append(
                    Problem("player_unknown", {"player": player, "table": table.number})
                )
    for table in seating.tables:
        if table.size not in (3, 4):
            problems.append(Problem("table_size", {"table": table.number, "size": table.size}))
        if table.first_dealer not in table.seats:
            problems.append(Problem("first_dealer", {"table": table.number}))
    for number, times in Counter(t.number for t in seating.tables).items():
        if times > 1:
            problems.append(Problem("table_number_twice", {"table": number}))
    try:
        plan = table_plan(len(active), tables)
    except TournamentError as exc:
        problems.append(exc.problem)
        return problems
    found = sorted((t.size for t in seating.tables), reverse=True)
    if found != list(plan.sizes):
        problems.append(
            Problem(
                "table_sizes",
                {
                    "players": len(active),
                    "expected": _sizes_text(plan.sizes),
                    "found": _sizes_text(found),
                },
            )
        )
    if len(seating.byes) != plan.byes:
        problems.append(Problem("byes", {"expected": plan.byes, "found": len(seating.byes)}))
    return problems


def warnings(
    seating: Seating,
    *,
    history: Sequence[Seating] = (),
    entrants: Sequence[Entrant] = (),
    apart: Collection[tuple[int, int]] = (),
) -> list[Problem]:
    """What the organiser should look at before publishing (a draft may still go out):
    pairs meeting again (`times` counts this meeting), a table of 3 again, teammates or
    players of one club together, a pair to keep apart at one table (the search seats
    them together only when nothing else was possible, or after a swap by hand).

    >>> one = Seating(1, 1, Method.MIXING, (Table(1, (1, 2, 3), 1),))
    >>> two = Seating(2, 2, Method.MIXING, (Table(1, (1, 2, 3, 4), 4),))
    >>> [(p.code, p.params["first"], p.params["second"]) for p in warnings(two, history=[one])]
    [('met_last_round', 1, 2), ('met_last_round', 1, 3), ('met_last_round', 2, 3)]
    """
    past = _Past.of(history)
    by_id = {entrant.id: entrant for entrant in entrants}
    kept_apart = {_pair_of(pair) for pair in apart}
    problems: list[Problem] = []
    for table in seating.tables:
        for a, b in itertools.combinations(sorted(set(table.seats)), 2):
            times = past.met[(a, b)]
            if times:
                code = "met_last_round" if (a, b) in past.last else "met_before"
                problems.append(Problem(code, {"first": a, "second": b, "times": times + 1}))
    for table in seating.tables:
        if table.size == 3:
            for player in table.seats:
                if past.threes[player]:
                    times = past.threes[player] + 1
                    problems.append(Problem("three_again", {"player": player, "times": times}))
    for table in seating.tables:
        for a, b in itertools.combinations(sorted(set(table.seats)), 2):
            params = {"first": a, "second": b, "table": table.number}
            if (a, b) in kept_apart and (a not in by_id or b not in by_id):
                problems.append(Problem("apart_together", params))
            first, second = by_id.get(a), by_id.get(b)
            if first is None or second is None:
                continue
            if (a, b) in kept_apart:
                problems.append(Problem("apart_together", params))
            if first.team is not None and first.team == second.team:
                problems.append(Problem("teammates_together", params))
            elif first.club is not None and first.club == second.club:
                problems.append(Problem("same_club_together", params))
    return problems


@dataclass(frozen=True)
class Report:
    """How good a schedule is: repeated meetings against the lower bound, and how fairly
    the tables of 3, the seats, the first deals and the byes went round."""

    rounds: int
    repeats: int
    lower_bound: int
    most_threes: int
    fewest_threes: int
    most_same_seat: int
    most_first_deals: int
    fewest_first_deals: int
    most_byes: int
    fewest_byes: int


def report(rounds: Sequence[Seating], players: Sequence[int]) -> Report:
    """The figures of `rounds` for `players` (everyone entered, byes included).

    >>> players = [Entrant(id) for id in range(1, 16)]
    >>> plan = schedule(players, rounds=7, seed=5, tables=Tables.THREES)
    >>> figures = report(plan, range(1, 16))
    >>> figures.repeats, figures.lower_bound, figures.most_threes, figures.most_same_seat
    (0, 0, 7, 3)
    """
    everyone = list(dict.fromkeys(players))
    sizes = [[t.size for t in seating.tables] for seating in rounds]
    at_three = threes(rounds)
    seats: Counter[tuple[int, int]] = Counter()
    dealt: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for seating in rounds:
        for table in seating.tables:
            seats.update((player, seat) for seat, player in enumerate(table.seats, 1))
            dealt[table.first_dealer] += 1
        byes.update(bye.player for bye in seating.byes)
    return Report(
        rounds=len(rounds),
        repeats=repeated_meetings(rounds),
        lower_bound=_search.lower_bound(len(everyone), sizes),
        most_threes=max((at_three[p] for p in everyone), default=0),
        fewest_threes=min((at_three[p] for p in everyone), default=0),
        most_same_seat=max(seats.values(), default=0),
        most_first_deals=max((dealt[p] for p in everyone), default=0),
        fewest_first_deals=min((dealt[p] for p in everyone), default=0),
        most_byes=max((byes[p] for p in everyone), default=0),
        fewest_byes=min((byes[p] for p in everyone), default=0),
    )


def team_problems(entrants: Sequence[Entrant]) -> list[Problem]:
    """Teams of 3 to 5 players.

    >>> team_problems([Entrant(1, team="Aces"), Entrant(2, team="Aces")])
    [Problem(code='team_size', params={'team': 'Aces', 'size': 2})]
    """
    sizes = Counter(entrant.team for entrant in entrants if entrant.team is not None)
    return [
        Problem("team_size", {"team": team, "size": size})
        for team, size in sorted(sizes.items())
        if not 3 <= size <= 5
    ]
