"""A whole club as one JSON document, ``pulka-club/1``: to move a club to another site.

`club_document` reads everything of a club: the club and its conventions, its members and
roster, its evenings with their pulkas (each a pulka/1 document, spec/pulka-json.md, with who
entered and changed each deal, every revision and every status change; whether the evening
counts in the leagues and ratings; a table's deal cap), its leagues and its tournaments
(settings, entries, rounds with their seatings and tables, penalties; players by name).
People are named by username in the document; its ``users`` list gives each one's e-mail.

`document_read` parses such a file with bounds (its depth, the digits of its numbers) and
`club_restore` stores it as a new club (or into an empty one) through the services, after
counting what it holds (at most MAX_DEALS deals...): the engine checks every pulka, the result
caches and the ratings are rebuilt, never copied. Every name in it follows the one rule for
names (club.names). All or nothing; every bad file gets a message, never a traceback.

Who the file's people are is not the file's word. By default nobody of this site becomes
anything: the club gets the owner the administrator names (`owner`), the file's members come
as roster names only, and each member with an e-mail address gets an invitation link (bound to
his roster name, with his role) that the owner sees on the invitations page and may send; who
entered what is kept with nobody named. Only with `link_members` (`--link-members`, staff on
the command line) are the file's people matched to this site's accounts, by e-mail when the
document has one, else by username, a missing account created inactive and without a usable
password; a staff or superuser account is never matched.

The whole site's disaster recovery is pg_dump's job (README.md), not this one's.
"""

from __future__ import annotations

import datetime
import json
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club import invitations
from club import services as club_services
from club.errors import ServiceError
from club.models import Club, Currency, Membership, Player, Role
from club.names import InvalidName, name_key, normalise_text
from club.params import MAX_DIGITS
from competition.files import services as files
from competition.league import services as leagues
from competition.league.forms import LEAGUE_NAME
from competition.lib.seating import Method
from competition.models import (
    Entry,
    EntryStatus,
    League,
    Penalty,
    PenaltyUnit,
    Round,
    RoundState,
    RoundTable,
    Tournament,
)
from competition.rating import ratings
from competition.tournament import services as tournament_services
from scoring import engine, exchange
from scoring import services as scoring_services
from scoring.forms import EVENING_NOTES, EVENING_NOTES_MAX, EVENING_VENUE
from scoring.models import Deal, DealRevision, Evening, Pulka, StatusChange

FORMAT = "pulka-club/1"

# What a file may hold (README.md, "Moving a club"). The largest clubs we know keep about
# 20,000 deals, 21 MB of backup (bench/files.py); the bounds leave them ten times that, and
# refuse a crafted file before it costs minutes and gigabytes. `import_club --max-size` lets
# staff read a larger file; the counts are checked before anything is stored.
MAX_FILE_MB = 200
MAX_DEALS = 200_000
MAX_HISTORY_LINES = 1_000_000  # revisions and status changes, all pulkas together
MAX_ROWS = 200_000  # users, members, players, evenings, pulkas, leagues, tournaments' rows
# JSON objects and lists, counted in the text before it is parsed: a backup has about 8 for
# each deal (the demo's: 8.2, history included), and parsing costs memory by them (200 MB of
# "{}," would be 66 million dicts, some 5 GB).
MAX_CONTAINERS = 20 * MAX_DEALS
# A pulka-club/1 file nests about ten deep (a revision's deal's calls); a number has at most
# MAX_DIGITS digits (a 64-bit column's; every number of a club has a few). While parsing, the
# bound is Python's smallest for int() (640 digits), checked by json's own parser.
MAX_DEPTH = 40
PARSE_DIGITS = 640


class BackupError(ServiceError):
    """A club document that cannot be restored here, and why."""


# --- reading a file -------------------------------------------------------------------------


class _NotANumber(ValueError):
    pass


def _json_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999
        raise _NotANumber(text)
    return number


def _json_constant(text: str) -> None:
    raise _NotANumber(text)  # NaN and Infinity: no JSON of ours writes them


