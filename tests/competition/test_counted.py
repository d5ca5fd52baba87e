"""Evenings that do not count: a tournament's rounds feed the club's leagues and ratings only
when its organiser says so, and switching it either way re-rates as a full rebuild would."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from competition.league import selectors as leagues
from competition.league import services as league_services
from competition.models import RatingSnapshot, Scoring
from competition.tournament import services as svc
from scoring import services
from scoring.models import PairResultCache, PulkaResultCache
from tests.competition.factories import RULES, names_for, play_round, rating_rows, rebuilt
from tests.conftest import make_club, make_evening
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db


def ranked(league) -> set[str]:
    ranking = leagues.league_ranking(league)
    return {ranking.names[line.player_id] for line in (*ranking.ranked, *ranking.unranked)}


@pytest.fixture
def club():
    """A club with one ordinary, rated evening a week ago (Anna, Boris, Vera)."""
    club = make_club()
    week_ago = timezone.localdate() - datetime.timedelta(days=7)
    ended_early(make_evening(club, date=week_ago), six("Boris", "Vera", "Anna"))
    return club


@pytest.fixture
def league(club):
    today = timezone.localdate()
    return league_services.league_create(
        club=club,
        name="Season",
        start=today - datetime.timedelta(days=30),
        end=today + datetime.timedelta(days=30),
        rule="sum",
        best_count=None,
        cap=None,
        min_pulkas=1,
        convention="",
    )


def cup(club, counted=False):
    t = svc.tournament_create(
        club=club,
        created_by=None,
        name="Cup",
        rules=RULES,
        round_count=2,
        scoring=Scoring.WHISTS,
        deal_cap=3,
        counted=counted,
    )
    svc.entries_add(tournament=t, names=names_for(9))
    return t


def test_a_tournament_that_does_not_count_changes_no_league_and_no_rating(club, league):
    before_ratings, before_league = rating_rows(club), ranked(league)
    assert before_league == {"Anna", "Boris", "Vera"}

    t = cup(club)
    play_round(t)
    play_round(t)

    caches = PulkaResultCache.objects.filter(pulka__evening__tournament_round__tournament=t)
    assert caches.count() == 18
    assert not caches.filter(counted=True).exists()
    assert not PairResultCache.objects.filter(
        pulka__evening__tournament_round__tournament=t, counted=True
    ).exists()
    assert rating_rows(club) == before_ratings
    assert ranked(league) == before_league
    assert rebuilt(club) == before_ratings


def test_switching_a_tournament_on_rates_and_ranks_its_tables_and_off_takes_them_out(club, league):
    before_ratings = rating_rows(club)
    t = cup(club)
    play_round(t)
    play_round(t)

    svc.tournament_update(tournament=t, counted=True)

    caches = PulkaResultCache.objects.filter(pulka__evening__tournament_round__tournament=t)
    assert not caches.filter(counted=False).exists()
    assert ranked(league) == {"Anna", "Boris", "Vera", *names_for(9)}
    now = rating_rows(club)
    assert RatingSnapshot.objects.filter(club=club).count() == 3 + 18
    assert now == rebuilt(club)

    svc.tournament_update(tournament=t, counted=False)

    assert not caches.filter(counted=True).exists()
    assert ranked(league) == {"Anna", "Boris", "Vera"}
    assert rating_rows(club) == before_ratings == rebuilt(club)


def test_rounds_published_after_the_switch_take_the_tournaments_setting(club, league):
    t = cup(club)
    play_round(t)
    svc.tournament_count(tournament=t, counted=True)

    play_round(t)

    evenings = [r.evening for r in t.rounds.order_by("number")]
    assert [e.counted for e in evenings] == [True, True]
    assert not PulkaResultCache.objects.filter(pulka__evening__in=evenings, counted=False).exists()
    assert rating_rows(club) == rebuilt(club)
    assert RatingSnapshot.objects.filter(club=club).count() == 3 + 18


def test_an_evening_switched_off_by_the_scoring_service_leaves_the_ratings(club, league):
    evening = make_evening(club, date=timezone.localdate())
    ended_early(evening, six("Vera", "Anna", "Boris"), names=("Anna", "Boris", "Vera"))
    counted_both = rating_rows(club)

    services.evening_count(evening=evening, counted=False)

    assert RatingSnapshot.objects.filter(club=club).count() == 3
    assert rating_rows(club) == rebuilt(club) != counted_both
    services.evening_count(evening=evening, counted=True)
    assert rating_rows(club) == counted_both
