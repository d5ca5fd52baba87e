"""The pulka's header follows the table: End once there is a deal, Resume only for a table
that was ended, Abandon; the swapped fragments carry them, and their outcome is said at once
in the page's language. The talon's tricks are labelled as the talon's."""

import re

import pytest

from scoring import services
from scoring.models import Deal
from tests.conftest import HTMX, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS, deal_post

pytestmark = pytest.mark.django_db

FOUR = ("Anna", "Boris", "Vera", "Galina")


def _actions(html: str) -> str:
    match = re.search(r'<div id="pulka-actions".*?</div>', html, re.S)
    assert match, "no header actions"
    return match.group(0)


def test_a_new_table_offers_neither_end_nor_resume(as_persona, pulka):
    actions = _actions(as_persona("secretary").get(pulka.get_absolute_url()).content.decode())

    assert "Resume the pulka" not in actions
    assert "End the pulka" not in actions
    assert "Abandon" in actions


def test_the_first_deal_brings_end_the_pulka_without_a_reload(as_persona, pulka):
    response = as_persona("secretary").post(
        f"{pulka.get_absolute_url()}deals/", deal_post(), headers=HTMX
    )

    html = response.content.decode()
    actions = _actions(html)
    assert 'hx-swap-oob="true"' in actions
    assert "End the pulka" in actions
    assert "Resume the pulka" not in actions
    assert "<html" not in html


def test_an_ended_table_offers_resume_and_not_end(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)

    actions = _actions(as_persona("secretary").get(pulka.get_absolute_url()).content.decode())

    assert "Resume the pulka" in actions
    assert "End the pulka" not in actions


def test_a_closed_table_offers_no_resume(as_persona, closed_pulka):
    actions = _actions(
        as_persona("secretary").get(closed_pulka.get_absolute_url()).content.decode()
    )

    assert "Resume the pulka" not in actions
    assert "End the pulka" not in actions


def test_a_player_sees_no_control(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    actions = _actions(as_persona("player").get(pulka.get_absolute_url()).content.decode())

    assert "End the pulka" not in actions
    assert "Abandon" not in actions
    assert "History of changes" in actions


def test_the_spectators_poll_brings_the_controls_too(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = (
        as_persona("secretary")
        .get(f"{pulka.get_absolute_url()}live/?v=0", headers=HTMX)
        .content.decode()
    )

    assert "End the pulka" in _actions(html)
    assert "<html" not in html


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("finish/", "The pulka is over: settled as it stands."),
        ("abandon/", "The pulka was abandoned: it counts for nobody."),
    ],
)
def test_the_outcome_is_said_in_the_swapped_fragment_at_once(as_persona, pulka, path, said):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("secretary")

    html = client.post(pulka.get_absolute_url() + path, headers=HTMX).content.decode()

    assert said in html
    assert 'id="board"' in html
    assert "<html" not in html
    # Said once, here: nothing waits for the next page.
    assert said not in client.get(pulka.get_absolute_url()).content.decode()


def test_resuming_says_so_at_once(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)

    html = (
        as_persona("secretary")
        .post(pulka.get_absolute_url() + "reopen/", headers=HTMX)
        .content.decode()
    )

    assert "The pulka is running again." in html
    assert "End the pulka" in _actions(html)


def test_a_refused_status_change_is_said_as_an_error_at_once(as_persona, pulka):
    html = (
        as_persona("secretary")
        .post(pulka.get_absolute_url() + "reopen/", headers=HTMX)
        .content.decode()
    )

    assert re.search(r'role="alert"><p>This pulka is already running\.</p>', html)


def test_the_outcome_is_in_the_pages_language(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = (
        as_persona("secretary")
        .post(pulka.get_absolute_url() + "finish/", headers={**HTMX, "Accept-Language": "uk"})
        .content.decode()
    )

    assert "Пульку завершено" in html
    assert "settled as it stands" not in html


def test_without_javascript_the_outcome_is_flashed_for_the_next_page(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("secretary")

    response = client.post(pulka.get_absolute_url() + "finish/")

    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "The pulka is over: settled as it stands." in html


# --- the talon's tricks on raspasy at four ----------------------------------------------


def _raspasy_form(client, pulka) -> str:
    url = f"{pulka.get_absolute_url()}deal-form/?kind=raspasy&dealer=0&rotation_dealer=0"
    return client.get(url, headers=HTMX).content.decode()


def test_raspasy_at_four_asks_for_the_talons_tricks_by_name(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=FOUR)

    html = _raspasy_form(as_persona("secretary"), pulka)

    assert re.search(r'<label for="id_tricks_0">talon \(0–2\) <input type="number"', html)
    assert re.search(r'name="tricks_0" id="id_tricks_0" min="0" max="2"', html)
    assert '<label for="id_tricks_1">Boris <input type="number" name="tricks_1"' in html


def test_the_talon_is_labelled_in_ukrainian(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=FOUR)
    client = as_persona("secretary")
    url = f"{pulka.get_absolute_url()}deal-form/?kind=raspasy&dealer=0&rotation_dealer=0"

    html = client.get(url, headers={**HTMX, "Accept-Language": "uk"}).content.decode()

    assert "прикуп (0–2)" in html


def test_the_talon_starts_at_zero_when_raspasy_is_chosen(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=FOUR)

    html = _raspasy_form(as_persona("secretary"), pulka)

    assert 'name="tricks_0" id="id_tricks_0" min="0" max="2" inputmode="numeric" value="0"' in html
    assert 'name="tricks_1" id="id_tricks_1" min="0" max="10" inputmode="numeric">' in html


def test_the_talon_left_empty_took_no_trick(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=FOUR)
    data = deal_post(kind="raspasy", tricks_1="4", tricks_2="3", tricks_3="3", tricks_0="")

    as_persona("secretary").post(f"{pulka.get_absolute_url()}deals/", data, headers=HTMX)

    assert Deal.objects.get(pulka=pulka).tricks == {"0": 0, "1": 4, "2": 3, "3": 3}


def test_three_talon_tricks_are_refused_in_plain_words(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=FOUR)
    data = deal_post(kind="raspasy", tricks_0="3", tricks_1="4", tricks_2="3", tricks_3="0")

    response = as_persona("secretary").post(f"{pulka.get_absolute_url()}deals/", data, headers=HTMX)

    assert "The talon takes 0, 1 or 2 tricks." in response.content.decode()
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_at_three_the_dealer_is_asked_under_his_name(as_persona, pulka):
    html = _raspasy_form(as_persona("secretary"), pulka)

    assert "talon (0–2)" not in html
    assert '<label for="id_tricks_0">Anna <input' in html
