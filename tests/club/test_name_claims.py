"""A member without a name on the roster asks for one; a secretary or the owner answers."""

from __future__ import annotations

import pytest

from club import invitations
from club.models import ClaimStatus, MembershipAction, MembershipEvent, NameClaim, Player, Role
from tests.club.factories import (
    MANAGE,
    READ,
    RECORD,
    assert_fragment,
    assert_full_page,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS, database_state, make_member, make_player

pytestmark = pytest.mark.django_db

MY_NAME = "/c/sochi/my-name/"
CLAIMS = "/c/sochi/claims/"


@pytest.fixture
def oksana(club_a) -> Player:
    return make_player(club_a, "Оксана")


def decide_url(claim: NameClaim) -> str:
    return f"/c/{claim.club.slug}/claims/{claim.pk}/"


# A member's own page


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_member_sees_his_name_page(as_persona, club_a, oksana, persona):
    response = as_persona(persona).get(MY_NAME)

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "roster-name")
        assert "Оксана</option>" in text
    else:
        assert "Оксана" not in html(response)


def test_the_name_page_fragment(as_persona, club_a, oksana):
    text = assert_fragment(as_persona("player").get(MY_NAME, headers=HTMX), "roster-name")

    assert "Ask to be linked to this name" in text


def test_a_linked_member_is_told_his_name(as_persona, club_a, player):
    make_player(club_a, "Петро", user=player)

    text = html(as_persona("player").get(MY_NAME))

    assert "Your account is linked to Петро on the roster." in text
    assert "<select" not in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_member_may_ask_for_a_name(as_persona, club_a, oksana, persona):
    response = as_persona(persona).post(MY_NAME, {"player": str(oksana.pk)})

    allowed = READ[persona] == 200
    assert response.status_code == (302 if allowed else READ[persona])
    assert NameClaim.objects.filter(player=oksana).exists() is allowed


def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    name = make_player(public_club, "Оксана")
    url = "/c/open/my-name/"

    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, {"player": str(name.pk)}), url)
    assert not NameClaim.objects.exists()


def test_a_visitor_of_a_public_club_who_is_no_member_may_not_ask(client, public_club, outsider):
    name = make_player(public_club, "Оксана")
    client.force_login(outsider)

    response = client.post("/c/open/my-name/", {"player": str(name.pk)})

    assert response.status_code == 403
    assert not NameClaim.objects.exists()


def test_a_player_asks_for_a_name_and_waits(as_persona, club_a, player, oksana):
    client = as_persona("player")

    response = client.post(MY_NAME, {"player": str(oksana.pk)})

    assert response["Location"] == MY_NAME
    claim = NameClaim.objects.get()
    assert (claim.user, claim.player, claim.status) == (player, oksana, ClaimStatus.PENDING)
    assert MembershipEvent.objects.filter(
        action=MembershipAction.CLAIM_REQUESTED, subject=player, detail="Оксана"
    ).exists()
    text = html(client.get(MY_NAME))
    assert "You asked to be linked to Оксана: a secretary or the owner will answer." in text
    assert "<select" not in text


def test_htmx_ask_returns_the_block(as_persona, club_a, player, oksana):
    response = as_persona("player").post(MY_NAME, {"player": str(oksana.pk)}, headers=HTMX)

    text = assert_fragment(response, "roster-name")
    assert "You asked to be linked to Оксана" in text


@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize("value", ["", "999999", "٣", "x" * 10_000, "-1"])
def test_a_bad_choice_asks_for_nothing_and_says_why(
    as_persona, club_a, player, oksana, headers, value
):
    client = as_persona("player")
    before = database_state()

    response = client.post(MY_NAME, {"player": value}, headers=headers)

    assert response.status_code == 200
    assert "This field is required." in html(response) or "Select a valid choice." in html(response)
    assert database_state() == before


