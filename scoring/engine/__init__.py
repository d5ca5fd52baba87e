"""Pulka's scoring engine: preferans, Sochi convention (rules/sochi.md, all sections), and
the Leningrad and Rostov presets with their options (rules/conventions.md).

Pure Python, standard library only: it imports no Django and does no I/O. A pulka is
replayed deal by deal from an empty sheet (§13) and settled in whists (§10); every
convention option of §14 is a field of :class:`Rules`. Arithmetic is exact (ints, and
:class:`fractions.Fraction` only where a value is fractional). Bad input raises the one
error type :class:`PulkaError`, naming the deal and the problem.

The game's words (deal kinds, calls, suits, ranks, option values) are constants of
:mod:`scoring.engine.words`, exported here; the rest of the project imports them from here.
Every problem has a code in :data:`MESSAGES` (errors.py), the one English table.

Example (Anna makes a seven, Boris whists alone; the spec's first deal)::

    >>> from scoring.engine import Deal, Rules, compute_sheet
    >>> deal = Deal("game", declarer="Anna", contract="7H",
    ...             calls={"Boris": "whist", "Vera": "pass"},
    ...             tricks={"Anna": 7, "Boris": 2, "Vera": 1}, talon=("AS", "KS"))
    >>> sheet = compute_sheet(Rules(pool_target=10), ["Anna", "Boris", "Vera"], [deal])
    >>> sheet.pool["Anna"], sheet.whists["Boris"]["Anna"], sheet.whists["Vera"]["Anna"]
    (4, 16, 4)

GLOSSARY (English identifier — Russian — Ukrainian)

- pool — пуля — пуля: points written for made contracts; the pulka ends when every pool
  reaches ``pool_target`` (§9).
- mountain — гора — гора: penalty points (§4–§7); may go negative (§7.3, §9.2).
- whists — висты — висти: ``whists[x][y]`` is what x wrote on y, x's claim against y (§3).
- raspasy — распасы — розпаси: the deal everybody passed; everybody avoids tricks (§7).
- misère — мизер — мізер: the declarer must take no trick (§6).
- half-whist — полвиста — піввіста: the second defender "gets out for half" (§2.4).
- consolation — консоляция — консоляція: whists written on a set declarer per undertrick (§4).
- help — помощь — допомога: a closed player's excess pool points put into the largest open
  pool, for 10 whists per point (§9.2).
- talon — прикуп — прикуп: the two undealt cards; quick tricks in it are taxed (§8).
- declarer — разыгрывающий — розігрувач: the player who named and plays the contract.
- whister — вистующий — вістуючий: a defender who said "whist" (§2.2).
- passer — пасующий — пасуючий: a defender who said "pass" (§2.2).
- talon-sitter — сидящий на прикупе — той, хто сидить на прикупі: the 4-player dealer, dealt
  no cards (§12.3).
"""

from . import words
from .compute import (
    DealShape,
    compute_sheet,
    deal_shape,
    dealer_for_next_deal,
    defenders_in_order,
)
from .deal import Deal, Entry, contract_level, quick_tricks_of_talon
from .errors import MESSAGES, PulkaError, display_params
from .jsonio import (
    Pulka,
    deal_from_dict,
    deal_to_dict,
    format_score,
    parse_pulka,
    pulka_to_dict,
    score_pulka,
    sheet_to_dict,
)
from .rules import (
    INERT_REASONS,
    OBLIGATION,
    POOL_TARGET_MAX,
    PRESET_VALUES,
    QUOTA,
    RASPASY_STEP_MAX,
    RASPASY_STEPS_MAX,
    RASPASY_WHIST_RATE_MAX,
    RULE_KEYS,
    VALUE,
    Rules,
    inert_options,
    options_changed,
    preset_rules,
    rules_from_dict,
    rules_to_dict,
)
from .settlement import pair_nets, result_bound
from .sheet import DealSnapshot, Sheet
from .words import *  # noqa: F403  (the game's words, each defined once: words.__all__)

__all__ = [
    *words.__all__,
    "INERT_REASONS",
    "MESSAGES",
    "OBLIGATION",
    "POOL_TARGET_MAX",
    "PRESET_VALUES",
    "QUOTA",
    "RASPASY_STEPS_MAX",
    "RASPASY_STEP_MAX",
    "RASPASY_WHIST_RATE_MAX",
    "RULE_KEYS",
    "VALUE",
    "Deal",
    "DealShape",
    "DealSnapshot",
    "Entry",
    "Pulka",
    "PulkaError",
    "Rules",
    "Sheet",
    "compute_sheet",
    "contract_level",
    "deal_from_dict",
    "deal_shape",
    "deal_to_dict",
    "display_params",
    "dealer_for_next_deal",
    "defenders_in_order",
    "format_score",
    "inert_options",
    "options_changed",
    "pair_nets",
    "parse_pulka",
    "preset_rules",
    "pulka_to_dict",
    "quick_tricks_of_talon",
    "result_bound",
    "rules_from_dict",
    "rules_to_dict",
    "score_pulka",
    "sheet_to_dict",
]
