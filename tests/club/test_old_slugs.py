"""A club renamed in the admin keeps its old links working: /c/<old>/... redirects for good.

Covers the service (club_set_slug), the admin, the tenant gate's redirect for pages, htmx
fragments, downloads and posts, who learns the new name (not outsiders of a private club),
and that no other club can take a name that still redirects.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import services
from club.forms import free_slug
from club.models import Club, ClubSlug, Player
from club.services import ClubError
from competition.models import League
from tests.club.factories import assert_fragment, assert_full_page, assert_not_found
from tests.conftest import HTMX, PASSWORD, make_evening, make_pulka, make_user, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db


def rename(club: Club, slug: str) -> Club:
    return services.club_set_slug(club=club, slug=slug)


# The service


def test_renaming_keeps_the_old_name_as_an_old_link(club_a):
    club = rename(club_a, "sochi-kyiv")

    assert club.slug == "sochi-kyiv"
    assert Club.objects.get(pk=club_a.pk).slug == "sochi-kyiv"
    assert list(ClubSlug.objects.values_list("club_id", "slug")) == [(club_a.pk, "sochi")]


def test_every_old_name_keeps_leading_to_the_club(client, public_club):
    rename(public_club, "open-2")
    rename(public_club, "open-3")

    assert sorted(public_club.old_slugs.values_list("slug", flat=True)) == ["open", "open-2"]
    assert client.get("/c/open/")["Location"] == "/c/open-3/"
    assert client.get("/c/open-2/")["Location"] == "/c/open-3/"


def test_a_club_may_take_back_one_of_its_old_names(club_a):
    rename(club_a, "sochi-kyiv")

    club = rename(club_a, "sochi")

    assert club.slug == "sochi"
    assert list(ClubSlug.objects.values_list("slug", flat=True)) == ["sochi-kyiv"]


def test_the_same_name_again_changes_nothing(club_a):
    assert rename(club_a, "sochi").slug == "sochi"
    assert not ClubSlug.objects.exists()


def test_another_clubs_current_or_old_name_is_refused_and_nothing_changes(club_a, club_b):
    rename(club_b, "other-2")

    for slug, words in [("other-2", "Another club already uses"), ("other", "used to belong")]:
        with pytest.raises(ClubError) as refused:
            rename(club_a, slug)
        assert words in refused.value.message
        assert refused.value.field == "slug"
    assert Club.objects.get(pk=club_a.pk).slug == "sochi"
    assert list(ClubSlug.objects.values_list("slug", flat=True)) == ["other"]


def test_a_name_that_is_not_a_slug_is_refused(club_a):
    with pytest.raises(ClubError, match="Latin letters"):
        rename(club_a, "сочі клуб")
    assert not ClubSlug.objects.exists()


def test_a_new_club_cannot_take_a_name_that_still_redirects(club_a):
    rename(club_a, "sochi-kyiv")

    with pytest.raises(ClubError, match="used to belong to another club"):
        services.club_create(name="New", slug="sochi", city="", is_public=True, owner=make_user())
    assert free_slug("sochi") == "sochi-2"


def test_the_club_page_explains_why_an_old_name_is_taken(client, club_a):
    rename(club_a, "sochi-kyiv")
    client.force_login(make_user())

    response = client.post(
        "/clubs/new/", {"name": "Sochi", "slug": "sochi", "city": "", "is_public": "on"}
    )

    assert "used to belong to another club and still leads there" in response.content.decode()
    assert Club.objects.count() == 1


def test_deleting_the_old_link_frees_the_name(client, club_a):
    rename(club_a, "sochi-kyiv")
    ClubSlug.objects.filter(slug="sochi").delete()

    club = services.club_create(
        name="New", slug="sochi", city="", is_public=True, owner=make_user()
    )

    assert club.slug == "sochi"


# The admin


@pytest.fixture
def staff(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    client.force_login(admin)
    return client


def admin_form(club: Club, **overrides) -> dict:
    return {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "is_public": "on" if club.is_public else "",
        "pool_target": club.pool_target,
        "rules": json.dumps(club.rules),
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "old_slugs-TOTAL_FORMS": "0",
        "old_slugs-INITIAL_FORMS": "0",
        **overrides,
    }


def test_renaming_in_the_admin_keeps_the_old_link(staff, club_a):
    response = staff.post(
        f"/admin/club/club/{club_a.pk}/change/", admin_form(club_a, slug="sochi-kyiv", city="Lviv")
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    club = Club.objects.get(pk=club_a.pk)
    assert (club.slug, club.city) == ("sochi-kyiv", "Lviv")
    assert list(club.old_slugs.values_list("slug", flat=True)) == ["sochi"]
    assert "sochi" in staff.get(f"/admin/club/club/{club_a.pk}/change/").content.decode()


def test_the_admin_refuses_another_clubs_old_name(staff, club_a, club_b):
    rename(club_b, "other-2")

    response = staff.post(f"/admin/club/club/{club_a.pk}/change/", admin_form(club_a, slug="other"))

    assert response.status_code == 200
    assert "as an old link that still leads to it" in response.content.decode()
    assert Club.objects.get(pk=club_a.pk).slug == "sochi"


def test_the_admin_cannot_add_a_club_under_a_name_that_redirects(staff, club_a):
    rename(club_a, "sochi-kyiv")
    new = Club(name="Sochi again", slug="sochi", pool_target=20)

    response = staff.post("/admin/club/club/add/", admin_form(new))

    assert response.status_code == 200
    assert "as an old link that still leads to it" in response.content.decode()
    assert Club.objects.count() == 1


def test_the_admin_saves_other_fields_without_a_new_old_link(staff, club_a):
    response = staff.post(f"/admin/club/club/{club_a.pk}/change/", admin_form(club_a, city="Lviv"))

    assert response.status_code == 302
    assert Club.objects.get(pk=club_a.pk).city == "Lviv"
    assert not ClubSlug.objects.exists()


# The redirect, through the tenant gate


@pytest.fixture
def renamed(public_club):
    """The public club "open", renamed "open-kyiv", with a played pulka and a league."""
    pulka = make_pulka(make_evening(public_club))
    record(pulka, SIX_BY_BORIS)
    league = League.objects.create(
        club=public_club, name="Spring", start="2024-01-01", end="2030-12-31", min_pulkas=1
    )
    rename(public_club, "open-kyiv")
    return {"pulka": pulka, "evening": pulka.evening, "league": league}


@pytest.mark.parametrize(
    "path",
    [
        "",
        "running/",
        "conventions/",
        "s/{evening}/",
        "p/{pulka}/",
        "p/{pulka}/history/",
        "leagues/",
        "leagues/{league}/",
        "players/",
    ],
)
def test_a_page_under_the_old_name_moves_for_good_to_the_new_one(client, renamed, path):
    path = path.format(
        evening=renamed["evening"].pk, pulka=renamed["pulka"].pk, league=renamed["league"].pk
    )

    response = client.get(f"/c/open/{path}?sort=name&page=2")

    assert response.status_code == 301
    assert response["Location"] == f"/c/open-kyiv/{path}?sort=name&page=2"


def test_following_the_redirect_shows_the_page(client, renamed):
    pulka = renamed["pulka"]

    response = client.get(f"/c/open/p/{pulka.pk}/", follow=True)

    assert response.redirect_chain == [(f"/c/open-kyiv/p/{pulka.pk}/", 301)]
    assert_full_page(response, "board")


def test_an_htmx_fragment_under_the_old_name_follows_to_the_fragment(client, renamed):
    pulka = renamed["pulka"]

    moved = client.get(f"/c/open/p/{pulka.pk}/", headers=HTMX)
    response = client.get(f"/c/open/p/{pulka.pk}/", headers=HTMX, follow=True)

    assert moved.status_code == 301
    assert moved["Location"] == f"/c/open-kyiv/p/{pulka.pk}/"
    assert_fragment(response, "board")


def test_head_is_redirected_like_get(client, renamed):
    anna = Player.objects.get(name="Anna")  # the player page is one that answers HEAD

    response = client.head(f"/c/open/players/{anna.pk}/")

    assert response.status_code == 301
    assert response["Location"] == f"/c/open-kyiv/players/{anna.pk}/"


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("p/{pulka}/export/pulka.json", "application/json"),
        ("p/{pulka}/export/sheet.json", "application/json"),
        ("leagues/{league}/export.csv", "text/csv"),
    ],
)
def test_downloads_under_the_old_name_follow_to_the_file(client, renamed, path, content_type):
    path = path.format(pulka=renamed["pulka"].pk, league=renamed["league"].pk)

    response = client.get(f"/c/open/{path}", follow=True)

    assert response.redirect_chain == [(f"/c/open-kyiv/{path}", 301)]
    assert response.status_code == 200
    assert response["Content-Type"].startswith(content_type)
    assert "attachment" in response["Content-Disposition"]


def test_a_post_under_the_old_name_is_repeated_at_the_new_one(client, club_a, secretary):
    rename(club_a, "sochi-kyiv")
    client.force_login(secretary)

    moved = client.post("/c/sochi/players/", {"name": "Gleb"})
    assert moved.status_code == 308
    assert moved["Location"] == "/c/sochi-kyiv/players/"
    assert not Player.objects.filter(name="Gleb").exists()  # nothing done at the old address

    response = client.post("/c/sochi/players/", {"name": "Gleb"}, headers=HTMX, follow=True)

    assert response.redirect_chain == [("/c/sochi-kyiv/players/", 308)]
    text = assert_fragment(response, "roster")
    assert "Gleb" in text
    assert Player.objects.filter(club=club_a, name="Gleb").count() == 1


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_do_not_learn_a_private_clubs_new_name(as_persona, club_a, persona):
    rename(club_a, "sochi-kyiv")

    response = as_persona(persona).get("/c/sochi/")

    assert response.status_code == 404
    assert "sochi-kyiv" not in response.content.decode()


@pytest.mark.parametrize("persona", ["player", "secretary", "owner"])
def test_members_of_a_private_club_are_sent_to_its_new_name(as_persona, club_a, persona):
    rename(club_a, "sochi-kyiv")

    response = as_persona(persona).get("/c/sochi/members/")

    assert response.status_code == 301
    assert response["Location"] == "/c/sochi-kyiv/members/"


def test_the_role_is_checked_at_the_new_address(as_persona, club_a):
    rename(club_a, "sochi-kyiv")

    response = as_persona("player").get("/c/sochi/members/", follow=True)

    assert response.redirect_chain == [("/c/sochi-kyiv/members/", 301)]
    assert response.status_code == 403


def test_a_name_no_club_ever_had_is_not_found(client, renamed, public_club):
    assert_not_found(client.get("/c/never/"), public_club.name, "open-kyiv")


def test_the_current_name_never_looks_at_the_old_links(client, renamed):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/c/open-kyiv/")

    assert_full_page(response, "evenings")
    assert not [q for q in queries.captured_queries if "club_clubslug" in q["sql"]]
