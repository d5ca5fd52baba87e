import pytest
from django_tasks_db.management.commands import db_worker


@pytest.fixture(autouse=True)
def _worker_keeps_the_test_connection(monkeypatch):
    """The worker drops stale connections between tasks; inside a test's transaction that
    would close the test's own (on PostgreSQL), so it is left open, as the test client does."""
    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
