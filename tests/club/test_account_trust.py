"""Accounts that nobody can take or lock out: an old username account keeps logging in while
its new address waits for confirmation; an unconfirmed address never blocks its real owner
nor gets him a reset of someone else's account; sign-up does the same work for a taken and
a free address; mails link to the site's own domain; the login throttle is shared."""

from __future__ import annotations

import subprocess
import sys

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core import mail
from django.core.cache import caches
from django.core.checks import Warning as CheckWarning
from django.core.management import call_command

from club.checks import check_shared_cache
from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
LOGIN = "/accounts/login/"
RESET = "/accounts/password/reset/"
RESET_LINK = "/accounts/password/reset/key/"


def sign_up(client, email: str, **headers):
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD, "first_name": ""}
    return client.post(SIGNUP, data, **headers)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def claim(user, address: str) -> EmailAddress:
    """The user types a new address on his account page and never confirms it."""
    return EmailAddress.objects.create(user=user, email=address, verified=False, primary=False)


# --- an old account that types a new address --------------------------------------------------


def test_an_old_account_with_an_unconfirmed_address_still_logs_in_by_username(client):
    user = make_user(username="secretary")
    claim(user, "new@example.org")

    response = client.post(LOGIN, {"login": "secretary", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert logged_in(client)
    assert mail.outbox == []  # no login of it mails the typed address


def test_the_account_page_says_it_logs_in_by_username_until_the_address_is_confirmed(client):
    user = make_user(username="secretary")
    client.force_login(user)
    client.post("/accounts/email/", {"action_add": "", "email": "new@example.org"})
    assert EmailAddress.objects.filter(user=user, verified=False).exists()

    page = client.get("/accounts/profile/").content.decode()

    assert 'id="account-by-username"' in page
    assert "Until you confirm new@example.org" in page
    assert "you log in with your username, secretary" in page


def test_once_confirmed_the_old_account_is_an_ordinary_one(client):
    user = make_user(username="secretary")
    EmailAddress.objects.create(user=user, email="new@example.org", verified=True, primary=True)
    user.email = "new@example.org"
    user.save()
    client.force_login(user)

    page = client.get("/accounts/profile/").content.decode()

    assert 'id="account-by-username"' not in page
    assert "new@example.org" in page


# --- an address typed by somebody else ----------------------------------------------------------


def test_signing_up_with_an_address_another_account_only_claimed_makes_an_account(client):
    squatter = make_user(username="squatter", email="squatter@example.org")
    EmailAddress.objects.create(user=squatter, email=squatter.email, verified=True, primary=True)
    claim(squatter, "future@example.org")

    response = sign_up(client, "future@example.org")

    assert response.status_code == 302
    owner = get_user_model().objects.get(email="future@example.org")
    assert owner != squatter
    assert list(
        EmailAddress.objects.filter(email="future@example.org").values_list("user", flat=True)
    ) == [owner.pk]
    (message,) = mail.outbox
    assert message.to == ["future@example.org"]
    assert "/accounts/confirm-email/" in message.body  # a confirmation, not "you have an account"


def test_a_reset_to_a_claimed_address_never_offers_the_claimants_account(client):
    squatter = make_user(username="squatter")
    claim(squatter, "future@example.org")

    client.post(RESET, {"email": "future@example.org"})

    (message,) = mail.outbox
    assert message.to == ["future@example.org"]
    assert RESET_LINK not in message.body
    assert "squatter" not in message.body


def test_a_reset_to_ones_own_address_still_sends_the_link(client):
    user = make_user(username="anna", email="anna@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    client.post(RESET, {"email": "anna@example.org"})

    (message,) = mail.outbox
    assert RESET_LINK in message.body


def test_an_address_an_account_really_owns_is_still_not_taken_twice(client):
    owner = make_user(username="anna", email="anna@example.org")
    EmailAddress.objects.create(user=owner, email=owner.email, verified=True, primary=True)

    sign_up(client, "anna@example.org")

    assert get_user_model().objects.filter(email__iexact="anna@example.org").count() == 1
    (message,) = mail.outbox
    assert RESET_LINK not in message.body
    assert "/accounts/confirm-email/" not in message.body


# --- the same work for a taken and a free address ----------------------------------------------


class CountingHasher(MD5PasswordHasher):
    """A fast hasher that counts how often a password is hashed."""

    algorithm = "counting_md5"
    calls = 0

    def encode(self, password, salt):
        type(self).calls += 1
        return super().encode(password, salt)


@pytest.fixture
def counted(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.calls = 0
    return CountingHasher


def test_sign_up_hashes_the_password_as_often_for_a_taken_address_as_for_a_free_one(
    client, counted
):
    taken = make_user(username="anna", email="anna@example.org")
    EmailAddress.objects.create(user=taken, email=taken.email, verified=True, primary=True)
    counted.calls = 0

    sign_up(client, "free@example.org")
    free_work = counted.calls
    counted.calls = 0
    sign_up(client, "anna@example.org")
    taken_work = counted.calls

    assert free_work >= 1
    assert taken_work == free_work
    assert len(mail.outbox) == 2  # each address got its mail


# --- mails link to the site, never to the request's Host ----------------------------------------


def test_mails_link_to_the_sites_domain_whatever_port_the_host_header_says(client, settings):
    sign_up(client, "oksana@example.org", HTTP_HOST="testserver:8101")

    (message,) = mail.outbox
    assert ":8101" not in message.body
    assert f"://{settings.SITE_DOMAIN}/accounts/confirm-email/" in message.body


def test_the_site_row_follows_the_settings_after_migrate(settings):
    from django.contrib.sites.models import Site

    settings.SITE_DOMAIN, settings.SITE_NAME = "pulka.example.org", "Пулька"
    call_command("migrate", verbosity=0)

    site = Site.objects.get(pk=settings.SITE_ID)
    assert (site.domain, site.name) == ("pulka.example.org", "Пулька")


# --- a throttle that every worker shares -------------------------------------------------------


def production_settings(**env) -> str:
    code = "import config.settings as s; print(s.CACHES['default']['BACKEND'])"
    base = {"DEBUG": "false", "SECRET_KEY": "x" * 60, "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_without_redis_production_counts_in_the_database_cache():
    assert production_settings() == "django.core.cache.backends.db.DatabaseCache"
    # Redis, which falls back to the database cache while it is down (club.cache).
    assert production_settings(REDIS_URL="redis://127.0.0.1:6379/9") == (
        "club.cache.ResilientRedisCache"
    )


def test_check_deploy_warns_of_a_cache_each_process_keeps_alone(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    (warning,) = check_shared_cache()
    assert isinstance(warning, CheckWarning)
    assert warning.id == "pulka.W001"

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache"}}
    assert check_shared_cache() == []


def test_the_throttle_counts_in_the_database_cache_that_every_worker_reads(client, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "pulka_cache_test",
        }
    }
    call_command("createcachetable", verbosity=0)
    make_user(username="anna")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post(LOGIN, {"login": "anna", "password": "wrong"}, REMOTE_ADDR="203.0.113.7")

    # Another worker: a fresh connection to the same table sees the same count.
    caches["default"].close()
    response = client.post(
        LOGIN, {"login": "anna", "password": PASSWORD}, REMOTE_ADDR="203.0.113.7"
    )

    assert not logged_in(client)
    assert "Too many wrong passwords in a row" in response.content.decode()
