"""Personas and plain factories shared by every test; rows made once for many tests (the demo,
a module's costly world); what every view and every table hold (the fuzz tests).

Personas (style.md): an owner and a secretary of club A, a player of club A, a member of
club B only (an outsider to A: 404 on A's private pages), and anonymous. Each app's own
factories are in tests/<app>/factories.py; a test module imports from those and from the
conftest modules only, never from another test module (tests/test_test_imports.py).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import socket
import threading
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver

from club.models import Club, Membership, Player, Role
from scoring.models import Evening

_seq = itertools.count(1)
PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: ids and slugs repeat from test to test."""
    cache.clear()


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Tests read English labels unless they ask for a language (Accept-Language)."""
    settings.LANGUAGE_CODE = "en"


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A TCP port on 127.0.0.1 that accepts every connection and never says a word: a
    database or a cache that hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(2)
        for sock in held:
            sock.close()
        listener.close()


def missing_service(reason: str) -> None:
    """A real service a test needs is not there (Redis, nginx): skipped on a laptop, a
    failure in CI (CI=true), where nothing may be silently skipped."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def make_user(**overrides):
    n = next(_seq)
    fields = {"username": f"user{n}", **overrides}
    user = get_user_model().objects.create_user(password=PASSWORD, **fields)
    return user


def make_club(**overrides) -> Club:
    n = next(_seq)
    fields = {"name": f"Club {n}", "slug": f"club-{n}", "city": "Kyiv", "pool_target": 10}
    fields.update(overrides)
    return Club.objects.create(**fields)


def make_member(club: Club, role: str = Role.PLAYER, user=None, **overrides) -> Membership:
    return Membership.objects.create(club=club, user=user or make_user(**overrides), role=role)


def make_player(club: Club, name: str | None = None, **overrides) -> Player:
    return Player.objects.create(club=club, name=name or f"Player {next(_seq)}", **overrides)


def make_evening(club: Club, **overrides) -> Evening:
    return Evening.objects.create(club=club, **{"venue": "Club room", **overrides})


def make_pulka(evening: Evening, names=("Anna", "Boris", "Vera"), first_dealer=0, rules=None):
    from scoring.services import pulka_create

    players = [Player.objects.get_or_create(club=evening.club, name=name)[0] for name in names]
    return pulka_create(
        evening=evening,
        players=players,
        first_dealer=players[first_dealer],
        rules={"pool_target": evening.club.pool_target, **(rules or {})},
        created_by=None,
    )


def record(pulka, *deals):
    from scoring.services import deal_record

    sheet = None
    for data in deals:
        _, sheet = deal_record(pulka=pulka, data=data, entered_by=None)
    return sheet


# --- rows made once for many tests ---------------------------------------------------------------
#
# What is costly to build (the demo, a played tournament, the fuzz tests' world) is made once,
# inside a transaction left open around the tests that read it and rolled back after the last:
# each of those tests runs in a savepoint of it (pytest-django's `db`), so what one test changes
# the next never sees. Those tests run after the others of their module (`module_rows`), or
# after every other test of the session (the demo), so no other test sees the rows either.


@contextlib.contextmanager
def kept_rows(django_db_blocker) -> Iterator[None]:
    """A transaction open until the block ends, then rolled back."""
    with django_db_blocker.unblock():
        kept = transaction.atomic()
        kept.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            kept.__exit__(None, None, None)


@pytest.fixture(scope="module")
def module_rows(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The transaction a module's once-made rows live in (its fixtures of scope="module" that
    make rows request it, and make them under `django_db_blocker.unblock()`)."""
    with kept_rows(django_db_blocker):
        yield


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """After pytest-django's order: in each run of a module's tests, those that read its
    once-made rows last; the tests that read the demo after all the others."""

    def kept_last(run: list) -> list:
        return sorted(run, key=lambda item: "module_rows" in getattr(item, "fixturenames", ()))

    ordered, run = [], []
    for item in items:
        if run and getattr(item, "module", None) is not getattr(run[0], "module", None):
            ordered += kept_last(run)
            run = []
        run.append(item)
    ordered += kept_last(run)
    items[:] = sorted(ordered, key=lambda item: "demo_logins" in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session")
def demo_logins(django_db_setup, django_db_blocker) -> Iterator[list[tuple[str, str, str]]]:
    """The demo (competition.demo), loaded once per session (per xdist worker); its logins."""
    from competition.demo import load_demo

    with kept_rows(django_db_blocker):
        with django_db_blocker.unblock():
            logins = load_demo()
        yield logins


@pytest.fixture
def demo(demo_logins, db) -> Club:
    """The demo's club, read in a savepoint of the session's demo transaction."""
    from competition.demo import CLUB_SLUG

    return Club.objects.get(slug=CLUB_SLUG)


# --- personas ----------------------------------------------------------------------------------


def make_club_a() -> Club:
    return make_club(name="Sochi Club", slug="sochi", is_public=False)


@pytest.fixture
def club_a(db) -> Club:
    """Club A (private): made for the test, or read if a module's once-made rows have it."""
    return Club.objects.filter(slug="sochi").first() or make_club_a()


