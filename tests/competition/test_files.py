"""Prepared files (competition.files.services): built at once when small, by a task when big; their
page, their download, retries, stale builds, expiry; and the club's backup as the first kind."""

from __future__ import annotations

import datetime
import json
import threading
import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.http import Http404, HttpResponse
from django.test import RequestFactory
from django.utils import timezone
from django_htmx.middleware import HtmxDetails
from django_tasks_db.models import DBTaskResult

from club.access import ClubAccess
from club.errors import ServiceError
from club.models import Role
from competition.backup import services as backup
from competition.files import services as files
from competition.models import STALE_AFTER, FileState, PreparedFile, RatingRefresh, RefreshState
from competition.rating import background
from competition.tasks import MAX_ATTEMPTS
from tests.club.factories import (
    MANAGE,
    READ,
    assert_fragment,
    assert_full_page,
    assert_method_refused,
    assert_not_found,
    html,
)
from tests.competition.factories import DATABASE, work
from tests.conftest import HTMX, PERSONAS, make_club, make_evening, make_member
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db

# A file asked for by the player of club A: he and the owner may have it, the others not.
ASKER = {"anonymous": 404, "outsider": 404, "player": 200, "secretary": 403, "owner": 200}


@pytest.fixture
def echo(monkeypatch) -> list[str]:
    """A kind of file, "echo", whose builder writes the club and a word; returns its calls."""
    calls: list[str] = []

    def build(club, *, word: str = "hello") -> files.BuiltFile:
        calls.append(word)
        return files.BuiltFile(f"{word}.txt", "text/plain", f"{club.slug}: {word}".encode())

    monkeypatch.setitem(files.BUILDERS, "echo", build)
    monkeypatch.setitem(files.LABELS, "echo", "The echo file")
    return calls


@pytest.fixture
def broken(monkeypatch) -> dict[str, bool]:
    """A kind "broken" whose builder fails until `fixed["now"]` is set."""
    fixed = {"now": False}

    def build(club) -> files.BuiltFile:
        if not fixed["now"]:
            raise RuntimeError("disk full")
        return files.BuiltFile("fixed.txt", "text/plain", b"fixed")

    monkeypatch.setitem(files.BUILDERS, "broken", build)
    monkeypatch.setitem(files.LABELS, "broken", "The broken file")
    return fixed


def ask(
    club, user, kind="echo", params=None, *, role=Role.OWNER, readers=Role.OWNER
) -> PreparedFile:
    return files.file_request(
        club=club,
        kind=kind,
        params={"word": "hello"} if params is None else params,
        user=user,
        role=role,
        readers=readers,
    )


def prepared(club, user=None, **overrides) -> PreparedFile:
    """A row as a request leaves it (pending), with `overrides`."""
    now = timezone.now()
    fields = {
        "club": club,
        "kind": "echo",
        "params": {"word": "hello"},
        "params_key": files.params_key({"word": "hello"}),
        "requested_by": user,
        "expires_at": now + files.LIFETIME,
        **overrides,
    }
    return PreparedFile.objects.create(**fields)


def ready(club, user=None, **overrides) -> PreparedFile:
    return prepared(
        club,
        user,
        state=FileState.READY,
        filename="hello.txt",
        content_type="text/plain",
        content=b"sochi: hello",
        size=12,
        **overrides,
    )


def request_for(user, *, htmx: bool = False):
    request = RequestFactory().post("/", headers=HTMX if htmx else {})
    request.user = user
    request.htmx = HtmxDetails(request)  # as django-htmx's middleware sets it
    return request


def with_deals(club, count: int = 1):
    evening = make_evening(club, date=datetime.date(2025, 3, 3))
    for _ in range(count):
        ended_early(evening, six("Boris", "Vera", "Anna"))


# --- the registry -------------------------------------------------------------------------


def test_the_params_key_does_not_depend_on_the_order_of_the_params():
    assert files.params_key({"a": 1, "b": [2, 3]}) == files.params_key({"b": [2, 3], "a": 1})
    assert files.params_key({"a": 1}) != files.params_key({"a": 2})


def test_a_kind_has_one_builder(echo):
    with pytest.raises(ValueError, match="registered already"):
        files.register("echo", label="Another")(lambda club: None)


