"""Spectators bench: a national final in small, through nginx (deploy/nginx.conf).

Run from the repository root:  python bench/spectators.py [--steps 1000,3000,10000]
[--seconds 30] [--tables 50] [--deal-every 0.5] [--clients 2] [--database h_e_spectators]

1. A scratch PostgreSQL database (as bench/load.py makes it, dropped first), filled through
   the services: a public club, one evening, ``--tables`` running tables with ``--prefill``
   deals each, a secretary per table. Redis db 13 (``--redis``), flushed at the start.
2. Two gunicorn servers (2 gthread workers each) on free ports of 127.0.0.1, sharing the
   database and Redis; nginx in front of them, run from deploy/nginx.conf rendered by
   bench/nginx.py (its own prefix, cache and logs in a scratch directory).
3. A writer records a deal somewhere every ``--deal-every`` seconds (one table after another,
   so each table gets a deal every tables × deal-every seconds: 25 s for 50 tables, the
   final's 2 minutes sped up), through nginx with the table's secretary's session, as the
   entry form posts it; it notes when it sent each deal.
4. Spectators poll the live board of one table each (spectator i watches table i mod tables)
   as htmx does: ``GET <pulka>/live/?v=<version>`` with ``HX-Request: true`` as often as the
   page's ``hx-trigger="every Ns"`` says (4 s today; N s again from a swap), their own
   csrftoken cookie, a browser's Accept-Language and Accept-Encoding, and If-None-Match once
   they hold an ETag for that address. They come from ``--clients`` processes, each one
   asyncio event loop over a pool of keep-alive connections to nginx. Each step adds
   spectators up to its N (they join on the page as it is then, read once per table per
   client, and spread their first polls over one interval) and runs ``--seconds``.

Staleness has a floor here: nginx counts cache lifetimes in whole seconds, so an answer the
app gives ``max-age=1`` lives 1 to 2 s (2 s once the refreshes settle on second boundaries),
and a deal waits up to that long in the cache, then up to one poll interval for the
spectator's next poll: with 4 s polls about 5.6 s at p99 (measured 5.75 s), with 3 s polls
about 4.65 s.

Per step it prints: the proxy's p50/p99 (send to last byte, as the client saw it; its own
scheduling lag apart), the requests per second that reached the app servers (their access
logs) and how they answered, the app servers' CPU seconds per second (gunicorn processes),
nginx's and the client's, errors, and staleness: for every deal and every spectator of its
table, the seconds from the moment the writer sent the deal to the spectator's first answer
that shows it (an upper bound: the commit is later than the send); a deal not yet shown at
the end of a step more than 5 s after it was sent counts as a sample of at least that age.

Bounded: ``--steps`` × ``--seconds`` and the poll rate bound the requests; it talks only to
the servers it started on 127.0.0.1 and stops them (and itself) whatever happens, Ctrl-C
included. Budget at the last step: app requests <= 100/s, proxy p99 <= 500 ms, staleness
p99 <= 5 s, errors 0. The last lines are the last step's figures and the budget; it exits 1
when the budget is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import multiprocessing
import os
import random
import re
import resource
import secrets
import signal
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib
from array import array
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE = "h_e_spectators"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
POLL_SECONDS = 4  # when the page says no hx-trigger="every Ns"
CONNECTIONS = 160  # per client process, to nginx
REQUEST_TIMEOUT = 10.0
STALE_BUDGET = 5.0
BUDGET = {"app_rps": 100.0, "proxy_p99_ms": 500.0, "staleness_p99_s": STALE_BUDGET, "errors": 0}
LANGUAGE = "uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7"

VERSION = re.compile(rb'/live/\?v=([^"&\s]+)"')
EVERY = re.compile(rb'hx-trigger="every (\d+(?:\.\d+)?)s"')
DEAL = re.compile(rb'id="deal-(\d+)"')


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="1000,3000,10000", help="spectators per step")
    parser.add_argument("--seconds", type=int, default=30, help="how long each step runs")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--prefill", type=int, default=40, help="deals per table at the start")
    parser.add_argument("--deal-every", type=float, default=0.5, help="seconds between deals")
    parser.add_argument("--clients", type=int, default=2, help="load generator processes")
    parser.add_argument(
        "--poll-every",
        type=float,
        help="seconds between polls instead of the page's hx-trigger (to try another interval)",
    )
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="the scratch database")
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="flushed at the start")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    try:
        args.steps = [int(n) for n in args.steps.split(",")]
    except ValueError:
        parser.error("--steps: numbers separated by commas, e.g. 1000,3000,10000")
    if not args.steps or min(args.steps) < 1 or args.steps != sorted(args.steps):
        parser.error("--steps: at least one, each at least 1, growing")
    if max(args.steps) > 20000:
        parser.error("--steps: at most 20000 spectators")
    if not 5 <= args.seconds <= 300:
        parser.error("--seconds: 5 to 300")
    if not 1 <= args.tables <= 200 or not 0 <= args.prefill <= 300:
        parser.error("--tables: 1 to 200; --prefill: 0 to 300")
    if not 0.05 <= args.deal_every <= 60 or not 1 <= args.clients <= 8:
        parser.error("--deal-every: 0.05 to 60 s; --clients: 1 to 8")
    if args.poll_every is not None and not 1 <= args.poll_every <= 60:
        parser.error("--poll-every: 1 to 60 s")
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", args.database):
        parser.error("--database: lower-case letters, digits and underscores only")
    redis = urllib.parse.urlsplit(args.redis)
    if redis.scheme != "redis" or redis.hostname not in {"127.0.0.1", "localhost"}:
        parser.error("--redis: a redis:// address on 127.0.0.1 (it is flushed)")
    return args


# --- the load generator: one asyncio loop per process ----------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection to nginx; reopened after a close or a failure."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def get(self, head: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(head)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(b":")
                headers[name.strip().lower()] = value.strip()
        if status in (204, 304) or 100 <= status < 200:
            body = b""
        elif b"content-length" in headers:
            body = await self.reader.readexactly(int(headers[b"content-length"]))
        elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readuntil(b"\r\n")
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            body = b"".join(parts)
        else:
            body = await self.reader.read()
            self.close()
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        if headers.get(b"content-encoding") == b"gzip":
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        return status, headers, body


@dataclass(slots=True)
class Spectator:
    table: int
    version: bytes
    seen: int  # the last deal number its board shows
    cookie: bytes
    every: float  # the board's hx-trigger="every Ns"
    etag: bytes = b""
    etag_for: bytes = b""


@dataclass
class StepLog:
    """What one client saw in one step (requests counted by the step they started in)."""

    latency_ms: array = field(default_factory=lambda: array("d"))
    lag_ms: array = field(default_factory=lambda: array("d"))
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    error_count: int = 0
    seen: list[tuple[int, int, float]] = field(default_factory=list)  # table, deal, when

    def error(self, text: str) -> None:
        self.error_count += 1
        if len(self.errors) < 10:
            self.errors.append(text)


def client_process(pipe, plan: dict) -> None:
    """A load generator: runs the steps of `plan`, sends each step's StepLog as a dict."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it (and everything)
    try:
        asyncio.run(_client(pipe, plan))
    finally:
        pipe.close()


