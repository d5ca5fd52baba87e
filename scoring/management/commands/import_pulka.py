"""Store a pulka/1 file as a new table of an evening: the command-line twin of the upload."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring import exchange, services
from scoring.models import Evening
from scoring.services import ScoringError


class Command(BaseCommand):
    help = (
        "Import a pulka/1 JSON file as a new table of the evening EVENING_ID. "
        "Prints the new pulka's id and the path of its page. Nothing is saved on an error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("evening_id", type=int, help="the evening to add it to")
        parser.add_argument("file", help='the pulka/1 file, or "-" to read standard input')

    def handle(self, *args, evening_id: int, file: str, **options) -> None:
        try:
            evening = Evening.objects.select_related("club").get(pk=evening_id)
        except Evening.DoesNotExist as exc:
            raise CommandError(_("There is no evening %(id)s.") % {"id": evening_id}) from exc
        try:
            if file == "-":
                document = exchange.read_upload(sys.stdin.buffer)
            else:
                with open(file, "rb") as f:
                    document = exchange.read_upload(f)
            pulka = services.pulka_import(evening=evening, document=document, imported_by=None)
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(file)s: %(problem)s")
                % {"file": file, "problem": exc.strerror or exc}
            ) from exc
        except ScoringError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"{pulka.pk} {pulka.get_absolute_url()}")
