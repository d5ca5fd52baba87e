"""The drawn pulka in Chromium: screenshots, and real text boxes that stay in their bands.

The template is rendered into a bare page with static/css/drawing.css inlined and loaded
with ``page.set_content``: no server and no database. Positions are measured with the
browser's own fonts, then again with DejaVu Sans, the widest font on a Debian box, standing
in for "Segoe Print".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from scoring.drawing import pulka_drawing
from tests.engine.factories import long_pulka

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "drawing.css"
NAMES = {3: ["Анна", "Борис", "Вера"], 4: ["Анна", "Борис", "Вера", "Григорий"]}
WIDE_FONT = '.drawing text { font-family: "DejaVu Sans" !important; }'

MEASURE = """() => {
  const svg = document.querySelector('#drawing svg');
  const texts = [...svg.querySelectorAll('text')].map((el) => {
    const b = el.getBBox();
    const t = el.transform.baseVal.consolidate();
    const m = t ? t.matrix : svg.createSVGMatrix();
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
    const clone = el.cloneNode(true);
    clone.querySelectorAll('title').forEach((title) => title.remove());
    return {text: clone.textContent, cls: el.getAttribute('class') || '',
            box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]};
  });
  const segments = [...svg.querySelectorAll('.ruling line')].map((l) =>
    [l.x1.baseVal.value, l.y1.baseVal.value, l.x2.baseVal.value, l.y2.baseVal.value]);
  for (const r of svg.querySelectorAll('.ruling rect')) {
    const x = r.x.baseVal.value, y = r.y.baseVal.value;
    const w = r.width.baseVal.value, h = r.height.baseVal.value;
    segments.push([x, y, x + w, y], [x + w, y, x + w, y + h],
                  [x + w, y + h, x, y + h], [x, y + h, x, y]);
  }
  const c = svg.querySelector('.ruling circle');
  const v = svg.viewBox.baseVal;
  return {texts, segments, viewBox: [v.x, v.y, v.x + v.width, v.y + v.height],
          circle: [c.cx.baseVal.value, c.cy.baseVal.value, c.r.baseVal.value]};
}"""


def drawing_page(n: int, extra_css: str = "") -> tuple[str, object]:
    sheet = long_pulka(n)
    drawing = pulka_drawing(sheet, NAMES[n])
    figure = render_to_string("scoring/_drawing.html", {"drawing": drawing})
    html = (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<style>body { margin: 0; padding: 12px; background: #f4f2ea; font-family: sans-serif; }"
        f"{CSS.read_text(encoding='utf-8')}{extra_css}</style></head>"
        f"<body><main>{figure}</main></body></html>"
    )
    return html, drawing


def crosses(box, segment, slack: float = 0.5) -> bool:
    """Whether a segment passes through the inside of an axis-aligned box (Liang–Barsky)."""
    x0, y0, x1, y1 = box[0] + slack, box[1] + slack, box[2] - slack, box[3] - slack
    ax, ay, bx, by = segment
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 < t1


def overlap(a, b, slack: float = 0.5) -> bool:
    return (
        a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack
    )


def assert_nothing_collides(measured: dict) -> None:
    texts, segments = measured["texts"], measured["segments"]
    vx0, vy0, vx1, vy1 = measured["viewBox"]
    cx, cy, r = measured["circle"]
    assert len(texts) > 10
    for i, item in enumerate(texts):
        x0, y0, x1, y1 = item["box"]
        assert vx0 <= x0 < x1 <= vx1, item
        assert vy0 <= y0 < y1 <= vy1, item
        for segment in segments:
            assert not crosses(item["box"], segment), (item, segment)
        if item["cls"] != "target":
            nearest = (min(max(cx, x0), x1), min(max(cy, y0), y1))
            assert (nearest[0] - cx) ** 2 + (nearest[1] - cy) ** 2 > r * r, item
        for other in texts[i + 1 :]:
            assert not overlap(item["box"], other["box"]), (item, other)


@pytest.mark.parametrize("n", [3, 4])
def test_the_drawn_pulka_looks_like_paper_on_a_wide_screen_and_a_phone(page, artifacts, n):
    html, drawing = drawing_page(n)
    page.set_viewport_size({"width": 1000, "height": 900})
    page.set_content(html)

    svg = page.locator("#drawing svg")
    assert svg.is_visible()
    text = page.locator("#drawing").inner_text()
    for name in NAMES[n]:
        assert name in text
    assert "…" in text  # a hundred deals do not fit: the oldest values give way
    assert page.locator("#drawing .player").count() == n
    assert page.locator("#drawing polygon.sector").count() == n
    box = svg.bounding_box()
    assert box["width"] > 900
    page.screenshot(path=str(artifacts / f"drawing-{n}.png"), full_page=True)
    assert_nothing_collides(page.evaluate(MEASURE))

    page.set_viewport_size({"width": 390, "height": 844})
    assert svg.is_visible()
    box = svg.bounding_box()
    assert 340 < box["width"] <= 390
    assert box["height"] == pytest.approx(box["width"] * drawing.height / drawing.width, rel=0.02)
    page.screenshot(path=str(artifacts / f"drawing-{n}-390.png"), full_page=True)


@pytest.mark.parametrize("n", [3, 4])
def test_text_stays_in_its_band_even_in_a_wide_font(page, n):
    html, _ = drawing_page(n, WIDE_FONT)
    page.set_viewport_size({"width": 1000, "height": 900})
    page.set_content(html)

    assert page.evaluate(
        "getComputedStyle(document.querySelector('#drawing text')).fontFamily"
    ).startswith('"DejaVu Sans"')
    assert_nothing_collides(page.evaluate(MEASURE))


def test_print_has_black_lines_on_white_paper(page):
    html, _ = drawing_page(3)
    page.set_content(html)
    page.emulate_media(media="print")

    style = page.evaluate(
        """() => {
          const svg = document.querySelector('#drawing svg');
          const s = (sel, prop) => getComputedStyle(svg.querySelector(sel))[prop];
          return {paper: s('.paper', 'fill'), edge: s('.edge', 'stroke'),
                  text: s('.pool text', 'fill'), grid: s('.grid', 'display')};
        }"""
    )
    assert style == {
        "paper": "rgb(255, 255, 255)",
        "edge": "rgb(0, 0, 0)",
        "text": "rgb(0, 0, 0)",
        "grid": "none",
    }
