"""engine.inert_options: an option it calls inert changes nothing on any sheet, whatever
value it takes (the one place the pages read which options to disable, and why)."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given

from scoring.engine import (
    INERT_REASONS,
    OPTION_CHOICES,
    RULE_KEYS,
    PulkaError,
    Rules,
    inert_options,
    options_changed,
    preset_rules,
)
from tests.engine.factories import CONVENTIONS_SETTINGS, any_rules, attempt, pulkas


def other_values(key: str, value: Any) -> list[Any]:
    """Every other value the key may take (a sample of the numbers)."""
    if key in OPTION_CHOICES:
        return [v for v in OPTION_CHOICES[key] if v != value]
    if isinstance(value, bool):
        return [not value]
    if key == "raspasy_whist_rate":
        return [v for v in (1, 5, 100) if v != value]
    raise AssertionError(f"no other values for {key}")


def totals(sheet) -> tuple:
    return (sheet.pool, sheet.mountain, sheet.whists, sheet.closed, sheet.result)


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules()))
def test_changing_an_inert_option_changes_no_sheet(pulka):
    rules, players, first, deals = pulka
    before = attempt(rules, players, deals, first)
    assert not isinstance(before, PulkaError)
    for key in inert_options(rules):
        for value in other_values(key, getattr(rules, key)):
            changed = dataclasses.replace(rules, **{key: value})
            after = attempt(changed, players, deals, first)
            assert not isinstance(after, PulkaError), (key, value, after)
            assert totals(after) == totals(before), (key, value)


def test_every_reason_is_a_known_code_and_every_key_a_rules_key():
    for rules in (Rules(), *(preset_rules(p) for p in ("leningrad", "rostov"))):
        for key, reason in inert_options(rules).items():
            assert key in RULE_KEYS
            assert reason in INERT_REASONS


def test_the_sum_of_the_pools_puts_help_out_before_help_itself():
    inert = inert_options(Rules(pool_end="sum", help=False))
    assert inert["help"] == "pool_end_sum"
    assert inert["help_exception"] == "pool_end_sum"
    assert inert_options(Rules(help=False))["help_exception"] == "help_off"
    assert "help" not in inert_options(Rules(help=False))


def test_a_ladder_makes_the_series_count_and_a_flat_one_does_not():
    assert "exit_by_misere" not in inert_options(Rules(raspasy_progression=(1, 2, 3)))
    assert inert_options(Rules(raspasy_progression=(2, 2)))["exit_by_misere"] == (
        "raspasy_cost_fixed"
    )
    assert "raspasy_zero_unit" not in inert_options(Rules(raspasy_progression=(2,)))
    assert inert_options(Rules(raspasy_zero="none"))["raspasy_zero_unit"] == "raspasy_zero_none"


def test_raspasy_in_whists_put_the_amnesty_out_and_the_rate_in():
    rostov = inert_options(preset_rules("rostov"))
    assert rostov["raspasy_amnesty"] == "raspasy_whists"
    assert "raspasy_whist_rate" not in rostov
    assert inert_options(Rules())["raspasy_whist_rate"] == "raspasy_mountain"


def test_the_presets_themselves_are_unchanged_and_changes_that_count_are_listed():
    for preset in ("sochi", "leningrad", "rostov"):
        assert options_changed(preset_rules(preset, pool_target=50)) == ()
    lenin = preset_rules("leningrad", lone_whister="greedy", help=True)
    assert options_changed(lenin) == ("lone_whister",)
    assert "pool_end" in options_changed(preset_rules("leningrad"), Rules())
