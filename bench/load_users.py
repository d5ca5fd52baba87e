"""The users of bench/load.py, run by locust: secretaries recording deals, spectators polling.

Not run on its own: bench/load.py writes the JSON file named by ``PULKA_LOAD_CONFIG`` (the two
servers, the club, the pulkas and the secretaries' session cookies) and starts locust on this
file. Every request goes to one of those two servers on 127.0.0.1, taking turns, as a load
balancer would send one browser's requests to either machine. At the end each process writes
what it saw (every entry with its deal, every poll's time) to the file named in the config.

- A **secretary** owns one table. Every ``deal_seconds`` (the profile's) she records the
  next deal: a realistic deal from competition.demo's generator that the engine accepts
  after the deals she has entered, posted as htmx posts the entry form, with every hidden
  input of the form the server last rendered for her (the form comes back with each recorded
  deal, as on the page). An answer counts as a recording only when it has no notice and no
  error, its log's line of that deal number says the deal she posted, and its fresh form is
  for the next number. One entry in twenty is sent again, to the other server, with the
  same form (its one-time key), as a phone does that lost the answer: that answer must say
  "already recorded" and record nothing (bench/load.py counts the stored deals).
- A **spectator** watches one table's live board, or the evening's tables, and polls as the
  page's ``hx-trigger="every Ns"`` says, with the version the last answer carried. A board
  spectator knows the newest deal its board shows: a 204 while a deal after it was answered
  to its secretary more than the cache window before the poll was sent is an error (the
  answer hid a change).
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

from django.conf import settings  # noqa: E402
from django.utils import translation  # noqa: E402

from bench.entryform import EntryForm, deal_line, form_messages, same_text  # noqa: E402
from club import rendering  # noqa: E402
from competition.demo import next_valid_deal  # noqa: E402
from scoring import engine  # noqa: E402
from scoring.templatetags.pulka import deal_summary  # noqa: E402

CONFIG: dict[str, Any] = json.loads(Path(os.environ["PULKA_LOAD_CONFIG"]).read_text())
SERVERS: list[str] = CONFIG["servers"]
HTMX = {"HX-Request": "true"}
LIVE_VERSION = re.compile(r'hx-get="[^"]*/live/\?v=(\d+)"')
EVENING_TOKEN = re.compile(r'id="tables"[^>]*hx-get="[^"]*\?v=([^"]+)"')
EVERY = re.compile(r'hx-trigger="every (\d+)s"')
DEAL_ID = re.compile(r'id="deal-(\d+)"')
RETRY_SHARE = 0.05
# How long a shared cache may show the version before a change: the poll's max-age and its
# stale-while-revalidate (club.rendering), and a second for the after-commit step.
CACHE_WINDOW = getattr(rendering, "SHARED_MAX_AGE", 0) + getattr(rendering, "SHARED_STALE", 0) + 1.0

# What this process saw; written at the end for bench/load.py to check against the database.
RESULTS: dict[str, list] = {
    "entries": [],
    "attempts": [],
    "errors": [],
    "polls": [],
    "retries": [],
    "secretaries": [],
}
# Per pulka: (deal number, when its recording was answered), for the spectators' 204 check.
ANSWERED: dict[int, list[tuple[int, float]]] = {}
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


def _outcome(status: int, html: str, number: int, data: dict, names: list[str]) -> str:
    """recorded, already (the key was used: nothing new), refused or failed."""
    if status != 200:
        return "failed"
    notice, alert = form_messages(html)
    if alert:
        return "refused"
    if notice:
        return "already"
    with translation.override(settings.LANGUAGE_CODE):
        expected = deal_summary(data, names)
    line = deal_line(html, number)
    if line is None or not same_text(line, expected):
        return "refused"
    form = EntryForm.parse(html)
    if form is not None and form.hidden.get("number", str(number + 1)) != str(number + 1):
        return "refused"
    return "recorded"


class Secretary(FastHttpUser):
    fixed_count = CONFIG["secretaries"]
    wait_time = constant_pacing(CONFIG.get("deal_seconds", 1))
    host = SERVERS[0]
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self) -> None:
        slot = next(SECRETARY_SLOTS)
        self.table = CONFIG["tables"][slot % len(CONFIG["tables"])]
        self.rng = random.Random(f"load/{slot}")
        self.retry_rng = random.Random(f"load/retry/{slot}")
        self.turn = itertools.cycle(SERVERS)
        RESULTS["secretaries"].append({"pulka": self.table["id"], "started": time.time()})
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
        # The deal as it will be stored: with the dealer the form posts (the rotation's).
        stored = {**data, "dealer": names[int(post["dealer"])]} if post.get("dealer") else data
        attempt = {"pulka": self.table["id"], "number": number, "deal": stored}
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
            outcome = _outcome(response.status_code, html, number, data, names)
            attempt["answered"] = response.status_code != 0
            if outcome == "recorded":
                response.success()
                RESULTS["entries"].append({**attempt, "ms": elapsed * 1e3, "server": server})
                ANSWERED.setdefault(self.table["id"], []).append((number, time.time()))
                self.deals.append(engine.deal_from_dict(data, number))
                if self.retry_rng.random() < RETRY_SHARE:
                    self.retry(post, number, data)
                self.form = EntryForm.parse(html)
                if self.form is None:
                    # That deal closed the last pool: the pulka is over, her work is done.
                    raise StopUser
                return
            problem = _form_errors(html) or f"{outcome}: status {response.status_code}"
            if response.status_code == 0:
                problem += f" {response.error!r}"
            response.failure(problem)
        attempt["refused"] = problem
        _error("entry", f"pulka {self.table['id']} deal {number}: {problem}")
        self.resync()

    def retry(self, post: dict[str, str], number: int, data: dict) -> None:
        """The same form once more, to the other server: it must record nothing."""
        server = next(self.turn)
        _budget()
        with self.client.post(
            f"{server}{self.form.action}",
            data=post,
            headers={**HTMX, "X-CSRFToken": post.get("csrfmiddlewaretoken", "")},
            name="entry (the same form again)",
            catch_response=True,
        ) as response:
            html = response.text or ""
            outcome = _outcome(response.status_code, html, number, data, self.table["names"])
            RESULTS["retries"].append(
                {"pulka": self.table["id"], "number": number, "outcome": outcome}
            )
            if outcome == "already":
                response.success()
                return
            response.failure(f"the same form again: {outcome}")
        _error("retry", f"pulka {self.table['id']} deal {number}: the same form again {outcome}")


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
            self.pulka = table["id"]
        _budget()
        response = self.client.get(f"{next(self.turn)}{self.page}", name="page (spectator)")
        self.version = self._version(response.text or "")
        self.shows = _newest(response.text or "")
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
        sent = time.time()
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
                if not self.watches_evening:
                    self.check_unchanged(sent)
                return
            version = self._version(response.text or "") if response.status_code == 200 else None
            if version is None:
                response.failure(f"status {response.status_code}, no version")
                _error("poll", f"{self.poll_url}: status {response.status_code}, no new version")
                raise StopUser
            response.success()
            self.version = version
            self.shows = max(self.shows, _newest(response.text or ""))

    def check_unchanged(self, sent: float) -> None:
        """A 204 says the board is current: no deal after it answered a window ago."""
        for number, answered in ANSWERED.get(self.pulka, ()):
            if number > self.shows and answered < sent - CACHE_WINDOW:
                _error(
                    "204",
                    f"pulka {self.pulka}: 204 for a board of deal {self.shows}, "
                    f"{sent - answered:.1f} s after deal {number} was recorded",
                )
                RESULTS.setdefault("hidden", []).append(number)
                return


def _newest(html: str) -> int:
    return max((int(n) for n in DEAL_ID.findall(html)), default=0)


@events.test_start.add_listener
def _started(environment, **kwargs) -> None:
    RESULTS["run"] = [{"started": time.time()}]


@events.quitting.add_listener
def _write_results(environment, **kwargs) -> None:
    Path(CONFIG["result"]).write_text(json.dumps(RESULTS))
