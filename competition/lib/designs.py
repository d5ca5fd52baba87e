"""Schedules in which no two players meet twice, built from known combinatorial designs.

Pure Python (standard library only). A *design* here is a list of rounds (parallel classes);
each round splits the players 0 .. v-1 into tables of one size k (3 or 4), and no pair of
players shares a table in two rounds. With k-1 opponents a round, nobody can play more than
(v-1)/(k-1) rounds without meeting someone again; the designs below reach that bound where
one is known to exist.

The constructions (`designs` lists every one that fits):

- **Affine geometry** AG(n, q), q = 3 or 4 (a prime power, so GF(q) exists): the points of
  GF(q)^n, and as tables its lines, one round for each direction. v = q^n players, tables of
  q, (q^n - 1)/(q - 1) rounds: 9 x 4 and 27 x 13 at tables of 3 (Kirkman systems), 16 x 5 and
  64 x 21 at tables of 4 (n = 2: the affine plane of order 4).
- **Resolvable transversal design** RTD(k, q), q a prime power, k <= q: players (i, x) for
  i < k and x in GF(q); round r, table s = {(i, s + r * e_i)} for k distinct field elements
  e_i. Two players of different groups i, j meet in the one round r with x - y = r (e_i - e_j);
  two of one group never meet. v = k q players, q rounds: 20 x 5, 32 x 8, 28 x 7 at tables
  of 4; 15 x 5, 21 x 7 at tables of 3.
- **1-rotational designs** by the method of differences: players (c, x) with x in Z_m, and
  an extra player infinity; a base round whose pairs have all different differences,
  developed by x -> x + t for t = 0 .. m-1 (`CYCLIC`). Kirkman triple systems KTS(15),
  KTS(21), KTS(33), KTS(39), KTS(45), KTS(51), KTS(57); resolvable designs with blocks of 4
  for v = 28, 40, 52 (v = 4 mod 12). The base rounds were found by a computer search over
  the difference conditions; `tests/competition/lib/test_designs.py` checks every design
  built from them.
- **32 players for 10 rounds** at tables of 4: a published solution (`GOLFERS_32`).

Fewer rounds than a design has: its first rounds. A design for v + d players (d <= 3) also
seats v players at tables of 4 with d tables of 3: the d players left out never share a table
in the rounds used, so each round one table of each of them plays with 3 (`without`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

__all__ = [
    "CYCLIC",
    "Design",
    "Field",
    "affine",
    "golfers_32",
    "cyclic",
    "designs",
    "is_prime_power",
    "max_rounds",
    "transversal",
    "without",
]

Round = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Design:
    """A schedule of `rounds` for `players` at tables of `size`, nobody meeting twice."""

    name: str
    players: int
    size: int
    rounds: tuple[Round, ...]


def max_rounds(players: int, size: int) -> int:
    """The most rounds `players` can play at tables of `size` without a repeated meeting:
    each round brings size - 1 new opponents out of players - 1.

    >>> max_rounds(16, 4), max_rounds(15, 3), max_rounds(32, 4)
    (5, 7, 10)
    """
    return (players - 1) // (size - 1)


# --- finite fields ----------------------------------------------------------------------


def is_prime_power(q: int) -> tuple[int, int] | None:
    """(p, n) with q = p^n for a prime p, else None.

    >>> is_prime_power(8), is_prime_power(9), is_prime_power(6), is_prime_power(1)
    ((2, 3), (3, 2), None, None)
    """
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    n = 0
    while q % p == 0:
        q //= p
        n += 1
    return (p, n) if q == 1 else None


class Field:
    """GF(q) for a prime power q: the elements are 0 .. q-1, read as polynomials over GF(p)
    by their base-p digits, multiplied modulo a primitive polynomial (found by trying each
    monic one of degree n in turn until x has order q - 1).

    >>> f = Field(4)
    >>> [[f.mul(a, b) for b in range(4)] for a in range(4)]
    [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
    >>> f.add(2, 3), Field(5).add(3, 4), Field(5).mul(3, 4)
    (1, 2, 2)
    """

    def __init__(self, q: int) -> None:
        found = is_prime_power(q)
        if found is None:
            raise ValueError(f"{q} is not a prime power")
        self.q, (self.p, self.n) = q, found
        p, n = self.p, self.n
        if n == 1:
            self._exp = None
            return
        for low in range(q):  # the polynomial x^n + (the digits of `low`)
            tail = self._digits(low)
            power, exp = [0, 1] + [0] * (n - 2), []  # x as digits, lowest first
            for _ in range(q - 1):
                exp.append(power)
                carry = power[-1]
                power = [0, *power[:-1]]
                power = [(d - carry * t) % p for d, t in zip(power, tail, strict=True)]
            if exp[-1] == [1] + [0] * (n - 1) and len({tuple(e) for e in exp}) == q - 1:
                self._exp = [self._number(e) for e in exp[-1:] + exp[:-1]]  # x^0, x^1, ...
                self._log = {value: k for k, value in enumerate(self._exp)}
                return
        raise AssertionError(f"no primitive polynomial of degree {n} over GF({p})")

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p**k) % self.p for k in range(self.n)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p**k for k, d in enumerate(digits))

    def add(self, a: int, b: int) -> int:
        if self.n == 1:
            return (a + b) % self.p
        digits = zip(self._digits(a), self._digits(b), strict=True)
        return self._number([(x + y) % self.p for x, y in digits])

    def neg(self, a: int) -> int:
        if self.n == 1:
            return -a % self.p
        return self._number([-x % self.p for x in self._digits(a)])

    def mul(self, a: int, b: int) -> int:
        if self.n == 1:
            return a * b % self.p
        if not a or not b:
            return 0
        assert self._exp is not None
        return self._exp[(self._log[a] + self._log[b]) % (self.q - 1)]


# --- the constructions ------------------------------------------------------------------


def affine(q: int, n: int) -> Design:
    """The lines of AG(n, q), one round per direction (the module docstring)."""
    field = Field(q)
    points = list(itertools.product(range(q), repeat=n))
    index = {point: i for i, point in enumerate(points)}
    directions = [d for d in points if any(d) and d[next(i for i, x in enumerate(d) if x)] == 1]
    rounds = []
    for direction in directions:
        seen: set[int] = set()
        tables = []
        for point in points:
            if index[point] in seen:
                continue
            line = tuple(
                index[
                    tuple(
                        field.add(x, field.mul(t, d)) for x, d in zip(point, direction, strict=True)
                    )
                ]
                for t in range(q)
            )
            seen.update(line)
            tables.append(line)
        rounds.append(tuple(tables))
    name = "affine plane" if n == 2 else "affine geometry"
    return Design(f"{name} AG({n}, {q})", q**n, q, tuple(rounds))


def transversal(size: int, q: int) -> Design:
    """The resolvable transversal design RTD(size, q) (the module docstring)."""
    if size > q:
        raise ValueError("a transversal design needs size <= q")
    field = Field(q)
    rounds = tuple(
        tuple(tuple(i * q + field.add(s, field.mul(r, i)) for i in range(size)) for s in range(q))
        for r in range(q)
    )
    return Design(f"resolvable transversal design RTD({size}, {q})", size * q, size, rounds)


@dataclass(frozen=True)
class Cyclic:
    """A 1-rotational design: the players (c, x) for c < `groups`, x in Z_`modulus`, then
    `extra` fixed players; `base` rounds are developed by x -> x + t for t < `translates`
    (with `modulus` a multiple of `translates`, a base round must be fixed by
    x -> x + `translates`: it lists all its translates), and each block of `orbits` is
    developed by every t < `modulus` into one round."""

    name: str
    groups: int
    modulus: int
    translates: int
    extra: int
    base: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    orbits: tuple[tuple[tuple[int, int], ...], ...] = ()


def _residues(R: int, blocks: Sequence[Sequence[int]], fixed: Sequence[int]):
    """A base round on Z_(s R) and infinity fixed by x -> x + R: `fixed` with infinity (given
    as residues; each block stands for its s translates by R, s = the fixed block's size)."""
    s = len(fixed)
    round = [((-1, 0), *((0, x) for x in fixed))]
    for block in blocks:
        for j in range(s):
            round.append(tuple((0, (x + j * R) % (s * R)) for x in block))
    return tuple(round)


# (c, x) pairs; (-1, j) is the j-th fixed player. The base rounds were found by a seeded
# backtracking search over the differences (see the module docstring).
CYCLIC: tuple[Cyclic, ...] = (
    Cyclic(
        "Kirkman triple system KTS(15)",
        groups=2,
        modulus=7,
        translates=7,
        extra=1,
        base=(
            (
                ((-1, 0), (0, 4), (1, 1)),
                ((0, 0), (0, 2), (0, 3)),
                ((0, 1), (1, 3), (1, 6)),
                ((0, 5), (1, 5), (1, 4)),
                ((0, 6), (1, 2), (1, 0)),
            ),
        ),
    ),
    Cyclic(
        "Kirkman triple system KTS(21)",
        groups=3,
        modulus=7,
        translates=7,
        extra=0,
        base=(
            (
                ((0, 0), (1, 1), (2, 0)),
                ((0, 1), (0, 4), (0, 2)),
                ((0, 3), (2, 5), (1, 0)),
                ((0, 5), (1, 4), (2, 6)),
                ((0, 6), (1, 2), (2, 3)),
                ((1, 3), (1, 5), (1, 6)),
                ((2, 1), (2, 2), (2, 4)),
            ),
        ),
        orbits=(((0, 0), (1, 0), (2, 3)), ((0, 0), (1, 2), (2, 6)), ((0, 0), (1, 5), (2, 5))),
    ),
    Cyclic(
        "Kirkman triple system KTS(33)",
        groups=3,
        modulus=11,
        translates=11,
        extra=0,
        base=(
            (
                ((0, 0), (0, 4), (0, 6)),
                ((0, 1), (2, 4), (2, 8)),
                ((0, 2), (0, 3), (2, 3)),
                ((0, 5), (0, 8), (1, 8)),
                ((0, 7), (1, 9), (2, 1)),
                ((0, 9), (1, 4), (1, 3)),
                ((0, 10), (2, 7), (1, 6)),
                ((1, 0), (2, 10), (2, 9)),
                ((1, 1), (1, 7), (1, 5)),
                ((1, 2), (2, 6), (1, 10)),
                ((2, 0), (2, 2), (2, 5)),
            ),
        ),
        orbits=(
            ((0, 0), (1, 10), (2, 10)),
            ((0, 0), (1, 4), (2, 6)),
            ((0, 0), (1, 1), (2, 9)),
            ((0, 0), (1, 9), (2, 4)),
            ((0, 0), (1, 8), (2, 2)),
        ),
    ),
    Cyclic(
        "Kirkman triple system KTS(39)",
        groups=2,
        modulus=19,
        translates=19,
        extra=1,
        base=(
            (
                ((-1, 0), (0, 8), (1, 11)),
                ((0, 0), (1, 16), (0, 1)),
                ((0, 2), (0, 5), (1, 0)),
                ((0, 3), (0, 12), (1, 3)),
                ((0, 4), (0, 6), (0, 17)),
                ((0, 7), (0, 11), (1, 15)),
                ((0, 9), (0, 16), (1, 2)),
                ((0, 10), (1, 17), (0, 15)),
                ((0, 13), (1, 14), (1, 5)),
                ((0, 14), (1, 1), (1, 13)),
                ((0, 18), (1, 8), (1, 12)),
                ((1, 4), (1, 10), (1, 18)),
                ((1, 6), (1, 7), (1, 9)),
            ),
        ),
    ),
    Cyclic(
        "Kirkman triple system KTS(45)",
        groups=3,
        modulus=15,
        translates=15,
        extra=0,
        base=(
            (
                ((0, 0), (1, 6), (1, 8)),
                ((0, 1), (0, 2), (0, 5)),
                ((0, 3), (2, 6), (0, 13)),
                ((0, 4), (1, 1), (2, 3)),
                ((0, 6), (0, 8), (0, 14)),
                ((0, 7), (1, 5), (2, 13)),
                ((0, 9), (1, 11), (1, 10)),
                ((0, 10), (2, 12), (2, 2)),
                ((0, 11), (2, 11), (2, 0)),
                ((0, 12), (1, 0), (1, 12)),
                ((1, 2), (2, 9), (2, 1)),
                ((1, 3), (1, 13), (1, 9)),
                ((1, 4), (2, 5), (2, 14)),
                ((1, 7), (1, 14), (2, 4)),
                ((2, 7), (2, 10), (2, 8)),
            ),
        ),
        orbits=tuple(
            ((0, 0), (1, a), (2, b))
            for a, b in ((4, 13), (5, 5), (14, 10), (10, 1), (9, 12), (11, 9), (7, 11))
        ),
    ),
    Cyclic(
        "Kirkman triple system KTS(51)",
        groups=1,
        modulus=50,
        translates=25,
        extra=1,
        base=(
            _residues(
                25,
                [
                    (1, 22, 7),
                    (2, 9, 11),
                    (3, 20, 15),
                    (4, 31, 41),
                    (5, 8, 19),
                    (10, 42, 14),
                    (12, 46, 38),
                    (18, 48, 49),
                ],
                (0, 25),
            ),
        ),
    ),
    Cyclic(
        "Kirkman triple system KTS(57)",
        groups=1,
        modulus=56,
        translates=28,
        extra=1,
        base=(
            _residues(
                28,
                [
                    (1, 11, 15),
                    (2, 13, 21),
                    (3, 26, 4),
                    (5, 14, 7),
                    (6, 45, 24),
                    (8, 20, 23),
                    (9, 25, 38),
                    (12, 44, 18),
                    (19, 50, 55),
                ],
                (0, 28),
            ),
        ),
    ),
    Cyclic(
        "resolvable design RBIBD(28, 4, 1)",
        groups=3,
        modulus=9,
        translates=9,
        extra=1,
        base=(
            (
                ((-1, 0), (0, 7), (1, 2), (2, 2)),
                ((0, 0), (2, 1), (1, 6), (0, 5)),
                ((0, 1), (0, 4), (2, 4), (0, 2)),
                ((0, 3), (1, 3), (1, 1), (2, 0)),
                ((0, 6), (1, 0), (1, 8), (1, 5)),
                ((0, 8), (2, 7), (2, 6), (1, 4)),
                ((1, 7), (2, 5), (2, 8), (2, 3)),
            ),
        ),
    ),
    Cyclic(
        "resolvable design RBIBD(40, 4, 1)",
        groups=1,
        modulus=39,
        translates=13,
        extra=1,
        base=(_residues(13, [(1, 25, 8, 5), (2, 11, 3, 36), (4, 6, 33, 22)], (0, 13, 26)),),
    ),
    Cyclic(
        "resolvable design RBIBD(52, 4, 1)",
        groups=1,
        modulus=51,
        translates=17,
        extra=1,
        base=(
            _residues(
                17,
                [(1, 16, 12, 2), (3, 11, 8, 32), (4, 43, 10, 23), (5, 14, 7, 30)],
                (0, 17, 34),
            ),
        ),
    ),
)


#: 32 players at tables of 4 for 10 rounds, the most possible: Aguado's solution (2004) of
#: the social golfer problem 8-4-10, as published (the Wolfram Demonstrations Project,
#: "Social Golfer Problem"). Players are the letters A-P, a-p; one line a round.
GOLFERS_32 = (
    "ABCD EFGH IJKL MNOP abcd efgh ijkl mnop",
    "AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO",
    "Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn",
    "AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN",
    "AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn",
    "AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP",
    "AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp",
    "AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm",
    "AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp",
    "AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo",
)


def golfers_32() -> Design:
    letters = "ABCDEFGHIJKLMNOPabcdefghijklmnop"
    rounds = tuple(
        tuple(tuple(letters.index(c) for c in table) for table in line.split())
        for line in GOLFERS_32
    )
    return Design("social golfers 8-4-10 (Aguado)", 32, 4, rounds)


def cyclic(spec: Cyclic) -> Design:
    """The rounds of a 1-rotational design (`Cyclic`)."""
    m, finite = spec.modulus, spec.groups * spec.modulus

    def number(point: tuple[int, int], t: int) -> int:
        group, x = point
        return finite + x if group < 0 else group * m + (x + t) % m

    rounds = [
        tuple(tuple(number(p, t) for p in block) for block in base)
        for base in spec.base
        for t in range(spec.translates)
    ]
    rounds += [tuple(tuple(number(p, t) for p in block) for t in range(m)) for block in spec.orbits]
    size = len(spec.base[0][0]) if spec.base else len(spec.orbits[0])
    return Design(spec.name, finite + spec.extra, size, tuple(rounds))


@cache
def designs(players: int, size: int) -> tuple[Design, ...]:
    """Every construction for `players` at tables of `size` (3 or 4), most rounds first.

    >>> [(d.name, len(d.rounds)) for d in designs(16, 4)]  # doctest: +NORMALIZE_WHITESPACE
    [('affine plane AG(2, 4)', 5), ('resolvable transversal design RTD(4, 4)', 4)]
    >>> [len(d.rounds) for d in designs(21, 3)], designs(18, 3)
    ([10, 7], ())
    """
    found: list[Design] = []
    power = is_prime_power(players)
    if power is not None:
        p, n = power
        if size == 3 and p == 3 and n >= 2:
            found.append(affine(3, n))
        if size == 4 and p == 2 and n % 2 == 0 and n >= 4:
            found.append(affine(4, n // 2))
    if players % size == 0 and players // size >= size and is_prime_power(players // size):
        found.append(transversal(size, players // size))
    if (players, size) == (32, 4):
        found.append(golfers_32())
    for spec in CYCLIC:
        design = cyclic(spec)
        if design.players == players and design.size == size:
            found.append(design)
    return tuple(sorted(found, key=lambda design: -len(design.rounds)))


def without(design: Design, rounds: int, count: int) -> tuple[tuple[Round, ...], tuple[int, ...]]:
    """`rounds` rounds of `design` and `count` (at most 3) of its players who never share
    a table in them; (), () when there are none. Dropping them leaves `count` tables of
    size - 1 a round. Tried: players of one table of a round that is not used.

    >>> kept, gone = without(affine(4, 2), 4, 3)
    >>> len(kept), len(gone), all(len(set(t) & set(gone)) <= 1 for r in kept for t in r)
    (4, 3, True)
    """
    if len(design.rounds) < rounds:
        return (), ()
    if count <= 1:
        return design.rounds[:rounds], tuple(range(count))
    for candidate in _apart_sets(design, count):
        kept = [r for r in design.rounds if all(len(set(t) & candidate) <= 1 for t in r)]
        if len(kept) >= rounds:
            return tuple(kept[:rounds]), tuple(sorted(candidate))
    return (), ()


def _apart_sets(design: Design, count: int) -> Iterator[set[int]]:
    """Sets of `count` players worth trying: first players none of whom ever meet (built
    greedily from each player in turn), then players of one table (who meet in that round
    only)."""
    met: dict[int, set[int]] = {p: set() for p in range(design.players)}
    for r in design.rounds:
        for table in r:
            for a, b in itertools.combinations(table, 2):
                met[a].add(b)
                met[b].add(a)
    for start in range(design.players):
        chosen = {start}
        for other in range(design.players):
            if len(chosen) == count:
                break
            if other not in chosen and not met[other] & chosen:
                chosen.add(other)
        if len(chosen) == count:
            yield chosen
            break
    for r in reversed(design.rounds):
        for table in r:
            yield set(table[:count])
