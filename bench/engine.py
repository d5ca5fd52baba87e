"""Benchmark of the scoring engine's full recompute (scoring.engine.compute_sheet).

Run from the repository root:  python bench/engine.py

1. A realistic 100-deal 4-player pulka (made and set games, whister sets, half-whists, no-play
   games, misère, raspasy, help after a pool closed), recomputed from scratch many times.
2. The same kind of 100-deal 4-player pulka under the Leningrad preset (rules/conventions.md:
   double price, gentleman on set, raspasy 2-4-6 with zero-trick pool entries, pools summed).
3. 1,000 random valid pulkas of 3 and 4 players with random options and presets (seeded
   ``random``).

Prints medians and deals per second; the last two lines are
``recompute_100_deals_leningrad_ms_median: X`` and ``recompute_100_deals_ms_median: X`` (the
Sochi figure stays last). The budget is 2 ms for each.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import engine  # noqa: E402
from scoring.engine import Deal, PulkaError, Rules, compute_sheet  # noqa: E402

CARDS = [r + s for r in engine.RANKS for s in engine.CARD_SUITS]
W, P, H = engine.WHIST, engine.PASS, engine.HALF


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """A random composition of ``total`` into ``parts`` non-negative counts."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def random_deal(
    rng: random.Random, players: list[str], dealer: str, rules: Rules, override: bool = False
) -> Deal:
    """One valid deal at a table where ``dealer`` deals (realistic proportions)."""
    n = len(players)
    active = [p for p in players if not (n == 4 and p == dealer)]
    roll = rng.random()
    dealer_key = dealer if override else None
    if roll < 0.2:  # raspasy
        if n == 4:
            # with raspasy in whists the 4-player dealer takes no trick (conventions.md §23)
            in_whists = rules.raspasy_scoring == engine.RASPASY_SCORING_WHISTS
            sitter = 0 if in_whists else rng.choice((0, 0, 1, 2))
            counts = split(rng, 10 - sitter, 3)
            tricks = dict(zip(active, counts, strict=True)) | {dealer: sitter}
        else:
            tricks = dict(zip(players, split(rng, 10, 3), strict=True))
        return Deal(engine.RASPASY, tricks=tricks, dealer=dealer_key)
    declarer = rng.choice(active)
    if roll < 0.3:  # misère
        taken = 0 if rng.random() < 0.7 else rng.randint(1, 3)
        return Deal(engine.MISERE, declarer, tricks={declarer: taken}, dealer=dealer_key)
    level = rng.choice((6, 6, 6, 7, 7, 8, 8, 9, 10))
    contract = f"{level}{rng.choice(engine.SUITS)}"
    i = players.index(declarer)
    defenders = [players[(i + k) % n] for k in range(1, n)]
    defenders = [p for p in defenders if not (n == 4 and p == dealer)]
    d1, d2 = defenders
    patterns = [(W, W), (W, P), (P, W), (P, P)]
    weights = [3, 3, 2, 2]
    if level in rules.half_whist_levels:
        patterns.append((P, H))
        weights.append(1)
    c1, c2 = rng.choices(patterns, weights)[0]
    calls = {d1: c1, d2: c2}
    tricks = None
    if W in (c1, c2):
        made = rng.random() < 0.75
        td = rng.randint(level, 10) if made else rng.randint(max(0, level - 3), level - 1)
        t1, t2 = split(rng, 10 - td, 2)
        tricks = {declarer: td, d1: t1, d2: t2}
    talon = quick = None
    if rng.random() < 0.5:
        talon = tuple(rng.sample(CARDS, 2))
    elif rng.random() < 0.3:
        quick = rng.randint(0, 3)
    return Deal(engine.GAME, declarer, contract, calls, tricks, talon, quick, dealer_key)


def random_rules(rng: random.Random) -> Rules:
    """Random convention options (§14, rules/conventions.md §B) from a random preset."""
    return engine.preset_rules(
        rng.choice(engine.PRESETS),
        game_price_multiplier=rng.choice(engine.GAME_PRICE_MULTIPLIERS),
        pool_end=rng.choice(engine.OPTION_CHOICES["pool_end"]),
        raspasy_zero_unit=rng.choice(engine.OPTION_CHOICES["raspasy_zero_unit"]),
        exit_by_unplayed_game=rng.random() < 0.7,
        exit_by_misere=rng.random() < 0.7,
        raspasy_scoring=rng.choice(engine.OPTION_CHOICES["raspasy_scoring"]),
        raspasy_whist_rate=rng.choice((5, 5, 10)),
        consolation_amount=rng.choice(engine.OPTION_CHOICES["consolation_amount"]),
        pool_target=rng.choice((10, 20, 30, 50)),
        consolation=rng.choice(engine.OPTION_CHOICES["consolation"]),
        lone_whister=rng.choice(engine.OPTION_CHOICES["lone_whister"]),
        whist_penalty=rng.choice(engine.OPTION_CHOICES["whist_penalty"]),
        duty1_rule=rng.choice(engine.OPTION_CHOICES["duty1_rule"]),
        personal_quota=rng.random() < 0.2,
        ten_checked=rng.random() < 0.2,
        half_whist_levels=rng.choice(engine.HALF_WHIST_LEVELS),
        quick_tricks=rng.random() < 0.7,
        raspasy_amnesty=rng.random() < 0.7,
        raspasy_zero=rng.choice(engine.OPTION_CHOICES["raspasy_zero"]),
        raspasy_progression=rng.choice(((), (1, 2, 3), (1, 2, 4))),
        exit_only_by_made_game=rng.random() < 0.3,
        mountain_floor_zero=rng.random() < 0.2,
        help=rng.random() < 0.8,
        help_exception=rng.choice(engine.OPTION_CHOICES["help_exception"]),
        help_excludes_talon_sitter=rng.random() < 0.3,
        pool_point_value=rng.choice(engine.POOL_POINT_VALUES),
        whister_shortfall=rng.choice(engine.OPTION_CHOICES["whister_shortfall"]),
        raspasy_progression_end=rng.choice(engine.OPTION_CHOICES["raspasy_progression_end"]),
    )


