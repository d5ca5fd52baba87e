"""League pages: who reads and writes them, fragments, sorting and pages, exports, the form's
messages, crafted URLs, and queries that do not grow with the players."""

from __future__ import annotations

import csv
import datetime
import io
from html.parser import HTMLParser
from urllib.parse import unquote

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.formats import date_format
from django.utils.timezone import localtime

from club.models import Club, Role
from competition.league.services import LeagueError, league_create
from competition.league.tables import StandingTable
from competition.models import League
from competition.rating import ratings
from scoring import services
from scoring.models import PulkaResultCache
from tests.club.factories import (
    READ,
    RECORD,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    assert_not_found,
    html,
)
from tests.competition.factories import finished, make_league
from tests.conftest import (
    HTMX,
    PERSONAS,
    make_club,
    make_evening,
    make_member,
    make_pulka,
    record,
)
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "Spring 2024",
    "start": "2024-03-01",
    "end": "2024-05-31",
    "rule": "average",
    "best_count": "",
    "cap": "200",
    "min_pulkas": "3",
}


@pytest.fixture
def league(club_a) -> League:
    """Club A's league: Anna, Boris and Vera ranked; Gleb below the minimum of 2 pulkas."""
    finished(club_a, {"Anna": 50, "Boris": 20, "Vera": -30, "Gleb": -40})
    finished(club_a, {"Anna": 10, "Boris": -15, "Vera": 5})
    return make_league(club_a, name="Осінь 2024", min_pulkas=2)


@pytest.fixture
def public_league(public_club) -> League:
    finished(public_club, {"Anna": 10, "Boris": 0, "Vera": -10})
    return make_league(public_club, name="Open season")


def urls(league: League) -> dict[str, str]:
    base = f"/c/{league.club.slug}/leagues/"
    return {
        "list": base,
        "detail": f"{base}{league.pk}/",
        "csv": f"{base}{league.pk}/export.csv",
        "xlsx": f"{base}{league.pk}/export.xlsx",
        "create": f"{base}new/",
        "edit": f"{base}{league.pk}/edit/",
    }


class _Tables(HTMLParser):
    """The text of the header and of each row of the ranking tables (#ranked, #unranked)."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: dict[str, list[str]] = {}
        self.rows: dict[str, list[list[str]]] = {}
        self._table: str | None = None
        self._part: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "div" and dict(attrs).get("id") in {"ranked", "unranked"}:
            self._table = dict(attrs)["id"]
        elif self._table and tag in {"thead", "tbody"}:
            self._part = tag
        elif self._part and tag == "tr":
            self._row = []
        elif self._row is not None and tag in {"td", "th"}:
            self._cell = []

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in {"td", "th"} and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._part == "thead":
                self.headers[self._table] = self._row
            else:
                self.rows.setdefault(self._table, []).append(self._row)
            self._row = None
        elif tag == "table":
            self._table = self._part = None


def page_rows(text: str) -> tuple[list[str], list[list[str]]]:
    """The ranking's header and its rows as shown: ranked, then unranked (place left empty)."""
    parser = _Tables()
    parser.feed(text)
    header = parser.headers["ranked"]
    rows = list(parser.rows.get("ranked", []))
    rows += [["", *row] for row in parser.rows.get("unranked", [])]
    return header, rows


HEADER = [
    "Place",
    "Player",
    "Pulkas",
    "Total",
    "Average",
    "Best result",
    "1st",
    "2nd",
    "3rd",
    "4th",
    "Rating",
]


def as_text(value, column: str) -> str:
    """A value of an export as the page shows it (in English)."""
    if value is None or value == "":
        return "—" if column == "Rating" else ""
    if column == "Rating":
        return f"{float(value):.1f}"
    if isinstance(value, str) and value.lstrip("-").replace(".", "", 1).isdigit():
        value = float(value)  # a CSV's number
    if isinstance(value, int | float):  # every figure: whole, or two decimals; a real minus
        text = str(int(abs(value))) if value == int(value) else f"{abs(value):.2f}"
        return f"−{text}" if value < 0 else text
    return str(value)


def as_shown(header: list[str], rows: list[list]) -> list[list[str]]:
    return [[as_text(cell, name) for name, cell in zip(header, row, strict=True)] for row in rows]


