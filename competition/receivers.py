"""Competition's answer to what scoring announces (scoring.signals)."""

from __future__ import annotations

import datetime

from django.dispatch import receiver

from club.models import Club
from competition.rating import background
from scoring.signals import results_changed


@receiver(results_changed, dispatch_uid="competition.rerate_club")
def rerate_club(
    sender: object, *, club: Club, since: datetime.date, counted: bool = True, **kwargs: object
) -> None:
    """A club's results changed from `since` on: its ratings are owed a replay from there
    (none for results that do not count, which its ratings never read).

    The replay is a task (competition.rating.background): the request only records it.
    """
    if counted:
        background.refresh_request(club=club, since=since)
