"""Import and export of whole pulkas as JSON (spec/pulka-json.md).

Export: `pulka_document` is a stored pulka as a pulka/1 document (every rules key resolved,
the first dealer explicit, dealer overrides kept) and `sheet_document` its replayed sheet as
pulka-sheet/1 with each deal's entries. Import: `read_upload` turns an uploaded file into a
document (or a message saying why not) and `pulka_import` stores it as a new table of a
session, all or nothing: a file the engine refuses anywhere saves nothing.
"""

from __future__ import annotations

import json
from typing import IO, Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Player, Session
from scoring import engine, selectors, services
from scoring.models import Deal, DealRevision, Pulka, RevisionAction
from scoring.services import ScoringError, engine_message

MAX_UPLOAD_BYTES = 1_048_576

_NAME_MAX_LENGTH = Player._meta.get_field("name").max_length


def pulka_document(pulka: Pulka) -> dict[str, Any]:
    """The pulka/1 document of a stored pulka: importing it gives the same pulka again."""
    names = selectors.pulka_names(pulka)
    deals = Deal.objects.filter(pulka=pulka).order_by("number")
    return {
        "format": "pulka/1",
        "players": names,
        "first_dealer": names[pulka.first_dealer],
        # The stored rules are already resolved; passing them through the engine puts the
        # keys in the engine's order, whatever order the database kept them in.
        "rules": engine.rules_to_dict(pulka.engine_rules()),
        "deals": [deal.to_pulka_dict(names) for deal in deals],
    }


def sheet_document(pulka: Pulka) -> dict[str, Any]:
    """The pulka-sheet/1 document of a stored pulka, each deal with what it wrote."""
    return engine.sheet_to_dict(selectors.pulka_sheet(pulka), entries=True)


def read_upload(file: IO[bytes]) -> dict[str, Any]:
    """The JSON object in an uploaded file (or stdin), or a ScoringError saying why not.

    Reads at most 1 MB (plus one byte, to tell a file of exactly 1 MB from a larger one).
    """
    too_large = ScoringError(_("The file is too large: at most 1 MB."))
    size = getattr(file, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise too_large
    raw = file.read(MAX_UPLOAD_BYTES + 1)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise too_large
    try:
        # utf-8-sig: editors on Windows often start a UTF-8 file with a byte-order mark.
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise ScoringError(
            _("This file is not JSON: it is not UTF-8 text (byte %(position)s).")
            % {"position": exc.start + 1}
        ) from exc
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScoringError(
            _("This file is not JSON: %(problem)s at line %(line)s, column %(column)s.")
            % {"problem": exc.msg, "line": exc.lineno, "column": exc.colno}
        ) from exc
    except RecursionError as exc:
        raise ScoringError(_("This file is not JSON: it is nested too deeply.")) from exc
    if not isinstance(document, dict):
        raise ScoringError(
            _('This file holds no pulka: a pulka is a JSON object with "format": "pulka/1".')
        )
    return document


def _validated(document: dict[str, Any]) -> tuple[engine.Pulka, engine.Sheet]:
    try:
        parsed = engine.parse_pulka(document)
        sheet = engine.compute_sheet(
            parsed.rules, parsed.players, parsed.deals, first_dealer=parsed.first_dealer
        )
    except engine.PulkaError as exc:
        raise ScoringError(engine_message(exc), deal_number=exc.deal_number) from exc
    for name in parsed.players:
        if len(name) > _NAME_MAX_LENGTH:
            raise ScoringError(
                _("The name %(name)s is too long for the roster: at most %(max)s characters.")
                % {"name": name, "max": _NAME_MAX_LENGTH}
            )
    return parsed, sheet


def _roster_players(session: Session, names: tuple[str, ...]) -> list[Player]:
    """The club's roster players of these names, in the same order; the missing are added."""
    club = session.club
    found = {p.name: p for p in Player.objects.filter(club=club, name__in=names)}
    players = []
    for name in names:
        player = found.get(name)
        if player is None:
            # get_or_create, not create: another import may add the same name meanwhile.
            player, _created = Player.objects.get_or_create(
                club=club, name=name, defaults={"is_active": True}
            )
        players.append(player)
    return players


@transaction.atomic
def pulka_import(
    *, session: Session, document: dict[str, Any], imported_by: AbstractBaseUser | None
) -> Pulka:
    """Store a pulka/1 document as a new table of the session, with all its deals.

    The whole document is checked by the engine first (format, then every deal replayed);
    any problem refuses the file and nothing is saved. Players are matched to the club's
    roster by exact name, and the names not on it are added. A pulka whose pools are all
    closed is stored as finished.
    """
    parsed, sheet = _validated(document)
    players = _roster_players(session, parsed.players)
    names = list(parsed.players)
    pulka = services.pulka_create(
        session=session,
        players=players,
        first_dealer=players[names.index(parsed.first_dealer)],
        rules=engine.rules_to_dict(parsed.rules),
        created_by=imported_by,
    )
    user = imported_by if imported_by is not None and imported_by.is_authenticated else None
    now = timezone.now()
    seats = {name: i for i, name in enumerate(names)}
    deals = []
    for number, parsed_deal in enumerate(parsed.deals, 1):
        deal = Deal(
            pulka=pulka,
            number=number,
            entered_by=user,
            entered_at=now,
            changed_by=user,
            changed_at=now,
        )
        deal.set_from_pulka_dict(engine.deal_to_dict(parsed_deal), seats)
        deals.append(deal)
    Deal.objects.bulk_create(deals)
    # Read the rows back: not every database returns the new primary keys from a bulk insert.
    stored = Deal.objects.filter(pulka=pulka).order_by("number")
    DealRevision.objects.bulk_create(
        DealRevision(
            pulka=pulka,
            deal=deal,
            number=deal.number,
            action=RevisionAction.CREATED,
            after=deal.to_pulka_dict(names),
            user=user,
            at=now,
        )
        for deal in stored
    )
    changed = services._settle_status(pulka, sheet, was_closed=False)
    if changed:
        pulka.save(update_fields=changed)
        services._rebuild_result_cache(pulka, names, sheet)
    return pulka
