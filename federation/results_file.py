"""A tournament's results file, `pulka-tournament/1` (docs/pulka-tournament.md): building it
from a member club's tournament, reading and checking one that came from elsewhere (a file
or another Pulka site's address), and importing it into the federation.

- `build(tournament, federation)`: the document of a tournament, from the standings core
  (competition.tournament.selectors): its confirmed rounds, tables, seats, results and
  standings, the event's categories, and the persons with the federation's person ids.
  It goes through `normalise` like any file read, so an export read back is itself.
- `read_bytes` / `fetch`: the bytes of a file or an address as a JSON document, bounded
  (MAX_BYTES; the address: http/https only, public networks only unless
  settings.FEDERATION_IMPORT_ALLOW_PRIVATE, a short timeout, at most REDIRECTS_MAX).
- `normalise(document)`: every field checked (types, bounds, keys, persons named), the
  document rebuilt in its one canonical form; a refusal names the field.
- `result_import` (a service): an ImportedResult, its persons matched to the federation's;
  `imported_rematch` changes one match.
- `csv_rows`: the spreadsheet's rows of a document (a tournament's or an imported one).
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import re
import socket
import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.errors import ServiceError
from club.mail import site_url
from club.names import (
    NAME_MAX_LENGTH,
    InvalidName,
    collation_key,
    name_key,
    normalise_name,
    normalise_text,
    sort_key,
)
from club.params import MAX_DIGITS
from competition.lib import tournament_scoring as ts
from competition.models import Entry, EntryStatus, Round, RoundState, RoundTable, Tournament
from competition.tournament import selectors as tournaments
from competition.tournament.standings import TIE_VALUES
from federation.events import category_lines
from federation.models import (
    Category,
    Eligibility,
    EntryCategory,
    Federation,
    ImportedResult,
    Person,
    PersonLink,
)
from scoring import engine
from scoring.messages import engine_problem_text

FORMAT = "pulka-tournament/1"
MAX_BYTES = 2 * 1024 * 1024
PERSONS_MAX = 2000
ROUNDS_MAX = 15  # a tournament's rounds at most (competition_tournament_rounds)
TABLES_MAX = 500  # in one round
CATEGORIES_MAX = 20
CAPS_MAX = 20  # steps of a caps scale
TEXT_MAX = 120  # the names of a tournament, a club, a city
URL_MAX = 500
KEY = re.compile(r"[A-Za-z0-9_-]{1,20}")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
EXACT = re.compile(rf"(-?[0-9]{{1,{MAX_DIGITS}}})(?:/([0-9]{{1,{MAX_DIGITS}}}))?")
PLACE_MAX = PERSONS_MAX
RATING_BOUND = 100_000
TIE_BREAK_KEYS = tuple(key.value for key in ts.TieBreak)
METHODS = tuple(method.value for method in ts.Method)
STATUSES = (EntryStatus.ACTIVE.value, EntryStatus.WITHDRAWN.value)
ELIGIBILITIES = tuple(Eligibility.values)

# Fetching another site's export.
TIMEOUT_SECONDS = 5.0
TOTAL_SECONDS = 15.0
REDIRECTS_MAX = 3

# The refusals, by code (the text is chosen here, from the code and its parameters).
MESSAGES = {
    "too_large": _("The file is too large: at most 2 MB."),
    "not_utf8": _("This file is not JSON: it is not UTF-8 text (byte %(position)s)."),
    "not_json": _("This file is not JSON: %(problem)s at line %(line)s, column %(column)s."),
    "too_deep": _("This file is not JSON: it is nested too deeply."),
    "number_too_long": _(
        "This file holds a number of %(digits)s digits: no tournament has one so long."
    ),
    "not_document": _(
        'This file holds no tournament results: they are a JSON object with "format": '
        '"pulka-tournament/1".'
    ),
    "format": _('"format" must be "pulka-tournament/1", not %(value)s.'),
    "missing": _("%(where)s is missing."),
    "not_text": _("%(where)s must be a text."),
    "not_whole": _("%(where)s must be a whole number."),
    "not_exact": _(
        "%(where)s must be an exact number: a whole number, or a fraction written as a text "
        'such as "12/5".'
    ),
    "not_bool": _("%(where)s must be true or false."),
    "not_list": _("%(where)s must be a list."),
    "not_object": _("%(where)s must be an object."),
    "not_date": _("%(where)s must be a date written as YYYY-MM-DD."),
    "not_datetime": _("%(where)s must be a date and time (ISO 8601)."),
    "not_url": _("%(where)s must be an http or https address."),
    "too_long": _("%(where)s is longer than %(max)s characters."),
    "too_many": _("%(where)s holds %(count)s items: at most %(max)s."),
    "too_few": _("%(where)s holds %(count)s items: at least %(min)s."),
    "range": _("%(where)s must be from %(low)s to %(high)s, not %(value)s."),
    "choice": _("%(where)s must be one of %(choices)s, not %(value)s."),
    "duplicate": _("%(where)s: %(value)s appears twice."),
    "bad_key": _("%(where)s: %(value)s is not a person's key (letters, digits, - and _)."),
    "unknown_person": _("%(where)s names the person %(value)s, who is not in persons."),
    "not_in_category": _(
        "%(where)s names the person %(value)s, who is not in the category %(category)s."
    ),
    "unknown_category": _("%(where)s: there is no category %(value)s in categories."),
    "seated_twice": _("%(where)s: the person %(value)s has two places in round %(round)s."),
    "dealer_not_seated": _("%(where)s: the first dealer %(value)s does not sit at this table."),
    "round_beyond": _("%(where)s: round %(value)s is beyond the tournament's %(rounds)s rounds."),
    "problem": _("%(where)s: %(problem)s"),
    "text": _("%(problem)s"),
    "already": _("These results are already imported: %(name)s (%(date)s)."),
    "url_scheme": _("Give an address that starts with http:// or https://."),
    "url_private": _(
        "This address leads to a private or local network: the import reads public sites only."
    ),
    "url_unknown": _("The site's name could not be found: %(host)s."),
    "url_unreachable": _("The site could not be reached."),
    "url_timeout": _("The site took too long to answer."),
    "url_status": _("The site answered %(status)s instead of the file."),
    "url_redirects": _("The site sent the request on too many times."),
    "same_person": _("%(person)s is already matched to %(other)s of this file."),
    "unknown_key": _("This file has no person %(value)s."),
    "not_a_person": _("Choose a person of this federation."),
}


class ResultsFileError(ServiceError):
    """A results file or address refused, or an import the federation's rules refuse;
    `code` (a key of MESSAGES) and `params` say which and why; nothing was saved."""

    def __init__(self, code: str, *, field: str | None = None, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(str(MESSAGES[code]) % params, field=field)


def _quoted(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


# --- reading bytes ---------------------------------------------------------------------------


class _NumberTooLong(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_int(text: str) -> int:
    """JSON's integers, their length checked before int() (see scoring.exchange)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _NumberTooLong(digits)
    return int(text)


