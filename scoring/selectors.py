"""Reads: pulkas of a club, their sheets (replayed from the deals), evenings, live tokens.

A pulka's own page replays its deals on every read. Lists of tables (the club page, the
evening page) serve each table's sheet from Django's cache, keyed by the pulka's id, its
version (bumped by every change) and its players' names, so the deals are read and
replayed only when a table changed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Count, Prefetch, QuerySet, Sum
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from club.access import member_name, member_player, member_role
from club.models import Club
from club.names import collation_key
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
from scoring.money import AmountLine, Money, club_stake, money_from_amounts, pulka_amounts


def _pulkas() -> QuerySet[Pulka]:
    seats = Seat.objects.select_related("player").order_by("position")
    return Pulka.objects.select_related("evening", "evening__club").prefetch_related(
        Prefetch("seats", queryset=seats, to_attr="seat_list"),
    )


def pulka_with_role(user, club_slug: str, pulka_id: int) -> Pulka | None:
    """The pulka of that club, and the user's role there as ``member_role``.

    One query for what the tenant gate and every pulka view need (None: no such pulka
    there); the names at the table come with the first read of `pulka.names`.
    """
    pulkas = (
        Pulka.objects.select_related("evening__club")
        .filter(pk=pulka_id, evening__club__slug=club_slug)
        .annotate(
            member_role=member_role(user, club="evening__club"),
            member_name=member_name(user, club="evening__club"),
            member_player=member_player(user, club="evening__club"),
        )
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


def pulka_version(pulka: Pulka) -> int | None:
    """The pulka's version as stored now: read after its deals, it says whether they are the
    deals of the version read before them (every change bumps it with the deals it
    changes)."""
    return Pulka.objects.filter(pk=pulka.pk).values_list("version", flat=True).first()


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
class PoolSum:
    """Under ``pool_end: sum`` (rules/conventions.md §20): the pools added up, against the
    end n·T ("pools 32 of 30: finished"), so that the players see how far the end is."""

    total: int
    target: int

    @property
    def reached(self) -> bool:
        return self.total >= self.target

    @property
    def left(self) -> int:
        return max(self.target - self.total, 0)


def pool_sum(sheet: engine.Sheet) -> PoolSum | None:
    """The sum of the pools against n·T, or None when every pool must close by itself."""
    target = sheet.pool_sum_target
    return None if target is None else PoolSum(total=sheet.pool_sum, target=target)


@dataclass(frozen=True)
class TableSheet:
    """What a list of tables shows of one sheet: what the cache keeps, small and picklable."""

    rows: list[dict]
    deals: int
    pool_target: int
    pool_sum: PoolSum | None = None


@dataclass(frozen=True)
class Table:
    """A pulka with its sheet's rows, for lists of tables."""

    pulka: Pulka
    names: list[str]
    sheet: TableSheet

    @property
    def rows(self) -> list[dict]:
        return self.sheet.rows

    @property
    def deals(self) -> int:
        return self.sheet.deals

    @property
    def pool_target(self) -> int:
        return self.sheet.pool_target

    @property
    def pool_sum(self) -> PoolSum | None:
        return self.sheet.pool_sum


def sheet_rows(sheet: engine.Sheet, names: list[str]) -> list[dict]:
    """The sheet's table, a row a player. A pool is marked closed only where every pool must
    reach the target by itself; under ``pool_end: sum`` a pool may pass it and the end is
    the pools' sum (see pool_sum)."""
    target = sheet.rules.pool_target
    by_each = sheet.pool_sum_target is None
    return [
        {
            "name": name,
            "pool": sheet.pool[name],
            "pool_closed": by_each and sheet.pool[name] >= target,
            "mountain": sheet.mountain[name],
            # Aligned with `names`; None on the player's own column.
            "whists": [None if other == name else sheet.whists[name][other] for other in names],
            "result": sheet.result[name],
            "result_rounded": sheet.result_rounded[name],
        }
        for name in names
    ]


# A table's sheet stays in the cache for a day: a key never goes stale (a change makes a
# new key), so the timeout only returns memory from pulkas nobody looks at any more.
TABLE_SHEET_TIMEOUT = 24 * 60 * 60


def table_sheet_key(pulka: Pulka, names: list[str]) -> str:
    """The cache key of a table's sheet: any change to the pulka, its deals or its
    conventions bumps the version; the names are in it because a roster rename changes
    the rows without touching the pulka. (A stable digest: every app server must agree.)"""
    # created_at too: a database restored or reset under a lasting cache (Redis) may give
    # an old id to a new pulka.
    identity = [str(pulka.created_at.timestamp()), *names]
    digest = hashlib.sha256("\x1f".join(identity).encode()).hexdigest()[:16]
    return f"scoring:table-sheet:{pulka.pk}:{pulka.version}:{digest}"


def _table_sheet(pulka: Pulka, names: list[str], rows: list[tuple]) -> TableSheet:
    deals = [engine_deal(names, *row) for row in rows]
    sheet = engine.compute_sheet(
        pulka.engine_rules(), names, deals, first_dealer=names[pulka.first_dealer]
    )
    return TableSheet(
        rows=sheet_rows(sheet, names),
        deals=len(deals),
        pool_target=sheet.rules.pool_target,
        pool_sum=pool_sum(sheet),
    )


