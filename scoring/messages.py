"""The engine's problems in the user's language.

The engine (pure, no Django) raises :class:`~scoring.engine.PulkaError` with a code and params
and keeps the English texts in one table, ``scoring.engine.MESSAGES``. This module is the one
translated table: every engine code has an entry here with the same ``%(name)s`` placeholders
(tests/scoring/test_messages.py checks both). Every path that shows an engine error to a user
goes through :func:`engine_problem_text`.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring import engine

#: A deal kind inside a sentence ("a misère deal has no contract").
KIND_WORDS: dict[str, Promise] = {
    engine.GAME: _("game"),
    engine.MISERE: _("misère"),
    engine.RASPASY: _("raspasy"),
}

#: The named conventions (engine.PRESETS) in the players' words (glossary: Сочинка,
#: Ленінградка (Пітер), Ростов).
PRESET_LABELS: dict[str, Promise] = {
    engine.PRESET_SOCHI: _("Sochi"),
    engine.PRESET_LENINGRAD: _("Leningrad (Piter)"),
    engine.PRESET_ROSTOV: _("Rostov"),
}

#: Why an option has no effect (engine.inert_options' reason codes), after "no effect:".
INERT_REASONS: dict[str, Promise] = {
    "pool_end_sum": _("the pulka ends by the sum of the pools, so there is no help"),
    "help_off": _("there is no help"),
    "raspasy_whists": _("raspasy are scored in whists"),
    "raspasy_mountain": _("raspasy are scored in the mountain, not in whists"),
    "raspasy_cost_fixed": _("every raspasy costs the same, so a series changes nothing"),
    "raspasy_cost_one": _("every raspasy costs 1, so the cost and one point are the same"),
    "raspasy_zero_none": _("a raspasy with no trick brings nothing"),
    "consolation_none": _("nobody writes consolation"),
    "personal_quota": _("each whister pays for his own share"),
}

#: engine code -> the problem in the user's language (the engine's placeholders).
PROBLEMS: dict[str, Promise] = {
    # --- the document and its top-level keys ---
    "pulka_not_object": _("a pulka must be a JSON object"),
    "unknown_key": _("unknown key '%(key)s'"),
    "format": _("format must be 'pulka/1'"),
    "players_missing": _("players are missing: 3 or 4 names in clockwise seat order"),
    "players": _("players must be 3 or 4 distinct non-empty names"),
    "first_dealer_unknown": _("first_dealer %(value)s is not a player"),
    "deals_missing": _("deals are missing (an empty list if none was played)"),
    "deals_not_list": _("deals must be a list"),
    # --- the conventions ---
    "rules_not_object": _("the conventions must be an object"),
    "rules_not_rules": _("the conventions must be a Rules object"),
    "rules_unknown_key": _("unknown convention '%(key)s'"),
    "rules_pool_target": _("the pool target must be a whole number above zero"),
    "rules_choice": _("the convention %(key)s must be one of %(allowed)s"),
    "rules_boolean": _("the convention %(key)s must be yes or no"),
    "rules_half_whist_levels": _("half-whist can be allowed at six and seven, at six, or never"),
    "rules_raspasy_progression": _("the raspasy costs must be whole numbers above zero"),
    "rules_pool_point_value": _("an unfinished pool point costs 10 or 20 whists"),
    "rules_pool_target_max": _("the pool target can be at most %(high)s"),
    "rules_raspasy_step_max": _("a raspasy cost can be at most %(high)s"),
    "rules_raspasy_steps_max": _("the raspasy progression has at most %(high)s steps"),
    "rules_preset": _("there is no convention %(value)s: choose one of %(allowed)s"),
    "rules_game_price_multiplier": _("the price of a game is single (1) or double (2)"),
    "rules_raspasy_whist_rate": _("the raspasy whists a trick must be a whole number above zero"),
    "rules_raspasy_whist_rate_max": _("the raspasy whists a trick can be at most %(high)s"),
    # --- the shape of a deal ---
    "deal_not_object": _("a deal must be an object"),
    "kind_missing": _("a deal needs a kind: 'game', 'misere' or 'raspasy'"),
    "kind": _("kind must be 'game', 'misere' or 'raspasy', not %(value)s"),
    "key_not_in_kind": _("'%(key)s' does not belong to a deal of kind %(kind)s"),
    "key_required": _("a deal of kind %(kind)s needs '%(key)s'"),
    "deal_has_no": _("a deal of kind %(kind)s has no %(key)s"),
    "name_type": _("%(key)s must be a player's name, not %(value)s"),
    # --- players at the table ---
    "declarer_missing": _("Choose the declarer."),
    "declarer_unknown": _("%(player)s does not play at this table"),
    "dealer_unknown": _("%(player)s does not play at this table"),
    "talon_sitter_declares": _("%(player)s deals and sits out on the talon, so cannot declare"),
    "closed": _("the pulka is closed: every pool reached %(target)s"),
    "closed_sum": _(
        "the pulka is closed: the pools add up to %(total)s, the end is %(needed)s "
        "(%(target)s a player)"
    ),
    # --- contracts ---
    "contract_missing": _("Choose the contract: level and suit."),
    "contract_type": _("the contract must be a level and a suit, not %(value)s"),
    "contract_no_level": _("contract %(contract)s: it must start with the level 6 to 10"),
    "contract_level": _("contract %(contract)s: the level must be 6 to 10"),
    "contract_suit": _("contract %(contract)s: the suit must be ♠, ♣, ♦, ♥ or NT"),
    # --- calls ---
    "calls_missing": _("a game needs the calls of %(first)s and %(second)s"),
    "calls_type": _("the calls must be an object: defender -> whist, pass or half-whist"),
    "call_by_declarer": _("%(player)s declares, so has no call"),
    "call_by_talon_sitter": _("%(player)s deals and sits out on the talon, so has no call"),
    "call_unknown_player": _("%(player)s does not play at this table"),
    "call_missing": _("Did %(player)s whist or pass?"),
    "call_value": _("%(player)s: the call must be whist, pass or half-whist, not %(value)s"),
    "half_twice": _(
        "only the second defender (%(second)s) may say half, after the first (%(first)s) passed"
    ),
    "half_by_first": _(
        "only the second defender (%(second)s) may say half, after the first (%(first)s) passed"
    ),
    "half_after_whist": _(
        "half-whist only after the first defender passed: %(first)s whisted, "
        "so %(second)s cannot say half"
    ),
    "half_not_allowed": _("half-whist is not allowed by this pulka's conventions"),
    "half_level": _("half-whist is allowed only at level %(level)s"),
    "half_levels": _("half-whist is allowed only at levels %(levels)s"),
    # --- tricks ---
    "tricks_type": _("the tricks must be an object: player -> tricks"),
    "tricks_missing_played": _("the game was played (%(player)s whisted): enter the tricks"),
    "tricks_unplayed": _("tricks are given but the game was not played (nobody whisted)"),
    "tricks_talon_sitter": _(
        "%(player)s deals and sits out on the talon, so takes no tricks in a game"
    ),
    "tricks_unknown_player": _("%(player)s does not play at this table"),
    "tricks_missing": _("Enter the tricks of %(player)s."),
    "tricks_range": _("tricks of %(player)s: a whole number from 0 to 10, not %(value)s"),
    "tricks_sum": _("%(tricks)s = %(total)s tricks, a deal has %(expected)s"),
    "raspasy_talon_sitter_tricks": _(
        "%(player)s deals and sits on the talon, so takes at most 2 tricks on raspasy, "
        "not %(taken)s"
    ),
    "raspasy_whists_dealer_tricks": _(
        "%(player)s deals, and with raspasy in whists the talon is not played: "
        "the dealer takes no tricks, not %(taken)s"
    ),
    "misere_tricks_missing": _("Enter the tricks of %(player)s."),
    "misere_tricks_other": _(
        "on a misère only the declarer (%(declarer)s) has tricks, not %(player)s"
    ),
    # --- the talon ---
    "talon_and_quick_tricks": _(
        "give either the talon cards or the number of quick tricks, not both"
    ),
    "talon_shape": _("The talon has exactly two cards."),
    "talon_card": _("%(card)s is not a card: write the rank and the suit, e.g. AS or 10H."),
    "talon_twice": _("talon: the card %(card)s appears twice"),
    "quick_tricks_range": _("quick tricks: a whole number from 0 to 3, not %(value)s"),
}


def engine_problem_text(exc: engine.PulkaError) -> str:
    """The problem of an engine error in the user's language, without the deal number.

    Player names and numbers are put in as they are, lists are joined (trick counts with
    " + ", levels with ", ") and a deal kind is said in the user's words.
    """
    params = engine.display_params(exc.params)
    kind = exc.params.get("kind")
    if kind in KIND_WORDS:
        params["kind"] = str(KIND_WORDS[kind])
    return str(PROBLEMS[exc.code]) % params
