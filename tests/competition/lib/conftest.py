"""competition.lib is pure: its tests never touch the database (any access fails the test)."""

import pytest


@pytest.fixture(autouse=True)
def _no_database(django_db_blocker):
    with django_db_blocker.block():
        yield
