"""Strictness (§17.17, spec "Errors"): every bad input is one PulkaError naming the deal and
the problem in the rule book's words; a partial sheet is never returned."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import (
    Deal,
    PulkaError,
    Rules,
    compute_sheet,
    deal_from_dict,
    parse_pulka,
    rules_from_dict,
    score_pulka,
)

AVB = ["Anna", "Boris", "Vera"]
AVBG = ["Anna", "Boris", "Vera", "Gleb"]
NO_PLAY = {"kind": "game", "declarer": "Anna", "contract": "6S",
           "calls": {"Boris": "pass", "Vera": "pass"}}  # fmt: skip


def doc(*deals: dict, players=AVB, rules: dict | None = None, **top: Any) -> dict:
    out: dict[str, Any] = {"format": "pulka/1", "players": players, "deals": list(deals)}
    if rules is not None:
        out["rules"] = rules
    out.update(top)
    return out


def game(declarer="Anna", contract="6S", calls=None, tricks=None, **more) -> dict:
    out = {"kind": "game", "declarer": declarer, "contract": contract}
    out["calls"] = calls if calls is not None else {"Boris": "whist", "Vera": "whist"}
    if tricks is not None:
        out["tricks"] = tricks
    out.update(more)
    return out


PLAYED = {"Anna": 6, "Boris": 2, "Vera": 2}


def error_of(document: dict) -> str:
    with pytest.raises(PulkaError) as caught:
        score_pulka(document)
    return str(caught.value)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        # --- the rule book's own examples ---
        (
            doc(NO_PLAY, NO_PLAY, game(tricks={"Anna": 6, "Boris": 2, "Vera": 1})),
            "deal 3: 6 + 2 + 1 = 9 tricks, a deal has 10",
        ),
        (
            doc(NO_PLAY, game("Boris", "8D", {"Vera": "pass", "Anna": "half"})),
            "deal 2: half-whist is allowed only at levels 6, 7",
        ),
        (
            doc(
                game("Anna", "7S", {"Boris": "pass", "Vera": "half"}),
                game("Boris", "6C", {"Vera": "pass", "Anna": "half"}, PLAYED),
            ),
            "deal 2: tricks are given but the game was not played (nobody whisted)",
        ),
        (
            doc(
                *[game(p, "10S", {q: "pass" for q in AVB if q != p}) for p in AVB],
                NO_PLAY,
                rules={"pool_target": 10},
            ),
            "deal 4: the pulka is closed: every pool reached 10",
        ),  # fmt: skip
        (
            doc(game("Anna", "6S", {"Boris": "pass", "Vera": "pass"}), players=AVBG),
            "deal 1: Anna deals and sits out on the talon, so cannot declare",
        ),
        # --- players and names ---
        (doc(game("Zed")), "deal 1: unknown player 'Zed' as declarer"),
        (
            doc(game(calls={"Boris": "whist", "Zed": "pass"})),
            "deal 1: unknown player 'Zed' in calls",
        ),
        (
            doc(game(tricks={"Anna": 6, "Boris": 2, "Zed": 2})),
            "deal 1: unknown player 'Zed' in tricks",
        ),
        (doc({**NO_PLAY, "dealer": "Zed"}), "deal 1: unknown player 'Zed' as dealer"),
        # --- calls ---
        (doc(game(calls={"Boris": "whist"})), "deal 1: call missing for Vera"),
        (
            doc(game(calls={"Boris": "whist", "Vera": "pass", "Anna": "pass"})),
            "deal 1: Anna declares, so has no call",
        ),
        (
            doc(
                game("Boris", calls={"Vera": "pass", "Gleb": "pass", "Anna": "pass"}),
                players=AVBG,
            ),
            "deal 1: Anna deals and sits out on the talon, so has no call",
        ),
        (
            doc(game(calls={"Boris": "half", "Vera": "pass"})),
            "deal 1: only the second defender (Vera) may say half",
        ),
        (
            doc(game(calls={"Boris": "half", "Vera": "half"})),
            "deal 1: two half-whists",
        ),
        (
            doc(game(calls={"Boris": "whist", "Vera": "half"})),
            "deal 1: half-whist only after the first defender passed",
        ),
        (
            doc(game(calls={"Boris": "whist", "Vera": "vist"}, tricks=PLAYED)),
            "deal 1: Vera's call must be 'whist', 'pass' or 'half', not 'vist'",
        ),
        (
            doc(
                game("Anna", "6S", {"Boris": "pass", "Vera": "half"}),
                rules={"half_whist_levels": []},
            ),
            "deal 1: half-whist is not allowed",
        ),
        (
            doc(
                game("Anna", "7S", {"Boris": "pass", "Vera": "half"}),
                rules={"half_whist_levels": [6]},
            ),
            "deal 1: half-whist is allowed only at level 6",
        ),
        # --- contracts ---
        (doc(game(contract="11S", tricks=PLAYED)), "deal 1: contract '11S': level must be 6 to 10"),
        (doc(game(contract="5NT", tricks=PLAYED)), "deal 1: contract '5NT': level must be 6 to 10"),
        (
            doc(game(contract="7X", tricks=PLAYED)),
            "deal 1: contract '7X': suit must be S, C, D, H or NT",
        ),
        (doc(game(contract="7", tricks=PLAYED)), "suit must be S, C, D, H or NT"),
        (doc(game(contract=7, tricks=PLAYED)), "deal 1: contract must be a level and a suit"),
        # --- tricks ---
        (doc(game()), "deal 1: tricks are missing: the game was played (Boris whisted)"),
        (doc(game(tricks={"Anna": 8, "Boris": 2})), "deal 1: tricks missing for Vera"),
        (
            doc(game(tricks={"Anna": 12, "Boris": -1, "Vera": -1})),
            "deal 1: tricks of Anna must be a whole number from 0 to 10, not 12",
        ),
        (
            doc(game(tricks={"Anna": 6, "Boris": -1, "Vera": 5})),
            "deal 1: tricks of Boris must be a whole number from 0 to 10, not -1",
        ),
        (
            doc(game(tricks={"Anna": 6, "Boris": True, "Vera": 3})),
            "deal 1: tricks of Boris must be a whole number from 0 to 10, not true",
        ),
        (
            doc(game(tricks={"Anna": 6.0, "Boris": 2, "Vera": 2})),
            "deal 1: tricks of Anna must be a whole number from 0 to 10, not 6.0",
        ),
        (
            doc(
                game(
                    "Boris",
                    calls={"Vera": "whist", "Gleb": "pass"},
                    tricks={"Boris": 6, "Vera": 2, "Gleb": 1, "Anna": 1},
                ),
                players=AVBG,
            ),
            "deal 1: Anna deals and sits out on the talon, so takes no tricks in a game",
        ),  # fmt: skip
        (
            doc(
                {"kind": "raspasy", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4, "Gleb": 0}},
                players=AVBG,
            ),
            "deal 1: Anna deals and sits on the talon, so takes at most 2 tricks on raspasy, not 3",
        ),  # fmt: skip
        (
            doc({"kind": "raspasy", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}}, players=AVBG),
            "deal 1: tricks missing for Gleb",
        ),
        (
            doc({"kind": "raspasy", "tricks": {"Anna": 3, "Boris": 3, "Vera": 3}}),
            "deal 1: 3 + 3 + 3 = 9 tricks, a deal has 10",
        ),
        (
            doc({"kind": "misere", "declarer": "Anna", "tricks": {"Anna": 0, "Boris": 5}}),
            "deal 1: misère tricks list only the declarer (Anna), not Boris",
        ),
        (
            doc({"kind": "misere", "declarer": "Anna", "tricks": {"Anna": 11}}),
            "deal 1: tricks of Anna must be a whole number from 0 to 10, not 11",
        ),
        (
            doc({"kind": "misere", "declarer": "Anna", "tricks": {}}),
            "deal 1: tricks missing for Anna",
        ),
        # --- talon and quick tricks ---
        (
            doc(game(tricks=PLAYED, talon=["AS", "KS"], quick_tricks=2)),
            "deal 1: give either talon or quick_tricks, not both",
        ),
        (doc(game(tricks=PLAYED, talon=["AS", "1S"])), "deal 1: talon: '1S' is not a card"),
        (
            doc(game(tricks=PLAYED, talon=["AS", "AS"])),
            "deal 1: talon: the card 'AS' appears twice",
        ),
        (doc(game(tricks=PLAYED, talon=["AS"])), "deal 1: talon must be a list of two cards"),
        (
            doc(game(tricks=PLAYED, quick_tricks=4)),
            "deal 1: quick_tricks must be a whole number from 0 to 3, not 4",
        ),
        (
            doc(game(tricks=PLAYED, quick_tricks=-1)),
            "deal 1: quick_tricks must be a whole number from 0 to 3",
        ),
        (
            doc(game(tricks=PLAYED, quick_tricks=True)),
            "deal 1: quick_tricks must be a whole number from 0 to 3, not true",
        ),
        # --- shape of a deal ---
        (doc({**NO_PLAY, "bid": "6S"}), "deal 1: unknown key 'bid'"),
        (
            doc({"kind": "misere", "declarer": "Anna", "tricks": {"Anna": 0}, "contract": "6S"}),
            "deal 1: 'contract' does not belong to a misère deal",
        ),
        (
            doc(
                {
                    "kind": "raspasy",
                    "tricks": {"Anna": 3, "Boris": 3, "Vera": 4},
                    "declarer": "Anna",
                }
            ),
            "deal 1: 'declarer' does not belong to a raspasy deal",
        ),  # fmt: skip
        (doc({"kind": "slam"}), "deal 1: kind must be 'game', 'misere' or 'raspasy', not 'slam'"),
        (doc({"declarer": "Anna"}), "deal 1: a deal needs a kind"),
        (
            doc({"kind": "game", "declarer": "Anna", "contract": "6S"}),
            "deal 1: a game deal needs 'calls'",
        ),
        (doc(NO_PLAY, "6S"), "deal 2: a deal must be an object"),
        (doc({**NO_PLAY, "declarer": ""}), "deal 1: declarer must be a player's name"),
        (doc({**NO_PLAY, "calls": ["pass", "pass"]}), "deal 1: calls must be an object"),
        (doc({**NO_PLAY, "tricks": [6, 2, 2]}), "deal 1: tricks must be an object"),
        # --- top level ---
        ({"format": "pulka/2", "players": AVB, "deals": []}, "format must be 'pulka/1'"),
        ({"players": AVB, "deals": []}, "format must be 'pulka/1'"),
        (doc(extra=1), "unknown key 'extra'"),
        (doc(players=["Anna", "Boris"]), "players must be 3 or 4 distinct non-empty names"),
        (doc(players=["Anna", "Boris", "Anna"]), "players must be 3 or 4 distinct non-empty names"),
        (doc(players=["Anna", "Boris", ""]), "players must be 3 or 4 distinct non-empty names"),
        (doc(players=["A", "B", "C", "D", "E"]), "players must be 3 or 4 distinct non-empty names"),
        (doc(players=["Anna", "Boris", 3]), "players must be 3 or 4 distinct non-empty names"),
        (doc(players="ABC"), "players must be 3 or 4 distinct non-empty names"),
        (doc(first_dealer="Zed"), "first_dealer 'Zed' is not a player"),
        ({"format": "pulka/1", "players": AVB}, "deals are missing"),
        ({"format": "pulka/1", "players": AVB, "deals": {}}, "deals must be a list"),
        # --- rules ---
        (doc(rules={"pool_target": 0}), "rules: pool_target must be a positive whole number"),
        (doc(rules={"pool_target": True}), "rules: pool_target must be a positive whole number"),
        (doc(rules={"pool_target": 20.0}), "rules: pool_target must be a positive whole number"),
        (doc(rules={"pool_target": "20"}), "rules: pool_target must be a positive whole number"),
        (doc(rules={"pool_point_value": 15}), "rules: pool_point_value must be 10 or 20"),
        (doc(rules={"pool_point_value": True}), "rules: pool_point_value must be 10 or 20"),
        (
            doc(rules={"raspasy_progression": [1, 0, 3]}),
            "rules: raspasy_progression must be a list of positive whole numbers",
        ),
        (
            doc(rules={"raspasy_progression": [1, True]}),
            "rules: raspasy_progression must be a list of positive whole numbers",
        ),
        (
            doc(rules={"raspasy_progression": 3}),
            "rules: raspasy_progression must be a list of positive whole numbers",
        ),
        (
            doc(rules={"half_whist_levels": [7]}),
            "rules: half_whist_levels must be one of [6, 7], [6], []",
        ),
        (
            doc(rules={"half_whist_levels": [6, 7, 8]}),
            "rules: half_whist_levels must be one of [6, 7], [6], []",
        ),
        (doc(rules={"help": 1}), "rules: help must be true or false"),
        (doc(rules={"quick_tricks": "yes"}), "rules: quick_tricks must be true or false"),
        (
            doc(rules={"consolation": "everybody"}),
            "rules: consolation must be one of 'whisters', 'all_opponents'",
        ),
        (doc(rules={"duty1_rule": "first"}), "rules: duty1_rule must be one of"),
        (doc(rules={"pool_targt": 10}), "rules: unknown key 'pool_targt'"),
        (doc(rules=[]), "rules must be an object"),
    ],
)
def test_bad_input_is_rejected_with_a_message_naming_the_problem(document, message):
    assert message in error_of(document)


def test_top_level_problems_carry_no_deal_number():
    with pytest.raises(PulkaError) as caught:
        score_pulka(doc(rules={"pool_target": -3}))
    assert caught.value.deal_number is None
    assert (
        str(caught.value)
        == caught.value.problem
        == ("rules: pool_target must be a positive whole number")
    )


def test_deal_problems_carry_the_deal_number_and_the_bare_problem():
    with pytest.raises(PulkaError) as caught:
        score_pulka(doc(NO_PLAY, game(tricks={"Anna": 6, "Boris": 2, "Vera": 1})))
    assert caught.value.deal_number == 2
    assert caught.value.code == "tricks_sum"
    assert caught.value.params == {
        "players": ("Anna", "Boris", "Vera"),
        "tricks": (6, 2, 1),
        "total": 9,
        "expected": 10,
    }
    assert caught.value.problem == "6 + 2 + 1 = 9 tricks, a deal has 10"
    assert str(caught.value) == "deal 2: 6 + 2 + 1 = 9 tricks, a deal has 10"


def test_the_first_bad_deal_is_reported_and_no_sheet_is_returned():
    bad = Deal("raspasy", tricks={"Anna": 1, "Boris": 1, "Vera": 1})
    good = Deal("raspasy", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    with pytest.raises(PulkaError, match="^deal 2: "):
        compute_sheet(Rules(), AVB, [good, bad, bad])


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (Deal("game", "Anna", "6S", {"Boris": "pass", "Vera": "pass"}, quick_tricks=True),
         "quick_tricks must be a whole number from 0 to 3"),
        (Deal("raspasy", declarer="Anna", tricks={"Anna": 3, "Boris": 3, "Vera": 4}),
         "a raspasy deal has no declarer"),
        (Deal("misere", "Anna", "6S", tricks={"Anna": 0}), "a misère deal has no contract"),
        (Deal("game", None, "6S", {"Boris": "pass", "Vera": "pass"}), "the deal needs a declarer"),
        (Deal("game", "Anna", None, {"Boris": "pass", "Vera": "pass"}), "a game needs a contract"),
        (Deal("game", "Anna", "6S"), "a game needs the calls of Boris and Vera"),
        (Deal("bridge"), "kind must be 'game', 'misere' or 'raspasy'"),
        (Deal("raspasy", tricks={"Anna": 3, "Boris": 3, "Vera": 4}, dealer="Zed"),
         "unknown player 'Zed' as dealer"),
        (Deal("misere", "Anna"), "a misère needs the tricks Anna took"),
    ],
)  # fmt: skip
def test_deals_built_in_code_are_checked_as_strictly_as_json(deal, message):
    with pytest.raises(PulkaError) as caught:
        compute_sheet(Rules(), AVB, [deal])
    assert str(caught.value) == f"deal 1: {message}" or message in str(caught.value)


def test_compute_sheet_checks_players_and_first_dealer():
    with pytest.raises(PulkaError, match="players must be 3 or 4"):
        compute_sheet(Rules(), ["Anna", "Boris"], [])
    with pytest.raises(PulkaError, match="first_dealer 'Zed' is not a player"):
        compute_sheet(Rules(), AVB, [], first_dealer="Zed")


def test_rules_built_in_code_are_checked():
    with pytest.raises(PulkaError, match="rules: whist_penalty must be one of 'full', 'half'"):
        Rules(whist_penalty="quarter")
    with pytest.raises(PulkaError, match="rules: raspasy_amnesty must be true or false"):
        Rules(raspasy_amnesty=0)
    assert Rules(half_whist_levels=[6], raspasy_progression=[1, 2]).half_whist_levels == (6,)


def test_deal_from_dict_names_the_deal_it_was_given():
    with pytest.raises(PulkaError, match="^deal 7: unknown key 'x'$"):
        deal_from_dict({"kind": "raspasy", "tricks": {}, "x": 1}, 7)


def test_parse_pulka_refuses_a_non_object():
    with pytest.raises(PulkaError, match="a pulka must be a JSON object"):
        parse_pulka([])
    with pytest.raises(PulkaError, match="rules must be an object"):
        rules_from_dict([("pool_target", 10)])
