"""Issue #28's done-when, in Chromium: a secretary's pulka page keeps taking deals when the
connection drops, keeps them on the device (IndexedDB, static/js/offline.js) and sends them,
each with its one-time key, when it comes back; nothing is lost or doubled.

The connection drops three ways (`line`): Playwright's offline mode (the browser knows, and
says `online` when it is back); the server stopped, as a refused connection (a TCP forwarder
in front of the live server, stopped and started again on its port: the browser still thinks
it is online, and "Send now" sends); and the server stopped behind nginx, which answers 502.

The service worker (/sw.js) controls the page after its first load and a reload; then the
pulka page reloads offline from its cache, and a page never opened shows "You are offline".
"""

from __future__ import annotations

import contextlib
import getpass
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.models import Role
from scoring import services as scoring_services
from scoring.exchange import pulka_document
from scoring.models import Deal, DealCheck
from tests.browser.factories import log_in
from tests.conftest import make_club, make_evening, make_member, make_pulka, missing_service, record

pytestmark = pytest.mark.django_db(transaction=True)

SERVICE_WORKERS = "allow"  # tests/browser/conftest.py blocks them elsewhere

NAMES = ("Anna", "Boris", "Vera")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
SENT = 20_000  # ms: the queue is sent within this once the connection is back


# --- the deals ------------------------------------------------------------------------------


def made_six(number: int, declarer_tricks: int, whister_tricks: int) -> dict:
    """Deal `number` of a 3-player pulka whose first dealer is Anna, as the form's defaults
    offer it: the first hand declares a six of spades, the next whists, the dealer passes
    (and takes the rest of the ten). As pulka/1 exports it."""
    dealer = (number - 1) % 3
    declarer, whister = (dealer + 1) % 3, (dealer + 2) % 3
    return {
        "kind": "game",
        "declarer": NAMES[declarer],
        "contract": "6S",
        "calls": {NAMES[whister]: "whist", NAMES[dealer]: "pass"},
        "tricks": {
            NAMES[declarer]: declarer_tricks,
            NAMES[whister]: whister_tricks,
            NAMES[dealer]: 10 - declarer_tricks - whister_tricks,
        },
        "dealer": NAMES[dealer],
    }


TYPED = [(6, 3), (7, 2), (6, 4), (8, 1), (6, 2), (7, 3), (6, 3), (9, 0), (6, 1)]


def deal(number: int) -> dict:
    return made_six(number, *TYPED[number - 1])


def form_number(page) -> int:
    return int(page.locator("#deal-form input[name=number]").input_value())


def check(page, name: str, value: str) -> None:
    """A choice as the secretary taps it; the form reshapes itself (on the device when
    offline), so no answer is waited for, only the form settling."""
    radio = page.locator(f"#deal-form input[name='{name}'][value='{value}']")
    if not radio.is_checked():
        radio.check()
        page.wait_for_timeout(150)
    expect(radio).to_be_checked()


def type_deal(page, number: int, tricks: tuple[int, int] | None = None) -> str:
    """Deal `number` typed into the form and Enter pressed; returns the form's one-time key.
    Waits for the form of the next deal (the server's answer, or the queue's when it got
    none)."""
    data = made_six(number, *(tricks or TYPED[number - 1]))
    assert form_number(page) == number
    seat = {name: i for i, name in enumerate(NAMES)}
    check(page, "declarer", str(seat[data["declarer"]]))
    for name, call in data["calls"].items():
        check(page, f"call_{seat[name]}", call)
    declarer, whister = list(data["tricks"])[:2]
    page.locator(f"#deal-form input[name=tricks_{seat[declarer]}]").fill(
        str(data["tricks"][declarer])
    )
    page.locator(f"#deal-form input[name=tricks_{seat[whister]}]").fill(
        str(data["tricks"][whister])
    )
    key = page.locator("#deal-form input[name=entry_key]").input_value()
    page.locator(f"#deal-form input[name=tricks_{seat[declarer]}]").press("Enter")
    page.wait_for_function(
        "n => Number(document.querySelector('#deal-form input[name=number]')?.value) === n",
        arg=number + 1,
    )
    return key


# --- what the page shows --------------------------------------------------------------------


def banner(count: int) -> str:
    return f"{count} deal waiting to be sent" if count == 1 else f"{count} deals waiting to be sent"


def pending(page):
    """The deals the phone has not sent yet (those it sent show as "sent" on a copy of the
    page kept from before them, until the page is the server's again)."""
    return page.locator("#deal-log > li.deal.pending:not([data-state='sent'])")