# Who reads, who writes


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("page", ["list", "detail"])
def test_a_private_clubs_leagues_are_read_by_its_members_only(as_persona, league, persona, page):
    response = as_persona(persona).get(urls(league)[page])

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(response, "leagues" if page == "list" else "ranking")
        assert "Осінь 2024" in text


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_private_clubs_exports_need_membership(as_persona, league, persona, fmt):
    response = as_persona(persona).get(urls(league)[fmt])

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        assert "attachment" in response["Content-Disposition"]


@pytest.mark.parametrize("page", ["list", "detail", "csv", "xlsx"])
def test_a_public_clubs_leagues_are_read_by_anyone(client, public_league, page):
    response = client.get(urls(public_league)[page])

    assert response.status_code == 200
    if page in {"list", "detail"}:
        assert "Open season" in html(response)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_open_a_league(as_persona, club_a, persona):
    client = as_persona(persona)

    page = client.get("/c/sochi/leagues/new/")
    response = client.post("/c/sochi/leagues/new/", GOOD)

    assert page.status_code == RECORD[persona]
    created = League.objects.filter(club=club_a, name="Spring 2024").first()
    if RECORD[persona] == 200:
        assert_full_page(page, "league-form")
        assert response.status_code == 302
        assert response["Location"] == f"/c/sochi/leagues/{created.pk}/"
        assert (created.rule, created.cap, created.min_pulkas) == ("average", 200, 3)
        assert created.start == datetime.date(2024, 3, 1)
    else:
        assert response.status_code == RECORD[persona]
        assert created is None


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_edit_a_league(as_persona, league, persona):
    client = as_persona(persona)

    page = client.get(urls(league)["edit"])
    response = client.post(urls(league)["edit"], {**GOOD, "name": "Renamed"})

    assert page.status_code == RECORD[persona]
    league.refresh_from_db()
    if RECORD[persona] == 200:
        assert 'value="Осінь 2024"' in assert_full_page(page, "league-form")
        assert response["Location"] == urls(league)["detail"]
        assert (league.name, league.rule, league.min_pulkas) == ("Renamed", "average", 3)
    else:
        assert response.status_code == RECORD[persona]
        assert league.name == "Осінь 2024"


@pytest.mark.parametrize("page", ["create", "edit"])
def test_anonymous_on_a_public_club_is_sent_to_log_in_to_write(client, public_league, page):
    url = urls(public_league)[page]

    assert_login_redirect(client.get(url), url)
    assert_login_redirect(client.post(url, GOOD), url)
    assert_htmx_login_redirect(client.post(url, GOOD, headers=HTMX))
    assert League.objects.filter(club=public_league.club).count() == 1


def test_a_player_of_a_public_club_may_not_write_there_either(client, public_club):
    client.force_login(make_member(public_club, Role.PLAYER).user)

    assert client.get("/c/open/leagues/new/").status_code == 403
    assert client.post("/c/open/leagues/new/", GOOD).status_code == 403
    assert not League.objects.filter(club=public_club).exists()


# Fragments


@pytest.mark.parametrize(
    ("page", "element"),
    [
        ("list", "leagues"),
        ("detail", "ranking"),
        ("create", "league-form"),
        ("edit", "league-form"),
    ],
)
def test_htmx_gets_the_fragment_alone(as_persona, league, page, element):
    text = assert_fragment(as_persona("secretary").get(urls(league)[page], headers=HTMX), element)

    if page == "detail":
        assert 'id="ranked"' in text
        assert "league-rule" not in text  # the heading stays outside the fragment


def test_an_htmx_save_sends_the_browser_to_the_league(as_persona, club_a):
    response = as_persona("secretary").post("/c/sochi/leagues/new/", GOOD, headers=HTMX)

    created = League.objects.get(club=club_a)
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/c/sochi/leagues/{created.pk}/"


# The page


def test_the_page_states_its_rule_and_when_it_was_calculated(as_persona, club_a):
    finished(club_a, {"Anna": 10, "Boris": 0, "Vera": -10})
    league = make_league(club_a, rule="average", min_pulkas=3, cap=200)

    text = html(as_persona("player").get(urls(league)["detail"]))

    assert (
        "Ranked by the average per pulka, over at least 3 pulkas; whists beyond 200 in one "
        "pulka count at half." in text
    )
    computed_at = PulkaResultCache.objects.get(player__name="Anna").computed_at
    assert f"Calculated on {date_format(localtime(computed_at), 'DATETIME_FORMAT')}" in text


