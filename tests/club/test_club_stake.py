"""The club's stake in its settings: a price per whist and the currency (owner only)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from club import services
from club.models import Club, Currency
from club.services import ClubError
from tests.club.factories import MANAGE, assert_fragment, assert_full_page, html
from tests.conftest import HTMX, PERSONAS

pytestmark = pytest.mark.django_db

URL = "/c/sochi/settings/"


def form(club: Club, **overrides) -> dict:
    data = {"name": club.name, "city": club.city, "currency": club.currency}
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def test_a_club_plays_for_whists_only_until_a_price_is_set_in_hryvnias(club_a):
    assert club_a.whist_price is None
    assert club_a.currency == Currency.UAH


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_set_the_stake(as_persona, club_a, persona):
    response = as_persona(persona).post(URL, form(club_a, whist_price="0.50"))

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    club_a.refresh_from_db()
    assert club_a.whist_price == (Decimal("0.50") if allowed else None)


def test_the_settings_page_shows_the_stake_fields(as_persona, club_a):
    text = assert_full_page(as_persona("owner").get(URL), "settings-stake")

    assert 'name="whist_price"' in text
    assert 'inputmode="decimal"' in text
    assert "hryvnia (₴)" in text


@pytest.mark.parametrize(("typed", "stored"), [("0,50", "0.50"), ("1.5", "1.50"), (" 2 ", "2")])
def test_a_price_is_read_with_a_decimal_comma_or_point(as_persona, club_a, typed, stored):
    as_persona("owner").post(URL, form(club_a, whist_price=typed, currency="EUR"))

    club_a.refresh_from_db()
    assert club_a.whist_price == Decimal(stored)
    assert club_a.currency == "EUR"


def test_an_empty_price_goes_back_to_whists_only(as_persona, club_a):
    club_a.whist_price = Decimal("1")
    club_a.save()

    as_persona("owner").post(URL, form(club_a, whist_price=""))

    club_a.refresh_from_db()
    assert club_a.whist_price is None


@pytest.mark.parametrize("typed", ["0", "-1", "abc", "0,001", "10001", "1e3x"])
def test_a_bad_price_is_refused_in_words_and_changes_nothing(as_persona, club_a, typed):
    response = as_persona("owner").post(URL, form(club_a, whist_price=typed), headers=HTMX)

    text = assert_fragment(response, "settings-form")
    assert "errorlist" in text
    club_a.refresh_from_db()
    assert club_a.whist_price is None


def test_the_saved_stake_is_shown_in_the_fragment(as_persona, club_a):
    response = as_persona("owner").post(URL, form(club_a, whist_price="0,25"), headers=HTMX)

    text = assert_fragment(response, "settings-form")
    assert "The club&#x27;s settings are saved." in text or "The club's settings are saved." in text
    assert 'value="0.25"' in text


def test_a_form_without_the_currency_keeps_the_clubs(as_persona, club_a):
    club_a.currency = Currency.PLN
    club_a.save()

    as_persona("owner").post(URL, {"name": club_a.name, "city": club_a.city, "whist_price": "1"})

    club_a.refresh_from_db()
    assert club_a.currency == Currency.PLN
    assert club_a.whist_price == Decimal("1")


@pytest.mark.parametrize(
    ("price", "currency"),
    [(Decimal("0"), "UAH"), (Decimal("10000.01"), "UAH"), (Decimal("0.005"), "UAH"), (None, "XXX")],
)
def test_the_service_refuses_what_the_form_would(club_a, price, currency):
    with pytest.raises(ClubError):
        services.club_stake_update(club=club_a, whist_price=price, currency=currency)
    club_a.refresh_from_db()
    assert club_a.whist_price is None


def test_the_stake_is_not_shown_to_a_non_owner(as_persona, club_a):
    response = as_persona("secretary").get(URL)

    assert response.status_code == 403
    assert 'name="whist_price"' not in html(response)
