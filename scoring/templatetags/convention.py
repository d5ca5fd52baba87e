"""The convention a page is about, for the footer: the pulka's own, else the club's default."""

from __future__ import annotations

from django import template

from club.models import Club
from scoring import engine
from scoring.messages import PRESET_LABELS
from scoring.models import Pulka

register = template.Library()


@register.simple_tag(takes_context=True)
def page_convention(context: template.Context) -> str:
    """The name of the convention of the page's pulka, or of its club's new tables; "" on a
    page outside a club (the home page, the accounts, the ratings)."""
    pulka, club = context.get("pulka"), context.get("club")
    if isinstance(pulka, Pulka):
        rules = pulka.rules
    elif isinstance(club, Club):
        rules = club.rules
    else:
        return ""
    preset = (rules or {}).get("preset", engine.PRESET_SOCHI)
    label = PRESET_LABELS.get(preset)
    return str(label) if label is not None else ""
