"""The player profile: reads of the result caches, and its SVG charts laid out in Python.

The selectors read only the caches (PulkaResultCache, PairResultCache, RatingSnapshot), never
a pulka's deals, and each answers in one query whatever the number of pulkas the player has
played. :func:`line_chart` turns a series into everything ``competition/_chart.html`` prints: the
points scaled into the viewBox, "nice" axis ticks with their labels and the zero line.
"""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Count, F, Max, Min, Q, QuerySet, Sum, Window
from django.db.models.expressions import RowRange
from django.shortcuts import get_object_or_404
from django.utils.translation import pgettext_lazy

from club.models import Club, Player
from competition.rating import ratings
from scoring.models import PairResultCache, PulkaResultCache

PLACES = (1, 2, 3, 4)
PLACE_NAMES = {
    1: pgettext_lazy("place at the table", "1st"),
    2: pgettext_lazy("place at the table", "2nd"),
    3: pgettext_lazy("place at the table", "3rd"),
    4: pgettext_lazy("place at the table", "4th"),
}

# The order in which a player's pulkas happened: by evening, then as the tables were opened.
_PLAYED = ("date", "pulka__evening_id", "pulka_id")


def player_for_club(club: Club, player_id: int) -> Player:
    """A player of this club's roster; any other id (another club's player too) is a 404."""
    return get_object_or_404(Player, pk=player_id, club=club)


# The pulka list


def player_pulkas(club: Club, player: Player) -> QuerySet[PulkaResultCache]:
    """The player's finished pulkas, newest first, with their evening (for the links)."""
    return (
        PulkaResultCache.objects.filter(club=club, player=player)
        .select_related("pulka__evening")
        .order_by(*(f"-{field}" for field in _PLAYED))
    )


@dataclass(frozen=True, slots=True)
class PulkaRow:
    """One line of the pulka list: the cache row, its exact result and who else sat there."""

    cache: PulkaResultCache
    exact: Fraction
    tablemates: tuple[str, ...]

    @property
    def seat(self) -> int:
        return self.cache.position + 1


def pulka_rows(club: Club, player: Player, page: Sequence[PulkaResultCache]) -> list[PulkaRow]:
    """The rows of one page of :func:`player_pulkas`, with the tablemates (one query)."""
    ids = [row.pulka_id for row in page]
    mates: dict[int, list[str]] = defaultdict(list)
    others = (
        PulkaResultCache.objects.filter(club=club, pulka_id__in=ids)
        .exclude(player=player)
        .order_by("pulka_id", "position")
        .values_list("pulka_id", "player__name")
    )
    for pulka_id, name in others:
        mates[pulka_id].append(name)
    return [
        PulkaRow(cache=row, exact=Fraction(row.result), tablemates=tuple(mates[row.pulka_id]))
        for row in page
    ]


# Totals and places


@dataclass(frozen=True, slots=True)
class PlaceShare:
    place: int
    count: int
    percent: float  # of all the player's pulkas, 0–100

    @property
    def name(self) -> str:
        return str(PLACE_NAMES[self.place])


@dataclass(frozen=True, slots=True)
class Summary:
    pulkas: int
    whists: int  # the sum of the rounded results
    best: int | None
    worst: int | None
    places: tuple[PlaceShare, ...]

    @property
    def average(self) -> float | None:
        return self.whists / self.pulkas if self.pulkas else None


def player_summary(club: Club, player: Player) -> Summary:
    """Pulkas, whists, best and worst result, and how often each place: one aggregate query."""
    counts = {f"place_{n}": Count("id", filter=Q(place=n)) for n in PLACES}
    row = PulkaResultCache.objects.filter(club=club, player=player).aggregate(
        pulkas=Count("id"),
        whists=Sum("result_rounded"),
        best=Max("result_rounded"),
        worst=Min("result_rounded"),
        **counts,
    )
    total = row["pulkas"]
    places = tuple(
        PlaceShare(
            place=n,
            count=row[f"place_{n}"],
            percent=100 * row[f"place_{n}"] / total if total else 0.0,
        )
        for n in PLACES
    )
    return Summary(
        pulkas=total,
        whists=row["whists"] or 0,
        best=row["best"],
        worst=row["worst"],
        places=places,
    )


# Head to head


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent_id: int
    name: str
    pulkas: int  # finished pulkas at the same table
    net: Decimal  # whists the player won from this opponent over them (negative: lost)
    won: int  # pulkas in which the player came out ahead of this opponent
    lost: int

    @property
    def net_rounded(self) -> int:
        return int(self.net.quantize(Decimal(1), rounding=ROUND_HALF_UP))

    @property
    def even(self) -> int:
        return self.pulkas - self.won - self.lost


def head_to_head(club: Club, player: Player) -> list[HeadToHead]:
    """Every opponent the player has met, most met first: one grouped query on the pair cache."""
    rows = (
        PairResultCache.objects.filter(club=club, player=player)
        .values("opponent_id", "opponent__name")
        .annotate(
            pulkas=Count("id"),
            net_total=Sum("net"),
            won=Count("id", filter=Q(net__gt=0)),
            lost=Count("id", filter=Q(net__lt=0)),
        )
        .order_by("-pulkas", "opponent__name", "opponent_id")
    )
    return [
        HeadToHead(
            opponent_id=row["opponent_id"],
            name=row["opponent__name"],
            pulkas=row["pulkas"],
            net=Decimal(row["net_total"] or 0),
            won=row["won"],
            lost=row["lost"],
        )
        for row in rows
    ]


