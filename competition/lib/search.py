"""A search over a whole schedule: the tables of several rounds at once, improved by swaps.

Pure Python (standard library only) and seeded: no clock, so the same input gives the same
schedule. Players are the indices 0 .. n-1; a schedule is a list of rounds, each a list of
tables (lists of players). Some rounds are `free` (the search may change them); the others,
and the `met` counts of the rounds played before, are fixed.

The cost (always minimised):

- ``REPEAT`` for each meeting beyond a pair's first, over everything (`repeats`);
- `pair[a][b]` each time a and b share a table in a free round: teammates and pairs kept
  apart (large), players of one club, Swiss distances or a meeting in the last round (small);
- ``THREE`` x t^2 for each player who sat t times at a table of 3 (history included), so
  the tables of 3 go round.

A move swaps two players of one free round who sit at different tables; its change of the
cost is computed from the two tables only. Each step starts from a *conflict* (a pair that
meets again, a pair that should not sit together, a player at a table of 3 more often than
his share), as in the local searches for the social golfer problem (Dotú and Van Hentenryck,
2005), and swaps one of its players, in a round where it happens, with a random player of
another table: simulated annealing, the heat falling from 0.3 of a repeat to 0.02 over
50,000 steps and then rising again. (Of 1 / 0.05, 0.5 / 0.05, 0.3 / 0.02 and 0.2 / 0.01
over 5,000 to 150,000 steps, this left the fewest repeats on 24 x 7, 36 x 11, 60 x 19,
23 x 7 and 18 x 8: 60 x 19 went from 124 to 86 and 36 x 11 from 33 to 16. A tabu search
taking the best swap each step was tried first: from random starts it left 2 repeats for
20 x 5 and 9 for 30 x 8 after 200,000 steps, where annealing reached 0 and 2 in fewer and
much cheaper steps.) The search ends at `target` (a lower bound), after `steps`, or after
`stall` steps without a better schedule, with the best schedule seen.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

__all__ = ["REPEAT", "THREE", "HARD", "Schedule", "lower_bound", "repeats"]

REPEAT = 1000
THREE = 400
#: Pair costs from this much up are conflicts the search goes after (teammates, kept apart,
#: one club); below it (Swiss distances, the last round) they only weigh in the swaps.
HARD = 10_000
#: The heat (in costs) of the annealing: from HEAT_HIGH down to HEAT_LOW over HEAT_CYCLE
#: steps, then again (the module docstring says how these were chosen).
HEAT_HIGH, HEAT_LOW, HEAT_CYCLE = 0.3 * REPEAT, 0.02 * REPEAT, 50_000
#: Steps without a better schedule after which the search gives up (two heat cycles): where
#: the lower bound cannot be reached (small events), it would otherwise run all its steps.
STALL = 2 * HEAT_CYCLE


def repeats(n: int, rounds: Sequence[Sequence[Sequence[int]]]) -> int:
    """Meetings beyond a pair's first (a pair that met 3 times counts 2).

    >>> repeats(4, [[[0, 1], [2, 3]], [[0, 1], [2, 3]], [[0, 1, 2, 3]]])
    4
    """
    met = [[0] * n for _ in range(n)]
    extra = 0
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                if met[a][b]:
                    extra += 1
                met[a][b] += 1
                met[b][a] += 1
    return extra


def lower_bound(n: int, sizes: Sequence[Sequence[int]], already: int = 0) -> int:
    """The fewest repeated meetings any schedule of rounds with these table sizes can have
    (`already`: the repeats of rounds played before, which stay): each player meets at most
    n - 1 different others, so the meetings beyond n (n - 1) / 2 pairs are repeats.

    >>> lower_bound(16, [[4] * 4] * 5), lower_bound(16, [[4] * 4] * 6)
    (0, 24)
    >>> lower_bound(19, [[4, 4, 4, 4, 3]] * 8)
    45
    """
    meetings = sum(size * (size - 1) // 2 for tables in sizes for size in tables)
    return already + max(0, meetings - n * (n - 1) // 2)


class Schedule:
    """The state of the search (the module docstring)."""

    def __init__(
        self,
        n: int,
        rounds: Sequence[Sequence[Sequence[int]]],
        *,
        free: Sequence[int],
        met: Sequence[Sequence[int]] | None = None,
        pair: Sequence[Sequence[int]] | None = None,
        threes: Sequence[int] | None = None,
        rng: random.Random,
    ) -> None:
        self.n, self.rng = n, rng
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.free = list(free)
        self.met = [list(row) for row in met] if met else [[0] * n for _ in range(n)]
        self.pair = pair
        self.hard = []
        if pair is not None:
            self.hard = [(a, b) for a in range(n) for b in range(a + 1, n) if pair[a][b] >= HARD]
        self.three = list(threes) if threes else [0] * n
        self.where: dict[int, list[int]] = {}
        for r, tables in enumerate(self.rounds):
            where = [-1] * n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
                    if len(table) == 3:
                        self.three[p] += 1
                for a, b in itertools.combinations(table, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
            self.where[r] = where
        self.mixed = any(len(t) == 3 for r in self.free for t in self.rounds[r]) and any(
            len(t) == 4 for r in self.free for t in self.rounds[r]
        )
        seats_at_three = sum(self.three)
        self.share = -(-seats_at_three // n) if n else 0  # the most a player should get
        # The pairs that met more than once, as a list (for a random pick) and their places.
        self.repeat_pairs: list[tuple[int, int]] = []
        self._place: dict[tuple[int, int], int] = {}
        for a in range(n):
            for b in range(a + 1, n):
                if self.met[a][b] >= 2:
                    self._add((a, b))

    # --- the cost -----------------------------------------------------------------------

    def cost(self) -> int:
        total = 0
        for a in range(self.n):
            for b in range(a + 1, self.n):
                if self.met[a][b] > 1:
                    total += REPEAT * (self.met[a][b] - 1)
        if self.pair is not None:
            for r in self.free:
                for table in self.rounds[r]:
                    for a, b in itertools.combinations(table, 2):
                        total += self.pair[a][b]
        return total + THREE * sum(t * t for t in self.three)

    def delta(self, r: int, x: int, y: int) -> int:
        """The change of the cost if x and y (at different tables of round r) swap."""
        where = self.where[r]
        first, second = self.rounds[r][where[x]], self.rounds[r][where[y]]
        mx, my = self.met[x], self.met[y]
        change = 0
        for z in first:
            if z != x:
                change += (mx[z] >= 2) * -REPEAT + (my[z] >= 1) * REPEAT
        for z in second:
            if z != y:
                change += (my[z] >= 2) * -REPEAT + (mx[z] >= 1) * REPEAT
        pair = self.pair
        if pair is not None:
            px, py = pair[x], pair[y]
            for z in first:
                if z != x:
                    change += py[z] - px[z]
            for z in second:
                if z != y:
                    change += px[z] - py[z]
        if len(first) != len(second):
            tx, ty = self.three[x], self.three[y]
            if len(first) == 3:  # x leaves a table of 3, y joins it
                change += THREE * (2 * ty + 1 - 2 * tx + 1)
            else:
                change += THREE * (2 * tx + 1 - 2 * ty + 1)
        return change

    def swap(self, r: int, x: int, y: int) -> None:
        where = self.where[r]
        tx, ty = where[x], where[y]
        first, second = self.rounds[r][tx], self.rounds[r][ty]
        for z in first:
            if z != x:
                self._meet(x, z, -1)
                self._meet(y, z, 1)
        for z in second:
            if z != y:
                self._meet(y, z, -1)
                self._meet(x, z, 1)
        if len(first) != len(second):
            step = 1 if len(first) == 3 else -1
            self.three[x] -= step
            self.three[y] += step
        first[first.index(x)] = y
        second[second.index(y)] = x
        where[x], where[y] = ty, tx

    def _meet(self, a: int, b: int, step: int) -> None:
        times = self.met[a][b] + step
        self.met[a][b] = self.met[b][a] = times
        key = (a, b) if a < b else (b, a)
        if times >= 2:
            if key not in self._place:
                self._add(key)
        elif key in self._place:
            place = self._place.pop(key)
            last = self.repeat_pairs.pop()
            if last != key:
                self.repeat_pairs[place] = last
                self._place[last] = place

    def _add(self, key: tuple[int, int]) -> None:
        self._place[key] = len(self.repeat_pairs)
        self.repeat_pairs.append(key)

    # --- the search ---------------------------------------------------------------------

    def _conflict(self) -> tuple[int, int] | None:
        """A (round, player) to move: from a repeated pair, a hard pair together, or a
        player at a table of 3 beyond his share; None when there is none in a free round."""
        sources = []
        if self.repeat_pairs:
            sources.append(lambda: self._from_pairs(self.repeat_pairs))
        if self.hard:
            sources.append(lambda: self._from_pairs(self.hard))
        if self.mixed:
            sources.append(self._from_threes)
        self.rng.shuffle(sources)
        for source in sources:
            found = source()
            if found is not None:
                return found
        return None

    def _from_pairs(self, pairs: list[tuple[int, int]]) -> tuple[int, int] | None:
        rng = self.rng
        for _ in range(min(len(pairs), 20)):
            a, b = pairs[rng.randrange(len(pairs))]
            rounds = [r for r in self.free if self.where[r][a] == self.where[r][b] >= 0]
            if rounds:
                return rng.choice(rounds), rng.choice((a, b))
        for a, b in pairs:  # the sample missed: look at every pair once
            rounds = [r for r in self.free if self.where[r][a] == self.where[r][b] >= 0]
            if rounds:
                return rng.choice(rounds), rng.choice((a, b))
        return None

    def _from_threes(self) -> tuple[int, int] | None:
        over = [
            (r, p)
            for r in self.free
            for table in self.rounds[r]
            if len(table) == 3
            for p in table
            if self.three[p] > self.share
        ]
        return self.rng.choice(over) if over else None

    def run(self, steps: int, target: int, stall: int = STALL) -> list[list[list[int]]]:
        """Simulated annealing: a random partner for a conflict's player, accepted when the
        cost does not rise, or with probability exp(-rise / heat); the heat falls from
        HEAT_HIGH to HEAT_LOW, then starts again. The best schedule seen (all rounds)."""
        rng = self.rng
        cost = best = self.cost()
        kept = [[t[:] for t in tables] for tables in self.rounds]
        ratio = (HEAT_LOW / HEAT_HIGH) ** (1 / HEAT_CYCLE)
        heat = HEAT_HIGH
        since = 0
        for _ in range(steps):
            if best <= target or since >= stall:
                break
            since += 1
            conflict = self._conflict()
            if conflict is None:
                break
            r, x = conflict
            where = self.where[r]
            tables = self.rounds[r]
            if len(tables) < 2:
                break
            t = rng.randrange(len(tables) - 1)
            if t >= where[x]:
                t += 1
            y = rng.choice(tables[t])
            change = self.delta(r, x, y)
            if change <= 0 or rng.random() < math.exp(-change / heat):
                self.swap(r, x, y)
                cost += change
                if cost < best:
                    best, since = cost, 0
                    kept = [[table[:] for table in round] for round in self.rounds]
            heat *= ratio
            if heat < HEAT_LOW:
                heat = HEAT_HIGH
        return kept
