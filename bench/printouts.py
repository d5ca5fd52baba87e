"""Benchmark of the organisers' printouts (competition/printouts.py): how long a PDF takes.

Run from the repository root:  python bench/printouts.py [--players 300] [--rounds 2]
[--penalties 200]

It builds a tournament of 300 players through the services (75 tables of 4; the rounds are
published, their tables ended by the judge without deals and confirmed, so the standings
have a line per player and a column per round) in a fresh SQLite database in memory
(DATABASE_URL, if set, names another; the bench then writes into it), and times each
printout three times after one warm-up build (WeasyPrint's import and its fonts are paid
once per process, not per file). The figures are medians of wall time and of the process's
CPU time; the last lines give the CPU time, which stays honest on a machine busy with other
work (the wall time is printed beside it).

What a caller needs to choose when a file is prepared in the background: the protocols
cost about the same per table, so ``protocols_ms_per_table`` times a round's tables is the
wait. The standings cost by the cells they draw (printouts.standings_size: a line per
player, a cell per column) and by the penalties listed under them: the bench times them
after the first round and after every round; then the standings of a small tournament (40
players, a round) without and with ``--penalties`` penalties (the most a tournament holds),
given through the service, each with the longest reason; and then with the players of the
big one in teams of three, the team standings. ``standings_ms_per_cell`` is the time of
the full standings over their cells (the fixed cost included: it errs on the slow side),
``standings_ms_per_penalty`` what each penalty adds beyond its column, and
``penalty_cells`` their ratio (printouts.PENALTY_CELLS);
``standings_threshold_cells`` is about a second's worth (printouts.STANDINGS_THRESHOLD_CELLS).
The last lines are::

    protocols_1_table_ms: X
    protocols_75_tables_ms: X
    protocols_ms_per_table: X
    seating_300_ms: X
    standings_300_ms: X
    standings_ms_per_cell: X
    standings_ms_per_penalty: X
    penalty_cells: X
    teams_ms_per_cell: X
    standings_threshold_cells: N
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
from competition.models import Entry, PenaltyUnit, Scoring, Tournament  # noqa: E402
from competition.tournament import (  # noqa: E402
    printouts,  # noqa: E402
    selectors,  # noqa: E402
    services,  # noqa: E402
)
from scoring.engine import preset_rules, rules_to_dict  # noqa: E402

RUNS = 3
PENALISED_PLAYERS = 40
# The longest reason a penalty may have (200 characters): it wraps to a few lines.
REASON = ("Запізнення до столу після перерви, суперечка з суддею щодо розіграшу. " * 3)[:200]
TARGET_MS = 1000  # a threshold is about a second's worth


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


def penalise(tournament: Tournament, count: int) -> None:
    """`count` penalties with the longest reason, through the service, spread over the
    entrants."""
    players = list(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    for k in range(count):
        services.penalty_add(
            tournament=tournament,
            player_id=players[k % len(players)],
            round_number=1,
            amount=10,
            unit=PenaltyUnit.WHISTS,
            reason=REASON,
            by=None,
        )


def timed(label: str, make: Callable[[], bytes]) -> float:
    """The median CPU milliseconds of RUNS builds (the wall time printed too)."""
    walls, cpus = [], []
    size = 0
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        size = len(make())
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"{label}: {wall:.0f} ms wall, {cpu:.0f} ms CPU, {size / 1024:.0f} KiB")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--penalties", type=int, default=services.PENALTIES_MAX)
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
    first = printouts.standings_size(tournament, 1)
    timed(f"standings after round 1, {first}", lambda: printouts.standings_pdf(tournament, 1))
    drawn = printouts.standings_size(tournament)
    standings = timed(f"standings, {drawn}", lambda: printouts.standings_pdf(tournament))
    per_cell = standings / drawn.cells

    # The penalties on a small tournament, whose own standings take little beside them.
    small = build(PENALISED_PLAYERS, 1)
    unpunished = timed(
        f"standings, {printouts.standings_size(small)}", lambda: printouts.standings_pdf(small)
    )
    penalise(small, options.penalties)
    punished = printouts.standings_size(small)
    with_penalties = timed(f"standings, {punished}", lambda: printouts.standings_pdf(small))
    column = punished.lines * per_cell  # the penalty column the penalties bring
    per_penalty = (with_penalties - unpunished - column) / max(options.penalties, 1)

    players = list(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))

    for k, player in enumerate(players):
        Entry.objects.filter(tournament=tournament, player_id=player).update(team=f"Team {k // 3}")
    Tournament.objects.filter(pk=tournament.pk).update(team_best=2)
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    teams_drawn = printouts.team_standings_size(tournament)
    teams = timed(f"teams, {teams_drawn}", lambda: printouts.team_standings_pdf(tournament))

    print(f"protocols_1_table_ms: {one:.0f}")
    print(f"protocols_{tables}_tables_ms: {every:.0f}")
    print(f"protocols_ms_per_table: {every / tables:.1f}")
    print(f"seating_{options.players}_ms: {seating:.0f}")
    print(f"standings_{options.players}_ms: {standings:.0f}")
    print(f"standings_ms_per_cell: {per_cell:.2f}")
    print(f"standings_ms_per_penalty: {per_penalty:.2f}")
    print(f"penalty_cells: {per_penalty / per_cell:.1f}")
    print(f"teams_ms_per_cell: {teams / teams_drawn.cells:.2f}")
    print(f"standings_threshold_cells: {int(TARGET_MS / per_cell)}")


if __name__ == "__main__":
    main()
