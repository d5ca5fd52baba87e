"""The golden cases of rules/sochi.md §15 and spec/pulka-json.md, as JSON (tests/data/cases)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import PulkaError, score_pulka, sheet_to_dict
from tests.engine.factories import BAD, CASES, GOOD, expected_of, load

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_the_case_directories_are_not_empty():
    assert len(GOOD) >= 16
    assert any(p.parent.name == "presets" for p in GOOD)
    assert len(BAD) >= 4


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_golden_case_gives_exactly_the_expected_sheet(path):
    assert sheet_to_dict(score_pulka(load(path))) == expected_of(path)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_case_is_rejected_with_the_expected_message(path):
    want = path.with_suffix(".error.txt").read_text(encoding="utf-8").strip()
    with pytest.raises(PulkaError) as caught:
        score_pulka(load(path))
    assert want in str(caught.value)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_cli_rejects_a_bad_case_with_one_error_line_and_status_2(path):
    want = path.with_suffix(".error.txt").read_text(encoding="utf-8").strip()
    done = run_cli(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert want in lines[0]


def test_cli_prints_the_sheet_of_a_golden_case():
    path = CASES / "G10.json"
    done = run_cli(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == expected_of(path)
    assert done.stdout.startswith('{\n  "format": "pulka-sheet/1"')  # indent=2


def test_cli_reads_stdin_when_the_file_is_a_dash():
    path = CASES / "G9.json"
    done = run_cli("-", stdin=path.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected_of(path)


def test_cli_entries_flag_adds_the_words_of_every_deal():
    path = CASES / "G10.json"
    done = run_cli("--entries", str(path))
    assert done.returncode == 0, done.stderr
    deals = json.loads(done.stdout)["deals"]
    assert deals[3]["entries"] == [
        "help: 2 into B's pool",
        "A writes 20 whists on B (help)",
    ]
    assert deals[6]["entries"] == [
        "C: 6 into the pool",
        "C: 4 written off the mountain (nobody left to help)",
    ]


def test_cli_keeps_names_unescaped():
    doc = {
        "format": "pulka/1",
        "players": ["Анна", "Борис", "Віра"],
        "deals": [{"kind": "misere", "declarer": "Віра", "tricks": {"Віра": 0}}],
    }
    done = run_cli("-", stdin=json.dumps(doc))
    assert done.returncode == 0, done.stderr
    assert '"Віра": 10' in done.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (("/nonexistent/pulka.json",), None, "cannot read /nonexistent/pulka.json"),
        (("-",), "{not json", "invalid JSON"),
        (("-",), "[1, 2]", "a pulka must be a JSON object"),
        (("-",), '{"format": "pulka/1", "players": ["A", "B"], "deals": []}', "players must be"),
        ((), None, "usage"),
    ],
)
def test_cli_fails_with_status_2_and_one_error_line(args, stdin, fragment):
    done = run_cli(*args, stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert fragment in lines[0]


@pytest.mark.parametrize(
    "path", [p for p in GOOD if p.parent.name == "presets"], ids=lambda p: p.stem
)
def test_cli_scores_every_preset_case(path):
    done = run_cli(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected_of(path)


def test_cli_entries_explain_rostov_raspasy_in_whists():
    done = run_cli("--entries", str(CASES / "presets" / "R1-raspasy-whists-help.json"))
    assert done.returncode == 0, done.stderr
    deals = json.loads(done.stdout)["deals"]
    assert deals[1]["entries"] == [
        "A writes 10 whists on C (raspasy, fewest tricks, shared)",
        "B writes 10 whists on C (raspasy, fewest tricks, shared)",
    ]
    assert deals[2]["entries"] == [
        "A writes 10 whists on B (raspasy, fewest tricks)",
        "A writes 40 whists on C (raspasy, fewest tricks)",
        "A: 1 into the pool",
    ]
