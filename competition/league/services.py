"""Writes of competition: a club's leagues (seasons).

Ratings are written by competition.rating.ratings.ratings_update.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy

from club.errors import ServiceError
from club.models import Club
from competition.models import CONVENTION_CHOICES, CountingRule, League

# Messages shared by the form and the services (a service refuses what the form refuses).
END_BEFORE_START = gettext_lazy("The last evening cannot be before the first.")
CAP_NOT_POSITIVE = gettext_lazy(
    "The cap is a whole number of whists, 1 or more; leave it empty for no cap."
)
BEST_COUNT_MISSING = gettext_lazy(
    "Say how many of each player's best pulkas count (1 or more) for this rule."
)
MIN_PULKAS_TOO_LOW = gettext_lazy("The pulkas needed to be ranked is a whole number, 1 or more.")
CONVENTION_UNKNOWN = gettext_lazy("Choose Sochi, Leningrad or Rostov, or any convention.")


class LeagueError(ServiceError):
    """A league the club's rules do not allow; `field` names the form field it is about."""


def league_problems(
    *,
    start: datetime.date | None,
    end: datetime.date | None,
    rule: str,
    best_count: int | None,
    cap: int | None,
    min_pulkas: int | None,
    convention: str = "",
) -> dict[str, str]:
    """What is wrong with these settings, by field (empty: nothing)."""
    problems: dict[str, str] = {}
    if convention not in dict(CONVENTION_CHOICES):
        problems["convention"] = str(CONVENTION_UNKNOWN)
    if start and end and end < start:
        problems["end"] = str(END_BEFORE_START)
    if cap is not None and cap < 1:
        problems["cap"] = str(CAP_NOT_POSITIVE)
    if rule == CountingRule.BEST and (best_count is None or best_count < 1):
        problems["best_count"] = str(BEST_COUNT_MISSING)
    if min_pulkas is None or min_pulkas < 1:
        problems["min_pulkas"] = str(MIN_PULKAS_TOO_LOW)
    return problems


def _check(**settings) -> None:
    problems = league_problems(**settings)
    if problems:
        field, message = next(iter(problems.items()))
        raise LeagueError(message, field=field)


@transaction.atomic
def league_create(
    *,
    club: Club,
    name: str,
    start: datetime.date,
    end: datetime.date,
    rule: str,
    best_count: int | None,
    cap: int | None,
    min_pulkas: int,
    convention: str = "",
) -> League:
    """Open a league (season) of the club; `convention` restricts it to the pulkas of one
    preset (blank: any convention counts)."""
    _check(
        start=start,
        end=end,
        rule=rule,
        best_count=best_count,
        cap=cap,
        min_pulkas=min_pulkas,
        convention=convention,
    )
    return League.objects.create(
        club=club,
        name=name,
        start=start,
        end=end,
        rule=rule,
        best_count=best_count if rule == CountingRule.BEST else None,
        cap=cap,
        min_pulkas=min_pulkas,
        convention=convention,
    )


@transaction.atomic
def league_update(
    *,
    league: League,
    name: str,
    start: datetime.date,
    end: datetime.date,
    rule: str,
    best_count: int | None,
    cap: int | None,
    min_pulkas: int,
    convention: str = "",
) -> League:
    """Change a league's name, dates, rule or convention; its ranking follows at the next
    read (the settings are part of the ranking's cache key)."""
    _check(
        start=start,
        end=end,
        rule=rule,
        best_count=best_count,
        cap=cap,
        min_pulkas=min_pulkas,
        convention=convention,
    )
    locked = League.objects.select_for_update().get(pk=league.pk)
    locked.name = name
    locked.start, locked.end = start, end
    locked.rule = rule
    locked.best_count = best_count if rule == CountingRule.BEST else None
    locked.cap = cap
    locked.min_pulkas = min_pulkas
    locked.convention = convention
    locked.save()
    return locked
