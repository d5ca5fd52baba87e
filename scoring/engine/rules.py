"""Convention options and the level tables (rules/sochi.md §1.2, §2.1, §14, §17;
rules/conventions.md §A–§B, readings 18–25).

:class:`Rules` holds one field per key of the ``rules`` object of spec/pulka-json.md, each
with its Sochi default (§14), and ``preset``, the named convention it started from. The
game's fixed tables live here too: the value of a level V(L) = 2·(L − 5) (§1.2) and the
defenders' obligation D(L) (§2.1), which the option ``ten_checked`` changes to D(10) = 0
(§17.5).

Strictness (§17.17): an unknown key, a boolean where a number is expected (or the reverse),
``pool_point_value`` other than 10/20, or a ``raspasy_progression`` that is not a list of
positive whole numbers is a :class:`~scoring.engine.errors.PulkaError` whose message starts
with ``rules:``. conventions.md §25 adds: ``preset`` one of :data:`PRESETS`;
``game_price_multiplier`` the whole number 1 or 2 (not 1.0, not true); the new booleans JSON
booleans; the new words only from the table of §B.

Presets (conventions.md §A). :func:`rules_from_dict` resolves a ``rules`` object in three
layers: the Sochi defaults, then the values of its ``preset`` (:data:`PRESET_VALUES`), then
every key given explicitly. :func:`preset_rules` does the same from Python. The ``Rules``
constructor itself does not apply a preset: ``preset`` is then only the name echoed.

Bounds. §B allows "any positive integer" as ``raspasy_whist_rate`` (c); the engine bounds it
to what a club could mean: 1 to :data:`RASPASY_WHIST_RATE_MAX` (100). Rostov tables write 5
whists a trick, some 10; a rate of 100 already writes 900 whists on one raspasy. Above it the
error is ``rules_raspasy_whist_rate_max`` with the bound as ``high``.

More bounds. §14 allows "any positive integer" as the pool target and leaves the raspasy
progression open; the engine bounds both to what a club could mean, so that no agreed
convention makes a result too large to keep (scoring.models.PulkaResultCache):

- ``pool_target`` (T): 1 to :data:`POOL_TARGET_MAX` (1,000). Clubs play to 10–50; three
  players closing pools of 1,000 need 300 no-play tens at the very least.
- ``raspasy_progression``: at most :data:`RASPASY_STEPS_MAX` (10) steps, each 1 to
  :data:`RASPASY_STEP_MAX` (100). The ladders in use are [1, 2, 3], [1, 2, 4] and doublings;
  a doubling ladder of seven steps ends at 64.

Over these bounds the error is ``rules_pool_target_max``, ``rules_raspasy_steps_max`` or
``rules_raspasy_step_max``, with the bound as ``high``.
:func:`scoring.engine.settlement.result_bound` says how large a result can then grow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import PulkaError
from .words import (
    CONSOLATION_ALL_OPPONENTS,
    CONSOLATION_AMOUNT_PRICE,
    CONSOLATION_AMOUNT_TEN,
    CONSOLATION_NONE,
    CONSOLATION_WHISTERS,
    DUTY1_SECOND,
    GAME_PRICE_MULTIPLIERS,
    HALF_WHIST_LEVELS,
    HELP_EXCEPTION_WRITE_OFF,
    LEVELS,
    LONE_WHISTER_GENTLEMAN_ON_SET,
    LONE_WHISTER_GREEDY,
    OPTION_CHOICES,
    POOL_END_EACH,
    POOL_END_SUM,
    POOL_POINT_VALUES,
    PRESET_LENINGRAD,
    PRESET_ROSTOV,
    PRESET_SOCHI,
    PRESETS,
    PROGRESSION_END_REPEAT_LAST,
    PROGRESSION_END_RESET,
    RASPASY_SCORING_MOUNTAIN,
    RASPASY_SCORING_WHISTS,
    RASPASY_ZERO_MOUNTAIN,
    RASPASY_ZERO_NONE,
    RASPASY_ZERO_POOL,
    RASPASY_ZERO_UNIT_COST,
    RASPASY_ZERO_UNIT_ONE,
    WHIST_PENALTY_FULL,
    WHIST_PENALTY_HALF,
    WHISTER_SHORTFALL_OWN,
    WHISTER_SHORTFALL_PAIR,
)

__all__ = [
    "CHOICES",
    "OBLIGATION",
    "POOL_TARGET_MAX",
    "PRESET_VALUES",
    "QUOTA",
    "RASPASY_STEPS_MAX",
    "RASPASY_STEP_MAX",
    "RASPASY_WHIST_RATE_MAX",
    "RULE_KEYS",
    "VALUE",
    "Rules",
    "INERT_REASONS",
    "contract_value",
    "inert_options",
    "obligation",
    "options_changed",
    "preset_rules",
    "rules_from_dict",
    "rules_to_dict",
]

#: The highest pool target (T) a pulka may agree on (§14, bounded: see the module's docstring).
POOL_TARGET_MAX = 1000
#: The highest cost of one step of the raspasy progression (§7.5, §17.10).
RASPASY_STEP_MAX = 100
#: The most steps a raspasy progression may have (§7.5, §17.10).
RASPASY_STEPS_MAX = 10
#: The highest ``raspasy_whist_rate`` c (conventions.md §23; bounded, see the module's docstring).
RASPASY_WHIST_RATE_MAX = 100

#: The allowed values of the option keys that take a word (§14), from the engine's words.
CHOICES: dict[str, tuple[str, ...]] = OPTION_CHOICES

_BOOLEANS = (
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


@dataclass(frozen=True, slots=True)
class Rules:
    """The agreed conventions of one pulka (§14); every field defaults to Sochi.

    Sequence options are stored as tuples (``half_whist_levels=(6, 7)``,
    ``raspasy_progression=()``); lists are accepted and converted. Invalid values raise
    :class:`PulkaError` ("rules: ...").

    Example (a pulka to 10 with the Leningrad gentleman split, §17.1)::

        >>> r = Rules(pool_target=10, lone_whister="gentleman")
        >>> r.pool_target, r.lone_whister, r.consolation, r.half_whist_levels
        (10, 'gentleman', 'whisters', (6, 7))
    """

    pool_target: int = 20
    consolation: str = CONSOLATION_WHISTERS
    lone_whister: str = LONE_WHISTER_GREEDY
    whist_penalty: str = WHIST_PENALTY_FULL
    duty1_rule: str = DUTY1_SECOND
    personal_quota: bool = False
    ten_checked: bool = False
    half_whist_levels: tuple[int, ...] = HALF_WHIST_LEVELS[0]
    quick_tricks: bool = True
    raspasy_amnesty: bool = True
    raspasy_zero: str = RASPASY_ZERO_MOUNTAIN
    raspasy_progression: tuple[int, ...] = ()
    exit_only_by_made_game: bool = False
    mountain_floor_zero: bool = False
    help: bool = True
    help_exception: str = HELP_EXCEPTION_WRITE_OFF
    help_excludes_talon_sitter: bool = False
    pool_point_value: int = POOL_POINT_VALUES[0]
    whister_shortfall: str = WHISTER_SHORTFALL_PAIR
    raspasy_progression_end: str = PROGRESSION_END_RESET
    # --- conventions.md §B, in the order of the spec table ---
    game_price_multiplier: int = GAME_PRICE_MULTIPLIERS[0]
    pool_end: str = POOL_END_EACH
    raspasy_zero_unit: str = RASPASY_ZERO_UNIT_COST
    exit_by_unplayed_game: bool = True
    exit_by_misere: bool = True
    raspasy_scoring: str = RASPASY_SCORING_MOUNTAIN
    raspasy_whist_rate: int = 5
    consolation_amount: str = CONSOLATION_AMOUNT_PRICE
    #: The named convention these rules were resolved from (§A); echoed last in the output.
    preset: str = PRESET_SOCHI

    def __post_init__(self) -> None:
        if type(self.preset) is not str or self.preset not in PRESETS:
            raise PulkaError("rules_preset", value=self.preset, allowed=PRESETS)
        t = self.pool_target
        if type(t) is not int or t <= 0:
            raise PulkaError("rules_pool_target")
        if t > POOL_TARGET_MAX:
            raise PulkaError("rules_pool_target_max", high=POOL_TARGET_MAX)
        for key, allowed in CHOICES.items():
            if getattr(self, key) not in allowed or type(getattr(self, key)) is not str:
                raise PulkaError("rules_choice", key=key, allowed=allowed)
        for key in _BOOLEANS:
            if type(getattr(self, key)) is not bool:
                raise PulkaError("rules_boolean", key=key)
        levels = self.half_whist_levels
        if (
            not isinstance(levels, (list, tuple))
            or any(type(x) is not int for x in levels)
            or tuple(levels) not in HALF_WHIST_LEVELS
        ):
            raise PulkaError("rules_half_whist_levels")
        object.__setattr__(self, "half_whist_levels", tuple(levels))
        prog = self.raspasy_progression
        if not isinstance(prog, (list, tuple)) or any(type(x) is not int or x <= 0 for x in prog):
            raise PulkaError("rules_raspasy_progression")
        if len(prog) > RASPASY_STEPS_MAX:
            raise PulkaError("rules_raspasy_steps_max", high=RASPASY_STEPS_MAX)
        if any(x > RASPASY_STEP_MAX for x in prog):
            raise PulkaError("rules_raspasy_step_max", high=RASPASY_STEP_MAX)
        object.__setattr__(self, "raspasy_progression", tuple(prog))
        if type(self.pool_point_value) is not int or self.pool_point_value not in POOL_POINT_VALUES:
            raise PulkaError("rules_pool_point_value")
        s = self.game_price_multiplier
        if type(s) is not int or s not in GAME_PRICE_MULTIPLIERS:
            raise PulkaError("rules_game_price_multiplier")
        c = self.raspasy_whist_rate
        if type(c) is not int or c <= 0:
            raise PulkaError("rules_raspasy_whist_rate")
        if c > RASPASY_WHIST_RATE_MAX:
            raise PulkaError("rules_raspasy_whist_rate_max", high=RASPASY_WHIST_RATE_MAX)


#: Every key of the ``rules`` object, in the order of the spec table, ``preset`` last.
RULE_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Rules))

#: The values each preset sets over the Sochi defaults (conventions.md §A, the bold cells).
PRESET_VALUES: dict[str, dict[str, Any]] = {
    PRESET_SOCHI: {},
    PRESET_LENINGRAD: {
        "consolation": CONSOLATION_ALL_OPPONENTS,
        "lone_whister": LONE_WHISTER_GENTLEMAN_ON_SET,
        "whist_penalty": WHIST_PENALTY_HALF,
        "game_price_multiplier": 2,
        "quick_tricks": False,
        "whister_shortfall": WHISTER_SHORTFALL_OWN,
        "raspasy_amnesty": False,
        "raspasy_zero": RASPASY_ZERO_POOL,
        "raspasy_progression": (2, 4, 6),
        "raspasy_progression_end": PROGRESSION_END_REPEAT_LAST,
        "exit_only_by_made_game": True,
        "exit_by_unplayed_game": False,
        "exit_by_misere": False,
        "help": False,
        "pool_point_value": 20,
        "pool_end": POOL_END_SUM,
    },
    PRESET_ROSTOV: {
        "consolation": CONSOLATION_ALL_OPPONENTS,
        "consolation_amount": CONSOLATION_AMOUNT_TEN,
        "lone_whister": LONE_WHISTER_GENTLEMAN_ON_SET,
        "whist_penalty": WHIST_PENALTY_HALF,
        "quick_tricks": False,
        "whister_shortfall": WHISTER_SHORTFALL_OWN,
        "raspasy_scoring": RASPASY_SCORING_WHISTS,
        "raspasy_zero": RASPASY_ZERO_POOL,
        "raspasy_zero_unit": RASPASY_ZERO_UNIT_ONE,
    },
}


def preset_rules(preset: str = PRESET_SOCHI, **explicit: Any) -> Rules:
    """The rules of a preset with some keys set explicitly (conventions.md §A): the Sochi
    defaults, then the preset's values, then ``explicit``.

    Example (Leningrad to 30, but with help)::

        >>> r = preset_rules("leningrad", pool_target=30, help=True)
        >>> r.preset, r.pool_target, r.help, r.game_price_multiplier, r.pool_end
        ('leningrad', 30, True, 2, 'sum')
        >>> preset_rules("moscow")
        Traceback (most recent call last):
        ...
        scoring.engine.errors.PulkaError: rules: preset may not be 'moscow': \
