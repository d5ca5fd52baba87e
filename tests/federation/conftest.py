"""A small federation for the federation tests: three member clubs and the personas of the
permission matrix (anonymous, a member of a member club, a club owner, a federation judge,
the federation owner, an outsider)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from club.models import Role
from competition.tournament import services as tournament_services
from federation import events
from federation.models import (
    Category,
    EntryCategory,
    Federation,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    Person,
    PersonLink,
)
from tests.competition.factories import make_tournament, play_round
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


def make_event(federation: Federation, club, *, names=(), start=None, **overrides):
    """An open event (federation.events.event_open) of a new tournament of `club` a week
    ahead, registration closing in three days; `names` entered by the club beforehand."""
    today = timezone.localdate()
    tournament = make_tournament(
        club, names=names, name="Open Cup", start=start or today + datetime.timedelta(days=7)
    )
    terms = {"deadline": timezone.now() + datetime.timedelta(days=3), **overrides}
    return events.event_open(federation=federation, tournament=tournament, **terms)


@pytest.fixture
def event(federation, clubs):
    """An open event of the Kyiv Club (clubs[0]), no cap, free."""
    return make_event(federation, clubs[0])


SEVEN = ("Anna", "Boris", "Vera", "Gleb", "Dana", "Lena", "Mark")


def played_cup(federation: Federation, club, *, names=SEVEN):
    """An open event of `club` played over 2 confirmed rounds at real tables (4 and 3, then
    3 and 3): Mark withdrew after round 1; categories "Masters" (Anna, Boris, Vera) and
    "Women" (Vera, Dana, Lena), both the organiser's choice; Anna is a person of the
    federation. Returns the tournament."""
    event = make_event(federation, club, names=names)
    tournament = event.tournament
    entries = {entry.player.name: entry for entry in tournament.entries.select_related("player")}
    for position, (name, members) in enumerate(
        (("Masters", ("Anna", "Boris", "Vera")), ("Women", ("Vera", "Dana", "Lena")))
    ):
        category = Category.objects.create(
            event=event, name=name, eligibility="chosen", position=position
        )
        for member in members:
            EntryCategory.objects.create(category=category, entry=entries[member])
    anna = Person.objects.create(federation=federation, name="Anna")
    PersonLink.objects.create(federation=federation, person=anna, player=entries["Anna"].player)
    play_round(tournament, deals=4, seed="cup")
    tournament_services.entry_withdraw(entry=entries["Mark"])
    play_round(tournament, deals=4, seed="cup")
    tournament.refresh_from_db()
    return tournament
