"""Files too big to build while a page waits: a task prepares them, the member downloads later.

A view that offers a file (a club's backup, a tournament's printouts) measures what the file
will cost, usually a count of rows, and calls `respond_or_prepare`:

- at or under the kind's threshold the file is built in the request and answered at once;
- over it, the request records a PreparedFile row and queues `build_file_task`
  (competition.tasks.enqueue: after the commit for ``manage.py db_worker``, at once with
  the immediate backend), and sends the member to the file's page, which says "the file is
  being prepared", asks again every few seconds (htmx) and then offers the download.

A second request for the same file (same club, kind and parameters; by the same member, or by
an owner) while it is still waiting or being built gets that row: nothing is built twice. A
new request for a file that is ready builds it afresh, since the club's data may have changed;
the ready one stays downloadable from its page until it expires (LIFETIME, 24 hours). Expired
rows are pruned whenever a new one is made. A failing build is logged and retried up to
tasks.MAX_ATTEMPTS times, then left `failed` on the owner's background page with a "try
again" button (`file_restart`); so is a build whose worker died (running for longer than
models.STALE_AFTER). Only the member who asked and the club's owner may see and download the
file; others of the club get 403, everyone else 404.

Adding a kind of file
---------------------
1. Write a builder ``(club, **params) -> BuiltFile``: it reads what it needs through the
   selectors and returns the file's name, content type and bytes. ``params`` are JSON values
   (ids, dates as text), never model instances: they are stored in the row and handed to the
   worker. The same params must give the same file on both paths.
2. Register it under a kind, with the label its page shows, in a module that Django imports
   at start-up (CompetitionConfig.ready imports competition.backup.services for the club backup), so
   that the worker finds it::

       @files.register("tournament-printouts", label=gettext_lazy("The table protocols (PDF)"))
       def printouts(club: Club, *, tournament_id: int, round: int) -> files.BuiltFile:
           ...
           return files.BuiltFile(f"round-{round}.pdf", "application/pdf", pdf)

3. Time the builder in bench/ and take as the threshold the size estimate at which it needs
   about a second (bench/files.py does it for the club backup).
4. Offer it through a POST view behind the right gate, which answers with
   ``files.respond_or_prepare(request, access, kind=..., params=..., size=..., threshold=...)``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django_tasks import task

from club.access import ClubAccess
from club.errors import ServiceError
from club.models import Club
from club.rendering import redirect_after_form
from competition.models import STALE_AFTER, FileState, PreparedFile
from competition.tasks import MAX_ATTEMPTS, JobStates, advisory_lock, enqueue

logger = logging.getLogger(__name__)

LIFETIME = datetime.timedelta(hours=24)
FILE_LOCK = 0x46696C65  # "File": serialises one club's requests for files (PostgreSQL)
#: Every claim is a new run: a build taken for dead and restarted cannot store over its successor.
JOB = JobStates(
    pending=FileState.PENDING,
    running=FileState.RUNNING,
    failed=FileState.FAILED,
    token="runs",
    counts_runs=True,
)


class BuiltFile(NamedTuple):
    filename: str
    content_type: str
    content: bytes


Builder = Callable[..., BuiltFile]
BUILDERS: dict[str, Builder] = {}
LABELS: dict[str, str] = {}  # kind -> what the pages call the file (lazily translated)


def register(kind: str, *, label: str) -> Callable[[Builder], Builder]:
    """Register the decorated function as the builder of files of this kind."""

    def decorate(builder: Builder) -> Builder:
        if kind in BUILDERS and BUILDERS[kind] is not builder:
            raise ValueError(f"a builder of {kind!r} files is registered already")
        BUILDERS[kind] = builder
        LABELS[kind] = label
        return builder

    return decorate


def params_key(params: dict[str, Any]) -> str:
    """The parameters' canonical hash: equal dicts give equal keys whatever their order."""
    text = json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def build(kind: str, club: Club, params: dict[str, Any]) -> BuiltFile:
    """The file, built now (LookupError: no builder of that kind)."""
    return BUILDERS[kind](club, **params)


def file_response(built: BuiltFile) -> HttpResponse:
    """The file as a download."""
    response = HttpResponse(built.content, content_type=built.content_type)
    response["Content-Disposition"] = content_disposition_header(True, built.filename)
    response["Cache-Control"] = "private, no-store"
    return response


def respond_or_prepare(
    request: HttpRequest,
    access: ClubAccess,
    *,
    kind: str,
    params: dict[str, Any],
    size: int,
    threshold: int,
) -> HttpResponse:
    """The file at once when `size` <= `threshold`; else its preparation, and its page."""
    if kind not in BUILDERS:
        raise LookupError(f"no builder of {kind!r} files is registered")
    if size <= threshold:
        return file_response(build(kind, access.club, params))
    prepared = file_request(
        club=access.club, kind=kind, params=params, user=request.user, shared=access.can_manage
    )
    return redirect_after_form(request, prepared.get_absolute_url())


# --- services -----------------------------------------------------------------------------


def prune(now: datetime.datetime | None = None) -> int:
    """Delete every expired file (of every club); returns how many."""
    deleted, _by_model = PreparedFile.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


