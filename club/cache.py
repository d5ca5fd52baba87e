"""The cache every app server reads through: Redis that, when it fails, is done without.

`ResilientRedisCache` is the "default" cache whenever REDIS_URL is set (config.settings), so
every cache read and write of the site (the sheets, the league rankings, the printouts, the
live polls, allauth's rate limits) passes through it. Each operation asks Redis first; when
Redis does not answer (refused, timed out after the client's 0.5 s socket timeouts, a
broken connection), the operation goes to the *fallback* cache instead, Django's database
cache in the table `pulka_cache`, so that the login throttle keeps counting every worker's
attempts together. If the fallback fails too, a read is a miss and a write is dropped: the
page answers from the database, as it would with an empty cache.

- After a failure Redis is left alone for RETRY_AFTER seconds (every operation goes straight
  to the fallback), doubled at each failure in a row up to RETRY_MAX: a Redis that hangs
  costs a process one socket timeout (0.5 s) every 30 s, not one per operation.
- Keys under NO_FALLBACK_PREFIXES are never kept in the fallback: while Redis is down their
  reads are misses and their writes are dropped. They are the live polls' generations
  (scoring.live): a poll trusts a generation to say "nothing changed", and one kept in the
  fallback during an outage would be old by the next one.
- Every key written while Redis was down (to the fallback, or dropped) is deleted from Redis
  once it answers again: the value Redis still holds for it is older than the one written
  since. A process that lost more than LOST_KEYS_MAX of them empties its Redis database
  instead (Pulka's Redis database is its own).
- Failures are logged at most once a minute per process, with how many there were.

"Per process" is per cache object: Django keeps one per thread, so a threaded server learns
of an outage (and of the end of one) in each thread on its own.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from django.db import DatabaseError

log = logging.getLogger(__name__)

LOG_EVERY = 60.0  # seconds between two log lines about failures, per process
LOST_KEYS_MAX = 10_000


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis

    # RedisError covers refused and timed-out connections, a server still loading its data
    # and a read-only replica; OSError a socket that broke below the client.
    return (redis.exceptions.RedisError, OSError)


class ResilientRedisCache(RedisCache):
    """Django's Redis cache whose every operation survives Redis being down (see the module).

    OPTIONS, besides the Redis client's own (socket_connect_timeout, socket_timeout):
    FALLBACK, the alias of the cache to use while Redis is down ("" for none: misses);
    NO_FALLBACK_PREFIXES, keys never kept in the fallback; RETRY_AFTER and RETRY_MAX,
    the first and the longest time Redis is left alone after a failure, in seconds.
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS", {}))
        self.fallback_alias: str = options.pop("FALLBACK", "")
        self.no_fallback_prefixes: tuple[str, ...] = tuple(options.pop("NO_FALLBACK_PREFIXES", ()))
        self.retry_after: float = float(options.pop("RETRY_AFTER", 2.0))
        self.retry_max: float = float(options.pop("RETRY_MAX", 30.0))
        super().__init__(server, {**params, "OPTIONS": options})
        self._errors = _redis_errors()
        self._lock = threading.Lock()
        self._down_until = 0.0  # monotonic time before which Redis is not asked
        self._delay = 0.0  # how long Redis was last left alone (doubles while it fails)
        self._lost: set[str] = set()  # keys written while Redis was down
        self._lost_overflow = False
        self._failures = 0
        self._logged_at = -LOG_EVERY

    # --- the state of Redis ----------------------------------------------------------

    @property
    def redis_down(self) -> bool:
        """True while Redis is left alone after a failure."""
        return time.monotonic() < self._down_until

    def ping(self) -> bool:
        """Does Redis answer now? (For /healthz: asks it even while it is left alone.)"""
        try:
            return bool(self._cache.get_client(write=True).ping())
        except self._errors:
            return False

    def _failed(self, operation: str, exc: BaseException) -> None:
        with self._lock:
            self._delay = min(max(self._delay * 2, self.retry_after), self.retry_max)
            self._down_until = time.monotonic() + self._delay
        self._log("Redis failed (%s: %s): using the fallback cache", operation, exc)

    def _log(self, message: str, operation: str, exc: BaseException) -> None:
        """One warning a minute at most, saying how many failures it stands for."""
        with self._lock:
            self._failures += 1
            now = time.monotonic()
            if now - self._logged_at < LOG_EVERY:
                return
            failures, self._failures, self._logged_at = self._failures, 0, now
        log.warning(
            message + " (%d failures since the last line)",
            operation,
            exc.__class__.__name__,
            failures,
        )

    def _remember_lost(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                if len(self._lost) >= LOST_KEYS_MAX:
                    self._lost_overflow = True
                    break
                self._lost.add(key)

    def _forget_lost(self) -> bool:
        """Delete from Redis what it missed while it was down; False if Redis fails again."""
        with self._lock:
            lost, overflow = self._lost, self._lost_overflow
            self._lost, self._lost_overflow = set(), False
        if not lost and not overflow:
            return True
        try:
            if overflow:
                super().clear()
            else:
                super().delete_many(list(lost))
        except self._errors as exc:
            self._remember_lost(lost)
            with self._lock:
                self._lost_overflow |= overflow
            self._failed("delete the keys it missed", exc)
            return False
        log.warning(
            "Redis answers again: %s",
            "emptied it" if overflow else f"deleted the {len(lost)} keys written while it was down",
        )
        return True

    # --- one operation ---------------------------------------------------------------

    def _fallback(self):
        return caches[self.fallback_alias] if self.fallback_alias else None

    def _kept_in_fallback(self, key: str) -> bool:
        return not key.startswith(self.no_fallback_prefixes)

    def _run(
        self,
        operation: str,
        keys: list[str],
        on_redis: Callable[[], Any],
        on_fallback: Callable[[Any], Any],
        missed: Any,
        *,
        writes: bool,
    ) -> Any:
        """Ask Redis; if it fails, ask the fallback (`on_fallback(cache)`); if there is none
        or that fails too, answer `missed`. A write Redis did not see is remembered."""
        if not self.redis_down and self._forget_lost():
            try:
                result = on_redis()
            except self._errors as exc:
                self._failed(operation, exc)
            else:
                self._delay = 0.0
                return result
        if writes:
            self._remember_lost(keys)
        fallback = self._fallback()
        if fallback is None:
            return missed
        try:
            return on_fallback(fallback)
        except (DatabaseError, *self._errors) as exc:
            self._log("The fallback cache failed too (%s: %s): a miss", operation, exc)
            return missed

    def _one(self, key: str) -> bool:
        """May `key` be asked of the fallback?"""
        return self._fallback() is not None and self._kept_in_fallback(key)

    # --- the cache API ---------------------------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._run(
            "add",
            [key],
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            lambda c: c.add(key, value, timeout, version) if self._one(key) else True,
            # Neither cache holds the key: as if it were added (allauth's lock waits for a
            # False, a poll's entry is stored nowhere).
            True,
            writes=True,
        )

    def get(self, key, default=None, version=None):
        return self._run(
            "get",
            [key],
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda c: c.get(key, default, version) if self._one(key) else default,
            default,
            writes=False,
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._run(
            "set",
            [key],
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            lambda c: c.set(key, value, timeout, version) if self._one(key) else None,
            None,
            writes=True,
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._run(
            "touch",
            [key],
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            lambda c: self._one(key) and c.touch(key, timeout, version),
            False,
            writes=True,
        )

    def delete(self, key, version=None):
        return self._run(
            "delete",
            [key],
            lambda: super(ResilientRedisCache, self).delete(key, version),
            lambda c: c.delete(key, version),
            False,
            writes=True,
        )

    def get_many(self, keys, version=None):
        keys = list(keys)
        return self._run(
            "get_many",
            keys,
            lambda: super(ResilientRedisCache, self).get_many(keys, version),
            lambda c: c.get_many([k for k in keys if self._kept_in_fallback(k)], version),
            {},
            writes=False,
        )

    def has_key(self, key, version=None):
        return self._run(
            "has_key",
            [key],
            lambda: super(ResilientRedisCache, self).has_key(key, version),
            lambda c: self._one(key) and c.has_key(key, version),
            False,
            writes=False,
        )

    def incr(self, key, delta=1, version=None):
        # A missing key is a ValueError, as Django's API says, from either cache.
        def on_fallback(c):
            if not self._one(key):
                raise ValueError(f"Key '{key}' not found")
            return c.incr(key, delta, version)

        result = self._run(
            "incr",
            [key],
            lambda: super(ResilientRedisCache, self).incr(key, delta, version),
            on_fallback,
            None,
            writes=True,
        )
        if result is None:
            raise ValueError(f"Key '{key}' not found")
        return result

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        data = dict(data)
        kept = {k: v for k, v in data.items() if self._kept_in_fallback(k)}
        return self._run(
            "set_many",
            list(data),
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            lambda c: c.set_many(kept, timeout, version),
            [],
            writes=True,
        )

    def delete_many(self, keys, version=None):
        keys = list(keys)
        self._run(
            "delete_many",
            keys,
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda c: c.delete_many(keys, version),
            None,
            writes=True,
        )

    def clear(self):
        # Both caches are emptied: an entry kept in the fallback during an outage must not
        # come back at the next one. A Redis that cannot be emptied now is emptied once it
        # answers again.
        emptied = False
        if not self.redis_down:
            try:
                super().clear()
                emptied = True
            except self._errors as exc:
                self._failed("clear", exc)
        if not emptied:
            with self._lock:
                self._lost_overflow = True
        fallback = self._fallback()
        if fallback is not None:
            try:
                fallback.clear()
            except DatabaseError as exc:
                log.warning("The fallback cache failed to clear: %s", exc.__class__.__name__)
