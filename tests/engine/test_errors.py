"""Every engine error carries a code and params (rules §17.17): one representative case per code."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from scoring.engine import (
    MESSAGES,
    Deal,
    PulkaError,
    Rules,
    compute_sheet,
    contract_level,
    deal_from_dict,
    defenders_in_order,
    parse_pulka,
    quick_tricks_of_talon,
    rules_from_dict,
)
from scoring.engine.errors import english

AVB = ["Anna", "Boris", "Vera"]
AVBG = ["Anna", "Boris", "Vera", "Gleb"]
PLAYED = {"Anna": 6, "Boris": 2, "Vera": 2}
BOTH = {"Boris": "whist", "Vera": "whist"}
NO_PLAY = Deal("game", "Anna", "6S", {"Boris": "pass", "Vera": "pass"})
# Each of the three writes a six without play: every pool reaches 2.
CLOSING = [Deal("game", p, "6S", {q: "pass" for q in AVB if q != p}) for p in AVB]


def doc(**top: Any) -> dict:
    return {"format": "pulka/1", "players": AVB, "deals": [], **top}


def sheet(*deals: Deal, players=AVB, rules: Rules | None = None, first_dealer=None):
    return lambda: compute_sheet(rules or Rules(), players, list(deals), first_dealer)


def game(**fields: Any) -> Deal:
    base = {"kind": "game", "declarer": "Anna", "contract": "6S", "calls": BOTH}
    return Deal(**{**base, **fields})


# (code, the call that fails, deal number, params)
CASES = [
    ("pulka_not_object", lambda: parse_pulka([]), None, {}),
    ("unknown_key", lambda: parse_pulka(doc(colour="red")), None, {"key": "colour"}),
    ("format", lambda: parse_pulka(doc(format="pulka/2")), None, {}),
    ("players_missing", lambda: parse_pulka({"format": "pulka/1", "deals": []}), None, {}),
    ("players", sheet(players=["Anna", "Boris"]), None, {}),
    ("first_dealer_unknown", sheet(first_dealer="Zed"), None, {"value": "Zed"}),
    ("deals_missing", lambda: parse_pulka({"format": "pulka/1", "players": AVB}), None, {}),
    ("deals_not_list", lambda: parse_pulka(doc(deals={})), None, {}),
    ("rules_not_object", lambda: rules_from_dict([]), None, {}),
    ("rules_not_rules", lambda: compute_sheet({}, AVB, []), None, {}),
    ("rules_unknown_key", lambda: rules_from_dict({"pool_targt": 1}), None, {"key": "pool_targt"}),
    ("rules_pool_target", lambda: Rules(pool_target=0), None, {}),
    (
        "rules_choice",
        lambda: Rules(whist_penalty="quarter"),
        None,
        {"key": "whist_penalty", "allowed": ("full", "half")},
    ),
    ("rules_boolean", lambda: Rules(help=1), None, {"key": "help"}),
    ("rules_half_whist_levels", lambda: Rules(half_whist_levels=[7]), None, {}),
    ("rules_raspasy_progression", lambda: Rules(raspasy_progression=[1, 0]), None, {}),
    ("rules_pool_point_value", lambda: Rules(pool_point_value=15), None, {}),
    ("rules_pool_target_max", lambda: Rules(pool_target=1001), None, {"high": 1000}),
    (
        "rules_raspasy_step_max",
        lambda: rules_from_dict({"raspasy_progression": [1, 10**30]}),
        None,
        {"high": 100},
    ),
    (
        "rules_raspasy_steps_max",
        lambda: Rules(raspasy_progression=[1] * 11),
        None,
        {"high": 10},
    ),
    ("rules_preset", lambda: rules_from_dict({"preset": "moscow"}), None,
     {"value": "moscow", "allowed": ("sochi", "leningrad", "rostov")}),
    ("rules_game_price_multiplier", lambda: Rules(game_price_multiplier=3), None, {}),
    ("rules_raspasy_whist_rate", lambda: Rules(raspasy_whist_rate=0), None, {}),
    ("rules_raspasy_whist_rate_max", lambda: Rules(raspasy_whist_rate=101), None, {"high": 100}),
    ("deal_not_object", lambda: deal_from_dict("6S", 2), 2, {}),
    ("kind_missing", lambda: deal_from_dict({}, 1), 1, {}),
    ("kind", sheet(Deal("bridge")), 1, {"value": "bridge"}),
    ("key_not_in_kind", lambda: deal_from_dict({"kind": "raspasy", "contract": "6S"}, 1), 1,
     {"key": "contract", "kind": "raspasy"}),
    ("key_required", lambda: deal_from_dict({"kind": "misere", "declarer": "A"}, 1), 1,
     {"key": "tricks", "kind": "misere"}),
    ("deal_has_no", sheet(Deal("misere", "Anna", "6S", tricks={"Anna": 0})), 1,
     {"kind": "misere", "key": "contract"}),
    ("name_type", lambda: deal_from_dict({"kind": "raspasy", "tricks": {}, "dealer": ""}, 1), 1,
     {"key": "dealer", "value": ""}),
    ("declarer_missing", sheet(game(declarer=None)), 1, {}),
    ("declarer_unknown", sheet(game(declarer="Zed")), 1, {"player": "Zed"}),
    ("dealer_unknown", sheet(Deal("raspasy", dealer="Zed")), 1, {"player": "Zed"}),
    ("talon_sitter_declares", sheet(NO_PLAY, players=AVBG), 1, {"player": "Anna"}),
    ("closed", sheet(*CLOSING, NO_PLAY, rules=Rules(pool_target=2)), 4, {"target": 2}),
    ("closed_sum", sheet(*CLOSING, NO_PLAY, rules=Rules(pool_target=2, pool_end="sum")), 4,
     {"total": 6, "needed": 6, "target": 2}),
    ("contract_missing", sheet(game(contract=None)), 1, {}),
    ("contract_type", sheet(game(contract=7)), 1, {"value": 7}),
    ("contract_no_level", sheet(game(contract="NT")), 1, {"contract": "NT"}),
    ("contract_level", lambda: contract_level("11S"), None, {"contract": "11S"}),
    ("contract_suit", sheet(game(contract="7X")), 1, {"contract": "7X"}),
    ("calls_missing", sheet(game(calls=None)), 1, {"first": "Boris", "second": "Vera"}),
    ("calls_type", sheet(game(calls=["whist"])), 1, {}),
    ("call_by_declarer", sheet(game(calls={**BOTH, "Anna": "pass"})), 1, {"player": "Anna"}),
    (
        "call_by_talon_sitter",
        sheet(game(declarer="Boris", calls={"Vera": "pass", "Gleb": "pass", "Anna": "pass"}),
              players=AVBG),
        1,
        {"player": "Anna"},
    ),
    ("call_unknown_player", sheet(game(calls={"Boris": "whist", "Zed": "pass"})), 1,
     {"player": "Zed"}),
    ("call_missing", sheet(game(calls={"Boris": "whist"})), 1, {"player": "Vera"}),
    ("call_value", sheet(game(calls={"Boris": "whist", "Vera": "vist"})), 1,
     {"player": "Vera", "value": "vist"}),
    ("half_twice", sheet(game(calls={"Boris": "half", "Vera": "half"})), 1,
     {"first": "Boris", "second": "Vera"}),
    ("half_by_first", sheet(game(calls={"Boris": "half", "Vera": "pass"})), 1,
     {"first": "Boris", "second": "Vera"}),
    ("half_after_whist", sheet(game(calls={"Boris": "whist", "Vera": "half"})), 1,
     {"first": "Boris", "second": "Vera"}),
    ("half_not_allowed", sheet(game(calls={"Boris": "pass", "Vera": "half"}),
                               rules=Rules(half_whist_levels=())), 1, {}),
    ("half_level", sheet(game(contract="7S", calls={"Boris": "pass", "Vera": "half"}),
                         rules=Rules(half_whist_levels=(6,))), 1, {"level": 6}),
    ("half_levels", sheet(game(contract="8S", calls={"Boris": "pass", "Vera": "half"})), 1,
     {"levels": (6, 7)}),
    ("tricks_type", sheet(game(tricks=[6, 2, 2])), 1, {}),
    ("tricks_missing_played", sheet(game()), 1, {"player": "Boris"}),
    ("tricks_unplayed", sheet(Deal("game", "Anna", "6S", {"Boris": "pass", "Vera": "pass"},
                                   PLAYED)), 1, {}),
    (
        "tricks_talon_sitter",
        sheet(game(declarer="Boris", calls={"Vera": "whist", "Gleb": "pass"},
                   tricks={"Boris": 6, "Vera": 2, "Gleb": 1, "Anna": 1}), players=AVBG),
        1,
        {"player": "Anna"},
    ),
    ("tricks_unknown_player", sheet(game(tricks={"Anna": 6, "Boris": 2, "Zed": 2})), 1,
     {"player": "Zed"}),
    ("tricks_missing", sheet(game(tricks={"Anna": 8, "Boris": 2})), 1, {"player": "Vera"}),
    ("tricks_range", sheet(game(tricks={"Anna": 6, "Boris": -1, "Vera": 5})), 1,
     {"player": "Boris", "value": -1}),
    ("tricks_sum", sheet(game(tricks={"Anna": 9, "Boris": 9, "Vera": 0})), 1,
     {"players": ("Anna", "Boris", "Vera"), "tricks": (9, 9, 0), "total": 18, "expected": 10}),
    ("raspasy_talon_sitter_tricks",
     sheet(Deal("raspasy", tricks={"Anna": 3, "Boris": 3, "Vera": 4, "Gleb": 0}), players=AVBG),
     1, {"player": "Anna", "taken": 3}),
    ("raspasy_whists_dealer_tricks",
     sheet(Deal("raspasy", tricks={"Anna": 1, "Boris": 3, "Vera": 4, "Gleb": 2}), players=AVBG,
           rules=Rules(raspasy_scoring="whists")),
     1, {"player": "Anna", "taken": 1}),
    ("misere_tricks_missing", sheet(Deal("misere", "Anna")), 1, {"player": "Anna"}),
    ("misere_tricks_other", sheet(Deal("misere", "Anna", tricks={"Anna": 0, "Boris": 5})), 1,
     {"declarer": "Anna", "player": "Boris"}),
    ("talon_and_quick_tricks", sheet(game(tricks=PLAYED, talon=("AS", "KS"), quick_tricks=2)),
     1, {}),
    ("talon_shape", lambda: quick_tricks_of_talon(("AS",)), None, {}),
    ("talon_card", sheet(game(tricks=PLAYED, talon=("AS", "1S"))), 1, {"card": "1S"}),
    ("talon_twice", sheet(game(tricks=PLAYED, talon=("AS", "AS"))), 1, {"card": "AS"}),
    ("quick_tricks_range", sheet(game(tricks=PLAYED, quick_tricks=4)), 1, {"value": 4}),
]  # fmt: skip


def test_every_code_of_the_table_has_a_case():
    assert sorted(code for code, *_ in CASES) == sorted(MESSAGES)


@pytest.mark.parametrize(("code", "call", "number", "params"), CASES, ids=[c[0] for c in CASES])
def test_each_problem_is_raised_with_its_code_and_params(code, call, number, params):
    with pytest.raises(PulkaError) as caught:
        call()
    error = caught.value
    assert (error.code, error.deal_number, error.params) == (code, number, params)
    assert error.problem == english(code, params)
    assert "%(" not in error.problem
    prefix = "" if number is None else f"deal {number}: "
    assert str(error) == prefix + error.problem


def test_nine_and_nine_tricks_say_the_sum_not_which_count_is_missing():
    deal = game(tricks={"Anna": 9, "Boris": 9, "Vera": 0})
    with pytest.raises(PulkaError) as caught:
        compute_sheet(Rules(), AVB, [NO_PLAY, deal])
    assert str(caught.value) == "deal 2: 9 + 9 + 0 = 18 tricks, a deal has 10"


def test_an_unknown_code_is_a_programming_error():
    with pytest.raises(KeyError):
        PulkaError("no_such_problem")


def test_a_pickled_error_keeps_its_code_params_and_deal():
    error = PulkaError("tricks_sum", 3, tricks=(9, 9), total=18, expected=10)
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.params, again.deal_number, str(again)) == (
        error.code,
        error.params,
        error.deal_number,
        str(error),
    )


def test_defenders_in_order_names_the_talon_sitter():
    with pytest.raises(PulkaError) as caught:
        defenders_in_order(AVBG, "Anna", "Anna")
    assert (caught.value.code, caught.value.params) == ("talon_sitter_declares", {"player": "Anna"})