def _deal_rows(pulkas: list[Pulka]) -> tuple[dict[int, list[tuple]], set[int]]:
    """The deals of these pulkas in one query, and the pulkas that changed since they were
    read: the version comes in the same statement as the deals, so the two agree."""
    fields = [f"deals__{field}" for field in ENGINE_FIELDS]
    rows = (
        Pulka.objects.filter(pk__in=[pulka.pk for pulka in pulkas])
        .order_by("pk", "deals__number")
        .values_list("pk", "version", *fields)
    )
    found: dict[int, list[tuple]] = {pulka.pk: [] for pulka in pulkas}
    versions: dict[int, int] = {}
    for pk, version, *deal in rows:
        versions[pk] = version
        if deal[0] is not None:  # a pulka without deals still has its one joined row
            found[pk].append(tuple(deal))
    return found, {pulka.pk for pulka in pulkas if versions.get(pulka.pk) != pulka.version}


def _tables(pulkas: QuerySet[Pulka]) -> list[Table]:
    """The tables with their sheets: two queries when every sheet is cached, three when
    some are not, whatever the number of tables and deals."""
    pulkas = list(pulkas)
    names = {pulka.pk: [seat.player.name for seat in pulka.seat_list] for pulka in pulkas}
    keys = {table_sheet_key(pulka, names[pulka.pk]): pulka for pulka in pulkas}
    sheets: dict[int, TableSheet] = {
        keys[key].pk: sheet for key, sheet in cache.get_many(list(keys)).items()
    }
    missed = {key: pulka for key, pulka in keys.items() if pulka.pk not in sheets}
    if missed:
        rows, moved = _deal_rows(list(missed.values()))
        for pulka in missed.values():
            if pulka.pk in moved:
                # Changed between the two reads (a deal was just entered): read it again,
                # rules and all, and do not cache it under the version read first.
                pulka.refresh_from_db()
                rows[pulka.pk] = list(
                    Deal.objects.filter(pulka=pulka).order_by("number").values_list(*ENGINE_FIELDS)
                )
            sheets[pulka.pk] = _table_sheet(pulka, names[pulka.pk], rows[pulka.pk])
        fresh = {key: p for key, p in missed.items() if p.pk not in moved}
        cache.set_many({key: sheets[p.pk] for key, p in fresh.items()}, TABLE_SHEET_TIMEOUT)
    return [Table(pulka=p, names=names[p.pk], sheet=sheets[p.pk]) for p in pulkas]


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
    return _token(totals["tables"], totals["sum"])


def club_live_token(club: Club) -> str:
    """Changes whenever a table of the club starts, changes or stops (one query).

    Versions only grow and tables are never deleted, so the sum never comes back to a value
    it had: an old token cannot match again.
    """
    totals = Pulka.objects.filter(evening__club=club).aggregate(
        tables=Count("id"), sum=Sum("version")
    )
    return _token(totals["tables"], totals["sum"])


def _token(tables: int, versions: int | None) -> str:
    return f"{tables}-{versions or 0}"


@dataclass(frozen=True)
class LiveState:
    """What a spectator's poll needs to know, read in one query: the club (for the tenant
    gate), the token the poll compares, and the user's role there when it was asked for."""

    club: Club
    token: str
    member_role: str | None = None


def pulka_live_state(user, club_slug: str, pulka_id: int) -> LiveState | None:
    """A pulka's poll: its club and version; with a user (None: not needed, as for a public
    club) also the user's role there."""
    pulkas = Pulka.objects.select_related("evening__club").filter(
        pk=pulka_id, evening__club__slug=club_slug
    )
    if user is not None:
        pulkas = pulkas.annotate(
            member_role=member_role(user, club="evening__club"),
            member_name=member_name(user, club="evening__club"),
        )
    pulka = pulkas.first()
    if pulka is None:
        return None
    role = getattr(pulka, "member_role", None)
    return LiveState(club=pulka.evening.club, token=str(pulka.version), member_role=role)


def evening_live_state(user, club_slug: str, evening_id: int) -> LiveState | None:
    """An evening's poll: its club and its tables' token (as evening_live_token)."""
    evenings = (
        Evening.objects.select_related("club")
        .filter(pk=evening_id, club__slug=club_slug)
        .annotate(tables=Count("pulkas"), versions=Sum("pulkas__version"))
    )
    if user is not None:
        evenings = evenings.annotate(member_role=member_role(user, club="club"))
    evening = evenings.first()
    if evening is None:
        return None
    role = getattr(evening, "member_role", None)
    token = _token(evening.tables, evening.versions)
    return LiveState(club=evening.club, token=token, member_role=role)


