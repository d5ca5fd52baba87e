"""Opening and accepting an invitation link (/join/<token>/), and the links that no longer
work: none gives a 500, none changes anything."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.urls import path
from django.utils import timezone

from club import invitations
from club.models import (
    Invitation,
    InvitationUse,
    Membership,
    MembershipAction,
    MembershipEvent,
    NameClaim,
    Player,
    Role,
)
from tests.club.factories import html, make_invitation
from tests.conftest import HTMX, database_state, make_member, make_player, make_user

pytestmark = pytest.mark.django_db


def join(invitation: Invitation) -> str:
    return f"/join/{invitation.token}/"


@pytest.fixture
def link(club_a, owner) -> Invitation:
    return make_invitation(club_a, role=Role.SECRETARY, created_by=owner)


@pytest.fixture
def oksana(club_a) -> Player:
    return make_player(club_a, "Оксана")


@pytest.fixture
def bound(club_a, owner, oksana) -> Invitation:
    return make_invitation(club_a, role=Role.PLAYER, player=oksana, created_by=owner)


# Anyone holding the link sees it


def test_anonymous_sees_the_club_the_role_and_the_name_and_is_asked_to_log_in(client, bound):
    response = client.get(join(bound))

    text = html(response)
    assert response.status_code == 200
    assert "Invitation to Sochi Club" in text
    assert "<dd>player</dd>" in text
    assert "<dd>Оксана</dd>" in text
    assert f'href="/accounts/login/?next=/join/{bound.token}/"' in text
    assert 'id="accept-form"' not in text
    # A stranger signs up and comes back here to accept.
    assert f'id="accept-signup" href="/accounts/signup/?next=/join/{bound.token}/"' in text


def signup(request):  # a stand-in for allauth's sign-up page
    from django.http import HttpResponse

    return HttpResponse()


urlpatterns_with_signup = [path("accounts/signup/", signup, name="account_signup")]


def test_the_sign_up_link_is_offered_when_the_site_has_one(client, bound, settings):
    import config.urls

    module = type(config.urls)("urls_with_signup")
    module.urlpatterns = [*config.urls.urlpatterns, *urlpatterns_with_signup]
    settings.ROOT_URLCONF = module

    text = html(client.get(join(bound)))

    assert f'href="/accounts/signup/?next=/join/{bound.token}/"' in text


def test_anonymous_posting_is_sent_to_log_in_and_nothing_changes(client, link):
    before = database_state()

    response = client.post(join(link))

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/join/{link.token}/"
    assert database_state() == before


def test_a_private_club_is_not_linked_from_the_page_header(client, link):
    text = html(client.get(join(link)))

    assert 'class="nav-club"' not in text


def test_a_logged_in_stranger_sees_the_accept_button(client, link):
    client.force_login(make_user())

    text = html(client.get(join(link)))

    assert 'id="accept-form"' in text
    assert f'action="/join/{link.token}/"' in text


# Accepting


def test_accepting_makes_the_member_spends_a_use_and_is_recorded(client, club_a, link):
    zoya = make_user(username="zoya")
    client.force_login(zoya)

    response = client.post(join(link))

    assert response["Location"] == "/c/sochi/"
    assert Membership.objects.get(club=club_a, user=zoya).role == Role.SECRETARY
    link.refresh_from_db()
    assert link.uses == 1
    assert InvitationUse.objects.get(invitation=link).user == zoya
    event = MembershipEvent.objects.get(action=MembershipAction.ACCEPTED)
    assert (event.actor, event.subject, event.role) == (zoya, zoya, Role.SECRETARY)
    assert "Welcome to Sochi Club: you are its secretary." in html(client.get("/c/sochi/"))


def test_htmx_accept_follows_a_client_redirect(client, club_a, link):
    client.force_login(make_user())

    response = client.post(join(link), headers=HTMX)

    assert response["HX-Redirect"] == "/c/sochi/"


def test_a_bound_link_links_the_account_to_the_roster_name(client, club_a, bound, oksana):
    user = make_user()
    NameClaim.objects.create(club=club_a, user=make_member(club_a, user=user).user, player=oksana)
    client.force_login(user)

    client.post(join(bound))

    oksana.refresh_from_db()
    assert oksana.user == user
    assert Membership.objects.get(club=club_a, user=user).role == Role.PLAYER
    # His own request for a name is answered by the link.
    assert NameClaim.objects.get(user=user).status == "declined"
    assert MembershipEvent.objects.get(action=MembershipAction.ACCEPTED).detail == "Оксана"


def test_accepting_raises_a_lower_role(client, club_a, link, player):
    client.force_login(player)

    client.post(join(link))

    assert Membership.objects.get(club=club_a, user=player).role == Role.SECRETARY
    change = MembershipEvent.objects.get(action=MembershipAction.ROLE_CHANGED)
    assert (change.role, change.detail) == (Role.SECRETARY, Role.PLAYER)


def test_accepting_never_lowers_a_role_but_still_links_the_name(
    client, club_a, secretary, bound, oksana
):
    client.force_login(secretary)

    client.post(join(bound))

    assert Membership.objects.get(club=club_a, user=secretary).role == Role.SECRETARY
    oksana.refresh_from_db()
    assert oksana.user == secretary


def test_a_link_that_would_change_nothing_spends_no_use(client, club_a, owner, link):
    client.force_login(owner)
    before = database_state()

    page = html(client.get(join(link)))
    response = client.post(join(link))

    assert "this link would change nothing for you" in page
    assert 'id="accept-form"' not in page
    assert response["Location"] == "/c/sochi/"
    assert database_state() == before
    assert "You are already a member of Sochi Club." in html(client.get("/c/sochi/"))


def test_a_many_use_link_is_accepted_once_per_account(client, club_a, owner):
    link = make_invitation(club_a, created_by=owner, max_uses=5)
    user = make_user()
    client.force_login(user)
    client.post(join(link))
    before = database_state()

    text = html(client.get(join(link)))
    client.post(join(link))

    assert "You have already accepted this invitation." in text
    assert database_state() == before
    link.refresh_from_db()
    assert link.uses == 1


# Links that no longer work


def assert_refused(client, url: str, status: int, message: str) -> None:
    """GET and POST both name the problem with `status`, and change nothing."""
    before = database_state()
    for response in (client.get(url), client.post(url), client.post(url, headers=HTMX)):
        assert response.status_code == status
        assert message in html(response)
        assert 'id="accept-form"' not in html(response)
    assert database_state() == before


@pytest.mark.parametrize(
    "token",
    [
        "x" * invitations.TOKEN_LENGTH,
        "short",
        "x" * 10_000,
        "%00" * 3,
        "٣" * invitations.TOKEN_LENGTH,
    ],
    ids=["forged", "short", "huge", "nul", "arabic-digits"],
)
def test_a_forged_token_is_not_found(client, link, token):
    client.force_login(make_user())

    assert_refused(client, f"/join/{token}/", 404, "This invitation link is not valid.")


def test_a_right_selector_with_a_wrong_secret_is_not_found(client, link):
    client.force_login(make_user())
    forged = link.selector + "A" * invitations.VERIFIER_LENGTH

    assert_refused(client, f"/join/{forged}/", 404, "This invitation link is not valid.")


def test_an_expired_link_is_gone(client, link):
    client.force_login(make_user())

    with time_machine.travel(timezone.now() + timedelta(days=7, seconds=1)):
        assert_refused(client, join(link), 410, "This invitation link expired on")


def test_a_link_works_until_its_last_second(client, club_a, link):
    user = make_user()
    client.force_login(user)

    with time_machine.travel(timezone.now() + timedelta(days=6, hours=23)):
        client.post(join(link))

    assert Membership.objects.filter(club=club_a, user=user).exists()


def test_a_revoked_link_is_gone(client, owner, link):
    invitations.invitation_revoke(invitation=link, actor=owner)
    client.force_login(make_user())

    assert_refused(client, join(link), 410, "This invitation link was revoked by the club.")


def test_a_used_up_link_is_gone_for_the_next_one(client, club_a, link):
    invitations.invitation_accept(token=link.token, user=make_user())
    client.force_login(make_user())

    assert_refused(client, join(link), 410, "This invitation link has already been used.")


def test_anonymous_is_told_a_dead_link_is_dead_before_logging_in(client, owner, link):
    invitations.invitation_revoke(invitation=link, actor=owner)

    response = client.get(join(link))

    assert response.status_code == 410
    assert "This invitation link was revoked" in html(response)
    assert 'id="accept-login"' not in html(response)


def test_a_name_claimed_meanwhile_by_someone_else_is_refused(client, club_a, bound, oksana):
    oksana.user = make_member(club_a).user
    oksana.save()
    client.force_login(make_user())
    before = database_state()

    page = client.get(join(bound))
    response = client.post(join(bound))

    message = "The roster name Оксана is already linked to another account."
    assert page.status_code == 200
    assert message in html(page)
    assert response.status_code == 409
    assert message in html(response)
    assert database_state() == before


def test_an_account_with_another_name_cannot_take_a_second_one(client, club_a, bound, player):
    make_player(club_a, "Петро", user=player)
    client.force_login(player)
    before = database_state()

    response = client.post(join(bound))

    assert response.status_code == 409
    assert "already linked to the roster name Петро in this club" in html(response)
    assert database_state() == before


def test_a_get_of_the_link_changes_nothing(client, link):
    client.force_login(make_user())
    before = database_state()

    client.get(join(link))

    assert database_state() == before


# Two at once


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_two_people_accepting_a_single_use_link_at_once_one_wins():
    from tests.conftest import make_club

    club = make_club()
    link = make_invitation(club, role=Role.SECRETARY)
    people = [make_user(), make_user()]
    barrier = threading.Barrier(2)
    outcomes = []

    def accept(user):
        try:
            barrier.wait()
            invitations.invitation_accept(token=link.token, user=user)
            outcomes.append("joined")
        except invitations.InvitationError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(user,)) for user in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["joined", "used_up"]
    assert Membership.objects.filter(club=club, user__in=people).count() == 1  # the maker aside
    link.refresh_from_db()
    assert link.uses == 1
    assert InvitationUse.objects.filter(invitation=link).count() == 1
