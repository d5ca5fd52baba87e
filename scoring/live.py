"""What the spectators' polls read first: the live state of pulkas, evenings and clubs,
kept in Django's cache framework.

A poll (the pulka page every 4 s, the evening and the club pages) asks "anything new since
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
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

# Entries expire after this many seconds, so that the one change they could hide (above)
# shows within it; a running table writes every minute or two anyway.
ENTRY_TIMEOUT = 600
# Generations live longer than entries; a lost one only turns entries into misses.
GENERATION_TIMEOUT = 24 * 60 * 60

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
        """Keep what the database said, under the generations read before it said it."""
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
