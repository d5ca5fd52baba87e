"""The tournament's entry form in Chromium: the roster filtered in place as the organiser
types, and the players ticked (hidden by the filter or not) entered with their team."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from club.models import Role
from competition.models import Entry
from tests.browser.factories import LISTEN, log_in, violations
from tests.competition.factories import make_tournament
from tests.conftest import make_club, make_member, make_player

pytestmark = pytest.mark.django_db(transaction=True)

ROSTER = ["Ігор", "Андрій", "Яна", "Ґанна", "Богдан"]


def test_the_organiser_filters_the_roster_ticks_and_enters(page: Page, live_server):
    club = make_club(name="Cup Club", slug="cup")
    owner = make_member(club, Role.OWNER, username="olena").user
    for name in ROSTER:
        make_player(club, name)
    cup = make_tournament(club, names=())
    page.add_init_script(LISTEN)
    log_in(page, live_server, owner)
    page.goto(f"{live_server.url}/c/cup/tournaments/{cup.pk}/entries/")

    items = page.locator("#pick-list li")
    expect(items).to_have_text(["Андрій", "Богдан", "Ґанна", "Ігор", "Яна"])
    page.get_by_label("Ґанна").check()
    page.locator("#roster-find input[name=find]").fill("ян")
    expect(page.locator("#pick-list li:visible")).to_have_text(["Яна"])
    page.get_by_label("Яна").check()
    page.locator("#roster-find input[name=find]").press("Enter")  # filtered in place
    expect(page.locator("#pick-list li:visible")).to_have_text(["Яна"])
    page.locator("#roster-find input[name=find]").fill("zzz")
    expect(page.locator("#pick-none")).to_be_visible()
    page.fill("#entries-form input[name=team]", "Тузи")
    page.locator("#entries-form button[type=submit]").click()

    expect(page.locator("#entries-outcome")).to_have_text("2 players entered.")
    entered = dict(Entry.objects.filter(tournament=cup).values_list("player__name", "team"))
    assert entered == {"Ґанна": "Тузи", "Яна": "Тузи"}
    expect(page.locator("#pick-list li")).to_have_text(["Андрій", "Богдан", "Ігор"])
    assert violations(page) == []
