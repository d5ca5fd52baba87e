import datetime

import pytest
from django.utils import timezone

from club.models import Role
from tests.club.factories import READ, assert_fragment, assert_full_page, assert_not_found, html
from tests.conftest import (
    HTMX,
    PERSONAS,
    make_evening,
    make_member,
    make_player,
    make_pulka,
    record,
)
from tests.scoring.factories import SIX_BY_BORIS


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_club_is_read_by_its_members_only(as_persona, club_a, persona):
    make_evening(club_a, venue="Kurortny 12")

    response = as_persona(persona).get("/c/sochi/")

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        assert "Sochi Club" in html(response)
        assert "Kurortny 12" in html(response)
    else:
        assert "Kurortny 12" not in html(response)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["player", "secretary", "owner"])
def test_the_sessions_fragment_is_the_list_alone(as_persona, club_a, persona):
    make_evening(club_a, venue="Kurortny 12")
    make_player(club_a, "Anna")

    text = assert_fragment(as_persona(persona).get("/c/sochi/", headers=HTMX), "evenings")

    assert "Kurortny 12" in text
    assert 'id="roster"' not in text
    assert 'id="running-tables"' not in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_outsiders_get_no_fragment_of_a_private_club(as_persona, club_a, persona):
    assert_not_found(as_persona(persona).get("/c/sochi/", headers=HTMX), club_a.name)


@pytest.mark.django_db
def test_anyone_reads_a_public_club(client, public_club):
    make_evening(public_club, venue="The library")

    text = assert_full_page(client.get("/c/open/"), "evenings")

    assert "Open Club" in text
    assert "The library" in text
    assert 'id="evening-form"' not in text
    assert_fragment(client.get("/c/open/", headers=HTMX), "evenings")


@pytest.mark.django_db
def test_an_unknown_club_is_404(client, db):
    response = client.get("/c/nowhere/")

    # The address asked for comes back only in the links that return to it (log in, language).
    assert_not_found(response, "nowhere</", ">nowhere", 'href="/c/nowhere/"')


@pytest.mark.django_db
def test_sessions_are_listed_newest_first_with_their_table_count(client, public_club):
    old = make_evening(public_club, date=datetime.date(2024, 1, 5), venue="Old room")
    new = make_evening(public_club, date=datetime.date(2024, 3, 9), venue="New room")
    make_pulka(new, names=("Anna", "Boris", "Vera"))
    make_pulka(new, names=("Gleb", "Dina", "Egor"))

    text = html(client.get("/c/open/"))

    assert text.index("New room") < text.index("Old room")
    assert f'href="/c/open/s/{new.pk}/"' in text
    assert f'href="/c/open/s/{old.pk}/"' in text
    new_row = text[text.index(f"/c/open/s/{new.pk}/") :].split("</tr>")[0]
    assert '<td class="num">2</td>' in new_row
    old_row = text[text.index(f"/c/open/s/{old.pk}/") :].split("</tr>")[0]
    assert '<td class="num">0</td>' in old_row


@pytest.mark.django_db
def test_many_sessions_are_paged_and_the_pager_works_with_and_without_htmx(client, public_club):
    for day in range(1, 26):
        make_evening(public_club, date=datetime.date(2024, 1, day), venue=f"Room {day:02d}")

    first = html(client.get("/c/open/"))
    second = client.get("/c/open/", {"page": 2}, headers=HTMX)

    assert "Room 25" in first
    assert "Room 05" not in first
    assert 'href="?page=2" hx-get="?page=2"' in first
    text = assert_fragment(second, "evenings")
    assert "Room 05" in text
    assert "Room 25" not in text
    assert client.get("/c/open/", {"page": "nonsense"}).status_code == 200


@pytest.mark.django_db
def test_running_tables_show_their_live_pools(client, public_club):
    evening = make_evening(public_club)
    pulka = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    finished = make_pulka(evening, names=("Gleb", "Dina", "Egor"))
    finished.status = "finished"
    finished.save()

    text = html(client.get("/c/open/"))

    assert f'id="table-{pulka.pk}"' in text
    assert f'href="{pulka.get_absolute_url()}"' in text
    assert "Boris" in text
    assert f'id="table-{finished.pk}"' not in text


@pytest.mark.django_db
def test_no_running_table_is_said_so(client, public_club):
    assert "No table is being played right now." in html(client.get("/c/open/"))


@pytest.mark.django_db
def test_the_roster_shows_active_players_only(client, public_club):
    make_player(public_club, "Anna")
    make_player(public_club, "Retired Roman", is_active=False)

    text = html(client.get("/c/open/"))

    roster = text[text.index('id="roster"') :]
    assert ">Anna</a></li>" in roster
    assert "Retired Roman" not in text


@pytest.mark.django_db
def test_secretaries_get_the_new_session_form_with_today_as_the_date(as_persona, club_a):
    text = html(as_persona("secretary").get("/c/sochi/"))

    assert 'id="evening-form"' in text
    assert 'hx-post="/c/sochi/evenings/new/"' in text
    assert f'type="date" name="date" value="{timezone.localdate():%Y-%m-%d}"' in text
    assert 'href="/c/sochi/settings/"' not in text
    assert 'href="/c/sochi/members/"' not in text


@pytest.mark.django_db
def test_players_get_no_session_form_nor_owner_links(as_persona, club_a):
    text = html(as_persona("player").get("/c/sochi/"))

    assert 'id="evening-form"' not in text
    assert 'href="/c/sochi/settings/"' not in text
    assert '<span class="badge">player</span>' in text


@pytest.mark.django_db
def test_owners_get_the_links_to_settings_and_members(as_persona, club_a):
    text = html(as_persona("owner").get("/c/sochi/"))

    assert 'href="/c/sochi/settings/"' in text
    assert 'href="/c/sochi/members/"' in text
    assert 'id="evening-form"' in text


@pytest.mark.django_db
def test_another_clubs_sessions_are_not_listed(client, public_club, club_b):
    make_evening(club_b, venue="Secret cellar")
    make_member(public_club, Role.PLAYER)

    assert "Secret cellar" not in html(client.get("/c/open/"))


@pytest.mark.django_db
def test_the_running_tables_poll_answers_204_while_nothing_changed(as_persona, club_a):
    pulka = make_pulka(make_evening(club_a))
    client = as_persona("player")
    page = client.get("/c/sochi/").content.decode()
    token = f"1-{pulka.version}"
    assert f'hx-get="/c/sochi/running/?v={token}" hx-trigger="every 5s"' in page

    unchanged = client.get(f"/c/sochi/running/?v={token}", headers=HTMX)
    record(pulka, SIX_BY_BORIS)
    changed = client.get(f"/c/sochi/running/?v={token}", headers=HTMX)

    assert unchanged.status_code == 204
    html = changed.content.decode()
    assert changed.status_code == 200
    assert '<section id="running-tables"' in html
    assert "<html" not in html
    assert f"?v=1-{pulka.version}" in html


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_cannot_poll_a_private_clubs_tables(as_persona, club_a, persona):
    make_pulka(make_evening(club_a), names=("Ira", "Oleh", "Taras"))

    response = as_persona(persona).get("/c/sochi/running/?v=0-0", headers=HTMX)

    assert_not_found(response, "Ira", "Oleh", "Taras")


@pytest.mark.django_db
def test_the_running_tables_url_without_htmx_leads_to_the_club(as_persona, club_a):
    response = as_persona("player").get("/c/sochi/running/")

    assert response.status_code == 302
    assert response["Location"] == "/c/sochi/"
