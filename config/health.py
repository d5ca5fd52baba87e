"""What /healthz checks: the database (answers, writable), the cache and the worker.

The database is asked from a thread of its own, on a connection of its own opened for the
probe and closed after it, and the probe waits for it at most DATABASE_SECONDS: a database
that hangs (accepts connections and never answers) cannot hold the probe, whatever state a
request's pooled connection is in. The connection gives up after settings' connect_timeout
(5 s), its queries after STATEMENT_TIMEOUT_MS; at most PROBE_THREADS probes wait on a hung
database at once, the next ones answer "timeout" at once.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction

from competition.worker import worker_status

log = logging.getLogger(__name__)

DATABASE_SECONDS = 4.0  # the whole database part of a probe, from the request's point of view
STATEMENT_TIMEOUT_MS = 2000
PROBE_THREADS = 2
CACHE_KEY = "healthz"
ALIAS = DEFAULT_DB_ALIAS  # the database asked (the tests point it at one that hangs)

_probes = ThreadPoolExecutor(max_workers=PROBE_THREADS, thread_name_prefix="healthz")


@dataclass(frozen=True)
class Report:
    """Each part's word ("ok", or what is wrong) and whether the site can serve."""

    database: str
    writable: str
    cache: str
    worker: str

    @property
    def serving(self) -> bool:
        return self.database == "ok" and self.writable == "ok"

    @property
    def degraded(self) -> bool:
        return self.cache != "ok" or self.worker not in ("ok", "not used")

    def text(self) -> str:
        status = "unavailable" if not self.serving else "degraded" if self.degraded else "ok"
        lines = [
            status,
            f"database: {self.database}",
            f"writable: {self.writable}",
            f"cache: {self.cache}",
            f"worker: {self.worker}",
        ]
        return "\n".join(lines) + "\n"


def _worker_part() -> str:
    try:
        return worker_status().state
    except DatabaseError:
        return "unknown"


def _database_parts(alias: str) -> tuple[str, str, str]:
    """(database, writable, worker) as the database says them; in the probe's thread."""
    connection = connections[alias]
    try:
        if connection.vendor == "postgresql":
            with transaction.atomic(using=alias), connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL statement_timeout = {STATEMENT_TIMEOUT_MS}")
                cursor.execute(
                    "SELECT pg_is_in_recovery(), current_setting('transaction_read_only')"
                )
                in_recovery, read_only = cursor.fetchone()
                worker = _worker_part()  # under the same statement_timeout
            writable = "read-only" if in_recovery or read_only == "on" else "ok"
        else:
            # SQLite: no transaction (ours begin IMMEDIATE, which would wait for a writer);
            # a file the process may not write is refused at the first write anyway.
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
            writable = "ok"
            worker = _worker_part()
        return "ok", writable, worker
    except DatabaseError as exc:
        log.error("healthz: the database does not answer: %s", exc.__class__.__name__)
        return "down", "unknown", "unknown"
    finally:
        connection.close()


def _cache_part() -> str:
    ping = getattr(cache, "ping", None)
    if ping is not None:  # club.cache.ResilientRedisCache: does Redis itself answer?
        return "ok" if ping() else "down"
    try:
        cache.set(CACHE_KEY, "ok", 10)
        return "ok" if cache.get(CACHE_KEY) == "ok" else "down"
    except Exception:  # noqa: BLE001 - any backend's failure is a cache that is down
        return "down"


def check() -> Report:
    """Every part, in at most DATABASE_SECONDS plus the cache's socket timeout."""
    future = _probes.submit(_database_parts, ALIAS)
    try:
        database, writable, worker = future.result(timeout=DATABASE_SECONDS)
    except FutureTimeout:
        log.error("healthz: the database did not answer within %s s", DATABASE_SECONDS)
        database, writable, worker = "timeout", "unknown", "unknown"
    return Report(database=database, writable=writable, cache=_cache_part(), worker=worker)
