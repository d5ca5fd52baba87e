"""Benchmark of deal entry: recording a deal through the htmx endpoint (scoring:deal-create).

Run from the repository root:  python bench/entry.py [--profile]

On a fresh in-memory SQLite database, with DEBUG off, a secretary records 60 realistic deals
(competition.demo's generator, checked by the engine first) at one 4-player table through Django's
test client, as htmx does: POST with ``HX-Request: true``, answered by the deal-created
fragment. Every POST is timed and its queries counted. For scale, a bare Django view that
renders a small template is timed through the same client, middleware and login.

Then the same deals at a third table through its table link (scoring.table_views), as its
players do it with no account: seat 1's phone enters each deal (scoring:table-deal-create),
seat 2's phone confirms it (scoring:table-confirm); each POST is timed apart.

Budget: ``ratio`` (entry median / bare view median) <= 10, ``queries_first ==
queries_last`` (the queries of a POST do not grow with the deals already entered), and
the table entry and its confirmation each within 10 bare views too (``table_entry_ratio``,
``table_confirm_ratio``).
``--profile`` also records 60 more deals at a second table under cProfile and prints the top
functions by cumulative time. The last lines are::

    entry_ms_median: X
    bare_view_ms_median: Y
    ratio: Z
    queries_first: N
    queries_last: M
    table_entry_ms_median: A
    table_confirm_ms_median: B
    table_entry_ratio: C
    table_confirm_ratio: D
"""

from __future__ import annotations

import cProfile
import os
import pstats
import random
import statistics
import sys
import time
import warnings
from contextlib import nullcontext
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["DATABASE_URL"] = "sqlite://:memory:"
os.environ["DEBUG"] = "false"
# With DEBUG off the settings refuse to start without a key; any key will do here.
os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
# WhiteNoise warns that STATIC_ROOT does not exist: collectstatic is not part of the bench.
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from bench.entryform import form_data  # noqa: E402
from club.models import Club, Membership, Player, Role  # noqa: E402
from competition.demo import next_valid_deal  # noqa: E402
from scoring import engine, selectors, services, table_views  # noqa: E402
from scoring.models import (  # noqa: E402
    Deal,
    Evening,  # noqa: E402
    Pulka,
)

DEALS = 60
BARE_WARMUP = 50
BARE_REPEAT = 300
FORM = "application/x-www-form-urlencoded"
HTMX = {"HX-Request": "true"}
NAMES = ["Олена", "Андрій", "Тарас", "Оксана"]

# A page of the logged-in site at its smallest: it greets the user (so the session and the
# user are loaded, as on every club page) and lists four rows.
BARE_PAGE = (
    '<section id="bare"><h2>{{ title }}{% if user %}, {{ user.get_username }}{% endif %}</h2>'
    "<ul>{% for name, score in rows %}<li>{{ name }}: {{ score }}</li>{% endfor %}</ul></section>"
)
BARE_TEMPLATE = engines["django"].from_string(BARE_PAGE)


def bare_view(request: HttpRequest, *, with_user: bool = True) -> HttpResponse:
    rows = [(name, i * 4) for i, name in enumerate(NAMES)]
    context = {"title": "Bare", "rows": rows}
    if not with_user:
        # No request, so no context processors: the user is never loaded.
        return HttpResponse(BARE_TEMPLATE.render(context))
    return HttpResponse(BARE_TEMPLATE.render(context, request))


urlpatterns = [
    path("bench-bare/", bare_view),
    # The floor of the client, the middleware and a template, without the user.
    path("bench-bare-no-user/", bare_view, {"with_user": False}),
    path("", include("config.urls")),
]


def ms(seconds: float) -> float:
    return seconds * 1e3


def setup() -> tuple[Client, Evening, list[Player]]:
    user = get_user_model().objects.create_user(username="secretary")
    club = Club.objects.create(name="Сочинка", slug="sochi", city="Київ")
    Membership.objects.create(club=club, user=user, role=Role.SECRETARY)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    evening = Evening.objects.create(club=club, venue="Bench room", created_by=user)
    # SERVER_NAME: the client's default "testserver" is not in ALLOWED_HOSTS outside tests.
    client = Client(SERVER_NAME="localhost")
    client.force_login(user)
    return client, evening, players