@contextmanager
def _int_digits(limit: int) -> Iterator[None]:
    """Python's bound on the digits int() reads, lowered for a while: json's own (C) parser
    then refuses a longer integer at once, where a parse_int hook called for every number
    of the file would cost a second per million numbers. The command's process reads one
    file and does nothing else meanwhile."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(limit)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def _too_long(number: int) -> BackupError:
    return BackupError(
        _("This file holds a number of %(digits)s digits: no club backup has one so long.")
        % {"digits": len(str(abs(number)))}
    )


def _check_values(document: Any) -> None:
    """Refuse values nested more than MAX_DEPTH deep, or an integer of more than MAX_DIGITS
    digits: a walk level by level (no recursion), once the counts are known to be sane."""
    bound = 10**MAX_DIGITS
    level, depth = [document], 1
    while level:
        if depth > MAX_DEPTH:
            raise _nested_too_deeply()
        below = []
        for value in level:
            for child in value.values() if isinstance(value, dict) else value:
                if isinstance(child, dict | list):
                    below.append(child)
                elif type(child) is int and not -bound < child < bound:
                    raise _too_long(child)
        level, depth = below, depth + 1


def document_read(text: str) -> Any:
    """The JSON of a club's backup file, read with bounds: at most MAX_CONTAINERS objects and
    lists before parsing; numbers of at most PARSE_DIGITS digits, no NaN or Infinity while
    parsing; then the counts of club_restore (MAX_DEALS...), and only then nesting at most
    MAX_DEPTH deep and integers of at most MAX_DIGITS digits (a walk over every value). A
    BackupError says what is wrong; nothing here raises anything else."""
    containers = text.count("{") + text.count("[")  # braces in strings too: an upper bound
    if containers > MAX_CONTAINERS:
        raise BackupError(
            _(
                "This file holds %(count)s JSON objects and lists; a club backup restored "
                "here holds at most %(max)s. Nothing was restored."
            )
            % {"count": containers, "max": MAX_CONTAINERS}
        )
    try:
        with _int_digits(PARSE_DIGITS):
            document = json.loads(text, parse_float=_json_float, parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise BackupError(
            _("This is not a JSON file: %(problem)s at line %(line)s, column %(column)s.")
            % {"problem": exc.msg, "line": exc.lineno, "column": exc.colno}
        ) from exc
    except RecursionError as exc:
        raise _nested_too_deeply() from exc
    except _NotANumber as exc:
        raise BackupError(
            _("This is not a JSON file: it holds %(value)s, which is no number.") % {"value": exc}
        ) from exc
    except ValueError as exc:  # int() refused an integer over PARSE_DIGITS digits
        raise BackupError(
            _("This file holds a number of more than %(max)s digits: no club backup has one.")
            % {"max": PARSE_DIGITS}
        ) from exc
    if isinstance(document, dict):
        _check_counts(document)
    if isinstance(document, dict | list):
        _check_values(document)
    return document


def _nested_too_deeply() -> BackupError:
    return BackupError(
        _("This file nests its values more than %(max)s deep: no club backup does.")
        % {"max": MAX_DEPTH}
    )


def _list(data: Any, key: str) -> list:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _check_counts(document: dict) -> None:
    """Refuse a file that holds more than the bounds, before anything is stored: counting
    takes a walk over the evenings' lists (no deal is read)."""
    deals = history = 0
    rows = sum(len(_list(document, key)) for key in ("users", "members", "players", "leagues"))
    for evening in _list(document, "evenings"):
        pulkas = _list(evening, "pulkas")
        rows += 1 + len(pulkas)
        for entry in pulkas:
            played = _list(entry.get("pulka") if isinstance(entry, dict) else None, "deals")
            deals += max(len(played), len(_list(entry, "deals")))
            history += len(_list(entry, "revisions")) + len(_list(entry, "status_changes"))
    for tournament in _list(document, "tournaments"):
        rows += 1 + sum(len(_list(tournament, key)) for key in ("entries", "rounds", "penalties"))
    for count, bound, what in (
        (deals, MAX_DEALS, _("deals")),
        (history, MAX_HISTORY_LINES, _("lines of history")),
        (rows, MAX_ROWS, _("rows (people, evenings, pulkas, leagues, tournaments)")),
    ):
        if count > bound:
            raise BackupError(
                _(
                    "This file holds %(count)s %(what)s; a club backup restored here holds at "
                    "most %(max)s. Nothing was restored."
                )
                % {"count": count, "what": what, "max": bound}
            )


# --- export ---------------------------------------------------------------------------------


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return None if value is None else value.isoformat()


def club_document(club: Club) -> dict[str, Any]:
    """Everything of the club as a pulka-club/1 document (JSON-ready)."""
    people: dict[int, AbstractBaseUser] = {}

    def who(user: AbstractBaseUser | None) -> str | None:
        if user is None:
            return None
        people[user.pk] = user
        return user.get_username()

    members = Membership.objects.filter(club=club).select_related("user").order_by("pk")
    players = Player.objects.filter(club=club).select_related("user").order_by("pk")
    names = {player.pk: player.name for player in players}
    evenings = Evening.objects.filter(club=club).select_related("created_by").order_by("pk")
    pulkas = (
        Pulka.objects.filter(evening__club=club)
        .select_related("evening__club", "created_by")
        .order_by("pk")
    )
    by_evening: dict[int, list[dict]] = {}
    for pulka in pulkas:
        by_evening.setdefault(pulka.evening_id, []).append(_pulka_entry(pulka, who))
    document = {
        "format": FORMAT,
        "exported_at": _when(timezone.now()),
        "club": {
            "name": club.name,
            "slug": club.slug,
            "city": club.city,
            "is_public": club.is_public,
            "created_at": _when(club.created_at),
            # Every convention, resolved by the engine: the file means the same on a site
            # whose defaults have changed since.
            "conventions": engine.rules_to_dict(engine.rules_from_dict(club.default_rules())),
            # What a whist is worth (a decimal string; None: the club plays for whists only).
            "whist_price": None if club.whist_price is None else str(club.whist_price),
            "currency": club.currency,
        },
        "members": [
            {"user": who(m.user), "role": m.role, "created_at": _when(m.created_at)}
            for m in members
        ],
        "players": [
            {"name": p.name, "user": who(p.user), "is_active": p.is_active} for p in players
        ],
        "evenings": [
            {
                # Rounds of tournaments name their evening by it.
                "id": evening.pk,
                "date": _when(evening.date),
                "venue": evening.venue,
                "notes": evening.notes,
                "counted": evening.counted,
                "self_entry": evening.self_entry,
                "created_by": who(evening.created_by),
                "created_at": _when(evening.created_at),
                "pulkas": by_evening.get(evening.pk, []),
            }
            for evening in evenings
        ],
        "leagues": [
            {
                "name": league.name,
                "start": _when(league.start),
                "end": _when(league.end),
                "rule": league.rule,
                "best_count": league.best_count,
                "cap": league.cap,
                "min_pulkas": league.min_pulkas,
                "convention": league.convention,
                "created_at": _when(league.created_at),
            }
            for league in League.objects.filter(club=club).order_by("pk")
        ],
        "tournaments": [
            _tournament_entry(tournament, who, names)
            for tournament in Tournament.objects.filter(club=club).order_by("pk")
        ],
    }
    document["users"] = [
        {
            "username": user.get_username(),
            "email": getattr(user, "email", "") or "",
            "first_name": getattr(user, "first_name", ""),
            "last_name": getattr(user, "last_name", ""),
        }
        for user in sorted(people.values(), key=lambda u: u.get_username())
    ]
    return document


