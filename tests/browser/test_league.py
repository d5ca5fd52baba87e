"""A player follows his club's league in Chromium: opens it, sorts it by the average without
a reload, and downloads the CSV, whose rows must be the page's."""

import csv
import re

import pytest
from django.core.cache import cache

from club.models import Role
from competition.rating import ratings
from tests.competition.factories import finished, make_league
from tests.conftest import PASSWORD, make_club, make_member

pytestmark = pytest.mark.django_db(transaction=True)


def _log_in(page, live_server, user) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def _value(text: str) -> float | str:
    """A cell as a number where it is one (the page's −17.50 is the export's -17.5)."""
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return text


def _shown(page) -> list[list[str]]:
    """The ranking's rows as the page shows them: ranked, then unranked (no place)."""
    rows = []
    for table, place in (("#ranked", True), ("#unranked", False)):
        for row in page.locator(f"{table} tbody tr").all():
            cells = [cell.strip() for cell in row.locator("td").all_inner_texts()]
            rows.append(cells if place else ["", *cells])
    return rows


def test_a_player_sorts_the_league_by_average_and_downloads_it(live_server, page, artifacts):
    cache.clear()  # the computed rankings of an earlier test
    club = make_club(name="Сочинка", slug="sochi", is_public=False)
    player = make_member(club, Role.PLAYER, username="petro").user
    # By the sum Boris leads (120 in 4 pulkas); by the average Anna does (80 in 2).
    for _ in range(2):
        finished(club, {"Anna": 40, "Vera": -20, "Gleb": -20})
    for vera in (-10, -10, -20, -25):
        finished(club, {"Boris": 30, "Vera": vera, "Gleb": -30 - vera})
    finished(club, {"Dana": 5, "Oleh": 0, "Ivan": -5})
    ratings.ratings_update(club=club)
    league = make_league(club, name="Весна 2024", rule="sum", min_pulkas=2)

    _log_in(page, live_server, player)
    page.goto(live_server.url + league.get_absolute_url())
    assert page.inner_text("#league-rule") == "Ranked by the sum of whists, over at least 2 pulkas."
    assert [row[1] for row in _shown(page)] == [
        "Boris",
        "Anna",
        "Gleb",
        "Vera",
        "Dana",
        "Ivan",
        "Oleh",
    ]
    page.evaluate("window.__noReload = true")

    with page.expect_response(re.compile(r"sort=-average")):
        page.click("#ranked th a[data-sort=average]")
    page.wait_for_selector("#ranked th[aria-sort=descending] a[data-sort=average]")

    assert page.evaluate("window.__noReload") is True  # swapped in place, not reloaded
    assert page.url == live_server.url + league.get_absolute_url() + "?sort=-average"
    shown = _shown(page)
    assert [row[:2] for row in shown[:4]] == [
        ["2", "Anna"],
        ["1", "Boris"],
        ["3", "Gleb"],
        ["4", "Vera"],
    ]
    # every figure: whole, or to two decimals, with a real minus
    assert [row[4] for row in shown[:4]] == ["40", "30", "−15.83", "−17.50"]

    with page.expect_download() as download:
        page.click("#ranking a[data-export=csv]")
    assert download.value.suggested_filename == "Весна 2024.csv"
    with open(download.value.path(), encoding="utf-8-sig", newline="") as exported:
        header, *rows = list(csv.reader(exported))
    assert header == page.locator("#ranked thead th").all_inner_texts()
    assert [[_value(cell) for cell in row] for row in rows] == [
        [_value(cell) for cell in row] for row in shown
    ]
    assert page.evaluate("window.__noReload") is True

    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(artifacts / "league-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "league-phone.png"), full_page=True)
