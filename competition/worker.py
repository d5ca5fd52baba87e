"""The background worker that survives its database blinking (`manage.py pulka_worker`).

django-tasks-db's `db_worker` exits on the first database error that reaches its loop: a
restarted PostgreSQL, a dropped connection, a failover. Re-rating and prepared files then
stop until someone starts it again. `Supervisor` runs the same worker loop and, when it
fails, closes the connections, waits (1 s, doubling up to 30 s) and starts it again;
SIGTERM or SIGINT stop it between tasks (a second one stops the task too).

While it runs, a thread writes the worker's heartbeat (models.WorkerHeartbeat) every
HEARTBEAT_SECONDS. What a worker was running when it died is queued again:

- by the worker itself at every (re)start: work still marked as its own (by its name) was
  cut off by the failure it restarts from, or by the death of its previous process;
- by any other live worker within a minute: work of a worker whose heartbeat is older than
  models.WORKER_LOST_AFTER.

Queued again means: the rows a task works on (RatingRefresh, PreparedFile) are pending again
(or failed, with the reason, once MAX_ATTEMPTS runs were cut off), their task is queued anew,
and the task results the dead worker held are ready again (failed after MAX_ATTEMPTS runs).
A worker's name must be unique among the workers running at once: it defaults to the host
and the queues, so that a process restarted by systemd takes over its predecessor's work.

The owner's background page, the "Ratings are being updated" notice and /healthz read the
heartbeats through `worker_status`.
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connections
from django.db.models import QuerySet
from django.utils import timezone
from django_tasks import task_backends
from django_tasks.base import TaskResultStatus
from django_tasks_db import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from competition.files import services as files
from competition.models import (
    WORKER_LOST_AFTER,
    WORKER_SILENT_AFTER,
    PreparedFile,
    RatingRefresh,
    WorkerHeartbeat,
)
from competition.rating import background as rating
from competition.tasks import MAX_ATTEMPTS, JobStates, enqueue, set_worker_name

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 30.0
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0


class WorkerLost(Exception):
    """The worker running a task stopped before the task finished."""


# The rows tasks work on, how their runs are tracked, and how to queue a row's task again.
LOST_WORK: list[tuple[Callable[[], QuerySet[Any]], JobStates, Callable[[Any], None]]] = [
    (
        RatingRefresh.objects.all,
        rating.JOB,
        lambda row: enqueue(rating.rerate_task, club_id=row.club_id),
    ),
    (
        PreparedFile.objects.all,
        files.JOB,
        lambda row: enqueue(files.build_file_task, file_id=row.pk),
    ),
]


def default_name(queues: Iterable[str]) -> str:
    return f"{socket.gethostname()}:{','.join(queues)}"[:64]


# --- what a dead worker left behind --------------------------------------------------------


def requeue_lost(workers: Iterable[str]) -> int:
    """Queue again what the dead `workers` were running (see the module); how many tasks."""
    workers = set(workers)
    if not workers:
        return 0
    queued = 0
    for rows, job, queue_again in LOST_WORK:
        for row in job.requeue_lost(rows(), workers):
            queue_again(row)
            queued += 1
    for result in DBTaskResult.objects.running():
        if not result.worker_ids or result.worker_ids[-1] not in workers:
            continue
        if len(result.worker_ids) >= MAX_ATTEMPTS:
            result.set_failed(WorkerLost(f"cut off {len(result.worker_ids)} times"))
            continue
        DBTaskResult.objects.filter(pk=result.pk, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.READY, started_at=None
        )
        queued += 1
    if queued:
        log.warning("Queued again %d tasks of the stopped worker(s) %s", queued, sorted(workers))
    return queued


def lost_workers(now: datetime.datetime) -> list[str]:
    """The workers whose heartbeat is older than WORKER_LOST_AFTER (dead or stopped)."""
    rows = WorkerHeartbeat.objects.filter(seen_at__lt=now - WORKER_LOST_AFTER)
    return list(rows.values_list("name", flat=True))


def beat(name: str, queues: Iterable[str], *, started: bool = False, stopped: bool = False) -> None:
    now = timezone.now()
    fields: dict[str, Any] = {
        "seen_at": now,
        "queues": ",".join(queues)[:200],
        "host": socket.gethostname()[:200],
        "pid": os.getpid(),
        "stopped_at": now if stopped else None,
    }
    if started:
        fields["started_at"] = now
    WorkerHeartbeat.objects.update_or_create(name=name, defaults=fields)


# --- what the pages say ------------------------------------------------------------------


@dataclass(frozen=True)
class WorkerStatus:
    """`state`: "ok" (a worker was seen lately), "stale" (none lately: `seen_at` is the
    last), "none" (no worker ever ran), "not used" (tasks run inside the request)."""

    state: str
    seen_at: datetime.datetime | None = None

    @property
    def not_running(self) -> bool:
        return self.state in ("stale", "none")


def uses_worker() -> bool:
    """Do the tasks wait in the database for a worker (TASKS_BACKEND=database)?"""
    return isinstance(task_backends["default"], DatabaseBackend)


def worker_status(now: datetime.datetime | None = None) -> WorkerStatus:
    """Is a worker running? One query (none with the immediate backend)."""
    if not uses_worker():
        return WorkerStatus("not used")
    now = now or timezone.now()
    latest = WorkerHeartbeat.objects.order_by("-seen_at").first()
    if latest is None:
        return WorkerStatus("none")
    alive = latest.stopped_at is None and latest.seen_at >= now - WORKER_SILENT_AFTER
    return WorkerStatus("ok" if alive else "stale", latest.seen_at)


# --- the supervised loop ---------------------------------------------------------------


class _Loop(Worker):
    """db_worker's loop, whose signals the supervisor handles."""

    def configure_signals(self) -> None:
        pass