def new_pulka(evening: Evening, players: list[Player]) -> Pulka:
    return services.pulka_create(
        evening=evening,
        players=players,
        first_dealer=players[0],
        rules={**evening.club.default_rules(), "pool_target": 200},
        created_by=None,
    )


def post_deals(
    client: Client, pulka: Pulka, seed: int, profile: cProfile.Profile | None = None
) -> tuple[list[float], list[int]]:
    """Record DEALS deals at `pulka` through the htmx endpoint; the times and query counts."""
    names = pulka.names
    rules = pulka.engine_rules()
    first_dealer = names[pulka.first_dealer]
    url = reverse("scoring:deal-create", args=[pulka.evening.club.slug, pulka.pk])
    rng = random.Random(seed)
    generated: list[dict] = []
    deals: list[engine.Deal] = []
    times, queries = [], []
    # Warm up the templates and the URL resolver; not timed.
    page = client.get(pulka.get_absolute_url(), secure=True)
    assert page.status_code == 200, page.status_code
    for number in range(1, DEALS + 1):
        data, _ = next_valid_deal(rng, rules, names, first_dealer, deals)
        rotation = names.index(selectors.pulka_sheet(pulka).next_dealer)
        post = form_data(data, names, rotation, number)
        # htmx posts the form urlencoded, as a browser does (not multipart). Queries are
        # counted for every deal, and the count is printed, but the timed posts run without
        # the query log so that its bookkeeping does not weigh on the deal-heavy side.
        body = urlencode(post)
        counting = number in (1, DEALS)
        with CaptureQueriesContext(connection) if counting else nullcontext() as captured:
            if profile is not None:
                profile.enable()
            t0 = time.perf_counter()
            response = client.post(url, body, content_type=FORM, headers=HTMX, secure=True)
            elapsed = time.perf_counter() - t0
            if profile is not None:
                profile.disable()
        html = response.content.decode()
        if response.status_code != 200 or 'id="board"' not in html:
            sys.exit(
                f"deal {number}: status {response.status_code}, no board in the answer\n"
                f"deal: {data}\nPOST: {post}\n{html[:3000]}"
            )
        times.append(elapsed)
        if counting:
            queries.append(len(captured))
        generated.append(data)
        deals.append(engine.deal_from_dict(data, number))
    # Every deal is stored with its dealer (the rotation's, as the form left it).
    stored = [
        {k: v for k, v in d.to_pulka_dict(names).items() if k != "dealer"}
        for d in Deal.objects.filter(pulka=pulka).order_by("number")
    ]
    if stored != generated:
        sys.exit("the stored deals differ from the deals posted")
    return times, queries