async def _client(pipe, plan: dict) -> None:
    port, tables, index = plan["port"], plan["tables"], plan["index"]
    clients = plan["clients"]
    host = f"127.0.0.1:{port}".encode()
    spectators: list[Spectator] = []
    heap: list[tuple[float, int]] = []
    queue: asyncio.Queue = asyncio.Queue()
    rng = random.Random(f"spectators/{index}")
    log = StepLog()

    def head(spectator: Spectator, url: bytes) -> bytes:
        lines = [
            b"GET " + url + b" HTTP/1.1",
            b"Host: " + host,
            b"HX-Request: true",
            b"HX-Current-URL: http://" + host + tables[spectator.table]["url"].encode(),
            b"Accept: */*",
            b"Accept-Encoding: gzip, deflate, br",
            b"Accept-Language: " + LANGUAGE.encode(),
            b"User-Agent: pulka-bench-spectator",
            b"Cookie: csrftoken=" + spectator.cookie,
        ]
        if spectator.etag and spectator.etag_for == url:
            lines.append(b"If-None-Match: " + spectator.etag)
        return b"\r\n".join(lines) + b"\r\n\r\n"

    async def worker() -> None:
        connection = Connection(port)
        while True:
            due, i = await queue.get()
            spectator = spectators[i]
            table = tables[spectator.table]
            url = (table["url"] + "live/?v=").encode() + spectator.version
            started = time.time()
            current = log  # the step this request started in
            current.lag_ms.append((started - due) * 1e3)
            try:
                status, headers, body = await asyncio.wait_for(
                    connection.get(head(spectator, url)), REQUEST_TIMEOUT
                )
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
                connection.close()
                current.error(f"{url.decode()}: {type(exc).__name__} {exc}")
                heapq.heappush(heap, (due + spectator.every, i))
                continue
            except (TimeoutError, ValueError, zlib.error) as exc:
                connection.close()
                current.error(f"{url.decode()}: {type(exc).__name__} {exc}")
                heapq.heappush(heap, (due + spectator.every, i))
                continue
            done = time.time()
            current.latency_ms.append((done - started) * 1e3)
            current.statuses[status] = current.statuses.get(status, 0) + 1
            following = due + spectator.every
            if status == 200:
                found = VERSION.search(body)
                if found is None:
                    current.error(f"{url.decode()}: 200 without the next version")
                else:
                    spectator.version = found.group(1)
                    numbers = [int(n) for n in DEAL.findall(body)]
                    newest = max(numbers, default=spectator.seen)
                    for number in range(spectator.seen + 1, newest + 1):
                        current.seen.append((spectator.table, number, done))
                    spectator.seen = max(spectator.seen, newest)
                    # htmx swaps the board: the new element's timer starts now.
                    following = done + spectator.every
                etag = headers.get(b"etag", b"")
                spectator.etag, spectator.etag_for = etag, url if etag else b""
            elif status not in (204, 304):
                current.error(f"{url.decode()}: status {status}")
            heapq.heappush(heap, (following, i))

    async def page(table: dict) -> tuple[bytes, int, float]:
        """The pulka page as a joining spectator loads it: its version, its newest deal and
        how often its board polls."""
        connection = Connection(port)
        request = (
            f"GET {table['url']} HTTP/1.1\r\nHost: {host.decode()}\r\nAccept: text/html\r\n"
            f"Accept-Language: {LANGUAGE}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"
        ).encode()
        try:
            status, _, body = await asyncio.wait_for(connection.get(request), REQUEST_TIMEOUT)
        finally:
            connection.close()
        found = VERSION.search(body)
        if status != 200 or found is None:
            raise RuntimeError(f"{table['url']}: the page answered {status} without a poll")
        every = EVERY.search(body)
        newest = max((int(n) for n in DEAL.findall(body)), default=0)
        if plan["poll_every"]:
            return found.group(1), newest, plan["poll_every"]
        return found.group(1), newest, float(every.group(1)) if every else POLL_SECONDS

    async def scheduler() -> None:
        """Hands every due poll to a free connection, whatever the steps are doing."""
        while True:
            now = time.time()
            while heap and heap[0][0] <= now:
                queue.put_nowait(heapq.heappop(heap))
            wait = (heap[0][0] - now) if heap else 0.05
            await asyncio.sleep(min(max(wait, 0.001), 0.05))

    workers = [asyncio.create_task(worker()) for _ in range(CONNECTIONS)]
    workers.append(asyncio.create_task(scheduler()))
    for step, total in enumerate(plan["steps"]):
        start = plan["start"] + step * plan["seconds"]
        await asyncio.sleep(max(0.0, start - time.time()))
        log = StepLog()
        mine = len(range(index, total, clients))
        if mine > len(spectators):
            try:
                pages = await asyncio.gather(*(page(t) for t in tables))
            except (OSError, RuntimeError, TimeoutError, asyncio.IncompleteReadError) as exc:
                log.error(f"page: {exc}")
                pages = None
            if pages:
                joined = time.time()
                for _ in range(mine - len(spectators)):
                    # This client's spectators are every clients-th one: spectator g watches
                    # table g mod tables.
                    number = index + len(spectators) * clients
                    table = number % len(tables)
                    version, seen, every = pages[table]
                    cookie = secrets.token_hex(16).encode()
                    spectators.append(Spectator(table, version, seen, cookie, every))
                    heapq.heappush(heap, (joined + rng.uniform(0, every), len(spectators) - 1))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu_before = usage.ru_utime + usage.ru_stime
        await asyncio.sleep(max(0.0, start + plan["seconds"] - time.time()))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # Which deal each spectator's board shows now, for the deals it never got to see.
        by_table: dict[int, list[int]] = {}
        for spectator in spectators:
            by_table.setdefault(spectator.table, []).append(spectator.seen)
        pipe.send(
            {
                "latency_ms": log.latency_ms.tobytes(),
                "lag_ms": log.lag_ms.tobytes(),
                "statuses": log.statuses,
                "errors": log.errors,
                "error_count": log.error_count,
                "seen": log.seen,
                "showing": by_table,
                "cpu": usage.ru_utime + usage.ru_stime - cpu_before,
                "spectators": len(spectators),
                "queued_at_end": queue.qsize(),
            }
        )
    for task in workers:
        task.cancel()


