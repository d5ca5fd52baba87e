"""The owner's invitation pages: making a link, sharing it (link, copy, QR), revoking it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from club import invitations
from club.models import Invitation, MembershipAction, MembershipEvent, Role
from tests.club.factories import (
    MANAGE,
    assert_forbidden,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    html,
    make_invitation,
)
from tests.conftest import HTMX, PERSONAS, make_member, make_player, make_user

pytestmark = pytest.mark.django_db

LIST = "/c/sochi/invitations/"


def detail_url(invitation: Invitation) -> str:
    return f"/c/{invitation.club.slug}/invitations/{invitation.pk}/"


GOOD = {"role": "secretary", "player": "", "valid_days": "7", "max_uses": "1"}


# Who may see and do what


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_see_the_invitation_links(as_persona, club_a, owner, persona):
    invitation = make_invitation(club_a, created_by=owner)

    response = as_persona(persona).get(LIST)

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "invitations")
        assert f'id="invitation-{invitation.pk}"' in text
        assert invitation.token in text
    else:
        assert invitation.token not in html(response)


def test_the_invitations_fragment_is_the_list_alone(as_persona, club_a, owner):
    invitation = make_invitation(club_a, created_by=owner)

    text = assert_fragment(as_persona("owner").get(LIST, headers=HTMX), "invitations")

    assert f"http://testserver/join/{invitation.token}/" in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_make_links(as_persona, club_a, owner, persona):
    response = as_persona(persona).post(LIST, GOOD)

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    assert Invitation.objects.filter(club=club_a).exists() is allowed


def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    url = "/c/open/invitations/"

    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, GOOD), url)
    assert_htmx_login_redirect(client.post(url, GOOD, headers=HTMX))
    assert not Invitation.objects.exists()


# Making a link


def test_an_owner_makes_a_link_and_lands_on_its_page(as_persona, club_a, owner):
    client = as_persona("owner")

    response = client.post(LIST, GOOD)

    invitation = Invitation.objects.get(club=club_a)
    assert response["Location"] == detail_url(invitation)
    assert invitation.role == Role.SECRETARY
    assert invitation.max_uses == 1
    assert invitation.created_by == owner
    days = (invitation.expires_at - timezone.now()).total_seconds() / 86400
    assert 6.99 < days <= 7
    assert len(invitation.token) == invitations.TOKEN_LENGTH
    event = MembershipEvent.objects.get(club=club_a, action=MembershipAction.INVITED)
    assert (event.actor, event.role) == (owner, Role.SECRETARY)
    assert "The invitation link is ready" in html(client.get(response["Location"]))


def test_htmx_make_follows_a_client_redirect_to_the_links_page(as_persona, club_a, owner):
    response = as_persona("owner").post(LIST, GOOD, headers=HTMX)

    invitation = Invitation.objects.get(club=club_a)
    assert response.status_code == 200
    assert response["HX-Redirect"] == detail_url(invitation)


def test_a_link_bound_to_a_roster_name(as_persona, club_a, owner):
    oksana = make_player(club_a, "Оксана")

    as_persona("owner").post(LIST, {**GOOD, "role": "player", "player": str(oksana.pk)})

    invitation = Invitation.objects.get(club=club_a)
    assert invitation.player == oksana
    assert MembershipEvent.objects.get(action=MembershipAction.INVITED).detail == "Оксана"


def test_a_join_our_club_link_for_many_people_valid_for_a_month(as_persona, club_a, owner):
    as_persona("owner").post(LIST, {**GOOD, "role": "player", "valid_days": "30", "max_uses": "40"})

    invitation = Invitation.objects.get(club=club_a)
    assert invitation.max_uses == 40
    assert (invitation.expires_at - timezone.now()).days == 29


def test_the_form_offers_only_the_unclaimed_names_of_the_club(as_persona, club_a, club_b, owner):
    make_player(club_a, "Оксана")
    make_player(club_a, "Taken", user=make_user())
    make_player(club_a, "Gone", is_active=False)
    make_player(club_b, "Stranger")

    text = html(as_persona("owner").get(LIST))

    assert "Оксана</option>" in text
    for name in ("Taken", "Gone", "Stranger"):
        assert f"{name}</option>" not in text


@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"role": "king"}, "Select a valid choice. king is not one of"),
        ({"role": ""}, "This field is required."),
        ({"valid_days": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"valid_days": "91"}, "Ensure this value is less than or equal to 90."),
        ({"valid_days": "²"}, "Enter a whole number."),
        ({"valid_days": "9" * 4301}, "Enter a whole number."),
        ({"max_uses": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"max_uses": "501"}, "Ensure this value is less than or equal to 500."),
        ({"max_uses": "x" * 10_000}, "Enter a whole number."),
        ({"player": "999999"}, "Select a valid choice."),
        ({"player": "٣"}, "Select a valid choice."),
    ],
)
def test_bad_input_makes_no_link_and_says_why(as_persona, club_a, owner, headers, change, message):
    response = as_persona("owner").post(LIST, {**GOOD, **change}, headers=headers)

    assert response.status_code == 200
    assert message in html(response)
    assert not Invitation.objects.exists()
    assert not MembershipEvent.objects.filter(action=MembershipAction.INVITED).exists()


def test_a_link_for_one_name_has_one_use(as_persona, club_a, owner):
    oksana = make_player(club_a, "Оксана")

    response = as_persona("owner").post(LIST, {**GOOD, "player": str(oksana.pk), "max_uses": "5"})

    assert "A link for one roster name is for one person: it has one use." in html(response)
    assert not Invitation.objects.exists()


def test_a_name_of_another_club_cannot_be_bound(as_persona, club_a, club_b, owner):
    stranger = make_player(club_b, "Stranger")

    response = as_persona("owner").post(LIST, {**GOOD, "player": str(stranger.pk)})

    assert "Select a valid choice." in html(response)
    assert not Invitation.objects.exists()


# Sharing: the link, the copy button, the QR code


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_see_a_links_page(as_persona, club_a, owner, persona):
    invitation = make_invitation(club_a, created_by=owner)

    response = as_persona(persona).get(detail_url(invitation))

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "invitation")
        assert f'value="http://testserver/join/{invitation.token}/"' in text
    else:
        assert invitation.token not in html(response)


def test_a_links_page_has_the_link_a_copy_button_and_an_inline_qr_code(as_persona, club_a, owner):
    oksana = make_player(club_a, "Оксана")
    invitation = make_invitation(club_a, created_by=owner, player=oksana)

    text = assert_full_page(as_persona("owner").get(detail_url(invitation)), "invitation")

    assert 'data-copy="#invitation-link"' in text
    assert "/static/js/invitation.js" in text
    assert '<svg viewBox="0 0' in text
    assert 'class="qr"' in text
    assert "<title>Invitation to Sochi Club</title>" in text
    assert "for Оксана on the roster" in text
    assert "Nobody has accepted it yet." in text
    # The Content-Security-Policy allows no inline style or script, nor htmx's hx-on.
    assert "style=" not in text
    assert "<script>" not in text
    assert "hx-on" not in text


def test_the_links_page_fragment(as_persona, club_a, owner):
    invitation = make_invitation(club_a, created_by=owner)

    text = assert_fragment(
        as_persona("owner").get(detail_url(invitation), headers=HTMX), "invitation"
    )

    assert 'class="qr"' in text


def test_a_link_of_another_club_is_not_found(as_persona, club_a, club_b, owner):
    theirs = make_invitation(club_b)

    response = as_persona("owner").get(f"/c/sochi/invitations/{theirs.pk}/")

    assert response.status_code == 404
    assert theirs.token not in html(response)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_download_the_qr_code(as_persona, club_a, owner, persona):
    invitation = make_invitation(club_a, created_by=owner)

    response = as_persona(persona).get(detail_url(invitation) + "qr.svg")

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        assert response["Content-Type"] == "image/svg+xml"
        assert response.content.startswith(b"<?xml")
        assert b"<svg" in response.content
        assert b"style=" not in response.content
        assert f'invitation-sochi-{invitation.pk}.svg"' in response["Content-Disposition"]


def test_the_qr_code_reads_back_as_the_link(as_persona, club_a, owner):
    """The code's data is the link itself: segno encodes the same modules again."""
    import segno

    invitation = make_invitation(club_a, created_by=owner)
    link = f"http://testserver/join/{invitation.token}/"

    text = html(as_persona("owner").get(detail_url(invitation)))

    expected = segno.make(link, error="m", micro=False).svg_inline(
        scale=4, border=4, omitsize=True, svgclass="qr", lineclass="qr-line", title="x"
    )
    path = expected.split('class="qr-line"')[1].split('d="')[1].split('"')[0]
    assert path in text


