"""Redis down degrades, it never breaks (club.cache.ResilientRedisCache): every page, the
login and a deal's entry work with Redis refused, the login throttle counts in the database
cache meanwhile, and what Redis missed never comes back stale. The settings as production
has them: the database's connect_timeout, sessions in the database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from allauth.account.models import EmailAddress
from django.core.cache import cache, caches
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from club.cache import ResilientRedisCache
from competition.models import RatingSnapshot
from scoring.models import Deal
from tests.club.factories import html
from tests.competition.factories import day, make_league, make_tournament
from tests.conftest import (
    HTMX,
    PASSWORD,
    make_evening,
    make_member,
    make_pulka,
    make_user,
    missing_service,
    record,
    silent_port,
)
from tests.scoring.factories import SIX_BY_BORIS, deal_post, ended_early

ROOT = Path(__file__).resolve().parent.parent
REFUSED = "redis://127.0.0.1:1/11"  # nobody listens on port 1
UP = "redis://127.0.0.1:6379/11"  # the tests' own Redis database


def caches_with_redis(location: str, **options) -> dict:
    """CACHES as config/settings.py makes them with REDIS_URL set."""
    return {
        "default": {
            "BACKEND": "club.cache.ResilientRedisCache",
            "LOCATION": location,
            "KEY_PREFIX": "pulka-test",
            "OPTIONS": {
                "socket_connect_timeout": 0.5,
                "socket_timeout": 0.5,
                "FALLBACK": "fallback",
                "NO_FALLBACK_PREFIXES": ["scoring:live:"],
                "RETRY_AFTER": 2,
                **options,
            },
        },
        "fallback": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "pulka_cache",
            "KEY_PREFIX": "pulka-test",
        },
    }


def redis_is_up() -> bool:
    try:
        return bool(redis.Redis.from_url(UP, socket_connect_timeout=0.5).ping())
    except redis.exceptions.RedisError:
        return False


@pytest.fixture
def redis_refused(settings, db):
    settings.CACHES = caches_with_redis(REFUSED)
    settings.CACHE_SHARED = True
    call_command("createcachetable", verbosity=0)


@pytest.fixture
def redis_up(settings, db):
    if not redis_is_up():
        missing_service("no Redis at 127.0.0.1:6379")
    redis.Redis.from_url(UP).flushdb()
    settings.CACHES = caches_with_redis(UP)
    settings.CACHE_SHARED = True
    call_command("createcachetable", verbosity=0)
    yield
    redis.Redis.from_url(UP).flushdb()


@pytest.fixture(params=["redis refused", "redis up"])
def any_redis(request):
    request.getfixturevalue(request.param.replace(" ", "_"))
    return request.param


def _count_cache_table() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM pulka_cache")
        return cursor.fetchone()[0]


# --- the pages -----------------------------------------------------------------------------


def test_every_page_login_and_a_deal_work_whatever_redis_does(any_redis, client, club_a, owner):
    evening = make_evening(club_a, date=day(10))
    pulka = make_pulka(evening)
    record(pulka, SIX_BY_BORIS)
    ended_early(make_evening(club_a, date=day(3)))
    league = make_league(club_a, start=day(1), end=day(31))
    tournament = make_tournament(club_a)
    rated = RatingSnapshot.objects.filter(club=club_a).first().player
    client.force_login(owner)
    slug = club_a.slug
    pages = {
        "/": "Sochi Club",
        club_a.get_absolute_url(): 'id="',
        evening.get_absolute_url(): pulka.get_absolute_url(),
        pulka.get_absolute_url(): 'id="board"',
        f"/c/{slug}/leagues/": league.get_absolute_url(),
        league.get_absolute_url(): rated.name,
        f"/c/{slug}/players/{rated.pk}/": rated.name,
        tournament.get_absolute_url(): "Club Cup",
        f"/c/{slug}/background/": 'id="work"',
    }

    for round_trip in (1, 2):  # the second time, from whatever the first one cached
        for url, expected in pages.items():
            response = client.get(url)
            assert response.status_code == 200, (any_redis, round_trip, url)
            assert expected in html(response), (any_redis, url)
        fragment = client.get(pulka.get_absolute_url(), headers=HTMX)
        assert 'id="board"' in html(fragment)
        assert "<html" not in html(fragment)

    live = reverse("scoring:pulka-live", args=[slug, pulka.pk])
    poll = client.get(live, headers=HTMX)
    assert poll.status_code in (200, 204), (any_redis, poll.status_code)
    assert "<html" not in html(poll)

    url = reverse("scoring:deal-create", args=[slug, pulka.pk])
    entered = client.post(url, deal_post(number=2), headers=HTMX)
    again = client.post(url, deal_post(number=3))

    assert entered.status_code == 200, any_redis
    assert 'id="deal-2"' in html(entered)
    assert again.status_code == 302
    assert Deal.objects.filter(pulka=pulka).count() == 3
    assert 'id="deal-3"' in html(client.get(pulka.get_absolute_url()))


def test_login_works_with_redis_refused_and_the_throttle_counts_in_the_database(
    redis_refused, client, settings
):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/15m/key"}
    user = make_user(username="vera", email="vera@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    login = reverse("account_login")

    page = client.get(login)
    signed_in = client.post(login, {"login": "vera", "password": PASSWORD})
    home = client.get("/")
    client.logout()
    for _ in range(3):
        client.post(login, {"login": "vera", "password": "wrong"})
    paused = client.post(login, {"login": "vera", "password": PASSWORD})

    assert 'name="password"' in html(page)
    assert signed_in.status_code == 302
    assert home.wsgi_request.user == user
    assert paused.status_code in (200, 429)
    assert "_auth_user_id" not in client.session  # the right password, refused: paused
    assert _count_cache_table() > 0  # the counts went to the database cache


def test_a_member_stays_logged_in_across_a_redis_outage(client, settings, club_a, db):
    member = make_member(club_a).user
    client.force_login(member)
    settings.CACHES = caches_with_redis(REFUSED)
    call_command("createcachetable", verbosity=0)

    response = client.get(club_a.get_absolute_url())

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert response.wsgi_request.user == member
    assert "Sochi Club" in html(response)


# --- the cache itself ----------------------------------------------------------------------


def test_with_redis_refused_reads_are_misses_or_the_database_cache_and_cost_nothing(
    redis_refused,
):
    started = time.monotonic()
    cache.set("sheet:1", {"total": 3})
    cache.set("scoring:live:gen:pulka:1", "g1")
    added = cache.add("scoring:live:entry", "e")
    cache.set_many({"a": 1, "scoring:live:b": 2})
    found = cache.get_many(["a", "scoring:live:b", "sheet:1"])
    for _ in range(200):
        cache.get("sheet:1")
    took = time.monotonic() - started

    assert cache.get("sheet:1") == {"total": 3}  # kept in the database cache
    assert cache.get("scoring:live:gen:pulka:1") is None  # never kept: a miss
    assert added is True
    assert found == {"a": 1, "sheet:1": {"total": 3}}
    assert cache.get_or_set("x", 5) == 5
    assert cache.incr("a") == 2
    with pytest.raises(ValueError, match="not found"):
        cache.incr("nothing")
    assert took < 2
    assert cache.ping() is False


def test_when_redis_answers_again_what_it_missed_is_deleted_not_served_stale(redis_up, db):
    backend = caches["default"]
    assert isinstance(backend, ResilientRedisCache)
    backend.retry_after = 0.05
    cache.set("scoring:live:gen:pulka:7", "before the outage")
    cache.set("league:1", "old ranking")
    real = backend._cache.get_client

    def refused(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Connection refused")

    backend._cache.get_client = refused
    try:
        cache.set("scoring:live:gen:pulka:7", "during the outage")  # dropped
        cache.set("league:1", "new ranking")  # to the database cache
        during = cache.get("scoring:live:gen:pulka:7"), cache.get("league:1")
    finally:
        backend._cache.get_client = real
    time.sleep(0.1)

    after = cache.get("scoring:live:gen:pulka:7"), cache.get("league:1")

    assert during == (None, "new ranking")
    assert after == (None, None)  # misses: never "before the outage" nor "old ranking"
    assert backend.ping() is True


def test_redis_is_left_alone_longer_while_it_keeps_failing(redis_refused):
    backend = caches["default"]
    backend.retry_after, backend.retry_max = 0.01, 0.05
    delays = []
    for _ in range(5):
        backend._down_until = 0.0  # the time is up: Redis is asked again
        assert cache.get("k", "missed") == "missed"
        delays.append(backend._delay)

    assert delays == [0.01, 0.02, 0.04, 0.05, 0.05]


@pytest.fixture
def hanging_redis():
    """A TCP port that accepts and never answers: a Redis that hangs."""
    with silent_port() as port:
        yield f"redis://127.0.0.1:{port}/11"


def test_a_hanging_redis_costs_one_timeout_then_is_left_alone(settings, db, hanging_redis):
    settings.CACHES = caches_with_redis(hanging_redis)
    call_command("createcachetable", verbosity=0)

    started = time.monotonic()
    first = cache.get("k", "missed")
    first_took = time.monotonic() - started
    for _ in range(100):
        cache.get("k")
    rest_took = time.monotonic() - started - first_took

    assert first == "missed"
    assert first_took < 1.2  # one socket timeout (0.5 s), not gunicorn's 30 s
    assert rest_took < 1  # left alone for RETRY_AFTER: straight to the database cache


# --- the settings as production has them ----------------------------------------------------


def production_settings(code: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "REDIS_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", f"import config.settings as s; print({code})"],
        cwd=ROOT,
        env={**environ, "DEBUG": "false", "SECRET_KEY": "k" * 60, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_production_connects_to_postgresql_with_a_5_second_timeout_and_redis_fails_over():
    options = production_settings(
        "s.DATABASES['default']['OPTIONS'], s.CACHES['default']['BACKEND'], "
        "s.CACHES['fallback']['LOCATION'], s.SESSION_ENGINE",
        DATABASE_URL="postgres://pulka@db.example.org/pulka",
        REDIS_URL="redis://cache.example.org:6379/0",
    )

    assert options == (
        "{'connect_timeout': 5} club.cache.ResilientRedisCache pulka_cache "
        "django.contrib.sessions.backends.db"
    )