@transaction.atomic
def file_request(
    *,
    club: Club,
    kind: str,
    params: dict[str, Any],
    user: AbstractBaseUser | AnonymousUser,
    shared: bool,
) -> PreparedFile:
    """The row of the file being prepared for this request: one already on its way, or new.

    `shared`: the asker may download what others asked for (the owner), so he gets their
    row too. A new row supersedes the same file's failed or stuck ones.
    """
    if kind not in BUILDERS:
        raise LookupError(f"no builder of {kind!r} files is registered")
    advisory_lock(FILE_LOCK, club.pk)
    now = timezone.now()
    key = params_key(params)
    same = PreparedFile.objects.filter(club=club, kind=kind, params_key=key, expires_at__gt=now)
    on_its_way = same.filter(
        Q(state=FileState.PENDING) | Q(state=FileState.RUNNING, started_at__gte=now - STALE_AFTER)
    )
    if not shared:
        on_its_way = on_its_way.filter(requested_by=user.pk)
    found = on_its_way.defer("content").order_by("-requested_at").first()
    if found is not None:
        return found
    prune(now)
    superseded = same.filter(JOB.restartable(now))
    if not shared:
        superseded = superseded.filter(requested_by=user.pk)
    superseded.delete()
    prepared = PreparedFile.objects.create(
        club=club,
        kind=kind,
        params=params,
        params_key=key,
        requested_by=user if user.is_authenticated else None,
        requested_at=now,
        expires_at=now + LIFETIME,
    )
    enqueue(build_file_task, file_id=prepared.pk)
    return prepared


@transaction.atomic
def file_restart(*, club: Club, file_id: int) -> None:
    """Start a failed build again, or one whose worker died, with a fresh count of attempts."""
    now = timezone.now()
    rows = PreparedFile.objects.filter(club=club, pk=file_id, expires_at__gt=now)
    if not JOB.restart(rows, now, expires_at=now + LIFETIME):
        # It finished, or someone started it again meanwhile, or it expired.
        raise ServiceError(_("This file has not failed: there is nothing to start again."))
    enqueue(build_file_task, file_id=file_id)


# --- the task -----------------------------------------------------------------------------


def _claim(file_id: int) -> tuple[PreparedFile, int] | None:
    """Take the waiting file (row-locked, marked running) with its new run's number; None if
    it is not waiting."""
    rows = PreparedFile.objects.select_related("club").defer("content")
    return JOB.claim(rows.filter(pk=file_id, expires_at__gt=timezone.now()))


@task()
def build_file_task(*, file_id: int) -> int:
    """Build the waiting file and store it; returns its size in bytes (0: nothing done).

    A task that finds the file no longer waiting (built, restarted, expired) does nothing.
    """
    claimed = _claim(file_id)
    if claimed is None:
        return 0
    row, run = claimed
    try:
        # A savepoint: a builder's failed query must not spoil the request's transaction
        # when the immediate backend runs the task inside it.
        with transaction.atomic():
            built = build(row.kind, row.club, row.params)
    except Exception as exc:
        logger.exception(
            "Preparing the %s file %s of club %s failed (attempt %s of %s)",
            row.kind,
            file_id,
            row.club_id,
            row.attempts,
            MAX_ATTEMPTS,
        )
        _failed(row, run, exc)
        return 0
    now = timezone.now()
    # Stored only if no newer build was started meanwhile (a restart of one taken for dead).
    stored = PreparedFile.objects.filter(pk=file_id, state=FileState.RUNNING, runs=run).update(
        state=FileState.READY,
        filename=built.filename,
        content_type=built.content_type,
        content=built.content,
        size=len(built.content),
        finished_at=now,
        expires_at=now + LIFETIME,
        last_error="",
    )
    return len(built.content) if stored else 0


def _failed(row: PreparedFile, run: int, exc: Exception) -> None:
    # Pruned, or restarted meanwhile: that build answers for it, and the row is left alone.
    rows = PreparedFile.objects.defer("content").filter(pk=row.pk)
    if JOB.failure(rows, run, exc, finished_at=timezone.now()):
        enqueue(build_file_task, file_id=row.pk)


# --- selectors ----------------------------------------------------------------------------


def club_files(club: Club) -> list[PreparedFile]:
    """The club's files that have not expired, newest first (without their content)."""
    return list(
        PreparedFile.objects.filter(club=club, expires_at__gt=timezone.now())
        .defer("content")
        .select_related("club", "requested_by")
        .order_by("-requested_at", "-pk")
    )


def file_for_viewer(
    access: ClubAccess, user: AbstractBaseUser | AnonymousUser, file_id: int, *, content=False
) -> PreparedFile:
    """The club's file `file_id` if this visitor may have it: the member who asked for it,
    or an owner. 404 for anyone outside the club and for a file that has expired; 403 for
    the club's other members."""
    rows = PreparedFile.objects.filter(
        club=access.club, pk=file_id, expires_at__gt=timezone.now()
    ).select_related("club", "requested_by")
    prepared = (rows if content else rows.defer("content")).first()
    if prepared is None or access.role is None:
        raise Http404
    if not access.can_manage and prepared.requested_by_id != user.pk:
        raise PermissionDenied
    return prepared


def label(prepared: PreparedFile) -> str:
    return str(LABELS.get(prepared.kind, prepared.kind))
