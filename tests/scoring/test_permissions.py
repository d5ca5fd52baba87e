"""Every scoring view, for every persona, as a full page and as an htmx fragment.

Club A is private: anonymous visitors and outsiders get 404 (as if it did not exist), a
player gets 403 on anything that writes, a secretary and the owner may do everything.
On a public club an anonymous visitor reads, and is sent to log in for anything else.
"""

import pytest
from django.urls import reverse

from scoring.models import Deal
from tests.conftest import HTMX, make_evening, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS, deal_post

pytestmark = pytest.mark.django_db

READS = [
    ("get", "", {}),
    ("get", "history/", {}),
    ("get", "rules/", {}),
]
WRITES = [
    ("get", "deal-form/?kind=raspasy", {}),
    ("post", "deals/", "deal"),
    ("get", "deals/1/edit/", {}),
    ("post", "deals/1/edit/", "deal"),
    ("get", "deals/1/delete/", {}),
    ("post", "deals/1/delete/", {"version": "1"}),
    ("get", "deals/1/insert/", {}),
    ("post", "deals/1/insert/", "deal"),
    ("post", "rules/", {"rules-pool_target": "12"}),
    ("post", "finish/", {}),
    ("post", "reopen/", {}),
    ("post", "abandon/", {}),
]


def _request(client, pulka, method, path, data, htmx):
    url = pulka.get_absolute_url() + path
    if data == "deal":
        data = deal_post(dealer=1, rotation_dealer=1, declarer=2, call_0="whist", call_1="pass")
        data.pop("call_2")
        data.update(tricks_2="6", tricks_0="3", tricks_1="1", version="1")
    headers = HTMX if htmx else {}
    if method == "get":
        return client.get(url, headers=headers)
    return client.post(url, data, headers=headers)


@pytest.fixture
def played(pulka):
    record(pulka, SIX_BY_BORIS)
    return pulka


def _state(pulka):
    pulka.refresh_from_db()
    return (pulka.version, pulka.status, list(Deal.objects.filter(pulka=pulka).values()))


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("method", "path", "data"), READS + WRITES)
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_get_404_and_change_nothing(
    as_persona, played, persona, method, path, data, htmx
):
    before = _state(played)

    response = _request(as_persona(persona), played, method, path, data, htmx)

    assert response.status_code == 404
    assert _state(played) == before


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("method", "path", "data"), WRITES)
def test_a_player_gets_403_on_every_write_and_changes_nothing(
    as_persona, played, method, path, data, htmx
):
    before = _state(played)

    response = _request(as_persona("player"), played, method, path, data, htmx)

    assert response.status_code == 403
    assert _state(played) == before


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("method", "path", "data"), READS)
@pytest.mark.parametrize("persona", ["player", "secretary", "owner"])
def test_members_read(as_persona, played, persona, method, path, data, htmx):
    response = _request(as_persona(persona), played, method, path, data, htmx)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Boris" in html
    assert ("<html" in html) is not htmx


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("method", "path", "data"), WRITES)
@pytest.mark.parametrize("persona", ["secretary", "owner"])
def test_secretaries_and_owners_may_write(as_persona, played, persona, method, path, data, htmx):
    response = _request(as_persona(persona), played, method, path, data, htmx)

    assert response.status_code in (200, 302)
    if htmx:
        assert response.status_code == 200
        assert "<html" not in response.content.decode()


@pytest.mark.parametrize(("method", "path", "data"), WRITES)
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club, method, path, data):
    pulka = make_pulka(make_evening(public_club))
    record(pulka, SIX_BY_BORIS)
    before = _state(pulka)

    response = _request(client, pulka, method, path, data, htmx=False)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert _state(pulka) == before


def test_anonymous_htmx_write_on_a_public_club_redirects_the_page_to_login(client, public_club):
    pulka = make_pulka(make_evening(public_club))

    response = _request(client, pulka, "post", "deals/", "deal", htmx=True)

    assert response.status_code == 204
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")
    assert not Deal.objects.filter(pulka=pulka).exists()


@pytest.mark.parametrize(("method", "path", "data"), READS)
def test_anonymous_reads_a_public_club(client, public_club, method, path, data):
    pulka = make_pulka(make_evening(public_club))
    record(pulka, SIX_BY_BORIS)

    response = _request(client, pulka, method, path, data, htmx=False)

    assert response.status_code == 200
    assert "Boris" in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona", ["anonymous", "outsider", "player", "secretary", "owner"])
def test_new_table_view_permissions(as_persona, evening_a, persona, htmx):
    url = f"/c/{evening_a.club.slug}/s/{evening_a.pk}/tables/new/"

    response = as_persona(persona).get(url, headers=HTMX if htmx else {})

    expected = {"anonymous": 404, "outsider": 404, "player": 403}.get(persona, 200)
    assert response.status_code == expected
    if expected == 200:
        html = response.content.decode()
        assert 'id="new-table"' in html
        assert ("<html" in html) is not htmx


# The pulka gate reads the club, the role and the pulka at once: the club's verdict comes
# first, and a pulka is found only under its own club's address.


@pytest.mark.parametrize("htmx", [False, True])
def test_a_pulka_of_another_club_is_404_under_this_clubs_address(as_persona, club_a, club_b, htmx):
    elsewhere = make_pulka(make_evening(club_b))
    url = reverse("scoring:pulka-detail", args=[club_a.slug, elsewhere.pk])

    response = as_persona("secretary").get(url, headers=HTMX if htmx else {})

    assert response.status_code == 404
    assert "Anna" not in response.content.decode()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("anonymous", 404), ("outsider", 404), ("player", 403), ("secretary", 404)],
)
def test_a_missing_pulka_gets_the_clubs_own_verdict_first(as_persona, club_a, persona, status):
    url = reverse("scoring:deal-create", args=[club_a.slug, 999_999])

    response = as_persona(persona).post(url, {"kind": "raspasy"})

    assert response.status_code == status
    assert not Deal.objects.exists()


def test_a_missing_pulka_of_a_public_club_sends_the_anonymous_writer_to_log_in(client, public_club):
    url = reverse("scoring:deal-create", args=[public_club.slug, 999_999])

    response = client.post(url, {"kind": "raspasy"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