def club_live_state(user, club_slug: str) -> LiveState | None:
    """The club page's poll: the club and its tables' token (as club_live_token)."""
    clubs = Club.objects.filter(slug=club_slug).annotate(
        tables=Count("evenings__pulkas"), versions=Sum("evenings__pulkas__version")
    )
    if user is not None:
        clubs = clubs.annotate(member_role=member_role(user))
    club = clubs.first()
    if club is None:
        return None
    role = getattr(club, "member_role", None)
    return LiveState(club=club, token=_token(club.tables, club.versions), member_role=role)


def evenings_for_club(club: Club) -> QuerySet[Evening]:
    """The club's evenings, newest first, each with its number of tables (`table_count`)."""
    return (
        Evening.objects.filter(club=club)
        .annotate(table_count=Count("pulkas"))
        .order_by("-date", "-id")
    )


def evening_for_club(club: Club, evening_id: int) -> Evening:
    return get_object_or_404(Evening.objects.select_related("club"), pk=evening_id, club=club)


# --- the evening added up -------------------------------------------------------------------


@dataclass(frozen=True)
class SummaryLine:
    """A player's evening: his results over the tables he sat at, added up."""

    place: int  # 1 = best; ties share the place
    name: str
    result: Fraction  # exact, in whists
    tables: tuple[int, ...]  # the numbers of his tables
    playing: bool  # one of them is still running: the result is as it stands
    amount: AmountLine | None = None  # at the club's stake


@dataclass(frozen=True)
class EveningSummary:
    """Every player of the evening ranked by his result over its tables (abandoned tables
    count for nobody; running ones as they stand), and the money at the club's stake."""

    lines: tuple[SummaryLine, ...]
    money: Money | None
    running: tuple[int, ...]  # tables still playing
    abandoned: tuple[int, ...]  # tables that count for nobody


def evening_summary(evening: Evening, tables: list[Table] | None = None) -> EveningSummary:
    """The evening added up, from its tables' sheets (`tables` when already read: the
    evening page has them, from the cache)."""
    if tables is None:
        tables = evening_tables(evening)
    stake = club_stake(evening.club)
    results: dict[int, Fraction] = {}
    names: dict[int, str] = {}
    played: dict[int, list[int]] = {}
    playing: set[int] = set()
    amounts: dict[int, int] = {}
    running, abandoned = [], []
    for table in tables:
        pulka = table.pulka
        if pulka.status == PulkaStatus.ABANDONED:
            abandoned.append(pulka.table)
            continue
        if pulka.is_running:
            running.append(pulka.table)
        exact = {row["name"]: Fraction(row["result"]) for row in table.rows}
        money = pulka_amounts(stake, table.names, exact) if stake else {}
        for seat in pulka.seat_list:
            player, name = seat.player.pk, seat.player.name
            names[player] = name
            results[player] = results.get(player, Fraction(0)) + exact[name]
            played.setdefault(player, []).append(pulka.table)
            amounts[player] = amounts.get(player, 0) + money.get(name, 0)
            if pulka.is_running:
                playing.add(player)
    order = sorted(results, key=lambda p: (-results[p], collation_key(names[p]), p))
    evening_money = None
    if stake is not None:
        evening_money = money_from_amounts(stake, {names[p]: amounts[p] for p in order})
    lines = tuple(
        SummaryLine(
            place=1 + sum(1 for other in results.values() if other > results[p]),
            name=names[p],
            result=results[p],
            tables=tuple(played[p]),
            playing=p in playing,
            amount=evening_money.lines[k] if evening_money else None,
        )
        for k, p in enumerate(order)
    )
    return EveningSummary(
        lines=lines, money=evening_money, running=tuple(running), abandoned=tuple(abandoned)
    )


def table_for_token(token: str) -> Pulka | None:
    """The pulka whose table link is `token` (with its evening and club), or None."""
    return Pulka.objects.select_related("evening__club").filter(table_token=token).first()


def table_seats(pulka: Pulka) -> list[Seat]:
    """The table's seats in order, with their players (who may have an account) and the
    account that took each, if any."""
    return list(Seat.objects.filter(pulka=pulka).select_related("player").order_by("position"))


@dataclass(frozen=True)
class DealCheckLine:
    """What a deal entered at the table says about its confirmation ("entered by Anna (seat
    1), awaiting confirmation"): the seats by "name (seat n)"; `confirmed` None on a
    confirmed deal: the judge kept or corrected it."""

    state: str
    entered: str
    confirmed: str | None
    disputed: str | None
    reason: str


def seat_label(names: list[str], seat: int | None) -> str | None:
    """ "Anna (seat 1)": seats count from 1 on the pages (Seat.position counts from 0)."""
    if seat is None or not 0 <= seat < len(names):
        return None
    return _("%(name)s (seat %(seat)s)") % {"name": names[seat], "seat": seat + 1}


def deal_check(deal: Deal, names: list[str]) -> DealCheckLine | None:
    """How a deal's confirmation reads (None: a secretary recorded it, nothing to say)."""
    if deal.entered_seat is None and not deal.confirmation:
        return None
    return DealCheckLine(
        state=deal.confirmation,
        entered=seat_label(names, deal.entered_seat) or "",
        confirmed=seat_label(names, deal.confirmed_seat),
        disputed=seat_label(names, deal.disputed_seat),
        reason=deal.dispute_reason,
    )
