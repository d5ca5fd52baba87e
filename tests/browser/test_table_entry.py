"""Issue #25's done-when, in Chromium: a 12-player tournament round (3 tables of 4) recorded
by its players alone, through the table links.

The organiser publishes round 1 with a 100-minute clock and starts it on the round page. The
table links are read back from the table protocols PDF, as a phone's camera would read its
QR codes (tests.qr_codes: pdfium renders, zbarimg decodes). At each table two players, each
in a browser context of his own with no account, open the link, say which seat they are, and
take turns: one enters a deal, the other confirms it. At table 2 a third player disputes a
deal; the organiser keeps it on the pulka page. The organiser adds five minutes to every
table and the table pages show it. Table 3's last deal is left unconfirmed: confirming the
round is refused, naming it, until its player confirms it; then the tables are ended and the
round is confirmed.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from club.models import Role
from competition.models import Round, RoundState
from competition.tournament import services as tournament_services
from scoring.models import Deal, DealCheck, DealRevision, Pulka, RevisionAction
from tests.browser.factories import choose, fill_tricks, log_in, press_record
from tests.competition.factories import draft, make_tournament, names_for
from tests.conftest import make_club, make_member
from tests.qr_codes import codes_in_pdf

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = names_for(12, prefix="Гравець ")
ROUND_MINUTES = 100


def _clock_seconds(text: str) -> int:
    """The seconds a clock reads: "1:39:58 left" -> 5998, "7:03 left" -> 423."""
    found = re.search(r"(?:(\d+):)?(\d+):(\d\d)", text)
    assert found, text
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    return hours * 3600 + minutes * 60 + seconds


def _open_table(browser: Browser, base: str, path: str, seat: int) -> Page:
    """A player's phone: a context of its own (no account, no session), the table link
    opened and his seat chosen."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(base + path)
    expect(page.locator("#seat-choice")).to_be_visible()
    page.locator(f"#seat-choice button[value='{seat + 1}']").click()  # seats count from 1
    expect(page.locator("#deal-form")).to_be_visible()
    return page


def _enter_a_made_six(page: Page, pulka: Pulka) -> int:
    """The next deal at a table of 4: the first player after the dealer makes a six, the
    next whists alone (3 tricks), the third passes. Returns the deal's number."""
    pulka.refresh_from_db()
    number = pulka.deals.count() + 1
    if number == 1:
        dealer = pulka.first_dealer
    else:
        dealer = (pulka.deals.get(number=number - 1).dealer + 1) % 4
    declarer, whister, passer = ((dealer + step) % 4 for step in (1, 2, 3))
    choose(page, "declarer", str(declarer))
    choose(page, f"call_{whister}", "whist")
    choose(page, f"call_{passer}", "pass")
    fill_tricks(page, **{f"s{declarer}": 6, f"s{whister}": 3})
    press_record(page)
    expect(page.locator(f"#deal-{number} .deal-check")).to_have_attribute("data-check", "awaiting")
    return number


def _confirm(page: Page, number: int) -> None:
    """The other player's phone: the deal shows up with the next poll, and he confirms it."""
    button = page.locator(f"#deal-{number} button", has_text=re.compile(rf"\b{number}\b"))
    expect(button.first).to_be_visible(timeout=10_000)
    page.locator(f"#deal-{number} form[action$='/confirm/'] button").click()
    expect(page.locator(f"#deal-{number} .deal-check")).to_have_attribute("data-check", "confirmed")


def _dispute(page: Page, number: int, reason: str) -> None:
    deal = page.locator(f"#deal-{number}")
    expect(deal.locator("details.dispute")).to_be_visible(timeout=10_000)
    deal.locator("details.dispute summary").click()
    deal.locator("input[name=reason]").fill(reason)
    deal.locator("details.dispute button[type=submit]").click()
    expect(page.locator(f"#deal-{number} .deal-check")).to_have_attribute("data-check", "disputed")


