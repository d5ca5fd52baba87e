"""The organisers' printouts (competition/printouts.py, printout_views.py): the text of each
PDF, read back with pypdf, holds the names, tables, seats and numbers; and who may download
which file.

The tournaments are small (7 players: a table of 4 and one of 3, two rounds of 3 deals), so
the PDFs are quick to build.
"""

from __future__ import annotations

import doctest
import io
import re
from fractions import Fraction

import pypdf
import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from club.models import Club, Role
from competition.models import FileState, PreparedFile, RoundState, Scoring, Tournament
from competition.tournament import printouts, selectors, services
from competition.tournament.printouts import printed_number
from scoring import engine
from scoring.engine import preset_rules, rules_to_dict
from tests.club.factories import assert_login_redirect, assert_not_found
from tests.competition.factories import make_tournament, play_round
from tests.conftest import HTMX, PERSONAS, make_club_a, make_member

pytestmark = pytest.mark.django_db

NAMES = ["Анна Коваленко", "Борис", "Віра", "Гліб", "Дана", "Єгор", "Ігор"]
TEAMS = {"Aces": NAMES[:3], "Kings": NAMES[3:5], "Queens": NAMES[5:]}

READ = {"anonymous": 404, "outsider": 404, "player": 200, "secretary": 200, "owner": 200}
RECORD = {"anonymous": 404, "outsider": 404, "player": 403, "secretary": 200, "owner": 200}
OWNER = {"anonymous": 404, "outsider": 404, "player": 404, "secretary": 404, "owner": 200}


# --- the test data: a tournament played through the services --------------------------------


def play_tournament(
    club: Club,
    *,
    names: list[str] = NAMES,
    teams: dict[str, list[str]] | None = None,
    rounds: int = 3,
    played: int = 2,
    draft: bool = False,
    deals: bool = True,
    **fields,
) -> Tournament:
    """A tournament of the club with `played` rounds confirmed (and the next one drawn as a
    draft if `draft`), scored with the 200/650 caps unless `fields` say otherwise. Without
    `deals` no deal is played (quicker, every result 0)."""
    settings = {
        "name": "Кубок «Осінь»",
        "rules": rules_to_dict(preset_rules("sochi", pool_target=4)),
        "round_count": rounds,
        "deal_cap": 3,
        **fields,
    }
    tournament = make_tournament(club, () if teams else names, **settings)
    for team, members in (teams or {}).items():
        services.entries_add(tournament=tournament, names=members, team=team)
    for _ in range(played):
        play_round(tournament, deals=None if deals else 0)
    if draft:
        services.round_draft(tournament=tournament)
    return Tournament.objects.select_related("club").get(pk=tournament.pk)


def pdf_pages(content: bytes) -> list[str]:
    """Each page's text, its whitespace tidied line by line."""
    assert content.startswith(b"%PDF-")
    reader = pypdf.PdfReader(io.BytesIO(content))
    return [
        "\n".join(" ".join(line.split()) for line in page.extract_text().splitlines())
        for page in reader.pages
    ]


def pdf_text(content: bytes) -> str:
    return "\n".join(pdf_pages(content))


def url(name: str, tournament: Tournament, *args, **query) -> str:
    address = reverse(f"competition:{name}", args=[tournament.club.slug, tournament.pk, *args])
    if query:
        address += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return address


@pytest.fixture(scope="module")
def drawn_cup(module_rows, django_db_blocker) -> int:
    """Club A's cup, made once for the module (tests/conftest.py's module_rows)."""
    with django_db_blocker.unblock():
        return play_tournament(make_club_a(), teams=TEAMS, team_best=2, draft=True, deals=False).pk


@pytest.fixture
def cup(drawn_cup, club_a) -> Tournament:
    """Club A's cup: two rounds confirmed (no deals: the seatings are what matters), a third
    drawn as a draft; teams."""
    return Tournament.objects.select_related("club").get(pk=drawn_cup)


def assert_pdf(response, filename_part: str) -> bytes:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert filename_part in disposition
    assert ".pdf" in disposition
    return response.content


# --- seating --------------------------------------------------------------------------------


