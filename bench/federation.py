"""Benchmark of a federation's rating list on PostgreSQL: the full rebuild and the list page.

Run from the repository root:  python bench/federation.py [--keep]

It needs PostgreSQL: TEST_DATABASE_URL (else .ci/postgres-url's server) with the database
name replaced by ``pulka_bench_federation``, which the bench drops and creates afresh,
migrates, fills and drops again at the end (``--keep`` leaves it). The fill is the bulk path
of bench/league.py (COPY, no deals: the rating reads only the result caches): 20 member
clubs, 2,000 persons each with a roster name in one or two clubs (linked), and 200,000
finished pulkas of 3 or 4 with their PulkaResultCache and PairResultCache rows.

Then it times `federation.rating.rebuild` (the full replay, the PersonRating rows and the
list), the list page (DEBUG off) against the bare view of bench.common taken in turns, for a
signed-in player of a member club as the other page benches do (and, not budgeted, for an
anonymous visitor), and counts the page's queries for a list of 2,000 persons and one of 10.

Budget: ``rebuild_s <= 120`` (74-89 s measured on a quiet machine), ``ratio`` (list page
median / bare view median) <= 5 and ``queries_small == queries_large``. The last lines are::

    rebuild_s: R
    list_ms_median: X
    bare_view_ms_median: Y
    ratio: Z
    queries_small: N
    queries_large: M
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

from psycopg import sql
from psycopg.types.json import Jsonb

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
NAME = "pulka_bench_federation"


def database_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        found = subprocess.run(
            [str(ROOT / ".ci" / "postgres-url")], capture_output=True, text=True, check=False
        )
        if found.returncode != 0:
            sys.exit("bench/federation.py needs PostgreSQL (TEST_DATABASE_URL or a local server)")
        url = found.stdout.strip()
    return urlsplit(url)._replace(path=f"/{NAME}").geturl()


DATABASE_URL = database_url()
os.environ["DATABASE_URL"] = DATABASE_URL
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.common import drop_database, recreate_database, timed_gets  # noqa: E402
from club.models import Club, Membership, Player, Role  # noqa: E402
from club.names import name_key, sort_key  # noqa: E402
from federation import rating  # noqa: E402
from federation.models import (  # noqa: E402
    Federation,
    MemberClub,
    MemberState,
    Person,
    PersonLink,
    PersonRating,
    RatingList,
)

CLUBS = 20
PERSONS = 2_000
PULKAS = 200_000
TABLES_PER_EVENING = 20
SECOND_CLUB = 0.3  # the share of persons with a roster name in a second club
FIRST_EVENING = datetime.date(2016, 1, 1)
SMALL = 10
BUDGET_REBUILD_S = 120.0
BUDGET_RATIO = 5.0


def copy_rows(table: str, columns: tuple[str, ...], rows) -> None:
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    with connection.connection.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def reset_sequences(*tables: str) -> None:
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"COALESCE((SELECT MAX(id) FROM {table}), 1))"
            )


def places(results: list[int]) -> list[int]:
    return [1 + sum(other > r for other in results) for r in results]


def setup_federation() -> tuple[Federation, dict[int, list[int]]]:
    """The federation, its clubs and persons; each club's roster (player ids)."""
    federation = Federation.objects.create(name="Bench federation", slug="bench", place="Kyiv")
    clubs = [
        Club.objects.create(name=f"Club {n:02d}", slug=f"club-{n:02d}", city=f"City {n % 5}")
        for n in range(CLUBS)
    ]
    MemberClub.objects.bulk_create(
        MemberClub(
            federation=federation, club=club, state=MemberState.MEMBER, joined_on=FIRST_EVENING
        )
        for club in clubs
    )
    rng = random.Random(7)
    persons = Person.objects.bulk_create(
        Person(federation=federation, name=f"Гравець {n:04d}", sort_key=f"{n:04d}")
        for n in range(PERSONS)
    )
    names, owners = [], []
    for person in persons:
        home = rng.randrange(CLUBS)
        homes = [home]
        if rng.random() < SECOND_CLUB:
            homes.append((home + rng.randrange(1, CLUBS)) % CLUBS)
        for club in homes:
            keys = {"name_key": name_key(person.name), "sort_key": sort_key(person.name)}
            names.append(Player(club=clubs[club], name=person.name, **keys))
            owners.append(person)
    players = Player.objects.bulk_create(names, batch_size=2000)
    PersonLink.objects.bulk_create(
        (
            PersonLink(federation=federation, person=person, player=player)
            for person, player in zip(owners, players, strict=True)
        ),
        batch_size=2000,
    )
    rosters: dict[int, list[int]] = {club.pk: [] for club in clubs}
    for player in players:
        rosters[player.club_id].append(player.pk)
    return federation, rosters


