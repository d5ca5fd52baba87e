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

__all__ = ["pair_nets", "round_largest_remainder", "settle"]


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