def _pulka_entry(pulka: Pulka, who) -> dict[str, Any]:
    deals = Deal.objects.filter(pulka=pulka).select_related("entered_by", "changed_by")
    revisions = (
        DealRevision.objects.filter(pulka=pulka).select_related("user", "deal").order_by("at", "pk")
    )
    changes = StatusChange.objects.filter(pulka=pulka).select_related("user").order_by("at", "pk")
    return {
        # The id orders the restored pulkas as they were created (ratings break ties by it).
        "id": pulka.pk,
        "table": pulka.table,
        "deal_cap": pulka.deal_cap,
        "locked_at": _when(pulka.locked_at),
        "status": pulka.status,
        "created_by": who(pulka.created_by),
        "created_at": _when(pulka.created_at),
        "finished_at": _when(pulka.finished_at),
        "pulka": exchange.pulka_document(pulka),
        # The accounts that took each seat through the table link (never the link itself).
        "claimed_by": [
            who(seat.claimed_by)
            for seat in pulka.seats.select_related("claimed_by").order_by("position")
        ],
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "entered_by": who(deal.entered_by),
                "entered_at": _when(deal.entered_at),
                "changed_by": who(deal.changed_by),
                "changed_at": _when(deal.changed_at),
                # Entered at the table: the seats that entered, confirmed or disputed it.
                "confirmation": deal.confirmation,
                "entered_seat": deal.entered_seat,
                "confirmed_seat": deal.confirmed_seat,
                "confirmed_at": _when(deal.confirmed_at),
                "disputed_seat": deal.disputed_seat,
                "dispute_reason": deal.dispute_reason,
            }
            for deal in deals.order_by("number")
        ],
        "revisions": [
            {
                "number": line.number,
                "deal": line.deal.number if line.deal else None,
                "action": line.action,
                "before": line.before,
                "after": line.after,
                "user": who(line.user),
                "at": _when(line.at),
                "reason": line.reason,
                "seat": line.seat,
            }
            for line in revisions
        ],
        "status_changes": [
            {
                "status": line.status,
                "user": who(line.user),
                "at": _when(line.at),
                "reason": line.reason,
            }
            for line in changes
        ],
    }


def _seating_named(seating: dict, names: dict[int, str]) -> dict:
    """A round's seating with the players by name (ids do not survive a move)."""
    return {
        "tables": [
            {
                "number": table["number"],
                "seats": [names[p] for p in table["seats"]],
                "first_dealer": names[table["first_dealer"]],
                "locked": bool(table.get("locked")),
            }
            for table in seating.get("tables", ())
        ],
        "byes": [
            {"player": names[bye["player"]], "reason": bye["reason"]}
            for bye in seating.get("byes", ())
        ],
    }


def _tournament_entry(tournament: Tournament, who, names: dict[int, str]) -> dict[str, Any]:
    entries = Entry.objects.filter(tournament=tournament).select_related("substitute_for")
    rounds = Round.objects.filter(tournament=tournament).select_related("confirmed_by")
    tables = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
    by_round: dict[int, list[dict]] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(
            {"number": table.number, "pulka": table.pulka_id}
        )
    penalties = Penalty.objects.filter(tournament=tournament).select_related("created_by")
    return {
        # Every setting as its column (competition.models.Tournament.SETTINGS), the date as text
        # and the players kept apart by name, as everywhere in the document.
        **{name: getattr(tournament, name) for name in Tournament.SETTINGS},
        "start": _when(tournament.start),
        "apart": [[names[a], names[b]] for a, b in tournament.apart or ()],
        "seed": tournament.seed,
        "finished_at": _when(tournament.finished_at),
        "created_by": who(tournament.created_by),
        "created_at": _when(tournament.created_at),
        "entries": [
            {
                "player": names[entry.player_id],
                "team": entry.team,
                "status": entry.status,
                "first_round": entry.first_round,
                "last_round": entry.last_round,
                "substitute_for": (
                    names[entry.substitute_for.player_id] if entry.substitute_for else None
                ),
                "created_at": _when(entry.created_at),
            }
            for entry in entries.order_by("pk")
        ],
        "rounds": [
            {
                "number": one.number,
                "state": one.state,
                "method": one.method,
                "seed": one.seed,
                "seating": _seating_named(one.seating, names),
                "evening": one.evening_id,
                "tables": by_round.get(one.pk, []),
                "published_at": _when(one.published_at),
                "starts_at": _when(one.starts_at),
                "started_at": _when(one.started_at),
                "confirmed_at": _when(one.confirmed_at),
                "confirmed_by": who(one.confirmed_by),
            }
            for one in rounds.order_by("number")
        ],
        "penalties": [
            {
                "player": names[penalty.player_id],
                "round": penalty.round,
                "amount": penalty.amount,
                "unit": penalty.unit,
                "reason": penalty.reason,
                "created_by": who(penalty.created_by),
                "created_at": _when(penalty.created_at),
            }
            for penalty in penalties.order_by("created_at", "pk")
        ],
    }


# The backup as a download (competition.files.services): built at once for a small club, in the
# background for a big one. bench/files.py times the whole file at about 365 ms per 1,000
# deals on PostgreSQL (2,000 deals: 0.8 s, 20,000: 7.5 s and 21 MB); over the threshold
# the build would keep the request waiting for more than about a second.
BACKUP_THRESHOLD_DEALS = 2_000
BACKUP_KIND = "club-backup"


