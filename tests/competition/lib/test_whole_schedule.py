"""A schedule drawn in advance as one whole (competition.lib.seating.schedule, .search):
no database; properties over random sizes, the issue's instances, and the fairness report."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.lib import search, seating
from competition.lib.designs import max_rounds
from competition.lib.problems import TournamentError
from competition.lib.seating import (
    Bye,
    Entrant,
    Method,
    Seating,
    Table,
    TablePlan,
    Tables,
    check,
    repeated_meetings,
    report,
    schedule,
    seat_round,
    table_plan,
    warnings,
)

PROPERTY = settings(max_examples=60, deadline=None)


def entrants(count: int) -> list[Entrant]:
    return [Entrant(id, rating=2000 - id) for id in range(1, count + 1)]


def codes(found) -> list[str]:
    return [problem.code for problem in found]


def together(plan, pairs) -> list[tuple[int, int, int]]:
    return [
        (a, b, s.round)
        for s in plan
        for t in s.tables
        for a, b in pairs
        if a in t.seats and b in t.seats
    ]


def test_the_worked_examples_are_right():
    result = doctest.testmod(search)
    assert result.attempted > 0
    assert result.failed == 0


# --- the whole schedule, over random sizes ----------------------------------------------


@st.composite
def instances(draw):
    kind = draw(st.sampled_from(list(Tables)))
    players = draw(st.integers(4 if kind == Tables.FOURS else 3, 40))
    rounds = draw(st.integers(1, 8))
    pair = st.tuples(st.integers(1, players), st.integers(1, players)).filter(
        lambda pair: pair[0] != pair[1]
    )
    apart = draw(st.lists(pair, max_size=4))
    seed = draw(st.integers(0, 999_999))
    return kind, players, rounds, apart, seed


def can_keep_apart(players: int, kind: Tables, apart) -> bool:
    """Conservatively: every round can part the pairs. Two tables part pairs with no player in
    common (one of each pair at each table); any 4 pairs form a graph of 3 colours, so three
    tables (of 3 seats or more) part any of them."""
    tables = len(table_plan(players, kind).sizes)
    named = [p for pair in apart for p in pair]
    disjoint = len(named) == len(set(named))
    return tables >= 3 or (tables >= 2 and disjoint)


@PROPERTY
@given(instances())
def test_a_schedule_seats_everyone_as_planned_and_keeps_pairs_apart(instance):
    kind, players, rounds, apart, seed = instance
    ids = list(range(1, players + 1))
    plan_of_a_round = table_plan(players, kind)
    options = {"rounds": rounds, "seed": seed, "tables": kind, "apart": apart, "steps": 5_000}
    plan = schedule(entrants(players), **options)

    assert [s.round for s in plan] == list(range(1, rounds + 1))
    assert plan[0].method == Method.RATING
    byes: Counter[int] = Counter()
    for s in plan:
        assert check(s, active=ids, tables=kind) == []
        assert sorted([*s.players, *(b.player for b in s.byes)]) == ids
        assert tuple(sorted((t.size for t in s.tables), reverse=True)) == plan_of_a_round.sizes
        assert len(s.byes) == plan_of_a_round.byes
        assert {b.reason for b in s.byes} <= {plan_of_a_round.reason}
        byes.update(b.player for b in s.byes)
        # in turn: nobody sits out a second time before everyone sat out once
        assert max(byes[p] for p in ids) - min(byes[p] for p in ids) <= 1
    if can_keep_apart(players, kind, apart):
        assert together(plan, apart) == []
    figures = report(plan, ids)
    assert figures.repeats == repeated_meetings(plan) >= figures.lower_bound

    seating._plan.cache_clear()  # else the second call is the first one's cached result
    assert schedule(entrants(players), **options) == plan


def test_keep_apart_pairs_are_honoured_where_a_design_fits():
    # 16 x 4 at tables of 4: the affine plane, one round short of every pair meeting.
    apart = [(1, 2), (3, 4), (5, 16), (7, 9)]
    for seed in range(5):
        plan = schedule(entrants(16), rounds=4, seed=seed, tables=Tables.FOURS, apart=apart)
        assert together(plan, apart) == []
        assert repeated_meetings(plan) == 0
        assert not any("apart_together" in codes(warnings(s, apart=apart)) for s in plan)


# --- the instances of the issue ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "kind"),
    [
        (16, 5, Tables.FOURS),
        (20, 5, Tables.FOURS),
        (28, 9, Tables.FOURS),
        (32, 8, Tables.FOURS),
        (32, 10, Tables.FOURS),
        (40, 13, Tables.FOURS),
        (30, 8, Tables.MIXED),
        (15, 7, Tables.THREES),
        (21, 10, Tables.THREES),
        (31, 8, Tables.MIXED),
    ],
)
def test_the_budget_instances_have_no_repeat(players, rounds, kind):
    ids = range(1, players + 1)
    plan = schedule(entrants(players), rounds=rounds, seed=1, tables=kind)
    assert len(plan) == rounds
    assert all(check(s, active=ids, tables=kind) == [] for s in plan)
    figures = report(plan, ids)
    assert (figures.repeats, figures.lower_bound) == (0, 0)
    if kind == Tables.MIXED:  # the tables of 3 go round: nobody twice before all once
        assert figures.most_threes - figures.fewest_threes <= 1


def test_19_players_for_8_rounds_reach_the_lower_bound():
    plan = schedule(entrants(19), rounds=8, seed=1)
    figures = report(plan, range(1, 20))
    assert figures.lower_bound == 45
    assert figures.repeats == 45


# --- the search ---------------------------------------------------------------------------


def test_repeats_count_the_meetings_beyond_the_first():
    assert search.repeats(4, []) == 0
    assert search.repeats(4, [[[0, 1, 2, 3]]]) == 0
    assert search.repeats(4, [[[0, 1, 2, 3]]] * 3) == 12  # 6 pairs, each met twice more
    assert search.repeats(6, [[[0, 1, 2], [3, 4, 5]], [[0, 1, 3], [2, 4, 5]]]) == 2


def test_the_lower_bound_counts_meetings_beyond_every_pair_once():
    assert search.lower_bound(16, [[4] * 4] * 5) == 0
    assert search.lower_bound(16, [[4] * 4] * 6) == 24
    assert search.lower_bound(19, [[4, 4, 4, 4, 3]] * 8) == 45
    assert search.lower_bound(9, [[3, 3, 3]] * 4) == 0
    assert search.lower_bound(9, [[3, 3, 3]] * 5) == 9
    # the repeats of the rounds played before stay
    assert search.lower_bound(16, [[4] * 4] * 5, already=2) == 2
    assert search.lower_bound(16, [[4] * 4] * 6, already=1) == 25


def test_the_search_mends_the_free_rounds_only():
    same = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    state = search.Schedule(9, [same] * 4, free=[1, 2, 3], rng=random.Random(3))
    found = state.run(50_000, target=0)
    assert found[0] == same
    assert search.repeats(9, found) == 0  # 9 x 4 at tables of 3: the affine plane AG(2, 3)
    for r in found:
        assert sorted(p for t in r for p in t) == list(range(9))


def test_the_search_counts_the_rounds_played_before():
    played = [[0, 1, 2], [3, 4, 5]]
    met = [[0] * 6 for _ in range(6)]
    for table in played:
        for a, b in itertools.combinations(table, 2):
            met[a][b] = met[b][a] = 1
    state = search.Schedule(6, [played], free=[0], met=met, rng=random.Random(1))
    found = state.run(5_000, target=0)
    # any two tables of 3 hold two players who met: 2 repeats at least, and no more
    assert search.repeats(6, [played, *found]) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 30), st.integers(1, 4), st.integers(0, 999), st.integers(0, 3))
def test_the_change_of_a_swap_is_the_change_of_the_cost(players, rounds, seed, history):
    rng = random.Random(seed)
    sizes = table_plan(players).sizes
    schedule_ = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        schedule_.append(tables)
    pair = [[0] * players for _ in range(players)]
    for _ in range(5):
        a, b = rng.sample(range(players), 2)
        pair[a][b] = pair[b][a] = rng.choice((1, 100, search.HARD))
    met = [[0] * players for _ in range(players)]
    for _ in range(history):
        a, b = rng.sample(range(players), 2)
        met[a][b] = met[b][a] = met[a][b] + 1
    state = search.Schedule(
        players,
        schedule_,
        free=list(range(rounds)),
        met=met,
        pair=pair,
        threes=[rng.randrange(3) for _ in range(players)],
        rng=rng,
    )
    for _ in range(30):
        r = rng.randrange(rounds)
        x, y = rng.sample(range(players), 2)
        if state.where[r][x] == state.where[r][y]:
            continue
        before, change = state.cost(), state.delta(r, x, y)
        state.swap(r, x, y)
        assert state.cost() == before + change
        pairs = {
            (a, b) for a in range(players) for b in range(a + 1, players) if state.met[a][b] > 1
        }
        assert set(state.repeat_pairs) == pairs


# --- the fairness report ----------------------------------------------------------------


def test_the_report_of_a_small_schedule():
    one = Seating(1, 1, Method.RATING, (Table(1, (1, 2, 3, 4), 1), Table(2, (5, 6, 7), 5)))
    two = Seating(2, 2, Method.MIXING, (Table(1, (1, 5, 2, 6), 1), Table(2, (3, 4, 7), 7)))
    figures = report([one, two], [1, 2, 3, 4, 5, 6, 7, 7])
    assert figures == seating.Report(
        rounds=2,
        repeats=3,  # 1-2, 3-4 and 5-6 meet again
        lower_bound=0,
        most_threes=2,  # player 7
        fewest_threes=0,  # players 1 and 2
        most_same_seat=2,  # player 1 in seat 1 twice (7 in seat 3 twice)
        most_first_deals=2,  # player 1
        fewest_first_deals=0,
        most_byes=0,
        fewest_byes=0,
    )


def test_the_report_counts_byes_and_players_never_seated():
    one = Seating(1, 1, Method.MIXING, (Table(1, (1, 2, 3, 4), 2),), (Bye(5, "bye"),))
    two = Seating(2, 2, Method.MIXING, (Table(1, (2, 3, 4, 5), 3),), (Bye(1, "bye"),))
    figures = report([one, two], [1, 2, 3, 4, 5, 6])
    assert (figures.most_byes, figures.fewest_byes) == (1, 0)
    assert (figures.most_first_deals, figures.fewest_first_deals) == (1, 0)
    assert (figures.repeats, figures.lower_bound) == (3, 0)  # 2-3, 2-4, 3-4
    assert figures.most_same_seat == 1
    assert (figures.most_threes, figures.fewest_threes) == (0, 0)
    assert report([], [1, 2, 3]).repeats == 0


# --- pairs kept apart in one round ------------------------------------------------------

ODD_EVEN = Seating(1, 1, Method.RATING, (Table(1, (1, 3, 5, 7), 1), Table(2, (2, 4, 6, 8), 2)))


def test_a_mixing_round_keeps_a_pair_apart():
    apart = [(1, 2)]
    parted = 0
    for seed in range(10):
        drawn = seat_round(entrants(8), round=2, seed=seed, history=[ODD_EVEN])
        parted += drawn.table_of(1) != drawn.table_of(2)
        kept = seat_round(entrants(8), round=2, seed=seed, history=[ODD_EVEN], apart=apart)
        assert kept.table_of(1) != kept.table_of(2)
        # two odd and two even at each table, the least there can be: 2 repeats a table
        assert repeated_meetings([ODD_EVEN, kept]) == 4
    assert parted < 10  # without it the pair sits together now and then


def test_pairs_kept_apart_weigh_more_than_repeats():
    apart = [(2, 1), (1, 4), (1, 6), (1, 8)]  # 1 may only sit with the odd, whom he met
    for seed in range(3):
        drawn = seat_round(entrants(8), round=2, seed=seed, history=[ODD_EVEN], apart=apart)
        assert set(drawn.table_of(1).seats) == {1, 3, 5, 7}
        found = codes(warnings(drawn, history=[ODD_EVEN], entrants=entrants(8), apart=apart))
        assert "apart_together" not in found
        assert "met_last_round" in found


def test_a_pair_that_cannot_be_parted_gets_a_warning():
    drawn = seat_round(entrants(4), round=1, seed=1, tables=Tables.FOURS, apart=[(1, 2)])
    assert drawn.table_of(1) == drawn.table_of(2)
    found = warnings(drawn, entrants=entrants(4), apart=[(2, 1)])
    assert [(p.code, dict(p.params)) for p in found] == [
        ("apart_together", {"first": 1, "second": 2, "table": 1})
    ]


def test_the_apart_warning_on_a_draft_made_by_hand():
    draft = Seating(2, 7, Method.MIXING, (Table(1, (4, 1, 2, 3), 4), Table(2, (5, 6, 7), 5)))
    apart = [(3, 1), (5, 8)]
    for given_entrants in ((), entrants(7)):
        found = warnings(draft, entrants=given_entrants, apart=apart)
        assert [(p.code, dict(p.params)) for p in found] == [
            ("apart_together", {"first": 1, "second": 3, "table": 1})
        ]
    assert warnings(draft, apart=[(1, 5)]) == []


# --- tables of one size -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "kind", "expected"),
    [
        (3, Tables.THREES, TablePlan((3,))),
        (4, Tables.THREES, TablePlan((3,), 1, "bye_threes")),
        (5, Tables.THREES, TablePlan((3,), 2, "bye_threes")),
        (15, Tables.THREES, TablePlan((3,) * 5)),
        (16, Tables.THREES, TablePlan((3,) * 5, 1, "bye_threes")),
        (4, Tables.FOURS, TablePlan((4,))),
        (7, Tables.FOURS, TablePlan((4,), 3, "bye_fours")),
        (30, Tables.FOURS, TablePlan((4,) * 7, 2, "bye_fours")),
        (32, Tables.FOURS, TablePlan((4,) * 8)),
        (30, Tables.MIXED, TablePlan((4,) * 6 + (3,) * 2)),
    ],
)
def test_tables_of_one_size(players, kind, expected):
    assert table_plan(players, kind) == expected


@pytest.mark.parametrize(
    ("players", "kind", "code"),
    [
        (2, Tables.THREES, "threes_too_few"),
        (0, Tables.THREES, "threes_too_few"),
        (3, Tables.FOURS, "fours_too_few"),
        (2, Tables.MIXED, "too_few_players"),
    ],
)
def test_too_few_players_for_the_tables(players, kind, code):
    with pytest.raises(TournamentError) as raised:
        table_plan(players, kind)
    assert raised.value.code == code
    assert raised.value.params == {"players": players}


def test_a_round_at_tables_of_3_seats_the_rest_out_in_turn():
    history: list[Seating] = []
    for number in range(1, 5):
        drawn = seat_round(
            entrants(10),
            round=number,
            seed=number,
            method=Method.RATING if number == 1 else Method.MIXING,
            history=history,
            tables=Tables.THREES,
        )
        assert [t.size for t in drawn.tables] == [3, 3, 3]
        assert [b.reason for b in drawn.byes] == ["bye_threes"]
        assert check(drawn, active=range(1, 11), tables=Tables.THREES) == []
        history.append(drawn)
    sat_out = [b.player for s in history for b in s.byes]
    assert len(set(sat_out)) == 4
    mixed = check(history[0], active=range(1, 11))
    assert set(codes(mixed)) == {"table_sizes", "byes"}  # 10 mixed is 4 + 3 + 3, no bye


def test_one_round_beyond_the_affine_plane_costs_its_lower_bound():
    plan = schedule(entrants(16), rounds=max_rounds(16, 4) + 1, seed=2, tables=Tables.FOURS)
    figures = report(plan, range(1, 17))
    assert figures.lower_bound == 24
    assert figures.repeats >= 24
