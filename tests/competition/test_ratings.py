"""Ratings (competition/ratings.py): the maths without a database, then the snapshot cache."""

from __future__ import annotations

import doctest

import pytest

from competition.models import RatingSnapshot
from competition.rating import ratings
from competition.rating.ratings import Rating, margin_score, margin_scores, rate_table
from scoring import services
from scoring.models import Deal, PulkaResultCache
from tests.competition.factories import day, rating_rows, rebuilt
from tests.conftest import make_club, make_evening
from tests.scoring.factories import ended_early, six

FRESH = [Rating(), Rating(), Rating()]
NO_NETS = [[0.0] * 3 for _ in range(3)]


def table_nets(*pairs: tuple[int, int, float]) -> list[list[float]]:
    """A 3-player net matrix from (winner, loser, whists) pairs, antisymmetric."""
    nets = [[0.0] * 3 for _ in range(3)]
    for i, j, amount in pairs:
        nets[i][j], nets[j][i] = amount, -amount
    return nets


# --- the maths -------------------------------------------------------------------------------


def test_the_winner_gains_and_the_last_loses():
    first, second, last = rate_table(FRESH, [1, 2, 3], NO_NETS)

    assert first.mu > second.mu > last.mu
    assert first.mu > ratings.MU > last.mu
    assert first.display > Rating().display > last.display


def test_a_newcomer_shows_1000():
    assert Rating().display == 1000.0
    assert Rating(mu=25.0, sigma=5.0).display == pytest.approx(1000 + 40 * 10)


def test_equal_places_with_equal_nets_change_equally():
    nets = table_nets((0, 2, 50.0), (1, 2, 50.0))

    anna, boris, vera = rate_table(FRESH, [1, 1, 3], nets)

    assert anna == boris
    assert anna.mu > vera.mu


@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        (0, 0.5),
        (150, 10 / 11),
        (-150, 1 / 11),
        (300, 100 / 101),
        (50, 1 / (1 + 10 ** (-1 / 3))),
        (10**6, 1.0),
        (-(10**6), 0.0),
    ],
)
def test_the_margin_score_is_a_logistic_curve_of_the_whists(delta, expected):
    assert margin_score(delta) == pytest.approx(expected, abs=1e-12)


def test_a_player_margin_score_is_the_mean_over_the_opponents():
    nets = table_nets((0, 1, 150.0), (0, 2, 0.0), (1, 2, 0.0))

    anna, boris, vera = margin_scores(nets)

    assert anna == pytest.approx((10 / 11 + 0.5) / 2)
    assert boris == pytest.approx((1 / 11 + 0.5) / 2)
    assert vera == pytest.approx(0.5)


def test_a_bigger_margin_gives_a_bigger_gain_with_the_same_places():
    narrow = rate_table(FRESH, [1, 2, 3], table_nets((0, 1, 30.0), (0, 2, 30.0)))
    clear = rate_table(FRESH, [1, 2, 3], table_nets((0, 1, 150.0), (0, 2, 150.0)))

    assert clear[0].mu > narrow[0].mu
    assert clear[0].sigma == narrow[0].sigma


def test_one_freak_pulka_moves_mu_by_at_most_half_of_k_through_the_margins():
    plain = rate_table(FRESH, [1, 2, 3], NO_NETS)
    freak = rate_table(FRESH, [1, 2, 3], table_nets((0, 1, 10**5), (0, 2, 10**5)))

    assert freak[0].mu - plain[0].mu == pytest.approx(ratings.MARGIN_WEIGHT / 2)
    assert freak[0].mu - plain[0].mu <= ratings.MARGIN_WEIGHT / 2


def test_the_margin_term_sums_to_zero_over_the_table():
    plain = rate_table(FRESH, [1, 2, 3], NO_NETS)
    with_margins = rate_table(FRESH, [1, 2, 3], table_nets((0, 1, 80.0), (2, 1, 40.0)))

    assert sum(r.mu for r in with_margins) == pytest.approx(sum(r.mu for r in plain))


def test_rating_a_table_is_deterministic_and_does_not_depend_on_the_seating():
    before = [Rating(27.0, 6.0), Rating(24.0, 7.5), Rating(22.0, 3.0)]
    nets = table_nets((0, 1, 40.0), (2, 1, 20.0), (0, 2, 10.0))

    once = rate_table(before, [1, 3, 2], nets)
    again = rate_table(before, [1, 3, 2], nets)
    swapped = rate_table(
        [before[2], before[0], before[1]],
        [2, 1, 3],
        [[nets[i][j] for j in (2, 0, 1)] for i in (2, 0, 1)],
    )

    assert once == again
    assert swapped[1].mu == pytest.approx(once[0].mu)
    assert swapped[0].sigma == pytest.approx(once[2].sigma)