def test_an_empty_league_says_so(as_persona, club_a):
    league = make_league(club_a)

    text = html(as_persona("player").get(urls(league)["detail"]))

    assert "No pulka has finished within these dates yet." in text
    assert "Nobody yet." in text


def test_the_ranking_links_each_player_to_his_profile_and_lists_the_unranked_apart(
    as_persona, league
):
    text = html(as_persona("player").get(urls(league)["detail"]))
    header, rows = page_rows(text)

    assert header == HEADER
    assert rows == [
        ["1", "Anna", "2", "60", "30", "50", "2", "0", "0", "0", "—"],
        ["2", "Boris", "2", "5", "2.50", "20", "0", "1", "1", "0", "—"],
        ["3", "Vera", "2", "−25", "−12.50", "5", "0", "1", "1", "0", "—"],
        ["", "Gleb", "1", "−40", "−40", "−40", "0", "0", "0", "1", "—"],
    ]
    anna = league.club.players.get(name="Anna")
    assert f'<a href="/c/sochi/players/{anna.pk}/">Anna</a>' in text
    assert "Not ranked yet" in text
    assert "Below the minimum of 2 pulkas." in text


def test_the_best_rule_shows_what_counts_and_the_ratings_show_once_rated(as_persona, league):
    league.rule, league.best_count = "best", 1
    league.save()
    ratings.ratings_update(club=league.club)
    latest = ratings.current_ratings(league.club)

    header, rows = page_rows(html(as_persona("player").get(urls(league)["detail"])))

    assert header[5] == "Best 1 pulka"
    assert [row[1] for row in rows] == ["Anna", "Boris", "Vera", "Gleb"]  # 50, 20, 5
    anna = league.club.players.get(name="Anna")
    assert rows[0][-1] == f"{latest[anna.pk].rating:.1f}"


def totals(response) -> dict[str, str]:
    return {row[1]: row[3] for row in page_rows(html(response))[1]}


def test_the_page_follows_a_corrected_pulka_at_once(as_persona, club_a):
    pulka = make_pulka(make_evening(club_a, date=datetime.date(2024, 3, 1)))
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)
    league = make_league(club_a)
    client = as_persona("player")
    before = totals(client.get(urls(league)["detail"]))

    services.deal_update(
        pulka=pulka,
        number=1,
        data={**SIX_BY_BORIS, "tricks": {"Boris": 7, "Vera": 2, "Anna": 1}},
        expected_version=1,
        changed_by=None,
    )

    after = totals(client.get(urls(league)["detail"]))
    assert int(after["Boris"]) > int(before["Boris"])
    assert after["Boris"] == str(pulka.result_cache.get(player__name="Boris").result_rounded)


@pytest.mark.parametrize(
    ("value", "shown", "exported"),
    [
        (2.956, "2.96", 2.96),
        (-2.956, "−2.96", -2.96),
        (860.164, "860.16", 860.16),
        (8 / 3, "2.67", 2.67),
        (30.0, "30", 30),
    ],
)
def test_averages_read_as_every_figure_and_export_as_shown(league, value, shown, exported):
    table = StandingTable((), league=league, names={})

    assert table.render_average(value) == shown
    assert table.value_average(value) == exported


@pytest.mark.parametrize(("value", "shown"), [(2.96, "3.0"), (860.16, "860.2")])
def test_ratings_are_rounded_like_the_exports_not_cut(league, value, shown):
    table = StandingTable((), league=league, names={})

    assert table.render_rating(value) == shown
    assert str(table.value_rating(value)) == shown


def _names(text: str) -> list[str]:
    return [row[1] for row in page_rows(text)[1]]


def test_a_header_sorts_the_ranking_and_is_a_link_htmx_follows_in_place(as_persona, league):
    client = as_persona("player")
    text = html(client.get(urls(league)["detail"]))

    # The section swaps itself and pushes the URL; each link has an href and an hx-get.
    assert 'id="ranking" class="card" hx-target="this" hx-swap="outerHTML" hx-push-url="true"' in (
        text
    )
    assert '<a href="?sort=-average" hx-get="?sort=-average" data-sort="average">' in text
    fragment = assert_fragment(
        client.get(urls(league)["detail"] + "?sort=-best", headers=HTMX), "ranking"
    )
    assert _names(fragment)[:3] == ["Anna", "Boris", "Vera"]  # best results 50, 20, 5
    worst_first = html(client.get(urls(league)["detail"] + "?sort=best"))
    assert _names(worst_first)[:3] == ["Vera", "Boris", "Anna"]
    assert 'aria-sort="ascending"' in worst_first
    by_name = html(client.get(urls(league)["detail"] + "?sort=-name"))
    assert _names(by_name)[:3] == ["Vera", "Boris", "Anna"]


