"""Competition's answer to what scoring announces (scoring.signals)."""

from __future__ import annotations

import datetime

from django.dispatch import receiver

from club.models import Club
from competition import ratings
from scoring.signals import results_changed


@receiver(results_changed, dispatch_uid="competition.rerate_club")
def rerate_club(sender: object, *, club: Club, since: datetime.date, **kwargs: object) -> None:
    """A club's results changed from `since` on: its ratings are replayed from there."""
    ratings.ratings_update(club=club, since=since)
