"""Phones first: on a 390 px screen every table shows who and how much without scrolling.

The four pages a club's first week found with the numbers off-screen, each filled to the
width a real club reaches (long names, three rounds, four players at a table): the player's
profile, the tournament's standings, the pulka's sheet and the members page. On each, the
place, name and total (or result) cells of every row lie inside the screen as the page
opens, the page itself does not scroll sideways, and a table that does scroll says so.
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest
from django.urls import reverse

from club.models import Role
from tests.browser.factories import LISTEN, log_in, violations
from tests.competition.factories import make_tournament, play_round
from tests.conftest import make_club, make_evening, make_member, make_pulka, record

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
AXE_JS = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}

# Ten entries: tables of 4, 3 and 3. Long names, as clubs write them (first name and surname).
NAMES = (
    "Олександра Костянтинівна",
    "Володимир Шевченко-Ковальчук",
    "Анастасія Ткаченко",
    "Святослав Мельниченко",
    "Євгенія Кравченко",
    "Максиміліан Бондаренко",
    "Христина Олійниченко",
    "Ярослав Литвиненко",
    "Катерина Приходько",
    "Станіслав Гребенюк",
)

INSIDE = """([selector, width]) => {
    const out = [];
    for (const cell of document.querySelectorAll(selector)) {
        const box = cell.getBoundingClientRect();
        if (box.width === 0) continue;
        if (box.left < 0 || box.right > width + 0.5) {
            out.push(`${cell.textContent.trim().slice(0, 30)}: ${box.left}..${box.right}`);
        }
    }
    return out;
}"""


def cells_off_screen(page, selector: str) -> list[str]:
    assert page.locator(selector).count() > 0, f"no cell {selector}"
    return page.evaluate(INSIDE, [selector, PHONE["width"]])


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.fixture
def world():
    """A private club: a tournament of three confirmed rounds, a four-player pulka under way,
    members with long names; its owner logged in."""
    club = make_club(name="Клуб «Преферанс на Подолі»", slug="podil", is_public=False)
    owner = make_member(
        club, Role.OWNER, username="owner", first_name="Олена", last_name="Гребенюк-Костянтинівна"
    ).user
    for n, name in enumerate(("Святослав", "Максиміліан", "Христина")):
        make_member(
            club,
            Role.PLAYER,
            username=f"member{n}",
            first_name=name,
            last_name="Олійниченко-Бондаренко",
        )
    cup = make_tournament(club, names=NAMES, name="Кубок Подолу", seed=7)
    for _ in range(3):
        play_round(cup, deals=3)
    pulka = make_pulka(make_evening(club), names=NAMES[:4])
    six = {"kind": "game", "contract": "6S"}
    record(
        pulka,
        {
            **six,
            "declarer": NAMES[1],
            "calls": {NAMES[2]: "whist", NAMES[3]: "pass"},
            "tricks": {NAMES[1]: 6, NAMES[2]: 3, NAMES[3]: 1},
        },
    )
    player = cup.entries.order_by("pk").first().player
    return {"club": club, "owner": owner, "cup": cup, "pulka": pulka, "player": player}


def open_on_a_phone(page, live_server, url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + url)
    page.wait_for_load_state("networkidle")


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2.1 A/AA rules on the page as it is (tests/browser/test_accessibility)."""
    page.evaluate(AXE_JS)
    result = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
    return [
        f"{v['id']}: {[' '.join(map(str, n['target'])) for n in v['nodes']][:5]}"
        for v in result["violations"]
    ]


@pytest.fixture
def phone(page, live_server, world):
    page.add_init_script(LISTEN)
    page.set_viewport_size(PHONE)
    log_in(page, live_server, world["owner"])
    return page


def test_the_profile_shows_each_pulkas_date_result_and_place_on_a_phone(phone, live_server, world):
    url = reverse("competition:player-detail", args=["podil", world["player"].pk])
    open_on_a_phone(phone, live_server, url)

    for column in ("td.pin-start", "td:nth-last-child(2)", "td.pin-end"):
        assert cells_off_screen(phone, f"#pulkas tbody {column}") == [], column
    assert cells_off_screen(phone, "#tournaments tbody .pin-start") == []
    assert cells_off_screen(phone, "#tournaments tbody .pin-end") == []
    assert cells_off_screen(phone, "#places tbody th, #places tbody td") == []
    assert cells_off_screen(phone, "#head-to-head tbody .pin-start") == []
    assert cells_off_screen(phone, "#head-to-head tbody .pin-end") == []
    assert page_width(phone) <= PHONE["width"]
    assert violations(phone) == []
    assert axe_violations(phone) == []


def test_the_standings_show_place_name_and_total_of_every_row_on_a_phone(phone, live_server, world):
    url = reverse("competition:tournament-standings", args=["podil", world["cup"].pk])
    open_on_a_phone(phone, live_server, url)

    rows = phone.locator("#players tbody tr")
    assert rows.count() == len(NAMES)
    for column in ("td:first-child", "td.player", "td.total"):
        assert cells_off_screen(phone, f"#players tbody {column}") == [], column
    assert page_width(phone) <= PHONE["width"]
    # Three rounds do not fit: the table scrolls in its box, and says so.
    wrap = phone.locator("#standings .table-wrap")
    assert "more-right" in wrap.get_attribute("class")
    hint = phone.locator("#standings .scroll-hint")
    assert hint.is_visible()
    assert hint.inner_text().strip() == "More columns: scroll sideways"

    # Scrolled to the last round, the place, the name and the total are still in sight.
    wrap.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    phone.wait_for_function(
        "() => document.querySelector('#standings .table-wrap').classList.contains('more-left')"
    )
    for column in ("td:first-child", "td.player", "td.total"):
        assert cells_off_screen(phone, f"#players tbody {column}") == [], column
    assert violations(phone) == []
    assert axe_violations(phone) == []


def test_the_sheet_shows_each_name_and_result_on_a_phone(phone, live_server, world):
    open_on_a_phone(phone, live_server, world["pulka"].get_absolute_url())

    assert phone.locator("#board table.sheet tbody tr").count() == 4
    assert cells_off_screen(phone, "#board table.sheet tbody th") == []
    assert cells_off_screen(phone, "#board table.sheet tbody td.result") == []
    assert page_width(phone) <= PHONE["width"]
    # The whists of four players wait to the right, behind a visible cue.
    assert "more-right" in phone.locator("#board .table-wrap").get_attribute("class")
    assert phone.locator("#board .scroll-hint").is_visible()
    assert violations(phone) == []
    assert axe_violations(phone) == []


def test_the_members_page_keeps_every_button_on_a_phone(phone, live_server, world):
    open_on_a_phone(phone, live_server, reverse("club:members", args=["podil"]))

    assert phone.locator("#members tbody tr").count() == 4
    assert cells_off_screen(phone, "#members button, #members select") == []
    assert cells_off_screen(phone, "#members tbody td") == []
    assert page_width(phone) <= PHONE["width"]
    assert violations(phone) == []
    assert axe_violations(phone) == []


def test_a_wide_table_keeps_its_desktop_layout(page, live_server, world):
    """On a desktop nothing is stacked or hinted: the members' table is a table."""
    log_in(page, live_server, world["owner"])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + reverse("club:members", args=["podil"]))
    assert page.locator("#members table").evaluate("t => getComputedStyle(t).display") == "table"
    assert page.locator("#members .scroll-hint:visible").count() == 0
