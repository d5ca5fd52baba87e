"""§9 / §17.12 pool closing, help (помощь) and write-off; options help, help_exception,
help_excludes_talon_sitter, mountain_floor_zero (§17.11)."""

from __future__ import annotations

import pytest

from scoring.engine import PulkaError

from .factories import ABCD, make_game, make_no_play, play


def test_g10_help_goes_to_the_largest_pool_ties_clockwise_then_to_the_next():
    deals = [
        make_no_play("A", "10S"),
        make_no_play("B", "6S"),
        make_no_play("C", "6S"),
        make_no_play("A", "6S"),  # A closed: 2 over; B = C = 2 → B, first clockwise from A
        make_game("B", "6H", {"C": "whist", "A": "whist"}, {"B": 6, "C": 2, "A": 2}),
        make_no_play("A", "8S"),  # 6 over: 4 to B (the larger), then 2 to C
        make_no_play("C", "10S"),  # C needs 6; 4 over and nobody is open → off C's mountain
    ]
    sheet = play(deals)
    pools = [tuple(s.pool.values()) for s in sheet.snapshots]
    assert pools == [(10, 0, 0), (10, 2, 0), (10, 2, 2), (10, 4, 2), (10, 6, 2), (10, 10, 4)] + [
        (10, 10, 10)
    ]
    assert sheet.whists["A"] == {"B": 64, "C": 20}
    assert sheet.mountain == {"A": 0, "B": 0, "C": -4}
    assert sheet.closed


def test_tie_goes_to_the_first_clockwise_from_the_writer_not_from_seat_one():
    # T = 2: B closes first; then B's seven is 4 over: C and A tie at 0 → C first (B's left)
    deals = [make_no_play("B", "6S"), make_no_play("B", "7S")]
    sheet = play(deals, pool_target=2)
    assert sheet.whists["B"] == {"A": 20, "C": 20}
    entries = [(e.code, e.other) for e in sheet.snapshots[1].entries if e.code == "help"]
    assert entries == [("help", "C"), ("help", "A")]


@pytest.mark.parametrize(
    ("exception", "pools", "mountain_a", "a_on_c"),
    [
        ("write_off", (4, 2, 0), -2, 0),
        ("skip_to_next", (4, 2, 2), 0, 20),
    ],
)
def test_no_help_to_a_player_set_on_whist_in_the_same_deal(exception, pools, mountain_a, a_on_c):
    # T = 4. A closes with a seven; B has 2; then A makes a six against B and C: B takes 0
    # and pays for the pair (S = 2). A's 2 points would go to B (the largest open pool).
    deals = [
        make_no_play("A", "7S"),
        make_no_play("B", "6S"),
        make_game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 8, "B": 0, "C": 2}),
    ]
    sheet = play(deals, pool_target=4, help_exception=exception)
    assert tuple(sheet.pool.values()) == pools
    assert sheet.mountain == {"A": mountain_a, "B": 4, "C": 0}
    assert sheet.whists["A"]["C"] == a_on_c
    assert sheet.whists["A"]["B"] == 0


def test_help_off_writes_the_whole_excess_off_the_mountain():
    deals = [make_no_play("A", "7S"), make_no_play("A", "8S")]
    sheet = play(deals, pool_target=4, help=False)
    assert sheet.pool == {"A": 4, "B": 0, "C": 0}
    assert sheet.mountain == {"A": -6, "B": 0, "C": 0}
    assert sheet.whists["A"] == {"B": 0, "C": 0}


def test_help_off_the_code_example_two_points_left_and_a_nine():
    # Code 4.1.1: 2 points left, a nine → 2 into the pool, 6 written off
    deals = [make_no_play("A", "9S")]
    sheet = play(deals, pool_target=2, help=False)
    assert sheet.pool["A"] == 2
    assert sheet.mountain["A"] == -6


@pytest.mark.parametrize(
    ("excludes", "helped"),
    [(False, "C"), (True, "B")],
)
def test_help_to_the_talon_sitter_unless_excluded(excludes, helped):
    # T = 4, first dealer A. Deal 1 (dealer A): C's six → 2. Deal 2 (dealer B): A's seven → 4.
    # Deal 3 (dealer C): A's six, 2 over; C (2) is largest but sits on the talon this deal.
    deals = [
        make_game("C", "6S", {"D": "pass", "B": "pass"}),
        make_game("A", "7S", {"C": "pass", "D": "pass"}),
        make_game("A", "6S", {"B": "pass", "D": "pass"}),
    ]
    sheet = play(
        deals, players=ABCD, first_dealer="A", pool_target=4, help_excludes_talon_sitter=excludes
    )
    assert sheet.snapshots[2].dealer == "C"
    assert sheet.whists["A"][helped] == 20
    assert sheet.pool[helped] == (4 if helped == "C" else 2)


def test_mountain_floor_zero_stops_the_help_write_off_at_zero():
    deals = [
        make_no_play("A", "10S"),
        make_no_play("B", "10S"),
        make_no_play("C", "6S"),
        make_no_play("C", "10S"),  # C needs 8 of 10: 2 would be written off
    ]
    assert play(deals).mountain["C"] == -2
    assert play(deals, mountain_floor_zero=True).mountain["C"] == 0


def test_pools_never_exceed_the_target_and_closing_ends_the_pulka():
    # T = 3: C's seven → 3 + 1 help to A (A = B = 2, A first clockwise from C);
    # B's six → 1 into his pool, 1 off his mountain (nobody open): every pool is closed.
    deals = [
        make_no_play("A", "6S"),
        make_no_play("B", "6S"),
        make_no_play("C", "7S"),
        make_no_play("B", "6S"),
    ]
    sheet = play(deals, pool_target=3)
    assert [tuple(s.pool.values()) for s in sheet.snapshots] == [
        (2, 0, 0),
        (2, 2, 0),
        (3, 2, 3),
        (3, 3, 3),
    ]
    assert [s.pool == dict.fromkeys("ABC", 3) for s in sheet.snapshots] == [0, 0, 0, 1]
    assert sheet.mountain == {"A": 0, "B": -1, "C": 0}
    assert sheet.closed
    with pytest.raises(PulkaError, match="deal 5: the pulka is closed: every pool reached 3"):
        play([*deals, make_no_play("A", "6S")], pool_target=3)


def test_help_is_ten_whists_per_point_whatever_the_pool_point_value():
    deals = [make_no_play("A", "10S"), make_no_play("A", "6S")]
    for ppv in (10, 20):
        sheet = play(deals, pool_point_value=ppv)
        assert sheet.whists["A"]["B"] == 20