def tables_on_the_board(page: str) -> dict[int, list[tuple[int, str, bool]]]:
    """The seating's cards: table -> (seat, name, deals first) in the order printed."""
    tables: dict[int, list[tuple[int, str, bool]]] = {}
    current = None
    for line in page.splitlines():
        heading = re.fullmatch(r"Table (\d+)", line)
        seat = re.fullmatch(r"([1-4]) (.+?)( ★)?", line)
        if heading:
            current = tables.setdefault(int(heading[1]), [])
        elif current is not None and seat:
            current.append((int(seat[1]), seat[2], bool(seat[3])))
        elif current is not None:
            current = None
    return tables


def test_the_seating_shows_each_table_in_seat_order_with_its_first_dealer(cup):
    round = selectors.round_of(cup, 2)
    names = selectors.names(cup)

    pages = pdf_pages(printouts.seating_pdf(round))

    text = "\n".join(pages)
    assert "Кубок «Осінь»" in text
    assert "Round 2: seating" in text
    assert f"Seed of the seating: {round.seed}" in text
    assert "DRAFT" not in text
    printed = tables_on_the_board(pages[0])
    seating = selectors.seating_of(round)
    assert printed == {
        table.number: [
            (k, names[p], p == table.first_dealer) for k, p in enumerate(table.seats, start=1)
        ]
        for table in seating.tables
    }
    assert sorted(len(seats) for seats in printed.values()) == [3, 4]


def test_the_seating_lists_everyone_a_to_z_with_table_and_seat(cup):
    round = selectors.round_of(cup, 1)
    names = selectors.names(cup)
    seating = selectors.seating_of(round)

    text = pdf_text(printouts.seating_pdf(round))

    listed = text[text.index("Players A to Z") :].splitlines()
    # Two columns, each read down: the first entry of a line is the left column's.
    entry = re.compile(r"([^\d· ][^\d·]*?) (\d+) · (\d)(?= |$)")
    left, right = [], []
    for line in listed:
        found = [m.groups() for m in entry.finditer(line)]
        if found:
            left.append(found[0])
            right += found[1:]
    rows = left + right
    expected = {
        (names[p], str(t.number), str(t.seat_of(p))) for t in seating.tables for p in t.seats
    }
    assert set(rows) == expected
    assert len(rows) == len(expected) == 7
    # In the alphabet's order: Є and І after Д and before the end, not after Я.
    assert [name for name, _, _ in rows] == [
        "Анна Коваленко",
        "Борис",
        "Віра",
        "Гліб",
        "Дана",
        "Єгор",
        "Ігор",
    ]


def test_a_draft_seating_is_marked_draft(cup):
    draft = selectors.round_of(cup, 3)
    assert draft.state == RoundState.DRAFT

    text = pdf_text(printouts.seating_pdf(draft))

    assert "Round 3: seating (DRAFT)" in text
    assert "A draft: the seating may still change" in text
    assert f"Seed of the seating: {draft.seed}" in text


def test_a_player_sitting_out_is_on_the_seating_with_the_reason(club_a):
    five = play_tournament(club_a, names=NAMES[:5], played=1, draft=True)
    draft = selectors.round_of(five, 2)
    (bye,) = selectors.seating_of(draft).byes
    name = selectors.names(five)[bye.player]

    text = pdf_text(printouts.seating_pdf(draft))

    assert "Sitting out this round" in text
    assert f"{name}: 5 players cannot fill tables of 3 and 4" in text
    assert re.search(rf"(^| ){name} sits out( |$)", text, re.MULTILINE)
    assert printouts.seating_size(draft) == 5


# --- protocols ------------------------------------------------------------------------------


def test_each_table_gets_a_protocol_page_with_its_players_and_first_dealer(cup):
    round = selectors.round_of(cup, 1)
    names = selectors.names(cup)
    seating = selectors.seating_of(round)

    pages = pdf_pages(printouts.protocols_pdf(round))

    assert len(pages) == len(seating.tables) == printouts.protocols_size(round) == 2
    for page, table in zip(pages, seating.tables, strict=True):
        assert "Кубок «Осінь»" in page
        assert f"Round 1 · Table {table.number}" in page
        assert f"Seed of the seating: {round.seed}" in page
        assert "Sochi, pool to 4 · at most 3 deals" in page
        seated = re.findall(r"^([1-4]) (.+?)( ★ deals first)?$", page, re.MULTILINE)
        assert seated == [
            (str(k), names[p], " ★ deals first" if p == table.first_dealer else "")
            for k, p in enumerate(table.seats, start=1)
        ]
        compact = "".join(page.split())  # the text of adjacent cells may run together
        for box in ("Pool", "Mountain", "Whists", "Result", "Place", "Aftercaps", "Signature"):
            assert box in compact
        assert "Judge:" in page
        # The players table, the blank sheet (by his edge) and the results table.
        assert all(page.count(names[p]) == 3 for p in table.seats)
        # The results table's rows and the sheet's edges: "1. Name".
        assert sorted(re.findall(r"^(\d)\. (.+)$", page, re.MULTILINE)) == sorted(
            [(str(k), names[p]) for k, p in enumerate(table.seats, start=1)] * 2
        )


