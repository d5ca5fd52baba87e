"""Tournament scoring (competition.lib.tournament_scoring): no database, exact numbers."""

from __future__ import annotations

import dataclasses
import doctest
import re
from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.lib import tournament_scoring
from competition.lib.problems import MESSAGES, Problem, TournamentError
from competition.lib.standings import HalfBeyond, Result, Rule, tally
from competition.lib.tournament_scoring import (
    CAPS_50_100,
    CAPS_200_650,
    PLACE_POINTS,
    Caps,
    Method,
    Penalty,
    PlacePoints,
    ScoringRule,
    Stage,
    TableResult,
    TieBreak,
    TournamentStandings,
    Unit,
    bye_score,
    caps_problems,
    score_table,
    staged_standings,
    standings,
    team_standings,
)
from competition.tournament.messages import PROBLEMS, tournament_problem_text

PROPERTY = settings(max_examples=200, deadline=None)
NAMES = {1: "Anna", 2: "Boris", 3: "Vera", 4: "Gleb", 5: "Dana", 6: "Egor", 7: "Zoya"}
F = Fraction


def scores(rule: ScoringRule, *tables: tuple[int, dict[int, int]]):
    """Round scores of tables given as (round, {player: whists}), numbered in order."""
    return [
        one
        for number, (round_, whists) in enumerate(tables, start=1)
        for one in score_table(TableResult(round_, number, whists), rule)
    ]


def test_the_worked_examples_are_right():
    result = doctest.testmod(tournament_scoring)
    assert result.attempted > 0
    assert result.failed == 0


# --- caps -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("caps", "whists", "counted"),
    [
        (CAPS_200_650, 0, 0),
        (CAPS_200_650, 150, 150),
        (CAPS_200_650, 200, 200),
        (CAPS_200_650, 201, F(2001, 10)),
        (CAPS_200_650, 500, 230),
        (CAPS_200_650, 650, 245),
        (CAPS_200_650, 2000, 245),
        (CAPS_200_650, -500, -230),
        (CAPS_200_650, F(1001, 3), F(6401, 30)),
        (CAPS_50_100, 50, 50),
        (CAPS_50_100, 51, F(101, 2)),
        (CAPS_50_100, 100, 75),
        (CAPS_50_100, 101, F(751, 10)),
        (CAPS_50_100, 300, 95),
        (CAPS_50_100, -300, -95),
        (Caps(CAPS_50_100.steps, mirror=False), -300, -300),
        (Caps(CAPS_50_100.steps, mirror=False), 300, 95),
    ],
)
def test_caps_count_whists_along_the_scale(caps, whists, counted):
    assert caps(whists) == counted
    assert isinstance(caps(whists), Fraction)


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ([(0, 1), (200, F(1, 10)), (650, 0)], []),
        ([], [("caps_empty", {})]),
        ([(50, 1)], [("caps_first_not_zero", {})]),
        (
            [(0, 1), (100, F(1, 2)), (100, 0)],
            [("caps_not_increasing", {"before": 100, "after": 100})],
        ),
        (
            [(0, 1), (300, F(1, 2)), (200, 0)],
            [("caps_not_increasing", {"before": 300, "after": 200})],
        ),
        ([(0, 1), (100, -1)], [("caps_factor", {"factor": -1})]),
        ([(0, 2)], [("caps_factor", {"factor": 2})]),
    ],
)
def test_caps_breakpoints_must_increase_from_zero_with_factors_up_to_one(steps, expected):
    assert [(p.code, dict(p.params)) for p in caps_problems(steps)] == expected
    if expected:
        with pytest.raises(TournamentError) as caught:
            Caps(tuple(steps))
        assert caught.value.code == expected[0][0]


def test_a_caps_rule_without_its_scale_is_refused():
    with pytest.raises(TournamentError) as caught:
        ScoringRule(Method.CAPS)

    assert caught.value.code == "caps_missing"


def test_caps_serve_as_a_league_cap():
    rows = [Result(1, 300, 1, 3), Result(1, -700, 3, 3)]

    (anna,) = tally(rows, Rule(cap=CAPS_200_650))

    assert anna.total == 210 - 245


