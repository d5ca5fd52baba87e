"""A series (cup or grand prix): stage places to points, the series standings and the final's
field. Pure Python over plain data, exact (Fractions): federation.series_selectors reads the
stages' places (competition's standings core, or an imported results file) and passes them in.

- **Points by place** (`points_from_text`): "100, 80, 65, 55" gives the winner of a stage 100,
  the second 80 and so on; places beyond the list score 0. Players tied for a place share the
  points of the places they cover, averaged: two tied for 2nd get (80 + 65) / 2 each
  (`stage_points`).
- **Standings** (`series_standings`): a person's total is the sum of his best `best_of` stage
  scores (None: every stage); who played fewer than `min_stages` stages is listed below,
  unplaced. Equal totals are parted by the tie-breaks in the order the series sets
  (`TieBreak`), the ones cups use (the Moscow Cup and gambler.ru's Grand Prix part equal
  totals by stage wins and better places; FIDE's and Formula 1's "countback" is
  `BEST_PLACES`); persons equal on every tie-break share the place, listed by name.
- **The final's field** (`final_field`): the defending winner, then the top M of the series,
  then the top K of the rating list; whoever is already in is skipped and his place passes
  to the next one of that list (the Moscow Cup's rule).

A person is any hashable key: the selectors use a person's id, and for a roster name linked
to no person a text key (shown, but never a finalist).
"""

from __future__ import annotations

import enum
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from club.params import parse_int

#: The most points a place may score (a typo beyond it), and the longest points text read.
POINTS_VALUE_MAX = 100_000
POINTS_TEXT_MAX = 2_000

Key = Hashable


class SeriesProblem(Exception):
    """What is wrong with a series' settings: a code and its parameters (the text is chosen
    and translated where it is shown: federation.series_services.problem_text)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


# --- points by place -----------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,;]+")


def points_from_text(text: str, *, max_places: int) -> tuple[int, ...]:
    """The points table typed as "100, 80, 65": whole numbers, one a place, not increasing,
    at most `max_places` of them, not all zero.

    >>> points_from_text("100, 80, 65 55;50", max_places=200)
    (100, 80, 65, 55, 50)
    >>> points_from_text("10, 20", max_places=200)
    Traceback (most recent call last):
    ...
    federation.series.SeriesProblem: ('points_increase', {'place': 2, 'before': 10, 'after': 20})
    >>> points_from_text("0, 0", max_places=200)
    Traceback (most recent call last):
    ...
    federation.series.SeriesProblem: ('points_all_zero', {})
    """
    if len(text) > POINTS_TEXT_MAX:
        raise SeriesProblem("points_too_many", max=max_places)
    parts = [part for part in _SEPARATORS.split(text.strip()) if part]
    if not parts:
        raise SeriesProblem("points_empty")
    if len(parts) > max_places:
        raise SeriesProblem("points_too_many", max=max_places)
    points: list[int] = []
    for place, part in enumerate(parts, start=1):
        value = parse_int(part)
        if value is None or value > POINTS_VALUE_MAX:
            raise SeriesProblem(
                "points_not_number", place=place, text=part[:20], max=POINTS_VALUE_MAX
            )
        if points and value > points[-1]:
            raise SeriesProblem("points_increase", place=place, before=points[-1], after=value)
        points.append(value)
    if not any(points):
        raise SeriesProblem("points_all_zero")
    return tuple(points)


def points_to_text(points: Sequence[int]) -> str:
    """The points table as the settings show it.

    >>> points_to_text([100, 80, 65])
    '100, 80, 65'
    """
    return ", ".join(str(value) for value in points)


def stage_points(places: Iterable[tuple[Key, int]], points: Sequence[int]) -> dict[Key, Fraction]:
    """Each player's points for his place in one stage; players sharing a place share the
    points of the places they cover, averaged (places beyond the table score 0).

    >>> stage_points([("Anna", 1), ("Boris", 2), ("Vera", 2), ("Gleb", 4)], [100, 80, 65, 55])
    {'Anna': Fraction(100, 1), 'Boris': Fraction(145, 2), 'Vera': Fraction(145, 2), \
'Gleb': Fraction(55, 1)}
    >>> stage_points([("Anna", 1), ("Boris", 1), ("Vera", 1)], [10, 5])
    {'Anna': Fraction(5, 1), 'Boris': Fraction(5, 1), 'Vera': Fraction(5, 1)}
    """
    places = list(places)
    sharing: dict[int, int] = defaultdict(int)
    for _key, place in places:
        sharing[place] += 1

    def at(place: int) -> int:
        return points[place - 1] if 1 <= place <= len(points) else 0

    shares = {
        place: Fraction(sum(at(place + n) for n in range(count)), count)
        for place, count in sharing.items()
    }
    return {key: shares[place] for key, place in places}


# --- the standings -------------------------------------------------------------------------


class TieBreak(enum.StrEnum):
    """What parts equal totals, in the series' order; then persons share the place."""

    STAGE_WINS = "stage_wins"  # more stages won (a shared first place is a win)
    BEST_PLACES = "best_places"  # countback: the better best place, then the next best, ...
    STAGES_PLAYED = "stages_played"  # more stages played
    LAST_STAGES = "last_stages"  # the better place in the last stage, then the one before...


