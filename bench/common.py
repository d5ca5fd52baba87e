"""What the database benches share: their own scratch PostgreSQL database, the bare view the
pages are compared with, and timed GETs taken in turns.

Import it after ``django.setup()``; a bench that times pages sets
``ROOT_URLCONF="bench.common"`` (the bare view, then the site's own URLs).
"""

from __future__ import annotations

import sys
import time

import psycopg
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.test import Client
from django.urls import include, path
from psycopg import sql

WARMUP = 20
REPEAT = 200

BARE_PAGE = (
    '<section id="bare"><h2>{{ title }}{% if user %}, {{ user.get_username }}{% endif %}</h2>'
    "<ul>{% for name, score in rows %}<li>{{ name }}: {{ score }}</li>{% endfor %}</ul></section>"
)
BARE_TEMPLATE = engines["django"].from_string(BARE_PAGE)


def bare_view(request: HttpRequest) -> HttpResponse:
    rows = [(f"Player {i}", i * 4) for i in range(4)]
    return HttpResponse(BARE_TEMPLATE.render({"title": "Bare", "rows": rows}, request))


urlpatterns = [
    path("bench-bare/", bare_view),
    path("", include("config.urls")),
]


def recreate_database(url: str) -> None:
    """Drop and create the bench database, connected to the server's `postgres` database."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    name = info.get("dbname")
    if not name or name in {"postgres", "template0", "template1"}:
        sys.exit(f"the bench drops its database: give it one of its own, not {name!r}")
    with psycopg.connect(**{**info, "dbname": "postgres"}, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(url: str) -> None:
    connection.close()
    info = psycopg.conninfo.conninfo_to_dict(url)
    with psycopg.connect(**{**info, "dbname": "postgres"}, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(info["dbname"])
            )
        )


def timed_gets(client: Client, *urls_and_markers: tuple[str, bytes]) -> list[list[float]]:
    """Median-ready timings of GETs of each URL, taken in turns so that each sees the
    machine in the same state (a busy moment slows them all alike)."""
    for url, marker in urls_and_markers:
        for _ in range(WARMUP):
            response = client.get(url, secure=True)
            if response.status_code != 200 or marker not in response.content:
                sys.exit(f"{url}: status {response.status_code}\n{response.content[:3000]!r}")
    times: list[list[float]] = [[] for _ in urls_and_markers]
    for _ in range(REPEAT):
        for i, (url, _marker) in enumerate(urls_and_markers):
            t0 = time.perf_counter()
            client.get(url, secure=True)
            times[i].append(time.perf_counter() - t0)
    return times
