"""Template tags of the club's stake: a pulka's amounts and payments."""

from __future__ import annotations

from django import template

from scoring.money import pulka_money as money_of_pulka

register = template.Library()


@register.inclusion_tag("scoring/_pulka_money.html", takes_context=True)
def pulka_money(context: template.Context) -> dict:
    """Under a pulka's sheet: each player's amount at the club's stake and who pays whom,
    and the link to the pulka's printout. Reads `club`, `pulka`, `sheet` and `names`."""
    sheet = context["sheet"]
    names = context["names"]
    return {
        "club": context["club"],
        "pulka": context["pulka"],
        "money": money_of_pulka(context["club"], names, sheet.result),
    }