DEFAULT_TIE_BREAKS = (TieBreak.STAGE_WINS, TieBreak.BEST_PLACES, TieBreak.LAST_STAGES)


@dataclass(frozen=True)
class StageScore:
    place: int
    points: Fraction
    counted: bool = True


@dataclass(frozen=True)
class SeriesLine:
    """A person's line: his stages (number -> score), the total of the counted ones, and his
    place (None: fewer stages than the series needs)."""

    key: Key
    place: int | None
    total: Fraction
    stages: Mapping[int, StageScore]
    played: int
    wins: int

    @property
    def counted(self) -> tuple[int, ...]:
        return tuple(number for number, score in self.stages.items() if score.counted)


@dataclass(frozen=True)
class SeriesStandings:
    placed: tuple[SeriesLine, ...]
    unplaced: tuple[SeriesLine, ...]
    stages: tuple[int, ...]
    tie_breaks: tuple[TieBreak, ...] = field(default=DEFAULT_TIE_BREAKS)

    @property
    def lines(self) -> tuple[SeriesLine, ...]:
        return self.placed + self.unplaced


def _counted(stages: Mapping[int, tuple[int, Fraction]], best_of: int | None) -> set[int]:
    """The stages that count: the best `best_of` scores (the earlier stage first among
    equal ones), or all."""
    if best_of is None or best_of >= len(stages):
        return set(stages)
    ranked = sorted(stages, key=lambda number: (-stages[number][1], number))
    return set(ranked[:best_of])


def _tie_key(
    tie_break: TieBreak, stages: Mapping[int, tuple[int, Fraction]], all_stages: Sequence[int]
) -> tuple:
    """The tie-break's value on a person's stages: smaller is better."""
    places = [place for place, _points in stages.values()]
    missing = 10**9  # a stage not played: behind any place
    if tie_break == TieBreak.STAGE_WINS:
        return (-sum(place == 1 for place in places),)
    if tie_break == TieBreak.BEST_PLACES:
        return tuple(sorted(places)) + (missing,) * (len(all_stages) - len(places))
    if tie_break == TieBreak.STAGES_PLAYED:
        return (-len(places),)
    return tuple(
        stages[number][0] if number in stages else missing for number in reversed(all_stages)
    )


