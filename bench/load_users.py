"""The users of bench/load.py, run by locust: secretaries recording deals, spectators polling.

Not run on its own: bench/load.py writes the JSON file named by ``PULKA_LOAD_CONFIG`` (the two
servers, the club, the pulkas and the secretaries' session cookies) and starts locust on this
file. Every request goes to one of those two servers on 127.0.0.1, taking turns, as a load
balancer would send one browser's requests to either machine. At the end each process writes
what it saw (every entry with its deal, every poll's time) to the file named in the config.

- A **secretary** owns one table. Once a second she records the next deal: a realistic deal
  from competition.demo's generator that the engine accepts after the deals she has entered,
  posted as htmx posts the entry form, with every hidden input of the form the server last
  rendered for her (the form comes back with each recorded deal, as on the page).
- A **spectator** watches one table's live board, or the evening's tables, and polls as the
  page's ``hx-trigger="every Ns"`` says, with the version the last answer carried.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from locust import FastHttpUser, constant_pacing, events, task
from locust.exception import StopUser
from requests.cookies import create_cookie

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

# For competition.demo's deal generator (its module reads the models); no query is made here.
django.setup()

from bench.entryform import EntryForm  # noqa: E402
from competition.demo import next_valid_deal  # noqa: E402
from scoring import engine  # noqa: E402

CONFIG: dict[str, Any] = json.loads(Path(os.environ["PULKA_LOAD_CONFIG"]).read_text())
SERVERS: list[str] = CONFIG["servers"]
HTMX = {"HX-Request": "true"}
LIVE_VERSION = re.compile(r'hx-get="[^"]*/live/\?v=(\d+)"')
EVENING_TOKEN = re.compile(r'id="tables"[^>]*hx-get="[^"]*\?v=([^"]+)"')
EVERY = re.compile(r'hx-trigger="every (\d+)s"')

# What this process saw; written at the end for bench/load.py to check against the database.
RESULTS: dict[str, list] = {"entries": [], "attempts": [], "errors": [], "polls": []}
REQUESTS = itertools.count(1)
SECRETARY_SLOTS = itertools.count()
SPECTATOR_SLOTS = itertools.count()


def _budget() -> None:
    """Stop the user once the run's request budget is spent (a bound besides the clock)."""
    if next(REQUESTS) > CONFIG["max_requests"]:
        raise StopUser


def _error(what: str, detail: str) -> None:
    RESULTS["errors"].append({"what": what, "detail": detail[:500]})


def _next_deal(rng: random.Random, table: dict, deals: list[engine.Deal]) -> dict:
    """A realistic deal that the engine accepts after `deals`: never a deal it would refuse."""
    rules = engine.rules_from_dict(table["rules"])
    data, _ = next_valid_deal(rng, rules, table["names"], table["first_dealer"], deals)
    return data


