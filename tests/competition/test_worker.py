"""The supervised worker (competition.worker, `manage.py pulka_worker`): it survives a lost
database connection, writes a heartbeat, queues again what a dead worker was running, and the
owner's pages say when no worker runs."""

from __future__ import annotations

import datetime
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from competition import worker
from competition.models import RatingRefresh, RefreshState, WorkerHeartbeat
from competition.rating import background
from competition.tasks import MAX_ATTEMPTS, set_worker_name
from tests.club.factories import html
from tests.competition.factories import DATABASE, day, make_league, work
from tests.conftest import HTMX, make_club

CALLS: list[str] = []


@task()
def sleepy(*, mark: str, seconds: float) -> str:
    """A task that sits in the database for `seconds` the first time it runs for `mark`."""
    first = mark not in CALLS
    CALLS.append(mark)
    if first and seconds:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(%s)", [seconds])
    return mark


def wait_for(predicate, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def kill_the_sleeping_backend() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query LIKE 'SELECT pg_sleep%%' AND pid <> pg_backend_pid() "
            "AND datname = current_database()"
        )
        return bool(cursor.fetchall())


def status(result) -> str:
    return DBTaskResult.objects.get(pk=result.id).status


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="terminates a backend with pg_terminate_backend"
)
@pytest.mark.django_db(transaction=True)
def test_the_worker_survives_a_lost_connection_and_runs_the_cut_off_task_and_the_next(settings):
    settings.TASKS = DATABASE
    CALLS.clear()
    cut_off = sleepy.enqueue(mark="cut off", seconds=30)
    supervisor = worker.Supervisor(
        queues=["default"], name="test-worker", interval=0.05, heartbeat=0.2, backoff_first=0.1
    )
    thread = threading.Thread(target=supervisor.run)
    thread.start()
    try:
        assert wait_for(lambda: CALLS == ["cut off"])
        assert wait_for(kill_the_sleeping_backend)
        assert wait_for(lambda: status(cut_off) == "SUCCESSFUL")
        following = sleepy.enqueue(mark="following", seconds=0)
        assert wait_for(lambda: status(following) == "SUCCESSFUL")
        beat = WorkerHeartbeat.objects.get(name="test-worker")
        assert wait_for(
            lambda: WorkerHeartbeat.objects.get(name="test-worker").seen_at > beat.seen_at
        )
    finally:
        supervisor.stop()
        thread.join(10)

    assert not thread.is_alive()
    assert supervisor.restarts == 1
    assert CALLS == ["cut off", "cut off", "following"]
    result = DBTaskResult.objects.get(pk=cut_off.id)
    assert result.worker_ids == ["test-worker", "test-worker"]
    assert result.return_value == "cut off"
    stopped = WorkerHeartbeat.objects.get(name="test-worker")
    assert stopped.stopped_at is not None
    assert stopped.queues == "default"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a worker thread beside the test")
@pytest.mark.django_db(transaction=True)
def test_a_live_worker_takes_over_the_work_of_one_whose_heartbeat_stopped(settings, monkeypatch):
    settings.TASKS = DATABASE
    monkeypatch.setattr(worker, "WORKER_LOST_AFTER", datetime.timedelta(seconds=0.3))
    club = make_club()
    heartbeat("dead", minutes_ago=2)
    running_refresh(club, "dead")
    supervisor = worker.Supervisor(queues=["default"], name="alive", interval=0.05, heartbeat=0.1)
    thread = threading.Thread(target=supervisor.run)
    thread.start()
    try:
        # queued again by the heartbeat, then re-rated by the same worker: the row is gone
        done = wait_for(lambda: not RatingRefresh.objects.filter(club=club).exists())
    finally:
        supervisor.stop()
        thread.join(10)

    assert done
    assert WorkerHeartbeat.objects.get(name="alive").stopped_at is not None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a worker process beside the test")
@pytest.mark.django_db(transaction=True)
def test_the_command_stops_cleanly_on_sigterm_and_says_so_in_its_heartbeat():
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "TASKS_BACKEND": "database", "DEBUG": "true"}
    process = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "pulka_worker",
            "--name",
            "under-systemd",
            "--heartbeat",
            "1",
        ],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        started = wait_for(lambda: WorkerHeartbeat.objects.filter(name="under-systemd").exists())
        process.send_signal(signal.SIGTERM)
        code = process.wait(15)
    finally:
        process.kill()
    output = process.stdout.read().decode()

    assert started, output
    assert code == 0, output
    row = WorkerHeartbeat.objects.get(name="under-systemd")
    assert row.stopped_at is not None
    assert row.pid == process.pid
    assert "Worker under-systemd on default, files" in output


# --- what a dead worker left behind --------------------------------------------------------


def running_refresh(club, worker_name: str, attempts: int = 1) -> RatingRefresh:
    return RatingRefresh.objects.create(
        club=club,
        since=day(3),
        state=RefreshState.RUNNING,
        attempts=attempts,
        started_at=timezone.now() - datetime.timedelta(minutes=2),
        worker=worker_name,
    )


def claimed_task(settings, worker_name: str) -> DBTaskResult:
    """A task result a worker claimed (as db_worker does) and never finished."""
    settings.TASKS = DATABASE
    result = DBTaskResult.objects.get(pk=sleepy.enqueue(mark="lost", seconds=0).id)
    result.claim(worker_name)
    return result


def heartbeat(name: str, minutes_ago: float) -> WorkerHeartbeat:
    seen = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    return WorkerHeartbeat.objects.create(name=name, queues="default,files", seen_at=seen)