@pytest.mark.parametrize(
    "steps",
    [
        pytest.param(((0, 1), (200, F(1, 10)), (650, 0)), id="whole-numbers"),
        pytest.param([[0, 1], [200, F(1, 10)], [650, 0]], id="lists-as-stored"),
    ],
)
def test_caps_keep_their_steps_as_exact_fractions(steps):
    caps = Caps(steps)

    assert caps.steps == ((0, 1), (200, F(1, 10)), (650, 0))
    assert all(type(number) is Fraction for step in caps.steps for number in step)
    assert caps == CAPS_200_650


STEPS = st.lists(
    st.tuples(st.integers(1, 400), st.fractions(min_value=0, max_value=1, max_denominator=20)),
    max_size=5,
    unique_by=lambda step: step[0],
).map(lambda steps: ((0, F(1)), *sorted(steps)))


@PROPERTY
@given(steps=STEPS, a=st.fractions(-2000, 2000), b=st.fractions(-2000, 2000))
def test_caps_are_monotone_symmetric_and_never_count_more_than_played(steps, a, b):
    caps = Caps(steps)
    low, high = sorted((a, b))

    assert caps(low) <= caps(high)
    assert caps(-a) == -caps(a)
    assert abs(caps(a)) <= abs(a)


@PROPERTY
@given(steps=STEPS, whists=st.integers(0, 2000))
def test_caps_add_up_each_whist_at_its_steps_factor(steps, whists):
    caps = Caps(steps)
    ends = [start for start, _ in caps.steps[1:]] + [None]

    def factor_of(whist: int) -> Fraction:  # the whist from whist-1 to whist
        return next(
            f for (s, f), e in zip(caps.steps, ends, strict=True) if e is None or whist <= e
        )

    assert caps(whists) == sum((factor_of(w) for w in range(1, whists + 1)), F(0))


# --- place points -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("whists", "points"),
    [
        ({1: 90, 2: 10, 3: -30, 4: -70}, [4, 2, 1, 0]),
        ({1: 40, 2: 40, 3: -30, 4: -50}, [3, 3, 1, 0]),
        ({1: 40, 2: -10, 3: -10, 4: -20}, [4, F(3, 2), F(3, 2), 0]),
        ({1: 0, 2: 0, 3: 0, 4: 0}, [F(7, 4)] * 4),
        ({1: 120, 2: -40, 3: -80}, [4, 1, 0]),
        ({1: 120, 2: 40, 3: -160}, [3, 2, 0]),
        ({1: 120, 2: 0, 3: -120}, [4, 1, 0]),
        ({1: 50, 2: 50, 3: -100}, [F(5, 2), F(5, 2), 0]),
        ({1: 100, 2: -50, 3: -50}, [4, F(1, 2), F(1, 2)]),
        ({1: 0, 2: 0, 3: 0}, [F(4, 3)] * 3),
    ],
)
def test_place_points_by_table_size_with_ties_sharing(whists, points):
    assert list(PLACE_POINTS.points(whists).values()) == points


def test_place_points_are_editable_and_checked():
    flat = PlacePoints(
        four=(3, 2, 1, 0),
        three=(2, 1, 0),
        three_first_alone_in_plus=None,
        three_second_in_minus=None,
    )

    assert list(flat.points({1: 100, 2: -40, 3: -60}).values()) == [2, 1, 0]
    with pytest.raises(TournamentError) as caught:
        PlacePoints(four=(4, 2, 1))
    assert caught.value.params == {"size": 4}


@PROPERTY
@given(
    whists=st.lists(st.integers(-50, 50).map(lambda w: w * 10), min_size=3, max_size=4),
)
def test_tied_players_get_equal_points_and_the_table_shares_the_same_total(whists):
    table = dict(enumerate(whists, start=1))

    points = PLACE_POINTS.points(table)

    for a in table:
        for b in table:
            if table[a] == table[b]:
                assert points[a] == points[b]
            if table[a] > table[b]:
                assert points[a] > points[b]
    if len(table) == 4:
        assert sum(points.values()) == 7


# --- a round's score --------------------------------------------------------------------


