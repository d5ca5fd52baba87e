"""A server error is logged to stderr with the request's path and the user's id, no body."""

import io
import logging

import pytest
from django.http import HttpRequest
from django.urls import include, path

from config.log import RequestContextFilter

SECRET = "hunter2-deal-typed-at-the-table"


def boom(request: HttpRequest):
    raise RuntimeError("the view failed")


# The site's URLs beside /boom/: its 500 page links home.
urlpatterns = [path("boom/", boom), path("", include("config.urls"))]


@pytest.fixture
def stderr_lines():
    """What the console handler (the one on stderr) writes during the test."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    yield buffer
    handler.setStream(previous)


@pytest.mark.urls("tests.test_logging")
@pytest.mark.django_db
def test_a_500_logs_the_path_and_the_user_id_but_not_the_body(client, owner, caplog, stderr_lines):
    client.raise_request_exception = False
    client.force_login(owner)

    response = client.post("/boom/?page=2", {"password": SECRET, "note": SECRET})

    assert response.status_code == 500
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR
    assert record.path == "/boom/"
    assert record.user_id == str(owner.pk)
    written = stderr_lines.getvalue()
    assert f"ERROR django.request path=/boom/ user={owner.pk} Internal Server Error" in written
    assert "RuntimeError: the view failed" in written  # the traceback follows
    assert SECRET not in written
    assert SECRET not in caplog.text


@pytest.mark.urls("tests.test_logging")
@pytest.mark.django_db
def test_an_anonymous_visitors_error_says_so(client, caplog):
    client.raise_request_exception = False

    client.get("/boom/")

    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert (record.path, record.user_id) == ("/boom/", "anonymous")


def test_records_without_a_request_get_dashes():
    record = logging.LogRecord("pulka", logging.WARNING, __file__, 1, "plain", None, None)

    assert RequestContextFilter().filter(record)
    assert (record.path, record.user_id) == ("-", "-")
