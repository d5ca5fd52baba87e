"""Who entered and corrected each deal: named for the club's members, hidden from visitors.

The name is the roster player linked to the account, else the user's full name, else the
role ("a secretary"); the login name is never shown, to members or anyone else.
"""

import pytest

from club.models import Player, Role
from scoring.models import Deal
from tests.conftest import HTMX, PERSONAS, make_member
from tests.scoring.factories import deal_post

pytestmark = pytest.mark.django_db

MEMBERS = {"player", "secretary", "owner"}


@pytest.fixture
def open_pulka(club_a, pulka, secretary, client):
    """Club A made public; the secretary (linked to the roster player Serhii Koval) entered
    the first deal, a secretary with only a full name corrected it, and one with neither
    name entered the second."""
    club_a.is_public = True
    club_a.save()
    Player.objects.create(club=club_a, name="Serhii Koval", user=secretary)
    named = make_member(club_a, Role.SECRETARY, username="vkl", first_name="Vira", last_name="K")
    bare = make_member(club_a, Role.SECRETARY, username="anon-sec").user
    url = pulka.get_absolute_url()
    client.force_login(secretary)
    client.post(url + "deals/", deal_post())
    client.force_login(named.user)
    client.post(url + "deals/1/edit/", deal_post(tricks_1="7", tricks_2="2", version="1"))
    client.force_login(bare)
    client.post(
        url + "deals/",
        deal_post(
            number=2,
            declarer="2",
            call_0="whist",
            call_1="pass",
            tricks_2="6",
            tricks_0="3",
            tricks_1="1",
            dealer="1",
            rotation_dealer="1",
        ),
    )
    client.logout()
    assert Deal.objects.filter(pulka=pulka).count() == 2
    return pulka


LOGINS = ("serhii", "vkl", "anon-sec")


def _pages(client, pulka) -> dict[str, str]:
    url = pulka.get_absolute_url()
    return {
        "page": client.get(url).content.decode(),
        "fragment": client.get(url, headers=HTMX).content.decode(),
        "live": client.get(url + "live/?v=0", headers=HTMX).content.decode(),
        "history": client.get(url + "history/").content.decode(),
        "history fragment": client.get(url + "history/?deal=1", headers=HTMX).content.decode(),
    }


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_members_see_who_entered_and_corrected_and_never_a_login(
    as_persona, open_pulka, persona
):
    client = as_persona(persona)

    pages = _pages(client, open_pulka)

    for name, html in pages.items():
        for login in LOGINS:
            assert f">{login}<" not in html.replace('nav-user">serhii<', ""), (name, login)
            assert f"by {login}" not in html, (name, login)
            assert f"{login}," not in html, (name, login)
    log, history = pages["page"], pages["history"]
    if persona in MEMBERS:
        assert "entered by Serhii Koval at" in log
        assert "corrected by Vira K" in log
        assert "entered by a secretary at" in log
        assert "Serhii Koval," in history
        assert "Vira K," in history
        assert "a secretary," in history
        assert "Vira K," in pages["history fragment"]
    else:
        assert "entered by" not in log
        assert "corrected by" not in log
        for name in ("Serhii Koval,", "Vira K,", "a secretary,", "unknown,"):
            assert name not in history
        assert "History of changes" in history


def test_a_deal_entered_with_htmx_names_its_secretary_by_the_roster(
    as_persona, club_a, pulka, secretary
):
    Player.objects.create(club=club_a, name="Serhii Koval", user=secretary)
    client = as_persona("secretary")

    response = client.post(pulka.get_absolute_url() + "deals/", deal_post(), headers=HTMX)

    html = response.content.decode()
    assert 'id="deal-1"' in html
    assert "entered by Serhii Koval at" in html
    assert "serhii" not in html
