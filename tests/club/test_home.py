import pytest

from club.models import Role
from tests.club.factories import html
from tests.conftest import make_member


@pytest.mark.django_db
def test_anonymous_sees_public_clubs_but_not_private_ones(client, club_a, public_club):
    text = html(client.get("/"))

    assert "Open Club" in text
    assert f'href="/c/{public_club.slug}/"' in text
    assert "Kyiv" in text
    assert "Sochi Club" not in text
    assert "Your clubs" not in text
    assert "/accounts/login/?next=/clubs/new/" in text


@pytest.mark.django_db
def test_member_sees_his_clubs_with_his_role_and_a_create_link(client, club_a, owner, club_b):
    make_member(club_b, Role.SECRETARY, user=owner)
    client.force_login(owner)

    text = html(client.get("/"))

    assert 'id="my-clubs"' in text
    assert '<a href="/c/sochi/">Sochi Club</a>' in text
    assert '<span class="badge">owner</span>' in text
    assert '<a href="/c/other/">Other Club</a>' in text
    assert '<span class="badge">secretary</span>' in text
    assert 'href="/clubs/new/"' in text


@pytest.mark.django_db
def test_a_user_of_no_club_is_invited_to_create_one(client, outsider, club_a):
    outsider.memberships.all().delete()
    client.force_login(outsider)

    text = html(client.get("/"))

    assert "You are not a member of any club yet." in text
    assert 'href="/clubs/new/"' in text
    assert "Sochi Club" not in text
