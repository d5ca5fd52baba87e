"""The "how ratings work" page: open to everyone, its example worked out by
competition.rating.ratings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from competition.rating import explain, ratings
from tests.club.factories import assert_fragment, assert_full_page, html
from tests.conftest import HTMX, PERSONAS

URL = "/ratings/"


def cells(text: str, row_marker: str) -> list[str]:
    row = text[text.index(row_marker) :]
    row = row[: row.index("</tr>")]
    return [
        re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_everyone_reads_how_ratings_work(as_persona, persona):
    client = as_persona(persona)

    text = assert_full_page(client.get(URL), "example")

    assert "<h1>How ratings work</h1>" in text
    assert "Plackett–Luce" in text
    fragment = assert_fragment(client.get(URL + "?whists=150", headers=HTMX), "calculator")
    assert "S = 0.909" in fragment
    assert "How ratings work" not in fragment


@pytest.mark.django_db
def test_the_formula_shows_the_constants_of_the_rating_code(client):
    text = html(client.get(URL))

    scale = f"{ratings.MARGIN_SCALE:.0f}"
    assert f"<var>s</var> = {scale}" in text
    assert "10<sup>−Δ<sub>ij</sub> / <var>s</var></sup>" in text
    assert f"Why s = {scale}" in text
    assert f"with K = {ratings.MARGIN_WEIGHT:.0f}." in text
    base, display = f"{ratings.DISPLAY_BASE:.0f}", f"{ratings.DISPLAY_SCALE:.0f}"
    assert f"= {base} + {display} · (μ − 3σ)" in text
    assert f"A newcomer shows {ratings.Rating().display:.0f}." in text


@pytest.mark.django_db
def test_the_worked_example_is_rated_by_the_rating_code(client):
    nets = [[float(n) for n in row] for row in explain.EXAMPLE_NETS]
    fresh = [ratings.Rating()] * 3
    expected = ratings.rate_table(fresh, explain.EXAMPLE_PLACES, nets)
    placed = ratings.rate_table(fresh, explain.EXAMPLE_PLACES, [[0.0] * 3] * 3)

    text = html(client.get(URL))

    for n, (after, place) in enumerate(zip(expected, placed, strict=True), start=1):
        row = cells(text, f'<tr data-player="{n}">')
        assert row[0] == ["Anna", "Boris", "Vera"][n - 1]
        assert row[1] == f"{place.mu - ratings.MU:+.2f}".replace("+-", "-")
        assert row[4] == f"{after.mu:.2f}"
        assert row[5] == f"{after.sigma:.2f}"
        assert row[6] == f"{after.display:.0f}"
        change = after.display - ratings.Rating().display
        assert row[7] == f"{change:+.0f}"
    assert [cells(text, f'<tr data-player="{n}">')[6] for n in (1, 2, 3)] == [
        "1151",
        "1058",
        "873",
    ]  # as in rate_table's docstring
    assert "Boris: 60 → 0.715" in text  # on Anna's row: what she won from Boris, scored


def test_the_margin_term_of_the_example_sums_to_zero_at_the_table():
    example = explain.rating_example()

    assert sum(p.margin_mu for p in example.players) == pytest.approx(0, abs=1e-9)
    assert [p.result for p in example.players] == [150, -30, -120]
    assert dict(example.curve)[0] == 0.5


@pytest.mark.django_db
def test_the_calculator_works_without_javascript_and_says_what_is_wrong(client):
    full = assert_full_page(client.get(URL + "?whists=-50"), "calculator")
    wrong = assert_fragment(client.get(URL + "?whists=lots", headers=HTMX), "calculator")

    assert "Winning -50 whists from every opponent scores S = 0.317" in full
    assert 'value="-50"' in full
    assert 'role="alert"' in wrong
    assert "Enter a whole number of whists" in wrong


@pytest.mark.django_db
def test_the_calculator_starts_at_the_scale(client):
    text = html(client.get(URL))

    effect = explain.margin_effect(150)
    assert f"the margin adds {effect.mu:.2f} to μ, about {effect.points:.0f} rating points" in text


TEMPLATES = (
    "competition/ratings_help.html",
    "competition/player_detail.html",
    "competition/_chart.html",
)
# Symbols and names that are the same in every language.
SYMBOLS = {"S", "K", "s", "ij", "i", "SHORT_DATE_FORMAT"}


@pytest.mark.parametrize("name", TEMPLATES)
def test_every_sentence_of_the_pages_is_marked_for_translation(name):
    source = (Path(settings.BASE_DIR) / "templates" / name).read_text()
    source = re.sub(r"{% comment %}.*?{% endcomment %}", "", source, flags=re.S)
    source = re.sub(r"{% blocktranslate .*?{% endblocktranslate %}", "", source, flags=re.S)
    source = re.sub(r"{%.*?%}|{{.*?}}", "", source, flags=re.S)
    source = re.sub(r"<(style|script)\b.*?</\1>", "", source, flags=re.S)
    attributes = re.findall(r'(?:title|aria-label|alt|placeholder)="([^"]*)"', source)
    visible = re.sub(r"<[^>]*>", " ", source, flags=re.S)

    words = set(re.findall(r"[A-Za-z_]+", " ".join([visible, *attributes]))) - SYMBOLS

    assert words == set()
