"""Whists into money and the fewest payments (scoring.engine.payments): no database."""

from __future__ import annotations

import doctest
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import payments
from scoring.engine.payments import EXACT_MAX, Payment, money_amounts, settle_up

F = Fraction


def test_the_docstring_examples_hold():
    failed, attempted = doctest.testmod(payments, verbose=False)
    assert attempted > 0
    assert failed == 0


@pytest.mark.parametrize(
    ("results", "price", "expected"),
    [
        # Whole whists at 1,00 a whist: exactly the result in kopiykas.
        ({"A": 10, "B": 8, "C": -18}, 100, {"A": 1000, "B": 800, "C": -1800}),
        # Thirds at 1,00: −8933,33 / 4666,67 / 4266,67; the two largest remainders go up.
        (
            {"A": F(-268, 3), "B": F(140, 3), "C": F(128, 3)},
            100,
            {"A": -8933, "B": 4667, "C": 4266},
        ),
        # Thirds at 0,10 a whist (10 kopiykas): 1/3 whist is 3,33 kopiykas.
        ({"A": F(1, 3), "B": F(1, 3), "C": F(-2, 3)}, 10, {"A": 4, "B": 3, "C": -7}),
        # Thirds at 0,30: exact, nothing to round.
        ({"A": F(100, 3), "B": F(-50, 3), "C": F(-50, 3)}, 30, {"A": 1000, "B": -500, "C": -500}),
        # Equal remainders go by the players' order: the first gets the kopiyka.
        ({"A": F(1, 3), "B": F(1, 3), "C": F(1, 3), "D": -1}, 1, {"A": 1, "B": 0, "C": 0, "D": -1}),
        # A price in halves of a kopiyka's worth (0,05 a whist) on fourths.
        ({"A": F(7, 4), "B": F(-7, 4)}, 5, {"A": 9, "B": -9}),
        # Nobody won anything.
        ({"A": 0, "B": 0, "C": 0}, 250, {"A": 0, "B": 0, "C": 0}),
    ],
)
def test_amounts_are_the_result_times_the_price_rounded_to_sum_to_zero(results, price, expected):
    amounts = money_amounts(list(results), results, price)
    assert amounts == expected
    assert sum(amounts.values()) == 0


@given(
    st.lists(st.integers(-30000, 30000), min_size=2, max_size=4),
    st.sampled_from([3, 4]),
    st.integers(1, 100_000),
)
def test_rounded_amounts_sum_to_zero_and_stay_within_a_minor_unit(numerators, n, price):
    # Results over the table size (thirds or fourths) that sum to exactly zero.
    results = {f"P{k}": F(x, n) for k, x in enumerate(numerators)}
    results["last"] = -sum(results.values())
    names = list(results)
    amounts = money_amounts(names, results, price)
    assert sum(amounts.values()) == 0
    for name in names:
        assert abs(amounts[name] - results[name] * price) < 1


def _check(amounts: dict[str, int], found: list[Payment]) -> None:
    """The payments settle every amount exactly, each a positive sum between two players."""
    left = dict(amounts)
    for payment in found:
        assert payment.amount > 0
        assert payment.payer != payment.payee
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert set(left.values()) <= {0}


def _fewest(amounts: dict[str, int]) -> int:
    """The fewest payments by brute force: n minus the most zero-sum blocks of a partition."""
    players = [p for p, a in amounts.items() if a]

    def most_blocks(rest: tuple[str, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(others, size):
                if amounts[first] + sum(amounts[p] for p in chosen) == 0:
                    remaining = tuple(p for p in others if p not in chosen)
                    below = most_blocks(remaining)
                    if below >= 0:
                        best = max(best, below + 1)
        return best

    return len(players) - max(most_blocks(tuple(players)), 0)


@pytest.mark.parametrize(
    ("amounts", "count"),
    [
        ({}, 0),
        ({"Anna": 0, "Borys": 0}, 0),
        ({"Anna": 12000, "Borys": -12000}, 1),
        ({"Anna": 120, "Borys": -50, "Vira": -70}, 2),
        # Two pairs that settle apart: two payments, not three.
        ({"A": 500, "B": 300, "C": -300, "D": -500}, 2),
        # No pair cancels, but {A, C, D} and {B, E} do: three payments.
        ({"A": 6, "B": 4, "C": -3, "D": -3, "E": -4}, 3),
        # No part sums to zero: four payments for five players.
        ({"A": 7, "B": 5, "C": -6, "D": -4, "E": -2}, 4),
        # The greedy alone (largest pays largest) takes five here; {B, C} and {A, D, E, F}
        # settle apart in four.
        ({"A": -2, "B": -5, "C": 7, "D": 3, "E": -9, "F": 6}, 4),
        # Six players in three canceling pairs, scattered.
        ({"A": 5, "B": 3, "C": 1, "D": -1, "E": -3, "F": -5}, 3),
        # A player at zero takes no part.
        ({"A": 10, "Z": 0, "B": -10}, 1),
    ],
)
def test_the_payments_are_the_fewest_that_settle(amounts, count):
    found = settle_up(amounts)
    _check(amounts, found)
    assert len(found) == count == _fewest(amounts)


def test_the_example_of_the_issue_reads_as_one_payment():
    assert settle_up({"Анна": -12000, "Богдан": 12000}) == [Payment("Анна", "Богдан", 12000)]


def test_amounts_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError, match="sum to zero"):
        settle_up({"A": 10, "B": -9})


def test_the_same_amounts_give_the_same_payments_every_time():
    amounts = {"A": 7, "B": 5, "C": -6, "D": -4, "E": -2, "F": 3, "G": -3}
    assert settle_up(amounts) == settle_up(dict(amounts))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-40, 40), min_size=1, max_size=7))
def test_up_to_seven_players_the_payments_are_the_brute_force_fewest(values):
    amounts = {f"P{k}": v for k, v in enumerate(values)}
    amounts["last"] = -sum(values)
    found = settle_up(amounts)
    _check(amounts, found)
    assert len(found) == _fewest(amounts)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(10**9), 10**9), min_size=EXACT_MAX, max_size=60))
def test_beyond_the_exact_limit_the_greedy_settles_in_at_most_n_minus_one(values):
    amounts = {f"P{k}": v for k, v in enumerate(values)}
    amounts["last"] = -sum(values)
    found = settle_up(amounts)
    _check(amounts, found)
    players = sum(1 for a in amounts.values() if a)
    assert len(found) <= max(players - 1, 0)


def test_beyond_the_exact_limit_equal_debts_and_credits_are_paid_straight():
    amounts = {f"W{k}": 100 + k for k in range(10)} | {f"L{k}": -100 - k for k in range(10)}
    found = settle_up(amounts)
    _check(amounts, found)
    assert len(found) == 10
    assert all(p.payer[1:] == p.payee[1:] for p in found)


def test_the_exact_search_at_its_limit_is_quick():
    import time

    amounts = {f"P{k}": (k * 37) % 23 - 11 for k in range(EXACT_MAX - 1)}
    amounts["last"] = -sum(amounts.values())
    started = time.perf_counter()
    found = settle_up(amounts)
    assert time.perf_counter() - started < 1.0
    _check(amounts, found)
