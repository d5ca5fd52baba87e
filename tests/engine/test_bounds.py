"""The engine's bounds on the conventions (rules.py) and the largest result they allow
(settlement.result_bound): what a club could mean is accepted, nothing more."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import (
    POOL_TARGET_MAX,
    RASPASY_STEP_MAX,
    RASPASY_STEPS_MAX,
    Deal,
    PulkaError,
    Rules,
    compute_sheet,
    pair_nets,
    result_bound,
    rules_from_dict,
)
from tests.engine.factories import SETTINGS, pulkas, rules_st, score


@pytest.mark.parametrize(
    "rules",
    [
        {"pool_target": 1},
        {"pool_target": POOL_TARGET_MAX},
        {"raspasy_progression": [1, 2, 4, 8, 16, 32, 64]},
        {"raspasy_progression": [RASPASY_STEP_MAX] * RASPASY_STEPS_MAX},
    ],
)
def test_conventions_within_the_bounds_are_read(rules):
    assert rules_from_dict(rules)


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"pool_target": POOL_TARGET_MAX + 1}, "rules_pool_target_max"),
        ({"pool_target": 10**30}, "rules_pool_target_max"),
        ({"raspasy_progression": [1, RASPASY_STEP_MAX + 1]}, "rules_raspasy_step_max"),
        ({"raspasy_progression": [10**30]}, "rules_raspasy_step_max"),
        ({"raspasy_progression": [1] * (RASPASY_STEPS_MAX + 1)}, "rules_raspasy_steps_max"),
    ],
)
def test_conventions_past_the_bounds_are_refused_with_the_bound(rules, code):
    with pytest.raises(PulkaError) as caught:
        rules_from_dict(rules)

    assert caught.value.code == code
    assert str(caught.value.params["high"]) in str(caught.value)


@st.composite
def steep_rules(draw) -> Rules:
    """Random conventions with the steepest raspasy and the largest pool the bounds allow."""
    rules = draw(rules_st())
    steps = draw(st.lists(st.integers(1, RASPASY_STEP_MAX), min_size=1, max_size=10))
    target = draw(st.sampled_from((10, POOL_TARGET_MAX)))
    return dataclasses.replace(rules, raspasy_progression=steps, pool_target=target)


@SETTINGS
@given(pulkas(steep_rules()))
def test_no_result_or_pair_net_exceeds_the_bound(pulka):
    rules, players, _first, deals = pulka
    sheet = score(pulka)
    bound = result_bound(len(deals))

    nets = pair_nets(
        players, sheet.pool, sheet.mountain, sheet.whists, rules.pool_target, rules.pool_point_value
    )

    assert all(abs(r) <= bound for r in sheet.result.values())
    assert all(abs(x) <= bound for row in nets.values() for x in row.values())


def test_the_steepest_raspasy_series_stays_within_the_bound():
    """500 raspasy at the highest step, one player taking all ten tricks each time."""
    players = ("Anna", "Boris", "Vera")
    rules = Rules(
        pool_target=POOL_TARGET_MAX,
        raspasy_progression=(RASPASY_STEP_MAX,),
        raspasy_amnesty=False,
        pool_point_value=20,
    )
    deals = [Deal("raspasy", tricks={"Anna": 10, "Boris": 0, "Vera": 0})] * 500

    sheet = compute_sheet(rules, players, deals)

    assert sheet.mountain["Anna"] == 500 * 10 * RASPASY_STEP_MAX
    assert max(abs(r) for r in sheet.result.values()) <= result_bound(500)
