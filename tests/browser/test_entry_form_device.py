"""The new deal's form on the device, in Chromium (static/js/entry-form.js): offline, a choice
reshapes the form without the server, into the fields the server renders for the same choices
(the deal-form view, asked here through Django's test client); the form checks itself in the
server's words; and it resets for the next deal. Nothing here is submitted."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from club.models import Role
from tests.browser.factories import LISTEN, log_in, violations
from tests.conftest import HTMX, make_club, make_evening, make_member, make_pulka

pytestmark = pytest.mark.django_db(transaction=True)

THREE = ("Anna", "Boris", "Vera")
FOUR = ("Anna", "Boris", "Vera", "Gleb")

# What a form offers, in order: each visible field with its name, type, choice value and
# bound, and the text of its label; the legends and help texts; the dealer in the heading.
DESCRIBE = """
(form) => {
  const text = (node) => node ? node.textContent.replace(/\\s+/g, " ").trim() : null;
  const fields = Array.from(form.elements)
    .filter((el) => el.name && el.type !== "hidden" && el.tagName !== "BUTTON")
    .map((el) => [el.name, el.type, el.type === "radio" ? el.value : "", el.max || "",
                  text(el.closest("label"))]);
  return {
    fields,
    legends: Array.from(form.querySelectorAll("legend")).map(text),
    help: Array.from(form.querySelectorAll("fieldset p.small, label .small")).map(text),
    dealer: text(form.querySelector("h2 > span")),
  };
}
"""
# The same of a form the server rendered (an htmx fragment).
DESCRIBE_HTML = (
    "(html) => { const doc = new DOMParser().parseFromString(html, 'text/html');"
    " return (" + DESCRIBE + ")(doc.querySelector('#deal-form')); }"
)


@pytest.fixture
def secretary_page(page: Page, live_server):
    club = make_club(name="Offline Club", slug="offline")
    secretary = make_member(club, Role.SECRETARY, username="sasha").user
    evening = make_evening(club)
    page.add_init_script(LISTEN)
    log_in(page, live_server, secretary)
    client = Client()
    client.force_login(secretary)

    def open_pulka(names=THREE, rules=None):
        pulka = make_pulka(evening, names=names, rules=rules)
        page.goto(live_server.url + pulka.get_absolute_url())
        expect(page.locator("#deal-form[data-offline='new']")).to_be_visible()
        return pulka

    return page, client, open_pulka


def go_offline(page: Page) -> None:
    page.context.set_offline(True)
    page.wait_for_function("() => navigator.onLine === false")


def tap(page: Page, name: str, value: str) -> None:
    """A choice as the secretary makes it, offline: no request leaves the page."""
    radio = page.locator(f"#deal-form input[name='{name}'][value='{value}']")
    radio.check()
    expect(radio).to_be_checked()


def device_form(page: Page) -> dict:
    return page.locator("#deal-form").evaluate(DESCRIBE)


def server_form(page: Page, client: Client, pulka) -> dict:
    """What the deal-form view renders for the choices the device's form holds now."""
    query = page.locator("#deal-form").evaluate(
        "(form) => new URLSearchParams(new FormData(form)).toString()"
    )
    response = client.get(
        pulka.get_absolute_url() + "deal-form/", dict(parse_qsl(query)), headers=HTMX
    )
    assert response.status_code == 200
    return page.evaluate(DESCRIBE_HTML, response.content.decode())


def names_of(form: dict) -> list[str]:
    return list(dict.fromkeys(field[0] for field in form["fields"]))


