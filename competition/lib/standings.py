"""Standings: players ranked by their per-pulka results under a rule. Pure Python.

No Django and no database here: a league (competition.league.selectors) or a tournament
reads its rows and passes them in. Two ways in:

- `tally(rows, rule)` takes raw per-pulka rows (`Result`: player, result, place at the table,
  table size, optionally the round or date) and adds them up per player (`Tally`);
- `rank(tallies, rule, names)` ranks per-player tallies, whether added up by `tally` or by a
  database (the league adds its rows up in SQL: see competition.league.selectors).

The rule (`Rule`) says what counts:

- counting: the sum of the counted results, their average per pulka, or the sum of each
  player's best N pulkas (`Counting`);
- cap: a function from a pulka's result to what it counts (None: as played). The league's
  cap, `HalfBeyond(cap)`, counts whists beyond the cap at half, either way:

      counted(r) = r                                     if |r| <= cap
                 = sign(r) * (cap + (|r| - cap) / 2)     otherwise

  so with a cap of 200, +300 counts +250 and -260 counts -230. Any other callable (e.g. a
  piecewise-linear scale of a tournament) works for raw rows;
- min_pulkas: fewer pulkas than this and a player is listed apart, unranked;
- tie_breaks: keys of a Tally, higher is better, tried in order after the score
  (`best_result`, `table_wins`, `pulkas_played`).

Places: the best score is 1; players equal on the score and on every tie-break share a place
and the next one is skipped (1, 1, 3). Within a shared place, and among the unranked (most
pulkas first), players go by name. Scores are compared exactly (Fractions), never as floats.
"""

from __future__ import annotations

import datetime
import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple, Protocol, TypeVar

Number = int | Fraction


class Counting(enum.StrEnum):
    """What a player's score is (competition.models.CountingRule labels them for forms)."""

    SUM = "sum"
    AVERAGE = "average"
    BEST = "best"


def counted(result: Number, cap: int | None) -> Fraction:
    """What one pulka's result counts with the league's cap (the module docstring).

    >>> counted(300, 200), counted(-260, 200), counted(150, 200), counted(7, None)
    (Fraction(250, 1), Fraction(-230, 1), Fraction(150, 1), Fraction(7, 1))
    """
    if cap is None or abs(result) <= cap:
        return Fraction(result)
    sign = 1 if result > 0 else -1
    return sign * (cap + Fraction(abs(result) - cap, 2))


@dataclass(frozen=True)
class HalfBeyond:
    """The league's cap as a function: whists beyond `cap` count at half, either way.

    >>> HalfBeyond(100)(301)
    Fraction(401, 2)
    """

    cap: int

    def __call__(self, result: Number) -> Fraction:
        return counted(result, self.cap)


class Result(NamedTuple):
    """One player's result in one pulka."""

    player_id: int
    result: Number  # exact whists (a league reads the rounded whole number)
    place: int  # at the table: 1 the best, equal results share
    players: int  # at the table: 3 or 4
    round: datetime.date | int | None = None  # the evening's date or a tournament's round


@dataclass(frozen=True)
class Tally:
    """A player's results added up under a rule."""

    player_id: int
    pulkas: int
    total: Fraction  # the counted results (cap applied) of every pulka
    best: Number  # the best single result, as played
    firsts: int = 0  # pulkas finished at each place
    seconds: int = 0
    thirds: int = 0
    fourths: int = 0
    best_total: Fraction | None = None  # the best N counted results (Counting.BEST)


TieBreak = Callable[[Tally], object]


def best_result(tally: Tally) -> object:
    """Tie-break: the better best single result (as played)."""
    return tally.best


def table_wins(tally: Tally) -> object:
    """Tie-break: more pulkas finished first at the table."""
    return tally.firsts


def pulkas_played(tally: Tally) -> object:
    """Tie-break: more pulkas played."""
    return tally.pulkas


@dataclass(frozen=True)
class Rule:
    counting: Counting = Counting.SUM
    best_count: int | None = None  # for Counting.BEST
    cap: Callable[[Number], Fraction] | None = None
    min_pulkas: int = 1
    tie_breaks: tuple[TieBreak, ...] = ()

    def count(self, result: Number) -> Fraction:
        return Fraction(result) if self.cap is None else Fraction(self.cap(result))


class Standing(NamedTuple):
    """One player's line. Numbers shown: whole ones as int, others (halves, averages) as
    float; the ranking itself compared the exact values."""

    player_id: int
    place: int | None  # None: below the minimum, unranked
    pulkas: int
    total: int | float  # counted whists (cap applied)
    average: float  # total / pulkas (0 with none: a team yet to play, min_pulkas=0)
    score: int | float  # what the rule ranks by: the total, the average or the best N
    best: int | float  # the best single result, as played
    firsts: int
    seconds: int
    thirds: int
    fourths: int


