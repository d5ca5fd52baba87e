"""Notices to players where they already are: by mail and, when the site has a bot, in
Telegram ("your table in round 2", "a deal awaits your confirmation").

The layers above say what to tell whom; this module decides how, and sends it later:

- `queue(kind=, topic=, users=, render=)` writes one Notice row per account and channel it
  allows (AccountSettings.<kind>_by_mail / _by_telegram) and has (an e-mail address, a linked
  chat), its text rendered in the account's language; an account with neither gets one row
  on the channel "none", so that `summary(topic)` can say "notified 280 of 300; 20 have no
  address or channel". The rows go in with one bulk statement (a 300-player round in well
  under a second), and the send task is queued after the commit: publishing never waits
  for a mail server, and a broken one, or a broken Bot API, only marks rows failed.
- `send_notices_task` (queue "notices", `manage.py pulka_worker --queue-name notices`)
  claims the due rows in batches (SELECT ... FOR UPDATE SKIP LOCKED, then `sending`), sends
  a batch over one SMTP connection and one HTTP client, and marks each row as it goes: sent,
  pending again after a backoff (BACKOFF, ATTEMPTS in all), or failed with the error. Two
  workers never claim the same row; a row claimed by a worker that died is pending again
  after STALE_AFTER (only the one it was sending at that moment may then go twice).

With the immediate backend (`make run`, the tests) the task runs once the publishing
transaction commits, in the same request, and a retry waits for the next task: that backend
cannot defer one. With the database backend a retry is a task queued with `run_after`.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Count, F, Min, Q
from django.utils import timezone, translation
from django_tasks import task, task_backends

from club import telegram
from club.models import AccountSettings, Notice, NoticeChannel, NoticeKind, NoticeState

log = logging.getLogger(__name__)

SEATING = NoticeKind.SEATING
CONFIRM = NoticeKind.CONFIRM
QUEUE = "notices"  # a queue of its own (settings.TASKS): a long re-rate never delays a round
BATCH = 100  # rows claimed and sent over one connection at a time
ATTEMPTS = 4  # a notice is tried this often before it is left failed
# The wait before the attempt after the 1st, 2nd, 3rd failure.
BACKOFF = (
    datetime.timedelta(seconds=15),
    datetime.timedelta(minutes=1),
    datetime.timedelta(minutes=5),
)
# A row `sending` for this long was claimed by a worker that died: pending again.
STALE_AFTER = datetime.timedelta(minutes=10)

Render = Callable[[AbstractBaseUser], tuple[str, str]]


@dataclass(frozen=True)
class QueueResult:
    """What `queue` did: the notices it queued (one per account and channel), the accounts
    that get at least one, and those with no address or channel they allow."""

    queued: int
    reached: int
    unreachable: int


class Summary(NamedTuple):
    """A topic's notices by account: notified (at least one sent), of total; unreachable:
    no address or channel (or none allowed for this kind of notice)."""

    notified: int
    total: int
    unreachable: int


# --- queueing ---------------------------------------------------------------------------------


def allowed_channels(
    user: AbstractBaseUser, chosen: AccountSettings | None, kind: str
) -> list[str]:
    """The channels `user` gets notices of `kind` by: allowed by his settings (the field
    defaults when he chose nothing) and available (an address; a chat, on a site with a bot)."""
    chosen = chosen or AccountSettings()
    channels = []
    if getattr(chosen, f"{kind}_by_mail") and user.email:
        channels.append(NoticeChannel.MAIL)
    if (
        telegram.enabled()
        and getattr(chosen, f"{kind}_by_telegram")
        and chosen.telegram_chat_id is not None
    ):
        channels.append(NoticeChannel.TELEGRAM)
    return channels


def queue(
    *, kind: str, topic: str, users: Iterable[AbstractBaseUser], render: Render
) -> QueueResult:
    """Queue a notice of `kind` about `topic` for each of `users`, by the channels each allows
    and has. `render(user)` gives (subject, text), called in the user's language (his
    account's, else settings.LANGUAGE_CODE). Queued again for the same topic, a notice takes
    the new text and is sent again (a correction). Sending starts after the commit."""
    if kind not in NoticeKind.values:
        raise ValueError(f"unknown notice kind {kind!r}")
    people = {user.pk: user for user in users}
    chosen = AccountSettings.objects.in_bulk(people, field_name="user_id")
    now = timezone.now()
    rows = []
    reached = 0
    for user_id, user in people.items():
        mine = chosen.get(user_id)
        channels = allowed_channels(user, mine, kind)
        common = {"user_id": user_id, "kind": kind, "topic": topic, "queued_at": now}
        if not channels:
            rows.append(Notice(channel=NoticeChannel.NONE, state=NoticeState.UNREACHABLE, **common))
            continue
        reached += 1
        with translation.override((mine.language if mine else "") or settings.LANGUAGE_CODE):
            subject, text = render(user)
        rows.extend(
            Notice(channel=channel, subject=subject[:200], text=text, **common)
            for channel in channels
        )
    Notice.objects.bulk_create(
        rows,
        batch_size=500,
        update_conflicts=True,
        unique_fields=["user", "channel", "kind", "topic"],
        update_fields=[
            "subject",
            "text",
            "state",
            "attempts",
            "last_error",
            "queued_at",
            "next_attempt_at",
            "claimed_at",
            "sent_at",
        ],
    )
    queued = sum(1 for row in rows if row.channel != NoticeChannel.NONE)
    if queued:
        transaction.on_commit(_enqueue, robust=True)
    return QueueResult(queued=queued, reached=reached, unreachable=len(people) - reached)


def _enqueue(run_after: datetime.datetime | None = None) -> None:
    """Queue the send task (deferred, where the backend can); a queue that is down is
    logged, never raised: the rows wait for the next task."""
    try:
        work = send_notices_task
        if run_after is not None:
            if not task_backends[work.backend].supports_defer:
                return
            work = work.using(run_after=run_after)
        work.enqueue()
    except Exception:
        log.exception("The notices' send task could not be queued")


def summary(topic: str, kind: str | None = None) -> Summary:
    """How the topic's notices went, counted by account, in one query."""
    rows = Notice.objects.filter(topic=topic)
    if kind is not None:
        rows = rows.filter(kind=kind)
    counts = rows.aggregate(
        total=Count("user", distinct=True),
        notified=Count("user", distinct=True, filter=Q(state=NoticeState.SENT)),
        reachable=Count("user", distinct=True, filter=~Q(channel=NoticeChannel.NONE)),
    )
    return Summary(counts["notified"], counts["total"], counts["total"] - counts["reachable"])