@pytest.mark.django_db
def test_a_claim_in_a_worker_records_the_worker_on_the_row():
    club = make_club()
    RatingRefresh.objects.create(club=club, since=day(3))
    set_worker_name("host:default")
    try:
        background.JOB.claim(RatingRefresh.objects.filter(club=club))
    finally:
        set_worker_name("")

    assert RatingRefresh.objects.get(club=club).worker == "host:default"


@pytest.mark.django_db
def test_work_of_a_worker_silent_for_over_a_minute_is_queued_again_and_done(
    settings, django_capture_on_commit_callbacks
):
    CALLS.clear()
    club, alive_club = make_club(), make_club()
    heartbeat("dead", minutes_ago=1.5)
    heartbeat("alive", minutes_ago=0.2)
    running_refresh(club, "dead")
    running_refresh(alive_club, "alive")
    lost_task = claimed_task(settings, "dead")

    lost = worker.lost_workers(timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        queued = worker.requeue_lost(lost)

    assert lost == ["dead"]
    assert queued == 2  # the re-rate's task anew, and the task result the worker held
    refresh = RatingRefresh.objects.get(club=club)
    assert refresh.state == RefreshState.PENDING
    assert refresh.last_error.startswith("WorkerLost")
    assert RatingRefresh.objects.get(club=alive_club).state == RefreshState.RUNNING
    assert status(lost_task) == "READY"

    work()

    assert not RatingRefresh.objects.filter(club=club).exists()  # re-rated
    assert status(lost_task) == "SUCCESSFUL"
    assert CALLS == ["lost"]


@pytest.mark.django_db
def test_work_cut_off_max_attempts_times_is_left_failed_for_the_owner(settings):
    club = make_club()
    running_refresh(club, "dead", attempts=MAX_ATTEMPTS)
    lost_task = claimed_task(settings, "dead")
    result = DBTaskResult.objects.get(pk=lost_task.pk)
    result.worker_ids = ["dead"] * MAX_ATTEMPTS
    result.save(update_fields=["worker_ids"])

    assert worker.requeue_lost(["dead"]) == 0

    refresh = RatingRefresh.objects.get(club=club)
    assert (refresh.state, refresh.can_restart) == (RefreshState.FAILED, True)
    assert "stopped during this work" in refresh.last_error
    assert status(lost_task) == "FAILED"


# --- what the pages say --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_worker_status_reads_the_latest_heartbeat(settings):
    assert worker.worker_status().state == "not used"  # the immediate backend
    settings.TASKS = DATABASE
    assert worker.worker_status().state == "none"
    old = heartbeat("old", minutes_ago=4)
    assert worker.worker_status() == worker.WorkerStatus("stale", old.seen_at)
    heartbeat("fresh", minutes_ago=1)
    assert worker.worker_status().state == "ok"
    WorkerHeartbeat.objects.filter(name="fresh").update(stopped_at=timezone.now())
    assert worker.worker_status().state == "stale"


@pytest.mark.django_db
def test_the_background_page_says_the_worker_is_not_running_since_it_was_last_seen(
    club_a, owner, client, settings
):
    settings.TASKS = DATABASE
    client.force_login(owner)
    url = f"/c/{club_a.slug}/background/"

    never = html(client.get(url))
    heartbeat("host:default,files", minutes_ago=5)
    stale = client.get(url)
    fragment = html(client.get(url, headers=HTMX))
    WorkerHeartbeat.objects.update(seen_at=timezone.now())
    running = html(client.get(url))

    assert 'id="worker-not-running"' in never
    assert "it has never been seen" in never
    assert 'id="worker-not-running"' in html(stale)
    assert "The background worker is not running (last seen" in html(stale)
    assert "The background worker is not running (last seen" in fragment
    assert "<html" not in fragment
    assert 'id="worker-not-running"' not in running
    assert 'id="no-work"' in running


@pytest.mark.django_db
def test_with_the_immediate_backend_the_page_says_nothing_of_a_worker(club_a, owner, client):
    client.force_login(owner)

    page = html(client.get(f"/c/{club_a.slug}/background/"))

    assert 'id="worker-not-running"' not in page
    assert 'id="no-work"' in page


@pytest.mark.django_db
def test_the_ratings_notice_says_it_waits_for_a_worker_that_is_not_running(
    club_a, owner, client, settings
):
    settings.TASKS = DATABASE
    client.force_login(owner)
    make_league(club_a, start=day(1), end=day(31))
    RatingRefresh.objects.create(club=club_a, since=day(10))
    url = f"/c/{club_a.slug}/leagues/"

    heartbeat("host:default,files", minutes_ago=10)
    stale = html(client.get(url))
    WorkerHeartbeat.objects.update(seen_at=timezone.now())
    alive = html(client.get(url))

    assert 'id="rerating"' in stale
    assert "are waiting for the background worker, which is not running" in stale
    assert "Ratings are being updated" not in stale
    assert "Ratings are being updated (since March 10, 2025)." in alive
    assert "not running" not in alive


@pytest.mark.django_db
def test_the_command_refuses_when_the_tasks_run_in_the_request():
    with pytest.raises(CommandError, match="nothing for a worker to do"):
        call_command("pulka_worker")


@pytest.mark.django_db
def test_the_command_will_not_start_a_second_worker_under_a_living_workers_name(settings):
    settings.TASKS = DATABASE
    living = worker.Supervisor(queues=["default"], name="twin")
    WorkerHeartbeat.objects.create(
        name="twin", queues="default", host=socket.gethostname(), pid=os.getppid()
    )

    with pytest.raises(CommandError, match="the worker twin is running already"):
        call_command("pulka_worker", name="twin", queue_name="default")

    WorkerHeartbeat.objects.filter(name="twin").update(pid=2**22 + 1)  # no such process
    assert living.name_taken() == ""
