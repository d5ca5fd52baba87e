"""Whists into money, and the fewest payments that settle it (a club's stake, rules/sochi.md §10).

A club may play for a price per whist. Each player's amount is his exact result (§10.3, a
:class:`fractions.Fraction`: a table of three settles in thirds) times the price, in the
currency's minor unit (kopiykas, cents). The amounts are rounded so that they still sum to
exactly zero: floor each, then the largest remainders get a minor unit more, ties in the
order the players are given (the rule of §10.5, :func:`round_largest_remainder`). So no
amount is more than one minor unit from its exact value.

Who pays whom: the fewest transfers that bring every amount to zero. A group of k players
whose amounts sum to zero settles among itself in k − 1 transfers, and no fewer if no part
of it sums to zero; so the fewest transfers for n players with a non-zero amount are
n − g, where g is the largest number of disjoint zero-sum groups they split into. Finding g
is NP-hard in general (it contains subset-sum); :func:`settle_up` finds it exactly over the
subsets for up to :data:`EXACT_MAX` players (2^12 · 12 steps, a few milliseconds) and,
beyond that, pays each debt that equals a credit straight to it and then lets the largest
debtor pay the largest creditor: at most n − 1 transfers, each settling at least one player
fully.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .settlement import round_largest_remainder

__all__ = ["EXACT_MAX", "Payment", "money_amounts", "settle_up"]

#: Up to this many players with a non-zero amount the payments are the fewest possible.
EXACT_MAX = 12


@dataclass(frozen=True)
class Payment:
    """`payer` gives `payee` `amount` minor units (> 0)."""

    payer: str
    payee: str
    amount: int


def money_amounts(
    players: Sequence[str], results: Mapping[str, Fraction | int], price: Fraction | int
) -> dict[str, int]:
    """Each player's amount in minor units: result × `price` (minor units a whist), rounded
    so that the amounts sum to exactly zero.

    Example (a table of three, results in thirds, 1,00 ₴ a whist = 100 kopiykas)::

        >>> money_amounts("ABC", {"A": Fraction(-268, 3), "B": Fraction(140, 3),
        ...                       "C": Fraction(128, 3)}, 100)
        {'A': -8933, 'B': 4667, 'C': 4266}
    """
    exact = {p: Fraction(results[p]) * Fraction(price) for p in players}
    return round_largest_remainder(players, exact)


def settle_up(amounts: Mapping[str, int]) -> list[Payment]:
    """The fewest payments that bring every amount (minor units, summing to zero) to zero:
    exact for up to :data:`EXACT_MAX` players with a non-zero amount, greedy beyond.

    Deterministic: ties go by the order of `amounts`. Refuses amounts that do not sum to
    zero (ValueError): a settlement always does.

    Example (Anna won 120, Borys lost 50, Vira lost 70: two payments)::

        >>> for payment in settle_up({"Anna": 120, "Borys": -50, "Vira": -70}):
        ...     print(payment)
        Payment(payer='Vira', payee='Anna', amount=70)
        Payment(payer='Borys', payee='Anna', amount=50)
    """
    if sum(amounts.values()) != 0:
        raise ValueError("the amounts do not sum to zero")
    players = [p for p, a in amounts.items() if a]
    groups = _zero_sum_groups(players, amounts) if len(players) <= EXACT_MAX else [players]
    return [payment for group in groups for payment in _greedy(group, amounts)]


def _zero_sum_groups(players: list[str], amounts: Mapping[str, int]) -> list[list[str]]:
    """The players split into the most disjoint groups that each sum to zero.

    best[mask] is the most zero-sum groups the players of `mask` fill in some order, each
    group closed when the running sum comes back to zero: best[mask] = max over a player i of
    mask of best[mask − i], plus one if mask itself sums to zero.
    """
    n = len(players)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + amounts[players[low]]
    best = [0] * (full + 1)
    last = [0] * (full + 1)  # the player whose removal gave best[mask]
    for mask in range(1, full + 1):
        top, chosen = -1, 0
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] > top:
                top, chosen = best[mask ^ (1 << i)], i
        best[mask] = top + (total[mask] == 0)
        last[mask] = chosen
    # Walk back: the order of removals, cut wherever the remaining players sum to zero.
    groups: list[list[str]] = []
    current: list[int] = []
    mask = full
    while mask:
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        i = last[mask]
        current.append(i)
        mask ^= 1 << i
    if current:
        groups.append(current)
    ordered = [sorted(group) for group in groups]
    ordered.sort(key=lambda group: group[0])
    return [[players[i] for i in group] for group in ordered]


def _greedy(group: list[str], amounts: Mapping[str, int]) -> list[Payment]:
    """Settle a zero-sum group: first each debt that equals a credit is paid straight to it
    (in the group's order), then the largest debtor pays the largest creditor until all is
    settled. Every payment settles at least one of the two, so a group of k settles in at
    most k − 1 payments; O(k log k)."""
    order = {p: k for k, p in enumerate(group)}
    payments: list[Payment] = []
    credits: dict[int, list[str]] = {}
    for p in group:
        if amounts[p] > 0:
            credits.setdefault(amounts[p], []).append(p)
    debtors: list[tuple[int, int, str]] = []
    paired: set[str] = set()
    for p in group:
        if amounts[p] < 0:
            waiting = credits.get(-amounts[p])
            if waiting:
                payee = waiting.pop(0)
                paired.add(payee)
                payments.append(Payment(p, payee, -amounts[p]))
            else:
                debtors.append((amounts[p], order[p], p))
    creditors = [(-amounts[p], order[p], p) for p in group if amounts[p] > 0 and p not in paired]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    while debtors:
        debt, k, payer = heapq.heappop(debtors)
        credit, j, payee = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        payments.append(Payment(payer, payee, amount))
        if debt + amount:
            heapq.heappush(debtors, (debt + amount, k, payer))
        if credit + amount:
            heapq.heappush(creditors, (credit + amount, j, payee))
    return payments
