"""The one upward flow: scoring's results_changed makes competition re-rate the club."""

from __future__ import annotations

import datetime

import pytest

from competition.models import RatingSnapshot
from scoring import selectors, services, signals
from scoring.models import PulkaResultCache
from tests.conftest import make_club, make_evening, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db


@pytest.fixture
def announced():
    """Every results_changed sent during the test, as (club, since)."""
    sent = []

    def listen(sender, *, club, since, **kwargs):
        sent.append((club, since))

    signals.results_changed.connect(listen)
    yield sent
    signals.results_changed.disconnect(listen)


def finished_pulka(club, date):
    pulka = make_pulka(make_evening(club, date=date))
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)
    return pulka


def test_finishing_a_pulka_announces_its_club_and_date_and_competition_rates_it(announced):
    club = make_club()
    date = datetime.date(2026, 3, 5)

    pulka = finished_pulka(club, date)

    assert announced == [(club, date)]
    assert RatingSnapshot.objects.filter(pulka=pulka).count() == 3


def test_a_signal_sent_by_hand_re_rates_from_its_date():
    club = make_club()
    pulka = finished_pulka(club, datetime.date(2026, 3, 5))
    RatingSnapshot.objects.all().delete()

    signals.results_changed.send(sender=None, club=club, since=datetime.date(2026, 3, 1))

    assert RatingSnapshot.objects.filter(pulka=pulka).count() == 3


def test_a_rebuild_that_announces_nothing_leaves_the_ratings_alone(announced):
    club = make_club()
    pulka = finished_pulka(club, datetime.date(2026, 3, 5))
    announced.clear()
    RatingSnapshot.objects.all().delete()
    PulkaResultCache.objects.all().delete()

    sheet = selectors.pulka_sheet(pulka)
    services.result_cache_rebuild(pulka, pulka.names, sheet, announce=False)

    assert announced == []
    assert PulkaResultCache.objects.filter(pulka=pulka).count() == 3
    assert not RatingSnapshot.objects.exists()


def test_a_running_pulka_changes_no_results_and_announces_nothing(announced):
    pulka = make_pulka(make_evening(make_club()))

    record(pulka, SIX_BY_BORIS)

    assert announced == []
