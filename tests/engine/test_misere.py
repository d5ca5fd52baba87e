"""§6 misère: 10 into the pool when clean, 10 per trick into the mountain otherwise;
not whisted, no consolation, no quick tricks; §17.10 misère and the raspasy series."""

from __future__ import annotations

import pytest

from scoring.engine import PulkaError

from .factories import ABCD, entries, make_misere, play


@pytest.mark.parametrize(
    ("taken", "pool", "mountain"),
    [(0, 10, 0), (1, 0, 10), (3, 0, 30), (10, 0, 100)],
)
def test_misere_scores_ten_into_the_pool_or_ten_per_trick_into_the_mountain(taken, pool, mountain):
    sheet = play([make_misere("B", taken)], pool_target=20)
    assert sheet.pool == {"A": 0, "B": pool, "C": 0}
    assert sheet.mountain == {"A": 0, "B": mountain, "C": 0}
    assert all(v == 0 for row in sheet.whists.values() for v in row.values())
    assert {e.player for e in entries(sheet)} == {"B"}


def test_g5_failed_misere_settles_for_minus_200():
    deals = [make_misere("A"), make_misere("B", 3), make_misere("C"), make_misere("B")]
    sheet = play(deals)
    assert sheet.closed
    assert sheet.mountain == {"A": 0, "B": 30, "C": 0}
    assert sheet.result == {"A": 100, "B": -200, "C": 100}


def test_four_player_misere_by_a_non_dealer():
    sheet = play([make_misere("B")], players=ABCD, first_dealer="A")
    assert sheet.pool == {"A": 0, "B": 10, "C": 0, "D": 0}


def test_the_four_player_dealer_cannot_play_misere():
    with pytest.raises(PulkaError, match="deal 1: A deals and sits out on the talon"):
        play([make_misere("A")], players=ABCD)


def test_misere_over_the_target_goes_through_help():
    # T = 4: B's misère → 4 into his pool, 6 over: A and C tie at 0 → C (clockwise from B)
    sheet = play([make_misere("B")], pool_target=4)
    assert sheet.pool == {"A": 2, "B": 4, "C": 4}
    assert sheet.whists["B"] == {"A": 20, "C": 40}
