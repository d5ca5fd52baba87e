"""The federation's rating list: the clubs' rating (competition.rating.ratings), by person.

What counts (`counted_results`): the counted result caches of the member clubs' pulkas dated
inside a membership (from `counts_from`, before `left_on`), and every table of the open
events that count for the federation, whatever their evening's `counted`. A roster name
linked to a person (PersonLink) is rated as that person; a name with no link is rated under
its own key and never listed.

`rebuild` replays every counted pulka through competition.rating.ratings.replay (the very
loop the clubs' ratings run, so the same pulkas give the same numbers), writes the
PersonRating cache and the RatingList, and stamps FederationRefresh with the date of the
latest counted pulka ("calculated on"). One transaction: readers see the old list until the
new one is complete. Two builds of one federation take turns (an advisory lock).
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from club.models import Club
from competition.models import RoundTable
from competition.profile import charts
from competition.rating import ratings
from competition.rating.ratings import Rating
from competition.tasks import advisory_lock
from federation.models import (
    Federation,
    FederationRefresh,
    MemberClub,
    MemberState,
    Person,
    PersonLink,
    PersonRating,
    RatingList,
)
from scoring.models import PairResultCache, PulkaResultCache

#: The first key of the advisory lock that serialises a federation's builds ("FedR").
BUILD_LOCK = 0x46656452
BATCH = 2000

#: The membership states whose periods count: accepted (joined_on set), current or ended.
COUNTING_STATES = (MemberState.MEMBER, MemberState.LEFT)


def memberships(federation: Federation) -> QuerySet[MemberClub]:
    """The federation's accepted memberships, current or ended (a club that left keeps its
    pulkas from before it left)."""
    return MemberClub.objects.filter(
        federation=federation, state__in=COUNTING_STATES, joined_on__isnull=False
    )


def _counts(federation: Federation) -> Q:
    """The condition on a result cache row (PulkaResultCache or PairResultCache) that it
    counts for the federation: one Q, so that both caches read the same pulkas."""
    inside = memberships(federation).filter(
        Q(counts_from__isnull=True) | Q(counts_from__lte=OuterRef("date")),
        Q(left_on__isnull=True) | Q(left_on__gt=OuterRef("date")),
        club=OuterRef("club"),
    )
    open_tables = RoundTable.objects.filter(
        round__tournament__open_event__federation=federation,
        round__tournament__open_event__counts_for_federation=True,
    ).values("pulka_id")
    return Q(Exists(inside), counted=True) | Q(pulka_id__in=open_tables)


def counted_results(
    federation: Federation,
) -> tuple[QuerySet[PulkaResultCache], QuerySet[PairResultCache]]:
    """The result rows and the pair rows of every pulka that counts for the federation."""
    condition = _counts(federation)
    return (
        PulkaResultCache.objects.filter(condition),
        PairResultCache.objects.filter(condition),
    )


def identities(federation: Federation) -> dict[int, int]:
    """player id -> person id, for every linked roster name of the federation."""
    return dict(
        PersonLink.objects.filter(federation=federation).values_list("player_id", "person_id")
    )


@dataclass(frozen=True)
class BuildFigures:
    pulkas: int  # counted pulkas replayed
    ratings: int  # PersonRating rows written
    persons: int  # persons rated (with at least one pulka)
    listed: int  # RatingList rows written
    calculated_on: datetime.date
    seconds: float


def _placed(entries: list[tuple[float, str, int]]) -> list[int]:
    """Places of entries sorted by rating, best first: equal ratings share a place
    (1, 2, 2, 4)."""
    places: list[int] = []
    for index, (rating, _, _) in enumerate(entries):
        tied = index and rating == entries[index - 1][0]
        places.append(places[-1] if tied else index + 1)
    return places


@transaction.atomic
def rebuild(federation: Federation) -> BuildFigures:
    """Replay every counted pulka of the federation and publish its rating list.

    Queries: the lock, the links, the result rows, the pair rows, two deletes, the
    PersonRating inserts in batches of BATCH, the persons, the clubs, the list's inserts and
    the refresh row: constant but for the batches.
    """
    started = time.perf_counter()
    advisory_lock(BUILD_LOCK, federation.pk)
    person_of = identities(federation)
    results, pairs = counted_results(federation)
    rated = ratings.read_tables(results, pairs)
    state: dict[object, Rating] = {}
    rows: list[PersonRating] = []
    played: dict[int, list[tuple[datetime.date, int]]] = {}
    seq, last = 0, None
    seated: set[int] = set()
    for pulka, player, old, new in ratings.replay(
        rated.tables, rated.order, rated.nets, state, key=lambda p: person_of.get(p, ("p", p))
    ):
        if pulka != last:
            seq, last, seated = seq + 1, pulka, set()
        person = person_of.get(player)
        if person is None or person in seated:
            continue  # an unlinked name, or a person's second name at one table (rated alone)
        seated.add(person)
        date, club = rated.order[pulka][0], rated.clubs[pulka]
        played.setdefault(person, []).append((date, club))
        rows.append(
            PersonRating(
                federation=federation,
                person_id=person,
                pulka_id=pulka,
                club_id=club,
                date=date,
                seq=seq,
                mu=new.mu,
                sigma=new.sigma,
                rating=new.display,
                delta=new.display - old.display,
            )
        )
    PersonRating.objects.filter(federation=federation).delete()
    RatingList.objects.filter(federation=federation).delete()
    PersonRating.objects.bulk_create(rows, batch_size=BATCH)

    persons = dict(  # the persons a list may show: not merged into another
        Person.objects.filter(federation=federation, merged_into__isnull=True)
        .order_by()
        .values_list("pk", "sort_key")
    )
    cities = dict(
        Club.objects.filter(pk__in={club for games in played.values() for _, club in games})
        .order_by()
        .values_list("pk", "city")
    )
    least = federation.rating_min_pulkas
    entries = sorted(
        (
            (-state[person].display, persons[person], person)
            for person, games in played.items()
            if person in persons and len(games) >= max(least, 1)
        ),
    )
    ranked = [(-negative, key, person) for negative, key, person in entries]
    listed = []
    for place, (_, _, person) in zip(_placed(ranked), ranked, strict=True):
        games = played[person]
        clubs = sorted({club for _, club in games})
        final = state[person]
        listed.append(
            RatingList(
                federation=federation,
                person_id=person,
                place=place,
                rating=final.display,
                mu=final.mu,
                sigma=final.sigma,
                pulkas=len(games),
                last_date=max(date for date, _ in games),
                clubs=clubs,
                cities=sorted({cities[club] for club in clubs if cities.get(club)}),
            )
        )
    RatingList.objects.bulk_create(listed, batch_size=BATCH)

    calculated_on = max((order[0] for order in rated.order.values()), default=None)
    calculated_on = calculated_on or timezone.localdate()
    stamp = {"calculated_on": calculated_on, "built_at": timezone.now()}
    if not FederationRefresh.objects.filter(federation=federation).update(**stamp):
        # Built without a request (manage.py rebuild_federation_ratings): nothing is owed.
        FederationRefresh.objects.create(
            federation=federation, generation=0, built_generation=0, **stamp
        )
    return BuildFigures(
        pulkas=len(rated.order),
        ratings=len(rows),
        persons=len(played),
        listed=len(listed),
        calculated_on=calculated_on,
        seconds=time.perf_counter() - started,
    )


# --- reads ----------------------------------------------------------------------------------


def person_history(person: Person) -> list[tuple[datetime.date, float, str]]:
    """(date, rating after it, the club's name) for each of the person's rated pulkas,
    oldest first: one query."""
    return list(
        PersonRating.objects.filter(person=person)
        .order_by("seq")
        .values_list("date", "rating", "club__name")
    )


#: The rated pulkas a person's page lists (the newest); the chart shows them all.
HISTORY_SHOWN = 20


def person_rating_context(person: Person) -> dict[str, object]:
    """What templates/federation/_person_rating.html shows: the chart of the person's rating
    over his rated pulkas and a table of the latest HISTORY_SHOWN; one query."""
    history = person_history(person)
    return {
        "rating_history": history[-HISTORY_SHOWN:][::-1],
        "rating_history_total": len(history),
        "rating_chart": charts.line_chart(
            ((date, value) for date, value, _club in history), decimals=0
        ),
    }
