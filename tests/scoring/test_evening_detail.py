import datetime

import pytest

from tests.club.factories import READ, assert_fragment, assert_full_page, assert_not_found, html
from tests.conftest import HTMX, PERSONAS, make_evening, make_player, make_pulka, record

SEVEN = {
    "kind": "game",
    "declarer": "Anna",
    "contract": "7H",
    "calls": {"Boris": "whist", "Vera": "pass"},
    "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
}


@pytest.fixture
def evening(club_a):
    return make_evening(
        club_a, date=datetime.date(2024, 5, 17), venue="Kurortny 12", notes="Bring cards"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_evening_is_read_by_members_only(as_persona, evening, persona):
    make_pulka(evening)

    response = as_persona(persona).get(f"/c/sochi/s/{evening.pk}/")

    assert response.status_code == READ[persona]
    assert ("Kurortny 12" in html(response)) is (response.status_code == 200)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_the_tables_fragment_follows_the_same_gate(as_persona, evening, persona):
    make_pulka(evening)

    response = as_persona(persona).get(f"/c/sochi/s/{evening.pk}/", headers=HTMX)

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        text = assert_fragment(response, "tables")
        assert "Anna" in text
        assert 'id="new-table"' not in text


@pytest.mark.django_db
def test_the_evening_shows_its_tables_with_pools_and_results(as_persona, evening):
    pulka = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    record(pulka, SEVEN)

    text = assert_full_page(as_persona("player").get(f"/c/sochi/s/{evening.pk}/"), "tables")

    assert "Kurortny 12" in text
    assert "Bring cards" in text
    assert f'id="table-{pulka.pk}"' in text
    assert f'href="{pulka.get_absolute_url()}"' in text
    anna = text[text.index("<td>Anna</td>") :].split("</tr>")[0]
    assert '<td class="num">4</td>' in anna  # a made seven writes 4 into the pool
    assert 'id="new-table"' not in text
    assert "/edit/" not in text


@pytest.mark.django_db
def test_running_tables_are_refreshed_by_polling(as_persona, evening):
    pulka = make_pulka(evening)

    text = html(as_persona("player").get(f"/c/sochi/s/{evening.pk}/"))

    token = f"1-{pulka.version}"
    assert f'hx-get="/c/sochi/s/{evening.pk}/?v={token}" hx-trigger="every 5s"' in text


@pytest.mark.django_db
def test_an_evening_without_running_tables_is_not_polled(as_persona, evening):
    text = html(as_persona("player").get(f"/c/sochi/s/{evening.pk}/"))

    assert "No table has been opened this evening yet." in text
    assert 'hx-trigger="every' not in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["secretary", "owner"])
def test_secretaries_get_the_new_table_form_with_the_roster(as_persona, evening, persona):
    make_player(evening.club, "Gleb")

    text = html(as_persona(persona).get(f"/c/sochi/s/{evening.pk}/"))

    assert 'id="new-table"' in text
    assert f'action="/c/sochi/s/{evening.pk}/tables/new/"' in text
    assert "Gleb" in text
    assert f'href="/c/sochi/s/{evening.pk}/edit/"' in text


@pytest.mark.django_db
def test_anyone_reads_an_evening_of_a_public_club(client, public_club):
    evening = make_evening(public_club, venue="The library")
    make_pulka(evening)

    text = assert_full_page(client.get(f"/c/open/s/{evening.pk}/"), "tables")

    assert "The library" in text
    assert 'id="new-table"' not in text
    assert_fragment(client.get(f"/c/open/s/{evening.pk}/", headers=HTMX), "tables")


@pytest.mark.django_db
def test_another_clubs_evening_is_404_under_this_club(as_persona, club_a, club_b):
    theirs = make_evening(club_b, venue="Their hall")

    assert_not_found(as_persona("owner").get(f"/c/sochi/s/{theirs.pk}/"), "Their hall")
    assert_not_found(as_persona("owner").get("/c/sochi/s/999999/"))
