"""Nothing a user can send gets a 500: ids too large for the database, junk parameters."""

import pytest

from tests.club.factories import assert_not_found
from tests.conftest import database_state, make_evening, make_pulka

pytestmark = pytest.mark.django_db

BIG = "9" * 30


@pytest.fixture
def client_as_owner(as_persona, club_a):
    return as_persona("owner")


@pytest.mark.parametrize(
    "path",
    [
        f"/c/sochi/p/{BIG}/",
        f"/c/sochi/p/{BIG}/live/?v=1",
        f"/c/sochi/s/{BIG}/",
        f"/c/sochi/s/{BIG}/tables/new/",
        f"/c/sochi/players/{BIG}/",
        f"/c/sochi/players/{BIG}/edit/",
        f"/c/sochi/leagues/{BIG}/",
        f"/c/sochi/leagues/{BIG}/export.csv",
        "/c/sochi/p/{pulka}/deals/" + BIG + "/edit/",
        "/c/sochi/p/{pulka}/deals/" + BIG + "/delete/",
    ],
)
def test_ids_too_large_for_the_database_are_404(client_as_owner, club_a, path):
    pulka = make_pulka(make_evening(club_a))

    response = client_as_owner.get(path.format(pulka=pulka.pk))

    # The owner is led back to his club (the error page names it), and sees nothing else.
    assert_not_found(response, "Anna")


def test_a_membership_id_too_large_is_404(client_as_owner):
    before = database_state()

    response = client_as_owner.post(f"/c/sochi/members/{BIG}/", {"role": "player"})

    assert_not_found(response)
    assert database_state() == before


@pytest.mark.parametrize(
    "query",
    [f"history/?deal={BIG}", "history/?deal=-1", "live/?v=abc", "deal-form/?kind=x&dealer=" + BIG],
)
def test_junk_parameters_are_ignored(client_as_owner, club_a, query):
    pulka = make_pulka(make_evening(club_a))

    response = client_as_owner.get(pulka.get_absolute_url() + query, headers={"HX-Request": "true"})

    text = response.content.decode()
    assert response.status_code in (200, 204)
    assert "<html" not in text  # a fragment, not an error page
    assert response.status_code == 204 or "Anna" in text


def test_huge_numbers_in_forms_are_refused_with_a_message(client_as_owner, club_a):
    pulka = make_pulka(make_evening(club_a))

    response = client_as_owner.post(
        pulka.get_absolute_url() + "deals/",
        {"kind": "game", "declarer": BIG, "dealer": BIG, "rotation_dealer": BIG, "tricks_0": BIG},
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
