"""§2.4 / §17.6 half-whist (полвиста) and the whist return; option ``half_whist_levels``;
§17.1 the gentleman split (option ``lone_whister``)."""

from __future__ import annotations

import pytest

from scoring.engine import PulkaError

from .factories import ABCD, entries, make_game, on, play


@pytest.mark.parametrize(("contract", "pool", "whists"), [("6D", 2, 4), ("7S", 4, 4)])
def test_half_whist_is_not_played_and_writes_half_the_obligation(contract, pool, whists):
    # first defender B passes, second C says half, B does not return the whist
    sheet = play([make_game("A", contract, {"B": "pass", "C": "half"})])
    assert sheet.pool == {"A": pool, "B": 0, "C": 0}
    assert on(sheet, "C", "A") == whists
    assert on(sheet, "B", "A") == 0
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0}
    assert [e.reason for e in entries(sheet) if e.code == "whists"] == ["half_whist"]


def test_whist_return_makes_the_first_defender_a_lone_whister_g4_deal_3():
    # C 7♥; A passed, B said half, A returned the whist: recorded as A whist + B pass
    deal = make_game("C", "7H", {"A": "whist", "B": "pass"}, {"C": 8, "A": 1, "B": 1})
    sheet = play([deal])
    assert sheet.pool["C"] == 4
    assert on(sheet, "A", "C") == 8
    assert on(sheet, "B", "C") == 0
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize(
    ("levels", "contract", "allowed"),
    [
        ((6, 7), "6S", True),
        ((6, 7), "7S", True),
        ((6, 7), "8S", False),
        ((6,), "6S", True),
        ((6,), "7S", False),
        ((), "6S", False),
    ],
)
def test_half_whist_levels_option(levels, contract, allowed):
    deals = [make_game("A", contract, {"B": "pass", "C": "half"})]
    if allowed:
        assert play(deals, half_whist_levels=levels).pool["A"] > 0
    else:
        with pytest.raises(PulkaError, match="half-whist is"):
            play(deals, half_whist_levels=levels)


def test_four_player_half_whister_is_the_second_defender_skipping_the_dealer():
    # dealer B; A declares; defenders clockwise from A: C, D
    deal = make_game("A", "6S", {"C": "pass", "D": "half"})
    sheet = play([deal], players=ABCD, first_dealer="B")
    assert on(sheet, "D", "A") == 4
    assert sheet.pool["A"] == 2


@pytest.mark.parametrize(
    ("tricks", "whister", "passer", "mountain_b"),
    [
        ({"A": 6, "B": 3, "C": 1}, 4, 4, 0),  # O1 deal 1: 4 tricks → 8, split 4 + 4
        ({"A": 7, "B": 2, "C": 1}, 3, 3, 2),  # 3 tricks → 6, split; only the whister is set
        ({"A": 5, "B": 3, "C": 2}, 5 + 2, 5, 0),  # 5 tricks → 10 split; consolation 2 to B only
    ],
)
def test_gentleman_splits_only_the_whists_for_tricks(tricks, whister, passer, mountain_b):
    deal = make_game("A", "6S", {"B": "whist", "C": "pass"}, tricks)
    sheet = play([deal], lone_whister="gentleman")
    assert (on(sheet, "B", "A"), on(sheet, "C", "A")) == (whister, passer)
    assert sheet.mountain["B"] == mountain_b
    assert sheet.mountain["C"] == 0


def test_gentleman_consolation_still_follows_the_consolation_option():
    deal = make_game("A", "7H", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})
    sheet = play([deal], lone_whister="gentleman", consolation="all_opponents")
    # 5 tricks at 4 = 20, split 10 + 10; u = 2 → 8 consolation to each opponent
    assert (on(sheet, "B", "A"), on(sheet, "C", "A")) == (18, 18)
