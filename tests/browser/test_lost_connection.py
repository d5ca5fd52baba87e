"""A deal entry that gets no answer is kept on the device and sent again with its key; a
refusal of the server's own is said by the form; a spectator's board that stops getting
answers says so, and stops saying so when they come back (static/js/errors.js, offline.js).

The server "stops" by Playwright's routing: the entry's POST is aborted before it leaves (the
server saw nothing), or after the server answered (it recorded the deal, the answer was lost
on the way), or it hangs, or a "proxy" answers 503. In each case the deal joins the device's
queue at once, "not sent yet", with its one-time key, and the form goes on with the next deal;
"Send now" sends it when the server answers again: the deal is recorded once. A refusal of
the server's own (403) is said in its words, by the form that keeps the entry. The states
pass axe's WCAG A/AA rules as shown.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import axe_playwright_python
import pytest
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation
from playwright.sync_api import expect

from club.models import Role
from tests.browser.factories import LISTEN, choose, fill_tricks, log_in, press_record, violations
from tests.conftest import make_club, make_evening, make_member, make_pulka, record

pytestmark = pytest.mark.django_db(transaction=True)

NOT_SENT = "not sent yet"
WAITING = ("%s deal waiting to be sent.", "%s deals waiting to be sent.")
POLLS_LOST = "Connection lost, retrying…"
ENTRY = "**/deals/"
PROXY_503 = (
    "<html><head><title>503 Service Temporarily Unavailable</title></head><body>"
    "<center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center>"
    "</body></html>"
)


AXE_JS = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations on the page as it is now."""
    page.evaluate(AXE_JS)
    result = page.evaluate("options => axe.run(document, options)", WCAG)
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in result["violations"]]


@pytest.fixture
def language() -> str:
    """The page's language (a test parametrizes it to another)."""
    return "en"


@pytest.fixture
def desk(page, live_server, language):
    """A secretary at a running pulka, with Boris's made six filled in but not yet sent."""
    club = make_club(slug="podil")
    membership = make_member(club, Role.SECRETARY, username="sekretar")
    pulka = make_pulka(make_evening(club))
    page.add_init_script(LISTEN)
    log_in(page, live_server, membership.user)
    page.goto(live_server.url + pulka.get_absolute_url())
    switch_language(page, language)
    choose(page, "declarer", "1")
    choose(page, "call_2", "whist")
    choose(page, "call_0", "pass")
    fill_tricks(page, s1=6, s2=3)
    return pulka, membership


def in_language(language: str, message: str) -> str:
    with translation.override(language):
        return translation.gettext(message)


def in_scripts(language: str, message: str | tuple[str, str], count: int = 0) -> str:
    """A message of the scripts (the djangojs catalog) in `language`; a (singular, plural)
    pair is said for `count`, filled in."""
    catalog = DjangoTranslation(language, domain="djangojs")
    if isinstance(message, str):
        return catalog.gettext(message)
    return catalog.ngettext(*message, count) % count


def switch_language(page, language: str) -> None:
    """The page's own language switch, as a visitor presses it."""
    if language != "en":
        page.locator(f".lang-switch button[value={language}]").click()
        page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == language


def entry_key(page) -> str:
    return page.locator("#deal-form input[name=entry_key]").input_value()


def the_form_as_filled(page) -> dict:
    form = page.locator("#deal-form")
    return {
        "declarer": form.locator("input[name=declarer]:checked").get_attribute("value"),
        "call_2": form.locator("input[name=call_2]:checked").get_attribute("value"),
        "call_0": form.locator("input[name=call_0]:checked").get_attribute("value"),
        "tricks_1": form.locator("input[name=tricks_1]").input_value(),
        "tricks_2": form.locator("input[name=tricks_2]").input_value(),
        "number": form.locator("input[name=number]").input_value(),
        "entry_key": entry_key(page),
    }


def message_by_the_form(page, expected: str) -> None:
    """The message right after the form, as an alert, with these words."""
    page.locator("#deal-form + .request-error[role=alert]").wait_for()
    page.wait_for_function(
        "text => document.querySelector('#deal-form + .request-error').textContent === text",
        arg=expected,
    )


# Each request's timeout, as errors.js set it, by the verb and path htmx sent it to.
TIMEOUTS = """
window.__timeouts = [];
document.addEventListener("htmx:beforeSend", (e) => {
  const config = e.detail.requestConfig;
  window.__timeouts.push([config.verb, config.path.split("?")[0], e.detail.xhr.timeout]);
});
"""


