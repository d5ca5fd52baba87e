"""The drawn pulka: the paper score sheet players have kept by hand, laid out for SVG.

Everything the template ``scoring/_drawing.html`` prints is computed here, from the engine's
per-deal history (:attr:`scoring.engine.Sheet.snapshots`): the running sequences a pencil
writes (``2.4.10``), and the geometry of the sheet (sector polygons, band rectangles, text
lines already wrapped and positioned). The template only loops and prints.

The sheet is a square with nested bands around the centre circle, which holds the pool
target: from the centre outwards the mountain (гора), the pool (пуля) and, at the edge, the
whists (висты). Sector borders run from the circle: with 3 players a vertical line up to
the top edge and two diagonals to the bottom corners (seats left, right, bottom, clockwise);
with 4 players the two diagonals (seats top, right, bottom, left). In the whists band each
player has one column per opponent, the one next to a neighbour's sector for that neighbour.

Text widths are estimated from conservative per-character widths of handwriting fonts, so
a sequence that would leave its band is wrapped, then shrunk, then cut to its last values
after "…". No database and no template here: pure functions of engine objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring import engine
from scoring.formatting import score as _score

__all__ = [
    "Drawing",
    "Label",
    "PlayerDrawing",
    "Rect",
    "Segment",
    "TextBlock",
    "TextLine",
    "WhistColumn",
    "pulka_drawing",
    "running_sequence",
]

Point = tuple[float, float]

# The sheet: a square of SIDE units, its centre at (CENTRE, CENTRE); bands are given by the
# half-size of their outer rectangle.
SIDE = 1000.0
CENTRE = SIDE / 2
WHISTS_OUTER = SIDE / 2
POOL_OUTER = 338.0
MOUNTAIN_OUTER = 208.0
CIRCLE = 62.0
MOUNTAIN_INNER = CIRCLE + 14  # mountain lines keep clear of the circle
MARGIN = 58.0  # for the names, outside the sheet
TOP_MARGIN_3 = 16.0  # nobody sits at the top of a 3-player sheet

SIZES = (36.0, 30.0, 24.0)  # sequences: written large, shrunk before they are cut
LABEL_SIZE = 22.0  # opponent's name heading a whists column
NAME_SIZE = 36.0
TARGET_SIZE = 50.0
SUM_SIZE = 24.0  # the pools' sum under the target, under pool_end: sum
LINE_HEIGHT = 1.2  # in ems
ASCENT = 0.9  # baseline below the top of a line box, in ems
DESCENT = 0.26
PAD_X = 10.0
PAD_Y = 5.0
ELLIPSIS = "…"
CLOSING_MARK = "\u00a0||"  # the stroke after a closed pool's final value (no-break space)

# Character widths in ems, on the wide side of "Segoe Print" / "Comic Sans MS" / DejaVu Sans.
_EM = dict.fromkeys("0123456789", 0.68) | {
    ".": 0.36,
    "/": 0.46,
    "−": 0.72,
    "-": 0.42,
    ELLIPSIS: 1.0,
    " ": 0.34,
    "\u00a0": 0.34,
    "|": 0.4,
}


@dataclass(frozen=True, slots=True)
class TextLine:
    """One written line. ``x``/``y`` (its baseline's middle) are in the frame of ``transform``.

    ``closing`` is a closed pool's final value, drawn after ``text`` in the closed style and
    followed by ``closing_mark``, the closing stroke;
    ``box`` is the line's estimated extent on the sheet (x0, y0, x1, y1).
    """

    x: float
    y: float
    transform: str
    text: str
    closing: str = ""
    closing_mark: str = ""
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class TextBlock:
    """A sequence written into its band: the lines, their font size, whether it was cut."""

    size: float
    lines: tuple[TextLine, ...]
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class Label:
    """A single centred word: a player's name by his edge, or the target in the circle."""

    x: float
    y: float
    transform: str
    text: str
    size: float
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class WhistColumn:
    """The whists one player wrote on one opponent, in a column of his whists band."""

    opponent: str
    label: TextBlock
    block: TextBlock
    final: str
    sequence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerDrawing:
    """One player's sector: his name, pool, mountain and whists columns."""

    name: str
    seat: int
    side: str
    sector: str  # SVG polygon points
    label: Label
    pool: TextBlock
    pool_sequence: tuple[str, ...]
    pool_final: str
    closed: bool
    mountain: TextBlock
    mountain_sequence: tuple[str, ...]
    mountain_final: str
    whists: tuple[WhistColumn, ...]


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Drawing:
    """Everything ``scoring/_drawing.html`` prints (sheet coordinates, SVG user units)."""

    view_box: str
    min_x: float
    min_y: float
    width: float
    height: float
    sheet: Rect
    bands: tuple[Rect, ...]  # the pool band's and the mountain band's outer rectangles
    borders: tuple[Segment, ...]  # sector borders, from the circle outwards
    dividers: tuple[Segment, ...]  # between the whists columns
    circle_x: float
    circle_y: float
    circle_r: float
    target: Label
    players: tuple[PlayerDrawing, ...]
    closed: bool
    deals: int
    # Under ``pool_end: sum`` (rules/conventions.md §20): the pools added up and the end n·T,
    # written in the circle under the target ("Σ 32/30"); None where each pool closes.
    pool_sum: int | None = None
    pool_sum_target: int | None = None
    sum_label: Label | None = None

    @property
    def pool_sum_reached(self) -> bool:
        return self.pool_sum_target is not None and (self.pool_sum or 0) >= self.pool_sum_target

    def labels(self) -> list[Label]:
        extra = [self.sum_label] if self.sum_label is not None else []
        return [self.target, *extra, *(p.label for p in self.players)]

    def blocks(self) -> list[TextBlock]:
        found = []
        for p in self.players:
            found += [p.pool, p.mountain]
            for column in p.whists:
                found += [column.label, column.block]
        return found


def running_sequence(values: Sequence[int | Fraction]) -> list[str]:
    """The values a pencil writes for a cumulative score: each change, as it happened.

    ``values`` are the totals after each deal; the sheet starts at 0, which is not written,
    and a total that did not change is not written again. Scores are written as players
    write them: ``−4``, ``5/2``.

    Example (B's pool in G10, and a mountain written down to a negative fraction)::

        >>> running_sequence([0, 2, 2, 4, 6, 10, 10])
        ['2', '4', '6', '10']
        >>> running_sequence([0, 4, 12, 12, 9, Fraction(-5, 2)])
        ['4', '12', '9', '−5/2']
    """
    written: list[str] = []
    previous: int | Fraction = 0
    for value in values:
        if value != previous:
            written.append(_score(value))
            previous = value
    return written


def pulka_drawing(sheet: engine.Sheet, names: Sequence[str]) -> Drawing:
    """The paper pulka of ``sheet``; ``names`` label the seats of ``sheet.players``.

    Example (A makes a six with two whisters, then B a seven alone)::

        >>> from scoring.engine import Deal, Rules, compute_sheet
        >>> deals = [
        ...     Deal("game", "A", "6S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2}),
        ...     Deal("game", "B", "7H", {"C": "pass", "A": "pass"}),
        ... ]
        >>> sheet = compute_sheet(Rules(pool_target=4), ["A", "B", "C"], deals)
        >>> drawing = pulka_drawing(sheet, ["Anna", "Boris", "Vera"])
        >>> [(p.name, p.side, p.pool_sequence, p.closed) for p in drawing.players]
        [('Anna', 'left', ('2',), False), ('Boris', 'right', ('4',), True), \
('Vera', 'bottom', (), False)]
        >>> [(c.opponent, c.sequence) for c in drawing.players[1].whists]
        [('Anna', ('4',)), ('Vera', ())]
    """
    players = list(sheet.players)
    if len(names) != len(players):
        raise ValueError(f"{len(names)} names for {len(players)} seats")
    n = len(players)
    label_of = dict(zip(players, names, strict=True))
    target = sheet.rules.pool_target
    snaps = sheet.snapshots
    sum_target = sheet.pool_sum_target
    by_each = sum_target is None

    layout = _LAYOUTS[n]
    drawn: list[PlayerDrawing] = []
    dividers: list[Segment] = []
    for seat, (player, (sector, sides, own)) in enumerate(zip(players, layout, strict=True)):
        name = label_of[player]
        pool_seq = running_sequence([s.pool[player] for s in snaps])
        mountain_seq = running_sequence([s.mountain[player] for s in snaps])
        # Under the sum's end no pool closes by itself: a pool may pass the target (§20).
        closed = by_each and sheet.pool[player] >= target
        # Pool and mountain along the player's own side only (in a 3-player sheet the side
        # players' corner pieces stay blank), so the last value is always in the same place.
        pool_block = _block(_slot(sector, own, MOUNTAIN_OUTER, POOL_OUTER), pool_seq, SIZES, closed)
        mountain_block = _block(
            _slot(sector, own, MOUNTAIN_INNER, MOUNTAIN_OUTER), mountain_seq, SIZES
        )

        opponents = [players[(seat - 1 - k) % n] for k in range(n - 1)]
        columns, column_dividers = _whist_columns(sector, sides, n - 1)
        dividers += column_dividers
        whists = []
        for opponent, column in zip(opponents, columns, strict=True):
            label_slot, sequence_slot = _split_label(column)
            sequence = running_sequence([s.whists[player][opponent] for s in snaps])
            whists.append(
                WhistColumn(
                    opponent=label_of[opponent],
                    label=_single_line(label_slot, label_of[opponent], LABEL_SIZE),
                    block=_block(sequence_slot, sequence, SIZES),
                    final=sequence[-1] if sequence else "0",
                    sequence=tuple(sequence),
                )
            )
        drawn.append(
            PlayerDrawing(
                name=name,
                seat=seat,
                side=own,
                sector=_points(sector),
                label=_name_label(name, own),
                pool=pool_block,
                pool_sequence=tuple(pool_seq),
                pool_final=pool_seq[-1] if pool_seq else "0",
                closed=closed,
                mountain=mountain_block,
                mountain_sequence=tuple(mountain_seq),
                mountain_final=mountain_seq[-1] if mountain_seq else "0",
                whists=tuple(whists),
            )
        )

    top = TOP_MARGIN_3 if n == 3 else MARGIN
    min_x, min_y = -MARGIN, -top
    width, height = SIDE + 2 * MARGIN, SIDE + MARGIN + top
    target_text = _score(target)
    target_size = min(TARGET_SIZE, TARGET_SIZE * 1.7 * CIRCLE / _width(target_text, TARGET_SIZE))
    target_width = _width(target_text, target_size)
    target_y = CENTRE + 0.36 * target_size
    sum_label = None
    if sum_target is not None:
        # The target moves up; the running sum against n·T goes under it, within the circle.
        target_size = min(target_size, 0.8 * TARGET_SIZE)
        target_width = _width(target_text, target_size)
        target_y = CENTRE - 0.05 * target_size
        sum_text = f"\u03a3\u00a0{sheet.pool_sum}/{sum_target}"
        sum_size = min(SUM_SIZE, SUM_SIZE * 1.5 * CIRCLE / _width(sum_text, SUM_SIZE))
        sum_width = _width(sum_text, sum_size)
        sum_y = CENTRE + 0.45 * CIRCLE
        sum_label = Label(
            x=CENTRE,
            y=_n(sum_y),
            transform="",
            text=sum_text,
            size=_n(sum_size),
            box=(
                _n(CENTRE - sum_width / 2),
                _n(sum_y - 0.76 * sum_size),
                _n(CENTRE + sum_width / 2),
                _n(sum_y + 0.04 * sum_size),
            ),
        )
    return Drawing(
        view_box=f"{_n(min_x)} {_n(min_y)} {_n(width)} {_n(height)}",
        min_x=min_x,
        min_y=min_y,
        width=width,
        height=height,
        sheet=Rect(0.0, 0.0, SIDE, SIDE),
        bands=tuple(
            Rect(CENTRE - h, CENTRE - h, 2 * h, 2 * h) for h in (POOL_OUTER, MOUNTAIN_OUTER)
        ),
        borders=tuple(_border(end) for end in _BORDER_ENDS[n]),
        dividers=tuple(dividers),
        circle_x=CENTRE,
        circle_y=CENTRE,
        circle_r=CIRCLE,
        target=Label(
            x=CENTRE,
            y=_n(target_y),
            transform="",
            text=target_text,
            size=_n(target_size),
            box=(
                _n(CENTRE - target_width / 2),
                _n(target_y - 0.76 * target_size),
                _n(CENTRE + target_width / 2),
                _n(target_y + 0.04 * target_size),
            ),
        ),
        players=tuple(drawn),
        closed=sheet.closed,
        deals=len(snaps),
        pool_sum=None if sum_target is None else sheet.pool_sum,
        pool_sum_target=sum_target,
        sum_label=sum_label,
    )


# --- the layouts -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Side:
    normal: Point  # outwards
    angle: int  # text rotation: each player's text faces the centre, the top one upright
    outer_at_end: bool  # the band's outer edge is at the local frame's largest y
    clockwise: bool  # local x grows clockwise round the sheet


_SIDES = {
    "top": _Side((0.0, -1.0), 0, False, True),
    "right": _Side((1.0, 0.0), -90, True, False),
    "bottom": _Side((0.0, 1.0), 0, True, False),
    "left": _Side((-1.0, 0.0), 90, True, False),
}

_S, _C = SIDE, CENTRE
# Per seat, clockwise: the sector polygon and the sides of the sheet it owns (clockwise),
# the first being where the player sits.
_LAYOUTS: dict[int, tuple[tuple[tuple[Point, ...], tuple[str, ...], str], ...]] = {
    3: (
        (((0, 0), (_C, 0), (_C, _C), (0, _S)), ("left", "top"), "left"),
        (((_C, 0), (_S, 0), (_S, _S), (_C, _C)), ("top", "right"), "right"),
        (((_C, _C), (_S, _S), (0, _S)), ("bottom",), "bottom"),
    ),
    4: (
        (((0, 0), (_S, 0), (_C, _C)), ("top",), "top"),
        (((_S, 0), (_S, _S), (_C, _C)), ("right",), "right"),
        (((_S, _S), (0, _S), (_C, _C)), ("bottom",), "bottom"),
        (((0, _S), (0, 0), (_C, _C)), ("left",), "left"),
    ),
}
_BORDER_ENDS: dict[int, tuple[Point, ...]] = {
    3: ((_C, 0), (_S, _S), (0, _S)),
    4: ((0, 0), (_S, 0), (_S, _S), (0, _S)),
}


def _border(end: Point) -> Segment:
    dx, dy = end[0] - CENTRE, end[1] - CENTRE
    length = math.hypot(dx, dy)
    start = (CENTRE + CIRCLE * dx / length, CENTRE + CIRCLE * dy / length)
    return Segment(_n(start[0]), _n(start[1]), _n(end[0]), _n(end[1]))


# --- geometry --------------------------------------------------------------------------


def _n(value: float) -> float:
    """A coordinate as printed: one decimal, and no "-0.0"."""
    return round(value, 1) + 0.0


def _points(polygon: Sequence[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in polygon)


def _clip(polygon: Sequence[Point], a: float, b: float, c: float) -> list[Point]:
    """The part of a convex polygon where a·x + b·y <= c (Sutherland–Hodgman)."""
    out: list[Point] = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 1e-9:
            out.append(p)
        if (fp < -1e-9 and fq > 1e-9) or (fp > 1e-9 and fq < -1e-9):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _band_piece(sector: Sequence[Point], side: str, inner: float, outer: float) -> list[Point]:
    """The part of a sector in the band [inner, outer] along one side of the sheet."""
    nx, ny = _SIDES[side].normal
    piece = list(sector)
    # The side's wedge (between the diagonals), then the band's slab: n·(p − centre) ∈ [in, out].
    tx, ty = -ny, nx
    for a, b in ((tx - nx, ty - ny), (-tx - nx, -ty - ny)):
        piece = _clip(piece, a, b, (a + b) * CENTRE)
    piece = _clip(piece, nx, ny, outer + nx * CENTRE + ny * CENTRE)
    piece = _clip(piece, -nx, -ny, -inner - nx * CENTRE - ny * CENTRE)
    return piece


def _rotate(p: Point, degrees: float) -> Point:
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)


@dataclass(frozen=True, slots=True)
class _Slot:
    """A convex piece of a band in the text frame of its side (rotated by ``angle``).

    Lines stack downwards in that frame from ``y0`` to ``y1``; they hug the band's outer
    edge (``from_end``: the last line at ``y1``), where the band is widest.
    """

    angle: int
    polygon: tuple[Point, ...]
    y0: float
    y1: float
    from_end: bool

    def capacity(self, size: float) -> int:
        return max(0, int((self.y1 - self.y0 + 1e-6) // (LINE_HEIGHT * size)))

    def lines(self, count: int, size: float) -> list[tuple[float, float, float]]:
        """(x0, x1, top) of ``count`` lines in reading order, hugging the outer edge."""
        step = LINE_HEIGHT * size
        tops = [
            (self.y1 - (count - k) * step) if self.from_end else (self.y0 + k * step)
            for k in range(count)
        ]
        found = []
        for top in tops:
            a, b = _span(self.polygon, top), _span(self.polygon, top + step)
            if a is None or b is None:
                found.append((0.0, 0.0, top))
                continue
            found.append((max(a[0], b[0]) + PAD_X, min(a[1], b[1]) - PAD_X, top))
        return found


def _span(polygon: Sequence[Point], y: float) -> tuple[float, float] | None:
    """Where the horizontal line at y crosses a convex polygon."""
    xs = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        lo, hi = min(p[1], q[1]), max(p[1], q[1])
        if lo - 1e-6 <= y <= hi + 1e-6:
            if abs(q[1] - p[1]) < 1e-9:
                xs += [p[0], q[0]]
            else:
                xs.append(p[0] + (y - p[1]) * (q[0] - p[0]) / (q[1] - p[1]))
    return (min(xs), max(xs)) if xs else None


def _slot(sector: Sequence[Point], side: str, inner: float, outer: float) -> _Slot:
    """The part of a sector in a band along one side, in that side's text frame."""
    spec = _SIDES[side]
    local = tuple(_rotate(p, -spec.angle) for p in _band_piece(sector, side, inner, outer))
    ys = [p[1] for p in local]
    return _Slot(spec.angle, local, min(ys) + PAD_Y, max(ys) - PAD_Y, spec.outer_at_end)


def _whist_columns(
    sector: Sequence[Point], sides: Sequence[str], count: int
) -> tuple[list[_Slot], list[Segment]]:
    """The whists band of a sector as ``count`` columns in clockwise order, and the strokes
    between them: one column per side owned, or one side cut across into ``count``."""
    if len(sides) == count:
        columns = [_slot(sector, s, POOL_OUTER, WHISTS_OUTER) for s in sides]
        dividers = []
        for first, second in zip(sides, sides[1:], strict=False):
            (ax, ay), (bx, by) = _SIDES[first].normal, _SIDES[second].normal
            dx, dy = ax + bx, ay + by  # towards the corner the two sides share
            inner = (CENTRE + dx * POOL_OUTER, CENTRE + dy * POOL_OUTER)
            outer = (CENTRE + dx * WHISTS_OUTER, CENTRE + dy * WHISTS_OUTER)
            dividers.append(Segment(_n(inner[0]), _n(inner[1]), _n(outer[0]), _n(outer[1])))
        return columns, dividers
    (side,) = sides
    spec = _SIDES[side]
    whole = _slot(sector, side, POOL_OUTER, WHISTS_OUTER)
    # Cut at equal parts of the band's middle line, so that each column has about as much room.
    lo, hi = _span(whole.polygon, (whole.y0 + whole.y1) / 2) or (0.0, 0.0)
    cuts = [lo + k * (hi - lo) / count for k in range(1, count)]
    bounds = [-math.inf, *cuts, math.inf]
    columns = []
    for left, right in zip(bounds, bounds[1:], strict=False):
        polygon = list(whole.polygon)
        if left > -math.inf:
            polygon = _clip(polygon, -1.0, 0.0, -left)
        if right < math.inf:
            polygon = _clip(polygon, 1.0, 0.0, right)
        columns.append(_Slot(whole.angle, tuple(polygon), whole.y0, whole.y1, whole.from_end))
    if not spec.clockwise:
        columns.reverse()
    ys = [p[1] for p in whole.polygon]
    dividers = []
    for x in cuts:
        (x1, y1), (x2, y2) = (_rotate((x, y), spec.angle) for y in (min(ys), max(ys)))
        dividers.append(Segment(_n(x1), _n(y1), _n(x2), _n(y2)))
    return columns, dividers


def _split_label(column: _Slot) -> tuple[_Slot, _Slot]:
    """The column's heading line by the pool band, and the rest for the sequence."""
    step = LINE_HEIGHT * LABEL_SIZE
    if column.from_end:  # the inner edge is at y0
        label = _Slot(column.angle, column.polygon, column.y0, column.y0 + step, False)
        rest = _Slot(column.angle, column.polygon, column.y0 + step, column.y1, True)
    else:
        label = _Slot(column.angle, column.polygon, column.y1 - step, column.y1, False)
        rest = _Slot(column.angle, column.polygon, column.y0, column.y1 - step, False)
    return label, rest


# --- text ------------------------------------------------------------------------------


def _width(text: str, size: float) -> float:
    return size * sum(_EM.get(ch, 0.74 if ch.isupper() else 0.62) for ch in text)


def _wrap(
    tokens: Sequence[str], widths: Sequence[float], size: float, closing: bool
) -> list[list[str]] | None:
    """Tokens greedily into lines of the given widths, "a.b." then "c"; None if they overflow.

    A closed sequence's last value is followed by the closing mark, which must fit too.
    """
    dot = _width(".", size)
    token_widths = [_width(t, size) for t in tokens]
    mark = _width(CLOSING_MARK, size) if closing else 0.0
    lines: list[list[str]] = []
    i, n = 0, len(tokens)
    for available in widths:
        if i == n:
            break
        used, j = 0.0, i
        while j < n:
            last = j + 1 == n
            grown = used + token_widths[j] + (mark if last else dot)
            if grown > available:
                break
            used += token_widths[j] + dot
            j += 1
        if j == i:
            return None
        lines.append(list(tokens[i:j]))
        i = j
    return lines if i == n else None


def _block(
    slot: _Slot, tokens: Sequence[str], sizes: Sequence[float], closing: bool = False
) -> TextBlock:
    """A sequence laid into its slot: as few lines as possible at the largest size that
    fits; if none does, at the smallest size, its last values after "…"."""
    if not tokens:
        return TextBlock(size=sizes[0], lines=())
    for size in sizes:
        for count in range(1, slot.capacity(size) + 1):
            places = slot.lines(count, size)
            wrapped = _wrap(tokens, [x1 - x0 for x0, x1, _ in places], size, closing)
            if wrapped is not None:
                return _lines(slot, places, wrapped, size, closing)
    size = sizes[-1]
    places = slot.lines(max(1, slot.capacity(size)), size)
    widths = [x1 - x0 for x0, x1, _ in places]

    def cut(k: int) -> list[str]:
        return [ELLIPSIS + tokens[k], *tokens[k + 1 :]]

    # The fewer values kept, the better they fit: find the longest tail that fits.
    lo, hi = 1, len(tokens) - 1
    best: list[list[str]] | None = None
    while lo <= hi:
        k = (lo + hi) // 2
        wrapped = _wrap(cut(k), widths, size, closing)
        if wrapped is None:
            lo = k + 1
        else:
            best, hi = wrapped, k - 1
    if best is None:  # not even the last value fits a line: write it anyway
        best = [[tokens[-1]]]
    return _lines(slot, places, best, size, closing, truncated=True)


def _lines(
    slot: _Slot,
    places: Sequence[tuple[float, float, float]],
    wrapped: Sequence[Sequence[str]],
    size: float,
    closing: bool,
    truncated: bool = False,
) -> TextBlock:
    """The wrapped values as text lines, centred in their places; "a.b." then "c"."""
    lines = []
    last = len(wrapped) - 1
    for k, ((x0, x1, top), tokens) in enumerate(zip(places, wrapped, strict=False)):
        if closing and k == last:
            shown, closing_text = "".join(f"{t}." for t in tokens[:-1]), tokens[-1]
            width = _width(shown + closing_text + CLOSING_MARK, size)
        else:
            shown, closing_text = ".".join(tokens) + ("." if k < last else ""), ""
            width = _width(shown, size)
        lines.append(_line(slot, x0, x1, top, size, shown, width, closing_text))
    return TextBlock(size=size, lines=tuple(lines), truncated=truncated)


def _line(
    slot: _Slot,
    x0: float,
    x1: float,
    top: float,
    size: float,
    text: str,
    width: float,
    closing: str = "",
) -> TextLine:
    baseline, middle = top + ASCENT * size, (x0 + x1) / 2
    return TextLine(
        x=_n(middle),
        y=_n(baseline),
        transform=_transform(slot.angle),
        text=text,
        closing=closing,
        closing_mark=CLOSING_MARK if closing else "",
        box=_box(slot.angle, middle - width / 2, baseline, width, size),
    )


def _single_line(slot: _Slot, text: str, size: float) -> TextBlock:
    """A word on one line, shortened with "…" if it does not fit (a long name)."""
    if slot.capacity(size) < 1:
        return TextBlock(size=size, lines=())
    ((x0, x1, top),) = slot.lines(1, size)
    shown = text
    while len(shown) > 1 and _width(shown, size) > x1 - x0:
        shown = shown[:-2] + ELLIPSIS if len(shown) > 2 else shown[:1]
    line = _line(slot, x0, x1, top, size, shown, _width(shown, size))
    return TextBlock(size=size, lines=(line,))


def _name_label(name: str, side: str) -> Label:
    """The player's name outside his edge, written facing the centre like his numbers."""
    spec = _SIDES[side]
    nx, ny = spec.normal
    # Along the edge's middle; the glyphs between the baseline and the edge.
    outward = 8 + (ASCENT * NAME_SIZE if spec.outer_at_end else DESCENT * NAME_SIZE)
    anchor = (CENTRE + nx * (WHISTS_OUTER + outward), CENTRE + ny * (WHISTS_OUTER + outward))
    x, y = _rotate(anchor, -spec.angle)
    shown = name
    while len(shown) > 1 and _width(shown, NAME_SIZE) > SIDE * 0.8:
        shown = shown[:-2] + ELLIPSIS
    width = _width(shown, NAME_SIZE)
    return Label(
        x=_n(x),
        y=_n(y),
        transform=_transform(spec.angle),
        text=shown,
        size=NAME_SIZE,
        box=_box(spec.angle, x - width / 2, y, width, NAME_SIZE),
    )


def _transform(angle: int) -> str:
    return f"rotate({angle})" if angle else ""


def _box(
    angle: int, x0: float, baseline: float, width: float, size: float
) -> tuple[float, float, float, float]:
    corners = [
        _rotate((x, y), angle)
        for x in (x0, x0 + width)
        for y in (baseline - ASCENT * size, baseline + DESCENT * size)
    ]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (_n(min(xs)), _n(min(ys)), _n(max(xs)), _n(max(ys)))
