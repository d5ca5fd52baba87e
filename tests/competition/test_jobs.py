"""The states of a background job's row (competition.tasks.JobStates), as the re-rate
(RatingRefresh, a generation per request) and the prepared files (PreparedFile, a run per
claim) both use them: claim, failure and retry, restart."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from competition.files import services as files
from competition.models import STALE_AFTER, PreparedFile, RatingRefresh
from competition.rating import background
from competition.tasks import MAX_ATTEMPTS, JobStates
from tests.conftest import make_club

pytestmark = pytest.mark.django_db

LONG_AGO = datetime.timedelta(minutes=1) + STALE_AFTER


def refresh(club, **fields) -> RatingRefresh:
    return RatingRefresh.objects.create(club=club, since=datetime.date(2025, 3, 3), **fields)


def prepared_file(club, **fields) -> PreparedFile:
    return PreparedFile.objects.create(
        club=club,
        kind="echo",
        params_key=files.params_key({}),
        expires_at=timezone.now() + files.LIFETIME,
        **fields,
    )


KINDS = {"re-rate": (background.JOB, refresh), "file": (files.JOB, prepared_file)}


@pytest.fixture(params=list(KINDS))
def kind(request) -> tuple[JobStates, object]:
    return KINDS[request.param]


def rows_of(row):
    return type(row).objects.filter(pk=row.pk)


def test_a_claim_takes_the_pending_row_marks_it_running_and_counts_the_attempt(kind):
    job, make = kind
    row = make(make_club())

    claimed, token = job.claim(rows_of(row))

    row.refresh_from_db()
    assert (row.state, row.attempts) == (job.running, 1)
    assert timezone.now() - row.started_at < datetime.timedelta(minutes=1)
    assert token == getattr(row, job.token) == getattr(claimed, job.token)
    assert job.claim(rows_of(row)) is None  # taken: a second task finds nothing to do


def test_a_claim_starts_a_new_run_of_a_file_but_keeps_the_generation_of_a_re_rate():
    club = make_club()
    one = refresh(club, generation=4)
    other = prepared_file(club, runs=4)

    assert background.JOB.claim(rows_of(one))[1] == 4
    assert files.JOB.claim(rows_of(other))[1] == 5


@pytest.mark.parametrize("state", ["running", "failed"])
def test_a_row_that_is_not_pending_is_not_claimed(kind, state):
    job, make = kind
    row = make(make_club(), state=state, attempts=1)

    assert job.claim(rows_of(row)) is None
    row.refresh_from_db()
    assert (row.state, row.attempts) == (state, 1)


def test_a_failure_is_retried_until_the_attempts_are_spent_then_left_failed(kind):
    job, make = kind
    row = make(make_club())
    retried = []
    for _ in range(MAX_ATTEMPTS):
        _row, token = job.claim(rows_of(row))
        retried.append(job.failure(rows_of(row), token, RuntimeError("disk full")))

    row.refresh_from_db()
    assert retried == [True] * (MAX_ATTEMPTS - 1) + [False]
    assert (row.state, row.attempts, row.last_error) == (
        job.failed,
        MAX_ATTEMPTS,
        "RuntimeError: disk full",
    )


def test_the_fields_for_a_failed_row_are_set_only_when_it_is_left_failed():
    row = prepared_file(make_club(), attempts=MAX_ATTEMPTS - 1)
    moment = timezone.now() - datetime.timedelta(hours=1)

    _row, token = files.JOB.claim(rows_of(row))
    assert not files.JOB.failure(rows_of(row), token, ValueError("x"), finished_at=moment)

    row.refresh_from_db()
    assert (row.state, row.finished_at) == ("failed", moment)


def test_the_failure_of_a_run_that_was_overtaken_changes_nothing(kind):
    job, make = kind
    row = make(make_club())
    _row, token = job.claim(rows_of(row))
    rows_of(row).update(**{job.token: token + 1})  # a newer request, or a restart and a claim

    assert not job.failure(rows_of(row), token, RuntimeError("late"))

    row.refresh_from_db()
    assert (row.state, row.attempts, row.last_error) == (job.running, 1, "")


def test_the_failure_of_a_run_whose_row_was_restarted_changes_nothing(kind):
    job, make = kind
    row = make(make_club(), state="running", attempts=1, started_at=timezone.now() - LONG_AGO)
    token = getattr(row, job.token)
    assert job.restart(rows_of(row), timezone.now())

    assert not job.failure(rows_of(row), token, RuntimeError("late"))

    row.refresh_from_db()
    assert (row.state, row.attempts, row.last_error) == (job.pending, 0, "")


@pytest.mark.parametrize(
    ("state", "started", "restartable"),
    [
        ("failed", None, True),
        ("running", LONG_AGO, True),
        ("running", datetime.timedelta(minutes=1), False),
        ("running", None, False),
        ("pending", LONG_AGO, False),
    ],
)
def test_a_row_is_restartable_when_failed_or_running_for_longer_than_stale_after(
    kind, state, started, restartable
):
    job, make = kind
    now = timezone.now()
    row = make(make_club(), state=state, started_at=now - started if started else None)

    assert rows_of(row).filter(job.restartable(now)).exists() == restartable
    assert row.can_restart == restartable  # the model's own reading says the same
    assert job.restart(rows_of(row), now) == restartable
    row.refresh_from_db()
    assert row.state == (job.pending if restartable else state)


def test_a_restart_gives_a_fresh_count_of_attempts_and_the_callers_changes():
    row = refresh(make_club(), state="failed", attempts=MAX_ATTEMPTS, generation=2)

    assert background.JOB.restart(rows_of(row), timezone.now(), generation=7)

    row.refresh_from_db()
    assert (row.state, row.attempts, row.generation) == ("pending", 0, 7)