def test_a_round_under_each_rule():
    table = TableResult(1, 3, {1: 400, 2: 50, 3: -150, 4: -300})

    plain = score_table(table, ScoringRule())
    capped = score_table(table, ScoringRule(Method.CAPS, caps=CAPS_200_650))
    placed = score_table(table, ScoringRule(Method.PLACES, caps=CAPS_50_100))

    assert [s.score for s in plain] == [400, 50, -150, -300]
    assert [s.score for s in capped] == [220, 50, -150, -210]
    assert [s.score for s in placed] == [4, 2, 1, 0]
    assert [s.adjusted for s in placed] == [105, 50, -80, -95]
    assert [s.place for s in plain] == [1, 2, 3, 4]
    assert plain[0].opponents == (2, 3, 4)


def test_the_floor_flags_a_round_for_the_judge_and_changes_nothing():
    rule = ScoringRule(floor=-1000)

    one = score_table(TableResult(1, 1, {1: 1500, 2: -1000, 3: -500}), rule)
    two = score_table(TableResult(2, 1, {1: 1500, 2: -1001, 3: -499}), rule)

    assert [s.flagged for s in one] == [False, False, False]
    assert [s.flagged for s in two] == [False, True, False]
    assert two[1].score == -1001


@pytest.mark.parametrize("size", [2, 5])
def test_a_table_of_another_size_is_refused(size):
    whists = dict.fromkeys(range(1, size + 1), 0)

    with pytest.raises(TournamentError) as caught:
        score_table(TableResult(1, 4, whists), ScoringRule())

    assert (caught.value.code, caught.value.params) == ("table_size", {"table": 4, "size": size})


def test_a_bye_counts_what_the_rule_says_and_wins_no_table():
    rule = ScoringRule(Method.PLACES, bye=2)
    rounds = [
        *scores(rule, (1, {1: 50, 2: 20, 3: -30, 4: -40})),
        bye_score(1, 5, rule),
    ]

    result = standings(rounds, rule=rule, names=NAMES)

    dana = next(line for line in result.lines if line.player == 5)
    assert (dana.score, dana.points, dana.table_wins, dana.rounds[1].table) == (2, 2, 0, None)


# --- standings --------------------------------------------------------------------------


def ranked(result) -> list[tuple[str, int]]:
    return [(NAMES[line.player], line.place) for line in result.lines]


@pytest.mark.parametrize(
    ("tie_breaks", "expected"),
    [
        pytest.param(
            (TieBreak.ADJUSTED_WHISTS,),
            [("Anna", 1), ("Boris", 2), ("Vera", 3), ("Gleb", 4)],
            id="adjusted-whists",
        ),
        pytest.param(
            (TieBreak.TABLE_WINS,),
            [("Boris", 1), ("Anna", 2), ("Vera", 3), ("Gleb", 4)],
            id="table-wins",
        ),
        pytest.param(
            (TieBreak.BEST_ROUND, TieBreak.ADJUSTED_WHISTS),
            [("Anna", 1), ("Boris", 2), ("Vera", 3), ("Gleb", 4)],
            id="best-round-equal-then-whists",
        ),
        pytest.param(
            (),
            [("Anna", 1), ("Boris", 1), ("Vera", 3), ("Gleb", 4)],
            id="no-tie-break-shares-the-place",
        ),
    ],
)
def test_tie_breaks_in_the_chosen_order(tie_breaks, expected):
    rule = ScoringRule(Method.PLACES)
    rounds = scores(
        rule,
        (1, {1: 500, 3: 0, 4: -100, 2: -400}),  # Anna 4, Vera 2, Gleb 1, Boris 0
        (2, {2: 30, 1: 20, 3: -20, 4: -30}),  # Boris 4, Anna 2, Vera 1, Gleb 0
        (3, {2: 30, 1: 20, 3: -20, 4: -30}),  # the same
    )

    result = standings(rounds, rule=rule, names=NAMES, tie_breaks=tie_breaks)

    lines = {NAMES[line.player]: line for line in result.lines}
    assert lines["Anna"].score == lines["Boris"].score == 8
    assert (lines["Anna"].table_wins, lines["Boris"].table_wins) == (1, 2)
    assert (lines["Anna"].adjusted, lines["Boris"].adjusted) == (540, -340)
    assert ranked(result) == expected


