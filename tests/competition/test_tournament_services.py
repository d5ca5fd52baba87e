"""The tournament services from entries to the last confirmed round, against the engine.

Every flow plays its tables with random valid deals (competition.demo.next_valid_deal)
through the ordinary scoring services, then checks the standings against an independent
computation: each table's pulka replayed by scoring.engine.compute_sheet, its settlement fed
to competition.lib.tournament_scoring directly (`expected`).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Player, Role
from competition.demo import next_valid_deal
from competition.lib import seating
from competition.lib import tournament_scoring as ts
from competition.models import (
    Entry,
    EntryStatus,
    Penalty,
    Round,
    RoundState,
    RoundTable,
    Scoring,
    SeatingMethod,
    Tournament,
)
from competition.tournament import selectors as sel
from competition.tournament import services as svc
from scoring import engine
from scoring import services as scoring
from scoring.models import Deal, DealRevision, Evening, Pulka, PulkaStatus, Seat
from tests.competition.factories import (
    CAPS,
    RULES,
    end_all,
    make_tournament,
    names_for,
    play,
    play_round,
    play_table,
    published,
    table_whists,
)
from tests.conftest import make_club, make_member

pytestmark = pytest.mark.django_db

# --- helpers --------------------------------------------------------------------------------


def tournament(club=None, players: int = 10, **overrides) -> Tournament:
    """A cup of `players` (P01, P02, ...), Sochi to 10, caps 200/650, 3 rounds of 6 deals."""
    fields = {"name": "Cup", "rules": RULES, "deal_cap": 6, **overrides}
    return make_tournament(club, names_for(players), **fields)


def ids(t: Tournament) -> dict[str, int]:
    return {name: player for player, name in sel.names(t).items()}


def zero_scores(number: int, table: int, players: list[int]) -> list[ts.RoundScore]:
    zero = Fraction(0)
    return [
        ts.RoundScore(
            p,
            number,
            table,
            zero,
            zero,
            zero,
            None,
            zero,
            opponents=tuple(o for o in players if o != p),
        )
        for p in players
    ]


def expected_scores(t: Tournament, rule: ts.ScoringRule) -> list[ts.RoundScore]:
    scores = []
    for r in Round.objects.filter(tournament=t, state=RoundState.CONFIRMED).order_by("number"):
        for table in RoundTable.objects.filter(round=r).select_related("pulka").order_by("number"):
            whists = table_whists(table)
            if whists is None:
                players = list(
                    Seat.objects.filter(pulka=table.pulka)
                    .order_by("position")
                    .values_list("player_id", flat=True)
                )
                scores += zero_scores(r.number, table.number, players)
            else:
                scores += ts.score_table(ts.TableResult(r.number, table.number, whists), rule)
        scores += [ts.bye_score(r.number, bye["player"], rule) for bye in r.seating["byes"]]
    return scores


def expected(
    t: Tournament,
    rule: ts.ScoringRule,
    *,
    tie_breaks=ts.DEFAULT_TIE_BREAKS,
    stage: ts.Stage | None = None,
) -> ts.TournamentStandings:
    penalties = [
        ts.Penalty(p.player_id, p.round, p.amount, ts.Unit(p.unit), p.reason)
        for p in Penalty.objects.filter(tournament=t).order_by("created_at", "pk")
    ]
    settings = {
        "rule": rule,
        "names": sel.names(t),
        "tie_breaks": tie_breaks,
        "penalties": penalties,
        "lot_seed": seating.round_seed(t.seed, 0) if t.lot else None,
    }
    if stage is not None:
        return ts.staged_standings(expected_scores(t, rule), stage=stage, **settings)
    return ts.standings(expected_scores(t, rule), **settings)


def lines(table: ts.TournamentStandings) -> list[tuple]:
    return [
        (
            line.player,
            line.place,
            line.score,
            line.adjusted,
            line.points,
            line.whists,
            line.table_wins,
            line.flagged,
            line.finalist,
            {n: (s.table, s.score) for n, s in line.rounds.items()},
        )
        for line in table.lines
    ]


CAPS_RULE = ts.ScoringRule(ts.Method.CAPS, caps=ts.CAPS_200_650)


def seated(r: Round) -> Counter:
    counts = Counter(p for table in r.seating["tables"] for p in table["seats"])
    counts.update(bye["player"] for bye in r.seating["byes"])
    return counts


def pulka_players(r: Round) -> dict[int, list[int]]:
    return {
        table.number: list(
            Seat.objects.filter(pulka=table.pulka)
            .order_by("position")
            .values_list("player_id", flat=True)
        )
        for table in RoundTable.objects.filter(round=r).select_related("pulka")
    }


# --- whole tournaments ----------------------------------------------------------------------


def test_ten_players_play_three_rounds_seated_swiss_after_the_first():
    t = tournament(players=10, round_count=3, seating=SeatingMethod.SWISS)

    first = play_round(t)
    assert first.method == "rating"
    assert sorted(len(table["seats"]) for table in first.seating["tables"]) == [3, 3, 4]
    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))

    order = [line.player for line in sel.standings(t).lines]
    second = svc.round_draft(tournament=t)
    assert second.method == "swiss"
    rank = {player: k for k, player in enumerate(order)}
    averages = [
        sum(rank[p] for p in table["seats"]) / len(table["seats"])
        for table in sorted(second.seating["tables"], key=lambda table: table["number"])
    ]
    assert averages == sorted(averages)  # table 1 holds the leaders
    svc.round_publish(round=second, by=None)
    second = svc.round_start(round=second)
    play(second)
    end_all(second)
    svc.round_confirm(round=second, by=None)
    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))

    third = play_round(t)
    t.refresh_from_db()
    assert third.state == RoundState.CONFIRMED
    assert t.finished_at is not None
    table = sel.standings(t)
    assert lines(table) == lines(expected(t, CAPS_RULE))
    assert [line.place for line in table.lines] == list(range(1, 11))  # the lot parts ties
    assert all(len(line.rounds) == 3 for line in table.lines)
    with pytest.raises(svc.TournamentServiceError, match="All 3 rounds are drawn"):
        svc.round_draft(tournament=t)


def test_five_players_sit_out_in_turn_and_the_bye_counts_its_score():
    t = tournament(players=5, round_count=5, scoring=Scoring.WHISTS, caps=[], bye_score=30)
    rule = ts.ScoringRule(ts.Method.WHISTS, bye=30)

    out = []
    for _ in range(5):
        r = play_round(t)
        assert [len(table["seats"]) for table in r.seating["tables"]] == [4]
        (bye,) = r.seating["byes"]
        assert bye["reason"] == seating.BYE_FIVE_PLAYERS
        assert not Seat.objects.filter(pulka__tournament_table__round=r, player_id=bye["player"])
        out.append(bye["player"])

    assert sorted(out) == sorted(sel.names(t))  # each sits out once
    table = sel.standings(t)
    assert lines(table) == lines(expected(t, rule))
    for line in table.lines:
        (sat_out,) = [s for s in line.rounds.values() if s.table is None]
        assert sat_out.score == 30
    assert (
        "sits out each round in turn"
        in sel.problem_texts([seating.Problem(seating.BYE_FIVE_PLAYERS, {})], {})[0]
    )


@pytest.mark.parametrize(
    ("players", "sizes"), [(8, [4, 4]), (9, [3, 3, 3]), (11, [4, 4, 3]), (12, [4, 4, 4])]
)
def test_every_player_is_seated_once_at_tables_of_four_and_three(players, sizes):
    t = tournament(players=players, round_count=2)

    for _ in range(2):
        r = play_round(t, deals=2)
        assert sorted((len(x["seats"]) for x in r.seating["tables"]), reverse=True) == sizes
        assert set(seated(r).values()) == {1}
        assert len(seated(r)) == players
        assert not r.seating["byes"]
        by_pulka = pulka_players(r)
        assert sorted(map(len, by_pulka.values()), reverse=True) == sizes
        assert by_pulka == {x["number"]: x["seats"] for x in r.seating["tables"]}

    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))


def test_a_schedule_published_in_advance_is_the_one_played():
    t = tournament(players=16, round_count=3, seating=SeatingMethod.SCHEDULE)
    planned = seating.schedule(sel.entrants(t, 1), rounds=3, seed=t.seed)
    assert sel.planned_rounds(t) == planned

    played = []
    for k in range(3):
        assert [x.tables for x in sel.planned_rounds(t)] == [x.tables for x in planned[k:]]
        r = play_round(t, deals=1)
        assert sel.seating_of(r).tables == planned[k].tables
        assert r.seed == planned[k].seed == seating.round_seed(t.seed, k + 1)
        played.append(sel.seating_of(r))

    assert [s.method.value for s in played] == ["rating", "mixing", "mixing"]
    assert seating.repeated_meetings(played) == 0
    assert sel.planned_rounds(t) == ()


def test_mixing_seats_sixteen_players_three_rounds_without_a_repeat():
    t = tournament(players=16, round_count=3, seating=SeatingMethod.MIXING)

    for _ in range(3):
        play_round(t, deals=1)

    history = sel.history(t, 4)
    assert [s.method.value for s in history] == ["rating", "mixing", "mixing"]
    assert seating.repeated_meetings(history) == 0


# --- changes mid-event ----------------------------------------------------------------------


def test_a_late_entry_plays_from_the_next_round_and_a_draft_drawn_before_fails_its_check():
    t = tournament(players=10, round_count=3)
    play_round(t, deals=1)
    draft = svc.round_draft(tournament=t)

    (late,) = svc.entries_add(tournament=t, names=["Zoya"])

    assert late.first_round == 2
    assert svc.draft_problems(draft) == [
        "Zoya has no seat",
        "11 players sit at tables of 4 + 4 + 3, not 4 + 3 + 3.",
    ]
    with pytest.raises(svc.TournamentServiceError, match="Zoya has no seat"):
        svc.round_publish(round=draft, by=None)
    assert not Round.objects.get(pk=draft.pk).evening
    draft = svc.draft_redraw(round=draft)
    assert svc.draft_problems(draft) == []
    assert late.player_id in seated(draft)
    svc.round_publish(round=draft, by=None)
    end_all(draft)
    svc.round_confirm(round=draft, by=None)
    line = next(x for x in sel.standings(t).lines if x.player == late.player_id)
    assert list(line.rounds) == [2]
    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))


def test_a_withdrawn_player_keeps_his_rounds_and_blocks_a_draft_that_seats_him():
    t = tournament(players=11, round_count=3)
    play_round(t, deals=2)
    draft = svc.round_draft(tournament=t)
    who = ids(t)["P03"]
    entry = Entry.objects.get(tournament=t, player_id=who)

    svc.entry_withdraw(entry=entry)

    entry.refresh_from_db()
    assert (entry.status, entry.last_round) == (EntryStatus.WITHDRAWN, 1)
    problems = svc.draft_problems(draft)
    assert any(text.startswith("P03 has withdrawn but sits at table") for text in problems)
    with pytest.raises(svc.TournamentServiceError, match="P03 has withdrawn"):
        svc.round_publish(round=draft, by=None)
    with pytest.raises(svc.TournamentServiceError, match="already withdrawn"):
        svc.entry_withdraw(entry=entry)
    draft = svc.draft_redraw(round=draft)
    assert who not in seated(draft)
    assert svc.draft_problems(draft) == []  # 10 players: 4 + 3 + 3
    svc.round_publish(round=draft, by=None)
    end_all(draft)
    svc.round_confirm(round=draft, by=None)
    assert who not in seated(svc.round_draft(tournament=t))
    line = next(x for x in sel.standings(t).lines if x.player == who)
    assert list(line.rounds) == [1]


def test_a_withdrawn_player_can_be_swapped_out_of_a_draft_by_a_late_entry():
    t = tournament(players=10, round_count=3)
    play_round(t, deals=1)
    draft = svc.round_draft(tournament=t)
    gone = ids(t)["P04"]
    svc.entry_withdraw(entry=Entry.objects.get(tournament=t, player_id=gone))
    (late,) = svc.entries_add(tournament=t, names=["Zoya"])
    table = next(x for x in draft.seating["tables"] if gone in x["seats"])

    draft = svc.draft_swap(round=draft, first=gone, second=late.player_id)

    assert svc.draft_problems(draft) == []
    new_table = next(x for x in draft.seating["tables"] if x["number"] == table["number"])
    assert new_table["seats"] == [late.player_id if p == gone else p for p in table["seats"]]
    stranger = Player.objects.create(club=t.club, name="Stranger")
    with pytest.raises(svc.TournamentServiceError, match="Choose a player of this tournament"):
        svc.draft_swap(round=draft, first=stranger.pk, second=late.player_id)
    with pytest.raises(svc.TournamentServiceError, match="P04 is not due to play this round"):
        svc.draft_swap(round=draft, first=gone, second=late.player_id)
    assert svc.draft_problems(Round.objects.get(pk=draft.pk)) == []


def test_a_substitute_takes_the_seat_at_a_published_table_that_has_not_started():
    t = tournament(players=10, round_count=2)
    for name in names_for(10):
        Entry.objects.filter(tournament=t, player__name=name).update(
            team="Aces" if name < "P04" else ""
        )
    r = svc.round_publish(round=svc.round_draft(tournament=t), by=None)
    who = ids(t)["P02"]
    entry = Entry.objects.get(tournament=t, player_id=who)
    number = next(x["number"] for x in r.seating["tables"] if who in x["seats"])

    sub = svc.entry_substitute(entry=entry, name="Sasha")

    sub.refresh_from_db()
    entry.refresh_from_db()
    assert (sub.team, sub.first_round, sub.substitute_for) == ("Aces", 1, entry)
    assert (entry.status, entry.last_round) == (EntryStatus.WITHDRAWN, 0)
    r.refresh_from_db()
    assert sub.player_id in pulka_players(r)[number]
    assert who not in seated(r)
    pulka = RoundTable.objects.get(round=r, number=number).pulka
    assert "Sasha" in pulka.names
    assert "P02" not in pulka.names
    play(r)
    end_all(r)
    svc.round_confirm(round=r, by=None)
    table = sel.standings(t)
    assert {line.player for line in table.lines} == set(seated(r))  # his own line
    assert who not in {line.player for line in table.lines}
    assert lines(table) == lines(expected(t, CAPS_RULE))
    teams = {e.player_id: e.team for e in sel.entries(t)}
    assert teams[sub.player_id] == "Aces"


def test_a_substitute_is_refused_at_a_table_that_has_started():
    t = tournament(players=9, round_count=2)
    r = svc.round_start(round=svc.round_publish(round=svc.round_draft(tournament=t), by=None))
    who = ids(t)["P05"]
    number = next(x["number"] for x in r.seating["tables"] if who in x["seats"])
    play_table(RoundTable.objects.get(round=r, number=number).pulka, deals=1)
    entry = Entry.objects.get(tournament=t, player_id=who)

    with pytest.raises(svc.TournamentServiceError, match="P05's table has started"):
        svc.entry_substitute(entry=entry, name="Sasha")

    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE
    assert not Entry.objects.filter(tournament=t, player__name="Sasha").exists()
    assert not Player.objects.filter(club=t.club, name="Sasha").exists()


def test_a_substitute_after_the_round_plays_from_the_next_and_takes_the_seat_in_its_draft():
    t = tournament(players=10, round_count=3)
    play_round(t, deals=1)
    draft = svc.round_draft(tournament=t)
    who = ids(t)["P07"]
    entry = Entry.objects.get(tournament=t, player_id=who)
    svc.entry_withdraw(entry=entry)

    sub = svc.entry_substitute(entry=entry, name="Sasha")

    entry.refresh_from_db()
    assert (entry.last_round, sub.first_round) == (1, 2)
    draft.refresh_from_db()
    assert sub.player_id in seated(draft)
    assert who not in seated(draft)
    assert svc.draft_problems(draft) == []


def test_a_restored_player_is_seated_again_from_the_next_round():
    t = tournament(players=10, round_count=3)
    who = ids(t)["P01"]
    entry = Entry.objects.get(tournament=t, player_id=who)
    play_round(t, deals=1)
    svc.entry_withdraw(entry=entry)
    svc.entries_add(tournament=t, names=["Zoya"])  # ten still play round 2
    second = play_round(t, deals=1)
    assert who not in seated(second)

    svc.entry_restore(entry=entry)

    entry.refresh_from_db()
    assert (entry.status, entry.last_round, entry.first_round) == (EntryStatus.ACTIVE, None, 1)
    with pytest.raises(svc.TournamentServiceError, match="already playing"):
        svc.entry_restore(entry=entry)
    third = svc.round_draft(tournament=t)
    assert who in seated(third)
    assert svc.draft_problems(third) == []
    line = next(x for x in sel.standings(t).lines if x.player == who)
    assert list(line.rounds) == [1]


# --- the draft ------------------------------------------------------------------------------


def test_swapping_two_players_of_a_draft_exchanges_their_seats():
    t = tournament(players=10)
    draft = svc.round_draft(tournament=t)
    one, two = draft.seating["tables"][0], draft.seating["tables"][1]
    a, b = one["seats"][1], two["seats"][2]

    draft = svc.draft_swap(round=draft, first=a, second=b)

    tables = {x["number"]: x["seats"] for x in draft.seating["tables"]}
    assert tables[one["number"]][1] == b
    assert tables[two["number"]][2] == a
    assert svc.draft_problems(draft) == []
    with pytest.raises(svc.TournamentServiceError, match="two different players"):
        svc.draft_swap(round=draft, first=a, second=a)


def test_with_five_players_the_one_sitting_out_can_be_swapped_in():
    t = tournament(players=5, round_count=2)
    draft = svc.round_draft(tournament=t)
    (bye,) = draft.seating["byes"]
    (table,) = draft.seating["tables"]
    dealer = table["first_dealer"]

    draft = svc.draft_swap(round=draft, first=bye["player"], second=dealer)

    (table,) = draft.seating["tables"]
    assert bye["player"] in table["seats"]
    assert table["first_dealer"] == bye["player"]
    assert draft.seating["byes"] == [{"player": dealer, "reason": seating.BYE_FIVE_PLAYERS}]
    assert svc.draft_problems(draft) == []


def test_a_redraw_keeps_the_locked_tables_and_draws_the_rest_with_a_new_seed():
    t = tournament(players=12)
    draft = svc.round_draft(tournament=t)
    kept = next(x for x in draft.seating["tables"] if x["number"] == 2)
    draft = svc.draft_lock(round=draft, table=2, lock=True)
    kept = {**kept, "locked": True}
    with pytest.raises(svc.TournamentServiceError, match="locked table 2: unlock it first"):
        svc.draft_swap(
            round=draft, first=kept["seats"][0], second=draft.seating["tables"][0]["seats"][0]
        )

    seeds = set()
    for _ in range(3):
        old = draft.seed
        draft = svc.draft_redraw(round=draft)
        assert draft.seed != old
        seeds.add(draft.seed)
        again = next(x for x in draft.seating["tables"] if x["number"] == 2)
        assert again == kept
        assert svc.draft_problems(draft) == []
    with pytest.raises(svc.TournamentServiceError, match="no table 9"):
        svc.draft_lock(round=draft, table=9, lock=True)


def test_a_redraw_with_every_table_locked_is_refused_and_changes_nothing():
    t = tournament(players=10)
    draft = svc.round_draft(tournament=t)
    for table in (1, 2, 3):
        draft = svc.draft_lock(round=draft, table=table, lock=True)
    before = (draft.seed, draft.seating)

    with pytest.raises(svc.TournamentServiceError, match="Every table is locked"):
        svc.draft_redraw(round=draft)

    draft.refresh_from_db()
    assert (draft.seed, draft.seating) == before
    draft = svc.draft_lock(round=draft, table=3, lock=False)
    assert svc.draft_redraw(round=draft).seed != before[0]


def test_a_discarded_draft_is_gone_and_the_round_is_drawn_again():
    t = tournament(players=10)
    draft = svc.round_draft(tournament=t)

    svc.draft_discard(round=draft)

    assert not Round.objects.filter(tournament=t).exists()
    again = svc.round_draft(tournament=t)
    assert again.number == 1
    assert again.seating == draft.seating  # the round's own seed: reproducible
    svc.round_publish(round=again, by=None)
    with pytest.raises(svc.TournamentServiceError, match="already published"):
        svc.draft_discard(round=again)


def test_publishing_makes_an_evening_and_a_pulka_per_table_seated_as_drawn():
    t = tournament(players=11, deal_cap=7, counted=False)
    draft = svc.round_draft(tournament=t)

    r = svc.round_publish(round=draft, by=None)

    assert r.state == RoundState.PUBLISHED
    assert r.published_at is not None
    evening = r.evening
    assert evening.club == t.club
    assert evening.counted is False
    assert evening.notes == "Cup, round 1"
    tables = RoundTable.objects.filter(round=r).select_related("pulka").order_by("number")
    assert [x.number for x in tables] == [x["number"] for x in r.seating["tables"]]
    for table, drawn in zip(tables, r.seating["tables"], strict=True):
        pulka = table.pulka
        assert pulka.evening == evening
        assert pulka.table == drawn["number"]
        assert pulka.deal_cap == 7
        assert pulka.rules == RULES
        players = list(
            Seat.objects.filter(pulka=pulka)
            .order_by("position")
            .values_list("player_id", flat=True)
        )
        assert players == drawn["seats"]
        assert players[pulka.first_dealer] == drawn["first_dealer"]
    with pytest.raises(svc.TournamentServiceError, match="Round 1 is already published"):
        svc.round_publish(round=draft, by=None)
    assert Evening.objects.filter(club=t.club).count() == 1
    counted = tournament(club=t.club, players=10, name="Open", counted=True)
    assert svc.round_publish(round=svc.round_draft(tournament=counted), by=None).evening.counted


# --- a published round ----------------------------------------------------------------------


def test_a_reseat_exchanges_players_at_tables_that_have_not_started():
    t = tournament(players=10)
    r = svc.round_start(round=svc.round_publish(round=svc.round_draft(tournament=t), by=None))
    one, two, three = sorted(r.seating["tables"], key=lambda x: x["number"])
    a, b = one["seats"][0], two["seats"][1]
    version = RoundTable.objects.get(round=r, number=one["number"]).pulka.version

    r = svc.round_reseat(round=r, first=a, second=b)

    players = pulka_players(r)
    assert players[one["number"]][0] == b
    assert players[two["number"]][1] == a
    assert players == {x["number"]: x["seats"] for x in r.seating["tables"]}
    assert RoundTable.objects.get(round=r, number=one["number"]).pulka.version == version + 1
    # Within one table: the seats change order (no player sits twice, even for a moment).
    c, d = three["seats"][0], three["seats"][2]
    r = svc.round_reseat(round=r, first=c, second=d)
    assert pulka_players(r)[three["number"]][0] == d
    play_table(RoundTable.objects.get(round=r, number=three["number"]).pulka, deals=1)
    with pytest.raises(svc.TournamentServiceError, match=f"Table {three['number']} has started"):
        svc.round_reseat(round=r, first=a, second=c)
    assert pulka_players(Round.objects.get(pk=r.pk)) == players | {
        three["number"]: pulka_players(r)[three["number"]]
    }


def test_with_five_players_the_one_sitting_out_may_take_a_seat_before_the_table_starts():
    t = tournament(players=5, round_count=2)
    r = svc.round_publish(round=svc.round_draft(tournament=t), by=None)
    (bye,) = r.seating["byes"]
    (table,) = r.seating["tables"]

    r = svc.round_reseat(round=r, first=bye["player"], second=table["seats"][3])

    assert pulka_players(r)[table["number"]][3] == bye["player"]
    assert r.seating["byes"][0]["player"] == table["seats"][3]


def test_a_table_ended_on_time_with_deals_is_settled_without_deals_counts_nothing():
    t = tournament(players=10, round_count=2, deal_cap=None)
    r = svc.round_start(round=svc.round_publish(round=svc.round_draft(tournament=t), by=None))
    tables = {x.number: x.pulka for x in sel.round_tables(r)}
    play_table(tables[1], deals=2)

    with pytest.raises(svc.TournamentServiceError, match=r"Tables still running: 1, 2, 3\."):
        svc.round_confirm(round=r, by=None)
    svc.table_end(round=r, number=1, by=None)
    svc.table_end(round=r, number=2, by=None)
    with pytest.raises(svc.TournamentServiceError, match=r"Tables still running: 3\. End them"):
        svc.round_confirm(round=r, by=None)
    svc.table_end(round=r, number=3, by=None)
    with pytest.raises(svc.TournamentServiceError, match="Table 3 has ended"):
        svc.table_end(round=r, number=3, by=None)
    with pytest.raises(svc.TournamentServiceError, match="no table 4"):
        svc.table_end(round=r, number=4, by=None)
    r = svc.round_confirm(round=r, by=None)

    assert Pulka.objects.get(pk=tables[1].pk).status == PulkaStatus.FINISHED
    assert Pulka.objects.get(pk=tables[2].pk).status == PulkaStatus.ABANDONED
    table = sel.standings(t)
    assert lines(table) == lines(expected(t, CAPS_RULE))
    for line in table.lines:
        (score,) = line.rounds.values()
        if score.table != 1:
            assert (score.whists, score.score, score.points, score.place) == (0, 0, 0, None)
            assert line.table_wins == 0
    winners = [
        line for line in table.lines if line.rounds[1].table == 1 and line.rounds[1].place == 1
    ]
    assert all(line.table_wins == 1 for line in winners)


def test_an_abandoned_table_is_no_ones_points_under_the_places_rule():
    t = tournament(players=9, round_count=1, scoring=Scoring.PLACES, caps=[])
    r = svc.round_start(round=svc.round_publish(round=svc.round_draft(tournament=t), by=None))
    play_table(RoundTable.objects.get(round=r, number=1).pulka)
    end_all(r)
    svc.round_confirm(round=r, by=None)

    table = sel.standings(t)

    rule = ts.ScoringRule(ts.Method.PLACES)
    assert lines(table) == lines(expected(t, rule))
    for line in table.lines:
        if line.rounds[1].table != 1:
            assert line.points == 0
            assert line.table_wins == 0
    assert sum(line.points for line in table.lines if line.rounds[1].table == 1) > 0


def test_rounds_go_in_order_and_no_more_than_planned():
    t = tournament(players=9, round_count=2)
    r = svc.round_draft(tournament=t)
    with pytest.raises(svc.TournamentServiceError, match="Round 1 is not confirmed yet"):
        svc.round_draft(tournament=t)
    with pytest.raises(
        svc.TournamentServiceError, match="Round 1 is draft: this cannot be done now"
    ):
        svc.round_start(round=r)
    r = svc.round_publish(round=r, by=None)
    with pytest.raises(svc.TournamentServiceError, match="Round 1 is not confirmed yet"):
        svc.round_draft(tournament=t)
    play(r)
    svc.round_confirm(round=r, by=None)  # confirmed without a start: every table had ended
    with pytest.raises(svc.TournamentServiceError, match="Round 1 is confirmed"):
        svc.round_confirm(round=r, by=None)
    t.refresh_from_db()
    assert t.finished_at is None
    play_round(t, deals=1)
    t.refresh_from_db()
    assert t.finished_at is not None
    with pytest.raises(svc.TournamentServiceError, match="All 2 rounds are drawn"):
        svc.round_draft(tournament=t)
    with pytest.raises(svc.TournamentServiceError, match="This tournament is over"):
        svc.entries_add(tournament=t, names=["Late"])
    assert Round.objects.filter(tournament=t).count() == 2


# --- standings ------------------------------------------------------------------------------

RULES_BY_NAME = {
    "caps 200-650": ({"scoring": Scoring.CAPS, "caps": CAPS}, CAPS_RULE),
    "caps 50-100, wins only": (
        {
            "scoring": Scoring.CAPS,
            "caps": svc.caps_from_text(svc.CAPS_PRESETS["50-100"]),
            "caps_mirror": False,
        },
        ts.ScoringRule(ts.Method.CAPS, caps=ts.Caps(ts.CAPS_50_100.steps, mirror=False)),
    ),
    "places": ({"scoring": Scoring.PLACES, "caps": []}, ts.ScoringRule(ts.Method.PLACES)),
    "places with caps kept": (
        {"scoring": Scoring.PLACES, "caps": CAPS},
        ts.ScoringRule(ts.Method.PLACES),
    ),
    "whists": ({"scoring": Scoring.WHISTS, "caps": []}, ts.ScoringRule(ts.Method.WHISTS)),
}


@pytest.mark.parametrize("name", list(RULES_BY_NAME))
def test_the_standings_are_the_engine_settlements_under_the_rule(name):
    settings, rule = RULES_BY_NAME[name]
    t = tournament(players=11, round_count=2, **settings)

    play_round(t)
    play_round(t)

    assert lines(sel.standings(t)) == lines(expected(t, rule))
    assert sel.scoring_rule(t) == rule


def test_the_tie_breaks_in_the_organisers_order_without_a_lot():
    order = [ts.TieBreak.BEST_ROUND, ts.TieBreak.OPPONENTS_TOTAL]
    t = tournament(players=9, round_count=1, tie_breaks=[k.value for k in order], lot=False)
    play_round(t, deals=1)

    table = sel.standings(t)

    assert lines(table) == lines(expected(t, CAPS_RULE, tie_breaks=order))
    assert table.lot_seed is None


def test_a_round_below_the_floor_is_flagged_for_the_judge():
    t = tournament(players=10, round_count=2, scoring=Scoring.WHISTS, caps=[], floor=0)
    play_round(t)
    play_round(t)

    table = sel.standings(t)

    rule = ts.ScoringRule(ts.Method.WHISTS, floor=0)
    assert lines(table) == lines(expected(t, rule))
    flagged = {(line.player, n) for line in table.lines for n in line.flagged}
    below = {
        (line.player, n) for line in table.lines for n, s in line.rounds.items() if s.whists < 0
    }
    assert flagged == below
    assert flagged


def test_penalties_in_whists_are_taken_from_the_total():
    t = tournament(players=10, round_count=1)
    play_round(t)
    who = ids(t)["P06"]
    before = next(x for x in sel.standings(t).lines if x.player == who)

    svc.penalty_add(
        tournament=t,
        player_id=who,
        round_number=1,
        amount=15,
        unit="whists",
        reason="Late",
        by=None,
    )
    svc.penalty_add(
        tournament=t,
        player_id=who,
        round_number=1,
        amount=-5,
        unit="whists",
        reason="Given back",
        by=None,
    )

    after = next(x for x in sel.standings(t).lines if x.player == who)
    assert after.score == before.score - 10
    assert after.adjusted == before.adjusted - 10
    assert [p.reason for p in after.penalties] == ["Late", "Given back"]
    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))


def test_penalties_in_points_only_with_the_places_rule():
    t = tournament(players=10, round_count=1)
    play_round(t, deals=1)
    who = ids(t)["P01"]

    with pytest.raises(svc.TournamentServiceError) as refused:
        svc.penalty_add(
            tournament=t,
            player_id=who,
            round_number=1,
            amount=1,
            unit="points",
            reason="Noise",
            by=None,
        )
    assert refused.value.field == "unit"
    assert refused.value.message == "A penalty in points cannot apply when the rule counts whists."

    svc.tournament_update(tournament=t, scoring=Scoring.PLACES)
    svc.penalty_add(
        tournament=t,
        player_id=who,
        round_number=1,
        amount=1,
        unit="points",
        reason="Noise",
        by=None,
    )
    line = next(x for x in sel.standings(t).lines if x.player == who)
    assert line.score == line.points == sum(s.points for s in line.rounds.values()) - 1
    assert lines(sel.standings(t)) == lines(expected(t, ts.ScoringRule(ts.Method.PLACES)))
    with pytest.raises(
        svc.TournamentServiceError, match="Penalties in points were given"
    ) as refused:
        svc.tournament_update(tournament=t, scoring=Scoring.CAPS)
    assert refused.value.field == "scoring"
    t.refresh_from_db()
    assert t.scoring == Scoring.PLACES


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"player_id": 0}, "player", "Choose a player of this tournament."),
        ({"round_number": 2}, "round", "Choose a round that was played."),
        ({"round_number": "1"}, "round", "Choose a round that was played."),
        (
            {"amount": 0},
            "amount",
            "A penalty is a number from 1 to 100000 (negative to give back).",
        ),
        (
            {"amount": 10**6},
            "amount",
            "A penalty is a number from 1 to 100000 (negative to give back).",
        ),
        (
            {"amount": True},
            "amount",
            "A penalty is a number from 1 to 100000 (negative to give back).",
        ),
        ({"unit": "stars"}, "unit", "Choose whists or points."),
        ({"reason": "  "}, "reason", "Say why."),
    ],
)
def test_a_bad_penalty_is_refused_on_its_field(changes, field, message):
    t = tournament(players=9, round_count=2)
    play_round(t, deals=1)
    penalty = {
        "player_id": ids(t)["P01"],
        "round_number": 1,
        "amount": 5,
        "unit": "whists",
        "reason": "Late",
        **changes,
    }

    with pytest.raises(svc.TournamentServiceError) as refused:
        svc.penalty_add(tournament=t, by=None, **penalty)

    assert (refused.value.field, refused.value.message) == (field, message)
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("keep", [True, False])
def test_a_final_seats_only_the_finalists_and_keeps_or_resets_the_totals(keep):
    t = tournament(players=10, round_count=4, stage_after=2, stage_top=4, stage_keep_totals=keep)
    stage = ts.Stage(2, 4, keep)
    play_round(t)
    play_round(t)
    top = {line.player for line in sel.standings(t).lines[:4]}
    assert sel.finalists(t) == top

    third = play_round(t)
    fourth = play_round(t)

    for r in (third, fourth):
        assert set(seated(r)) == top
        assert [len(x["seats"]) for x in r.seating["tables"]] == [4]
    table = sel.standings(t)
    assert lines(table) == lines(expected(t, CAPS_RULE, stage=stage))
    assert {line.player for line in table.lines[:4]} == top
    assert all(line.finalist for line in table.lines[:4])
    assert not any(line.finalist for line in table.lines[4:])
    for line in table.lines[:4]:
        counted = sum((s.score for n, s in line.rounds.items() if keep or n > 2), Fraction(0))
        assert line.score == counted


def test_teammates_never_share_a_table_and_the_team_counts_its_best_members():
    t = tournament(players=0, round_count=3, team_best=2, seating=SeatingMethod.SWISS)
    for team in "ABCD":
        svc.entries_add(
            tournament=t, names=[f"{team}{n}" for n in range(1, 4)], team=f"Team {team}"
        )

    for _ in range(3):
        play_round(t, deals=3)

    team_of = {e.player_id: e.team for e in sel.entries(t)}
    for r in Round.objects.filter(tournament=t):
        for table in r.seating["tables"]:
            teams = [team_of[p] for p in table["seats"]]
            assert len(set(teams)) == len(teams), (r.number, teams)
    read = sel.results(t)
    members = {}
    for player, team in team_of.items():
        members.setdefault(team, []).append(player)
    assert sel.team_lines(t, read) == ts.team_standings(
        expected_scores(t, CAPS_RULE), teams=members, best=2
    )
    (first, *_) = sel.team_lines(t, read)
    assert first.place == 1
    assert len(first.rounds) == 3


def test_a_correction_of_a_confirmed_round_changes_the_standings_and_says_so():
    t = tournament(players=9, round_count=2)
    r = play_round(t)
    assert svc.corrected_after_confirm(r) is False
    before = lines(sel.standings(t))
    table = RoundTable.objects.filter(round=r).select_related("pulka").first()
    pulka = table.pulka
    names = pulka.names
    deals = [d.to_engine(names) for d in Deal.objects.filter(pulka=pulka).order_by("number")]
    last = Deal.objects.filter(pulka=pulka).order_by("number").last()
    old = engine.compute_sheet(
        pulka.engine_rules(), names, deals, first_dealer=names[pulka.first_dealer]
    )
    for k in range(50):
        data, sheet = next_valid_deal(
            random.Random(k), pulka.engine_rules(), names, names[pulka.first_dealer], deals[:-1]
        )
        if sheet.result != old.result:
            break

    owner = make_member(t.club, Role.OWNER).user
    scoring.deal_update(
        pulka=pulka,
        number=last.number,
        data=data,
        expected_version=last.version,
        changed_by=owner,
        reason="The score sheet of table 1 was misread.",
    )

    r.refresh_from_db()
    assert svc.corrected_after_confirm(r) is True
    after = lines(sel.standings(t))
    assert after != before
    assert after == lines(expected(t, CAPS_RULE))
    revision = DealRevision.objects.get(pulka=pulka, action="changed")
    assert (revision.user, revision.reason) == (owner, "The score sheet of table 1 was misread.")


def test_confirming_a_round_locks_its_tables_and_only_the_organiser_corrects_them():
    t = tournament(players=9, round_count=2)
    before_confirm = published(t)
    assert (
        not Pulka.objects.filter(tournament_table__round=before_confirm)
        .exclude(locked_at=None)
        .exists()
    )
    r = play_round(before_confirm)
    pulkas = list(Pulka.objects.filter(tournament_table__round=r))
    assert pulkas
    assert all(p.locked_at is not None for p in pulkas)
    secretary = make_member(t.club, Role.SECRETARY).user
    pulka = pulkas[0]
    last = Deal.objects.filter(pulka=pulka).order_by("number").last()
    kept = (last.kind, last.tricks, last.version)
    standings = lines(sel.standings(t))

    with pytest.raises(scoring.ScoringError, match="This table is locked"):
        scoring.deal_delete(
            pulka=pulka, number=last.number, expected_version=last.version, deleted_by=secretary
        )
    with pytest.raises(scoring.ScoringError, match="This table is locked"):
        scoring.pulka_reopen(pulka=pulka, reopened_by=secretary)

    last.refresh_from_db()
    assert (last.kind, last.tricks, last.version) == kept
    assert lines(sel.standings(t)) == standings
    assert svc.corrected_after_confirm(r) is False


def test_the_organiser_ends_again_a_locked_table_that_a_correction_set_running():
    t = tournament(players=9, round_count=2)
    r = play_round(t)
    owner = make_member(t.club, Role.OWNER).user
    pulka = next(
        p
        for p in Pulka.objects.filter(tournament_table__round=r).select_related("evening__club")
        if p.deals.count() == p.deal_cap  # ended by its cap: one deal fewer, and it runs again
    )
    last = Deal.objects.filter(pulka=pulka).order_by("number").last()
    scoring.deal_delete(
        pulka=pulka,
        number=last.number,
        expected_version=last.version,
        deleted_by=owner,
        reason="A deal was entered twice.",
    )
    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.RUNNING  # below its deal cap again

    svc.table_end(round=r, number=pulka.tournament_table.number, by=owner)

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    assert pulka.status_changes.first().reason == (
        "The judge ended the table again after a correction."
    )


def test_a_capped_table_opened_again_after_the_confirm_counts_nothing_until_the_judge_ends_it():
    t = tournament(players=9, round_count=2, deal_cap=3, rules={**RULES, "pool_target": 50})
    r = play_round(t)
    pulka = RoundTable.objects.get(round=r, number=2).pulka
    last = Deal.objects.filter(pulka=pulka).order_by("number").last()
    assert last.number == 3

    scoring.deal_delete(
        pulka=pulka,
        number=3,
        expected_version=last.version,
        deleted_by=None,
        reason="Deal 3 was played after the time.",
    )

    assert sel.reopened_tables(t) == [(1, 2)]
    line = next(x for x in sel.standings(t).lines if x.rounds[1].table == 2)
    assert (line.rounds[1].score, line.rounds[1].place) == (0, None)
    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))
    svc.table_end(round=r, number=2, by=None)
    assert sel.reopened_tables(t) == []
    assert Pulka.objects.get(pk=pulka.pk).status == PulkaStatus.FINISHED
    assert lines(sel.standings(t)) == lines(expected(t, CAPS_RULE))


# --- settings -------------------------------------------------------------------------------

BAD_SETTINGS = [
    (
        {"caps": "0:1, 200:1/10, 150:0"},
        "caps",
        "The caps' breakpoints must increase: 150 comes after 200.",
    ),
    ({"caps": "10:1, 200:1/10"}, "caps", "The first step of the caps must start at 0 whists."),
    ({"caps": "0:1, 200:3/2"}, "caps", "A cap's factor must be between 0 and 1, not 3/2."),
    ({"caps": "0:1, 200:-1"}, "caps", "A cap's factor must be between 0 and 1, not -1."),
    (
        {"caps": "0:1, two hundred: 1/10"},
        "caps",
        '"two hundred: 1/10" is not a step: write it as "from whists: factor", e.g. "200: 1/10".',
    ),
    (
        {"caps": "0:1, 200"},
        "caps",
        '"200" is not a step: write it as "from whists: factor", e.g. "200: 1/10".',
    ),
    (
        {"caps": "0:1, 200:1/0"},
        "caps",
        '"200:1/0" is not a step: write it as "from whists: factor", e.g. "200: 1/10".',
    ),
    (
        {"caps": "0:1, 1e999999999:0"},
        "caps",
        '"1e999999999:0" is not a step: write it as "from whists: factor", e.g. "200: 1/10".',
    ),
    ({"caps": "0:1, 9000000:0"}, "caps", '"9000000:0" is out of range.'),
    ({"caps": ""}, "caps", "The caps need at least one step."),
    (
        {"caps": [["0", "1"], ["x", "0"]]},
        "caps",
        '"x:0" is not a step: write it as "from whists: factor", e.g. "200: 1/10".',
    ),
    ({"caps": [], "scoring": Scoring.CAPS}, "caps", "The caps rule needs its steps."),
    (
        {"stage_after": 3, "stage_top": 4},
        "stage_after",
        "The final starts after one of rounds 1 to 2: before the last round.",
    ),
    (
        {"stage_after": 5, "stage_top": 4},
        "stage_after",
        "The final starts after one of rounds 1 to 2: before the last round.",
    ),
    (
        {"stage_after": 0, "stage_top": 4},
        "stage_after",
        "The final starts after one of rounds 1 to 2: before the last round.",
    ),
    (
        {"stage_after": 2, "stage_top": 2},
        "stage_top",
        "The final stage needs at least 3 players, not 2.",
    ),
    (
        {"stage_after": 2},
        "stage_top",
        "A final needs both the round after which it starts and its number of players.",
    ),
    (
        {"tie_breaks": ["best_round", "best_round"]},
        "tie_breaks",
        "Each tie-break can be chosen once.",
    ),
    ({"tie_breaks": ["height"]}, "tie_breaks", "There is no tie-break height."),
    ({"team_best": 0}, "team_best", "A team's score needs its best 1 to 5 players, not 0."),
    ({"team_best": 6}, "team_best", "A team's score needs its best 1 to 5 players, not 6."),
    ({"rules": {"pool_target": 0}}, "rules", None),
    ({"rules": {"colour": "red"}}, "rules", None),
    ({"rules": "sochi"}, "rules", None),
    ({"name": "  "}, "name", "Name the tournament."),
    ({"round_count": 0}, "round_count", "A tournament has 1 to 15 rounds."),
    ({"round_count": 16}, "round_count", "A tournament has 1 to 15 rounds."),
    ({"deal_cap": 0}, "deal_cap", "A deal cap is a number of deals from 1 to 500 (empty: no cap)."),
    ({"seating": "random"}, "seating", "Choose how the rounds after the first are seated."),
    ({"scoring": "stars"}, "scoring", "Choose what a round's result counts."),
    ({"bye_score": 10**7}, "bye_score", "A round sat out counts a whole number, for example 0."),
    (
        {"floor": "low"},
        "floor",
        "The floor is a number of whists, for example -1000 (empty: none).",
    ),
]


def _settings(changes: dict) -> dict:
    changes = dict(changes)
    if isinstance(changes.get("caps"), str):
        changes["caps_text"] = changes.pop("caps")
    return changes


@pytest.mark.parametrize(("changes", "field", "message"), BAD_SETTINGS)
def test_bad_settings_are_refused_on_their_field_and_nothing_is_saved(changes, field, message):
    club = make_club()
    changes = _settings(changes)

    def create():
        fields = {"name": "Cup", "rules": RULES, "round_count": 3, "caps": CAPS, **changes}
        if "caps_text" in fields:
            fields["caps"] = svc.caps_from_text(fields.pop("caps_text"))
        return svc.tournament_create(club=club, created_by=None, **fields)

    with pytest.raises(svc.TournamentServiceError) as refused:
        create()
    assert refused.value.field == field
    if message is not None:
        assert refused.value.message == message
    else:
        assert refused.value.message.strip()
    assert not Tournament.objects.filter(club=club).exists()

    t = tournament(club=club, players=0)
    before = Tournament.objects.filter(pk=t.pk).values().get()

    def update():
        fields = dict(changes)
        if "caps_text" in fields:
            fields["caps"] = svc.caps_from_text(fields.pop("caps_text"))
        return svc.tournament_update(tournament=t, **fields)

    with pytest.raises(svc.TournamentServiceError) as refused:
        update()
    assert refused.value.field == field
    assert Tournament.objects.filter(pk=t.pk).values().get() == before


def test_caps_typed_as_text_are_stored_as_exact_steps():
    assert svc.caps_from_text(" 0 : 1 ; 50: 0.5, 100 :1/10 ") == [
        ["0", "1"],
        ["50", "1/2"],
        ["100", "1/10"],
    ]
    assert svc.caps_from_text(svc.CAPS_PRESETS["200-650"]) == [
        ["0", "1"],
        ["200", "1/10"],
        ["650", "0"],
    ]
    t = tournament(players=0, caps=svc.caps_from_text("0:1, 50:1/2"))
    assert sel.caps_of(t) == ts.Caps(((0, 1), (50, Fraction(1, 2))))


def test_the_conventions_and_the_deal_cap_are_fixed_once_a_round_is_out():
    t = tournament(players=9, round_count=3)
    svc.tournament_update(tournament=t, deal_cap=8, rules={**RULES, "pool_target": 20})
    draft = svc.round_draft(tournament=t)
    svc.tournament_update(tournament=t, deal_cap=9)  # a draft is not out
    svc.round_publish(round=draft, by=None)

    for changes, field in (({"deal_cap": 10}, "deal_cap"), ({"rules": RULES}, "rules")):
        with pytest.raises(
            svc.TournamentServiceError, match="cannot change once a round is out"
        ) as refused:
            svc.tournament_update(tournament=t, **changes)
        assert refused.value.field == field
    t.refresh_from_db()
    assert (t.deal_cap, t.rules["pool_target"]) == (9, 20)
    # The same values, spelled out or not, are no change; the scoring rule still may change.
    svc.tournament_update(
        tournament=t, deal_cap=9, rules={"pool_target": 20}, scoring=Scoring.WHISTS
    )
    t.refresh_from_db()
    assert t.scoring == Scoring.WHISTS


def test_the_rounds_cannot_be_fewer_than_those_drawn_and_more_reopen_a_finished_tournament():
    t = tournament(players=9, round_count=3)
    play_round(t, deals=1)
    svc.round_draft(tournament=t)

    with pytest.raises(svc.TournamentServiceError, match="2 rounds are already drawn") as refused:
        svc.tournament_update(tournament=t, round_count=1)
    assert refused.value.field == "round_count"
    svc.draft_discard(round=Round.objects.get(tournament=t, number=2))
    svc.tournament_update(tournament=t, round_count=1)
    t.refresh_from_db()
    assert t.finished_at is not None  # its one round is confirmed
    svc.tournament_update(tournament=t, round_count=2)
    t.refresh_from_db()
    assert t.finished_at is None
    play_round(t, deals=1)
    t.refresh_from_db()
    assert t.finished_at is not None


def test_the_conventions_default_to_the_clubs():
    club = make_club(pool_target=30)
    t = svc.tournament_create(club=club, created_by=None, name="Cup", caps=CAPS)
    assert t.rules["pool_target"] == 30
    assert t.tie_breaks == [k.value for k in ts.DEFAULT_TIE_BREAKS]


# --- concurrency and cost -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_two_drafts_at_the_same_moment_make_one_round():
    """Both requests lock the tournament row: the second sees the first's draft."""
    t = tournament(players=10)
    barrier = threading.Barrier(2)
    outcomes = []

    def draft():
        try:
            barrier.wait()
            svc.round_draft(tournament=Tournament.objects.get(pk=t.pk))
            outcomes.append("drawn")
        except svc.TournamentServiceError as exc:
            outcomes.append(exc.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=draft) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == [
        "Round 1 is not confirmed yet: confirm it before drawing the next.",
        "drawn",
    ]
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1]