def series_standings(
    results: Mapping[Key, Mapping[int, tuple[int, Fraction]]],
    *,
    stages: Sequence[int],
    best_of: int | None = None,
    min_stages: int = 1,
    tie_breaks: Sequence[TieBreak] = DEFAULT_TIE_BREAKS,
    order: Callable[[Key], object] = str,
) -> SeriesStandings:
    """The series standings from each person's stages (number -> (place, points)); `order`
    sorts persons equal on everything (their names, alphabetically).

    >>> results = {
    ...     "Anna": {1: (1, Fraction(100)), 2: (3, Fraction(65))},
    ...     "Boris": {1: (2, Fraction(80)), 2: (2, Fraction(80)), 3: (4, Fraction(55))},
    ...     "Vera": {2: (1, Fraction(100))},
    ... }
    >>> table = series_standings(results, stages=[1, 2, 3], best_of=2, min_stages=2)
    >>> [(line.key, line.place, line.total, line.counted) for line in table.lines]
    [('Anna', 1, Fraction(165, 1), (1, 2)), ('Boris', 2, Fraction(160, 1), (1, 2)), \
('Vera', None, Fraction(100, 1), (2,))]
    """
    tie_breaks = tuple(tie_breaks)
    all_stages = tuple(stages)
    lines: list[tuple[tuple, SeriesLine]] = []
    for key, played in results.items():
        counted = _counted(played, best_of)
        total = sum((played[number][1] for number in counted), Fraction(0))
        scores = {
            number: StageScore(place, points, number in counted)
            for number, (place, points) in sorted(played.items())
        }
        line = SeriesLine(
            key=key,
            place=None,
            total=total,
            stages=scores,
            played=len(played),
            wins=sum(place == 1 for place, _points in played.values()),
        )
        rank_key = (-total, *(_tie_key(t, played, all_stages) for t in tie_breaks))
        lines.append((rank_key, line))
    lines.sort(key=lambda item: (item[0], order(item[1].key)))
    placed: list[SeriesLine] = []
    previous: tuple | None = None
    place = 0
    for position, (rank_key, line) in enumerate(
        (item for item in lines if item[1].played >= min_stages), start=1
    ):
        if rank_key != previous:
            place, previous = position, rank_key
        placed.append(_with_place(line, place))
    unplaced = [line for _key, line in lines if line.played < min_stages]
    return SeriesStandings(tuple(placed), tuple(unplaced), all_stages, tie_breaks)


def _with_place(line: SeriesLine, place: int) -> SeriesLine:
    return SeriesLine(line.key, place, line.total, line.stages, line.played, line.wins)


# --- the final's field ---------------------------------------------------------------------


class Reason(enum.StrEnum):
    WINNER = "winner"
    SERIES = "series"
    RATING = "rating"


@dataclass(frozen=True)
class Finalist:
    """Who qualified, by which list, at which place of it, and (when his place passed down
    to him) whose place it was: someone above him on that list who was already in."""

    person: Key
    reason: Reason
    place: int | None = None
    passed_from: Key | None = None


def final_field(
    *,
    winner: Key | None,
    series: Sequence[tuple[Key, int]],
    rating: Sequence[tuple[Key, int]],
    from_series: int,
    from_rating: int,
) -> list[Finalist]:
    """The final's field: the defending winner, the top `from_series` of the series (persons
    and places, best first), the top `from_rating` of the rating list; a person already in
    is skipped and his place passes to the next one of that list.

    >>> field = final_field(winner="Anna", series=[("Anna", 1), ("Boris", 2), ("Vera", 3)],
    ...                     rating=[("Boris", 1), ("Gleb", 2), ("Dana", 3)],
    ...                     from_series=2, from_rating=1)
    >>> [(f.person, f.reason.value, f.place, f.passed_from) for f in field]
    [('Anna', 'winner', None, None), ('Boris', 'series', 2, None), \
('Vera', 'series', 3, 'Anna'), ('Gleb', 'rating', 2, 'Boris')]
    """
    chosen: list[Finalist] = []
    taken: set[Key] = set()
    if winner is not None:
        chosen.append(Finalist(winner, Reason.WINNER))
        taken.add(winner)
    for reason, ranked, places in (
        (Reason.SERIES, series, from_series),
        (Reason.RATING, rating, from_rating),
    ):
        passed: list[Key] = []  # those of the top who were in already, first one first
        got = 0
        for position, (person, place) in enumerate(ranked):
            if got >= places:
                break
            if person in taken:
                if position < places:
                    passed.append(person)
                continue
            source = passed.pop(0) if position >= places and passed else None
            chosen.append(Finalist(person, reason, place, source))
            taken.add(person)
            got += 1
    return chosen
