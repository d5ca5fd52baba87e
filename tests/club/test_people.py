"""People, not usernames: a roster name offered to a member picked from a list or by his
address, the members page naming each member's roster name, the club page's badge for the
requests for a name, and a pasted list of names on the roster."""

from __future__ import annotations

import pytest

from club import invitations
from club.models import Invitation, Membership, Player, Role
from club.services import ROSTER_LIST_MAX
from tests.club.factories import (
    MANAGE,
    RECORD,
    assert_fragment,
    assert_full_page,
    html,
)
from tests.conftest import HTMX, PERSONAS, database_state, make_member, make_player, make_user

pytestmark = pytest.mark.django_db

ROSTER = "/c/sochi/players/"
MEMBERS = "/c/sochi/members/"


def edit_url(player: Player) -> str:
    return f"/c/{player.club.slug}/players/{player.pk}/edit/"


@pytest.fixture
def anna(club_a) -> Player:
    return make_player(club_a, "Анна")


@pytest.fixture
def halyna(club_a) -> Membership:
    """A member with a full name and no roster name yet."""
    return make_member(club_a, Role.PLAYER, username="h.k.1987", first_name="Галина Коваль")


def accept(client, user, invitation: Invitation):
    client.force_login(user)
    return client.post(f"/join/{invitation.token}/")


# A roster name for a member picked from a list


def test_the_owner_picks_the_member_by_his_name_not_his_username(as_persona, anna, halyna):
    linked = make_member(anna.club, username="linked.one", first_name="Вже Має")
    make_player(anna.club, "Має Ім'я", user=linked.user)

    text = assert_full_page(as_persona("owner").get(edit_url(anna)), "player-form")

    assert f'<option value="{halyna.pk}">Галина Коваль</option>' in text
    assert "h.k.1987" not in text
    assert "Вже Має" not in text  # linked already: not offered


def test_a_picked_member_is_invited_and_linked_only_when_he_accepts(
    as_persona, anna, halyna, client
):
    response = as_persona("owner").post(
        edit_url(anna), {"name": "Анна", "is_active": "on", "member": halyna.pk}
    )

    assert response["Location"] == ROSTER
    anna.refresh_from_db()
    assert anna.user is None
    invitation = Invitation.objects.get(player=anna)
    assert (invitation.addressed_user, invitation.role) == (halyna.user, Role.PLAYER)
    accept(client, halyna.user, invitation)
    anna.refresh_from_db()
    halyna.refresh_from_db()
    assert (anna.user, halyna.role) == (halyna.user, Role.PLAYER)


def test_a_picked_secretary_keeps_his_role_when_he_accepts(as_persona, anna, secretary, client):
    membership = Membership.objects.get(user=secretary)
    as_persona("owner").post(
        edit_url(anna), {"name": "Анна", "is_active": "on", "member": membership.pk}
    )

    accept(client, secretary, Invitation.objects.get(player=anna))

    membership.refresh_from_db()
    anna.refresh_from_db()
    assert (anna.user, membership.role) == (secretary, Role.SECRETARY)


def test_the_htmx_answer_names_the_member_as_the_list_does(as_persona, anna, halyna):
    client = as_persona("owner")
    response = client.post(
        edit_url(anna), {"name": "Анна", "is_active": "on", "member": halyna.pk}, headers=HTMX
    )

    assert response["HX-Redirect"] == ROSTER
    assert "on its way to Галина Коваль" in html(client.get(ROSTER))


def test_a_member_and_an_address_at_once_are_refused(as_persona, anna, halyna):
    client = as_persona("owner")
    before = database_state()
    response = client.post(
        edit_url(anna),
        {"name": "Анна", "is_active": "on", "member": halyna.pk, "invite": "x@example.com"},
        headers=HTMX,
    )

    assert "Pick a member or type an address, not both" in assert_fragment(response, "player-form")
    assert database_state() == before


