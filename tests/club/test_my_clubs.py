"""A player's own way in: "my clubs" on the home page with the role and "my profile" in
each, "my profile" in a club's navigation, and a word on how to get a roster name."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Role
from tests.club.factories import html
from tests.conftest import make_club, make_evening, make_member, make_player, make_pulka, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def petro(db):
    return make_user(username="petro")


def test_home_lists_my_clubs_with_my_role_and_my_profile(client, petro):
    sochi = make_club(name="Сочинка", slug="sochi", is_public=False)
    other = make_club(name="Other", slug="other")
    make_member(sochi, Role.PLAYER, user=petro)
    make_member(other, Role.SECRETARY, user=petro)
    me = make_player(sochi, "Петро", user=petro)
    make_player(other, "Петро")  # a namesake, not linked to the account
    client.force_login(petro)

    text = html(client.get("/"))

    assert 'id="my-clubs"' in text
    sochi_line = text[text.index('data-club="sochi"') :].split("</li>")[0]
    other_line = text[text.index('data-club="other"') :].split("</li>")[0]
    assert "player" in sochi_line
    assert f'href="/c/sochi/players/{me.pk}/"' in sochi_line
    assert "My profile (Петро)" in sochi_line
    assert "secretary" in other_line
    assert "My profile" not in other_line
    assert "no name on this club's roster yet" in other_line
    # Nobody links himself: a secretary asks the owner for his name too.
    assert "ask for your name: the club's owner links it to your account" in other_line
    assert 'href="/c/other/my-name/"' in other_line
    assert 'href="/c/other/players/"' in other_line


def test_a_player_without_a_roster_name_is_told_to_ask_for_his_name(client, petro):
    make_member(make_club(slug="sochi"), Role.PLAYER, user=petro)
    client.force_login(petro)

    text = html(client.get("/"))

    assert "your games and rating are not linked to you" in text
    assert '<a href="/c/sochi/my-name/">Ask to be linked to your name</a>' in text


def test_home_reads_my_clubs_in_one_query(client, petro):
    for n in range(3):
        club = make_club()
        make_member(club, Role.PLAYER, user=petro)
        make_player(club, f"Петро {n}", user=petro)
    client.force_login(petro)

    from club import selectors

    with CaptureQueriesContext(connection) as queries:
        memberships = list(selectors.memberships_for_user(petro))
    assert len(queries) == 1
    assert all(m.player_id for m in memberships)


def test_a_visitor_sees_no_clubs_of_his_own_and_is_offered_sign_up(client, db):
    text = html(client.get("/"))

    assert 'id="my-clubs"' not in text
    assert 'href="/accounts/signup/"' in text  # the nav
    assert 'id="signup-to-create"' in text


@pytest.mark.parametrize("linked", [True, False])
def test_the_club_nav_has_my_profile_one_click_away(client, petro, linked):
    club = make_club(slug="sochi", is_public=False)
    make_member(club, Role.PLAYER, user=petro)
    me = make_player(club, "Петро", user=petro if linked else None)
    pulka = make_pulka(make_evening(club))
    client.force_login(petro)

    pages = [
        "/c/sochi/",
        "/c/sochi/players/",
        "/c/sochi/leagues/",
        f"/c/sochi/s/{pulka.evening_id}/",
        f"/c/sochi/p/{pulka.pk}/",
    ]
    for path in pages:
        text = html(client.get(path))
        link = f'id="nav-my-profile" href="/c/sochi/players/{me.pk}/"'
        assert (link in text) is linked, path


def test_my_profile_costs_no_extra_query(client, petro):
    club = make_club(slug="sochi", is_public=False)
    make_member(club, Role.PLAYER, user=petro)
    me = make_player(club, "Петро")
    client.force_login(petro)
    client.get("/c/sochi/")  # warm what is cached

    with CaptureQueriesContext(connection) as unlinked:
        client.get("/c/sochi/")
    me.user = petro
    me.save()
    with CaptureQueriesContext(connection) as linked:
        text = html(client.get("/c/sochi/"))

    assert 'id="nav-my-profile"' in text
    # The nav link comes with the tenant gate's query. An unlinked member's page costs more,
    # not less: it also offers him to ask for his roster name (club:roster-name).
    assert len(linked) <= len(unlinked)
    assert "Ask to be linked" not in text


def test_another_clubs_roster_name_is_not_my_profile_here(client, petro):
    make_club(slug="sochi", is_public=True)
    elsewhere = make_club(slug="other")
    make_player(elsewhere, "Петро", user=petro)
    client.force_login(petro)

    assert 'id="nav-my-profile"' not in html(client.get("/c/sochi/"))


def test_a_player_without_a_roster_name_is_told_how_to_get_one_on_the_club_page(client, petro):
    club = make_club(slug="sochi", is_public=False)
    make_member(club, Role.PLAYER, user=petro)
    client.force_login(petro)

    assert 'id="no-roster-name"' in html(client.get("/c/sochi/"))
    make_player(club, "Петро", user=petro)
    assert 'id="no-roster-name"' not in html(client.get("/c/sochi/"))
