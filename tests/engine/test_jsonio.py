"""pulka/1 in and pulka-sheet/1 out (spec/pulka-json.md; §17.15–17.16)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.engine import (
    Deal,
    Rules,
    deal_from_dict,
    deal_to_dict,
    format_score,
    parse_pulka,
    pulka_to_dict,
    rules_from_dict,
    rules_to_dict,
    score_pulka,
    sheet_to_dict,
)

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"
SPEC_KEYS = [
    "pool_target",
    "consolation",
    "lone_whister",
    "whist_penalty",
    "duty1_rule",
    "personal_quota",
    "ten_checked",
    "half_whist_levels",
    "quick_tricks",
    "raspasy_amnesty",
    "raspasy_zero",
    "raspasy_progression",
    "exit_only_by_made_game",
    "mountain_floor_zero",
    "help",
    "help_exception",
    "help_excludes_talon_sitter",
    "pool_point_value",
    "whister_shortfall",
    "raspasy_progression_end",
    # rules/conventions.md §B, then the preset (spec: "echoes preset and every resolved key")
    "game_price_multiplier",
    "pool_end",
    "raspasy_zero_unit",
    "exit_by_unplayed_game",
    "exit_by_misere",
    "raspasy_scoring",
    "raspasy_whist_rate",
    "consolation_amount",
    "preset",
]


def test_rules_echo_every_key_in_spec_order_with_sochi_defaults():
    out = rules_to_dict(Rules())
    assert list(out) == SPEC_KEYS
    assert out["pool_target"] == 20
    assert out["consolation"] == "whisters"
    assert out["half_whist_levels"] == [6, 7]
    assert out["raspasy_progression"] == []
    assert out["quick_tricks"] is True
    assert out["pool_point_value"] == 10


def test_partial_rules_keep_the_given_values():
    rules = rules_from_dict({"pool_target": 30, "half_whist_levels": [6], "help": False})
    assert rules == Rules(pool_target=30, half_whist_levels=(6,), help=False)
    assert rules_from_dict(rules_to_dict(rules)) == rules
    assert rules_from_dict(None) == Rules()


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (0, 0),
        (-4, -4),
        (Fraction(20, 3), "20/3"),
        (Fraction(-7, 2), "-7/2"),
        (Fraction(6, 2), 3),
        (Fraction(-268, 3), "-268/3"),
    ],
)
def test_format_score(value, written):
    got = format_score(value)
    assert got == written
    assert type(got) is type(written)


@pytest.mark.parametrize(
    "deal",
    [
        {"kind": "game", "declarer": "A", "contract": "7H", "calls": {"B": "whist", "C": "pass"},
         "tricks": {"A": 7, "B": 2, "C": 1}, "talon": ["AS", "KS"]},
        {"kind": "game", "declarer": "B", "contract": "10NT", "calls": {"C": "pass", "A": "pass"},
         "quick_tricks": 1, "dealer": "C"},
        {"kind": "misere", "declarer": "C", "tricks": {"C": 0}},
        {"kind": "raspasy", "tricks": {"A": 2, "B": 5, "C": 3}, "dealer": "B"},
    ],
)  # fmt: skip
def test_deal_round_trip(deal):
    parsed = deal_from_dict(deal, 1)
    assert deal_to_dict(parsed) == deal
    assert deal_from_dict(deal_to_dict(parsed), 1) == parsed


def test_deal_from_dict_makes_tuples_and_own_dicts():
    source = {"kind": "game", "declarer": "A", "contract": "6S",
              "calls": {"B": "pass", "C": "pass"}, "talon": ["AS", "KS"]}  # fmt: skip
    deal = deal_from_dict(source, 1)
    assert deal.talon == ("AS", "KS")
    source["calls"]["B"] = "whist"
    assert deal.calls == {"B": "pass", "C": "pass"}
    assert deal == Deal("game", "A", "6S", {"B": "pass", "C": "pass"}, talon=("AS", "KS"))


@pytest.mark.parametrize(
    "path",
    sorted(p for p in CASES.rglob("*.json") if "expected" not in p.name and "bad" not in p.parts),
    ids=lambda p: p.stem,
)
def test_pulka_round_trip_is_stable(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    pulka = parse_pulka(doc)
    again = pulka_to_dict(pulka)
    assert parse_pulka(again) == pulka
    assert pulka_to_dict(parse_pulka(again)) == again
    assert list(again["rules"]) == SPEC_KEYS
    assert again["first_dealer"] == doc.get("first_dealer", doc["players"][0])
    assert sheet_to_dict(score_pulka(again)) == sheet_to_dict(score_pulka(doc))


def test_sheet_has_the_spec_keys_and_entries_only_on_request():
    doc = json.loads((CASES / "G2.json").read_text(encoding="utf-8"))
    sheet = score_pulka(doc)
    plain = sheet_to_dict(sheet)
    assert list(plain) == [
        "format",
        "players",
        "rules",
        "pool",
        "mountain",
        "whists",
        "closed",
        "result",
        "result_rounded",
        "deals",
    ]
    assert list(plain["deals"][0]) == ["number", "dealer", "pool", "mountain", "whists"]
    with_entries = sheet_to_dict(sheet, entries=True)
    assert with_entries["deals"][0]["entries"] == [str(e) for e in sheet.snapshots[0].entries]
    assert with_entries["deals"][0]["entries"][2] == "A: 8 into the mountain (2 tricks short)"
    json.dumps(with_entries)  # JSON-ready


def test_snapshots_own_their_dicts():
    doc = json.loads((CASES / "G10.json").read_text(encoding="utf-8"))
    sheet = score_pulka(doc)
    first, last = sheet.snapshots[0], sheet.snapshots[-1]
    assert first.pool is not last.pool
    assert first.whists["A"] is not last.whists["A"]
    assert sheet.whists["A"] is not last.whists["A"]
    assert first.whists["A"] == {"B": 0, "C": 0}
    assert last.whists["A"] == sheet.whists["A"] == {"B": 64, "C": 20}