def read_bytes(raw: bytes, *, field: str | None = None) -> dict[str, Any]:
    """The JSON object of a file's bytes (at most MAX_BYTES), or a ResultsFileError."""
    if len(raw) > MAX_BYTES:
        raise ResultsFileError("too_large", field=field)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ResultsFileError("not_utf8", field=field, position=exc.start + 1) from exc
    try:
        document = json.loads(text, parse_int=_json_int)
    except _NumberTooLong as exc:
        raise ResultsFileError("number_too_long", field=field, digits=exc.digits) from exc
    except json.JSONDecodeError as exc:
        raise ResultsFileError(
            "not_json", field=field, problem=exc.msg, line=exc.lineno, column=exc.colno
        ) from exc
    except RecursionError as exc:
        raise ResultsFileError("too_deep", field=field) from exc
    if not isinstance(document, dict):
        raise ResultsFileError("not_document", field=field)
    return document


def read_upload(file, *, field: str = "file") -> dict[str, Any]:
    """An uploaded file's document: at most MAX_BYTES read (plus one, to tell a file of
    exactly MAX_BYTES from a larger one)."""
    size = getattr(file, "size", None)
    if size is not None and size > MAX_BYTES:
        raise ResultsFileError("too_large", field=field)
    return read_bytes(file.read(MAX_BYTES + 1), field=field)


def _public_address(host: str, port: int) -> None:
    """Refuse a host that resolves to a private, loopback, link-local or reserved address
    (a stranger's address must not make the server read its own network)."""
    if getattr(settings, "FEDERATION_IMPORT_ALLOW_PRIVATE", False):
        return
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ResultsFileError("url_unknown", field="url", host=host) from exc
    for *_rest, address in found:
        ip = ipaddress.ip_address(address[0].split("%")[0])
        if ip.version == 6 and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if not ip.is_global or ip.is_multicast:
            raise ResultsFileError("url_private", field="url")


