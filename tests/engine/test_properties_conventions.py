"""Properties over random valid pulkas under every preset and random mixes of every option
(rules/conventions.md): zero sum, the settlement's closed form, amnesty invariance, the end
under ``pool_end: sum`` (§20), the Leningrad settlement, the whist price (§18), the 4-player
dealer under raspasy in whists (§23), and documents through the pulka/1 reader."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from hypothesis import given

from scoring.engine import (
    Deal,
    PulkaError,
    compute_sheet,
    deal_to_dict,
    rules_to_dict,
    score_pulka,
)
from tests.engine.factories import (
    CONVENTIONS_SETTINGS,
    any_rules,
    attempt,
    preset_rules_st,
    pulkas,
    score,
)


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules()))
def test_results_sum_to_zero_under_every_preset_and_mix(pulka):
    sheet = score(pulka)
    assert sum(sheet.result.values()) == 0
    assert sum(sheet.result_rounded.values()) == 0
    for p in sheet.players:
        assert abs(sheet.result_rounded[p] - sheet.result[p]) < 1


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules()))
def test_result_is_pool_and_mountain_against_the_average_plus_the_whist_balance(pulka):
    # R = ppv·(P − P̄) − 10·(M − M̄) + Σ_j (W[i][j] − W[j][i])  (§10.4, conventions.md §20c)
    sheet = score(pulka)
    rules, players = sheet.rules, sheet.players
    n = len(players)
    p_bar = Fraction(sum(sheet.pool.values()), n)
    m_bar = Fraction(sum(sheet.mountain.values()), n)
    for i in players:
        balance = sum(sheet.whists[i][j] - sheet.whists[j][i] for j in players if j != i)
        expected = (
            rules.pool_point_value * (sheet.pool[i] - p_bar) - 10 * (sheet.mountain[i] - m_bar)
        ) + balance
        assert sheet.result[i] == expected


@CONVENTIONS_SETTINGS
@given(pulkas(preset_rules_st("leningrad")))
def test_leningrad_settles_20_a_pool_point_and_10_a_mountain_point(pulka):
    sheet = score(pulka)
    players = sheet.players
    n = len(players)
    assert sheet.rules.pool_point_value in (10, 20)  # a key beside the preset may change it
    if sheet.rules.pool_point_value != 20:
        return
    p_bar = Fraction(sum(sheet.pool.values()), n)
    m_bar = Fraction(sum(sheet.mountain.values()), n)
    for i in players:
        balance = sum(sheet.whists[i][j] - sheet.whists[j][i] for j in players if j != i)
        assert (
            sheet.result[i]
            == 20 * (sheet.pool[i] - p_bar) - 10 * (sheet.mountain[i] - m_bar) + balance
        )


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules()))
def test_raspasy_amnesty_on_or_off_gives_the_same_results(pulka):
    rules, players, first, deals = pulka
    base = dataclasses.replace(rules, mountain_floor_zero=False)
    on = compute_sheet(dataclasses.replace(base, raspasy_amnesty=True), players, deals, first)
    off = compute_sheet(dataclasses.replace(base, raspasy_amnesty=False), players, deals, first)
    assert on.result == off.result
    assert on.pool == off.pool
    assert on.whists == off.whists
    assert on.closed == off.closed
    if rules.raspasy_scoring == "whists":  # §23: no effect at all
        assert on.mountain == off.mountain


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules().map(lambda r: dataclasses.replace(r, pool_end="sum"))))
def test_under_pool_end_sum_closed_holds_exactly_when_the_pools_reach_n_t(pulka):
    sheet = score(pulka)
    n, target = len(sheet.players), sheet.rules.pool_target
    assert sheet.pool_sum_target == n * target
    assert sheet.closed == (sum(sheet.pool.values()) >= n * target)
    before = dict.fromkeys(sheet.players, 0)
    for i, snap in enumerate(sheet.snapshots):
        reached = snap.pool_sum >= n * target
        assert reached == (sheet.closed and i == len(sheet.snapshots) - 1)
        assert all(snap.pool[p] >= before[p] for p in sheet.players)  # pools only grow
        before = snap.pool
        for e in snap.entries:  # §20a: no help, no write-off of an overflow
            assert e.code != "help"
            assert e.reason not in ("help", "no_one_to_help", "help_exception", "help_off")


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules().map(lambda r: dataclasses.replace(r, pool_end="sum"))))
def test_a_deal_after_the_sum_is_reached_is_refused(pulka):
    rules, players, first, deals = pulka
    sheet = score(pulka)
    if not sheet.closed:
        return
    extra = Deal("game", sheet.next_dealer if len(players) == 3 else players[0], "6S")
    refused = attempt(rules, players, [*deals, extra], first)
    assert isinstance(refused, PulkaError)
    assert (refused.code, refused.deal_number) == ("closed_sum", len(deals) + 1)


@CONVENTIONS_SETTINGS
@given(
    pulkas(
        any_rules().map(
            lambda r: dataclasses.replace(
                r, pool_end="sum", game_price_multiplier=1, consolation_amount="price"
            )
        )
    )
)
def test_double_price_doubles_every_game_amount_and_nothing_else(pulka):
    # Under pool_end sum there is no help, so without raspasy every mountain and whist comes
    # from a game or a misère and doubles with s = 2 (§18); the pools do not. (Consolation at
    # a fixed ten is not a price, §24.)
    rules, players, first, deals = pulka
    # The raspasy go; every other deal keeps its dealer (a 4-player game depends on him).
    dealers = [snap.dealer for snap in score(pulka).snapshots]
    deals = [
        dataclasses.replace(d, dealer=dealer)
        for d, dealer in zip(deals, dealers, strict=True)
        if d.kind != "raspasy"
    ]
    single = attempt(rules, players, deals, first)
    double = attempt(dataclasses.replace(rules, game_price_multiplier=2), players, deals, first)
    if isinstance(single, PulkaError):  # without the raspasy the sum may be reached earlier
        assert single.code == "closed_sum"
        assert isinstance(double, PulkaError)
        return
    assert double.pool == single.pool
    assert double.mountain == {p: 2 * v for p, v in single.mountain.items()}
    assert double.whists == {
        x: {y: 2 * v for y, v in row.items()} for x, row in single.whists.items()
    }


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules().map(lambda r: dataclasses.replace(r, raspasy_scoring="whists"))))
def test_raspasy_in_whists_leave_the_four_player_dealer_out(pulka):
    sheet = score(pulka)
    rules, players, first, deals = pulka
    for deal, snap in zip(deals, sheet.snapshots, strict=True):
        if deal.kind != "raspasy":
            continue
        for e in snap.entries:
            assert e.code != "mountain"  # §23 replaces the mountain entries
            if e.reason in ("raspasy", "raspasy_shared"):
                if len(players) == 4:
                    assert snap.dealer not in (e.player, e.other)
                assert e.amount == rules.raspasy_whist_rate * snap.raspasy_cost * e.tricks // (
                    2 if e.reason == "raspasy_shared" else 1
                )


@CONVENTIONS_SETTINGS
@given(pulkas(any_rules()))
def test_documents_under_every_preset_read_and_echo_their_rules(pulka):
    rules, players, first, deals = pulka
    doc = {
        "format": "pulka/1",
        "players": list(players),
        "first_dealer": first,
        "rules": rules_to_dict(rules),
        "deals": [deal_to_dict(d) for d in deals],
    }
    sheet = score_pulka(doc)
    assert sheet == score(pulka)
    assert rules_to_dict(sheet.rules) == doc["rules"]


@CONVENTIONS_SETTINGS
@given(
    pulkas(
        any_rules().map(
            lambda r: dataclasses.replace(
                r,
                pool_end="sum",
                pool_point_value=20,
                raspasy_zero="mountain_double",
                mountain_floor_zero=False,
            )
        )
    )
)
def test_zero_trick_pool_and_double_mountain_are_equal_in_money_under_sum(pulka):
    # conventions.md §21: equal in money (without a floor under the mountain, which the pool
    # does not have); only the pool entry counts towards ΣP, so the pool version may close
    # earlier and refuse a later deal.
    rules, players, first, deals = pulka
    double = score(pulka)
    pooled = attempt(dataclasses.replace(rules, raspasy_zero="pool"), players, deals, first)
    if isinstance(pooled, PulkaError):
        assert pooled.code == "closed_sum"
        return
    assert pooled.result == double.result
