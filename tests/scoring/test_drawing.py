"""The drawn pulka (scoring/drawing.py and scoring/_drawing.html): no database needed."""

from __future__ import annotations

import doctest
import json
import math
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from scoring import drawing as drawing_module
from scoring import engine
from scoring.drawing import SIZES, Drawing, pulka_drawing, running_sequence
from tests.engine.factories import long_pulka

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"
SVG = "{http://www.w3.org/2000/svg}"


def load_case(name: str) -> dict:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def expected_deals(name: str) -> list[dict]:
    return json.loads((CASES / f"{name}.expected.json").read_text(encoding="utf-8"))["deals"]


def case_drawing(name: str, names: list[str] | None = None) -> Drawing:
    case = load_case(name)
    return pulka_drawing(engine.score_pulka(case), names or case["players"])


# --- running sequences -------------------------------------------------------------------


def test_the_docstring_examples_hold():
    result = doctest.testmod(drawing_module)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(
    ("values", "written"),
    [
        ([], []),
        ([0, 0, 0], []),
        ([0, 2, 2, 4, 6, 10, 10], ["2", "4", "6", "10"]),
        ([4, 12, 12, 9], ["4", "12", "9"]),
        ([4, 0, 0, -2], ["4", "0", "−2"]),
        ([Fraction(5, 2), Fraction(5, 2), Fraction(-3, 2), Fraction(4, 2)], ["5/2", "−3/2", "2"]),
    ],
)
def test_a_running_sequence_writes_each_change_and_not_the_starting_zero(values, written):
    assert running_sequence(values) == written


def test_a_mountain_that_comes_back_to_zero_writes_the_zero():
    assert running_sequence([0, 3, 0]) == ["3", "0"]


