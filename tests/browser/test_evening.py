"""A secretary runs a table in Chromium: starts it, records six kinds of deal, corrects one
and ends the pulka; the page must agree with the engine, and never reload."""

import re

import pytest

from club.models import Role
from scoring import selectors
from scoring.models import Pulka, PulkaStatus
from tests.browser.factories import choose, fill_tricks, pool_of, press_record
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_secretary_runs_a_table_from_start_to_end(live_server, page, artifacts):
    club = make_club(name="Сочинка", slug="sochi", is_public=False, pool_target=10)
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    for name in ("Anna", "Boris", "Vera"):
        make_player(club, name)
    evening = make_evening(club)

    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", secretary.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/c/{club.slug}/s/{evening.pk}/tables/new/")
    for seat, name in enumerate(("Anna", "Boris", "Vera")):
        page.select_option(f"select[name=seat_{seat}]", label=name)
    page.check("input[name=first_dealer][value='0']")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/p/\d+/$"))
    pulka = Pulka.objects.get(evening=evening)
    page.evaluate("window.__noReload = true")

    # 1. A made six: Boris declares, Vera whists alone; Anna's count is left for the form.
    choose(page, "declarer", "1")
    choose(page, "call_2", "whist")
    choose(page, "call_0", "pass")
    fill_tricks(page, s1=6, s2=3)
    press_record(page)
    assert pool_of(page, "Boris") == "2"
    assert page.locator("#deal-log li.deal").count() == 1

    # 2. A set seven: Vera declares, both whist, she takes 6.
    choose(page, "declarer", "2")
    choose(page, "level", "7")
    page.check("#deal-form input[name='suit'][value='H']")
    choose(page, "call_0", "whist")
    choose(page, "call_1", "whist")
    fill_tricks(page, s2=6, s0=2, s1=2)
    press_record(page)
    assert "Vera: 4 into the mountain (1 trick short)" in page.inner_text("#deal-log")

    # 3. A whister set: Anna's six, Boris whists alone and the defence takes only 2.
    choose(page, "declarer", "0")
    choose(page, "call_1", "whist")
    choose(page, "call_2", "pass")
    fill_tricks(page, s0=8, s1=1, s2=1)
    press_record(page)
    assert pool_of(page, "Anna") == "2"
    assert "Boris: 4 into the mountain (set on whist)" in page.inner_text("#deal-log")

    # 4. A half-whist at seven: Boris declares, Vera passes, Anna says half.
    choose(page, "declarer", "1")
    choose(page, "level", "7")
    choose(page, "call_2", "pass")
    choose(page, "call_0", "half")
    assert page.locator("#deal-form input[name^='tricks_']").count() == 0
    press_record(page)
    assert pool_of(page, "Boris") == "6"

    # 5. A clean misère by Vera.
    choose(page, "kind", "misere")
    choose(page, "declarer", "2")
    press_record(page)
    assert pool_of(page, "Vera") == "10"

    # 6. Raspasy.
    choose(page, "kind", "raspasy")
    fill_tricks(page, s0=2, s1=5, s2=3)
    press_record(page)
    assert page.locator("#deal-log li.deal").count() == 6

    # Correct deal 1: Boris took 7.
    page.locator("#deal-1 .deal-actions a", has_text="edit").click()
    page.wait_for_selector("text=Correct deal 1")
    fill_tricks(page, s1=7, s2=2, s0=1)
    page.locator("#deal-form button[type='submit']").click()
    page.wait_for_selector("#deal-form >> text=Deal 7")
    assert "6♠ · Vera whist, Anna pass · 7–2–1" in page.inner_text("#deal-1")

    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(artifacts / "pulka-desktop.png"), full_page=True)
    form, board = page.locator("#deal-form").bounding_box(), page.locator("#board").bounding_box()
    assert form["x"] > board["x"] + board["width"] / 2  # side by side: the form on the right
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "pulka-phone.png"), full_page=True)
    form, board = page.locator("#deal-form").bounding_box(), page.locator("#board").bounding_box()
    assert form["y"] + form["height"] <= board["y"]  # stacked: the form first, for the secretary
    page.set_viewport_size({"width": 1280, "height": 900})

    # End the pulka early: settled as unfinished.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("button", has_text="End the pulka").click()
    page.wait_for_selector("text=Ended early")

    assert page.evaluate("window.__noReload") is True
    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    sheet = selectors.pulka_sheet(pulka)
    for name, value in sheet.result_rounded.items():
        shown = page.locator(f"#board tr[data-player='{name}'] td.result").get_attribute(
            "data-result"
        )
        assert int(shown) == value
    assert sum(sheet.result.values()) == 0


def test_the_talon_is_typed_in_cyrillic_or_tapped_on_a_phone(live_server, browser, artifacts):
    club = make_club(name="Сочинка", slug="sochi", is_public=False, pool_target=10)
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    players = [make_player(club, name) for name in ("Anna", "Boris", "Vera")]
    evening = make_evening(club)
    pulka = Pulka.objects.create(evening=evening, table=1, rules=club.default_rules())
    for position, player in enumerate(players):
        pulka.seats.create(position=position, player=player)

    def game(page, talon: str | None, taps: tuple[str, ...] = ()) -> None:
        choose(page, "declarer", "1")
        choose(page, "call_2", "whist")
        choose(page, "call_0", "pass")
        if talon is not None:
            page.fill("#deal-form input[name=talon]", talon)
        for card in taps:
            page.click(f"#deal-form [data-card='{card}']")
        fill_tricks(page, s1=6, s2=3)
        press_record(page)

    # On a laptop: the talon typed in Cyrillic, rank first ("ТТ" is the ace of clubs).
    desk = browser.new_context(locale="uk-UA", viewport={"width": 1280, "height": 900})
    page = desk.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", secretary.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    page.goto(live_server.url + pulka.get_absolute_url())
    assert not page.locator("#deal-form .card-grid").is_visible()  # typing is enough here
    game(page, "ТТ 10Ч")
    assert pulka.deals.get(number=1).talon == "AC 10H"

    # On a phone: two taps on the grid fill the field; typing is optional.
    phone = browser.new_context(
        locale="uk-UA", viewport={"width": 360, "height": 780}, storage_state=desk.storage_state()
    )
    page = phone.new_page()
    page.goto(live_server.url + pulka.get_absolute_url())
    grid = page.locator("#deal-form .card-grid")
    assert grid.is_visible()
    assert grid.locator("[data-card]").count() == 32
    game(page, None, taps=("AS", "KH"))
    assert pulka.deals.get(number=2).talon == "AS KH"
    page.screenshot(path=str(artifacts / "talon-grid-phone.png"), full_page=True)