def test_a_protocol_for_one_table_has_its_page_only(cup):
    round = selectors.round_of(cup, 2)
    table = selectors.seating_of(round).tables[1]
    names = selectors.names(cup)

    (page,) = pdf_pages(printouts.protocols_pdf(round, table.number))

    assert f"Round 2 · Table {table.number}" in page
    for player in table.seats:
        assert names[player] in page
    others = set(selectors.seating_of(round).players) - set(table.seats)
    assert not any(names[p] in page for p in others)
    assert printouts.protocols_size(round, table.number) == 1
    assert printouts.protocols_size(round, 99) == 0


def test_long_names_keep_each_protocol_on_its_page(club_a):
    # The longest names the roster takes (60 characters).
    long = [f"{name} Олександрович-Коваленко-Бондаренко-Шевченко-Кравець"[:60] for name in NAMES]
    cup = play_tournament(club_a, names=long, played=0, draft=True)
    round = selectors.round_of(cup, 1)
    services.round_publish(round=round, by=None)

    pages = pdf_pages(printouts.protocols_pdf(round))
    seating = pdf_pages(printouts.seating_pdf(round))

    assert len(pages) == 2
    assert all(name in "".join(pages).replace("\n", "") for name in long)
    assert len(seating) == 2  # the cards, then the list A to Z


def test_what_a_name_says_is_printed_not_obeyed(club_a):
    names = ['<img src="file:///etc/passwd">', "Boris", "Vera"]
    cup = play_tournament(club_a, names=names, played=0, draft=True)
    Tournament.objects.filter(pk=cup.pk).update(name="<b>Cup</b> <style>body{}</style>")
    cup.refresh_from_db()

    text = pdf_text(printouts.seating_pdf(selectors.round_of(cup, 1)))

    assert '<img src="file:///etc/passwd">' in text
    assert "<b>Cup</b> <style>body{}</style>" in text


def test_the_blank_sheet_is_ruled_for_the_tables_players():
    rules = engine.Rules(pool_target=20)

    four = printouts.blank_sheet(rules, ["Anna", "Boris", "Vera", "Gleb"])
    three = printouts.blank_sheet(rules, ["Anna", "Boris", "Vera"])

    assert [p.label.text for p in four.names.players] == [
        "1. Anna",
        "2. Boris",
        "3. Vera",
        "4. Gleb",
    ]
    # Each player's columns of whists, headed by the opponents' seats.
    assert [[c.opponent for c in p.whists] for p in four.seats.players] == [
        ["4", "3", "2"],
        ["1", "4", "3"],
        ["2", "1", "4"],
        ["3", "2", "1"],
    ]
    assert [[c.opponent for c in p.whists] for p in three.seats.players] == [
        ["3", "2"],
        ["1", "3"],
        ["2", "1"],
    ]
    assert four.names.target.text == "20"
    assert all(not p.pool_sequence and not p.mountain_sequence for p in four.names.players)
    # The same ruling under both labellings.
    assert four.names.borders == four.seats.borders
    assert four.names.dividers == four.seats.dividers


# --- standings ------------------------------------------------------------------------------


def standing_lines(text: str, names: list[str] = NAMES) -> dict[str, str]:
    """Player name -> his line of the standings table (whitespace tidied)."""
    lines = {}
    for line in text.splitlines():
        for name in names:
            if re.match(rf"^\d+ {name} ", line):
                lines[name] = line
    return lines


