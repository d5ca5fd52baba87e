import datetime

import pytest

from tests.club.factories import (
    RECORD,
    assert_fragment,
    assert_full_page,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS, make_evening

CHANGE = {"date": "2024-06-01", "venue": "New room", "notes": "Moved"}


@pytest.fixture
def evening(club_a):
    return make_evening(club_a, date=datetime.date(2024, 5, 17), venue="Old room")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_edit_an_evening(as_persona, evening, persona):
    client = as_persona(persona)
    url = f"/c/sochi/s/{evening.pk}/edit/"

    page = client.get(url)
    change = client.post(url, CHANGE)

    assert page.status_code == RECORD[persona]
    evening.refresh_from_db()
    if RECORD[persona] == 200:
        assert 'value="Old room"' in assert_full_page(page, "evening-form")
        assert change["Location"] == f"/c/sochi/s/{evening.pk}/"
        assert (evening.date, evening.venue, evening.notes) == (
            datetime.date(2024, 6, 1),
            "New room",
            "Moved",
        )
    else:
        assert change.status_code == RECORD[persona]
        assert evening.venue == "Old room"


@pytest.mark.django_db
def test_the_edit_form_fragment_posts_to_the_edit_url(as_persona, evening):
    text = assert_fragment(
        as_persona("secretary").get(f"/c/sochi/s/{evening.pk}/edit/", headers=HTMX),
        "evening-form",
    )

    assert f'hx-post="/c/sochi/s/{evening.pk}/edit/"' in text


@pytest.mark.django_db
def test_htmx_save_redirects_the_browser_to_the_evening(as_persona, evening):
    response = as_persona("secretary").post(f"/c/sochi/s/{evening.pk}/edit/", CHANGE, headers=HTMX)

    assert response["HX-Redirect"] == f"/c/sochi/s/{evening.pk}/"
    evening.refresh_from_db()
    assert evening.venue == "New room"


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_bad_date_changes_nothing_and_says_why(as_persona, evening, headers):
    response = as_persona("secretary").post(
        f"/c/sochi/s/{evening.pk}/edit/", {**CHANGE, "date": ""}, headers=headers
    )

    assert response.status_code == 200
    assert "This field is required." in html(response)
    evening.refresh_from_db()
    assert (evening.date, evening.venue) == (datetime.date(2024, 5, 17), "Old room")


@pytest.mark.django_db
def test_an_invalid_edit_keeps_what_was_typed(as_persona, evening):
    text = html(
        as_persona("secretary").post(f"/c/sochi/s/{evening.pk}/edit/", {**CHANGE, "date": "x"})
    )

    assert 'value="New room"' in text  # what was typed stays in the form


@pytest.mark.django_db
def test_another_clubs_evening_cannot_be_edited_from_here(as_persona, club_a, club_b):
    theirs = make_evening(club_b, venue="Theirs")

    response = as_persona("owner").post(f"/c/sochi/s/{theirs.pk}/edit/", CHANGE)

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.venue == "Theirs"


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    evening = make_evening(public_club, venue="Old room")
    url = f"/c/open/s/{evening.pk}/edit/"

    assert_login_redirect(client.post(url, CHANGE), url)
    evening.refresh_from_db()
    assert evening.venue == "Old room"
