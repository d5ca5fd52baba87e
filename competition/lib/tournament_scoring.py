"""A tournament's scoring: each player's round result and the standings over the rounds.

Pure Python, exact (Fractions, never floats). The pages read each table's settlement (the
engine's exact whists per player) and pass it in; nothing here touches the database.

A player's round result is his whists from the settlement, adjusted by one of three rules
(`Method`):

- ``WHISTS``: plain whists.
- ``CAPS`` (отсечки): a piecewise-linear scale (`Caps`) with editable breakpoints: each step
  says from how many whists on, and at what factor, the whists count. Presets:
  `CAPS_200_650` (full up to 200, 1/10 from 200 to 650, nothing beyond 650) and
  `CAPS_50_100` (full up to 50, x0.5 from 51 to 100, x0.1 above 100). The scale is
  symmetric by default: a loss is capped like a win of the same size, as the league's cap
  (competition.lib.standings.HalfBeyond) and, as far as we know, most cups do it, so one
  disastrous round does not end a player's event any more than one lucky round wins it.
  ``Caps(..., mirror=False)`` caps wins only and counts losses in full.
- ``PLACES``: place points by table size (`PlacePoints`), tied players sharing the points
  of the places they hold. Preset: 4/2/1/0 at a table of 4; at a table of 3, the first
  gets 3 (4 if he is the only player in plus), the second 2 if in plus and 1 otherwise, the
  third 0. "In plus" means above zero.

Whatever the method, `RoundScore.adjusted` holds the whists after the caps (when the rule
has caps) for the tie-break "adjusted whists", and `RoundScore.points` the place points.

An optional floor (`ScoringRule.floor`, e.g. -1000) flags a round below it for the judge
(it changes no number: the judge decides, for example with a penalty). Judge's penalties
(`Penalty`) take whists or points away, with a reason, and are listed on the player's line.

Standings (`standings`): the total over the rounds, then the tie-breaks in the chosen order
(`TieBreak`: adjusted whists, table wins, best round, opponents' total), then the lot: a
seeded draw whose seed and numbers are part of the result, so it can be printed and
re-drawn by anyone. The places come from competition.lib.standings.rank. Stages (`Stage`):
after round K the top M play on, keeping or resetting their totals. Teams
(`team_standings`): a team's round score is the sum of its best M members' scores.

>>> rule = ScoringRule(Method.CAPS, caps=CAPS_200_650)
>>> table = TableResult(round=1, table=1, whists={1: 400, 2: -100, 3: -300})
>>> [(s.player, s.whists, s.score, s.place) for s in score_table(table, rule)]
[(1, Fraction(400, 1), Fraction(220, 1), 1), (2, Fraction(-100, 1), Fraction(-100, 1), 2), \
(3, Fraction(-300, 1), Fraction(-210, 1), 3)]
"""

from __future__ import annotations

import enum
import random
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .problems import Problem, TournamentError
from .standings import Result, Rule, Tally, rank, tally

__all__ = [
    "CAPS_50_100",
    "CAPS_200_650",
    "DEFAULT_TIE_BREAKS",
    "PLACE_POINTS",
    "Caps",
    "Line",
    "Method",
    "Penalty",
    "PlacePoints",
    "RoundScore",
    "ScoringRule",
    "Stage",
    "TableResult",
    "TeamLine",
    "TieBreak",
    "TournamentStandings",
    "Unit",
    "bye_score",
    "caps_problems",
    "penalty_problems",
    "score_table",
    "staged_standings",
    "standings",
    "team_standings",
]

Number = int | Fraction


# --- caps -------------------------------------------------------------------------------


def caps_problems(steps: Sequence[tuple[Number, Number]]) -> list[Problem]:
    """What is wrong with the steps (from whists, factor) of a caps scale.

    >>> caps_problems([(0, 1), (200, Fraction(1, 10)), (150, 0)])
    [Problem(code='caps_not_increasing', params={'before': 200, 'after': 150})]
    >>> [p.code for p in caps_problems([(10, 2)])]
    ['caps_first_not_zero', 'caps_factor']
    """
    if not steps:
        return [Problem("caps_empty", {})]
    problems = []
    if steps[0][0] != 0:
        problems.append(Problem("caps_first_not_zero", {}))
    for (before, _), (after, _) in zip(steps, steps[1:], strict=False):
        if after <= before:
            problems.append(Problem("caps_not_increasing", {"before": before, "after": after}))
    for _, factor in steps:
        if not 0 <= factor <= 1:
            problems.append(Problem("caps_factor", {"factor": factor}))
    return problems


