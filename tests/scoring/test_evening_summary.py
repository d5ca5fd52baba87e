"""The evening added up: each player's result over the evening's tables, the money at the
club's stake and the fewest payments (scoring.selectors.evening_summary, the evening page)."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from scoring import selectors, services
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
# Halyna deals (and sits out): Dmytro's six, Anna whists, Yevhen passes; Dmytro is set by one.
SIX_BY_DMYTRO = {
    "kind": "game",
    "declarer": "Dmytro",
    "contract": "6S",
    "calls": {"Anna": "whist", "Yevhen": "pass"},
    "tricks": {"Dmytro": 5, "Anna": 4, "Yevhen": 1},
}


@pytest.fixture
def evening(club_a):
    return make_evening(club_a, date=datetime.date(2024, 5, 17))


def _two_tables(evening):
    """Table 1 (finished): Anna, Boris, Vera, a seven by Anna. Table 2 (running): Halyna,
    Dmytro, Anna and Yevhen, Dmytro's six set by one: Anna plays both tables."""
    first = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    record(first, SEVEN)
    services.pulka_finish(pulka=first, finished_by=None)
    second = make_pulka(evening, names=("Halyna", "Dmytro", "Anna", "Yevhen"))
    record(second, SIX_BY_DMYTRO)
    return first, second


def _results(pulka) -> dict[str, Fraction]:
    return dict(selectors.pulka_sheet(pulka).result)


def test_a_players_result_is_the_sum_over_the_tables_he_sat_at(evening):
    first, second = _two_tables(evening)
    one, two = _results(first), _results(second)

    summary = selectors.evening_summary(evening)

    by_name = {line.name: line for line in summary.lines}
    assert by_name["Anna"].result == one["Anna"] + two["Anna"]
    assert by_name["Anna"].tables == (1, 2)
    assert by_name["Boris"].result == one["Boris"]
    assert by_name["Dmytro"].result == two["Dmytro"] < 0
    assert sum(line.result for line in summary.lines) == 0
    assert len(summary.lines) == 6


def test_the_lines_are_ranked_by_result_with_shared_places(evening):
    first, second = _two_tables(evening)

    lines = selectors.evening_summary(evening).lines

    results = [line.result for line in lines]
    assert results == sorted(results, reverse=True)
    for line in lines:
        assert line.place == 1 + sum(1 for other in lines if other.result > line.result)


def test_equal_results_go_by_the_alphabet_of_the_names(club_a):
    evening = make_evening(club_a)
    # Nobody plays: every result is 0, so the order is the alphabet's (Ґ after Г, І after И).
    make_pulka(evening, names=("Ігор", "Ганна", "Ґава"))
    make_pulka(evening, names=("Яна", "Борис", "Єва", "Иван"))

    lines = selectors.evening_summary(evening).lines

    assert [line.name for line in lines] == ["Борис", "Ганна", "Ґава", "Єва", "Иван", "Ігор", "Яна"]
    assert {line.place for line in lines} == {1}


def test_a_running_table_counts_as_it_stands_and_marks_its_players(evening):
    _two_tables(evening)

    summary = selectors.evening_summary(evening)

    assert summary.running == (2,)
    playing = {line.name for line in summary.lines if line.playing}
    assert playing == {"Halyna", "Dmytro", "Anna", "Yevhen"}


def test_an_abandoned_table_counts_for_nobody(evening):
    first, second = _two_tables(evening)
    services.pulka_abandon(pulka=second, abandoned_by=None)

    summary = selectors.evening_summary(evening)

    assert summary.abandoned == (2,)
    assert {line.name for line in summary.lines} == {"Anna", "Boris", "Vera"}
    assert {line.name: line.result for line in summary.lines} == _results(first)


def test_without_a_price_there_is_no_money(evening):
    _two_tables(evening)

    summary = selectors.evening_summary(evening)

    assert summary.money is None
    assert all(line.amount is None for line in summary.lines)


def test_with_a_price_each_amount_is_the_sum_of_the_tables_amounts_and_all_sum_to_zero(evening):
    club = evening.club
    club.whist_price = Decimal("0.50")
    club.save()
    first, second = _two_tables(evening)
    evening.refresh_from_db()

    summary = selectors.evening_summary(evening)

    amounts = {line.name: line.amount.amount for line in summary.lines}
    assert sum(amounts.values()) == 0
    # 50 kopiykas a whist; a table of three settles in thirds: each table rounds on its own.
    one, two = _results(first), _results(second)
    assert abs(amounts["Boris"] - one["Boris"] * 50) < 1
    assert abs(amounts["Dmytro"] - two["Dmytro"] * 50) < 1
    assert abs(amounts["Anna"] - (one["Anna"] + two["Anna"]) * 50) < 2
    # The payments settle every amount, between players of different tables too.
    left = dict(amounts)
    for t in summary.money.transfers:
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert set(left.values()) == {0}
    assert len(summary.money.transfers) <= len([a for a in amounts.values() if a]) - 1


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_summary_is_read_by_whoever_reads_the_evening(as_persona, evening, persona):
    _two_tables(evening)

    response = as_persona(persona).get(f"/c/sochi/s/{evening.pk}/")

    assert response.status_code == READ[persona]
    assert ('id="summary"' in html(response)) is (response.status_code == 200)
    assert ("Halyna" in html(response)) is (response.status_code == 200)


def test_the_evening_page_shows_places_results_and_the_still_playing_mark(as_persona, evening):
    _two_tables(evening)

    text = assert_full_page(as_persona("player").get(f"/c/sochi/s/{evening.pk}/"), "summary")

    summary = text[text.index('id="summary"') : text.index("</table>", text.index('id="summary"'))]
    assert "Place" in summary
    assert "still playing" in summary
    assert "Table 2 is still playing" in text
    # Thirds are read as decimals; the exact value is in the title, on hover.
    # No fraction a person reads (the links' ids aside: tags and their attributes go).
    assert not re.search(r"\d/3\b", re.sub(r"<[^>]*>", " ", summary))
    assert "title=" in summary
    assert f'href="/c/sochi/s/{evening.pk}/print/"' in text
    assert "Who pays whom" not in text  # no price: no money


def test_the_polled_tables_fragment_carries_the_summary(as_persona, evening):
    _two_tables(evening)

    response = as_persona("player").get(f"/c/sochi/s/{evening.pk}/", headers=HTMX)

    text = assert_fragment(response, "tables")
    assert 'id="summary"' in text
    assert "Halyna" in text


def test_with_a_price_the_page_shows_the_amounts_and_who_pays_whom(as_persona, club_a):
    club_a.whist_price = Decimal("1.00")
    club_a.save()
    evening = make_evening(club_a)
    pulka = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    record(pulka, SEVEN)

    text = assert_full_page(as_persona("player").get(f"/c/sochi/s/{evening.pk}/"), "summary")

    summary = selectors.evening_summary(evening)
    assert "Who pays whom" in text
    for t in summary.money.transfers:
        assert f"{t.payer} → {t.payee} <strong>{t.text}</strong>" in text
    assert "₴" in text


def test_an_evening_without_tables_has_no_summary(as_persona, evening):
    text = assert_full_page(as_persona("player").get(f"/c/sochi/s/{evening.pk}/"), "tables")

    assert 'id="summary"' not in text
