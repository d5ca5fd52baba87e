"""The game's words, each defined once (rules/sochi.md §1.1–1.2, §2.2–2.4, §8, §14;
rules/conventions.md §A–§B).

Deal kinds, calls, suits, card ranks, contract levels and every enumerated value of a
convention option (§14) are the strings of the pulka/1 format (spec/pulka-json.md). The rest
of the project imports them from here instead of repeating the literals, so that a word is
spelled in one place. No option changes this module.

Example (the calls of §2.2 and the option values of §17.1)::

    >>> CALLS, OPTION_CHOICES["lone_whister"]
    (('whist', 'pass', 'half'), ('greedy', 'gentleman', 'gentleman_on_set'))
    >>> PRESETS, OPTION_CHOICES["raspasy_scoring"]
    (('sochi', 'leningrad', 'rostov'), ('mountain', 'whists'))
    >>> [level for level in LEVELS], CARD_SUITS + (NO_TRUMP,) == SUITS
    ([6, 7, 8, 9, 10], True)
"""

from __future__ import annotations

# --- deal kinds (§1.1, §6, §7) ---
GAME = "game"
MISERE = "misere"
RASPASY = "raspasy"
KINDS: tuple[str, ...] = (GAME, MISERE, RASPASY)

# --- the defenders' calls (§2.2, §2.4) ---
WHIST = "whist"
PASS = "pass"
HALF = "half"
CALLS: tuple[str, ...] = (WHIST, PASS, HALF)

# --- suits and ranks (§1.2, §8) ---
SPADES = "S"
CLUBS = "C"
DIAMONDS = "D"
HEARTS = "H"
NO_TRUMP = "NT"
#: The suits of the cards, in the bidding order of §1.2.
CARD_SUITS: tuple[str, ...] = (SPADES, CLUBS, DIAMONDS, HEARTS)
#: The suits of a contract: the card suits and no-trump.
SUITS: tuple[str, ...] = (*CARD_SUITS, NO_TRUMP)
ACE = "A"
KING = "K"
QUEEN = "Q"
RANKS: tuple[str, ...] = (ACE, KING, QUEEN, "J", "10", "9", "8", "7")
#: How players write cards in Ukrainian and Russian (rank first, then the suit's initial):
#: Т туз, К король, Д дама, В валет; П піки/пики, Т трефи/трефы, Б бубни/бубны, Ч черви/чирви.
#: "ТТ" is the ace of clubs. The values are the pulka/1 letters above.
CYRILLIC_RANKS: dict[str, str] = {"Т": ACE, "К": KING, "Д": QUEEN, "В": "J"}
CYRILLIC_SUITS: dict[str, str] = {"П": SPADES, "Т": CLUBS, "Б": DIAMONDS, "Ч": HEARTS}
#: Contract levels (§1.2).
LEVELS: tuple[int, ...] = (6, 7, 8, 9, 10)

# --- the named conventions (conventions.md §A) ---
PRESET_SOCHI = "sochi"
PRESET_LENINGRAD = "leningrad"
PRESET_ROSTOV = "rostov"
#: The values of ``rules.preset``; the first is the default.
PRESETS: tuple[str, ...] = (PRESET_SOCHI, PRESET_LENINGRAD, PRESET_ROSTOV)

# --- the enumerated values of the convention options (§14, conventions.md §B) ---
CONSOLATION_WHISTERS = "whisters"
CONSOLATION_ALL_OPPONENTS = "all_opponents"
CONSOLATION_NONE = "none"
CONSOLATION_AMOUNT_PRICE = "price"
CONSOLATION_AMOUNT_TEN = "ten"
LONE_WHISTER_GREEDY = "greedy"
LONE_WHISTER_GENTLEMAN = "gentleman"
LONE_WHISTER_GENTLEMAN_ON_SET = "gentleman_on_set"
WHIST_PENALTY_FULL = "full"
WHIST_PENALTY_HALF = "half"
DUTY1_SECOND = "second"
DUTY1_BOTH = "both"
DUTY1_SPLIT = "split"
RASPASY_ZERO_MOUNTAIN = "mountain"
RASPASY_ZERO_POOL = "pool"
RASPASY_ZERO_MOUNTAIN_DOUBLE = "mountain_double"
RASPASY_ZERO_NONE = "none"
RASPASY_ZERO_UNIT_COST = "cost"
RASPASY_ZERO_UNIT_ONE = "one"
RASPASY_SCORING_MOUNTAIN = "mountain"
RASPASY_SCORING_WHISTS = "whists"
POOL_END_EACH = "each"
POOL_END_SUM = "sum"
HELP_EXCEPTION_WRITE_OFF = "write_off"
HELP_EXCEPTION_SKIP_TO_NEXT = "skip_to_next"
WHISTER_SHORTFALL_PAIR = "pair"
WHISTER_SHORTFALL_OWN = "own"
PROGRESSION_END_RESET = "reset"
PROGRESSION_END_REPEAT_LAST = "repeat_last"