def shown(page, number: int):
    """Deal `number` in the log: the server's line, or the phone's "sent" one."""
    return page.locator(
        f"#deal-log > li#deal-{number}:not(.pending), "
        f"#deal-log > li.pending[data-number='{number}'][data-state='sent']"
    )


def shows_waiting(page, numbers: list[int]) -> None:
    """The queue as the page shows it: these deals not sent yet, and the banner counting them."""
    expect(pending(page)).to_have_count(len(numbers))
    # Newest first, as the log is.
    expect(pending(page).first).to_have_attribute("data-number", str(max(numbers)))
    for number in numbers:
        row = page.locator(f"#deal-log > li.deal.pending[data-number='{number}']")
        expect(row).to_have_attribute("data-state", "waiting")
        expect(row.locator(".deal-no")).to_have_text(f"{number}.")
        expect(row.locator(".pending-state")).to_have_text("not sent yet")
        expect(row.locator(".deal-text")).to_contain_text(deal(number)["declarer"])
    queue = page.locator("#offline-queue")
    expect(queue).to_be_visible()
    expect(page.locator("#offline-banner")).to_have_attribute("role", "status")
    expect(page.locator("#offline-banner")).to_contain_text(banner(len(numbers)))
    expect(page.locator("#offline-banner")).to_contain_text(
        "The sheet will update when they are sent."
    )
    expect(queue.locator("button.queue-send")).to_have_text("Send now")


def shows_the_server(page, deals: int) -> None:
    """The queue is empty and the log is the server's again."""
    expect(page.locator("#deal-log > li.deal.pending")).to_have_count(0, timeout=SENT)
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("#deal-log > li.deal")).to_have_count(deals, timeout=SENT)
    expect(page.locator("#deal-form input[name=number]")).to_have_value(str(deals + 1))


def exported(pulka) -> list[dict]:
    return pulka_document(pulka)["deals"]


def keys(pulka) -> list[str]:
    return [str(k) for k in pulka.deals.order_by("number").values_list("entry_key", flat=True)]


