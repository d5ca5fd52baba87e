"""The sheet, the drawing and the deal log under the Leningrad and Rostov presets: the sum of
the pools against n·T, pools past the target, raspasy whists in the whist columns and in
words (rules/conventions.md §20, §23)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import engine
from tests.club.factories import html
from tests.conftest import HTMX, make_pulka, record

pytestmark = pytest.mark.django_db

CASES = Path(__file__).resolve().parents[1] / "data" / "cases" / "presets"


def case(name: str) -> dict:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def row(text: str, name: str) -> str:
    start = text.index(f'<tr data-player="{name}">')
    return text[start : text.index("</tr>", start)]


def test_a_leningrad_sheet_shows_how_far_the_pools_are_from_their_sum(as_persona, evening_a):
    document = case("L1-basics")
    pulka = make_pulka(evening_a, names=("A", "B", "C"), rules=document["rules"])
    record(pulka, *document["deals"][:4])
    client = as_persona("player")

    text = html(client.get(pulka.get_absolute_url()))

    # A made a ten without play: 12 in his pool, past the target of 10, and not "closed"
    assert 'data-pool-sum="14" data-pool-sum-target="30"' in text
    assert "pools 14 of 30: 16 to go" in text
    assert 'data-pool="12"' in row(text, "A")
    assert "pool closed" not in row(text, "A")
    assert "pool to 10, the end at 30 in all" in text
    assert "Leningrad (Piter)" in text

    record(pulka, *document["deals"][4:])
    pulka.refresh_from_db()
    text = html(client.get(pulka.get_absolute_url()))

    assert pulka.status == "finished"
    assert "pools 32 of 30: finished" in text
    assert "The pools reached their sum: this is the final settlement in whists." in text
    expected = engine.score_pulka(document).result_rounded
    for name, result in expected.items():
        assert f'data-result="{result}"' in row(text, name)


def test_the_drawing_fragment_writes_the_sum_in_the_circle(as_persona, evening_a):
    document = case("L1-basics")
    pulka = make_pulka(evening_a, names=("A", "B", "C"), rules=document["rules"])
    record(pulka, *document["deals"][:4])

    response = as_persona("player").get(pulka.get_absolute_url() + "drawing/", headers=HTMX)

    text = html(response)
    assert 'class="pool-sum"' in text
    assert "\u03a3\u00a014/30" in text
    assert "<html" not in text


def test_rostov_raspasy_whists_are_in_the_whist_columns_and_explained_in_the_log(
    as_persona, evening_a
):
    document = case("R1-raspasy-whists-help")
    pulka = make_pulka(evening_a, names=("A", "B", "C"), rules=document["rules"])
    record(pulka, *document["deals"][:2])

    text = html(as_persona("player").get(pulka.get_absolute_url()))

    # deal 1: A took 1 trick, the fewest: 5 a trick on B's 4 and C's 5; deal 2: A and B tie
    # at 3 and each writes half of 5 × 4 on C
    whists = row(text, "A").split('class="num whists"')
    assert [w.split("</td>")[0].removeprefix(">") for w in whists[1:]] == [
        '<span class="muted">—</span>',
        "20",
        "35",
    ]
    assert "A writes whists on B: 20 (raspasy, fewest tricks)" in text
    assert "A writes whists on C: 25 (raspasy, fewest tricks)" in text
    assert "A writes whists on C: 10 (raspasy, fewest tricks, shared)" in text
    assert "B writes whists on C: 10 (raspasy, fewest tricks, shared)" in text


def test_a_sochi_sheet_shows_no_sum_of_the_pools(as_persona, pulka):
    text = html(as_persona("player").get(pulka.get_absolute_url()))

    assert "data-pool-sum" not in text
    assert "Σ" not in text


def test_the_evening_lists_a_leningrad_table_with_its_sum(as_persona, evening_a):
    document = case("L1-basics")
    pulka = make_pulka(evening_a, names=("A", "B", "C"), rules=document["rules"])
    record(pulka, *document["deals"][:4])

    text = html(as_persona("player").get(evening_a.get_absolute_url()))

    card = text[text.index(f'id="table-{pulka.pk}"') :]
    assert "pools 14 of 30: 16 to go" in card.split("</article>")[0]
