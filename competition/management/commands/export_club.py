"""Write everything of one club as a pulka-club/1 JSON file (competition.backup.services)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from club.commands import write_json
from club.models import Club
from competition.backup import services as backup


class Command(BaseCommand):
    help = (
        "Export the club SLUG as one pulka-club/1 JSON file: the club and its conventions, "
        "members, roster, evenings, pulkas with their history, and leagues. "
        "import_club FILE --owner USERNAME restores it, on this site or another."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's short name in links (/c/SLUG/)")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(_("There is no club %(slug)s.") % {"slug": slug})
        write_json(self, backup.club_document(club), output, indent=1)
