"""The error pages: 400, 403 (and a refused CSRF token), 404, 429 and 500 in the site's layout
and the visitor's language, saying what happened, with the way back: home, and the club of the
URL when the visitor may see it. A 404 never tells whether a private club exists. The 500 page
is served with the database and the cache both gone. An htmx request gets the message alone,
which static/js/errors.js shows where it was clicked.

The pages are rendered as in production, with DEBUG off (Django's debug pages otherwise).
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from django.urls import include, path
from django.utils import translation

from club.models import Role
from config import views as site_views
from tests.conftest import HTMX, make_club, make_evening, make_pulka

pytestmark = pytest.mark.django_db

LANGUAGES = ("uk", "ru", "en")


def boom(request):
    raise RuntimeError("the server failed")


def database_gone(request):
    raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: refused")


# This module is the URLconf of the tests that need a view that fails: the site's URLs, the
# site's error handlers, /boom/ and /boom/database/.
urlpatterns = [
    path("boom/", boom),
    path("boom/database/", database_gone),
    path("", include("config.urls")),
]


class UnreachableCache(BaseCache):
    """A cache whose server is gone: every call fails, as a refused Redis's does."""

    def __init__(self, location: str, params: dict) -> None:
        super().__init__(params)

    def _gone(self, *args, **kwargs):
        raise ConnectionError("the cache server refused the connection")

    add = get = set = touch = delete = clear = has_key = incr = _gone
    get_many = set_many = delete_many = get_or_set = _gone


handler400 = site_views.bad_request
handler403 = site_views.permission_denied
handler404 = site_views.page_not_found
handler500 = site_views.server_error


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


def in_language(language: str, message: str) -> str:
    with translation.override(language):
        return translation.gettext(message)


def page(response, status: int, language: str) -> str:
    """The page in the site's layout, in `language`, with its error's id."""
    text = response.content.decode()
    assert response.status_code == status, text[:300]
    assert f'<html lang="{language}">' in text
    assert 'class="site-header"' in text
    assert 'class="site-footer"' in text
    assert f'id="error-{status}"' in text
    assert 'href="/" id="error-home-link"' in text
    assert in_language(language, "Back to the home page") in text
    return text


def client_in(language: str, **kwargs) -> Client:
    return Client(headers={"accept-language": language}, **kwargs)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_page_says_so_in_the_visitors_language(language):
    response = client_in(language).get("/no/such/page/")

    text = page(response, 404, language)
    assert in_language(language, "Page not found") in text
    assert (
        in_language(
            language,
            "There is no such page here, or it is not open to you. If you followed a link, it "
            "may be out of date: what it pointed to may have been deleted or moved.",
        )
        in text
    )
    assert 'id="error-club-link"' not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_page_of_a_public_club_links_back_to_the_club(language):
    make_club(name="Open Club", slug="open", is_public=True)

    text = page(client_in(language).get("/c/open/p/999999/"), 404, language)

    assert 'href="/c/open/" id="error-club-link"' in text
    with translation.override(language):
        back = translation.gettext("Back to %(name)s") % {"name": "Open Club"}
    assert back in text


def test_a_private_club_is_not_named_to_whom_may_not_see_it(club_a, outsider, client):
    make_pulka(make_evening(club_a))
    for who in (None, outsider):
        if who:
            client.force_login(who)
        text = page(client.get("/c/sochi/"), 404, "en")
        assert club_a.name not in text
        assert 'href="/c/sochi/"' not in text
        assert 'id="error-club-link"' not in text
        # The same answer as for a club that does not exist.
        other = page(client.get("/c/nowhere/"), 404, "en")
        assert 'id="error-club-link"' not in other


def test_a_member_is_led_back_to_his_club(club_a, player, client):
    client.force_login(player)

    text = page(client.get("/c/sochi/p/999999/"), 404, "en")

    assert 'href="/c/sochi/" id="error-club-link"' in text
    assert "Back to Sochi Club" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_too_low_a_role_is_told_so_and_led_back_to_the_club(club_a, secretary, language):
    client = client_in(language)
    client.force_login(secretary)

    text = page(client.get("/c/sochi/members/"), 403, language)

    assert in_language(language, "Not allowed") in text
    assert 'href="/c/sochi/" id="error-club-link"' in text
    assert 'id="members"' not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_form_sent_without_its_token_is_told_to_reload(club_a, owner, language):
    client = client_in(language, enforce_csrf_checks=True)
    client.force_login(owner)

    response = client.post("/c/sochi/members/", {"to": "someone", "role": Role.PLAYER})

    text = page(response, 403, language)
    assert 'id="csrf-failure"' in text
    assert in_language(language, "The form has expired") in text
    assert 'href="/c/sochi/" id="error-club-link"' in text
    assert not club_a.invitations.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_request_the_site_cannot_read_is_a_400_page(language):
    response = client_in(language).get("/", headers={"host": "evil.example"})

    text = page(response, 400, language)
    assert in_language(language, "The request could not be understood") in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_failure_of_the_server_is_a_500_page(settings, language):
    settings.ROOT_URLCONF = __name__
    client = client_in(language, raise_request_exception=False)

    text = page(client.get("/boom/"), 500, language)

    assert in_language(language, "Something went wrong") in text
    assert "RuntimeError" not in text
    assert "Traceback" not in text