it is one of 'sochi', 'leningrad', 'rostov'
    """
    if type(preset) is not str or preset not in PRESET_VALUES:
        raise PulkaError("rules_preset", value=preset, allowed=PRESETS)
    return Rules(**{**PRESET_VALUES[preset], **explicit, "preset": preset})


def rules_from_dict(data: Mapping[str, Any] | None) -> Rules:
    """Read a (possibly partial) pulka/1 ``rules`` object strictly (§14, §17.16–17).

    Omitted keys take the value of the ``preset`` (conventions.md §A), or else the Sochi
    default; unknown keys and wrong types raise PulkaError.

    Example (a Leningrad-flavoured pulka to 30, and the Rostov preset with a rate of 10)::

        >>> r = rules_from_dict({"pool_target": 30, "raspasy_progression": [1, 2, 4]})
        >>> r.pool_target, r.raspasy_progression, r.help
        (30, (1, 2, 4), True)
        >>> r = rules_from_dict({"preset": "rostov", "raspasy_whist_rate": 10})
        >>> r.raspasy_scoring, r.raspasy_whist_rate, r.consolation_amount
        ('whists', 10, 'ten')
        >>> rules_from_dict({"pool_target": True})
        Traceback (most recent call last):
        ...
        scoring.engine.errors.PulkaError: rules: pool_target must be a positive whole number
    """
    if data is None:
        return Rules()
    if not isinstance(data, Mapping):
        raise PulkaError("rules_not_object")
    for key in data:
        if key not in RULE_KEYS:
            raise PulkaError("rules_unknown_key", key=key)
    values = dict(data)
    for key in ("half_whist_levels", "raspasy_progression"):
        if key in values and not isinstance(values[key], (list, tuple)):
            if key == "half_whist_levels":
                raise PulkaError("rules_half_whist_levels")
            raise PulkaError("rules_raspasy_progression")
    if "preset" in values:
        return preset_rules(**values)
    return Rules(**values)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every rules key in spec order with its value, JSON-ready (lists, not tuples; §17.16).

    Example::

        >>> d = rules_to_dict(Rules(pool_target=10))
        >>> d["pool_target"], d["half_whist_levels"], d["raspasy_progression"], len(d)
        (10, [6, 7], [], 29)
        >>> list(d)[-2:]
        ['consolation_amount', 'preset']
    """
    out: dict[str, Any] = {}
    for key in RULE_KEYS:
        value = getattr(rules, key)
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