def test_opponents_total_ranks_who_met_the_stronger_field():
    rule = ScoringRule()
    rounds = scores(
        rule,
        (1, {1: 100, 2: 50, 3: -150}),
        (1, {4: 100, 5: -40, 6: -60}),
        (2, {1: 0, 2: 0, 5: 0}),  # Anna meets Boris again; Gleb meets Vera
        (2, {4: 0, 3: 0, 6: 0}),
    )

    result = standings(rounds, rule=rule, names=NAMES, tie_breaks=(TieBreak.OPPONENTS_TOTAL,))

    assert ranked(result)[:2] == [("Anna", 1), ("Gleb", 2)]
    assert [line.opponents_total for line in result.lines][:2] == [50 - 150 + 50 - 40, -310]


def test_the_lot_separates_full_ties_and_is_printed_with_its_seed():
    rule = ScoringRule()
    rounds = scores(rule, (1, {1: 50, 2: 50, 3: -100}))

    one = standings(rounds, rule=rule, names=NAMES, lot_seed=99)
    again = standings(rounds, rule=rule, names=NAMES, lot_seed=99)

    assert one == again
    assert one.lot_seed == 99
    assert sorted(one.lot_order) == [1, 2, 3]
    assert [line.place for line in one.lines] == [1, 2, 3]
    first, second = one.lines[0], one.lines[1]
    assert first.lot < second.lot


def test_penalties_take_whists_or_points_away_and_are_listed():
    rule = ScoringRule(Method.PLACES)
    rounds = scores(rule, (1, {1: 90, 2: 10, 3: -30, 4: -70}))
    late = Penalty(1, 1, 3, Unit.POINTS, "late for the round")
    noise = Penalty(2, 1, 20, Unit.WHISTS, "talking at the table")

    result = standings(rounds, rule=rule, names=NAMES, penalties=[late, noise])

    by_name = {NAMES[line.player]: line for line in result.lines}
    assert (by_name["Anna"].score, by_name["Anna"].points) == (1, 1)
    assert by_name["Anna"].penalties == (late,)
    assert (by_name["Boris"].score, by_name["Boris"].adjusted) == (2, -10)
    assert ranked(result)[0] == ("Boris", 1)


@pytest.mark.parametrize("method", [Method.WHISTS, Method.PLACES])
def test_penalties_given_as_a_generator_are_all_taken_and_listed(method):
    rule = ScoringRule(method)
    rounds = scores(rule, (1, {1: 90, 2: 10, 3: -100}))
    given = [Penalty(1, 1, 1, Unit.WHISTS, "late"), Penalty(2, 1, 2, Unit.WHISTS, "noise")]

    result = standings(rounds, rule=rule, names=NAMES, penalties=(p for p in given))

    by_player = {line.player: line for line in result.lines}
    assert [by_player[p.player].penalties for p in given] == [(p,) for p in given]
    assert (by_player[1].adjusted, by_player[2].adjusted) == (89, 8)


def test_a_points_penalty_under_a_whists_rule_is_refused():
    rounds = scores(ScoringRule(), (1, {1: 90, 2: 10, 3: -100}))

    late = Penalty(1, 1, 1, Unit.POINTS, "late")
    with pytest.raises(TournamentError) as caught:
        standings(rounds, rule=ScoringRule(), names=NAMES, penalties=[late])

    assert caught.value.code == "penalty_unit"


def test_a_late_entry_and_a_withdrawn_player_keep_the_rounds_they_played():
    rule = ScoringRule()
    rounds = scores(
        rule,
        (1, {1: 30, 2: 20, 3: -50}),
        (2, {1: 10, 2: 0, 4: -10}),  # Vera withdrew, Gleb entered late
    )

    result = standings(rounds, rule=rule, names=NAMES)

    by_name = {NAMES[line.player]: line for line in result.lines}
    assert sorted(by_name["Vera"].rounds) == [1]
    assert sorted(by_name["Gleb"].rounds) == [2]
    assert by_name["Anna"].score == 40