def test_the_ranking_is_paginated_and_the_pages_are_links_htmx_follows(as_persona, club_a):
    for n in range(9):  # 36 players, no two with the same total
        finished(
            club_a,
            {f"P{n}a": 100 + n, f"P{n}b": 50 + n, f"P{n}c": -50 + n, f"P{n}d": -100 - 3 * n},
        )
    league = make_league(club_a)
    client = as_persona("player")

    first = html(client.get(urls(league)["detail"]))
    second = assert_fragment(
        client.get(urls(league)["detail"] + "?page=2", headers=HTMX), "ranking"
    )

    assert len(page_rows(first)[1]) == 25
    assert '<a href="?page=2" hx-get="?page=2" rel="next">' in first
    assert "page 1 of 2" in first
    assert [row[0] for row in page_rows(second)[1]][:1] == ["26"]
    assert len(page_rows(second)[1]) == 11
    # A new order starts again at the first page.
    assert 'href="?sort=-average"' in second


def test_each_table_sorts_on_its_own(as_persona, league):
    finished(league.club, {"Dana": 30, "Oleh": 0, "Ivan": -30})  # one pulka each: unranked
    client = as_persona("player")

    text = html(client.get(urls(league)["detail"] + "?u-sort=-total"))

    rows = page_rows(text)[1]
    assert [row[1] for row in rows if row[0]] == ["Anna", "Boris", "Vera"]
    assert [row[1] for row in rows if not row[0]] == ["Dana", "Oleh", "Ivan", "Gleb"]
    assert '<a href="?u-sort=total" hx-get="?u-sort=total" data-sort="total">' in text


# Exports


def _csv_rows(response) -> tuple[list[str], list[list[str]]]:
    text = response.content.decode("utf-8-sig")
    header, *rows = list(csv.reader(io.StringIO(text)))
    return header, rows


def _xlsx_rows(response) -> tuple[list[str], list[list]]:
    book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
    header, *rows = list(book.active.iter_rows(values_only=True))
    return list(header), [list(row) for row in rows]


@pytest.mark.parametrize("sort", ["", "?sort=-average", "?sort=name&u-sort=-total"])
def test_the_csv_has_the_rows_of_the_page_ranked_then_unranked(as_persona, league, sort):
    client = as_persona("player")
    page_header, shown = page_rows(html(client.get(urls(league)["detail"] + sort)))

    response = client.get(urls(league)["csv"] + sort)

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    header, rows = _csv_rows(response)
    assert header == page_header
    assert as_shown(header, rows) == shown


def test_the_xlsx_has_the_rows_of_the_page_with_numbers_as_numbers(as_persona, league):
    client = as_persona("player")
    page_header, shown = page_rows(html(client.get(urls(league)["detail"])))

    header, rows = _xlsx_rows(client.get(urls(league)["xlsx"]))

    assert header == page_header
    assert rows[0][:5] == [1, "Anna", 2, 60, 30]
    assert as_shown(header, rows) == shown


def test_the_export_is_named_after_the_league(as_persona, league):
    response = as_persona("player").get(urls(league)["xlsx"])

    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment; filename")
    assert unquote(disposition.split("''", 1)[1]) == "Осінь 2024.xlsx"
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")


def test_an_unknown_export_format_is_not_found(as_persona, league):
    response = as_persona("player").get(urls(league)["detail"] + "export.pdf")

    assert_not_found(response, league.name)
    assert not response.has_header("Content-Disposition")


