"""The engine's problems in the user's language.

The engine speaks the rule book's English (scoring/engine stays free of Django). The
problems a secretary can meet through the entry form are translated here by their shape;
anything else (mostly format errors of an uploaded file) keeps the engine's wording.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from scoring import engine

PROBLEMS = [
    (r"tricks sum to (?P<total>\d+), expected 10", _("tricks sum to %(total)s, expected 10")),
    (
        r"half-whist is allowed only at levels? (?P<levels>[\d, ]+)",
        _("half-whist is allowed only at levels %(levels)s"),
    ),
    (
        r"half-whist is not allowed by the rules.*",
        _("half-whist is not allowed by this pulka's conventions"),
    ),
    (
        r"half-whist only after the first defender passed: (?P<first>.+) whisted, "
        r"so (?P<second>.+) cannot say half",
        _("half-whist only after the first defender passed: %(first)s whisted"),
    ),
    (
        r"(two half-whists: )?only the second defender \((?P<second>.+?)\) may say half.*",
        _("only the second defender (%(second)s) may say half, after the first passed"),
    ),
    (
        r"the pulka is closed: every pool reached (?P<target>\d+)",
        _("the pulka is closed: every pool reached %(target)s"),
    ),
    (
        r"(?P<player>.+) deals and sits out on the talon, so cannot declare",
        _("%(player)s deals and sits out on the talon, so cannot declare"),
    ),
    (
        r"(?P<player>.+) deals and sits on the talon, so takes at most 2 tricks on raspasy, "
        r"not (?P<tricks>\d+)",
        _("%(player)s deals and sits on the talon, so takes at most 2 tricks on raspasy"),
    ),
    (
        r"talon: the card '(?P<card>.+)' appears twice",
        _("talon: the card %(card)s appears twice"),
    ),
    (
        r"give either talon or quick_tricks, not both",
        _("give either the talon cards or the number of quick tricks, not both"),
    ),
    (
        r"unknown player '(?P<player>.+)' as (declarer|dealer)",
        _("%(player)s does not play at this table"),
    ),
]
_COMPILED = [(re.compile(pattern + r"\Z"), message) for pattern, message in PROBLEMS]


def translate_problem(exc: engine.PulkaError) -> str:
    for pattern, message in _COMPILED:
        match = pattern.match(exc.problem)
        if match:
            return str(message) % match.groupdict()
    return exc.problem