def test_standings_keep_exact_fractions():
    rule = ScoringRule(Method.CAPS, caps=CAPS_50_100)
    third = F(1, 3)
    rounds = scores(rule, (1, {1: 60 + third, 2: -third, 3: -60}))

    result = standings(rounds, rule=rule, names=NAMES)

    assert result.lines[0].score == 50 + (10 + third) / 2
    assert result.lines[0].whists == 60 + third


# --- stages and teams -------------------------------------------------------------------


def test_a_final_with_totals_reset_ranks_the_finalists_by_the_final_only():
    rule = ScoringRule()
    rounds = scores(
        rule,
        (1, {1: 300, 2: 100, 3: -400}),
        (1, {4: 50, 5: 0, 6: -30, 7: -20}),
        (2, {1: -50, 2: 40, 4: 10}),
    )

    kept = staged_standings(rounds, stage=Stage(1, 3), rule=rule, names=NAMES)
    reset_stage = Stage(1, 3, keep_totals=False)
    reset = staged_standings(rounds, stage=reset_stage, rule=rule, names=NAMES)

    assert ranked(kept)[:3] == [("Anna", 1), ("Boris", 2), ("Gleb", 3)]
    assert ranked(reset)[:3] == [("Boris", 1), ("Gleb", 2), ("Anna", 3)]
    assert [line.finalist for line in reset.lines] == [True] * 3 + [False] * 4
    assert ranked(reset)[3:] == [("Dana", 4), ("Zoya", 5), ("Egor", 6), ("Vera", 7)]
    assert ranked(reset)[3:] == ranked(kept)[3:]


def test_a_final_needs_three_players():
    with pytest.raises(TournamentError) as caught:
        Stage(2, 2)

    assert caught.value.params == {"top": 2}


def test_a_teams_round_is_the_sum_of_its_best_members():
    rule = ScoringRule()
    rounds = scores(
        rule,
        (1, {1: 100, 4: -20, 2: -30, 5: -50}),
        (1, {3: 40, 6: 0, 7: -40}),
        (2, {1: -100, 4: 60, 2: 20, 6: 20}),
        (2, {3: 10, 5: 0, 7: -10}),
    )
    teams = {"Aces": [1, 2, 3], "Kings": [4, 5, 6]}

    lines = team_standings(rounds, teams=teams, best=2)

    assert [(line.team, line.place, line.total) for line in lines] == [
        ("Aces", 1, 170),
        ("Kings", 2, 60),
    ]
    assert lines[0].rounds == {1: 100 + 40, 2: 20 + 10}
    assert lines[1].rounds == {1: 0 - 20, 2: 60 + 20}


@pytest.mark.parametrize("best", [0, 6])
def test_a_teams_best_count_is_one_to_five(best):
    with pytest.raises(TournamentError) as caught:
        team_standings([], teams={}, best=best)

    assert caught.value.code == "team_best"


def test_a_judges_penalty_in_the_cut_round_counts_there_and_not_in_a_reset_final():
    rule = ScoringRule()
    rounds = scores(
        rule,
        (1, {1: 300, 2: 100, 3: -400}),
        (1, {4: 50, 5: 0, 6: -30, 7: -20}),
        (2, {1: -50, 2: 40, 4: 10}),
    )
    noise = Penalty(2, 1, 20, Unit.WHISTS, "talking at the table")  # Boris, a finalist
    late = Penalty(5, 1, 10, Unit.WHISTS, "late for the round")  # Dana, out at the cut
    penalties = [noise, late]

    def lines(stage: Stage) -> dict[str, tuple]:
        result = staged_standings(rounds, stage=stage, rule=rule, names=NAMES, penalties=penalties)
        return {
            NAMES[line.player]: (line.finalist, line.score, line.penalties)
            for line in result.lines
            if line.player in (2, 5)
        }

    assert lines(Stage(1, 3, keep_totals=False)) == {
        "Boris": (True, 40, ()),
        "Dana": (False, -10, (late,)),
    }
    assert lines(Stage(1, 3)) == {
        "Boris": (True, 100 - 20 + 40, (noise,)),
        "Dana": (False, -10, (late,)),
    }