@dataclass(frozen=True)
class Caps:
    """A piecewise-linear scale: from `steps[k][0]` whists on, each whist counts
    `steps[k][1]`; the first step starts at 0. Callable, so it is also a
    competition.lib.standings `Rule.cap`.

    >>> CAPS_200_650(200), CAPS_200_650(300), CAPS_200_650(650), CAPS_200_650(5000)
    (Fraction(200, 1), Fraction(210, 1), Fraction(245, 1), Fraction(245, 1))
    >>> CAPS_200_650(-300), Caps(CAPS_200_650.steps, mirror=False)(-300)
    (Fraction(-210, 1), Fraction(-300, 1))
    >>> CAPS_50_100(51), CAPS_50_100(100), CAPS_50_100(200)
    (Fraction(101, 2), Fraction(75, 1), Fraction(85, 1))
    >>> tally([Result(1, 300, 1, 3)], Rule(cap=CAPS_200_650))[0].total  # as a league's cap
    Fraction(210, 1)
    >>> Caps(((0, 1), (100, 1), (100, 0)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    competition...TournamentError: the caps' breakpoints must increase: 100 comes after 100
    """

    steps: tuple[tuple[Number, Number], ...]
    mirror: bool = True

    def __post_init__(self) -> None:
        steps = tuple((Fraction(start), Fraction(factor)) for start, factor in self.steps)
        problems = caps_problems(steps)
        if problems:
            raise TournamentError(problems[0].code, **problems[0].params)
        object.__setattr__(self, "steps", steps)

    def __call__(self, whists: Number) -> Fraction:
        whists = Fraction(whists)
        if whists < 0:
            return -self(-whists) if self.mirror else whists
        counted = Fraction(0)
        ends = [start for start, _ in self.steps[1:]] + [None]
        for (start, factor), end in zip(self.steps, ends, strict=True):
            if whists <= start:
                break
            counted += factor * ((whists if end is None else min(whists, end)) - start)
        return counted


CAPS_200_650 = Caps(((0, 1), (200, Fraction(1, 10)), (650, 0)))
CAPS_50_100 = Caps(((0, 1), (50, Fraction(1, 2)), (100, Fraction(1, 10))))


# --- place points -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlacePoints:
    """Points by place at a table of 4 and of 3, with the two exceptions of the preset
    (None: no exception). Tied players share the points of the places they hold.

    >>> PLACE_POINTS.points({1: 30, 2: 30, 3: -10, 4: -50})
    {1: Fraction(3, 1), 2: Fraction(3, 1), 3: Fraction(1, 1), 4: Fraction(0, 1)}
    >>> PLACE_POINTS.points({1: 100, 2: -20, 3: -80})  # alone in plus; second in minus
    {1: Fraction(4, 1), 2: Fraction(1, 1), 3: Fraction(0, 1)}
    >>> PLACE_POINTS.points({1: 60, 2: 40, 3: -100})
    {1: Fraction(3, 1), 2: Fraction(2, 1), 3: Fraction(0, 1)}
    """

    four: tuple[Number, ...] = (4, 2, 1, 0)
    three: tuple[Number, ...] = (3, 2, 0)
    three_first_alone_in_plus: Number | None = 4
    three_second_in_minus: Number | None = 1

    def __post_init__(self) -> None:
        for size, points in ((4, self.four), (3, self.three)):
            if len(points) != size:
                raise TournamentError("place_points_count", size=size)

    def points(self, whists: Mapping[int, Number]) -> dict[int, Fraction]:
        """Each player's points at one table from the results there."""
        size = len(whists)
        if size not in (3, 4):
            raise TournamentError("table_players", size=size)
        base = self.four if size == 4 else self.three
        in_plus = sum(result > 0 for result in whists.values())

        def at(position: int, result: Number) -> Fraction:
            value = base[position]
            if size == 3 and position == 0 and in_plus == 1 and result > 0:
                value = _otherwise(self.three_first_alone_in_plus, value)
            if size == 3 and position == 1 and result <= 0:
                value = _otherwise(self.three_second_in_minus, value)
            return Fraction(value)

        points: dict[int, Fraction] = {}
        position = 0
        for result in sorted(set(whists.values()), reverse=True):
            tied = [player for player, value in whists.items() if value == result]
            held = range(position, position + len(tied))
            shared = sum((at(p, result) for p in held), Fraction(0)) / len(tied)
            points.update(dict.fromkeys(tied, shared))
            position += len(tied)
        return {player: points[player] for player in whists}