@pytest.fixture
def club_b(db) -> Club:
    return make_club(name="Other Club", slug="other", is_public=False)


@pytest.fixture
def public_club(db) -> Club:
    return make_club(name="Open Club", slug="open", is_public=True)


@pytest.fixture
def owner(club_a):
    return make_member(club_a, Role.OWNER, username="olena").user


@pytest.fixture
def secretary(club_a):
    return make_member(club_a, Role.SECRETARY, username="serhii").user


@pytest.fixture
def player(club_a):
    return make_member(club_a, Role.PLAYER, username="petro").user


@pytest.fixture
def outsider(club_b):
    return make_member(club_b, Role.OWNER, username="bohdan").user


PERSONAS = ("anonymous", "outsider", "player", "secretary", "owner")


@pytest.fixture
def as_persona(client, request):
    """as_persona("secretary") logs the client in as that persona and returns it."""

    def login(name: str):
        if name != "anonymous":
            client.force_login(request.getfixturevalue(name))
        return client

    return login


HTMX = {"HX-Request": "true"}


# --- what every view and every table hold (the fuzz tests, the accessibility pass) ------------

# Django's own views, not ours: the login form, logout, the language switch, the admin
# (whose Club form is tested in tests/scoring/test_admin.py).
EXEMPT = {"login", "logout", "set_language"}
EXEMPT_PREFIXES = ("admin/",)
# django-allauth's own pages (sign-up, e-mail, password): its own test suite fuzzes them;
# tests/club/test_accounts.py checks how Pulka configures them.
EXEMPT_NAME_PREFIXES = ("account_",)


def url_params() -> dict[str, list[str]]:
    """Every view of ours, by URL name, with the parameters of its URL."""
    return _url_params(get_resolver())


@functools.cache
def _url_params(resolver: URLResolver) -> dict[str, list[str]]:
    def walk(patterns, namespace: str | None, prefix: str) -> Iterator[tuple[str, str, list]]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace
                if inner and namespace:
                    inner = f"{namespace}:{inner}"
                yield from walk(pattern.url_patterns, inner or namespace, route)
            elif isinstance(pattern, URLPattern):
                name = pattern.name and (
                    f"{namespace}:{pattern.name}" if namespace else pattern.name
                )
                yield name or route, route, list(pattern.pattern.converters)

    return {
        name: params
        for name, route, params in walk(resolver.url_patterns, None, "")
        if name not in EXEMPT
        and not route.startswith(EXEMPT_PREFIXES)
        and not name.startswith(EXEMPT_NAME_PREFIXES)
    }


WATCHED_APPS = ("club", "scoring", "competition", "federation", "auth")


def database_state() -> str:
    """Every row of our tables and the accounts, as one checksum (and the row counts): each
    table read whole, as the database holds it."""
    digest = hashlib.sha256()
    with connection.cursor() as cursor:
        for label, table, pk in _watched_tables():
            cursor.execute(f"SELECT * FROM {table} ORDER BY {pk}")
            rows = cursor.fetchall()
            digest.update(f"{label}:{len(rows)}:{rows!r}".encode())
    return digest.hexdigest()


@functools.cache
def _watched_tables() -> list[tuple[str, str, str]]:
    quote = connection.ops.quote_name
    return [
        (model._meta.label, quote(model._meta.db_table), quote(model._meta.pk.column))
        for app in WATCHED_APPS
        for model in apps.get_app_config(app).get_models()
    ]