PREFERENCES = ("seating_by_mail", "seating_by_telegram", "confirm_by_mail", "confirm_by_telegram")


def preferences(user: AbstractBaseUser) -> dict[str, bool]:
    """The account's choices (the field defaults when it chose nothing)."""
    chosen = AccountSettings.objects.filter(user=user).first() or AccountSettings()
    return {name: getattr(chosen, name) for name in PREFERENCES}


@transaction.atomic
def preferences_save(*, user: AbstractBaseUser, choices: dict[str, bool]) -> None:
    """Store which notices the account gets by which channel; the choices not named stay."""
    unknown = set(choices) - set(PREFERENCES)
    if unknown:
        raise ValueError(f"unknown notice preferences {sorted(unknown)}")
    AccountSettings.objects.update_or_create(user=user, defaults=dict(choices))


# --- sending ----------------------------------------------------------------------------------


class SendError(Exception):
    """A notice not sent; `permanent`: trying again cannot help (no address, a blocked bot)."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


@task(queue_name=QUEUE)
def send_notices_task() -> int:
    """Send every notice that is due; returns how many were sent."""
    return send_due()


def send_due() -> int:
    """Send the due notices batch by batch until none is left, then queue the task again
    for the earliest retry (where the backend can defer). Returns how many were sent."""
    _release_stale()
    sent = 0
    while batch := _claim(BATCH):
        sent += _send_batch(batch)
    retry = Notice.objects.filter(state=NoticeState.PENDING).aggregate(at=Min("next_attempt_at"))
    # Rows another task holds: if its worker died, they are released once stale, by a task
    # that must then exist (a live one just finds them sent).
    held = Notice.objects.filter(state=NoticeState.SENDING).aggregate(at=Min("claimed_at"))
    due = [retry["at"], held["at"] and held["at"] + STALE_AFTER]
    due = [at for at in due if at is not None]
    if due:
        _enqueue(run_after=min(due))
    return sent


def _release_stale() -> None:
    now = timezone.now()
    stale = Notice.objects.filter(state=NoticeState.SENDING, claimed_at__lt=now - STALE_AFTER)
    error = "WorkerLost: the worker stopped while sending"
    stale.filter(attempts__gte=ATTEMPTS).update(state=NoticeState.FAILED, last_error=error)
    stale.update(state=NoticeState.PENDING, last_error=error, next_attempt_at=None)


def _claim(limit: int) -> list[Notice]:
    """Take up to `limit` due notices for this task: marked sending, the attempt counted."""
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            Notice.objects.select_for_update(skip_locked=True)
            .filter(state=NoticeState.PENDING)
            .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
            .order_by("pk")
            .values_list("pk", flat=True)[:limit]
        )
        if not ids:
            return []
        Notice.objects.filter(pk__in=ids).update(
            state=NoticeState.SENDING, claimed_at=now, attempts=F("attempts") + 1
        )
    return list(Notice.objects.filter(pk__in=ids).select_related("user").order_by("pk"))


def _send_batch(batch: list[Notice]) -> int:
    mails = [row for row in batch if row.channel == NoticeChannel.MAIL]
    chats = [row for row in batch if row.channel == NoticeChannel.TELEGRAM]
    sent = 0
    if mails:
        sent += _send_mails(mails)
    if chats:
        sent += _send_chats(chats)
    return sent


def _send_mails(rows: list[Notice]) -> int:
    sent = 0
    connection = get_connection()
    try:
        connection.open()
    except (OSError, smtplib.SMTPException) as exc:
        for row in rows:
            _failed(row, SendError(f"{type(exc).__name__}: {exc}"))
        return 0
    try:
        for row in rows:
            try:
                if not row.user.email:
                    raise SendError("the account has no e-mail address now", permanent=True)
                message = EmailMessage(
                    row.subject, row.text, None, [row.user.email], connection=connection
                )
                message.send()
            except smtplib.SMTPRecipientsRefused as exc:
                _failed(row, SendError(f"refused: {exc}", permanent=True))
            except (OSError, smtplib.SMTPException) as exc:
                _failed(row, SendError(f"{type(exc).__name__}: {exc}"))
            except SendError as exc:
                _failed(row, exc)
            else:
                sent += _sent(row)
    finally:
        try:
            connection.close()
        except (OSError, smtplib.SMTPException):
            log.warning("The mail connection did not close cleanly", exc_info=True)
    return sent


def _send_chats(rows: list[Notice]) -> int:
    chats = dict(
        AccountSettings.objects.filter(user_id__in={row.user_id for row in rows}).values_list(
            "user_id", "telegram_chat_id"
        )
    )
    sent = 0
    with telegram.client() as client:
        for row in rows:
            chat = chats.get(row.user_id)
            try:
                if not telegram.enabled() or chat is None:
                    raise SendError("no Telegram chat is linked now", permanent=True)
                telegram.send_message(client, chat, row.text)
            except telegram.TelegramError as exc:
                _failed(row, SendError(str(exc), permanent=exc.permanent))
            except SendError as exc:
                _failed(row, exc)
            else:
                sent += _sent(row)
    return sent


def _mine(row: Notice):
    """The row as this task claimed it: still sending, and not queued again meanwhile with a
    newer text (that one is pending and goes by a task of its own)."""
    return Notice.objects.filter(pk=row.pk, state=NoticeState.SENDING, queued_at=row.queued_at)


def _sent(row: Notice) -> int:
    return _mine(row).update(state=NoticeState.SENT, sent_at=timezone.now(), last_error="")


def _failed(row: Notice, exc: SendError) -> None:
    error = str(exc)[:2000]
    log.warning("Notice %s (%s) not sent, attempt %s: %s", row.pk, row.channel, row.attempts, error)
    if exc.permanent or row.attempts >= ATTEMPTS:
        _mine(row).update(state=NoticeState.FAILED, last_error=error)
        return
    wait = BACKOFF[min(row.attempts, len(BACKOFF)) - 1]
    _mine(row).update(
        state=NoticeState.PENDING, last_error=error, next_attempt_at=timezone.now() + wait
    )