def test_a_name_already_linked_cannot_be_asked_for(as_persona, club_a, oksana, player, secretary):
    oksana.user = secretary
    oksana.save()
    client = as_persona("player")
    before = database_state()

    response = client.post(MY_NAME, {"player": str(oksana.pk)})

    assert "Select a valid choice." in html(response)
    assert database_state() == before


def test_one_request_at_a_time(club_a, player, oksana):
    invitations.name_claim_create(club=club_a, user=player, player=oksana)
    other = make_player(club_a, "Ірина")

    with pytest.raises(invitations.ClubError, match="You have already asked for Оксана"):
        invitations.name_claim_create(club=club_a, user=player, player=other)

    assert NameClaim.objects.count() == 1


def test_a_member_with_a_name_cannot_ask_for_another(club_a, player, oksana):
    make_player(club_a, "Петро", user=player)

    with pytest.raises(invitations.ClubError, match="already linked to the roster name Петро"):
        invitations.name_claim_create(club=club_a, user=player, player=oksana)


def test_a_name_of_another_club_cannot_be_asked_for(club_a, club_b, player):
    stranger = make_player(club_b, "Stranger")

    with pytest.raises(invitations.ClubError, match="Choose a name that is on the roster."):
        invitations.name_claim_create(club=club_a, user=player, player=stranger)


# The block on the club's pages


def test_the_club_page_tells_a_member_without_a_name_how_to_get_one(as_persona, club_a, oksana):
    text = html(as_persona("player").get("/c/sochi/"))

    assert 'id="roster-name"' in text
    assert "Ask to be linked to this name" in text
    assert "Оксана</option>" in text
    assert "an invitation link for your name" in text


def test_the_roster_page_has_the_block_too(as_persona, club_a, oksana):
    assert 'id="roster-name"' in html(as_persona("player").get("/c/sochi/players/"))


def test_a_member_with_a_name_sees_no_block(as_persona, club_a, player, oksana):
    make_player(club_a, "Петро", user=player)

    assert 'id="roster-name"' not in html(as_persona("player").get("/c/sochi/"))


def test_visitors_of_a_public_club_see_no_block(client, public_club, outsider):
    make_player(public_club, "Оксана")
    client.force_login(outsider)

    assert 'id="roster-name"' not in html(client.get("/c/open/"))
    assert 'id="roster-name"' not in html(client.get("/c/open/"))


def test_when_every_name_is_taken_the_block_says_whom_to_ask(as_persona, club_a):
    text = html(as_persona("player").get("/c/sochi/"))

    assert "Every name on the roster is taken" in text
    assert "<select" not in text.split('id="roster-name"')[1].split("</section>")[0]


# Answering the requests


@pytest.fixture
def claim(club_a, player, oksana) -> NameClaim:
    return invitations.name_claim_create(club=club_a, user=player, player=oksana)


@pytest.mark.parametrize("persona", PERSONAS)
def test_secretaries_and_owners_see_the_requests(as_persona, claim, persona):
    response = as_persona(persona).get(CLAIMS)

    assert response.status_code == RECORD[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "claims")
        assert "petro asks to be Оксана" in text
    else:
        assert "Оксана" not in html(response)


def test_the_requests_fragment(as_persona, claim):
    text = assert_fragment(as_persona("secretary").get(CLAIMS, headers=HTMX), "claims")

    assert f'id="claim-{claim.pk}"' in text


def test_the_owner_sees_the_requests_on_the_members_page(as_persona, claim):
    text = html(as_persona("owner").get("/c/sochi/members/"))

    assert f'id="claim-{claim.pk}"' in text
    assert MANAGE["owner"] == 200


@pytest.mark.parametrize("persona", PERSONAS)
def test_secretaries_and_owners_approve(as_persona, claim, oksana, player, persona):
    response = as_persona(persona).post(decide_url(claim), {"decision": "approve"})

    allowed = RECORD[persona] == 200
    assert response.status_code == (302 if allowed else RECORD[persona])
    oksana.refresh_from_db()
    assert (oksana.user == player) is allowed
    claim.refresh_from_db()
    assert claim.status == (ClaimStatus.APPROVED if allowed else ClaimStatus.PENDING)