def generate(rosters: dict[int, list[int]]) -> tuple[int, int]:
    """Evenings, finished pulkas, seats and both caches by COPY; returns the cache rows."""
    rng = random.Random(1)
    now = timezone.now()
    rules = {"pool_target": 20}
    ids = {"evening": 0, "pulka": 0, "seat": 0, "result": 0, "pair": 0}

    def take(kind: str) -> int:
        ids[kind] += 1
        return ids[kind]

    evenings, pulkas, seats, results, pairs = [], [], [], [], []
    per_club = PULKAS // len(rosters)
    for club, roster in rosters.items():
        made, day = 0, 0
        while made < per_club:
            evening = take("evening")
            date = FIRST_EVENING + datetime.timedelta(days=day)
            day += 1
            evenings.append((evening, club, date, "Bench room", "", now, True, False))
            seated = rng.sample(roster, len(roster))
            for table in range(1, min(TABLES_PER_EVENING, per_club - made) + 1):
                n = rng.choice((3, 4))
                at_table, seated = seated[:n], seated[n:]
                if len(at_table) < n:
                    at_table = rng.sample(roster, n)
                pulka = take("pulka")
                pulkas.append((pulka, evening, table, Jsonb(rules), 0, "finished", 1, now, now))
                scores = [round(rng.gauss(0, 90)) for _ in range(n - 1)]
                scores.append(-sum(scores))
                for position, (player, score, place) in enumerate(
                    zip(at_table, scores, places(scores), strict=True)
                ):
                    seats.append((take("seat"), pulka, position, player))
                    results.append(
                        (take("result"), pulka, player, club, date, position, n, str(score))
                        + (score, place, True, now, True)
                    )
                    for j, opponent in enumerate(at_table):
                        if opponent != player:
                            net = (Decimal(score - scores[j]) / n).quantize(Decimal("0.0001"))
                            pairs.append(
                                (take("pair"), pulka, player, opponent, club, date, net, True)
                            )
                made += 1
    copy_rows(
        "club_session",
        ("id", "club_id", "date", "venue", "notes", "created_at", "counted", "self_entry"),
        evenings,
    )
    copy_rows(
        "scoring_pulka",
        ("id", "session_id", "table", "rules", "first_dealer", "status", "version")
        + ("created_at", "finished_at"),
        pulkas,
    )
    copy_rows("scoring_seat", ("id", "pulka_id", "position", "player_id"), seats)
    copy_rows(
        "scoring_pulkaresultcache",
        ("id", "pulka_id", "player_id", "club_id", "date", "position", "players", "result")
        + ("result_rounded", "place", "closed", "computed_at", "counted"),
        results,
    )
    copy_rows(
        "scoring_pairresultcache",
        ("id", "pulka_id", "player_id", "opponent_id", "club_id", "date", "net", "counted"),
        pairs,
    )
    reset_sequences(
        "club_session",
        "scoring_pulka",
        "scoring_seat",
        "scoring_pulkaresultcache",
        "scoring_pairresultcache",
    )
    return len(results), len(pairs)


def small_federation() -> Federation:
    """A federation whose list has SMALL persons (rows written directly)."""
    federation = Federation.objects.create(name="Small", slug="small")
    club = Club.objects.create(name="Small club", slug="small-club", city="Lviv")
    MemberClub.objects.create(
        federation=federation, club=club, state=MemberState.MEMBER, joined_on=FIRST_EVENING
    )
    persons = Person.objects.bulk_create(
        Person(federation=federation, name=f"P{n}", sort_key=f"p{n}") for n in range(SMALL)
    )
    RatingList.objects.bulk_create(
        RatingList(
            federation=federation,
            person=person,
            place=n + 1,
            rating=1500 - n,
            mu=25,
            sigma=3,
            pulkas=12,
            last_date=FIRST_EVENING,
            clubs=[club.pk],
            cities=[club.city],
        )
        for n, person in enumerate(persons)
    )
    return federation