#: Why an option has no effect under the other rules (:func:`inert_options`); the UI says
#: each in the user's words (scoring.messages.INERT_REASONS).
INERT_REASONS: tuple[str, ...] = (
    "pool_end_sum",  # §20a: no help, so nothing about help counts
    "help_off",  # §9.2: help is off
    "raspasy_whists",  # §23: raspasy in whists replace §7.2–7.3 (the amnesty)
    "raspasy_mountain",  # §7.2: raspasy in the mountain write no raspasy whists
    "raspasy_cost_fixed",  # §7.5: every raspasy costs the same, so the series never counts
    "raspasy_cost_one",  # §21: every raspasy costs 1, so z = k = 1 either way
    "raspasy_zero_none",  # §21: a raspasy with no trick writes nothing
    "consolation_none",  # §24: nobody writes consolation
    "personal_quota",  # §17.4: each whister pays for his own quota; the pair rules are unused
)


def inert_options(rules: Rules) -> dict[str, str]:
    """The options that change nothing under the rest of ``rules``, each with the code of
    the first reason (:data:`INERT_REASONS`), in the order of :data:`RULE_KEYS`.

    The one place that knows which option depends on which (the readings of sochi.md §17 and
    conventions.md §18–25): changing an option listed here leaves every sheet the same
    (tests/engine/test_inert_options.py checks it on random pulkas).

    Example (Leningrad: the pulka ends by the sum of the pools, so help is out)::

        >>> inert = inert_options(preset_rules("leningrad"))
        >>> inert["help"], inert["help_exception"], inert["raspasy_whist_rate"]
        ('pool_end_sum', 'pool_end_sum', 'raspasy_mountain')
        >>> "raspasy_progression_end" in inert, inert_options(Rules())["raspasy_zero_unit"]
        (False, 'raspasy_cost_one')
    """
    found: dict[str, str] = {}

    def inert(reason: str, *keys: str) -> None:
        for key in keys:
            found.setdefault(key, reason)

    help_keys = ("help_exception", "help_excludes_talon_sitter")
    if rules.pool_end == POOL_END_SUM:
        inert("pool_end_sum", "help", *help_keys)
    if not rules.help:
        inert("help_off", *help_keys)
    if rules.raspasy_scoring == RASPASY_SCORING_WHISTS:
        inert("raspasy_whists", "raspasy_amnesty")
    else:
        inert("raspasy_mountain", "raspasy_whist_rate")
    steps = set(rules.raspasy_progression)
    if len(steps) <= 1:
        inert(
            "raspasy_cost_fixed",
            "raspasy_progression_end",
            "exit_only_by_made_game",
            "exit_by_unplayed_game",
            "exit_by_misere",
        )
    if rules.raspasy_zero == RASPASY_ZERO_NONE:
        inert("raspasy_zero_none", "raspasy_zero_unit")
    if steps <= {1}:
        inert("raspasy_cost_one", "raspasy_zero_unit")
    if rules.consolation == CONSOLATION_NONE:
        inert("consolation_none", "consolation_amount")
    if rules.personal_quota:
        inert("personal_quota", "whister_shortfall", "duty1_rule")
    return {key: found[key] for key in RULE_KEYS if key in found}


