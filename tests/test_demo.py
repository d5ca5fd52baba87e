import random

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import RequestFactory

from club.models import Club, Membership, Player, Role
from competition.demo import (
    CLUB_SLUG,
    CUP_DEAL_CAP,
    CUP_NAME,
    CUP_PENALTY,
    DEMO_PASSWORD,
    PLAYER_NAME,
    ROSTER,
    load_demo,
    random_deal,
)
from competition.league import selectors as leagues
from competition.models import Entry, League, Penalty, Round, RoundState, Tournament
from competition.tournament import selectors as tournament_selectors
from scoring import engine, selectors
from scoring.models import Deal, DealRevision, Evening, Pulka, PulkaResultCache, PulkaStatus

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    models = (
        get_user_model(),
        Club,
        League,
        Membership,
        Player,
        Evening,
        Pulka,
        Deal,
        DealRevision,
        Tournament,
        Entry,
        Round,
        Penalty,
    )
    return {model.__name__: model.objects.count() for model in models} | {
        "results": PulkaResultCache.objects.count()
    }


def test_loading_the_demo_twice_duplicates_nothing(demo):
    first = counts()

    load_demo()

    assert counts() == first
    assert first["Club"] == 1
    assert first["Player"] == 14
    # eight league weeks, the four evenings of the cup, the Leningrad evening, and an
    # evening for each of the autumn cup's four rounds
    assert first["Evening"] == 17
    assert first["Tournament"] == 1
    assert first["League"] == 2
    assert first["Deal"] > 100


def test_every_login_works_and_has_its_role(demo, demo_logins):
    logins, club = demo_logins, demo
    assert club.is_public
    assert club.pool_target == 20
    assert {username for username, _, _ in logins} == {"admin", "owner", "secretary", "player"}
    for username, password, _ in logins:
        assert password == DEMO_PASSWORD
        # A request, as at the login page.
        request = RequestFactory().post("/accounts/login/")
        assert authenticate(request, username=username, password=password) is not None
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"owner": Role.OWNER, "secretary": Role.SECRETARY, "player": Role.PLAYER}
    assert Player.objects.get(club=club, user__username="player").name == PLAYER_NAME


def test_earlier_evenings_are_played_to_the_end_and_the_last_one_is_going_on(demo):
    evenings = Evening.objects.filter(club__slug=CLUB_SLUG, tournament_round__isnull=True).exclude(
        notes__contains="ленінградки"
    )
    last, *earlier = evenings.order_by("-date")
    assert len({s.date for s in [last, *earlier]}) == 12
    for evening in [last, *earlier]:
        assert evening.venue
        pulkas = list(evening.pulkas.all())
        assert 2 <= len(pulkas) <= 3
        assert all(pulka.seats.count() in (3, 4) for pulka in pulkas)
    for evening in earlier:
        for pulka in evening.pulkas.all():
            sheet = selectors.pulka_sheet(pulka)
            assert pulka.status == PulkaStatus.FINISHED
            assert sheet.closed
            assert 15 <= len(sheet.snapshots) <= 45
    statuses = sorted(p.status for p in last.pulkas.all())
    assert statuses == [PulkaStatus.FINISHED, PulkaStatus.RUNNING, PulkaStatus.RUNNING]
    ended = last.pulkas.get(status=PulkaStatus.FINISHED)
    assert not selectors.pulka_sheet(ended).closed
    for pulka in last.pulkas.filter(status=PulkaStatus.RUNNING):
        assert pulka.deals.exists()


def test_every_kind_of_deal_is_there_every_sheet_replays_and_results_are_cached(demo):
    for pulka in Pulka.objects.all():
        sheet = selectors.pulka_sheet(pulka)  # raises PulkaError if a deal is wrong
        assert sum(sheet.result.values()) == 0
        assert pulka.revisions.count() == pulka.deals.count()
        cached = PulkaResultCache.objects.filter(pulka=pulka)
        if pulka.status == PulkaStatus.FINISHED:
            assert cached.count() == pulka.seats.count()
            assert {c.player.name: c.result_rounded for c in cached} == sheet.result_rounded
        else:
            assert not cached.exists()
    deals = list(Deal.objects.all())
    assert {d.kind for d in deals} == {"game", "misere", "raspasy"}
    calls = {tuple(sorted(d.calls.values())) for d in deals if d.kind == "game"}
    assert {("pass", "whist"), ("whist", "whist"), ("pass", "pass"), ("half", "pass")} <= calls


@pytest.mark.parametrize("seed", range(20))
def test_in_raspasy_at_four_the_dealer_takes_at_most_two_tricks(seed):
    rng = random.Random(seed)
    players = ["A", "B", "C", "D"]

    for _ in range(50):
        deal = random_deal(rng, players, "B", engine.Rules())
        if deal["kind"] == "raspasy":
            assert deal["tricks"]["B"] <= 2
            assert sum(deal["tricks"].values()) == 10
        else:
            assert deal["declarer"] != "B"
            assert "B" not in deal.get("calls", {})


