"""The management command rebuild_ratings: a full rebuild, optionally of the result caches."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from competition.models import RatingSnapshot
from scoring import services
from scoring.models import PairResultCache, PulkaResultCache
from tests.competition.factories import day, rating_rows
from tests.conftest import make_evening, make_pulka, record
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("rebuild_ratings", *args, stdout=out)
    return out.getvalue()


def caches(pulka) -> tuple[set, set]:
    return (
        set(
            PulkaResultCache.objects.filter(pulka=pulka).values_list(
                "player_id", "position", "result", "result_rounded", "place", "closed"
            )
        ),
        set(
            PairResultCache.objects.filter(pulka=pulka).values_list(
                "player_id", "opponent_id", "net"
            )
        ),
    )


@pytest.fixture
def two_clubs(club_a, club_b):
    """Club A: two rated pulkas and a running one; club B: one rated pulka."""
    ended_early(make_evening(club_a, date=day(3)))
    ended_early(make_evening(club_a, date=day(10)), six("Vera", "Anna", "Boris"))
    running = make_pulka(make_evening(club_a, date=day(17)))
    record(running, six("Anna", "Boris", "Vera"))
    ended_early(make_evening(club_b, date=day(5)), six("Anna", "Vera", "Boris"))
    return club_a, club_b


def test_the_command_rebuilds_every_club_as_the_services_left_it(two_clubs):
    club_a, club_b = two_clubs
    before = rating_rows(club_a), rating_rows(club_b)
    RatingSnapshot.objects.all().delete()

    printed = run()

    assert (rating_rows(club_a), rating_rows(club_b)) == before
    assert "other: 1 pulkas rated, 3 snapshots" in printed
    assert "sochi: 2 pulkas rated, 6 snapshots" in printed
    assert "Total: 3 pulkas rated, 9 snapshots in " in printed
    assert "result caches" not in printed


def test_the_command_can_rebuild_one_club_only(two_clubs):
    club_a, club_b = two_clubs
    RatingSnapshot.objects.all().delete()

    printed = run("--club", "other")

    assert printed.startswith("other: 1 pulkas rated, 3 snapshots")
    assert "sochi" not in printed
    assert RatingSnapshot.objects.filter(club=club_b).count() == 3
    assert not RatingSnapshot.objects.filter(club=club_a).exists()


def test_an_unknown_club_is_an_error(two_clubs):
    with pytest.raises(CommandError, match="There is no club 'nowhere'"):
        run("--club", "nowhere")


def test_the_results_option_rebuilds_missing_result_caches(club_a):
    first = ended_early(make_evening(club_a, date=day(3)))
    second = ended_early(make_evening(club_a, date=day(10)), six("Vera", "Anna", "Boris"))
    abandoned = ended_early(make_evening(club_a, date=day(12)), six("Anna", "Vera", "Boris"))
    services.pulka_abandon(pulka=abandoned, abandoned_by=None)
    expected = caches(first), caches(second)
    rated = rating_rows(club_a)
    PulkaResultCache.objects.filter(pulka=first).delete()
    PairResultCache.objects.filter(pulka=first).delete()
    RatingSnapshot.objects.all().delete()

    printed = run("--results")

    assert (caches(first), caches(second)) == expected
    assert caches(abandoned) == (set(), set())
    assert rating_rows(club_a) == rated
    assert "sochi: 2 pulkas rated, 6 snapshots, 2 result caches rebuilt" in printed


def test_without_the_results_option_a_missing_result_cache_stays_unrated(club_a):
    first = ended_early(make_evening(club_a, date=day(3)))
    second = ended_early(make_evening(club_a, date=day(10)), six("Vera", "Anna", "Boris"))
    PulkaResultCache.objects.filter(pulka=first).delete()

    printed = run("--club", "sochi")

    assert not RatingSnapshot.objects.filter(pulka=first).exists()
    assert set(RatingSnapshot.objects.filter(pulka=second).values_list("seq", flat=True)) == {1}
    assert "sochi: 1 pulkas rated, 3 snapshots" in printed
