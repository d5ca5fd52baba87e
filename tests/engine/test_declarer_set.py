"""§4 declarer set: mountain per undertrick, whists for tricks, consolation (option
``consolation``, §14) and the 4-player talon-sitter's consolation (§12.3)."""

from __future__ import annotations

import pytest

from .factories import ABCD, make_game, on, play


def test_seven_set_by_two_against_two_whisters_g2_deal_1():
    deal = make_game("A", "7H", {"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2})
    sheet = play([deal])
    assert sheet.mountain == {"A": 8, "B": 0, "C": 0}
    assert on(sheet, "B", "A") == 3 * 4 + 8
    assert on(sheet, "C", "A") == 2 * 4 + 8
    assert sheet.pool == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize(
    ("contract", "declarer_tricks", "mountain"),
    [("6S", 5, 2), ("6S", 3, 6), ("7C", 6, 4), ("8D", 6, 12), ("9H", 8, 8), ("10NT", 7, 30)],
)
def test_declarer_pays_the_value_for_each_trick_short(contract, declarer_tricks, mountain):
    rest = 10 - declarer_tricks
    deal = make_game(
        "A", contract, {"B": "whist", "C": "whist"}, {"A": declarer_tricks, "B": rest, "C": 0}
    )
    sheet = play([deal])
    assert sheet.mountain["A"] == mountain


@pytest.mark.parametrize(("consolation", "c_on_a"), [("whisters", 0), ("all_opponents", 4)])
def test_passer_gets_consolation_only_with_all_opponents(consolation, c_on_a):
    # 6♠: B whists alone, C passes; A takes 4, u = 2 → M[A] = 2·2 = 4.
    # B (greedy) writes the defence's 4 + 2 tricks at 2 = 12, plus consolation 2·2 = 4.
    deal = make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 4, "B": 4, "C": 2})
    sheet = play([deal], consolation=consolation)
    assert sheet.mountain["A"] == 4
    assert on(sheet, "B", "A") == 16
    assert on(sheet, "C", "A") == c_on_a


@pytest.mark.parametrize(
    ("consolation", "c_on_a"),
    [("whisters", 0), ("all_opponents", 4)],
)
def test_four_player_talon_sitter_gets_consolation_but_the_passer_only_by_option(
    consolation, c_on_a
):
    # dealer D sits out; A 7♥, B whists, C passes; A takes 6: u = 1, V = 4
    deal = make_game("A", "7H", {"B": "whist", "C": "pass"}, {"A": 6, "B": 3, "C": 1})
    sheet = play([deal], players=ABCD, first_dealer="D", consolation=consolation)
    assert sheet.mountain == {"A": 4, "B": 0, "C": 0, "D": 0}
    assert on(sheet, "B", "A") == 4 * 4 + 4
    assert on(sheet, "D", "A") == 4
    assert on(sheet, "C", "A") == c_on_a


def test_no_whister_is_set_when_the_declarer_is_set():
    deal = make_game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 5, "B": 5, "C": 0})
    sheet = play([deal])
    assert sheet.mountain == {"A": 2, "B": 0, "C": 0}
    assert (on(sheet, "B", "A"), on(sheet, "C", "A")) == (10 + 2, 0 + 2)
