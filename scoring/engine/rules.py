"""Convention options and the level tables (rules/sochi.md §1.2, §2.1, §14, §17).

:class:`Rules` holds one field per key of the ``rules`` object of spec/pulka-json.md, each
with its Sochi default (§14). The game's fixed tables live here too: the value of a level
V(L) = 2·(L − 5) (§1.2) and the defenders' obligation D(L) (§2.1), which the option
``ten_checked`` changes to D(10) = 0 (§17.5).

Strictness (§17.17): an unknown key, a boolean where a number is expected (or the reverse),
``pool_point_value`` other than 10/20, or a ``raspasy_progression`` that is not a list of
positive whole numbers is a :class:`~scoring.engine.errors.PulkaError` whose message starts
with ``rules:``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import PulkaError

__all__ = [
    "CHOICES",
    "RULE_KEYS",
    "Rules",
    "contract_value",
    "obligation",
    "rules_from_dict",
    "rules_to_dict",
]

#: The allowed values of the option keys that take a word (§14).
CHOICES: dict[str, tuple[str, ...]] = {
    "consolation": ("whisters", "all_opponents"),
    "lone_whister": ("greedy", "gentleman"),
    "whist_penalty": ("full", "half"),
    "duty1_rule": ("second", "both", "split"),
    "raspasy_zero": ("mountain", "pool"),
    "help_exception": ("write_off", "skip_to_next"),
    "whister_shortfall": ("pair", "own"),
    "raspasy_progression_end": ("reset", "repeat_last"),
}

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

_HALF_WHIST_LEVELS = ((6, 7), (6,), ())


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
    consolation: str = "whisters"
    lone_whister: str = "greedy"
    whist_penalty: str = "full"
    duty1_rule: str = "second"
    personal_quota: bool = False
    ten_checked: bool = False
    half_whist_levels: tuple[int, ...] = (6, 7)
    quick_tricks: bool = True
    raspasy_amnesty: bool = True
    raspasy_zero: str = "mountain"
    raspasy_progression: tuple[int, ...] = ()
    exit_only_by_made_game: bool = False
    mountain_floor_zero: bool = False
    help: bool = True
    help_exception: str = "write_off"
    help_excludes_talon_sitter: bool = False
    pool_point_value: int = 10
    whister_shortfall: str = "pair"
    raspasy_progression_end: str = "reset"

    def __post_init__(self) -> None:
        t = self.pool_target
        if type(t) is not int or t <= 0:
            raise PulkaError("rules: pool_target must be a positive whole number")
        for key, allowed in CHOICES.items():
            if getattr(self, key) not in allowed or type(getattr(self, key)) is not str:
                words = ", ".join(repr(a) for a in allowed)
                raise PulkaError(f"rules: {key} must be one of {words}")
        for key in _BOOLEANS:
            if type(getattr(self, key)) is not bool:
                raise PulkaError(f"rules: {key} must be true or false")
        levels = self.half_whist_levels
        if (
            not isinstance(levels, (list, tuple))
            or any(type(x) is not int for x in levels)
            or tuple(levels) not in _HALF_WHIST_LEVELS
        ):
            raise PulkaError("rules: half_whist_levels must be one of [6, 7], [6], []")
        object.__setattr__(self, "half_whist_levels", tuple(levels))
        prog = self.raspasy_progression
        if not isinstance(prog, (list, tuple)) or any(type(x) is not int or x <= 0 for x in prog):
            raise PulkaError("rules: raspasy_progression must be a list of positive whole numbers")
        object.__setattr__(self, "raspasy_progression", tuple(prog))
        if type(self.pool_point_value) is not int or self.pool_point_value not in (10, 20):
            raise PulkaError("rules: pool_point_value must be 10 or 20")


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
        raise PulkaError("rules must be an object")
    for key in data:
        if key not in RULE_KEYS:
            raise PulkaError(f"rules: unknown key {key!r}")
    values = dict(data)
    for key in ("half_whist_levels", "raspasy_progression"):
        if key in values and not isinstance(values[key], (list, tuple)):
            if key == "half_whist_levels":
                raise PulkaError("rules: half_whist_levels must be one of [6, 7], [6], []")
            raise PulkaError("rules: raspasy_progression must be a list of positive whole numbers")
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
    return 2 * (level - 5)


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
    return _OBLIGATION[level]


_OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