def timeouts(page) -> set[tuple[str, str, int]]:
    return {tuple(item) for item in page.evaluate("window.__timeouts")}


def enter_without_answer(page) -> None:
    with page.expect_event("requestfailed", lambda r: r.method == "POST"):
        page.locator("#deal-form input[name=tricks_2]").press("Enter")


def kept_on_the_device(page, filled: dict, language: str = "en") -> None:
    """The entry as the queue shows it: deal 1 "not sent yet", a banner counting it, no error
    by the form, and the form gone on to deal 2 with a key of its own."""
    row = page.locator("#deal-log > li.deal.pending[data-number='1']")
    expect(row).to_have_attribute("data-state", re.compile("waiting|sending"))
    expect(row.locator(".pending-state")).to_have_text(
        re.compile(re.escape(in_scripts(language, NOT_SENT)) + "|" + re.escape("…"))
    )
    expect(page.locator("#deal-log > li.deal.pending")).to_have_count(1)
    expect(page.locator("#offline-queue")).to_be_visible()
    expect(page.locator("#offline-banner")).to_contain_text(in_scripts(language, WAITING, 1))
    expect(page.locator("#deal-form input[name=number]")).to_have_value("2")
    assert entry_key(page) != filled["entry_key"]
    assert page.locator(".request-error").count() == 0


def sent_once(page, pulka, filled: dict) -> None:
    """ "Send now": the kept deal reaches the server with its key, once, and the page shows
    the server's log again."""
    page.locator("#offline-queue button.queue-send").click()
    expect(page.locator("#deal-log > li.deal.pending")).to_have_count(0, timeout=15_000)
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("#deal-log > li.deal")).to_have_count(1, timeout=15_000)
    assert list(pulka.deals.values_list("number", "entry_key")) == [
        (1, uuid.UUID(filled["entry_key"]))
    ]
    assert page.locator(".request-error").count() == 0


def test_an_entry_that_never_left_is_kept_on_the_device_and_sent_once(page, desk):
    pulka, _ = desk
    filled = the_form_as_filled(page)
    page.evaluate(TIMEOUTS)
    page.route(ENTRY, lambda route: route.abort("internetdisconnected"))

    enter_without_answer(page)
    # An entry waits 20 s at most for its answer (a hung server is no answer either).
    assert ("post", f"{pulka.get_absolute_url()}deals/", 20000) in timeouts(page)

    kept_on_the_device(page, filled)
    assert page.locator("#deal-form button[type=submit]").is_enabled()
    assert axe_violations(page) == []
    assert pulka.deals.count() == 0

    page.unroute(ENTRY)
    sent_once(page, pulka, filled)
    assert page.locator("#board tr[data-player='Boris'] td.pool").get_attribute("data-pool") == "2"
    assert violations(page) == []


def test_an_entry_whose_answer_was_lost_is_recorded_once_when_sent_again(page, desk):
    pulka, _ = desk
    filled = the_form_as_filled(page)

    def recorded_then_cut(route):
        route.fetch()  # the server gets the entry and records it...
        route.abort("connectionreset")  # ...and its answer never reaches the phone

    page.route(ENTRY, recorded_then_cut)
    enter_without_answer(page)

    kept_on_the_device(page, filled)
    assert pulka.deals.count() == 1

    page.unroute(ENTRY)
    # Sent again with its key: "already recorded" counts as sent.
    sent_once(page, pulka, filled)


@pytest.mark.parametrize("language", ["en", "uk"])
def test_an_entry_a_proxy_answers_503_to_is_kept_and_sent_once(page, desk, language):
    pulka, _ = desk
    filled = the_form_as_filled(page)
    page.route(
        ENTRY, lambda route: route.fulfill(status=503, content_type="text/html", body=PROXY_503)
    )

    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.status == 503):
        page.locator("#deal-form input[name=tricks_2]").press("Enter")

    kept_on_the_device(page, filled, language)
    assert "nginx" not in page.inner_text("main")  # the proxy's page is never shown
    assert pulka.deals.count() == 0

    page.unroute(ENTRY)
    sent_once(page, pulka, filled)


def test_a_refusal_of_the_server_says_its_own_sentence_by_the_form(page, desk):
    pulka, membership = desk
    filled = the_form_as_filled(page)
    membership.role = Role.PLAYER  # demoted on another desk meanwhile
    membership.save()

    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.status == 403):
        page.locator("#deal-form input[name=tricks_2]").press("Enter")

    message_by_the_form(page, "Your role in the club does not allow this.")
    assert the_form_as_filled(page) == filled
    assert pulka.deals.count() == 0


