"""The chart geometry of the profile (competition.profile.charts.line_chart): pure, no database."""

from __future__ import annotations

import datetime
import doctest
import itertools

import pytest

from competition.profile import charts
from competition.profile.charts import (
    HEIGHT,
    MAX_DOTS,
    MIN_TICK_GAP,
    WIDTH,
    X_TICKS,
    format_number,
    line_chart,
    nice_axis,
)

START = datetime.date(2024, 1, 1)


def series(*values: float, every: int = 7) -> list[tuple[datetime.date, float]]:
    return [(START + datetime.timedelta(days=every * n), v) for n, v in enumerate(values)]


def inside(chart: charts.Chart) -> bool:
    return all(
        chart.left <= dot.x <= chart.right and chart.top <= dot.y <= chart.bottom
        for dot in chart.dots
    )


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(charts).failed == 0


def test_no_data_is_an_empty_chart():
    chart = line_chart([])

    assert chart.dots == ()
    assert chart.points == ""
    assert chart.area == ""
    assert chart.last is None


def test_one_point_per_item_left_to_right_and_higher_values_higher():
    chart = line_chart(series(10, 30, 20, -5), include_zero=True)

    xs = [dot.x for dot in chart.dots]
    ys = [dot.y for dot in chart.dots]
    assert len(chart.points.split()) == 4
    assert xs == sorted(xs)
    assert (xs[0], xs[-1]) == (chart.left, chart.right)
    assert ys[1] < ys[2] < ys[0] < ys[3]
    assert inside(chart)
    assert chart.view_box == f"0 0 {WIDTH} {HEIGHT}"


@pytest.mark.parametrize(
    ("values", "labels"),
    [
        ((0, 35, 80), ["0", "20", "40", "60", "80"]),
        ((-130, 40), ["−150", "−100", "−50", "0", "50"]),
        ((3, 4), ["0", "1", "2", "3", "4"]),
    ],
)
def test_value_ticks_are_round_numbers_around_the_data_and_zero(values, labels):
    chart = line_chart(series(*values), include_zero=True)

    assert [tick.label for tick in chart.y_ticks] == labels
    assert chart.y_ticks[0].y == chart.bottom
    assert chart.y_ticks[-1].y == chart.top
    assert chart.zero == next(t.y for t in chart.y_ticks if t.label == "0")
    assert chart.baseline == chart.zero


def test_a_rating_far_from_zero_has_no_zero_line_and_shades_to_the_bottom():
    chart = line_chart(series(1000, 1042.4, 1031.6, 1080.2), decimals=0)

    assert chart.zero is None
    assert chart.baseline == chart.bottom
    assert [dot.label for dot in chart.dots] == ["1000", "1042", "1032", "1080"]
    assert [tick.label for tick in chart.y_ticks] == [
        "1000",
        "1020",
        "1040",
        "1060",
        "1080",
        "1100",
    ]
    assert inside(chart)


def test_a_flat_or_single_series_still_has_an_axis():
    flat = line_chart(series(1000, 1000, 1000), decimals=0)
    single = line_chart(series(8), include_zero=True)

    assert flat.y_ticks[0].label != flat.y_ticks[-1].label
    assert len({dot.y for dot in flat.dots}) == 1
    assert inside(flat)
    assert single.dots[0].x == (single.left + single.right) / 2
    assert [tick.anchor for tick in single.x_ticks] == ["middle"]
    assert inside(single)


def test_date_ticks_are_few_distinct_and_kept_inside_the_frame():
    chart = line_chart(series(*range(40)))
    same_evening = line_chart(series(1, 2, 3, every=0))

    assert 2 <= len(chart.x_ticks) <= X_TICKS
    assert chart.x_ticks[0].date == START
    assert chart.x_ticks[0].anchor == "start"
    assert chart.x_ticks[-1].date == chart.dots[-1].date
    assert chart.x_ticks[-1].anchor == "end"
    gaps = [b.x - a.x for a, b in itertools.pairwise(chart.x_ticks)]
    assert min(gaps) >= MIN_TICK_GAP
    assert len(same_evening.x_ticks) == 1  # one label for one evening


@pytest.mark.parametrize("count", range(2, 15))
def test_date_labels_never_crowd_whatever_the_number_of_pulkas(count):
    chart = line_chart(series(*range(count)))

    xs = [tick.x for tick in chart.x_ticks]
    assert xs[0] == chart.left
    assert xs[-1] == chart.right
    assert all(b - a >= MIN_TICK_GAP for a, b in itertools.pairwise(xs))


def test_dates_show_the_year_only_when_the_series_spans_years():
    assert line_chart(series(1, 2, 3)).date_format == "j M"
    assert line_chart(series(1, 2, 3, every=200)).date_format == "M Y"


def test_dots_are_drawn_only_while_they_stay_apart():
    assert line_chart(series(*range(MAX_DOTS))).show_dots
    assert not line_chart(series(*range(MAX_DOTS + 1))).show_dots


def test_the_area_closes_on_the_baseline():
    chart = line_chart(series(5, -5), include_zero=True)

    closing = chart.area.split()[-2:]
    assert closing == [f"{chart.right},{chart.zero}", f"{chart.left},{chart.zero}"]


def test_the_last_value_is_written_on_the_side_with_room():
    assert line_chart(series(1, 2)).last_label_anchor == "end"
    assert line_chart(series(1)).last_label_anchor == "start"


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [(-40, 0, "−40"), (12.5, 1, "12.5"), (-0.04, 1, "0.0"), (0, 0, "0"), (1080.2, 0, "1080")],
)
def test_numbers_are_written_with_a_true_minus_and_never_minus_zero(value, decimals, text):
    assert format_number(value, decimals) == text


@pytest.mark.parametrize(
    ("low", "high", "axis"),
    [
        (0, 80, (0, 80, 20)),
        (-130, 40, (-150, 50, 50)),
        (-8, 8, (-10, 10, 5)),
        (990, 1010, (990, 1010, 5)),
        (0, 0.9, (0, 1, 0.2)),
    ],
)
def test_the_axis_steps_by_one_two_or_five_times_a_power_of_ten(low, high, axis):
    assert nice_axis(low, high) == pytest.approx(axis)
