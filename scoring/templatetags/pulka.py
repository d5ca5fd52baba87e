"""Template filters for the sheet: scores, the engine's entries and deals in words."""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import engine
from scoring.formatting import (
    card_label,
    contract_label,
    figure,
    figure_html,
    score,
    signed,
    signed_figure,
)

register = template.Library()

# The display formats live in scoring.formatting; here they become template filters.
register.filter("score", score)
register.filter("signed", signed)
register.filter("figure", figure)
register.filter("signed_figure", signed_figure)


@register.filter
def figure_title(value) -> str:
    """The figure, with the exact value on hover where they differ (formatting.figure_html)."""
    return figure_html(value)


@register.filter
def signed_figure_title(value) -> str:
    return figure_html(value, sign=True)


@register.filter
def contract(value: str) -> str:
    return contract_label(value) if value else ""


def _tricks(n: int) -> str:
    return ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": n}


@register.filter
def entry_text(entry: engine.Entry) -> str:
    """What a deal wrote, in the user's language ("Boris writes whists on Anna: 8")."""
    p = {"player": entry.player, "other": entry.other, "amount": score(entry.amount)}
    code, reason = entry.code, entry.reason
    if code == "pool":
        return _("%(player)s: %(amount)s into the pool") % p
    if code == "help":
        return _("help: %(amount)s into %(other)s's pool") % p
    if code == "whists":
        text = {
            "consolation": _("%(player)s writes whists on %(other)s: %(amount)s (consolation)"),
            "half_whist": _("%(player)s writes whists on %(other)s: %(amount)s (half-whist)"),
            "help": _("%(player)s writes whists on %(other)s: %(amount)s (help)"),
            # Raspasy in whists (rules/conventions.md §23): the fewest tricks write on the
            # others' tricks; two tied for the fewest write half each.
            "raspasy": _(
                "%(player)s writes whists on %(other)s: %(amount)s (raspasy, fewest tricks)"
            ),
            "raspasy_shared": _(
                "%(player)s writes whists on %(other)s: %(amount)s (raspasy, fewest tricks, shared)"
            ),
            "quick_tricks": _(
                "%(player)s writes whists on %(other)s: %(amount)s (quick tricks in the talon)"
            ),
        }.get(reason or "", _("%(player)s writes whists on %(other)s: %(amount)s"))
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
def deal_summary(data: dict, names: list[str] | None = None) -> str:
    """A deal (pulka/1 object) in a line: "Anna 7♥ · Boris whist, Vera pass · 7–2–1".

    Players are listed clockwise from the declarer (seat order for raspasy), whatever order
    the stored object keeps its keys in (PostgreSQL's jsonb sorts them).
    """
    kind = data["kind"]
    order = list(names or [])
    declarer = data.get("declarer")
    if declarer in order:
        start = order.index(declarer)
        order = order[start:] + order[:start]

    def in_order(mapping: dict) -> list[tuple[str, object]]:
        known = [(name, mapping[name]) for name in order if name in mapping]
        return known + [(name, v) for name, v in mapping.items() if name not in order]

    tricks = in_order(data.get("tricks") or {})
    if kind == engine.RASPASY:
        counts = ", ".join(f"{name} {n}" for name, n in tricks)
        return _("Raspasy: %(tricks)s") % {"tricks": counts}
    if kind == engine.MISERE:
        taken = tricks[0][1] if tricks else 0
        if taken:
            return _("%(declarer)s misère, %(tricks)s taken") % {
                "declarer": declarer,
                "tricks": _tricks(taken),
            }
        return _("%(declarer)s misère, clean") % {"declarer": declarer}
    words = {engine.WHIST: _("whist"), engine.PASS: _("pass"), engine.HALF: _("half-whist")}
    calls = ", ".join(f"{name} {words[c]}" for name, c in in_order(data.get("calls", {})))
    text = f"{declarer} {contract_label(data['contract'])} · {calls}"
    if tricks:
        text += " · " + "–".join(str(n) for _name, n in tricks)
    else:
        text += " · " + _("not played")
    talon = data.get("talon")
    if talon:
        text += " · " + _("talon %(cards)s") % {"cards": " ".join(card_label(c) for c in talon)}
    elif data.get("quick_tricks"):
        text += " · " + _("%(n)s quick tricks") % {"n": data["quick_tricks"]}
    return text


# A speed trick, kept for its figure: the entry form is rendered on every deal, so its inputs
# are written here directly rather than through Django's per-widget templates, which took
# 27-38% of an entry's time (bench/entry.py --profile, the line "of which form widgets
# (as_widget)": 38.8% of the view with the widgets, 0% with these tags).


def _current(field: BoundField) -> str | None:
    value = field.value()
    return None if value is None or value == "" else str(value)


@register.simple_tag(takes_context=True)
def radios(context, field: BoundField, autofocus: bool = False) -> str:
    """A radio group; ids carry the value, so they stay put when the form is re-rendered.

    `autofocus` puts the focus on the group on a fresh form, not on a re-rendered draft
    (there htmx keeps the focus where the secretary is).
    """
    name, current = field.html_name, _current(field)
    autofocus = autofocus and not context.get("draft")
    parts = ['<div class="radios">']
    for i, (value, label) in enumerate(field.field.choices):
        v = escape(str(value))
        ident = f"id_{name}_{v}"
        checked = " checked" if str(value) == current else ""
        focus = " autofocus" if autofocus and (checked or (current is None and i == 0)) else ""
        parts.append(
            f'<label for="{ident}"><input type="radio" name="{name}" value="{v}" '
            f'id="{ident}"{checked}{focus}> {escape(label)}</label>'
        )
    parts.append("</div>")
    return mark_safe("".join(parts))


@register.simple_tag
def number_input(field: BoundField) -> str:
    """A count of tricks, bounded as its field is (the talon's 0–2, a player's 0–10)."""
    value = _current(field)
    shown = f' value="{escape(value)}"' if value is not None else ""
    high = getattr(field.field, "max_value", None)
    high = 10 if high is None else high
    return mark_safe(
        f'<input type="number" name="{field.html_name}" id="{field.auto_id}" min="0" '
        f'max="{high}" inputmode="numeric"{shown}>'
    )


@register.simple_tag
def hidden_input(field: BoundField) -> str:
    value = _current(field) or ""
    return mark_safe(f'<input type="hidden" name="{field.html_name}" value="{escape(value)}">')


@register.simple_tag
def select(field: BoundField) -> str:
    current = _current(field)
    options = "".join(
        f'<option value="{escape(str(value))}"{" selected" if str(value) == current else ""}>'
        f"{escape(label)}</option>"
        for value, label in field.field.choices
    )
    return mark_safe(f'<select name="{field.html_name}" id="{field.auto_id}">{options}</select>')


@register.simple_tag
def text_input(field: BoundField) -> str:
    value = _current(field)
    shown = f' value="{escape(value)}"' if value is not None else ""
    return mark_safe(
        f'<input type="text" name="{field.html_name}" id="{field.auto_id}" '
        f'maxlength="{field.field.max_length}" autocomplete="off"{shown}>'
    )