class Supervisor:
    """Run db_worker's loop on `queues` until stopped, starting it again after a failure."""

    def __init__(
        self,
        *,
        queues: list[str],
        name: str = "",
        backend_name: str = "default",
        interval: float = 1.0,
        heartbeat: float = HEARTBEAT_SECONDS,
        backoff_first: float = BACKOFF_FIRST,
        backoff_max: float = BACKOFF_MAX,
    ) -> None:
        self.queues = queues
        self.name = name or default_name(queues)
        self.backend_name = backend_name
        self.interval = interval
        self.heartbeat = heartbeat
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.stopping = threading.Event()
        self.restarts = 0
        self.loop: _Loop | None = None

    def stop(self) -> None:
        """Stop after the running task (if any), or at once when idle."""
        self.stopping.set()
        if self.loop is not None:
            self.loop.running = False

    def handle_signal(self, signum: int, frame: object) -> None:
        """SIGTERM/SIGINT: stop between tasks; a second one also stops the running task
        (it is queued again at the next start)."""
        forced = self.stopping.is_set()
        log.warning("Received signal %s: stopping%s", signum, " now" if forced else "")
        self.stop()
        if forced or self.loop is None or not self.loop.running_task:
            raise SystemExit(1 if forced else 0)

    def name_taken(self) -> str:
        """Why this worker may not start under its name: another process of this host holds
        it and is alive (its work would be taken for cut off); "" if none does."""
        other = WorkerHeartbeat.objects.filter(name=self.name, stopped_at__isnull=True).first()
        if other is None or other.pid == os.getpid() or other.host != socket.gethostname():
            return ""
        try:
            os.kill(other.pid, 0)
        except ProcessLookupError:
            return ""  # its process is gone: this worker takes over its work
        except PermissionError:
            pass  # alive, under another user
        return f"the worker {self.name} is running already (process {other.pid})"

    def run(self) -> None:
        set_worker_name(self.name)
        beater = threading.Thread(target=self._beat_forever, name="heartbeat", daemon=True)
        beater.start()
        delay = self.backoff_first
        try:
            while not self.stopping.is_set():
                began = time.monotonic()
                try:
                    self._run_once()
                    return  # asked to stop
                except Exception as exc:  # noqa: BLE001 - whatever stopped the loop, restart
                    log.error(
                        "The worker %s stopped (%s: %s); starting again in %.1f s",
                        self.name,
                        exc.__class__.__name__,
                        exc,
                        delay,
                    )
                finally:
                    connections.close_all()
                if time.monotonic() - began > self.backoff_max:
                    delay = self.backoff_first  # it had been running well: a new outage
                self.restarts += 1
                self.stopping.wait(delay)
                delay = min(delay * 2, self.backoff_max)
        finally:
            self.stopping.set()
            beater.join(timeout=5)
            self._last_beat()
            set_worker_name("")

    def _run_once(self) -> None:
        # Whatever this name still runs was cut off: by the failure restarted from, or by
        # the death of this worker's previous process.
        beat(self.name, self.queues, started=True)
        requeue_lost([self.name])
        self.loop = _Loop(
            queue_names=self.queues,
            interval=self.interval,
            batch=False,
            backend_name=self.backend_name,
            startup_delay=False,
            max_tasks=None,
            worker_id=self.name,
            excluded_queue_names=[],
        )
        if self.stopping.is_set():
            return
        self.loop.run()

    def _beat_forever(self) -> None:
        """Every `heartbeat` seconds: say this worker is alive, and queue again the work of
        workers that are not. A failure (the database is down) waits for the next beat.

        Another worker is taken for dead only once this one has been beating for
        WORKER_LOST_AFTER without a failure: after an outage every worker's heartbeat is
        old, and each must have had the time to write its own first."""
        beating_since: float | None = None
        try:
            while not self.stopping.wait(self.heartbeat):
                try:
                    beat(self.name, self.queues)
                    if beating_since is None:
                        beating_since = time.monotonic()
                    if time.monotonic() - beating_since >= WORKER_LOST_AFTER.total_seconds():
                        lost = [n for n in lost_workers(timezone.now()) if n != self.name]
                        requeue_lost(lost)
                except DatabaseError as exc:
                    beating_since = None
                    log.warning("Heartbeat of %s failed: %s", self.name, exc.__class__.__name__)
                    connections.close_all()
        finally:
            connections.close_all()

    def _last_beat(self) -> None:
        try:
            beat(self.name, self.queues, stopped=True)
        except DatabaseError as exc:
            log.warning("Last heartbeat of %s failed: %s", self.name, exc.__class__.__name__)
        finally:
            connections.close_all()
