"""The settings refuse to run production without a key, and pages carry a strict CSP."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import HTMX, make_evening, make_pulka

ROOT = Path(__file__).resolve().parent.parent
IMPORT_SETTINGS = "import config.settings as s; print('key', len(s.SECRET_KEY))"


def import_settings(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "-c", IMPORT_SETTINGS],
        cwd=ROOT,
        env={**environ, **env},
        capture_output=True,
        text=True,
    )


def test_without_a_secret_key_and_debug_off_the_site_refuses_to_start():
    result = import_settings(DEBUG="false")

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr  # how to make one


def test_debug_off_is_the_default_and_refuses_too():
    result = import_settings()

    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_with_debug_on_the_development_key_lets_it_start():
    result = import_settings(DEBUG="true")

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("key ")


def test_a_given_secret_key_is_used():
    key = "k3y-" + "x9Qz_7LmN2pR" * 5
    result = import_settings(DEBUG="false", SECRET_KEY=key)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"key {len(key)}"


# Content-Security-Policy

STRICT = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "base-uri": "'self'",
    "object-src": "'none'",
}


def directives(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    parts = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return dict(parts)


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client, public_club):
    for url in ("/", "/accounts/login/", f"/c/{public_club.slug}/"):
        response = client.get(url)

        assert response.status_code == 200
        policy = directives(response)
        assert {name: policy.get(name) for name in STRICT} == STRICT, url
        assert "unsafe-inline" not in response["Content-Security-Policy"]
        assert "unsafe-eval" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_htmx_fragments_carry_the_policy_too(client, public_club):
    pulka = make_pulka(make_evening(public_club))

    response = client.get(f"/c/{public_club.slug}/p/{pulka.pk}/", headers=HTMX)

    assert "<html" not in response.content.decode()
    assert directives(response)["script-src"] == "'self'"


@pytest.mark.django_db
def test_htmx_is_told_not_to_eval_nor_inject_its_indicator_style(client):
    html = client.get("/").content.decode()

    assert (
        '<meta name="htmx-config" content=\'{"allowEval": false, '
        '"includeIndicatorStyles": false}\'>' in html
    )
    assert html.index('name="htmx-config"') < html.index("htmx-2.min.js")


def test_the_stylesheet_has_the_indicator_style_htmx_no_longer_injects():
    css = (ROOT / "static/css/pulka.css").read_text(encoding="utf-8")

    assert ".htmx-indicator { opacity: 0; visibility: hidden; }" in css
    assert ".htmx-request .htmx-indicator, .htmx-request.htmx-indicator {" in css


def test_no_template_has_inline_script_style_or_event_handlers():
    """What the policy would block: inline <script>/<style>, style= and on*= attributes."""
    offenders = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern in (
            r"<script(?![^>]*\bsrc=)",
            r"<style\b",
            r"\sstyle=",
            r"\son[a-z]+=",
            r"hx-on[:-]",
        ):
            if re.search(pattern, text):
                offenders.append(f"{path.relative_to(ROOT)}: {pattern}")

    assert offenders == []


def email_settings(**env: str) -> dict:
    code = (
        "import json, config.settings as s; print(json.dumps({k: getattr(s, k) for k in "
        "['EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', "
        "'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', 'EMAIL_USE_SSL', 'DEFAULT_FROM_EMAIL']}))"
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_") and k != "DEBUG"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**environ, "SECRET_KEY": "x" * 50, **env},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    import json

    return json.loads(result.stdout)


def test_make_run_prints_mail_on_the_console():
    assert email_settings(DEBUG="true")["EMAIL_BACKEND"].endswith("console.EmailBackend")


def test_production_sends_mail_by_smtp_from_email_url():
    mail = email_settings(
        DEBUG="false",
        EMAIL_URL="smtp://pulka%40example.org:p%3Ass@mail.example.org:2525",
        DEFAULT_FROM_EMAIL="Pulka <pulka@example.org>",
    )

    assert mail["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
    assert mail["EMAIL_HOST"] == "mail.example.org"
    assert mail["EMAIL_PORT"] == 2525
    assert mail["EMAIL_HOST_USER"] == "pulka@example.org"
    assert mail["EMAIL_HOST_PASSWORD"] == "p:ss"
    assert mail["EMAIL_USE_TLS"] is True
    assert mail["EMAIL_USE_SSL"] is False
    assert mail["DEFAULT_FROM_EMAIL"] == "Pulka <pulka@example.org>"


def test_smtps_means_implicit_tls_on_465():
    mail = email_settings(DEBUG="false", EMAIL_URL="smtps://u:p@mail.example.org")

    assert (mail["EMAIL_PORT"], mail["EMAIL_USE_SSL"], mail["EMAIL_USE_TLS"]) == (465, True, False)


def test_the_usual_email_variables_work_without_a_url():
    mail = email_settings(
        DEBUG="true",
        EMAIL_HOST="smtp.example.org",
        EMAIL_HOST_USER="me",
        EMAIL_HOST_PASSWORD="secret",
        EMAIL_USE_TLS="false",
    )

    assert mail["EMAIL_BACKEND"].endswith("smtp.EmailBackend")  # a host set: really send
    assert (mail["EMAIL_HOST"], mail["EMAIL_PORT"], mail["EMAIL_USE_TLS"]) == (
        "smtp.example.org",
        25,
        False,
    )


def test_a_bad_email_url_refuses_to_start():
    result = import_settings(DEBUG="true", EMAIL_URL="http://mail.example.org")

    assert result.returncode != 0
    assert "EMAIL_URL must look like smtp://" in result.stderr


def test_a_bad_verification_setting_refuses_to_start():
    result = import_settings(DEBUG="true", ACCOUNT_EMAIL_VERIFICATION="sometimes")

    assert result.returncode != 0
    assert "ACCOUNT_EMAIL_VERIFICATION must be mandatory or optional" in result.stderr


# Background work (django-tasks)

TASKS_CODE = "import config.settings as s; print(s.TASKS['default']['BACKEND'])"


def tasks_backend(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "TASKS_BACKEND"}
    return subprocess.run(
        [sys.executable, "-c", TASKS_CODE],
        cwd=ROOT,
        env={**environ, "DEBUG": "true", **env},
        capture_output=True,
        text=True,
    )


def test_tasks_run_at_once_by_default_and_in_the_database_when_asked():
    assert tasks_backend().stdout.strip() == "django_tasks.backends.immediate.ImmediateBackend"
    queued = tasks_backend(TASKS_BACKEND="database")
    assert queued.stdout.strip() == "django_tasks_db.DatabaseBackend"


def test_an_unknown_tasks_backend_refuses_to_start():
    result = tasks_backend(TASKS_BACKEND="celery")

    assert result.returncode != 0
    assert "TASKS_BACKEND must be one of immediate, database" in result.stderr
