"""Login throttling (django-axes): ten wrong passwords in a row lock the username out from
that address for 15 minutes, on the login page itself, with a message that says why."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from tests.conftest import PASSWORD, make_user

LOGIN = "/accounts/login/"
WRONG = "Please enter a correct username and password"
LOCKED = "Too many wrong passwords in a row for this username"


def attempt(client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(
        LOGIN, {"username": username, "password": password, "next": "/"}, REMOTE_ADDR=address
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def fail(client, username: str, times: int, address: str = "203.0.113.7") -> list:
    return [attempt(client, username, "wrong", address) for _ in range(times)]


@pytest.fixture
def anna(db):
    return make_user(username="anna")


def test_nine_wrong_passwords_then_the_right_one_logs_in(client, anna):
    responses = fail(client, "anna", 9)

    assert all(r.status_code == 200 and WRONG in r.content.decode() for r in responses)
    response = attempt(client, "anna", PASSWORD)
    assert response.status_code == 302
    assert logged_in(client)


def test_the_tenth_wrong_password_is_checked_and_warns_of_the_lockout(client, anna):
    fail(client, "anna", 9)

    response = attempt(client, "anna", "wrong")

    html = response.content.decode()
    assert response.status_code == 429
    assert LOCKED in html
    assert "try again in 15 minutes" in html
    assert not logged_in(client)


def test_the_eleventh_attempt_is_refused_even_with_the_right_password(client, anna):
    fail(client, "anna", 10)

    response = attempt(client, "anna", PASSWORD)

    html = response.content.decode()
    assert response.status_code == 429
    assert not logged_in(client)
    # The login page again, not a bare error page: the form, the username kept, the reason.
    assert '<form method="post" action="/accounts/login/"' in html
    assert 'name="username" autocomplete="username" required autofocus value="anna"' in html
    assert 'id="login-locked"' in html
    assert LOCKED in html
    assert WRONG not in html
    assert '<input type="hidden" name="next" value="/">' in html


def test_after_the_cool_off_the_right_password_works_again(client, anna):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        fail(client, "anna", 10)
    with time_machine.travel(start + datetime.timedelta(minutes=14), tick=False):
        assert attempt(client, "anna", PASSWORD).status_code == 429

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


def test_the_lock_is_for_that_username_from_that_address_only(client, anna):
    boris = make_user(username="boris")
    fail(client, "anna", 10, address="203.0.113.7")

    assert attempt(client, "anna", PASSWORD, address="198.51.100.2").status_code == 302
    client.logout()
    assert attempt(client, boris.username, PASSWORD, address="203.0.113.7").status_code == 302


def test_a_good_login_forgets_the_failures_before_it(client, anna):
    fail(client, "anna", 9)
    assert attempt(client, "anna", PASSWORD).status_code == 302
    client.logout()

    responses = fail(client, "anna", 9)

    assert all(r.status_code == 200 for r in responses)
    assert attempt(client, "anna", PASSWORD).status_code == 302


def test_the_lockout_message_counts_the_cool_off_from_the_settings(client, anna, settings):
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=1)
    fail(client, "anna", 10)

    html = attempt(client, "anna", PASSWORD).content.decode()

    assert "try again in 1 minute." in html


def test_an_unsafe_next_is_not_carried_onto_the_lockout_page(client, anna):
    fail(client, "anna", 10)

    response = client.post(
        LOGIN,
        {"username": "anna", "password": PASSWORD, "next": "https://evil.example/"},
        REMOTE_ADDR="203.0.113.7",
    )

    assert response.status_code == 429
    assert "evil.example" not in response.content.decode()


def test_behind_the_proxy_the_address_is_the_one_it_appended(client, anna, settings):
    settings.BEHIND_PROXY = True
    for n in range(10):
        # A visitor who forges X-Forwarded-For still lands on the address the proxy saw.
        client.post(
            LOGIN,
            {"username": "anna", "password": "wrong"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.7",
        )

    locked = client.post(
        LOGIN,
        {"username": "anna", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="203.0.113.7",
    )
    other = client.post(
        LOGIN,
        {"username": "anna", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )

    assert locked.status_code == 429
    assert other.status_code == 302