def backup_size(club: Club) -> int:
    """What the backup costs to build: the club's deals (each with its history)."""
    return Deal.objects.filter(pulka__evening__club=club).count()


@files.register(BACKUP_KIND, label=gettext_lazy("The club's backup (JSON)"))
def backup_file(club: Club) -> files.BuiltFile:
    """The club's pulka-club/1 document, as `manage.py export_club SLUG -o FILE` writes it."""
    text = json.dumps(club_document(club), indent=1, ensure_ascii=False) + "\n"
    name = f"{club.slug}-{timezone.localdate().isoformat()}.json"
    return files.BuiltFile(name, "application/json", text.encode())


# --- import ---------------------------------------------------------------------------------


@dataclass
class RestoreReport:
    club: Club | None = None
    evenings: int = 0
    pulkas: int = 0
    deals: int = 0
    leagues: int = 0
    tournaments: int = 0
    matched_users: list[str] = field(default_factory=list)
    created_users: list[str] = field(default_factory=list)
    # The invitation links made for the file's members (without link_members): for each, the
    # roster name it is bound to (else the file's username), the e-mail address and the role.
    invited: list[tuple[str, str, str]] = field(default_factory=list)


class _Reader:
    """Reads the document's values, each with a message naming where a bad one is."""

    def __init__(self, document: Any) -> None:
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise BackupError(
                _('This file is not a club backup: it has no "format": "%(format)s".')
                % {"format": FORMAT}
            )
        self.document = document

    @staticmethod
    def bad(where: str) -> BackupError:
        return BackupError(
            _("This club backup is damaged: %(where)s is missing or not understood.")
            % {"where": where}
        )

    def get(self, data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get(key), kind):
            raise self.bad(f"{where}.{key}")
        return data[key]

    def text(self, data: Any, key: str, where: str) -> str:
        return self.get(data, key, str, where)

    def items(self, data: Any, key: str, where: str) -> list:
        return self.get(data, key, list, where)

    def moment(self, data: Any, key: str, where: str) -> datetime.datetime:
        value = parse_datetime(self.text(data, key, where))
        if value is None:
            raise self.bad(f"{where}.{key}")
        return value if timezone.is_aware(value) else timezone.make_aware(value)

    def flag(self, data: Any, key: str, where: str, default: bool = True) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.bad(f"{where}.{key}")
        return value

    def maybe_count(self, data: Any, key: str, where: str) -> int | None:
        """A whole number (not a flag), or None where the file has none."""
        value = data.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise self.bad(f"{where}.{key}")
        return value

    def maybe_moment(self, data: Any, key: str, where: str) -> datetime.datetime | None:
        return None if data.get(key) is None else self.moment(data, key, where)

    def day(self, data: Any, key: str, where: str) -> datetime.date:
        try:
            value = parse_date(self.text(data, key, where))
        except ValueError:
            value = None
        if value is None:
            raise self.bad(f"{where}.{key}")
        return value


def _has_content(club: Club) -> bool:
    return (
        Evening.objects.filter(club=club).exists()
        or Player.objects.filter(club=club).exists()
        or League.objects.filter(club=club).exists()
    )


def _free_username(username: str) -> str:
    User = get_user_model()
    candidate, n = username, 1
    while User.objects.filter(**{User.USERNAME_FIELD: candidate}).exists():
        n += 1
        candidate = f"{username}-{n}"
    return candidate


def _people(reader: _Reader) -> dict[str, dict]:
    """The document's people (its "users" list) by username, each checked."""
    people: dict[str, dict] = {}
    for i, row in enumerate(reader.items(reader.document, "users", "the file")):
        where = f"users[{i}]"
        username = reader.text(row, "username", where)
        if not isinstance(row.get("email") or "", str):
            raise reader.bad(f"{where}.email")
        people[username] = row
    return people


def _display_name(value: Any) -> str:
    """A name from the file by the one rule for names; one it refuses is left out (it is
    optional, and the person types his own)."""
    try:
        return club_services.display_name_clean(value if isinstance(value, str) else "")
    except club_services.ClubError:
        return ""


def _accounts(people: dict[str, dict], report: RestoreReport) -> dict[str, AbstractBaseUser]:
    """The document's people as accounts of this site (only with link_members): found by
    e-mail (else username), or created inactive without a usable password. A staff or
    superuser account is never one of them: the file is refused."""
    User = get_user_model()
    accounts: dict[str, AbstractBaseUser] = {}
    for username, row in people.items():
        email = row.get("email") or ""
        if email:
            found = list(User.objects.filter(email__iexact=email)[:2])
            user = found[0] if len(found) == 1 else None
        else:
            user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        if user is not None and (user.is_staff or user.is_superuser):
            raise BackupError(
                _(
                    "The file's person %(person)s would be this site's staff account "
                    "%(account)s: a backup never makes a staff or superuser account anything "
                    "of a club. Restore without --link-members, or take %(person)s out of "
                    "the file."
                )
                % {"person": username, "account": user.get_username()}
            )
        if user is None:
            user = User(
                **{User.USERNAME_FIELD: _free_username(username)},
                email=email,
                first_name=_display_name(row.get("first_name")),
                last_name=_display_name(row.get("last_name")),
                is_active=False,
            )
            user.set_unusable_password()
            user.save()
            report.created_users.append(user.get_username())
        else:
            report.matched_users.append(user.get_username())
        accounts[username] = user
    return accounts


