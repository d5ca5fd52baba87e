"""The account page: the name, the language (stored, and applied at every login), links to
the e-mail and password pages; and deleting the account, which keeps every sheet."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from club.models import AccountSettings, Membership, Role
from tests.club.factories import (
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PASSWORD, make_club, make_member, make_player, make_user

pytestmark = pytest.mark.django_db

ACCOUNT = "/accounts/profile/"
DELETE = "/accounts/delete/"


@pytest.fixture
def olena(db):
    user = make_user(username="olena", first_name="Olena", email="olena@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


# Who may open them


@pytest.mark.parametrize("url", [ACCOUNT, DELETE])
def test_anonymous_is_sent_to_log_in(client, url):
    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, {"name": "x", "password": "x"}), url)
    assert_htmx_login_redirect(client.post(url, {"name": "x"}, headers=HTMX))


def test_the_account_page_shows_ones_own_account(client, olena):
    client.force_login(olena)

    text = assert_full_page(client.get(ACCOUNT), "account-form")

    assert 'value="Olena"' in text
    assert "olena@example.org" in text
    assert 'href="/accounts/email/"' in text
    assert 'href="/accounts/password/change/"' in text
    assert 'href="/accounts/delete/"' in text
    assert 'id="nav-account"' in text


def test_the_account_form_is_a_fragment_for_htmx(client, olena):
    client.force_login(olena)

    text = assert_fragment(client.get(ACCOUNT, headers=HTMX), "account-form")

    assert 'id="account-email"' not in text


def test_an_account_without_an_address_is_asked_to_add_one(client):
    client.force_login(make_user(username="old"))

    text = html(client.get(ACCOUNT))

    assert "Add an e-mail address" in text


# Name and language


def test_saving_the_name_and_the_language(client, olena):
    client.force_login(olena)

    response = client.post(ACCOUNT, {"name": "  Олена Коваленко ", "language": "uk"})

    assert response.status_code == 302
    assert response["Location"] == ACCOUNT
    olena.refresh_from_db()
    assert olena.get_full_name() == "Олена Коваленко"
    assert AccountSettings.objects.get(user=olena).language == "uk"
    assert response.cookies["django_language"].value == "uk"
    page = client.get(ACCOUNT)
    assert '<html lang="uk">' in html(page)


def test_saving_with_htmx_redirects_the_whole_page(client, olena):
    client.force_login(olena)

    response = client.post(ACCOUNT, {"name": "Olena K", "language": "ru"}, headers=HTMX)

    assert response.status_code == 200
    assert response["HX-Redirect"] == ACCOUNT
    assert AccountSettings.objects.get(user=olena).language == "ru"


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"name": "x" * 151, "language": "uk"}, "at most 150 characters"),
        ({"name": "Olena", "language": "de"}, "Select a valid choice."),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(client, olena, data, error):
    client.force_login(olena)

    for headers in ({}, HTMX):
        response = client.post(ACCOUNT, data, headers=headers)
        assert response.status_code == 200
        assert error in html(response)

    olena.refresh_from_db()
    assert olena.get_full_name() == "Olena"
    assert not AccountSettings.objects.exists()


def test_one_account_never_changes_another(client, olena):
    other = make_user(username="boris", first_name="Boris")
    client.force_login(olena)

    client.post(ACCOUNT, {"name": "Changed", "language": "ru", "user": other.pk, "id": other.pk})

    other.refresh_from_db()
    assert other.get_full_name() == "Boris"
    assert not AccountSettings.objects.filter(user=other).exists()


def test_the_stored_language_is_applied_at_the_next_login(client, olena):
    AccountSettings.objects.create(user=olena, language="ru")

    response = client.post(
        "/accounts/login/",
        {"login": "olena@example.org", "password": PASSWORD},
        headers={"accept-language": "en"},
    )

    assert response.status_code == 302
    assert response.cookies["django_language"].value == "ru"
    page = client.get("/", headers={"accept-language": "en"})
    assert '<html lang="ru">' in html(page)


def test_without_a_stored_language_the_login_leaves_it_to_the_browser(client, olena):
    response = client.post("/accounts/login/", {"login": "olena", "password": PASSWORD})

    assert response.status_code == 302
    assert "django_language" not in response.cookies


def test_the_language_switch_stores_the_choice_on_the_account(client, olena):
    client.force_login(olena)

    response = client.post("/i18n/setlang/", {"language": "uk", "next": "/"})

    assert response.status_code == 302
    assert response.cookies["django_language"].value == "uk"
    assert AccountSettings.objects.get(user=olena).language == "uk"


def test_the_language_switch_of_a_visitor_stores_nothing(client):
    response = client.post("/i18n/setlang/", {"language": "uk", "next": "/"})

    assert response.cookies["django_language"].value == "uk"
    assert not AccountSettings.objects.exists()


def test_the_language_switch_ignores_a_language_we_do_not_speak(client, olena):
    client.force_login(olena)

    client.post("/i18n/setlang/", {"language": "de", "next": "/"})

    assert not AccountSettings.objects.exists()


# Deleting the account


def test_the_delete_page_says_what_stays(client, olena):
    client.force_login(olena)

    text = assert_full_page(client.get(DELETE), "account-delete-form")

    assert "every game you played stays on the sheets" in text
    assert 'type="password"' in text
    assert 'id="ownerless"' not in text
    assert_fragment(client.get(DELETE, headers=HTMX), "account-delete-form")


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_wrong_password_deletes_nothing(client, olena, headers):
    client.force_login(olena)

    response = client.post(DELETE, {"password": "not-it"}, headers=headers)

    assert response.status_code == 200
    assert "That is not your password." in html(response)
    assert get_user_model().objects.filter(pk=olena.pk).exists()


def test_guessing_the_password_there_is_limited(client, olena):
    client.force_login(olena)
    for _ in range(10):
        client.post(DELETE, {"password": "not-it"})

    response = client.post(DELETE, {"password": PASSWORD})

    assert "Too many tries" in html(response)
    assert get_user_model().objects.filter(pk=olena.pk).exists()


def test_deleting_unlinks_the_roster_names_and_leaves_the_clubs(client, olena):
    club = make_club()
    make_member(club, Role.OWNER)
    make_member(club, Role.SECRETARY, user=olena)
    player = make_player(club, "Олена", user=olena)
    client.force_login(olena)

    response = client.post(DELETE, {"password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert not get_user_model().objects.filter(pk=olena.pk).exists()
    assert not EmailAddress.objects.filter(email="olena@example.org").exists()
    assert not Membership.objects.filter(user_id=olena.pk).exists()
    player.refresh_from_db()
    assert player.user is None
    assert player.name == "Олена"
    assert "_auth_user_id" not in client.session
    assert "Your account is deleted." in html(client.get("/"))


def test_the_only_owner_of_a_club_with_members_cannot_delete_the_account(client, olena):
    club = make_club(name="Сочинка")
    make_member(club, Role.OWNER, user=olena)
    make_member(club, Role.PLAYER)
    client.force_login(olena)

    page = html(client.get(DELETE))
    response = client.post(DELETE, {"password": PASSWORD})

    assert 'id="ownerless"' in page
    assert "Сочинка" in page
    assert response.status_code == 200
    assert "You are the only owner of Сочинка" in html(response)
    assert get_user_model().objects.filter(pk=olena.pk).exists()
    assert Membership.objects.filter(club=club, user=olena, role=Role.OWNER).exists()


def test_an_owner_with_a_co_owner_may_go(client, olena):
    club = make_club()
    make_member(club, Role.OWNER, user=olena)
    make_member(club, Role.OWNER)
    client.force_login(olena)

    assert client.post(DELETE, {"password": PASSWORD}).status_code == 302
    assert Membership.objects.filter(club=club, role=Role.OWNER).count() == 1


def test_the_only_member_of_a_club_may_go_and_the_club_stays(client, olena):
    club = make_club(is_public=True)
    make_member(club, Role.OWNER, user=olena)
    client.force_login(olena)

    assert client.post(DELETE, {"password": PASSWORD}).status_code == 302
    club.refresh_from_db()
    assert not club.memberships.exists()