# Managing: who accepted, revoking


def test_the_list_shows_who_accepted_each_link_and_when(as_persona, club_a, owner):
    invitation = make_invitation(club_a, created_by=owner, max_uses=3)
    invitations.invitation_accept(token=invitation.token, user=make_user(username="zoya"))
    used = make_invitation(club_a, created_by=owner)
    invitations.invitation_accept(token=used.token, user=make_user(first_name="Vasyl"))

    text = html(as_persona("owner").get(LIST))

    pending = text.split('id="pending-invitations"')[1].split("</ul>")[0]
    assert "used 1 / 3" in pending
    assert "zoya" in pending
    past = text.split('id="past-invitations"')[1].split("</table>")[0]
    assert "Vasyl" in past
    assert "used" in past


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_revoke_links(as_persona, club_a, owner, persona):
    invitation = make_invitation(club_a, created_by=owner)

    response = as_persona(persona).post(detail_url(invitation) + "revoke/")

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    invitation.refresh_from_db()
    assert invitation.is_revoked is allowed


def test_an_owner_revokes_a_link_and_it_is_recorded(as_persona, club_a, owner):
    invitation = make_invitation(club_a, created_by=owner)
    client = as_persona("owner")

    response = client.post(detail_url(invitation) + "revoke/")

    assert response["Location"] == LIST
    invitation.refresh_from_db()
    assert invitation.revoked_by == owner
    assert MembershipEvent.objects.filter(action=MembershipAction.REVOKED, actor=owner).exists()
    text = html(client.get(LIST))
    assert "The link is revoked" in text
    assert "No link is waiting to be used." in text


