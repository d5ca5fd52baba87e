import pytest

from club.models import Club, Membership, Role
from tests.club.factories import (
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, make_club, make_user

URL = "/clubs/new/"


def form(**overrides) -> dict:
    return {"name": "Odesa Pulka", "slug": "odesa", "city": "Odesa", "is_public": "on", **overrides}


@pytest.mark.django_db
def test_anonymous_is_sent_to_log_in_and_creates_nothing(client):
    assert_login_redirect(client.get(URL), URL)
    assert_login_redirect(client.post(URL, form()), URL)
    assert_htmx_login_redirect(client.post(URL, form(), headers=HTMX))
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_a_logged_in_user_gets_the_form(client):
    client.force_login(make_user())

    text = assert_full_page(client.get(URL), "club-create-form")

    assert 'name="slug"' in text
    assert 'name="is_public"' in text


@pytest.mark.django_db
def test_the_htmx_form_fragment_has_no_page_around_it(client):
    client.force_login(make_user())

    assert_fragment(client.get(URL, headers=HTMX), "club-create-form")


@pytest.mark.django_db
def test_creating_a_club_makes_the_user_its_owner(client):
    user = make_user()
    client.force_login(user)

    response = client.post(URL, form())

    club = Club.objects.get(slug="odesa")
    assert response.status_code == 302
    assert response["Location"] == "/c/odesa/"
    assert (club.name, club.city, club.is_public) == ("Odesa Pulka", "Odesa", True)
    assert Membership.objects.get(club=club).user == user
    assert Membership.objects.get(club=club).role == Role.OWNER
    assert "Odesa Pulka is open, and you are its owner." in html(client.get("/c/odesa/"))


@pytest.mark.django_db
def test_a_private_club_can_be_created(client):
    client.force_login(make_user())

    client.post(URL, form(is_public=""))

    assert Club.objects.get(slug="odesa").is_public is False


@pytest.mark.django_db
def test_an_empty_slug_is_made_from_a_cyrillic_name(client):
    client.force_login(make_user())

    response = client.post(URL, form(name="Клуб Сочі", slug=""))

    assert response["Location"] == "/c/klub-sochi/"
    assert Club.objects.get(slug="klub-sochi").name == "Клуб Сочі"


@pytest.mark.django_db
def test_a_made_slug_that_is_taken_gets_a_number(client):
    make_club(slug="odesa-pulka")
    client.force_login(make_user())

    response = client.post(URL, form(slug=""))

    assert response["Location"] == "/c/odesa-pulka-2/"


@pytest.mark.django_db
def test_a_typed_slug_that_is_taken_is_refused(client):
    make_club(name="First", slug="odesa")
    client.force_login(make_user())

    response = client.post(URL, form())

    text = html(response)
    assert response.status_code == 200
    assert "Another club already uses this link: choose another short name." in text
    assert not Club.objects.filter(name="Odesa Pulka").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"slug": "bad slug!"}, "Use only Latin letters, digits, hyphens and underscores."),
        ({"name": ""}, "This field is required."),
        ({"name": "東京", "slug": ""}, "Choose a short name for the links"),
    ],
)
def test_bad_input_shows_the_problem_and_creates_nothing(client, overrides, message):
    client.force_login(make_user())

    response = client.post(URL, form(**overrides))

    assert response.status_code == 200
    assert message in html(response)
    assert not Club.objects.exists()
    assert not Membership.objects.exists()


@pytest.mark.django_db
def test_htmx_create_redirects_the_browser_to_the_new_club(client):
    client.force_login(make_user())

    response = client.post(URL, form(), headers=HTMX)

    assert response.status_code == 200
    assert response["HX-Redirect"] == "/c/odesa/"
    assert Club.objects.filter(slug="odesa").exists()


@pytest.mark.django_db
def test_htmx_invalid_create_returns_the_form_with_its_errors(client):
    make_club(slug="odesa")
    client.force_login(make_user())

    response = client.post(URL, form(), headers=HTMX)

    text = assert_fragment(response, "club-create-form")
    assert "Another club already uses this link" in text
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_typing_the_name_suggests_the_slug(client):
    client.force_login(make_user())

    response = client.get(URL, {"name": "Вінниця", "slug": "", "slug_suggested": ""}, headers=HTMX)

    text = assert_fragment(response, "slug-field")
    assert 'value="vinnytsya"' in text
    assert 'id="club-create-form"' not in text


@pytest.mark.django_db
def test_the_suggestion_replaces_an_earlier_suggestion(client):
    client.force_login(make_user())
    params = {"name": "Vinnytsia Club", "slug": "vinnytsia", "slug_suggested": "vinnytsia"}

    text = html(client.get(URL, params, headers=HTMX))

    assert 'value="vinnytsia-club"' in text


@pytest.mark.django_db
def test_the_suggestion_never_overwrites_a_typed_slug(client):
    client.force_login(make_user())
    params = {"name": "Vinnytsia Club", "slug": "vin", "slug_suggested": "vinnytsia"}

    text = html(client.get(URL, params, headers=HTMX))

    assert 'name="slug" value="vin"' in text
