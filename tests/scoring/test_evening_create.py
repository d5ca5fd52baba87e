import datetime

import pytest

from club.models import Role
from scoring.models import Evening
from tests.club.factories import (
    RECORD,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS, make_member

URL = "/c/sochi/evenings/new/"
EVENING = {"date": "2024-05-17", "venue": "Kurortny 12", "notes": "Bring cards"}


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_the_form_page_is_for_secretaries_and_owners(as_persona, club_a, persona):
    response = as_persona(persona).get(URL)

    assert response.status_code == RECORD[persona]
    if response.status_code == 200:
        assert_full_page(response, "evening-form")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_open_an_evening(as_persona, club_a, persona):
    response = as_persona(persona).post(URL, EVENING)

    expected = {**RECORD, "secretary": 302, "owner": 302}[persona]
    assert response.status_code == expected
    assert Evening.objects.filter(club=club_a).count() == (1 if expected == 302 else 0)


@pytest.mark.django_db
def test_a_secretary_opens_an_evening_and_lands_on_its_page(as_persona, club_a, secretary):
    response = as_persona("secretary").post(URL, EVENING)

    evening = Evening.objects.get(club=club_a)
    assert response["Location"] == f"/c/sochi/s/{evening.pk}/"
    assert evening.date == datetime.date(2024, 5, 17)
    assert (evening.venue, evening.notes, evening.created_by) == (
        "Kurortny 12",
        "Bring cards",
        secretary,
    )
    assert "The evening is open: add its tables." in html(
        as_persona("secretary").get(response["Location"])
    )


@pytest.mark.django_db
def test_htmx_open_redirects_the_browser_to_the_evening(as_persona, club_a):
    response = as_persona("secretary").post(URL, EVENING, headers=HTMX)

    evening = Evening.objects.get(club=club_a)
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/c/sochi/s/{evening.pk}/"


@pytest.mark.django_db
def test_the_htmx_form_fragment_is_the_form_alone(as_persona, club_a):
    assert_fragment(as_persona("owner").get(URL, headers=HTMX), "evening-form")


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_bad_date_shows_the_error_and_saves_nothing(as_persona, club_a, headers):
    bad = {**EVENING, "date": "17th of May"}

    response = as_persona("secretary").post(URL, bad, headers=headers)

    text = html(response)
    assert response.status_code == 200
    assert 'id="evening-form"' in text
    assert "Enter a valid date." in text
    assert ("<html" in text) is (not headers)
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    url = "/c/open/evenings/new/"

    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, EVENING), url)
    assert_htmx_login_redirect(client.post(url, EVENING, headers=HTMX))
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_a_player_of_a_public_club_cannot_open_an_evening(client, public_club):
    client.force_login(make_member(public_club, Role.PLAYER).user)

    assert client.post("/c/open/evenings/new/", EVENING).status_code == 403
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_a_secretary_of_another_club_cannot_open_one_here(client, club_a, club_b):
    client.force_login(make_member(club_b, Role.SECRETARY).user)

    assert client.post(URL, EVENING).status_code == 404
    assert not Evening.objects.exists()