def test_htmx_revoke_returns_the_list_fragment(as_persona, club_a, owner):
    invitation = make_invitation(club_a, created_by=owner)

    response = as_persona("owner").post(detail_url(invitation) + "revoke/", headers=HTMX)

    text = assert_fragment(response, "invitations")
    assert "The link is revoked" in text
    assert "revoked</span>" in text


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_revoking_twice_says_so_and_changes_nothing(as_persona, club_a, owner, headers):
    invitation = make_invitation(club_a, created_by=owner)
    client = as_persona("owner")
    client.post(detail_url(invitation) + "revoke/")
    invitation.refresh_from_db()
    events = MembershipEvent.objects.count()

    response = client.post(detail_url(invitation) + "revoke/", headers=headers)

    if not headers:
        response = client.get(response["Location"])
    assert "This link is already revoked." in html(response)
    assert MembershipEvent.objects.count() == events
    revoked_at = invitation.revoked_at
    invitation.refresh_from_db()
    assert invitation.revoked_at == revoked_at


def test_the_members_page_links_to_the_invitations_and_counts_those_waiting(
    as_persona, club_a, owner
):
    make_invitation(club_a, created_by=owner)
    make_invitation(club_a, created_by=owner)

    text = html(as_persona("owner").get("/c/sochi/members/"))

    assert "2 links are waiting to be used." in text
    assert 'href="/c/sochi/invitations/#invitation-form"' in text
    assert 'href="/c/sochi/members/history/"' in text


def test_a_secretary_of_a_public_club_may_not_see_the_links(client, public_club):
    client.force_login(make_member(public_club, Role.SECRETARY).user)
    link = make_invitation(public_club)

    assert_forbidden(client.get("/c/open/invitations/"), link.token)