def test_a_member_of_another_club_cannot_be_posted(as_persona, anna, club_b):
    stranger = make_member(club_b, username="stranger")

    response = as_persona("owner").post(
        edit_url(anna), {"name": "Анна", "is_active": "on", "member": stranger.pk}
    )

    assert "Select a valid choice" in html(response)
    assert not Invitation.objects.exists()


def test_a_member_linked_meanwhile_is_refused_by_the_service(anna, halyna, owner):
    make_player(anna.club, "Галина", user=halyna.user)

    with pytest.raises(invitations.InvitationError, match="already linked to the roster name"):
        invitations.invitation_to_name(player=anna, membership=halyna, created_by=owner)
    assert not Invitation.objects.exists()


def test_a_secretary_is_offered_no_member_list(as_persona, anna, halyna):
    client = as_persona("secretary")

    assert 'name="member"' not in html(client.get(edit_url(anna)))
    client.post(edit_url(anna), {"name": "Анна", "is_active": "on", "member": halyna.pk})

    assert not Invitation.objects.exists()


@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize("exists", [True, False])
def test_the_address_one_logs_in_with_invites_with_the_same_answer(
    as_persona, anna, client, headers, exists
):
    account = make_user(username="anna-k", email="anna@example.com") if exists else None
    owner = as_persona("owner")

    owner.post(
        edit_url(anna),
        {"name": "Анна", "is_active": "on", "invite": "Anna@Example.com"},
        headers=headers,
    )

    said = html(owner.get(ROSTER))
    assert "on its way to Anna@Example.com: the account is linked when they accept" in said
    invitation = Invitation.objects.get(player=anna)
    assert invitation.addressed_user == account
    if exists:
        accept(client, account, invitation)
        anna.refresh_from_db()
        assert anna.user == account


# The members page names each member's roster name


def test_the_members_page_shows_each_members_roster_name(as_persona, club_a, halyna, player):
    petro = make_player(club_a, "Петро Іванов", user=player)

    text = assert_full_page(as_persona("owner").get(MEMBERS), "members")

    assert f'href="/c/sochi/players/{petro.pk}/edit/">Петро Іванов</a>' in text
    row = text[text.index(f'id="member-{halyna.pk}"') :]
    assert "none yet" in row[: row.index("</tr>")]


def test_the_members_fragment_shows_the_roster_names_too(as_persona, club_a, player):
    make_player(club_a, "Петро Іванов", user=player)

    text = assert_fragment(as_persona("owner").get(MEMBERS, headers=HTMX), "members")

    assert "Петро Іванов</a>" in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_sees_who_is_linked_to_which_name(as_persona, club_a, player, persona):
    make_player(club_a, "Петро Іванов", user=player)

    response = as_persona(persona).get(MEMBERS)

    assert response.status_code == MANAGE[persona]
    assert ("Петро Іванов" in html(response)) is (MANAGE[persona] == 200)


# The club page's badge for the requests for a name


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_club_page_shows_those_who_answer_the_pending_requests(
    as_persona, club_a, anna, player, persona
):
    invitations.name_claim_create(club=club_a, user=player, player=anna)
    if persona == "player":
        make_member(club_a, username="p2")  # the persona is the claimant's fellow

    response = as_persona(persona).get("/c/sochi/")

    text = html(response)
    if persona in ("anonymous", "outsider"):
        assert response.status_code == 404
        assert "pending-claims" not in text
    elif RECORD[persona] == 200:
        assert_full_page(response, "pending-claims")
        assert 'href="/c/sochi/claims/" id="nav-name-claims"' in text
        assert "1 waiting" in text
    else:
        assert response.status_code == 200
        assert "pending-claims" not in text


def test_no_badge_when_nothing_waits(as_persona, club_a, anna):
    assert "pending-claims" not in html(as_persona("owner").get("/c/sochi/"))


def test_the_badge_counts_only_the_requests_that_wait(as_persona, club_a, owner):
    for n in range(3):
        member = make_member(club_a, username=f"m{n}").user
        claim = invitations.name_claim_create(
            club=club_a, user=member, player=make_player(club_a, f"Name {n}")
        )
    invitations.name_claim_decide(claim=claim, actor=owner, approve=False)

    assert "2 waiting" in html(as_persona("owner").get("/c/sochi/"))


