"""The tournament's public pages in a browser, under the strict Content-Security-Policy:
the filter narrows the list as the visitor types, the projector moves to its next slide by
itself, and both pages pass axe-core and fit a phone."""

from __future__ import annotations

import re
from pathlib import Path

import axe_playwright_python
import pytest
from django.urls import reverse

from club.models import Player
from tests.competition.factories import expected_lines, play_round, published, spring_cup
from tests.conftest import make_club

pytestmark = pytest.mark.django_db(transaction=True)

AXE_JS = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
});
"""


def axe_violations(page) -> list[str]:
    page.evaluate(AXE_JS)
    result = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
    return [
        f"{v['id']}: {[' '.join(map(str, n['target'])) for n in v['nodes']][:5]}"
        for v in result["violations"]
    ]


def too_wide(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


@pytest.fixture
def cup():
    club = make_club(name="Open Club", slug="open", is_public=True)
    tournament = spring_cup(club)
    play_round(published(tournament), deals=2)
    return tournament, published(tournament)


def test_the_filter_narrows_the_list_as_the_visitor_types(live_server, page, cup):
    tournament, second = cup
    page.add_init_script(LISTEN)
    page.set_viewport_size({"width": 360, "height": 780})
    url = reverse("competition:tournament-find", args=["open", tournament.pk])

    page.goto(live_server.url + url)
    lines = page.locator(".find-line")
    assert lines.count() == 10
    assert axe_violations(page) == []
    assert not too_wide(page)

    with page.expect_response(re.compile(r"q=")):
        page.locator("#find-q").press_sequentially("шевч", delay=30)
    page.wait_for_function("() => document.querySelectorAll('.find-line').length === 2")

    shown = [int(p) for p in lines.evaluate_all("els => els.map(e => e.dataset.player)")]
    wanted = {p.pk for p in Player.objects.filter(name__in=["Андрій Шевченко", "Ольга Шевчук"])}
    assert shown == [line[0] for line in expected_lines(second) if line[0] in wanted]
    assert "q=%D1%88%D0%B5%D0%B2%D1%87" in page.url  # the address keeps the filter
    assert page.locator("#find-count").inner_text().startswith("2 of 10")
    assert page.evaluate("window.__violations") == []


def test_the_projector_moves_on_by_itself(live_server, page, cup):
    tournament, _ = cup
    page.add_init_script(LISTEN)
    page.clock.install()
    url = reverse("competition:tournament-screen", args=["open", tournament.pk])

    page.goto(live_server.url + url)
    assert page.locator("#screen").get_attribute("data-slide") == "seating"
    assert axe_violations(page) == []

    with page.expect_response(re.compile(r"page=1")):
        page.clock.run_for(21_000)
    page.wait_for_selector("#screen[data-slide=standings]")
    page.clock.run_for(100)  # htmx settles the new slide (and starts its poll) on a timer
    assert page.locator("#screen-standings tbody tr").count() == 10
    assert axe_violations(page) == []

    with page.expect_response(re.compile(r"page=0")):  # one page of each: back to the start
        page.clock.run_for(21_000)
    page.wait_for_selector("#screen[data-slide=seating]")
    assert page.evaluate("window.__violations") == []
    page.set_viewport_size({"width": 360, "height": 780})
    assert not too_wide(page)
