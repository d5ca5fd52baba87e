"""What every background task of competition shares: queueing, the retry budget, one lock.

The task functions themselves live with their work (competition.rating.background.rerate_task,
competition.files.services.build_file_task); this module is what they have in common.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django_tasks import task_backends
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks.base import Task

MAX_ATTEMPTS = 3  # a failing task is tried this often before its row is left `failed`


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