@pytest.mark.parametrize("preset", engine.PRESETS)
@pytest.mark.parametrize("n", [3, 4])
def test_the_generator_makes_deals_every_preset_accepts(preset, n):
    """Each deal alone is valid on a fresh sheet: the fields follow engine.deal_shape (no
    dealer's tricks with Rostov raspasy at four, no talon where quick tricks do not count)."""
    rules = engine.preset_rules(preset, pool_target=1000)
    players = ["A", "B", "C", "D"][:n]
    rng = random.Random(f"{preset}/{n}")

    for _ in range(300):
        deal = random_deal(rng, players, "B", rules)
        engine.compute_sheet(rules, players, [engine.deal_from_dict(deal, 1)], "B")
        if not rules.quick_tricks:
            assert "talon" not in deal


def test_the_leningrad_evening_has_a_table_closed_by_the_sum_of_its_pools_and_one_going_on(demo):
    evening = Evening.objects.get(club__slug=CLUB_SLUG, notes__contains="ленінградки")
    pulkas = {p.status: p for p in evening.pulkas.all()}

    assert set(pulkas) == {PulkaStatus.FINISHED, PulkaStatus.RUNNING}
    for pulka in pulkas.values():
        assert pulka.rules["preset"] == "leningrad"
    finished = selectors.pulka_sheet(pulkas[PulkaStatus.FINISHED])
    assert finished.closed
    assert finished.pool_sum >= finished.pool_sum_target == 60
    running = selectors.pulka_sheet(pulkas[PulkaStatus.RUNNING])
    assert len(running.snapshots) == 10
    assert running.pool_sum < running.pool_sum_target
    league = League.objects.get(club__slug=CLUB_SLUG, convention="leningrad")
    ranked = leagues.league_ranking(league).ranked
    assert {s.player_id for s in ranked} == {
        seat.player_id for seat in pulkas[PulkaStatus.FINISHED].seats.all()
    }


def test_the_autumn_cup_is_finished_and_counts_in_no_league(demo):
    cup = Tournament.objects.get(club__slug=CLUB_SLUG, name=CUP_NAME)
    rounds = list(cup.rounds.order_by("number"))
    standings = tournament_selectors.standings(cup)

    assert cup.finished_at is not None
    assert not cup.counted
    assert cup.entries.count() == 14
    assert [(r.number, r.state) for r in rounds] == [(n, RoundState.CONFIRMED) for n in range(1, 5)]
    assert [r.method for r in rounds] == ["rating", "swiss", "swiss", "swiss"]
    assert len(standings.lines) == 14
    assert [line.place for line in standings.lines] == list(range(1, 15))
    for one in rounds:
        tables = tournament_selectors.round_tables(one)
        assert sorted(len(t.pulka.names) for t in tables) == [3, 3, 4, 4]
        assert all(t.pulka.status == PulkaStatus.FINISHED for t in tables)
        assert all(t.deal_count <= CUP_DEAL_CAP for t in tables)
        assert not one.evening.counted
    # The judge ended two tables on time: settled as unfinished, before the deal cap.
    ended = [
        t
        for one in rounds
        for t in tournament_selectors.round_tables(one)
        if t.deal_count < CUP_DEAL_CAP and not selectors.pulka_sheet(t.pulka).closed
    ]
    assert len(ended) >= 2
    (penalty,) = cup.penalties.all()
    assert (penalty.player.name, penalty.round, penalty.amount, penalty.reason) == (
        CUP_PENALTY["player"],
        CUP_PENALTY["round_number"],
        CUP_PENALTY["amount"],
        CUP_PENALTY["reason"],
    )
    penalised = next(line for line in standings.lines if line.player == penalty.player_id)
    assert (
        penalised.score
        == penalised.adjusted
        == (sum(one.adjusted for one in penalised.rounds.values()) - penalty.amount)
    )
    assert any(line.flagged for line in standings.lines)  # a round below the floor
    # The cup's tables are in no league: its two guests, who played only the cup, are in
    # no ranking.
    guests = set(Player.objects.filter(name__in=ROSTER[12:]).values_list("pk", flat=True))
    for league in League.objects.filter(club=cup.club):
        ranking = leagues.league_ranking(league)
        counted = PulkaResultCache.objects.filter(leagues.league_results(league))
        assert not counted.filter(pulka__tournament_table__isnull=False).exists()
        assert not guests & {s.player_id for s in ranking.ranked + ranking.unranked}


def test_the_cups_standings_page_shows_every_player(client, demo):
    cup = Tournament.objects.get(club__slug=CLUB_SLUG, name=CUP_NAME)

    response = client.get(f"/c/{CLUB_SLUG}/tournaments/{cup.pk}/standings/")

    text = response.content.decode()
    assert response.status_code == 200
    assert text.count("<tr data-player=") == 14
    assert "After round 4 of 4" in text
    assert CUP_PENALTY["reason"] in text