@pytest.mark.parametrize("name", ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G9", "G10"])
def test_sequences_follow_the_expected_snapshots_of_every_golden_case(name):
    drawing = case_drawing(name)
    deals = expected_deals(name)

    for p in drawing.players:
        assert list(p.pool_sequence) == running_sequence([d["pool"][p.name] for d in deals])
        mountains = [Fraction(d["mountain"][p.name]) for d in deals]
        assert list(p.mountain_sequence) == running_sequence(mountains)
        for column in p.whists:
            on = [d["whists"][p.name][column.opponent] for d in deals]
            assert list(column.sequence) == running_sequence(on)
            assert column.final == str(on[-1])


def test_g10_sequences_as_a_pencil_writes_them():
    a, b, c = case_drawing("G10").players

    assert a.pool_sequence == ("10",)
    assert b.pool_sequence == ("2", "4", "6", "10")
    assert c.pool_sequence == ("2", "4", "10")
    assert c.mountain_sequence == ("−4",)
    assert a.mountain_sequence == b.mountain_sequence == ()
    on = {column.opponent: column.sequence for column in a.whists}
    assert on == {"B": ("20", "24", "64"), "C": ("20",)}
    assert {col.opponent: col.sequence for col in c.whists} == {"A": (), "B": ("4",)}
    assert {col.opponent: col.final for col in b.whists} == {"A": "0", "C": "0"}


def test_g9_four_players_raspasy_mountains_and_whists():
    a, b, c, d = case_drawing("G9").players

    assert a.mountain_sequence == ("1", "5")
    assert c.mountain_sequence == ("4", "3")
    assert d.mountain_sequence == ("1", "7")
    assert b.pool_sequence == ("2", "10")
    assert {col.opponent: col.sequence for col in c.whists}["B"] == ("6",)
    assert {col.opponent: col.sequence for col in d.whists}["B"] == ("2",)


def test_a_fractional_mountain_is_written_as_a_fraction():
    rules = engine.Rules(pool_target=10, whist_penalty="half", duty1_rule="split")
    deals = [
        engine.Deal("game", "A", "8S", {"B": "whist", "C": "whist"}, {"A": 10, "B": 0, "C": 0}),
        engine.Deal("raspasy", tricks={"A": 4, "B": 0, "C": 6}),
    ]
    sheet = engine.compute_sheet(rules, ["A", "B", "C"], deals)
    a, b, c = pulka_drawing(sheet, ["A", "B", "C"]).players

    assert b.mountain_sequence == ("3/2", "1/2")
    assert c.mountain_sequence == ("3/2", "15/2")
    assert [line.text for line in c.mountain.lines] == ["3/2.15/2"]
    assert a.mountain_final == "4"


# --- closed pools --------------------------------------------------------------------------


def test_every_pool_of_a_finished_pulka_is_closed_with_its_final_value_marked():
    drawing = case_drawing("G10")

    assert drawing.closed
    for p in drawing.players:
        assert p.closed
        last = p.pool.lines[-1]
        assert last.closing == "10"
        assert last.closing_mark
        assert not any(line.closing for line in p.pool.lines[:-1])


def test_only_the_pools_that_reached_the_target_are_closed():
    case = load_case("G10")
    case["deals"] = case["deals"][:4]  # A closed at 10, B has 4, C has 2
    drawing = pulka_drawing(engine.score_pulka(case), case["players"])

    assert [p.closed for p in drawing.players] == [True, False, False]
    assert not drawing.closed
    assert drawing.players[0].pool.lines[-1].closing == "10"
    b_lines = drawing.players[1].pool.lines
    assert "".join(line.text for line in b_lines) == "2.4"
    assert not any(line.closing for line in b_lines)


# --- seats and sectors ---------------------------------------------------------------------


def test_three_players_sit_left_right_and_bottom_in_seat_order():
    drawing = case_drawing("G10", ["Anna", "Boris", "Vera"])

    assert [(p.name, p.seat, p.side) for p in drawing.players] == [
        ("Anna", 0, "left"),
        ("Boris", 1, "right"),
        ("Vera", 2, "bottom"),
    ]
    assert len(drawing.borders) == 3
    assert [len(p.whists) for p in drawing.players] == [2, 2, 2]
    # The whists column next to a neighbour's sector is the one on him.
    anna, _, vera = drawing.players
    on = {c.opponent: c.label.lines[0].box for c in anna.whists}
    assert on["Vera"][2] <= 162  # down Anna's left edge, towards Vera
    assert on["Boris"][3] <= 162  # along the top, up to Boris's half
    assert on["Boris"][0] < 500
    on = {c.opponent: c.label.lines[0].box for c in vera.whists}
    assert on["Anna"][2] <= 500 <= on["Boris"][0]


def test_four_players_sit_top_right_bottom_left_in_seat_order():
    drawing = case_drawing("G9", ["Anna", "Boris", "Vera", "Grigory"])

    assert [p.side for p in drawing.players] == ["top", "right", "bottom", "left"]
    assert [p.name for p in drawing.players] == ["Anna", "Boris", "Vera", "Grigory"]
    assert len(drawing.borders) == 4
    top, right = drawing.players[:2]
    # Left to right along the top: on the left neighbour, on the one opposite, on the right.
    along = sorted(top.whists, key=lambda c: c.label.lines[0].box[0])
    assert [c.opponent for c in along] == ["Grigory", "Vera", "Boris"]
    # Down the right edge: on Anna (top), Grigory (opposite), Vera (bottom).
    down = sorted(right.whists, key=lambda c: c.label.lines[0].box[1])
    assert [c.opponent for c in down] == ["Anna", "Grigory", "Vera"]
    assert all(c.label.lines[0].box[0] >= 838 for c in right.whists)
    assert len(drawing.dividers) == 4 * 2


@pytest.mark.parametrize(("name", "n"), [("G10", 3), ("G9", 4)])
def test_sectors_cover_the_sheet_and_go_round_clockwise(name, n):
    drawing = case_drawing(name)
    polygons = [
        [tuple(map(float, pt.split(","))) for pt in p.sector.split()] for p in drawing.players
    ]

    def area(poly):
        return (
            abs(
                sum(
                    x1 * y2 - x2 * y1
                    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True)
                )
            )
            / 2
        )

    assert len(polygons) == n
    assert sum(area(poly) for poly in polygons) == pytest.approx(1000 * 1000)
    # Clockwise on screen (y grows downwards): the angle of each sector's centroid grows.
    angles = []
    for poly in polygons:
        cx = sum(x for x, _ in poly) / len(poly) - 500
        cy = sum(y for _, y in poly) / len(poly) - 500
        angles.append(math.atan2(cy, cx))
    turns = [(b - a) % (2 * math.pi) for a, b in zip(angles, angles[1:] + angles[:1], strict=True)]
    assert all(0 < t < math.pi * 1.01 for t in turns)
    assert sum(turns) == pytest.approx(2 * math.pi)


def test_a_pulka_with_no_deal_is_a_blank_sheet_with_the_names_and_the_target():
    sheet = engine.compute_sheet(engine.Rules(pool_target=20), ["A", "B", "C", "D"], [])
    drawing = pulka_drawing(sheet, ["Anna", "Boris", "Vera", "Grigory"])

    assert drawing.deals == 0
    assert drawing.target.text == "20"
    assert [p.label.text for p in drawing.players] == ["Anna", "Boris", "Vera", "Grigory"]
    for p in drawing.players:
        assert not p.pool.lines
        assert not p.mountain.lines
        assert all(not column.block.lines for column in p.whists)
        assert [column.label.lines[0].text for column in p.whists]
    assert all(p.pool_final == p.mountain_final == "0" for p in drawing.players)
    svg = svg_of(render(drawing))
    assert len([t for t in svg.iter(f"{SVG}text") if t.get("class") is None]) == 0