def expected_cells(line, rounds: list[int]) -> str:
    cells = [printed_number(line.rounds[n].score) if n in line.rounds else "—" for n in rounds]
    cells.append(printed_number(line.score))
    cells += [
        printed_number(line.adjusted),
        str(line.table_wins),
        printed_number(line.best_round),
        printed_number(line.opponents_total),
        str(line.lot),
    ]
    return " ".join(cells)


def test_the_standings_print_every_line_as_the_selectors_compute_it(club_a):
    cup = play_tournament(club_a)
    table = selectors.standings(cup)
    names = selectors.names(cup)

    text = pdf_text(printouts.standings_pdf(cup))

    assert "Standings after round 2" in text
    lines = standing_lines(text)
    assert set(lines) == set(NAMES)
    assert len(table.lines) == len(NAMES)
    for line in table.lines:
        printed = lines[names[line.player]]
        assert printed.startswith(f"{line.place} {names[line.player]} ")
        assert printed.endswith(expected_cells(line, [1, 2]))
    # In the standings' order, and with real numbers (not all zero).
    order = sorted(lines, key=lambda name: text.index(lines[name]))
    assert order == [names[line.player] for line in table.lines]
    assert any(line.score for line in table.lines)


def test_the_standings_carry_the_rule_the_time_and_the_lot_seed(club_a, settings):
    cup = play_tournament(club_a, played=1)
    before = timezone.localtime()

    text = pdf_text(printouts.standings_pdf(cup))

    for sentence in selectors.rule_words(cup):
        assert " ".join(sentence.split()) in text.replace("\n", " ")
    assert f"Lot seed: {selectors.lot_seed(cup)}" in text
    assert f"Calculated on {date_format(before, 'DATETIME_FORMAT')}" in text or (
        f"Calculated on {date_format(timezone.localtime(), 'DATETIME_FORMAT')}" in text
    )


def test_the_standings_after_a_round_count_that_round_and_those_before(club_a):
    cup = play_tournament(club_a)
    names = selectors.names(cup)
    after_one = selectors.standings(cup, through=1)

    text = pdf_text(printouts.standings_pdf(cup, after=1))

    assert "Standings after round 1" in text
    (header,) = [line for line in text.splitlines() if line.startswith("Place Player")]
    assert "R1" in header.split()
    assert "R2" not in header.split()
    lines = standing_lines(text)
    for line in after_one.lines:
        assert lines[names[line.player]].endswith(expected_cells(line, [1]))


def test_the_final_standings_are_titled_so_and_show_penalties(club_a):
    cup = play_tournament(club_a, rounds=2, played=2)
    assert cup.finished_at is not None
    player = selectors.standings(cup).lines[0].player
    services.penalty_add(
        tournament=cup,
        player_id=player,
        round_number=2,
        amount=7,
        unit="whists",
        reason="Late",
        by=None,
    )
    names = selectors.names(cup)
    table = selectors.standings(cup)
    penalised = next(line for line in table.lines if line.player == player)

    text = pdf_text(printouts.standings_pdf(cup))

    assert "Final standings" in text
    assert f"{names[player]}, round 2: 7 (whists) — Late" in text
    printed = standing_lines(text)[names[player]]
    assert f"−7 {printed_number(penalised.score)}" in printed


def test_a_final_stage_puts_the_finalists_first(club_a):
    cup = play_tournament(club_a, rounds=2, played=2, stage_after=1, stage_top=4)
    names = selectors.names(cup)
    table = selectors.standings(cup)
    finalists = [line for line in table.lines if line.finalist]
    assert len(finalists) == 4

    text = pdf_text(printouts.standings_pdf(cup))

    lines = standing_lines(text)
    order = sorted(lines, key=lambda name: text.index(lines[name]))
    assert order == [names[line.player] for line in table.lines]
    for line in table.lines:
        assert lines[names[line.player]].endswith(expected_cells(line, [1, 2]))
        if not line.finalist:
            assert " — " in lines[names[line.player]]  # no round 2 for him


def test_a_round_below_the_floor_is_marked_for_the_judge(club_a):
    cup = play_tournament(club_a, played=1, floor=0)
    names = selectors.names(cup)
    flagged = [line for line in selectors.standings(cup).lines if line.flagged]
    assert flagged

    text = pdf_text(printouts.standings_pdf(cup))

    assert "! : a round below the floor, for the judge." in text.replace("\n", " ")
    lines = standing_lines(text)
    for line in selectors.standings(cup).lines:
        assert (f"{names[line.player]} ! " in lines[names[line.player]]) == bool(line.flagged)