# The two series


def whists_series(club: Club, player: Player) -> list[tuple[datetime.date, int]]:
    """(date, whists so far) after each of the player's pulkas, in the order they were played.

    The running sum is a window function, so the database adds up and one query answers.
    """
    running = Window(
        Sum("result_rounded"),
        order_by=[F(field).asc() for field in _PLAYED],
        frame=RowRange(start=None, end=0),
    )
    return list(
        PulkaResultCache.objects.filter(club=club, player=player)
        .annotate(running=running)
        .order_by(*_PLAYED)
        .values_list("date", "running")
    )


def rating_series(player: Player) -> list[tuple[datetime.date, float]]:
    """(date, displayed rating) after each of the player's rated pulkas, in the club's order."""
    return ratings.rating_history(player)


# The chart


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


# The worked example of the "how ratings work" page, computed by competition.ratings itself


EXAMPLE_NAMES = (
    pgettext_lazy("a player in the rating example", "Anna"),
    pgettext_lazy("a player in the rating example", "Boris"),
    pgettext_lazy("a player in the rating example", "Vera"),
)
# What each won from each (row from column) in the example pulka: Anna 60 off Boris and
# 90 off Vera, Boris 30 off Vera. The same table as competition.ratings.rate_table's docstring.
EXAMPLE_NETS = ((0, 60, 90), (-60, 0, 30), (-90, -30, 0))
EXAMPLE_PLACES = (1, 2, 3)
CURVE_MARGINS = (-300, -150, -50, 0, 50, 150, 300, 1000)


@dataclass(frozen=True, slots=True)
class Margin:
    opponent: str
    whists: float  # Δ: what the player won from this opponent
    score: float  # S = 1 / (1 + 10^(−Δ/s))


@dataclass(frozen=True, slots=True)
class ExamplePlayer:
    name: str
    place: int
    margins: tuple[Margin, ...]
    placed: ratings.Rating  # after the finishing order alone
    after: ratings.Rating  # after the margin term too
    before: ratings.Rating = ratings.DEFAULT

    @property
    def result(self) -> float:
        return sum(margin.whists for margin in self.margins)

    @property
    def lost(self) -> float:
        """The whists lost in all (the result with its sign turned), for the sentence."""
        return -self.result

    @property
    def margin_score(self) -> float:
        return sum(margin.score for margin in self.margins) / len(self.margins)

    @property
    def place_mu(self) -> float:
        return self.placed.mu - self.before.mu

    @property
    def margin_mu(self) -> float:
        return self.after.mu - self.placed.mu

    @property
    def change(self) -> float:
        return self.after.display - self.before.display


@dataclass(frozen=True, slots=True)
class RatingExample:
    players: tuple[ExamplePlayer, ...]
    curve: tuple[tuple[int, float], ...]  # (Δ, S) for a few margins
    mu: float = ratings.MU
    sigma: float = ratings.SIGMA
    scale: float = ratings.MARGIN_SCALE
    weight: float = ratings.MARGIN_WEIGHT
    base: float = ratings.DISPLAY_BASE
    display_scale: float = ratings.DISPLAY_SCALE

    @property
    def newcomer(self) -> float:
        return ratings.DEFAULT.display

    @property
    def largest_margin_mu(self) -> float:
        """The most the margin term can move mu in one pulka: K/2."""
        return self.weight / 2


def rating_example() -> RatingExample:
    """Three newcomers' pulka rated by competition.ratings.rate_table, step by step.

    The finishing order alone is rate_table with every net at 0 (each S is then ½, and the
    margin term adds nothing); the full update is rate_table with the nets.
    """
    names = [str(name) for name in EXAMPLE_NAMES]
    fresh = [ratings.DEFAULT] * len(names)
    nets = [list(map(float, row)) for row in EXAMPLE_NETS]
    even = [[0.0] * len(names) for _ in names]
    placed = ratings.rate_table(fresh, EXAMPLE_PLACES, even)
    after = ratings.rate_table(fresh, EXAMPLE_PLACES, nets)
    players = tuple(
        ExamplePlayer(
            name=name,
            place=EXAMPLE_PLACES[i],
            margins=tuple(
                Margin(opponent=names[j], whists=nets[i][j], score=ratings.margin_score(nets[i][j]))
                for j in range(len(names))
                if j != i
            ),
            placed=placed[i],
            after=after[i],
        )
        for i, name in enumerate(names)
    )
    curve = tuple((delta, ratings.margin_score(delta)) for delta in CURVE_MARGINS)
    return RatingExample(players=players, curve=curve)


@dataclass(frozen=True, slots=True)
class MarginEffect:
    """What winning Δ whists from every opponent adds through the margin term alone."""

    whists: int
    score: float
    mu: float  # K·(S − ½)
    points: float  # the same in displayed rating points (sigma is left alone)


def margin_effect(whists: int) -> MarginEffect:
    score = ratings.margin_score(whists)
    mu = ratings.MARGIN_WEIGHT * (score - 0.5)
    return MarginEffect(whists=whists, score=score, mu=mu, points=ratings.DISPLAY_SCALE * mu)