def test_the_club_backup_is_registered_with_its_label():
    assert files.BUILDERS[backup.BACKUP_KIND] is backup.backup_file
    assert str(files.LABELS[backup.BACKUP_KIND]) == "The club's backup (JSON)"


def test_an_unknown_kind_is_a_programming_error(club_a, owner):
    access = ClubAccess(club=club_a, role=Role.OWNER)

    with pytest.raises(LookupError):
        files.respond_or_prepare(
            request_for(owner), access, kind="nope", params={}, size=1, threshold=0, back="/"
        )
    assert not PreparedFile.objects.exists()


# --- at once, or in the background --------------------------------------------------------


def test_under_the_threshold_the_file_is_answered_at_once_and_nothing_is_stored(
    club_a, owner, echo
):
    access = ClubAccess(club=club_a, role=Role.OWNER)

    response = files.respond_or_prepare(
        request_for(owner),
        access,
        kind="echo",
        params={"word": "hi"},
        size=10,
        threshold=10,
        back="/",
    )

    assert response.status_code == 200
    assert response.content == b"sochi: hi"
    assert response["Content-Type"] == "text/plain"
    assert response["Content-Disposition"] == 'attachment; filename="hi.txt"'
    assert "no-store" in response["Cache-Control"]
    assert not PreparedFile.objects.exists()


