"""The migration that gives every stored deal its dealer fills it from the rotation as the
sheet computed it before (the first dealer, an override restarting it, then clockwise), so
that no sheet changes."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from club.names import name_key
from scoring import selectors
from scoring.models import Deal, Pulka

BEFORE = [("scoring", "0008_counted_evenings_and_deal_cap")]
RASPASY = {"0": 4, "1": 3, "2": 3}


@pytest.mark.django_db(transaction=True)
def test_the_stored_deals_get_the_rotations_dealers_and_the_sheet_stays():
    executor = MigrationExecutor(connection)
    # Every other app as it is now, scoring before its deals had dealers.
    leaves = [key for key in executor.loader.graph.leaf_nodes() if key[0] != "scoring"]
    executor.migrate(BEFORE)
    old = executor.loader.project_state([*leaves, *BEFORE]).apps
    club = old.get_model("club", "Club").objects.create(
        name="Old Club", slug="old-club", city="Kyiv", pool_target=10
    )
    evening = old.get_model("scoring", "Evening").objects.create(club=club)
    pulka = old.get_model("scoring", "Pulka").objects.create(
        evening=evening, table=1, rules={"pool_target": 10}, first_dealer=1
    )
    Player = old.get_model("club", "Player")
    for position, name in enumerate(("Anna", "Boris", "Vera")):
        player = Player.objects.create(club=club, name=name, name_key=name_key(name))
        old.get_model("scoring", "Seat").objects.create(
            pulka=pulka, position=position, player=player
        )
    OldDeal = old.get_model("scoring", "Deal")
    # Deals 1-2 follow the rotation from Boris; deal 3 was dealt by Anna out of turn (an
    # override), and the rotation goes on from her.
    for number, dealer in ((1, None), (2, None), (3, 0), (4, None), (5, None)):
        OldDeal.objects.create(
            pulka=pulka, number=number, kind="raspasy", tricks=RASPASY, dealer=dealer
        )

    call_command("migrate", verbosity=0)

    assert list(
        Deal.objects.filter(pulka_id=pulka.pk).order_by("number").values_list("dealer", flat=True)
    ) == [1, 2, 0, 1, 2]
    sheet = selectors.pulka_sheet(Pulka.objects.get(pk=pulka.pk))
    assert [s.dealer for s in sheet.snapshots] == ["Boris", "Vera", "Anna", "Boris", "Vera"]
