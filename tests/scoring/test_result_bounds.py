"""The result caches hold any result the engine's bounded conventions can produce.

A pulka holds at most 500 deals (the entry service's cap); engine.result_bound(500) is the
largest result or pair net that many deals can reach. Before the bounds a raspasy step of
10**7 overflowed numeric(12, 4) on PostgreSQL, and 10**30 the integer columns on both.
"""

from fractions import Fraction

import pytest
from django.db import connection

from scoring import engine, services
from scoring.models import Deal, PairResultCache, PulkaResultCache, PulkaStatus
from tests.conftest import make_pulka

pytestmark = pytest.mark.django_db

DEALS_MAX = 500  # the cap on the deals of one pulka


def test_the_cache_columns_hold_the_largest_possible_result():
    bound = engine.result_bound(DEALS_MAX)
    net = PairResultCache._meta.get_field("net")
    rounded = PulkaResultCache._meta.get_field("result_rounded")
    low, high = connection.ops.integer_field_range(rounded.get_internal_type())

    assert bound < 10 ** (net.max_digits - net.decimal_places)
    assert low < -bound
    assert bound < high
    # "p/q" of the exact result: the denominators are at most 2·n = 8.
    assert len(f"-{bound * 8}/8") <= PulkaResultCache._meta.get_field("result").max_length


def test_a_pulka_at_the_bounds_finishes_and_caches_its_results(evening_a):
    """500 raspasy at the steepest step, Anna taking every trick; ended early, so the
    unfinished pools count too, at 20 whists a point of the largest target."""
    rules = {
        "pool_target": engine.POOL_TARGET_MAX,
        "raspasy_progression": [engine.RASPASY_STEP_MAX],
        "raspasy_amnesty": False,
        "pool_point_value": 20,
    }
    pulka = make_pulka(evening_a, rules=rules)
    raspasy = {"0": 10, "1": 0, "2": 0}
    Deal.objects.bulk_create(
        Deal(pulka=pulka, number=n, kind="raspasy", tricks=raspasy, dealer=(n - 1) % 3)
        for n in range(1, DEALS_MAX + 1)
    )

    sheet = services.pulka_finish(pulka=pulka, finished_by=None)

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    assert sheet.mountain["Anna"] == DEALS_MAX * 10 * engine.RASPASY_STEP_MAX
    cached = {
        row.player.name: row.result_rounded
        for row in PulkaResultCache.objects.filter(pulka=pulka).select_related("player")
    }
    assert cached == sheet.result_rounded
    assert cached["Anna"] < -3_000_000  # large, as the bounds allow
    nets = [row.net for row in PairResultCache.objects.filter(pulka=pulka, player__name="Anna")]
    # The pair nets add up to the exact result, to the cache's 4 decimals.
    assert abs(Fraction(sum(nets)) - sheet.result["Anna"]) < Fraction(1, 1000)
    assert all(abs(net) <= engine.result_bound(DEALS_MAX) for net in nets)
