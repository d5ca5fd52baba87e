"""The rating list's pages (federation.rating_views): public reading, the officers' forms,
the filters, the exports, and a constant number of queries."""

from __future__ import annotations

import csv
import datetime
import io

import openpyxl
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Player
from competition.models import RefreshState
from federation import rating
from federation.models import FederationRefresh, Person, PersonLink, RatingList
from tests.club.factories import (
    assert_forbidden,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    assert_not_found,
    html,
)
from tests.conftest import HTMX, make_club, make_evening
from tests.federation.conftest import FEDERATION_PERSONAS
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db

URL = "/f/kpf/rating/"
RESTART = "/f/kpf/rating/restart/"
READERS = set(FEDERATION_PERSONAS)
OWNERS = {"fed_owner"}
OFFICERS = {"judge", "fed_owner"}


def day(n: int) -> datetime.date:
    return datetime.date(2026, 1, 1) + datetime.timedelta(days=n - 1)


@pytest.fixture
def built(federation, clubs):
    """Two pulkas in Kyiv, one in Lviv; Anna plays in both cities, Vera of Lviv is linked too;
    listed from one pulka on."""
    kyiv, _pechersk, lviv = clubs
    ended_early(make_evening(kyiv, date=day(3)))
    ended_early(make_evening(kyiv, date=day(5)), six("Vera", "Anna", "Boris"))
    ended_early(
        make_evening(lviv, date=day(4)),
        six("Anna", "=Zlata", "Boris"),
        names=("Anna", "Boris", "=Zlata"),
    )
    for name in ("Anna", "Boris", "Vera", "=Zlata"):
        person = Person.objects.create(federation=federation, name=name)
        for player in Player.objects.filter(club__in=clubs, name=name):
            if not (name == "Boris" and player.club == lviv):
                PersonLink.objects.create(federation=federation, person=person, player=player)
    federation.rating_min_pulkas = 1
    federation.save()
    rating.rebuild(federation)
    return federation


def shown(text: str) -> set[str]:
    """The persons' names the table shows."""
    return {name for name in ("Anna", "Boris", "Vera", "=Zlata") if f">{name}</a>" in text}


# --- reading: public ---------------------------------------------------------------------------


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_everyone_reads_the_list_full_and_as_the_table_fragment(built, persona, as_persona):
    client = as_persona(persona)

    page = assert_full_page(client.get(URL), "rating-table")
    fragment = assert_fragment(client.get(URL, headers=HTMX), "rating-list")

    for text in (page, fragment):
        assert shown(text) == {"Anna", "Boris", "Vera", "=Zlata"}
    assert "Calculated on Jan. 5, 2026" in page
    assert "at least 1 pulka to be listed" in page
    assert ('id="least-form"' in page) == (persona in OWNERS)
    assert 'id="rating-filters"' not in fragment


def test_the_rows_show_place_clubs_city_rating_and_link_the_persons_page(built, client):
    anna = RatingList.objects.get(person__name="Anna")

    text = html(client.get(URL))

    row = text[text.index(f'data-person="{anna.person_id}"') :].split("</tr>")[0]
    assert f'href="/f/kpf/persons/{anna.person_id}/"' in row
    assert "Kyiv Club, Lviv Club" in row
    assert "Kyiv, Lviv" in row
    assert f">{round(anna.rating)}<" in row
    assert f'<td class="num">{anna.pulkas}</td>' in row


def test_an_unknown_federation_is_a_404(built, client):
    assert_not_found(client.get("/f/nope/rating/"), "Anna")
    assert_not_found(client.get("/f/nope/rating/export.csv"), "Anna")


# --- the filters --------------------------------------------------------------------------------


def test_the_list_filters_by_club_and_by_city(built, clubs, client):
    kyiv, _, lviv = clubs

    by_lviv = assert_fragment(client.get(URL, {"club": lviv.pk}, headers=HTMX), "rating-list")
    by_kyiv_city = html(client.get(URL, {"city": "Kyiv"}))
    both = html(client.get(URL, {"city": "Lviv", "club": kyiv.pk}))

    assert shown(by_lviv) == {"Anna", "=Zlata"}
    assert "2 persons listed" in by_lviv
    assert shown(by_kyiv_city) == {"Anna", "Boris", "Vera"}
    assert shown(both) == {"Anna"}


