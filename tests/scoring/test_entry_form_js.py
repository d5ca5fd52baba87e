"""The new deal's form takes on the device (static/js/entry-form.js shape()) the shape the
server gives it (DealForm._shape()), for every combination of choices: 3 and 4 players, every
dealer, kind, declarer, level and calls, under the rules that change the shape.

Node runs the script (Debian's nodejs): without it the test is skipped with a reason on a
laptop, and fails under CI=true. No database: the form is built from the request's data.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.http import QueryDict

from scoring import engine
from scoring.forms import DealForm
from tests.conftest import missing_service

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static/js/entry-form.js"

# Loads the file through module.exports, reads the cases on stdin, writes each shape as a list
# of its values in the order of `keys`.
RUNNER = """
const form = require(process.argv[1]);
let text = "";
process.stdin.on("data", (chunk) => { text += chunk; });
process.stdin.on("end", () => {
  const { cases, keys } = JSON.parse(text);
  const shapes = cases.map(([rules, choice]) => {
    const shape = form.shape(rules, choice);
    return keys.map((key) => shape[key]);
  });
  process.stdout.write(JSON.stringify({ words: form.WORDS, shapes }));
});
"""

RULE_SETS = {
    "sochi": engine.preset_rules(),
    "leningrad": engine.preset_rules(engine.PRESET_LENINGRAD),
    "rostov": engine.preset_rules(engine.PRESET_ROSTOV),
    "half-whist at six only": engine.preset_rules(half_whist_levels=(6,)),
    "no half-whist": engine.preset_rules(half_whist_levels=()),
}
NAMES = {3: ["Anna", "Boris", "Vera"], 4: ["Anna", "Boris", "Vera", "Gleb"]}
ROTATION = 1
KEYS = {
    "dealer": "dealer",
    "firstHand": "first_hand",
    "active": "active",
    "declarer": "declarer",
    "defenders": "defenders",
    "halfAllowed": "half_allowed",
    "played": "played",
    "tricks": "tricks",
    "talonSeat": "talon_seat",
    "quickTricks": "quick_tricks",
    "kind": "kind",
    "level": "level",
}


def node() -> str:
    found = shutil.which("node")
    if found is None:
        missing_service("Node.js is not installed (apt-get install nodejs)")
    return found


def choices(n: int):
    """Every combination of choices a form of n players can hold: each dealer, kind and
    declarer (or none chosen), each level (or none) and each defender's call (or none); the
    calls and the level change only a game's shape. Then the values a form should not hold
    (absent, empty, out of range), which fall back as on the server."""
    seats = [str(seat) for seat in range(n)]
    for dealer, kind, declarer in itertools.product(seats, engine.KINDS, [None, *seats]):
        if kind != engine.GAME:
            yield {"dealer": dealer, "kind": kind, "declarer": declarer, "level": "7", "calls": {}}
            continue
        for level in [None, *(str(level) for level in engine.LEVELS)]:
            for said in itertools.product([None, *engine.CALLS], repeat=n):
                calls = {str(seat): call for seat, call in enumerate(said) if call is not None}
                yield {
                    "dealer": dealer,
                    "kind": kind,
                    "declarer": declarer,
                    "level": level,
                    "calls": calls,
                }
    stray = itertools.product(
        [None, "", "9", "-1"], [None, "", "bridge"], [None, "", "9", "x"], [None, "", "5", "6.0"]
    )
    for dealer, kind, declarer, level in stray:
        yield {"dealer": dealer, "kind": kind, "declarer": declarer, "level": level, "calls": {}}


def query(choice: dict) -> QueryDict:
    data = QueryDict(mutable=True)
    data["rotation_dealer"] = str(ROTATION)
    for name in ("dealer", "kind", "declarer", "level"):
        if choice[name] is not None:
            data[name] = choice[name]
    for seat, call in choice["calls"].items():
        data[f"call_{seat}"] = call
    return data


def new_form(rules: engine.Rules, n: int, data=None) -> DealForm:
    return DealForm(
        data, names=NAMES[n], rules=rules, rotation_dealer=ROTATION, refresh_url="/", entry=True
    )


class Shapes:
    """DealForm._shape() for many requests. Building a form takes 1.5 ms, so one form reads
    each request in turn, with the initial values a new form has when it computes its shape
    (before it adds the calls' defaults)."""

    def __init__(self, rules: engine.Rules, n: int) -> None:
        self.form = new_form(rules, n, QueryDict())
        self.initial = {k: v for k, v in self.form.initial.items() if not k.startswith("call_")}

    def __call__(self, data: QueryDict) -> dict:
        self.form.data, self.form.initial = data, dict(self.initial)
        return self.form._shape()


def as_device(shape: dict) -> list:
    return [shape[key] for key in KEYS.values()]


def device_shapes(cases: list) -> dict:
    result = subprocess.run(
        [node(), "-e", RUNNER, str(SCRIPT)],
        input=json.dumps({"cases": cases, "keys": list(KEYS)}),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_device_shapes_the_form_as_the_server_for_every_choice():
    cases, expected = [], []
    for (label, rules), n in itertools.product(RULE_SETS.items(), (3, 4)):
        shapes = Shapes(rules, n)
        device_rules = shapes.form.device_rules()
        for i, choice in enumerate(choices(n)):
            data = query(choice)
            server = shapes(data)
            if i % 499 == 0:  # now and then, a new form of its own says the same
                assert new_form(rules, n, data).shape == server
            cases.append([device_rules, {**choice, "rotation": str(ROTATION)}])
            expected.append((label, n, choice, as_device(server)))

    shapes = device_shapes(cases)["shapes"]

    assert len(shapes) == len(expected) > 150_000  # every combination, not a sample
    wrong = [
        (
            label,
            n,
            choice,
            dict(zip(KEYS, server, strict=True)),
            dict(zip(KEYS, device, strict=True)),
        )
        for (label, n, choice, server), device in zip(expected, shapes, strict=True)
        if device != server
    ]
    assert wrong[:3] == []


def test_the_device_spells_the_games_words_as_the_engine():
    words = device_shapes([])["words"]

    assert words["KINDS"] == list(engine.KINDS)
    assert [words["GAME"], words["MISERE"], words["RASPASY"]] == list(engine.KINDS)
    assert [words["WHIST"], words["PASS"], words["HALF"]] == list(engine.CALLS)
    assert words["SPADES"] == engine.SPADES
    assert words["LEVELS"] == list(engine.LEVELS)


@pytest.mark.parametrize(
    ("label", "n", "expected"),
    [
        ("sochi", 4, {"players": 4, "halfWhistLevels": [6, 7], "raspasyInWhists": False}),
        ("leningrad", 3, {"players": 3, "quickTricks": False}),
        ("half-whist at six only", 3, {"halfWhistLevels": [6], "quickTricks": True}),
        ("rostov", 4, {"raspasyInWhists": True}),
    ],
)
def test_the_device_reads_the_rules_that_change_the_form(label, n, expected):
    rules = DealForm(
        names=NAMES[n], rules=RULE_SETS[label], rotation_dealer=0, refresh_url="/"
    ).device_rules()

    assert {key: rules[key] for key in expected} == expected
