"""Rebuild the rating snapshots of every club (or one) from scratch: the maintenance path."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Max, Prefetch

from club.models import Club
from competition.models import RatingSnapshot
from competition.rating import ratings
from scoring import engine, selectors, services
from scoring.models import PairResultCache, Pulka, PulkaResultCache, PulkaStatus, Seat


class Command(BaseCommand):
    help = (
        "Recompute every club's ratings (or one club's) from the result caches. With "
        "--results, first rebuild the result caches of every finished pulka by replaying "
        "its deals. Prints the counts and the time taken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", metavar="SLUG", help="only this club")
        parser.add_argument(
            "--results",
            action="store_true",
            help="first rebuild the result caches of every finished pulka from its deals",
        )

    def handle(self, *args, club: str | None, results: bool, **options) -> None:
        clubs = Club.objects.order_by("slug")
        if club is not None:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"There is no club {club!r}.")
        started = time.perf_counter()
        totals = [0, 0, 0]
        for each in clubs:
            club_started = time.perf_counter()
            with transaction.atomic():
                replayed = _rebuild_results(each) if results else 0
                snapshots = ratings.ratings_update(club=each)
            pulkas = RatingSnapshot.objects.filter(club=each).aggregate(n=Max("seq"))["n"] or 0
            line = f"{each.slug}: {pulkas} pulkas rated, {snapshots} snapshots"
            if results:
                line += f", {replayed} result caches rebuilt"
            self.stdout.write(f"{line} ({time.perf_counter() - club_started:.2f} s)")
            totals = [totals[0] + pulkas, totals[1] + snapshots, totals[2] + replayed]
        line = f"Total: {totals[0]} pulkas rated, {totals[1]} snapshots"
        if results:
            line += f", {totals[2]} result caches rebuilt"
        self.stdout.write(f"{line} in {time.perf_counter() - started:.2f} s")


def _rebuild_results(club: Club) -> int:
    """Replay every finished pulka of the club into fresh result caches; returns the count.

    The club's caches are emptied first, so that a stale cache (of a pulka no longer
    finished) goes too. The rebuilds announce nothing: the caller rates the club once
    afterwards, in the same transaction (the pulka rows stay locked against a concurrent
    correction).
    """
    pulkas = list(
        Pulka.objects.select_for_update(of=("self",))
        .filter(evening__club=club, status=PulkaStatus.FINISHED)
        .select_related("evening", "evening__club")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .order_by("id")
    )
    PairResultCache.objects.filter(club=club).delete()
    PulkaResultCache.objects.filter(club=club).delete()
    for pulka in pulkas:
        try:
            sheet = selectors.pulka_sheet(pulka)
        except engine.PulkaError as exc:
            raise CommandError(f"Pulka {pulka.pk} cannot be replayed: {exc}") from exc
        services.result_cache_rebuild(pulka, pulka.names, sheet, announce=False)
    return len(pulkas)
