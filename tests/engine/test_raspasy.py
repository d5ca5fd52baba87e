"""§7 raspasy: amnesty, zero-trick bonus, 4-player talon-sitter; options raspasy_amnesty
(§17.8), raspasy_zero (§17.9), raspasy_progression + _end and exit_only_by_made_game
(§17.10), mountain_floor_zero (§17.11)."""

from __future__ import annotations

import pytest

from .factories import ABCD, make_game, make_misere, make_no_play, make_raspasy, play


def r3(a: int, b: int, c: int):
    return make_raspasy({"A": a, "B": b, "C": c})


@pytest.mark.parametrize(
    ("tricks", "amnesty", "mountain"),
    [
        ((0, 4, 6), True, (-1, 4, 6)),  # G6 deal 1
        ((3, 3, 4), True, (0, 0, 1)),  # G6 deal 2: amnesty of 3
        ((2, 0, 8), True, (2, -1, 8)),
        ((3, 3, 4), False, (3, 3, 4)),
        ((0, 4, 6), False, (-1, 4, 6)),
        ((0, 0, 10), True, (-1, -1, 10)),
    ],
)
def test_three_player_raspasy(tricks, amnesty, mountain):
    sheet = play([r3(*tricks)], raspasy_amnesty=amnesty)
    assert tuple(sheet.mountain.values()) == mountain
    assert sheet.snapshots[0].raspasy_cost == 1


def test_four_player_raspasy_is_the_seeds_example_2_1_5_2():
    sheet = play([make_raspasy({"A": 2, "B": 1, "C": 5, "D": 2})], players=ABCD, first_dealer="D")
    assert sheet.mountain == {"A": 1, "B": 0, "C": 4, "D": 1}


def test_four_player_talon_sitter_counts_in_the_minimum_but_gets_no_zero_bonus():
    # G9 deal 3, dealer B on the talon with 0 tricks
    deal = make_raspasy({"C": 0, "D": 6, "A": 4, "B": 0})
    sheet = play([deal], players=ABCD, first_dealer="B")
    assert sheet.mountain == {"A": 4, "B": 0, "C": -1, "D": 6}


def test_four_player_raspasy_without_amnesty_charges_the_talon_sitter_too():
    deal = make_raspasy({"A": 2, "B": 1, "C": 5, "D": 2})
    sheet = play([deal], players=ABCD, first_dealer="D", raspasy_amnesty=False)
    assert sheet.mountain == {"A": 2, "B": 1, "C": 5, "D": 2}


def test_raspasy_zero_into_the_pool():
    sheet = play([r3(0, 4, 6)], raspasy_zero="pool")
    assert sheet.pool == {"A": 1, "B": 0, "C": 0}
    assert sheet.mountain == {"A": 0, "B": 4, "C": 6}


def test_raspasy_zero_pool_writers_go_from_first_hand():
    # T = 1, cost 2 (progression [2]); dealer A, so first hand is B, then C, then A.
    # C writes 2: 1 into his pool, 1 helps A (tie A/B at 0 → A is first clockwise from C).
    # A writes 2: A is closed; 1 helps B; the last 1 has nobody to go to → off A's mountain.
    deal = r3(0, 10, 0)
    sheet = play([deal], pool_target=1, raspasy_zero="pool", raspasy_progression=(2,))
    assert sheet.pool == {"A": 1, "B": 1, "C": 1}
    assert sheet.whists["C"]["A"] == 10
    assert sheet.whists["A"]["B"] == 10
    assert sheet.mountain == {"A": -1, "B": 20, "C": 0}
    assert sheet.closed


def test_raspasy_zero_does_not_go_negative_with_mountain_floor_zero():
    sheet = play([r3(0, 4, 6), r3(0, 4, 6)], mountain_floor_zero=True)
    assert sheet.mountain == {"A": 0, "B": 8, "C": 12}
    assert all(e.code != "write_off" for e in sheet.snapshots[0].entries)


def test_mountain_floor_zero_takes_off_only_down_to_zero():
    # B has 1 in the mountain, then takes no trick at cost 3 → stops at 0
    deals = [r3(0, 1, 9), r3(3, 3, 4), r3(4, 0, 6)]
    sheet = play(deals, mountain_floor_zero=True, raspasy_progression=(1, 2, 3))
    assert [s.mountain["B"] for s in sheet.snapshots] == [1, 1, 0]
    write_off = [e for e in sheet.snapshots[2].entries if e.code == "write_off"]
    assert [(e.player, e.amount) for e in write_off] == [("B", 1)]


def costs(sheet):
    return [s.raspasy_cost for s in sheet.snapshots]


@pytest.mark.parametrize(
    ("progression", "end", "expected"),
    [
        ((), "reset", [1, 1, 1, 1, 1]),
        ((1, 2, 3), "reset", [1, 2, 3, 1, 2]),
        ((1, 2, 4), "reset", [1, 2, 4, 1, 2]),
        ((1, 2, 3), "repeat_last", [1, 2, 3, 3, 3]),
        ((2, 4), "repeat_last", [2, 4, 4, 4, 4]),
    ],
)
def test_progression_of_consecutive_raspasy(progression, end, expected):
    deals = [r3(3, 3, 4)] * 5
    sheet = play(deals, raspasy_progression=progression, raspasy_progression_end=end)
    assert costs(sheet) == expected
    assert sheet.mountain["C"] == sum(expected)


def test_g7_progression_is_reset_after_three_and_by_a_game():
    deals = [
        r3(1, 4, 5),
        r3(2, 2, 6),
        r3(0, 3, 7),
        r3(4, 3, 3),
        make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1}),
        r3(0, 0, 10),
    ]
    sheet = play(deals, raspasy_progression=(1, 2, 3))
    assert costs(sheet) == [1, 2, 3, 1, None, 1]
    assert sheet.mountain == {"A": -3, "B": 13, "C": 43}


SET_GAME = make_game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2})
MADE_GAME = make_game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2})


@pytest.mark.parametrize(
    ("middle", "any_exit", "made_exit"),
    [
        (MADE_GAME, 1, 1),
        (make_no_play("A", "6S"), 1, 1),
        (make_game("A", "6S", {"B": "pass", "C": "half"}), 1, 1),
        (make_misere("A", 0), 1, 1),
        (SET_GAME, 1, 2),
        (make_misere("A", 2), 1, 2),
    ],
)
def test_what_ends_a_raspasy_series(middle, any_exit, made_exit):
    deals = [r3(3, 3, 4), middle, r3(3, 3, 4)]
    for only_made, expected in ((False, any_exit), (True, made_exit)):
        sheet = play(
            deals,
            pool_target=50,
            raspasy_progression=(1, 2, 3),
            exit_only_by_made_game=only_made,
        )
        assert costs(sheet)[2] == expected, only_made


def test_exit_only_by_made_game_still_resets_after_the_last_step():
    # O5: 1, (set), 2, (set), 4, then a new series: 1
    deals = [r3(1, 4, 5), SET_GAME, r3(2, 2, 6), SET_GAME, r3(0, 3, 7), r3(3, 3, 4)]
    sheet = play(deals, pool_target=50, raspasy_progression=(1, 2, 4), exit_only_by_made_game=True)
    assert costs(sheet) == [1, None, 2, None, 4, 1]


def test_amnesty_changes_mountains_but_not_the_result():
    deals = [r3(0, 4, 6), r3(3, 3, 4), r3(2, 0, 8)]
    with_amnesty = play(deals)
    without = play(deals, raspasy_amnesty=False)
    assert with_amnesty.mountain != without.mountain
    assert with_amnesty.result == without.result
