"""`manage.py seat_schedule`: the schedule of a whole event printed without the site."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = StringIO()
    call_command("seat_schedule", *args, stdout=out)
    return out.getvalue()


def meetings(rounds: list[list[list[int]]]) -> Counter:
    return Counter(
        pair
        for tables in rounds
        for table in tables
        for pair in itertools.combinations(sorted(table), 2)
    )


@pytest.mark.parametrize(
    ("players", "rounds", "tables", "sizes"),
    [
        (16, 5, "4", [4, 4, 4, 4]),
        (28, 9, "4", [4] * 7),
        (15, 7, "3", [3] * 5),
        (30, 8, "mixed", [4] * 6 + [3, 3]),
        (31, 8, "mixed", [4] * 7 + [3]),
    ],
)
def test_the_json_is_a_schedule_with_no_repeated_meeting(players, rounds, tables, sizes):
    data = json.loads(
        run("--players", str(players), "--rounds", str(rounds), "--tables", tables, "--json")
    )

    assert len(data["rounds"]) == rounds
    for round in data["rounds"]:
        assert sorted(p for table in round for p in table) == list(range(1, players + 1))
        assert [len(table) for table in round] == sizes
    assert max(meetings(data["rounds"]).values()) == 1
    assert data["repeats"] == data["lower_bound"] == 0
    assert data["byes"] == [[]] * rounds
    for round, dealers in zip(data["rounds"], data["first_dealers"], strict=True):
        assert all(d in t for d, t in zip(dealers, round, strict=True))


def test_the_repeats_printed_are_the_schedules_own():
    data = json.loads(run("--players", "19", "--rounds", "8", "--allow-repeats", "--json"))

    repeats = sum(times - 1 for times in meetings(data["rounds"]).values())
    assert data["repeats"] == repeats >= data["lower_bound"] == 45
    assert data["fairness"]["most_threes"] <= 2


def test_the_same_seed_prints_the_same_schedule_and_says_it():
    first = run("--players", "20", "--rounds", "5", "--seed", "4242")
    assert first == run("--players", "20", "--rounds", "5", "--seed", "4242")
    assert first.splitlines()[-1] == "Seed: 4242"
    assert "Repeated meetings: 0 (lower bound 0)" in first
    assert first.count("Round ") == 5


def test_pairs_kept_apart_never_sit_together():
    data = json.loads(
        run(
            "--players",
            "24",
            "--rounds",
            "5",
            "--tables",
            "4",
            "--apart",
            "1-2, 3-4,5-24",
            "--json",
        )
    )

    together = meetings(data["rounds"])
    assert together[(1, 2)] == together[(3, 4)] == together[(5, 24)] == 0
    assert data["not_kept_apart"] == []


def test_tables_of_three_with_players_left_over_sit_them_out_in_turn():
    data = json.loads(run("--players", "16", "--rounds", "4", "--tables", "3", "--json"))

    assert all(len(byes) == 1 for byes in data["byes"])
    assert len({p for byes in data["byes"] for p in byes}) == 4
    assert all(len(table) == 3 for round in data["rounds"] for table in round)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2", "--rounds", "3"], "2 players cannot make a table"),
        (["--players", "3", "--rounds", "1", "--tables", "4"], "cannot make a table of 4"),
        (["--players", "16", "--rounds", "6", "--tables", "4"], "at most 5 rounds"),
        (["--players", "15", "--rounds", "8", "--tables", "3"], "at most 7 rounds"),
        (["--players", "16", "--rounds", "0"], "--rounds must be between"),
        (["--players", "16", "--rounds", "3", "--apart", "1-2;3-4"], "is not a pair"),
        (["--players", "16", "--rounds", "3", "--apart", "1-17"], "there is no player 17"),
        (["--players", "16", "--rounds", "3", "--apart", "5-5"], "one player twice"),
    ],
)
def test_bad_arguments_get_a_message_and_exit_status_2(args, message):
    with pytest.raises(CommandError, match=message) as caught:
        run(*args)
    assert caught.value.returncode == 2


def test_from_the_shell_a_bad_argument_exits_2_and_prints_nothing_on_stdout():
    done = subprocess.run(
        [sys.executable, "manage.py", "seat_schedule", "--players", "16", "--rounds", "9"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"DEBUG": "true", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "at most 5 rounds" in done.stderr
