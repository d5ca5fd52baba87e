"""The score sheet (пуля): pools, mountains, whists and the settlement (rules/sochi.md §9, §10).

A :class:`Sheet` is what :func:`~scoring.engine.compute.compute_sheet` returns after
replaying every deal: the totals, whether the pulka is closed (§9.5: every pool reached
``pool_target``; under ``pool_end: sum`` the pools add up to n·T, rules/conventions.md §20,
shown by :attr:`Sheet.pool_sum` and :attr:`Sheet.pool_sum_target`), the exact settlement
(§10.3; an unfinished pulka is settled as in §10.4 with option ``pool_point_value``) and its
largest-remainder rounding (§10.5, §17.14), plus one :class:`DealSnapshot` per deal with the
cumulative totals after it and the entries it wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .deal import Entry
from .rules import Rules
from .words import POOL_END_SUM

__all__ = ["DealSnapshot", "Score", "Sheet"]

Score = int | Fraction


@dataclass(frozen=True, slots=True)
class DealSnapshot:
    """The sheet after one deal (cumulative; each snapshot owns its dicts).

    ``whists[x][y]`` is what x has written on y so far; ``entries`` what this deal wrote;
    ``raspasy_cost`` the cost k of a raspasy deal (§7.5), else None.

    Example (the first deal of G1: A made a six, B and C whisted, 2 tricks each)::

        >>> from scoring.engine import Deal, Rules, compute_sheet
        >>> d = Deal("game", "A", "6S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2})
        >>> snap = compute_sheet(Rules(pool_target=10), ["A", "B", "C"], [d]).snapshots[0]
        >>> snap.number, snap.dealer, snap.pool, snap.whists["B"], snap.raspasy_cost
        (1, 'A', {'A': 2, 'B': 0, 'C': 0}, {'A': 4, 'C': 0}, None)
    """

    number: int
    dealer: str
    pool: dict[str, int]
    mountain: dict[str, Score]
    whists: dict[str, dict[str, int]]
    entries: tuple[Entry, ...]
    raspasy_cost: int | None = None

    @property
    def pool_sum(self) -> int:
        """ΣP after this deal: what ``pool_end: sum`` compares with n·T (conventions.md §20)."""
        return sum(self.pool.values())


@dataclass(frozen=True, slots=True)
class Sheet:
    """A scored pulka (§9–§10).

    ``result`` is the exact settlement in whists (sums to 0), ``result_rounded`` the same in
    whole whists by the largest-remainder rule, ``next_dealer`` who deals the next deal.

    Example (G1: A made a six for 4 + 4 whists, then everybody closed)::

        >>> from scoring.engine import score_pulka
        >>> sheet = score_pulka({"format": "pulka/1", "players": ["A", "B", "C"],
        ...     "rules": {"pool_target": 2}, "deals": [
        ...     {"kind": "game", "declarer": "A", "contract": "6S",
        ...      "calls": {"B": "whist", "C": "whist"}, "tricks": {"A": 6, "B": 2, "C": 2}},
        ...     {"kind": "game", "declarer": "B", "contract": "6S",
        ...      "calls": {"C": "pass", "A": "pass"}},
        ...     {"kind": "game", "declarer": "C", "contract": "6S",
        ...      "calls": {"A": "pass", "B": "pass"}}]})
        >>> sheet.closed, sheet.result_rounded, sheet.next_dealer
        (True, {'A': -8, 'B': 4, 'C': 4}, 'A')
    """

    players: tuple[str, ...]
    rules: Rules
    pool: dict[str, int]
    mountain: dict[str, Score]
    whists: dict[str, dict[str, int]]
    closed: bool
    result: dict[str, Fraction]
    result_rounded: dict[str, int]
    snapshots: tuple[DealSnapshot, ...]
    next_dealer: str

    @property
    def pool_sum(self) -> int:
        """ΣP, the pools added up (under ``pool_end: sum`` the pulka ends at n·T, §20)."""
        return sum(self.pool.values())

    @property
    def pool_sum_target(self) -> int | None:
        """n·T, where the pools must add up to under ``pool_end: sum`` (conventions.md
        §20b), else None (every pool must reach T by itself, §9.5).

        Example (Leningrad to 10: A made a ten without play; "pools 10 of 30")::

            >>> from scoring.engine import Deal, compute_sheet, preset_rules
            >>> rules = preset_rules("leningrad", pool_target=10)
            >>> sheet = compute_sheet(rules, ["A", "B", "C"],
            ...                       [Deal("game", "A", "10NT", {"B": "pass", "C": "pass"})])
            >>> sheet.pool_sum, sheet.pool_sum_target, sheet.closed
            (10, 30, False)
        """
        if self.rules.pool_end != POOL_END_SUM:
            return None
        return len(self.players) * self.rules.pool_target
