"""A deal entry that gets no answer, or an error, says so by the form and keeps the entry; a
spectator's board that stops getting answers says so, and stops saying so when they come back
(static/js/errors.js).

The server "stops" by Playwright's routing: the entry's POST is aborted before it leaves (the
server saw nothing), or after the server answered (it recorded the deal, the answer was lost
on the way), or it hangs, or a "proxy" answers 503. In each case the form stays with its
values and its one-time key, and Enter sends it again: the deal is recorded once. A refusal of
the server's own (403) is said in its words. The messages pass axe's WCAG A/AA rules as shown.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import axe_playwright_python
import pytest
from django.utils import translation

from club.models import Role
from tests.browser.factories import LISTEN, choose, fill_tricks, log_in, press_record, violations
from tests.conftest import make_club, make_evening, make_member, make_pulka, record

pytestmark = pytest.mark.django_db(transaction=True)

NO_CONNECTION = "Not saved: no connection. Your entry is kept; press Enter to try again."
NO_ANSWER = "Not saved: the server did not answer. Your entry is kept; press Enter to try again."
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


def test_an_entry_that_never_left_is_kept_and_enter_records_it_once(page, desk):
    pulka, _ = desk
    filled = the_form_as_filled(page)
    page.evaluate(TIMEOUTS)
    page.route(ENTRY, lambda route: route.abort("internetdisconnected"))

    enter_without_answer(page)
    # An entry waits 20 s at most for its answer (a hung server is no answer either).
    assert ("post", f"{pulka.get_absolute_url()}deals/", 20000) in timeouts(page)

    message_by_the_form(page, NO_CONNECTION)
    assert the_form_as_filled(page) == filled
    assert page.locator("#deal-form button[type=submit]").is_enabled()
    assert axe_violations(page) == []
    assert pulka.deals.count() == 0
    assert page.locator("#deal-log li.deal").count() == 0

    page.unroute(ENTRY)
    press_record(page)

    assert list(pulka.deals.values_list("number", "entry_key")) == [
        (1, uuid.UUID(filled["entry_key"]))
    ]
    assert page.locator("#deal-log li.deal").count() == 1
    assert page.locator("#board tr[data-player='Boris'] td.pool").get_attribute("data-pool") == "2"
    assert page.locator(".request-error").count() == 0
    assert entry_key(page) != filled["entry_key"]  # the next deal's form has its own key
    assert violations(page) == []


def test_an_entry_whose_answer_was_lost_is_recorded_once_when_sent_again(page, desk):
    pulka, _ = desk
    filled = the_form_as_filled(page)

    def recorded_then_cut(route):
        route.fetch()  # the server gets the entry and records it...
        route.abort("connectionreset")  # ...and its answer never reaches the phone

    page.route(ENTRY, recorded_then_cut)
    enter_without_answer(page)

    message_by_the_form(page, NO_CONNECTION)
    assert the_form_as_filled(page) == filled
    assert pulka.deals.count() == 1

    page.unroute(ENTRY)
    press_record(page)

    assert list(pulka.deals.values_list("number", "entry_key")) == [
        (1, uuid.UUID(filled["entry_key"]))
    ]
    assert "Deal 1 is already recorded." in page.inner_text("#deal-form")
    assert page.locator("#deal-log li.deal").count() == 1
    assert page.locator(".request-error").count() == 0


@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_proxys_503_is_a_plain_message_and_enter_tries_again(page, desk, language):
    pulka, _ = desk
    filled = the_form_as_filled(page)
    page.route(
        ENTRY, lambda route: route.fulfill(status=503, content_type="text/html", body=PROXY_503)
    )

    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.status == 503):
        page.locator("#deal-form input[name=tricks_2]").press("Enter")

    message_by_the_form(page, in_language(language, NO_ANSWER))
    assert the_form_as_filled(page) == filled
    assert "nginx" not in page.inner_text("main")  # the proxy's page is never shown
    assert pulka.deals.count() == 0

    page.unroute(ENTRY)
    press_record(page)
    assert pulka.deals.count() == 1
    assert page.locator(".request-error").count() == 0


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

    message_by_the_form(page, NO_CONNECTION)
    assert len(hung) == 1
    assert the_form_as_filled(page) == filled
    page.unroute(ENTRY)
    press_record(page)
    assert pulka.deals.count() == 1
    assert page.locator(".request-error").count() == 0


def test_a_changed_choice_keeps_the_message_until_the_entry_is_saved(page, desk):
    pulka, _ = desk
    page.route(ENTRY, lambda route: route.abort("internetdisconnected"))
    enter_without_answer(page)
    message_by_the_form(page, NO_CONNECTION)

    # The form is redrawn for another choice: the entry is still not saved.
    choose(page, "call_0", "whist")
    message_by_the_form(page, NO_CONNECTION)
    assert page.locator(".request-error").count() == 1

    page.unroute(ENTRY)
    fill_tricks(page, s1=6, s2=2, s0=2)
    press_record(page)
    assert pulka.deals.count() == 1
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
