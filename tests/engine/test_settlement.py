"""§10 settlement: closed form, unfinished pulka (§10.4, option pool_point_value §17.13),
largest-remainder rounding with ties by seat order (§10.5, §17.14)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import sheet_to_dict
from scoring.engine.settlement import round_largest_remainder, settle

from .factories import ABCD, make_game, make_misere, make_raspasy, play

F = Fraction


def test_g3_closed_form():
    result = settle(
        "ABC",
        {"A": 10, "B": 10, "C": 10},
        {"A": 0, "B": 2, "C": 4},
        {"A": {"B": 0, "C": 0}, "B": {"A": 8, "C": 0}, "C": {"A": 2, "B": 0}},
        10,
    )
    assert result == {"A": 10, "B": 8, "C": -18}


def test_g2_mountain_divided_among_all_three():
    result = settle(
        "ABC",
        dict.fromkeys("ABC", 10),
        {"A": 8, "B": 0, "C": 0},
        {"A": {"B": 0, "C": 0}, "B": {"A": 20, "C": 0}, "C": {"A": 16, "B": 0}},
        10,
    )
    assert result == {"A": F(-268, 3), "B": F(140, 3), "C": F(128, 3)}


def test_mountain_of_a_four_player_pulka_is_divided_by_four():
    # G9: M = 5, 0, 3, 7; C wrote 6 and D wrote 2 on B
    whists = {p: {q: 0 for q in ABCD if q != p} for p in ABCD}
    whists["C"]["B"], whists["D"]["B"] = 6, 2
    result = settle(ABCD, dict.fromkeys(ABCD, 10), {"A": 5, "B": 0, "C": 3, "D": 7}, whists, 10)
    assert result == {"A": F(-25, 2), "B": F(59, 2), "C": F(27, 2), "D": F(-61, 2)}


def spec_example_deals():
    return [
        make_game(
            "Anna",
            "7H",
            {"Boris": "whist", "Vera": "pass"},
            {"Anna": 7, "Boris": 2, "Vera": 1},
            talon=("AS", "KS"),
        ),
        make_game("Boris", "10NT", {"Vera": "pass", "Anna": "pass"}),
        make_misere("Vera"),
        make_raspasy({"Anna": 2, "Boris": 5, "Vera": 3}),
    ]


@pytest.mark.parametrize(
    ("ppv", "expected"),
    [
        # M_eff = M + (T − P): 6, 3, 1 → M̄ = 10/3
        (10, {"Anna": F(-140, 3), "Boris": F(58, 3), "Vera": F(82, 3)}),
        # M_eff = M + 2(T − P): 12, 3, 1 → M̄ = 16/3; Anna 10·(16/3 − 12) − 20 = −260/3
        (20, {"Anna": F(-260, 3), "Boris": F(118, 3), "Vera": F(142, 3)}),
    ],
)
def test_unfinished_pulka_counts_missing_pool_points_as_mountain(ppv, expected):
    sheet = play(spec_example_deals(), players=("Anna", "Boris", "Vera"), pool_point_value=ppv)
    assert not sheet.closed
    assert sheet.result == expected
    assert sum(sheet.result.values()) == 0


def test_pool_point_value_does_not_matter_for_a_closed_pulka():
    deals = [make_misere("A"), make_misere("B", 3), make_misere("C"), make_misere("B")]
    assert play(deals).result == play(deals, pool_point_value=20).result


def test_an_empty_pulka_settles_to_zero():
    sheet = play([])
    assert sheet.result == {"A": 0, "B": 0, "C": 0}
    assert sheet.result_rounded == {"A": 0, "B": 0, "C": 0}
    assert sheet.snapshots == ()


@pytest.mark.parametrize(
    ("exact", "rounded"),
    [
        ((F(-268, 3), F(140, 3), F(128, 3)), (-89, 47, 42)),  # G2
        ((F(160, 3), F(100, 3), F(-260, 3)), (54, 33, -87)),  # G6: three equal thirds → A
        ((F(212, 3), F(-244, 3), F(32, 3)), (71, -81, 10)),  # G10
        ((F(-140, 3), F(58, 3), F(82, 3)), (-46, 19, 27)),  # the spec's example
        ((F(1, 3), F(1, 3), F(-2, 3)), (1, 0, -1)),  # tie → seat order
        ((F(1, 2), F(-1, 2), F(0)), (1, -1, 0)),
        ((F(-1, 2), F(1, 2), F(0)), (0, 0, 0)),  # −0.5 has the larger part .5; tie → A
    ],
)
def test_largest_remainder_rounding(exact, rounded):
    result = dict(zip("ABC", exact, strict=True))
    got = round_largest_remainder("ABC", result)
    assert tuple(got.values()) == rounded
    assert sum(got.values()) == 0


def test_largest_remainder_with_quarters_and_four_players():
    exact = dict(zip(ABCD, (F(1, 4), F(1, 4), F(1, 4), F(-3, 4)), strict=True))
    assert round_largest_remainder(ABCD, exact) == {"A": 1, "B": 0, "C": 0, "D": -1}
    exact = dict(zip(ABCD, (F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)), strict=True))
    assert round_largest_remainder(ABCD, exact) == {"A": 0, "B": 1, "C": 0, "D": -1}


def test_results_are_written_as_ints_or_fractions():
    sheet = play(spec_example_deals(), players=("Anna", "Boris", "Vera"))
    out = sheet_to_dict(sheet)
    assert out["result"] == {"Anna": "-140/3", "Boris": "58/3", "Vera": "82/3"}
    assert out["result_rounded"] == {"Anna": -46, "Boris": 19, "Vera": 27}


def test_pair_nets_add_up_to_each_result_and_are_antisymmetric():
    import json
    from pathlib import Path

    from scoring.engine import pair_nets, score_pulka

    cases = Path(__file__).resolve().parent.parent / "data" / "cases"
    for case in sorted(cases.glob("G*.json")):
        if case.name.endswith(".expected.json"):
            continue
        sheet = score_pulka(json.loads(case.read_text()))
        nets = pair_nets(
            sheet.players,
            sheet.pool,
            sheet.mountain,
            sheet.whists,
            sheet.rules.pool_target,
            sheet.rules.pool_point_value,
        )
        for i in sheet.players:
            assert sum(nets[i].values()) == sheet.result[i], case.name
            for j in nets[i]:
                assert nets[i][j] == -nets[j][i], case.name