def _text(
    reader: _Reader,
    value: Any,
    where: str,
    *,
    what: str,
    max_length: int,
    multiline: bool = False,
    required: bool = False,
) -> str:
    """A name or short text of the file by the one rule for names (club.names)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise reader.bad(where)
    try:
        return normalise_text(
            value, max_length=max_length, what=what, multiline=multiline, required=required
        )
    except InvalidName as exc:
        raise BackupError(
            _("%(where)s: %(problem)s") % {"where": where, "problem": exc.message}
        ) from exc


def _refuse_twin(name: str, existing: Club | None) -> None:
    """Refuse a name another club of the site has already (its key: case and spelling aside)."""
    key = name_key(name)
    others = Club.objects.exclude(pk=existing.pk) if existing is not None else Club.objects.all()
    if any(name_key(other) == key for other in others.values_list("name", flat=True).iterator()):
        raise BackupError(
            _(
                "Another club of this site is already called %(name)s: restore this one "
                "under another name (--name NEW_NAME)."
            )
            % {"name": name}
        )


def _make_owner(club: Club, owner: AbstractBaseUser) -> None:
    membership = Membership.objects.filter(club=club, user=owner).first()
    if membership is None:
        club_services.member_add(club=club, user=owner, role=Role.OWNER)
    elif membership.role != Role.OWNER:
        club_services.member_set_role(membership=membership, role=Role.OWNER)


def _invite_members(
    *,
    club: Club,
    owner: AbstractBaseUser,
    members: list[dict],
    people: dict[str, dict],
    roster: dict[str, Player],
    report: RestoreReport,
) -> None:
    """An invitation for each of the file's members with an e-mail address, addressed to that
    address (only its owner can accept it), with his role, bound to his roster name (when it
    is on the roster and free), made by the owner: he sees them on the club's invitations
    page and sends their links. Nobody is mailed here."""
    for row in members:
        username = row.get("user")
        email = people[username].get("email") if username is not None else ""
        if not email:
            continue
        player = roster.get(username)
        if player is not None and (not player.is_active or player.user_id is not None):
            player = None
        invitations.invitation_create(
            club=club,
            role=row["role"],
            created_by=owner,
            player=player,
            valid_days=invitations.MAX_VALID_DAYS,
            addressed_to=email,
        )
        report.invited.append((player.name if player else username, email, row["role"]))


@transaction.atomic
def club_restore(
    *,
    document: Any,
    slug: str | None = None,
    name: str | None = None,
    owner: AbstractBaseUser | None = None,
    link_members: bool = False,
) -> RestoreReport:
    """Store a pulka-club/1 document as the club `slug` (default: the document's), which
    must be new or empty, called `name` (default: the document's; no other club of the site
    may be called so). Nothing is saved when any part of it is refused.

    `owner` (an account of this site) becomes its owner; he is required unless
    `link_members`, which matches the file's people to this site's accounts and gives them
    the file's roles (the module's docstring). Without it, the file's members come as roster
    names with invitation links (RestoreReport.invited) and nobody else of the site becomes
    anything of the club.
    """
    reader = _Reader(document)
    _check_counts(document)
    data = reader.get(document, "club", dict, "the file")
    slug = slug or reader.text(data, "slug", "club")
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise BackupError(
            _("%(slug)s cannot be a club's link: use letters, digits, - and _.") % {"slug": slug}
        ) from exc
    existing = Club.objects.filter(slug=slug).first()
    if existing is not None and _has_content(existing):
        raise BackupError(
            _(
                "The club /c/%(slug)s/ already has evenings, players or leagues: a backup is "
                "restored only into a new or an empty club. Choose another link (--slug)."
            )
            % {"slug": slug}
        )
    if owner is None and not link_members:
        raise BackupError(
            _(
                "Name the restored club's owner, an account of this site (--owner USERNAME): "
                "the file's members come as roster names, with invitations he can send."
            )
        )
    try:
        details = {
            **club_services.club_details_clean(
                name or reader.text(data, "name", "club"), _optional_text(reader, data, "city")
            ),
            "is_public": bool(data.get("is_public", True)),
        }
    except club_services.ClubError as exc:
        raise BackupError(exc.message) from exc
    _refuse_twin(details["name"], existing)
    report = RestoreReport()
    people = _people(reader)
    accounts = _accounts(people, report) if link_members else {}

    def account(row: dict, key: str, where: str) -> AbstractBaseUser | None:
        """The account of the file's person named at `key`: None for nobody, and for
        everybody without link_members (what he did is kept with nobody named)."""
        name = row.get(key)
        if name is None:
            return None
        if not isinstance(name, str) or name not in people:
            raise reader.bad(f"{where}.{key}")
        return accounts.get(name)

    members = reader.items(document, "members", "the file")
    for i, row in enumerate(members):
        if reader.text(row, "role", f"members[{i}]") not in Role.values:
            raise reader.bad(f"members[{i}].role")
        account(row, "user", "members")
    owners = [account(m, "user", "members") for m in members if m["role"] == Role.OWNER]
    creator = owner or next((user for user in owners if user is not None), None)
    try:
        if existing is not None:
            club = club_services.club_update(club=existing, **details)
        elif creator is not None:
            club = club_services.club_create(slug=slug, owner=creator, **details)
            created_at = reader.moment(data, "created_at", "club")
            Club.objects.filter(pk=club.pk).update(created_at=created_at)
            club.refresh_from_db()
        else:  # a club without an owner (made in the admin) moves as it is
            club = Club.objects.create(slug=slug, **details)
        if owner is not None:
            _make_owner(club, owner)
        club = scoring_services.club_rules_update(
            club=club, rules=reader.get(data, "conventions", dict, "club")
        )
        club = club_services.club_stake_update(
            club=club, whist_price=_whist_price(reader, data), currency=_currency(reader, data)
        )
        report.club = club
        for i, row in enumerate(members):
            user = account(row, "user", f"members[{i}]")
            if user is None:
                continue
            joined = Membership.objects.filter(club=club, user=user)
            if not joined.exists():
                club_services.member_add(club=club, user=user, role=row["role"])
            elif existing is not None or user == owner:
                continue  # a member already: his membership stays his
            joined.update(created_at=reader.moment(row, "created_at", f"members[{i}]"))
        roster: dict[str, Player] = {}  # by the file's username of the person it names
        for i, row in enumerate(reader.items(document, "players", "the file")):
            where = f"players[{i}]"
            player = club_services.player_add(club=club, name=reader.text(row, "name", where))
            user, active = account(row, "user", where), bool(row.get("is_active", True))
            if user is not None or not active:
                player = club_services.player_update(
                    player=player, name=player.name, user=user, is_active=active
                )
            if row.get("user") is not None:
                roster[row["user"]] = player
        if not link_members:
            _invite_members(
                club=club,
                owner=owner,
                members=members,
                people=people,
                roster=roster,
                report=report,
            )
        evenings, pulkas = _restore_evenings(reader, club, account, report)
        for i, row in enumerate(reader.items(document, "leagues", "the file")):
            where = f"leagues[{i}]"
            league = leagues.league_create(
                club=club,
                name=_text(
                    reader,
                    reader.text(row, "name", where),
                    f"{where}.name",
                    what=LEAGUE_NAME,
                    max_length=League._meta.get_field("name").max_length,
                    required=True,
                ),
                start=reader.day(row, "start", where),
                end=reader.day(row, "end", where),
                rule=reader.text(row, "rule", where),
                best_count=row.get("best_count"),
                cap=row.get("cap"),
                min_pulkas=row.get("min_pulkas") or 1,
                # A backup from before conventions has none: any convention counts.
                convention=row.get("convention") or "",
            )
            League.objects.filter(pk=league.pk).update(
                created_at=reader.moment(row, "created_at", where)
            )
            report.leagues += 1
        # A backup from before tournaments has none.
        for i, row in enumerate(reader.document.get("tournaments") or []):
            _restore_tournament(reader, club, account, row, f"tournaments[{i}]", evenings, pulkas)
            report.tournaments += 1
    except ServiceError as exc:
        if isinstance(exc, BackupError):
            raise
        raise BackupError(exc.message) from exc
    except (TypeError, ValueError) as exc:
        raise reader.bad(_("a value")) from exc
    except (DataError, OverflowError) as exc:  # a number beyond its column
        raise BackupError(
            _("This club backup holds a number too large for this site's database.")
        ) from exc
    except ValidationError as exc:  # a column's own check (a flag that is no flag)
        raise BackupError(
            _("This club backup is damaged: %(problem)s") % {"problem": " ".join(exc.messages)}
        ) from exc
    except IntegrityError as exc:  # a constraint of the tables (a table numbered 0)
        raise reader.bad(_("a value")) from exc
    # The result caches came with each pulka; the ratings are replayed once, from all of them.
    ratings.ratings_update(club=club)
    return report


def _optional_text(reader: _Reader, data: dict, key: str, where: str = "club") -> str:
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise reader.bad(f"{where}.{key}")
    return value


def _whist_price(reader: _Reader, data: dict) -> Decimal | None:
    """The club's price of a whist (a backup from before stakes has none)."""
    value = data.get("whist_price")
    if value is None:
        return None
    try:
        price = Decimal(value) if isinstance(value, str) and len(value) <= 20 else None
    except ArithmeticError:
        price = None
    if price is None or not price.is_finite():
        raise reader.bad("club.whist_price")
    return price  # its bounds are the service's