def test_the_500_page_needs_no_session_no_user_and_no_query(django_assert_num_queries):
    request = RequestFactory().get("/c/sochi/")  # no session, no user, no htmx attribute
    with translation.override("uk"), django_assert_num_queries(0):
        response = site_views.server_error(request)

    text = response.content.decode()
    assert response.status_code == 500
    assert '<html lang="uk">' in text
    assert 'id="error-500"' in text
    assert 'class="lang-switch' not in text  # no token to send it with


@pytest.mark.parametrize("language", ["uk", "en"])
def test_the_500_page_is_served_with_the_database_and_the_cache_gone(
    settings, django_db_blocker, language
):
    settings.ROOT_URLCONF = __name__
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.UnreachableCache"}}
    client = client_in(language, raise_request_exception=False)

    with django_db_blocker.block():
        # Both are really gone: a query or a cache call fails here.
        with pytest.raises(RuntimeError, match="Database access not allowed"):
            connection.cursor()
        with pytest.raises(ConnectionError):
            caches["default"].get("anything")
        response = client.get("/boom/database/")
        fragment = client.get("/boom/database/", headers=HTMX)

    text = page(response, 500, language)
    assert in_language(language, "Something went wrong") in text
    assert "OperationalError" not in text
    assert "5432" not in text
    assert fragment.status_code == 500
    assert fragment.content.decode().startswith('<p class="error-message" id="error-500">')
    assert in_language(language, "The site failed to answer. Try again in a minute.") in (
        fragment.content.decode()
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_too_many_requests_is_a_page_of_the_site_in_the_visitors_language(language):
    client = client_in(language)
    address = {"REMOTE_ADDR": "198.51.100.29"}
    for n in range(30):
        client.post("/accounts/login/", {"login": f"guess{n}", "password": "x"}, **address)

    response = client.post("/accounts/login/", {"login": "again", "password": "x"}, **address)

    text = response.content.decode()
    assert response.status_code == 429, text[:300]
    assert f'<html lang="{language}">' in text
    assert 'class="site-header"' in text
    assert 'class="site-footer"' in text
    assert 'id="too-many-requests"' in text
    assert in_language(language, "Too many requests") in text
    assert 'href="/" id="error-home-link"' in text
    assert in_language(language, "Back to the home page") in text
    assert 'id="error-club-link"' not in text


# --- htmx: the message alone, for static/js/errors.js ------------------------------------


def test_a_stale_htmx_link_gets_the_message_alone(club_a, secretary, client):
    pulka = make_pulka(make_evening(club_a))
    client.force_login(secretary)
    url = f"/c/sochi/p/{pulka.pk}/deals/7/delete/"

    response = client.get(url, headers=HTMX)

    text = response.content.decode()
    assert response.status_code == 404
    assert text.startswith('<p class="error-message" id="error-404">')
    assert "This is no longer here" in text
    assert "<html" not in text
    assert "HX-Request" in response["Vary"]
    # The same link without htmx: the whole page.
    assert "<html" in client.get(url).content.decode()


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_htmx_message_is_in_the_pages_language(club_a, player, language):
    client = client_in(language)
    client.force_login(player)

    response = client.get("/c/sochi/members/", headers=HTMX)

    text = response.content.decode()
    assert response.status_code == 403
    assert 'id="error-403"' in text
    assert "<html" not in text
    assert in_language(language, "Your role in the club does not allow this.") in text
    assert response["Content-Language"] == language


def test_a_failure_answers_htmx_with_its_message(settings):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)

    response = client.get("/boom/", headers=HTMX)

    text = response.content.decode()
    assert response.status_code == 500
    assert text.startswith('<p class="error-message" id="error-500">')
    assert "<html" not in text


def test_every_error_page_loads_the_script_that_shows_htmx_errors(club_a, player, client):
    client.force_login(player)
    text = client.get("/c/sochi/p/999999/").content.decode()

    assert '<script src="/static/js/errors.js" defer></script>' in text
    assert 'id="ui-text"' in text
    assert (
        'data-connection-lost="The connection was lost: check the network and try again."' in text
    )
