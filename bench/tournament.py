"""Benchmark of a tournament's seating: quality (repeated meetings, tables of 3) and speed.

Run from the repository root:  python bench/tournament.py

Pure Python (competition.seating), no database. Each event is seated round by round as an
organiser would: round 1 at random stratified by rating (`Method.RATING`), then every later
round by maximum mixing (`Method.MIXING`), each drawn against the rounds before it with its
own seed. The figures:

- repeated meetings: meetings beyond a pair's first, over all pairs
  (`competition.seating.repeated_meetings`: a pair meeting three times counts 2);
- the most times one player sat at a table of 3, for N mod 4 = 3 (one table of 3 a round);
- the slowest round of 300 players, wall time (`time.perf_counter`).

For information it also prints the same events seated Swiss after round 1 (the standings
from random zero-sum results, drawn with a fixed seed) and as a schedule published in
advance (`competition.seating.schedule`, which draws each round again against all others).

The standings figures of the issue (queries of the standings page, small and large, and its
ratio to a bare view) need the tournament models and pages, which come later: they are not
printed yet. Budget: 0 repeats for 120x8 and 300x9, at most 8 for 30x8, nobody at a table of
3 more than twice in 8 rounds (N mod 4 = 3, N >= 15: with 7 or 11 players 24 seats at the
table of 3 cannot be shared out two each), a 300-player round in a few seconds. The last
four lines are::

    seating_repeats_30x8: N
    seating_repeats_120x8: N
    seating_repeats_300x9: N
    seating_300_round_s_max: X
"""

from __future__ import annotations

import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competition.seating import (  # noqa: E402
    Entrant,
    Method,
    Seating,
    repeated_meetings,
    schedule,
    seat_round,
    threes,
)

SEED = 20240613


def players(count: int) -> list[Entrant]:
    rng = random.Random(count)
    return [Entrant(id, rating=rng.gauss(1000, 150)) for id in range(1, count + 1)]


def run(count: int, rounds: int, method: Method) -> tuple[list[Seating], float]:
    """Seat an event round by round; the slowest round's seconds."""
    everyone = players(count)
    totals: dict[int, int] = defaultdict(int)
    results = random.Random(SEED + count)
    history: list[Seating] = []
    slowest = 0.0
    for number in range(1, rounds + 1):
        standings = sorted(totals, key=lambda p: (-totals[p], p))
        started = time.perf_counter()
        seating = seat_round(
            everyone,
            round=number,
            seed=SEED + number,
            method=Method.RATING if number == 1 else method,
            history=history,
            standings=standings,
        )
        slowest = max(slowest, time.perf_counter() - started)
        history.append(seating)
        for table in seating.tables:  # a random zero-sum result at each table
            whists = [results.randint(-300, 300) for _ in table.seats[1:]]
            for player, result in zip(table.seats, [-sum(whists), *whists], strict=True):
                totals[player] += result
    return history, slowest


def main() -> None:
    figures: dict[tuple[int, int], tuple[int, float]] = {}
    for count, rounds in ((30, 8), (120, 8), (300, 9)):
        history, slowest = run(count, rounds, Method.MIXING)
        figures[(count, rounds)] = (repeated_meetings(history), slowest)
        swiss, swiss_slowest = run(count, rounds, Method.SWISS)
        started = time.perf_counter()
        planned = schedule(players(count), rounds=rounds, seed=SEED)
        planned_s = time.perf_counter() - started
        print(
            f"{count}x{rounds}: mixing repeats {repeated_meetings(history)} "
            f"(slowest round {slowest:.3f} s), swiss repeats {repeated_meetings(swiss)} "
            f"(slowest round {swiss_slowest:.3f} s), schedule repeats "
            f"{repeated_meetings(planned)} ({planned_s:.2f} s for all rounds)"
        )
    for count in (15, 19, 31, 119, 299):
        history, _ = run(count, 8, Method.MIXING)
        swiss, _ = run(count, 8, Method.SWISS)
        print(
            f"{count}x8 (one table of 3 a round): most at a table of 3, mixing "
            f"{max(threes(history).values())}, swiss {max(threes(swiss).values())}; "
            f"repeats mixing {repeated_meetings(history)}, swiss {repeated_meetings(swiss)}"
        )
    print(f"seating_repeats_30x8: {figures[(30, 8)][0]}")
    print(f"seating_repeats_120x8: {figures[(120, 8)][0]}")
    print(f"seating_repeats_300x9: {figures[(300, 9)][0]}")
    print(f"seating_300_round_s_max: {figures[(300, 9)][1]:.3f}")


if __name__ == "__main__":
    main()