#: The allowed values of the option keys that take a word (§14); the first is Sochi's.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "consolation": (CONSOLATION_WHISTERS, CONSOLATION_ALL_OPPONENTS, CONSOLATION_NONE),
    "lone_whister": (LONE_WHISTER_GREEDY, LONE_WHISTER_GENTLEMAN, LONE_WHISTER_GENTLEMAN_ON_SET),
    "whist_penalty": (WHIST_PENALTY_FULL, WHIST_PENALTY_HALF),
    "duty1_rule": (DUTY1_SECOND, DUTY1_BOTH, DUTY1_SPLIT),
    "raspasy_zero": (
        RASPASY_ZERO_MOUNTAIN,
        RASPASY_ZERO_POOL,
        RASPASY_ZERO_MOUNTAIN_DOUBLE,
        RASPASY_ZERO_NONE,
    ),
    "help_exception": (HELP_EXCEPTION_WRITE_OFF, HELP_EXCEPTION_SKIP_TO_NEXT),
    "whister_shortfall": (WHISTER_SHORTFALL_PAIR, WHISTER_SHORTFALL_OWN),
    "raspasy_progression_end": (PROGRESSION_END_RESET, PROGRESSION_END_REPEAT_LAST),
    "pool_end": (POOL_END_EACH, POOL_END_SUM),
    "raspasy_zero_unit": (RASPASY_ZERO_UNIT_COST, RASPASY_ZERO_UNIT_ONE),
    "raspasy_scoring": (RASPASY_SCORING_MOUNTAIN, RASPASY_SCORING_WHISTS),
    "consolation_amount": (CONSOLATION_AMOUNT_PRICE, CONSOLATION_AMOUNT_TEN),
}
#: The allowed values of ``half_whist_levels`` (§17.6), Sochi's first.
HALF_WHIST_LEVELS: tuple[tuple[int, ...], ...] = ((6, 7), (6,), ())
#: The allowed values of ``pool_point_value`` (§10.4), Sochi's first.
POOL_POINT_VALUES: tuple[int, ...] = (10, 20)
#: The allowed values of ``game_price_multiplier`` s (conventions.md §18), Sochi's first.
GAME_PRICE_MULTIPLIERS: tuple[int, ...] = (1, 2)

__all__ = [
    "ACE",
    "CALLS",
    "CARD_SUITS",
    "CLUBS",
    "CONSOLATION_ALL_OPPONENTS",
    "CONSOLATION_AMOUNT_PRICE",
    "CONSOLATION_AMOUNT_TEN",
    "CONSOLATION_NONE",
    "CONSOLATION_WHISTERS",
    "CYRILLIC_RANKS",
    "CYRILLIC_SUITS",
    "DIAMONDS",
    "DUTY1_BOTH",
    "DUTY1_SECOND",
    "DUTY1_SPLIT",
    "GAME",
    "GAME_PRICE_MULTIPLIERS",
    "HALF",
    "HALF_WHIST_LEVELS",
    "HEARTS",
    "HELP_EXCEPTION_SKIP_TO_NEXT",
    "HELP_EXCEPTION_WRITE_OFF",
    "KINDS",
    "KING",
    "LEVELS",
    "LONE_WHISTER_GENTLEMAN",
    "LONE_WHISTER_GENTLEMAN_ON_SET",
    "LONE_WHISTER_GREEDY",
    "MISERE",
    "NO_TRUMP",
    "OPTION_CHOICES",
    "PASS",
    "POOL_END_EACH",
    "POOL_END_SUM",
    "POOL_POINT_VALUES",
    "PRESETS",
    "PRESET_LENINGRAD",
    "PRESET_ROSTOV",
    "PRESET_SOCHI",
    "PROGRESSION_END_REPEAT_LAST",
    "PROGRESSION_END_RESET",
    "QUEEN",
    "RANKS",
    "RASPASY",
    "RASPASY_SCORING_MOUNTAIN",
    "RASPASY_SCORING_WHISTS",
    "RASPASY_ZERO_MOUNTAIN",
    "RASPASY_ZERO_MOUNTAIN_DOUBLE",
    "RASPASY_ZERO_NONE",
    "RASPASY_ZERO_POOL",
    "RASPASY_ZERO_UNIT_COST",
    "RASPASY_ZERO_UNIT_ONE",
    "SPADES",
    "SUITS",
    "WHIST",
    "WHISTER_SHORTFALL_OWN",
    "WHISTER_SHORTFALL_PAIR",
    "WHIST_PENALTY_FULL",
    "WHIST_PENALTY_HALF",
]
