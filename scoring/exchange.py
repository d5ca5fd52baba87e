"""Import and export of whole pulkas as JSON (spec/pulka-json.md).

Export: `pulka_document` is a stored pulka as a pulka/1 document (every rules key resolved,
the first dealer explicit, dealer overrides kept) and `sheet_document` its replayed sheet as
pulka-sheet/1 with each deal's entries. Import: `read_upload` turns an uploaded file into a
document (or a message saying why not); scoring.services.pulka_import stores it as a new
table of a evening, all or nothing.
"""

from __future__ import annotations

import json
from typing import IO, Any

from django.utils.translation import gettext as _

from club.params import MAX_DIGITS
from scoring import engine, selectors
from scoring.models import Deal, Pulka
from scoring.services import ScoringError

MAX_UPLOAD_BYTES = 1_048_576


class _NumberTooLong(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_int(text: str) -> int:
    """An integer of the file. JSON's grammar already allows only ASCII digits and a minus;
    the length is checked before int(), which refuses more than 4,300 digits with a bare
    ValueError (and takes long to read fewer). Every number of a pulka has a few digits."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _NumberTooLong(digits)
    return int(text)


def pulka_document(pulka: Pulka) -> dict[str, Any]:
    """The pulka/1 document of a stored pulka: importing it gives the same pulka again."""
    names = pulka.names
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
        document = json.loads(text, parse_int=_json_int)
    except _NumberTooLong as exc:
        raise ScoringError(
            _("This file holds a number of %(digits)s digits: no pulka has one so long.")
            % {"digits": exc.digits}
        ) from exc
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
