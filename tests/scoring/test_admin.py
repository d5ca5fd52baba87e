import pytest
from django.contrib.auth import get_user_model

from tests.conftest import record
from tests.scoring.conftest import SIX_BY_BORIS

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

    assert response.status_code == 403


def test_members_without_staff_status_cannot_open_the_admin(as_persona):
    response = as_persona("owner").get("/admin/scoring/pulka/")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
