"""/healthz: what a load balancer asks every few seconds."""

import pytest
from django.db import OperationalError

from config import views as site_views


@pytest.mark.django_db
def test_healthz_answers_ok_with_one_select_and_no_session(client, django_assert_num_queries):
    with django_assert_num_queries(1) as queries:
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")
    assert [q["sql"] for q in queries.captured_queries] == ["SELECT 1"]
    assert "Set-Cookie" not in response
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")


@pytest.mark.django_db
def test_healthz_does_not_read_the_session_of_a_logged_in_browser(
    client, owner, django_assert_num_queries
):
    client.force_login(owner)

    with django_assert_num_queries(1):
        response = client.get("/healthz")

    assert response.content == b"ok"
    assert not response.cookies


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_does_not(client, monkeypatch, caplog):
    class DownCursor:
        def __enter__(self):
            raise OperationalError("connection refused")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(site_views.connection, "cursor", lambda: DownCursor())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content == b"database unavailable"
    assert "the database does not answer: OperationalError" in caplog.text


@pytest.mark.django_db
def test_healthz_is_exempt_from_the_https_redirect(client, settings):
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/healthz").status_code == 200
    page = client.get("/")
    assert page.status_code == 301
    assert page["Location"] == "https://testserver/"


@pytest.mark.django_db
def test_healthz_is_never_cached(client):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]
    assert client.post("/healthz").status_code == 405
