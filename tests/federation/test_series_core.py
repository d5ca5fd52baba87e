"""The series' computation without the database: points by place (typed, checked), tied
places sharing points, the best N stages, the least stages played, each tie-break, and the
final's field with places passing down."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

from federation import series
from federation.series import (
    Finalist,
    Reason,
    SeriesProblem,
    TieBreak,
    final_field,
    points_from_text,
    series_standings,
    stage_points,
)

F = Fraction


def test_the_docstring_examples_hold():
    assert doctest.testmod(series).failed == 0


# --- points by place -------------------------------------------------------------------------


def test_points_are_read_with_commas_spaces_or_semicolons():
    assert points_from_text(" 100, 80 65;55\n50 ", max_places=200) == (100, 80, 65, 55, 50)


def test_equal_points_for_neighbouring_places_are_allowed():
    assert points_from_text("10, 10, 0", max_places=200) == (10, 10, 0)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "points_empty", {}),
        (" , ;", "points_empty", {}),
        ("100, 80, x", "points_not_number", {"place": 3, "text": "x", "max": 100_000}),
        ("100, -5", "points_not_number", {"place": 2, "text": "-5", "max": 100_000}),
        ("100, 7.5", "points_not_number", {"place": 2, "text": "7.5", "max": 100_000}),
        ("100, ٣", "points_not_number", {"place": 2, "text": "٣", "max": 100_000}),
        ("100, 80, ...", "points_not_number", {"place": 3, "text": "...", "max": 100_000}),
        ("100001", "points_not_number", {"place": 1, "text": "100001", "max": 100_000}),
        ("100, 80, 90", "points_increase", {"place": 3, "before": 80, "after": 90}),
        ("0, 0, 0", "points_all_zero", {}),
        ("9 " * 201, "points_too_many", {"max": 200}),
        ("1" * 5000, "points_too_many", {"max": 200}),
    ],
)
def test_a_points_table_that_is_no_table_is_refused_with_its_reason(text, code, params):
    with pytest.raises(SeriesProblem) as refused:
        points_from_text(text, max_places=200)

    assert (refused.value.code, refused.value.params) == (code, params)


def test_two_tied_for_second_share_the_second_and_third_places_points():
    points = stage_points([("A", 1), ("B", 2), ("C", 2), ("D", 4)], [100, 80, 65, 55])

    assert points == {"A": 100, "B": F(145, 2), "C": F(145, 2), "D": 55}


def test_a_three_way_tie_averages_three_places_in_thirds():
    points = stage_points([("A", 1), ("B", 1), ("C", 1), ("D", 4)], [100, 80, 65, 55])

    assert points["A"] == F(245, 3)
    assert points["D"] == 55


def test_places_beyond_the_table_score_nothing_and_a_tie_across_its_end_shares_what_is_left():
    points = stage_points([("A", 1), ("B", 2), ("C", 2), ("D", 4)], [10, 6])

    assert points == {"A": 10, "B": 3, "C": 3, "D": 0}


# --- the standings ---------------------------------------------------------------------------


def p(place: int, points: int | Fraction) -> tuple[int, Fraction]:
    return (place, F(points))


def standings(results, **settings):
    settings.setdefault("stages", sorted({n for stages in results.values() for n in stages}))
    return series_standings(results, **settings)


def table(result) -> list[tuple]:
    return [(line.key, line.place, line.total) for line in result.lines]


def test_every_stage_counts_without_best_of():
    result = standings({"A": {1: p(1, 100), 2: p(3, 65)}, "B": {1: p(2, 80), 2: p(1, 100)}})

    assert table(result) == [("B", 1, 180), ("A", 2, 165)]


def test_the_best_n_stages_count_and_the_dropped_ones_are_marked():
    result = standings(
        {"A": {1: p(1, 100), 2: p(6, 45), 3: p(2, 80)}, "B": {1: p(2, 80), 2: p(2, 80)}},
        best_of=2,
    )

    a = result.placed[0]
    assert (a.key, a.total, a.counted) == ("A", 180, (1, 3))
    assert a.stages[2].counted is False
    assert result.placed[1].total == 160


def test_among_equal_scores_the_earlier_stage_is_the_one_counted():
    result = standings({"A": {1: p(3, 65), 2: p(3, 65), 3: p(1, 100)}}, best_of=2)

    assert result.placed[0].counted == (1, 3)


def test_who_played_fewer_stages_than_needed_is_listed_below_unplaced():
    result = standings(
        {"A": {1: p(1, 100)}, "B": {1: p(2, 80), 2: p(2, 80)}, "C": {2: p(1, 100)}},
        min_stages=2,
    )

    # Below, in the same order: C's win is the later one (the last stages' tie-break).
    assert table(result) == [("B", 1, 160), ("C", None, 100), ("A", None, 100)]
    assert [line.key for line in result.unplaced] == ["C", "A"]


def test_totals_keep_their_exact_fractions():
    result = standings({"A": {1: p(2, F(145, 2)), 2: p(1, F(245, 3))}})

    assert result.placed[0].total == F(145, 2) + F(245, 3)


# Two persons on 180, each tie-break parting them one way.
EQUAL = {
    "Anna": {1: p(1, 100), 2: p(4, 55), 3: p(5, 25)},
    "Boris": {1: p(2, 80), 2: p(2, 80), 3: p(9, 20)},
}


@pytest.mark.parametrize(
    ("tie_break", "results", "first"),
    [
        # Anna won a stage, Boris none.
        (TieBreak.STAGE_WINS, EQUAL, "Anna"),
        # Countback: Anna's best place 1 beats Boris's 2.
        (TieBreak.BEST_PLACES, EQUAL, "Anna"),
        # Equal best place (1): the second best decides (2 beats 3).
        (
            TieBreak.BEST_PLACES,
            {"Anna": {1: p(1, 100), 2: p(3, 80)}, "Boris": {1: p(2, 80), 2: p(1, 100)}},
            "Boris",
        ),
        # Boris played three stages, Anna two.
        (
            TieBreak.STAGES_PLAYED,
            {
                "Anna": {1: p(1, 100), 2: p(2, 80)},
                "Boris": {1: p(2, 80), 2: p(2, 80), 3: p(20, 20)},
            },
            "Boris",
        ),
        # The last stage: Boris 9th is behind Anna 5th.
        (TieBreak.LAST_STAGES, EQUAL, "Anna"),
        # Only Boris played the last stage: he is ahead.
        (
            TieBreak.LAST_STAGES,
            {"Anna": {1: p(1, 100), 2: p(1, 80)}, "Boris": {1: p(2, 80), 3: p(1, 100)}},
            "Boris",
        ),
    ],
)
def test_each_tie_break_parts_equal_totals(tie_break, results, first):
    result = standings(results, tie_breaks=[tie_break], stages=[1, 2, 3])

    assert result.placed[0].total == result.placed[1].total
    assert [(line.key, line.place) for line in result.placed][0] == (first, 1)
    assert result.placed[1].place == 2


def test_the_tie_breaks_apply_in_the_order_given():
    results = {
        "Anna": {1: p(1, 100), 2: p(6, 45)},  # a win, two stages
        "Boris": {1: p(2, 80), 2: p(3, 65)},  # no win, two stages
        "Vera": {1: p(3, 65), 2: p(5, 50), 3: p(10, 30)},  # no win, three stages
    }

    by_wins = standings(results, tie_breaks=[TieBreak.STAGE_WINS, TieBreak.STAGES_PLAYED])
    by_played = standings(results, tie_breaks=[TieBreak.STAGES_PLAYED, TieBreak.STAGE_WINS])

    assert [line.key for line in by_wins.placed] == ["Anna", "Vera", "Boris"]
    assert [line.key for line in by_played.placed] == ["Vera", "Anna", "Boris"]


def test_equal_on_every_tie_break_share_the_place_listed_by_name():
    results = {
        "Vera": {1: p(2, 80)},
        "Anna": {2: p(2, 80)},
        "Boris": {1: p(1, 100)},
        "Gleb": {1: p(4, 55)},
    }

    result = standings(results, tie_breaks=[TieBreak.STAGE_WINS, TieBreak.BEST_PLACES])

    assert [(line.key, line.place) for line in result.placed] == [
        ("Boris", 1),
        ("Anna", 2),
        ("Vera", 2),
        ("Gleb", 4),
    ]


def test_without_tie_breaks_equal_totals_share_the_place():
    result = standings(EQUAL, tie_breaks=[])

    assert [line.place for line in result.placed] == [1, 1]


# --- the final's field -----------------------------------------------------------------------


def field(**settings) -> list[tuple]:
    settings.setdefault("winner", None)
    settings.setdefault("series", [])
    settings.setdefault("rating", [])
    settings.setdefault("from_series", 0)
    settings.setdefault("from_rating", 0)
    return [(f.person, f.reason, f.place, f.passed_from) for f in final_field(**settings)]


SERIES = [("Anna", 1), ("Boris", 2), ("Vera", 3), ("Gleb", 4), ("Dana", 5)]
RATING = [("Boris", 1), ("Anna", 2), ("Ivan", 3), ("Kira", 4), ("Lev", 5)]


def test_the_winner_who_also_qualifies_by_series_and_rating_passes_both_places_down():
    chosen = field(winner="Anna", series=SERIES, rating=RATING, from_series=2, from_rating=2)

    assert chosen == [
        ("Anna", Reason.WINNER, None, None),
        ("Boris", Reason.SERIES, 2, None),
        ("Vera", Reason.SERIES, 3, "Anna"),
        # Boris (rating 1st) and Anna (2nd) are in: their places go to Ivan and Kira.
        ("Ivan", Reason.RATING, 3, "Boris"),
        ("Kira", Reason.RATING, 4, "Anna"),
    ]


def test_a_place_passes_past_someone_below_the_cut_who_is_in_already():
    rating = [("Boris", 1), ("Vera", 2), ("Ivan", 3)]

    chosen = field(series=[("Vera", 1)], rating=rating, from_series=1, from_rating=1)

    assert chosen == [("Vera", Reason.SERIES, 1, None), ("Boris", Reason.RATING, 1, None)]
    chosen = field(series=[("Boris", 1), ("Vera", 2)], rating=rating, from_series=2, from_rating=1)
    assert chosen[-1] == ("Ivan", Reason.RATING, 3, "Boris")


def test_fewer_candidates_than_places_gives_a_smaller_field():
    chosen = field(series=SERIES[:2], rating=[("Boris", 1)], from_series=5, from_rating=3)

    assert [person for person, *_ in chosen] == ["Anna", "Boris"]


def test_no_places_from_a_list_takes_nobody_from_it():
    assert field(series=SERIES, rating=RATING) == []
    assert field(winner="Lev", series=SERIES, rating=RATING, from_rating=1) == [
        ("Lev", Reason.WINNER, None, None),
        ("Boris", Reason.RATING, 1, None),
    ]
    assert [f[0] for f in field(series=SERIES, rating=RATING, from_series=3)] == [
        "Anna",
        "Boris",
        "Vera",
    ]


def test_a_finalist_is_a_plain_value():
    assert Finalist("Anna", Reason.SERIES, 1) == Finalist("Anna", Reason.SERIES, 1, None)
