"""The player profile: reads of the result caches.

The selectors read only the caches (PulkaResultCache, PairResultCache, RatingSnapshot), never
a pulka's deals, and each answers in one query whatever the number of pulkas the player has
played. The profile's charts are laid out by competition.profile.charts.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Count, F, Max, Min, Q, QuerySet, Sum, Window
from django.db.models.expressions import RowRange
from django.shortcuts import get_object_or_404
from django.utils.translation import pgettext_lazy

from club.models import Club, Player
from competition.rating import ratings
from scoring.models import PairResultCache, PulkaResultCache

PLACES = (1, 2, 3, 4)
PLACE_NAMES = {
    1: pgettext_lazy("place at the table", "1st"),
    2: pgettext_lazy("place at the table", "2nd"),
    3: pgettext_lazy("place at the table", "3rd"),
    4: pgettext_lazy("place at the table", "4th"),
}

# The order in which a player's pulkas happened: by evening, then as the tables were opened.
_PLAYED = ("date", "pulka__evening_id", "pulka_id")


def player_for_club(club: Club, player_id: int) -> Player:
    """A player of this club's roster; any other id (another club's player too) is a 404."""
    return get_object_or_404(Player, pk=player_id, club=club)


# The pulka list


def player_pulkas(club: Club, player: Player) -> QuerySet[PulkaResultCache]:
    """The player's finished pulkas, newest first, with their evening (for the links)."""
    return (
        PulkaResultCache.objects.filter(club=club, player=player)
        .select_related("pulka__evening")
        .order_by(*(f"-{field}" for field in _PLAYED))
    )


@dataclass(frozen=True, slots=True)
class PulkaRow:
    """One line of the pulka list: the cache row, its exact result and who else sat there."""

    cache: PulkaResultCache
    exact: Fraction
    tablemates: tuple[str, ...]

    @property
    def seat(self) -> int:
        return self.cache.position + 1


def pulka_rows(club: Club, player: Player, page: Sequence[PulkaResultCache]) -> list[PulkaRow]:
    """The rows of one page of :func:`player_pulkas`, with the tablemates (one query)."""
    ids = [row.pulka_id for row in page]
    mates: dict[int, list[str]] = defaultdict(list)
    others = (
        PulkaResultCache.objects.filter(club=club, pulka_id__in=ids)
        .exclude(player=player)
        .order_by("pulka_id", "position")
        .values_list("pulka_id", "player__name")
    )
    for pulka_id, name in others:
        mates[pulka_id].append(name)
    return [
        PulkaRow(cache=row, exact=Fraction(row.result), tablemates=tuple(mates[row.pulka_id]))
        for row in page
    ]


# Totals and places


@dataclass(frozen=True, slots=True)
class PlaceShare:
    place: int
    count: int
    percent: float  # of all the player's pulkas, 0–100

    @property
    def name(self) -> str:
        return str(PLACE_NAMES[self.place])


@dataclass(frozen=True, slots=True)
class Summary:
    pulkas: int
    whists: int  # the sum of the rounded results
    best: int | None
    worst: int | None
    places: tuple[PlaceShare, ...]

    @property
    def average(self) -> Fraction | None:
        """Exact: the page shows it as every figure (scoring.formatting.figure)."""
        return Fraction(self.whists, self.pulkas) if self.pulkas else None


def player_summary(club: Club, player: Player) -> Summary:
    """Pulkas, whists, best and worst result, and how often each place: one aggregate query."""
    counts = {f"place_{n}": Count("id", filter=Q(place=n)) for n in PLACES}
    row = PulkaResultCache.objects.filter(club=club, player=player).aggregate(
        pulkas=Count("id"),
        whists=Sum("result_rounded"),
        best=Max("result_rounded"),
        worst=Min("result_rounded"),
        **counts,
    )
    total = row["pulkas"]
    places = tuple(
        PlaceShare(
            place=n,
            count=row[f"place_{n}"],
            percent=100 * row[f"place_{n}"] / total if total else 0.0,
        )
        for n in PLACES
    )
    return Summary(
        pulkas=total,
        whists=row["whists"] or 0,
        best=row["best"],
        worst=row["worst"],
        places=places,
    )


# Head to head


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent_id: int
    name: str
    pulkas: int  # finished pulkas at the same table
    net: Decimal  # whists the player won from this opponent over them (negative: lost)
    won: int  # pulkas in which the player came out ahead of this opponent
    lost: int

    @property
    def net_rounded(self) -> int:
        return int(self.net.quantize(Decimal(1), rounding=ROUND_HALF_UP))

    @property
    def even(self) -> int:
        return self.pulkas - self.won - self.lost


def head_to_head(club: Club, player: Player) -> list[HeadToHead]:
    """Every opponent the player has met, most met first: one grouped query on the pair cache."""
    rows = (
        PairResultCache.objects.filter(club=club, player=player)
        .values("opponent_id", "opponent__name")
        .annotate(
            pulkas=Count("id"),
            net_total=Sum("net"),
            won=Count("id", filter=Q(net__gt=0)),
            lost=Count("id", filter=Q(net__lt=0)),
        )
        .order_by("-pulkas", "opponent__sort_key", "opponent_id")
    )
    return [
        HeadToHead(
            opponent_id=row["opponent_id"],
            name=row["opponent__name"],
            pulkas=row["pulkas"],
            net=Decimal(row["net_total"] or 0),
            won=row["won"],
            lost=row["lost"],
        )
        for row in rows
    ]


# The two series


def whists_series(club: Club, player: Player) -> list[tuple[datetime.date, int]]:
    """(date, whists so far) after each of the player's pulkas, in the order they were played.

    The running sum is a window function, so the database adds up and one query answers.
    """
    running = Window(
        Sum("result_rounded"),
        order_by=[F(field).asc() for field in _PLAYED],
        frame=RowRange(start=None, end=0),
    )
    return list(
        PulkaResultCache.objects.filter(club=club, player=player)
        .annotate(running=running)
        .order_by(*_PLAYED)
        .values_list("date", "running")
    )


def rating_series(player: Player) -> list[tuple[datetime.date, float]]:
    """(date, displayed rating) after each of the player's rated pulkas, in the club's order."""
    return ratings.rating_history(player)
