"""A whole club as one JSON document, ``pulka-club/1``: to move a club to another site.

`club_document` reads everything of a club: the club and its conventions, its members and
roster, its evenings with their pulkas (each a pulka/1 document, spec/pulka-json.md, with who
entered and changed each deal, every revision and every status change) and its leagues.
People are named by username in the document; its ``users`` list gives each one's e-mail.

`club_restore` stores such a document as a new club (or into an empty one) through the
services: the engine checks every pulka, the result caches and the ratings are rebuilt, never
copied. Accounts are matched by e-mail when the document has one, else by username; a missing
account is created inactive and without a usable password. All or nothing.

The whole site's disaster recovery is pg_dump's job (README.md), not this one's.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club import services as club_services
from club.errors import ServiceError
from club.models import Club, Membership, Player, Role
from competition import files, ratings
from competition import services as leagues
from competition.models import League
from scoring import engine, exchange
from scoring import services as scoring_services
from scoring.models import Deal, DealRevision, Evening, Pulka, StatusChange

FORMAT = "pulka-club/1"


class BackupError(ServiceError):
    """A club document that cannot be restored here, and why."""


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
                "date": _when(evening.date),
                "venue": evening.venue,
                "notes": evening.notes,
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
        "status": pulka.status,
        "created_by": who(pulka.created_by),
        "created_at": _when(pulka.created_at),
        "finished_at": _when(pulka.finished_at),
        "pulka": exchange.pulka_document(pulka),
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "entered_by": who(deal.entered_by),
                "entered_at": _when(deal.entered_at),
                "changed_by": who(deal.changed_by),
                "changed_at": _when(deal.changed_at),
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
            }
            for line in revisions
        ],
        "status_changes": [
            {"status": line.status, "user": who(line.user), "at": _when(line.at)}
            for line in changes
        ],
    }


# The backup as a download (competition.files): built at once for a small club, in the
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
    matched_users: list[str] = field(default_factory=list)
    created_users: list[str] = field(default_factory=list)


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


def _accounts(reader: _Reader, report: RestoreReport) -> dict[str, AbstractBaseUser]:
    """The document's people as accounts of this site: found by e-mail (else username), or
    created inactive without a usable password."""
    User = get_user_model()
    accounts: dict[str, AbstractBaseUser] = {}
    for i, row in enumerate(reader.items(reader.document, "users", "the file")):
        where = f"users[{i}]"
        username = reader.text(row, "username", where)
        email = row.get("email") or ""
        if not isinstance(email, str):
            raise reader.bad(f"{where}.email")
        if email:
            found = list(User.objects.filter(email__iexact=email)[:2])
            user = found[0] if len(found) == 1 else None
        else:
            user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        if user is None:
            user = User(
                **{User.USERNAME_FIELD: _free_username(username)},
                email=email,
                first_name=str(row.get("first_name") or "")[:150],
                last_name=str(row.get("last_name") or "")[:150],
                is_active=False,
            )
            user.set_unusable_password()
            user.save()
            report.created_users.append(user.get_username())
        else:
            report.matched_users.append(user.get_username())
        accounts[username] = user
    return accounts


@transaction.atomic
def club_restore(*, document: Any, slug: str | None = None) -> RestoreReport:
    """Store a pulka-club/1 document as the club `slug` (default: the document's), which
    must be new or empty. Nothing is saved when any part of it is refused."""
    reader = _Reader(document)
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
    report = RestoreReport()
    accounts = _accounts(reader, report)

    def account(row: dict, key: str, where: str) -> AbstractBaseUser | None:
        name = row.get(key)
        if name is None:
            return None
        if name not in accounts:
            raise reader.bad(f"{where}.{key}")
        return accounts[name]

    members = reader.items(document, "members", "the file")
    for i, row in enumerate(members):
        if reader.text(row, "role", f"members[{i}]") not in Role.values:
            raise reader.bad(f"members[{i}].role")
    owners = [account(m, "user", "members") for m in members if m["role"] == Role.OWNER]
    details = {
        "name": reader.text(data, "name", "club")[:120],
        "city": str(data.get("city") or "")[:120],
        "is_public": bool(data.get("is_public", True)),
    }
    try:
        if existing is not None:
            club = club_services.club_update(club=existing, **details)
        elif owners and owners[0] is not None:
            club = club_services.club_create(slug=slug, owner=owners[0], **details)
            created_at = reader.moment(data, "created_at", "club")
            Club.objects.filter(pk=club.pk).update(created_at=created_at)
            club.refresh_from_db()
        else:  # a club without an owner (made in the admin) moves as it is
            club = Club.objects.create(slug=slug, **details)
        club = scoring_services.club_rules_update(
            club=club, rules=reader.get(data, "conventions", dict, "club")
        )
        report.club = club
        for i, row in enumerate(members):
            user = account(row, "user", f"members[{i}]")
            if user is None:
                continue
            joined = Membership.objects.filter(club=club, user=user)
            if not joined.exists():
                club_services.member_add(club=club, user=user, role=row["role"])
            elif existing is not None:
                continue  # a member of the empty club already: his membership stays his
            joined.update(created_at=reader.moment(row, "created_at", f"members[{i}]"))
        for i, row in enumerate(reader.items(document, "players", "the file")):
            where = f"players[{i}]"
            player = club_services.player_add(club=club, name=reader.text(row, "name", where))
            user, active = account(row, "user", where), bool(row.get("is_active", True))
            if user is not None or not active:
                club_services.player_update(
                    player=player, name=player.name, user=user, is_active=active
                )
        _restore_evenings(reader, club, account, report)
        for i, row in enumerate(reader.items(document, "leagues", "the file")):
            where = f"leagues[{i}]"
            league = leagues.league_create(
                club=club,
                name=reader.text(row, "name", where)[:120],
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
    except ServiceError as exc:
        if isinstance(exc, BackupError):
            raise
        raise BackupError(exc.message) from exc
    except (TypeError, ValueError) as exc:
        raise reader.bad(_("a value")) from exc
    # The result caches came with each pulka; the ratings are replayed once, from all of them.
    ratings.ratings_update(club=club)
    return report


def _restore_evenings(reader: _Reader, club: Club, account, report: RestoreReport) -> None:
    """Every evening, then every pulka in the order they were first created."""
    pulkas: list[tuple[int, Evening, dict, str]] = []
    for i, row in enumerate(reader.items(reader.document, "evenings", "the file")):
        where = f"evenings[{i}]"
        evening = scoring_services.evening_create(
            club=club,
            date=reader.day(row, "date", where),
            venue=str(row.get("venue") or "")[:120],
            notes=str(row.get("notes") or ""),
            created_by=account(row, "created_by", where),
        )
        Evening.objects.filter(pk=evening.pk).update(
            created_at=reader.moment(row, "created_at", where)
        )
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
            )
            for k, d in enumerate(reader.items(entry, "deals", where))
        ]
        revisions = [
            scoring_services.RestoredRevision(
                number=reader.get(r, "number", int, f"{where}.revisions[{k}]"),
                deal=r.get("deal"),
                action=reader.text(r, "action", f"{where}.revisions[{k}]"),
                before=r.get("before"),
                after=r.get("after"),
                user=account(r, "user", f"{where}.revisions[{k}]"),
                at=reader.moment(r, "at", f"{where}.revisions[{k}]"),
            )
            for k, r in enumerate(reader.items(entry, "revisions", where))
        ]
        changes = [
            scoring_services.RestoredStatus(
                status=reader.text(s, "status", f"{where}.status_changes[{k}]"),
                user=account(s, "user", f"{where}.status_changes[{k}]"),
                at=reader.moment(s, "at", f"{where}.status_changes[{k}]"),
            )
            for k, s in enumerate(reader.items(entry, "status_changes", where))
        ]
        try:
            scoring_services.pulka_restore(
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
