"""§5 whister set and its options (§17.2 whist_penalty, §17.3 duty1_rule, §17.4a
whister_shortfall, §17.4 personal_quota, §17.5 ten_checked)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import sheet_to_dict

from .factories import ABCD, make_game, on, play


def two_whisters(contract: str, b: int, c: int, **rules):
    """A declares, B then C whist; B and C take ``b`` and ``c``, A the rest."""
    deal = make_game("A", contract, {"B": "whist", "C": "whist"}, {"A": 10 - b - c, "B": b, "C": c})
    return play([deal], **rules)


@pytest.mark.parametrize(
    ("b", "c", "pair", "own"),
    [
        ((3), 0, (0, 2), (0, 4)),  # S = 1: only the 0-trick whister, for one trick
        (1, 1, (2, 2), (2, 2)),  # S = 2: each pays for one
        (2, 0, (0, 4), (0, 4)),  # S = 2: the 0-trick whister pays both
        (1, 0, (2, 4), (2, 4)),  # S = 3: 1 and 2 undertricks
        (0, 0, (4, 4), (4, 4)),  # S = 4
        (0, 3, (2, 0), (4, 0)),
        (4, 0, (0, 0), (0, 0)),  # the pair reached D = 4: nobody pays, whatever the split
        (2, 2, (0, 0), (0, 0)),
    ],
)
def test_pair_rule_at_a_six(b, c, pair, own):
    for shortfall, expected in (("pair", pair), ("own", own)):
        sheet = two_whisters("6S", b, c, whister_shortfall=shortfall)
        assert (sheet.mountain["B"], sheet.mountain["C"]) == expected, shortfall


def test_whister_with_no_tricks_pays_for_the_pair_at_a_six():
    # G3 deal 1: tricks A7 B3 C0 → S = 1; C pays 2·min(2, 1) = 2; B writes 3·2 = 6
    sheet = two_whisters("6S", 3, 0)
    assert sheet.mountain == {"A": 0, "B": 0, "C": 2}
    assert on(sheet, "B", "A") == 6
    assert sheet.pool["A"] == 2


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [(1, 0, (0, 4)), (0, 1, (4, 0)), (0, 0, (4, 4)), (2, 0, (0, 0)), (1, 1, (0, 0))],
)
def test_pair_rule_at_a_seven(b, c, expected):
    sheet = two_whisters("7S", b, c)
    assert (sheet.mountain["B"], sheet.mountain["C"]) == expected


@pytest.mark.parametrize(
    ("contract", "duty1_rule", "whist_penalty", "b_pays", "c_pays"),
    [
        ("8S", "second", "full", 0, 6),
        ("8S", "both", "full", 6, 6),
        ("8S", "split", "full", 3, 3),
        ("9S", "second", "full", 0, 8),
        ("10NT", "second", "full", 0, 10),
        ("10NT", "both", "full", 10, 10),
        ("10NT", "split", "full", 5, 5),
        ("8S", "second", "half", 0, 3),
        ("8S", "both", "half", 3, 3),
        ("8S", "split", "half", Fraction(3, 2), Fraction(3, 2)),
        ("10NT", "split", "half", Fraction(5, 2), Fraction(5, 2)),
        ("9S", "split", "half", 2, 2),
    ],
)
def test_duty1_when_both_whisters_take_nothing(contract, duty1_rule, whist_penalty, b_pays, c_pays):
    sheet = two_whisters(contract, 0, 0, duty1_rule=duty1_rule, whist_penalty=whist_penalty)
    assert (sheet.mountain["B"], sheet.mountain["C"]) == (b_pays, c_pays)
    assert all(type(v) is int for v in sheet.mountain.values() if v == int(v))


def test_a_fractional_mountain_is_written_as_p_over_q():
    sheet = two_whisters("8S", 0, 0, duty1_rule="split", whist_penalty="half")
    assert sheet_to_dict(sheet)["mountain"] == {"A": 0, "B": "3/2", "C": "3/2"}


def test_fractions_that_add_up_to_a_whole_become_an_int_again():
    deal = make_game("A", "8S", {"B": "whist", "C": "whist"}, {"A": 10, "B": 0, "C": 0})
    sheet = play([deal, deal], pool_target=20, duty1_rule="split", whist_penalty="half")
    assert sheet.snapshots[0].mountain["B"] == Fraction(3, 2)
    assert sheet.mountain["B"] == 3
    assert type(sheet.mountain["B"]) is int


@pytest.mark.parametrize(("contract", "b", "c"), [("8S", 1, 0), ("9S", 0, 1), ("10NT", 1, 0)])
def test_one_defensive_trick_meets_the_duty_at_eight_to_ten(contract, b, c):
    sheet = two_whisters(contract, b, c, duty1_rule="both")
    assert (sheet.mountain["B"], sheet.mountain["C"]) == (0, 0)


def test_the_second_whister_is_counted_clockwise_skipping_the_four_player_dealer():
    # dealer C sits out; A declares; defenders clockwise from A: B, then D (C skipped)
    deal = make_game("A", "8S", {"B": "whist", "D": "whist"}, {"A": 10, "B": 0, "D": 0})
    sheet = play([deal], players=ABCD, first_dealer="C")
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0, "D": 6}


@pytest.mark.parametrize(
    ("contract", "tricks", "pays"),
    [
        ("6S", {"A": 7, "B": 2, "C": 1}, 2),  # G7 deal 5: T_def = 3 < 4
        ("6S", {"A": 8, "B": 0, "C": 2}, 4),  # the passer's tricks count for the whister
        ("7H", {"A": 9, "B": 1, "C": 0}, 4),
        ("8D", {"A": 10, "B": 0, "C": 0}, 6),
        ("6S", {"A": 6, "B": 0, "C": 4}, 0),
    ],
)
def test_lone_whister_answers_for_the_whole_obligation(contract, tricks, pays):
    deal = make_game("A", contract, {"B": "whist", "C": "pass"}, tricks)
    sheet = play([deal])
    assert sheet.mountain == {"A": 0, "B": pays, "C": 0}


def test_the_set_whister_still_writes_whists_for_the_tricks_he_took():
    deal = make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1})
    sheet = play([deal])
    assert on(sheet, "B", "A") == 6
    assert sheet.mountain["B"] == 2


@pytest.mark.parametrize(
    ("contract", "b", "c", "expected"),
    [
        ("6S", 1, 0, (1, 2)),  # pair rule, at V/2 per trick: 1 and 2 undertricks
        ("7S", 0, 0, (2, 2)),
        ("6S", 3, 0, (0, 1)),
    ],
)
def test_half_whist_penalty_is_half_the_value_per_trick_short(contract, b, c, expected):
    sheet = two_whisters(contract, b, c, whist_penalty="half")
    assert (sheet.mountain["B"], sheet.mountain["C"]) == expected


@pytest.mark.parametrize(
    ("contract", "b", "c", "default", "quota"),
    [
        ("6S", 3, 1, (0, 0), (0, 2)),  # pair reached 4, but C took 1 of his 2
        ("6S", 5, 0, (0, 0), (0, 4)),  # declarer set, C still pays for his quota
        ("7S", 2, 0, (0, 0), (0, 4)),
        ("8S", 0, 2, (0, 0), (6, 0)),
        ("8S", 0, 0, (0, 6), (6, 6)),  # duty1_rule is not used
        ("6S", 1, 0, (2, 4), (2, 4)),
    ],
)
def test_personal_quota_charges_each_whister_below_his_own_share(contract, b, c, default, quota):
    sheet = two_whisters(contract, b, c)
    assert (sheet.mountain["B"], sheet.mountain["C"]) == default
    sheet = two_whisters(contract, b, c, personal_quota=True)
    assert (sheet.mountain["B"], sheet.mountain["C"]) == quota


def test_personal_quota_keeps_the_lone_whister_rule():
    deal = make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 6, "B": 1, "C": 3})
    sheet = play([deal], personal_quota=True)
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize(
    ("calls", "tricks"),
    [
        ({"B": "whist", "C": "whist"}, {"A": 10, "B": 0, "C": 0}),
        ({"B": "whist", "C": "pass"}, {"A": 10, "B": 0, "C": 0}),
    ],
)
def test_a_checked_ten_has_no_whister_penalty(calls, tricks):
    for quota in (False, True):
        sheet = play(
            [make_game("A", "10NT", calls, tricks)], ten_checked=True, personal_quota=quota
        )
        assert sheet.mountain == {"A": 0, "B": 0, "C": 0}
        assert sheet.pool["A"] == 10


def test_a_checked_ten_still_has_whists_and_consolation():
    # O3 deal 2: B's ten, C whists alone and takes 1 → u = 1; C writes 10 + 10
    deal = make_game("B", "10NT", {"C": "whist", "A": "pass"}, {"B": 9, "C": 1, "A": 0})
    sheet = play([deal], ten_checked=True)
    assert sheet.mountain == {"A": 0, "B": 10, "C": 0}
    assert on(sheet, "C", "B") == 20
