"""The profile's SVG charts, laid out in Python.

:func:`line_chart` turns a series into everything ``competition/_chart.html`` prints: the
points scaled into the viewBox, "nice" axis ticks with their labels and the zero line.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 260
LEFT, RIGHT, TOP, BOTTOM = 56.0, 18.0, 18.0, 40.0  # room for the tick labels
Y_TICKS = 5
X_TICKS = 5
MIN_TICK_GAP = 90.0  # a date label is about 50 units wide
MAX_DOTS = 60  # beyond this the dots would blur into the line
MINUS = "\u2212"


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    date: datetime.date
    value: float
    label: str


@dataclass(frozen=True, slots=True)
class XTick:
    x: float
    date: datetime.date
    anchor: str  # text-anchor: the first and the last label stay inside the frame


@dataclass(frozen=True, slots=True)
class YTick:
    y: float
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    """A line chart laid out in a WIDTH × HEIGHT viewBox; empty when `dots` is empty."""

    dots: tuple[Dot, ...]
    x_ticks: tuple[XTick, ...] = ()
    y_ticks: tuple[YTick, ...] = ()
    zero: float | None = None  # the y of the zero line, when 0 is within the axis
    baseline: float = 0.0  # where the shaded area closes: the zero line, else the bottom
    show_dots: bool = False
    date_format: str = "j M"  # the ticks' dates: "M Y" when the series spans years
    width: int = WIDTH
    height: int = HEIGHT
    left: float = LEFT
    right: float = WIDTH - RIGHT
    top: float = TOP
    bottom: float = HEIGHT - BOTTOM

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def y_label_x(self) -> float:
        return self.left - 8

    @property
    def tick_end(self) -> float:
        return self.bottom + 5

    @property
    def x_label_y(self) -> float:
        return self.bottom + 22

    @property
    def points(self) -> str:
        return " ".join(f"{dot.x},{dot.y}" for dot in self.dots)

    @property
    def area(self) -> str:
        """The polygon between the line and the baseline."""
        if not self.dots:
            return ""
        ends = f"{self.dots[-1].x},{self.baseline} {self.dots[0].x},{self.baseline}"
        return f"{self.points} {ends}"

    @property
    def first(self) -> Dot | None:
        return self.dots[0] if self.dots else None

    @property
    def last(self) -> Dot | None:
        return self.dots[-1] if self.dots else None

    @property
    def high(self) -> Dot | None:
        return max(self.dots, key=lambda dot: dot.value) if self.dots else None

    @property
    def low(self) -> Dot | None:
        return min(self.dots, key=lambda dot: dot.value) if self.dots else None

    @property
    def last_label_anchor(self) -> str:
        """The last value is written beside its dot, on the side where there is room."""
        last = self.last
        return "end" if last and last.x > (self.left + self.right) / 2 else "start"


def nice_axis(low: float, high: float, intervals: int = Y_TICKS - 1) -> tuple[float, float, float]:
    """A value axis (start, end, step) around [low, high] with a round step.

    The step is 1, 2 or 5 times a power of ten; of those, the one whose axis has closest to
    `intervals` intervals wins; on a tie the tighter axis, then the larger step.

    >>> nice_axis(0, 430), nice_axis(1000, 1080.2), nice_axis(-0.2, 1.1)
    ((0.0, 500.0, 100.0), (1000.0, 1100.0, 20.0), (-0.5, 1.5, 0.5))
    """
    power = 10.0 ** math.floor(math.log10((high - low) / intervals))
    candidates = [factor * power for factor in (0.5, 1, 2, 5, 10, 20)]

    def axis(step: float) -> tuple[float, float, float]:
        return (
            math.floor(low / step + 1e-9) * step,
            math.ceil(high / step - 1e-9) * step,
            step,
        )

    def fit(step: float) -> tuple[float, float]:
        start, end, _ = axis(step)
        return abs(round((end - start) / step) - intervals), end - start, -step

    return axis(min(candidates, key=fit))


def format_number(value: float, decimals: int) -> str:
    """A tick or point label: "−40", "12.5" (a true minus sign, no "−0")."""
    text = f"{abs(value):.{decimals}f}"
    negative = value < 0 and float(text) != 0
    return f"{MINUS}{text}" if negative else text


def _decimals(step: float) -> int:
    return max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0


def line_chart(
    series: Iterable[tuple[datetime.date, float]],
    *,
    include_zero: bool = False,
    decimals: int | None = None,
) -> Chart:
    """Lay out a series of (date, value) in order: one point per item, evenly spaced.

    `include_zero` stretches the value axis to 0; `decimals` fixes the points' labels
    (by default whole numbers when every value is one, else one decimal).

    The x axis counts the items (pulkas, or rated pulkas), labelled with their dates, so an
    evening of three pulkas takes three steps rather than one crowded column.

    >>> chart = line_chart([(datetime.date(2024, 5, 1), 10), (datetime.date(2024, 5, 8), -20)],
    ...                    include_zero=True)
    >>> chart.points, chart.zero, [t.label for t in chart.y_ticks]
    ('56.0,18.0 622.0,220.0', 85.3, ['−20', '−10', '0', '10'])
    """
    items = list(series)
    if not items:
        return Chart(dots=())
    values = [float(value) for _, value in items]
    low, high = min(values), max(values)
    if include_zero:
        low, high = min(low, 0.0), max(high, 0.0)
    if high - low < 1e-9:
        pad = max(1.0, abs(high) * 0.1)
        low, high = low - pad, high + pad
    axis_low, axis_high, step = nice_axis(low, high)
    tick_decimals = _decimals(step)

    top, bottom = TOP, HEIGHT - BOTTOM
    left, right = LEFT, WIDTH - RIGHT

    def y_of(value: float) -> float:
        return round(bottom - (value - axis_low) / (axis_high - axis_low) * (bottom - top), 1)

    count = len(items)

    def x_of(index: int) -> float:
        if count == 1:
            return round((left + right) / 2, 1)
        return round(left + index / (count - 1) * (right - left), 1)

    if decimals is None:
        decimals = 0 if all(v == int(v) for v in values) else 1
    dots = tuple(
        Dot(
            x=x_of(i),
            y=y_of(value),
            date=date,
            value=value,
            label=format_number(value, decimals),
        )
        for i, ((date, _), value) in enumerate(zip(items, values, strict=True))
    )

    ticks = round((axis_high - axis_low) / step)
    y_ticks = tuple(
        YTick(y=y_of(axis_low + k * step), label=format_number(axis_low + k * step, tick_decimals))
        for k in range(ticks + 1)
    )

    x_ticks = _date_ticks([date for date, _ in items], x_of)

    zero = y_of(0.0) if axis_low <= 0 <= axis_high else None
    return Chart(
        dots=dots,
        x_ticks=tuple(x_ticks),
        y_ticks=y_ticks,
        zero=zero,
        baseline=zero if zero is not None else bottom,
        show_dots=count <= MAX_DOTS,
        date_format="j M" if items[0][0].year == items[-1][0].year else "M Y",
    )


def _date_ticks(dates: Sequence[datetime.date], x_of: Callable[[int], float]) -> tuple[XTick, ...]:
    """Up to X_TICKS date labels, evenly picked, never closer than MIN_TICK_GAP, always with
    the first and the last item (one label per evening)."""
    count = len(dates)
    if count == 1:
        return (XTick(x=x_of(0), date=dates[0], anchor="middle"),)
    wanted = sorted({round(k * (count - 1) / (X_TICKS - 1)) for k in range(X_TICKS)})
    kept: list[int] = []
    for index in wanted:
        if kept and (
            dates[kept[-1]] == dates[index] or x_of(index) - x_of(kept[-1]) < MIN_TICK_GAP
        ):
            if index != count - 1:
                continue
            if len(kept) > 1:
                kept.pop()  # the last item's label wins over a crowded neighbour
            elif dates[kept[-1]] == dates[index]:
                continue
        kept.append(index)
    anchors = {kept[0]: "start", kept[-1]: "end"} if len(kept) > 1 else {}
    return tuple(XTick(x=x_of(i), date=dates[i], anchor=anchors.get(i, "middle")) for i in kept)
