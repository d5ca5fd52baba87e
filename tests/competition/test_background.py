"""Background re-rating (competition.rating.background): recorded by the request, replayed by
a task."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from competition.models import RatingRefresh, RatingSnapshot, RefreshState, WorkerHeartbeat
from competition.rating import background, ratings
from competition.tasks import MAX_ATTEMPTS, advisory_lock
from scoring import services
from scoring.models import Deal
from tests.club.factories import MANAGE, assert_fragment, assert_full_page, html
from tests.competition.factories import DATABASE, day, make_league, rating_rows, rebuilt, work
from tests.conftest import HTMX, PERSONAS, make_club, make_evening
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(club_a):
    """Three rated pulkas of club A, on 3, 10 and 17 March."""
    evenings = [make_evening(club_a, date=day(d)) for d in (3, 10, 17)]
    return [
        ended_early(evenings[0], six("Vera", "Anna", "Boris")),
        ended_early(evenings[1]),
        ended_early(evenings[2], six("Anna", "Vera", "Boris")),
    ]


def correct(pulka) -> None:
    """Boris is set in the pulka's first deal instead of making his six."""
    deal = Deal.objects.get(pulka=pulka, number=1)
    services.deal_update(
        pulka=pulka,
        number=1,
        data=six("Boris", "Vera", "Anna", tricks=5),
        expected_version=deal.version,
        changed_by=None,
    )


# --- with the immediate backend (the default): as before ----------------------------------


def test_with_the_immediate_backend_a_correction_re_rates_at_once_and_leaves_no_request(
    club_a, history
):
    correct(history[1])

    assert not RatingRefresh.objects.exists()
    assert rating_rows(club_a) == rebuilt(club_a)


