"""Entries: what each deal wrote, structured for the UI and in plain English (§3–§9)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import Entry

from .factories import make_game, make_misere, make_no_play, make_raspasy, play, texts


@pytest.mark.parametrize(
    ("entry", "text"),
    [
        (Entry("whists", "Boris", 8, "Anna", "tricks", 2), "Boris writes 8 whists on Anna"),
        (
            Entry("mountain", "Anna", 4, reason="declarer_set", tricks=2),
            "Anna: 4 into the mountain (2 tricks short)",
        ),
        (Entry("help", "Anna", 2, "Vera"), "help: 2 into Vera's pool"),
        (Entry("whists", "Anna", 20, "Vera", "help"), "Anna writes 20 whists on Vera (help)"),
        (
            Entry("write_off", "Anna", 1, reason="raspasy_zero"),
            "Anna: 1 written off the mountain (raspasy, no tricks)",
        ),
        (Entry("pool", "Anna", 4), "Anna: 4 into the pool"),
        (
            Entry("whists", "Boris", 8, "Anna", "consolation", 2),
            "Boris writes 8 whists on Anna (consolation)",
        ),
        (
            Entry("whists", "Vera", 4, "Anna", "half_whist", 2),
            "Vera writes 4 whists on Anna (half-whist)",
        ),
        (
            Entry("whists", "Vera", 4, "Anna", "quick_tricks", 2),
            "Vera writes 4 whists on Anna (2 quick tricks in the talon)",
        ),
        (
            Entry("whists", "Gleb", 2, "Anna", "quick_tricks", 1),
            "Gleb writes 2 whists on Anna (quick trick in the talon)",
        ),
        (
            Entry("mountain", "Boris", 2, reason="whister_set", tricks=1),
            "Boris: 2 into the mountain (set on whist, 1 trick short)",
        ),
        (
            Entry("mountain", "Boris", Fraction(3, 2), reason="whister_set", tricks=1),
            "Boris: 3/2 into the mountain (set on whist, 1 trick short)",
        ),
        (
            Entry("mountain", "Vera", 30, reason="misere_failed", tricks=3),
            "Vera: 30 into the mountain (misère, 3 tricks taken)",
        ),
        (
            Entry("mountain", "Vera", 4, reason="raspasy", tricks=4),
            "Vera: 4 into the mountain (raspasy, 4 tricks)",
        ),
        (
            Entry("write_off", "Vera", 4, reason="no_one_to_help"),
            "Vera: 4 written off the mountain (nobody left to help)",
        ),
        (
            Entry("write_off", "Anna", 2, "Boris", "help_exception"),
            "Anna: 2 written off the mountain (no help: Boris was set on whist)",
        ),
        (
            Entry("write_off", "Anna", 6, reason="help_off"),
            "Anna: 6 written off the mountain (pool overflow, help is off)",
        ),
    ],
)
def test_entry_reads_as_plain_english(entry, text):
    assert str(entry) == text


def test_a_made_game_writes_quick_tricks_then_whists_then_the_pool():
    deal = make_game(
        "A", "7H", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1}, talon=("AS", "KS")
    )
    assert texts(play([deal])) == [
        "B writes 4 whists on A (2 quick tricks in the talon)",
        "C writes 4 whists on A (2 quick tricks in the talon)",
        "B writes 12 whists on A",
        "A: 4 into the pool",
    ]


def test_a_whister_set_deal_is_explained():
    deal = make_game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 7, "B": 3, "C": 0})
    sheet = play([deal])
    assert texts(sheet) == [
        "B writes 6 whists on A",
        "C: 2 into the mountain (set on whist, 1 trick short)",
        "A: 2 into the pool",
    ]
    whister_set = sheet.snapshots[0].entries[1]
    assert (whister_set.code, whister_set.player, whister_set.amount) == ("mountain", "C", 2)
    assert (whister_set.reason, whister_set.tricks, whister_set.other) == ("whister_set", 1, None)


def test_help_and_write_off_entries():
    deals = [make_no_play("A", "10S"), make_no_play("A", "6S")]
    sheet = play(deals, pool_target=10)
    assert texts(sheet, 2) == ["help: 2 into B's pool", "A writes 20 whists on B (help)"]
    help_entry = sheet.snapshots[1].entries[0]
    assert (help_entry.code, help_entry.player, help_entry.other, help_entry.amount) == (
        "help",
        "A",
        "B",
        2,
    )


def test_raspasy_entries():
    sheet = play([make_raspasy({"A": 0, "B": 4, "C": 6})])
    assert texts(sheet) == [
        "B: 4 into the mountain (raspasy, 4 tricks)",
        "C: 6 into the mountain (raspasy, 6 tricks)",
        "A: 1 written off the mountain (raspasy, no tricks)",
    ]


def test_misere_entries():
    assert texts(play([make_misere("B", 2)])) == [
        "B: 20 into the mountain (misère, 2 tricks taken)"
    ]
    assert texts(play([make_misere("B")])) == ["B: 10 into the pool"]