def test_a_club_that_left_is_still_a_filter(built, clubs, client):
    built.member_clubs.filter(club=clubs[2]).update(state="left", left_on=day(30))

    text = html(client.get(URL))

    assert f'<option value="{clubs[2].pk}">Lviv Club</option>' in text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"club": "99999"}, "This club is not one of the federation&#x27;s"),
        ({"club": "٣"}, "This club is not one of the federation&#x27;s"),
        ({"club": "x" * 5000}, "This club is not one of the federation&#x27;s"),
        ({"city": "Atlantis"}, "No club of the federation is in this city"),
        ({"page": "-1", "per_page": "0"}, None),
        ({"page": "99999999999999999999", "per_page": "100000"}, None),
    ],
)
def test_a_bad_filter_says_so_and_shows_the_whole_list(built, client, query, message):
    text = assert_fragment(client.get(URL, query, headers=HTMX), "rating-list")

    assert shown(text) == {"Anna", "Boris", "Vera", "=Zlata"}
    if message:
        assert message in text
        assert 'id="filter-errors"' in text
    else:
        assert 'id="filter-errors"' not in text


def test_a_club_outside_the_federation_is_not_a_filter(built, client):
    elsewhere = make_club(slug="elsewhere-club")

    text = html(client.get(URL, {"club": elsewhere.pk}))

    assert "This club is not one of the federation&#x27;s" in text
    assert shown(text) == {"Anna", "Boris", "Vera", "=Zlata"}


def test_the_list_pages_with_a_bounded_page_size(built, client):
    first = html(client.get(URL, {"per_page": "2"}))
    second = html(client.get(URL, {"per_page": "2", "page": "2"}))

    assert len(shown(first)) == 2
    assert shown(first) | shown(second) == {"Anna", "Boris", "Vera", "=Zlata"}
    assert "page 1 of 2" in first
    assert "per_page=2&amp;page=2" in first


# --- the exports -------------------------------------------------------------------------------


def test_the_csv_has_the_filtered_list_with_safe_cells(built, clubs, client):
    response = client.get("/f/kpf/rating/export.csv", {"club": clubs[2].pk})

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "Kyiv Preferans Federation rating.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Player", "Clubs", "City", "Rating", "Pulkas", "Last played"]
    assert sorted(row[1] for row in rows[1:]) == ["'=Zlata", "Anna"]
    anna = next(row for row in rows if row[1] == "Anna")
    listed = RatingList.objects.get(person__name="Anna")
    assert anna[4] == str(round(listed.rating))
    assert anna[5] == "3"
    assert anna[6] == "2026-01-05"


def test_the_xlsx_has_every_row_as_numbers(built, client):
    response = client.get("/f/kpf/rating/export.xlsx")

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 1 + 4
    assert all(isinstance(row[0], int) and isinstance(row[4], int) for row in rows[1:])
    assert client.get("/f/kpf/rating/export.pdf").status_code == 404


# --- the owner's least pulkas -------------------------------------------------------------------


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_the_owner_sets_the_least_pulkas(built, persona, as_persona):
    client = as_persona(persona)

    posted = client.post(URL, {"rating_min_pulkas": "3"})
    by_htmx = client.post(URL, {"rating_min_pulkas": "3"}, headers=HTMX)

    built.refresh_from_db()
    if persona == "anonymous":
        assert_login_redirect(posted, URL)
        assert_htmx_login_redirect(by_htmx)
    elif persona not in OWNERS:
        assert_forbidden(posted)
        assert_forbidden(by_htmx)
    if persona in OWNERS:
        assert posted.status_code == 302
        text = assert_fragment(by_htmx, "rating")
        assert "Persons with at least 3 rated pulkas are listed." in text
        assert shown(text) == {"Anna"}
        assert built.rating_min_pulkas == 3
        assert RatingList.objects.filter(federation=built).count() == 1
    else:
        assert built.rating_min_pulkas == 1
        assert RatingList.objects.filter(federation=built).count() == 4


@pytest.mark.parametrize("value", ["10001", "-1", "", "٣", "1.5", "9" * 30])
def test_a_bad_least_pulkas_is_refused_and_changes_nothing(built, fed_owner, client, value):
    client.force_login(fed_owner)

    text = assert_fragment(client.post(URL, {"rating_min_pulkas": value}, headers=HTMX), "rating")

    assert 'class="errorlist' in text
    built.refresh_from_db()
    assert built.rating_min_pulkas == 1
    assert RatingList.objects.filter(federation=built).count() == 4


# --- a failed rebuild -----------------------------------------------------------------------


