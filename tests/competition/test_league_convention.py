"""A league of any convention, or of one (League.convention): its rows come only from the
pulkas of that preset, its rule says so, its form sets it, and its query count stays."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition.league import selectors as leagues
from competition.league import services
from competition.models import League
from scoring import engine
from scoring.models import Pulka
from tests.club.factories import html
from tests.competition.factories import finished, make_league, table
from tests.conftest import make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return make_club(slug="sochi")


def played(club, preset: str, results: dict[str, int]) -> Pulka:
    """A finished pulka in the result caches, played by that convention."""
    pulka = finished(club, results)
    rules = engine.rules_to_dict(engine.preset_rules(preset, pool_target=10))
    Pulka.objects.filter(pk=pulka.pk).update(rules=rules)
    return pulka


@pytest.fixture
def mixed(club):
    played(club, "sochi", {"Anna": 30, "Boris": -10, "Vera": -20})
    played(club, "leningrad", {"Anna": -50, "Boris": 20, "Vera": 30})
    played(club, "rostov", {"Anna": 5, "Boris": 5, "Vera": -10})
    return club


def test_a_league_of_any_convention_counts_every_pulka(mixed):
    league = make_league(mixed)

    assert table(league) == [(1, "Boris", 15), (2, "Vera", 0), (3, "Anna", -15)]


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        ("sochi", [(1, "Anna", 30), (2, "Boris", -10), (3, "Vera", -20)]),
        ("leningrad", [(1, "Vera", 30), (2, "Boris", 20), (3, "Anna", -50)]),
        ("rostov", [(1, "Anna", 5), (1, "Boris", 5), (3, "Vera", -10)]),
    ],
)
def test_a_league_of_one_convention_counts_only_its_pulkas(mixed, convention, expected):
    league = make_league(mixed, convention=convention)

    assert table(league) == expected


def test_a_pulka_from_before_the_conventions_counts_as_sochi(club):
    """Rules stored before the presets have no `preset`: migration scoring 0007 names them
    Sochi, so that a Sochi league finds them."""
    pulka = finished(club, {"Anna": 10, "Boris": 0, "Vera": -10})
    old = {k: v for k, v in pulka.rules.items() if k != "preset"}
    Pulka.objects.filter(pk=pulka.pk).update(rules=old)
    assert table(make_league(club, convention="sochi", name="before")) == []

    importlib.import_module("scoring.migrations.0007_rules_preset").name_sochi(apps, None)
    cache.clear()

    pulka.refresh_from_db()
    assert pulka.rules == {**old, "preset": "sochi"}

    assert table(make_league(club, convention="sochi"))[0] == (1, "Anna", 10)
    assert table(make_league(club, convention="leningrad")) == []


def test_the_rule_says_which_convention_counts():
    league = League(rule="sum", min_pulkas=1, convention="rostov")

    assert leagues.rule_sentence(league) == (
        "Ranked by the sum of whists. Only pulkas played by the Rostov convention count."
    )
    assert leagues.rule_sentence(League(rule="sum", min_pulkas=1)) == "Ranked by the sum of whists."


def test_restricting_a_league_adds_no_query(mixed):
    counts = []
    for convention in ("", "leningrad"):
        league = make_league(mixed, convention=convention, name=convention or "any")
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            leagues.league_ranking(leagues.league_for_club(mixed, league.pk))
        counts.append(len(captured))

    assert counts[0] == counts[1]


def test_changing_the_convention_changes_the_ranking_at_once(mixed):
    league = make_league(mixed)
    assert len(table(league)) == 3

    settings = {
        "name": league.name,
        "start": league.start,
        "end": league.end,
        "rule": league.rule,
        "best_count": None,
        "cap": None,
        "min_pulkas": 1,
    }
    league = services.league_update(league=league, **settings, convention="leningrad")

    assert table(leagues.league_for_club(mixed, league.pk))[0] == (1, "Vera", 30)


def test_an_unknown_convention_is_refused_by_the_service(club):
    with pytest.raises(services.LeagueError) as raised:
        services.league_create(
            club=club,
            name="Moscow",
            start=datetime.date(2024, 1, 1),
            end=datetime.date(2024, 2, 1),
            rule="sum",
            best_count=None,
            cap=None,
            min_pulkas=1,
            convention="moscow",
        )

    assert raised.value.field == "convention"
    assert not League.objects.filter(club=club).exists()


def test_the_league_form_sets_the_convention_and_the_page_says_it(as_persona, club_a):
    client = as_persona("secretary")
    data = {
        "name": "Piter cup",
        "start": "2024-03-01",
        "end": "2024-05-31",
        "rule": "sum",
        "min_pulkas": "1",
        "convention": "leningrad",
    }

    form = html(client.get("/c/sochi/leagues/new/"))
    response = client.post("/c/sochi/leagues/new/", data)

    assert '<option value="" selected>any convention</option>' in form
    assert '<option value="leningrad">Leningrad (Piter)</option>' in form
    league = League.objects.get(club=club_a, name="Piter cup")
    assert league.convention == "leningrad"
    page = html(client.get(response["Location"]))
    assert "Only pulkas played by the Leningrad (Piter) convention count." in page


def test_the_league_form_refuses_a_convention_it_does_not_offer(as_persona, club_a):
    data = {
        "name": "Moscow cup",
        "start": "2024-03-01",
        "end": "2024-05-31",
        "rule": "sum",
        "min_pulkas": "1",
        "convention": "moscow",
    }

    response = as_persona("secretary").post("/c/sochi/leagues/new/", data)

    assert response.status_code == 200
    assert "Select a valid choice" in html(response)
    assert not League.objects.filter(name="Moscow cup").exists()
