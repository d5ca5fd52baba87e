"""Convention options and the level tables (rules/sochi.md §1.2, §2.1, §14, §17).

:class:`Rules` holds one field per key of the ``rules`` object of spec/pulka-json.md, each
with its Sochi default (§14). The game's fixed tables live here too: the value of a level
V(L) = 2·(L − 5) (§1.2) and the defenders' obligation D(L) (§2.1), which the option
``ten_checked`` changes to D(10) = 0 (§17.5).

Strictness (§17.17): an unknown key, a boolean where a number is expected (or the reverse),
``pool_point_value`` other than 10/20, or a ``raspasy_progression`` that is not a list of
positive whole numbers is a :class:`~scoring.engine.errors.PulkaError` whose message starts
with ``rules:``.

Bounds. §14 allows "any positive integer" as the pool target and leaves the raspasy
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
    CONSOLATION_WHISTERS,
    DUTY1_SECOND,
    HALF_WHIST_LEVELS,
    HELP_EXCEPTION_WRITE_OFF,
    LEVELS,
    LONE_WHISTER_GREEDY,
    OPTION_CHOICES,
    POOL_POINT_VALUES,
    PROGRESSION_END_RESET,
    RASPASY_ZERO_MOUNTAIN,
    WHIST_PENALTY_FULL,
    WHISTER_SHORTFALL_PAIR,
)

__all__ = [
    "CHOICES",
    "OBLIGATION",
    "POOL_TARGET_MAX",
    "QUOTA",
    "RASPASY_STEPS_MAX",
    "RASPASY_STEP_MAX",
    "RULE_KEYS",
    "VALUE",
    "Rules",
    "contract_value",
    "obligation",
    "rules_from_dict",
    "rules_to_dict",
]

#: The highest pool target (T) a pulka may agree on (§14, bounded: see the module's docstring).
POOL_TARGET_MAX = 1000
#: The highest cost of one step of the raspasy progression (§7.5, §17.10).
RASPASY_STEP_MAX = 100
#: The most steps a raspasy progression may have (§7.5, §17.10).
RASPASY_STEPS_MAX = 10

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

    def __post_init__(self) -> None:
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


#: Every key of the ``rules`` object, in the order of the spec table.
RULE_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Rules))


def rules_from_dict(data: Mapping[str, Any] | None) -> Rules:
    """Read a (possibly partial) pulka/1 ``rules`` object strictly (§14, §17.16–17).

    Omitted keys take the Sochi default; unknown keys and wrong types raise PulkaError.

    Example (a Leningrad-flavoured pulka to 30)::

        >>> r = rules_from_dict({"pool_target": 30, "raspasy_progression": [1, 2, 4]})
        >>> r.pool_target, r.raspasy_progression, r.help
        (30, (1, 2, 4), True)
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
    return Rules(**values)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every rules key in spec order with its value, JSON-ready (lists, not tuples; §17.16).

    Example::

        >>> d = rules_to_dict(Rules(pool_target=10))
        >>> d["pool_target"], d["half_whist_levels"], d["raspasy_progression"], len(d)
        (10, [6, 7], [], 20)
    """
    out: dict[str, Any] = {}
    for key in RULE_KEYS:
        value = getattr(rules, key)
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


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
