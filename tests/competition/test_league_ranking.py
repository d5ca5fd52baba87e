"""The league ranking (competition.league.selectors): each counting rule, the cap, the minimum,
ties, dates, the tenant, ratings, and that it follows the caches the moment they change."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Club, Player
from competition.league import selectors as leagues
from competition.lib.standings import counted
from competition.models import League
from competition.rating import ratings
from scoring import services
from scoring.models import Pulka, PulkaResultCache
from tests.competition.factories import DAY, finished, make_league, table
from tests.conftest import make_club, make_evening, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db


def by_name(league: League) -> dict[str, leagues.LeagueStanding]:
    ranking = leagues.league_ranking(league)
    return {ranking.names[s.player_id]: s for s in (*ranking.ranked, *ranking.unranked)}


@pytest.fixture
def club(db) -> Club:
    return make_club(slug="sochi")


@pytest.fixture
def season(club) -> Club:
    """Three pulkas: Anna +60 over 2, Boris +45 over 3, Vera -45 over 3, Gleb -60 over 2."""
    finished(club, {"Anna": 50, "Boris": 20, "Vera": -30, "Gleb": -40})
    finished(club, {"Anna": 10, "Boris": 5, "Vera": -15})
    finished(club, {"Boris": 20, "Vera": 0, "Gleb": -20})
    return club


def test_the_sum_rule_ranks_by_the_total_of_whists(season):
    assert table(make_league(season, rule="sum")) == [
        (1, "Anna", 60),
        (2, "Boris", 45),
        (3, "Vera", -45),
        (4, "Gleb", -60),
    ]


def test_the_average_rule_ranks_by_whists_per_pulka(season):
    lines = table(make_league(season, rule="average"))

    assert [(place, name) for place, name, _ in lines] == [
        (1, "Anna"),
        (2, "Boris"),
        (3, "Vera"),
        (4, "Gleb"),
    ]
    assert [score for _, _, score in lines] == [30, 15, -15, -30]


def test_the_average_can_beat_the_sum(club):
    finished(club, {"Anna": 40, "Boris": 0, "Vera": -40})
    finished(club, {"Boris": 30, "Vera": 10, "Gleb": -40})
    finished(club, {"Boris": 30, "Vera": -10, "Gleb": -20})

    assert table(make_league(club, rule="sum"))[0][:2] == (1, "Boris")  # 60 in 3
    assert table(make_league(club, rule="average"))[0][:2] == (1, "Anna")  # 40 in 1


def test_the_best_rule_adds_each_players_best_n_pulkas_only(club):
    finished(club, {"Anna": 40, "Boris": -10, "Vera": -30})
    finished(club, {"Anna": -50, "Boris": 20, "Vera": 30})
    finished(club, {"Anna": 30, "Boris": 10, "Vera": -40})

    league = make_league(club, rule="best", best_count=2)

    # Anna 40 + 30 (not -50), Boris 20 + 10, Vera 30 + -30.
    assert table(league) == [(1, "Anna", 70), (2, "Boris", 30), (3, "Vera", 0)]
    assert by_name(league)["Anna"].total == 20  # the total still counts every pulka


def test_the_best_rule_counts_everything_of_a_player_with_fewer_pulkas(club):
    finished(club, {"Anna": 40, "Boris": -10, "Vera": -30})

    assert table(make_league(club, rule="best", best_count=5)) == [
        (1, "Anna", 40),
        (2, "Boris", -10),
        (3, "Vera", -30),
    ]


@pytest.mark.parametrize(
    ("result", "cap", "counted_as"),
    [
        (300, 200, 250),
        (-260, 200, -230),
        (200, 200, 200),
        (-200, 200, -200),
        (201, 200, Fraction(401, 2)),
        (150, 200, 150),
        (7, None, 7),
        (-3, 1, -2),
    ],
)
def test_whists_beyond_the_cap_count_at_half_either_way(result, cap, counted_as):
    assert counted(result, cap) == counted_as


def test_the_cap_applies_to_each_pulka_in_the_database_as_on_paper(club):
    finished(club, {"Anna": 301, "Boris": -101, "Vera": -200})
    finished(club, {"Anna": 99, "Boris": 101, "Vera": -200})

    standings = by_name(make_league(club, cap=100))

    assert standings["Anna"].total == counted(301, 100) + 99 == 299.5
    assert standings["Boris"].total == counted(-101, 100) + counted(101, 100) == 0
    assert standings["Vera"].total == -300
    assert standings["Anna"].best == 301  # the best result stays as played


def test_the_cap_decides_which_pulkas_are_the_best(club):
    # Capped at 100, Anna's +300 counts 200 and her two +150s count 125 each.
    finished(club, {"Anna": 300, "Boris": -150, "Vera": -150})
    finished(club, {"Anna": 150, "Boris": -75, "Vera": -75})
    finished(club, {"Anna": 150, "Boris": -75, "Vera": -75})

    standings = by_name(make_league(club, rule="best", best_count=2, cap=100))

    assert standings["Anna"].score == 200 + 125
    assert standings["Boris"].score == -75 + -75  # not the -150 that counts -125


def test_equal_scores_share_a_place_and_the_next_place_is_skipped(club):
    finished(club, {"Vera": 20, "Anna": 20, "Boris": -10, "Gleb": -30})

    assert table(make_league(club)) == [
        (1, "Anna", 20),
        (1, "Vera", 20),
        (3, "Boris", -10),
        (4, "Gleb", -30),
    ]


def test_equal_averages_tie_exactly(club):
    # 10/3 and 20/6: the same average, whatever floating point thinks of thirds.
    finished(club, {"Anna": 10, "Boris": -5, "Vera": -5})
    for _ in range(2):
        finished(club, {"Anna": 0, "Boris": 0, "Vera": 0})
        finished(club, {"Gleb": 10, "Dana": -5, "Oleh": -5})
    for _ in range(4):
        finished(club, {"Gleb": 0, "Dana": 0, "Oleh": 0})

    lines = table(make_league(club, rule="average"))

    assert lines[:2] == [(1, "Anna", pytest.approx(10 / 3)), (1, "Gleb", pytest.approx(10 / 3))]


def test_players_below_the_minimum_are_listed_apart_unranked(season):
    ranking = leagues.league_ranking(make_league(season, min_pulkas=3))

    assert [(s.place, ranking.names[s.player_id]) for s in ranking.ranked] == [
        (1, "Boris"),
        (2, "Vera"),
    ]
    assert [(s.place, ranking.names[s.player_id], s.pulkas) for s in ranking.unranked] == [
        (None, "Anna", 2),
        (None, "Gleb", 2),
    ]


def test_pulkas_count_from_the_first_evening_to_the_last_inclusive(club):
    finished(club, {"Anna": 10, "Boris": 0, "Vera": -10}, date=datetime.date(2023, 12, 31))
    finished(club, {"Anna": 1, "Boris": 0, "Vera": -1}, date=datetime.date(2024, 1, 1))
    finished(club, {"Anna": 2, "Boris": 0, "Vera": -2}, date=datetime.date(2024, 1, 31))
    finished(club, {"Anna": 40, "Boris": 0, "Vera": -40}, date=datetime.date(2024, 2, 1))

    league = make_league(club, start=datetime.date(2024, 1, 1), end=datetime.date(2024, 1, 31))

    assert by_name(league)["Anna"].total == 3
    assert by_name(league)["Anna"].pulkas == 2


def test_another_clubs_results_and_players_never_appear(club):
    other = make_club(slug="other")
    finished(club, {"Anna": 10, "Boris": 0, "Vera": -10})
    finished(other, {"Anna": 500, "Oleh": 0, "Ivan": -500})

    ranking = leagues.league_ranking(make_league(club))

    assert sorted(ranking.names[s.player_id] for s in ranking.ranked) == ["Anna", "Boris", "Vera"]
    assert {s.player_id for s in ranking.ranked} <= set(
        Player.objects.filter(club=club).values_list("pk", flat=True)
    )
    assert by_name(make_league(club))["Anna"].total == 10


def test_places_best_result_and_pulkas_are_counted(season):
    boris = by_name(make_league(season))["Boris"]

    assert (boris.pulkas, boris.best, boris.average) == (3, 20, 15)
    assert (boris.firsts, boris.seconds, boris.thirds, boris.fourths) == (1, 2, 0, 0)


def test_the_rating_is_the_players_latest_snapshot(season):
    ratings.ratings_update(club=season)
    latest = ratings.current_ratings(season)

    standings = by_name(make_league(season))

    for standing in standings.values():
        assert standing.rating == pytest.approx(latest[standing.player_id].rating)


def test_the_ranking_says_when_its_newest_result_was_calculated(season):
    newest = PulkaResultCache.objects.order_by("-computed_at").first().computed_at

    assert leagues.league_ranking(make_league(season)).computed_at == newest
    assert leagues.league_ranking(make_league(make_club())).computed_at is None


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"rule": "sum"}, "Ranked by the sum of whists."),
        (
            {"rule": "average", "min_pulkas": 3, "cap": 200},
            "Ranked by the average per pulka, over at least 3 pulkas; whists beyond 200 "
            "in one pulka count at half.",
        ),
        ({"rule": "best", "best_count": 1}, "Ranked by the sum of each player's best 1 pulka."),
        (
            {"rule": "best", "best_count": 10, "min_pulkas": 12},
            "Ranked by the sum of each player's best 10 pulkas, over at least 12 pulkas.",
        ),
        (
            {"rule": "sum", "min_pulkas": 2, "cap": 50},
            "Ranked by the sum of whists, over at least 2 pulkas; whists beyond 50 in one "
            "pulka count at half.",
        ),
    ],
)
def test_the_rule_is_said_in_plain_words(fields, sentence):
    assert leagues.rule_sentence(League(**{"min_pulkas": 1, **fields})) == sentence


# The ranking is computed once and kept: it must follow every change at once.


def _finish_early(club: Club) -> Pulka:
    """Anna, Boris, Vera: Boris makes a six with Vera whisting, and the pulka is ended."""
    pulka = make_pulka(make_evening(club, date=DAY))
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)
    return pulka


def test_a_pulka_finished_through_the_services_enters_the_league(club):
    league = make_league(club)
    assert leagues.league_ranking(league).ranked == ()

    _finish_early(club)

    expected = dict(PulkaResultCache.objects.values_list("player__name", "result_rounded"))
    assert {name: s.total for name, s in by_name(league).items()} == expected
    assert expected["Boris"] > 0


def test_a_corrected_deal_changes_the_league_at_once(club):
    pulka = _finish_early(club)
    league = make_league(club)
    before = by_name(league)["Boris"].total

    services.deal_update(
        pulka=pulka,
        number=1,
        data={**SIX_BY_BORIS, "tricks": {"Boris": 7, "Vera": 2, "Anna": 1}},
        expected_version=1,
        changed_by=None,
    )

    after = by_name(League.objects.get(pk=league.pk))["Boris"].total
    assert after > before
    assert after == PulkaResultCache.objects.get(player__name="Boris").result_rounded


def test_a_reopened_pulka_leaves_the_league_at_once(club):
    pulka = _finish_early(club)
    league = make_league(club)
    assert len(leagues.league_ranking(league).ranked) == 3

    services.pulka_reopen(pulka=pulka, reopened_by=None)

    assert leagues.league_ranking(League.objects.get(pk=league.pk)).ranked == ()


def test_a_renamed_player_shows_and_sorts_by_his_new_name_at_once(club):
    finished(club, {"Anna": 10, "Boris": 10, "Vera": -20})
    league = make_league(club)
    assert table(league)[:2] == [(1, "Anna", 10), (1, "Boris", 10)]

    anna = Player.objects.get(name="Anna")
    anna.name = "Zoya"
    anna.save()  # as the roster's rename does: the stored sort key follows the name

    assert table(league)[:2] == [(1, "Boris", 10), (1, "Zoya", 10)]


def test_changing_the_rule_of_a_league_ranks_it_anew(club):
    finished(club, {"Anna": 40, "Boris": 0, "Vera": -40})
    finished(club, {"Boris": 30, "Vera": 10, "Gleb": -40})
    finished(club, {"Boris": 30, "Vera": -10, "Gleb": -20})
    league = make_league(club, rule="sum")
    assert table(league)[0][1] == "Boris"

    league.rule = "average"
    league.save()

    assert table(League.objects.get(pk=league.pk))[0][1] == "Anna"


def test_the_number_of_queries_does_not_grow_with_the_players(club):
    small = make_league(club)
    finished(club, {"Anna": 10, "Boris": 0, "Vera": -10})
    large_club = make_club(slug="large")
    for n in range(30):
        finished(large_club, {f"A{n}": 10, f"B{n}": 5, f"C{n}": -5, f"D{n}": -10})
    large = make_league(large_club)

    counts = []
    for league in (small, large, small, large):  # computed, then kept
        with CaptureQueriesContext(connection) as captured:
            ranking = leagues.league_ranking(leagues.league_for_club(league.club, league.pk))
        counts.append(len(captured))

    assert len(ranking.ranked) == 120
    assert counts[0] == counts[1] > counts[2] == counts[3]


def test_an_abandoned_pulka_leaves_the_league_at_once(club):
    pulka = _finish_early(club)
    league = make_league(club)
    assert len(leagues.league_ranking(league).ranked) == 3

    services.pulka_abandon(pulka=pulka, abandoned_by=None)

    assert leagues.league_ranking(League.objects.get(pk=league.pk)).ranked == ()


def test_an_evening_moved_out_of_the_dates_leaves_the_league_at_once(club):
    pulka = _finish_early(club)
    league = make_league(club, end=datetime.date(2024, 3, 31))
    assert len(leagues.league_ranking(league).ranked) == 3

    services.evening_update(
        evening=pulka.evening, date=datetime.date(2024, 4, 2), venue="", notes=""
    )

    assert leagues.league_ranking(League.objects.get(pk=league.pk)).ranked == ()


# The cache: one layer, keyed by the league's settings and the club's results_version.


def _read(league: League) -> leagues.Ranking:
    """A page's read: the league with the club's counter, then the ranking."""
    return leagues.league_ranking(leagues.league_for_club(league.club, league.pk))


def test_a_second_read_comes_from_the_cache(season, django_assert_num_queries):
    league = make_league(season)
    with django_assert_num_queries(3):  # the league, the names, the adding up
        first = _read(league)
    with django_assert_num_queries(2):  # the league, the names
        again = _read(league)

    assert again == first
    assert [s.score for s in again.ranked] == [60, 45, -45, -60]


def test_a_new_result_is_read_anew_once_then_from_the_cache(season, django_assert_num_queries):
    league = make_league(season)
    _read(league)
    finished(season, {"Gleb": 500, "Anna": -250, "Boris": -250})

    with django_assert_num_queries(3):
        ranking = _read(league)
    with django_assert_num_queries(2):
        assert _read(league) == ranking
    assert ranking.names[ranking.ranked[0].player_id] == "Gleb"


def test_a_league_read_on_its_own_reads_the_counter_too(season, django_assert_num_queries):
    league = make_league(season)
    leagues.league_ranking(league)
    with django_assert_num_queries(2):  # the counter, the names
        leagues.league_ranking(league)


def _version(club: Club) -> int:
    return Club.objects.values_list("results_version", flat=True).get(pk=club.pk)


def _moves_the_counter(club: Club, change) -> bool:
    before = _version(club)
    change()
    return _version(club) > before


def test_every_service_that_changes_results_or_ratings_bumps_the_counter(club):
    pulka = _finish_early(club)
    assert _version(club) > 0
    evening = pulka.evening

    assert _moves_the_counter(
        club,
        lambda: services.deal_update(
            pulka=pulka,
            number=1,
            data={**SIX_BY_BORIS, "tricks": {"Boris": 7, "Vera": 2, "Anna": 1}},
            expected_version=1,
            changed_by=None,
        ),
    )
    assert _moves_the_counter(club, lambda: services.pulka_reopen(pulka=pulka, reopened_by=None))
    assert _moves_the_counter(club, lambda: services.pulka_finish(pulka=pulka, finished_by=None))
    assert (
        _moves_the_counter(
            club, lambda: services.evening_update(evening=evening, date=DAY, venue="", notes="")
        )
        is False
    )  # the same date: nothing to re-rank
    assert _moves_the_counter(
        club,
        lambda: services.evening_update(
            evening=evening, date=DAY + datetime.timedelta(days=1), venue="", notes=""
        ),
    )
    assert _moves_the_counter(club, lambda: ratings.ratings_update(club=club))
    assert _moves_the_counter(club, lambda: services.pulka_abandon(pulka=pulka, abandoned_by=None))


def test_a_running_pulka_leaves_the_counter_alone(club):
    pulka = make_pulka(make_evening(club, date=DAY))

    assert not _moves_the_counter(club, lambda: record(pulka, SIX_BY_BORIS))


def test_another_clubs_counter_stays(club):
    other = make_club(slug="other")

    assert not _moves_the_counter(other, lambda: _finish_early(club))