def test_an_entry_the_server_sits_on_is_no_answer_either(page, desk):
    pulka, _ = desk
    filled = the_form_as_filled(page)
    hung = []
    page.route(ENTRY, lambda route: hung.append(route))  # taken, never answered
    # The form's own timeout (hx-request) wins over errors.js's 20 s: the test needs no wait.
    page.locator("#deal-form").evaluate(
        "form => form.setAttribute('hx-request', '{\"timeout\": 1500}')"
    )

    page.locator("#deal-form input[name=tricks_2]").press("Enter")

    kept_on_the_device(page, filled)
    assert len(hung) >= 1
    assert pulka.deals.count() == 0
    page.unroute(ENTRY)
    sent_once(page, pulka, filled)


def test_the_next_deal_redrawn_keeps_the_kept_one_and_goes_after_it(page, desk):
    pulka, _ = desk
    filled = the_form_as_filled(page)
    page.route(ENTRY, lambda route: route.abort("internetdisconnected"))
    enter_without_answer(page)
    kept_on_the_device(page, filled)

    # Deal 2's form is redrawn for another choice (Boris deals, Vera declares, both whist):
    # deal 1 still waits.
    page.locator("#deal-form input[name=call_1][value=whist]").check()
    expect(page.locator("#deal-form input[name=tricks_1]")).to_be_visible()
    expect(page.locator("#deal-log > li.deal.pending[data-number='1']")).to_have_count(1)
    expect(page.locator("#offline-banner")).to_contain_text("1 deal waiting to be sent")

    page.unroute(ENTRY)
    sent_once(page, pulka, filled)
    both_whist = page.locator("#deal-form input[name=call_1][value=whist]")
    if not both_whist.is_checked():  # the form came from the server again
        both_whist.check()
        page.wait_for_timeout(300)
    fill_tricks(page, s2=6, s0=2, s1=2)
    press_record(page)
    assert list(pulka.deals.values_list("number", flat=True)) == [1, 2]
    assert pulka.deals.get(number=2).calls == {"0": "whist", "1": "whist"}
    assert page.locator(".request-error").count() == 0


# --- a spectator's board ------------------------------------------------------------------


@pytest.fixture
def spectated(live_server):
    club = make_club(slug="open", is_public=True)
    evening = make_evening(club)
    pulka = make_pulka(evening)
    record(
        pulka,
        {
            "kind": "game",
            "contract": "6S",
            "declarer": "Anna",
            "calls": {"Boris": "pass", "Vera": "pass"},
        },
    )
    return {"pulka": pulka.get_absolute_url(), "evening": evening.get_absolute_url()}


@pytest.mark.parametrize(("where", "language"), [("pulka", "en"), ("evening", "uk")])
def test_a_board_whose_polls_fail_twice_says_so_until_one_is_answered(
    page, live_server, spectated, where, language
):
    page.add_init_script(LISTEN)
    page.add_init_script(TIMEOUTS)
    page.goto(live_server.url + spectated[where])
    switch_language(page, language)
    status = page.locator("#live-status")
    assert status.get_attribute("role") == "status"
    assert status.get_attribute("aria-live") == "polite"
    poller = page.locator("[hx-trigger^='every']").first
    path = poller.get_attribute("hx-get").split("?")[0]
    polls = re.compile(re.escape(live_server.url + path) + r"\?")
    box = poller.bounding_box()
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))

    page.route(polls, lambda route: route.abort("internetdisconnected"))
    page.wait_for_event("requestfailed", timeout=10_000)
    assert status.inner_text() == ""  # one lost poll is not yet worth a word
    page.wait_for_function(
        "text => document.getElementById('live-status').textContent === text",
        arg=in_language(language, POLLS_LOST),
        timeout=10_000,
    )
    assert len(failed) >= 2
    assert ("get", path, 15000) in timeouts(page)  # a hung poll counts as lost after 15 s
    assert page.locator(".request-error").count() == 0  # nothing inserted by the board
    assert poller.bounding_box() == box  # nothing moved
    assert status.is_visible()
    assert axe_violations(page) == []

    page.unroute(polls)
    page.wait_for_function(
        "() => document.getElementById('live-status').textContent === ''", timeout=10_000
    )
    assert page.locator("[hx-trigger^='every']").first.bounding_box() == box
    assert violations(page) == []
