"""Printouts that fit whatever the names: every word of the standings, the team standings, the
seating and the protocols lies on the page, and on the seating's cards and the protocols'
tables within its own box, read back from the PDFs' word boxes (pdfplumber).

The names are the worst a roster takes: 55 characters with spaces, 60 without one, a letter
under 20 combining accents; the teams' names are 50 characters; the tournament has teams, a
lot, the four tie-breaks, a penalty and 9 rounds (or 2: long names alone turn the page).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pdfplumber
import pytest

from club.models import Player
from competition.models import PenaltyUnit, Tournament
from competition.tournament import printouts, selectors, services
from scoring.engine import preset_rules, rules_to_dict
from tests.competition.factories import make_tournament, play_round

LONG = "Олександра-Вікторія Костянтинівна Новаковська-Шевченків"  # 55, with spaces
UNBROKEN = ("Максиміліанович" * 5)[:60]
ACCENTS = "А" + "\u0301" * 20 + "нна Коваль"
TEAM = "Київський клуб любителів преферансу «Сочі» номер 1"  # 50
OTHER_TEAM = "Одеська команда гравців у преферанс «Море» номер 2"  # 50
NAMES = [LONG, UNBROKEN, ACCENTS, "Борис", "Віра", "Гліб", "Дана", "Єгор"]
TIE_BREAKS = ["adjusted_whists", "table_wins", "best_round", "opponents_total"]

# A box a word may touch by rounding (points).
EDGE = 0.5


def test_the_worst_names_are_what_the_roster_takes():
    assert (len(LONG), len(UNBROKEN), len(TEAM), len(OTHER_TEAM)) == (55, 60, 50, 50)
    assert " " not in UNBROKEN


def cup_of_long_names(rounds: int) -> Tournament:
    tournament = make_tournament(
        None,
        (),
        name="Кубок довгих імен і довгих назв команд",
        rules=rules_to_dict(preset_rules("sochi", pool_target=4)),
        round_count=rounds + 1,
        deal_cap=3,
        team_best=2,
        tie_breaks=TIE_BREAKS,
        lot=True,
        seed=20261202,
    )
    services.entries_add(tournament=tournament, names=NAMES[:4], team=TEAM)
    services.entries_add(tournament=tournament, names=NAMES[4:], team=OTHER_TEAM)
    for _ in range(rounds):
        play_round(tournament, deals=2, seed="long names")
    services.round_draft(tournament=tournament)
    unbroken = Player.objects.get(club=tournament.club, name=UNBROKEN)
    services.penalty_add(
        tournament=tournament,
        player_id=unbroken.pk,
        round_number=1,
        amount=25,
        unit=PenaltyUnit.WHISTS,
        reason="Запізнення на " + "дуже " * 8 + "довго",
        by=None,
    )
    return Tournament.objects.select_related("club").get(pk=tournament.pk)


@pytest.fixture(scope="module", params=[9, 2], ids=["9-rounds", "2-rounds"])
def cup(request, module_rows, django_db_blocker) -> int:
    with django_db_blocker.unblock():
        return cup_of_long_names(request.param).pk


@pytest.fixture
def tournament(cup, db) -> Tournament:
    return Tournament.objects.select_related("club").get(pk=cup)


@dataclass(frozen=True)
class Box:
    x0: float
    x1: float
    top: float
    bottom: float

    def holds(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.top <= y <= self.bottom

    def around(self, word: dict) -> bool:
        return (
            word["x0"] >= self.x0 - EDGE
            and word["x1"] <= self.x1 + EDGE
            and word["top"] >= self.top - EDGE
            and word["bottom"] <= self.bottom + EDGE
        )

    @property
    def area(self) -> float:
        return (self.x1 - self.x0) * (self.bottom - self.top)


def misplaced(content: bytes, *, cells: bool = False) -> list[tuple[int, str]]:
    """The words off their page (page number, text); with `cells`, also the words that start
    inside a drawn box (a card, a table's cell) and do not end inside it."""
    found = []
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            sheet = Box(0, page.width, 0, page.height)
            boxes = [Box(b["x0"], b["x1"], b["top"], b["bottom"]) for b in page.rects]
            boxes += [Box(b["x0"], b["x1"], b["top"], b["bottom"]) for b in page.curves]
            boxes = [box for box in boxes if box.area > 100]  # not a rule's hairline
            # The draft's watermark (`.draft-mark`, letters far larger than any name) lies
            # over the cards: its letters are not words of a card.
            text = page.filter(lambda o: o.get("object_type") != "char" or o["size"] < 40)
            for word in text.extract_words():
                if not sheet.around(word):
                    found.append((number, word["text"]))
                    continue
                if not cells:
                    continue
                middle = (word["top"] + word["bottom"]) / 2
                inside = [box for box in boxes if box.holds(word["x0"] + 1, middle)]
                if inside and not min(inside, key=lambda box: box.area).around(word):
                    found.append((number, word["text"]))
    return found


def printed_words(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return " ".join(word["text"] for page in pdf.pages for word in page.extract_words())


@pytest.mark.django_db
def test_the_standings_keep_every_column_on_the_page(tournament):
    content = printouts.standings_pdf(tournament)

    assert misplaced(content) == []
    words = printed_words(content)
    assert "Lot" in words  # the last column
    assert "Total" in words


@pytest.mark.django_db
def test_the_standings_turn_the_page_and_shrink_the_type_as_they_grow(tournament):
    context = printouts.standings_context(tournament)
    rounds = len(context["rounds"])

    assert context["wide"]  # 55 characters and a team of 50 beside them
    assert context["dense"]
    assert context["denser"] == (rounds == 9)
    with pdfplumber.open(io.BytesIO(printouts.standings_pdf(tournament))) as pdf:
        assert all(page.width > page.height for page in pdf.pages)


@pytest.mark.django_db
def test_the_team_standings_keep_every_column_on_the_page(tournament):
    content = printouts.team_standings_pdf(tournament)

    assert misplaced(content) == []
    assert "round" in printed_words(content)  # the last column, "Best round"


@pytest.mark.django_db
def test_the_seating_keeps_every_name_inside_its_card_and_on_the_page(tournament):
    round = selectors.round_of(tournament, 1)

    content = printouts.seating_pdf(round)

    assert misplaced(content, cells=True) == []
    words = printed_words(content)
    assert UNBROKEN[:10] in words  # printed, wrapped, not dropped


@pytest.mark.django_db
def test_a_draft_seating_keeps_every_name_inside_its_card_too(tournament):
    draft = selectors.round_of(tournament, tournament.round_count)

    assert misplaced(printouts.seating_pdf(draft), cells=True) == []


@pytest.mark.django_db
def test_the_protocols_keep_every_name_inside_its_cell_and_on_the_page(tournament):
    round = selectors.round_of(tournament, 1)

    content = printouts.protocols_pdf(round)

    assert misplaced(content, cells=True) == []
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        assert len(pdf.pages) == printouts.protocols_size(round)  # still one page a table


@pytest.mark.django_db
def test_combining_marks_stay_on_their_own_line(tournament):
    round = selectors.round_of(tournament, 1)
    for content in (printouts.seating_pdf(round), printouts.standings_pdf(tournament)):
        with pdfplumber.open(io.BytesIO(content)) as pdf:
            for page in pdf.pages:
                letters = [c for c in page.chars if c["text"] == "А"]
                marks = [c for c in page.chars if c["text"] == "\u0301"]
                for mark in marks:
                    base = min(
                        letters,
                        key=lambda c: abs(c["x0"] - mark["x0"]) + abs(c["top"] - mark["top"]),
                    )
                    # a mark sits on its letter's line, not on the line above
                    assert mark["bottom"] > base["top"]
                    assert base["top"] - mark["top"] < base["size"] / 2


@pytest.mark.parametrize(
    ("columns", "longest", "expected"),
    [
        (12, 12, (False, False, False)),
        (13, 12, (True, False, False)),
        (5, 55, (True, False, False)),
        (17, 12, (True, True, False)),
        (12, 105, (True, True, False)),
        (19, 105, (True, True, True)),
    ],
)
def test_the_layout_follows_the_columns_and_the_longest_name(columns, longest, expected):
    shape = printouts.layout(columns, longest)

    assert (shape["wide"], shape["dense"], shape["denser"]) == expected