def test_the_worked_examples_in_the_docstrings_hold():
    result = doctest.testmod(ratings)

    assert result.attempted >= 8
    assert result.failed == 0


# --- the snapshot cache ----------------------------------------------------------------------


def snapshot(pulka, name: str) -> RatingSnapshot:
    return RatingSnapshot.objects.get(pulka=pulka, player__name=name)


@pytest.fixture
def evenings(club_a):
    """Three evenings of club A, on 3, 10 and 17 March."""
    return [make_evening(club_a, date=day(d)) for d in (3, 10, 17)]


@pytest.mark.django_db
def test_finishing_a_pulka_rates_its_players_from_its_places(evenings):
    pulka = ended_early(evenings[0])

    places = dict(PulkaResultCache.objects.filter(pulka=pulka).values_list("player__name", "place"))
    assert places == {"Boris": 1, "Vera": 2, "Anna": 3}
    boris, anna = snapshot(pulka, "Boris"), snapshot(pulka, "Anna")
    assert (boris.seq, boris.date) == (1, day(3))
    assert boris.rating > 1000 > anna.rating
    assert boris.delta == pytest.approx(boris.rating - 1000)
    assert boris.rating == pytest.approx(Rating(boris.mu, boris.sigma).display)


@pytest.mark.django_db
def test_pulkas_are_numbered_by_date_then_finishing_time_whatever_the_order_of_finishing(
    club_a, evenings
):
    later = ended_early(evenings[2])
    first = ended_early(evenings[0])
    same_day_1 = ended_early(evenings[1], six("Vera", "Anna", "Boris"))
    same_day_2 = ended_early(evenings[1], six("Anna", "Boris", "Vera"))

    seqs = dict(RatingSnapshot.objects.filter(club=club_a).values_list("pulka_id", "seq"))
    assert seqs == {first.pk: 1, same_day_1.pk: 2, same_day_2.pk: 3, later.pk: 4}
    history = RatingSnapshot.objects.filter(player__name="Anna").order_by("seq")
    assert [s.delta for s in history][1:] == pytest.approx(
        [b.rating - a.rating for a, b in zip(history, history[1:], strict=False)]
    )


@pytest.mark.django_db
def test_the_incremental_ratings_equal_a_full_rebuild(club_a, evenings):
    ended_early(evenings[1], six("Vera", "Anna", "Boris"), six("Anna", "Boris", "Vera", tricks=5))
    ended_early(evenings[0], six("Boris", "Vera", "Gleb"), names=("Anna", "Boris", "Vera", "Gleb"))
    ended_early(evenings[2], six("Boris", "Anna", "Vera", tricks=7))
    ended_early(evenings[1], six("Anna", "Vera", "Boris"))

    incremental = rating_rows(club_a)

    assert len(incremental) == 3 + 4 + 3 + 3
    assert rebuilt(club_a) == incremental


@pytest.mark.django_db
def test_correcting_a_deal_in_an_old_pulka_rerates_the_later_ones(club_a, evenings):
    untouched = ended_early(evenings[0], six("Vera", "Anna", "Boris"))
    old = ended_early(evenings[1])
    later = ended_early(evenings[2], six("Anna", "Vera", "Boris"))
    kept = {s.pk for s in RatingSnapshot.objects.filter(pulka=untouched)}
    later_before = snapshot(later, "Boris").rating
    deal = Deal.objects.get(pulka=old, number=1)

    services.deal_update(
        pulka=old,
        number=1,
        data=six("Boris", "Vera", "Anna", tricks=5),  # Boris is set instead of making it
        expected_version=deal.version,
        changed_by=None,
    )

    assert snapshot(old, "Boris").delta < 0
    assert snapshot(later, "Boris").rating < later_before
    assert {s.pk for s in RatingSnapshot.objects.filter(pulka=untouched)} == kept
    assert rating_rows(club_a) == rebuilt(club_a)


@pytest.mark.django_db
def test_an_update_from_a_date_starts_from_the_snapshots_before_it(club_a, evenings):
    ended_early(evenings[0])
    ended_early(evenings[1], six("Vera", "Anna", "Boris"))
    ended_early(evenings[2], six("Anna", "Boris", "Vera"))
    everything = rating_rows(club_a)

    written = ratings.ratings_update(club=club_a, since=day(10))

    assert written == 6
    assert rating_rows(club_a) == everything


