"""The one error type of the engine and its table of problems (rules/sochi.md §17.17
"Strictness"; spec "Errors").

Every input that breaks the pulka/1 format or the rule book is rejected as a whole with a
:class:`PulkaError`. Like Django's ``ValidationError`` it carries a ``code`` and ``params``;
:data:`MESSAGES` is the one table from code to the English text (``%(name)s`` placeholders),
and the UI keeps a translated table with the same codes and placeholders
(``scoring/messages.py``). No option changes this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .words import MISERE

__all__ = ["MESSAGES", "PulkaError", "display_params"]

#: code -> the problem in the rule book's English, with ``%(name)s`` placeholders.
MESSAGES: dict[str, str] = {
    # --- the document and its top-level keys (spec "Input") ---
    "pulka_not_object": "a pulka must be a JSON object",
    "unknown_key": "unknown key '%(key)s'",
    "format": "format must be 'pulka/1'",
    "players_missing": "players are missing: 3 or 4 names in clockwise seat order",
    "players": "players must be 3 or 4 distinct non-empty names",
    "first_dealer_unknown": "first_dealer %(value)s is not a player",
    "deals_missing": "deals are missing (an empty list if none was played)",
    "deals_not_list": "deals must be a list",
    # --- the rules object (§14, §17.16) ---
    "rules_not_object": "rules must be an object",
    "rules_not_rules": "rules must be a Rules object",
    "rules_unknown_key": "rules: unknown key '%(key)s'",
    "rules_pool_target": "rules: pool_target must be a positive whole number",
    "rules_choice": "rules: %(key)s must be one of %(allowed)s",
    "rules_boolean": "rules: %(key)s must be true or false",
    "rules_half_whist_levels": "rules: half_whist_levels must be one of [6, 7], [6], []",
    "rules_raspasy_progression": (
        "rules: raspasy_progression must be a list of positive whole numbers"
    ),
    "rules_pool_point_value": "rules: pool_point_value must be 10 or 20",
    "rules_pool_target_max": "rules: pool_target must be at most %(high)s",
    "rules_raspasy_step_max": "rules: a raspasy_progression step must be at most %(high)s",
    "rules_raspasy_steps_max": "rules: raspasy_progression has at most %(high)s steps",
    # --- presets and the options of rules/conventions.md (§A, §B, §25) ---
    "rules_preset": "rules: preset may not be %(value)s: it is one of %(allowed)s",
    "rules_game_price_multiplier": "rules: game_price_multiplier must be 1 or 2",
    "rules_raspasy_whist_rate": "rules: raspasy_whist_rate must be a positive whole number",
    "rules_raspasy_whist_rate_max": "rules: raspasy_whist_rate must be at most %(high)s",
    # --- the shape of a deal (spec "A deal") ---
    "deal_not_object": "a deal must be an object",
    "kind_missing": "a deal needs a kind: 'game', 'misere' or 'raspasy'",
    "kind": "kind must be 'game', 'misere' or 'raspasy', not %(value)s",
    "key_not_in_kind": "'%(key)s' does not belong to a %(kind)s deal",
    "key_required": "a %(kind)s deal needs '%(key)s'",
    "deal_has_no": "a %(kind)s deal has no %(key)s",
    "name_type": "%(key)s must be a player's name, not %(value)s",
    # --- players at the table (§12) ---
    "declarer_missing": "the deal needs a declarer",
    "declarer_unknown": "unknown player '%(player)s' as declarer",
    "dealer_unknown": "unknown player '%(player)s' as dealer",
    "talon_sitter_declares": "%(player)s deals and sits out on the talon, so cannot declare",
    "closed": "the pulka is closed: every pool reached %(target)s",
    "closed_sum": (
        "the pulka is closed: the pools add up to %(total)s, the end is %(needed)s "
        "(%(target)s a player)"
    ),
    # --- contracts (§1.2) ---
    "contract_missing": "a game needs a contract such as '7H'",
    "contract_type": "contract must be a level and a suit such as '7H' or '10NT', not %(value)s",
    "contract_no_level": "contract '%(contract)s': must start with the level 6 to 10",
    "contract_level": "contract '%(contract)s': level must be 6 to 10",
    "contract_suit": "contract '%(contract)s': suit must be S, C, D, H or NT",
    # --- calls (§2.2–2.4, §17.6) ---
    "calls_missing": "a game needs the calls of %(first)s and %(second)s",
    "calls_type": "calls must be an object: defender -> 'whist', 'pass' or 'half'",
    "call_by_declarer": "%(player)s declares, so has no call",
    "call_by_talon_sitter": "%(player)s deals and sits out on the talon, so has no call",
    "call_unknown_player": "unknown player '%(player)s' in calls",
    "call_missing": "call missing for %(player)s",
    "call_value": "%(player)s's call must be 'whist', 'pass' or 'half', not %(value)s",
    "half_twice": (
        "two half-whists: only the second defender (%(second)s) may say half, "
        "after the first (%(first)s) passed"
    ),
    "half_by_first": (
        "only the second defender (%(second)s) may say half, after the first (%(first)s) "
        "passed; %(first)s speaks first"
    ),
    "half_after_whist": (
        "half-whist only after the first defender passed: %(first)s whisted, "
        "so %(second)s cannot say half"
    ),
    "half_not_allowed": "half-whist is not allowed by the rules (half_whist_levels is [])",
    "half_level": "half-whist is allowed only at level %(level)s",
    "half_levels": "half-whist is allowed only at levels %(levels)s",
    # --- tricks (§1.1, §7.1, §12.3) ---
    "tricks_type": "tricks must be an object: player -> tricks",
    "tricks_missing_played": "tricks are missing: the game was played (%(player)s whisted)",
    "tricks_unplayed": "tricks are given but the game was not played (nobody whisted)",
    "tricks_talon_sitter": (
        "%(player)s deals and sits out on the talon, so takes no tricks in a game"
    ),
    "tricks_unknown_player": "unknown player '%(player)s' in tricks",
    "tricks_missing": "tricks missing for %(player)s",
    "tricks_range": "tricks of %(player)s must be a whole number from 0 to 10, not %(value)s",
    "tricks_sum": "%(tricks)s = %(total)s tricks, a deal has %(expected)s",
    "raspasy_talon_sitter_tricks": (
        "%(player)s deals and sits on the talon, so takes at most 2 tricks on raspasy, "
        "not %(taken)s"
    ),
    "raspasy_whists_dealer_tricks": (
        "the dealer %(player)s took %(taken)s tricks; with raspasy in whists the talon is "
        "not played"
    ),
    "misere_tricks_missing": "a misère needs the tricks %(player)s took",
    "misere_tricks_other": "misère tricks list only the declarer (%(declarer)s), not %(player)s",
    # --- the talon (§8, §17.7) ---
    "talon_and_quick_tricks": "give either talon or quick_tricks, not both",
    "talon_shape": "talon must be a list of two cards such as ['AS', '10H']",
    "talon_card": "talon: '%(card)s' is not a card (rank A K Q J 10 9 8 7, suit S C D H)",
    "talon_twice": "talon: the card '%(card)s' appears twice",
    "quick_tricks_range": "quick_tricks must be a whole number from 0 to 3, not %(value)s",
}

# How a list param reads in a sentence: trick counts add up, anything else is listed.
_SEPARATORS = {"tricks": " + "}
# A kind is a code in params; in an English sentence misère keeps its accent.
_KIND_WORDS = {MISERE: "misère"}


def display_params(params: Mapping[str, Any]) -> dict[str, str]:
    """The params as they read in a sentence, in any language.

    ``value`` is a raw input value shown as in the JSON (quoted text, ``true``, ``null``);
    a list is joined (trick counts with " + ", anything else with ", ", text quoted);
    everything else as it is.

    Example (the params of a trick count that does not add up, and of a bad option)::

        >>> display_params({"tricks": [9, 9], "total": 18, "value": None})
        {'tricks': '9 + 9', 'total': '18', 'value': 'null'}
        >>> display_params({"allowed": ("full", "half"), "levels": (6, 7)})
        {'allowed': "'full', 'half'", 'levels': '6, 7'}
    """
    out: dict[str, str] = {}
    for name, value in params.items():
        if name == "value":
            out[name] = _as_json(value)
        elif isinstance(value, (list, tuple)):
            words = (repr(x) if isinstance(x, str) else str(x) for x in value)
            out[name] = _SEPARATORS.get(name, ", ").join(words)
        else:
            out[name] = str(value)
    return out


def _as_json(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return repr(value)


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English text of a problem (the template of :data:`MESSAGES`, filled in).

    Example::

        >>> english("tricks_sum", {"tricks": (9, 9), "total": 18, "expected": 10})
        '9 + 9 = 18 tricks, a deal has 10'
    """
    shown = display_params(params)
    if "kind" in params:
        shown["kind"] = _KIND_WORDS.get(params["kind"], str(params["kind"]))
    return MESSAGES[code] % shown