# --- the connection -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Forwarder:
    """127.0.0.1:`port` piped to `target`: `stop` closes the listener and every open
    connection (the browser's kept-alive ones too), so the next one is refused; `start`
    listens again on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.listener: socket.socket | None = None
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.2)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while self.listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source, sink)

    def _close(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with self.lock:
                self.open.discard(sock)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def stop(self) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.close()
        with self.lock:
            sockets = list(self.open)
        self._close(*sockets)


class Nginx:
    """nginx on 127.0.0.1:`port` passing everything to 127.0.0.1:`upstream` (the Host as the
    browser sent it, so Django's CSRF check sees the origin it expects): with nothing
    listening there it answers its own 502 page."""

    def __init__(self, directory: Path, upstream: int) -> None:
        self.port = free_port()
        self.directory = directory
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (directory / name).mkdir(parents=True, exist_ok=True)
        temp = " ".join(f"{name}_temp_path {directory / name};" for name in ("proxy", "fastcgi"))
        self.config = directory / "nginx.conf"
        self.config.write_text(
            f"""
user {getpass.getuser()};
worker_processes 1;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {directory / "body"};
    uwsgi_temp_path {directory / "uwsgi"};
    scgi_temp_path {directory / "scgi"};
    {temp}
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_set_header Host $http_host;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }}
    }}
}}
"""
        )
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [NGINX, "-p", str(self.directory), "-e", str(self.directory / "error.log")]
        self.process = subprocess.Popen(
            [*command, "-c", str(self.config), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"nginx stopped: {self.process.stderr.read().decode()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        pytest.fail("nginx did not listen within 10 s")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


class Line:
    """The phone's way to the server: `url` to open, `cut` and `restore` it."""

    def __init__(self, how: str, context, live_server, tmp_path: Path) -> None:
        self.how = how
        self.context = context
        self.url = live_server.url
        self.forwarder = self.nginx = None
        # How the entries' posts ended without an answer: "failed" or the status of a 5xx.
        self.unanswered: list[str | int] = []
        context.on("requestfailed", lambda r: self._unanswered(r, "failed"))
        context.on("response", lambda r: r.status >= 500 and self._unanswered(r.request, r.status))
        if how == "offline":
            return
        address = urlsplit(live_server.url)
        self.forwarder = Forwarder((address.hostname, address.port))
        self.forwarder.start()
        self.url = f"http://127.0.0.1:{self.forwarder.port}"
        if how == "proxy":
            self.nginx = Nginx(tmp_path / "nginx", self.forwarder.port)
            self.nginx.start()
            self.url = f"http://127.0.0.1:{self.nginx.port}"

    def _unanswered(self, request, how: str | int) -> None:
        if request.method == "POST" and request.url.endswith("/deals/"):
            self.unanswered.append(how)

    def saw_the_cut(self) -> None:
        """The posts met what this line does: nginx's 502, a refused connection, or none
        left at all (the page knew it was offline)."""
        expected = {"offline": set(), "refused": {"failed"}, "proxy": {502}}[self.how]
        assert set(self.unanswered) == expected

    def cut(self) -> None:
        if self.forwarder is None:
            self.context.set_offline(True)
        else:
            self.forwarder.stop()

    def restore(self, page) -> None:
        """Back: the browser says `online` when it was offline; when only the server was
        away, nothing tells the page, and the secretary presses "Send now"."""
        if self.forwarder is None:
            self.context.set_offline(False)
        else:
            self.forwarder.start()
            page.locator("#offline-queue button.queue-send").click()

    def close(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        if self.forwarder is not None:
            self.forwarder.stop()


@pytest.fixture(params=["offline", "refused", "proxy"])
def line(request, context, live_server, tmp_path):
    if request.param == "proxy" and NGINX is None:
        missing_service("nginx is not installed (apt-get install nginx-light)")
    line = Line(request.param, context, live_server, tmp_path)
    yield line
    line.close()


@pytest.fixture
def offline(context, live_server, tmp_path):
    line = Line("offline", context, live_server, tmp_path)
    yield line
    line.close()


# --- the world ------------------------------------------------------------------------------


@pytest.fixture
def club():
    return make_club(slug="podil")


@pytest.fixture
def secretary(club):
    return make_member(club, Role.SECRETARY, username="sekretar").user


ACTIVE = """() => Promise.race([
    navigator.serviceWorker.ready.then(() => true),
    new Promise(resolve => setTimeout(() => resolve(false), 15000)),
])"""


def controlled(page, url: str) -> None:
    """The page opened, then reloaded once its service worker is active: it controls it."""
    page.goto(url)
    assert page.evaluate(ACTIVE), "no service worker became active within 15 s"
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    expect(page.locator("#deal-form")).to_be_visible()


def open_pulka(page, base: str, user, pulka) -> None:
    log_in(page, SimpleNamespace(url=base), user)
    controlled(page, base + pulka.get_absolute_url())


def seven_recorded(page, base: str, secretary, club):
    """A pulka with deals 1 to 7 recorded, open on the secretary's phone."""
    pulka = make_pulka(make_evening(club))
    record(pulka, *(deal(number) for number in range(1, 8)))
    open_pulka(page, base, secretary, pulka)
    return pulka


def refused_row(page, number: int):
    """Deal `number`'s row once the server has refused it."""
    row = page.locator(f"#deal-log > li.deal.pending[data-number='{number}']")
    expect(row).to_have_attribute("data-state", "refused", timeout=SENT)
    return row


def other_secretary_records(browser, live_server, club, pulka, number: int) -> str:
    """A second secretary, on a phone that stays online, records deal `number` (other tricks
    than the first phone's); returns its key."""
    user = make_member(club, Role.SECRETARY, username="second").user
    page = browser.new_context().new_page()
    log_in(page, live_server, user)
    page.goto(live_server.url + pulka.get_absolute_url())
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        key = type_deal(page, number, tricks=(6, 0))
    assert pulka.deals.filter(number=number, entry_key=key).exists()
    page.context.close()
    return key


# --- the tests ------------------------------------------------------------------------------


def test_deals_typed_without_a_connection_are_kept_and_sent_once_when_it_is_back(
    page, line, secretary, club
):
    pulka = make_pulka(make_evening(club))
    open_pulka(page, line.url, secretary, pulka)
    typed = [type_deal(page, number) for number in (1, 2)]
    assert keys(pulka) == typed

    line.cut()
    typed += [type_deal(page, number) for number in (3, 4, 5, 6, 7)]
    shows_waiting(page, [3, 4, 5, 6, 7])
    line.saw_the_cut()
    assert pulka.deals.count() == 2
    assert len(set(typed)) == 7  # every deal has a key of its own

    page.reload()  # still without a connection: the page comes from the worker's cache
    shows_waiting(page, [3, 4, 5, 6, 7])
    for number in (1, 2):  # recorded online: in the page kept, or remembered as sent
        expect(shown(page, number)).to_have_count(1)
    expect(page.locator("#deal-form input[name=number]")).to_have_value("8")
    expect(page.locator("#deal-form h2")).to_contain_text("Deal 8")
    assert pulka.deals.count() == 2

    line.restore(page)
    shows_the_server(page, 7)
    assert exported(pulka) == [deal(number) for number in range(1, 8)]
    assert keys(pulka) == typed


def test_a_deal_another_secretary_recorded_meanwhile_is_refused_and_can_be_discarded(
    page, browser, live_server, line, secretary, club
):
    pulka = seven_recorded(page, line.url, secretary, club)

    line.cut()
    type_deal(page, 8)
    shows_waiting(page, [8])
    line.saw_the_cut()
    theirs = other_secretary_records(browser, live_server, club, pulka, 8)

    line.restore(page)
    refused = refused_row(page, 8)
    expect(refused.locator(".pending-reason")).to_contain_text("Deal 8 was just recorded by")
    expect(refused.locator("button.pending-correct")).to_have_text("Correct")
    expect(refused.locator("button.pending-discard")).to_have_text("Discard")
    assert pulka.deals.count() == 8
    assert keys(pulka)[7] == theirs  # one deal 8: the other secretary's

    refused.locator("button.pending-discard").click()
    shows_the_server(page, 8)
    assert exported(pulka)[7] == made_six(8, 6, 0)  # the other secretary's deal 8
    assert pulka.deals.count() == 8


def test_the_deal_after_a_refused_one_waits_for_it_then_goes_with_the_next_number(
    page, browser, live_server, offline, secretary, club
):
    pulka = seven_recorded(page, offline.url, secretary, club)

    offline.cut()
    type_deal(page, 8)
    nine = type_deal(page, 9)
    shows_waiting(page, [8, 9])
    other_secretary_records(browser, live_server, club, pulka, 8)

    offline.restore(page)
    refused = refused_row(page, 8)
    waiting = page.locator("#deal-log > li.deal.pending[data-number='9']")
    expect(waiting).to_have_attribute("data-state", "waiting")
    page.wait_for_timeout(3000)  # the queue's timer and polls come and go: nothing is sent
    expect(waiting).to_have_attribute("data-state", "waiting")
    assert pulka.deals.count() == 8

    refused.locator("button.pending-discard").click()
    shows_the_server(page, 9)
    assert exported(pulka)[8] == deal(9)
    assert keys(pulka)[8] == nine


def test_a_page_never_opened_says_you_are_offline(page, offline, secretary, club):
    pulka = make_pulka(make_evening(club))
    open_pulka(page, offline.url, secretary, pulka)

    offline.cut()
    page.goto(offline.url + club.get_absolute_url())
    expect(page.locator("h1")).to_have_text("You are offline")
    assert page.locator("#deal-form").count() == 0


def test_two_tabs_of_one_pulka_show_one_queue_and_send_its_deal_once(
    context, offline, secretary, club
):
    pulka = make_pulka(make_evening(club))
    first = context.new_page()
    open_pulka(first, offline.url, secretary, pulka)
    second = context.new_page()
    second.goto(offline.url + pulka.get_absolute_url())
    second.wait_for_function("() => navigator.serviceWorker.controller !== null")

    offline.cut()
    key = type_deal(first, 1)
    shows_waiting(first, [1])
    shows_waiting(second, [1])

    offline.restore(first)
    shows_the_server(first, 1)
    shows_the_server(second, 1)
    assert keys(pulka) == [key]
    assert exported(pulka) == [deal(1)]
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_refused_deal_corrected_in_the_form_goes_with_its_key_and_the_servers_number(
    page, browser, live_server, offline, secretary, club
):
    pulka = seven_recorded(page, offline.url, secretary, club)

    offline.cut()
    eight = type_deal(page, 8)
    other_secretary_records(browser, live_server, club, pulka, 8)
    offline.restore(page)
    refused = refused_row(page, 8)

    # Ours was another deal: it becomes deal 9, typed again with the declarer's 7 tricks.
    refused.locator("button.pending-correct").click()
    expect(page.locator("#deal-form input[name=number]")).to_have_value("9")
    expect(page.locator("#deal-form input[name=entry_key]")).to_have_value(eight)
    typed = deal(8)
    seat = {name: i for i, name in enumerate(NAMES)}
    declarer = page.locator(f"#deal-form input[name=tricks_{seat[typed['declarer']]}]")
    expect(declarer).to_have_value(str(typed["tricks"][typed["declarer"]]))
    whister = next(name for name, call in typed["calls"].items() if call == "whist")
    declarer.fill("7")
    page.locator(f"#deal-form input[name=tricks_{seat[whister]}]").fill("2")
    declarer.press("Enter")

    shows_the_server(page, 9)
    assert keys(pulka)[8] == eight
    corrected = exported(pulka)[8]
    assert corrected["declarer"] == typed["declarer"]
    assert corrected["tricks"][typed["declarer"]] == 7
    assert corrected["tricks"][whister] == 2
    assert pulka.deals.count() == 9


def test_a_players_table_link_keeps_its_deals_too(page, live_server, offline, club):
    pulka = make_pulka(make_evening(club))
    token = scoring_services.table_link_open(pulka=pulka)
    page.goto(offline.url + reverse("scoring:table", args=[token]))
    page.click("#seat-choice button[value='1']")
    expect(page.locator("#deal-form[data-offline='new']")).to_be_visible()
    assert page.evaluate(ACTIVE), "no service worker became active within 15 s"
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    offline.cut()
    first, second = type_deal(page, 1), type_deal(page, 2)
    rows = page.locator("#table-deal-log > li.deal.pending")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-number", "2")
    expect(page.locator("#offline-banner")).to_contain_text(banner(2))
    page.reload()  # offline: the table's page comes from the phone
    expect(rows).to_have_count(2)
    expect(page.locator("#deal-form input[name=number]")).to_have_value("3")

    offline.restore(page)
    expect(rows).to_have_count(0, timeout=SENT)
    expect(page.locator("#table-deal-log > li.deal")).to_have_count(2, timeout=SENT)
    assert keys(pulka) == [first, second]
    assert exported(pulka) == [deal(1), deal(2)]
    assert set(pulka.deals.values_list("entered_seat", flat=True)) == {0}
    assert set(pulka.deals.values_list("confirmation", flat=True)) == {DealCheck.AWAITING}


STALE_FORM = """([number, key]) => {
    // The page as a copy kept from before the deal was recorded would show it.
    const form = document.getElementById('deal-form');
    form.querySelector('[name=number]').value = String(number);
    form.querySelector('[name=entry_key]').value = key;
    document.getElementById('deal-1').remove();
    document.dispatchEvent(new CustomEvent('htmx:afterSettle'));
}"""


def test_a_copy_of_the_page_from_before_a_deal_never_offers_its_key_again(
    page, offline, secretary, club
):
    pulka = make_pulka(make_evening(club))
    open_pulka(page, offline.url, secretary, pulka)
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        first = type_deal(page, 1)
    expect(page.locator("#deal-1")).to_be_visible()

    # Offline, the page is an older copy, whose form still carries deal 1's number and key:
    # sent as it is, the next deal would be taken for deal 1 ("already recorded") and lost.
    offline.cut()
    page.evaluate(STALE_FORM, [1, first])
    expect(page.locator("#deal-form input[name=number]")).to_have_value("2")
    expect(page.locator("#deal-form input[name=entry_key]")).not_to_have_value(first)
    sent = page.locator("#deal-log > li.deal.pending[data-number='1']")
    expect(sent).to_have_attribute("data-state", "sent")

    second = type_deal(page, 2)
    offline.restore(page)
    expect(page.locator("#deal-log > li.deal.pending[data-state='waiting']")).to_have_count(
        0, timeout=SENT
    )
    expect(page.locator("#deal-2")).to_be_visible(timeout=SENT)
    assert keys(pulka) == [first, second]
    assert exported(pulka) == [deal(1), deal(2)]


def test_a_browser_that_cannot_keep_deals_says_the_entry_was_not_saved(
    page, offline, secretary, club
):
    # No IndexedDB (a browser that refuses the site storage): nothing can wait on the phone,
    # so a deal without a connection is not taken as kept; the form says it was not saved.
    page.add_init_script("delete window.indexedDB")
    pulka = make_pulka(make_evening(club))
    log_in(page, SimpleNamespace(url=offline.url), secretary)
    page.goto(offline.url + pulka.get_absolute_url())
    page.route("**/deals/", lambda route: route.abort("internetdisconnected"))

    page.locator("#deal-form input[name=tricks_1]").fill("6")
    page.locator("#deal-form input[name=tricks_2]").fill("3")
    page.locator("#deal-form input[name=tricks_1]").press("Enter")

    expect(page.locator("#deal-form + .request-error, .request-error")).to_contain_text(
        "Not saved: no connection"
    )
    expect(page.locator("#deal-log > li.pending")).to_have_count(0)
    expect(page.locator("#offline-queue")).to_be_hidden()
    assert pulka.deals.count() == 0
