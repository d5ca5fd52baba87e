"""Browser tests: Playwright drives Debian's Chromium (never a downloaded browser).

Without /usr/bin/chromium they are skipped with a reason on a laptop, and fail under CI=true.
`make test` runs them on PostgreSQL wherever there is one (CI always has it). On SQLite the
test database is a file with WAL rather than Django's shared in-memory one, whose table locks
("database table is locked") the live server's thread and the test's own writes can hit at once.

Service workers are blocked in every browser context, made by pytest-playwright's `context` or
by `browser.new_context()`: a worker left by one page would answer the next page's requests
from its cache. A test module that tests them sets `SERVICE_WORKERS = "allow"`.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings, tmp_path_factory):
    from django.conf import settings

    database = settings.DATABASES["default"]
    # Each of the live server's request threads opens its own connection: close it after
    # the request, so none is left holding the test database when it is dropped.
    database["CONN_MAX_AGE"] = 0
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("db") / "test.sqlite3"
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


def service_workers(request) -> str:
    """ "allow" for a module that sets SERVICE_WORKERS = "allow", else "block"."""
    return getattr(request.module, "SERVICE_WORKERS", "block")


@pytest.fixture
def browser_context_args(browser_context_args, request):
    return {**browser_context_args, "service_workers": service_workers(request)}


@pytest.fixture(autouse=True)
def _service_workers_in_every_context(request, monkeypatch):
    """The contexts a test makes itself (`browser.new_context()`) get the module's choice too."""
    if "browser" not in request.fixturenames:
        return
    browser = request.getfixturevalue("browser")
    new_context = browser.new_context
    mode = service_workers(request)

    def with_service_workers(**kwargs):
        return new_context(**{"service_workers": mode, **kwargs})

    monkeypatch.setattr(browser, "new_context", with_service_workers)


@pytest.fixture(autouse=True)
def _plain_static_files(settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
