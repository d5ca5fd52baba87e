"""§1 contracts and values, §2.3 games counted without play, §3 made games, §2.5/§17.1 the
lone whister."""

from __future__ import annotations

import pytest

from scoring.engine import PulkaError, contract_level
from scoring.engine.rules import contract_value, obligation

from .factories import make_game, make_no_play, on, play


@pytest.mark.parametrize(
    ("level", "value", "duty"),
    [(6, 2, 4), (7, 4, 2), (8, 6, 1), (9, 8, 1), (10, 10, 1)],
)
def test_value_and_obligation_of_each_level(level, value, duty):
    assert contract_value(level) == value
    assert obligation(level) == duty


@pytest.mark.parametrize(
    ("contract", "level"),
    [("6S", 6), ("6C", 6), ("7D", 7), ("8H", 8), ("9NT", 9), ("10NT", 10), ("10S", 10)],
)
def test_contract_level_reads_level_and_ignores_the_suit(contract, level):
    assert contract_level(contract) == level


@pytest.mark.parametrize(
    ("contract", "tricks", "pool_a", "b_on_a", "c_on_a", "mountain"),
    [
        ("6S", (6, 2, 2), 2, 4, 4, (0, 0, 0)),
        ("7H", (7, 2, 1), 4, 8, 4, (0, 0, 0)),
        ("8D", (8, 1, 1), 6, 6, 6, (0, 0, 0)),
        ("9C", (9, 1, 0), 8, 8, 0, (0, 0, 0)),
        # a ten made against two whisters: the defence took 0 of 1, the second whister pays
        ("10NT", (10, 0, 0), 10, 0, 0, (0, 0, 10)),
        # overtricks score nothing (§1.3)
        ("7S", (8, 1, 1), 4, 4, 4, (0, 0, 0)),
    ],
)
def test_made_game_with_two_whisters_writes_pool_and_whists_per_own_trick(
    contract, tricks, pool_a, b_on_a, c_on_a, mountain
):
    deal = make_game(
        "A", contract, {"B": "whist", "C": "whist"}, dict(zip("ABC", tricks, strict=True))
    )
    sheet = play([deal])
    assert sheet.pool == {"A": pool_a, "B": 0, "C": 0}
    assert on(sheet, "B", "A") == b_on_a
    assert on(sheet, "C", "A") == c_on_a
    assert tuple(sheet.mountain.values()) == mountain


@pytest.mark.parametrize(("contract", "pool"), [("6S", 2), ("7C", 4), ("8D", 6), ("9H", 8)])
def test_game_both_passed_is_counted_without_play_and_nobody_writes_whists(contract, pool):
    sheet = play([make_no_play("A", contract)])
    assert sheet.pool == {"A": pool, "B": 0, "C": 0}
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0}
    assert all(v == 0 for row in sheet.whists.values() for v in row.values())


def test_the_suit_does_not_change_the_score():
    def sheet_of(contract):
        deal = make_game("A", contract, {"B": "whist", "C": "pass"}, {"A": 6, "B": 3, "C": 1})
        return play([deal])

    spades, no_trumps = sheet_of("6S"), sheet_of("6NT")
    assert (spades.pool, spades.whists, spades.result) == (
        no_trumps.pool,
        no_trumps.whists,
        no_trumps.result,
    )


@pytest.mark.parametrize(
    ("lone_whister", "b_on_a", "c_on_a"),
    [("greedy", 8, 0), ("gentleman", 4, 4)],
)
def test_lone_whister_writes_for_both_defending_hands_unless_gentleman(
    lone_whister, b_on_a, c_on_a
):
    # 6♠: B whists, C passes; defence 3 + 1 = 4 tricks at 2 each = 8 whists (§2.5, §17.1)
    deal = make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 6, "B": 3, "C": 1})
    sheet = play([deal], lone_whister=lone_whister)
    assert (on(sheet, "B", "A"), on(sheet, "C", "A")) == (b_on_a, c_on_a)
    assert sheet.pool["A"] == 2


def test_passer_who_took_all_the_defensive_tricks_gives_them_to_the_greedy_whister():
    deal = make_game("A", "7S", {"B": "pass", "C": "whist"}, {"A": 7, "B": 3, "C": 0})
    sheet = play([deal])
    assert on(sheet, "C", "A") == 12
    assert on(sheet, "B", "A") == 0


@pytest.mark.parametrize("contract", ["5S", "11NT", "6X", "7", "S7", "", "6s"])
def test_an_invalid_contract_is_rejected(contract):
    with pytest.raises(PulkaError):
        contract_level(contract)