def _otherwise(value: Number | None, default: Number) -> Number:
    return default if value is None else value


PLACE_POINTS = PlacePoints()


# --- a round's results ------------------------------------------------------------------


class Method(enum.StrEnum):
    """What a round's result counts."""

    WHISTS = "whists"
    CAPS = "caps"
    PLACES = "places"


class Unit(enum.StrEnum):
    """What a judge's penalty takes away."""

    WHISTS = "whists"
    POINTS = "points"


@dataclass(frozen=True)
class ScoringRule:
    """The tournament's rule. `bye`: what a round sat out counts (in the rule's unit;
    5 players only); `floor`: results below it are flagged for the judge."""

    method: Method = Method.WHISTS
    caps: Caps | None = None
    places: PlacePoints = PLACE_POINTS
    floor: Number | None = None
    bye: Number = 0

    def __post_init__(self) -> None:
        if self.method == Method.CAPS and self.caps is None:
            raise TournamentError("caps_missing")

    def adjust(self, whists: Number) -> Fraction:
        """Whists after the caps (as played when the rule has none)."""
        return Fraction(whists) if self.caps is None else self.caps(whists)


@dataclass(frozen=True)
class TableResult:
    """One table's settlement in one round: player id -> exact whists."""

    round: int
    table: int
    whists: Mapping[int, Number]


@dataclass(frozen=True)
class RoundScore:
    """A player's round: as played, adjusted, and what counts (`score`)."""

    player: int
    round: int
    table: int | None  # None: a bye
    whists: Fraction  # from the settlement
    adjusted: Fraction  # after the caps, if the rule has caps
    points: Fraction  # place points at the table
    place: int | None  # at the table, ties sharing (None: a bye)
    score: Fraction  # what the rule counts
    flagged: bool = False  # below the floor: for the judge
    opponents: tuple[int, ...] = ()


def score_table(table: TableResult, rule: ScoringRule) -> list[RoundScore]:
    """Every player's round at one table, in the order of `table.whists`.

    >>> rule = ScoringRule(Method.PLACES, floor=-1000)
    >>> scores = score_table(TableResult(2, 5, {7: 1200, 8: -1100, 9: -100}), rule)
    >>> [(s.player, s.points, s.score, s.flagged) for s in scores]
    [(7, Fraction(4, 1), Fraction(4, 1), False), (8, Fraction(0, 1), Fraction(0, 1), True), \
(9, Fraction(1, 1), Fraction(1, 1), False)]
    """
    whists = {player: Fraction(value) for player, value in table.whists.items()}
    if len(whists) not in (3, 4):
        raise TournamentError("table_size", table=table.table, size=len(whists))
    points = rule.places.points(whists)
    scores = []
    for player, result in whists.items():
        adjusted = rule.adjust(result)
        scores.append(
            RoundScore(
                player=player,
                round=table.round,
                table=table.table,
                whists=result,
                adjusted=adjusted,
                points=points[player],
                place=1 + sum(other > result for other in whists.values()),
                score=points[player] if rule.method == Method.PLACES else adjusted,
                flagged=rule.floor is not None and result < rule.floor,
                opponents=tuple(other for other in whists if other != player),
            )
        )
    return scores


def bye_score(round: int, player: int, rule: ScoringRule) -> RoundScore:
    """A round sat out (5 players): it counts `rule.bye`, and is no table win."""
    bye, zero = Fraction(rule.bye), Fraction(0)
    in_points = rule.method == Method.PLACES
    return RoundScore(
        player=player,
        round=round,
        table=None,
        whists=zero,
        adjusted=zero if in_points else bye,
        points=bye if in_points else zero,
        place=None,
        score=bye,
    )


# --- penalties --------------------------------------------------------------------------


@dataclass(frozen=True)
class Penalty:
    """A judge's penalty: `amount` whists or points taken away (a negative amount gives
    them back), with the reason kept in the history."""

    player: int
    round: int
    amount: Number
    unit: Unit
    reason: str