def test_offline_choices_reshape_the_form_as_the_server_would(secretary_page):
    page, client, open_pulka = secretary_page
    pulka = open_pulka()
    page.set_viewport_size({"width": 400, "height": 900})  # a phone: the talon's card grid shows
    go_offline(page)

    tap(page, "kind", "raspasy")
    raspasy = device_form(page)
    assert raspasy == server_form(page, client, pulka)
    assert names_of(raspasy) == ["kind", "tricks_0", "tricks_1", "tricks_2", "dealer"]

    tap(page, "kind", "misere")
    misere = device_form(page)
    assert misere == server_form(page, client, pulka)
    assert names_of(misere) == ["kind", "declarer", "tricks_1", "dealer"]
    assert "Tricks taken by the declarer" in misere["legends"]
    assert "Empty means a clean misère (no trick)." in misere["help"]

    tap(page, "kind", "game")
    game = device_form(page)
    assert game == server_form(page, client, pulka)
    assert names_of(game) == [
        "kind", "declarer", "level", "suit", "call_2", "call_0",
        "tricks_1", "tricks_2", "tricks_0", "quick_tricks", "talon", "dealer",
    ]  # fmt: skip
    # The talon's card grid of a part made on the device works as the server's does.
    page.locator("#deal-form [data-card='AS']").click()
    page.locator("#deal-form [data-card='KH']").click()
    expect(page.locator("#deal-form input[name=talon]")).to_have_value("AS KH")
    expect(page.locator("#deal-form [data-card='AS']")).to_have_attribute("aria-pressed", "true")

    tap(page, "declarer", "2")
    tap(page, "call_0", "pass")
    tap(page, "call_1", "pass")
    passed = device_form(page)
    assert passed == server_form(page, client, pulka)
    assert names_of(passed) == [
        "kind", "declarer", "level", "suit", "call_0", "call_1", "quick_tricks", "talon", "dealer",
    ]  # fmt: skip
    assert [f[2] for f in passed["fields"] if f[0] == "call_1"] == ["whist", "pass", "half"]

    page.locator("#deal-form select[name=dealer]").select_option("2")
    moved = device_form(page)
    assert moved == server_form(page, client, pulka)
    assert moved["dealer"] == "dealer Vera"
    expect(page.locator("#deal-form input[name=talon]")).to_have_value("AS KH")  # still typed
    assert violations(page) == []


def test_half_whist_at_leningrad_follows_the_level_offline(secretary_page):
    page, client, open_pulka = secretary_page
    pulka = open_pulka(rules={"preset": "leningrad"})
    go_offline(page)

    tap(page, "call_2", "pass")
    at_six = device_form(page)
    tap(page, "level", "8")
    at_eight = device_form(page)

    assert at_eight == server_form(page, client, pulka)
    assert [f[2] for f in at_six["fields"] if f[0] == "call_0"] == ["whist", "pass", "half"]
    assert [f[2] for f in at_eight["fields"] if f[0] == "call_0"] == ["whist", "pass"]
    assert "quick_tricks" not in names_of(at_eight)  # Leningrad counts no quick tricks
    tap(page, "level", "7")
    tap(page, "call_0", "half")
    assert device_form(page) == server_form(page, client, pulka)


def test_at_four_the_dealers_raspasy_count_is_the_talons(secretary_page):
    page, client, open_pulka = secretary_page
    pulka = open_pulka(names=FOUR)
    go_offline(page)

    tap(page, "kind", "raspasy")
    raspasy = device_form(page)
    assert raspasy == server_form(page, client, pulka)
    counts = [f for f in raspasy["fields"] if f[0].startswith("tricks_")]
    assert counts[0] == ["tricks_0", "number", "", "2", "talon (0–2)"]
    assert [f[3] for f in counts] == ["2", "10", "10", "10"]
    expect(page.locator("#deal-form input[name=tricks_0]")).to_have_value("0")

    page.locator("#deal-form input[name=tricks_1]").fill("4")
    page.locator("#deal-form select[name=dealer]").select_option("1")
    moved = device_form(page)
    assert moved == server_form(page, client, pulka)
    assert [f[4] for f in moved["fields"] if f[0].startswith("tricks_")] == [
        "Anna", "talon (0–2)", "Vera", "Gleb",
    ]  # fmt: skip
    expect(page.locator("#deal-form input[name=tricks_1]")).to_have_value("4")

    tap(page, "kind", "game")
    game = device_form(page)
    assert game == server_form(page, client, pulka)
    assert [f[2] for f in game["fields"] if f[0] == "declarer"] == ["0", "2", "3"]


