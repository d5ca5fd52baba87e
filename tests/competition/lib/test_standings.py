"""The standings core (competition.lib.standings): no database, parameter tables."""

from __future__ import annotations

import datetime
import doctest
from fractions import Fraction

import pytest

from competition.lib import standings
from competition.lib.standings import (
    Counting,
    HalfBeyond,
    Result,
    Rule,
    Tally,
    best_result,
    counted,
    in_order,
    pulkas_played,
    rank,
    table_wins,
    tally,
)

ANNA, BORIS, VERA, GLEB, DANA = 1, 2, 3, 4, 5
NAMES = {ANNA: "Anna", BORIS: "Boris", VERA: "Vera", GLEB: "Gleb", DANA: "Dana"}


def rows(*tables: dict[int, int]) -> list[Result]:
    """Result rows of pulkas given as {player: result}; places from the results."""
    made = []
    for round_, table in enumerate(tables, start=1):
        for player, result in table.items():
            place = 1 + sum(other > result for other in table.values())
            made.append(Result(player, result, place, len(table), round_))
    return made


def ranked(rule: Rule, *tables: dict[int, int]) -> list[tuple[int | None, str, object]]:
    result = rank(tally(rows(*tables), rule), rule, NAMES)
    return [(s.place, NAMES[s.player_id], s.score) for s in (*result.ranked, *result.unranked)]


@pytest.mark.parametrize(
    ("rule", "tables", "expected"),
    [
        pytest.param(
            Rule(),
            [{ANNA: 20, VERA: 20, BORIS: -10, GLEB: -30}],
            [(1, "Anna", 20), (1, "Vera", 20), (3, "Boris", -10), (4, "Gleb", -30)],
            id="equal-scores-share-a-place-and-the-next-is-skipped",
        ),
        pytest.param(
            Rule(min_pulkas=2),
            [{ANNA: 50, BORIS: 0, VERA: -50}, {BORIS: 10, VERA: 0, GLEB: -10}],
            [(1, "Boris", 10), (2, "Vera", -50), (None, "Anna", 50), (None, "Gleb", -10)],
            id="below-the-minimum-unranked-most-pulkas-then-name",
        ),
        pytest.param(
            Rule(Counting.BEST, best_count=2),
            [{ANNA: 40, BORIS: -10, VERA: -30}, {ANNA: -50, BORIS: 20, VERA: 30}, {ANNA: 30}],
            [(1, "Anna", 70), (2, "Boris", 10), (3, "Vera", 0)],
            id="best-n-counts-each-players-best-n-only",
        ),
        pytest.param(
            Rule(Counting.AVERAGE),
            [{ANNA: 40, BORIS: 0, VERA: -40}, {BORIS: 30, VERA: 10, GLEB: -40}],
            [(1, "Anna", 40), (2, "Boris", 15), (3, "Vera", -15), (4, "Gleb", -40)],
            id="average-per-pulka",
        ),
        pytest.param(
            Rule(Counting.AVERAGE),
            [{ANNA: 10, BORIS: -10}, {ANNA: 0, BORIS: 0}, {ANNA: 0, BORIS: 0}]
            + [{VERA: 20, GLEB: -20}]
            + [{VERA: 0, GLEB: 0}] * 5,
            [
                (1, "Anna", pytest.approx(10 / 3)),
                (1, "Vera", pytest.approx(10 / 3)),
                (3, "Boris", pytest.approx(-10 / 3)),
                (3, "Gleb", pytest.approx(-10 / 3)),
            ],
            id="equal-averages-tie-exactly",
        ),
        pytest.param(
            Rule(cap=HalfBeyond(100)),
            [{ANNA: 301, BORIS: -101, VERA: -200}, {ANNA: 99, BORIS: 101, VERA: -200}],
            [(1, "Anna", 299.5), (2, "Boris", 0), (3, "Vera", -300)],
            id="beyond-the-cap-counts-at-half",
        ),
        pytest.param(
            Rule(Counting.BEST, best_count=2, cap=HalfBeyond(100)),
            [{ANNA: 300, BORIS: -150}, {ANNA: 150, BORIS: -75}, {ANNA: 150, BORIS: -75}],
            [(1, "Anna", 325), (2, "Boris", -150)],
            id="the-cap-decides-which-are-the-best",
        ),
        pytest.param(
            Rule(Counting.BEST),
            [{ANNA: 40, BORIS: -40}],
            [(1, "Anna", 0), (1, "Boris", 0)],
            id="best-n-without-n-counts-none-as-the-league-query-does",
        ),
        pytest.param(
            Rule(cap=lambda r: Fraction(min(r, 50))),
            [{ANNA: 80, BORIS: -30, VERA: -50}, {BORIS: 60, VERA: -60}],
            [(1, "Anna", 50), (2, "Boris", 20), (3, "Vera", -110)],
            id="any-callable-is-a-cap",
        ),
    ],
)
def test_rules_rank_players(rule, tables, expected):
    assert ranked(rule, *tables) == expected