def failed(federation) -> None:
    FederationRefresh.objects.filter(federation=federation).update(
        state=RefreshState.FAILED, attempts=3, last_error="Boom", generation=5
    )


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_a_failed_rebuild_shows_and_officers_restart_it(built, persona, as_persona):
    failed(built)
    client = as_persona(persona)

    page = html(client.get(URL))
    posted = client.post(RESTART)

    assert "The update of the rating list failed 3 times" in page
    assert ('id="rebuild-restart"' in page) == (persona in OFFICERS)
    assert ("Boom" in page) == (persona in OFFICERS)
    row = FederationRefresh.objects.get(federation=built)
    if persona == "anonymous":
        assert_login_redirect(posted, RESTART)
    elif persona not in OFFICERS:
        assert_forbidden(posted)
    if persona in OFFICERS:
        assert posted.status_code == 302
        assert (row.state, row.built_generation) == (RefreshState.PENDING, 6)
    else:
        assert (row.state, row.generation) == (RefreshState.FAILED, 5)
        assert row.built_generation < row.generation


def test_restarting_by_htmx_answers_with_the_list_and_nothing_failed_says_so(built, judge, client):
    client.force_login(judge)
    failed(built)

    text = assert_fragment(client.post(RESTART, headers=HTMX), "rating")
    again = assert_fragment(client.post(RESTART, headers=HTMX), "rating")

    assert "The rating list is being updated again." in text
    assert "rebuild-failed" not in text
    assert "There is no failed or stuck update of the rating list to start again." in again
    assert client.get(RESTART).status_code == 405


def test_a_pending_rebuild_says_the_list_is_being_updated(built, client):
    FederationRefresh.objects.filter(federation=built).update(generation=9)

    text = html(client.get(URL))

    assert 'id="rebuild-pending"' in text


# --- queries ---------------------------------------------------------------------------------


def make_list(federation, size: int) -> None:
    club = federation.member_clubs.first().club
    persons = Person.objects.bulk_create(
        Person(federation=federation, name=f"P{n:03d}", name_key=f"p{n:03d}", sort_key=f"p{n:03d}")
        for n in range(size)
    )
    RatingList.objects.bulk_create(
        RatingList(
            federation=federation,
            person=person,
            place=n + 1,
            rating=2000 - n,
            mu=25,
            sigma=2,
            pulkas=10,
            last_date=day(3),
            clubs=[club.pk],
            cities=[club.city],
        )
        for n, person in enumerate(persons)
    )


@pytest.mark.parametrize("query", [{}, {"city": "Kyiv"}])
def test_the_page_costs_the_same_queries_for_3_and_30_persons(
    federation, clubs, fed_owner, client, query
):
    client.force_login(fed_owner)
    counts = []
    for size in (3, 30):
        RatingList.objects.all().delete()
        make_list(federation, size)
        cache.clear()  # rows written directly: no rebuild moved the page's cached HTML on
        with CaptureQueriesContext(connection) as captured:
            text = html(client.get(URL, query))
        assert text.count("data-person=") == size
        counts.append(len(captured))

    assert counts[0] == counts[1]


def test_the_pages_html_is_kept_until_the_list_is_rebuilt(built, client):
    """The table's HTML is cached (rating_views.ListPage): a name changed without a rebuild
    still shows the old one; a rebuild shows the new one at once."""
    assert ">Anna</a>" in html(client.get(URL))
    Person.objects.filter(federation=built, name="Anna").update(name="Anna Maria")

    assert ">Anna</a>" in html(client.get(URL))
    rating.rebuild(built)
    page = html(client.get(URL))
    assert ">Anna Maria</a>" in page
    assert ">Anna</a>" not in page


# --- the person's page ---------------------------------------------------------------------------


def test_the_persons_page_shows_his_federation_rating_after_each_pulka(built, client):
    anna = Person.objects.get(federation=built, name="Anna")
    history = rating.person_history(anna)

    page = assert_full_page(client.get(anna.get_absolute_url()), "person-rating-table")

    assert len(history) == 3  # two pulkas in Kyiv, one in Lviv
    table = page.split('id="person-rating-table"', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr") == 1 + 3
    assert "Lviv Club" in table
    assert "Kyiv Club" in table
    assert str(round(history[-1][1])) in table.replace("\u202f", "").replace("\xa0", "")


def test_a_person_never_rated_is_told_so_on_his_page(federation, clubs, client):
    nobody = Person.objects.create(federation=federation, name="Nobody")

    page = assert_full_page(client.get(nobody.get_absolute_url()), "person-rating")

    assert "No federation rating yet" in page
    assert 'id="person-rating-table"' not in page