def page_queries(client: Client, url: str) -> int:
    client.get(url, secure=True)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, secure=True)
    assert response.status_code == 200, response.status_code
    return len(captured)


def run(started: float) -> bool:
    t0 = time.perf_counter()
    federation, rosters = setup_federation()
    result_rows, pair_rows = generate(rosters)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"generated {PULKAS:,} pulkas of {sum(map(len, rosters.values())):,} roster names in "
        f"{CLUBS} clubs ({PERSONS:,} persons): {result_rows:,} result rows, {pair_rows:,} pair "
        f"rows in {time.perf_counter() - t0:.1f} s"
    )

    figures = rating.rebuild(federation)
    print(
        f"rebuild: {figures.pulkas:,} pulkas, {figures.ratings:,} ratings of "
        f"{figures.persons:,} persons, {figures.listed:,} listed in {figures.seconds:.1f} s"
    )
    assert figures.pulkas == PULKAS
    assert figures.listed == PERSONS
    assert PersonRating.objects.filter(federation=federation).count() == result_rows

    small = small_federation()
    # As the other page benches: a signed-in player of a member club (the visitor who looks
    # up his rating), against the bare view for him; the anonymous visitor is printed too.
    player = get_user_model().objects.create_user(username="bench-player")
    club = Club.objects.filter(slug="club-00").get()
    Membership.objects.create(club=club, user=player, role=Role.PLAYER)
    client = Client(SERVER_NAME="localhost")
    client.force_login(player)
    url = f"/f/{federation.slug}/rating/"
    queries_large = page_queries(client, url)
    queries_small = page_queries(client, f"/f/{small.slug}/rating/")
    list_times, bare_times = timed_gets(
        client, (url, b'id="rating-table"'), ("/bench-bare/", b'id="bare"')
    )
    visitor = Client(SERVER_NAME="localhost")
    anonymous, anonymous_bare = timed_gets(
        visitor, (url, b'id="rating-table"'), ("/bench-bare/", b'id="bare"')
    )
    print(
        f"anonymous: list {statistics.median(anonymous) * 1e3:.2f} ms, bare view "
        f"{statistics.median(anonymous_bare) * 1e3:.2f} ms, ratio "
        f"{statistics.median(anonymous) / statistics.median(anonymous_bare):.2f} (not budgeted)"
    )
    (filtered,) = timed_gets(client, (url + "?city=City+1&page=3", b'id="rating-table"'))
    print(f"filtered by city, page 3: {statistics.median(filtered) * 1e3:.2f} ms (not budgeted)")
    t0 = time.perf_counter()
    export = client.get(f"/f/{federation.slug}/rating/export.csv", secure=True)
    assert export.content.decode("utf-8-sig").count("\n") == PERSONS + 1
    print(f"CSV export of {PERSONS:,} persons: {(time.perf_counter() - t0) * 1e3:.0f} ms")
    print(f"total run: {time.perf_counter() - started:.0f} s")

    list_ms = statistics.median(list_times) * 1e3
    bare_ms = statistics.median(bare_times) * 1e3
    ratio = list_ms / bare_ms
    print(f"rebuild_s: {figures.seconds:.2f}")
    print(f"list_ms_median: {list_ms:.2f}")
    print(f"bare_view_ms_median: {bare_ms:.2f}")
    print(f"ratio: {ratio:.2f}")
    print(f"queries_small: {queries_small}")
    print(f"queries_large: {queries_large}")
    return (
        figures.seconds <= BUDGET_REBUILD_S
        and ratio <= BUDGET_RATIO
        and queries_small == queries_large
    )


def main() -> None:
    started = time.perf_counter()
    recreate_database(DATABASE_URL)
    override_settings(
        ROOT_URLCONF="bench.common",
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ).enable()
    try:
        call_command("migrate", verbosity=0)
        within = run(started)
    finally:
        if "--keep" not in sys.argv:
            drop_database(DATABASE_URL)
    if not within:
        sys.exit("over budget")


if __name__ == "__main__":
    main()
