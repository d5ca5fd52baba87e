"""Load benchmark: two app servers, one PostgreSQL database, secretaries and spectators at once.

Run from the repository root:
    python bench/load.py [--profile club-night|stress] [--seconds N] [--database h_e_load] [--keep]

Two profiles: *club night* (the default: 20 tables, a deal every 30 s at each, 200
spectators, 150 s) and *stress* (20 tables, a deal every second at each, 200 spectators,
60 s).

1. Creates a scratch database (dropped first if it exists) on the PostgreSQL server of
   ``TEST_DATABASE_URL`` (else 127.0.0.1:5432, user postgres), migrates it and fills it through
   the services: a public club, an evening with 20 running tables (3 or 4 players each), a
   secretary account per table, a league, and collects the static files.
2. Starts two gunicorn servers on free ports of 127.0.0.1 (2 workers each, gthread), DEBUG
   off, HTTPS redirects off; they stand for two machines behind a load balancer and share
   nothing but the database.
3. Runs locust (bench/load_users.py) for ``--seconds``: 20 secretaries each record a deal
   every profile's interval at their table (an entry counts as recorded only when its answer
   shows that deal as posted, with no notice or error; one in twenty is posted again with
   the same form and must record nothing), 200 anonymous spectators poll the live boards
   (and one in ten the evening's tables) as htmx does, and a 204 while their board misses a
   deal answered more than the cache window earlier is an error; each user's requests take
   turns between the two servers.
4. After the run, a secretary ends every other table through the servers, then it checks:
   every answered entry is exactly one stored deal (numbers 1..n per pulka, one revision
   each, the deal as posted); every pulka's replay by the engine succeeds and equals
   scoring.selectors.pulka_sheet, the result cache of a finished one, the board both
   servers show on the page and in a changed live poll (each server's cached render); the
   league's ranking reads the same on both servers.
5. Measures in-process, with Django's test client, the queries of an unchanged poll by a
   logged-in spectator (session and user included).

The servers are stopped (terminated, then killed after 10 s) and the scratch database is
dropped (unless ``--keep``) whatever happens, Ctrl-C included. It talks only to the two
servers it started. Budget: every planned entry recorded (each secretary's slots that
began more than 5 s before the end), entry p99 <= 1 s on club night, errors 0,
lost_or_duplicated 0 (an unchanged poll's queries are printed, not budgeted). It exits 1 when
the budget is missed. The last lines are::

    planned: N
    entries: N
    retries: N
    errors: N
    lost_or_duplicated: N
    entry_p50_ms: X
    entry_p99_ms: X
    poll_p99_ms: X
    poll_queries_unchanged: N

``errors`` counts the failed or refused requests that nothing explains (a deal refused because
an earlier request of the same secretary was stored after all is explained) and every check
that failed; ``lost_or_duplicated`` counts the answered entries not stored exactly as posted
and the stored deals nobody posted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from collections import Counter
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TABLES = 20
SECRETARIES = TABLES
SPECTATORS = 200
PROFILES = {
    "club-night": {"deal_seconds": 30.0, "seconds": 150, "entry_p99_ms": 1000.0},
    "stress": {"deal_seconds": 1.0, "seconds": 60, "entry_p99_ms": None},
}
# An entry slot that began this close to the end may still be waiting for its answer.
GRACE_SECONDS = 5
DEFAULT_DATABASE = "h_e_load"
# So that no table closes its last pool during the run (about 60 deals): the tables are
# ended by hand afterwards, which fills the result caches and the league.
POOL_TARGET = 500
# keep-alive: longer than a client stays idle between two requests to one server (the
# users alternate), as behind a load balancer; with gunicorn's 2 s a POST can meet a
# connection the server is closing at that moment, and a POST is not retried.
SERVER_ARGS = ["--workers", "2", "--worker-class", "gthread", "--threads", "4"]
SERVER_ARGS += ["--keep-alive", "75"]
STOP_SECONDS = 10


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="club-night")
    parser.add_argument("--seconds", type=int, help="how long the load runs (the profile's)")
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="the scratch database")
    parser.add_argument("--spectators", type=int, default=SPECTATORS)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", args.database):
        parser.error("--database: lower-case letters, digits and underscores only")
    if args.seconds is None:
        args.seconds = PROFILES[args.profile]["seconds"]
    if not 10 <= args.seconds <= 3600:
        parser.error("--seconds: 10 to 3600")
    return args


def server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"


def with_database(url: str, name: str) -> str:
    return urllib.parse.urlsplit(url)._replace(path=f"/{name}").geturl()


def recreate(name: str, *, create: bool) -> None:
    """Drop the scratch database (and create it afresh), on the server's maintenance database."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(server_url(), autocommit=True, connect_timeout=5) as admin:
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
        admin.execute(drop.format(sql.Identifier(name)))
        if create:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


