"""Staff read invitations, requests for a name and the history in the admin, never a
working link."""

import pytest
from django.contrib.auth import get_user_model

from club import invitations
from tests.club.factories import html
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def test_staff_read_the_new_tables_and_never_see_a_links_secret(client, club_a, owner):
    invitation = invitations.invitation_create(
        club=club_a, role="player", player=make_player(club_a, "Оксана"), created_by=owner
    )
    admin = get_user_model().objects.create_superuser("root", password="pw-pw-pw-1234")
    client.force_login(admin)

    for model in ("invitation", "nameclaim", "membershipevent"):
        assert client.get(f"/admin/club/{model}/").status_code == 200
    page = client.get(f"/admin/club/invitation/{invitation.pk}/change/")

    assert page.status_code == 200
    assert "Оксана" in html(page)
    assert invitation.verifier not in html(page)
    assert client.get("/admin/club/invitation/add/").status_code == 403
