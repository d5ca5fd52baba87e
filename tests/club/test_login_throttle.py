"""Login throttling (allauth's rate limits, settings.ACCOUNT_RATE_LIMITS["login_failed"]):
ten wrong passwords in a row for one login from one address pause that login from that
address for 15 minutes, on the login page itself, with a message that says why."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from tests.conftest import PASSWORD, make_user

LOGIN = "/accounts/login/"
WRONG = "The username and/or password you specified are not correct."
LOCKED = "Too many wrong passwords in a row for this username"


def attempt(client, login: str, password: str, address: str = "203.0.113.7", **extra):
    return client.post(
        LOGIN, {"login": login, "password": password, "next": "/"}, REMOTE_ADDR=address, **extra
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def fail(client, login: str, times: int, address: str = "203.0.113.7") -> list:
    return [attempt(client, login, "wrong", address) for _ in range(times)]


@pytest.fixture
def anna(db):
    return make_user(username="anna")


def test_ten_wrong_passwords_then_the_right_one_logs_in(client, anna):
    responses = fail(client, "anna", 10)

    assert all(r.status_code == 200 and WRONG in r.content.decode() for r in responses)
    assert all(LOCKED not in r.content.decode() for r in responses)
    response = attempt(client, "anna", PASSWORD)
    # The eleventh attempt is already refused: see the next test.
    assert response.status_code == 200
    assert not logged_in(client)


def test_nine_wrong_passwords_then_the_right_one_logs_in(client, anna):
    fail(client, "anna", 9)

    response = attempt(client, "anna", PASSWORD)

    assert response.status_code == 302
    assert logged_in(client)


def test_the_eleventh_attempt_is_refused_even_with_the_right_password(client, anna):
    fail(client, "anna", 10)

    response = attempt(client, "anna", PASSWORD)

    html = response.content.decode()
    assert not logged_in(client)
    # The login page again, not a bare error page: the form, the login kept, the reason.
    assert 'action="/accounts/login/"' in html
    assert 'name="login"' in html
    assert 'value="anna"' in html
    assert LOCKED in html
    assert "try again in 15 minutes" in html
    assert WRONG not in html
    assert '<input type="hidden" name="next" value="/">' in html


def test_the_lockout_message_is_translated(client, anna):
    fail(client, "anna", 10)

    response = attempt(client, "anna", PASSWORD, headers={"accept-language": "uk"})

    assert "Забагато неправильних паролів поспіль" in response.content.decode()


def test_after_the_cool_off_the_right_password_works_again(client, anna):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        fail(client, "anna", 10)
    with time_machine.travel(start + datetime.timedelta(minutes=14), tick=False):
        assert LOCKED in attempt(client, "anna", PASSWORD).content.decode()

    with time_machine.travel(start + datetime.timedelta(minutes=15, seconds=1), tick=False):
        response = attempt(client, "anna", PASSWORD)

    assert response.status_code == 302
    assert logged_in(client)


def test_retrying_during_the_lockout_does_not_restart_the_clock(client, anna):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        fail(client, "anna", 10)
    with time_machine.travel(start + datetime.timedelta(minutes=10), tick=False):
        fail(client, "anna", 3)

    with time_machine.travel(start + datetime.timedelta(minutes=16), tick=False):
        assert attempt(client, "anna", PASSWORD).status_code == 302


def test_the_lock_is_for_that_login_from_that_address_only(client, anna):
    boris = make_user(username="boris")
    fail(client, "anna", 10, address="203.0.113.7")

    assert attempt(client, "anna", PASSWORD, address="198.51.100.2").status_code == 302
    assert client.session["_auth_user_id"] == str(anna.pk)
    client.post("/accounts/logout/")
    assert attempt(client, boris.username, PASSWORD, address="203.0.113.7").status_code == 302
    assert client.session["_auth_user_id"] == str(boris.pk)


def test_the_login_counts_whatever_its_case(client, anna):
    fail(client, "ANNA", 10)

    assert LOCKED in attempt(client, "anna", PASSWORD).content.decode()


def test_one_address_trying_many_usernames_is_stopped_too(client, db):
    start = timezone.now()
    for n in range(50):
        # 50 in ten minutes: slower than the flood limit on login posts (30 a minute).
        with time_machine.travel(start + datetime.timedelta(seconds=12 * n), tick=False):
            attempt(client, f"guess{n}", "wrong")

    with time_machine.travel(start + datetime.timedelta(minutes=10), tick=False):
        response = attempt(client, "someone-else", "wrong")

    assert LOCKED in response.content.decode()


def test_a_flood_of_login_posts_gets_a_clear_page(client, db):
    responses = [attempt(client, f"guess{n}", "wrong") for n in range(31)]

    assert all(r.status_code == 200 for r in responses[:30])
    last = responses[-1]
    html = last.content.decode()
    assert last.status_code == 429
    assert 'class="site-header"' in html
    assert 'id="too-many-requests"' in html
    assert "Too many requests from your address" in html


def test_the_limits_come_from_the_settings(client, anna, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/1m/key"}
    settings.LOGIN_COOLOFF_MINUTES = 1
    fail(client, "anna", 3)

    html = attempt(client, "anna", PASSWORD).content.decode()

    assert "try again in 1 minute." in html


def test_an_unsafe_next_is_never_followed(client, anna):
    fail(client, "anna", 9)

    response = client.post(
        LOGIN,
        {"login": "anna", "password": PASSWORD, "next": "https://evil.example/"},
        REMOTE_ADDR="203.0.113.7",
    )

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_behind_the_proxy_the_address_is_the_one_it_appended(client, anna, settings):
    settings.BEHIND_PROXY = True
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for n in range(10):
        # A visitor who forges X-Forwarded-For still lands on the address the proxy saw.
        client.post(
            LOGIN,
            {"login": "anna", "password": "wrong"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.7",
        )

    locked = client.post(
        LOGIN,
        {"login": "anna", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="203.0.113.7",
    )
    other = client.post(
        LOGIN,
        {"login": "anna", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )

    assert LOCKED in locked.content.decode()
    assert other.status_code == 302


def test_the_settings_trust_the_proxy_only_when_told(settings):
    import subprocess
    import sys

    code = "import config.settings as s; print(s.ALLAUTH_TRUSTED_PROXY_COUNT)"
    env = {"DEBUG": "true", "PATH": "/usr/bin:/bin"}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    proxied = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "BEHIND_PROXY": "true"},
        capture_output=True,
        text=True,
    )

    assert plain.stdout.strip() == "0"
    assert proxied.stdout.strip() == "1"
