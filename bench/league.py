"""Benchmark of a league's ranking page on PostgreSQL, over a big club's history.

Run from the repository root:  python bench/league.py [--profile] [--keep]

It needs PostgreSQL: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/pulka_bench)
names a database that the bench drops and creates afresh (and drops again at the end),
migrates, and fills through a bulk path: 1,000 players and 50,000 finished pulkas (3 or 4 at
the table) over 2,000 evenings, with the rows the services would leave behind: Evening,
Pulka, Seat, and the caches PulkaResultCache (zero-sum results, places from the results,
ties sharing) and PairResultCache (net(i, j) = (r_i - r_j) / n: antisymmetric, and each
player's nets add up to his result). No deals are stored: the league pages never replay.

Then it times `competition.rating.ratings.ratings_update(club=club)` (the full rebuild of the
ratings), and the ranking page of the all-time league (a member reads it through Django's test
client, DEBUG off) against a bare view that renders a small template through the same
client, middleware and login, the two taken in turns; it counts the queries of the league
page for a league of 10 players and one of 1,000. The ranking is aggregated once per change
to the caches (competition.league.selectors, kept in Django's cache), so it also prints, unbudgeted,
the first page after a change, the page without its HTML cache, the adding up in SQL and in
Python, the other rules, a sorted page and the CSV export. ``--profile`` prints the queries of one
page and where its time goes; ``--keep`` leaves the database for a look at query plans.

Budget: ``ratio`` (league median / bare view median) <= 5, and ``queries_small ==
queries_large``; it exits non-zero when either is missed. The last lines are::

    league_ms_median: X
    bare_view_ms_median: Y
    ratio: Z
    queries_small: N
    queries_large: M
    rebuild_ratings_s: R
    correction_recent_ms: C
    correction_old_ms: D
    budget: ratio <= 5, queries_small == queries_large

The last two time a secretary's correction of a deal (``scoring.services.deal_update``, with
its commit and its enqueue) with ``TASKS_BACKEND=database`` and no worker running, so only
the request is timed: the re-rate is left in the queue. The bulk path stores no deals, so the
bench adds two real pulkas to the big club through the services, one on the oldest evening
and one on the newest, and corrects their first deal in turns. Budget:
``correction_old_ms <= 2 * correction_recent_ms``.
"""

from __future__ import annotations

import cProfile
import datetime
import os
import pstats
import random
import statistics
import sys
import time
import warnings
from decimal import Decimal
from pathlib import Path

from psycopg import sql
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/pulka_bench"
DATABASE_URL = os.environ.get("DATABASE_URL") or DEFAULT_URL
os.environ["DATABASE_URL"] = DATABASE_URL
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["DEBUG"] = "false"
# With DEBUG off the settings refuse to start without a key; any key will do here.
os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.common import drop_database, recreate_database, timed_gets  # noqa: E402
from club.models import Club, Membership, Player, Role  # noqa: E402
from competition.league import selectors  # noqa: E402
from competition.lib import standings  # noqa: E402
from competition.models import League, RatingSnapshot  # noqa: E402
from competition.rating import ratings  # noqa: E402
from scoring import services  # noqa: E402
from scoring.models import Deal, Evening  # noqa: E402

PLAYERS = 1_000
PULKAS = 50_000
EVENINGS = 2_000
SMALL_PLAYERS = 10
SMALL_PULKAS = 300
COLD_REPEAT = 5
FIRST_EVENING = datetime.date(2019, 1, 1)


def copy_rows(table: str, columns: tuple[str, ...], rows) -> None:
    """COPY rows into a table: the fast bulk path (bulk_create would take minutes)."""
    raw = connection.connection
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    with raw.cursor() as cursor, cursor.copy(statement) as copy:
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
    """1 for the best; equal results share the place (and the next one is skipped)."""
    return [1 + sum(other > r for other in results) for r in results]


class Ids:
    def __init__(self) -> None:
        self.next: dict[str, int] = {}

    def take(self, table: str) -> int:
        value = self.next.get(table, 0) + 1
        self.next[table] = value
        return value