@pytest.mark.django_db
def test_abandoning_a_pulka_removes_its_snapshots_and_renumbers_the_later_ones(club_a, evenings):
    gone = ended_early(evenings[0])
    stays = ended_early(evenings[1], six("Vera", "Anna", "Boris"))

    services.pulka_abandon(pulka=gone, abandoned_by=None)

    assert not RatingSnapshot.objects.filter(pulka=gone).exists()
    assert snapshot(stays, "Vera").seq == 1
    assert snapshot(stays, "Vera").delta == pytest.approx(snapshot(stays, "Vera").rating - 1000)
    assert rating_rows(club_a) == rebuilt(club_a)


@pytest.mark.django_db
def test_a_reopened_pulka_loses_its_snapshots(club_a, evenings):
    pulka = ended_early(evenings[0])
    assert RatingSnapshot.objects.filter(pulka=pulka).count() == 3

    services.pulka_reopen(pulka=pulka, reopened_by=None)

    assert not RatingSnapshot.objects.filter(club=club_a).exists()


@pytest.mark.django_db
def test_clubs_are_rated_independently(club_a, club_b, evenings):
    ended_early(evenings[0])
    a_before = rating_rows(club_a)
    b_pulka = ended_early(make_evening(club_b, date=day(1)), six("Anna", "Vera", "Boris"))

    assert rating_rows(club_a) == a_before
    assert set(RatingSnapshot.objects.filter(pulka=b_pulka).values_list("seq", flat=True)) == {1}
    assert snapshot(b_pulka, "Anna").player.club == club_b
    ratings.ratings_update(club=club_b)
    assert rating_rows(club_a) == a_before


@pytest.mark.django_db
def test_current_ratings_are_each_players_latest_snapshot_in_one_query(
    club_a, evenings, django_assert_num_queries
):
    ended_early(evenings[0])
    last = ended_early(evenings[1], six("Vera", "Anna", "Boris"))
    ended_early(evenings[2], six("Gleb", "Dina", "Anna"), names=("Anna", "Gleb", "Dina"))
    ended_early(make_evening(make_club(), date=day(20)))

    with django_assert_num_queries(1):
        current = ratings.current_ratings(club_a)
        names = {s.player.name: s.pulka_id for s in current.values()}

    assert names["Vera"] == last.pk
    assert names["Boris"] == last.pk
    assert set(names) == {"Anna", "Boris", "Vera", "Gleb", "Dina"}
    assert all(player == s.player_id for player, s in current.items())


@pytest.mark.django_db
def test_rating_history_lists_a_players_ratings_oldest_first(club_a, evenings):
    pulkas = [
        ended_early(evenings[2]),
        ended_early(evenings[0], six("Vera", "Anna", "Boris")),
        ended_early(evenings[1], six("Anna", "Boris", "Vera")),
    ]
    anna = pulkas[0].seats.get(player__name="Anna").player

    history = ratings.rating_history(anna)

    assert [date for date, _ in history] == [day(3), day(10), day(17)]
    assert [rating for _, rating in history] == [
        snapshot(pulkas[i], "Anna").rating for i in (1, 2, 0)
    ]


@pytest.mark.django_db
def test_moving_an_evening_to_another_date_moves_its_results_and_re_rates():
    import datetime

    from competition.models import RatingSnapshot
    from scoring.models import PairResultCache, PulkaResultCache
    from scoring.services import evening_update, pulka_finish
    from tests.conftest import make_club, make_evening, make_pulka, record
    from tests.scoring.factories import SIX_BY_BORIS

    club = make_club()
    early = make_evening(club, date=datetime.date(2026, 1, 10))
    late = make_evening(club, date=datetime.date(2026, 2, 10))
    for evening in (early, late):
        pulka = make_pulka(evening)
        record(pulka, SIX_BY_BORIS)
        pulka_finish(pulka=pulka, finished_by=None)
    assert (
        list(RatingSnapshot.objects.order_by("seq").values_list("date", flat=True).distinct())[0]
        == early.date
    )

    evening_update(evening=early, date=datetime.date(2026, 3, 1), venue="", notes="")

    moved = early.pulkas.get()
    assert set(PulkaResultCache.objects.filter(pulka=moved).values_list("date", flat=True)) == {
        datetime.date(2026, 3, 1)
    }
    assert set(PairResultCache.objects.filter(pulka=moved).values_list("date", flat=True)) == {
        datetime.date(2026, 3, 1)
    }
    first = RatingSnapshot.objects.order_by("seq").first()
    assert first.pulka.evening == late