def test_names_must_match_the_seats():
    sheet = engine.score_pulka(load_case("G10"))
    with pytest.raises(ValueError, match="2 names for 3 seats"):
        pulka_drawing(sheet, ["A", "B"])


# --- layout --------------------------------------------------------------------------------


def all_boxes(drawing: Drawing) -> list[tuple[str, tuple[float, float, float, float]]]:
    boxes = [(f"label {label.text}", label.box) for label in drawing.labels()]
    for block in drawing.blocks():
        boxes += [(line.text + line.closing, line.box) for line in block.lines]
    return boxes


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("n", [3, 4])
def test_a_hundred_deal_pulka_stays_inside_the_sheet_and_nothing_overlaps(n):
    sheet = long_pulka(n)
    assert len(sheet.snapshots) == 100
    drawing = pulka_drawing(sheet, list(sheet.players))

    x0, y0 = drawing.min_x, drawing.min_y
    x1, y1 = x0 + drawing.width, y0 + drawing.height
    boxes = all_boxes(drawing)
    assert len(boxes) > 3 * n
    for text, (a, b, c, d) in boxes:
        assert x0 <= a < c <= x1, text
        assert y0 <= b < d <= y1, text
    for i, (text, box) in enumerate(boxes):
        for other, box2 in boxes[i + 1 :]:
            assert not overlap(box, box2), (text, other)


@pytest.mark.parametrize("n", [3, 4])
def test_a_long_sequence_keeps_its_last_values_after_an_ellipsis(n):
    sheet = long_pulka(n)
    drawing = pulka_drawing(sheet, list(sheet.players))
    written = []
    for p in drawing.players:
        written += [(p.pool, p.pool_sequence), (p.mountain, p.mountain_sequence)]
        written += [(column.block, column.sequence) for column in p.whists]

    cut = [(block, sequence) for block, sequence in written if block.truncated]
    assert cut, "a 100-deal pulka overflows some band"
    for block, sequence in cut:
        assert block.lines[0].text.startswith("…")
        kept = "".join(line.text + line.closing for line in block.lines)
        kept = kept.removeprefix("…").split(".")
        assert len(kept) < len(sequence)
        assert kept == list(sequence[-len(kept) :])
        assert block.size == SIZES[-1]
    for block, sequence in written:
        if not block.truncated:
            text = "".join(line.text + line.closing for line in block.lines)
            assert text == ".".join(sequence)


def test_text_within_the_sheet_sits_within_the_sheet_edge():
    drawing = case_drawing("G10")
    for block in drawing.blocks():
        for line in block.lines:
            a, b, c, d = line.box
            assert 0 <= a < c <= 1000, line
            assert 0 <= b < d <= 1000, line


def test_a_short_sequence_is_written_at_full_size_on_one_line():
    a = case_drawing("G10").players[0]
    on_b = next(column for column in a.whists if column.opponent == "B")

    assert on_b.block.size == SIZES[0]
    assert [line.text for line in on_b.block.lines] == ["20.24.64"]
    assert not on_b.block.truncated


def test_a_long_name_is_shortened_in_the_whists_heading():
    case = load_case("G9")
    names = ["Anna", "Bartholomew-Maximilian von Hohenzollern", "Vera", "Grigory"]
    drawing = pulka_drawing(engine.score_pulka(case), names)

    heading = drawing.players[0].whists[2].label.lines[0].text
    assert heading.endswith("…")
    assert heading.startswith("Barth")


# --- the template --------------------------------------------------------------------------


def render(drawing: Drawing) -> str:
    return render_to_string("scoring/_drawing.html", {"drawing": drawing})


def svg_of(html: str) -> ET.Element:
    start, end = html.index("<svg"), html.index("</svg>") + len("</svg>")
    return ET.fromstring(html[start:end])


