"""The federation's core pages for every persona (anonymous, an outsider, a member of a member
club, a club's owner, a judge, the federation's owner), as a page and as an htmx fragment,
and bad input that changes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.models import Player, Role
from federation import persons
from federation.models import (
    Federation,
    LinkProposal,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    Person,
    PersonLink,
    ProposalState,
)
from tests.club.factories import (
    assert_forbidden,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    assert_not_found,
    html,
)
from tests.competition.factories import make_tournament
from tests.conftest import HTMX, database_state, make_club, make_member, make_user
from tests.federation.conftest import FEDERATION_PERSONAS

pytestmark = pytest.mark.django_db

OFFICERS = {"judge", "fed_owner"}


@pytest.fixture
def login(client, request):
    def as_(persona: str):
        if persona != "anonymous":
            client.force_login(request.getfixturevalue(persona))
        return client

    return as_


@pytest.fixture
def world(federation, clubs, fed_owner, judge, club_owner, member, outsider):
    """Two persons with names in Kyiv and Lviv; a tournament in the public Kyiv club and one
    in the private Pechersk club."""
    anna = make_user(username="anna")
    Player.objects.create(club=clubs[0], name="Anna", user=anna)
    Player.objects.create(club=clubs[2], name="Boris", user=make_user(username="boris"))
    persons.persons_sync(federation)
    make_tournament(clubs[0], names=("Anna", "Kyiv B", "Kyiv C"), name="Kyiv Cup")
    make_tournament(clubs[1], names=("P A", "P B", "P C"), name="Secret Cup")
    return federation


def url(name: str, *args) -> str:
    return reverse(f"federation:{name}", args=args)


def world_user(username: str):
    return get_user_model().objects.get(username=username)


def anna() -> Person:
    return Person.objects.get(name="Anna")


def boris() -> Person:
    return Person.objects.get(name="Boris")


# --- pages every persona reads -------------------------------------------------------------------

PAGES = [
    ("list", lambda: [], "federations", "Kyiv Preferans Federation"),
    ("detail", lambda: ["kpf"], "home", "Kyiv Club"),
    ("officers", lambda: ["kpf"], "officers", "fedir"),
    ("clubs", lambda: ["kpf"], "clubs", "Lviv Club"),
    ("persons", lambda: ["kpf"], "persons", "Boris"),
    ("person", lambda: ["kpf", anna().pk], "person", "Anna"),
]


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize(("name", "args", "fragment", "shown"), PAGES, ids=[p[0] for p in PAGES])
def test_every_persona_reads_the_public_pages_and_their_fragments(
    login, world, persona, name, args, fragment, shown
):
    client = login(persona)
    address = url(name, *args())

    page = assert_full_page(client.get(address), fragment)
    part = assert_fragment(client.get(address, headers=HTMX), fragment)

    assert shown in page
    assert shown in part


@pytest.mark.parametrize(("name", "args"), [(p[0], p[1]) for p in PAGES[1:]])
def test_an_unknown_federation_is_404(login, world, name, args):
    address = url(name, *args()).replace("/f/kpf/", "/f/nowhere/")

    assert_not_found(login("fed_owner").get(address))


@pytest.mark.parametrize(
    ("persona", "sees_secret"),
    [("anonymous", False), ("outsider", False), ("pechersk_member", True), ("fed_owner", False)],
)
def test_a_private_clubs_tournament_is_on_the_calendar_for_its_members_only(
    client, world, clubs, persona, sees_secret
):
    if persona == "pechersk_member":
        client.force_login(make_member(clubs[1], Role.PLAYER).user)
    elif persona != "anonymous":
        client.force_login(
            make_user() if persona == "outsider" else Officer.objects.get(role="owner").user
        )

    text = html(client.get(url("detail", "kpf")))

    assert "Kyiv Cup" in text
    assert ("Secret Cup" in text) is sees_secret


def test_the_home_page_shows_the_officers_and_a_club_that_left_greyed(client, world, clubs):
    member = MemberClub.objects.get(club=clubs[2])
    MemberClub.objects.filter(pk=member.pk).update(
        state=MemberState.LEFT, left_on=datetime.date(2026, 3, 1)
    )

    text = html(client.get(url("detail", "kpf")))

    assert "fedir" in text
    assert "yurii" in text
    assert 'class="muted left-club"' in text
    assert "left on March 1, 2026" in text


def test_the_persons_are_found_by_name_whatever_the_case(client, world):
    text = assert_fragment(
        client.get(url("persons", "kpf"), {"q": "  ANNA "}, headers=HTMX), "persons"
    )

    assert "Anna" in text
    assert "Boris" not in text


@pytest.mark.parametrize("page", ["0", "-1", "²", "9" * 30, "x"])
def test_a_page_the_list_cannot_have_is_the_first(client, world, page):
    response = client.get(url("persons", "kpf"), {"page": page})

    assert "Anna" in assert_full_page(response, "persons")


def test_a_merged_persons_page_leads_to_the_person_he_was_merged_into(client, world):
    Person.objects.filter(pk=boris().pk).update(merged_into=anna())

    response = client.get(url("person", "kpf", boris().pk))

    assert response.status_code == 302
    assert response["Location"] == url("person", "kpf", anna().pk)


def test_a_person_of_another_federation_is_404(client, world):
    other = Federation.objects.create(name="Other", slug="other-fed")
    stranger = Person.objects.create(federation=other, name="Stranger")

    assert_not_found(client.get(url("person", "kpf", stranger.pk)), "Stranger")


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_officers_see_the_person_tools(login, world, persona):
    text = html(login(persona).get(url("person", "kpf", anna().pk)))

    assert ('id="person-tools"' in text) is (persona in OFFICERS)


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_private_clubs_roster_name_shows_only_to_its_members_and_the_officers(
    login, world, clubs, persona, htmx
):
    """Anna also plays in the private Pechersk club as "Nusia": a name of a private club is
    for its members (as its pages are) and the federation's officers; others read that a
    name is left out."""
    secret = Player.objects.create(club=clubs[1], name="Nusia")
    PersonLink.objects.create(federation=world, person=anna(), player=secret)
    if persona == "member":
        make_member(clubs[1], Role.PLAYER, user=world_user("maksym"))
    client = login(persona)

    response = client.get(url("person", "kpf", anna().pk), headers=HTMX if htmx else {})
    text = html(response)

    assert response.status_code == 200
    assert 'id="link-' in text  # her public Kyiv name is there for everyone
    if persona in {"member", "judge", "fed_owner"}:
        assert "Nusia" in text
        assert 'id="hidden-names"' not in text
    else:
        assert "Nusia" not in text
        assert "1 roster name in a private club" in text


# --- opening a federation ------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in_to_open_a_federation(client, db):
    assert_login_redirect(client.get(url("create")), url("create"))
    assert_htmx_login_redirect(client.post(url("create"), {"name": "X"}, headers=HTMX))


def test_a_signed_in_user_opens_a_federation_and_owns_it(client, db):
    user = make_user()
    client.force_login(user)

    response = client.post(
        url("create"), {"name": "Одеська федерація", "slug": "", "place": "Odesa"}
    )

    federation = Federation.objects.get(name="Одеська федерація")
    assert federation.slug == "odeska-federatsiya"
    assert response["Location"] == federation.get_absolute_url()
    assert Officer.objects.get(federation=federation).user == user


def test_a_taken_short_name_is_refused_on_the_form(client, federation):
    client.force_login(make_user())
    before = database_state()

    response = client.post(url("create"), {"name": "Another", "slug": "kpf"}, headers=HTMX)

    text = assert_fragment(response, "form")
    assert "already uses the link /f/kpf/" in text
    assert database_state() == before
    assert Federation.objects.count() == 1


# --- officers ------------------------------------------------------------------------------------

REFUSED = {"outsider": 403, "member": 403, "club_owner": 403, "judge": 403}


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_only_the_federation_owner_adds_an_officer(login, world, persona, htmx):
    make_user(username="newbie")
    client = login(persona)

    response = client.post(
        url("officers", "kpf"), {"to": "newbie", "role": "judge"}, headers=HTMX if htmx else {}
    )

    added = Officer.objects.filter(user__username="newbie").exists()
    if persona == "anonymous":
        assert not added
        if htmx:
            assert_htmx_login_redirect(response)
        else:
            assert_login_redirect(response, url("officers", "kpf"))
    elif persona in REFUSED:
        assert_forbidden(response)
        assert not added
    else:
        assert added
        if htmx:
            assert "newbie is now judge of the federation." in assert_fragment(response, "officers")
        else:
            assert response["Location"] == url("officers", "kpf")


@pytest.mark.parametrize(
    ("to", "message"),
    [("nobody-at-all", "No account goes by nobody-at-all"), ("yurii", "already an officer")],
)
def test_an_unknown_or_present_officer_is_refused_and_nothing_changes(login, world, to, message):
    client = login("fed_owner")
    before = database_state()

    response = client.post(url("officers", "kpf"), {"to": to, "role": "judge"}, headers=HTMX)

    assert message in assert_fragment(response, "officers")
    assert database_state() == before


def test_the_last_owner_cannot_be_removed_or_demoted(login, world, fed_owner):
    client = login("fed_owner")
    officer = Officer.objects.get(user=fed_owner)
    address = url("officer-update", "kpf", officer.pk)

    removed = client.post(address, {"remove": "1"}, headers=HTMX)
    demoted = client.post(address, {"role": "judge"})

    assert "only owner and cannot be removed" in assert_fragment(removed, "officers")
    assert demoted.status_code == 302
    officer.refresh_from_db()
    assert officer.role == OfficerRole.OWNER


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_the_federation_owner_changes_a_role(login, world, persona, judge):
    officer = Officer.objects.get(user=judge)

    response = login(persona).post(
        url("officer-update", "kpf", officer.pk), {"role": "owner"}, headers=HTMX
    )

    officer.refresh_from_db()
    if persona == "fed_owner":
        assert "yurii is now owner" in assert_fragment(response, "officers")
        assert officer.role == OfficerRole.OWNER
    else:
        assert officer.role == OfficerRole.JUDGE
        assert response.status_code == (204 if persona == "anonymous" else 403)


# --- member clubs --------------------------------------------------------------------------------


@pytest.fixture
def odesa(world):
    club = make_club(name="Odesa Club", slug="odesa", city="Odesa")
    owner = make_member(club, Role.OWNER, username="oksana").user
    return club, owner


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_the_federation_owner_invites_a_club(login, odesa, persona):
    response = login(persona).post(url("clubs", "kpf"), {"club": "odesa"}, headers=HTMX)

    invited = MemberClub.objects.filter(club=odesa[0], state=MemberState.INVITED).exists()
    assert invited is (persona == "fed_owner")
    if persona == "fed_owner":
        assert "Odesa Club is invited" in assert_fragment(response, "clubs")
    elif persona == "anonymous":
        assert_htmx_login_redirect(response)
    else:
        assert_forbidden(response)


@pytest.mark.parametrize(
    ("club", "message"),
    [
        ("kyiv", "Kyiv Club is already a member"),
        ("nowhere", "No club goes by the link /c/nowhere/"),
    ],
)
def test_a_club_already_in_or_unknown_is_not_invited(login, world, club, message):
    client = login("fed_owner")
    before = database_state()

    response = client.post(url("clubs", "kpf"), {"club": club}, headers=HTMX)

    assert message in assert_fragment(response, "clubs")
    assert database_state() == before


def test_the_invited_clubs_owner_sees_the_invitation_and_accepts_it(client, odesa, fed_owner):
    club, oksana = odesa
    Player.objects.create(club=club, name="Taras", user=oksana)
    client.force_login(fed_owner)
    client.post(url("clubs", "kpf"), {"club": "odesa"})
    member = MemberClub.objects.get(club=club)
    client.force_login(oksana)

    listed = html(client.get(url("list")))
    on_page = html(client.get(url("clubs", "kpf")))
    response = client.post(
        url("member-update", "kpf", member.pk), {"action": "accept", "back": "list"}
    )

    assert f'id="invitation-{member.pk}"' in listed
    assert f'id="invitation-{member.pk}"' in on_page
    assert response["Location"] == url("list")
    member.refresh_from_db()
    assert member.state == MemberState.MEMBER
    assert PersonLink.objects.filter(player__club=club).count() == 1


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_the_clubs_owner_answers_an_invitation(login, odesa, fed_owner, persona):
    member = MemberClub.objects.create(
        federation=Federation.objects.get(slug="kpf"), club=odesa[0], invited_by=fed_owner
    )

    response = login(persona).post(
        url("member-update", "kpf", member.pk), {"action": "accept"}, headers=HTMX
    )

    member.refresh_from_db()
    assert member.state == MemberState.INVITED
    assert response.status_code == (204 if persona == "anonymous" else 403)


def test_the_clubs_owner_declines_and_the_federation_withdraws(client, odesa, fed_owner):
    federation = Federation.objects.get(slug="kpf")
    first = MemberClub.objects.create(federation=federation, club=odesa[0], invited_by=fed_owner)
    client.force_login(odesa[1])
    declined = client.post(
        url("member-update", "kpf", first.pk), {"action": "decline"}, headers=HTMX
    )
    second = MemberClub.objects.create(federation=federation, club=odesa[0], invited_by=fed_owner)
    client.force_login(fed_owner)
    withdrawn = client.post(
        url("member-update", "kpf", second.pk), {"action": "withdraw"}, headers=HTMX
    )

    assert "declined the invitation" in assert_fragment(declined, "clubs")
    assert "is withdrawn" in assert_fragment(withdrawn, "clubs")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, second.state) == (MemberState.DECLINED, MemberState.CANCELLED)


@pytest.mark.parametrize(
    ("persona", "action", "ends"),
    [
        ("club_owner", "leave", True),
        ("fed_owner", "end", True),
        ("fed_owner", "leave", False),  # not his club
        ("club_owner", "end", False),  # not the federation's owner
        ("judge", "end", False),
        ("member", "leave", False),
        ("outsider", "leave", False),
    ],
)
def test_either_side_ends_a_membership_and_nobody_else(login, world, clubs, persona, action, ends):
    member = MemberClub.objects.get(club=clubs[0])

    response = login(persona).post(
        url("member-update", "kpf", member.pk), {"action": action}, headers=HTMX
    )

    member.refresh_from_db()
    if ends:
        assert "Kyiv Club is no longer a member" in assert_fragment(response, "clubs")
        assert member.state == MemberState.LEFT
    else:
        assert_forbidden(response)
        assert member.state == MemberState.MEMBER


def test_a_membership_of_another_federation_is_404(login, world, clubs):
    other = Federation.objects.create(name="Other", slug="other-fed")
    theirs = MemberClub.objects.create(federation=other, club=clubs[0], state=MemberState.MEMBER)

    response = login("club_owner").post(url("member-update", "kpf", theirs.pk), {"action": "leave"})

    assert_not_found(response)
    theirs.refresh_from_db()
    assert theirs.state == MemberState.MEMBER


# --- persons: proposals, merge, split ------------------------------------------------------------


@pytest.fixture
def lviv_owner(clubs):
    return make_member(clubs[2], Role.OWNER, username="lev").user


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_only_officers_propose_a_link(login, world, lviv_owner, persona, htmx):
    response = login(persona).post(
        url("person-propose", "kpf", anna().pk),
        {"club": str(Player.objects.get(name="Boris").club_id), "name": "boris"},
        headers=HTMX if htmx else {},
    )

    proposed = LinkProposal.objects.exists()
    assert proposed is (persona in OFFICERS)
    if persona in OFFICERS:
        if htmx:
            assert "waits for the owners" in assert_fragment(response, "person")
        else:
            assert response["Location"] == url("person", "kpf", anna().pk)
    elif persona == "anonymous":
        assert response.status_code == (204 if htmx else 302)
    else:
        assert_forbidden(response)


def test_a_roster_name_the_club_does_not_have_is_refused_on_the_form(login, world, clubs):
    client = login("judge")
    before = database_state()

    response = client.post(
        url("person-propose", "kpf", anna().pk),
        {"club": str(clubs[2].pk), "name": "Nobody"},
        headers=HTMX,
    )

    assert "Lviv Club has no roster name Nobody." in assert_fragment(response, "person")
    assert database_state() == before


def test_the_clubs_owners_confirm_a_proposal_on_the_persons_page(
    client, world, clubs, judge, club_owner, lviv_owner
):
    boris_name = Player.objects.get(name="Boris")
    proposal = persons.proposal_create(
        federation=world, person=anna(), player=boris_name, actor=judge
    )
    address = url("proposal-decide", "kpf", proposal.pk)
    client.force_login(club_owner)
    page = html(client.get(url("person", "kpf", anna().pk)))
    first = client.post(address, {"decision": "confirm"}, headers=HTMX)
    client.force_login(lviv_owner)
    listed = html(client.get(url("list")))
    second = client.post(address, {"decision": "confirm", "back": "list"})

    assert 'value="confirm"' in page
    assert "waits for the owners" in assert_fragment(first, "person")
    assert f'id="proposal-{proposal.pk}"' in listed
    assert second["Location"] == url("list")
    proposal.refresh_from_db()
    assert proposal.state == ProposalState.DONE
    assert PersonLink.objects.get(player=boris_name).person == anna()


@pytest.mark.parametrize("persona", ["outsider", "member", "judge", "fed_owner"])
def test_only_the_owners_asked_confirm_a_proposal(login, world, judge, persona):
    proposal = persons.proposal_create(
        federation=world, person=anna(), player=Player.objects.get(name="Boris"), actor=judge
    )

    response = login(persona).post(
        url("proposal-decide", "kpf", proposal.pk), {"decision": "confirm"}, headers=HTMX
    )

    assert_forbidden(response)
    proposal.refresh_from_db()
    assert proposal.state == ProposalState.OPEN
    assert proposal.clubs_confirmed == []


def test_a_club_owner_refuses_and_an_officer_withdraws(client, world, judge, club_owner):
    proposal = persons.proposal_create(
        federation=world, person=anna(), player=Player.objects.get(name="Boris"), actor=judge
    )
    client.force_login(club_owner)
    refused = client.post(url("proposal-decide", "kpf", proposal.pk), {"decision": "refuse"})
    again = persons.proposal_create(
        federation=world, person=anna(), player=Player.objects.get(name="Boris"), actor=judge
    )
    client.force_login(judge)
    withdrawn = client.post(
        url("proposal-decide", "kpf", again.pk), {"decision": "withdraw"}, headers=HTMX
    )

    assert refused.status_code == 302
    assert "The proposal is withdrawn." in assert_fragment(withdrawn, "person")
    states = list(LinkProposal.objects.order_by("pk").values_list("state", flat=True))
    assert states == [ProposalState.REFUSED, ProposalState.WITHDRAWN]


def test_a_judge_merges_two_persons_through_the_clubs(client, world, judge, club_owner, lviv_owner):
    client.force_login(judge)
    response = client.post(
        url("person-merge", "kpf", anna().pk), {"other": str(boris().pk)}, headers=HTMX
    )
    assert "The merge waits" in assert_fragment(response, "person")
    proposal = LinkProposal.objects.get()
    for owner in (club_owner, lviv_owner):
        client.force_login(owner)
        client.post(url("proposal-decide", "kpf", proposal.pk), {"decision": "confirm"})

    assert boris().merged_into == anna()
    assert client.get(url("person", "kpf", boris().pk))["Location"] == url(
        "person", "kpf", anna().pk
    )


@pytest.mark.parametrize("other", ["999999", "0", "²", "x"])
def test_a_merge_with_no_such_person_changes_nothing(login, world, other):
    client = login("judge")
    before = database_state()

    response = client.post(url("person-merge", "kpf", anna().pk), {"other": other}, headers=HTMX)

    assert_fragment(response, "person")
    assert database_state() == before


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_officers_split_a_person(login, world, clubs, persona):
    extra = Player.objects.create(club=clubs[2], name="Anna L.")
    PersonLink.objects.create(federation=world, person=anna(), player=extra)

    response = login(persona).post(
        url("person-split", "kpf", anna().pk), {"players": [str(extra.pk)]}, headers=HTMX
    )

    moved = PersonLink.objects.get(player=extra).person != anna()
    assert moved is (persona in OFFICERS)
    if persona in OFFICERS:
        assert "now the person Anna L." in assert_fragment(response, "person")
    elif persona != "anonymous":
        assert_forbidden(response)


def test_a_split_of_every_name_is_refused_and_nothing_changes(login, world):
    only = PersonLink.objects.get(person=anna()).player_id
    client = login("judge")
    before = database_state()

    response = client.post(
        url("person-split", "kpf", anna().pk), {"players": [str(only)]}, headers=HTMX
    )

    assert "keeps at least one roster name" in assert_fragment(response, "person")
    assert database_state() == before