def _checked_url(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ResultsFileError("url_scheme", field="url")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise ResultsFileError("url_scheme", field="url") from exc
    return url, parts.hostname, port


def fetch(url: str, *, transport: httpx.BaseTransport | None = None) -> dict[str, Any]:
    """Another site's export at `url` as a document: http/https only, each address (the
    redirects' too) on a public network, read in a stream up to MAX_BYTES, within
    TIMEOUT_SECONDS per step and TOTAL_SECONDS in all."""
    deadline = time.monotonic() + TOTAL_SECONDS
    with httpx.Client(
        timeout=TIMEOUT_SECONDS, follow_redirects=False, transport=transport
    ) as client:
        for _hop in range(REDIRECTS_MAX + 1):
            url, host, port = _checked_url(url)
            _public_address(host, port)
            try:
                with client.stream("GET", url, headers={"Accept": "application/json"}) as answer:
                    if answer.is_redirect:
                        url = urljoin(url, answer.headers.get("location", ""))
                        continue
                    if answer.status_code != 200:
                        raise ResultsFileError("url_status", field="url", status=answer.status_code)
                    length = answer.headers.get("content-length", "")
                    if length.isascii() and length.isdigit() and int(length) > MAX_BYTES:
                        raise ResultsFileError("too_large", field="url")
                    body = bytearray()
                    for chunk in answer.iter_bytes():
                        body += chunk
                        if len(body) > MAX_BYTES:
                            raise ResultsFileError("too_large", field="url")
                        if time.monotonic() > deadline:
                            raise ResultsFileError("url_timeout", field="url")
                    return read_bytes(bytes(body), field="url")
            except httpx.TimeoutException as exc:
                raise ResultsFileError("url_timeout", field="url") from exc
            except httpx.HTTPError as exc:
                raise ResultsFileError("url_unreachable", field="url") from exc
    raise ResultsFileError("url_redirects", field="url")


# --- checking a document ---------------------------------------------------------------------


def _at(where: str, part: str | int) -> str:
    """A field's path as the messages name it: items counted from 1 (rounds[2].tables[1])."""
    if isinstance(part, int):
        return f"{where}[{part + 1}]"
    return f"{where}.{part}" if where else part


def _get(data: dict, where: str, key: str, *, required: bool = True) -> Any:
    if key not in data or (data[key] is None and required):
        if required:
            raise ResultsFileError("missing", where=_at(where, key))
        return None
    return data[key]


def _object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise ResultsFileError("not_object", where=where)
    return value


def _list(value: Any, where: str, *, high: int, low: int = 0) -> list:
    if not isinstance(value, list):
        raise ResultsFileError("not_list", where=where)
    if len(value) > high:
        raise ResultsFileError("too_many", where=where, count=len(value), max=high)
    if len(value) < low:
        raise ResultsFileError("too_few", where=where, count=len(value), min=low)
    return value


def _text(value: Any, where: str, *, high: int = TEXT_MAX, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ResultsFileError("not_text", where=where)
    if len(value) > high * 4:  # refused before tidying a huge text
        raise ResultsFileError("too_long", where=where, max=high)
    try:
        return normalise_text(value, max_length=high, what=where, required=required, field=None)
    except InvalidName as exc:  # its message names the field (`what`)
        raise ResultsFileError("text", problem=exc.message) from exc


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ResultsFileError("not_text", where=where)
    if len(value) > NAME_MAX_LENGTH * 4:
        raise ResultsFileError("too_long", where=where, max=NAME_MAX_LENGTH)
    try:
        return normalise_name(value)
    except InvalidName as exc:
        raise ResultsFileError("problem", where=where, problem=exc.message) from exc


def _whole(value: Any, where: str, *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultsFileError("not_whole", where=where)
    if not low <= value <= high:
        raise ResultsFileError("range", where=where, low=low, high=high, value=value)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ResultsFileError("not_bool", where=where)
    return value


def _exact(value: Any, where: str) -> int | str:
    """An exact number as pulka/1 writes it: a JSON integer when whole, else "p/q" in
    lowest terms (a whole number written as a text, or "6/4", is read and rewritten)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if len(str(abs(value))) > MAX_DIGITS:
            raise ResultsFileError("not_exact", where=where)
        return value
    match = EXACT.fullmatch(value) if isinstance(value, str) else None
    if match is None or (match[2] is not None and int(match[2]) == 0):
        raise ResultsFileError("not_exact", where=where)
    return engine.format_score(Fraction(int(match[1]), int(match[2] or 1)))


def _choice(value: Any, where: str, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ResultsFileError(
            "choice", where=where, choices=", ".join(choices), value=_quoted(value)
        )
    return value


def _url(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ResultsFileError("not_url", where=where)
    if len(value) > URL_MAX:
        raise ResultsFileError("too_long", where=where, max=URL_MAX)
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or value != value.strip():
        raise ResultsFileError("not_url", where=where)
    return value


def _date(value: Any, where: str) -> str:
    if not isinstance(value, str) or not DATE.fullmatch(value):
        raise ResultsFileError("not_date", where=where)
    try:
        datetime.date.fromisoformat(value)
    except ValueError as exc:
        raise ResultsFileError("not_date", where=where) from exc
    return value


def _datetime(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise ResultsFileError("not_datetime", where=where)
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError as exc:
        raise ResultsFileError("not_datetime", where=where) from exc
    return value


def _key(value: Any, where: str, persons: dict | None = None) -> str:
    """A person's key; with `persons`, one of theirs."""
    if not isinstance(value, str) or not KEY.fullmatch(value):
        raise ResultsFileError("bad_key", where=where, value=_quoted(value))
    if persons is not None and value not in persons:
        raise ResultsFileError("unknown_person", where=where, value=value)
    return value


def _tournament(data: Any) -> dict:
    where = "tournament"
    data = _object(data, where)
    host = _object(_get(data, where, "host"), _at(where, "host"))
    rules = _object(_get(data, where, "rules"), _at(where, "rules"))
    try:
        rules = engine.rules_to_dict(engine.rules_from_dict(rules))
    except engine.PulkaError as exc:
        raise ResultsFileError(
            "problem", where=_at(where, "rules"), problem=engine_problem_text(exc)
        ) from exc
    scoring = _object(_get(data, where, "scoring"), _at(where, "scoring"))
    at = _at(where, "scoring")
    caps = []
    steps = _list(_get(scoring, at, "caps"), _at(at, "caps"), high=CAPS_MAX)
    for n, step in enumerate(steps):
        step_at = _at(_at(at, "caps"), n)
        step = _list(step, step_at, low=2, high=2)
        caps.append([_exact(step[0], _at(step_at, 0)), _exact(step[1], _at(step_at, 1))])
    tie_breaks = _list(_get(data, where, "tie_breaks"), _at(where, "tie_breaks"), high=4)
    keys = []
    for n, key in enumerate(tie_breaks):
        key = _choice(key, _at(_at(where, "tie_breaks"), n), TIE_BREAK_KEYS)
        if key in keys:
            raise ResultsFileError("duplicate", where=_at(where, "tie_breaks"), value=key)
        keys.append(key)
    return {
        "id": _whole(_get(data, where, "id"), _at(where, "id"), low=1, high=10**MAX_DIGITS),
        "url": _url(_get(data, where, "url", required=False), _at(where, "url")),
        "name": _text(_get(data, where, "name"), _at(where, "name")),
        "date": _date(_get(data, where, "date"), _at(where, "date")),
        "host": {
            "name": _text(_get(host, _at(where, "host"), "name"), _at(_at(where, "host"), "name")),
            "city": _text(
                _get(host, _at(where, "host"), "city", required=False),
                _at(_at(where, "host"), "city"),
                required=False,
            ),
        },
        "rules": rules,
        "rounds": _whole(_get(data, where, "rounds"), _at(where, "rounds"), low=1, high=ROUNDS_MAX),
        "scoring": {
            "method": _choice(_get(scoring, at, "method"), _at(at, "method"), METHODS),
            "caps": caps,
            "caps_mirror": _bool(_get(scoring, at, "caps_mirror"), _at(at, "caps_mirror")),
            "bye_score": _exact(_get(scoring, at, "bye_score"), _at(at, "bye_score")),
        },
        "tie_breaks": keys,
        "lot": _bool(_get(data, where, "lot"), _at(where, "lot")),
        "finished": _bool(_get(data, where, "finished"), _at(where, "finished")),
    }


def _persons(data: Any) -> dict[str, dict]:
    where = "persons"
    data = _object(data, where)
    if len(data) > PERSONS_MAX:
        raise ResultsFileError("too_many", where=where, count=len(data), max=PERSONS_MAX)
    persons = {}
    for key, about in data.items():
        key = _key(key, where)
        at = _at(where, key)
        about = _object(about, at)
        federation = _get(about, at, "federation", required=False)
        if federation is not None:
            fed_at = _at(at, "federation")
            federation = _object(federation, fed_at)
            federation = {
                "slug": _text(_get(federation, fed_at, "slug"), _at(fed_at, "slug"), high=60),
                "person": _whole(
                    _get(federation, fed_at, "person"),
                    _at(fed_at, "person"),
                    low=1,
                    high=10**MAX_DIGITS,
                ),
            }
        status = _get(about, at, "status", required=False) or EntryStatus.ACTIVE.value
        persons[key] = {
            "name": _name(_get(about, at, "name"), _at(at, "name")),
            "club": _text(_get(about, at, "club", required=False), _at(at, "club"), required=False),
            "team": _text(
                _get(about, at, "team", required=False),
                _at(at, "team"),
                high=60,
                required=False,
            ),
            "status": _choice(status, _at(at, "status"), STATUSES),
            "federation": federation,
        }
    return persons


def _members(value: Any, where: str, persons: dict) -> list[str]:
    members = _list(value, where, high=PERSONS_MAX)
    keys = []
    seen = set()
    for n, key in enumerate(members):
        key = _key(key, _at(where, n), persons)
        if key in seen:
            raise ResultsFileError("duplicate", where=where, value=key)
        seen.add(key)
        keys.append(key)
    return keys


def _categories(data: Any, persons: dict) -> list[dict]:
    where = "categories"
    categories = []
    names = set()
    for n, about in enumerate(_list(data, where, high=CATEGORIES_MAX)):
        at = _at(where, n)
        about = _object(about, at)
        name = _text(_get(about, at, "name"), _at(at, "name"), high=60)
        if name in names:
            raise ResultsFileError("duplicate", where=where, value=name)
        names.add(name)
        bounds = {}
        for bound in ("rating_min", "rating_max"):
            value = _get(about, at, bound, required=False)
            bounds[bound] = (
                None if value is None else _whole(value, _at(at, bound), low=0, high=RATING_BOUND)
            )
        categories.append(
            {
                "name": name,
                "eligibility": _choice(
                    _get(about, at, "eligibility"), _at(at, "eligibility"), ELIGIBILITIES
                ),
                **bounds,
                "persons": _members(_get(about, at, "persons"), _at(at, "persons"), persons),
            }
        )
    return categories


def _seat_score(data: dict, at: str) -> dict:
    return {
        "whists": _exact(_get(data, at, "whists"), _at(at, "whists")),
        "score": _exact(_get(data, at, "score"), _at(at, "score")),
    }


def _rounds(data: Any, persons: dict, round_count: int) -> list[dict]:
    where = "rounds"
    rounds = []
    numbers = set()
    for n, about in enumerate(_list(data, where, high=ROUNDS_MAX)):
        at = _at(where, n)
        about = _object(about, at)
        number = _whole(_get(about, at, "number"), _at(at, "number"), low=1, high=ROUNDS_MAX)
        if number in numbers:
            raise ResultsFileError("duplicate", where=_at(at, "number"), value=number)
        if number > round_count:
            raise ResultsFileError(
                "round_beyond", where=_at(at, "number"), value=number, rounds=round_count
            )
        numbers.add(number)
        placed: set[str] = set()

        def place(key: str, seat_at: str, number: int = number, placed: set = placed) -> None:
            if key in placed:
                raise ResultsFileError("seated_twice", where=seat_at, value=key, round=number)
            placed.add(key)

        tables = []
        table_numbers = set()
        tables_at = _at(at, "tables")
        for t, table in enumerate(_list(_get(about, at, "tables"), tables_at, high=TABLES_MAX)):
            table_at = _at(tables_at, t)
            table = _object(table, table_at)
            table_number = _whole(
                _get(table, table_at, "number"), _at(table_at, "number"), low=1, high=TABLES_MAX
            )
            if table_number in table_numbers:
                raise ResultsFileError(
                    "duplicate", where=_at(table_at, "number"), value=table_number
                )
            table_numbers.add(table_number)
            seats_at = _at(table_at, "seats")
            seats = []
            for s, seat in enumerate(
                _list(_get(table, table_at, "seats"), seats_at, low=3, high=4)
            ):
                seat_at = _at(seats_at, s)
                seat = _object(seat, seat_at)
                key = _key(_get(seat, seat_at, "person"), _at(seat_at, "person"), persons)
                place(key, _at(seat_at, "person"))
                table_place = _get(seat, seat_at, "place", required=False)
                seats.append(
                    {
                        "person": key,
                        **_seat_score(seat, seat_at),
                        "place": None
                        if table_place is None
                        else _whole(table_place, _at(seat_at, "place"), low=1, high=4),
                    }
                )
            dealer = _key(
                _get(table, table_at, "first_dealer"), _at(table_at, "first_dealer"), persons
            )
            if dealer not in {seat["person"] for seat in seats}:
                raise ResultsFileError(
                    "dealer_not_seated", where=_at(table_at, "first_dealer"), value=dealer
                )
            pulka = _get(table, table_at, "pulka", required=False)
            if pulka is not None:
                pulka_at = _at(table_at, "pulka")
                pulka = _object(pulka, pulka_at)
                pulka = {
                    "id": _whole(
                        _get(pulka, pulka_at, "id"),
                        _at(pulka_at, "id"),
                        low=1,
                        high=10**MAX_DIGITS,
                    ),
                    "url": _url(_get(pulka, pulka_at, "url", required=False), _at(pulka_at, "url")),
                }
            tables.append(
                {"number": table_number, "first_dealer": dealer, "seats": seats, "pulka": pulka}
            )
        byes = []
        byes_at = _at(at, "byes")
        for b, bye in enumerate(_list(_get(about, at, "byes"), byes_at, high=PERSONS_MAX)):
            bye_at = _at(byes_at, b)
            bye = _object(bye, bye_at)
            key = _key(_get(bye, bye_at, "person"), _at(bye_at, "person"), persons)
            place(key, _at(bye_at, "person"))
            byes.append({"person": key, "score": _exact(_get(bye, bye_at, "score"), bye_at)})
        tables.sort(key=lambda table: table["number"])
        rounds.append({"number": number, "tables": tables, "byes": byes})
    rounds.sort(key=lambda one: one["number"])
    return rounds


def _lines(
    data: Any, where: str, persons: dict, members: set[str] | None = None, category: str = ""
) -> list[dict]:
    lines = []
    seen = set()
    for n, line in enumerate(_list(data, where, high=PERSONS_MAX)):
        at = _at(where, n)
        line = _object(line, at)
        key = _key(_get(line, at, "person"), _at(at, "person"), persons)
        if members is not None and key not in members:
            raise ResultsFileError(
                "not_in_category", where=_at(at, "person"), value=key, category=category
            )
        if key in seen:
            raise ResultsFileError("duplicate", where=where, value=key)
        seen.add(key)
        values = _object(_get(line, at, "tie_breaks"), _at(at, "tie_breaks"))
        tie_breaks = {}
        for name, value in values.items():
            name = _choice(name, _at(at, "tie_breaks"), TIE_BREAK_KEYS)
            tie_breaks[name] = _exact(value, _at(_at(at, "tie_breaks"), name))
        finalist = _get(line, at, "finalist", required=False)
        lines.append(
            {
                "place": _whole(_get(line, at, "place"), _at(at, "place"), low=1, high=PLACE_MAX),
                "person": key,
                "total": _exact(_get(line, at, "total"), _at(at, "total")),
                "tie_breaks": dict(sorted(tie_breaks.items())),
                "finalist": None if finalist is None else _bool(finalist, _at(at, "finalist")),
            }
        )
    return lines


def _standings(data: Any, persons: dict, categories: list[dict]) -> dict:
    where = "standings"
    data = _object(data, where)
    overall = _lines(_get(data, where, "overall"), _at(where, "overall"), persons)
    members = {category["name"]: set(category["persons"]) for category in categories}
    by_category = _object(_get(data, where, "categories"), _at(where, "categories"))
    lists = {}
    for name, lines in by_category.items():
        at = _at(_at(where, "categories"), name) if isinstance(name, str) else where
        if name not in members:
            raise ResultsFileError("unknown_category", where=at, value=_quoted(name))
        lists[name] = _lines(lines, at, persons, members[name], name)
    return {"overall": overall, "categories": dict(sorted(lists.items()))}


def normalise(document: Any) -> dict[str, Any]:
    """The document checked field by field and rebuilt in its one form (every key written,
    optional ones as null or ""; unknown keys left out), or a ResultsFileError naming the
    first field refused."""
    if not isinstance(document, dict):
        raise ResultsFileError("not_document")
    if document.get("format") != FORMAT:
        raise ResultsFileError("format", value=_quoted(document.get("format")))
    tournament = _tournament(_get(document, "", "tournament"))
    persons = _persons(_get(document, "", "persons"))
    categories = _categories(_get(document, "", "categories"), persons)
    return {
        "format": FORMAT,
        "site": _url(_get(document, "", "site"), "site"),
        "exported_at": _datetime(_get(document, "", "exported_at"), "exported_at"),
        "tournament": tournament,
        "persons": dict(sorted(persons.items(), key=lambda item: _key_order(item[0]))),
        "categories": categories,
        "rounds": _rounds(_get(document, "", "rounds"), persons, tournament["rounds"]),
        "standings": _standings(_get(document, "", "standings"), persons, categories),
    }


def _key_order(key: str) -> tuple:
    """p2 before p10: the keys' digits compared as numbers."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key))


# --- building a tournament's file --------------------------------------------------------------


def this_site() -> str:
    return site_url("")


def _score(value: Fraction | int) -> int | str:
    return engine.format_score(Fraction(value))


def _line(line: ts.Line, keys: dict[int, str], tie_breaks: tuple[ts.TieBreak, ...]) -> dict:
    return {
        "place": line.place,
        "person": keys[line.player],
        "total": _score(line.score),
        "tie_breaks": {key.value: _score(TIE_VALUES[key](line)) for key in tie_breaks},
        "finalist": line.finalist,
    }


def _home_clubs(federation: Federation, person_ids: set[int]) -> dict[int, str]:
    """Each person's first roster name's club (a guest name comes later): his club."""
    clubs: dict[int, str] = {}
    links = (
        PersonLink.objects.filter(federation=federation, person_id__in=person_ids)
        .order_by("linked_at", "pk")
        .values_list("person_id", "player__club__name")
    )
    for person, club in links:
        clubs.setdefault(person, club)
    return clubs


def build(
    tournament: Tournament, federation: Federation, *, now: datetime.datetime | None = None
) -> dict[str, Any]:
    """The pulka-tournament/1 document of a member club's tournament: its confirmed rounds
    as the standings core counts them. Persons are keyed p1, p2, ... alphabetically."""
    club = tournament.club
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("pk")
    )
    links = dict(
        PersonLink.objects.filter(
            federation=federation, player_id__in=[entry.player_id for entry in entries]
        ).values_list("player_id", "person_id")
    )
    person_names = dict(Person.objects.filter(pk__in=set(links.values())).values_list("pk", "name"))
    homes = _home_clubs(federation, set(links.values()))
    entries.sort(key=lambda entry: (collation_key(entry.player.name), entry.player_id))
    keys = {entry.player_id: f"p{n}" for n, entry in enumerate(entries, start=1)}
    persons = {}
    for entry in entries:
        person = links.get(entry.player_id)
        persons[keys[entry.player_id]] = {
            "name": person_names.get(person, entry.player.name),
            "club": homes.get(person, club.name),
            "team": entry.team,
            "status": entry.status,
            "federation": None if person is None else {"slug": federation.slug, "person": person},
        }
    categories = []
    event = getattr(tournament, "open_event", None)
    if event is not None:
        members: dict[int, list[str]] = {}
        rows = EntryCategory.objects.filter(category__event=event).values_list(
            "category_id", "entry__player_id"
        )
        for category, player in rows:
            members.setdefault(category, []).append(keys[player])
        for category in Category.objects.filter(event=event).order_by("position", "pk"):
            categories.append(
                {
                    "name": category.name,
                    "eligibility": category.eligibility,
                    "rating_min": category.rating_min,
                    "rating_max": category.rating_max,
                    "persons": sorted(members.get(category.pk, []), key=_key_order),
                }
            )
    read = tournaments.results(tournament)
    table = tournaments.standings_from(tournament, read)
    tie_breaks = table.tie_breaks
    standings = {
        "overall": [_line(line, keys, tie_breaks) for line in table.lines],
        "categories": {},
    }
    for category in categories:
        members_ids = {player for player, key in keys.items() if key in category["persons"]}
        standings["categories"][category["name"]] = [
            _line(line, keys, tie_breaks) for line in category_lines(table.lines, members_ids)
        ]
    document = {
        "format": FORMAT,
        "site": this_site(),
        "exported_at": (now or timezone.now()).replace(microsecond=0).isoformat(),
        "tournament": {
            "id": tournament.pk,
            "url": site_url(tournament.get_absolute_url()) if club.is_public else None,
            "name": tournament.name,
            "date": tournament.start.isoformat(),
            "host": {"name": club.name, "city": club.city},
            "rules": tournament.rules,
            "rounds": tournament.round_count,
            "scoring": {
                "method": tournament.scoring,
                "caps": [list(step) for step in tournament.caps]
                if tournament.scoring == ts.Method.CAPS
                else [],
                "caps_mirror": tournament.caps_mirror,
                "bye_score": tournament.bye_score,
            },
            "tie_breaks": [key.value for key in tie_breaks],
            "lot": tournament.lot,
            "finished": tournament.finished_at is not None,
        },
        "persons": persons,
        "categories": categories,
        "rounds": _built_rounds(tournament, read, keys, public=club.is_public),
        "standings": standings,
    }
    return normalise(document)


def _built_rounds(
    tournament: Tournament, read: tournaments.Results, keys: dict[int, str], *, public: bool
) -> list[dict]:
    confirmed = Round.objects.filter(
        tournament=tournament, state=RoundState.CONFIRMED, number__in=read.rounds
    ).order_by("number")
    pulkas = {
        (round_number, table): pulka
        for round_number, table, pulka in RoundTable.objects.filter(
            round__in=confirmed
        ).values_list("round__number", "number", "pulka_id")
    }
    club = tournament.club
    scores = {(one.round, one.player): one for one in read.scores}
    rounds = []
    for round in confirmed:
        drawn = tournaments.seating_of(round)
        tables = []
        for table in drawn.tables:
            pulka = pulkas.get((round.number, table.number))
            seats = []
            for player in table.seats:
                one = scores[(round.number, player)]
                seats.append(
                    {
                        "person": keys[player],
                        "whists": _score(one.whists),
                        "score": _score(one.score),
                        "place": one.place,
                    }
                )
            tables.append(
                {
                    "number": table.number,
                    "first_dealer": keys[table.first_dealer],
                    "seats": seats,
                    "pulka": None
                    if pulka is None or not public
                    else {"id": pulka, "url": site_url(_pulka_path(club.slug, pulka))},
                }
            )
        byes = [
            {"person": keys[bye.player], "score": _score(scores[(round.number, bye.player)].score)}
            for bye in drawn.byes
        ]
        rounds.append({"number": round.number, "tables": tables, "byes": byes})
    return rounds


def _pulka_path(club_slug: str, pulka_id: int) -> str:
    return reverse("scoring:pulka-detail", args=[club_slug, pulka_id])


# --- importing ---------------------------------------------------------------------------------


def _lock(federation: Federation) -> Federation:
    return Federation.objects.select_for_update().get(pk=federation.pk)


def already_imported(federation: Federation, document: dict) -> ImportedResult | None:
    return (
        ImportedResult.objects.filter(
            federation=federation,
            document__site=document["site"],
            document__tournament__id=document["tournament"]["id"],
        )
        .order_by("pk")
        .first()
    )


def _active(person: Person | None) -> Person | None:
    """A merged person's survivor (a chain of merges is short; bounded anyway)."""
    for _step in range(10):
        if person is None or person.merged_into_id is None:
            return person
        person = Person.objects.filter(pk=person.merged_into_id).first()
    return person


def match_persons(federation: Federation, document: dict) -> tuple[dict[str, int], list[Person]]:
    """The file's persons matched to the federation's ({key: person id}), and the new
    persons to make for the rest (not saved): by id where the file is this site's and of
    this federation; else by name (club.names.name_key) where exactly one person of the
    federation has it and no other person of the file does; else a new person."""
    persons = document["persons"]
    matched: dict[str, int] = {}
    if document["site"] == this_site():
        ids = {
            key: about["federation"]["person"]
            for key, about in persons.items()
            if about["federation"] and about["federation"]["slug"] == federation.slug
        }
        found = {
            person.pk: person
            for person in Person.objects.filter(federation=federation, pk__in=set(ids.values()))
        }
        for key, person_id in ids.items():
            person = _active(found.get(person_id))
            if person is not None:
                matched[key] = person.pk
    rest = {key: about for key, about in persons.items() if key not in matched}
    file_keys: dict[str, list[str]] = {}
    for key, about in rest.items():
        file_keys.setdefault(name_key(about["name"]), []).append(key)
    by_name: dict[str, list[int]] = {}
    rows = Person.objects.filter(
        federation=federation, merged_into__isnull=True, name_key__in=list(file_keys)
    ).values_list("name_key", "pk")
    for key, person in rows:
        by_name.setdefault(key, []).append(person)
    taken = set(matched.values())
    new = []
    for key, about in rest.items():
        found = by_name.get(name_key(about["name"]), [])
        alone = len(file_keys[name_key(about["name"])]) == 1
        if len(found) == 1 and alone and found[0] not in taken:
            matched[key] = found[0]
            taken.add(found[0])
        else:
            name = normalise_name(about["name"])
            person = Person(
                federation=federation, name=name, name_key=name_key(name), sort_key=sort_key(name)
            )
            person.file_key = key
            new.append(person)
    return matched, new


@transaction.atomic
def result_import(
    *,
    federation: Federation,
    document: dict,
    source: str,
    imported_by: AbstractBaseUser | None,
) -> ImportedResult:
    """Import a results file (normalised here again): refused when the same site's same
    tournament is already imported into the federation; its persons matched
    (match_persons), the new ones made."""
    document = normalise(document)
    federation = _lock(federation)
    earlier = already_imported(federation, document)
    if earlier is not None:
        raise ResultsFileError("already", name=earlier.name, date=earlier.start.isoformat())
    matched, new = match_persons(federation, document)
    for person in Person.objects.bulk_create(new):
        matched[person.file_key] = person.pk
    tournament = document["tournament"]
    return ImportedResult.objects.create(
        federation=federation,
        name=tournament["name"],
        start=datetime.date.fromisoformat(tournament["date"]),
        source=source[: ImportedResult._meta.get_field("source").max_length],
        document=document,
        persons=dict(sorted(matched.items(), key=lambda item: _key_order(item[0]))),
        imported_by=imported_by,
    )


@transaction.atomic
def imported_rematch(*, imported: ImportedResult, key: str, person: Person | None) -> Person:
    """Match the file's person `key` to `person` of the federation (None: a new person,
    named as in the file). A person already matched to another key is refused."""
    imported = ImportedResult.objects.select_for_update().get(pk=imported.pk)
    about = imported.document["persons"].get(key)
    if about is None:
        raise ResultsFileError("unknown_key", field="key", value=key)
    if person is None:
        person = Person.objects.create(
            federation=imported.federation, name=normalise_name(about["name"])
        )
    elif person.federation_id != imported.federation_id or person.merged_into_id is not None:
        raise ResultsFileError("not_a_person", field="person")
    for other, person_id in imported.persons.items():
        if person_id == person.pk and other != key:
            raise ResultsFileError(
                "same_person",
                field="person",
                person=person.name,
                other=imported.document["persons"][other]["name"],
            )
    imported.persons = {**imported.persons, key: person.pk}
    imported.persons = dict(sorted(imported.persons.items(), key=lambda i: _key_order(i[0])))
    imported.save(update_fields=["persons"])
    return person


# --- reading a document for the pages and the spreadsheet ----------------------------------------


def round_numbers(document: dict) -> list[int]:
    return [one["number"] for one in document["rounds"]]


def round_scores(document: dict) -> dict[str, dict[int, Fraction]]:
    """Each person's score in each round of the file (a table's seat or a bye)."""
    scores: dict[str, dict[int, Fraction]] = {}
    for one in document["rounds"]:
        for table in one["tables"]:
            for seat in table["seats"]:
                scores.setdefault(seat["person"], {})[one["number"]] = exact(seat["score"])
        for bye in one["byes"]:
            scores.setdefault(bye["person"], {})[one["number"]] = exact(bye["score"])
    return scores


def exact(value: int | str) -> Fraction:
    """A checked document's exact number as a Fraction."""
    return Fraction(value)


def ordered_keys(document: dict) -> list[str]:
    """The persons in the order of the overall standings, those without a line after them
    alphabetically."""
    placed = [line["person"] for line in document["standings"]["overall"]]
    seen = set(placed)
    rest = sorted(
        (key for key in document["persons"] if key not in seen),
        key=lambda key: (collation_key(document["persons"][key]["name"]), _key_order(key)),
    )
    return placed + rest


def csv_rows(
    document: dict, value: Callable[[Fraction], object]
) -> tuple[list[str], list[list[object]]]:
    """The spreadsheet of a document: a row per person (place, name, club, categories,
    total, each round's score), in the standings' order; `value` writes a number."""
    rounds = round_numbers(document)
    headers = [
        gettext("Place"),
        gettext("Name"),
        gettext("Club"),
        gettext("Categories"),
        gettext("Total"),
        *(gettext("Round %(number)s") % {"number": number} for number in rounds),
    ]
    lines = {line["person"]: line for line in document["standings"]["overall"]}
    categories: dict[str, list[str]] = {}
    for category in document["categories"]:
        for key in category["persons"]:
            categories.setdefault(key, []).append(category["name"])
    scores = round_scores(document)
    rows = []
    for key in ordered_keys(document):
        about = document["persons"][key]
        line = lines.get(key)
        mine = scores.get(key, {})
        rows.append(
            [
                line["place"] if line else "",
                about["name"],
                about["club"],
                ", ".join(categories.get(key, [])),
                value(exact(line["total"])) if line else "",
                *(value(mine[number]) if number in mine else "" for number in rounds),
            ]
        )
    return headers, rows