def table_deals(pulka: Pulka, seed: int) -> tuple[list[float], list[float]]:
    """Record DEALS deals at `pulka` through its table link: seat 1's phone enters each, seat
    2's confirms it (two clients without accounts); the times of both POSTs."""
    # The link's rate limit is for a table of four people: the bench posts far faster.
    table_views.ATTEMPTS = 10 * DEALS
    token = services.table_link_open(pulka=pulka)
    names = pulka.names
    rules = pulka.engine_rules()
    first_dealer = names[pulka.first_dealer]
    enter, check = Client(SERVER_NAME="localhost"), Client(SERVER_NAME="localhost")
    for phone, seat in ((enter, "1"), (check, "2")):
        phone.post(reverse("scoring:table-seat", args=[token]), {"seat": seat}, secure=True)
        page = phone.get(reverse("scoring:table", args=[token]), secure=True)
        if page.status_code != 200 or b'id="deal-form"' not in page.content:
            sys.exit(f"table page for seat {seat}: status {page.status_code}")
    create = reverse("scoring:table-deal-create", args=[token])
    rng = random.Random(seed)
    deals: list[engine.Deal] = []
    entries, confirmations = [], []
    for number in range(1, DEALS + 1):
        data, _ = next_valid_deal(rng, rules, names, first_dealer, deals)
        rotation = names.index(selectors.pulka_sheet(pulka).next_dealer)
        body = urlencode(form_data(data, names, rotation, number))
        t0 = time.perf_counter()
        response = enter.post(create, body, content_type=FORM, headers=HTMX, secure=True)
        entries.append(time.perf_counter() - t0)
        if response.status_code != 200 or 'id="board"' not in response.content.decode():
            sys.exit(
                f"table deal {number}: status {response.status_code}\n{response.content[:2000]!r}"
            )
        confirm = reverse("scoring:table-confirm", args=[token, number])
        t0 = time.perf_counter()
        response = check.post(
            confirm, urlencode({"version": "1"}), content_type=FORM, headers=HTMX, secure=True
        )
        confirmations.append(time.perf_counter() - t0)
        if b"confirmed by" not in response.content:
            sys.exit(f"table deal {number} not confirmed\n{response.content[:2000]!r}")
        deals.append(engine.deal_from_dict(data, number))
    confirmed = Deal.objects.filter(pulka=pulka, confirmation="confirmed").count()
    if confirmed != DEALS:
        sys.exit(f"{confirmed} of {DEALS} table deals confirmed")
    return entries, confirmations


# Where a POST spends its time: (label, file suffix, function), cumulative per POST.
BREAKDOWN = (
    ("the whole view (deal_create)", "scoring/views.py", "deal_create"),
    ("  tenant gate (club, role, pulka)", "scoring/access.py", "get_pulka_for_user"),
    ("  names at the table (seats)", "scoring/models.py", "names"),
    ("  deals read (pulka_deals)", "scoring/selectors.py", "pulka_deals"),
    ("  sheet replay in the view (pulka_sheet)", "scoring/selectors.py", "pulka_sheet"),
    ("  DealForm built (__init__ + shape)", "scoring/forms.py", "__init__"),
    ("  DealForm validated (full_clean)", "django/forms/forms.py", "full_clean"),
    ("  service deal_record (lock, replay, 4 writes)", "scoring/services.py", "deal_record"),
    ("  answer rendered (_deal_created)", "scoring/views.py", "_deal_created"),
    ("    of which form widgets (as_widget)", "django/forms/boundfield.py", "as_widget"),
    ("    of which deal-item filters (entry_text)", "scoring/templatetags/pulka.py", "entry_text"),
    ("engine compute_sheet, all calls", "scoring/engine/compute.py", "compute_sheet"),
    ("Deal.to_engine, all calls", "scoring/models.py", "to_engine"),
    ("ORM execute_sql, all queries", "django/db/models/sql/compiler.py", "execute_sql"),
    ("  of which SQLite execute", "django/db/backends/sqlite3/base.py", "execute"),
    ("session load (middleware)", "django/contrib/sessions/backends/db.py", "load"),
)


def print_breakdown(stats: pstats.Stats, posts: int) -> None:
    by_name: dict[tuple[str, str], list[float]] = {}
    for (filename, _, function), (_, ncalls, _, cumulative, _) in stats.stats.items():
        for label, suffix, name in BREAKDOWN:
            if function == name and filename.replace(os.sep, "/").endswith(suffix):
                # Recursive calls are counted once by pstats' cumulative time already.
                entry = by_name.setdefault((label, suffix), [0.0, 0])
                entry[0] += cumulative
                entry[1] += ncalls
    total = by_name.get(BREAKDOWN[0][:2], [0.0])[0] or 1.0
    print("\nwhere a POST spends its time (under cProfile, per POST, % of the view):")
    for label, suffix, _ in BREAKDOWN:
        cumulative, ncalls = by_name.get((label, suffix), (0.0, 0))
        print(
            f"  {label:<48} {ms(cumulative / posts):7.3f} ms {100 * cumulative / total:5.1f}%"
            f"  ({ncalls / posts:.1f} calls)"
        )


