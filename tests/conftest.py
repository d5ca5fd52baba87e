"""Personas and plain factories shared by every test.

Personas (style.md): an owner and a secretary of club A, a player of club A, a member of
club B only (an outsider to A: 404 on A's private pages), and anonymous.
"""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from club.models import Club, Membership, Player, Role
from scoring.models import Evening

_seq = itertools.count(1)
PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: ids and slugs repeat from test to test."""
    cache.clear()


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Tests read English labels unless they ask for a language (Accept-Language)."""
    settings.LANGUAGE_CODE = "en"


def make_user(**overrides):
    n = next(_seq)
    fields = {"username": f"user{n}", **overrides}
    user = get_user_model().objects.create_user(password=PASSWORD, **fields)
    return user


def make_club(**overrides) -> Club:
    n = next(_seq)
    fields = {"name": f"Club {n}", "slug": f"club-{n}", "city": "Kyiv", "pool_target": 10}
    fields.update(overrides)
    return Club.objects.create(**fields)


def make_member(club: Club, role: str = Role.PLAYER, user=None, **overrides) -> Membership:
    return Membership.objects.create(club=club, user=user or make_user(**overrides), role=role)


def make_player(club: Club, name: str | None = None, **overrides) -> Player:
    return Player.objects.create(club=club, name=name or f"Player {next(_seq)}", **overrides)


def make_evening(club: Club, **overrides) -> Evening:
    return Evening.objects.create(club=club, **{"venue": "Club room", **overrides})


def make_pulka(evening: Evening, names=("Anna", "Boris", "Vera"), first_dealer=0, rules=None):
    from scoring.services import pulka_create

    players = [Player.objects.get_or_create(club=evening.club, name=name)[0] for name in names]
    return pulka_create(
        evening=evening,
        players=players,
        first_dealer=players[first_dealer],
        rules={"pool_target": evening.club.pool_target, **(rules or {})},
        created_by=None,
    )


def record(pulka, *deals):
    from scoring.services import deal_record

    sheet = None
    for data in deals:
        _, sheet = deal_record(pulka=pulka, data=data, entered_by=None)
    return sheet


@pytest.fixture
def club_a(db) -> Club:
    return make_club(name="Sochi Club", slug="sochi", is_public=False)


@pytest.fixture
def club_b(db) -> Club:
    return make_club(name="Other Club", slug="other", is_public=False)


@pytest.fixture
def public_club(db) -> Club:
    return make_club(name="Open Club", slug="open", is_public=True)


@pytest.fixture
def owner(club_a):
    return make_member(club_a, Role.OWNER, username="olena").user


@pytest.fixture
def secretary(club_a):
    return make_member(club_a, Role.SECRETARY, username="serhii").user


@pytest.fixture
def player(club_a):
    return make_member(club_a, Role.PLAYER, username="petro").user


@pytest.fixture
def outsider(club_b):
    return make_member(club_b, Role.OWNER, username="bohdan").user


PERSONAS = ("anonymous", "outsider", "player", "secretary", "owner")


@pytest.fixture
def as_persona(client, request):
    """as_persona("secretary") logs the client in as that persona and returns it."""

    def login(name: str):
        if name != "anonymous":
            client.force_login(request.getfixturevalue(name))
        return client

    return login


HTMX = {"HX-Request": "true"}
