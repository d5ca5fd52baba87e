"""Under the strict Content-Security-Policy htmx still works: a secretary records a deal
through htmx, and Chromium reports no violation on any page on the way."""

import re

import pytest
from django.contrib.auth import get_user_model

from club.models import Role
from scoring.models import Deal
from tests.browser.factories import LISTEN, violations
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db(transaction=True)


# Each page records the violations the browser reports to it, before any of its scripts run.
def test_a_deal_is_recorded_through_htmx_with_no_csp_violation(live_server, page):
    club = make_club(name="Sochi", slug="sochi", is_public=False, pool_target=10)
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    pulka = make_pulka(make_evening(club))
    record(pulka, SIX_BY_BORIS)  # the player page then has places and charts to draw
    console = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    errors = []  # htmx's own complaints too (a selector of an inherited attribute, say)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(LISTEN)

    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", secretary.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")

    response = page.goto(f"{live_server.url}/c/sochi/p/{pulka.pk}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.evaluate("htmx.config.allowEval") is False
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert page.locator("head style").count() == 0  # htmx injected no style of its own
    page.evaluate("window.__noReload = true")

    # A raspasy: the kind refreshes the form through htmx, Enter posts it through htmx.
    with page.expect_response(re.compile(r"/deal-form/")):
        page.check("#deal-form input[name='kind'][value='raspasy']")
    page.wait_for_timeout(60)
    for seat, tricks in enumerate((2, 5, 3)):
        page.fill(f"#deal-form input[name='tricks_{seat}']", str(tricks))
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        page.locator("#deal-form input[name='tricks_2']").press("Enter")
    page.wait_for_selector("#deal-log li.deal >> nth=1")

    assert Deal.objects.filter(pulka=pulka).count() == 2
    assert page.evaluate("window.__noReload") is True  # swapped by htmx, not reloaded
    assert violations(page) == []
    assert errors == []

    for path in ("/", "/c/sochi/", f"/c/sochi/players/{pulka.seats.first().player_id}/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], path

    assert console == []

    # The listener does hear a violation: an inline style attribute is refused.
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    page.wait_for_timeout(100)
    assert any(v.startswith("style-src") for v in violations(page))
    assert any("Content Security Policy" in text for text in console)


def test_the_admin_club_page_has_no_csp_violation(live_server, page):
    """Where a club is renamed: the admin's own scripts (prepopulated slug, inlines)."""
    club = make_club(name="Sochi", slug="sochi")
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    page.add_init_script(LISTEN)

    page.goto(live_server.url + "/admin/login/")
    page.fill("input[name=username]", "root")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(live_server.url + "/admin/")
    for path in (f"/admin/club/club/{club.pk}/change/", "/admin/club/club/add/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], path
    page.locator("input[name=name]").press_sequentially("Odesa Club")
    assert page.input_value("input[name=slug]") == "odesa-club"  # the admin's JS still runs