# Bad input: a clear message, and nothing saved


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"end": "2024-02-01"}, "end", "The last evening cannot be before the first."),
        ({"cap": "0"}, "cap", "The cap is a whole number of whists, 1 or more"),
        ({"cap": "-5"}, "cap", "The cap is a whole number of whists, 1 or more"),
        ({"cap": "1.5"}, "cap", "The cap is a whole number of whists, 1 or more"),
        ({"cap": "lots"}, "cap", "The cap is a whole number of whists, 1 or more"),
        ({"rule": "best", "best_count": ""}, "best_count", "Say how many of each player"),
        ({"rule": "best", "best_count": "0"}, "best_count", "Say how many of each player"),
        ({"min_pulkas": "0"}, "min_pulkas", "The pulkas needed to be ranked is a whole number"),
        ({"cap": "99999999999"}, "cap", "Ensure this value is less than or equal to"),
        ({"min_pulkas": "40000"}, "min_pulkas", "Ensure this value is less than or equal to"),
        ({"name": ""}, "name", "This field is required."),
        ({"start": "soon"}, "start", "Enter a valid date."),
    ],
)
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_bad_league_gets_a_clear_message_and_is_not_saved(
    as_persona, club_a, change, field, message, headers
):
    response = as_persona("secretary").post(
        "/c/sochi/leagues/new/", {**GOOD, **change}, headers=headers
    )

    assert response.status_code == 200
    text = html(response)
    assert message in text
    assert "violated" not in text  # the database's constraints are not the message
    assert 'id="league-form"' in text
    assert f'name="{field}"' in text
    assert not League.objects.exists()


def test_a_bad_edit_changes_nothing(as_persona, league):
    response = as_persona("secretary").post(
        urls(league)["edit"], {**GOOD, "name": "Renamed", "end": "2024-01-01"}
    )

    assert "The last evening cannot be before the first." in html(response)
    assert 'value="Renamed"' in html(response)  # what was typed stays
    league.refresh_from_db()
    assert league.name == "Осінь 2024"
    assert "<h1>Edit the league</h1>" in html(response)


def test_best_count_is_kept_only_for_the_best_rule(as_persona, club_a):
    as_persona("secretary").post(
        "/c/sochi/leagues/new/", {**GOOD, "rule": "sum", "best_count": "5"}
    )

    assert League.objects.get(club=club_a).best_count is None


def test_the_services_refuse_what_the_form_refuses(club_a):
    with pytest.raises(LeagueError, match="cannot be before the first"):
        league_create(
            club=club_a,
            name="Bad",
            start=datetime.date(2024, 5, 1),
            end=datetime.date(2024, 4, 1),
            rule="sum",
            best_count=None,
            cap=None,
            min_pulkas=1,
        )
    assert not League.objects.exists()


# Crafted URLs


@pytest.mark.parametrize("page", ["detail", "csv", "xlsx", "edit"])
def test_another_clubs_league_is_not_found_through_this_club(as_persona, club_a, club_b, page):
    theirs = make_league(club_b, name="Theirs")
    url = urls(theirs)[page].replace("/c/other/", "/c/sochi/")

    response = as_persona("owner").get(url)
    posted = as_persona("owner").post(urls(theirs)["edit"].replace("/c/other/", "/c/sochi/"), GOOD)

    assert response.status_code == 404
    assert posted.status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "Theirs"


def test_a_league_that_does_not_exist_is_not_found(as_persona, club_a):
    make_league(club_a, name="Spring")

    assert_not_found(as_persona("player").get("/c/sochi/leagues/999999/"), "Spring")


def test_a_player_of_another_club_never_appears_in_the_ranking(as_persona, league, club_b):
    finished(club_b, {"Oleh": 900, "Ivan": 0, "Dana": -900})

    text = html(as_persona("player").get(urls(league)["detail"]))
    exported = html(as_persona("player").get(urls(league)["csv"]))

    for name in ("Oleh", "Ivan", "Dana"):
        assert name not in text
        assert name not in exported


# Queries


def _club_of(players: int) -> Club:
    club = make_club(is_public=True)
    for n in range(players // 4):
        finished(club, {f"A{n}": 10 + n, f"B{n}": 5, f"C{n}": -5, f"D{n}": -10 - n})
    return club


def test_the_number_of_queries_is_the_same_for_10_and_100_players(client):
    small, large = _club_of(12), _club_of(100)
    small_league, large_league = make_league(small, min_pulkas=1), make_league(large, min_pulkas=1)

    counts = {}
    for label, league in (("small", small_league), ("large", large_league)):
        for attempt in ("first", "again", "sorted", "export"):
            url = urls(league)["csv" if attempt == "export" else "detail"]
            if attempt == "sorted":
                url += "?sort=-average&page=2"
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url)
            assert response.status_code == 200
            counts[label, attempt] = len(captured)

    assert [counts["small", a] for a in ("first", "again", "sorted", "export")] == [
        counts["large", a] for a in ("first", "again", "sorted", "export")
    ]
    assert counts["small", "first"] == counts["small", "again"] + 1  # the aggregation, once
    assert len(page_rows(html(client.get(urls(large_league)["detail"])))[1]) == 25
