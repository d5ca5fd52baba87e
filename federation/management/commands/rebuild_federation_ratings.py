"""Rebuild the rating list of every federation (or the named ones) from the result caches."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from federation import rating
from federation.models import Federation


class Command(BaseCommand):
    help = (
        "Replay every counted pulka of each federation (or of the federations named by their "
        "short names) and publish its rating list. Prints the counts and the time taken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", metavar="SLUG", help="only these federations")

    def handle(self, *args, slugs: list[str], **options) -> None:
        federations = Federation.objects.order_by("slug")
        if slugs:
            federations = federations.filter(slug__in=slugs)
            missing = sorted(set(slugs) - set(federations.values_list("slug", flat=True)))
            if missing:
                raise CommandError(f"There is no federation {', '.join(map(repr, missing))}.")
        started = time.perf_counter()
        pulkas = listed = 0
        for federation in federations:
            figures = rating.rebuild(federation)
            pulkas += figures.pulkas
            listed += figures.listed
            self.stdout.write(
                f"{federation.slug}: {figures.pulkas} pulkas rated, {figures.ratings} ratings "
                f"of {figures.persons} persons, {figures.listed} listed, calculated on "
                f"{figures.calculated_on.isoformat()} ({figures.seconds:.2f} s)"
            )
        self.stdout.write(
            f"Total: {pulkas} pulkas rated, {listed} persons listed "
            f"in {time.perf_counter() - started:.2f} s"
        )
