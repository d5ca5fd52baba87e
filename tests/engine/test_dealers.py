"""§12.1 / §17.15 dealer rotation and overrides; §2.2 speaking order; §12.3 the 4-player
dealer on the talon."""

from __future__ import annotations

import pytest

from scoring.engine import (
    Deal,
    PulkaError,
    dealer_for_next_deal,
    defenders_in_order,
)

from .factories import ABC, ABCD, make_game, make_raspasy, play

R3 = make_raspasy({"A": 3, "B": 3, "C": 4})


def r4(sitter: str, override: bool = False) -> Deal:
    """A 4-player raspasy valid when ``sitter`` deals (he takes 1 trick, the others 3)."""
    tricks = {p: (1 if p == sitter else 3) for p in ABCD}
    return make_raspasy(tricks, dealer=sitter if override else None)


@pytest.mark.parametrize(
    ("players", "first", "deals", "dealers", "next_dealer"),
    [
        (ABC, None, [R3] * 4, ["A", "B", "C", "A"], "B"),
        (ABC, "C", [R3] * 3, ["C", "A", "B"], "C"),
        (ABCD, "D", [r4(p) for p in "DABCD"], ["D", "A", "B", "C", "D"], "A"),
        (ABCD, None, [r4("A"), r4("C", override=True), r4("D")], ["A", "C", "D"], "A"),
        (
            ABC,
            "B",
            [R3, make_raspasy({"A": 3, "B": 3, "C": 4}, dealer="B"), R3],
            ["B", "B", "C"],
            "A",
        ),
        (ABC, "B", [], [], "B"),
    ],
)
def test_the_deal_passes_clockwise_and_an_override_restarts_the_rotation(
    players, first, deals, dealers, next_dealer
):
    sheet = play(deals, players=players, first_dealer=first)
    assert [s.dealer for s in sheet.snapshots] == dealers
    assert sheet.next_dealer == next_dealer
    assert dealer_for_next_deal(players, first, deals) == next_dealer


@pytest.mark.parametrize(
    ("players", "declarer", "dealer", "order"),
    [
        (ABC, "A", "A", ("B", "C")),
        (ABC, "B", "A", ("C", "A")),
        (ABC, "C", "B", ("A", "B")),
        (ABCD, "A", "D", ("B", "C")),
        (ABCD, "A", "C", ("B", "D")),
        (ABCD, "A", "B", ("C", "D")),
        (ABCD, "C", "A", ("D", "B")),
    ],
)
def test_defenders_speak_clockwise_from_the_declarer_skipping_the_talon_sitter(
    players, declarer, dealer, order
):
    assert defenders_in_order(players, declarer, dealer) == order


def test_defenders_in_order_refuses_the_four_player_dealer_as_declarer():
    with pytest.raises(PulkaError, match="A deals and sits out on the talon, so cannot declare"):
        defenders_in_order(ABCD, "A", "A")


def test_the_talon_sitter_follows_the_rotation():
    # deal 1 dealer A (A sits out), deal 2 dealer B: A may declare, B may not
    deals = [
        make_game("B", "6S", {"C": "pass", "D": "pass"}),
        make_game("A", "6S", {"C": "pass", "D": "pass"}),
    ]
    sheet = play(deals, players=ABCD, pool_target=20)
    assert sheet.pool == {"A": 2, "B": 2, "C": 0, "D": 0}
    bad = [*deals, make_game("C", "6S", {"D": "pass", "A": "pass"})]
    with pytest.raises(PulkaError, match="deal 3: C deals and sits out on the talon"):
        play(bad, players=ABCD, pool_target=20)


def test_a_three_player_dealer_plays_like_everybody():
    deal = make_game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2})
    sheet = play([deal], first_dealer="A")
    assert sheet.snapshots[0].dealer == "A"
    assert sheet.pool["A"] == 2
