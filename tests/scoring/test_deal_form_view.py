"""The entry form offers only valid choices: it is re-rendered by htmx as choices change."""

import pytest

from tests.conftest import HTMX

pytestmark = pytest.mark.django_db


def _form(client, pulka, query):
    response = client.get(pulka.get_absolute_url() + "deal-form/?" + query, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_tricks_are_asked_only_when_someone_whists(as_persona, pulka):
    client = as_persona("secretary")

    played = _form(
        client, pulka, "kind=game&declarer=1&call_2=whist&call_0=pass&dealer=0&rotation_dealer=0"
    )
    unplayed = _form(
        client, pulka, "kind=game&declarer=1&call_2=pass&call_0=pass&dealer=0&rotation_dealer=0"
    )

    assert 'name="tricks_1"' in played
    assert 'name="tricks_1"' not in unplayed
    assert "<html" not in played


def test_half_whist_is_offered_to_the_second_defender_after_a_pass_at_six_and_seven(
    as_persona, pulka
):
    client = as_persona("secretary")
    base = "kind=game&declarer=1&call_2=pass&dealer=0&rotation_dealer=0"

    at_seven = _form(client, pulka, base + "&level=7")
    at_eight = _form(client, pulka, base + "&level=8")
    after_whist = _form(
        client, pulka, "kind=game&declarer=1&call_2=whist&level=6&dealer=0&rotation_dealer=0"
    )

    assert 'name="call_0" value="half"' in at_seven
    assert 'value="half"' not in at_eight
    assert 'value="half"' not in after_whist


def test_misere_asks_only_the_declarers_tricks(as_persona, pulka):
    html = _form(
        as_persona("secretary"), pulka, "kind=misere&declarer=2&dealer=0&rotation_dealer=0"
    )

    assert 'name="tricks_2"' in html
    assert 'name="tricks_0"' not in html
    assert 'name="call_0"' not in html
    assert 'name="level"' not in html


def test_quick_tricks_are_asked_only_when_the_rules_use_them(as_persona, evening_a):
    from tests.conftest import make_pulka

    with_talon = make_pulka(evening_a)
    without = make_pulka(evening_a, rules={"quick_tricks": False})
    client = as_persona("secretary")

    assert 'name="quick_tricks"' in _form(client, with_talon, "kind=game")
    assert 'name="talon"' in _form(client, with_talon, "kind=game")
    assert 'name="quick_tricks"' not in _form(client, without, "kind=game")


def test_a_draft_shows_no_errors(as_persona, pulka):
    html = _form(as_persona("secretary"), pulka, "kind=game&declarer=1&tricks_1=abc")

    assert "errorlist" not in html
    assert 'role="alert"' not in html


def test_without_htmx_the_form_url_leads_back_to_the_page(as_persona, pulka):
    response = as_persona("secretary").get(pulka.get_absolute_url() + "deal-form/?kind=game")

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()


def test_a_leningrad_table_is_not_asked_for_quick_tricks_nor_a_misere_or_raspasy(
    as_persona, evening_a
):
    from tests.conftest import make_pulka

    leningrad = make_pulka(evening_a, rules={"preset": "leningrad"})
    client = as_persona("secretary")

    assert 'name="quick_tricks"' not in _form(client, leningrad, "kind=game")
    assert 'name="talon"' not in _form(client, leningrad, "kind=game")
    assert 'name="quick_tricks"' not in _form(client, leningrad, "kind=raspasy")


def test_with_rostov_raspasy_in_whists_the_four_player_dealer_is_not_asked_for_tricks(
    as_persona, evening_a
):
    from scoring.models import Deal
    from tests.conftest import make_pulka
    from tests.scoring.factories import entry

    names = ("Anna", "Boris", "Vera", "Gleb")
    rostov = make_pulka(evening_a, names=names, rules={"preset": "rostov"})
    sochi = make_pulka(evening_a, names=names)
    client = as_persona("secretary")

    at_rostov = _form(client, rostov, "kind=raspasy&dealer=0&rotation_dealer=0")
    at_sochi = _form(client, sochi, "kind=raspasy&dealer=0&rotation_dealer=0")

    assert 'name="tricks_0"' not in at_rostov
    assert all(f'name="tricks_{i}"' in at_rostov for i in (1, 2, 3))
    assert 'name="tricks_0"' in at_sochi
    # recorded with the three counts, the last left empty: it takes the rest of the ten
    data = {"kind": "raspasy", "dealer": "0", "rotation_dealer": "0", **entry()}
    data.update(tricks_1="2", tricks_2="3")
    response = client.post(rostov.get_absolute_url() + "deals/", data)
    assert response.status_code == 302
    deal = Deal.objects.get(pulka=rostov)
    assert deal.to_pulka_dict(list(names))["tricks"] == {"Boris": 2, "Vera": 3, "Gleb": 5}
