"""The way into a club by invitation, in Chromium, with two browsers at once: the owner makes
a link for a secretary, a stranger opens it, signs up, confirms his address from the mail,
comes back, accepts and records a deal; the owner then makes a link for a roster name, a
player accepts it and reaches his own profile from the nav; a used link says so."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from club.models import Invitation, Membership, Player, Role
from scoring.models import Deal
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_player, make_pulka
from tests.conftest import make_user as make_account

pytestmark = pytest.mark.django_db(transaction=True)


def confirmed_account(username: str):
    user = make_account(username=username, email=f"{username}@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def log_in(page, url: str, login: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", PASSWORD)
    page.click("#account-page button[type=submit]")
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))


def make_link(page, url: str, club, role: str, player: Player | None = None) -> str:
    """The owner makes an invitation link on the club's links page; returns the link."""
    page.goto(f"{url}/c/{club.slug}/invitations/")
    page.select_option("#invitation-form select[name=role]", role)
    if player is not None:
        page.select_option("#invitation-form select[name=player]", label=player.name)
    page.click("#invitation-form button[type=submit]")
    page.wait_for_selector("#invitation-link")
    assert page.locator("#invitation-qr svg").count() == 1  # the code to show or print
    return page.input_value("#invitation-link")


def test_a_stranger_and_a_roster_player_join_by_links(live_server, browser, artifacts):
    owner_user = make_account(username="owner", email="owner@example.org")
    EmailAddress.objects.create(
        user=owner_user, email=owner_user.email, verified=True, primary=True
    )
    club = make_club(name="Сочинка", slug="sochi", is_public=False)
    make_member(club, Role.OWNER, user=owner_user)
    names = ("Анна", "Богдан", "Віра")
    players = [make_player(club, name) for name in names]
    pulka = make_pulka(make_evening(club), names=names)

    owner = browser.new_context(locale="en-GB").new_page()
    log_in(owner, live_server.url, "owner@example.org")
    link = make_link(owner, live_server.url, club, Role.SECRETARY)
    assert link.startswith(live_server.url + "/join/")

    # A stranger, in a second browser, opens the link: he sees the club and the role.
    stranger_context = browser.new_context(locale="en-GB")
    stranger = stranger_context.new_page()
    stranger.goto(link)
    assert "Сочинка" in stranger.inner_text("#invitation-accept")
    assert "secretary" in stranger.inner_text("#invitation-accept")
    stranger.click("#accept-signup")
    stranger.fill("input[name=email]", "bohdan@example.org")
    stranger.fill("input[name=password1]", PASSWORD)
    stranger.fill("input[name=password2]", PASSWORD)
    stranger.click("#account-page button[type=submit]")
    stranger.wait_for_url(re.compile(r"/accounts/confirm-email/$"))
    (message,) = mail.outbox
    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", message.body).group(1)
    stranger.goto(live_server.url + confirm)
    stranger.click("#account-page button[type=submit]")
    stranger.wait_for_url(re.compile(r"/join/"))  # back at the link, now logged in
    stranger.click("#accept-form button[type=submit]")
    stranger.wait_for_url(re.compile(r"/c/sochi/"))
    membership = Membership.objects.get(club=club, user__email="bohdan@example.org")
    assert membership.role == Role.SECRETARY

    # The new secretary records a deal at the running table.
    stranger.goto(live_server.url + pulka.get_absolute_url())
    # The form takes the raspasy shape from the server: its answer is waited for (the game's
    # form has a tricks_2 field too, so waiting for the field alone raced the redraw).
    with stranger.expect_response(re.compile(r"/deal-form/")):
        stranger.check("#deal-form input[name='kind'][value='raspasy']")
    stranger.wait_for_selector("#deal-form:not(:has([name='declarer'])) input[name='tricks_2']")
    for seat, tricks in (("0", 2), ("1", 5), ("2", 3)):
        stranger.locator(f"#deal-form input[name='tricks_{seat}']").fill(str(tricks))
    with stranger.expect_response(lambda r: r.url.endswith("/deals/")):
        stranger.locator("#deal-form input[name='tricks_2']").press("Enter")
    stranger.wait_for_selector("#deal-log li.deal")
    assert Deal.objects.get(pulka=pulka).entered_by == membership.user

    # A link for the roster name Віра; a player with an account accepts it.
    vira = players[2]
    bound = make_link(owner, live_server.url, club, Role.PLAYER, player=vira)
    confirmed_account("vira")
    player = browser.new_context(locale="en-GB").new_page()
    player.goto(bound)
    assert "Віра" in player.inner_text("#invitation-accept")
    player.click("#accept-login")
    player.fill("input[name=login]", "vira@example.org")
    player.fill("input[name=password]", PASSWORD)
    player.click("#account-page button[type=submit]")
    player.wait_for_url(re.compile(r"/join/"))
    player.click("#accept-form button[type=submit]")
    player.wait_for_url(re.compile(r"/c/sochi/"))
    vira.refresh_from_db()
    assert vira.user.username == "vira"
    player.click("#nav-my-profile")
    player.wait_for_url(re.compile(rf"/c/sochi/players/{vira.pk}/$"))
    assert "Віра" in player.inner_text("h1")
    player.screenshot(path=str(artifacts / "invited-player.png"), full_page=True)

    # The bound link is used up: opened again, it says so, and nothing changes.
    other = browser.new_context(locale="en-GB").new_page()
    response = other.goto(bound)
    assert response.status == 410
    assert other.locator("#invitation-problem").count() == 1
    assert "already been used" in other.inner_text("#invitation-problem")
    assert Invitation.objects.get(player=vira).uses == 1