@dataclass(frozen=True)
class Standings:
    ranked: tuple[Standing, ...]  # by place, then name
    unranked: tuple[Standing, ...]  # below the minimum: most pulkas first, then name


def tally(rows: Iterable[Result], rule: Rule) -> list[Tally]:
    """Add up raw per-pulka rows per player under the rule (cap, best N).

    >>> rows = [Result(1, 300, 1, 3), Result(1, -20, 3, 3), Result(1, 40, 1, 3)]
    >>> (anna,) = tally(rows, Rule(Counting.BEST, best_count=2, cap=HalfBeyond(200)))
    >>> anna.total, anna.best_total, anna.best, anna.firsts
    (Fraction(270, 1), Fraction(290, 1), 300, 2)
    """
    by_player: dict[int, list[Result]] = defaultdict(list)
    for row in rows:
        by_player[row.player_id].append(row)
    tallies = []
    for player_id, results in by_player.items():
        values = [rule.count(row.result) for row in results]
        places = [row.place for row in results]
        best_total = None
        if rule.counting == Counting.BEST:
            best_total = sum(sorted(values, reverse=True)[: rule.best_count or 0], Fraction(0))
        tallies.append(
            Tally(
                player_id=player_id,
                pulkas=len(results),
                total=sum(values, Fraction(0)),
                best=max(row.result for row in results),
                firsts=places.count(1),
                seconds=places.count(2),
                thirds=places.count(3),
                fourths=places.count(4),
                best_total=best_total,
            )
        )
    return tallies


def score(tally: Tally, rule: Rule) -> Fraction:
    """What the rule ranks a player by."""
    if rule.counting == Counting.BEST:
        return tally.best_total or Fraction(0)
    if rule.counting == Counting.AVERAGE:
        return tally.total / tally.pulkas
    return tally.total


def rank(tallies: Iterable[Tally], rule: Rule, names: Mapping[int, str]) -> Standings:
    """Places by the score, then the tie-breaks in order; the rest go by name.

    >>> tallies = [Tally(1, 2, Fraction(20), 30, firsts=1), Tally(2, 2, Fraction(20), 10),
    ...            Tally(3, 1, Fraction(50), 50, firsts=1), Tally(4, 2, Fraction(-40), -5)]
    >>> names = {1: "Anna", 2: "Boris", 3: "Vera", 4: "Gleb"}
    >>> result = rank(tallies, Rule(min_pulkas=2), names)
    >>> [(s.place, names[s.player_id], s.score) for s in result.ranked]
    [(1, 'Anna', 20), (1, 'Boris', 20), (3, 'Gleb', -40)]
    >>> [(s.place, names[s.player_id]) for s in result.unranked]
    [(None, 'Vera')]
    >>> result = rank(tallies, Rule(min_pulkas=2, tie_breaks=(best_result,)), names)
    >>> [(s.place, names[s.player_id]) for s in result.ranked]
    [(1, 'Anna'), (2, 'Boris'), (3, 'Gleb')]
    """
    eligible: list[tuple[tuple, Tally]] = []
    below: list[Tally] = []
    for one in tallies:
        if one.pulkas >= rule.min_pulkas:
            key = (score(one, rule), *(tie_break(one) for tie_break in rule.tie_breaks))
            eligible.append((key, one))
        else:
            below.append(one)
    # By name first, then (a stable sort) by the key, best first.
    eligible.sort(key=lambda line: names.get(line[1].player_id, ""))
    eligible.sort(key=lambda line: line[0], reverse=True)
    ranked: list[Standing] = []
    previous: tuple | None = None
    for index, (key, one) in enumerate(eligible):
        place = ranked[-1].place if ranked and key == previous else index + 1
        ranked.append(_standing(one, rule, place))
        previous = key
    unranked = [_standing(one, rule, None) for one in below]
    return Standings(*in_order(ranked, unranked, names))


class _Line(Protocol):
    player_id: int
    place: int | None
    pulkas: int


Line = TypeVar("Line", bound=_Line)


def in_order(
    ranked: Sequence[Line], unranked: Sequence[Line], names: Mapping[int, str]
) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """Ranked lines by place then name, unranked ones by most pulkas then name: what changes
    when a player is renamed (players sharing a place are equal on every key)."""
    return (
        tuple(sorted(ranked, key=lambda s: (s.place, names.get(s.player_id, "")))),
        tuple(sorted(unranked, key=lambda s: (-s.pulkas, names.get(s.player_id, "")))),
    )


def _number(value: Number) -> int | float:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def _standing(one: Tally, rule: Rule, place: int | None) -> Standing:
    return Standing(
        player_id=one.player_id,
        place=place,
        pulkas=one.pulkas,
        total=_number(one.total),
        average=float(one.total / one.pulkas) if one.pulkas else 0.0,
        score=_number(score(one, rule)),
        best=_number(one.best),
        firsts=one.firsts,
        seconds=one.seconds,
        thirds=one.thirds,
        fourths=one.fourths,
    )