def test_approving_links_the_name_records_it_and_declines_the_rivals(
    as_persona, club_a, claim, oksana, player, secretary
):
    rival = make_member(club_a, Role.PLAYER).user
    rival_claim = invitations.name_claim_create(club=club_a, user=rival, player=oksana)
    client = as_persona("secretary")

    response = client.post(decide_url(claim), {"decision": "approve"})

    assert response["Location"] == CLAIMS
    oksana.refresh_from_db()
    assert oksana.user == player
    rival_claim.refresh_from_db()
    assert rival_claim.status == ClaimStatus.DECLINED
    approved = MembershipEvent.objects.get(action=MembershipAction.CLAIM_APPROVED)
    assert (approved.actor, approved.subject, approved.detail) == (secretary, player, "Оксана")
    assert "petro is linked to the roster name Оксана." in html(client.get(CLAIMS))


def test_htmx_decline_returns_the_requests_fragment(as_persona, claim, oksana):
    response = as_persona("owner").post(decide_url(claim), {"decision": "decline"}, headers=HTMX)

    text = assert_fragment(response, "claims")
    assert "The request of petro for Оксана is declined." in text
    assert "No request is waiting." in text
    oksana.refresh_from_db()
    assert oksana.user is None
    assert MembershipEvent.objects.filter(action=MembershipAction.CLAIM_DECLINED).exists()


def test_a_declined_member_is_told_and_may_ask_again(as_persona, claim):
    invitations.name_claim_decide(claim=claim, actor=None, approve=False)

    text = html(as_persona("player").get(MY_NAME))

    assert "Your request for Оксана was declined." in text
    assert "Ask to be linked to this name" in text


@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize("decision", ["", "maybe", "x" * 10_000, "APPROVE"])
def test_a_tampered_decision_changes_nothing_and_says_why(
    as_persona, owner, claim, headers, decision
):
    client = as_persona("owner")
    before = database_state()

    response = client.post(decide_url(claim), {"decision": decision}, headers=headers)

    if not headers:
        response = client.get(response["Location"])
    text = html(response)
    assert "Approve or decline the request." in text or "Select a valid choice." in text
    assert database_state() == before


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_approving_a_name_claimed_meanwhile_is_refused(
    as_persona, club_a, owner, claim, oksana, secretary, headers
):
    oksana.user = secretary
    oksana.save()
    client = as_persona("owner")
    before = database_state()

    response = client.post(decide_url(claim), {"decision": "approve"}, headers=headers)

    if not headers:
        response = client.get(response["Location"])
    assert "Оксана is already linked to another account: decline this request." in html(response)
    assert database_state() == before


def test_answering_twice_is_refused(as_persona, owner, claim):
    client = as_persona("owner")
    client.post(decide_url(claim), {"decision": "decline"})
    before = database_state()

    response = client.post(decide_url(claim), {"decision": "approve"}, headers=HTMX)

    assert "This request has already been answered." in html(response)
    assert database_state() == before


def test_a_request_of_another_club_is_not_found(as_persona, club_b, outsider):
    theirs = invitations.name_claim_create(
        club=club_b, user=outsider, player=make_player(club_b, "Stranger")
    )

    response = as_persona("owner").post(f"/c/sochi/claims/{theirs.pk}/", {"decision": "approve"})

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.status == ClaimStatus.PENDING


def test_a_request_of_someone_who_left_cannot_be_approved(club_a, claim, owner, player):
    from club.models import Membership

    Membership.objects.filter(club=club_a, user=player).delete()

    with pytest.raises(invitations.ClubError, match="no longer a member"):
        invitations.name_claim_decide(claim=claim, actor=owner, approve=True)


def test_removing_a_member_declines_his_waiting_request(club_a, claim, owner, player):
    from club import services
    from club.models import Membership

    services.member_remove(membership=Membership.objects.get(club=club_a, user=player), actor=owner)

    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DECLINED