def page_is_landscape(content: bytes) -> bool:
    box = pypdf.PdfReader(io.BytesIO(content)).pages[0].mediabox
    return box.width > box.height


def test_many_columns_turn_the_standings_page_to_landscape(club_a):
    short = play_tournament(club_a, rounds=5, played=4, deals=False)
    assert not page_is_landscape(printouts.standings_pdf(short))  # 4 rounds, 4 tie-breaks

    services.round_draft(tournament=short)
    play_round(short.rounds.get(number=5), deals=0)

    assert page_is_landscape(printouts.standings_pdf(short))  # 5 rounds, 4 tie-breaks


def test_standings_with_no_round_confirmed_say_so(club_a):
    cup = play_tournament(club_a, played=0)

    text = pdf_text(printouts.standings_pdf(cup))

    assert "No round is confirmed yet." in text


def test_place_points_standings_have_no_lot_column_without_a_lot(club_a):
    cup = play_tournament(club_a, played=1, scoring=Scoring.PLACES, caps=[], lot=False)
    names = selectors.names(cup)

    text = pdf_text(printouts.standings_pdf(cup))

    assert "Lot seed" not in text
    assert "A round counts place points" in text.replace("\n", " ")
    lines = standing_lines(text)
    for line in selectors.standings(cup).lines:
        assert lines[names[line.player]].endswith(
            f"{printed_number(line.rounds[1].score)} {printed_number(line.score)}"
            f" {printed_number(line.adjusted)} {line.table_wins}"
            f" {printed_number(line.best_round)} {printed_number(line.opponents_total)}"
        )


# --- teams ---------------------------------------------------------------------------------


def test_the_team_standings_sum_the_best_members(club_a):
    cup = play_tournament(club_a, teams=TEAMS, team_best=2)
    lines = selectors.team_lines(cup, selectors.results(cup))
    assert any(line.total for line in lines)

    text = pdf_text(printouts.team_standings_pdf(cup))

    assert "Team standings after round 2" in text
    assert [line.team for line in lines] != []
    for line in lines:
        cells = " ".join(
            [
                printed_number(line.rounds[1]),
                printed_number(line.rounds[2]),
                printed_number(line.total),
            ]
        )
        assert re.search(rf"^{line.place} {line.team}.* {re.escape(cells)} ", text, re.MULTILINE)
        for member in TEAMS[line.team]:
            assert member in text
    drawn = printouts.team_standings_size(cup)
    assert (drawn.lines, drawn.columns, drawn.listed, drawn.cells) == (3, 4 + 2, 7, 3 * 6 + 7)


def test_figures_are_printed_as_players_write_them():
    assert printed_number(Fraction(12)) == "12"
    assert printed_number(-3) == "−3"
    assert printed_number(Fraction(430, 3)) == "143.33"
    assert printed_number(Fraction(-1, 3)) == "−0.33"
    assert printed_number(None) == ""


def test_figures_follow_the_language():
    with translation.override("uk"):
        assert printed_number(Fraction(430, 3)) == "143,33"


def test_the_examples_in_the_module_hold():
    assert doctest.testmod(printouts).failed == 0


def test_the_list_a_to_z_is_cut_into_pages_of_two_columns_read_down():
    pages = printouts.columns_of(list(range(1, 12)), lines=3)

    assert pages == [
        [(1, 4), (2, 5), (3, 6)],
        [(7, 10), (8, 11), (9, None)],
    ]
    assert printouts.columns_of([]) == []


def test_the_alphabetical_key_follows_the_alphabets():
    names = ["Їжак", "Ірина", "Ёлка", "Яків", "Ґанна", "Ольга", "Anna", "д’Артаньян"]

    ordered = sorted(names, key=printouts.alphabetical)

    assert ordered == ["Anna", "Ґанна", "д’Артаньян", "Ёлка", "Ірина", "Їжак", "Ольга", "Яків"]


