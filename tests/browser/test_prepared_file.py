"""The owner asks for the backup of a club too big to build while he waits: the page says the
file is being prepared, asks again by itself (htmx) and offers the download once the worker
has built it, in Chromium."""

import json

import pytest
from django.core.cache import cache
from django_tasks_db.management.commands import db_worker

from club.models import Role
from competition.backup import services as backup
from competition.models import FileState, PreparedFile
from tests.browser.factories import OLD, log_in, six_and_no_plays
from tests.competition.factories import DATABASE, work
from tests.conftest import make_club, make_member

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_big_backup_is_prepared_and_then_offered_for_download(
    live_server, browser, settings, monkeypatch, tmp_path
):
    cache.clear()
    settings.TASKS = DATABASE
    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    monkeypatch.setattr(backup, "BACKUP_THRESHOLD_DEALS", 1)  # three deals: a "big" club
    club = make_club(name="Сочинка", slug="sochi", is_public=False)
    owner = make_member(club, Role.OWNER, username="olena").user
    six_and_no_plays(club, OLD, boris_tricks=6)
    work()  # the ratings the pulka asked for
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    log_in(page, live_server, owner)

    page.goto(live_server.url + "/c/sochi/settings/")
    page.click("#settings-background")
    page.click("#backup-button")
    page.wait_for_url(f"{live_server.url}/c/sochi/files/*/")
    assert "The file is being prepared." in page.locator("#file").inner_text()
    row = PreparedFile.objects.get()
    assert row.state == FileState.PENDING

    # The page keeps asking; none of its requests may reach the live server, whose database
    # connection this thread shares, while the worker runs here.
    page.route("**/files/*/", lambda route: route.abort())
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    work()
    page.unroute("**/files/*/")

    page.locator("#file-download").wait_for(timeout=10_000)  # the next poll shows the link
    assert "The file is ready." in page.locator("#file").inner_text()
    with page.expect_download() as caught:
        page.click("#file-download")
    saved = tmp_path / "backup.json"
    caught.value.save_as(saved)
    document = json.loads(saved.read_text(encoding="utf-8"))
    assert caught.value.suggested_filename.startswith("sochi-")
    assert document["format"] == backup.FORMAT
    assert document["club"]["name"] == "Сочинка"
    assert len(document["evenings"][0]["pulkas"][0]["deals"]) == 3
    context.close()
