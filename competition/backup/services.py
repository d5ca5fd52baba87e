"""A whole club as one JSON document, ``pulka-club/1``: to move a club to another site.

`club_document` reads everything of a club: the club and its conventions, its members and
roster, its evenings with their pulkas (each a pulka/1 document, spec/pulka-json.md, with who
entered and changed each deal, every revision and every status change; whether the evening
counts in the leagues and ratings; a table's deal cap), its leagues and its tournaments
(settings, entries, rounds with their seatings and tables, penalties; players by name).
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
from competition.files import services as files
from competition.league import services as leagues
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
        # Every setting as its column (competition.models.Tournament.SETTINGS), the date as text.
        **{name: getattr(tournament, name) for name in Tournament.SETTINGS},
        "start": _when(tournament.start),
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
        evenings, pulkas = _restore_evenings(reader, club, account, report)
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
    # The result caches came with each pulka; the ratings are replayed once, from all of them.
    ratings.ratings_update(club=club)
    return report


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
            venue=str(row.get("venue") or "")[:120],
            notes=str(row.get("notes") or ""),
            created_by=account(row, "created_by", where),
            # A backup from before tournaments has no "counted": every evening counted.
            counted=reader.flag(row, "counted", where),
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
            team=str(data.get("team") or "")[:60],
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
            reason=reader.text(data, "reason", place)[:200],
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