# --- the views: who may download what -------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_clubs_seating_is_for_its_readers(as_persona, cup, persona):
    response = as_persona(persona).get(url("tournament-print-seating", cup, 1))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = pdf_text(assert_pdf(response, "round%201%20seating"))
        assert "Round 1: seating" in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_prints_a_drafts_seating(as_persona, cup, persona):
    response = as_persona(persona).get(url("tournament-print-seating", cup, 3))

    assert response.status_code == OWNER[persona]
    if OWNER[persona] == 200:
        assert "DRAFT" in pdf_text(assert_pdf(response, "DRAFT"))


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("table", [None, 2])
def test_protocols_are_for_the_secretary_and_the_owner(as_persona, cup, persona, table):
    args = [1] if table is None else [1, table]

    response = as_persona(persona).get(url("tournament-print-protocols", cup, *args))

    assert response.status_code == RECORD[persona]
    if RECORD[persona] == 200:
        pages = pdf_pages(assert_pdf(response, "protocol"))
        assert len(pages) == (2 if table is None else 1)
        assert "Round 1 · Table 2" in pages[-1]


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_clubs_standings_are_for_its_readers(as_persona, cup, persona):
    response = as_persona(persona).get(url("tournament-print-standings", cup, after=1))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = pdf_text(assert_pdf(response, "standings%20after%20round%201"))
        assert "Standings after round 1" in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_clubs_team_standings_are_for_its_readers(as_persona, cup, persona):
    response = as_persona(persona).get(url("tournament-print-teams", cup))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        assert "Aces" in pdf_text(assert_pdf(response, "teams"))


def test_a_public_clubs_seating_and_standings_are_read_by_anyone(client, public_club):
    cup = play_tournament(public_club, played=1)

    seating = client.get(url("tournament-print-seating", cup, 1))
    standings = client.get(url("tournament-print-standings", cup))
    protocols = client.get(url("tournament-print-protocols", cup, 1))

    assert "Round 1: seating" in pdf_text(assert_pdf(seating, "seating"))
    assert "Standings after round 1" in pdf_text(assert_pdf(standings, "standings"))
    assert_login_redirect(protocols, url("tournament-print-protocols", cup, 1))


def test_a_public_clubs_member_without_a_role_high_enough_gets_403_for_protocols(
    client, public_club
):
    cup = play_tournament(public_club, played=1)
    client.force_login(make_member(public_club, Role.PLAYER).user)

    response = client.get(url("tournament-print-protocols", cup, 1))

    assert response.status_code == 403


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tournament-print-seating", [1]),
        ("tournament-print-protocols", [1]),
        ("tournament-print-protocols", [1, 1]),
        ("tournament-print-standings", []),
        ("tournament-print-teams", []),
    ],
)
def test_an_htmx_request_is_sent_to_download_the_file(client, owner, cup, name, args):
    client.force_login(owner)
    address = url(name, cup, *args)

    response = client.get(address, headers=HTMX)

    assert response.status_code == 200
    assert response["HX-Redirect"] == address
    assert not response.content.startswith(b"%PDF")


@pytest.mark.parametrize(
    "path",
    [
        "rounds/0/seating/",
        "rounds/4/seating/",
        "rounds/99999999999999999999/seating/",
        "rounds/3/protocols/",  # a draft: no tables yet
        "rounds/4/protocols/",
        "rounds/1/protocols/3/",
        "rounds/1/protocols/0/",
        "rounds/1/protocols/99999999999999999999/",
        "standings/?after=0",
        "standings/?after=3",  # drawn, not confirmed
        "standings/?after=x",
        "standings/?after=²",
        "standings/?after=-1",
        "standings/?after=99999999999999999999",
    ],
)
def test_a_round_or_table_that_is_not_there_is_404(client, owner, cup, path):
    client.force_login(owner)

    response = client.get(f"/c/{cup.club.slug}/tournaments/{cup.pk}/print/{path}")

    assert_not_found(response, cup.name, NAMES[1])
    assert response["Content-Type"].startswith("text/html")


def test_team_standings_without_teams_are_404(client, owner, club_a):
    cup = play_tournament(club_a, played=1)
    client.force_login(owner)

    assert client.get(url("tournament-print-teams", cup)).status_code == 404


def test_another_clubs_tournament_is_404(client, owner, cup, club_b):
    other = play_tournament(club_b, played=1)
    client.force_login(owner)
    crossed = f"/c/{cup.club.slug}/tournaments/{other.pk}/print/rounds/1/seating/"

    assert client.get(crossed).status_code == 404