def random_pulka(rng: random.Random, length: int, rules: Rules, players: list[str]) -> list[Deal]:
    """Valid deals: generated along the rotation, cut where the pulka closed."""
    dealer_seat = 0
    deals = []
    for _ in range(length):
        override = rng.random() < 0.05
        if override:
            dealer_seat = rng.randrange(len(players))
        deals.append(random_deal(rng, players, players[dealer_seat], rules, override))
        dealer_seat = (dealer_seat + 1) % len(players)
    try:
        compute_sheet(rules, players, deals)
    except PulkaError as exc:  # only possible error: a deal after the pulka closed
        deals = deals[: exc.deal_number - 1]
    return deals


def pulka_of_100(
    rng: random.Random, rules: Rules | None = None
) -> tuple[Rules, list[str], list[Deal]]:
    """The realistic 100-deal 4-player pulka: a pool target that some players reach (so that
    help happens) but not all before deal 100; a deal that would close it becomes raspasy."""
    players = ["Anna", "Boris", "Vera", "Gleb"]
    if rules is None:
        rules = Rules(pool_target=80, raspasy_progression=(1, 2, 3))
    deals = [random_deal(rng, players, players[i % 4], rules) for i in range(100)]
    while True:
        try:
            if not compute_sheet(rules, players, deals).closed:
                return rules, players, deals
            k = len(deals) - 1  # the last deal closed it
        except PulkaError as exc:
            k = exc.deal_number - 2  # the deal that closed the last pool
        dealer = players[k % 4]
        counts = split(rng, 8, 3)
        active = [p for p in players if p != dealer]
        tricks = dict(zip(active, counts, strict=True)) | {dealer: 2}
        deals[k] = Deal(engine.RASPASY, tricks=tricks)


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    rng = random.Random(20240601)
    rules, players, deals = pulka_of_100(rng)
    sheet = compute_sheet(rules, players, deals)
    kinds = {}
    codes = {}
    for d in deals:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    for s in sheet.snapshots:
        for e in s.entries:
            key = e.code if e.code != "mountain" and e.code != "whists" else f"{e.code}/{e.reason}"
            codes[key] = codes.get(key, 0) + 1
    print(f"100-deal pulka: kinds {kinds}; closed={sheet.closed}")
    print(f"  entries: {dict(sorted(codes.items()))}")

    for _ in range(50):  # warm up
        compute_sheet(rules, players, deals)
    times = timed(lambda: compute_sheet(rules, players, deals), 1000)
    med = statistics.median(times)
    print(
        f"recompute 100 deals: median {med * 1e3:.3f} ms, "
        f"min {min(times) * 1e3:.3f} ms, {100 / med:,.0f} deals/s"
    )

    # Leningrad: pools add up to 4·T = 400 at the end, so 100 deals stay open.
    lenin_rules = engine.preset_rules(engine.PRESET_LENINGRAD, pool_target=100)
    lrules, lplayers, ldeals = pulka_of_100(random.Random(20240602), lenin_rules)
    lsheet = compute_sheet(lrules, lplayers, ldeals)
    print(
        f"100-deal Leningrad pulka: pools {lsheet.pool_sum} of {lsheet.pool_sum_target}; "
        f"closed={lsheet.closed}"
    )
    for _ in range(50):  # warm up
        compute_sheet(lrules, lplayers, ldeals)
    ltimes = timed(lambda: compute_sheet(lrules, lplayers, ldeals), 1000)
    lmed = statistics.median(ltimes)
    print(
        f"recompute 100 Leningrad deals: median {lmed * 1e3:.3f} ms, "
        f"min {min(ltimes) * 1e3:.3f} ms, {100 / lmed:,.0f} deals/s"
    )

    rng = random.Random(7)
    pulkas = []
    for _ in range(1000):
        players = ["A", "B", "C", "D"][: rng.choice((3, 4))]
        prules = random_rules(rng)
        pulkas.append((prules, players, random_pulka(rng, rng.randint(1, 60), prules, players)))
    total_deals = sum(len(p[2]) for p in pulkas)
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for prules, pplayers, pdeals in pulkas:
            compute_sheet(prules, pplayers, pdeals)
        rounds.append(time.perf_counter() - t0)
    med_all = statistics.median(rounds)
    print(
        f"1,000 random pulkas ({total_deals} deals): median {med_all * 1e3:.1f} ms per pass, "
        f"{med_all / 1000 * 1e6:.1f} us per pulka, {total_deals / med_all:,.0f} deals/s"
    )
    print(f"recompute_100_deals_leningrad_ms_median: {lmed * 1e3:.3f}")
    print(f"recompute_100_deals_ms_median: {med * 1e3:.3f}")


if __name__ == "__main__":
    main()
