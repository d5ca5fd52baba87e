"""Nobody is put into a club without consent: an owner invites a person by username or
address, the person sees it on his home page (and by mail where he has an address), and
accepts or declines. Only he can answer it."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from club import invitations, services
from club.models import (
    AccountSettings,
    Invitation,
    Membership,
    MembershipAction,
    MembershipEvent,
    Role,
)
from tests.conftest import database_state, make_club, make_member, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def attacker_club():
    club = make_club(name="Totally Legit", slug="legit")
    return club, make_member(club, Role.OWNER, username="mallory").user


def invite(club, owner, to, role=Role.PLAYER, **kwargs) -> Invitation:
    return invitations.invitation_address(club=club, to=to, role=role, created_by=owner, **kwargs)


def test_an_invitation_makes_nobody_a_member_until_he_accepts(
    client, attacker_club, django_capture_on_commit_callbacks
):
    club, mallory = attacker_club
    victim = make_user(username="victim", email="victim@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        invitation = invite(club, mallory, "victim", Role.OWNER)

    assert not Membership.objects.filter(user=victim).exists()
    client.force_login(victim)
    home = client.get("/").content.decode()
    assert 'id="my-invitations"' in home
    assert "Totally Legit invites you to join as owner." in home
    my_clubs = home.split('id="my-clubs"')[1].split('id="public-clubs"')[0]
    assert 'data-club="legit"' not in my_clubs
    (message,) = mail.outbox
    assert message.to == ["victim@example.org"]
    assert f"/join/{invitation.token}/" in message.body
    # The owner leaves: the victim is no member, so he may still delete his account.
    services.account_delete(user=victim)


def test_accepting_from_the_home_page_joins_with_the_role(client, attacker_club):
    club, mallory = attacker_club
    zoya = make_user(username="zoya")
    invitation = invite(club, mallory, "zoya", Role.SECRETARY)
    client.force_login(zoya)

    response = client.post(f"/join/{invitation.token}/")

    assert response["Location"] == club.get_absolute_url()
    assert Membership.objects.get(club=club, user=zoya).role == Role.SECRETARY
    assert 'id="my-invitations"' not in client.get("/").content.decode()


def test_declining_closes_it_and_the_history_says_so(client, attacker_club):
    club, mallory = attacker_club
    zoya = make_user(username="zoya")
    invitation = invite(club, mallory, "zoya")
    client.force_login(zoya)

    response = client.post(f"/join/{invitation.token}/decline/")

    assert response["Location"] == "/"
    invitation.refresh_from_db()
    assert invitation.declined_at is not None
    event = MembershipEvent.objects.get(action=MembershipAction.DECLINED)
    assert (event.actor, event.subject) == (zoya, zoya)
    assert not Membership.objects.filter(club=club, user=zoya).exists()
    again = client.post(f"/join/{invitation.token}/")
    assert again.status_code == 410
    assert "This invitation was declined." in again.content.decode()


@pytest.mark.parametrize("answer", ["", "decline/"])
def test_only_the_addressee_can_answer(client, attacker_club, answer):
    club, mallory = attacker_club
    make_user(username="zoya")
    invitation = invite(club, mallory, "zoya")
    client.force_login(make_user(username="eve"))
    before = database_state()

    response = client.post(f"/join/{invitation.token}/{answer}")

    assert response.status_code == 403
    assert "This invitation is for someone else" in response.content.decode()
    assert database_state() == before


def test_an_invitation_to_an_address_without_an_account_waits_for_its_sign_up(
    client, attacker_club, django_capture_on_commit_callbacks, settings
):
    club, mallory = attacker_club
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invite(club, mallory, "New@Example.org")
    (message,) = mail.outbox
    assert message.to == ["New@Example.org"]
    assert f"://{settings.SITE_DOMAIN}/join/{invitation.token}/" in message.body

    newcomer = make_user(username="newcomer", email="new@example.org")
    EmailAddress.objects.create(user=newcomer, email=newcomer.email, verified=True, primary=True)
    client.force_login(newcomer)
    assert "Totally Legit invites you" in client.get("/").content.decode()
    client.post(f"/join/{invitation.token}/")
    assert Membership.objects.filter(club=club, user=newcomer).exists()


def test_an_address_someone_only_claimed_does_not_let_him_answer(client, attacker_club):
    club, mallory = attacker_club
    invitation = invite(club, mallory, "boss@example.org", Role.OWNER)
    squatter = make_user(username="squatter")
    EmailAddress.objects.create(user=squatter, email="boss@example.org", verified=False)
    client.force_login(squatter)

    response = client.post(f"/join/{invitation.token}/")

    assert response.status_code == 403
    assert not Membership.objects.filter(club=club, user=squatter).exists()


def test_the_mail_speaks_the_addressees_language(attacker_club, django_capture_on_commit_callbacks):
    club, mallory = attacker_club
    olena = make_user(username="olena", email="olena@example.org")
    AccountSettings.objects.create(user=olena, language="uk")

    with django_capture_on_commit_callbacks(execute=True):
        invite(club, mallory, "olena")

    (message,) = mail.outbox
    assert "Totally Legit" in message.subject
    assert "invites you" not in message.body  # written in Ukrainian, not English


def test_a_username_without_an_address_gets_no_mail_but_sees_it_at_home(
    client, attacker_club, django_capture_on_commit_callbacks
):
    club, mallory = attacker_club
    petro = make_user(username="petro")

    with django_capture_on_commit_callbacks(execute=True):
        invite(club, mallory, "petro")

    assert mail.outbox == []
    client.force_login(petro)
    assert "Totally Legit invites you to join as player." in client.get("/").content.decode()


def test_the_owner_sees_whom_it_is_for_on_the_invitations_page(client, attacker_club):
    club, mallory = attacker_club
    invite(club, mallory, "nobody-by-that-name")
    client.force_login(mallory)

    page = client.get("/c/legit/invitations/").content.decode()

    assert "for nobody-by-that-name, waiting for an answer" in page
