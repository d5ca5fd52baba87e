"""/healthz: what a load balancer asks every few seconds, answered within 5 s whatever hangs,
with one line per part (config.health)."""

from __future__ import annotations

import copy
import datetime
import time

import pytest
from django.db import connection, connections
from django.utils import timezone

from competition.models import WorkerHeartbeat
from config import health
from tests.competition.factories import DATABASE
from tests.conftest import silent_port

REDIS_REFUSED = {
    "default": {
        "BACKEND": "club.cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:1/11",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def lines(response) -> list[str]:
    return response.content.decode().splitlines()


@pytest.fixture
def hanging_server():
    """A TCP server on 127.0.0.1 that accepts every connection and never says a word."""
    with silent_port() as port:
        yield port


@pytest.fixture
def probe_may_connect(django_db_blocker):
    with django_db_blocker.unblock():
        yield


def database_alias(monkeypatch, name: str, **changes) -> None:
    """A second database alias (PostgreSQL), which the probe then asks instead. The tests
    that use one are not in a test transaction (its class refuses other aliases): they ask
    pytest-django's blocker to let the probe's thread connect."""
    settings_dict = copy.deepcopy(connections.settings["default"])
    settings_dict.update(ENGINE="django.db.backends.postgresql", CONN_MAX_AGE=0, OPTIONS={})
    settings_dict.update(changes)
    monkeypatch.setitem(connections.settings, name, settings_dict)
    monkeypatch.setattr(health, "ALIAS", name)


@pytest.mark.django_db
def test_healthz_says_each_part_is_ok_and_reads_no_session(
    client, owner, django_assert_num_queries
):
    client.force_login(owner)

    with django_assert_num_queries(0):  # the probe asks on a connection of its own
        response = client.get("/healthz")

    assert response.status_code == 200
    assert lines(response) == [
        "ok",
        "database: ok",
        "writable: ok",
        "cache: ok",
        "worker: not used",
    ]
    assert response["Content-Type"].startswith("text/plain")
    assert "Set-Cookie" not in response
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")


def test_healthz_answers_503_at_once_when_the_database_refuses(
    client, monkeypatch, caplog, probe_may_connect
):
    database_alias(monkeypatch, "refused", HOST="127.0.0.1", PORT="1", NAME="pulka")

    started = time.monotonic()
    response = client.get("/healthz")

    assert time.monotonic() - started < 2
    assert response.status_code == 503
    assert lines(response)[:3] == ["unavailable", "database: down", "writable: unknown"]
    assert "the database does not answer: OperationalError" in caplog.text


def test_healthz_answers_503_within_5_seconds_when_the_database_hangs(
    client, monkeypatch, hanging_server, probe_may_connect
):
    database_alias(
        monkeypatch,
        "hanging",
        HOST="127.0.0.1",
        PORT=str(hanging_server),
        NAME="pulka",
        OPTIONS={"connect_timeout": 5},
    )

    started = time.monotonic()
    first = client.get("/healthz")
    first_took = time.monotonic() - started
    started = time.monotonic()
    second = client.get("/healthz")  # the first probe's connection may still be waiting
    second_took = time.monotonic() - started

    assert first.status_code == second.status_code == 503
    assert lines(first)[:2] == ["unavailable", "database: timeout"]
    assert 3.5 < first_took < 5
    assert second_took < 5
    assert "cache: ok" in lines(second)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a read-only PostgreSQL session")
def test_healthz_answers_503_when_the_database_is_read_only(
    client, monkeypatch, django_db_setup, probe_may_connect
):
    database_alias(
        monkeypatch,
        "read-only",
        NAME=connection.settings_dict["NAME"],
        OPTIONS={"options": "-c default_transaction_read_only=on"},
    )

    response = client.get("/healthz")

    assert response.status_code == 503
    assert lines(response)[:3] == ["unavailable", "database: ok", "writable: read-only"]


@pytest.mark.django_db
def test_healthz_with_redis_down_answers_200_degraded_at_once(client, settings):
    settings.CACHES = REDIS_REFUSED

    started = time.monotonic()
    response = client.get("/healthz")

    assert time.monotonic() - started < 2
    assert response.status_code == 200
    assert lines(response) == [
        "degraded",
        "database: ok",
        "writable: ok",
        "cache: down",
        "worker: not used",
    ]


@pytest.mark.django_db
def test_healthz_with_redis_up_says_the_cache_is_ok(client, settings):
    settings.CACHES = {
        "default": {**REDIS_REFUSED["default"], "LOCATION": "redis://127.0.0.1:6379/11"}
    }

    response = client.get("/healthz")

    assert response.status_code == 200
    assert "cache: ok" in lines(response)


@pytest.mark.django_db(transaction=True)
def test_healthz_with_a_silent_worker_answers_200_degraded(client, settings):
    settings.TASKS = DATABASE
    none = lines(client.get("/healthz"))
    seen = timezone.now() - datetime.timedelta(minutes=5)
    WorkerHeartbeat.objects.create(name="host:default", queues="default", seen_at=seen)
    stale = client.get("/healthz")
    WorkerHeartbeat.objects.update(seen_at=timezone.now())
    alive = lines(client.get("/healthz"))

    assert none[0] == "degraded"
    assert "worker: none" in none
    assert stale.status_code == 200
    assert lines(stale)[0] == "degraded"
    assert "worker: stale" in lines(stale)
    assert alive[0] == "ok"
    assert "worker: ok" in alive


@pytest.mark.django_db
def test_healthz_is_exempt_from_the_https_redirect(client, settings):
    settings.SECURE_SSL_REDIRECT = True

    assert lines(client.get("/healthz"))[0] == "ok"
    page = client.get("/")
    assert page.status_code == 301
    assert page["Location"] == "https://testserver/"


@pytest.mark.django_db
def test_healthz_is_never_cached(client):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]
    assert client.post("/healthz").status_code == 405
