"""Tasks queued before competition/ was cut into rooms still run.

The database task backend stores each queued task's import path. Until 0.3 the old paths
(competition.background.rerate_task, competition.files.build_file_task) re-export the moved
task functions, so a worker started after an upgrade runs what an older release queued.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils.module_loading import import_string
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from club.models import Role
from competition.files import services as files
from competition.models import FileState, PreparedFile, RatingRefresh, RefreshState
from competition.rating import background
from tests.conftest import make_club

pytestmark = pytest.mark.django_db

DATABASE = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "files"]}
}
OLD_PATHS = {
    "competition.rating.background.rerate_task": "competition.background.rerate_task",
    "competition.files.services.build_file_task": "competition.files.build_file_task",
}


@pytest.fixture(autouse=True)
def _queued_in_the_database(settings, monkeypatch):
    settings.TASKS = DATABASE
    # The worker drops stale connections between tasks; inside the test's transaction that
    # would close the test's own, so it is left open.
    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)


def queued_under_the_old_path() -> DBTaskResult:
    """The one queued task, rewritten as the release before the move would have stored it."""
    (row,) = DBTaskResult.objects.all()
    assert row.task_path in OLD_PATHS, row.task_path
    row.task_path = OLD_PATHS[row.task_path]
    row.save(update_fields=["task_path"])
    return row


def run_the_worker() -> None:
    call_command(
        "db_worker",
        queue_name="default,files",
        batch=True,
        reload=False,
        startup_delay=False,
        interval=0,
    )


@pytest.mark.parametrize(("new", "old"), OLD_PATHS.items())
def test_each_old_path_names_the_same_task(new, old):
    assert import_string(old) is import_string(new)


def test_a_re_rate_queued_under_the_old_path_runs(django_capture_on_commit_callbacks):
    club = make_club()
    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_request(club=club, since=datetime.date(2025, 3, 1))
    assert RatingRefresh.objects.get(club=club).state == RefreshState.PENDING
    row = queued_under_the_old_path()

    run_the_worker()

    row.refresh_from_db()
    assert (row.status, row.task_path) == ("SUCCESSFUL", "competition.background.rerate_task")
    assert not RatingRefresh.objects.filter(club=club).exists()  # the re-rate was done


def test_a_file_queued_under_the_old_path_is_built(monkeypatch, django_capture_on_commit_callbacks):
    club = make_club(slug="old-paths")
    user = get_user_model().objects.create_user("owner-of-old-paths")

    def build(club) -> files.BuiltFile:
        return files.BuiltFile("echo.txt", "text/plain", f"{club.slug}: echo".encode())

    monkeypatch.setitem(files.BUILDERS, "echo", build)
    monkeypatch.setitem(files.LABELS, "echo", "The echo file")
    with django_capture_on_commit_callbacks(execute=True):
        prepared = files.file_request(club=club, kind="echo", params={}, user=user, role=Role.OWNER)
    row = queued_under_the_old_path()

    run_the_worker()

    row.refresh_from_db()
    prepared = PreparedFile.objects.get(pk=prepared.pk)
    assert row.status == "SUCCESSFUL"
    assert (prepared.state, bytes(prepared.content)) == (FileState.READY, b"old-paths: echo")
