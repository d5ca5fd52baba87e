"""Files too big to build while a page waits: a task prepares them, the members download later.

A view that offers a file (a club's backup, a tournament's printouts) measures what the file
will cost, a count of what it draws, and calls `respond_or_prepare`:

- at or under the kind's threshold the file is built in the request and answered at once
  (to whoever the view lets in, a visitor of a public club too);
- over it, the request records a PreparedFile row and queues `build_file_task` on the
  "files" queue (QUEUE; competition.tasks.enqueue: after the commit for ``manage.py
  db_worker --queue-name files``, at once with the immediate backend), and sends the member
  to the file's page, which says "the file is being prepared", asks again every few seconds
  (htmx) and then offers the download.

Who may have a file prepared: only a member who may download it, that is of at least the
role `readers` the view names (any member for the standings, a secretary for the table
protocols, the owner for the backup). A visitor who is no member (the files' pages are for
members only) is refused with a message saying to log in or to ask a member; nothing is
made then. So is a member past the hourly limits (settings.FILE_BUILDS_PER_MEMBER_HOUR, and
FILE_BUILDS_PER_CLUB_HOUR for the whole club): each new build counts, a shared one does not.

One build per version of the data. A kind registered with a `version` function (the
tournament's printouts: the standings' cache version, the round's state and seating) has
its rows keyed by the version of what it prints: every request for the same file and
version, by whichever member may read it, gets the one row, on its way or ready; the data
changed, the version changes and the next request builds anew. A kind without one (the
club's backup, which reads everything of the club) shares a file only while it is on its
way: a request for a file that is ready builds it afresh. The ready one stays downloadable
from its page until it expires (LIFETIME, 24 hours). Expired rows are pruned whenever a new
one is made. A failing build is logged and retried up to tasks.MAX_ATTEMPTS times, then left
`failed` on the owner's background page with a "try again" button (`file_restart`); so is a
build whose worker died (running for longer than models.STALE_AFTER). A file may be seen and
downloaded by the member who asked for it and by every member of the club of at least its
`readers` role; others of the club get 403, everyone else 404.

Adding a kind of file
---------------------
1. Write a builder ``(club, **params) -> BuiltFile``: it reads what it needs through the
   selectors and returns the file's name, content type and bytes. ``params`` are JSON values
   (ids, dates as text), never model instances: they are stored in the row and handed to the
   worker. The same params must give the same file on both paths.
2. If a counter of its data tells when the file would change, write a version function
   ``(club, **params) -> str`` from it (cheap: it runs on every request for a big file).
3. Register both under a kind, with the label its page shows, in a module that Django
   imports at start-up (CompetitionConfig.ready imports competition.backup.services for the
   club backup), so that the worker finds it::

       @files.register(
           "tournament-printouts",
           label=gettext_lazy("The table protocols (PDF)"),
           version=round_version,
       )
       def printouts(club: Club, *, tournament_id: int, round: int) -> files.BuiltFile:
           ...
           return files.BuiltFile(f"round-{round}.pdf", "application/pdf", pdf)

4. Time the builder in bench/ and take as the threshold the size at which it needs about a
   second (bench/files.py does it for the club backup, bench/printouts.py for the printouts).
   The size counts everything the file draws, so that no input makes a small-looking file
   slow.
5. Offer it through a POST view behind the right gate, which answers with
   ``files.respond_or_prepare(request, access, kind=..., params=..., size=..., threshold=...,
   readers=..., back=...)``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import math
from collections.abc import Callable
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_tasks import task

from club.access import ClubAccess
from club.errors import ServiceError
from club.models import ROLE_RANK, Club, Role
from club.rendering import after_action, redirect_after_form
from competition.models import STALE_AFTER, FileState, PreparedFile
from competition.tasks import MAX_ATTEMPTS, JobStates, advisory_lock, enqueue

logger = logging.getLogger(__name__)

LIFETIME = datetime.timedelta(hours=24)
QUEUE = "files"  # a queue of its own (settings.TASKS): a long build never delays a re-rate
LIMIT_WINDOW = datetime.timedelta(hours=1)  # the builds counted by the hourly limits
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
Version = Callable[..., str]
BUILDERS: dict[str, Builder] = {}
LABELS: dict[str, str] = {}  # kind -> what the pages call the file (lazily translated)
VERSIONS: dict[str, Version] = {}  # kind -> the version of the data its file is built from


def register(
    kind: str, *, label: str, version: Version | None = None
) -> Callable[[Builder], Builder]:
    """Register the decorated function as the builder of files of this kind, and `version`
    (same arguments) as the version of the data they are built from, if there is one."""

    def decorate(builder: Builder) -> Builder:
        if kind in BUILDERS and BUILDERS[kind] is not builder:
            raise ValueError(f"a builder of {kind!r} files is registered already")
        BUILDERS[kind] = builder
        LABELS[kind] = label
        if version is not None:
            VERSIONS[kind] = version
        return builder

    return decorate


def data_version(kind: str, club: Club, params: dict[str, Any]) -> str:
    """The version of the data a file of `kind` would be built from now ("": none kept)."""
    version = VERSIONS.get(kind)
    return version(club, **params) if version is not None else ""


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


def may_prepare(access: ClubAccess, readers: str) -> bool:
    """Whether this visitor may have a file for `readers` prepared: a member of at least that
    role, who may download it then (a visitor who is no member never may)."""
    return access.role is not None and ROLE_RANK[access.role] >= ROLE_RANK[readers]


def respond_or_prepare(
    request: HttpRequest,
    access: ClubAccess,
    *,
    kind: str,
    params: dict[str, Any],
    size: int,
    threshold: int,
    readers: str = Role.OWNER,
    back: str,
    refused: Callable[[str], HttpResponse] | None = None,
) -> HttpResponse:
    """The file at once when `size` <= `threshold`; else its preparation, and its page.

    A request that may not have the file prepared (see `file_request`) is answered as a
    refused action: the message flashed and the browser sent `back`, or for htmx
    `refused(message)`, the part of the page that offered the file, saying why.
    """
    if kind not in BUILDERS:
        raise LookupError(f"no builder of {kind!r} files is registered")
    if size <= threshold:
        return file_response(build(kind, access.club, params))
    try:
        prepared = file_request(
            club=access.club,
            kind=kind,
            params=params,
            user=request.user,
            role=access.role,
            readers=readers,
        )
    except ServiceError as exc:
        return after_action(request, exc.message, level=messages.ERROR, url=back, fragment=refused)
    return redirect_after_form(request, prepared.get_absolute_url())


# --- services -----------------------------------------------------------------------------


def prune(now: datetime.datetime | None = None) -> int:
    """Delete every expired file (of every club); returns how many."""
    deleted, _by_model = PreparedFile.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def _refusal(user: AbstractBaseUser | AnonymousUser, role: str | None) -> str:
    if not user.is_authenticated:
        return _(
            "This file is big: it is prepared in the background for the club's members only. "
            "Log in if you are one, or ask a member for it."
        )
    if role is None:
        return _(
            "This file is big: it is prepared in the background for the club's members only. "
            "Ask a member for it."
        )
    return _("This file is prepared only for members who may download it.")


def _wait(rows: QuerySet[PreparedFile], limit: int, now: datetime.datetime) -> int | None:
    """The minutes until one more build fits in `limit` builds an hour, counting `rows`
    (the builds asked for lately); None: it fits now."""
    asked = list(
        rows.filter(requested_at__gt=now - LIMIT_WINDOW)
        .order_by("-requested_at")
        .values_list("requested_at", flat=True)[: limit + 1]
    )
    if len(asked) < limit:
        return None
    # The build that must leave the window before one more fits: the limit-th newest.
    frees_at = asked[limit - 1] + LIMIT_WINDOW if limit > 0 else now + LIMIT_WINDOW
    return max(1, math.ceil((frees_at - now).total_seconds() / 60))


def _check_limits(club: Club, user: AbstractBaseUser, now: datetime.datetime) -> None:
    """Refuse a new build past the hourly limits of a member and of a club."""
    rows = PreparedFile.objects.all()
    member_limit = settings.FILE_BUILDS_PER_MEMBER_HOUR
    club_limit = settings.FILE_BUILDS_PER_CLUB_HOUR
    minutes = _wait(rows.filter(requested_by=user.pk), member_limit, now)
    if minutes is not None:
        said = ngettext(
            "You have had %(count)s file prepared in the last hour, as many as a member may.",
            "You have had %(count)s files prepared in the last hour, as many as a member may.",
            member_limit,
        ) % {"count": member_limit}
    else:
        minutes = _wait(rows.filter(club=club), club_limit, now)
        if minutes is None:
            return
        said = ngettext(
            "The club has had %(count)s file prepared in the last hour, as many as it may.",
            "The club has had %(count)s files prepared in the last hour, as many as it may.",
            club_limit,
        ) % {"count": club_limit}
    again = ngettext(
        "Try again in %(minutes)s minute; a file prepared already stays downloadable.",
        "Try again in %(minutes)s minutes; a file prepared already stays downloadable.",
        minutes,
    ) % {"minutes": minutes}
    raise ServiceError(f"{said} {again}")


@transaction.atomic
def file_request(
    *,
    club: Club,
    kind: str,
    params: dict[str, Any],
    user: AbstractBaseUser | AnonymousUser,
    role: str | None,
    readers: str = Role.OWNER,
) -> PreparedFile:
    """The row of the file prepared for this request: one on its way or (for a kind with a
    version) ready for the same data, else a new one, whose build is queued.

    `role` is the asker's in the club (None: no member); `readers` the least role that may
    download the file. Refused (ServiceError, nothing made) to anyone below `readers`, and
    past the hourly limits for a new build. A new row supersedes the same file's failed or
    stuck ones.
    """
    if kind not in BUILDERS:
        raise LookupError(f"no builder of {kind!r} files is registered")
    if not user.is_authenticated or role is None or ROLE_RANK[role] < ROLE_RANK[readers]:
        raise ServiceError(_refusal(user, role))
    advisory_lock(FILE_LOCK, club.pk)
    now = timezone.now()
    key = params_key(params)
    version = data_version(kind, club, params)
    same = PreparedFile.objects.filter(
        club=club,
        kind=kind,
        params_key=key,
        version=version,
        readers=readers,
        expires_at__gt=now,
    )
    usable = Q(state=FileState.PENDING) | Q(
        state=FileState.RUNNING, started_at__gte=now - STALE_AFTER
    )
    if version:
        usable |= Q(state=FileState.READY)  # built from the same data: the same file
    found = same.filter(usable).defer("content").order_by("-requested_at").first()
    if found is not None:
        return found
    _check_limits(club, user, now)
    prune(now)
    same.filter(JOB.restartable(now)).delete()
    prepared = PreparedFile.objects.create(
        club=club,
        kind=kind,
        params=params,
        params_key=key,
        version=version,
        readers=readers,
        requested_by=user,
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


@task(queue_name=QUEUE)
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
    or any member of at least its `readers` role (an owner: every file). 404 for anyone
    outside the club and for a file that has expired; 403 for the club's other members."""
    rows = PreparedFile.objects.filter(
        club=access.club, pk=file_id, expires_at__gt=timezone.now()
    ).select_related("club", "requested_by")
    prepared = (rows if content else rows.defer("content")).first()
    if prepared is None or access.role is None:
        raise Http404
    if prepared.requested_by_id != user.pk and not may_prepare(access, prepared.readers):
        raise PermissionDenied
    return prepared


def label(prepared: PreparedFile) -> str:
    return str(LABELS.get(prepared.kind, prepared.kind))
