"""Plan the seating of a whole event without the site: players 1..N, R rounds.

    python manage.py seat_schedule --players N --rounds R [--tables 4|3|mixed] [--seed S]
                                   [--apart "1-2,5-9"] [--json] [--allow-repeats]

It prints each round's tables (seat 1 first; the first dealer marked with *), then the
repeated meetings (the sum over pairs of meetings beyond the first) with their lower bound,
and the fairness: the most and fewest times anyone sat at a table of 3, the most times
anyone sat in one seat, the first deals and the byes. With --json it prints one object:
``{"rounds": [[[p, p, p, p], ...], ...], "first_dealers": [[p, ...], ...], "byes": [[p],
...], "repeats": n, "lower_bound": n, "seed": s, "fairness": {...}}``.

The plan is `competition.lib.seating.schedule`, the same as a tournament's schedule drawn
in advance: a known design where one fits, else the whole-schedule search. Bad arguments get
a message and exit status 2: too few players for the tables, more rounds than the players
can play without meeting someone twice (unless --allow-repeats: then the schedule with the
fewest repeats found), a malformed or impossible --apart.
"""

from __future__ import annotations

import json
import re

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.lib import seating
from competition.lib.problems import TournamentError
from competition.lib.search import lower_bound

#: Bounds on one run, so that a typo cannot start hours of work.
MAX_PLAYERS = 1000
MAX_ROUNDS = 60
PAIR = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")


def _refuse(message: str) -> CommandError:
    return CommandError(message, returncode=2)


def parse_apart(text: str, players: int) -> list[tuple[int, int]]:
    """ "1-2,5-9" -> [(1, 2), (5, 9)]; a clear CommandError (exit 2) for anything else."""
    pairs: list[tuple[int, int]] = []
    for part in text.split(","):
        if not part.strip():
            continue
        match = PAIR.match(part)
        if match is None:
            raise _refuse(
                f"--apart: {part.strip()!r} is not a pair of players such as 1-2 "
                '(pairs are separated by commas: "1-2,5-9").'
            )
        first, second = int(match[1]), int(match[2])
        for player in (first, second):
            if not 1 <= player <= players:
                raise _refuse(f"--apart: there is no player {player}: players are 1 to {players}.")
        if first == second:
            raise _refuse(f"--apart: {part.strip()!r} names one player twice.")
        pairs.append((min(first, second), max(first, second)))
    return pairs


class Command(BaseCommand):
    help = (
        "Print the seating of a whole event for players 1..N over R rounds: a known design "
        "where one fits (no repeated meeting), else the whole-schedule search; then the "
        "repeated meetings with their lower bound and the fairness figures."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, metavar="N")
        parser.add_argument("--rounds", type=int, required=True, metavar="R")
        parser.add_argument(
            "--tables",
            choices=[t.value for t in (seating.Tables.FOURS, seating.Tables.THREES)] + ["mixed"],
            default="mixed",
            help="4: tables of 4 only; 3: tables of 3 only; mixed (the default): tables of 4 "
            "and up to three tables of 3. Players beyond a multiple of 4 (or 3) sit out in turn.",
        )
        parser.add_argument("--seed", type=int, help="the seed (default: a new one, printed)")
        parser.add_argument(
            "--apart", default="", metavar="PAIRS", help='pairs never at one table: "1-2,5-9"'
        )
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument(
            "--allow-repeats",
            action="store_true",
            help="plan more rounds than the players can play without a repeated meeting",
        )

    def handle(self, *args, **options) -> None:
        players, rounds = options["players"], options["rounds"]
        tables = seating.Tables(options["tables"])
        if not 1 <= rounds <= MAX_ROUNDS:
            raise _refuse(f"--rounds must be between 1 and {MAX_ROUNDS}, not {rounds}.")
        if players > MAX_PLAYERS:
            raise _refuse(f"--players must be at most {MAX_PLAYERS}, not {players}.")
        try:
            plan = seating.table_plan(players, tables)
        except TournamentError as exc:
            text = exc.problem.message()
            raise _refuse(f"{text[:1].upper()}{text[1:]}.") from exc
        bound = lower_bound(players, [plan.sizes] * rounds)
        if bound and not options["allow_repeats"]:
            per_round = sum(size * (size - 1) // 2 for size in plan.sizes)
            most = players * (players - 1) // 2 // per_round
            raise _refuse(
                f"{players} players at these tables can play at most {most} rounds without "
                f"someone meeting an opponent twice; {rounds} rounds mean at least {bound} "
                "repeated meetings. Ask for fewer rounds, or add --allow-repeats."
            )
        apart = parse_apart(options["apart"], players)
        seed = options["seed"] if options["seed"] is not None else seating.new_seed()
        entrants = [seating.Entrant(player) for player in range(1, players + 1)]
        drawn = seating.schedule(entrants, rounds=rounds, seed=seed, tables=tables, apart=apart)
        figures = seating.report(drawn, range(1, players + 1))
        together = sorted(
            {
                pair
                for round in drawn
                for table in round.tables
                for pair in apart
                if set(pair) <= set(table.seats)
            }
        )
        if options["json"]:
            self.stdout.write(json.dumps(self._json(drawn, figures, seed, together)))
            return
        width = len(str(players))
        for round in drawn:
            cells = [
                " ".join(
                    f"{p:>{width}}{'*' if p == table.first_dealer else ' '}" for p in table.seats
                )
                for table in round.tables
            ]
            line = f"Round {round.round:>2}: " + " | ".join(cells)
            if round.byes:
                line += "  sit out: " + " ".join(str(bye.player) for bye in round.byes)
            self.stdout.write(line.rstrip())
        self.stdout.write(
            f"Repeated meetings: {figures.repeats} (lower bound {figures.lower_bound})"
        )
        self.stdout.write(
            f"Tables of 3: most {figures.most_threes}, fewest {figures.fewest_threes} a player"
        )
        self.stdout.write(f"One seat: at most {figures.most_same_seat} times a player")
        self.stdout.write(
            f"First deals: most {figures.most_first_deals}, fewest {figures.fewest_first_deals}"
        )
        if plan.byes:
            self.stdout.write(f"Sat out: most {figures.most_byes}, fewest {figures.fewest_byes}")
        for first, second in together:
            self.stdout.write(f"Could not keep apart: {first} and {second}")
        self.stdout.write(f"Seed: {seed}")

    @staticmethod
    def _json(drawn, figures: seating.Report, seed: int, together) -> dict:
        return {
            "rounds": [[list(table.seats) for table in round.tables] for round in drawn],
            "first_dealers": [[table.first_dealer for table in round.tables] for round in drawn],
            "byes": [[bye.player for bye in round.byes] for round in drawn],
            "repeats": figures.repeats,
            "lower_bound": figures.lower_bound,
            "seed": seed,
            "fairness": {
                "most_threes": figures.most_threes,
                "fewest_threes": figures.fewest_threes,
                "most_same_seat": figures.most_same_seat,
                "most_first_deals": figures.most_first_deals,
                "fewest_first_deals": figures.fewest_first_deals,
                "most_byes": figures.most_byes,
                "fewest_byes": figures.fewest_byes,
            },
            "not_kept_apart": [list(pair) for pair in together],
        }