def generate(
    club: Club, players: list[int], *, pulkas: int, evenings: int, seed: int, ids: Ids
) -> tuple[int, int]:
    """Evenings, finished pulkas, seats and both result caches of `club`, through COPY.

    Results are whole whists (a normal spread, sd 90), zero-sum at each table; returns the
    numbers of result and pair rows."""
    rng = random.Random(seed)
    now = timezone.now()
    rules = {**club.default_rules(), "pool_target": 20}
    evening_rows, pulka_rows, seats, results, pairs = [], [], [], [], []
    per_evening = max(1, pulkas // evenings)
    made = 0
    for evening in range(evenings):
        if made >= pulkas:
            break
        evening_id = ids.take("club_session")
        date = FIRST_EVENING + datetime.timedelta(days=evening)
        evening_rows.append((evening_id, club.pk, date, "Bench room", "", now, True, False))
        tables = min(per_evening, pulkas - made)
        if evening == evenings - 1:
            tables = pulkas - made
        chairs = [rng.choice((3, 4)) for _ in range(tables)]
        # Nobody sits at two tables of one evening, while the roster is big enough.
        seated = rng.sample(players, min(len(players), sum(chairs)))
        for table, n in enumerate(chairs, start=1):
            if len(seated) < n:
                seated = rng.sample(players, n)
            at_table, seated = seated[:n], seated[n:]
            pulka_id = ids.take("scoring_pulka")
            pulka_rows.append((pulka_id, evening_id, table, rules, 0, "finished", 1, now, now))
            scores = [round(rng.gauss(0, 90)) for _ in range(n - 1)]
            scores.append(-sum(scores))
            ranks = places(scores)
            for position, (player, score, place) in enumerate(
                zip(at_table, scores, ranks, strict=True)
            ):
                seats.append((ids.take("scoring_seat"), pulka_id, position, player))
                results.append(
                    (
                        ids.take("scoring_pulkaresultcache"),
                        pulka_id,
                        player,
                        club.pk,
                        date,
                        position,
                        n,
                        str(score),
                        score,
                        place,
                        True,
                        now,
                        True,
                    )
                )
                for j, opponent in enumerate(at_table):
                    if opponent != player:
                        net = (Decimal(score - scores[j]) / n).quantize(Decimal("0.0001"))
                        pairs.append(
                            (
                                ids.take("scoring_pairresultcache"),
                                pulka_id,
                                player,
                                opponent,
                                club.pk,
                                date,
                                net,
                                True,
                            )
                        )
            made += 1
    copy_rows(
        "club_session",
        ("id", "club_id", "date", "venue", "notes", "created_at", "counted", "self_entry"),
        evening_rows,
    )
    copy_rows(
        "scoring_pulka",
        (
            "id",
            "session_id",
            "table",
            "rules",
            "first_dealer",
            "status",
            "version",
            "created_at",
            "finished_at",
        ),
        ((*row[:3], Jsonb(row[3]), *row[4:]) for row in pulka_rows),
    )
    copy_rows("scoring_seat", ("id", "pulka_id", "position", "player_id"), seats)
    copy_rows(
        "scoring_pulkaresultcache",
        (
            "id",
            "pulka_id",
            "player_id",
            "club_id",
            "date",
            "position",
            "players",
            "result",
            "result_rounded",
            "place",
            "closed",
            "computed_at",
            "counted",
        ),
        results,
    )
    copy_rows(
        "scoring_pairresultcache",
        ("id", "pulka_id", "player_id", "opponent_id", "club_id", "date", "net", "counted"),
        pairs,
    )
    return len(results), len(pairs)


def make_club(slug: str, size: int, ids: Ids) -> tuple[Club, list[int]]:
    club = Club.objects.create(name=f"Bench {slug}", slug=slug, is_public=False)
    Player.objects.bulk_create(Player(club=club, name=f"Гравець {i:04d}") for i in range(size))
    return club, list(Player.objects.filter(club=club).values_list("pk", flat=True))


def count_queries(client: Client, url: str) -> tuple[int, int]:
    """The queries of a first GET (the ranking computed) and of the next (kept in cache)."""
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, secure=True)
        assert response.status_code == 200, response.status_code
        counts.append(len(captured))
    return counts[0], counts[1]


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
    if settings.DEBUG:
        sys.exit("DEBUG must be off for the benchmark")
    try:
        call_command("migrate", verbosity=0)
        within = run(started)
    finally:
        if "--keep" not in sys.argv:
            drop_database(DATABASE_URL)
    if not within:
        sys.exit("over budget")


