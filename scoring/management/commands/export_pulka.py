"""Write a stored pulka as pulka/1 JSON (or its sheet as pulka-sheet/1)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from club.commands import write_json
from scoring import exchange
from scoring.models import Pulka


class Command(BaseCommand):
    help = "Export the pulka PULKA_ID as pulka/1 JSON (with --sheet: its pulka-sheet/1 sheet)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("pulka_id", type=int)
        parser.add_argument(
            "--sheet", action="store_true", help="the computed sheet instead of the deals"
        )
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, pulka_id: int, sheet: bool, output: str | None, **options) -> None:
        try:
            pulka = Pulka.objects.select_related("evening__club").get(pk=pulka_id)
        except Pulka.DoesNotExist as exc:
            raise CommandError(_("There is no pulka %(id)s.") % {"id": pulka_id}) from exc
        document = exchange.sheet_document(pulka) if sheet else exchange.pulka_document(pulka)
        write_json(self, document, output, indent=2)