def test_the_filename_holds_nothing_a_header_cannot_carry(client, owner, club_a):
    cup = play_tournament(club_a, played=1)
    Tournament.objects.filter(pk=cup.pk).update(name='Cup\r\n"1/2"\\')
    client.force_login(owner)

    response = client.get(url("tournament-print-standings", cup))

    disposition = response["Content-Disposition"]
    assert response.status_code == 200
    assert "\n" not in disposition
    assert "\r" not in disposition
    assert disposition == 'attachment; filename="Cup \\"1 2\\" - standings.pdf"'


def test_a_small_printout_is_not_prepared(client, owner, cup):
    client.force_login(owner)

    response = client.post(url("tournament-print-standings", cup))

    assert response.status_code == 404
    assert not PreparedFile.objects.exists()


def test_small_team_standings_are_not_prepared(client, owner, cup):
    client.force_login(owner)

    response = client.post(url("tournament-print-teams", cup))

    assert response.status_code == 404
    assert not PreparedFile.objects.exists()


@pytest.mark.parametrize(
    ("name", "setting", "args", "amount", "page_text"),
    [
        (
            "tournament-print-seating",
            "SEATING_THRESHOLD_PLAYERS",
            [1],
            "Players in this seating",
            "Round 1: seating",
        ),
        (
            "tournament-print-standings",
            "STANDINGS_THRESHOLD_CELLS",
            [],
            "Lines of the standings",
            "Standings",
        ),
    ],
)
def test_a_big_seating_or_standings_is_prepared(
    client, owner, cup, monkeypatch, name, setting, args, amount, page_text
):
    monkeypatch.setattr(printouts, setting, 1)
    client.force_login(owner)
    address = url(name, cup, *args)

    offered = client.get(address)
    posted = client.post(address)

    assert amount in offered.content.decode()
    prepared = PreparedFile.objects.get()
    assert posted["Location"] == prepared.get_absolute_url()
    assert prepared.state == FileState.READY
    download = client.get(reverse("competition:file-download", args=[cup.club.slug, prepared.pk]))
    content = b"".join(download.streaming_content) if download.streaming else download.content
    assert page_text in pdf_text(content)


# --- a big round's protocols: prepared in the background (competition.files.services) ---


@pytest.fixture
def small_threshold(monkeypatch):
    """Every round of two tables or more counts as big."""
    monkeypatch.setattr(printouts, "PROTOCOLS_THRESHOLD_TABLES", 1)


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_big_rounds_protocols_are_offered_as_a_prepared_file(
    as_persona, cup, persona, small_threshold
):
    client = as_persona(persona)
    address = url("tournament-print-protocols", cup, 1)

    page = client.get(address)
    fragment = client.get(address, headers=HTMX)
    posted = client.post(address)

    assert page.status_code == RECORD[persona]
    assert fragment.status_code == RECORD[persona]
    assert posted.status_code in (RECORD[persona], 302)
    if RECORD[persona] != 200:
        assert posted.status_code == RECORD[persona]
        assert not PreparedFile.objects.exists()
        return
    assert "Tables in this round: 2." in page.content.decode()
    assert 'id="prepare-file"' in page.content.decode()
    assert "<html" not in fragment.content.decode()
    assert "Prepare the file" in fragment.content.decode()
    prepared = PreparedFile.objects.get()
    assert posted.status_code == 302
    assert posted["Location"] == prepared.get_absolute_url()
    assert prepared.state == FileState.READY  # the immediate backend built it at once
    download = client.get(reverse("competition:file-download", args=[cup.club.slug, prepared.pk]))
    pages = pdf_pages(
        b"".join(download.streaming_content) if download.streaming else download.content
    )
    assert len(pages) == 2
    assert "Round 1 · Table 2" in pages[-1]


def test_one_tables_protocol_still_downloads_at_once(client, owner, cup, small_threshold):
    client.force_login(owner)

    response = client.get(url("tournament-print-protocols", cup, 1, 2))

    assert len(pdf_pages(assert_pdf(response, "protocol"))) == 1


def test_a_small_rounds_protocols_are_not_prepared(client, owner, cup):
    client.force_login(owner)

    response = client.post(url("tournament-print-protocols", cup, 1))

    assert response.status_code == 404
    assert not PreparedFile.objects.exists()