def time_bare_view(client: Client, url: str) -> tuple[list[float], list[int]]:
    for _ in range(BARE_WARMUP):
        client.get(url, secure=True)
    times, queries = [], []
    for repeat in range(BARE_REPEAT):
        counting = repeat == 0
        with CaptureQueriesContext(connection) if counting else nullcontext() as captured:
            t0 = time.perf_counter()
            response = client.get(url, secure=True)
            elapsed = time.perf_counter() - t0
        if response.status_code != 200 or b'id="bare"' not in response.content:
            sys.exit(f"bare view: status {response.status_code}\n{response.content[:2000]!r}")
        times.append(elapsed)
        if counting:
            queries.append(len(captured))
    return times, queries


def main(argv: list[str]) -> None:
    profiling = "--profile" in argv
    # This module is the URLconf (the bare view plus the site). The static files are served
    # from the source tree, as `collectstatic` has not been run for a manifest.
    override_settings(
        ROOT_URLCONF=__name__,
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ).enable()
    if settings.DEBUG:
        sys.exit("DEBUG must be off for the benchmark")
    call_command("migrate", verbosity=0)
    client, evening, players = setup()

    pulka = new_pulka(evening, players)
    times, queries = post_deals(client, pulka, seed=20240601)
    bare_times, bare_queries = time_bare_view(client, "/bench-bare/")
    floor_times, floor_queries = time_bare_view(client, "/bench-bare-no-user/")

    table_times, confirm_times = table_deals(new_pulka(evening, players), seed=20240602)

    entry = ms(statistics.median(times))
    bare = ms(statistics.median(bare_times))
    table_entry = ms(statistics.median(table_times))
    table_confirm = ms(statistics.median(confirm_times))
    tenth = DEALS // 10
    print(f"{DEALS} deals posted through the htmx endpoint, 4 players, SQLite in memory, DEBUG off")
    print(
        f"  POST ms: median {entry:.3f}, min {ms(min(times)):.3f}, max {ms(max(times)):.3f}; "
        f"first {tenth} deals median {ms(statistics.median(times[:tenth])):.3f}, "
        f"last {tenth} median {ms(statistics.median(times[-tenth:])):.3f}"
    )
    print(f"  queries per POST: {queries[0]} first, {queries[-1]} last, {sorted(set(queries))}")
    print(
        f"bare view ({BARE_REPEAT} GETs): median {bare:.3f} ms, min {ms(min(bare_times)):.3f}, "
        f"{bare_queries[0]} queries (session, user)"
    )
    print(
        f"  without the user: median {ms(statistics.median(floor_times)):.3f} ms, "
        f"{floor_queries[0]} queries"
    )

    print(
        f"table link ({DEALS} deals, no account): entry median {table_entry:.3f} ms, "
        f"confirmation median {table_confirm:.3f} ms"
    )

    if profiling:
        profile = cProfile.Profile()
        post_deals(client, new_pulka(evening, players), seed=7, profile=profile)
        print(f"\nprofile of {DEALS} more POSTs at a second table, by cumulative time:")
        stats = pstats.Stats(profile, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(15)
        print_breakdown(stats, DEALS)
        print()

    ratio = entry / bare
    table_ratio, confirm_ratio = table_entry / bare, table_confirm / bare
    ok = ratio <= 10 and queries[0] == queries[-1] and max(table_ratio, confirm_ratio) <= 10
    print(
        "budget (ratio <= 10, queries_first == queries_last, table entry and confirmation "
        f"ratios <= 10): {'met' if ok else 'NOT met'}"
    )
    print(f"entry_ms_median: {entry:.3f}")
    print(f"bare_view_ms_median: {bare:.3f}")
    print(f"ratio: {ratio:.2f}")
    print(f"queries_first: {queries[0]}")
    print(f"queries_last: {queries[-1]}")
    print(f"table_entry_ms_median: {table_entry:.3f}")
    print(f"table_confirm_ms_median: {table_confirm:.3f}")
    print(f"table_entry_ratio: {table_ratio:.2f}")
    print(f"table_confirm_ratio: {confirm_ratio:.2f}")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