CORRECTIONS = 20
BUDGET_RATIO = 5.0
QUEUED = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def six(declarer: str, whister: str, passer: str, tricks: int) -> dict:
    """A six in spades (pulka/1 deal object): the whister takes 3 tricks, the passer the rest."""
    return {
        "kind": "game",
        "declarer": declarer,
        "contract": "6S",
        "calls": {whister: "whist", passer: "pass"},
        "tricks": {declarer: tricks, whister: 3, passer: 10 - tricks - 3},
    }


def corrections_ms(club: Club, player_ids: list[int], first: datetime.date, last: datetime.date):
    """Median ms of correcting a deal of a pulka on the oldest and on the newest evening."""
    players = list(Player.objects.filter(pk__in=player_ids[:3]).order_by("pk"))
    a, b, c = (p.name for p in players)
    pulkas = {}
    with override_settings(TASKS=QUEUED):
        for key, date in (("old", first), ("recent", last)):
            evening = Evening.objects.create(club=club, date=date, venue="Bench")
            pulka = services.pulka_create(
                evening=evening,
                players=players,
                first_dealer=players[0],
                rules={"pool_target": club.pool_target},
                created_by=None,
            )
            for _ in range(3):
                services.deal_record(pulka=pulka, data=six(a, b, c, 6), entered_by=None)
            services.pulka_finish(pulka=pulka, finished_by=None)
            pulkas[key] = pulka
        times: dict[str, list[float]] = {"old": [], "recent": []}
        for i in range(CORRECTIONS):
            for key, pulka in pulkas.items():
                deal = Deal.objects.get(pulka=pulka, number=1)
                data = six(a, b, c, 5 if i % 2 == 0 else 6)  # set, then made: results move
                t0 = time.perf_counter()
                services.deal_update(
                    pulka=pulka, number=1, data=data, expected_version=deal.version, changed_by=None
                )
                times[key].append(time.perf_counter() - t0)
    return statistics.median(times["recent"]) * 1e3, statistics.median(times["old"]) * 1e3


