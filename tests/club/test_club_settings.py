import pytest

from club.models import Club
from tests.club.factories import (
    MANAGE,
    assert_fragment,
    assert_full_page,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS

URL = "/c/sochi/settings/"


def form(club: Club, **overrides) -> dict:
    """The settings form as the browser posts it, with the club's current values."""
    data = {"name": club.name, "city": club.city}
    if club.is_public:
        data["is_public"] = "on"
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_see_the_settings(as_persona, club_a, persona):
    response = as_persona(persona).get(URL)

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "settings-form")
        assert 'value="Sochi Club"' in text
        assert 'name="rules-pool_target"' not in text  # the conventions have their own page


@pytest.mark.django_db
def test_the_settings_fragment_is_the_form_alone(as_persona, club_a):
    assert_fragment(as_persona("owner").get(URL, headers=HTMX), "settings-form")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_change_the_settings(as_persona, club_a, persona):
    response = as_persona(persona).post(URL, form(club_a, name="Renamed"))

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    club_a.refresh_from_db()
    assert club_a.name == ("Renamed" if allowed else "Sochi Club")


@pytest.mark.django_db
def test_saving_stores_the_name_city_and_visibility(as_persona, club_a):
    client = as_persona("owner")
    data = form(club_a, name="Sochi Preferans", city="Sochi", is_public="on")

    response = client.post(URL, data)

    assert response["Location"] == URL
    club_a.refresh_from_db()
    assert (club_a.name, club_a.city, club_a.is_public) == ("Sochi Preferans", "Sochi", True)
    assert club_a.pool_target == 10  # the conventions are not this page's
    text = html(client.get(URL))
    assert "The club&#x27;s settings are saved." in text
    assert 'value="Sochi Preferans"' in text


@pytest.mark.django_db
def test_htmx_save_returns_the_form_with_a_notice(as_persona, club_a):
    response = as_persona("owner").post(URL, form(club_a, city="Adler"), headers=HTMX)

    text = assert_fragment(response, "settings-form")
    assert "The club&#x27;s settings are saved." in text
    assert 'value="Adler"' in text
    club_a.refresh_from_db()
    assert club_a.city == "Adler"


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"name": ""}, "This field is required."),
        ({"name": "x" * 121}, "at most 120 characters"),
    ],
)
def test_bad_input_saves_nothing_and_says_why(as_persona, club_a, headers, overrides, message):
    data = form(club_a, **{"city": "Adler", **overrides})

    response = as_persona("owner").post(URL, data, headers=headers)

    assert response.status_code == 200
    text = html(response)
    assert message in text
    if not headers:
        assert "<title>Settings · Sochi Club" in text  # the header keeps the saved name
    club_a.refresh_from_db()
    assert (club_a.name, club_a.city, club_a.pool_target) == ("Sochi Club", "Kyiv", 10)


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    url = "/c/open/settings/"

    assert_login_redirect(client.post(url, form(public_club, name="Mine")), url)
    public_club.refresh_from_db()
    assert public_club.name == "Open Club"
