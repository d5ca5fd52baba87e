"""The federation's answer to what scoring announces (scoring.signals) and to its own
counting_changed (federation.signals): its rating list is owed a rebuild."""

from __future__ import annotations

import datetime

from django.db.models import Q
from django.dispatch import receiver

from club.models import Club
from federation import background
from federation.models import Federation, MemberState
from federation.signals import counting_changed
from scoring.signals import results_changed


@receiver(results_changed, dispatch_uid="federation.rebuild_for_club")
def rebuild_for_club(
    sender: object, *, club: Club, since: datetime.date, counted: bool = True, **kwargs: object
) -> None:
    """A club's results changed from `since` on: every federation that counts them (the club
    is or was a member before `since`, or hosts an open event that counts; for results the
    club does not count, such as a tournament's tables, only the latter) rebuilds its list.

    One query finds them; a club in no federation costs nothing more.
    """
    hosting = Q(events__tournament__club=club, events__counts_for_federation=True)
    if not counted:
        for federation in Federation.objects.filter(hosting).distinct().order_by("pk"):
            background.refresh_request(federation=federation)
        return
    counting = Q(
        member_clubs__club=club,
        member_clubs__state__in=(MemberState.MEMBER, MemberState.LEFT),
        member_clubs__joined_on__isnull=False,
    ) & (Q(member_clubs__left_on__isnull=True) | Q(member_clubs__left_on__gt=since))
    for federation in Federation.objects.filter(counting | hosting).distinct().order_by("pk"):
        background.refresh_request(federation=federation)


@receiver(counting_changed, dispatch_uid="federation.rebuild_counting")
def rebuild_counting(sender: object, *, federation: Federation, **kwargs: object) -> None:
    """What the federation counts changed (members, links, persons, events)."""
    background.refresh_request(federation=federation)