def test_over_the_threshold_the_worker_builds_the_same_file_as_the_inline_path(
    club_a, owner, echo, client, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    access = ClubAccess(club=club_a, role=Role.OWNER)
    offer = {"kind": "echo", "params": {"word": "hi"}, "threshold": 1, "back": "/"}
    inline = files.respond_or_prepare(request_for(owner), access, size=1, **offer)

    with django_capture_on_commit_callbacks(execute=True):
        response = files.respond_or_prepare(request_for(owner), access, size=2, **offer)

    row = PreparedFile.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/c/sochi/files/{row.pk}/"
    assert (row.state, row.content, row.requested_by) == (FileState.PENDING, None, owner)
    assert echo == ["hi"]  # only the inline build so far
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    client.force_login(owner)
    download = f"/c/sochi/files/{row.pk}/download/"
    assert client.get(download)["Location"] == f"/c/sochi/files/{row.pk}/"  # not yet
    waiting = assert_full_page(client.get(row.get_absolute_url()), "file")
    assert "The file is being prepared." in waiting
    assert 'hx-trigger="every 3s"' in waiting

    work()

    row.refresh_from_db()
    assert (row.state, row.attempts, row.size) == (FileState.READY, 1, len(b"sochi: hi"))
    page = assert_full_page(client.get(row.get_absolute_url()), "file")
    assert "The file is ready." in page
    assert 'hx-trigger="every 3s"' not in page  # the polling stops
    assert download in page
    got = client.get(download)
    assert got.content == inline.content
    assert got["Content-Disposition"] == inline["Content-Disposition"]
    assert got["Content-Type"] == "text/plain"


def test_an_htmx_request_over_the_threshold_is_sent_to_the_files_page(club_a, owner, echo):
    access = ClubAccess(club=club_a, role=Role.OWNER)

    response = files.respond_or_prepare(
        request_for(owner, htmx=True),
        access,
        kind="echo",
        params={},
        size=2,
        threshold=1,
        back="/",
    )

    row = PreparedFile.objects.get()
    assert response["HX-Redirect"] == f"/c/sochi/files/{row.pk}/"
    assert row.state == FileState.READY  # the immediate backend built it in the request


def test_two_requests_before_the_worker_runs_share_one_row_and_one_build(
    club_a, owner, echo, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        first = ask(club_a, owner)
        second = ask(club_a, owner, params={"word": "hello"})

    assert first.pk == second.pk
    assert DBTaskResult.objects.count() == 1
    work()
    assert echo == ["hello"]
    assert PreparedFile.objects.get().state == FileState.READY


def test_a_request_while_the_file_is_built_gets_the_same_row(
    club_a, owner, echo, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        first = ask(club_a, owner)
    files._claim(first.pk)  # a worker has started on it

    assert ask(club_a, owner).pk == first.pk


def test_other_params_or_other_readers_make_their_own_file(
    club_a, owner, player, echo, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        mine = ask(club_a, owner)
        other_word = ask(club_a, owner, params={"word": "bye"})
        for_players = ask(club_a, player, role=Role.PLAYER, readers=Role.PLAYER)
        owners_for_players = ask(club_a, owner, readers=Role.PLAYER)

    assert len({mine.pk, other_word.pk, for_players.pk}) == 3
    # The owner may read the players' file: he gets the one on its way, not a new one.
    assert owners_for_players.pk == for_players.pk
    assert PreparedFile.objects.count() == 3
    assert DBTaskResult.objects.count() == 3


def test_a_new_request_for_a_ready_file_builds_it_afresh(club_a, owner, echo):
    first = ask(club_a, owner)
    assert PreparedFile.objects.get(pk=first.pk).state == FileState.READY

    second = ask(club_a, owner)

    assert second.pk != first.pk
    assert echo == ["hello", "hello"]
    assert PreparedFile.objects.filter(state=FileState.READY).count() == 2


# --- failures -----------------------------------------------------------------------------


def test_a_failing_build_is_retried_then_shown_failed_and_can_be_tried_again(
    club_a, owner, broken, client, caplog, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        row = ask(club_a, owner, kind="broken", params={})
    for _ in range(MAX_ATTEMPTS + 1):
        with django_capture_on_commit_callbacks(execute=True):
            work()

    row.refresh_from_db()
    assert (row.state, row.attempts) == (FileState.FAILED, MAX_ATTEMPTS)
    assert row.last_error == "RuntimeError: disk full"
    assert caplog.text.count("Preparing the broken file") == MAX_ATTEMPTS
    client.force_login(owner)
    page = assert_full_page(client.get("/c/sochi/background/"), "work")
    assert f'id="file-{row.pk}"' in page
    assert "The broken file" in page
    assert "RuntimeError: disk full" in page
    assert 'name="restart" value="file"' in page
    own_page = html(client.get(row.get_absolute_url()))
    assert "The file could not be prepared (3 attempts)." in own_page
    assert "Try again" in own_page

    broken["now"] = True
    with django_capture_on_commit_callbacks(execute=True):
        text = assert_fragment(
            client.post("/c/sochi/background/", {"restart": "file", "file": row.pk}, headers=HTMX),
            "work",
        )
    assert "The file is being prepared again." in text
    row.refresh_from_db()
    assert (row.state, row.attempts) == (FileState.PENDING, 0)
    work()
    row.refresh_from_db()
    assert (row.state, bytes(row.content)) == (FileState.READY, b"fixed")


def test_trying_again_from_the_files_page(club_a, player, broken, client):
    row = prepared(
        club_a, player, kind="broken", params={}, state=FileState.FAILED, attempts=3, runs=3
    )
    broken["now"] = True
    client.force_login(player)

    text = assert_fragment(client.post(row.get_absolute_url(), headers=HTMX), "file")

    assert "The file is being prepared again." in text
    assert "The file is ready." in text  # the immediate backend built it
    response = client.post(row.get_absolute_url())
    assert response.status_code == 302
    assert "This file has not failed: there is nothing to start again." in html(
        client.get(response["Location"])
    )


def test_the_error_text_is_for_the_owner_only(club_a, player, owner, client):
    row = prepared(club_a, player, state=FileState.FAILED, attempts=3, last_error="Boom: secret")
    client.force_login(player)
    assert "Boom: secret" not in html(client.get(row.get_absolute_url()))
    client.force_login(owner)
    assert "Boom: secret" in html(client.get(row.get_absolute_url()))


def test_a_build_whose_worker_died_can_be_started_again(club_a, owner, echo, client):
    long_ago = timezone.now() - STALE_AFTER - datetime.timedelta(minutes=1)
    row = prepared(club_a, owner, state=FileState.RUNNING, attempts=1, runs=1, started_at=long_ago)
    client.force_login(owner)

    page = html(client.get(row.get_absolute_url()))
    assert "the work seems to have stopped" in page
    assert 'hx-trigger="every 3s"' not in page
    assert "Stopped" in html(client.get("/c/sochi/background/"))

    files.file_restart(club=club_a, file_id=row.pk)

    row.refresh_from_db()
    assert (row.state, row.runs, bytes(row.content)) == (FileState.READY, 2, b"sochi: hello")


def test_a_build_that_is_still_running_is_not_started_twice(club_a, owner, echo, client):
    row = prepared(
        club_a, owner, state=FileState.RUNNING, attempts=1, runs=1, started_at=timezone.now()
    )

    with pytest.raises(ServiceError):
        files.file_restart(club=club_a, file_id=row.pk)

    client.force_login(owner)
    assert 'hx-trigger="every 3s"' in html(client.get(row.get_absolute_url()))
    row.refresh_from_db()
    assert (row.state, row.runs) == (FileState.RUNNING, 1)


def test_a_dead_build_that_wakes_up_after_a_restart_stores_nothing(club_a, owner, broken):
    broken["now"] = True
    long_ago = timezone.now() - STALE_AFTER - datetime.timedelta(minutes=1)
    row = prepared(club_a, owner, kind="broken", params={}, state=FileState.RUNNING, runs=1)
    PreparedFile.objects.filter(pk=row.pk).update(started_at=long_ago)
    files.file_restart(club=club_a, file_id=row.pk)  # built again at once: run 2

    files._failed(row, 1, RuntimeError("late"))  # what run 1 reports when it wakes up

    row.refresh_from_db()
    assert (row.state, row.runs, row.last_error) == (FileState.READY, 2, "")


def test_a_new_request_supersedes_a_failed_or_stuck_file(club_a, owner, echo):
    long_ago = timezone.now() - STALE_AFTER - datetime.timedelta(minutes=1)
    failed = prepared(club_a, owner, state=FileState.FAILED, attempts=3)
    stuck = prepared(club_a, owner, state=FileState.RUNNING, started_at=long_ago)

    fresh = ask(club_a, owner)

    assert list(PreparedFile.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert fresh.pk not in (failed.pk, stuck.pk)


def test_a_builder_that_breaks_the_database_does_not_spoil_the_request(club_a, owner, monkeypatch):
    def build(club) -> files.BuiltFile:
        PreparedFile.objects.create(club=club)  # NOT NULL expires_at: an IntegrityError
        raise AssertionError("unreachable")

    monkeypatch.setitem(files.BUILDERS, "bad-sql", build)

    row = ask(club_a, owner, kind="bad-sql", params={})

    row.refresh_from_db()  # the request's transaction still works
    assert row.state == FileState.FAILED
    assert row.last_error.startswith("IntegrityError")


# --- who may have a file prepared, and how often ---------------------------------------


@pytest.fixture
def versioned(echo, monkeypatch) -> dict[str, int]:
    """The echo files are built from data of a version: `data["version"]`, which a test
    changes as a service would when the data change."""
    data = {"version": 1}
    monkeypatch.setitem(files.VERSIONS, "echo", lambda club, **params: f"v{data['version']}")
    return data


@pytest.mark.parametrize(
    ("who", "role", "readers", "message"),
    [
        ("anonymous", None, Role.PLAYER, "Log in if you are one, or ask a member for it."),
        ("outsider", None, Role.PLAYER, "for the club's members only. Ask a member for it."),
        ("player", Role.PLAYER, Role.SECRETARY, "only for members who may download it"),
    ],
)
def test_nobody_who_could_not_download_the_file_may_have_it_prepared(
    request, public_club, echo, settings, who, role, readers, message
):
    settings.TASKS = DATABASE
    user = AnonymousUser() if who == "anonymous" else request.getfixturevalue(who)

    with pytest.raises(ServiceError, match=message):
        ask(public_club, user, role=role, readers=readers)

    assert not PreparedFile.objects.exists()
    assert not DBTaskResult.objects.exists()
    assert echo == []


def test_a_refused_htmx_request_gets_the_offer_saying_why(public_club, echo):
    access = ClubAccess(club=public_club, role=None)

    response = files.respond_or_prepare(
        request_for(AnonymousUser(), htmx=True),
        access,
        kind="echo",
        params={},
        size=2,
        threshold=1,
        readers=Role.PLAYER,
        back="/c/open/",
        refused=lambda said: HttpResponse(f"<p id='offer'>{said}</p>"),
    )

    assert response.status_code == 200
    assert "Log in if you are one" in html(response)
    assert not PreparedFile.objects.exists()


def test_ten_members_asking_for_the_same_file_share_one_build_and_one_row(
    club_a, echo, versioned, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    members = [make_member(club_a, Role.PLAYER, username=f"member-{k}").user for k in range(10)]

    with django_capture_on_commit_callbacks(execute=True):
        waiting = {ask(club_a, user, role=Role.PLAYER, readers=Role.PLAYER).pk for user in members}
    work()
    with django_capture_on_commit_callbacks(execute=True):
        built = {ask(club_a, user, role=Role.PLAYER, readers=Role.PLAYER).pk for user in members}

    row = PreparedFile.objects.get()
    assert waiting == built == {row.pk}
    assert (row.state, row.requested_by, row.version) == (FileState.READY, members[0], "v1")
    assert DBTaskResult.objects.count() == 1
    assert echo == ["hello"]
    for user in members:  # each of them may have it
        access = ClubAccess(club=club_a, role=Role.PLAYER)
        assert files.file_for_viewer(access, user, row.pk).pk == row.pk


def test_changed_data_give_a_new_build(club_a, owner, echo, versioned):
    first = ask(club_a, owner)
    again = ask(club_a, owner)
    versioned["version"] = 2
    second = ask(club_a, owner)
    third = ask(club_a, owner)

    assert first.pk == again.pk
    assert second.pk == third.pk != first.pk
    assert echo == ["hello", "hello"]
    assert set(PreparedFile.objects.values_list("version", "state")) == {
        ("v1", FileState.READY),  # still downloadable until it expires
        ("v2", FileState.READY),
    }


def test_a_member_past_his_hourly_limit_is_refused_and_told_when_to_try_again(
    club_a, owner, echo, versioned, settings
):
    settings.FILE_BUILDS_PER_MEMBER_HOUR = 2
    first = ask(club_a, owner, params={"word": "a"})
    ask(club_a, owner, params={"word": "b"})

    with pytest.raises(ServiceError) as refused:
        ask(club_a, owner, params={"word": "c"})
    shared = ask(club_a, owner, params={"word": "a"})  # a file prepared already: no build

    assert refused.value.message == (
        "You have had 2 files prepared in the last hour, as many as a member may. "
        "Try again in 60 minutes; a file prepared already stays downloadable."
    )
    assert shared.pk == first.pk
    assert echo == ["a", "b"]
    PreparedFile.objects.filter(pk=first.pk).update(
        requested_at=timezone.now() - datetime.timedelta(minutes=45)
    )
    with pytest.raises(ServiceError, match="Try again in 15 minutes;"):
        ask(club_a, owner, params={"word": "c"})
    PreparedFile.objects.filter(pk=first.pk).update(
        requested_at=timezone.now() - datetime.timedelta(minutes=61)
    )
    third = ask(club_a, owner, params={"word": "c"})
    assert PreparedFile.objects.get(pk=third.pk).state == FileState.READY
    assert echo == ["a", "b", "c"]


def test_a_club_past_its_hourly_limit_is_refused(
    club_a, owner, secretary, player, echo, versioned, settings
):
    settings.FILE_BUILDS_PER_CLUB_HOUR = 2
    ask(club_a, owner, params={"word": "a"}, readers=Role.PLAYER)
    ask(club_a, secretary, params={"word": "b"}, role=Role.SECRETARY, readers=Role.PLAYER)

    with pytest.raises(ServiceError) as refused:
        ask(club_a, player, params={"word": "c"}, role=Role.PLAYER, readers=Role.PLAYER)

    assert refused.value.message.startswith(
        "The club has had 2 files prepared in the last hour, as many as it may. Try again in"
    )
    assert PreparedFile.objects.count() == 2
    other_club = make_club()
    elsewhere = make_member(other_club, Role.OWNER).user
    assert ask(other_club, elsewhere, params={"word": "c"}).club == other_club


def test_a_file_is_built_on_the_files_queue_not_the_re_rates(
    club_a, owner, echo, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        row = ask(club_a, owner)

    task = DBTaskResult.objects.get()
    assert task.queue_name == files.QUEUE == "files"
    work(["default"])  # the re-rates' worker
    row.refresh_from_db()
    assert (row.state, echo) == (FileState.PENDING, [])
    work(["files"])  # the files' worker
    row.refresh_from_db()
    assert (row.state, echo) == (FileState.READY, ["hello"])


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_file_for_every_member_is_every_members(club_a, owner, persona, as_persona):
    row = ready(club_a, owner, readers=Role.PLAYER)
    for_secretaries = ready(
        club_a, owner, readers=Role.SECRETARY, params={}, params_key=files.params_key({})
    )
    client = as_persona(persona)

    page = client.get(row.get_absolute_url())
    fragment = client.get(row.get_absolute_url(), headers=HTMX)
    download = client.get(f"/c/sochi/files/{row.pk}/download/")
    secretaries = client.get(f"/c/sochi/files/{for_secretaries.pk}/download/")

    assert page.status_code == fragment.status_code == download.status_code == READ[persona]
    assert secretaries.status_code == {**READ, "player": 403}[persona]
    if READ[persona] == 200:
        assert "Download hello.txt" in assert_full_page(page, "file")
        assert "<html" not in assert_fragment(fragment, "file")
        assert download.content == b"sochi: hello"


# --- expiry -------------------------------------------------------------------------------


def test_expired_files_are_pruned_when_a_new_one_is_made(club_a, club_b, owner, echo):
    past = timezone.now() - datetime.timedelta(minutes=1)
    gone = [ready(club_a, owner, expires_at=past), ready(club_b, None, expires_at=past)]
    kept = ready(club_a, owner, params={"word": "bye"}, params_key=files.params_key({"w": 1}))

    fresh = ask(club_a, owner)

    assert set(PreparedFile.objects.values_list("pk", flat=True)) == {kept.pk, fresh.pk}
    assert not {row.pk for row in gone} & {kept.pk, fresh.pk}


def test_an_expired_file_is_gone_for_its_page_and_its_download(club_a, owner, client):
    row = ready(club_a, owner, expires_at=timezone.now() - datetime.timedelta(seconds=1))
    client.force_login(owner)

    assert client.get(row.get_absolute_url()).status_code == 404
    assert client.get(f"/c/sochi/files/{row.pk}/download/").status_code == 404
    assert f'id="file-{row.pk}"' not in html(client.get("/c/sochi/background/"))


def test_an_expired_waiting_file_is_not_built(club_a, owner, echo):
    row = prepared(club_a, owner, expires_at=timezone.now() - datetime.timedelta(seconds=1))

    assert files.build_file_task.call(file_id=row.pk) == 0
    assert echo == []


# --- who may see a file -------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_file_the_owner_asked_for_is_the_owners(club_a, owner, persona, as_persona):
    row = ready(club_a, owner)
    client = as_persona(persona)

    page = client.get(row.get_absolute_url())
    fragment = client.get(row.get_absolute_url(), headers=HTMX)
    download = client.get(f"/c/sochi/files/{row.pk}/download/")

    for response in (page, fragment, download):
        assert response.status_code == MANAGE[persona]
    if persona == "owner":
        assert "Download hello.txt" in assert_full_page(page, "file")
        assert "<html" not in assert_fragment(fragment, "file")
        assert download.content == b"sochi: hello"


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_file_a_player_asked_for_is_his_and_the_owners(club_a, player, persona, as_persona):
    row = ready(club_a, player)
    client = as_persona(persona)

    page = client.get(row.get_absolute_url())
    download = client.get(f"/c/sochi/files/{row.pk}/download/")

    assert page.status_code == ASKER[persona]
    assert download.status_code == ASKER[persona]
    if ASKER[persona] == 200:
        assert "Download hello.txt" in html(page)
        assert download.content == b"sochi: hello"


def test_a_file_of_a_public_club_sends_a_visitor_to_log_in_and_an_outsider_away(
    public_club, outsider, client
):
    row = ready(public_club, make_member(public_club, Role.OWNER).user)

    response = client.get(row.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.get(row.get_absolute_url()).status_code == 404
    assert client.get(f"/c/open/files/{row.pk}/download/").status_code == 404


def test_a_file_of_another_club_is_not_found(club_a, club_b, owner, client):
    row = ready(club_b, None)
    client.force_login(owner)

    assert_not_found(client.get(f"/c/sochi/files/{row.pk}/"), row.filename, club_b.name)
    assert_not_found(client.get(f"/c/sochi/files/{row.pk}/download/"), "sochi: hello")


def test_a_member_who_left_the_club_loses_his_file(club_a, player, secretary):
    row = ready(club_a, player)
    player.memberships.all().delete()

    with pytest.raises(Http404):
        files.file_for_viewer(ClubAccess(club=club_a, role=None), player, row.pk)
    with pytest.raises(PermissionDenied):
        files.file_for_viewer(ClubAccess(club=club_a, role=Role.SECRETARY), secretary, row.pk)


def test_a_member_who_is_not_the_asker_may_not_restart_the_file(club_a, owner, secretary, client):
    row = prepared(club_a, owner, state=FileState.FAILED, attempts=3)
    client.force_login(secretary)

    assert client.post(row.get_absolute_url()).status_code == 403
    row.refresh_from_db()
    assert row.state == FileState.FAILED


# --- the club's backup ----------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_club_backup_is_for_the_owner(club_a, persona, as_persona):
    with_deals(club_a)
    client = as_persona(persona)

    response = client.post("/c/sochi/backup/")

    assert response.status_code == MANAGE[persona]
    if persona == "owner":
        assert response["Content-Type"] == "application/json"
        assert response["Content-Disposition"].startswith('attachment; filename="sochi-')
        document = json.loads(response.content)
        assert document["format"] == backup.FORMAT
        assert document["club"]["slug"] == "sochi"
        assert len(document["evenings"][0]["pulkas"]) == 1
    assert not PreparedFile.objects.exists()


def test_the_club_backup_is_not_a_get(club_a, owner, client):
    client.force_login(owner)

    assert_method_refused(client.get("/c/sochi/backup/"))
    assert not PreparedFile.objects.exists()


def test_the_backup_of_a_big_club_is_prepared_by_the_worker(
    club_a, owner, client, monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with_deals(club_a, 2)
    monkeypatch.setattr(backup, "BACKUP_THRESHOLD_DEALS", 1)
    client.force_login(owner)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/c/sochi/backup/")

    row = PreparedFile.objects.get()
    assert (row.kind, row.params, row.state) == ("club-backup", {}, FileState.PENDING)
    assert response["Location"] == row.get_absolute_url()
    page = assert_full_page(client.get(row.get_absolute_url()), "file")
    assert "The club&#x27;s backup (JSON)" in page
    assert "The file is being prepared." in page

    work()

    download = client.get(f"/c/sochi/files/{row.pk}/download/")
    prepared_document = json.loads(download.content)
    monkeypatch.setattr(backup, "BACKUP_THRESHOLD_DEALS", 2)
    inline = client.post("/c/sochi/backup/")
    inline_document = json.loads(inline.content)
    # The same document, but for the moment it was made.
    assert prepared_document.pop("exported_at") <= inline_document.pop("exported_at")
    assert prepared_document == inline_document
    assert download["Content-Disposition"] == inline["Content-Disposition"]


def test_the_backup_size_is_the_clubs_deals(club_a, club_b):
    with_deals(club_a, 2)
    with_deals(club_b, 1)

    assert backup.backup_size(club_a) == 2
    assert backup.backup_size(club_b) == 1


def test_the_background_page_offers_the_backup_and_lists_the_files(
    club_a, owner, player, client, echo
):
    row = ready(club_a, player)
    client.force_login(owner)

    text = assert_full_page(client.get("/c/sochi/background/"), "work")

    assert 'action="/c/sochi/backup/"' in text
    assert "Download the club's backup (JSON)" in text
    assert f'<a href="/c/sochi/files/{row.pk}/">The echo file</a>' in text
    assert f'href="/c/sochi/files/{row.pk}/download/"' in text
    assert "petro" in text
    assert "Nothing is waiting or has failed." not in text


def test_the_settings_page_links_to_the_backup(club_a, owner, client):
    client.force_login(owner)
    assert 'href="/c/sochi/background/"' in html(client.get("/c/sochi/settings/"))


# --- a re-rate whose worker died ------------------------------------------------------------


def test_a_re_rate_records_when_it_started(club_a, settings, django_capture_on_commit_callbacks):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_request(club=club_a, since=datetime.date(2025, 3, 3))

    row, _generation = background._claim(club_a.pk)

    assert row.state == RefreshState.RUNNING
    assert timezone.now() - row.started_at < datetime.timedelta(minutes=1)


def test_a_re_rate_stuck_running_is_offered_a_restart(club_a, owner, client):
    long_ago = timezone.now() - STALE_AFTER - datetime.timedelta(minutes=1)
    RatingRefresh.objects.create(
        club=club_a,
        since=datetime.date(2025, 3, 3),
        state=RefreshState.RUNNING,
        attempts=1,
        started_at=long_ago,
    )
    client.force_login(owner)

    page = html(client.get("/c/sochi/background/"))
    assert "the work seems to have stopped" in page
    assert 'name="restart" value="ratings"' in page

    text = assert_fragment(client.post("/c/sochi/background/", headers=HTMX), "work")

    assert "The ratings update was started again." in text
    assert not RatingRefresh.objects.exists()  # the immediate backend replayed at once


def test_a_re_rate_that_is_still_running_cannot_be_restarted(club_a, owner, client):
    RatingRefresh.objects.create(
        club=club_a,
        since=datetime.date(2025, 3, 3),
        state=RefreshState.RUNNING,
        attempts=1,
        started_at=timezone.now(),
    )
    client.force_login(owner)

    assert 'name="restart"' not in html(client.get("/c/sochi/background/"))
    text = assert_fragment(client.post("/c/sochi/background/", headers=HTMX), "work")

    assert "There is no failed or stuck update of the ratings to start again." in text
    assert RatingRefresh.objects.get(club=club_a).state == RefreshState.RUNNING


@pytest.mark.parametrize("bad", ["", "abc", "9" * 30, "-1", "٣", "999999"])
def test_a_bad_file_to_restart_says_so_and_changes_nothing(club_a, owner, client, bad):
    row = prepared(club_a, owner, state=FileState.FAILED, attempts=3)
    other = make_club()
    elsewhere = prepared(other, None, state=FileState.FAILED, attempts=3)
    client.force_login(owner)

    for value in (bad, str(elsewhere.pk)):
        text = assert_fragment(
            client.post("/c/sochi/background/", {"restart": "file", "file": value}, headers=HTMX),
            "work",
        )
        assert "This file has not failed: there is nothing to start again." in text
    assert set(PreparedFile.objects.values_list("state", flat=True)) == {FileState.FAILED}
    assert row.pk != elsewhere.pk


# --- concurrency (PostgreSQL) --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="advisory locks across threads need PostgreSQL"
)
def test_two_requests_at_the_same_moment_get_one_row(settings, monkeypatch):
    """The second request waits for the first one's transaction, then finds its row."""
    settings.TASKS = DATABASE
    monkeypatch.setitem(files.BUILDERS, "echo", lambda club, **params: None)
    club = make_club()
    user = make_member(club, Role.OWNER).user
    asked, release = threading.Event(), threading.Event()
    found: dict[str, int] = {}
    events: list[str] = []

    def first():
        try:
            with transaction.atomic():
                found["first"] = ask(club, user).pk
                asked.set()
                release.wait(10)
                events.append("first committed")
        finally:
            connection.close()

    def second():
        try:
            found["second"] = ask(club, user).pk
            events.append("second answered")
        finally:
            connection.close()

    one = threading.Thread(target=first)
    one.start()
    assert asked.wait(10)
    two = threading.Thread(target=second)
    two.start()
    time.sleep(0.2)
    events.append("released")
    release.set()
    one.join(10)
    two.join(10)

    assert events == ["released", "first committed", "second answered"]
    assert found["first"] == found["second"]
    assert PreparedFile.objects.count() == 1
    assert DBTaskResult.objects.count() == 1
