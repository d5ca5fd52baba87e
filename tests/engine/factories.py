"""Plain factory functions for the engine tests (no database, no Django): deals and sheets,
the golden cases (tests/data/cases), a long pulka, and hypothesis' random valid pulkas."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scoring import engine
from scoring.engine import (
    HALF_WHIST_LEVELS,
    OPTION_CHOICES,
    POOL_POINT_VALUES,
    PRESETS,
    Deal,
    Entry,
    PulkaError,
    Rules,
    Sheet,
    compute_sheet,
    rules_from_dict,
    rules_to_dict,
)

ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")


def make_game(
    declarer: str,
    contract: str,
    calls: dict[str, str],
    tricks: dict[str, int] | None = None,
    **overrides: Any,
) -> Deal:
    """A trick contract; ``calls`` in speaking order, ``tricks`` only when played."""
    return Deal("game", declarer, contract, calls, tricks, **overrides)


def make_no_play(declarer: str, contract: str, players: Sequence[str] = ABC, **overrides) -> Deal:
    """A game both defenders passed (§2.3), 3 players or with ``dealer`` for 4."""
    dealer = overrides.get("dealer")
    calls = {p: "pass" for p in players if p != declarer and p != dealer}
    return Deal("game", declarer, contract, calls, **overrides)


def make_misere(declarer: str, taken: int = 0, **overrides: Any) -> Deal:
    return Deal("misere", declarer, tricks={declarer: taken}, **overrides)


def make_raspasy(tricks: dict[str, int], **overrides: Any) -> Deal:
    return Deal("raspasy", tricks=tricks, **overrides)


def play(
    deals: Sequence[Deal],
    players: Sequence[str] = ABC,
    first_dealer: str | None = None,
    **rules: Any,
) -> Sheet:
    """Score ``deals``; ``rules`` are Rules keywords (pool_target defaults to 10 here)."""
    rules.setdefault("pool_target", 10)
    return compute_sheet(Rules(**rules), players, deals, first_dealer)


def entries(sheet: Sheet, number: int = 1) -> list[Entry]:
    return list(sheet.snapshots[number - 1].entries)


def texts(sheet: Sheet, number: int = 1) -> list[str]:
    return [str(e) for e in sheet.snapshots[number - 1].entries]


def on(sheet: Sheet, writer: str, target: str) -> int:
    """Whists ``writer`` has written on ``target``."""
    return sheet.whists[writer][target]


# --- the golden cases (rules/sochi.md §15, spec/pulka-json.md) ---------------------------------

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"

GOOD = sorted(
    p
    for p in [
        *CASES.glob("G*.json"),
        *(CASES / "options").glob("*.json"),
        *(CASES / "presets").glob("*.json"),
    ]
    if not p.name.endswith(".expected.json")
)
BAD = sorted((CASES / "bad").glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def expected_of(path: Path) -> dict:
    return load(path.with_name(path.name.removesuffix(".json") + ".expected.json"))


def error_of(path: Path) -> str:
    """The message a bad case is refused with (its .error.txt)."""
    return path.with_suffix(".error.txt").read_text(encoding="utf-8").strip()


# --- a long pulka --------------------------------------------------------------------------------


def long_pulka(
    n: int = 3, deals: int = 100, target: int = 100, rules: engine.Rules | None = None
) -> engine.Sheet:
    """A long evening: raspasy, made and set games, misères, in turn round the table."""
    players = ["Anna", "Boris", "Vera", "Grigory"][:n]
    written = []
    for i in range(deals):
        dealer = players[i % n]
        active = [p for p in players if not (n == 4 and p == dealer)]
        declarer = active[(i // 5 + i) % 3]
        defenders = engine.defenders_in_order(players, declarer, dealer)
        first, second = defenders
        kind = i % 5
        if kind == 0:
            counts = [(4, 0, 6), (2, 3, 5), (0, 1, 9), (3, 3, 4)][(i // 5) % 4]
            tricks = dict(zip(active, counts, strict=True))
            if n == 4:
                tricks[dealer] = 0
            written.append(engine.Deal("raspasy", tricks=tricks))
        elif kind == 1:
            written.append(
                engine.Deal(
                    "game",
                    declarer,
                    "7H",
                    {first: "whist", second: "whist"},
                    {declarer: 7, first: 2, second: 1},
                )
            )
        elif kind == 2:
            written.append(
                engine.Deal(
                    "game",
                    declarer,
                    "8S",
                    {first: "whist", second: "pass"},
                    {declarer: 6, first: 3, second: 1},
                )
            )
        elif kind == 3:
            written.append(engine.Deal("game", declarer, "6S", {first: "pass", second: "pass"}))
        else:
            written.append(engine.Deal("misere", declarer, tricks={declarer: i % 2}))
    return engine.compute_sheet(rules or engine.Rules(pool_target=target), players, written)


# --- random valid pulkas (hypothesis) ------------------------------------------------------------

CARDS = [r + s for r in ("A", "K", "Q", "J", "10", "9", "8", "7") for s in "SCDH"]
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# What rules_st draws for each convention, in this order, made once (not one per draw).
RULE_CHOICES = {
    "pool_target": st.sampled_from((2, 6, 10, 20, 500)),
    "consolation": st.sampled_from(("whisters", "all_opponents")),
    "lone_whister": st.sampled_from(("greedy", "gentleman")),
    "whist_penalty": st.sampled_from(("full", "half")),
    "duty1_rule": st.sampled_from(("second", "both", "split")),
    "personal_quota": st.booleans(),
    "ten_checked": st.booleans(),
    "half_whist_levels": st.sampled_from(((6, 7), (6,), ())),
    "quick_tricks": st.booleans(),
    "raspasy_amnesty": st.booleans(),
    "raspasy_zero": st.sampled_from(("mountain", "pool")),
    "raspasy_progression": st.sampled_from(((), (1, 2, 3), (1, 2, 4), (2,))),
    "exit_only_by_made_game": st.booleans(),
    "mountain_floor_zero": st.booleans(),
    "help": st.booleans(),
    "help_exception": st.sampled_from(("write_off", "skip_to_next")),
    "help_excludes_talon_sitter": st.booleans(),
    "pool_point_value": st.sampled_from((10, 20)),
    "whister_shortfall": st.sampled_from(("pair", "own")),
    "raspasy_progression_end": st.sampled_from(("reset", "repeat_last")),
}


@st.composite
def rules_st(draw) -> Rules:
    return Rules(**{name: draw(choice) for name, choice in RULE_CHOICES.items()})


def split_draw(draw, total: int, parts: int) -> list[int]:
    out = []
    for _ in range(parts - 1):
        x = draw(st.integers(0, total))
        out.append(x)
        total -= x
    return [*out, total]


# The strategies deal_st draws from, made once (not one per draw).
KINDS = st.sampled_from(("game", "game", "game", "misere", "raspasy"))
MISERE_TRICKS = st.sampled_from((0, 0, 0, 1, 2, 4, 10))
LEVELS = st.integers(6, 10)
SUITS = st.sampled_from(("S", "C", "D", "H", "NT"))
CALLS = st.sampled_from(
    (("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass"))
)
CALLS_WITH_HALF = st.sampled_from(
    (("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass"), ("pass", "half"))
)
EXTRAS = st.sampled_from(("none", "talon", "quick"))
TALONS = st.lists(st.sampled_from(CARDS), min_size=2, max_size=2, unique=True)


def deal_st(draw, players: tuple[str, ...], dealer: str, rules: Rules, override: bool) -> Deal:
    n = len(players)
    active = [p for p in players if not (n == 4 and p == dealer)]
    kind = draw(KINDS)
    dealer_key = dealer if override else None
    if kind == "raspasy":
        # With raspasy in whists the 4-player dealer takes no trick (conventions.md §23); he
        # is listed with 0 or left out.
        in_whists = rules.raspasy_scoring == "whists"
        sitter = (0 if in_whists else draw(st.integers(0, 2))) if n == 4 else None
        counts = split_draw(draw, 10 - (sitter or 0), 3)
        tricks = dict(zip(active, counts, strict=True))
        if n == 4 and not (in_whists and draw(st.booleans())):
            tricks[dealer] = sitter
        return Deal("raspasy", tricks=tricks, dealer=dealer_key)
    declarer = draw(st.sampled_from(tuple(active)))
    if kind == "misere":
        taken = draw(MISERE_TRICKS)
        return Deal("misere", declarer, tricks={declarer: taken}, dealer=dealer_key)
    level = draw(LEVELS)
    contract = f"{level}{draw(SUITS)}"
    i = players.index(declarer)
    d1, d2 = [
        p for p in (players[(i + k) % n] for k in range(1, n)) if not (n == 4 and p == dealer)
    ]
    c1, c2 = draw(CALLS_WITH_HALF if level in rules.half_whist_levels else CALLS)
    tricks = None
    if "whist" in (c1, c2):
        td = draw(st.integers(0, 10))
        t1, t2 = split_draw(draw, 10 - td, 2)
        tricks = {declarer: td, d1: t1, d2: t2}
    talon = quick = None
    choice = draw(EXTRAS)
    if choice == "talon":
        talon = tuple(draw(TALONS))
    elif choice == "quick":
        quick = draw(st.integers(0, 3))
    return Deal("game", declarer, contract, {d1: c1, d2: c2}, tricks, talon, quick, dealer_key)


TABLE_SIZES = st.sampled_from((3, 4))
DEAL_COUNTS = st.integers(0, 20)
ONE_IN_TEN = st.integers(0, 9)


@st.composite
def pulkas(draw, rules: st.SearchStrategy[Rules] | None = None):
    """(rules, players, first_dealer, deals): valid, cut after the deal that closed it."""
    n = draw(TABLE_SIZES)
    players = ("Anna", "Boris", "Vera", "Gleb")[:n]
    the_rules = draw(rules if rules is not None else rules_st())
    first = draw(st.sampled_from(players))
    seat = players.index(first)
    deals = []
    for _ in range(draw(DEAL_COUNTS)):
        override = draw(ONE_IN_TEN) == 0
        if override:
            seat = draw(st.integers(0, n - 1))
        deals.append(deal_st(draw, players, players[seat], the_rules, override))
        seat = (seat + 1) % n
    try:
        compute_sheet(the_rules, players, deals, first)
    except PulkaError as exc:  # only a deal after the closing one can be wrong
        if "the pulka is closed" not in exc.problem:
            raise
        deals = deals[: exc.deal_number - 1]
    return the_rules, players, first, deals


def score(pulka) -> Sheet:
    rules, players, first, deals = pulka
    return compute_sheet(rules, players, deals, first)


# --- random valid pulkas under every preset and mix of options ------------------------------------

# Half the examples of the Sochi properties: these run ten properties over a far larger space.
CONVENTIONS_SETTINGS = settings(SETTINGS, max_examples=100)


def attempt(rules: Rules, players, deals, first) -> Sheet | PulkaError:
    """The sheet, or the error of a deal list that may go past the end of the pulka."""
    try:
        return compute_sheet(rules, players, deals, first)
    except PulkaError as exc:
        return exc


#: A strategy for every key of the rules object that a document may set beside a preset.
KEY_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "pool_target": st.sampled_from((2, 6, 10, 20, 500)),
    **{key: st.sampled_from(values) for key, values in OPTION_CHOICES.items()},
    **{
        key: st.booleans()
        for key in (
            "personal_quota",
            "ten_checked",
            "quick_tricks",
            "raspasy_amnesty",
            "exit_only_by_made_game",
            "mountain_floor_zero",
            "help",
            "help_excludes_talon_sitter",
            "exit_by_unplayed_game",
            "exit_by_misere",
        )
    },
    "half_whist_levels": st.sampled_from([list(x) for x in HALF_WHIST_LEVELS]),
    "raspasy_progression": st.sampled_from(([], [1, 2, 3], [2, 4, 6], [1, 2, 4], [2])),
    "pool_point_value": st.sampled_from(POOL_POINT_VALUES),
    "game_price_multiplier": st.sampled_from((1, 2)),
    "raspasy_whist_rate": st.sampled_from((1, 5, 10, 100)),
}
assert set(KEY_VALUES) | {"preset"} == set(rules_to_dict(Rules()))


PRESET_OR_NONE = st.sampled_from((None, *PRESETS))
SOME_KEYS = st.sets(st.sampled_from(sorted(KEY_VALUES)), max_size=8)


@st.composite
def rules_dicts(draw) -> dict[str, Any]:
    """A pulka/1 ``rules`` object: a preset (or none) and a random few keys beside it."""
    out: dict[str, Any] = {}
    preset = draw(PRESET_OR_NONE)
    if preset is not None:
        out["preset"] = preset
    for key in draw(SOME_KEYS):
        out[key] = draw(KEY_VALUES[key])
    out.setdefault("pool_target", draw(KEY_VALUES["pool_target"]))
    return out


def any_rules() -> st.SearchStrategy[Rules]:
    return rules_dicts().map(rules_from_dict)


def preset_rules_st(preset: str, **fixed: Any) -> st.SearchStrategy[Rules]:
    return rules_dicts().map(lambda d: rules_from_dict({**d, "preset": preset, **fixed}))
