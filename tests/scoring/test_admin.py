import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from scoring.models import Pulka
from tests.club.factories import assert_forbidden
from tests.conftest import record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(user)
    return client


def test_staff_see_a_pulka_with_its_seats_and_deals_in_the_admin(staff_client, pulka):
    record(pulka, SIX_BY_BORIS)

    html = staff_client.get(f"/admin/scoring/pulka/{pulka.pk}/change/").content.decode()

    assert "Anna" in html
    assert "6S" in html


def test_revisions_are_read_only_in_the_admin(staff_client, pulka):
    record(pulka, SIX_BY_BORIS)

    response = staff_client.get("/admin/scoring/dealrevision/add/")

    assert_forbidden(response, 'name="pulka"')


def test_members_without_staff_status_cannot_open_the_admin(as_persona):
    response = as_persona("owner").get("/admin/scoring/pulka/")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def club_change(club, **fields) -> dict:
    data = {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "is_public": "on",
        "pool_target": "10",
        "rules": "{}",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "old_slugs-TOTAL_FORMS": "0",
        "old_slugs-INITIAL_FORMS": "0",
    }
    data.update(fields)
    return data


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rules": json.dumps({"raspasy_progression": "oops"})}, "raspasy costs must be whole"),
        ({"rules": json.dumps({"bogus": 1})}, "unknown convention"),
        ({"rules": json.dumps({"raspasy_progression": [10**30]})}, "at most 100"),
        ({"rules": json.dumps({"pool_target": 10})}, "unknown convention"),
        ({"rules": "null"}, "must be an object"),
        ({"rules": "[1, 2]"}, "must be an object"),
        ({"pool_target": "5000"}, "at most 1000"),
    ],
)
def test_the_admin_refuses_conventions_the_engine_cannot_read(
    staff_client, club_a, fields, message
):
    url = f"/admin/club/club/{club_a.pk}/change/"

    response = staff_client.post(url, club_change(club_a, **fields))

    assert response.status_code == 200
    assert message in response.content.decode()
    club_a.refresh_from_db()
    assert (club_a.rules, club_a.pool_target) == ({}, 10)
    assert staff_client.get(f"/c/{club_a.slug}/conventions/").status_code == 200


def test_the_admin_keeps_a_clubs_conventions_resolved(staff_client, club_a):
    url = f"/admin/club/club/{club_a.pk}/change/"
    rules = json.dumps({"raspasy_progression": [1, 2, 4]})

    response = staff_client.post(url, club_change(club_a, rules=rules, pool_target="30"))

    assert response.status_code == 302
    club_a.refresh_from_db()
    assert club_a.pool_target == 30
    assert club_a.rules["raspasy_progression"] == [1, 2, 4]
    assert club_a.rules["consolation"] == "whisters"  # every key, as the services keep them
    assert "pool_target" not in club_a.rules


def test_a_pulka_cannot_be_added_in_the_admin(staff_client):
    assert_forbidden(staff_client.get("/admin/scoring/pulka/add/"), 'name="evening"')
    assert_forbidden(staff_client.post("/admin/scoring/pulka/add/", {"evening": "1"}))
    assert not Pulka.objects.exists()


def test_a_pulka_checks_its_conventions_through_the_engine(pulka):
    pulka.rules = {**pulka.rules, "raspasy_progression": [10**7]}

    with pytest.raises(ValidationError) as caught:
        pulka.full_clean()

    assert "at most 100" in str(caught.value.message_dict["rules"])