class Secretary(FastHttpUser):
    fixed_count = CONFIG["secretaries"]
    wait_time = constant_pacing(1)
    host = SERVERS[0]
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self) -> None:
        slot = next(SECRETARY_SLOTS)
        self.table = CONFIG["tables"][slot % len(CONFIG["tables"])]
        self.rng = random.Random(f"load/{slot}")
        self.turn = itertools.cycle(SERVERS)
        self.client.cookiejar.set_cookie(
            create_cookie("sessionid", self.table["session"], domain="127.0.0.1")
        )
        self.deals: list[engine.Deal] = []
        self.form: EntryForm | None = None
        self.resync()

    def resync(self) -> None:
        """Read the deals stored so far (the pulka/1 export) and a fresh entry form."""
        server = next(self.turn)
        _budget()
        response = self.client.get(
            f"{server}{self.table['url']}export/pulka.json", name="export (resync)"
        )
        if response.status_code != 200:
            _error("resync", f"export answered {response.status_code}")
            self.form = None
            return
        document = json.loads(response.text)
        self.deals = [engine.deal_from_dict(d, i) for i, d in enumerate(document["deals"], 1)]
        _budget()
        page = self.client.get(f"{server}{self.table['url']}", name="pulka page")
        self.form = EntryForm.parse(page.text) if page.status_code == 200 else None
        if self.form is None:
            _error("resync", f"no entry form on the pulka page ({page.status_code})")

    @task
    def record(self) -> None:
        if self.form is None:
            self.resync()
            return
        names = self.table["names"]
        data = _next_deal(self.rng, self.table, self.deals)
        number = len(self.deals) + 1
        expected_dealer = engine.dealer_for_next_deal(names, self.table["first_dealer"], self.deals)
        if self.form.hidden.get("rotation_dealer") != str(names.index(expected_dealer)):
            _error("entry", f"the form's dealer is not the rotation's at deal {number}")
        server = next(self.turn)
        post = self.form.post(data, names)
        attempt = {"pulka": self.table["id"], "number": number, "deal": data}
        RESULTS["attempts"].append(attempt)
        _budget()
        t0 = time.perf_counter()
        with self.client.post(
            f"{server}{self.form.action}",
            data=post,
            headers={**HTMX, "X-CSRFToken": post.get("csrfmiddlewaretoken", "")},
            name="entry",
            catch_response=True,
        ) as response:
            elapsed = time.perf_counter() - t0
            html = response.text or ""
            recorded = response.status_code == 200 and f'id="deal-{number}"' in html
            if recorded:
                response.success()
                RESULTS["entries"].append({**attempt, "ms": elapsed * 1e3, "server": server})
                self.deals.append(engine.deal_from_dict(data, number))
                self.form = EntryForm.parse(html)
                if self.form is None:
                    # That deal closed the last pool: the pulka is over, her work is done.
                    raise StopUser
                return
            problem = _form_errors(html) or f"status {response.status_code} {response.error!r}"
            response.failure(problem)
        attempt["refused"] = problem
        _error("entry", f"pulka {self.table['id']} deal {number}: {problem}")
        self.resync()


def _form_errors(html: str) -> str:
    found = re.findall(r'<div class="errors" role="alert">(.*?)</div>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", text).split() for text in found)[:300] if found else ""


class Spectator(FastHttpUser):
    fixed_count = CONFIG["spectators"]
    host = SERVERS[0]
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self) -> None:
        slot = next(SPECTATOR_SLOTS)
        self.turn = itertools.cycle(SERVERS[slot % 2 :] + SERVERS[: slot % 2])
        # One in ten watches the evening's tables, the others one table's live board.
        self.watches_evening = slot % 10 == 9
        if self.watches_evening:
            self.page = CONFIG["evening_url"]
            self.poll_url = CONFIG["evening_url"]
            self.pattern = EVENING_TOKEN
        else:
            table = CONFIG["tables"][slot % len(CONFIG["tables"])]
            self.page = table["url"]
            self.poll_url = f"{table['url']}live/"
            self.pattern = LIVE_VERSION
        _budget()
        response = self.client.get(f"{next(self.turn)}{self.page}", name="page (spectator)")
        self.version = self._version(response.text or "")
        every = EVERY.search(response.text or "")
        self.seconds = int(every.group(1)) if every else 4
        if self.version is None:
            _error("poll", f"{self.page}: the page does not poll")

    def wait_time(self) -> float:
        return self.seconds

    def _version(self, html: str) -> str | None:
        found = self.pattern.search(html)
        return found.group(1) if found else None

    @task
    def poll(self) -> None:
        if self.version is None:
            raise StopUser
        _budget()
        name = "poll evening" if self.watches_evening else "poll pulka"
        t0 = time.perf_counter()
        with self.client.get(
            f"{next(self.turn)}{self.poll_url}?v={self.version}",
            headers=HTMX,
            name=name,
            catch_response=True,
        ) as response:
            elapsed = time.perf_counter() - t0
            RESULTS["polls"].append(
                {"what": name, "ms": elapsed * 1e3, "status": response.status_code}
            )
            if response.status_code == 204:
                response.success()
                return
            version = self._version(response.text or "") if response.status_code == 200 else None
            if version is None:
                response.failure(f"status {response.status_code}, no version")
                _error("poll", f"{self.poll_url}: status {response.status_code}, no new version")
                raise StopUser
            response.success()
            self.version = version


@events.quitting.add_listener
def _write_results(environment, **kwargs) -> None:
    Path(CONFIG["result"]).write_text(json.dumps(RESULTS))
