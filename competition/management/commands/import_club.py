"""Restore a pulka-club/1 file as a new (or empty) club: the twin of export_club.

A command for the site's staff (it runs on the server, with the server's rights). The file is
not trusted: its size is checked before it is read, it is parsed with bounds and counted
before anything is stored (competition.backup.services), and it makes nobody of this site
anything of the club unless --link-members says so.
"""

from __future__ import annotations

import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from competition.backup import services as backup

MEGABYTE = 1024 * 1024


class Command(BaseCommand):
    help = (
        "Import a club exported by export_club into a new club (or an empty one of the same "
        "link), owned by --owner USERNAME. The file's members come as roster names; each "
        "with an e-mail address gets an invitation link the owner can send from the club's "
        "invitations page (nobody is mailed). With --link-members (staff only: it trusts "
        "the file) the file's people are matched to this site's accounts by e-mail, else by "
        "username, and get the file's roles; the missing ones are created inactive, without "
        "a password; a staff or superuser account is never matched. "
        f"Refused: a file over {backup.MAX_FILE_MB} MB (see --max-size), over "
        f"{backup.MAX_DEALS:,} deals, or a club name another club of the site has (see "
        "--name). Nothing is saved on an error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the pulka-club/1 file")
        parser.add_argument("--slug", help="restore under this link instead of the file's")
        parser.add_argument("--name", help="restore under this name instead of the file's")
        parser.add_argument(
            "--owner",
            metavar="USERNAME",
            help="the account of this site that owns the restored club "
            "(required unless --link-members)",
        )
        parser.add_argument(
            "--link-members",
            action="store_true",
            help="match the file's people to this site's accounts and give them the file's "
            "roles (staff only: the file then decides who is a member or an owner)",
        )
        parser.add_argument(
            "--max-size",
            type=int,
            default=backup.MAX_FILE_MB,
            metavar="MB",
            help=f"read a file of up to this many megabytes (default {backup.MAX_FILE_MB})",
        )

    def handle(
        self,
        *args,
        file: str,
        slug: str | None,
        name: str | None,
        owner: str | None,
        link_members: bool,
        max_size: int,
        **options,
    ) -> None:
        try:
            document = backup.document_read(_read(file, max_size))
        except backup.BackupError as exc:
            raise CommandError(exc.message) from exc
        if owner is None and not link_members:
            raise CommandError(
                _(
                    "Name the restored club's owner, an account of this site: "
                    "--owner USERNAME. The file's members come as roster names, with "
                    "invitations he can send (or, staff only, --link-members)."
                )
            )
        account = _account(owner) if owner is not None else None
        try:
            report = backup.club_restore(
                document=document, slug=slug, name=name, owner=account, link_members=link_members
            )
        except backup.BackupError as exc:
            raise CommandError(exc.message) from exc
        self._say(report)

    def _say(self, report: backup.RestoreReport) -> None:
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
        if report.invited:
            self.stdout.write(
                _(
                    "Invitation links for the owner to send, on the club's invitations page "
                    "(nobody was mailed): %(links)s."
                )
                % {
                    "links": "; ".join(
                        f"{who} <{email}> ({role})" for who, email, role in report.invited
                    )
                }
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


def _account(username: str) -> AbstractBaseUser:
    User = get_user_model()
    user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
    if user is None:
        raise CommandError(
            _("There is no account %(username)s on this site to own the club.")
            % {"username": username}
        )
    return user


def _read(file: str, max_mb: int) -> str:
    """The file's text, its size checked before a byte of it is read."""
    try:
        size = os.stat(file).st_size
        if size > max_mb * MEGABYTE:
            raise CommandError(
                _(
                    "%(file)s is %(size)s MB: a club backup is read up to %(max)s MB. "
                    "Staff may allow a larger one with --max-size MB."
                )
                % {"file": file, "size": number_format(size / MEGABYTE, 1), "max": max_mb}
            )
        with open(file, encoding="utf-8-sig") as f:
            return f.read()
    except OSError as exc:
        raise CommandError(
            _("Cannot read %(file)s: %(problem)s") % {"file": file, "problem": exc.strerror or exc}
        ) from exc
    except UnicodeDecodeError as exc:
        raise CommandError(
            _("%(file)s is not a JSON file: it is not UTF-8 text (byte %(position)s).")
            % {"file": file, "position": exc.start + 1}
        ) from exc