def penalty_problems(penalties: Iterable[Penalty], rule: ScoringRule) -> list[Problem]:
    """Points can be taken away only when the rule counts points.

    >>> penalty_problems([Penalty(1, 2, 1, Unit.POINTS, "late")], ScoringRule())
    [Problem(code='penalty_unit', params={})]
    """
    if rule.method != Method.PLACES and any(p.unit == Unit.POINTS for p in penalties):
        return [Problem("penalty_unit", {})]
    return []


# --- standings --------------------------------------------------------------------------


class TieBreak(enum.StrEnum):
    """After the total, in the organiser's order; the lot comes last."""

    ADJUSTED_WHISTS = "adjusted_whists"
    TABLE_WINS = "table_wins"
    BEST_ROUND = "best_round"
    OPPONENTS_TOTAL = "opponents_total"


DEFAULT_TIE_BREAKS = (
    TieBreak.ADJUSTED_WHISTS,
    TieBreak.TABLE_WINS,
    TieBreak.BEST_ROUND,
    TieBreak.OPPONENTS_TOTAL,
)


@dataclass(frozen=True)
class Line:
    """A player's line of the standings (every number exact)."""

    player: int
    place: int
    score: Fraction  # the total the rule ranks by, penalties taken
    adjusted: Fraction  # adjusted whists, whist penalties taken
    points: Fraction  # place points, point penalties taken
    whists: Fraction  # as played
    table_wins: int
    best_round: Fraction
    opponents_total: Fraction  # the scores of everyone he sat with, once per meeting
    lot: int | None  # his number in the draw (1 is drawn first: ahead on a full tie)
    rounds: Mapping[int, RoundScore]
    penalties: tuple[Penalty, ...] = ()
    flagged: tuple[int, ...] = ()  # rounds below the floor
    finalist: bool | None = None  # with a stage: whether he played the final


@dataclass(frozen=True)
class TournamentStandings:
    lines: tuple[Line, ...]  # by place
    tie_breaks: tuple[TieBreak, ...]
    lot_seed: int | None  # None: no lot, fully tied players share a place
    lot_order: tuple[int, ...] = field(default=())  # the draw, first drawn first