class PulkaError(ValueError):
    """A pulka, a deal or a rules object that cannot be scored.

    ``code`` names the problem (a key of :data:`MESSAGES`) and ``params`` its particulars;
    ``deal_number`` is the 1-based deal it is about (``None`` for a top-level problem).
    ``problem`` is the English text without the deal prefix; ``str(error)`` adds
    ``deal N: `` in front of it.

    Example (a deal whose tricks do not add up, rules §1.1)::

        >>> e = PulkaError("tricks_sum", deal_number=3, tricks=(6, 2, 1), total=9, expected=10)
        >>> str(e)
        'deal 3: 6 + 2 + 1 = 9 tricks, a deal has 10'
        >>> e.code, e.params["total"], e.deal_number
        ('tricks_sum', 9, 3)
        >>> str(PulkaError("rules_pool_target"))
        'rules: pool_target must be a positive whole number'
    """

    def __init__(self, code: str, deal_number: int | None = None, **params: Any) -> None:
        self.code = code
        self.params = params
        self.deal_number = deal_number
        # Built now, so that an unknown code or a missing param fails where it is raised.
        self.problem = english(code, params)
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.deal_number is None:
            return self.problem
        return f"deal {self.deal_number}: {self.problem}"

    def __reduce__(self):  # keep code, deal and params when pickled (e.g. by test runners)
        return (_rebuild, (type(self), self.code, self.deal_number, self.params))


def _rebuild(
    cls: type[PulkaError], code: str, deal_number: int | None, params: dict[str, Any]
) -> PulkaError:
    return cls(code, deal_number, **params)