def _currency(reader: _Reader, data: dict) -> str:
    value = data.get("currency", Currency.UAH)
    if value not in Currency.values:
        raise reader.bad("club.currency")
    return value


def _restore_evenings(
    reader: _Reader, club: Club, account, report: RestoreReport
) -> tuple[dict[int, Evening], dict[int, Pulka]]:
    """Every evening, then every pulka in the order they were first created. Returns the
    new evenings and pulkas by the ids the document gave them (for the tournaments)."""
    evenings: dict[int, Evening] = {}
    restored: dict[int, Pulka] = {}
    pulkas: list[tuple[int, Evening, dict, str]] = []
    for i, row in enumerate(reader.items(reader.document, "evenings", "the file")):
        where = f"evenings[{i}]"
        evening = scoring_services.evening_create(
            club=club,
            date=reader.day(row, "date", where),
            venue=_text(
                reader,
                row.get("venue"),
                f"{where}.venue",
                what=EVENING_VENUE,
                max_length=Evening._meta.get_field("venue").max_length,
            ),
            notes=_text(
                reader,
                row.get("notes"),
                f"{where}.notes",
                what=EVENING_NOTES,
                max_length=EVENING_NOTES_MAX,
                multiline=True,
            ),
            created_by=account(row, "created_by", where),
            # A backup from before tournaments has no "counted": every evening counted.
            counted=reader.flag(row, "counted", where),
            self_entry=reader.flag(row, "self_entry", where, default=False),
        )
        Evening.objects.filter(pk=evening.pk).update(
            created_at=reader.moment(row, "created_at", where)
        )
        if isinstance(row.get("id"), int):
            evenings[row["id"]] = evening
        report.evenings += 1
        for j, entry in enumerate(reader.items(row, "pulkas", where)):
            place = f"{where}.pulkas[{j}]"
            pulkas.append((reader.get(entry, "id", int, place), evening, entry, place))
    for _id, evening, entry, where in sorted(pulkas, key=lambda item: item[0]):
        deals = [
            scoring_services.RestoredDeal(
                version=reader.get(d, "version", int, f"{where}.deals[{k}]"),
                entered_by=account(d, "entered_by", f"{where}.deals[{k}]"),
                entered_at=reader.moment(d, "entered_at", f"{where}.deals[{k}]"),
                changed_by=account(d, "changed_by", f"{where}.deals[{k}]"),
                changed_at=reader.moment(d, "changed_at", f"{where}.deals[{k}]"),
                # A backup from before table entry has none of these.
                confirmation=_optional_text(reader, d, "confirmation", f"{where}.deals[{k}]"),
                entered_seat=reader.maybe_count(d, "entered_seat", f"{where}.deals[{k}]"),
                confirmed_seat=reader.maybe_count(d, "confirmed_seat", f"{where}.deals[{k}]"),
                confirmed_at=reader.maybe_moment(d, "confirmed_at", f"{where}.deals[{k}]"),
                disputed_seat=reader.maybe_count(d, "disputed_seat", f"{where}.deals[{k}]"),
                dispute_reason=_optional_text(reader, d, "dispute_reason", f"{where}.deals[{k}]"),
            )
            for k, d in enumerate(reader.items(entry, "deals", where))
        ]
        revisions = [
            scoring_services.RestoredRevision(
                number=reader.get(r, "number", int, f"{where}.revisions[{k}]"),
                deal=reader.maybe_count(r, "deal", f"{where}.revisions[{k}]"),
                action=reader.text(r, "action", f"{where}.revisions[{k}]"),
                before=r.get("before"),
                after=r.get("after"),
                user=account(r, "user", f"{where}.revisions[{k}]"),
                at=reader.moment(r, "at", f"{where}.revisions[{k}]"),
                # A backup from before locked pulkas has no reasons.
                reason=_optional_text(reader, r, "reason", f"{where}.revisions[{k}]"),
                seat=reader.maybe_count(r, "seat", f"{where}.revisions[{k}]"),
            )
            for k, r in enumerate(reader.items(entry, "revisions", where))
        ]
        changes = [
            scoring_services.RestoredStatus(
                status=reader.text(s, "status", f"{where}.status_changes[{k}]"),
                user=account(s, "user", f"{where}.status_changes[{k}]"),
                at=reader.moment(s, "at", f"{where}.status_changes[{k}]"),
                reason=_optional_text(reader, s, "reason", f"{where}.status_changes[{k}]"),
            )
            for k, s in enumerate(reader.items(entry, "status_changes", where))
        ]
        try:
            restored[_id] = scoring_services.pulka_restore(
                evening=evening,
                document=reader.get(entry, "pulka", dict, where),
                table=reader.get(entry, "table", int, where),
                status=reader.text(entry, "status", where),
                created_by=account(entry, "created_by", where),
                created_at=reader.moment(entry, "created_at", where),
                finished_at=reader.maybe_moment(entry, "finished_at", where),
                deals=deals,
                revisions=revisions,
                status_changes=changes,
                deal_cap=entry.get("deal_cap"),
                locked_at=reader.maybe_moment(entry, "locked_at", where),
                claimed_by=[
                    account({"user": name}, "user", f"{where}.claimed_by[{k}]")
                    # A backup from before table entry has no seats taken.
                    for k, name in enumerate(
                        reader.items(entry, "claimed_by", where) if "claimed_by" in entry else []
                    )
                ],
            )
        except scoring_services.ScoringError as exc:
            raise BackupError(
                _("%(where)s (table %(table)s of %(date)s): %(problem)s")
                % {
                    "where": where,
                    "table": entry.get("table"),
                    "date": evening.date.isoformat(),
                    "problem": exc.message,
                }
            ) from exc
        report.pulkas += 1
        report.deals += len(deals)
    return evenings, restored


