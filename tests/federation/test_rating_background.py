"""The rating list's background rebuilds (federation.background) and what asks for them
(federation.receivers): requests merge, a build keeps up with its generation, failures are
retried then left for an officer, and a club's results or the federation's counting ask."""

from __future__ import annotations

import datetime

import pytest
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from club.errors import ServiceError
from club.models import Player
from competition.models import RefreshState
from competition.tasks import MAX_ATTEMPTS
from federation import background, rating
from federation.models import FederationRefresh, MemberState, Person, PersonLink, RatingList
from federation.signals import counting_changed
from scoring.models import PulkaResultCache
from tests.competition.factories import DATABASE, work
from tests.conftest import make_club, make_evening
from tests.federation.conftest import played_cup
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _worker_keeps_the_test_connection(monkeypatch):
    """As tests/competition/conftest.py: the worker must not close the test's connection."""
    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)


def day(n: int) -> datetime.date:
    return datetime.date(2026, 1, 1) + datetime.timedelta(days=n - 1)


def link_everyone(federation, club) -> None:
    for player in Player.objects.filter(club=club):
        person = Person.objects.create(federation=federation, name=player.name)
        PersonLink.objects.create(federation=federation, person=person, player=player)


def refresh(federation) -> FederationRefresh:
    return FederationRefresh.objects.get(federation=federation)


@pytest.fixture
def listed_club(federation, clubs):
    """The Kyiv Club with a rated pulka, its names linked, listed from one pulka on."""
    kyiv = clubs[0]
    ended_early(make_evening(kyiv, date=day(3)))
    link_everyone(federation, kyiv)
    federation.rating_min_pulkas = 1
    federation.save()
    return kyiv


# --- with the immediate backend: at once ------------------------------------------------------


def test_a_finished_pulka_of_a_member_club_rebuilds_the_list_at_once(federation, listed_club):
    assert RatingList.objects.filter(federation=federation).count() == 0  # linked after

    ended_early(make_evening(listed_club, date=day(9)), six("Vera", "Anna", "Boris"))

    assert RatingList.objects.filter(federation=federation).count() == 3
    row = refresh(federation)
    assert row.built_generation == row.generation
    assert row.calculated_on == day(9)
    assert not background.is_owed(row)


def test_counting_changed_rebuilds_the_list(federation, listed_club):
    counting_changed.send(sender=None, federation=federation)

    assert RatingList.objects.filter(federation=federation).count() == 3
    assert not background.is_owed(refresh(federation))


def test_a_club_outside_every_federation_asks_for_nothing(federation, clubs):
    ended_early(make_evening(make_club(), date=day(3)))

    assert not FederationRefresh.objects.exists()


def test_a_club_that_left_asks_only_for_changes_before_it_left(federation, clubs, settings):
    kyiv = clubs[0]
    federation.member_clubs.filter(club=kyiv).update(state=MemberState.LEFT, left_on=day(10))
    settings.TASKS = DATABASE

    ended_early(make_evening(kyiv, date=day(12)))
    assert not FederationRefresh.objects.exists()

    ended_early(make_evening(kyiv, date=day(5)))
    assert background.is_owed(refresh(federation))


# --- with the database backend: recorded, then built by the worker ---------------------------


def test_requests_merge_into_one_row_and_bump_its_generation(
    federation, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            background.refresh_request(federation=federation)

    row = refresh(federation)
    assert (row.generation, row.built_generation, row.state) == (3, 0, RefreshState.PENDING)
    assert background.is_owed(row)
    assert DBTaskResult.objects.count() == 3  # one task each; the later ones find nothing

    work()

    row = refresh(federation)
    assert (row.built_generation, row.state, row.attempts) == (3, RefreshState.PENDING, 0)
    assert not background.is_owed(row)
    assert background.rebuild_task.call(federation_id=federation.pk) == 0  # nothing owed


def test_a_request_during_a_build_is_built_again_by_its_own_task(
    federation, listed_club, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_request(federation=federation)
    claimed = background._claim(federation.pk)
    assert claimed is not None
    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_request(federation=federation)  # arrives mid-build

    background._built(*claimed)  # the first build is published

    row = refresh(federation)
    generation = claimed[1]
    assert (row.built_generation, row.generation) == (generation, generation + 1)
    assert row.state == RefreshState.PENDING
    assert background.is_owed(row)
    work()
    assert not background.is_owed(refresh(federation))


def test_a_failing_build_is_retried_then_left_failed_and_an_officer_restarts_it(
    federation, listed_club, monkeypatch, caplog, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE

    def broken(federation):
        raise RuntimeError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(rating, "rebuild", broken)
        with django_capture_on_commit_callbacks(execute=True):
            background.refresh_request(federation=federation)
        for _ in range(MAX_ATTEMPTS + 1):
            with django_capture_on_commit_callbacks(execute=True):
                work()

    row = refresh(federation)
    assert (row.state, row.attempts) == (RefreshState.FAILED, MAX_ATTEMPTS)
    assert row.last_error == "RuntimeError: disk full"
    assert row.can_restart
    assert caplog.text.count("Rebuilding the rating list of federation") == MAX_ATTEMPTS
    assert not RatingList.objects.filter(federation=federation).exists()

    with django_capture_on_commit_callbacks(execute=True):
        background.refresh_restart(federation=federation)
    work()

    row = refresh(federation)
    assert (row.state, row.last_error) == (RefreshState.PENDING, "")
    assert not background.is_owed(row)
    assert RatingList.objects.filter(federation=federation).count() == 3


def test_a_stuck_build_can_be_restarted_and_a_finished_one_cannot(federation, listed_club):
    background.refresh_request(federation=federation)  # built at once
    with pytest.raises(ServiceError, match="no failed or stuck update"):
        background.refresh_restart(federation=federation)

    long_ago = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    FederationRefresh.objects.filter(federation=federation).update(
        state=RefreshState.RUNNING, started_at=long_ago, generation=9
    )
    assert refresh(federation).is_stale

    background.refresh_restart(federation=federation)

    row = refresh(federation)
    assert (row.state, row.built_generation, row.generation) == (RefreshState.PENDING, 10, 10)


def test_the_least_pulkas_is_bounded_and_rebuilds_the_list(federation, listed_club):
    with pytest.raises(ServiceError, match="from 0 to 10000"):
        background.rating_min_pulkas_set(federation=federation, value=10_001)
    assert RatingList.objects.filter(federation=federation).count() == 0

    background.rating_min_pulkas_set(federation=federation, value=1)

    federation.refresh_from_db()
    assert federation.rating_min_pulkas == 1
    assert RatingList.objects.filter(federation=federation).count() == 3

    background.rating_min_pulkas_set(federation=federation, value=2)

    assert RatingList.objects.filter(federation=federation).count() == 0


def test_an_open_events_tables_rebuild_the_list_as_they_finish(federation, clubs):
    """A tournament's tables do not count for its club, yet an open event that counts for
    the federation is in its list as soon as they finish, with no other change to wake it."""
    tournament = played_cup(federation, clubs[0])
    anna = Person.objects.get(federation=federation, name="Anna")
    played = PulkaResultCache.objects.filter(
        pulka__tournament_table__round__tournament=tournament, player__person_links__person=anna
    )

    assert played.count() == 2
    assert not played.filter(counted=True).exists()
    assert set(anna.ratings.values_list("pulka_id", flat=True)) == set(
        played.values_list("pulka_id", flat=True)
    )