def options_changed(rules: Rules, base: Rules | None = None) -> tuple[str, ...]:
    """The options of ``rules`` that differ from ``base`` (default: the rules of their own
    preset, conventions.md §A) and count under ``rules`` (not :func:`inert_options`), in the
    order of :data:`RULE_KEYS`; neither ``preset`` nor the agreed ``pool_target`` is listed.

    Example (Leningrad with quick tricks and help: help has no effect under the sum's end)::

        >>> options_changed(preset_rules("leningrad", quick_tricks=True, help=True))
        ('quick_tricks',)
        >>> options_changed(preset_rules("rostov"), Rules())[:3]
        ('consolation', 'lone_whister', 'whist_penalty')
    """
    if base is None:
        base = preset_rules(rules.preset)
    inert = inert_options(rules)
    return tuple(
        key
        for key in RULE_KEYS
        if key not in ("preset", "pool_target")
        and key not in inert
        and getattr(rules, key) != getattr(base, key)
    )


def contract_value(level: int) -> int:
    """V(L) = 2·(L − 5): pool, mountain, whists and consolation per trick of a level (§1.2).

    Example (a seven is worth 4)::

        >>> [contract_value(level) for level in (6, 7, 8, 9, 10)]
        [2, 4, 6, 8, 10]
    """
    return VALUE[level]


def obligation(level: int, rules: Rules | None = None) -> int:
    """D(L): tricks the defending side must take (§2.1); 0 at a checked ten (§17.5).

    Example::

        >>> [obligation(level) for level in (6, 7, 8, 9, 10)]
        [4, 2, 1, 1, 1]
        >>> obligation(10, Rules(ten_checked=True))
        0
    """
    if level == 10 and rules is not None and rules.ten_checked:
        return 0
    return OBLIGATION[level]


#: V(L) = 2·(L − 5), the value of a level (§1.2).
VALUE: dict[int, int] = {level: 2 * (level - 5) for level in LEVELS}
#: D(L), the tricks the defending side must take (§2.1).
OBLIGATION: dict[int, int] = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
#: Each whister's own share of D(L) under ``personal_quota`` (§17.4).
QUOTA: dict[int, int] = {6: 2, 7: 1, 8: 1, 9: 1, 10: 1}
