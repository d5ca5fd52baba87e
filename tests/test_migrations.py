"""The one-way house moved models between apps without touching a row.

A database filled by the demo is taken back to the last state before the move (club.Session,
club.League, scoring.RatingSnapshot), read there through the historical models, then
migrated forward again: every row is still there, and the league ranks as before. Runs on
SQLite and on PostgreSQL (the PostgreSQL pass of `make test`).
"""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from competition.demo import CLUB_SLUG, CUP_NAME, load_demo
from competition.league import selectors as leagues
from competition.models import League, RatingSnapshot, Tournament
from scoring.models import Deal, Evening, Pulka, PulkaResultCache

BEFORE = [("club", "0002_leagues_and_caches"), ("scoring", "0002_leagues_and_caches")]


def ranking_figures() -> list[tuple]:
    # The season of every convention (the Leningrad league loses its convention on the way
    # back: the column is younger than the move).
    league = League.objects.get(club__slug=CLUB_SLUG, name="Осінь 2026")
    return [
        (s.player_id, s.place, s.total, s.rating) for s in leagues.league_ranking(league).ranked
    ]


def without_the_cup() -> None:
    """The demo's tournament cannot travel back: its tables do not count in the leagues
    (Evening.counted), a column younger than the move, so on the way back they would."""
    cup = Tournament.objects.get(club__slug=CLUB_SLUG, name=CUP_NAME)
    evenings = list(Evening.objects.filter(tournament_round__tournament=cup))
    cup.delete()  # its entries, rounds, tables and penalties
    for evening in evenings:
        evening.delete()  # its pulkas and their result caches


@pytest.mark.django_db(transaction=True)
def test_the_demo_database_migrates_across_the_move_with_its_data_intact():
    load_demo()
    without_the_cup()
    counts = {
        "evenings": Evening.objects.count(),
        "pulkas": Pulka.objects.count(),
        "deals": Deal.objects.count(),
        "leagues": League.objects.count(),
        "ratings": RatingSnapshot.objects.count(),
        "results": PulkaResultCache.objects.count(),
    }
    figures = ranking_figures()
    assert counts["evenings"]
    assert counts["ratings"]
    assert figures

    evening_type = ContentType.objects.get(app_label="scoring", model="evening").pk

    MigrationExecutor(connection).migrate([*BEFORE, ("competition", None)])
    old = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    assert ContentType.objects.get(app_label="club", model="session").pk == evening_type
    assert old.get_model("club", "Session").objects.count() == counts["evenings"]
    assert old.get_model("club", "League").objects.count() == counts["leagues"]
    assert old.get_model("scoring", "RatingSnapshot").objects.count() == counts["ratings"]
    session = old.get_model("club", "Session").objects.order_by("pk").first()
    assert old.get_model("scoring", "Pulka").objects.filter(session=session).exists()

    call_command("migrate", verbosity=0)

    assert {
        "evenings": Evening.objects.count(),
        "pulkas": Pulka.objects.count(),
        "deals": Deal.objects.count(),
        "leagues": League.objects.count(),
        "ratings": RatingSnapshot.objects.count(),
        "results": PulkaResultCache.objects.count(),
    } == counts
    assert Pulka.objects.filter(evening=Evening.objects.get(pk=session.pk)).exists()
    cache.clear()
    assert ranking_figures() == figures
    # The admin's history and permissions follow the model: the same content type row.
    assert ContentType.objects.get(app_label="scoring", model="evening").pk == evening_type
    assert not ContentType.objects.filter(app_label="club", model="session").exists()
