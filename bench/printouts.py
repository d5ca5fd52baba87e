"""Benchmark of the organisers' printouts (competition/printouts.py): how long a PDF takes.

Run from the repository root:  python bench/printouts.py [--players 300] [--rounds 2]

It builds a tournament of 300 players through the services (75 tables of 4; the rounds are
published, their tables ended by the judge without deals and confirmed, so the standings
have a line per player and a column per round) in a fresh SQLite database in memory
(DATABASE_URL, if set, names another; the bench then writes into it), and times each
printout three times after one warm-up build (WeasyPrint's import and its fonts are paid
once per process, not per file). The figures are medians of wall time and of the process's
CPU time (the CPU time stays honest on a machine busy with other work).

What a caller needs to choose when a file is prepared in the background: the protocols
cost about the same per table, so ``protocols_ms_per_table`` times a round's tables is the
wait. The last lines are::

    protocols_1_table_ms: X
    protocols_75_tables_ms: X
    protocols_ms_per_table: X
    seating_300_ms: X
    standings_300_ms: X
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from club.models import Club  # noqa: E402
from competition.models import Scoring, Tournament  # noqa: E402
from competition.tournament import (  # noqa: E402
    printouts,  # noqa: E402
    selectors,  # noqa: E402
    services,  # noqa: E402
)
from scoring.engine import preset_rules, rules_to_dict  # noqa: E402

RUNS = 3


def build(players: int, rounds: int) -> Tournament:
    """A club's tournament with `rounds` rounds confirmed (tables ended without deals)."""
    club = Club.objects.create(name="Bench Club", slug=f"bench-{time.time_ns()}")
    tournament = services.tournament_create(
        club=club,
        created_by=None,
        name="Відкритий кубок 2024",
        rules=rules_to_dict(preset_rules("sochi", pool_target=20)),
        round_count=rounds + 1,
        scoring=Scoring.CAPS,
        caps=services.caps_from_text(services.CAPS_PRESETS["200-650"]),
        deal_cap=18,
    )
    # Names of a realistic length, Cyrillic, all different.
    first = ["Олександр", "Марія", "Андрій", "Оксана", "Сергій", "Наталія", "Юрій", "Ірина"]
    last = ["Коваленко", "Шевченко", "Бондаренко", "Ткаченко", "Кравченко", "Олійник"]
    names = [
        f"{first[k % len(first)]} {last[(k // len(first)) % len(last)]} {k + 1}"
        for k in range(players)
    ]
    services.entries_add(tournament=tournament, names=names)
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        round = services.round_publish(round=services.round_draft(tournament=tournament), by=None)
        services.round_start(round=round)
        for table in selectors.round_tables(round):
            services.table_end(round=round, number=table.number, by=None)
        services.round_confirm(round=round, by=None)
        seconds = time.perf_counter() - started
        print(f"round {number}: drawn, published and confirmed in {seconds:.1f} s")
    return Tournament.objects.select_related("club").get(pk=tournament.pk)


def timed(label: str, make: Callable[[], bytes]) -> float:
    """The median wall milliseconds of RUNS builds (and the CPU time, printed)."""
    walls, cpus = [], []
    size = 0
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        size = len(make())
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"{label}: {wall:.0f} ms wall, {cpu:.0f} ms CPU, {size / 1024:.0f} KiB")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    call_command("migrate", verbosity=0)
    tournament = build(options.players, options.rounds)
    round = selectors.round_of(tournament, options.rounds)
    tables = printouts.protocols_size(round)
    printouts.protocols_pdf(round, 1)  # the warm-up: WeasyPrint's import, fonts, stylesheet

    one = timed("protocols, 1 table", lambda: printouts.protocols_pdf(round, 1))
    every = timed(f"protocols, {tables} tables", lambda: printouts.protocols_pdf(round))
    seating = timed(
        f"seating, {printouts.seating_size(round)} players", lambda: printouts.seating_pdf(round)
    )
    standings = timed(
        f"standings, {printouts.standings_size(tournament)} lines x {options.rounds} rounds",
        lambda: printouts.standings_pdf(tournament),
    )
    print(f"protocols_1_table_ms: {one:.0f}")
    print(f"protocols_{tables}_tables_ms: {every:.0f}")
    print(f"protocols_ms_per_table: {every / tables:.1f}")
    print(f"seating_{options.players}_ms: {seating:.0f}")
    print(f"standings_{options.players}_ms: {standings:.0f}")


if __name__ == "__main__":
    main()
