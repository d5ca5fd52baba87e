"""A pulka's and an evening's printouts (scoring.printouts, scoring.print_views): the PDF,
read back with pypdf (and its word boxes with pdfplumber), holds the names, the whists
columns, the totals and the payments, and nothing lies outside the page; who may download."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pdfplumber
import pypdf
import pytest

from club.models import Role
from scoring import printouts, selectors, services
from scoring.formatting import signed
from tests.club.factories import READ, assert_not_found, html
from tests.conftest import HTMX, PERSONAS, make_club, make_evening, make_member, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db

SEVEN = {
    "kind": "game",
    "declarer": "Anna",
    "contract": "7H",
    "calls": {"Boris": "whist", "Vera": "pass"},
    "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
}


def pdf_text(content: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return "\n".join(" ".join(page.extract_text().split()) for page in reader.pages)


def words_outside(content: bytes) -> list[str]:
    """Every word whose box is not wholly on its page."""
    outside = []
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        for page in pdf.pages:
            for word in page.extract_words():
                inside = (
                    word["x0"] >= 0
                    and word["top"] >= 0
                    and word["x1"] <= page.width
                    and word["bottom"] <= page.height
                )
                if not inside:
                    outside.append(word["text"])
    return outside


@pytest.fixture
def evening(club_a):
    return make_evening(club_a, venue="Kurortny 12")


@pytest.fixture
def played(evening):
    pulka = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    record(pulka, SEVEN, SIX_BY_BORIS)
    pulka.refresh_from_db()
    return pulka


def test_the_pulka_printout_holds_the_sheet_the_whists_columns_and_the_deal_log(played):
    text = pdf_text(printouts.pulka_pdf(played))

    sheet = selectors.pulka_sheet(played)
    for name in ("Anna", "Boris", "Vera"):
        assert name in text
        assert signed(sheet.result_rounded[name]) in text
    assert "Whists on" in text
    assert "Pool" in text
    assert "Mountain" in text
    assert "Deals" in text
    assert "dealer Anna" in text
    assert "dealer Boris" in text
    assert "Sochi Club" in text
    assert "Kurortny 12" in text
    assert "Who pays whom" not in text  # no price: no money


def test_the_pulka_printout_shows_the_money_at_the_clubs_stake(played):
    club = played.evening.club
    club.whist_price = Decimal("0.50")
    club.save()
    played.refresh_from_db()

    text = pdf_text(printouts.pulka_pdf(played))

    assert "Who pays whom" in text
    assert "₴" in text
    assert re.search(r"\w+ → \w+: [\d ,.]+ ₴", text)


def test_the_evening_printout_holds_the_summary_and_the_payments(evening):
    club = evening.club
    club.whist_price = Decimal("1.00")
    club.save()
    first = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    record(first, SEVEN)
    second = make_pulka(evening, names=("Halyna", "Dmytro", "Yevhen"))
    record(
        second,
        {
            **SEVEN,
            "declarer": "Halyna",
            "calls": {"Dmytro": "whist", "Yevhen": "pass"},
            "tricks": {"Halyna": 7, "Dmytro": 2, "Yevhen": 1},
        },
    )
    evening.refresh_from_db()

    text = pdf_text(printouts.evening_pdf(evening))

    summary = selectors.evening_summary(evening)
    assert "The evening added up" in text
    for line in summary.lines:
        assert line.name in text
        assert line.amount.text.replace("\xa0", " ") in text
    for t in summary.money.transfers:
        assert f"{t.payer} → {t.payee}: {t.text}".replace("\xa0", " ") in text
    assert "Table 1" in text
    assert "Table 2" in text


LONG = "Олександра-Анастасія Костянтинівна Вишнеградська-Задунайська Ґ"[:60]
UNBROKEN = "Щ" * 60
ACCENTS = "Ан" + "\u0301" * 20 + "на"


def test_nothing_lies_outside_the_page_whatever_the_names(club_a):
    club_a.name = "Клуб " + "Ж" * 110
    club_a.whist_price = Decimal("9999.99")
    club_a.save()
    evening = make_evening(club_a, venue="З" * 120)
    pulka = make_pulka(evening, names=(LONG, UNBROKEN, ACCENTS, "Boris"))
    four = {
        "kind": "game",
        "declarer": UNBROKEN,
        "contract": "10NT",
        "calls": {ACCENTS: "whist", "Boris": "pass"},
        "tricks": {UNBROKEN: 0, ACCENTS: 10, "Boris": 0},
    }
    # Deal 2: the unbroken name deals and sits out; Boris's ten set by all ten.
    again = {
        "kind": "game",
        "declarer": "Boris",
        "contract": "10NT",
        "calls": {LONG: "whist", ACCENTS: "pass"},
        "tricks": {"Boris": 0, LONG: 10, ACCENTS: 0},
    }
    record(pulka, four, again)
    pulka.refresh_from_db()
    evening.refresh_from_db()

    for content in (printouts.pulka_pdf(pulka), printouts.evening_pdf(evening)):
        assert words_outside(content) == []
        assert UNBROKEN[:5] in pdf_text(content)


def test_a_pulka_of_many_deals_prints_on_pages_that_hold_them(evening):
    pulka = make_pulka(evening, names=("Anna", "Boris", "Vera"), rules={"pool_target": 100})
    record(pulka, *[SIX_BY_BORIS] * 60)
    pulka.refresh_from_db()

    content = printouts.pulka_pdf(pulka)

    assert len(pypdf.PdfReader(io.BytesIO(content)).pages) > 1
    assert words_outside(content) == []
    assert "60" in pdf_text(content)


def test_the_same_pulka_is_printed_once_until_it_changes(played, monkeypatch):
    built = []
    render = printouts.render_pdf
    monkeypatch.setattr(
        printouts, "render_pdf", lambda *a, **k: built.append(a[0]) or render(*a, **k)
    )

    first = printouts.pulka_pdf(played)
    assert printouts.pulka_pdf(played) == first
    assert len(built) == 1
    record(played, SIX_BY_BORIS)
    played.refresh_from_db()
    again = printouts.pulka_pdf(played)

    assert len(built) == 2
    assert pdf_text(again).count("dealer") == 3


def test_an_evening_beyond_the_bound_is_refused_with_its_tables_to_print_one_by_one(
    as_persona, evening, monkeypatch
):
    monkeypatch.setattr(printouts, "EVENING_PRINT_TABLES_MAX", 1)
    first = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    make_pulka(evening, names=("Halyna", "Dmytro", "Yevhen"))

    response = as_persona("player").get(f"/c/sochi/s/{evening.pk}/print/")

    text = html(response)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "This evening has 2 tables: its printout holds at most 1." in text
    assert f'href="/c/sochi/p/{first.pk}/print/"' in text
    with pytest.raises(printouts.TooBig):
        printouts.evening_pdf(evening)


# --- who may download ----------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_pulka_printout_is_for_whoever_reads_the_pulka(as_persona, played, persona):
    response = as_persona(persona).get(f"/c/sochi/p/{played.pk}/print/")

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        assert response["Content-Type"] == "application/pdf"
        assert "attachment" in response["Content-Disposition"]
        assert response["Cache-Control"] == "private, no-store"
        assert "Anna" in pdf_text(response.content)
    else:
        assert_not_found(response, "Anna")


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_evening_printout_is_for_whoever_reads_the_evening(as_persona, played, persona):
    evening = played.evening

    response = as_persona(persona).get(f"/c/sochi/s/{evening.pk}/print/")

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        assert response["Content-Type"] == "application/pdf"
        assert "Boris" in pdf_text(response.content)
    else:
        assert_not_found(response, "Boris")


def test_a_public_clubs_printouts_are_for_anyone(client):
    club = make_club(slug="open-club", is_public=True)
    pulka = make_pulka(make_evening(club), names=("Anna", "Boris", "Vera"))
    record(pulka, SEVEN)

    for url in (f"/c/open-club/p/{pulka.pk}/print/", f"/c/open-club/s/{pulka.evening.pk}/print/"):
        response = client.get(url)
        assert response.status_code == 200
        assert "Anna" in pdf_text(response.content)


def test_another_clubs_pulka_is_not_found_under_this_club(as_persona, played):
    other = make_club(slug="elsewhere", is_public=True)
    make_member(other, Role.OWNER, username="stranger")

    response = as_persona("owner").get(f"/c/elsewhere/p/{played.pk}/print/")

    assert_not_found(response, "Anna")


@pytest.mark.parametrize("url", ["/c/sochi/p/{pulka}/print/", "/c/sochi/s/{evening}/print/"])
def test_htmx_is_sent_to_download_the_file_itself(as_persona, played, url):
    address = url.format(pulka=played.pk, evening=played.evening.pk)

    response = as_persona("player").get(address, headers=HTMX)

    assert response["HX-Redirect"] == address
    assert b"%PDF" not in response.content


def test_the_pulka_page_links_to_its_printout(as_persona, played):
    text = html(as_persona("player").get(f"/c/sochi/p/{played.pk}/"))

    assert f'href="/c/sochi/p/{played.pk}/print/"' in text


def test_a_finished_pulka_prints_its_final_settlement(played):
    services.pulka_finish(pulka=played, finished_by=None)
    played.refresh_from_db()

    text = pdf_text(printouts.pulka_pdf(played))

    assert "Final settlement" in text
    assert "Ended early" in text
