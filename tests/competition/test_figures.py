"""One figure everywhere: a tournament played at tables of 3 (every table settles in thirds)
reads the same rounded figure on every page, on the projector, in the PDF and on the sheet,
in the reader's locale (a decimal comma in Ukrainian, a real minus), and shows "/3" nowhere a
person reads (the exact value stays on hover, in a title, and in the JSON exports); the
spreadsheets carry the same two decimals, as numbers."""

from __future__ import annotations

import csv
import html as html_lib
import io
import re
from fractions import Fraction

import openpyxl
import pypdf
import pytest
from django.urls import reverse
from django.utils import translation

from club.models import Player
from competition.models import Round, Scoring, Tournament
from competition.tournament import printouts, selectors
from scoring import engine
from scoring.formatting import export_value, figure, score, signed, signed_figure
from tests.club.factories import html
from tests.competition.factories import make_league, make_tournament, play_round

pytestmark = pytest.mark.django_db

SIX = ["Анна", "Борис", "Віра", "Гліб", "Дмитро", "Євген"]  # two tables of 3 a round
UK = {"HTTP_ACCEPT_LANGUAGE": "uk"}
A_THIRD = re.compile(r"\d+/3\b")


def thirds_cup(club) -> Tournament:
    """Six players over two rounds at tables of 3, plain whists: the totals are in thirds."""
    tournament = make_tournament(
        club,
        SIX,
        name="Кубок третин",
        scoring=Scoring.WHISTS,
        round_count=2,
        deal_cap=6,
        rules=engine.rules_to_dict(engine.preset_rules("sochi", pool_target=10)),
        seed=20261202,
    )
    for _ in range(2):
        play_round(tournament, deals=6, seed="thirds")
    return Tournament.objects.select_related("club").get(pk=tournament.pk)


def read_text(page: str) -> str:
    """What a person reads on a page: its text, without tags, attributes (titles, links) or
    scripts."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", page))


def pdf_text(content: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


@pytest.fixture
def cup(club_a) -> Tournament:
    return thirds_cup(club_a)


def test_a_thirds_tournament_reads_one_rounded_figure_everywhere(as_persona, cup):
    client = as_persona("player")
    standings = selectors.standings(cup)
    names = selectors.names(cup)
    line = next(
        line
        for line in standings.lines
        if line.score.denominator == 3 and line.rounds[1].whists.denominator == 3
    )
    player = Player.objects.get(pk=line.player)
    first = Round.objects.get(tournament=cup, number=1)
    whists = line.rounds[1].whists
    table = next(
        t for t in selectors.round_tables(first) if t.pulka.seats.filter(player=player).exists()
    )
    args = [cup.club.slug, cup.pk]
    league = make_league(cup.club, start=first.evening.date, end=first.evening.date)
    pages = {
        "standings": reverse("competition:tournament-standings", args=args),
        "home": reverse("competition:tournament-detail", args=args),
        "projector": reverse("competition:tournament-screen", args=args),
        "round": reverse("competition:round-detail", args=[*args, 1]),
        "profile": reverse("competition:player-detail", args=[cup.club.slug, player.pk]),
        "league": reverse("competition:league-detail", args=[cup.club.slug, league.pk]),
        "sheet": reverse("scoring:pulka-detail", args=[cup.club.slug, table.pulka.pk]),
    }
    with translation.override("uk"):
        total, round_one = figure(line.score), signed_figure(whists)
        read = {name: html(client.get(address, **UK)) for name, address in pages.items()}
        read["pdf"] = pdf_text(printouts.standings_pdf(cup))
    assert "," in total  # the Ukrainian decimal comma
    assert total != score(line.score)

    for name, page in read.items():
        text = read_text(page) if name != "pdf" else page
        assert not A_THIRD.search(text), (name, A_THIRD.findall(text)[:5])
    for name in ("standings", "home", "projector", "profile", "pdf"):
        assert total in read_text(read[name]), name
    for name in ("round", "sheet", "profile"):
        assert round_one in read_text(read[name]), name
    # The exact values are there, on hover.
    assert f'title="{score(line.score)}">{total}<' in read["standings"]
    assert f'title="{signed(whists)}">{round_one}<' in read["sheet"]
    # The sheet's settlement line says what it shows (whists, rounded), not "exact".
    assert "У вістах:" in read_text(read["sheet"])
    assert "Точно:" not in read_text(read["sheet"])  # what it said, over a rounded figure
    assert names[line.player] in read_text(read["standings"])


def test_the_spreadsheets_carry_the_figure_to_two_decimals_as_numbers(as_persona, cup):
    client = as_persona("player")
    line = next(line for line in selectors.standings(cup).lines if line.score.denominator == 3)
    name = selectors.names(cup)[line.player]
    export = "competition:tournament-standings-export"

    csv_response = client.get(reverse(export, args=[cup.club.slug, cup.pk, "csv"]))
    xlsx_response = client.get(reverse(export, args=[cup.club.slug, cup.pk, "xlsx"]))

    rows = list(csv.reader(io.StringIO(csv_response.content.decode().lstrip("\ufeff"))))
    header = rows[0]
    (row,) = [row for row in rows[1:] if row[1] == name]
    expected = round(float(line.score), 2)
    assert row[header.index("Total")] == str(expected)
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx_response.content)).active
    (cells,) = [r for r in sheet.iter_rows(values_only=True) if r[1] == name]
    assert cells[header.index("Total")] == expected
    assert isinstance(cells[header.index("Total")], float)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(317, 3), 105.67),
        (Fraction(-64, 3), -21.33),
        (Fraction(1, 8), 0.13),
        (Fraction(-1, 8), -0.13),
        (Fraction(12), 12),
        (7, 7),
        ("Анна", "Анна"),
        (None, None),
    ],
)
def test_an_export_value_is_the_figure_as_a_number(value, shown):
    assert export_value(value) == shown
    assert type(export_value(value)) is type(shown)


@pytest.mark.parametrize(
    ("value", "english", "ukrainian"),
    [
        (Fraction(317, 3), "105.67", "105,67"),
        (Fraction(-64, 3), "−21.33", "−21,33"),
        (Fraction(260, 3), "86.67", "86,67"),
        (Fraction(-5), "−5", "−5"),
        (Fraction(-1, 1000), "0.00", "0,00"),
    ],
)
def test_a_figure_reads_in_the_readers_locale_with_a_real_minus(value, english, ukrainian):
    with translation.override("en"):
        assert figure(value) == english
    with translation.override("uk"):
        assert figure(value) == ukrainian