def test_a_round_recorded_by_its_players_through_the_table_links(live_server, browser):
    base = live_server.url
    club = make_club()
    owner = make_member(club, role=Role.OWNER).user
    tournament = make_tournament(club, PLAYERS, seed=20261202, round_minutes=ROUND_MINUTES)
    round = tournament_services.round_publish(round=draft(tournament), by=owner)
    tables = {t.number: t.pulka for t in round.tables.select_related("pulka").order_by("number")}
    assert sorted(len(p.names) for p in tables.values()) == [4, 4, 4]

    # The organiser starts the round: its clock runs.
    organiser = browser.new_context().new_page()
    log_in(organiser, live_server, owner)
    organiser.goto(base + round.get_absolute_url())
    organiser.locator("#start-round").click()
    expect(organiser.locator("#round-clock")).to_contain_text(re.compile(r"1:(39|40):\d\d"))

    # The links, as the phones' cameras read them off the protocols.
    with organiser.expect_download() as info:
        organiser.locator("#print-links a", has_text=re.compile("protocol", re.I)).click()
    pages = codes_in_pdf(Path(info.value.path()).read_bytes())
    links = [urlsplit(code).path for page_codes in pages for code in page_codes]
    assert len(links) == 3
    by_table = {number: f"/t/{pulka.table_token}/" for number, pulka in tables.items()}
    assert set(links) == set(by_table.values())

    # Table 1: seat 0 and seat 1 take turns, each confirming the other's deal.
    first, second = (
        _open_table(browser, base, by_table[1], 0),
        _open_table(browser, base, by_table[1], 1),
    )
    _confirm(second, _enter_a_made_six(first, tables[1]))
    _confirm(first, _enter_a_made_six(second, tables[1]))

    # Table 2: the second deal is disputed by a third player; the organiser keeps it.
    entering, checking = (
        _open_table(browser, base, by_table[2], 2),
        _open_table(browser, base, by_table[2], 3),
    )
    _confirm(checking, _enter_a_made_six(entering, tables[2]))
    disputed = _enter_a_made_six(entering, tables[2])
    third = _open_table(browser, base, by_table[2], 0)
    _dispute(third, disputed, "Тузів було три, не чотири")
    organiser.goto(base + tables[2].get_absolute_url())
    expect(organiser.locator(f"#deal-{disputed} .deal-check")).to_contain_text(
        "Тузів було три, не чотири"
    )
    organiser.locator(f"#deal-{disputed} form.deal-keep button").click()
    expect(organiser.locator(f"#deal-{disputed} .deal-check")).to_have_attribute(
        "data-check", "confirmed"
    )
    expect(third.locator(f"#deal-{disputed} .deal-check")).to_have_attribute(
        "data-check", "confirmed", timeout=10_000
    )

    # Table 3: the first deal is confirmed, the second still awaits.
    dealer_phone, other_phone = (
        _open_table(browser, base, by_table[3], 1),
        _open_table(browser, base, by_table[3], 2),
    )
    _confirm(other_phone, _enter_a_made_six(dealer_phone, tables[3]))
    waiting = _enter_a_made_six(dealer_phone, tables[3])
    expect(other_phone.locator(f"#deal-{waiting} .deal-check")).to_have_attribute(
        "data-check", "awaiting", timeout=10_000
    )

    # The organiser adds five minutes to every table: the table pages follow at their poll.
    organiser.goto(base + round.get_absolute_url())
    before = _clock_seconds(other_phone.locator("#table-clock").inner_text())
    organiser.locator("#add-minutes-form input[name=minutes]").fill("5")
    organiser.locator("#add-minutes").click()
    expect(organiser.locator("#round-clock")).to_contain_text(re.compile(r"1:(44|45):\d\d"))
    expect(other_phone.locator("#table-clock")).to_contain_text(
        re.compile(r"1:(44|45):\d\d"), timeout=10_000
    )
    assert _clock_seconds(other_phone.locator("#table-clock").inner_text()) > before + 240

    # The round page sees the deal that awaits; confirming the round is refused, naming it.
    expect(organiser.locator("#status-table-3 .status-awaiting")).to_contain_text(str(waiting))
    organiser.locator("#confirm-round").click()
    refusal = organiser.locator("#round-outcome")
    expect(refusal).to_contain_text("Table 3")
    expect(refusal).to_contain_text(f"deal {waiting} awaits confirmation")
    assert Round.objects.get(pk=round.pk).state == RoundState.PLAYING

    # The player confirms it; the tables end; the round is confirmed.
    _confirm(other_phone, waiting)
    organiser.goto(base + round.get_absolute_url())
    for number in (1, 2, 3):
        organiser.locator(f"#round-table-{number} form button.danger").click()
        expect(organiser.locator(f"#round-table-{number} form button.danger")).to_have_count(0)
    organiser.locator("#confirm-round").click()
    expect(organiser.locator("#round-state")).to_have_text(re.compile("confirmed", re.I))

    # A dead link: the table ended, its page says so and takes nothing.
    second.goto(base + by_table[1])
    assert "/deals/" not in second.content()
    expect(second.locator("main")).to_contain_text(re.compile("ended", re.I))

    # What the tables recorded: every deal confirmed by another seat (or kept by the judge),
    # the revisions naming the seats.
    deals = Deal.objects.filter(pulka__in=tables.values()).order_by("pulka__table", "number")
    assert [(d.pulka.table, d.number, d.confirmation) for d in deals] == [
        (table, number, DealCheck.CONFIRMED) for table in (1, 2, 3) for number in (1, 2)
    ]
    for deal in deals:
        assert deal.entered_seat is not None
        assert deal.entered_by_id is None
        if deal.pulka.table == 2 and deal.number == disputed:
            assert deal.confirmed_seat is None  # kept by the judge
            assert deal.disputed_seat == 0
        else:
            assert deal.confirmed_seat not in (None, deal.entered_seat)
    actions = set(
        DealRevision.objects.filter(pulka__in=tables.values()).values_list("action", "seat")
    )
    assert (RevisionAction.DISPUTED, 0) in actions
    assert (RevisionAction.KEPT, None) in actions
    assert (RevisionAction.CONFIRMED, 3) in actions
