"""Template filters for the sheet: scores, the engine's entries and deals in words."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import engine

register = template.Library()

SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


@register.filter
def score(value: int | Fraction | None) -> str:
    """A score as players write it: 12, −3, or an exact fraction such as 5/2."""
    if value is None:
        return ""
    if isinstance(value, Fraction) and value.denominator != 1:
        sign = "−" if value < 0 else ""
        return f"{sign}{abs(value.numerator)}/{value.denominator}"
    number = int(value)
    return f"−{-number}" if number < 0 else str(number)


@register.filter
def signed(value: int | Fraction | None) -> str:
    if value is None:
        return ""
    text = score(value)
    return f"+{text}" if value > 0 else text


@register.filter
def decimal(value: int | Fraction | None) -> str:
    """An exact result shown to two decimals in the user's locale (for titles and print)."""
    if value is None:
        return ""
    return number_format(round(float(value), 2), decimal_pos=2, use_l10n=True)


def contract_label(contract: str) -> str:
    level = engine.contract_level(contract)
    suit = contract[len(str(level)) :]
    return f"{level}{SUITS.get(suit) or _('NT')}"


@register.filter
def contract(value: str) -> str:
    return contract_label(value) if value else ""


def _tricks(n: int) -> str:
    return ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": n}


@register.filter
def entry_text(entry: engine.Entry) -> str:
    """What a deal wrote, in the user's language ("Boris writes 8 whists on Anna")."""
    p = {"player": entry.player, "other": entry.other, "amount": score(entry.amount)}
    code, reason = entry.code, entry.reason
    if code == "pool":
        return _("%(player)s: %(amount)s into the pool") % p
    if code == "help":
        return _("help: %(amount)s into %(other)s's pool") % p
    if code == "whists":
        text = {
            "consolation": _("%(player)s writes %(amount)s whists on %(other)s (consolation)"),
            "half_whist": _("%(player)s writes %(amount)s whists on %(other)s (half-whist)"),
            "help": _("%(player)s writes %(amount)s whists on %(other)s (help)"),
            "quick_tricks": _(
                "%(player)s writes %(amount)s whists on %(other)s (quick tricks in the talon)"
            ),
        }.get(reason or "", _("%(player)s writes %(amount)s whists on %(other)s"))
        return text % p
    if code == "mountain":
        t = entry.tricks
        if reason == "declarer_set" and t:
            return _("%(player)s: %(amount)s into the mountain (%(tricks)s short)") % {
                **p,
                "tricks": _tricks(t),
            }
        if reason == "whister_set":
            return _("%(player)s: %(amount)s into the mountain (set on whist)") % p
        if reason == "misere_failed" and t:
            return _("%(player)s: %(amount)s into the mountain (misère, %(tricks)s taken)") % {
                **p,
                "tricks": _tricks(t),
            }
        if reason == "raspasy":
            return _("%(player)s: %(amount)s into the mountain (raspasy)") % p
        return _("%(player)s: %(amount)s into the mountain") % p
    if code == "write_off":
        text = {
            "raspasy_zero": _(
                "%(player)s: %(amount)s written off the mountain (raspasy, no tricks)"
            ),
            "no_one_to_help": _(
                "%(player)s: %(amount)s written off the mountain (nobody left to help)"
            ),
            "help_exception": _(
                "%(player)s: %(amount)s written off the mountain "
                "(no help: %(other)s was set on whist)"
            ),
            "help_off": _("%(player)s: %(amount)s written off the mountain (pool overflow)"),
        }.get(reason or "", _("%(player)s: %(amount)s written off the mountain"))
        return text % p
    return str(entry)


@register.filter
def deal_summary(data: dict) -> str:
    """A deal (pulka/1 object) in a line: "Anna 7♥ · Boris whist, Vera pass · 7–2–1"."""
    kind = data["kind"]
    tricks = data.get("tricks") or {}
    if kind == "raspasy":
        counts = ", ".join(f"{name} {n}" for name, n in tricks.items())
        return _("Raspasy: %(tricks)s") % {"tricks": counts}
    if kind == "misere":
        taken = next(iter(tricks.values()), 0)
        if taken:
            return _("%(declarer)s misère, %(tricks)s taken") % {
                "declarer": data["declarer"],
                "tricks": _tricks(taken),
            }
        return _("%(declarer)s misère, clean") % {"declarer": data["declarer"]}
    calls_words = {"whist": _("whist"), "pass": _("pass"), "half": _("half-whist")}
    calls = ", ".join(f"{name} {calls_words[c]}" for name, c in data.get("calls", {}).items())
    text = f"{data['declarer']} {contract_label(data['contract'])} · {calls}"
    if tricks:
        text += " · " + "–".join(str(n) for n in tricks.values())
    else:
        text += " · " + _("not played")
    talon = data.get("talon")
    if talon:
        text += " · " + _("talon %(cards)s") % {"cards": " ".join(talon)}
    elif data.get("quick_tricks"):
        text += " · " + _("%(n)s quick tricks") % {"n": data["quick_tricks"]}
    return text
