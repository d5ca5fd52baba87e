"""What the browser tests share: logging in, the deal form driven as a secretary does,
the CSP listener, and a finished pulka of a league."""

import datetime
import re

from tests.conftest import PASSWORD, make_evening, make_pulka, record

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
});
"""


def violations(page) -> list[str]:
    return page.evaluate("window.__violations")


REFRESHING = {"kind", "declarer", "level", "dealer"}


def choose(page, name: str, value: str) -> None:
    radio = page.locator(f"#deal-form input[name='{name}'][value='{value}']")
    if radio.is_checked():
        return
    if name in REFRESHING or name.startswith("call_"):
        with page.expect_response(re.compile(r"/deal-form/")):
            radio.check()
        page.wait_for_timeout(60)  # htmx settles the swap
    else:
        radio.check()


def fill_tricks(page, **counts: int) -> None:
    for seat, count in counts.items():
        page.locator(f"#deal-form input[name='tricks_{seat[1:]}']").fill(str(count))


def press_record(page) -> None:
    """Enter records the deal: pressed in the last trick count, or on the chosen deal kind."""
    counts = page.locator("#deal-form input[name^='tricks_']")
    field = counts.last if counts.count() else page.locator("#deal-form input[name=kind]:checked")
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        field.press("Enter")
    page.wait_for_timeout(60)


def pool_of(page, name: str) -> str:
    return page.locator(f"#board tr[data-player='{name}'] td.pool").get_attribute("data-pool")


OLD = datetime.date(2026, 10, 5)
NEW = datetime.date(2026, 11, 2)


def log_in(page, live_server, user) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def six_and_no_plays(club, date, boris_tricks):
    """Boris makes a six that Vera whists alone, then everybody writes a no-play six."""
    pulka = make_pulka(make_evening(club, date=date), rules={"pool_target": 2})
    six = {"kind": "game", "contract": "6S"}
    record(
        pulka,
        {
            **six,
            "declarer": "Boris",
            "calls": {"Vera": "whist", "Anna": "pass"},
            "tricks": {"Boris": boris_tricks, "Vera": 8 - boris_tricks, "Anna": 2},
        },
        {**six, "declarer": "Vera", "calls": {"Anna": "pass", "Boris": "pass"}},
        {**six, "declarer": "Anna", "calls": {"Boris": "pass", "Vera": "pass"}},
    )
    return pulka
