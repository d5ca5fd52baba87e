"""Bounded work: a finished table needs deals, a pulka holds MAX_DEALS, and lists of tables
read each sheet from the cache, with a query count that does not grow."""

import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from competition.league import selectors as leagues
from competition.models import League, RatingSnapshot
from scoring import engine, selectors, services
from scoring.models import MAX_DEALS, Pulka, PulkaResultCache, PulkaStatus
from tests.conftest import HTMX, make_club, make_evening, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db

RASPASY = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}


# A finished table needs deals


def test_a_pulka_without_deals_cannot_be_finished(pulka):
    with pytest.raises(services.ScoringError, match="no deal: there is nothing to settle"):
        services.pulka_finish(pulka=pulka, finished_by=None)

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.RUNNING
    assert not PulkaResultCache.objects.filter(pulka=pulka).exists()


def test_finishing_an_empty_pulka_on_the_page_offers_abandon(as_persona, pulka):
    response = as_persona("secretary").post(pulka.get_absolute_url() + "finish/", follow=True)

    html = response.content.decode()
    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.RUNNING
    assert "Abandon it instead" in html
    assert "End the pulka" not in html
    assert "/abandon/" in html


def test_the_finish_button_appears_with_the_first_deal(as_persona, pulka):
    client = as_persona("secretary")
    assert "End the pulka" not in client.get(pulka.get_absolute_url()).content.decode()

    record(pulka, SIX_BY_BORIS)

    html = client.get(pulka.get_absolute_url()).content.decode()
    assert "End the pulka" in html
    assert "Abandon" in html


def test_an_abandoned_pulka_counts_in_no_league_and_no_rating(club_a):
    day = datetime.date(2024, 3, 1)
    pulka = make_pulka(make_evening(club_a, date=day))
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)
    league = League.objects.create(
        club=club_a, name="Spring", start=day, end=day, rule="sum", min_pulkas=1
    )
    assert len(leagues.league_ranking(league).ranked) == 3
    assert RatingSnapshot.objects.filter(player__club=club_a).exists()

    services.pulka_abandon(pulka=pulka, abandoned_by=None)

    assert not PulkaResultCache.objects.filter(pulka=pulka).exists()
    assert leagues.league_ranking(league).ranked == ()
    assert not RatingSnapshot.objects.filter(player__club=club_a).exists()


# At most MAX_DEALS deals


def test_max_deals_is_500():
    assert MAX_DEALS == 500


def test_an_import_with_more_deals_than_a_pulka_holds_is_refused(evening_a):
    document = {
        "format": "pulka/1",
        "players": ["Anna", "Boris", "Vera"],
        "rules": {"pool_target": 10},
        "deals": [RASPASY] * (MAX_DEALS + 1),
    }

    with pytest.raises(services.ScoringError, match="holds 501 deals, and a pulka holds at most"):
        services.pulka_import(evening=evening_a, document=document, imported_by=None)
    assert not Pulka.objects.filter(evening=evening_a).exists()


def test_an_import_of_as_many_deals_as_a_pulka_holds_is_stored(evening_a):
    document = {
        "format": "pulka/1",
        "players": ["Anna", "Boris", "Vera"],
        "rules": {"pool_target": 10},
        "deals": [RASPASY] * MAX_DEALS,
    }

    pulka = services.pulka_import(evening=evening_a, document=document, imported_by=None)

    numbers = pulka.deals.order_by("number").values_list("number", flat=True)
    assert list(numbers) == list(range(1, MAX_DEALS + 1))


def test_the_import_page_says_the_file_is_too_long(as_persona, evening_a):
    document = {
        "format": "pulka/1",
        "players": ["Anna", "Boris", "Vera"],
        "rules": {"pool_target": 10},
        "deals": [RASPASY] * (MAX_DEALS + 1),
    }
    upload = {"file": _file(json.dumps(document).encode())}

    response = as_persona("secretary").post(
        evening_a.get_absolute_url() + "import/", upload, headers=HTMX
    )

    assert "a pulka holds at most 500" in response.content.decode()
    assert not Pulka.objects.filter(evening=evening_a).exists()


def _file(content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("pulka.json", content, content_type="application/json")


# Lists of tables read the sheets from the cache


def _tables_with_deals(club, tables: int, deals: int) -> list[Pulka]:
    evening = make_evening(club)
    pulkas = [make_pulka(evening) for _ in range(tables)]
    for pulka in pulkas:
        record(pulka, *[RASPASY] * deals)
    return pulkas


@pytest.mark.parametrize(("tables", "deals"), [(1, 1), (4, 12)])
def test_the_query_count_of_a_list_of_tables_does_not_grow(
    django_assert_num_queries, tables, deals
):
    club = make_club(is_public=True)
    _tables_with_deals(club, tables, deals)

    with django_assert_num_queries(3):  # tables, seats, then the deals of the missed sheets
        first = selectors.running_tables_for_club(club)
    with django_assert_num_queries(2):  # tables and seats: every sheet is cached
        again = selectors.running_tables_for_club(club)

    assert [t.rows for t in again] == [t.rows for t in first]
    assert [t.deals for t in again] == [deals] * tables


def test_a_cached_table_is_not_replayed_and_a_change_is_seen(monkeypatch):
    club = make_club(is_public=True)
    [pulka] = _tables_with_deals(club, 1, 2)
    selectors.running_tables_for_club(club)
    real = engine.compute_sheet
    replays = []
    monkeypatch.setattr(engine, "compute_sheet", lambda *a, **k: replays.append(1) or real(*a, **k))

    selectors.running_tables_for_club(club)
    assert replays == []

    record(pulka, SIX_BY_BORIS)
    replays.clear()  # the service's own replay
    [table] = selectors.running_tables_for_club(club)
    assert replays == [1]
    assert table.deals == 3
    assert {row["name"]: row["pool"] for row in table.rows}["Boris"] == 2


def test_the_club_and_evening_pages_serve_cached_sheets(client, public_club, monkeypatch):
    [pulka] = _tables_with_deals(public_club, 1, 2)
    client.get(public_club.get_absolute_url())  # fills the cache

    def refuse(*args, **kwargs):
        raise AssertionError("the sheet was replayed")

    monkeypatch.setattr(engine, "compute_sheet", refuse)
    club_page = client.get(public_club.get_absolute_url()).content.decode()
    evening_page = client.get(pulka.evening.get_absolute_url()).content.decode()

    for html in (club_page, evening_page):
        assert f'id="table-{pulka.pk}"' in html
        assert "2 deals" in html


def test_a_renamed_player_shows_on_the_next_read(club_a):
    [pulka] = _tables_with_deals(club_a, 1, 1)
    selectors.evening_tables(pulka.evening)
    anna = pulka.seats.get(position=0).player
    anna.name = "Anya"
    anna.save()

    [table] = selectors.evening_tables(pulka.evening)

    assert [row["name"] for row in table.rows] == ["Anya", "Boris", "Vera"]
