"""A small federation for the federation tests: three member clubs and the personas of the
permission matrix (anonymous, a member of a member club, a club owner, a federation judge,
the federation owner, an outsider)."""

from __future__ import annotations

import datetime

import pytest

from club.models import Role
from federation.models import Federation, MemberClub, MemberState, Officer, OfficerRole
from tests.conftest import make_club, make_member, make_user

FEDERATION_PERSONAS = ("anonymous", "outsider", "member", "club_owner", "judge", "fed_owner")


def make_federation(**overrides) -> Federation:
    fields = {"name": "Kyiv Preferans Federation", "slug": "kpf", "place": "Kyiv", **overrides}
    return Federation.objects.create(**fields)


def join(federation: Federation, club, *, on: datetime.date | None = None) -> MemberClub:
    """The club is a member (as if it had accepted an invitation on `on`)."""
    return MemberClub.objects.create(
        federation=federation,
        club=club,
        state=MemberState.MEMBER,
        joined_on=on or datetime.date(2026, 1, 1),
    )


@pytest.fixture
def federation(db) -> Federation:
    return make_federation()


@pytest.fixture
def clubs(federation):
    """Three member clubs: two in Kyiv, one in Lviv (public, private, public)."""
    made = [
        make_club(name="Kyiv Club", slug="kyiv", city="Kyiv", is_public=True),
        make_club(name="Pechersk Club", slug="pechersk", city="Kyiv", is_public=False),
        make_club(name="Lviv Club", slug="lviv", city="Lviv", is_public=True),
    ]
    for club in made:
        join(federation, club)
    return made


@pytest.fixture
def fed_owner(federation):
    user = make_user(username="fedir")
    Officer.objects.create(federation=federation, user=user, role=OfficerRole.OWNER)
    return user


@pytest.fixture
def judge(federation):
    user = make_user(username="yurii")
    Officer.objects.create(federation=federation, user=user, role=OfficerRole.JUDGE)
    return user


@pytest.fixture
def club_owner(clubs):
    return make_member(clubs[0], Role.OWNER, username="kateryna").user


@pytest.fixture
def member(clubs):
    return make_member(clubs[0], Role.PLAYER, username="maksym").user


@pytest.fixture
def outsider(db):
    """Signed in, owner of a club outside the federation, no office."""
    return make_member(make_club(name="Elsewhere", slug="elsewhere"), Role.OWNER).user