def _restore_tournament(
    reader: _Reader,
    club: Club,
    account,
    row: Any,
    where: str,
    evenings: dict[int, Evening],
    pulkas: dict[int, Pulka],
) -> Tournament:
    """A tournament as it stood: its settings checked by tournament_create, its entries,
    rounds (each on its restored evening, its tables on their restored pulkas) and
    penalties, the players found on the restored roster by name."""
    if not isinstance(row, dict):
        raise reader.bad(where)
    players = {player.name: player for player in Player.objects.filter(club=club)}

    def player(data: Any, key: str, place: str) -> Player:
        found = players.get(reader.text(data, key, place))
        if found is None:
            raise reader.bad(f"{place}.{key}")
        return found

    def number(data: Any, key: str, place: str, *, optional: bool = False) -> int | None:
        value = data.get(key) if isinstance(data, dict) else None
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise reader.bad(f"{place}.{key}")
        return value

    # A setting missing from the file (one newer than the backup) takes its default.
    settings = {name: row.get(name) for name in Tournament.SETTINGS if name in row}
    settings["start"] = reader.day(row, "start", where)
    apart = settings.pop("apart", None) or []  # by name: restored once the players are entered
    tournament = tournament_services.tournament_create(
        club=club, created_by=account(row, "created_by", where), **settings
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        seed=number(row, "seed", where),
        finished_at=reader.maybe_moment(row, "finished_at", where),
        created_at=reader.moment(row, "created_at", where),
    )
    tournament.refresh_from_db()

    entries: dict[str, Entry] = {}
    rows = reader.items(row, "entries", where)
    for k, data in enumerate(rows):
        place = f"{where}.entries[{k}]"
        status = reader.text(data, "status", place)
        if status not in EntryStatus.values:
            raise reader.bad(f"{place}.status")
        entrant = player(data, "player", place)
        if entrant.name in entries:
            raise reader.bad(f"{place}.player")
        entry = Entry.objects.create(
            tournament=tournament,
            player=entrant,
            team=_text(
                reader,
                data.get("team"),
                f"{place}.team",
                what=tournament_services.TEAM_NAME,
                max_length=tournament_services.TEAM_NAME_MAX,
            ),
            status=status,
            first_round=number(data, "first_round", place),
            last_round=number(data, "last_round", place, optional=True),
            created_at=reader.moment(data, "created_at", place),
        )
        entries[entry.player.name] = entry
    for k, data in enumerate(rows):
        if data.get("substitute_for") is not None:
            place = f"{where}.entries[{k}]"
            replaced = entries.get(reader.text(data, "substitute_for", place))
            if replaced is None:
                raise reader.bad(f"{place}.substitute_for")
            Entry.objects.filter(pk=entries[data["player"]].pk).update(substitute_for=replaced)
    if not isinstance(apart, list):
        raise reader.bad(f"{where}.apart")
    pairs = []
    for k, pair in enumerate(apart):
        place = f"{where}.apart[{k}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise reader.bad(place)
        if not all(isinstance(name, str) and name in entries for name in pair):
            raise reader.bad(place)  # a pair kept apart names players of this tournament
        pairs.append([entries[name].player_id for name in pair])
    if pairs:
        tournament.apart = tournament_services.apart_pairs(pairs)
        Tournament.objects.filter(pk=tournament.pk).update(apart=tournament.apart)

    numbers: set[int] = set()
    used: set[int] = set()  # evenings
    seated: set[int] = set()  # pulkas
    for k, data in enumerate(reader.items(row, "rounds", where)):
        place = f"{where}.rounds[{k}]"
        if number(data, "number", place) in numbers:
            raise reader.bad(f"{place}.number")
        numbers.add(data["number"])
        state = reader.text(data, "state", place)
        if state not in RoundState.values:
            raise reader.bad(f"{place}.state")
        if reader.text(data, "method", place) not in {method.value for method in Method}:
            raise reader.bad(f"{place}.method")
        evening = None
        if state != RoundState.DRAFT:
            evening = evenings.get(number(data, "evening", place))
            if evening is None or evening.pk in used:
                raise reader.bad(f"{place}.evening")
            used.add(evening.pk)
        one = Round.objects.create(
            tournament=tournament,
            number=number(data, "number", place),
            state=state,
            method=data["method"],
            seed=number(data, "seed", place),
            seating=_seating_of_names(reader, data, place, player),
            evening=evening,
            published_at=reader.maybe_moment(data, "published_at", place),
            starts_at=reader.maybe_moment(data, "starts_at", place),
            started_at=reader.maybe_moment(data, "started_at", place),
            confirmed_at=reader.maybe_moment(data, "confirmed_at", place),
            confirmed_by=account(data, "confirmed_by", place),
        )
        tables: set[int] = set()
        for j, table in enumerate(reader.items(data, "tables", place)):
            spot = f"{place}.tables[{j}]"
            if number(table, "number", spot) in tables:
                raise reader.bad(f"{spot}.number")
            tables.add(table["number"])
            pulka = pulkas.get(number(table, "pulka", spot))
            if pulka is None or evening is None or pulka.evening_id != evening.pk:
                raise reader.bad(f"{spot}.pulka")
            if pulka.pk in seated:
                raise reader.bad(f"{spot}.pulka")
            seated.add(pulka.pk)
            RoundTable.objects.create(round=one, number=number(table, "number", spot), pulka=pulka)

    for k, data in enumerate(reader.items(row, "penalties", where)):
        place = f"{where}.penalties[{k}]"
        unit = reader.text(data, "unit", place)
        if unit not in PenaltyUnit.values:
            raise reader.bad(f"{place}.unit")
        Penalty.objects.create(
            tournament=tournament,
            player=player(data, "player", place),
            round=number(data, "round", place),
            amount=number(data, "amount", place),
            unit=unit,
            reason=_text(
                reader,
                reader.text(data, "reason", place),
                f"{place}.reason",
                what=tournament_services.PENALTY_REASON,
                max_length=Penalty._meta.get_field("reason").max_length,
                required=True,
            ),
            created_by=account(data, "created_by", place),
            created_at=reader.moment(data, "created_at", place),
        )
    return tournament


def _seating_of_names(reader: _Reader, data: Any, place: str, player) -> dict:
    """A round's seating from the document (players by name) as stored (players by id)."""
    seating = reader.get(data, "seating", dict, place)
    where = f"{place}.seating"
    tables = []
    for j, table in enumerate(reader.items(seating, "tables", where)):
        spot = f"{where}.tables[{j}]"
        seats = [
            player({"name": name}, "name", f"{spot}.seats")
            for name in reader.items(table, "seats", spot)
        ]
        dealer = player(table, "first_dealer", spot)
        if dealer not in seats or not isinstance(table.get("number"), int):
            raise reader.bad(spot)
        tables.append(
            {
                "number": table["number"],
                "seats": [p.pk for p in seats],
                "first_dealer": dealer.pk,
                "locked": bool(table.get("locked")),
            }
        )
    byes = [
        {
            "player": player(bye, "player", f"{where}.byes[{j}]").pk,
            "reason": reader.text(bye, "reason", f"{where}.byes[{j}]"),
        }
        for j, bye in enumerate(reader.items(seating, "byes", where))
    ]
    return {"tables": tables, "byes": byes}
