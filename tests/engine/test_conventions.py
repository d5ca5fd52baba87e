"""rules/conventions.md: the presets (§A), the new options (§B) and readings 18–25, with the
figures worked by hand in §D and §D2."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import (
    PRESET_VALUES,
    Deal,
    PulkaError,
    Rules,
    compute_sheet,
    preset_rules,
    rules_from_dict,
    rules_to_dict,
)

from .factories import ABC, ABCD, make_game, make_misere, make_no_play, make_raspasy, on, play

BOTH = {"B": "whist", "C": "whist"}


def r3(a: int, b: int, c: int, **overrides) -> Deal:
    return make_raspasy({"A": a, "B": b, "C": c}, **overrides)


# --- §A presets -------------------------------------------------------------------------------


def test_the_presets_set_exactly_the_bold_cells_of_the_table():
    lenin = rules_from_dict({"preset": "leningrad"})
    rostov = rules_from_dict({"preset": "rostov"})
    sochi = rules_from_dict({"preset": "sochi"})

    assert sochi == Rules()
    assert (lenin.consolation, lenin.lone_whister, lenin.whist_penalty) == (
        "all_opponents",
        "gentleman_on_set",
        "half",
    )
    assert (lenin.game_price_multiplier, lenin.pool_end, lenin.pool_point_value) == (2, "sum", 20)
    assert (lenin.raspasy_progression, lenin.raspasy_progression_end) == ((2, 4, 6), "repeat_last")
    assert (lenin.exit_only_by_made_game, lenin.exit_by_unplayed_game, lenin.exit_by_misere) == (
        True,
        False,
        False,
    )
    assert (lenin.help, lenin.quick_tricks, lenin.raspasy_amnesty, lenin.raspasy_zero) == (
        False,
        False,
        False,
        "pool",
    )
    assert (rostov.raspasy_scoring, rostov.raspasy_whist_rate, rostov.consolation_amount) == (
        "whists",
        5,
        "ten",
    )
    assert (rostov.raspasy_zero, rostov.raspasy_zero_unit, rostov.whister_shortfall) == (
        "pool",
        "one",
        "own",
    )
    assert (rostov.game_price_multiplier, rostov.pool_end, rostov.help) == (1, "each", True)
    # Everything not in a preset's column stays Sochi's.
    for name, values in PRESET_VALUES.items():
        resolved = rules_from_dict({"preset": name})
        for key, default in rules_to_dict(Rules()).items():
            if key not in values and key != "preset":
                assert rules_to_dict(resolved)[key] == default, (name, key)


def test_explicit_keys_win_over_the_preset_even_when_they_equal_the_sochi_default():
    r = rules_from_dict({"preset": "leningrad", "help": True, "pool_target": 30})

    assert (r.help, r.pool_target, r.preset, r.pool_end) == (True, 30, "leningrad", "sum")
    assert r == preset_rules("leningrad", help=True, pool_target=30)


def test_the_echo_names_the_preset_last_and_reads_back_to_the_same_rules():
    r = rules_from_dict({"preset": "rostov", "raspasy_whist_rate": 10})
    echo = rules_to_dict(r)

    assert list(echo)[-1] == "preset"
    assert echo["preset"] == "rostov"
    assert echo["raspasy_whist_rate"] == 10
    assert rules_from_dict(echo) == r


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"preset": "moscow"}, "rules_preset"),
        ({"preset": "Sochi"}, "rules_preset"),
        ({"preset": None}, "rules_preset"),
        ({"preset": 1}, "rules_preset"),
        ({"game_price_multiplier": 1.0}, "rules_game_price_multiplier"),
        ({"game_price_multiplier": True}, "rules_game_price_multiplier"),
        ({"game_price_multiplier": 3}, "rules_game_price_multiplier"),
        ({"game_price_multiplier": "2"}, "rules_game_price_multiplier"),
        ({"raspasy_whist_rate": 0}, "rules_raspasy_whist_rate"),
        ({"raspasy_whist_rate": -5}, "rules_raspasy_whist_rate"),
        ({"raspasy_whist_rate": 5.0}, "rules_raspasy_whist_rate"),
        ({"raspasy_whist_rate": True}, "rules_raspasy_whist_rate"),
        ({"raspasy_whist_rate": 101}, "rules_raspasy_whist_rate_max"),
        ({"exit_by_misere": 1}, "rules_boolean"),
        ({"exit_by_unplayed_game": "false"}, "rules_boolean"),
        ({"pool_end": "total"}, "rules_choice"),
        ({"raspasy_zero": "double"}, "rules_choice"),
        ({"raspasy_zero_unit": 1}, "rules_choice"),
        ({"raspasy_scoring": "whist"}, "rules_choice"),
        ({"consolation": "nobody"}, "rules_choice"),
        ({"consolation_amount": 10}, "rules_choice"),
        ({"lone_whister": "gentleman-on-set"}, "rules_choice"),
        ({"preset": "leningrad", "game_price_multiplier": 4}, "rules_game_price_multiplier"),
    ],
)
def test_strictness_of_the_new_keys(rules, code):
    with pytest.raises(PulkaError) as caught:
        rules_from_dict(rules)
    assert caught.value.code == code
    assert str(caught.value).startswith("rules: ")


def test_an_unknown_preset_says_which_are_known():
    with pytest.raises(PulkaError) as caught:
        rules_from_dict({"preset": "moscow"})
    assert str(caught.value) == (
        "rules: preset may not be 'moscow': it is one of 'sochi', 'leningrad', 'rostov'"
    )


def test_the_whist_rate_is_bounded_to_a_hundred():
    assert Rules(raspasy_whist_rate=100).raspasy_whist_rate == 100


# --- 18: game_price_multiplier ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "rules", "pool", "mountain", "whists"),
    [
        # L1 D1: a six made, W = 4, pool V = 2
        (
            make_game("A", "6S", BOTH, {"A": 6, "B": 2, "C": 2}),
            {},
            (2, 0, 0),
            (0, 0, 0),
            {("B", "A"): 8, ("C", "A"): 8},
        ),
        # a seven set by 2, consolation to the whisters: 2·8 each, M = 8·2
        (
            make_game("A", "7H", BOTH, {"A": 5, "B": 3, "C": 2}),
            {},
            (0, 0, 0),
            (16, 0, 0),
            {("B", "A"): 24 + 16, ("C", "A"): 16 + 16},
        ),
        # half-whist at six: (D/2)·W = 2·4; at seven: 1·8
        (
            make_game("A", "6D", {"B": "pass", "C": "half"}),
            {},
            (2, 0, 0),
            (0, 0, 0),
            {("C", "A"): 8},
        ),
        (
            make_game("A", "7D", {"B": "pass", "C": "half"}),
            {},
            (4, 0, 0),
            (0, 0, 0),
            {("C", "A"): 8},
        ),
        # a failed misère: s·10 per trick (L3 D2)
        (make_misere("B", 2), {}, (0, 0, 0), (0, 40, 0), {}),
        # quick tricks: q·W/2 from each opponent (2·4/2), pool still V
        (
            make_no_play("A", "6S", quick_tricks=2),
            {},
            (2, 0, 0),
            (0, 0, 0),
            {("B", "A"): 4, ("C", "A"): 4},
        ),
        # a lone whister one short at six: W (full) = 4, W/2 (half) = 2 (L1 D3)
        (
            make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1}),
            {},
            (2, 0, 0),
            (0, 4, 0),
            {("B", "A"): 12},
        ),
        (
            make_game("A", "6S", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1}),
            {"whist_penalty": "half"},
            (2, 0, 0),
            (0, 2, 0),
            {("B", "A"): 12},
        ),
        # an eight, both whisters 0: the second pays W/2 = 6 (L3 D4); split: 3 each
        (
            make_game("A", "8H", BOTH, {"A": 10, "B": 0, "C": 0}),
            {"whist_penalty": "half"},
            (6, 0, 0),
            (0, 0, 6),
            {},
        ),
        (
            make_game("A", "8H", BOTH, {"A": 10, "B": 0, "C": 0}),
            {"whist_penalty": "half", "duty1_rule": "split"},
            (6, 0, 0),
            (0, 3, 3),
            {},
        ),
        # raspasy costs are not multiplied
        (r3(0, 4, 6), {}, (0, 0, 0), (-1, 4, 6), {}),
    ],
)
def test_reading_18_the_whist_price_is_s_times_v(deal, rules, pool, mountain, whists):
    sheet = play([deal], game_price_multiplier=2, quick_tricks=True, **rules)

    assert tuple(sheet.pool.values()) == pool
    assert tuple(sheet.mountain.values()) == mountain
    written = {(x, y): v for x, row in sheet.whists.items() for y, v in row.items() if v}
    assert written == whists


def test_reading_18_help_stays_ten_whists_a_point_and_four_players_quick_tricks_go_to_the_dealer():
    sheet = play(
        [make_no_play("A", "10NT"), make_no_play("A", "7S")], game_price_multiplier=2
    )  # A closed at 10: the 4 of the seven help B (first clockwise of the tie)
    assert on(sheet, "A", "B") == 40

    four = play(
        [make_no_play("B", "6S", ABCD, dealer="A", quick_tricks=3)],
        players=ABCD,
        game_price_multiplier=2,
    )
    assert on(four, "A", "B") == 12


# --- 19: lone_whister gentleman_on_set --------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "tricks", "rules", "whists", "mountain_c"),
    [
        # made: greedy, the whister writes W·T_def (L1 D3 without the penalty)
        ("6C", {"C": 6, "A": 3, "B": 1}, {}, {("A", "C"): 8}, 0),
        # set: W·T_def split; consolation to all opponents (L1 D2 at s 1): 10 + 8 each
        ("7H", {"C": 5, "A": 3, "B": 2}, {}, {("A", "C"): 18, ("B", "C"): 18}, 8),
        # set, consolation to the whister only: the split still goes to the passer
        (
            "7H",
            {"C": 5, "A": 3, "B": 2},
            {"consolation": "whisters"},
            {("A", "C"): 18, ("B", "C"): 10},
            8,
        ),
        # the plain gentleman splits a made game too
        ("6C", {"C": 6, "A": 3, "B": 1}, {"lone_whister": "gentleman"},
         {("A", "C"): 4, ("B", "C"): 4}, 0),
    ],
)  # fmt: skip
def test_reading_19_the_gentleman_split_only_when_the_declarer_is_set(
    contract, tricks, rules, whists, mountain_c
):
    deal = make_game("C", contract, {"A": "whist", "B": "pass"}, tricks)
    options = {"lone_whister": "gentleman_on_set", "consolation": "all_opponents", **rules}
    sheet = play([deal], **options)

    written = {(x, y): v for x, row in sheet.whists.items() for y, v in row.items() if v}
    assert written == whists
    assert sheet.mountain == {"A": 0, "B": 0, "C": mountain_c}


def test_reading_19_l1_deal_2_at_double_price():
    # B 7♥ set by 2, lone C: 5·8 = 40 split 20/20, consolation 16 each
    deal = make_game("B", "7H", {"C": "whist", "A": "pass"}, {"B": 5, "C": 3, "A": 2})
    sheet = compute_sheet(preset_rules("leningrad", pool_target=10), ABC, [deal])
    assert (on(sheet, "A", "B"), on(sheet, "C", "B"), sheet.mountain["B"]) == (36, 36, 16)


# --- 20: pool_end sum -------------------------------------------------------------------------


def test_reading_20_pools_are_uncapped_without_help_or_write_off():
    sheet = play([make_no_play("A", "6S"), make_no_play("A", "10NT")], pool_end="sum", help=True)
    assert sheet.pool == {"A": 12, "B": 0, "C": 0}
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0}
    assert all(e.code != "help" for s in sheet.snapshots for e in s.entries)
    assert (sheet.pool_sum, sheet.pool_sum_target, sheet.closed) == (12, 30, False)


def test_reading_20_the_pulka_closes_when_the_pools_add_up_to_n_t():
    deals = [make_no_play("A", "10NT"), make_no_play("B", "10NT"), make_no_play("C", "9S")]
    sheet = play(deals, pool_end="sum")
    assert (sheet.pool_sum, sheet.closed) == (28, False)

    sheet = play([*deals[:2], make_no_play("C", "10NT")], pool_end="sum")
    assert (sheet.pool_sum, sheet.closed) == (30, True)
    # one player may hold it all: 12 + 12 + 6 = 30 with C below T
    lopsided = [make_no_play("A", "10NT"), make_no_play("A", "6S"), make_no_play("B", "10NT")]
    lopsided += [make_no_play("B", "6S"), make_no_play("C", "8S")]
    sheet = play(lopsided, pool_end="sum")
    assert (sheet.pool, sheet.closed) == ({"A": 12, "B": 12, "C": 6}, True)
    assert [s.pool_sum for s in sheet.snapshots] == [10, 12, 22, 24, 30]


def test_reading_20_no_deal_may_follow_the_closing_one():
    deals = [make_no_play(p, "10NT") for p in ABC] + [make_no_play("A", "6S")]
    with pytest.raises(PulkaError) as caught:
        play(deals, pool_end="sum")
    error = caught.value
    assert (error.code, error.deal_number) == ("closed_sum", 4)
    assert error.params == {"total": 30, "needed": 30, "target": 10}
    assert str(error).startswith("deal 4: the pulka is closed")


def test_reading_20_the_four_player_dealer_counts_in_the_sum():
    deals = [
        make_no_play("B", "10NT", ABCD, dealer="A"),
        make_no_play("C", "10NT", ABCD, dealer="B"),
        make_no_play("D", "10NT", ABCD, dealer="C"),
    ]
    sheet = play(deals, players=ABCD, pool_end="sum")
    assert (sheet.pool_sum, sheet.pool_sum_target, sheet.closed) == (30, 40, False)
    sheet = play(
        [*deals, make_no_play("A", "10NT", ABCD, dealer="D")], players=ABCD, pool_end="sum"
    )
    assert sheet.closed


def test_reading_20_l1_settlement_with_pools_above_the_target():
    # D2: M_eff = M + 2·(10 − P) = −2, 20, −4 for P 12/8/12 and M 2/16/0
    doc_rules = preset_rules("leningrad", pool_target=10)
    deals = [
        make_game("A", "6S", BOTH, {"A": 6, "B": 2, "C": 2}),
        make_game("B", "7H", {"C": "whist", "A": "pass"}, {"B": 5, "C": 3, "A": 2}),
        make_game("C", "6C", {"A": "whist", "B": "pass"}, {"C": 7, "A": 2, "B": 1}),
        make_no_play("A", "10NT"),
        make_no_play("B", "9S"),
        make_no_play("C", "10NT"),
    ]
    sheet = compute_sheet(doc_rules, ABC, deals)
    assert sheet.pool == {"A": 12, "B": 8, "C": 12}
    assert sheet.mountain == {"A": 2, "B": 16, "C": 0}
    assert sheet.closed
    assert sheet.result == {"A": Fraction(296, 3), "B": Fraction(-652, 3), "C": Fraction(356, 3)}
    assert sheet.result_rounded == {"A": 99, "B": -217, "C": 118}


# --- 21: raspasy_zero and raspasy_zero_unit -----------------------------------------------------


@pytest.mark.parametrize(
    ("zero", "unit", "pool", "mountain"),
    [
        ("mountain", "cost", (0, 0, 0), (-2, 8, 12)),
        ("mountain", "one", (0, 0, 0), (-1, 8, 12)),
        ("mountain_double", "cost", (0, 0, 0), (-4, 8, 12)),
        ("mountain_double", "one", (0, 0, 0), (-2, 8, 12)),
        ("pool", "cost", (2, 0, 0), (0, 8, 12)),
        ("pool", "one", (1, 0, 0), (0, 8, 12)),
        ("none", "cost", (0, 0, 0), (0, 8, 12)),
        ("none", "one", (0, 0, 0), (0, 8, 12)),
    ],
)
def test_reading_21_the_zero_trick_bonus_at_cost_two(zero, unit, pool, mountain):
    sheet = play([r3(0, 4, 6)], raspasy_progression=[2], raspasy_zero=zero, raspasy_zero_unit=unit)
    assert tuple(sheet.pool.values()) == pool
    assert tuple(sheet.mountain.values()) == mountain


def test_reading_21_mountain_double_obeys_the_floor_and_skips_the_four_player_dealer():
    sheet = play([r3(0, 4, 6)], raspasy_zero="mountain_double", mountain_floor_zero=True)
    assert sheet.mountain == {"A": 0, "B": 4, "C": 6}

    four = play(
        [make_raspasy({"A": 0, "B": 0, "C": 4, "D": 6}, dealer="A")],
        players=ABCD,
        raspasy_zero="mountain_double",
    )
    assert four.mountain == {"A": 0, "B": -2, "C": 4, "D": 6}


def test_reading_21_pool_and_mountain_double_are_equal_in_money_under_sum_at_ppv_20():
    deals = [r3(0, 4, 6), r3(2, 0, 8), make_no_play("A", "7S")]
    pool = play(deals, pool_end="sum", pool_point_value=20, raspasy_zero="pool")
    double = play(deals, pool_end="sum", pool_point_value=20, raspasy_zero="mountain_double")
    assert pool.result == double.result
    assert (pool.pool_sum, double.pool_sum) == (6, 4)  # only the pool entry counts


# --- 22: the series exit ----------------------------------------------------------------------

MADE = make_game("A", "6S", BOTH, {"A": 6, "B": 2, "C": 2})
SET = make_game("A", "6S", BOTH, {"A": 5, "B": 3, "C": 2})
UNPLAYED = make_no_play("A", "6S")
HALF = make_game("A", "6S", {"B": "pass", "C": "half"})
MISERE_MADE = make_misere("A", 0)
MISERE_FAILED = make_misere("A", 1)
EXITS = {
    # rules: the deals after which the series ended (made, set, unplayed, half, mis. made/failed)
    "sochi": {},
    "only_made": {"exit_only_by_made_game": True},
    "no_unplayed": {"exit_by_unplayed_game": False},
    "no_misere": {"exit_by_misere": False},
    "pypref": {"exit_only_by_made_game": True, "exit_by_misere": True},
    "leningrad": {
        "exit_only_by_made_game": True,
        "exit_by_unplayed_game": False,
        "exit_by_misere": False,
    },
}


@pytest.mark.parametrize(
    ("rules", "made", "set_", "unplayed", "half", "misere_made", "misere_failed"),
    [
        ("sochi", True, True, True, True, True, True),
        ("only_made", True, False, True, True, True, False),
        ("no_unplayed", True, True, False, False, True, True),
        ("no_misere", True, True, True, True, False, False),
        ("pypref", True, False, True, True, True, False),
        ("leningrad", True, False, False, False, False, False),
    ],
)
def test_reading_22_which_deals_end_a_series(
    rules, made, set_, unplayed, half, misere_made, misere_failed
):
    expected = (made, set_, unplayed, half, misere_made, misere_failed)
    for deal, exits in zip(
        (MADE, SET, UNPLAYED, HALF, MISERE_MADE, MISERE_FAILED), expected, strict=True
    ):
        sheet = play(
            [r3(3, 3, 4), deal, r3(3, 3, 4)], raspasy_progression=[1, 2, 3], **EXITS[rules]
        )
        cost = sheet.snapshots[2].raspasy_cost
        assert cost == (1 if exits else 2), (rules, deal)


def test_reading_22_the_reset_after_the_last_step_is_unchanged():
    deals = [r3(3, 3, 4), UNPLAYED, r3(3, 3, 4), r3(3, 3, 4), r3(3, 3, 4)]
    reset = play(deals, raspasy_progression=[1, 2, 3], exit_by_unplayed_game=False)
    repeat = play(
        deals,
        raspasy_progression=[2, 4, 6],
        raspasy_progression_end="repeat_last",
        exit_by_unplayed_game=False,
    )
    assert [s.raspasy_cost for s in reset.snapshots] == [1, None, 2, 3, 1]
    assert [s.raspasy_cost for s in repeat.snapshots] == [2, None, 4, 6, 6]


# --- 23: raspasy in whists ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tricks", "whists", "pool"),
    [
        # R1, deal by deal (rate 5, cost 1; zero bonus 1 into the pool)
        ((1, 4, 5), {("A", "B"): 20, ("A", "C"): 25}, (0, 0, 0)),
        ((3, 3, 4), {("A", "C"): 10, ("B", "C"): 10}, (0, 0, 0)),
        ((0, 2, 8), {("A", "B"): 10, ("A", "C"): 40}, (1, 0, 0)),
        ((10, 0, 0), {("B", "A"): 25, ("C", "A"): 25}, (0, 1, 1)),
        ((2, 2, 6), {("A", "C"): 15, ("B", "C"): 15}, (0, 0, 0)),  # the §23 example
    ],
)
def test_reading_23_the_fewest_tricks_write_whists_on_the_full_counts(tricks, whists, pool):
    sheet = play(
        [r3(*tricks)], raspasy_scoring="whists", raspasy_zero="pool", raspasy_zero_unit="one"
    )
    written = {(x, y): v for x, row in sheet.whists.items() for y, v in row.items() if v}
    assert written == whists
    assert tuple(sheet.pool.values()) == pool
    assert sheet.mountain == {"A": 0, "B": 0, "C": 0}


def test_reading_23_rate_and_progression_multiply_and_amnesty_changes_nothing():
    deals = [r3(1, 4, 5), r3(3, 3, 4)]
    for amnesty in (True, False):
        sheet = play(
            deals,
            raspasy_scoring="whists",
            raspasy_whist_rate=10,
            raspasy_progression=[2, 4],
            raspasy_amnesty=amnesty,
        )
        # k 2: 10·2·4, 10·2·5; k 4: 10·4·4/2 each on C
        assert on(sheet, "A", "B") == 80
        assert on(sheet, "A", "C") == 100 + 80
        assert on(sheet, "B", "C") == 80
        assert sheet.mountain == {"A": 0, "B": 0, "C": 0}


def test_reading_23_zero_bonus_off_the_mountain_under_whists():
    sheet = play([r3(0, 2, 8)], raspasy_scoring="whists")
    assert sheet.mountain == {"A": -1, "B": 0, "C": 0}
    assert (on(sheet, "A", "B"), on(sheet, "A", "C")) == (10, 40)


@pytest.mark.parametrize("listed", [True, False])
def test_reading_23_the_four_player_dealer_takes_no_part(listed):
    tricks = {"B": 0, "C": 4, "D": 6} | ({"A": 0} if listed else {})
    sheet = play(
        [make_raspasy(tricks, dealer="A")],
        players=ABCD,
        raspasy_scoring="whists",
        raspasy_zero="pool",
    )
    written = {(x, y): v for x, row in sheet.whists.items() for y, v in row.items() if v}
    assert written == {("B", "C"): 20, ("B", "D"): 30}
    assert sheet.pool == {"A": 0, "B": 1, "C": 0, "D": 0}


def test_reading_23_the_four_player_dealer_with_a_trick_is_an_error():
    deal = make_raspasy({"A": 1, "B": 0, "C": 4, "D": 5}, dealer="A")
    with pytest.raises(PulkaError) as caught:
        play([deal], players=ABCD, raspasy_scoring="whists")
    assert str(caught.value) == (
        "deal 1: the dealer A took 1 tricks; with raspasy in whists the talon is not played"
    )
    # the three active players must still hold all ten tricks
    with pytest.raises(PulkaError) as caught:
        play([make_raspasy({"A": 0, "B": 0, "C": 4, "D": 5}, dealer="A")], players=ABCD,
             raspasy_scoring="whists")  # fmt: skip
    assert caught.value.code == "tricks_sum"


def test_reading_23_entries_say_who_writes_on_whom_and_why():
    sheet = play([r3(1, 4, 5), r3(3, 3, 4)], raspasy_scoring="whists")
    first = sheet.snapshots[0].entries
    assert [(e.code, e.player, e.other, e.amount, e.reason, e.tricks) for e in first] == [
        ("whists", "A", "B", 20, "raspasy", 4),
        ("whists", "A", "C", 25, "raspasy", 5),
    ]
    assert [str(e) for e in sheet.snapshots[1].entries] == [
        "A writes 10 whists on C (raspasy, fewest tricks, shared)",
        "B writes 10 whists on C (raspasy, fewest tricks, shared)",
    ]


# --- 24: consolation none and ten --------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "b_on_a", "c_on_a", "d_on_a"),
    [
        ({"consolation": "none"}, 20, 0, 0),
        ({"consolation": "whisters", "consolation_amount": "ten"}, 20 + 20, 0, 20),
        ({"consolation": "all_opponents", "consolation_amount": "ten"}, 20 + 20, 20, 20),
        ({"consolation": "all_opponents", "consolation_amount": "ten", "game_price_multiplier": 2},
         40 + 20, 20, 20),
        ({"consolation": "all_opponents"}, 20 + 8, 8, 8),
    ],
)  # fmt: skip
def test_reading_24_consolation_none_and_ten(rules, b_on_a, c_on_a, d_on_a):
    # 4 players, D deals; A's seven set by 2, B whists alone (greedy: 3 + 2 tricks), C passes
    deal = make_game("A", "7H", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2}, dealer="D")
    sheet = play([deal], players=ABCD, **rules)
    assert (on(sheet, "B", "A"), on(sheet, "C", "A"), on(sheet, "D", "A")) == (
        b_on_a,
        c_on_a,
        d_on_a,
    )


# --- the worked examples of §D, to the last figure ---------------------------------------------


def test_l3_unfinished_leningrad():
    deals = [
        make_game("A", "6D", {"B": "pass", "C": "half"}),
        make_misere("B", 2),
        make_game("C", "6S", {"A": "whist", "B": "whist"}, {"C": 7, "A": 3, "B": 0}),
        make_game("A", "8H", BOTH, {"A": 10, "B": 0, "C": 0}),
        make_game("B", "7C", {"C": "pass", "A": "whist"}, {"B": 6, "C": 2, "A": 2}),
    ]
    sheet = compute_sheet(preset_rules("leningrad"), ABC, deals)
    assert [tuple(s.mountain.values()) for s in sheet.snapshots] == [
        (0, 0, 0),
        (0, 40, 0),
        (0, 44, 0),
        (0, 44, 6),
        (0, 52, 6),
    ]
    assert sheet.whists == {"A": {"B": 24, "C": 12}, "B": {"A": 0, "C": 0}, "C": {"A": 8, "B": 24}}
    assert not sheet.closed
    assert sheet.result == {"A": Fraction(944, 3), "B": Fraction(-1324, 3), "C": Fraction(380, 3)}


def test_x1_turn2_options():
    rules = Rules(
        pool_target=10,
        consolation="none",
        raspasy_zero="pool",
        raspasy_zero_unit="one",
        raspasy_progression=(1, 2, 3),
        exit_by_unplayed_game=False,
    )
    deals = [
        r3(0, 3, 7),
        make_no_play("B", "6S"),
        r3(2, 0, 8),
        make_game("A", "7H", BOTH, {"A": 6, "B": 2, "C": 2}),
        r3(3, 3, 4),
    ]
    sheet = compute_sheet(rules, ABC, deals)
    assert [s.raspasy_cost for s in sheet.snapshots] == [1, None, 2, None, 1]
    assert sheet.pool == {"A": 1, "B": 3, "C": 0}
    assert sheet.mountain == {"A": 8, "B": 3, "C": 24}
    assert sheet.result_rounded == {"A": 18, "B": 111, "C": -129}


def test_defaults_change_nothing_spelled_out():
    explicit = Rules(
        game_price_multiplier=1,
        pool_end="each",
        raspasy_zero_unit="cost",
        exit_by_unplayed_game=True,
        exit_by_misere=True,
        raspasy_scoring="mountain",
        raspasy_whist_rate=5,
        consolation_amount="price",
        preset="sochi",
    )
    assert explicit == Rules()
    assert Rules().pool_end == "each"
    sheet = play([make_no_play("A", "6S")])
    assert sheet.pool_sum_target is None