def test_requests_merge_into_the_earliest_date(
    club_a, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_request(club=club_a, since=day(17))
        background.refresh_request(club=club_a, since=day(3))
        background.refresh_request(club=club_a, since=day(10))

    refresh = RatingRefresh.objects.get(club=club_a)
    assert (refresh.since, refresh.state, refresh.generation) == (day(3), RefreshState.PENDING, 3)
    assert DBTaskResult.objects.count() == 3  # one task per request; the later ones find nothing


def test_a_table_that_does_not_count_asks_the_club_for_no_re_rate(
    club_a, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        pulka = ended_early(make_evening(club_a, counted=False))

    assert not RatingRefresh.objects.filter(club=club_a).exists()
    assert not RatingSnapshot.objects.filter(pulka=pulka).exists()
    assert DBTaskResult.objects.count() == 0


# --- with the database backend: the request only records, the worker re-rates ------------


def test_with_the_database_backend_the_pages_say_so_until_the_worker_has_run(
    club_a, history, as_persona, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    WorkerHeartbeat.objects.create(name="worker", queues="default,files")  # a worker runs
    before = rating_rows(club_a)

    with django_capture_on_commit_callbacks(execute=True):
        correct(history[1])

    assert rating_rows(club_a) == before  # the last computed ratings, untouched
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    client = as_persona("owner")
    player = RatingSnapshot.objects.filter(pulka=history[0]).first().player
    league = make_league(club_a, start=day(1), end=day(31))
    pages = [
        f"/c/{club_a.slug}/leagues/",
        f"/c/{club_a.slug}/leagues/{league.pk}/",
        f"/c/{club_a.slug}/players/{player.pk}/",
    ]
    for url in pages:
        text = html(client.get(url))
        assert "Ratings are being updated (since March 10, 2025)." in text, url

    work()

    assert not RatingRefresh.objects.exists()
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1
    for url in pages:
        assert "Ratings are being updated" not in html(client.get(url)), url
    worked = rating_rows(club_a)
    assert worked != before
    assert worked == rebuilt(club_a)


def test_a_request_while_a_re_rate_runs_is_kept_for_the_next_task(
    club_a, history, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        correct(history[2])
    claimed = background._claim(club_a.pk)
    assert claimed is not None
    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_request(club=club_a, since=day(10))  # arrives mid-replay

    RatingRefresh.objects.filter(pk=claimed[0].pk, generation=claimed[1]).delete()

    refresh = RatingRefresh.objects.get(club=club_a)
    assert (refresh.since, refresh.state) == (day(10), RefreshState.PENDING)


# --- failures -----------------------------------------------------------------------------


def test_a_failing_re_rate_is_retried_then_left_failed_for_the_owner(
    club_a, history, monkeypatch, caplog, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE

    def broken(**kwargs):
        raise RuntimeError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(ratings, "ratings_update", broken)
        with django_capture_on_commit_callbacks(execute=True):
            correct(history[1])
        for _ in range(MAX_ATTEMPTS + 1):
            with django_capture_on_commit_callbacks(execute=True):
                work()

    refresh = RatingRefresh.objects.get(club=club_a)
    assert refresh.state == RefreshState.FAILED
    assert refresh.attempts == MAX_ATTEMPTS
    assert refresh.last_error == "RuntimeError: disk full"
    assert caplog.text.count("Re-rating club") == MAX_ATTEMPTS

    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_restart(club=club_a)
    work()

    assert not RatingRefresh.objects.exists()
    assert rating_rows(club_a) == rebuilt(club_a)


# --- the background page ------------------------------------------------------------------


def failed_refresh(club) -> RatingRefresh:
    return RatingRefresh.objects.create(
        club=club, since=day(10), state=RefreshState.FAILED, attempts=3, last_error="Boom"
    )


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_background_page_is_for_the_owner(club_a, persona, as_persona):
    failed_refresh(club_a)
    client = as_persona(persona)
    url = f"/c/{club_a.slug}/background/"

    page = client.get(url)
    fragment = client.get(url, headers=HTMX)
    posted = client.post(url)

    assert page.status_code == MANAGE[persona]
    assert fragment.status_code == MANAGE[persona]
    if persona == "owner":
        text = assert_full_page(page, "work")
        assert "Failed" in text
        assert "Boom" in text
        assert "Start the update again" in text
        assert "<html" not in assert_fragment(fragment, "work")
        assert posted.status_code == 302
        assert not RatingRefresh.objects.exists()  # restarted, and the immediate backend ran it
    else:
        assert posted.status_code == MANAGE[persona]
        assert RatingRefresh.objects.get(club=club_a).state == RefreshState.FAILED


def test_restarting_by_htmx_answers_with_the_fragment(club_a, owner, client):
    failed_refresh(club_a)
    client.force_login(owner)
    url = f"/c/{club_a.slug}/background/"

    text = assert_fragment(client.post(url, headers=HTMX), "work")

    assert "The ratings update was started again." in text
    assert "Nothing is waiting or has failed." in text


def test_restarting_when_nothing_failed_says_so_and_changes_nothing(club_a, owner, client):
    client.force_login(owner)
    url = f"/c/{club_a.slug}/background/"

    text = assert_fragment(client.post(url, headers=HTMX), "work")

    assert "There is no failed or stuck update of the ratings to start again." in text
    assert not RatingRefresh.objects.exists()


# --- concurrency (PostgreSQL) --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_a_correction_does_not_wait_for_a_running_re_rate_and_two_re_rates_take_turns(settings):
    """While a re-rate holds the club's replay lock, a correction goes through at once, and a
    second replay of the club waits until the first has committed."""
    settings.TASKS = DATABASE
    club = make_club()
    old = ended_early(make_evening(club, date=day(3)))
    ended_early(make_evening(club, date=day(10)))
    replaying, release = threading.Event(), threading.Event()
    events: list[str] = []

    def running_replay():
        try:
            with transaction.atomic():
                advisory_lock(ratings.REPLAY_LOCK, club.pk)
                replaying.set()
                release.wait(10)
                events.append("first replay done")
        finally:
            connection.close()

    def second_replay():
        try:
            ratings.ratings_update(club=club)
            events.append("second replay done")
        finally:
            connection.close()

    first = threading.Thread(target=running_replay)
    first.start()
    assert replaying.wait(10)
    second = threading.Thread(target=second_replay)
    second.start()

    correct(old)  # in this thread, while both replays are in the way
    events.append("corrected")
    time.sleep(0.2)
    release.set()
    first.join(10)
    second.join(10)

    assert events == ["corrected", "first replay done", "second replay done"]
    assert RatingRefresh.objects.get(club=club).since == day(3)
