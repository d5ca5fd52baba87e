"""Plain factory functions for the engine tests (no database, no Django)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.engine import Deal, Entry, Rules, Sheet, compute_sheet

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
