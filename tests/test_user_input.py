"""Input a user can send never crashes the server: each case was once a 500."""

import io
import json

import pytest

from tests.competition.factories import finished, make_league
from tests.conftest import HTMX, make_evening, make_pulka
from tests.scoring.factories import SIX_BY_BORIS, deal_post

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "²"  # str.isdigit() says yes, int() says no
TOO_MANY_DIGITS = "9" * 4301  # past Python's limit on the digits of an int


@pytest.mark.parametrize("deal", [SUPERSCRIPT_TWO, TOO_MANY_DIGITS, "٣", "-1", "+1", " 1"])
def test_the_history_of_a_deal_that_cannot_exist_is_the_whole_history(client, public_club, deal):
    pulka = make_pulka(make_evening(public_club))
    url = f"/c/{public_club.slug}/p/{pulka.pk}/history/"

    response = client.get(url, {"deal": deal})

    assert response.status_code == 200
    assert "History of changes" in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("per_page", ["-1", "0", SUPERSCRIPT_TWO, TOO_MANY_DIGITS, "x"])
def test_a_league_page_ignores_a_per_page_it_cannot_use(client, public_club, htmx, per_page):
    finished(public_club, {"Anna": 10, "Boris": 0, "Vera": -10})
    league = make_league(public_club, name="Open season")
    url = f"/c/{public_club.slug}/leagues/{league.pk}/"

    response = client.get(url, {"per_page": per_page}, headers=HTMX if htmx else {})

    assert response.status_code == 200
    assert "Anna" in response.content.decode()


@pytest.fixture
def secretary_client(as_persona, secretary):
    return as_persona("secretary")


@pytest.mark.parametrize("field", ["declarer", "dealer", "rotation_dealer"])
def test_a_unicode_digit_in_a_seat_of_a_new_deal_is_refused(secretary_client, club_a, field):
    pulka = make_pulka(make_evening(club_a))

    response = secretary_client.post(
        pulka.get_absolute_url() + "deals/", deal_post(**{field: SUPERSCRIPT_TWO})
    )

    assert response.status_code == 200
    text = response.content.decode()
    assert "Select a valid choice" in text or "This form is out of date" in text
    assert not pulka.deals.exists()


@pytest.mark.parametrize("field", ["declarer", "dealer", "rotation_dealer"])
def test_a_unicode_digit_in_a_seat_of_the_form_refresh_is_ignored(secretary_client, club_a, field):
    pulka = make_pulka(make_evening(club_a))

    response = secretary_client.get(
        pulka.get_absolute_url() + "deal-form/",
        deal_post(**{field: SUPERSCRIPT_TWO}),
        headers=HTMX,
    )

    assert response.status_code == 200
    assert 'id="entry"' in response.content.decode() or "deal-form" in response.content.decode()


@pytest.mark.parametrize("field", ["declarer", "dealer", "rotation_dealer"])
def test_a_unicode_digit_in_a_seat_of_a_deal_edit_is_refused(secretary_client, club_a, field):
    from tests.conftest import record

    pulka = make_pulka(make_evening(club_a))
    record(pulka, SIX_BY_BORIS)
    url = pulka.get_absolute_url() + "deals/1/edit/"

    refreshed = secretary_client.get(url, deal_post(**{field: SUPERSCRIPT_TWO}), headers=HTMX)
    posted = secretary_client.post(url, deal_post(**{field: SUPERSCRIPT_TWO}, version=1))

    assert refreshed.status_code == 200
    assert posted.status_code == 200
    text = posted.content.decode()
    assert "Select a valid choice" in text or "This form is out of date" in text
    assert pulka.deals.get().version == 1


def test_an_import_with_an_integer_too_long_for_python_is_refused(secretary_client, club_a):
    evening = make_evening(club_a)
    text = '{"format": "pulka/1", "players": ["A", "B", "C"], "rules": {"pool_target": %s}}'
    upload = io.BytesIO((text % TOO_MANY_DIGITS).encode())
    upload.name = "big.json"

    response = secretary_client.post(f"/c/{club_a.slug}/s/{evening.pk}/import/", {"file": upload})

    assert response.status_code == 200
    assert "4301 digits" in response.content.decode()
    assert not evening.pulkas.exists()


@pytest.mark.parametrize("progression", ["1" + "0" * 30, "10000000", "101", ",".join("1" * 11)])
def test_conventions_a_club_could_not_mean_are_refused(secretary_client, club_a, progression):
    evening = make_evening(club_a)
    pulka = make_pulka(evening)
    url = pulka.get_absolute_url() + "rules/"
    data = {"rules-pool_target": "10", "rules-raspasy_progression": progression}

    response = secretary_client.post(url, data)

    assert response.status_code == 200
    pulka.refresh_from_db()
    assert pulka.rules["raspasy_progression"] == []


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"raspasy_progression": [10**7]}, "a raspasy cost can be at most 100"),
        ({"pool_target": 10**7}, "the pool target can be at most 1000"),
    ],
)
def test_an_import_with_conventions_past_the_bounds_is_refused(
    secretary_client, club_a, rules, message
):
    evening = make_evening(club_a)
    document = {"format": "pulka/1", "players": ["A", "B", "C"], "rules": rules, "deals": []}
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "steep.json"

    response = secretary_client.post(f"/c/{club_a.slug}/s/{evening.pk}/import/", {"file": upload})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not evening.pulkas.exists()


def test_a_pulka_target_past_the_bound_is_refused_on_the_field(secretary_client, club_a):
    pulka = make_pulka(make_evening(club_a))

    response = secretary_client.post(
        pulka.get_absolute_url() + "rules/",
        {"rules-pool_target": "1001", "rules-raspasy_progression": ",".join(["1"] * 11)},
    )

    text = response.content.decode()
    assert "less than or equal to 1000" in text
    pulka.refresh_from_db()
    assert pulka.rules["pool_target"] == 10
