"""The scoring tests' plain factories: the form data and the deals they send, pulkas played
through the services (fixtures over them are in conftest.py)."""

from __future__ import annotations

import uuid

from club.models import Player
from scoring import engine, services
from scoring.models import Deal, DealRevision, Evening, Pulka, PulkaResultCache, Seat
from tests.conftest import make_pulka, record


def entry(number: int = 1) -> dict:
    """The hidden fields of a new-deal form rendered for deal `number`: a new one-time key."""
    return {"number": str(number), "entry_key": str(uuid.uuid4())}


def deal_post(**fields) -> dict:
    """Form data for the deal-entry form: a six by Boris (seat 1), Vera whists, Anna passes.

    As the form of deal 1 (`number=` for another) with a new one-time key each call.
    """
    data = {
        **entry(),
        "kind": "game",
        "declarer": "1",
        "level": "6",
        "suit": "S",
        "call_2": "whist",
        "call_0": "pass",
        "tricks_1": "6",
        "tricks_2": "3",
        "tricks_0": "1",
        "quick_tricks": "0",
        "dealer": "0",
        "rotation_dealer": "0",
    }
    data.update({k: str(v) for k, v in fields.items()})
    return {k: v for k, v in data.items() if v != "None"}


SIX_BY_BORIS = {
    "kind": "game",
    "declarer": "Boris",
    "contract": "6S",
    "calls": {"Vera": "whist", "Anna": "pass"},
    "tricks": {"Boris": 6, "Vera": 3, "Anna": 1},
}


def no_play(declarer: str, *defenders: str) -> dict:
    """A six that both defenders passed: 2 into the declarer's pool, no play."""
    return {
        "kind": "game",
        "declarer": declarer,
        "contract": "6S",
        "calls": dict.fromkeys(defenders, "pass"),
    }


# Boris, Vera and Anna each write a no-play six, in the order they declare when Anna deals.
PASS_OUT_ROUND = (
    no_play("Boris", "Vera", "Anna"),
    no_play("Vera", "Anna", "Boris"),
    no_play("Anna", "Boris", "Vera"),
)


def six(declarer: str, whister: str, passer: str, tricks: int = 6) -> dict:
    """A six in spades: the whister takes 3 tricks, the passer the rest."""
    return {
        "kind": "game",
        "declarer": declarer,
        "contract": "6S",
        "calls": {whister: "whist", passer: "pass"},
        "tricks": {declarer: tricks, whister: 3, passer: 10 - tricks - 3},
    }


def ended_early(evening: Evening, *deals: dict, names=("Anna", "Boris", "Vera")) -> Pulka:
    """A pulka of `deals` (default: a six made by Boris), ended early: it is rated."""
    pulka = make_pulka(evening, names=names)
    record(pulka, *(deals or (six("Boris", "Vera", "Anna"),)))
    services.pulka_finish(pulka=pulka, finished_by=None)
    return pulka


def play_finished(evening: Evening, names=("Anna", "Boris", "Vera")) -> Pulka:
    """A pulka to 2 played out through the services: names[2] +8 (1st), names[0] 0 (2nd),
    names[1] −8 (3rd); names[2] won the 8 whists from names[1]."""
    anna, boris, vera = names
    pulka = make_pulka(evening, names=names, rules={"pool_target": 2})
    record(pulka, six(boris, vera, anna), no_play(vera, anna, boris), no_play(anna, boris, vera))
    return pulka


def stored_rows() -> dict[str, int]:
    """How many rows an import can write, to show that a refused file wrote none."""
    models = (Pulka, Seat, Deal, DealRevision, Player, PulkaResultCache)
    return {model.__name__: model.objects.count() for model in models}


def assert_unchanged(response) -> None:
    """A poll that finds nothing new: 204 and no body, so htmx swaps nothing."""
    assert response.status_code == 204
    assert response.content == b""


def dealt(document: dict) -> list[dict]:
    """The deals of a pulka/1 document as an export writes them: each with its dealer (the
    rotation's where the document leaves it out)."""
    parsed = engine.parse_pulka(document)
    sheet = engine.compute_sheet(
        parsed.rules, parsed.players, parsed.deals, first_dealer=parsed.first_dealer
    )
    return [
        {**deal, "dealer": snapshot.dealer}
        for deal, snapshot in zip(document["deals"], sheet.snapshots, strict=True)
    ]
