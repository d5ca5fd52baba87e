import uuid

import pytest

from tests.conftest import make_evening, make_pulka, record


@pytest.fixture
def evening_a(club_a):
    return make_evening(club_a)


@pytest.fixture
def pulka(evening_a):
    """A running 3-player pulka to 10 in club A: Anna, Boris, Vera; Anna deals first."""
    return make_pulka(evening_a)


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


@pytest.fixture
def closed_pulka(evening_a):
    """A pulka to 2 whose three no-play sixes closed every pool: finished by itself."""
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND)
    pulka.refresh_from_db()
    return pulka
