"""A spectator watches a running pulka while a secretary records a deal elsewhere; and the
pulka and evening pages print cleanly to A4."""

import io
import re

import pytest
from pypdf import PdfReader

from club.models import Role
from scoring import selectors, services
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_pulka, record
from tests.scoring.factories import six

pytestmark = pytest.mark.django_db(transaction=True)

SIX = {
    "kind": "game",
    "declarer": "Boris",
    "contract": "6S",
    "calls": {"Vera": "whist", "Anna": "pass"},
    "tricks": {"Boris": 6, "Vera": 3, "Anna": 1},
}


def _login(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def _pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_spectator_sees_the_deal_without_reloading(live_server, browser, artifacts):
    club = make_club(slug="open", is_public=True, pool_target=10)
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    pulka = make_pulka(make_evening(club))
    record(pulka, SIX)
    url = live_server.url + pulka.get_absolute_url()

    spectator = browser.new_context().new_page()
    spectator.goto(url)
    spectator.evaluate("window.__noReload = true")
    assert (
        spectator.locator("#board tr[data-player='Vera'] td.pool").get_attribute("data-pool") == "0"
    )

    desk = browser.new_context().new_page()
    _login(desk, live_server, secretary.username)
    desk.goto(url)
    desk.locator("#deal-form input[name='kind'][value='misere']").check()
    desk.wait_for_selector("#deal-form input[name='kind'][value='misere']:checked")
    desk.wait_for_selector("#deal-form legend:has-text('Tricks taken by the declarer')")
    desk.locator("#deal-form input[name='declarer'][value='2']").check()
    desk.wait_for_timeout(300)
    with desk.expect_response(lambda r: r.url.endswith("/deals/")):
        desk.locator("#deal-form button[type='submit']").click()

    # The spectator polls every 3 seconds.
    spectator.wait_for_selector(
        "#board tr[data-player='Vera'] td.pool[data-pool='10']", timeout=10_000
    )
    assert spectator.evaluate("window.__noReload") is True
    assert spectator.locator("#deal-log li.deal").count() == 2
    vera_pool = spectator.locator("#drawing g.player[data-player='Vera'] g.pool")
    assert "10" in vera_pool.text_content()
    assert "Vera misère, clean" in spectator.inner_text("#deal-log")
    spectator.screenshot(path=str(artifacts / "spectator.png"), full_page=True)


def test_a_spectator_follows_new_deals_and_a_correction_row_by_row(live_server, browser):
    """The polls send the changed rows only (htmx out-of-band swaps): the log the spectator
    ends with is the log a fresh page shows, in the same order."""
    club = make_club(slug="open", is_public=True, pool_target=20)
    pulka = make_pulka(make_evening(club))
    record(pulka, SIX, six("Vera", "Anna", "Boris"), six("Anna", "Boris", "Vera"))
    url = live_server.url + pulka.get_absolute_url()
    spectator = browser.new_context().new_page()
    spectator.goto(url)
    spectator.evaluate("window.__noReload = true")

    record(pulka, six("Boris", "Vera", "Anna"))
    spectator.wait_for_selector("#deal-4", timeout=10_000)
    record(pulka, six("Vera", "Anna", "Boris"))
    spectator.wait_for_selector("#deal-5", timeout=10_000)
    before = spectator.inner_text("#deal-2")
    deal = pulka.deals.get(number=2)
    services.deal_update(
        pulka=pulka,
        number=2,
        data=six("Vera", "Boris", "Anna", tricks=7),
        expected_version=deal.version,
        changed_by=None,
    )
    spectator.wait_for_function(
        "before => document.querySelector('#deal-2').innerText !== before",
        arg=before,
        timeout=10_000,
    )

    assert spectator.evaluate("window.__noReload") is True
    ids = spectator.eval_on_selector_all("#deal-log > li.deal", "items => items.map(i => i.id)")
    assert ids == ["deal-5", "deal-4", "deal-3", "deal-2", "deal-1"]
    fresh = browser.new_context().new_page()
    fresh.goto(url)
    assert spectator.inner_text("#deal-log") == fresh.inner_text("#deal-log")
    assert spectator.inner_text("#board table.sheet") == fresh.inner_text("#board table.sheet")


def test_the_pulka_and_the_session_print_on_a4(live_server, page, artifacts):
    club = make_club(name="Print Club", slug="print", is_public=True, pool_target=2)
    evening = make_evening(club, venue="Cafe Lviv")
    pulka = make_pulka(evening)
    no_play = {"kind": "game", "contract": "6S"}
    record(
        pulka,
        SIX,
        {**no_play, "declarer": "Vera", "calls": {"Anna": "pass", "Boris": "pass"}},
        {**no_play, "declarer": "Anna", "calls": {"Boris": "pass", "Vera": "pass"}},
    )
    sheet = selectors.pulka_sheet(pulka)

    page.goto(live_server.url + pulka.get_absolute_url())
    pdf = page.pdf(format="A4", print_background=False)
    (artifacts / "pulka.pdf").write_bytes(pdf)
    text = _pdf_text(pdf)

    assert "Print Club" in text
    assert "Cafe Lviv" in text
    for name in ("Anna", "Boris", "Vera"):
        assert name in text
    results = [int(n.replace("−", "-")) for n in re.findall(r"[+−-]?\d+", text)]
    for value in sheet.result_rounded.values():
        assert value in results
    assert "Final settlement" in text
    assert "Log out" not in text
    assert "Record the deal" not in text

    page.goto(live_server.url + evening.get_absolute_url())
    text = _pdf_text(page.pdf(format="A4"))

    assert "Print Club" in text
    assert "Table 1" in text
    assert "New table" not in text
