"""§8 / §17.7 quick tricks in the talon (option ``quick_tricks``)."""

from __future__ import annotations

import pytest

from scoring.engine import PulkaError, quick_tricks_of_talon

from .factories import ABCD, make_game, on, play


@pytest.mark.parametrize(
    ("talon", "quick"),
    [
        (("AS", "AH"), 3),
        (("AD", "AC"), 3),
        (("AS", "KS"), 2),
        (("KH", "AH"), 2),
        (("AS", "KH"), 1),
        (("AS", "7S"), 1),
        (("10D", "AC"), 1),
        (("KH", "QH"), 1),
        (("QC", "KC"), 1),
        (("KH", "QS"), 0),
        (("KH", "7H"), 0),
        (("QS", "JS"), 0),
        (("10H", "9H"), 0),
        (["AS", "KS"], 2),
    ],
)
def test_quick_tricks_of_a_talon(talon, quick):
    assert quick_tricks_of_talon(talon) == quick


@pytest.mark.parametrize(
    "talon",
    [("AS", "AS"), ("1S", "AS"), ("AX", "KS"), ("as", "ks"), ("AS",), ("AS", "KS", "QS"), "ASKS"],
)
def test_invalid_talon_cards_are_rejected(talon):
    with pytest.raises(PulkaError, match="talon"):
        quick_tricks_of_talon(talon)


@pytest.mark.parametrize("dealer", ["A", "B", "C"])
def test_three_players_each_opponent_writes_half_whoever_dealt(dealer):
    # the spec's example: 7♥ with A♠ K♠ = 2 quick tricks · 4 = 8, i.e. 4 + 4
    deal = make_game(
        "A",
        "7H",
        {"B": "whist", "C": "pass"},
        {"A": 7, "B": 2, "C": 1},
        talon=("AS", "KS"),
        dealer=dealer,
    )
    sheet = play([deal])
    assert on(sheet, "B", "A") == 12 + 4
    assert on(sheet, "C", "A") == 4


def test_four_players_the_talon_sitter_writes_it_all():
    deal = make_game("A", "6S", {"B": "pass", "C": "pass"}, quick_tricks=3)
    sheet = play([deal], players=ABCD, first_dealer="D")
    assert on(sheet, "D", "A") == 6
    assert on(sheet, "B", "A") == on(sheet, "C", "A") == 0


@pytest.mark.parametrize(
    ("calls", "tricks"),
    [
        ({"B": "pass", "C": "pass"}, None),  # not played
        ({"B": "pass", "C": "half"}, None),  # half-whist
        ({"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2}),  # set
        ({"B": "whist", "C": "whist"}, {"A": 8, "B": 1, "C": 1}),  # made
    ],
)
def test_quick_tricks_are_written_for_every_trick_contract(calls, tricks):
    plain = play([make_game("A", "6S", calls, tricks)])
    taxed = play([make_game("A", "6S", calls, tricks, talon=("AH", "AD"))])
    for who in ("B", "C"):
        assert on(taxed, who, "A") - on(plain, who, "A") == 3  # 3 · 2 / 2


def test_quick_tricks_count_is_the_same_as_the_cards():
    by_cards = play([make_game("A", "8D", {"B": "pass", "C": "pass"}, talon=("AD", "KD"))])
    by_count = play([make_game("A", "8D", {"B": "pass", "C": "pass"}, quick_tricks=2)])
    assert by_cards.whists == by_count.whists
    assert on(by_cards, "B", "A") == 6


def test_quick_tricks_off_writes_nothing_but_still_checks_the_cards():
    ok = make_game("A", "6S", {"B": "pass", "C": "pass"}, talon=("AS", "AH"))
    sheet = play([ok], quick_tricks=False)
    assert on(sheet, "B", "A") == on(sheet, "C", "A") == 0
    bad = make_game("A", "6S", {"B": "pass", "C": "pass"}, talon=("AS", "AS"))
    with pytest.raises(PulkaError, match="deal 1: talon"):
        play([bad], quick_tricks=False)
