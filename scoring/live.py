"""What the spectators' polls read first: the live state of pulkas, evenings and clubs,
kept in Django's cache framework.

A poll (the pulka page every 3 s, the evening and the club pages) asks "anything new since
the token I hold?". The services that change a pulka call `table_changed` and the club's
settings `club_changed`; both give the things they touched a new *generation* (a random
token in the cache) at once and again after the commit. A poll reads in one round trip the
entry it needs and the generations that entry was stored under:

- the entry is *trusted* to say "nothing changed" only when the cache is shared by every
  app server (settings.CACHE_SHARED: Redis) and every generation still matches. A
  local-memory cache lives in one process: another server's (or worker's) write never
  reaches it, so there an entry is only a hint and the poll asks the database;
- otherwise (no entry, a generation moved, a local cache) the poll asks the database and
  stores what it read under the generations it read *before* the query, so a write that
  commits in between leaves a stale entry that no longer matches. "Changed" or "unknown"
  always goes to the database; the cache can only save a query, never hide a change.

The one change an entry can still hide is a write whose process dies between its commit and
its after-commit step, and only for a reader that stored the entry during that transaction:
it expires after ENTRY_TIMEOUT seconds. A failing cache (Redis down) counts as a miss.

A poll that finds a change gets an answer rendered once for every spectator who asks the same
thing (`rendered`): it is kept under the generations read before the database, the version
(or token) it shows, and what else it depends on (the language, the audience, the version the
poll held), so a change gives it a new key and a stale answer is never found. For a pulka,
the fingerprints of the deal rows of each version (`rows_store`) tell a poll holding version
v which rows changed since: it gets those, not the whole log again.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

log = logging.getLogger(__name__)

# Entries expire after this many seconds, so that the one change they could hide (above)
# shows within it; a running table writes every minute or two anyway.
ENTRY_TIMEOUT = 600
# Generations live longer than entries; a lost one only turns entries into misses.
GENERATION_TIMEOUT = 24 * 60 * 60
# A rendered answer is found again only under the same generations and version: it cannot go
# stale, it only stops being asked for.
RENDER_TIMEOUT = ENTRY_TIMEOUT
# The rows' fingerprints of a version are read when the next version is rendered: a table
# writes every minute or two, and a longer pause only costs one whole log.
ROWS_TIMEOUT = 60 * 60
# What a rendered answer keeps of its headers besides its body: htmx's retargeting (a pulka
# that is over swaps the whole page).
KEPT_HEADERS = ("Content-Type", "HX-Retarget", "HX-Reswap")

PREFIX = "scoring:live:"


def _gen(kind: str, ident: object) -> str:
    return f"{PREFIX}gen:{kind}:{ident}"


def pulka_keys(pulka_id: int, club_slug: str) -> tuple[str, list[str]]:
    """The entry of a pulka's poll and the generations it depends on."""
    # The slug is in the entry's key too: the same pulka asked for under another club's
    # address never finds this club's entry.
    entry = f"{PREFIX}pulka:{club_slug}:{pulka_id}"
    return entry, [_gen("pulka", pulka_id), _gen("tenant", club_slug)]


def evening_keys(evening_id: int, club_slug: str) -> tuple[str, list[str]]:
    """The entry of an evening's poll: its tables' token."""
    return f"{PREFIX}evening:{club_slug}:{evening_id}", [
        _gen("evening", evening_id),
        _gen("tenant", club_slug),
    ]


def club_keys(club_slug: str) -> tuple[str, list[str]]:
    """The entry of the club page's poll: its running tables' token."""
    return f"{PREFIX}club:{club_slug}", [_gen("tables", club_slug), _gen("tenant", club_slug)]


@dataclass(frozen=True)
class State:
    """What a poll needs to answer 204: whom the club shows itself to, and the token."""

    public: bool
    token: str