def run(started: float) -> bool:
    ids = Ids()
    big, big_players = make_club("big", PLAYERS, ids)
    small, small_players = make_club("small", SMALL_PLAYERS, ids)
    t0 = time.perf_counter()
    result_rows, pair_rows = generate(
        big, big_players, pulkas=PULKAS, evenings=EVENINGS, seed=1, ids=ids
    )
    generate(small, small_players, pulkas=SMALL_PULKAS, evenings=100, seed=2, ids=ids)
    reset_sequences(
        "club_session",
        "scoring_pulka",
        "scoring_seat",
        "scoring_pulkaresultcache",
        "scoring_pairresultcache",
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"generated {PULKAS:,} pulkas of {PLAYERS:,} players: {result_rows:,} result rows, "
        f"{pair_rows:,} pair rows in {time.perf_counter() - t0:.1f} s"
    )

    t0 = time.perf_counter()
    ratings.ratings_update(club=big)
    rebuild_s = time.perf_counter() - t0
    snapshots = RatingSnapshot.objects.filter(club=big).count()
    print(
        f"ratings_update(club=big), the full rebuild: {snapshots:,} snapshots in {rebuild_s:.2f} s"
    )
    if not snapshots:
        print("ratings_update() wrote no snapshot: is it still a placeholder?")
    ratings.ratings_update(club=small)

    last = FIRST_EVENING + datetime.timedelta(days=EVENINGS - 1)
    # The all-time table, the worst case: every pulka counts. The average of 3 pulkas or more,
    # capped at 200 whists a pulka.
    season = {"start": FIRST_EVENING, "end": last, "rule": "average", "cap": 200, "min_pulkas": 3}
    league = League.objects.create(club=big, name="All time", **season)
    small_league = League.objects.create(club=small, name="All time", **season)
    user = get_user_model().objects.create_user(username="reader")
    Membership.objects.create(club=big, user=user, role=Role.PLAYER)
    Membership.objects.create(club=small, user=user, role=Role.PLAYER)
    client = Client(SERVER_NAME="localhost")
    client.force_login(user)

    url = league.get_absolute_url()
    cold_small, queries_small = count_queries(client, small_league.get_absolute_url())
    cold_large, queries_large = count_queries(client, url)
    print(f"queries of a first GET (ranking computed): {cold_small} and {cold_large}")
    ranking = selectors.league_ranking(selectors.league_for_club(big, league.pk))
    assert len(ranking.ranked) + len(ranking.unranked) == PLAYERS, "every player is listed"

    cold = []
    for _ in range(COLD_REPEAT):
        cache.clear()
        t0 = time.perf_counter()
        client.get(url, secure=True)
        cold.append(time.perf_counter() - t0)
    print(
        f"first GET after a change (all {PULKAS:,} pulkas aggregated): "
        f"{statistics.median(cold) * 1e3:.0f} ms median (not budgeted)"
    )
    league_times, bare_times = timed_gets(
        client, (url, b'id="ranking"'), ("/bench-bare/", b'id="bare"')
    )
    # The page's HTML cache on its own: the same page with the fragment cache switched off
    # (the {% cache %} tag uses the "template_fragments" cache when there is one).
    no_fragments = {
        "default": settings.CACHES["default"],
        "template_fragments": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    }
    with override_settings(CACHES=no_fragments):
        (unfragmented,) = timed_gets(client, (url, b'id="ranking"'))
    with_html, without_html = statistics.median(league_times), statistics.median(unfragmented)
    print(
        f"without the HTML cache: {without_html * 1e3:.2f} ms median; the HTML cache saves "
        f"{(1 - with_html / without_html) * 100:.0f}% (not budgeted)"
    )
    # Adding up in Python instead of SQL: every row of the league through standings.tally().
    rule = selectors.league_rule(league)
    rows = selectors.league_results(league)
    for label, add_up in (
        ("SQL (results_tallied)", lambda: selectors.results_tallied(rows, rule)),
        ("Python (standings.tally)", lambda: standings.tally(selectors.result_rows(rows), rule)),
    ):
        t0 = time.perf_counter()
        add_up()
        print(
            f"adding up {result_rows:,} rows in {label}: "
            f"{(time.perf_counter() - t0) * 1e3:.0f} ms (not budgeted)"
        )
    for rule, extra in (("sum", {}), ("best", {"best_count": 20})):
        other = League.objects.create(club=big, name=rule, **{**season, "rule": rule, **extra})
        (times,) = timed_gets(client, (other.get_absolute_url(), b'id="ranking"'))
        print(f"rule {rule}: {statistics.median(times) * 1e3:.2f} ms median (not budgeted)")
    (sorted_times,) = timed_gets(client, (url + "?sort=-average&page=3", b'id="ranking"'))
    print(f"sorted by average, page 3: {statistics.median(sorted_times) * 1e3:.2f} ms median")
    export_url = reverse("competition:league-export", args=[big.slug, league.pk, "csv"])
    t0 = time.perf_counter()
    export = client.get(export_url, secure=True)
    assert export.status_code == 200
    assert export.content.decode().count("\n") == PLAYERS + 1  # the header and every player
    print(f"CSV export of {PLAYERS:,} players: {(time.perf_counter() - t0) * 1e3:.0f} ms")
    if "--profile" in sys.argv:
        with CaptureQueriesContext(connection) as captured:
            client.get(url, secure=True)
        for query in captured.captured_queries:
            print(f"{float(query['time']) * 1e3:8.2f} ms  {query['sql'][:300]}")
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(50):
            client.get(url, secure=True)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    recent_ms, old_ms = corrections_ms(big, big_players, FIRST_EVENING, last)
    print(f"total run: {time.perf_counter() - started:.0f} s")

    league_ms = statistics.median(league_times) * 1e3
    bare_ms = statistics.median(bare_times) * 1e3
    print(f"league_ms_median: {league_ms:.2f}")
    print(f"bare_view_ms_median: {bare_ms:.2f}")
    print(f"ratio: {league_ms / bare_ms:.2f}")
    print(f"queries_small: {queries_small}")
    print(f"queries_large: {queries_large}")
    print(f"rebuild_ratings_s: {rebuild_s:.2f}")
    print(f"correction_recent_ms: {recent_ms:.2f}")
    print(f"correction_old_ms: {old_ms:.2f}")
    print(f"budget: ratio <= {BUDGET_RATIO:g}, queries_small == queries_large")
    return league_ms / bare_ms <= BUDGET_RATIO and queries_small == queries_large


if __name__ == "__main__":
    main()
