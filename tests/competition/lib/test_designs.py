"""The known designs (competition.lib.designs): no database; each checked for what defines it."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter

import pytest

from competition.lib import designs
from competition.lib.designs import (
    CYCLIC,
    Design,
    Field,
    affine,
    cyclic,
    is_prime_power,
    max_rounds,
    transversal,
    without,
)

#: Every design `designs.designs` returns for 3 .. 90 players.
FOUND = [d for size in (3, 4) for v in range(3, 91) for d in designs.designs(v, size)]
#: And the constructions called directly.
BUILT = [
    *(affine(3, n) for n in (2, 3, 4)),
    *(affine(4, n) for n in (2, 3)),
    *(affine(q, 2) for q in (2, 5, 7, 8)),
    *(transversal(k, q) for k in (3, 4) for q in (3, 4, 5, 7, 8, 9, 11, 13, 16) if k <= q),
    *(cyclic(spec) for spec in CYCLIC),
    designs.golfers_32(),
]


def label(design: Design) -> str:
    return f"{design.players}x{design.size} {design.name}"


def pair_counts(rounds) -> Counter[tuple[int, int]]:
    return Counter(
        pair for r in rounds for table in r for pair in itertools.combinations(sorted(table), 2)
    )


def is_transversal(design: Design) -> bool:
    return design.name.startswith("resolvable transversal design")


def test_the_worked_examples_are_right():
    result = doctest.testmod(designs)
    assert result.attempted > 0
    assert result.failed == 0


def test_every_size_of_the_issue_has_a_design_with_the_most_rounds():
    for players, size, rounds in [
        (16, 4, 5),
        (20, 4, 5),
        (28, 4, 9),
        (32, 4, 10),
        (40, 4, 13),
        (15, 3, 7),
        (21, 3, 10),
    ]:
        assert len(designs.designs(players, size)[0].rounds) == rounds, (players, size)


def test_sizes_without_a_construction_get_none():
    assert designs.designs(18, 3) == ()
    assert designs.designs(17, 4) == ()
    assert designs.designs(24, 4) == ()  # 24 = 4 x 6, and 6 is not a prime power
    assert designs.designs(10, 4) == ()


def test_designs_come_most_rounds_first_and_fit_what_was_asked():
    for size in (3, 4):
        for v in range(3, 91):
            found = designs.designs(v, size)
            assert all(d.players == v and d.size == size for d in found)
            assert [len(d.rounds) for d in found] == sorted(
                (len(d.rounds) for d in found), reverse=True
            )


@pytest.mark.parametrize("design", list(dict.fromkeys([*FOUND, *BUILT])), ids=label)
def test_each_round_seats_everyone_once_and_nobody_meets_twice(design):
    v, k = design.players, design.size
    assert design.rounds
    for r in design.rounds:
        assert all(len(table) == k for table in r)
        assert sorted(p for table in r for p in table) == list(range(v))
    met = pair_counts(design.rounds)
    assert max(met.values()) == 1
    if is_transversal(design):
        # RTD(k, q): q rounds; two players of one group (i q .. i q + q - 1) never meet,
        # two of different groups exactly once.
        q = v // k
        assert len(design.rounds) == q
        for a, b in itertools.combinations(range(v), 2):
            assert met[(a, b)] == (a // q != b // q), (a, b)
    else:
        # The most rounds there can be; when k - 1 divides v - 1 (all but 32 x 4), a
        # resolvable design where every pair meets exactly once.
        assert len(design.rounds) == max_rounds(v, k)
        if (v - 1) % (k - 1) == 0:
            assert len(met) == v * (v - 1) // 2


@pytest.mark.parametrize("spec", CYCLIC, ids=lambda spec: spec.name)
def test_a_cyclic_design_has_the_players_its_spec_says(spec):
    design = cyclic(spec)
    assert design.players == spec.groups * spec.modulus + spec.extra
    assert design.name == spec.name
    assert len(design.rounds) == max_rounds(design.players, design.size)
    assert design in designs.designs(design.players, design.size)


def test_a_transversal_design_needs_no_more_groups_than_its_order():
    with pytest.raises(ValueError, match="size <= q"):
        transversal(4, 3)


# --- finite fields ----------------------------------------------------------------------

ORDERS = (2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32)


@pytest.mark.parametrize("q", ORDERS)
def test_a_field_is_a_field(q):
    f = Field(q)
    elements = range(q)
    add = [[f.add(a, b) for b in elements] for a in elements]
    mul = [[f.mul(a, b) for b in elements] for a in elements]
    for a in elements:
        assert sorted(add[a]) == list(elements)  # closed, and every a + x = b solvable
        assert add[a][0] == a
        assert mul[a][1] == a
        assert mul[a][0] == 0
        assert add[a][f.neg(a)] == 0
        for b in elements:
            assert add[a][b] == add[b][a]
            assert mul[a][b] == mul[b][a]
        if a:
            assert 1 in mul[a]  # an inverse
            assert sorted(mul[a][1:]) == list(range(1, q))  # no zero divisors
    p = is_prime_power(q)[0]
    for a in elements:  # the characteristic is p
        total = 0
        for _ in range(p):
            total = add[total][a]
        assert total == 0
    if q <= 9:
        triples = list(itertools.product(elements, repeat=3))
    else:
        rng = random.Random(q)
        triples = [tuple(rng.randrange(q) for _ in range(3)) for _ in range(500)]
    for a, b, c in triples:
        assert add[add[a][b]][c] == add[a][add[b][c]]
        assert mul[mul[a][b]][c] == mul[a][mul[b][c]]
        assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]


@pytest.mark.parametrize("q", [q for q in ORDERS if is_prime_power(q)[1] > 1])
def test_the_element_x_generates_the_nonzero_elements(q):
    f = Field(q)
    x = is_prime_power(q)[0]  # the polynomial x, as a number: digits (0, 1)
    powers, power = set(), 1
    for _ in range(q - 1):
        power = f.mul(power, x)
        powers.add(power)
    assert powers == set(range(1, q))


@pytest.mark.parametrize("q", [0, 1, 6, 10, 12, 100])
def test_no_field_of_an_order_that_is_no_prime_power(q):
    with pytest.raises(ValueError, match="not a prime power"):
        Field(q)


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        (0, None),
        (1, None),
        (2, (2, 1)),
        (4, (2, 2)),
        (6, None),
        (8, (2, 3)),
        (9, (3, 2)),
        (12, None),
        (25, (5, 2)),
        (27, (3, 3)),
        (32, (2, 5)),
        (49, (7, 2)),
        (97, (97, 1)),
        (100, None),
    ],
)
def test_is_prime_power(q, expected):
    assert is_prime_power(q) == expected


@pytest.mark.parametrize(
    ("players", "size", "rounds"),
    [(16, 4, 5), (15, 3, 7), (32, 4, 10), (19, 4, 6), (4, 4, 1), (3, 3, 1), (5, 4, 1), (9, 3, 4)],
)
def test_max_rounds(players, size, rounds):
    assert max_rounds(players, size) == rounds


# --- players left out -------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("design", FOUND, ids=label)
def test_the_players_left_out_never_share_a_table(design, count):
    total = len(design.rounds)
    for rounds in sorted({1, 2, total - 1, total} - {0}):
        kept, gone = without(design, rounds, count)
        if rounds < total or count == 1:
            # the players of one table of a round left unused always do
            assert kept, (rounds, count)
        if not kept:
            assert gone == ()
            continue
        assert len(kept) == rounds
        assert all(r in design.rounds for r in kept)
        assert len(set(gone)) == count
        assert set(gone) <= set(range(design.players))
        for r in kept:
            for table in r:
                assert len(set(table) & set(gone)) <= 1


def test_no_players_left_out_of_every_round_of_a_complete_design():
    plane = affine(4, 2)
    assert without(plane, 5, 2) == ((), ())  # every pair meets once
    assert without(plane, 6, 1) == ((), ())  # more rounds than the design has
    kept, gone = without(plane, 5, 1)
    assert kept == plane.rounds
    assert len(gone) == 1


def test_two_of_one_group_of_a_transversal_design_leave_every_round():
    design = transversal(4, 5)
    kept, gone = without(design, 5, 2)
    assert kept == design.rounds
    assert len({p // 5 for p in gone}) == 1


def test_three_of_one_group_of_a_transversal_design_leave_every_round():
    design = transversal(4, 5)  # players 0, 1, 2 (group 0) never meet
    assert all(len({0, 1, 2} & set(table)) <= 1 for r in design.rounds for table in r)
    kept, gone = without(design, 5, 3)
    assert kept == design.rounds
    assert len(gone) == 3
