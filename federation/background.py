"""Background rebuilds of a federation's rating list, as the clubs' re-rates
(competition.rating.background), on the same queue and with the same job states.

A change that moves the list (a club's results, a link, a membership: federation.receivers)
costs the request one UPDATE: `refresh_request` bumps the generation of the federation's one
FederationRefresh row and queues `rebuild_task`. The row stays after the build: it carries
what the published list is (`calculated_on`, `built_at`); a build is owed while
`built_generation` is behind `generation`. With the immediate backend (the tests, ``make
run``) the task runs at once, inside the request; with a queueing backend a worker runs it
after the commit. Two builds of one federation take turns (federation.rating.rebuild's lock);
a request that arrives during a build leaves the row pending, and its own task builds again.

A failing build is logged and retried up to MAX_ATTEMPTS times, then left `failed`: the rating
page shows it, and an officer starts it again (`refresh_restart`), as he does one whose worker
died (running for longer than competition.models.STALE_AFTER).
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from club.errors import ServiceError
from competition.models import RefreshState
from competition.tasks import MAX_ATTEMPTS, JobStates, enqueue
from federation import rating
from federation.models import Federation, FederationRefresh

logger = logging.getLogger(__name__)

#: A request's generation is its run's token: a newer request (or a restart) wins.
JOB = JobStates(
    pending=RefreshState.PENDING,
    running=RefreshState.RUNNING,
    failed=RefreshState.FAILED,
    token="generation",
)


def _enqueue(federation_id: int) -> None:
    enqueue(rebuild_task, federation_id=federation_id)


@transaction.atomic
def refresh_request(*, federation: Federation) -> None:
    """Record that the federation's rating list is owed a rebuild, and queue it.

    Requests merge into the one row (each bumps its generation); a failed row becomes pending
    again with its attempts reset (a new change is a new chance).
    """
    now = timezone.now()
    changes = {
        "requested_at": now,
        "generation": F("generation") + 1,
        "state": RefreshState.PENDING,
        "attempts": 0,
    }
    rows = FederationRefresh.objects.filter(federation=federation)
    if not rows.update(**changes):
        try:
            with transaction.atomic():
                FederationRefresh.objects.create(federation=federation, requested_at=now)
        except IntegrityError:
            # Another request created the row between our UPDATE and INSERT: merge into it.
            rows.update(**changes)
    _enqueue(federation.pk)


def _claim(federation_id: int) -> tuple[FederationRefresh, int] | None:
    """Take the federation's owed build (row-locked, marked running) with its generation;
    None if nothing is owed, it failed, or another task has it."""
    owed = FederationRefresh.objects.filter(
        federation_id=federation_id, built_generation__lt=F("generation")
    )
    return JOB.claim(owed.select_related("federation"))


@task()
def rebuild_task(*, federation_id: int) -> int:
    """Rebuild the federation's rating list if a build is owed; returns the persons listed
    (0 when another task already did the work)."""
    claimed = _claim(federation_id)
    if claimed is None:
        return 0
    row, generation = claimed
    try:
        figures = rating.rebuild(row.federation)
    except Exception as exc:
        logger.exception(
            "Rebuilding the rating list of federation %s failed (attempt %s of %s)",
            federation_id,
            row.attempts,
            MAX_ATTEMPTS,
        )
        _failed(row, generation, exc)
        return 0
    _built(row, generation)
    return figures.listed


def _built(row: FederationRefresh, generation: int) -> None:
    """The build of `generation` is published. The row is idle again, unless a request came
    in meanwhile: then it stays pending (still owed) for that request's own task."""
    rows = FederationRefresh.objects.filter(pk=row.pk)
    rows.filter(built_generation__lt=generation).update(built_generation=generation)
    rows.filter(generation=generation).update(state=RefreshState.PENDING, attempts=0, last_error="")


def _failed(row: FederationRefresh, generation: int, exc: Exception) -> None:
    # A run overtaken by a newer request (or a restart) leaves the row alone: the newer
    # one's task is queued already.
    if JOB.failure(FederationRefresh.objects.filter(pk=row.pk), generation, exc):
        _enqueue(row.federation_id)


@transaction.atomic
def refresh_restart(*, federation: Federation) -> None:
    """Start a failed rebuild again, or one whose worker died, with a fresh count of
    attempts."""
    rows = FederationRefresh.objects.filter(federation=federation)
    if not JOB.restart(rows, timezone.now(), generation=F("generation") + 1):
        # It finished, or someone else started it again in the meantime.
        raise ServiceError(
            _("There is no failed or stuck update of the rating list to start again.")
        )
    _enqueue(federation.pk)


def is_owed(refresh: FederationRefresh | None) -> bool:
    """Whether the published list is behind: a build waits, runs or failed."""
    return refresh is not None and (
        refresh.built_generation < refresh.generation or refresh.state != RefreshState.PENDING
    )


#: The bounds of Federation.rating_min_pulkas (its validator's).
MIN_PULKAS_MAX = 10_000


@transaction.atomic
def rating_min_pulkas_set(*, federation: Federation, value: int) -> None:
    """The owner's setting: persons with at least `value` rated pulkas are listed. The list
    is rebuilt (in the background, or at once with the immediate backend)."""
    if not 0 <= value <= MIN_PULKAS_MAX:
        raise ServiceError(
            _("Enter a number of pulkas from 0 to %(max)s.") % {"max": MIN_PULKAS_MAX},
            field="rating_min_pulkas",
        )
    Federation.objects.filter(pk=federation.pk).update(rating_min_pulkas=value)
    federation.rating_min_pulkas = value
    refresh_request(federation=federation)
