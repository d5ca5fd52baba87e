"""One player across the clubs: persons linked by the account, a host club's roster name
for a person, proposals the clubs' owners confirm or refuse, merging and splitting, and the
link history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Player, Role
from federation import persons, services
from federation.models import (
    Federation,
    LinkAction,
    LinkEvent,
    LinkProposal,
    MemberClub,
    Person,
    PersonLink,
    ProposalState,
)
from federation.persons import PersonError
from federation.signals import counting_changed
from tests.conftest import make_club, make_evening, make_member, make_pulka, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def told():
    heard: list[Federation] = []

    def receiver(sender, federation, **kwargs):
        heard.append(federation)

    counting_changed.connect(receiver, weak=False)
    yield heard
    counting_changed.disconnect(receiver)


def person_of(player: Player) -> Person:
    return PersonLink.objects.get(player=player).person


def actions(person: Person) -> list[str]:
    return list(
        LinkEvent.objects.filter(person=person).order_by("pk").values_list("action", flat=True)
    )


# --- persons_sync --------------------------------------------------------------------------------


def test_names_of_one_account_in_two_clubs_are_one_person(federation, clubs, told):
    anna = make_user(username="anna")
    in_kyiv = Player.objects.create(club=clubs[0], name="Anna K.", user=anna)
    in_lviv = Player.objects.create(club=clubs[2], name="Анна", user=anna)

    linked = persons.persons_sync(federation)

    assert linked == 2
    person = person_of(in_kyiv)
    assert person == person_of(in_lviv)
    assert (person.name, person.user) == ("Anna K.", anna)
    assert actions(person) == [LinkAction.AUTO, LinkAction.AUTO]
    assert told == [federation]


def test_a_name_that_played_gets_a_person_of_its_own_and_an_idle_one_none(federation, clubs):
    make_pulka(make_evening(clubs[1]), names=("Borys", "Vira", "Hlib"))
    idle = Player.objects.create(club=clubs[1], name="Never played")

    persons.persons_sync(federation)

    played = Player.objects.filter(club=clubs[1], seats__isnull=False).distinct()
    assert {person_of(p).name for p in played} == {"Borys", "Vira", "Hlib"}
    assert len({person_of(p).pk for p in played}) == 3
    assert not PersonLink.objects.filter(player=idle).exists()


def test_sync_links_a_new_name_to_the_accounts_existing_person_and_is_idempotent(federation, clubs):
    anna = make_user(username="anna")
    first = Player.objects.create(club=clubs[0], name="Anna", user=anna)
    persons.persons_sync(federation)
    second = Player.objects.create(club=clubs[2], name="Anna L.", user=anna)

    assert persons.persons_sync(federation, clubs=[clubs[2]]) == 1
    assert persons.persons_sync(federation) == 0

    assert person_of(second) == person_of(first)
    assert Person.objects.filter(federation=federation).count() == 1


def test_sync_of_many_names_costs_a_few_queries(federation, clubs, monkeypatch):
    for club in clubs:
        for n in range(30):
            Player.objects.create(club=club, name=f"P{n}", user=make_user())
    sent = []
    # The rating list's own rebuild (its receiver) is not the sync's work.
    monkeypatch.setattr(counting_changed, "send", lambda **kwargs: sent.append(kwargs))

    with CaptureQueriesContext(connection) as queries:
        linked = persons.persons_sync(federation)

    assert linked == 90
    assert len(queries) <= 10
    assert len(sent) == 1


def test_a_club_that_is_not_a_member_is_not_synced(federation):
    club = make_club(slug="elsewhere-club")
    Player.objects.create(club=club, name="Far", user=make_user())

    assert persons.persons_sync(federation) == 0


# --- roster_name_for -----------------------------------------------------------------------------


@pytest.fixture
def taras(federation, clubs) -> Person:
    """Taras of the Lviv club, with an account."""
    user = make_user(username="taras")
    Player.objects.create(club=clubs[2], name="Taras", user=user)
    persons.persons_sync(federation)
    return Person.objects.get(user=user)


def test_a_person_with_a_name_in_the_club_gets_that_name(clubs, taras):
    lviv_name = Player.objects.get(club=clubs[2], name="Taras")

    assert persons.roster_name_for(club=clubs[2], person=taras) == lviv_name


def test_the_clubs_name_of_his_account_is_linked_to_him(federation, clubs, taras):
    unlinked = Player.objects.create(club=clubs[0], name="T. Shevchenko", user=taras.user)

    found = persons.roster_name_for(club=clubs[0], person=taras)

    assert found == unlinked
    assert person_of(unlinked) == taras


def test_a_guest_name_is_made_named_as_the_person(clubs, taras):
    guest = persons.roster_name_for(club=clubs[0], person=taras)

    assert (guest.club, guest.name, guest.user) == (clubs[0], "Taras", None)
    assert person_of(guest) == taras
    assert persons.roster_name_for(club=clubs[0], person=taras) == guest  # once


def test_a_guest_name_that_clashes_takes_his_clubs_name_then_a_number(federation, clubs, taras):
    Player.objects.create(club=clubs[0], name="TARAS")

    guest = persons.roster_name_for(club=clubs[0], person=taras)

    assert guest.name == "Taras (Lviv Club)"
    Player.objects.create(club=clubs[1], name="Taras")
    Player.objects.create(club=clubs[1], name="Taras (Lviv Club)")
    assert persons.roster_name_for(club=clubs[1], person=taras).name == "Taras 2"


def test_a_person_without_account_gets_a_name_by_the_users_account(federation, clubs):
    person = Person.objects.create(federation=federation, name="Olena")
    olena = make_user(username="olena")
    hers = Player.objects.create(club=clubs[0], name="Olena P.", user=olena)

    assert persons.roster_name_for(club=clubs[0], person=person, user=olena) == hers
    assert person_of(hers) == person


# --- proposals -----------------------------------------------------------------------------------


@pytest.fixture
def owners(clubs):
    """The owners of the three clubs."""
    return [make_member(club, Role.OWNER).user for club in clubs]


@pytest.fixture
def pair(federation, clubs):
    """Ivan of Kyiv and Ivan of Lviv, unrelated persons (they played, no accounts)."""
    make_pulka(make_evening(clubs[0]), names=("Ivan", "Kyiv B", "Kyiv C"))
    make_pulka(make_evening(clubs[2]), names=("Ivan P.", "Lviv B", "Lviv C"))
    persons.persons_sync(federation)
    kyiv = Player.objects.get(club=clubs[0], name="Ivan")
    lviv = Player.objects.get(club=clubs[2], name="Ivan P.")
    return kyiv, lviv


def test_a_proposal_confirmed_by_both_clubs_moves_the_link_and_merges(
    federation, clubs, owners, judge, pair, told
):
    kyiv, lviv = pair
    target, left = person_of(kyiv), person_of(lviv)

    proposal = persons.proposal_create(
        federation=federation, person=target, player=lviv, actor=judge
    )
    assert sorted(proposal.clubs_awaiting) == sorted([clubs[0].pk, clubs[2].pk])
    persons.proposal_decide(proposal=proposal, actor=owners[0], confirm=True)
    assert person_of(lviv) == left  # still waits for Lviv
    told.clear()
    persons.proposal_decide(proposal=proposal, actor=owners[2], confirm=True)

    proposal.refresh_from_db()
    left.refresh_from_db()
    assert proposal.state == ProposalState.DONE
    assert person_of(lviv) == target
    assert left.merged_into == target
    assert LinkAction.CONFIRMED in actions(target)
    assert LinkAction.MERGED in actions(left)
    assert told == [federation]


def test_one_refusal_refuses_the_proposal(federation, clubs, owners, judge, pair):
    kyiv, lviv = pair
    target, left = person_of(kyiv), person_of(lviv)
    proposal = persons.proposal_create(
        federation=federation, person=target, player=lviv, actor=judge
    )

    persons.proposal_decide(proposal=proposal, actor=owners[0], confirm=True)
    persons.proposal_decide(proposal=proposal, actor=owners[2], confirm=False)

    proposal.refresh_from_db()
    assert proposal.state == ProposalState.REFUSED
    assert person_of(lviv) == left
    assert actions(target)[-1] == LinkAction.REFUSED
    with pytest.raises(PersonError, match="decided already"):
        persons.proposal_decide(proposal=proposal, actor=owners[0], confirm=True)


def test_the_proposers_own_club_confirms_by_proposing(federation, clubs, owners, pair):
    kyiv, lviv = pair

    proposal = persons.proposal_create(
        federation=federation, person=person_of(kyiv), player=lviv, actor=owners[0]
    )

    assert proposal.clubs_awaiting == [clubs[2].pk]
    assert proposal.clubs_confirmed == [clubs[0].pk]


def test_a_proposal_nobody_else_must_confirm_moves_at_once(federation, clubs, pair):
    kyiv, lviv = pair
    boss = make_user(username="boss")
    for club in (clubs[0], clubs[2]):
        make_member(club, Role.OWNER, user=boss)

    proposal = persons.proposal_create(
        federation=federation, person=person_of(kyiv), player=lviv, actor=boss
    )

    assert proposal.state == ProposalState.DONE
    assert person_of(lviv) == person_of(kyiv)


def test_an_owner_of_no_club_asked_cannot_decide(federation, clubs, owners, judge, pair):
    kyiv, lviv = pair
    proposal = persons.proposal_create(
        federation=federation, person=person_of(kyiv), player=lviv, actor=judge
    )

    with pytest.raises(PersonError, match="No club of yours"):
        persons.proposal_decide(proposal=proposal, actor=owners[1], confirm=True)


def test_a_name_of_a_club_that_left_is_refused(federation, clubs, owners, judge, pair):
    kyiv, lviv = pair
    proposal = persons.proposal_create(
        federation=federation, person=person_of(kyiv), player=lviv, actor=judge
    )

    services.member_end(member=MemberClub.objects.get(club=clubs[2]), actor=owners[2])

    proposal.refresh_from_db()
    assert proposal.state == ProposalState.REFUSED
    with pytest.raises(PersonError, match="Lviv Club is not a member"):
        persons.proposal_create(
            federation=federation, person=person_of(kyiv), player=lviv, actor=judge
        )


def test_a_second_open_proposal_for_a_name_or_its_own_person_is_refused(
    federation, owners, judge, pair
):
    kyiv, lviv = pair
    persons.proposal_create(federation=federation, person=person_of(kyiv), player=lviv, actor=judge)

    with pytest.raises(PersonError, match="already waits"):
        persons.proposal_create(
            federation=federation, person=person_of(kyiv), player=lviv, actor=judge
        )
    with pytest.raises(PersonError, match="already"):
        persons.proposal_create(
            federation=federation, person=person_of(kyiv), player=kyiv, actor=judge
        )
    assert LinkProposal.objects.count() == 1


# --- merge and split -----------------------------------------------------------------------------


def test_merging_two_persons_proposes_each_name_and_merges_when_confirmed(
    federation, clubs, owners, judge, pair
):
    kyiv, lviv = pair
    a, b = person_of(kyiv), person_of(lviv)

    proposals = persons.persons_merge(federation=federation, person=a, other=b, actor=judge)
    assert [p.player for p in proposals] == [lviv]
    for owner in owners:
        for p in LinkProposal.objects.filter(state=ProposalState.OPEN):
            if persons.owned_club_ids(owner, p.clubs_awaiting):
                persons.proposal_decide(proposal=p, actor=owner, confirm=True)

    b.refresh_from_db()
    assert b.merged_into == a
    assert {link.player for link in PersonLink.objects.filter(person=a)} == {kyiv, lviv}


def test_a_person_is_not_merged_with_himself(federation, judge, pair):
    a = person_of(pair[0])

    with pytest.raises(PersonError, match="already himself"):
        persons.persons_merge(federation=federation, person=a, other=a, actor=judge)


def test_split_moves_chosen_names_to_a_new_person_at_once(federation, clubs, judge, told):
    anna = make_user(username="anna")
    mine = Player.objects.create(club=clubs[0], name="Anna", user=anna)
    wrong = Player.objects.create(club=clubs[2], name="Anna L.", user=anna)
    persons.persons_sync(federation)
    person = person_of(mine)
    told.clear()

    new = persons.person_split(federation=federation, person=person, players=[wrong], actor=judge)

    assert person_of(wrong) == new
    assert person_of(mine) == person
    assert new.name == "Anna L."
    assert person.user == anna
    assert new.user is None
    assert actions(person)[-1] == LinkAction.SPLIT
    assert actions(new) == [LinkAction.SPLIT]
    assert LinkEvent.objects.get(person=new).other == person
    assert told == [federation]


def test_a_split_keeps_at_least_one_name(federation, clubs, judge):
    only = Player.objects.create(club=clubs[0], name="Solo", user=make_user())
    persons.persons_sync(federation)

    with pytest.raises(PersonError, match="at least one roster name"):
        persons.person_split(
            federation=federation, person=person_of(only), players=[only], actor=judge
        )
    with pytest.raises(PersonError, match="Choose the roster names"):
        persons.person_split(federation=federation, person=person_of(only), players=[], actor=judge)
