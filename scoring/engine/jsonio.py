"""The pulka/1 and pulka-sheet/1 JSON formats (spec/pulka-json.md; rules/sochi.md §17.15–17).

Reading is strict (§17.17): unknown keys anywhere, a key that does not belong to the deal's
kind, a boolean where a number is expected (or the reverse) are errors, reported as a
:class:`~scoring.engine.errors.PulkaError` naming the deal. The rules object is echoed with
every key resolved (§17.16). Scores are JSON integers when whole, else ``"p/q"`` strings.
No option changes the format; ``rules`` options are read by
:func:`~scoring.engine.rules.rules_from_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .compute import check_players, compute_sheet
from .deal import Deal
from .errors import PulkaError
from .rules import Rules, rules_from_dict, rules_to_dict
from .sheet import Sheet
from .words import GAME, KINDS, MISERE, RASPASY

__all__ = [
    "Pulka",
    "deal_from_dict",
    "deal_to_dict",
    "format_score",
    "parse_pulka",
    "pulka_to_dict",
    "score_pulka",
    "sheet_to_dict",
]

_TOP_KEYS = ("format", "players", "first_dealer", "rules", "deals")
_DEAL_KEYS: dict[str, tuple[str, ...]] = {
    GAME: ("kind", "declarer", "contract", "calls", "tricks", "talon", "quick_tricks", "dealer"),
    MISERE: ("kind", "declarer", "tricks", "dealer"),
    RASPASY: ("kind", "tricks", "dealer"),
}
_REQUIRED: dict[str, tuple[str, ...]] = {
    GAME: ("declarer", "contract", "calls"),
    MISERE: ("declarer", "tricks"),
    RASPASY: ("tricks",),
}
_ALL_DEAL_KEYS = frozenset(k for keys in _DEAL_KEYS.values() for k in keys)


@dataclass(frozen=True, slots=True)
class Pulka:
    """A parsed pulka/1 document: seats, first dealer (resolved), rules and deals.

    Example::

        >>> p = parse_pulka({"format": "pulka/1", "players": ["A", "B", "C"], "deals": []})
        >>> p.players, p.first_dealer, p.rules.pool_target, p.deals
        (('A', 'B', 'C'), 'A', 20, ())
    """

    players: tuple[str, ...]
    first_dealer: str
    rules: Rules
    deals: tuple[Deal, ...]


def format_score(x: int | Fraction) -> int | str:
    """A score as in the JSON: an int when whole, else ``"p/q"`` in lowest terms.

    Example::

        >>> format_score(8), format_score(Fraction(-268, 3)), format_score(Fraction(6, 2))
        (8, '-268/3', 3)
    """
    if type(x) is int:
        return x
    if x.denominator == 1:
        return int(x.numerator)
    return f"{x.numerator}/{x.denominator}"


def deal_from_dict(data: Any, number: int) -> Deal:
    """One pulka/1 deal object as a :class:`Deal`; checks its shape and types (§17.17).

    Whether it fits the table (players, calls, tricks summing to 10 ...) is checked by
    :func:`~scoring.engine.compute.compute_sheet`.

    Example::

        >>> deal_from_dict({"kind": "misere", "declarer": "Vera", "tricks": {"Vera": 0}}, 3)
        Deal(kind='misere', declarer='Vera', contract=None, calls=None, tricks={'Vera': 0}, \
talon=None, quick_tricks=None, dealer=None)
        >>> deal_from_dict({"kind": "misere", "declarer": "Vera", "contract": "6S"}, 3)
        Traceback (most recent call last):
        ...
        scoring.engine.errors.PulkaError: deal 3: 'contract' does not belong to a misère deal
    """
    if not isinstance(data, Mapping):
        raise PulkaError("deal_not_object", number)
    if "kind" not in data:
        raise PulkaError("kind_missing", number)
    kind = data["kind"]
    if type(kind) is not str or kind not in KINDS:
        raise PulkaError("kind", number, value=kind)
    allowed = _DEAL_KEYS[kind]
    for key in data:
        if key not in _ALL_DEAL_KEYS:
            raise PulkaError("unknown_key", number, key=key)
        if key not in allowed:
            raise PulkaError("key_not_in_kind", number, key=key, kind=kind)
    for key in _REQUIRED[kind]:
        if key not in data:
            raise PulkaError("key_required", number, key=key, kind=kind)

    def name(key: str) -> str | None:
        value = data.get(key)
        if key in data and (type(value) is not str or not value):
            raise PulkaError("name_type", number, key=key, value=value)
        return value

    declarer, dealer = name("declarer"), name("dealer")
    contract = data.get("contract")
    if "contract" in data and type(contract) is not str:
        raise PulkaError("contract_type", number, value=contract)
    calls = data.get("calls")
    if calls is not None or "calls" in data:
        if not isinstance(calls, Mapping) or any(
            type(v) is not str or type(k) is not str for k, v in calls.items()
        ):
            raise PulkaError("calls_type", number)
        calls = dict(calls)
    tricks = data.get("tricks")
    if tricks is not None or "tricks" in data:
        if not isinstance(tricks, Mapping):
            raise PulkaError("tricks_type", number)
        for who, t in tricks.items():
            if type(t) is not int:
                raise PulkaError("tricks_range", number, player=who, value=t)
        tricks = dict(tricks)
    talon = data.get("talon")
    if talon is not None or "talon" in data:
        if not isinstance(talon, (list, tuple)) or len(talon) != 2:
            raise PulkaError("talon_shape", number)
        talon = tuple(talon)
    quick = data.get("quick_tricks")
    if "quick_tricks" in data and (type(quick) is not int or not 0 <= quick <= 3):
        raise PulkaError("quick_tricks_range", number, value=quick)
    if talon is not None and quick is not None:
        raise PulkaError("talon_and_quick_tricks", number)
    return Deal(
        kind=kind,
        declarer=declarer,
        contract=contract,
        calls=calls,
        tricks=tricks,
        talon=talon,
        quick_tricks=quick,
        dealer=dealer,
    )


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    """A :class:`Deal` as a pulka/1 deal object (only the keys that are set).

    Example::

        >>> deal_to_dict(Deal("game", "B", "10S", {"C": "pass", "A": "pass"}, dealer="B"))
        {'kind': 'game', 'declarer': 'B', 'contract': '10S', 'calls': {'C': 'pass', 'A': 'pass'}, \
'dealer': 'B'}
    """
    out: dict[str, Any] = {"kind": deal.kind}
    if deal.declarer is not None:
        out["declarer"] = deal.declarer
    if deal.contract is not None:
        out["contract"] = deal.contract
    if deal.calls is not None:
        out["calls"] = dict(deal.calls)
    if deal.tricks is not None:
        out["tricks"] = dict(deal.tricks)
    if deal.talon is not None:
        out["talon"] = list(deal.talon)
    if deal.quick_tricks is not None:
        out["quick_tricks"] = deal.quick_tricks
    if deal.dealer is not None:
        out["dealer"] = deal.dealer
    return out


def parse_pulka(doc: Any) -> Pulka:
    """Read a pulka/1 document strictly (spec "Input"; §17.15–17.17).

    Example::

        >>> p = parse_pulka({"format": "pulka/1", "players": ["A", "B", "C", "D"],
        ...     "first_dealer": "D", "rules": {"pool_target": 10},
        ...     "deals": [{"kind": "raspasy", "tricks": {"A": 2, "B": 1, "C": 5, "D": 2}}]})
        >>> p.first_dealer, p.rules.pool_target, p.deals[0].kind
        ('D', 10, 'raspasy')
    """
    if not isinstance(doc, Mapping):
        raise PulkaError("pulka_not_object")
    for key in doc:
        if key not in _TOP_KEYS:
            raise PulkaError("unknown_key", key=key)
    if doc.get("format") != "pulka/1" or type(doc.get("format")) is not str:
        raise PulkaError("format")
    if "players" not in doc:
        raise PulkaError("players_missing")
    players_value = doc["players"]
    if not isinstance(players_value, (list, tuple)):
        raise PulkaError("players")
    players = check_players(players_value)
    first_dealer = players[0]
    if "first_dealer" in doc:
        first_dealer = doc["first_dealer"]
        if type(first_dealer) is not str or first_dealer not in players:
            raise PulkaError("first_dealer_unknown", value=first_dealer)
    if "rules" in doc and not isinstance(doc["rules"], Mapping):
        raise PulkaError("rules_not_object")
    rules = rules_from_dict(doc.get("rules", {}))
    if "deals" not in doc:
        raise PulkaError("deals_missing")
    deals_value = doc["deals"]
    if not isinstance(deals_value, (list, tuple)):
        raise PulkaError("deals_not_list")
    deals = tuple(deal_from_dict(d, i) for i, d in enumerate(deals_value, 1))
    return Pulka(players=players, first_dealer=first_dealer, rules=rules, deals=deals)


def pulka_to_dict(pulka: Pulka) -> dict[str, Any]:
    """A :class:`Pulka` as a pulka/1 document, every rules key resolved (round-trip stable).

    Example::

        >>> doc = {"format": "pulka/1", "players": ["A", "B", "C"], "deals": []}
        >>> again = pulka_to_dict(parse_pulka(doc))
        >>> again["first_dealer"], again["rules"]["pool_target"]
        ('A', 20)
        >>> parse_pulka(again) == parse_pulka(doc)
        True
    """
    return {
        "format": "pulka/1",
        "players": list(pulka.players),
        "first_dealer": pulka.first_dealer,
        "rules": rules_to_dict(pulka.rules),
        "deals": [deal_to_dict(d) for d in pulka.deals],
    }


def score_pulka(doc: Any) -> Sheet:
    """Parse a pulka/1 document and compute its sheet (:func:`parse_pulka` +
    :func:`~scoring.engine.compute.compute_sheet`).

    Example (G5 in short: A's misère made, B's failed with 3 tricks)::

        >>> sheet = score_pulka({"format": "pulka/1", "players": ["A", "B", "C"],
        ...     "rules": {"pool_target": 10}, "deals": [
        ...     {"kind": "misere", "declarer": "A", "tricks": {"A": 0}},
        ...     {"kind": "misere", "declarer": "B", "tricks": {"B": 3}}]})
        >>> sheet.pool, sheet.mountain
        ({'A': 10, 'B': 0, 'C': 0}, {'A': 0, 'B': 30, 'C': 0})
    """
    pulka = parse_pulka(doc)
    return compute_sheet(pulka.rules, pulka.players, pulka.deals, pulka.first_dealer)


def sheet_to_dict(sheet: Sheet, *, entries: bool = False) -> dict[str, Any]:
    """A :class:`Sheet` as a pulka-sheet/1 document (spec "Output").

    With ``entries=True`` every deal also carries ``"entries"``, what it wrote in words.

    Example::

        >>> from scoring.engine import Deal, Rules, compute_sheet
        >>> sheet = compute_sheet(Rules(pool_target=10), ["A", "B", "C"],
        ...                       [Deal("misere", "B", tricks={"B": 3})])
        >>> out = sheet_to_dict(sheet, entries=True)
        >>> out["mountain"], out["result"], out["deals"][0]["entries"]
        ({'A': 0, 'B': 30, 'C': 0}, {'A': 100, 'B': -200, 'C': 100}, \
['B: 30 into the mountain (misère, 3 tricks taken)'])
    """
    f = format_score
    players = sheet.players

    def scores(values: Mapping[str, int | Fraction]) -> dict[str, int | str]:
        return {p: f(values[p]) for p in players}

    def table(w: Mapping[str, Mapping[str, int | Fraction]]) -> dict[str, dict[str, int | str]]:
        return {x: {y: f(w[x][y]) for y in players if y != x} for x in players}

    deals = []
    for snap in sheet.snapshots:
        item: dict[str, Any] = {
            "number": snap.number,
            "dealer": snap.dealer,
            "pool": scores(snap.pool),
            "mountain": scores(snap.mountain),
            "whists": table(snap.whists),
        }
        if entries:
            item["entries"] = [str(e) for e in snap.entries]
        deals.append(item)
    return {
        "format": "pulka-sheet/1",
        "players": list(players),
        "rules": rules_to_dict(sheet.rules),
        "pool": scores(sheet.pool),
        "mountain": scores(sheet.mountain),
        "whists": table(sheet.whists),
        "closed": sheet.closed,
        "result": scores(sheet.result),
        "result_rounded": dict(sheet.result_rounded),
        "deals": deals,
    }
