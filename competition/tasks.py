"""What every background task of competition shares: queueing, the retry budget, one lock,
and the states of the row a task works on (`JobStates`).

The task functions themselves live with their work (competition.rating.background.rerate_task,
competition.files.services.build_file_task); this module is what they have in common.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import models, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django_tasks import task_backends
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks.base import Task

from competition.models import STALE_AFTER

MAX_ATTEMPTS = 3  # a failing task is tried this often before its row is left `failed`

# The name of the worker this process is (competition.worker), written on every row a task
# of it claims, so that what a dead worker was running can be found and queued again.
_worker_name = ""


def worker_name() -> str:
    """This process's worker name; blank in a web process (or a plain `db_worker`)."""
    return _worker_name


def set_worker_name(name: str) -> None:
    global _worker_name
    _worker_name = name


Row = TypeVar("Row", bound=models.Model)


def enqueue(work: Task, **kwargs: Any) -> None:
    """Queue a task: after the commit for a worker, at once for the immediate backend.

    A worker must never look for a row it cannot see yet, hence after the commit. The
    immediate backend runs it inside the request's transaction, as before the queue existed:
    the page that answers already shows the result (and the tests need no worker).
    """
    if isinstance(task_backends[work.backend], ImmediateBackend):
        work.enqueue(**kwargs)
    else:
        transaction.on_commit(lambda: work.enqueue(**kwargs))


def advisory_lock(key: int, club_id: int) -> None:
    """Take turns with every other transaction holding (key, club_id), until this one ends.

    On PostgreSQL a transaction-scoped advisory lock: not the club's row lock, which every
    correction takes (Club.results_version) and which must never wait for a long replay or
    build. SQLite lets one writing transaction at a time into the whole database
    (transaction_mode IMMEDIATE), which serialises them already.
    """
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s::integer, %s::integer)", [key, club_id])


@dataclass(frozen=True)
class JobStates:
    """The life of a row that a background task works on (RatingRefresh, PreparedFile).

    The row is `pending` until a task claims it, `running` while one works on it, and
    `pending` again after a failure until MAX_ATTEMPTS attempts (`attempts`, counted since the
    last (re)start) have failed: then `failed`, with `last_error`, until someone restarts it.
    A running row whose `started_at` is older than models.STALE_AFTER is taken for dead: its
    worker was killed, so it may be restarted too (`restartable`).

    `token` names the field that tells a run from a newer one: a task remembers its value when
    it claims the row, and its failure counts only if the row still carries it, still running.
    RatingRefresh.generation is bumped by every request and restart (a newer request wins);
    PreparedFile.runs by every claim (`counts_runs`: a restart of a build taken for dead wins).
    """

    pending: str
    running: str
    failed: str
    token: str
    counts_runs: bool = False

    def restartable(self, now: datetime.datetime) -> Q:
        """Failed, or running for longer than STALE_AFTER (its worker died)."""
        return Q(state=self.failed) | Q(state=self.running, started_at__lt=now - STALE_AFTER)

    def claim(self, rows: QuerySet[Row]) -> tuple[Row, int] | None:
        """Take the pending row of `rows` (row-locked, marked running, the attempt counted),
        with the token its run must still find for its failure to count; None if no row of
        `rows` is pending (done, failed, or another task has it)."""
        with transaction.atomic():
            row = rows.select_for_update().filter(state=self.pending).first()
            if row is None:
                return None
            row.state = self.running
            row.attempts += 1
            row.started_at = timezone.now()
            row.worker = worker_name()
            changed = ["state", "attempts", "started_at", "worker"]
            if self.counts_runs:
                setattr(row, self.token, getattr(row, self.token) + 1)
                changed.append(self.token)
            row.save(update_fields=changed)
            return row, getattr(row, self.token)

    def failure(self, rows: QuerySet[Row], token: int, exc: Exception, **when_failed: Any) -> bool:
        """Record that the run `token` of the row in `rows` failed with `exc`. True: the row
        is pending again, to be queued by the caller; False: MAX_ATTEMPTS are spent and it
        is left failed (with the fields `when_failed` too), or a newer run has the row (it
        was restarted, or a newer request came in) or it is gone, and it is left alone."""
        with transaction.atomic():
            row = rows.select_for_update().filter(state=self.running, **{self.token: token}).first()
            if row is None:
                return False
            row.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            if row.attempts >= MAX_ATTEMPTS:
                row.state = self.failed
                for name, value in when_failed.items():
                    setattr(row, name, value)
                row.save(update_fields=["last_error", "state", *when_failed])
                return False
            row.state = self.pending
            row.save(update_fields=["last_error", "state"])
            return True

    def requeue_lost(self, rows: QuerySet[Row], workers: Iterable[str]) -> list[Row]:
        """Rows of `rows` running in one of the dead `workers`: pending again, for the caller
        to queue (competition.worker), or failed once MAX_ATTEMPTS runs have been cut off.
        Returns the rows made pending."""
        workers = list(workers)
        if not workers:
            return []
        error = "WorkerLost: the background worker stopped during this work"
        with transaction.atomic():
            lost = list(
                rows.select_for_update(skip_locked=True).filter(
                    state=self.running, worker__in=workers
                )
            )
            spent = [row.pk for row in lost if row.attempts >= MAX_ATTEMPTS]
            again = [row for row in lost if row.attempts < MAX_ATTEMPTS]
            rows.filter(pk__in=spent).update(state=self.failed, last_error=error)
            rows.filter(pk__in=[row.pk for row in again]).update(
                state=self.pending, last_error=error
            )
        return again

    def restart(self, rows: QuerySet[Row], now: datetime.datetime, **changes: Any) -> bool:
        """Make the restartable row of `rows` pending again with a fresh count of attempts
        (and `changes`); False if none is restartable (it finished, or was started again)."""
        restarted = rows.filter(self.restartable(now)).update(
            state=self.pending, attempts=0, **changes
        )
        return restarted > 0
