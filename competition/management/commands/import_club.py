"""Restore a pulka-club/1 file as a new (or empty) club: the twin of export_club."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from competition.backup import services as backup


class Command(BaseCommand):
    help = (
        "Import a club exported by export_club into a new club (or an empty one of the same "
        "link). Accounts are matched by e-mail, else by username; the missing ones are "
        "created inactive, without a password. Nothing is saved on an error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the pulka-club/1 file")
        parser.add_argument("--slug", help="restore under this link instead of the file's")

    def handle(self, *args, file: str, slug: str | None, **options) -> None:
        try:
            # No size limit, unlike an upload: a club's history is the administrator's file.
            with open(file, encoding="utf-8-sig") as f:
                document = json.load(f)
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(file)s: %(problem)s")
                % {"file": file, "problem": exc.strerror or exc}
            ) from exc
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(
                _("%(file)s is not a JSON file: %(problem)s") % {"file": file, "problem": exc}
            ) from exc
        try:
            report = backup.club_restore(document=document, slug=slug)
        except backup.BackupError as exc:
            raise CommandError(exc.message) from exc
        club = report.club
        self.stdout.write(
            _(
                "Restored %(name)s at %(url)s: %(evenings)s evenings, %(pulkas)s pulkas, "
                "%(deals)s deals, %(leagues)s leagues; results and ratings recomputed."
            )
            % {
                "name": club.name,
                "url": club.get_absolute_url(),
                "evenings": report.evenings,
                "pulkas": report.pulkas,
                "deals": report.deals,
                "leagues": report.leagues,
            }
        )
        if report.tournaments:
            self.stdout.write(
                _("Tournaments restored: %(tournaments)s.") % {"tournaments": report.tournaments}
            )
        if report.matched_users:
            self.stdout.write(
                _("Existing accounts used: %(users)s.") % {"users": ", ".join(report.matched_users)}
            )
        if report.created_users:
            self.stdout.write(
                _(
                    "New accounts, created inactive and without a password (an administrator "
                    "activates them, then each sets a password): %(users)s."
                )
                % {"users": ", ".join(report.created_users)}
            )
