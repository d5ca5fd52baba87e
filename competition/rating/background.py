"""Background re-rating: a correction records what to redo; a task (django-tasks) redoes it.

A change of a club's results (scoring.signals.results_changed, sent inside the changing
service's transaction) costs the request one UPDATE here: `refresh_request` merges "re-rate
club C from date D" into the club's RatingRefresh row (the earlier date wins). The replay
itself, whose cost grows with the club's history, runs in `rerate_task`:

- with the immediate backend (``make run``, the tests) at once, inside the request's
  transaction, so the ratings are current when the page answers, as before;
- with a queueing backend (``TASKS_BACKEND=database``) in ``manage.py db_worker``, enqueued
  after commit so that the worker never looks for a row it cannot see yet.

Never twice at once for a club: ``ratings_update`` first takes a per-club lock (an advisory
lock on PostgreSQL; SQLite has one writer at a time anyway), so a second task for the same
club waits for the first and then replays whatever is still owed. It is not the club's row
lock, which every correction takes (Club.results_version): a correction never waits for a
replay.
Readers never see half a history: ``ratings_update`` deletes and rewrites the snapshots in one
transaction, so until it commits the pages show the last computed ratings (and say so).

A failing replay is logged and retried up to MAX_ATTEMPTS times; after that the row stays
`failed` and the owner sees it on the background page, from where `refresh_restart` starts it
again. A worker killed mid-replay leaves its row `running` for good: once it has run for
longer than models.STALE_AFTER the page offers the same restart (a replay still alive after
all then finds the request newer than the one it claimed, and the next task replays again).
"""

from __future__ import annotations

import datetime
import logging

from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Least
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from club.errors import ServiceError
from club.models import Club
from competition.models import RatingRefresh, RefreshState
from competition.rating import ratings
from competition.tasks import MAX_ATTEMPTS, JobStates, enqueue

logger = logging.getLogger(__name__)

#: A request's generation is its run's token: a newer request (or a restart) wins.
JOB = JobStates(
    pending=RefreshState.PENDING,
    running=RefreshState.RUNNING,
    failed=RefreshState.FAILED,
    token="generation",
)


def _enqueue(club_id: int) -> None:
    enqueue(rerate_task, club_id=club_id)


@transaction.atomic
def refresh_request(*, club: Club, since: datetime.date) -> None:
    """Record that the club's ratings are owed a replay from `since`, and queue it.

    Overlapping requests merge into one row with the earliest date; a failed row becomes
    pending again with its attempts reset (a new correction is a new chance).
    """
    now = timezone.now()
    changes = {
        "since": Least(F("since"), Value(since)),
        "requested_at": now,
        "generation": F("generation") + 1,
        "state": RefreshState.PENDING,
        "attempts": 0,
    }
    if not RatingRefresh.objects.filter(club=club).update(**changes):
        try:
            with transaction.atomic():
                RatingRefresh.objects.create(club=club, since=since, requested_at=now)
        except IntegrityError:
            # Another request created the row between our UPDATE and INSERT: merge into it.
            RatingRefresh.objects.filter(club=club).update(**changes)
    _enqueue(club.pk)


def _claim(club_id: int) -> tuple[RatingRefresh, int] | None:
    """Take the club's pending request (row-locked, marked running) with its generation; None
    if nothing is pending (owed, but failed; or another task has it already)."""
    return JOB.claim(RatingRefresh.objects.filter(club_id=club_id))


@task()
def rerate_task(*, club_id: int) -> int:
    """Replay the club's ratings from the pending date on; returns the snapshots written.

    A task that finds nothing owed (another task already did the work) returns 0.
    """
    claimed = _claim(club_id)
    if claimed is None:
        return 0
    row, generation = claimed
    try:
        written = ratings.ratings_update(club=row.club, since=row.since)
    except Exception as exc:
        logger.exception(
            "Re-rating club %s from %s failed (attempt %s of %s)",
            club_id,
            row.since,
            row.attempts,
            MAX_ATTEMPTS,
        )
        _failed(row, generation, exc)
        return 0
    # Done, unless a request came in meanwhile: then its own task replays again.
    RatingRefresh.objects.filter(pk=row.pk, generation=generation).delete()
    return written


def _failed(row: RatingRefresh, generation: int, exc: Exception) -> None:
    # A run overtaken by a newer request (or a restart) leaves the row alone: the newer
    # one's task is queued already.
    if JOB.failure(RatingRefresh.objects.filter(pk=row.pk), generation, exc):
        _enqueue(row.club_id)


@transaction.atomic
def refresh_restart(*, club: Club) -> None:
    """Start a failed re-rate again, or one whose worker died, with a fresh count of attempts."""
    rows = RatingRefresh.objects.filter(club=club)
    if not JOB.restart(rows, timezone.now(), generation=F("generation") + 1):
        # It finished, or someone else started it again in the meantime.
        raise ServiceError(_("There is no failed or stuck update of the ratings to start again."))
    _enqueue(club.pk)


def pending_refresh(club: Club) -> RatingRefresh | None:
    """The club's owed re-rate (pending, running or failed), if any: one query."""
    return RatingRefresh.objects.filter(club=club).first()
