import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_home_page_names_the_site_and_loads_htmx_from_our_static_files(client):
    response = client.get("/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Pulka</h1>" in html
    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in html
    assert 'hx-headers=\'{"X-CSRFToken": ' in html
    assert 'src="http' not in html
    assert 'href="http' not in html


@pytest.mark.django_db
def test_language_switcher_offers_the_three_languages(client):
    html = client.get("/").content.decode()

    for code in ("uk", "ru", "en"):
        assert f'name="language" value="{code}"' in html


@pytest.mark.django_db
def test_accept_language_picks_ukrainian(client):
    html = client.get("/", headers={"accept-language": "uk"}).content.decode()

    assert '<html lang="uk">' in html
    assert "Увійти" in html


@pytest.mark.django_db
def test_language_choice_is_remembered_in_a_cookie(client):
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/"})

    assert response.status_code == 302
    assert response.cookies["django_language"].value == "ru"
    html = client.get("/", headers={"accept-language": "uk"}).content.decode()
    assert '<html lang="ru">' in html


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "k3y-" + "x9Qz_7LmN2pR" * 5,
        "ALLOWED_HOSTS": "pulka.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
