"""Deleting a player's account changes nothing in any pulka, league or rating: the games
stay on the sheets under the roster name; only the link to the account goes."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from club.models import Role
from competition.league import selectors as leagues
from competition.models import League, RatingSnapshot
from scoring import selectors, services
from scoring.models import Deal, DealRevision, Pulka, PulkaResultCache
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_player, make_user

pytestmark = pytest.mark.django_db

SIX_BY_BORIS = {
    "kind": "game",
    "declarer": "Борис",
    "contract": "6S",
    "calls": {"Віра": "whist", "Анна": "pass"},
    "tricks": {"Борис": 6, "Віра": 3, "Анна": 1},
}
MISERE_BY_ANNA = {"kind": "misere", "declarer": "Анна", "tricks": {"Анна": 0}}


def league_table(league: League) -> list[tuple]:
    ranking = leagues.league_ranking(league)
    return [(s.place, ranking.names[s.player_id], str(s.score)) for s in ranking.ranked]


def sheet_of(pulka: Pulka) -> tuple:
    sheet = selectors.pulka_sheet(pulka)
    return tuple(sheet.snapshots), sheet.closed


def facts(pulka: Pulka) -> list[tuple]:
    """Every stored fact of the pulka but who entered it."""
    return [
        (d.number, d.kind, d.declarer, d.contract, d.calls, d.tricks)
        for d in Deal.objects.filter(pulka=pulka).order_by("number")
    ]


def test_deleting_a_players_account_keeps_the_sheet_the_league_and_the_ratings(client):
    club = make_club(slug="sochi")
    make_member(club, Role.OWNER)
    boris = make_user(username="boris")
    make_member(club, Role.SECRETARY, user=boris)
    players = [make_player(club, name) for name in ("Анна", "Борис", "Віра")]
    players[1].user = boris
    players[1].save()
    evening = make_evening(club, date=datetime.date(2025, 3, 1))
    pulka = services.pulka_create(
        evening=evening,
        players=players,
        first_dealer=players[0],
        rules={"pool_target": 10},
        created_by=boris,
    )
    services.deal_record(pulka=pulka, data=SIX_BY_BORIS, entered_by=boris)
    services.deal_record(pulka=pulka, data=MISERE_BY_ANNA, entered_by=boris)
    services.pulka_finish(pulka=pulka, finished_by=boris)
    league = League.objects.create(
        club=club,
        name="Spring",
        start=datetime.date(2025, 1, 1),
        end=datetime.date(2025, 12, 31),
        rule="sum",
        min_pulkas=1,
    )
    before = {
        "table": league_table(league),
        "sheet": sheet_of(pulka),
        "facts": facts(pulka),
        "results": list(PulkaResultCache.objects.order_by("pk").values_list()),
        "ratings": list(
            RatingSnapshot.objects.order_by("pk").values_list("player_id", "mu", "sigma")
        ),
    }
    assert before["table"]  # the league ranks the three players
    assert any(name == "Борис" for _, name, _ in before["table"])

    client.force_login(boris)
    response = client.post("/accounts/delete/", {"password": PASSWORD})

    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="boris").exists()
    pulka.refresh_from_db()
    assert league_table(league) == before["table"]
    assert sheet_of(pulka) == before["sheet"]
    assert facts(pulka) == before["facts"]
    assert list(PulkaResultCache.objects.order_by("pk").values_list()) == before["results"]
    assert (
        list(RatingSnapshot.objects.order_by("pk").values_list("player_id", "mu", "sigma"))
        == before["ratings"]
    )
    players[1].refresh_from_db()
    assert players[1].user_id is None
    assert players[1].name == "Борис"
    # Who entered the deals and finished the pulka is no longer known; what they did stays.
    assert not Deal.objects.filter(pulka=pulka, entered_by__isnull=False).exists()
    assert DealRevision.objects.filter(deal__pulka=pulka).count() >= 2
    assert pulka.created_by_id is None