def test_the_services_lock_the_tournament_row(monkeypatch):
    t = tournament(players=9, round_count=2)
    locked = []
    real = svc._lock

    def spy(tournament):
        locked.append(tournament.pk)
        return real(tournament)

    monkeypatch.setattr(svc, "_lock", spy)
    draft = svc.round_draft(tournament=t)
    draft = svc.draft_lock(round=draft, table=1, lock=True)
    draft = svc.draft_redraw(round=draft)
    r = svc.round_publish(round=draft, by=None)
    r = svc.round_start(round=r)
    end_all(r)
    svc.round_confirm(round=r, by=None)
    svc.penalty_add(
        tournament=t,
        player_id=ids(t)["P01"],
        round_number=1,
        amount=1,
        unit="whists",
        reason="x",
        by=None,
    )
    svc.tournament_update(tournament=t, name="Cup 2")

    assert len(locked) == 3 + 6 + 1 + 1  # 3 table_end, draft/lock/redraw/publish/start/confirm
    assert set(locked) == {t.pk}


def build(players: int, rounds: int) -> Tournament:
    t = tournament(players=players, round_count=rounds, deal_cap=1)
    for _ in range(rounds):
        play_round(t)
    return t


def test_the_standings_cost_the_same_queries_for_16x4_and_60x6(django_assert_num_queries):
    small, large = build(16, 4), build(60, 6)
    assert len(sel.standings(large).lines) == 60
    counts = []
    for t in (small, large):
        t = Tournament.objects.get(pk=t.pk)
        with CaptureQueriesContext(connection) as queries:
            sel.standings(t)
        counts.append(len(queries))

    assert counts[0] == counts[1] == 4  # rounds, result caches, penalties, names
    large = Tournament.objects.get(pk=large.pk)
    with django_assert_num_queries(4):
        sel.standings(large)
