"""The installable app shell (config/offline.py): the service worker, the manifest, the
offline page, the scripts' catalogs, and which pages the worker may keep."""

import json
import re

import pytest
from django.contrib.staticfiles import finders

from scoring.models import PulkaStatus
from tests.conftest import HTMX, make_evening, make_pulka

pytestmark = pytest.mark.django_db


def test_the_worker_is_served_from_the_root_for_the_whole_site_and_never_cached(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert 'importScripts("/static/js/offline-core.js");' in body


def test_every_file_the_worker_keeps_exists_and_is_served(client):
    body = client.get("/sw.js").content.decode()
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))

    assert "/offline/" in shell
    assert "/static/js/offline.js" in shell
    assert "/static/js/entry-form.js" in shell
    for url in shell:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url
        else:
            assert client.get(url).status_code == 200, url


def test_the_worker_changes_when_a_file_it_keeps_changes(client, settings, tmp_path):
    from config import offline

    before = offline._version()
    original = offline.WORKER_TEMPLATE
    copy = tmp_path / "sw.js"
    copy.write_text(original.read_text() + "\n// changed\n")
    offline.WORKER_TEMPLATE = copy
    try:
        assert offline._version() != before
    finally:
        offline.WORKER_TEMPLATE = original


def test_the_worker_keeps_the_catalog_of_the_visitors_language(client):
    client.cookies["django_language"] = "uk"
    body = client.get("/sw.js").content.decode()

    assert '"/jsi18n/uk/"' in body


def test_the_manifest_names_the_site_its_icons_and_start_in_the_visitors_language(client):
    client.cookies["django_language"] = "uk"
    response = client.get("/manifest.webmanifest")

    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "uk"
    assert manifest["short_name"] == "Пулька"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_every_page_links_the_manifest_and_loads_the_worker_from_a_file(client):
    html = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest" data-worker="/sw.js">' in html
    assert '<script src="/static/js/app.js" defer></script>' in html


@pytest.mark.parametrize(
    ("language", "heading"), [("en", "You are offline"), ("uk", "Ви не в мережі")]
)
def test_the_offline_page_says_so_in_the_readers_language(client, language, heading):
    client.cookies["django_language"] = language
    html = client.get("/offline/").content.decode()

    assert f"<h1>{heading}</h1>" in html


def test_the_scripts_catalog_is_in_the_language_its_address_names(client):
    uk = client.get("/jsi18n/uk/").content.decode()
    ru = client.get("/jsi18n/ru/").content.decode()

    # The catalog writes its words as JSON strings, non-ASCII letters escaped.
    assert json.dumps("ще не надіслано") in uk
    assert json.dumps("ещё не отправлено") in ru
    assert client.get("/jsi18n/de/").status_code == 404


def test_a_secretarys_running_pulka_is_marked_for_the_worker_and_loads_the_queue(as_persona, pulka):
    response = as_persona("secretary").get(pulka.get_absolute_url())

    assert response["Pulka-Offline"] == "entry"
    html = response.content.decode()
    assert 'id="offline-queue"' in html
    assert '<script src="/jsi18n/en/" defer></script>' in html
    assert html.index("/jsi18n/en/") < html.index("js/entry-form.js") < html.index("js/offline.js")
    assert 'data-offline="new"' in html


@pytest.fixture
def pulka(club_a):
    return make_pulka(make_evening(club_a))


@pytest.mark.parametrize("persona", ["player", "owner"])
def test_only_who_enters_deals_gets_the_queue(as_persona, pulka, persona):
    response = as_persona(persona).get(pulka.get_absolute_url())

    assert response.status_code == 200
    kept = persona == "owner"
    assert ("Pulka-Offline" in response) is kept
    assert ('id="offline-queue"' in response.content.decode()) is kept


def test_a_spectator_of_a_public_club_gets_no_queue(client, public_club):
    pulka = make_pulka(make_evening(public_club))

    response = client.get(pulka.get_absolute_url())

    assert response.status_code == 200

    assert response.status_code == 200
    assert "Pulka-Offline" not in response
    assert 'id="offline-queue"' not in response.content.decode()


def test_a_finished_pulka_is_not_kept_for_entry(as_persona, pulka):
    pulka.status = PulkaStatus.FINISHED
    pulka.save()

    response = as_persona("secretary").get(pulka.get_absolute_url())

    assert "Pulka-Offline" not in response
    assert 'id="offline-queue"' not in response.content.decode()


def test_the_htmx_fragment_of_the_pulka_keeps_the_forms_offline_mark(as_persona, pulka):
    response = as_persona("secretary").get(pulka.get_absolute_url(), headers=HTMX)

    html = response.content.decode()
    assert "<html" not in html
    assert 'data-offline="new"' in html


def test_the_offline_page_names_nobody_though_someone_was_signed_in(as_persona):
    html = as_persona("secretary").get("/offline/").content.decode()

    assert "serhii" not in html
    assert 'id="nav-account"' not in html
    assert "Log in" in html