# --- the writer: a deal somewhere every --deal-every seconds --------------------------------


class Writer(threading.Thread):
    """Records the deals through nginx with each table's secretary's session."""

    def __init__(self, proxy: str, tables: list[dict], every: float, until: float) -> None:
        super().__init__(daemon=True)
        self.proxy, self.tables, self.every, self.until = proxy, tables, every, until
        self.sent: dict[tuple[int, int], float] = {}  # (table index, deal number) -> when
        self.answered: dict[tuple[int, int], float] = {}  # -> when its answer came back
        self.errors: list[tuple[float, str]] = []  # when, what
        self.recorded: list[float] = []  # when each recorded deal was sent
        self.entry_ms: list[tuple[float, float]] = []  # when, how long

    def run(self) -> None:
        from bench.entryform import EntryForm
        from bench.load import Browser
        from competition.demo import next_valid_deal
        from scoring import engine

        state = []
        for table in self.tables:
            browser = Browser(table["session"])
            status, html = browser.request(f"{self.proxy}{table['url']}")
            form = EntryForm.parse(html) if status == 200 else None
            if form is None:
                problem = f"{table['url']}: no entry form for its secretary ({status})"
                self.errors.append((time.time(), problem))
            deals = [engine.deal_from_dict(d, i) for i, d in enumerate(table["deals"], 1)]
            state.append({"browser": browser, "form": form, "deals": deals})
        rng = random.Random("spectators/writer")
        order = list(range(len(self.tables)))
        rng.shuffle(order)
        beat = time.time()
        turn = 0
        while True:
            beat += self.every
            time.sleep(max(0.0, beat - time.time()))
            if time.time() >= self.until:
                return
            index = order[turn % len(order)]
            turn += 1
            table, mine = self.tables[index], state[index]
            if mine["form"] is None:
                continue
            rules = engine.rules_from_dict(table["rules"])
            data, _ = next_valid_deal(
                rng, rules, table["names"], table["first_dealer"], mine["deals"]
            )
            number = len(mine["deals"]) + 1
            post = mine["form"].post(data, table["names"])
            sent = time.time()
            self.sent[(index, number)] = sent
            status, html = mine["browser"].request(
                f"{self.proxy}{mine['form'].action}", post, htmx=True
            )
            self.entry_ms.append((sent, (time.time() - sent) * 1e3))
            if status == 200 and f'id="deal-{number}"' in html:
                self.recorded.append(sent)
                self.answered[(index, number)] = time.time()
                mine["deals"].append(engine.deal_from_dict(data, number))
                mine["form"] = EntryForm.parse(html)
            else:
                del self.sent[(index, number)]
                problem = f"{table['url']} deal {number}: the entry answered {status}"
                self.errors.append((sent, problem))
                status, html = mine["browser"].request(f"{self.proxy}{table['url']}")
                mine["form"] = EntryForm.parse(html) if status == 200 else None


