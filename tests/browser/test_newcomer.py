"""A stranger becomes a club's owner and records a deal, in Chromium, without the admin or a
shell: sign up, confirm the address from the mail, open a club, put three players on its
roster, open an evening and a table, and record a deal."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from club.models import Club, Membership, Role
from scoring.models import Deal, Pulka
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


def test_a_newcomer_signs_up_and_records_a_deal_in_his_own_club(live_server, page, artifacts):
    page.add_init_script(LISTEN)
    violations: list[str] = []
    page.on("load", lambda p: violations.extend(p.evaluate("window.__violations") or []))

    # Sign up from the home page.
    page.goto(live_server.url + "/")
    page.click("#nav-signup")
    page.wait_for_url(re.compile(r"/accounts/signup/"))
    page.fill("input[name=first_name]", "Оксана Петренко")
    page.fill("input[name=email]", "oksana@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.screenshot(path=str(artifacts / "signup.png"), full_page=True)
    page.click("#account-page button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/confirm-email/$"))
    assert "oksana@example.org" not in page.inner_text("nav")  # not logged in yet

    # Confirm the address from the mail the site sent.
    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", message.body).group(1)
    page.goto(live_server.url + link)
    page.click("#account-page button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    assert "Оксана Петренко" in page.inner_text("#nav-account")

    # Open a club.
    page.click("#my-clubs a.btn")
    page.wait_for_url(re.compile(r"/clubs/new/$"))
    page.fill("#club-create-form input[name=name]", "Клуб Оксани")
    expect(page.locator("#slug-field input[name=slug]")).not_to_have_value("")
    page.click("#club-create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/c/[\w-]+/$"))
    club = Club.objects.get(name="Клуб Оксани")
    assert Membership.objects.get(club=club).role == Role.OWNER

    # Three players on the roster, pasted as a list.
    page.click("nav.club-links >> text=Players")
    page.fill("textarea[name=name]", "Оксана\nБогдан\n Віра \n")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("button:has-text('Add to the roster')")
    for name in ("Оксана", "Богдан", "Віра"):
        page.wait_for_selector(f"text={name}")

    # An evening, then a table.
    page.goto(f"{live_server.url}/c/{club.slug}/")
    page.fill("#evening-form input[name=venue]", "Кав'ярня")
    page.click("#evening-form button[type=submit]")
    page.wait_for_url(re.compile(r"/s/\d+/$"))
    for seat, name in enumerate(("Оксана", "Богдан", "Віра")):
        page.select_option(f"select[name=seat_{seat}]", label=name)
    page.check("input[name=first_dealer][value='0']")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/p/\d+/$"))
    pulka = Pulka.objects.get(evening__club=club)

    # Record a deal: raspasy, through htmx.
    with page.expect_response(re.compile(r"/deal-form/")):
        page.check("#deal-form input[name='kind'][value='raspasy']")
    page.wait_for_timeout(60)
    for seat, tricks in (("0", 2), ("1", 5), ("2", 3)):
        page.locator(f"#deal-form input[name='tricks_{seat}']").fill(str(tricks))
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        page.locator("#deal-form input[name^='tricks_']").last.press("Enter")
    page.wait_for_selector("#deal-log li.deal")

    deal = Deal.objects.get(pulka=pulka)
    assert deal.entered_by.email == "oksana@example.org"
    page.screenshot(path=str(artifacts / "newcomer.png"), full_page=True)
    assert violations == []