def test_the_form_checks_itself_in_the_servers_words(secretary_page):
    page, client, open_pulka = secretary_page
    pulka = open_pulka()
    go_offline(page)
    form = page.locator("#deal-form")
    alert = page.locator("#deal-form > div.errors[role=alert]")

    page.locator("#deal-form input[name=tricks_1]").fill("6")
    assert form.evaluate("(form) => PulkaEntryForm.check(form)") is False
    expect(alert).to_have_text("Enter the tricks of Vera, Anna.")

    page.locator("#deal-form input[name=tricks_1]").fill("9")
    page.locator("#deal-form input[name=tricks_2]").fill("3")
    assert form.evaluate("(form) => PulkaEntryForm.check(form)") is False
    expect(alert).to_have_text("9 + 3 = 12 tricks, a deal has 10")
    expect(alert).to_have_count(1)
    # The server says the same of the same form.
    posted = client.post(
        pulka.get_absolute_url() + "deals/",
        dict(parse_qsl(form.evaluate("(f) => new URLSearchParams(new FormData(f)).toString()"))),
        headers=HTMX,
    ).content.decode()
    assert re.search(r'role="alert"><p>9 \+ 3 = 12 tricks, a deal has 10</p>', posted)

    page.locator("#deal-form input[name=tricks_1]").fill("11")
    assert form.evaluate("(form) => PulkaEntryForm.check(form)") is False
    expect(alert).to_have_count(0)
    expect(page.locator("#deal-form label[for=id_tricks_1] .errors")).to_have_text(
        "Ensure this value is less than or equal to 10."
    )

    page.locator("#deal-form input[name=tricks_1]").fill("7")
    page.locator("#deal-form input[name=tricks_2]").fill("2")
    assert form.evaluate("(form) => PulkaEntryForm.check(form)") is True
    expect(page.locator("#deal-form .errors")).to_have_count(0)
    summary = form.evaluate("(form) => PulkaEntryForm.summary(form)")
    assert summary == "Boris 6♠ · Vera whist, Anna pass · 7–2–1"


def test_reset_prepares_the_next_deal_with_its_number_and_dealer(secretary_page):
    page, client, open_pulka = secretary_page
    pulka = open_pulka()
    go_offline(page)
    form = page.locator("#deal-form")
    tap(page, "kind", "misere")
    form.evaluate("(form) => PulkaEntryForm.check(form)")  # leaves an error to clear
    page.locator("#deal-form select[name=dealer]").select_option("1")
    assert form.evaluate("(form) => PulkaEntryForm.dealerOf(form)") == 1

    form.evaluate("(form) => PulkaEntryForm.reset(form, {number: 2, key: 'k-2', dealer: 2})")

    expect(page.locator("#deal-form h2")).to_have_text(re.compile(r"^Deal 2\s+dealer Vera$"))
    expect(page.locator("#deal-form input[name=number]")).to_have_value("2")
    expect(page.locator("#deal-form input[name=entry_key]")).to_have_value("k-2")
    expect(page.locator("#deal-form input[name=rotation_dealer]")).to_have_value("2")
    expect(page.locator("#deal-form select[name=dealer]")).to_have_value("2")
    expect(page.locator("#deal-form .errors")).to_have_count(0)
    checked = form.evaluate(
        "(f) => Array.from(f.querySelectorAll('input:checked')).map((i) => i.name + '=' + i.value)"
    )
    assert checked == ["kind=game", "declarer=0", "level=6", "suit=S", "call_1=whist",
                       "call_2=pass", "quick_tricks=0"]  # fmt: skip
    assert device_form(page) == server_form(page, client, pulka)
    assert form.evaluate("(form) => PulkaEntryForm.dealerOf(form)") == 2


@pytest.mark.parametrize("failure", ["refused", "502"])
def test_a_server_out_of_reach_while_online_reshapes_on_the_device(secretary_page, failure):
    page, client, open_pulka = secretary_page
    pulka = open_pulka()

    def fail(route):
        if failure == "refused":
            route.abort("connectionrefused")
        else:
            route.fulfill(status=502, body="<html><h1>502 Bad Gateway</h1></html>")

    page.route(re.compile(r"/deal-form/"), fail)
    page.locator("#deal-form input[name=kind][value=misere]").check()

    expect(page.locator("#deal-form input[name=tricks_1]")).to_be_visible()
    assert names_of(device_form(page)) == ["kind", "declarer", "tricks_1", "dealer"]
    assert device_form(page) == server_form(page, client, pulka)

    # Back in reach: a choice in a part the device made asks the server again.
    page.unroute(re.compile(r"/deal-form/"))
    with page.expect_response(re.compile(r"/deal-form/")):
        page.locator("#deal-form input[name=declarer][value='2']").check()
    expect(page.locator("#deal-form input[name=tricks_2]")).to_be_visible()