# --- the servers' side -----------------------------------------------------------------------


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of these processes and all their children now alive."""
    import psutil

    total = 0.0
    seen = set()
    for pid in pids:
        try:
            root = psutil.Process(pid)
            for process in [root, *root.children(recursive=True)]:
                if process.pid in seen:
                    continue
                seen.add(process.pid)
                times = process.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


def count_lines(paths: list[Path], offsets: dict[Path, int]) -> dict[str, int]:
    """The app servers' access-log lines since the offsets (moved on): by status."""
    counts: dict[str, int] = {}
    for path in paths:
        with path.open("rb") as log:
            log.seek(offsets.get(path, 0))
            data = log.read()
        whole = data[: data.rfind(b"\n") + 1]  # a line still being written waits
        offsets[path] = offsets.get(path, 0) + len(whole)
        for line in whole.splitlines():
            status, _, rest = line.partition(b" ")
            kind = "poll" if b"/live/" in rest else "page" if rest.startswith(b"GET") else "post"
            key = f"{kind} {status.decode()}"
            counts[key] = counts.get(key, 0) + 1
    return counts


def percentile(values, p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def staleness(
    sent: dict[tuple[int, int], float], logs: list[dict], step_end: float
) -> tuple[list[float], int]:
    """Seconds from a deal's storing to each spectator's first answer showing it, and the
    number of (spectator, deal) pairs still unseen more than STALE_BUDGET after it."""
    samples = []
    for log in logs:
        for table, number, when in log["seen"]:
            if (table, number) in sent:
                samples.append(max(0.0, when - sent[(table, number)]))
    newest: dict[int, list[tuple[int, float]]] = {}
    for (table, number), when in sent.items():
        if when < step_end:
            newest.setdefault(table, []).append((number, when))
    late = 0
    for log in logs:
        for table, showing in log["showing"].items():
            for seen in showing:
                for number, when in newest.get(int(table), []):
                    if number > seen and step_end - when > STALE_BUDGET:
                        samples.append(step_end - when)
                        late += 1
    return samples, late


# --- the run ---------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    from bench import load
    from bench.nginx import Proxy

    signal.signal(signal.SIGTERM, load.interrupted)
    database_url = load.with_database(load.server_url(), args.database)
    env = load.configure(database_url)
    env.update(REDIS_URL=args.redis, BEHIND_PROXY="true", TASKS_BACKEND="immediate")
    os.environ.update(REDIS_URL=args.redis, BEHIND_PROXY="true")
    import redis

    try:
        redis.Redis.from_url(args.redis, socket_connect_timeout=5).flushdb()
    except redis.RedisError as exc:
        sys.exit(f"Redis does not answer at {args.redis} ({exc}): the bench needs it")
    load.recreate(args.database, create=True)
    servers: list = []
    proxy = None
    clients: list = []
    figures: list[dict] = []
    steps: list[dict] = []
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        config = load.fill(0, tables=args.tables, prefill=args.prefill)
        print(
            f"scratch database {args.database}: {args.tables} tables of {args.prefill} deals "
            f"in {time.perf_counter() - started:.1f} s"
        )
        from django.db import connections

        connections.close_all()
        with tempfile.TemporaryDirectory(prefix="pulka-spectators-") as tmp:
            work = Path(tmp)
            ports, access_logs = [], []

            def log_of(name: str) -> Path:
                return work / f"server-{name}.log"

            for name in ("a", "b"):
                port = load.free_port()
                access_logs.append(work / f"access-{name}.log")
                access_logs[-1].touch()
                servers.append(load.start_server(env, port, log_of(name), access_logs[-1]))
                ports.append(port)
                load.wait_ready(f"http://127.0.0.1:{port}", servers[-1], log_of(name))
            proxy = Proxy(
                work / "nginx",
                load.free_port(),
                load.free_port(),
                [f"127.0.0.1:{p}" for p in ports],
                Path(settings.STATIC_ROOT),
            )
            proxy.start()
            print(f"nginx {proxy.url} in front of 127.0.0.1:{ports[0]} and 127.0.0.1:{ports[1]}")

            start = time.time() + 3
            end = start + len(args.steps) * args.seconds
            tables = [{"url": t["url"]} for t in config["tables"]]
            context = multiprocessing.get_context("spawn")
            pipes = []
            for index in range(args.clients):
                ours, theirs = context.Pipe()
                plan = {
                    "port": proxy.port,
                    "tables": tables,
                    "index": index,
                    "clients": args.clients,
                    "steps": args.steps,
                    "seconds": args.seconds,
                    "start": start,
                    "poll_every": args.poll_every,
                }
                process = context.Process(target=client_process, args=(theirs, plan))
                process.start()
                clients.append(process)
                pipes.append(ours)
            writer = Writer(proxy.url, config["tables"], args.deal_every, end)
            writer.start()
            offsets: dict[Path, int] = {}
            app_pids = [s.pid for s in servers]
            for step, total in enumerate(args.steps):
                step_start = start + step * args.seconds
                time.sleep(max(0.0, step_start - time.time()))
                count_lines(access_logs, offsets)
                app_cpu, proxy_cpu = cpu_seconds(app_pids), cpu_seconds(proxy.processes())
                time.sleep(max(0.0, step_start + args.seconds - time.time()))
                app_cpu = cpu_seconds(app_pids) - app_cpu
                proxy_cpu = cpu_seconds(proxy.processes()) - proxy_cpu
                time.sleep(0.5)  # the access logs catch up with the last answers
                app = count_lines(access_logs, offsets)
                logs = []
                for pipe in pipes:
                    if not pipe.poll(REQUEST_TIMEOUT + 30):
                        raise RuntimeError("a load generator did not report its step")
                    logs.append(pipe.recv())
                steps.append(
                    {
                        "total": total,
                        "seconds": args.seconds,
                        "logs": logs,
                        "app": app,
                        "app_cpu": app_cpu,
                        "proxy_cpu": proxy_cpu,
                        "start": step_start,
                        "end": step_start + args.seconds,
                    }
                )
                print(
                    f"step {step + 1}: {total} spectators, {app} at the app, "
                    f"{app_cpu / args.seconds:.2f} app CPU s/s",
                    flush=True,
                )
            writer.join(30)
            for process in clients:
                process.join(30)
            for process in servers:
                load.stop(process)
            server_errors = 0
            for name in ("a", "b"):
                text = log_of(name).read_text()
                if "Traceback" in text:
                    server_errors += 1
                    print(f"server {name} logged an error:\n{text[-2000:]}")
            proxy.stop()
        # The moment each deal was stored (Deal.entered_at, set in the service's transaction
        # just before its commit): staleness is counted from it, not from the writer's send.
        from scoring.models import Deal

        index_of = {table["id"]: i for i, table in enumerate(config["tables"])}
        stored = Deal.objects.filter(pulka_id__in=index_of).values_list(
            "pulka_id", "number", "entered_at"
        )
        entered = {(index_of[p], n): at.timestamp() for p, n, at in stored}
        committed = {key: entered.get(key, sent) for key, sent in writer.sent.items()}
        for step in steps:
            figures.append(summarize(step, writer, committed))
            report_step(figures[-1])
        figures[-1]["errors"] += server_errors
    finally:
        for process in clients:
            if process.is_alive():
                process.terminate()
                process.join(5)
        if proxy is not None:
            proxy.stop()
        for process in servers:
            load.stop(process)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            load.recreate(args.database, create=False)

    last = figures[-1]
    ok = (
        last["app_rps"] <= BUDGET["app_rps"]
        and last["proxy_p99_ms"] <= BUDGET["proxy_p99_ms"]
        and last["staleness_p99_s"] <= BUDGET["staleness_p99_s"]
        and last["errors"] == BUDGET["errors"]
    )
    every = f", polls every {args.poll_every:g} s, not the page's" if args.poll_every else ""
    print(
        f"budget at {last['spectators']} spectators{every} (app requests <= 100/s, proxy p99 "
        f"<= 500 ms, staleness p99 <= 5 s, errors 0): {'met' if ok else 'NOT met'}"
    )
    for key in (
        "spectators",
        "polls_per_s",
        "proxy_p50_ms",
        "proxy_p99_ms",
        "app_rps",
        "app_cpu_per_s",
        "proxy_cpu_per_s",
        "client_cpu_per_s",
        "errors",
        "staleness_p99_s",
    ):
        print(f"{key}: {last[key]}")
    return 0 if ok else 1


def summarize(step: dict, writer: Writer, committed: dict[tuple[int, int], float]) -> dict:
    """One step's figures; requests and writes counted in the step they started in."""
    logs, seconds, app = step["logs"], step["seconds"], step["app"]
    in_step = lambda when: step["start"] <= when < step["end"]  # noqa: E731
    latency = array("d")
    lag = array("d")
    statuses: dict[int, int] = {}
    errors = 0
    messages = []
    for log in logs:
        latency.frombytes(log["latency_ms"])
        lag.frombytes(log["lag_ms"])
        for status, n in log["statuses"].items():
            statuses[status] = statuses.get(status, 0) + n
        errors += log["error_count"]
        messages += log["errors"]
    writer_errors = [text for when, text in writer.errors if in_step(when)]
    stale, late = staleness(committed, logs, step["end"])
    # The commit lies between entered_at and the entry's answer: from the answer, a bound
    # below (printed beside, never budgeted).
    optimistic, _ = staleness(writer.answered, logs, step["end"])
    return {
        "spectators": sum(log["spectators"] for log in logs),
        "wanted": step["total"],
        "polls_per_s": round(len(latency) / seconds, 1),
        "statuses": dict(sorted(statuses.items())),
        "proxy_p50_ms": round(percentile(latency, 50), 1),
        "proxy_p99_ms": round(percentile(latency, 99), 1),
        "client_lag_p99_ms": round(percentile(lag, 99), 1),
        "app_rps": round(sum(app.values()) / seconds, 1),
        "app": dict(sorted(app.items())),
        "app_cpu_per_s": round(step["app_cpu"] / seconds, 2),
        "proxy_cpu_per_s": round(step["proxy_cpu"] / seconds, 2),
        "client_cpu_per_s": round(sum(log["cpu"] for log in logs) / seconds, 2),
        "errors": errors + len(writer_errors),
        "error_samples": (messages + writer_errors)[:5],
        "staleness_p50_s": round(percentile(stale, 50), 2),
        "staleness_p90_s": round(percentile(stale, 90), 2),
        "staleness_p99_s": round(percentile(stale, 99), 2),
        "staleness_p99_from_answer_s": round(percentile(optimistic, 99), 2),
        "staleness_samples": len(stale),
        "late_unseen": late,
        "deals_recorded": sum(1 for when in writer.recorded if in_step(when)),
        "entry_p99_ms": round(
            percentile([ms for when, ms in writer.entry_ms if in_step(when)], 99), 1
        ),
    }


def report_step(figure: dict) -> None:
    print(
        f"step {figure['spectators']} spectators: {figure['polls_per_s']} polls/s "
        f"{figure['statuses']}; proxy p50 {figure['proxy_p50_ms']} ms, p99 "
        f"{figure['proxy_p99_ms']} ms (client lag p99 {figure['client_lag_p99_ms']} ms); "
        f"app {figure['app_rps']} req/s {figure['app']}, CPU {figure['app_cpu_per_s']} s/s; "
        f"nginx CPU {figure['proxy_cpu_per_s']} s/s; client CPU {figure['client_cpu_per_s']} s/s; "
        f"errors {figure['errors']}; staleness p50/p90/p99 {figure['staleness_p50_s']}/"
        f"{figure['staleness_p90_s']}/{figure['staleness_p99_s']} s (from the entry's answer: "
        f"p99 {figure['staleness_p99_from_answer_s']} s) over "
        f"{figure['staleness_samples']} (late unseen {figure['late_unseen']}); deals "
        f"{figure['deals_recorded']}, entry p99 {figure['entry_p99_ms']} ms",
        flush=True,
    )
    for sample in figure["error_samples"]:
        print(f"  error: {sample}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