def test_the_club_pages_fragment_carries_no_badge(as_persona, club_a, anna, player):
    invitations.name_claim_create(club=club_a, user=player, player=anna)

    text = assert_fragment(as_persona("owner").get("/c/sochi/", headers=HTMX), "evenings")

    assert "pending-claims" not in text


# A pasted list of names


def roster_names(club) -> list[str]:
    return list(Player.objects.filter(club=club).values_list("name", flat=True))


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_pasted_list_adds_every_new_name_tidied(as_persona, club_a, headers):
    client = as_persona("secretary")
    response = client.post(
        ROSTER, {"name": "  Ігор  Петренко \r\n\r\nЯна\nҐанна\n"}, headers=headers
    )

    text = html(client.get(ROSTER)) if not headers else assert_fragment(response, "roster")
    assert "3 players added to the roster: Ігор Петренко, Яна, Ґанна." in text
    assert roster_names(club_a) == ["Ґанна", "Ігор Петренко", "Яна"]


def test_names_on_the_roster_and_repeated_ones_are_named_and_not_added(as_persona, club_a):
    make_player(club_a, "Олена")

    response = as_persona("secretary").post(
        ROSTER, {"name": "ОЛЕНА\nТарас\nтарас \nОлена"}, headers=HTMX
    )

    text = assert_fragment(response, "roster")
    assert "Тарас is on the roster." in text
    assert "Already on the roster, not added again: Олена." in text
    assert "Named twice in the list, added once: тарас, Олена." in text
    assert sorted(roster_names(club_a)) == ["Олена", "Тарас"]


def test_a_list_of_names_all_on_the_roster_is_refused(as_persona, club_a):
    make_player(club_a, "Олена")
    make_player(club_a, "Тарас")
    client = as_persona("secretary")
    before = database_state()

    response = client.post(ROSTER, {"name": "олена\nТАРАС"}, headers=HTMX)

    assert "Every name of the list is on the roster already: Олена, Тарас." in html(response)
    assert 'class="errorlist' in html(response)
    assert database_state() == before


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_refused_line_is_named_by_its_number_and_nothing_is_added(as_persona, club_a, headers):
    response = as_persona("secretary").post(
        ROSTER, {"name": "Яна\n\u200bБогдан\n" + "x" * 61}, headers=headers
    )

    text = html(response)
    assert response.status_code == 200
    assert "Line 2: The name &lt;U+200B&gt;Богдан contains an invisible" in text
    assert "Line 3: The name xxxx" in text
    assert not Player.objects.exists()


def test_a_list_longer_than_the_bound_is_refused_whole(as_persona, club_a):
    names = "\n".join(f"Гравець {n}" for n in range(ROSTER_LIST_MAX + 1))

    response = as_persona("secretary").post(ROSTER, {"name": names}, headers=HTMX)

    assert f"At most {ROSTER_LIST_MAX} names at once: this list has {ROSTER_LIST_MAX + 1}" in html(
        response
    )
    assert not Player.objects.exists()


def test_a_list_of_the_bound_is_added(as_persona, club_a):
    names = "\n".join(f"Гравець {n}" for n in range(ROSTER_LIST_MAX))

    as_persona("secretary").post(ROSTER, {"name": names})

    assert Player.objects.filter(club=club_a).count() == ROSTER_LIST_MAX


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_paste_a_list(as_persona, club_a, persona):
    response = as_persona(persona).post(ROSTER, {"name": "Яна\nБогдан"})

    allowed = RECORD[persona] == 200
    assert response.status_code == (302 if allowed else RECORD[persona])
    assert len(roster_names(club_a)) == (2 if allowed else 0)


def test_the_roster_form_is_a_list_of_names(as_persona, club_a):
    text = assert_full_page(as_persona("secretary").get(ROSTER), "roster")

    assert '<textarea name="name"' in text
    assert "Names, one a line" in text