class Watch:
    """One poll's look at the cache, taken before it reads the database (see the module)."""

    def __init__(self, keys: tuple[str, list[str]]) -> None:
        self.entry_key, self.gen_keys = keys
        found = _get_many([self.entry_key, *self.gen_keys])
        self.entry = found.get(self.entry_key)
        self.gens = [found.get(key) for key in self.gen_keys]

    @property
    def state(self) -> State | None:
        """The stored state, trusted or not (a hint: is the club private?)."""
        if not isinstance(self.entry, dict):
            return None
        return State(public=self.entry["public"], token=self.entry["token"])

    @property
    def trusted(self) -> bool:
        return (
            settings.CACHE_SHARED
            and isinstance(self.entry, dict)
            and None not in self.gens
            and self.entry["gens"] == self.gens
        )

    def unchanged_public(self, token: str) -> bool:
        """True when a shared cache says this public club's token is still `token`."""
        state = self.state
        return self.trusted and state is not None and state.public and state.token == token

    def store(self, state: State) -> None:
        """Keep what the database said, under the generations read before it said it.

        The watch then holds that entry and those generations (`etag`, `render_key`)."""
        gens = list(self.gens)
        for i, (key, gen) in enumerate(zip(self.gen_keys, gens, strict=True)):
            if gen is None:
                gen = uuid.uuid4().hex
                # A writer that set the generation since we read it wins: store nothing.
                if not _call("add", key, gen, GENERATION_TIMEOUT):
                    return
                gens[i] = gen
        entry = {"public": state.public, "token": state.token, "gens": gens}
        _call("set", self.entry_key, entry, ENTRY_TIMEOUT)
        self.entry, self.gens = entry, gens

    def etag(self, token: str, language: str) -> str | None:
        """The HTTP validator of what a poll showing `token` answers (None: unknown).

        The generations are in it, so a change the token does not show (the club's stake,
        its name) changes it too."""
        if None in self.gens:
            return None
        return '"' + _digest(token, *self.gens, language) + '"'

    def render_key(self, *parts: object) -> str | None:
        """The key of an answer rendered under these generations (None: do not keep it)."""
        if None in self.gens:
            return None
        return f"{self.entry_key}:render:{_digest(*self.gens)}:" + ":".join(map(str, parts))


def kept(key: str | None) -> HttpResponse | None:
    """The answer kept under `key` (see `rendered`), or None."""
    found = _call("get", key) if key else None
    if not isinstance(found, dict):
        return None
    response = HttpResponse(found["content"], status=found["status"])
    for name, value in found["headers"].items():
        response[name] = value
    patch_vary_headers(response, ["HX-Request"])
    return response


def rendered(key: str | None, render: Callable[[], tuple[HttpResponse, bool]]) -> HttpResponse:
    """The answer kept under `key`, else `render()` (the answer, and whether it may be kept:
    False when what it read was not one consistent state), kept for the next ones."""
    found = kept(key)
    if found is not None:
        return found
    response, keep = render()
    if key and keep and response.status_code == 200 and not response.streaming:
        headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
        answer = {"content": response.content, "status": 200, "headers": headers}
        _call("set", key, answer, RENDER_TIMEOUT)
    return response


def _rows_key(pulka_id: int, version: int, audience: str) -> str:
    return f"{PREFIX}rows:{pulka_id}:{version}:{audience}"


def rows_store(pulka_id: int, version: int, audience: str, prints: list[str]) -> None:
    """Keep the fingerprints of a pulka's deal rows (by number) as `audience` sees them at
    `version`: read from one consistent state only."""
    _call("set", _rows_key(pulka_id, version, audience), prints, ROWS_TIMEOUT)


def rows_of(pulka_id: int, version: int, audience: str) -> list[str] | None:
    """The fingerprints kept for that version (None: unknown; send the whole log)."""
    found = _call("get", _rows_key(pulka_id, version, audience))
    return found if isinstance(found, list) else None


def _digest(*parts: object) -> str:
    raw = "\x1f".join(map(str, parts)).encode()
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def table_changed(*, pulka_id: int | None, evening_id: int, club_slug: str) -> None:
    """A pulka (or its evening's list of tables) changed: every poll of it must look again.

    Called inside the service's transaction: the generations move now (an entry stored
    before the change is dead) and again after the commit (an entry stored from a read
    made before the commit is dead too).
    """
    keys = [_gen("evening", evening_id), _gen("tables", club_slug)]
    if pulka_id is not None:
        keys.append(_gen("pulka", pulka_id))
    _bump(keys)
    transaction.on_commit(lambda: _bump(keys))


def club_changed(slugs: Iterable[str]) -> None:
    """A club's slug, visibility or existence changed: its entries say who may see them."""
    keys = [_gen("tenant", slug) for slug in slugs]
    _bump(keys)
    transaction.on_commit(lambda: _bump(keys))


def _bump(keys: list[str]) -> None:
    _call("set_many", {key: uuid.uuid4().hex for key in keys}, GENERATION_TIMEOUT)


def _get_many(keys: list[str]) -> dict:
    return _call("get_many", keys) or {}


def _call(method: str, *args):
    # A cache that fails (Redis unreachable) must not fail the page or the deal: a read
    # becomes a miss, which goes to the database, and a lost write leaves misses behind.
    try:
        return getattr(cache, method)(*args)
    except Exception:  # noqa: BLE001 - any backend's error
        log.warning("cache %s failed", method, exc_info=True)
        return None