# --- the scratch database, filled through the services -------------------------------------


def configure(database_url: str) -> dict[str, str]:
    """The environment of the servers (and of this process): production settings, on plain
    HTTP on 127.0.0.1 only."""
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "ERROR",
    }
    os.environ.update(env)
    return {**os.environ, **env}


def fill(spectators: int, tables: int = TABLES, prefill: int = 0) -> dict:
    """The club, its evening, `tables` tables (each with `prefill` deals already recorded
    through the services), their secretaries and a league; returns what the users need."""
    import random

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from club import services as club_services
    from club.models import Role
    from competition.demo import next_valid_deal
    from competition.league import services as competition_services
    from competition.models import CountingRule
    from scoring import engine, services

    User = get_user_model()
    owner = User.objects.create_user(username="owner", email="owner@example.org")
    club = club_services.club_create(
        name="Load club", slug="load", city="Kyiv", is_public=True, owner=owner
    )
    evening = services.evening_create(
        club=club, date=timezone.localdate(), venue="Load hall", notes="", created_by=owner
    )
    number = 0
    count, tables = tables, []
    for index in range(count):
        size = 3 if index % 2 else 4
        players = []
        for _ in range(size):
            number += 1
            players.append(club_services.player_add(club=club, name=f"Player {number:03d}"))
        secretary = User.objects.create_user(username=f"secretary{index + 1:02d}")
        club_services.member_add(club=club, user=secretary, role=Role.SECRETARY)
        pulka = services.pulka_create(
            evening=evening,
            players=players,
            first_dealer=players[index % size],
            rules={**club.default_rules(), "pool_target": POOL_TARGET},
            created_by=secretary,
        )
        rng, deals, recorded = random.Random(f"fill/{index}"), [], []
        for _ in range(prefill):
            rules, dealer = pulka.engine_rules(), pulka.names[pulka.first_dealer]
            data, _ = next_valid_deal(rng, rules, pulka.names, dealer, deals)
            services.deal_record(pulka=pulka, data=data, entered_by=secretary)
            deals.append(engine.deal_from_dict(data, len(deals) + 1))
            recorded.append(data)
        # One session per secretary, as one browser behind a load balancer has: both servers
        # read it from the database. Made as the test client's force_login makes it, so
        # that no password hashing weighs on the servers before the run.
        client = Client()
        client.force_login(secretary)
        tables.append(
            {
                "id": pulka.pk,
                "url": pulka.get_absolute_url(),
                "names": pulka.names,
                "first_dealer": pulka.names[pulka.first_dealer],
                "rules": pulka.rules,
                "secretary": secretary.username,
                "session": client.cookies["sessionid"].value,
                "deals": recorded,
            }
        )
    today = timezone.localdate()
    board = competition_services.league_create(
        club=club,
        name="Load season",
        start=today - datetime.timedelta(days=30),
        end=today + datetime.timedelta(days=30),
        rule=CountingRule.SUM,
        best_count=None,
        cap=None,
        min_pulkas=1,
    )
    return {
        "club": club.slug,
        "evening_url": evening.get_absolute_url(),
        "league_url": board.get_absolute_url(),
        "tables": tables,
        "secretaries": count,
        "spectators": spectators,
    }