@pytest.mark.parametrize(("name", "names"), [("G10", None), ("G9", ["Ann", "Bo", "Vera", "Gri"])])
def test_the_template_draws_every_name_and_final_sequence_as_valid_svg(name, names):
    drawing = case_drawing(name, names)
    html = render(drawing)
    svg = svg_of(html)

    assert html.lstrip().startswith('<figure class="drawing" id="drawing">')
    assert "<html" not in html
    assert svg.tag == f"{SVG}svg"
    assert svg.get("viewBox") == drawing.view_box
    assert svg.get("preserveAspectRatio") == "xMidYMid meet"
    assert svg.find(f"{SVG}title").text
    assert len(svg.findall(f"{SVG}polygon")) == len(drawing.players)
    texts = ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]
    for p in drawing.players:
        assert p.name in texts
        pool = ".".join(p.pool_sequence)
        if pool:
            assert any(t.startswith(pool) for t in texts), pool
        for column in p.whists:
            if column.sequence:
                assert ".".join(column.sequence) in texts


def test_the_template_marks_closed_pools_with_a_title():
    svg = svg_of(render(case_drawing("G10")))
    closed = [t for t in svg.iter(f"{SVG}tspan") if t.get("class") == "closing"]

    assert [t.text for t in closed] == ["10", "10", "10"]
    assert all(t.find(f"{SVG}title").text == "pool closed" for t in closed)
    assert len([g for g in svg.iter(f"{SVG}g") if "closed" in g.get("class", "")]) == 3


def test_the_template_draws_a_long_pulka_as_valid_svg_with_the_ellipsis():
    sheet = long_pulka(4)
    svg = svg_of(render(pulka_drawing(sheet, list(sheet.players))))

    assert any("".join(t.itertext()).startswith("…") for t in svg.iter(f"{SVG}text"))


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_coordinates_are_not_localized(language):
    drawing = case_drawing("G10")
    with translation.override(language):
        svg = svg_of(render(drawing))

    assert svg.get("viewBox") == drawing.view_box
    for text in svg.iter(f"{SVG}text"):
        for attribute in ("x", "y", "font-size"):
            float(text.get(attribute))
    for polygon in svg.iter(f"{SVG}polygon"):
        assert "," in polygon.get("points")
        [float(v) for pt in polygon.get("points").split() for v in pt.split(",")]


def test_the_description_reads_the_sheet_for_a_screen_reader():
    svg = svg_of(render(case_drawing("G10")))
    desc = svg.find(f"{SVG}desc").text

    assert "A: pool 10, mountain 0 (pool closed); whists on C: 20; whists on B: 64." in desc
    assert "C: pool 10, mountain −4" in desc
    assert svg.get("aria-labelledby") == "drawing-title drawing-desc"


# --- pool_end: sum (rules/conventions.md §20) ---------------------------------------------------


def preset_case(name: str) -> engine.Sheet:
    return engine.score_pulka(load_case(f"presets/{name}"))


def test_under_the_sum_of_the_pools_the_circle_shows_the_sum_against_n_t():
    sheet = preset_case("L1-basics")  # Leningrad to 10: pools 12, 8, 12 = 32 of 30
    drawing = pulka_drawing(sheet, list(sheet.players))

    assert (drawing.pool_sum, drawing.pool_sum_target, drawing.pool_sum_reached) == (32, 30, True)
    assert drawing.sum_label.text == "\u03a3\u00a032/30"
    # a pool past the target is written as it is, and no pool is closed by itself
    assert [p.pool_final for p in drawing.players] == ["12", "8", "12"]
    assert not any(p.closed for p in drawing.players)
    # the sum sits in the circle, under the target, apart from it
    r = drawing.circle_r
    for label in (drawing.target, drawing.sum_label):
        a, b, c, d = label.box
        assert math.dist((a, b), (500, 500)) < r
        assert math.dist((c, d), (500, 500)) < r
    assert not overlap(drawing.target.box, drawing.sum_label.box)


def test_each_pool_closing_by_itself_draws_no_sum():
    drawing = case_drawing("G10")

    assert drawing.pool_sum is None
    assert drawing.sum_label is None
    assert drawing.labels()[0] is drawing.target


@pytest.mark.parametrize("n", [3, 4])
def test_a_long_leningrad_pulka_stays_inside_the_sheet_and_nothing_overlaps(n):
    rules = engine.preset_rules("leningrad", pool_target=200)
    sheet = long_pulka(n, rules=rules)
    drawing = pulka_drawing(sheet, list(sheet.players))

    assert drawing.sum_label is not None
    assert max(sheet.pool.values()) > 0
    boxes = all_boxes(drawing)
    for i, (text, box) in enumerate(boxes):
        for other, box2 in boxes[i + 1 :]:
            assert not overlap(box, box2), (text, other)
    svg = render_to_string("scoring/_drawing.html", {"drawing": drawing})
    ET.fromstring(svg[svg.index("<svg") : svg.index("</svg>") + 6])
    assert f"pools {sheet.pool_sum} of {n * 200}" in svg