def test_with_totals_reset_a_finalist_yet_to_play_waits_after_those_who_played():
    rule = ScoringRule()
    cut = scores(rule, (1, {1: 300, 2: 100, 3: -400}), (1, {4: 50, 5: 0, 6: -30, 7: -20}))
    final = scores(rule, (2, {1: -50, 2: 40, 4: 10}))  # Dana has not played her final yet
    stage = Stage(1, 4, keep_totals=False)

    started = staged_standings(cut + final, stage=stage, rule=rule, names=NAMES)
    not_yet = staged_standings(cut, stage=stage, rule=rule, names=NAMES)

    assert [(NAMES[line.player], line.place, line.finalist) for line in started.lines][:5] == [
        ("Boris", 1, True),
        ("Gleb", 2, True),
        ("Anna", 3, True),
        ("Dana", 4, True),
        ("Zoya", 5, False),
    ]
    assert [(NAMES[line.player], line.place) for line in not_yet.lines][:5] == [
        ("Anna", 1),
        ("Boris", 1),
        ("Gleb", 1),
        ("Dana", 1),
        ("Zoya", 5),
    ]


def test_a_team_yet_to_play_is_listed_with_nothing_counted():
    rounds = scores(ScoringRule(), (1, {1: 30, 2: -10, 4: -20}))
    teams = {"Aces": [1, 2], "Kings": [4], "Queens": [6, 7]}  # 6 and 7 have not played

    lines = team_standings(rounds, teams=teams, best=2)

    assert [(line.team, line.place, line.total, line.rounds) for line in lines] == [
        ("Aces", 1, 20, {1: 20}),
        ("Queens", 2, 0, {}),
        ("Kings", 3, -20, {1: -20}),
    ]
    before_round_one = team_standings([], teams=teams, best=2)
    assert [(line.team, line.place) for line in before_round_one] == [
        ("Aces", 1),
        ("Kings", 1),
        ("Queens", 1),
    ]


def _values():
    rule = ScoringRule(Method.PLACES)
    rounds = scores(rule, (1, {1: 50, 2: 20, 3: -30, 4: -40}))
    result = standings(rounds, rule=rule, names=NAMES)
    (team,) = team_standings(rounds, teams={"Aces": [1, 2, 3]}, best=2)
    return [
        pytest.param(rule, "bye", id="rule"),
        pytest.param(CAPS_50_100, "mirror", id="caps"),
        pytest.param(PLACE_POINTS, "four", id="place-points"),
        pytest.param(TableResult(1, 1, {1: 0, 2: 0, 3: 0}), "round", id="table"),
        pytest.param(rounds[0], "score", id="round-score"),
        pytest.param(Penalty(1, 1, 5, Unit.WHISTS, "late"), "amount", id="penalty"),
        pytest.param(result, "lot_seed", id="standings"),
        pytest.param(TournamentStandings((), (), None), "lines", id="empty-standings"),
        pytest.param(result.lines[0], "place", id="line"),
        pytest.param(Stage(2, 4), "top", id="stage"),
        pytest.param(team, "total", id="team-line"),
    ]


@pytest.mark.parametrize(("value", "name"), _values())
def test_rules_and_results_cannot_be_changed_once_made(value, name):
    # Rules are read once per page and standings are cached: nobody may alter them in place.
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, name, None)


# --- the problems' texts ----------------------------------------------------------------


PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_problem_code_has_one_translated_entry_with_the_same_placeholders():
    assert set(PROBLEMS) == set(MESSAGES)
    with translation.override("en"):
        for code, english in MESSAGES.items():
            assert set(PLACEHOLDER.findall(str(PROBLEMS[code]))) == set(
                PLACEHOLDER.findall(english)
            )


def test_a_problem_is_shown_with_names_in_place_of_ids():
    problem = Problem("player_withdrawn", {"player": 7, "table": 3})

    with translation.override("en"):
        text = tournament_problem_text(problem.with_params(player="Zoya"))

    assert text == "Zoya has withdrawn but sits at table 3"


def test_league_cap_and_tournament_caps_agree_where_they_should():
    half = HalfBeyond(100)
    as_caps = Caps(((0, 1), (100, F(1, 2))))

    for whists in (-500, -101, -100, 0, 37, 100, 101, 999):
        assert as_caps(whists) == half(whists)