@pytest.mark.parametrize(
    ("result", "cap", "counts"),
    [
        pytest.param(-700, None, -700, id="no-cap"),
        pytest.param(200, 200, 200, id="at-the-cap"),
        pytest.param(-200, 200, -200, id="at-the-cap-in-minus"),
        pytest.param(201, 200, Fraction(401, 2), id="one-beyond"),
        pytest.param(-260, 200, -230, id="beyond-in-minus"),
        pytest.param(Fraction(401, 2), 200, Fraction(801, 4), id="exact-whists"),
        pytest.param(1, 0, Fraction(1, 2), id="cap-zero-halves-a-win"),
        pytest.param(-1, 0, Fraction(-1, 2), id="cap-zero-halves-a-loss"),
        pytest.param(0, 0, 0, id="cap-zero-nothing"),
    ],
)
def test_the_league_cap_counts_whists_beyond_it_at_half_either_way(result, cap, counts):
    assert counted(result, cap) == counts
    assert type(counted(result, cap)) is Fraction


@pytest.mark.parametrize(
    ("tie_breaks", "expected"),
    [
        pytest.param((), [(1, "Anna"), (1, "Boris"), (1, "Vera")], id="none-all-share"),
        pytest.param(
            (best_result,), [(1, "Vera"), (2, "Anna"), (2, "Boris")], id="best-single-result"
        ),
        pytest.param((table_wins,), [(1, "Anna"), (1, "Boris"), (3, "Vera")], id="table-wins"),
        pytest.param(
            (table_wins, best_result),
            [(1, "Anna"), (1, "Boris"), (3, "Vera")],
            id="wins-then-best-equal",
        ),
        pytest.param(
            (pulkas_played, table_wins),
            [(1, "Vera"), (2, "Anna"), (2, "Boris")],
            id="in-order-the-first-decides",
        ),
    ],
)
def test_tie_breaks_apply_in_order_then_name(tie_breaks, expected):
    # All three total 30. Anna and Boris: two pulkas, one win each, best 40. Vera: three
    # pulkas, no win, best 50.
    tallies = [
        Tally(ANNA, 2, Fraction(30), 40, firsts=1, seconds=1),
        Tally(BORIS, 2, Fraction(30), 40, firsts=1, seconds=1),
        Tally(VERA, 3, Fraction(30), 50, seconds=3),
    ]
    result = rank(tallies, Rule(tie_breaks=tie_breaks), NAMES)
    assert [(s.place, NAMES[s.player_id]) for s in result.ranked] == expected


def test_raw_rows_are_tallied_with_places_and_the_best_as_played():
    result = tally(
        [
            Result(ANNA, 300, 1, 3, datetime.date(2024, 3, 1)),
            Result(ANNA, -20, 3, 4, datetime.date(2024, 3, 8)),
            Result(ANNA, Fraction(41, 2), 2, 3),
        ],
        Rule(Counting.BEST, best_count=2, cap=HalfBeyond(200)),
    )
    assert result == [
        Tally(
            ANNA,
            pulkas=3,
            total=Fraction(250 - 20) + Fraction(41, 2),
            best=300,
            firsts=1,
            seconds=1,
            thirds=1,
            best_total=250 + Fraction(41, 2),
        )
    ]


def test_the_worked_examples_are_right():
    result = doctest.testmod(standings)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(
    ("places", "counted"),
    [
        pytest.param([1, 1, 2], (2, 1, 0, 0), id="firsts-and-a-second"),
        pytest.param([3, 4, 4, 2], (0, 1, 1, 2), id="fourths-at-tables-of-four"),
        pytest.param([3, 3, 3], (0, 0, 3, 0), id="last-at-tables-of-three"),
    ],
)
def test_each_place_at_the_table_is_counted(places, counted):
    (anna,) = tally([Result(ANNA, 0, place, 4) for place in places], Rule())
    (line,) = rank([anna], Rule(), NAMES).ranked

    assert (anna.firsts, anna.seconds, anna.thirds, anna.fourths) == counted
    assert (line.firsts, line.seconds, line.thirds, line.fourths) == counted


def test_numbers_shown_are_whole_or_float_and_the_average_is_of_counted_whists():
    (line,) = rank(
        tally(rows({ANNA: 300}, {ANNA: 0}), Rule(cap=HalfBeyond(100))), Rule(), {}
    ).ranked
    assert (line.total, line.average, line.best) == (200, 100.0, 300)
    assert isinstance(line.total, int)
    (line,) = rank(tally(rows({ANNA: 301}), Rule(cap=HalfBeyond(100))), Rule(), {}).ranked
    assert isinstance(line.total, float)
    assert line.total == 200.5


def test_a_rename_reorders_only_within_a_place():
    result = rank(tally(rows({ANNA: 10, BORIS: 10, VERA: -20}), Rule()), Rule(), NAMES)
    ranked, _unranked = in_order(result.ranked, result.unranked, {**NAMES, ANNA: "Zoya"})
    assert [(s.place, s.player_id) for s in ranked] == [(1, BORIS), (1, ANNA), (3, VERA)]


def test_nobody_gives_empty_standings():
    result = rank([], Rule(), NAMES)
    assert (result.ranked, result.unranked) == ((), ())


def test_with_no_minimum_a_line_without_pulkas_is_ranked_and_averages_zero():
    # As a tournament's team whose members have not played yet.
    tallies = [Tally(ANNA, 0, Fraction(0), 0), Tally(BORIS, 1, Fraction(-10), -10)]

    result = rank(tallies, Rule(min_pulkas=0), NAMES)

    assert [(s.place, s.player_id, s.pulkas, s.average) for s in result.ranked] == [
        (1, ANNA, 0, 0.0),
        (2, BORIS, 1, -10.0),
    ]
    # Tallies made by hand (teams, tournaments) count no places unless told.
    assert {(s.firsts, s.seconds, s.thirds, s.fourths) for s in result.ranked} == {(0, 0, 0, 0)}
