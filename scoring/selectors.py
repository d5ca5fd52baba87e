"""Reads: pulkas of a club, their sheets (always replayed from the deals), evenings."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, QuerySet, Sum
from django.shortcuts import get_object_or_404

from club.access import member_role
from club.models import Club
from scoring import engine
from scoring.models import (
    ENGINE_FIELDS,
    Deal,
    DealRevision,
    Evening,
    Pulka,
    PulkaStatus,
    Seat,
    StatusChange,
    engine_deal,
)


def _pulkas() -> QuerySet[Pulka]:
    seats = Seat.objects.select_related("player").order_by("position")
    return Pulka.objects.select_related("evening", "evening__club").prefetch_related(
        Prefetch("seats", queryset=seats, to_attr="seat_list"),
    )


def pulka_for_club(club: Club, pulka_id: int) -> Pulka:
    """The pulka, scoped to the club (another club's pulka is a 404)."""
    pulkas = Pulka.objects.select_related("evening__club")
    return get_object_or_404(pulkas, pk=pulka_id, evening__club=club)


def pulka_with_role(user, club_slug: str, pulka_id: int) -> Pulka | None:
    """The pulka of that club, and the user's role there as ``member_role``.

    One query for what the tenant gate and every pulka view need (None: no such pulka
    there); the names at the table come with the first read of `pulka.names`.
    """
    pulkas = (
        Pulka.objects.select_related("evening__club")
        .filter(pk=pulka_id, evening__club__slug=club_slug)
        .annotate(member_role=member_role(user, club="evening__club"))
    )
    try:
        return pulkas.get()
    except Pulka.DoesNotExist:
        return None


def pulka_deals(pulka: Pulka) -> list[Deal]:
    return list(
        Deal.objects.filter(pulka=pulka)
        .select_related("entered_by", "changed_by")
        .order_by("number")
    )


def engine_deals(pulka: Pulka, names: list[str]) -> list[engine.Deal]:
    """The pulka's deals as the engine reads them, straight from the rows (no model objects)."""
    rows = Deal.objects.filter(pulka=pulka).order_by("number").values_list(*ENGINE_FIELDS)
    return [engine_deal(names, *row) for row in rows]


def pulka_sheet(
    pulka: Pulka, deals: list[Deal] | None = None, names: list[str] | None = None
) -> engine.Sheet:
    """Replay the pulka's deals through the engine: the sheet is never stored.

    `deals` and `names` are read when not given (a list of tables has them prefetched).
    """
    if names is None:
        names = pulka.names
    if deals is None:
        deals = pulka_deals(pulka)
    return engine.compute_sheet(
        pulka.engine_rules(),
        names,
        [deal.to_engine(names) for deal in deals],
        first_dealer=names[pulka.first_dealer],
    )


def pulka_revisions(pulka: Pulka, number: int | None = None) -> QuerySet[DealRevision]:
    revisions = DealRevision.objects.filter(pulka=pulka).select_related("user")
    if number is not None:
        revisions = revisions.filter(number=number)
    return revisions.order_by("-at", "-id")


def pulka_history(pulka: Pulka, number: int | None = None) -> list[DealRevision | StatusChange]:
    """The pulka's history, newest first: every change to its deals, and who finished,
    resumed or abandoned it (those only when the history of one deal is not asked for)."""
    lines: list[DealRevision | StatusChange] = list(pulka_revisions(pulka, number))
    if number is None:
        lines += StatusChange.objects.filter(pulka=pulka).select_related("user")
    return sorted(lines, key=lambda line: line.at, reverse=True)


@dataclass(frozen=True)
class Table:
    """A pulka with its replayed sheet, for lists of tables."""

    pulka: Pulka
    names: list[str]
    sheet: engine.Sheet

    @property
    def rows(self) -> list[dict]:
        return sheet_rows(self.sheet, self.names)


def sheet_rows(sheet: engine.Sheet, names: list[str]) -> list[dict]:
    target = sheet.rules.pool_target
    return [
        {
            "name": name,
            "pool": sheet.pool[name],
            "pool_closed": sheet.pool[name] >= target,
            "mountain": sheet.mountain[name],
            # Aligned with `names`; None on the player's own column.
            "whists": [None if other == name else sheet.whists[name][other] for other in names],
            "result": sheet.result[name],
            "result_rounded": sheet.result_rounded[name],
        }
        for name in names
    ]


def _tables(pulkas: QuerySet[Pulka]) -> list[Table]:
    pulkas = pulkas.prefetch_related(
        Prefetch("deals", queryset=Deal.objects.order_by("number"), to_attr="deal_list")
    )
    tables = []
    for pulka in pulkas:
        names = [seat.player.name for seat in pulka.seat_list]
        sheet = pulka_sheet(pulka, pulka.deal_list, names)
        tables.append(Table(pulka=pulka, names=names, sheet=sheet))
    return tables


def evening_tables(evening: Evening) -> list[Table]:
    return _tables(_pulkas().filter(evening=evening).order_by("table"))


def running_tables_for_club(club: Club) -> list[Table]:
    return _tables(
        _pulkas()
        .filter(evening__club=club, status=PulkaStatus.RUNNING)
        .order_by("-evening__date", "table")
    )


def evening_live_token(evening: Evening) -> str:
    """Changes whenever a table of the evening is opened or changed (one small query)."""
    totals = Pulka.objects.filter(evening=evening).aggregate(tables=Count("id"), sum=Sum("version"))
    return f"{totals['tables']}-{totals['sum'] or 0}"


def club_live_token(club: Club) -> str:
    """Changes whenever a table of the club starts, changes or stops (one query).

    Versions only grow and tables are never deleted, so the sum never comes back to a value
    it had: an old token cannot match again.
    """
    totals = Pulka.objects.filter(evening__club=club).aggregate(
        tables=Count("id"), sum=Sum("version")
    )
    return f"{totals['tables']}-{totals['sum'] or 0}"


def pulka_version(club: Club, pulka_id: int) -> int | None:
    """The pulka's version, for a spectator's cheap "anything new?" check."""
    return (
        Pulka.objects.filter(pk=pulka_id, evening__club=club)
        .values_list("version", flat=True)
        .first()
    )


def evenings_for_club(club: Club) -> QuerySet[Evening]:
    """The club's evenings, newest first, each with its number of tables (`table_count`)."""
    return (
        Evening.objects.filter(club=club)
        .annotate(table_count=Count("pulkas"))
        .order_by("-date", "-id")
    )


def evening_for_club(club: Club, evening_id: int) -> Evening:
    return get_object_or_404(Evening.objects.select_related("club"), pk=evening_id, club=club)