def standings(
    scores: Iterable[RoundScore],
    *,
    rule: ScoringRule,
    names: Mapping[int, str],
    tie_breaks: Sequence[TieBreak] = DEFAULT_TIE_BREAKS,
    penalties: Iterable[Penalty] = (),
    lot_seed: int | None = None,
) -> TournamentStandings:
    """The standings over the rounds given (a late entry simply has fewer rounds; a
    withdrawn player keeps the rounds he played; a substitute has his own line).

    >>> rule = ScoringRule(Method.PLACES)
    >>> rounds = [TableResult(1, 1, {1: 100, 2: -20, 3: -80}),
    ...           TableResult(2, 1, {1: -20, 2: 100, 3: -80})]
    >>> scores = [s for t in rounds for s in score_table(t, rule)]
    >>> names = {1: "Anna", 2: "Boris", 3: "Vera"}
    >>> result = standings(scores, rule=rule, names=names)  # equal on every tie-break
    >>> [(names[l.player], l.place, l.score, l.adjusted, l.table_wins) for l in result.lines]
    [('Anna', 1, Fraction(5, 1), Fraction(80, 1), 1), \
('Boris', 1, Fraction(5, 1), Fraction(80, 1), 1), ('Vera', 3, Fraction(0, 1), Fraction(-160, 1), 0)]
    >>> drawn = standings(scores, rule=rule, names=names, lot_seed=2024)
    >>> drawn.lot_order, [(names[l.player], l.place, l.lot) for l in drawn.lines]
    ((3, 1, 2), [('Anna', 1, 2), ('Boris', 2, 3), ('Vera', 3, 1)])
    """
    penalties = tuple(penalties)
    problems = penalty_problems(penalties, rule)
    if problems:
        raise TournamentError(problems[0].code, **problems[0].params)
    by_player: dict[int, dict[int, RoundScore]] = defaultdict(dict)
    for one in scores:
        by_player[one.player][one.round] = one
    rows = [
        Result(one.player, one.score, one.place or 0, len(one.opponents) + 1, one.round)
        for rounds in by_player.values()
        for one in rounds.values()
    ]
    taken: dict[int, dict[Unit, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    for penalty in penalties:
        taken[penalty.player][penalty.unit] += Fraction(penalty.amount)
    counted_unit = Unit.POINTS if rule.method == Method.PLACES else Unit.WHISTS
    tallies = [
        replace(one, total=one.total - taken[one.player_id][counted_unit])
        for one in tally(rows, Rule())
    ]
    total = {one.player_id: one.total for one in tallies}
    adjusted = {
        p: sum((s.adjusted for s in rounds.values()), Fraction(0)) - taken[p][Unit.WHISTS]
        for p, rounds in by_player.items()
    }
    opponents = {
        p: sum((total[o] for s in rounds.values() for o in s.opponents if o in total), Fraction(0))
        for p, rounds in by_player.items()
    }
    keys: dict[TieBreak, Callable[[Tally], object]] = {
        TieBreak.ADJUSTED_WHISTS: lambda one: adjusted[one.player_id],
        TieBreak.TABLE_WINS: lambda one: one.firsts,
        TieBreak.BEST_ROUND: lambda one: one.best,
        TieBreak.OPPONENTS_TOTAL: lambda one: opponents[one.player_id],
    }
    order = [keys[key] for key in tie_breaks]
    lot_order: tuple[int, ...] = ()
    lot: dict[int, int] = {}
    if lot_seed is not None:
        drawn = sorted(by_player)
        random.Random(lot_seed).shuffle(drawn)
        lot_order = tuple(drawn)
        lot = {player: number for number, player in enumerate(drawn, start=1)}
        order.append(lambda one: -lot[one.player_id])
    ranked = rank(tallies, Rule(tie_breaks=tuple(order)), names).ranked
    by_id = {one.player_id: one for one in tallies}
    lines = []
    for standing in ranked:
        player, rounds = standing.player_id, by_player[standing.player_id]
        lines.append(
            Line(
                player=player,
                place=standing.place or 0,
                score=total[player],
                adjusted=adjusted[player],
                points=sum((s.points for s in rounds.values()), Fraction(0))
                - taken[player][Unit.POINTS],
                whists=sum((s.whists for s in rounds.values()), Fraction(0)),
                table_wins=by_id[player].firsts,
                best_round=Fraction(by_id[player].best),
                opponents_total=opponents[player],
                lot=lot.get(player),
                rounds=dict(sorted(rounds.items())),
                penalties=tuple(p for p in penalties if p.player == player),
                flagged=tuple(sorted(r for r, s in rounds.items() if s.flagged)),
            )
        )
    return TournamentStandings(tuple(lines), tuple(tie_breaks), lot_seed, lot_order)


@dataclass(frozen=True)
class Stage:
    """A final: after round `after_round` the top `top` play on; their standings count
    every round (`keep_totals`) or the final's rounds only. Players tied at the cut all go
    through unless the lot separates them."""

    after_round: int
    top: int
    keep_totals: bool = True

    def __post_init__(self) -> None:
        if self.top < 3:
            raise TournamentError("stage_top", top=self.top)


def staged_standings(
    scores: Iterable[RoundScore],
    *,
    stage: Stage,
    rule: ScoringRule,
    names: Mapping[int, str],
    tie_breaks: Sequence[TieBreak] = DEFAULT_TIE_BREAKS,
    penalties: Iterable[Penalty] = (),
    lot_seed: int | None = None,
) -> TournamentStandings:
    """The finalists first, ranked by the final (with or without the earlier rounds), then
    everyone else at their places after round K (rounds they played later do not count).

    >>> rule = ScoringRule()
    >>> one = [TableResult(1, 1, {1: 30, 2: 20, 3: -50}), TableResult(1, 2, {4: 5, 5: 0, 6: -5})]
    >>> final = [TableResult(2, 1, {1: -100, 2: 60, 4: 40})]
    >>> scores = [s for t in one + final for s in score_table(t, rule)]
    >>> names = dict(zip(range(1, 7), ["Anna", "Boris", "Vera", "Gleb", "Dana", "Egor"]))
    >>> kept = staged_standings(scores, stage=Stage(1, 3), rule=rule, names=names)
    >>> [(names[l.player], l.place, l.score, l.finalist) for l in kept.lines][:4]
    [('Boris', 1, Fraction(80, 1), True), ('Gleb', 2, Fraction(45, 1), True), \
('Anna', 3, Fraction(-70, 1), True), ('Dana', 4, Fraction(0, 1), False)]
    >>> reset = staged_standings(scores, stage=Stage(1, 3, keep_totals=False), rule=rule,
    ...                          names=names)
    >>> [names[l.player] for l in reset.lines][:3]
    ['Boris', 'Gleb', 'Anna']
    """
    scores = list(scores)
    penalties = tuple(penalties)
    settings = {"rule": rule, "names": names, "tie_breaks": tie_breaks, "lot_seed": lot_seed}
    first = standings(
        [s for s in scores if s.round <= stage.after_round],
        penalties=[p for p in penalties if p.round <= stage.after_round],
        **settings,
    )
    if len(first.lines) <= stage.top:
        cut = max((line.place for line in first.lines), default=0)
    else:
        cut = first.lines[stage.top - 1].place
    finalists = {line.player for line in first.lines if line.place <= cut}
    counted = [
        s
        for s in scores
        if s.player in finalists and (stage.keep_totals or s.round > stage.after_round)
    ]
    final = standings(
        counted,
        penalties=[
            p
            for p in penalties
            if p.player in finalists and (stage.keep_totals or p.round > stage.after_round)
        ],
        **settings,
    )
    placed = {line.player for line in final.lines}
    # A finalist with no round counted yet (totals reset, final not played): after the others.
    waiting = [
        replace(line, place=len(placed) + 1)
        for line in first.lines
        if line.player in finalists and line.player not in placed
    ]
    lines = [replace(line, finalist=True) for line in (*final.lines, *waiting)]
    lines += [replace(line, finalist=False) for line in first.lines if line.player not in finalists]
    return TournamentStandings(tuple(lines), tuple(tie_breaks), lot_seed, final.lot_order)


# --- teams ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamLine:
    team: str
    place: int
    total: Fraction
    rounds: Mapping[int, Fraction]  # the sum of the best members' scores in each round
    best_round: Fraction


def team_standings(
    scores: Iterable[RoundScore],
    *,
    teams: Mapping[str, Collection[int]],
    best: int,
    order: Callable[[str], str] = str,
) -> tuple[TeamLine, ...]:
    """Teams ranked by the total of their round scores, each the sum of the best `best`
    members' scores that round (of those who played it); then by the best round; equal
    teams share a place, listed by `order` of their names (the site's alphabetical key).

    >>> scores = [RoundScore(p, 1, 1, Fraction(s), Fraction(s), Fraction(0), 1, Fraction(s))
    ...           for p, s in [(1, 50), (2, -20), (3, 10), (4, 40), (5, -60), (6, 0)]]
    >>> lines = team_standings(scores, teams={"Aces": [1, 2, 3], "Kings": [4, 5, 6]}, best=2)
    >>> [(line.team, line.place, line.total) for line in lines]
    [('Aces', 1, Fraction(60, 1)), ('Kings', 2, Fraction(40, 1))]
    """
    if not 1 <= best <= 5:
        raise TournamentError("team_best", best=best)
    by_round: dict[str, dict[int, list[Fraction]]] = {team: defaultdict(list) for team in teams}
    team_of = {player: team for team, members in teams.items() for player in members}
    for one in scores:
        if one.player in team_of:
            by_round[team_of[one.player]][one.round].append(one.score)
    names = dict(enumerate(sorted(teams)))
    tallies = []
    rounds_of = {}
    for number, team in names.items():
        rounds = {
            r: sum(sorted(values, reverse=True)[:best], Fraction(0))
            for r, values in sorted(by_round[team].items())
        }
        rounds_of[number] = rounds
        total = sum(rounds.values(), Fraction(0))
        tallies.append(Tally(number, len(rounds), total, max(rounds.values(), default=total)))
    keys = {number: order(team) for number, team in names.items()}
    ranked = rank(tallies, Rule(min_pulkas=0, tie_breaks=(lambda one: one.best,)), keys)
    by_number = {one.player_id: one for one in tallies}
    return tuple(
        TeamLine(
            team=names[line.player_id],
            place=line.place or 0,
            total=by_number[line.player_id].total,
            rounds=rounds_of[line.player_id],
            best_round=Fraction(by_number[line.player_id].best),
        )
        for line in ranked.ranked
    )
