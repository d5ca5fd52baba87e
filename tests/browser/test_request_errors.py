"""A link htmx follows that fails gets a message where it was clicked (static/js/errors.js).

A secretary's page keeps a "delete" link for a deal another secretary deleted meanwhile:
the server answers 404, htmx swaps nothing, and the message appears next to the link, in
the page's language, while the page stays as it was. Without a network, the same link says
that the connection was lost.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from club.models import Role
from scoring import services
from tests.browser.factories import LISTEN, log_in, violations
from tests.conftest import make_club, make_evening, make_member, make_pulka, record

pytestmark = pytest.mark.django_db(transaction=True)

SIX = {"kind": "game", "contract": "6S"}


@pytest.fixture
def table():
    club = make_club(slug="podil")
    secretary = make_member(club, Role.SECRETARY, username="sekretar").user
    pulka = make_pulka(make_evening(club))
    record(
        pulka,
        {**SIX, "declarer": "Anna", "calls": {"Boris": "pass", "Vera": "pass"}},
        {**SIX, "declarer": "Boris", "calls": {"Vera": "pass", "Anna": "pass"}},
    )
    return pulka, secretary


def delete_link(page, number: int):
    return page.locator(f"#deal-{number} a[href$='/deals/{number}/delete/']")


def deleted_behind_the_page(pulka, number: int) -> None:
    deal = pulka.deals.get(number=number)
    services.deal_delete(pulka=pulka, number=number, expected_version=deal.version, deleted_by=None)


@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_stale_delete_link_says_so_where_it_was_clicked(page, live_server, table, language):
    pulka, secretary = table
    page.add_init_script(LISTEN)
    log_in(page, live_server, secretary)
    if language != "en":
        page.locator(f".lang-switch button[value={language}]").click()
        page.wait_for_load_state()
    page.goto(live_server.url + pulka.get_absolute_url())
    url = page.url
    link = delete_link(page, 2)
    assert link.count() == 1
    deleted_behind_the_page(pulka, 2)

    with page.expect_response(lambda r: r.url.endswith("/deals/2/delete/")) as answer:
        link.click()
    assert answer.value.status == 404

    message = page.locator("#deal-2 .request-error[role=alert]")
    message.wait_for()
    with translation.override(language):
        expected = translation.gettext(
            "This is no longer here, or it is not open to you: it may have been deleted. "
            "Reload the page to see it as it is now."
        )
    page.wait_for_function(
        "text => document.querySelector('#deal-2 .request-error').textContent === text",
        arg=expected,
    )
    assert page.locator("html").get_attribute("lang") == language
    # The page stays: the same address, the sheet and the log as they were.
    assert page.url == url
    assert page.locator("#board").count() == 1
    assert page.locator("#deal-log li.deal").count() == 2
    assert page.locator("#error-404").count() == 0  # no error page swapped in
    assert violations(page) == []


def test_a_lost_connection_says_so_and_goes_when_the_next_try_works(page, live_server, table):
    pulka, secretary = table
    log_in(page, live_server, secretary)
    page.goto(live_server.url + pulka.get_absolute_url())
    edit = page.locator("#deal-1 a[href$='/deals/1/edit/']")

    page.route("**/deals/1/edit/", lambda route: route.abort("internetdisconnected"))
    edit.click()
    message = page.locator("#deal-1 .request-error")
    message.wait_for()
    page.wait_for_function(
        "() => document.querySelector('#deal-1 .request-error').textContent.length > 0"
    )
    assert message.inner_text() == "The connection was lost: check the network and try again."
    assert page.locator("#deal-log li.deal").count() == 2

    page.unroute("**/deals/1/edit/")
    with page.expect_response(lambda r: r.url.endswith("/deals/1/edit/")):
        edit.click()
    page.wait_for_timeout(100)  # htmx settles the swap
    assert page.locator("#deal-1 .request-error").count() == 0
