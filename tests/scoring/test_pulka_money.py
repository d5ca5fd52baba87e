"""A pulka's money at the club's stake, under its sheet: each player's amount and who pays
whom (scoring.money, the pulka page's board)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring import selectors
from scoring.money import Stake, club_stake, money_text, pulka_money
from tests.club.factories import READ, assert_fragment, assert_full_page, html
from tests.conftest import HTMX, PERSONAS, make_evening, make_pulka, record

pytestmark = pytest.mark.django_db

SEVEN = {
    "kind": "game",
    "declarer": "Anna",
    "contract": "7H",
    "calls": {"Boris": "whist", "Vera": "pass"},
    "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
}


@pytest.fixture
def priced(club_a):
    club_a.whist_price = Decimal("0.50")
    club_a.save()
    pulka = make_pulka(make_evening(club_a), names=("Anna", "Boris", "Vera"))
    record(pulka, SEVEN)
    pulka.refresh_from_db()
    return pulka


@pytest.mark.parametrize(
    ("amount", "places", "signed", "text"),
    [
        (12000, 0, False, "120\xa0₴"),
        (-3333, 2, False, "−33.33\xa0₴"),
        (150, 2, True, "+1.50\xa0₴"),
        (0, 0, True, "0\xa0₴"),
        (123456700, 0, False, "1,234,567\xa0₴"),
    ],
)
def test_an_amount_reads_with_the_currency_sign_after_it(amount, places, signed, text):
    stake = Stake(price=Decimal("1"), currency="UAH")

    assert money_text(amount, stake, places=places, signed=signed) == text


def test_amounts_in_ukrainian_take_the_decimal_comma(settings):
    from django.utils import translation

    stake = Stake(price=Decimal("0.50"), currency="EUR")
    with translation.override("uk"):
        assert money_text(-3333, stake, places=2) == "−33,33\xa0€"


def test_a_pulkas_amounts_are_its_exact_results_times_the_price_and_sum_to_zero(priced):
    sheet = selectors.pulka_sheet(priced)

    money = pulka_money(priced.evening.club, priced.names, sheet.result)

    assert sum(line.amount for line in money.lines) == 0
    for line in money.lines:
        assert abs(line.amount - Fraction(sheet.result[line.name]) * 50) < 1
    assert [line.name for line in money.lines] == ["Anna", "Boris", "Vera"]
    assert len(money.transfers) <= 2


def test_a_club_without_a_price_has_no_money(club_a):
    assert club_stake(club_a) is None
    assert pulka_money(club_a, ["A", "B"], {"A": Fraction(1), "B": Fraction(-1)}) is None


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_amounts_are_shown_to_whoever_reads_the_pulka(as_persona, priced, persona):
    response = as_persona(persona).get(f"/c/sochi/p/{priced.pk}/")

    assert response.status_code == READ[persona]
    assert ('id="pulka-money"' in html(response)) is (response.status_code == 200)
    assert ("₴" in html(response)) is (response.status_code == 200)


def test_the_board_shows_each_amount_and_who_pays_whom(as_persona, priced):
    text = assert_full_page(as_persona("player").get(f"/c/sochi/p/{priced.pk}/"), "pulka-money")

    sheet = selectors.pulka_sheet(priced)
    money = pulka_money(priced.evening.club, priced.names, sheet.result)
    for line in money.lines:
        assert f'data-amount="{line.amount}">{line.text}</td>' in text
    for t in money.transfers:
        assert f"{t.payer} → {t.payee} <strong>{t.text}</strong>" in text
    assert "At 0.50\xa0₴ a whist" in text
    assert "still playing" in text


def test_the_live_board_fragment_carries_the_money(as_persona, priced):
    response = as_persona("player").get(f"/c/sochi/p/{priced.pk}/live/?v=0", headers=HTMX)

    text = assert_fragment(response, "board")
    assert 'id="pulka-money"' in text
    assert "Who pays whom" in text


def test_without_a_price_the_board_has_only_the_printout_link(as_persona, club_a):
    pulka = make_pulka(make_evening(club_a), names=("Anna", "Boris", "Vera"))
    record(pulka, SEVEN)

    text = assert_full_page(as_persona("player").get(f"/c/sochi/p/{pulka.pk}/"), "pulka-money")

    assert "Who pays whom" not in text
    assert f'href="/c/sochi/p/{pulka.pk}/print/"' in text
