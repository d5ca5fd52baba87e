"""Settlement of a pulka in whists (rules/sochi.md §10, §17.13, §17.14).

Closed form of §10.3: R[i] = 10·(M̄ − M[i]) + Σ_j (W[i][j] − W[j][i]), with M̄ the average
mountain over all n players. An unfinished pulka (§10.4) is settled with the effective
mountain M_eff[i] = M[i] + (ppv/10)·(T − P[i]); option ``pool_point_value`` (ppv, 10 or 20)
sets the price of a missing pool point (§17.13). A closed pulka is the case P[i] = T.
The exact results are :class:`fractions.Fraction` and sum to exactly 0; the whole-number
display uses the largest-remainder rule with ties by seat order (§10.5, §17.14).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .rules import POOL_TARGET_MAX, RASPASY_STEP_MAX, RASPASY_WHIST_RATE_MAX

__all__ = ["pair_nets", "result_bound", "round_largest_remainder", "settle"]


def settle(
    players: Sequence[str],
    pool: Mapping[str, int],
    mountain: Mapping[str, int | Fraction],
    whists: Mapping[str, Mapping[str, int | Fraction]],
    pool_target: int,
    pool_point_value: int = 10,
) -> dict[str, Fraction]:
    """Exact result of every player in whists (§10.3, unfinished per §10.4).

    Example (G3: mountains 0, 2, 4; B wrote 8 on A and C wrote 2 on A; all pools closed)::

        >>> r = settle("ABC", {"A": 10, "B": 10, "C": 10}, {"A": 0, "B": 2, "C": 4},
        ...            {"A": {"B": 0, "C": 0}, "B": {"A": 8, "C": 0}, "C": {"A": 2, "B": 0}}, 10)
        >>> {p: int(x) for p, x in r.items()}
        {'A': 10, 'B': 8, 'C': -18}
    """
    n = len(players)
    meff = _effective_mountains(players, pool, mountain, pool_target, pool_point_value)
    total = sum(meff.values())
    out: dict[str, Fraction] = {}
    for p, m in meff.items():
        written = sum(whists[p].values())
        received = sum(whists[q][p] for q in players if q != p)
        # R = 10·(Σ/n − m) + balance = (10·Σ − 10·n·m + n·balance) / n, exactly
        out[p] = Fraction(10 * total - 10 * n * m + n * (written - received), n)
    return out


def pair_nets(
    players: Sequence[str],
    pool: Mapping[str, int],
    mountain: Mapping[str, int | Fraction],
    whists: Mapping[str, Mapping[str, int | Fraction]],
    pool_target: int,
    pool_point_value: int = 10,
) -> dict[str, dict[str, Fraction]]:
    """Pairwise netting of §10.2–10.3: ``net[i][j]`` is what i wins from j, in whists.

    After the mountains are turned into whists (each other player writes 10·M_eff/n on the
    owner), net(i, j) = W[i][j] − W[j][i] + 10·(M_eff[j] − M_eff[i])/n. So net[j][i] is
    −net[i][j], and Σ_j net[i][j] is the player's result of :func:`settle`.

    Example (G3: B and C on A; mountains 0, 2, 4)::

        >>> nets = pair_nets("ABC", {"A": 10, "B": 10, "C": 10}, {"A": 0, "B": 2, "C": 4},
        ...     {"A": {"B": 0, "C": 0}, "B": {"A": 8, "C": 0}, "C": {"A": 2, "B": 0}}, 10)
        >>> nets["A"]["B"], nets["A"]["C"], nets["B"]["C"]
        (Fraction(-4, 3), Fraction(34, 3), Fraction(20, 3))
    """
    n = len(players)
    meff = _effective_mountains(players, pool, mountain, pool_target, pool_point_value)
    return {
        i: {
            j: Fraction(whists[i][j] - whists[j][i]) + Fraction(10 * (meff[j] - meff[i]), n)
            for j in players
            if j != i
        }
        for i in players
    }


def _effective_mountains(
    players: Sequence[str],
    pool: Mapping[str, int],
    mountain: Mapping[str, int | Fraction],
    pool_target: int,
    pool_point_value: int,
) -> dict[str, int | Fraction]:
    """M_eff = M + (ppv/10)·(T − P): missing pool points count as mountain (§10.4, §17.13)."""
    factor = pool_point_value // 10
    return {p: mountain[p] + factor * (pool_target - pool[p]) for p in players}


def round_largest_remainder(
    players: Sequence[str], result: Mapping[str, Fraction]
) -> dict[str, int]:
    """Whole-whist results that still sum to 0 (§10.5, §17.14).

    Floor every exact result, then give +1 to the k = −Σ floor players with the largest
    fractional parts; ties go by seat order (``players[0]`` first).

    Example (G2: −268/3, 140/3, 128/3 → −89, +47, +42)::

        >>> round_largest_remainder("ABC", {"A": Fraction(-268, 3), "B": Fraction(140, 3),
        ...                                 "C": Fraction(128, 3)})
        {'A': -89, 'B': 47, 'C': 42}
    """
    floors = {p: result[p].numerator // result[p].denominator for p in players}
    k = -sum(floors.values())
    order = sorted(players, key=lambda p: -(result[p] - floors[p]))  # stable: seat order on ties
    for p in order[:k]:
        floors[p] += 1
    return floors


def result_bound(deals: int) -> int:
    """The largest result (or pair net, §10.2) in whists any player can reach in `deals`
    deals of a pulka whose conventions keep to the engine's bounds (rules.py), under any
    preset and option of conventions.md.

    R[i] = 10·(M̄ − M_eff[i]) + Σ_j (W[i][j] − W[j][i]) (§10.3), and net(i, j) is smaller
    than R's bound term by term, so one bound serves both. With S the highest raspasy step
    (:data:`RASPASY_STEP_MAX`), T the highest pool target (:data:`POOL_TARGET_MAX`), c the
    highest raspasy whist rate (:data:`RASPASY_WHIST_RATE_MAX`) and s ≤ 2 the game price
    multiplier (conventions.md §18):

    - one deal moves one player's mountain by at most m = max(s·100, 10·S): a ten set by
      all ten tricks writes s·10·10 (§4), a misère with ten tricks s·10·10 (§6), raspasy
      ten tricks at S (§7, never multiplied); a whister set, a raspasy with no trick (doubled
      at most: §21) or an excess written off moves it by less (§5, §7.3, §9.2);
    - the pool part of M_eff, (ppv/10)·(T − P), is at most 2·T when a pool is short; under
      ``pool_end: sum`` a pool may pass T by at most 10 points a deal (§20), so that part
      is within 2·T + 20·deals either way (§10.4, ppv ≤ 20);
    - one deal writes at most s·430 whists at the table besides help: 30 for quick tricks
      (§8), 10·10 for tricks (§3) and 3·100 of consolation (§4, to two whisters and the
      4-player dealer); Rostov raspasy whists add at most 3·9·c (§23: each of three players
      writes c a trick on at most nine tricks); help is 10 whists per pool point it fills,
      and n ≤ 4 pools hold at most T points each: at most 40·T over the pulka (§9.2).

    So |R| ≤ 10·(2·(m + 20)·deals + 4·T) + (2·430 + 27·c)·deals + 40·T.

    Example (the bound of a pulka of 500 deals, the most a pulka may hold)::

        >>> result_bound(500)
        12060000
    """
    m = max(2 * 100, 10 * RASPASY_STEP_MAX)
    per_deal = 2 * 430 + 27 * RASPASY_WHIST_RATE_MAX
    return (
        10 * (2 * (m + 20) * deals + 4 * POOL_TARGET_MAX) + per_deal * deals + 40 * POOL_TARGET_MAX
    )
