"""The "too many requests" page says how long to wait, for the limit that paused the visitor:
a minute for a flood of login posts, an hour for sign-ups (20 an hour from one address)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from config.views import limit_period, wait_text

pytestmark = pytest.mark.django_db

ADDRESS = {"REMOTE_ADDR": "198.51.100.9"}


def test_a_flood_of_login_posts_is_told_to_wait_a_minute(client):
    for n in range(30):
        client.post("/accounts/login/", {"login": f"guess{n}", "password": "x"}, **ADDRESS)

    response = client.post("/accounts/login/", {"login": "one-more", "password": "x"}, **ADDRESS)

    assert response.status_code == 429
    page = response.content.decode()
    assert 'id="too-many-requests"' in page
    assert "try again in at most 1 minute." in page


def test_too_many_sign_ups_are_told_to_wait_up_to_an_hour(client):
    for n in range(20):
        data = {"email": f"p{n}@example.org", "password1": "x", "password2": "y"}
        client.post("/accounts/signup/", data, **ADDRESS)

    response = client.post(
        "/accounts/signup/", {"email": "late@example.org", "password1": "x"}, **ADDRESS
    )

    assert response.status_code == 429
    assert "try again in at most 1 hour." in response.content.decode()
    assert "1 minute" not in response.content.decode()


@pytest.mark.parametrize(
    ("path", "seconds"),
    [
        ("/accounts/login/", 60),
        ("/accounts/signup/", 3600),
        ("/accounts/password/reset/", 3600),
        ("/no/such/page/", 60),
    ],
)
def test_the_wait_is_the_longest_period_of_the_pages_limits(path, seconds):
    assert limit_period(RequestFactory().get(path)) == seconds


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (60, "1 minute"),
        (180, "3 minutes"),
        (900, "15 minutes"),
        (3600, "1 hour"),
        (7200, "2 hours"),
    ],
)
def test_the_wait_reads_as_words(seconds, text):
    assert wait_text(seconds) == text