# --- the two servers -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    env: dict[str, str], port: int, log: Path, access_log: Path | None = None
) -> subprocess.Popen:
    """gunicorn on 127.0.0.1:`port`; with `access_log`, a line per request (status method
    path), which the spectators bench counts as the requests that reached the app."""
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", *SERVER_ARGS]
    command += ["--bind", f"127.0.0.1:{port}", "--timeout", "30", "--graceful-timeout", "5"]
    command += ["--log-level", "warning", "--error-logfile", str(log)]
    if access_log is not None:
        command += ["--access-logfile", str(access_log), "--access-logformat", "%(s)s %(m)s %(U)s"]
    # Its own session, so that Ctrl-C reaches only this script, which stops it in order.
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def wait_ready(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server {url} stopped:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    sys.exit(f"the server {url} did not answer within 30 s:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen) -> None:
    """Terminate what this script started (gunicorn finishes its requests), kill it if not."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        # The process group is the one start_new_session made for this child: its workers.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(STOP_SECONDS)


# --- after the run: through the servers ------------------------------------------------------


class Browser:
    """One person's browser: a cookie jar (one site, whichever server answers)."""

    def __init__(self, session: str | None = None) -> None:
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.session = session

    def request(self, url: str, data: dict | None = None, htmx: bool = False) -> tuple[int, str]:
        headers = {"HX-Request": "true"} if htmx else {}
        if self.session:
            headers["Cookie"] = f"sessionid={self.session}" + "".join(
                f"; {c.name}={c.value}" for c in self.jar
            )
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def end_tables(config: dict, servers: list[str], problems: list[str]) -> None:
    """A secretary ends every other table, on alternating servers (the rest keep running)."""
    for index, table in enumerate(config["tables"]):
        if index % 2:
            continue
        server = servers[index // 2 % 2]
        browser = Browser(table["session"])
        status, page = browser.request(f"{server}{table['url']}")
        token = CSRF.search(page)
        if status != 200 or token is None:
            problems.append(f"pulka {table['id']}: the page answered {status} to its secretary")
            continue
        status, html = browser.request(
            f"{server}{table['url']}finish/", {"csrfmiddlewaretoken": token.group(1)}, htmx=True
        )
        if status != 200 or 'data-status="finished"' not in html:
            problems.append(f"pulka {table['id']}: ending it answered {status}")


def section(html: str, start: str) -> str | None:
    """From `start` to the end of the element it opens (sections are not nested here)."""
    begin = html.find(start)
    if begin < 0:
        return None
    end = html.find("</section>", begin)
    return html[begin : end + len("</section>")] if end >= 0 else None


def read_pages(
    config: dict, servers: list[str], problems: list[str]
) -> tuple[dict[int, str], dict[tuple[int, str], str]]:
    """The league ranking and every pulka's board from both servers: the boards of the pages
    by pulka, and the boards of a changed live poll (what each server keeps rendered for
    the pulka's version) by pulka and server."""
    anonymous = Browser()
    rankings = []
    for server in servers:
        status, html = anonymous.request(f"{server}{config['league_url']}")
        rankings.append(section(html, '<section id="ranking"') if status == 200 else None)
    if None in rankings or rankings[0] != rankings[1]:
        problems.append("the league ranking differs between the servers (or is missing)")
    elif rankings[0].count("<tr") < 2:
        problems.append("the league ranking has no row after the tables were ended")
    boards, live_boards = {}, {}
    for table in config["tables"]:
        seen = []
        for server in servers:
            status, html = anonymous.request(f"{server}{table['url']}")
            seen.append(section(html, '<section id="board"') if status == 200 else None)
        if None in seen or seen[0] != seen[1]:
            problems.append(f"pulka {table['id']}: the board differs between the servers")
        boards[table["id"]] = seen[0] or ""
        for server in servers:
            # A poll holding no version gets the current one: each server's render (and
            # cache) of it, asked twice so the second comes from the cache where there is one.
            for _ in range(2):
                status, html = anonymous.request(f"{server}{table['url']}live/?v=0", htmx=True)
            board = section(html, '<section id="board"') if status == 200 else None
            if board is None:
                problems.append(f"pulka {table['id']}: {server}'s live poll answered {status}")
            live_boards[(table["id"], server)] = board or ""
    return boards, live_boards


# --- after the run: the database -------------------------------------------------------------


def check_deals(config: dict, results: dict, problems: list[str]) -> tuple[int, int]:
    """Answered entries against stored deals: (lost or duplicated, stored though unanswered)."""
    from scoring.models import Deal, DealRevision, Pulka, RevisionAction

    answered = {(e["pulka"], e["number"]): e["deal"] for e in results["entries"]}
    unanswered = {
        (a["pulka"], a["number"], json.dumps(a["deal"], sort_keys=True))
        for a in results["attempts"]
        if (a["pulka"], a["number"]) not in answered
    }
    lost_or_duplicated = stored_unanswered = 0
    for table in config["tables"]:
        pulka = Pulka.objects.get(pk=table["id"])
        names = pulka.names
        stored = list(Deal.objects.filter(pulka=pulka).order_by("number"))
        numbers = [deal.number for deal in stored]
        if numbers != list(range(1, len(stored) + 1)):
            problems.append(f"pulka {pulka.pk}: deal numbers are not 1..n: {numbers}")
            lost_or_duplicated += len(numbers) - len(set(numbers))
        created = Counter(
            DealRevision.objects.filter(pulka=pulka, action=RevisionAction.CREATED).values_list(
                "number", flat=True
            )
        )
        by_number = {deal.number: deal.to_pulka_dict(names) for deal in stored}
        for (pulka_id, number), deal in answered.items():
            if pulka_id == pulka.pk and by_number.get(number) != deal:
                problems.append(f"pulka {pulka.pk}: answered deal {number} is not stored as posted")
                lost_or_duplicated += 1
        for number, deal in by_number.items():
            if created[number] != 1:
                problems.append(f"pulka {pulka.pk}: deal {number} has {created[number]} entries")
                lost_or_duplicated += 1
            if (pulka.pk, number) in answered:
                continue
            if (pulka.pk, number, json.dumps(deal, sort_keys=True)) in unanswered:
                stored_unanswered += 1  # its request failed on the way back: counted there
            else:
                problems.append(f"pulka {pulka.pk}: deal {number} was stored but never posted")
                lost_or_duplicated += 1
    return lost_or_duplicated, stored_unanswered


BOARD_RESULT = re.compile(r'<tr data-player="([^"]+)">.*?data-result="(-?\d+)"', re.S)


def check_results(
    config: dict,
    boards: dict[int, str],
    live_boards: dict[tuple[int, str], str],
    problems: list[str],
) -> None:
    """Every pulka: the engine's replay of its stored deals, against what Pulka reads and shows
    (the page, and each server's live answer)."""
    from scoring import engine, selectors
    from scoring.models import Deal, Pulka, PulkaResultCache, PulkaStatus

    for table in config["tables"]:
        pulka = Pulka.objects.get(pk=table["id"])
        names = pulka.names
        stored = Deal.objects.filter(pulka=pulka).order_by("number")
        try:
            replay = engine.compute_sheet(
                engine.rules_from_dict(pulka.rules),
                names,
                [engine.deal_from_dict(d.to_pulka_dict(names), d.number) for d in stored],
                first_dealer=names[pulka.first_dealer],
            )
        except engine.PulkaError as exc:
            problems.append(f"pulka {pulka.pk}: the engine refuses its deals: {exc}")
            continue
        expected = engine.sheet_to_dict(replay)
        if engine.sheet_to_dict(selectors.pulka_sheet(pulka)) != expected:
            problems.append(f"pulka {pulka.pk}: pulka_sheet differs from the replay")
        want = {name: replay.result_rounded[name] for name in names}
        shown = {name: int(result) for name, result in BOARD_RESULT.findall(boards[pulka.pk])}
        if shown != want:
            problems.append(f"pulka {pulka.pk}: the board shows {shown}, the replay differs")
        for (pulka_id, server), board in live_boards.items():
            if pulka_id != pulka.pk:
                continue
            live = {name: int(result) for name, result in BOARD_RESULT.findall(board)}
            if live != want:
                problems.append(
                    f"pulka {pulka.pk}: {server}'s live board shows {live}, the replay differs"
                )
        cached = {
            row.position: (row.result, row.result_rounded, row.closed)
            for row in PulkaResultCache.objects.filter(pulka=pulka)
        }
        if pulka.status == PulkaStatus.FINISHED:
            want = {
                i: (str(engine.format_score(replay.result[n])), replay.result_rounded[n], False)
                for i, n in enumerate(names)
            }
            if cached != want:
                problems.append(f"pulka {pulka.pk}: its result cache differs from the replay")
        elif cached:
            problems.append(f"pulka {pulka.pk}: running, yet it has a result cache")


def poll_queries(config: dict) -> tuple[int, int]:
    """Queries of an unchanged poll (pulka, evening) by a logged-in spectator, in-process."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring import selectors
    from scoring.models import Evening, Pulka

    spectator = get_user_model().objects.create_user(username="spectator")
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(spectator)
    pulka = Pulka.objects.select_related("evening").get(pk=config["tables"][1]["id"])
    evening = Evening.objects.get(pk=pulka.evening_id)
    urls = [
        f"{pulka.get_absolute_url()}live/?v={pulka.version}",
        f"{evening.get_absolute_url()}?v={selectors.evening_live_token(evening)}",
    ]
    counts = []
    for url in urls:
        client.get(url, headers={"HX-Request": "true"})  # warm: templates, URL resolver
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, headers={"HX-Request": "true"})
        if response.status_code != 204:
            sys.exit(f"an unchanged poll of {url} answered {response.status_code}, not 204")
        counts.append(len(captured))
    return counts[0], counts[1]


# --- the run --------------------------------------------------------------------------------


def run_locust(config: dict, work: Path, seconds: int) -> dict:
    users = config["secretaries"] + config["spectators"]
    config_file = work / "config.json"
    config_file.write_text(json.dumps(config))
    log = work / "locust.log"
    command = [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "load_users.py")]
    # Everyone arrives within the first 5 s (as a club's evening fills up), not in one burst.
    command += ["--headless", "--users", str(users), "--spawn-rate", str(max(1, users // 5))]
    command += ["--run-time", f"{seconds}s", "--stop-timeout", "5", "--only-summary"]
    command += ["--loglevel", "WARNING", "--host", config["servers"][0]]
    env = {**os.environ, "PULKA_LOAD_CONFIG": str(config_file)}
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            process.wait(seconds + 120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            sys.exit(f"locust did not stop in time:\n{log.read_text()[-3000:]}")
        finally:
            if process.poll() is None:
                stop(process)
    result = Path(config["result"])
    if not result.exists():
        sys.exit(f"locust wrote no results:\n{log.read_text()[-3000:]}")
    summary = [line for line in log.read_text().splitlines() if line.strip()]
    print("\n".join(summary[-30:]))
    return json.loads(result.read_text())


def percentile(values: list[float], p: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    # A terminated run cleans up as Ctrl-C does: the servers stopped, the database dropped.
    signal.signal(signal.SIGTERM, interrupted)
    database_url = with_database(server_url(), args.database)
    env = configure(database_url)
    warnings.filterwarnings("ignore", "No directory at", UserWarning)
    recreate(args.database, create=True)
    servers: list[subprocess.Popen] = []
    try:
        import django

        django.setup()
        from django.core.management import call_command

        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        # DEBUG is off: the pages name their static files through the manifest.
        call_command("collectstatic", interactive=False, verbosity=0)
        config = fill(args.spectators)
        print(f"scratch database {args.database} filled in {time.perf_counter() - started:.1f} s")

        with tempfile.TemporaryDirectory(prefix="pulka-load-") as tmp:
            work = Path(tmp)
            urls = []
            for name in ("a", "b"):
                port = free_port()
                log = work / f"server-{name}.log"
                servers.append(start_server(env, port, log))
                urls.append(f"http://127.0.0.1:{port}")
                wait_ready(urls[-1], servers[-1], log)
            profile = PROFILES[args.profile]
            config.update(
                servers=urls,
                result=str(work / "results.json"),
                deal_seconds=profile["deal_seconds"],
            )
            seconds = args.seconds
            config["max_requests"] = int(
                3 * SECRETARIES * (seconds + 5) + 2 * args.spectators * (seconds / 4 + 2)
            )
            print(
                f"{args.profile}: servers {urls[0]} and {urls[1]}: {SECRETARIES} secretaries "
                f"(a deal every {profile['deal_seconds']:g} s each), "
                f"{args.spectators} spectators, {seconds} s"
            )
            results = run_locust(config, work, seconds)
            problems: list[str] = []
            end_tables(config, urls, problems)
            boards, live_boards = read_pages(config, urls, problems)
            for process in servers:
                stop(process)
            for name in ("a", "b"):
                text = (work / f"server-{name}.log").read_text()
                if "Traceback" in text:
                    problems.append(f"server {name} logged an error:\n{text[-2000:]}")

        lost_or_duplicated, stored_unanswered = check_deals(config, results, problems)
        check_results(config, boards, live_boards, problems)
        poll_pulka, poll_evening = poll_queries(config)
    finally:
        for process in servers:
            stop(process)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            recreate(args.database, create=False)

    explained = stored_unanswered
    request_errors = len(results["errors"]) - explained
    for error in results["errors"][:20]:
        print(f"error: {error['what']}: {error['detail']}")
    for problem in problems:
        print(f"check failed: {problem}")
    entries = [e["ms"] for e in results["entries"]]
    polls = [p["ms"] for p in results["polls"]]
    statuses = Counter(p["status"] for p in results["polls"])
    print(
        f"polls: {len(polls)} ({statuses[204]} unchanged, {statuses[200]} changed); "
        f"an unchanged evening poll costs {poll_evening} queries"
    )
    errors = max(request_errors, 0) + len(problems)
    planned = planned_entries(results, seconds, profile["deal_seconds"])
    retries = Counter(r["outcome"] for r in results["retries"])
    print(
        f"retries: {sum(retries.values())} ({retries['already']} said already recorded, "
        f"{sum(retries.values()) - retries['already']} otherwise); "
        f"204s that hid a deal: {len(results.get('hidden', []))}"
    )
    entry_p99 = percentile(entries, 99)
    budget_p99 = profile["entry_p99_ms"]
    missed = []
    if len(entries) < planned:
        missed.append(f"{planned - len(entries)} planned entries not recorded")
    if budget_p99 is not None and not entry_p99 <= budget_p99:
        missed.append(f"entry p99 {entry_p99:.0f} ms > {budget_p99:.0f} ms")
    if errors:
        missed.append(f"{errors} errors")
    if lost_or_duplicated:
        missed.append(f"{lost_or_duplicated} lost or duplicated")
    budget = "all planned entries recorded"
    if budget_p99 is not None:
        budget += f", entry p99 <= {budget_p99:.0f} ms"
    budget += ", errors 0, lost 0"
    verdict = "met" if not missed else "NOT met: " + "; ".join(missed)
    print(f"budget ({args.profile}: {budget}): {verdict}")
    print(f"planned: {planned}")
    print(f"entries: {len(entries)}")
    print(f"retries: {sum(retries.values())}")
    print(f"errors: {errors}")
    print(f"lost_or_duplicated: {lost_or_duplicated}")
    print(f"entry_p50_ms: {percentile(entries, 50):.1f}")
    print(f"entry_p99_ms: {entry_p99:.1f}")
    print(f"poll_p99_ms: {percentile(polls, 99):.1f}")
    print(f"poll_queries_unchanged: {poll_pulka}")
    return 1 if missed else 0


def planned_entries(results: dict, seconds: int, deal_seconds: float) -> int:
    """The entries the secretaries were due to send: each one's slots (every deal_seconds
    from her start) that began more than GRACE_SECONDS before the run's end; a secretary who
    never started still had hers."""
    run = results.get("run") or [
        {"started": min((s["started"] for s in results["secretaries"]), default=0)}
    ]
    end = run[0]["started"] + seconds - GRACE_SECONDS
    slots = [int(max(0.0, end - s["started"]) // deal_seconds) + 1 for s in results["secretaries"]]
    missing = SECRETARIES - len(slots)
    return sum(slots) + max(0, missing) * (int(max(0, seconds - GRACE_SECONDS) // deal_seconds) + 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
