"""The tournament standings page and its exports: who reads them, the numbers (equal to the
core's standings over the engine's settlements), ?after=K, penalties, the final, teams, the
lot, byes, the exports, a page that follows every change at once, and queries that do not
grow with the players."""

from __future__ import annotations

import csv
import io
import random
from fractions import Fraction
from html.parser import HTMLParser
from urllib.parse import unquote

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from club.models import Club, Player, Role
from club.services import player_update
from competition.demo import next_valid_deal
from competition.lib import tournament_scoring as ts
from competition.lib.seating import Method, Seating, Table, table_plan
from competition.models import (
    Entry,
    PenaltyUnit,
    Round,
    RoundState,
    RoundTable,
    Tournament,
)
from competition.tournament import selectors, services
from competition.tournament.standings import StandingsPage
from competition.tournament.tables import export_number
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.formatting import figure as score
from scoring.models import Evening, Pulka, PulkaResultCache, PulkaStatus, Seat
from scoring.services import ScoringError
from tests.club.factories import READ, assert_fragment, assert_full_page, assert_not_found, html
from tests.competition.factories import make_tournament, play_round
from tests.conftest import HTMX, PERSONAS, make_club, make_club_a, make_member

pytestmark = pytest.mark.django_db

SEVEN = ["Anna", "Boris", "Vera", "Gleb", "Dana", "Egor", "Zoya"]
FLAG = "⚑below the floor"


# --- tournaments to read ----------------------------------------------------------------------


def autumn_cup(club: Club, names=SEVEN, **fields) -> Tournament:
    """Seven players (tables of 4 and 3), caps 200/650, the club's conventions to 10,
    3 rounds of at most 8 deals."""
    settings = {
        "name": "Autumn cup",
        "rules": {**club.default_rules(), "pool_target": 10},
        "deal_cap": 8,
        **fields,
    }
    return make_tournament(club, names, **settings)


def played(club: Club, rounds: int = 3, **fields) -> Tournament:
    tournament = autumn_cup(club, round_count=rounds, **fields)
    for number in range(1, rounds + 1):
        play_round(tournament, deals=5 if number == 2 else 8, seed="cup")  # round 2 ends on time
    return Tournament.objects.get(pk=tournament.pk)


def bulk(
    club: Club,
    count: int,
    rounds: int,
    *,
    results: dict[int, list[int]] | None = None,
    seed: int = 1,
    round_count: int | None = None,
    **fields,
) -> Tournament:
    """A finished tournament written in bulk (the rows the services leave behind, no deals):
    `count` players seated at random each round with random zero-sum whists, or the whists
    `results` gives per round in seat order."""
    tournament = autumn_cup(
        club,
        names=[f"Player {i:03d}" for i in range(count)],
        round_count=round_count or rounds,
        **fields,
    )
    ids = list(
        Entry.objects.filter(tournament=tournament).order_by("pk").values_list("player", flat=True)
    )
    rng = random.Random(seed)
    now = timezone.now()
    for number in range(1, rounds + 1):
        order = ids[:] if results else rng.sample(ids, len(ids))
        tables, start = [], 0
        for table_number, size in enumerate(table_plan(count).sizes, start=1):
            seats = tuple(order[start : start + size])
            tables.append(Table(table_number, seats, seats[0]))
            start += size
        seating = Seating(number, number, Method.MIXING, tuple(tables), ())
        evening = Evening.objects.create(club=club, venue="Cup", counted=False)
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            state=RoundState.CONFIRMED,
            method="mixing",
            seed=number,
            seating=selectors.seating_to_json(seating),
            evening=evening,
            confirmed_at=now,
        )
        pulkas = Pulka.objects.bulk_create(
            Pulka(evening=evening, table=t.number, rules=tournament.rules, status="finished")
            for t in tables
        )
        RoundTable.objects.bulk_create(
            RoundTable(round=round_, number=t.number, pulka=p)
            for t, p in zip(tables, pulkas, strict=True)
        )
        given = iter(results[number]) if results else None
        for table, pulka in zip(tables, pulkas, strict=True):
            if given is not None:
                whists = [next(given) for _ in table.seats]
            else:
                whists = [rng.randint(-300, 300) for _ in table.seats[1:]]
                whists.append(-sum(whists))
            Seat.objects.bulk_create(
                Seat(pulka=pulka, position=i, player_id=p) for i, p in enumerate(table.seats)
            )
            PulkaResultCache.objects.bulk_create(
                PulkaResultCache(
                    pulka=pulka,
                    player_id=player,
                    club=club,
                    date=evening.date,
                    position=i,
                    players=len(table.seats),
                    result=str(value),
                    result_rounded=value,
                    place=1 + sum(other > value for other in whists),
                    closed=True,
                    counted=False,
                )
                for i, (player, value) in enumerate(zip(table.seats, whists, strict=True))
            )
    return tournament


def engine_standings(tournament: Tournament) -> ts.TournamentStandings:
    """The core's standings over the engine's settlements of every confirmed table, replayed
    from the deals here (not read from the result caches the page reads)."""
    rule = selectors.scoring_rule(tournament)
    scores = []
    rounds = Round.objects.filter(tournament=tournament, state=RoundState.CONFIRMED)
    for one in rounds.order_by("number"):
        for table in one.tables.select_related("pulka").order_by("number"):
            sheet = scoring_selectors.pulka_sheet(table.pulka)
            ids = dict(table.pulka.seats.values_list("player__name", "player_id"))
            whists = {ids[name]: sheet.result[name] for name in table.pulka.names}
            scores += ts.score_table(ts.TableResult(one.number, table.number, whists), rule)
    penalties = [
        ts.Penalty(p.player_id, p.round, p.amount, ts.Unit(p.unit), p.reason)
        for p in tournament.penalties.order_by("created_at", "pk")
    ]
    return ts.standings(
        scores,
        rule=rule,
        names=selectors.names(tournament),
        tie_breaks=selectors.tie_breaks(tournament),
        penalties=penalties,
        lot_seed=selectors.lot_seed(tournament),
    )


# --- reading the page -------------------------------------------------------------------------


class _Table(HTMLParser):
    """The header rows and the body rows (cell texts) of the table with the given id."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id
        self.headers: list[list[str]] = []
        self.rows: list[list[str]] = []
        self.players: list[int] = []
        self._inside = False
        self._part: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == self.table_id:
            self._inside = True
        elif self._inside and tag in {"thead", "tbody"}:
            self._part = tag
        elif self._part and tag == "tr":
            self._row = []
            if self._part == "tbody" and "data-player" in attrs:
                self.players.append(int(attrs["data-player"]))
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
            (self.headers if self._part == "thead" else self.rows).append(self._row)
            self._row = None
        elif tag == "table" and self._inside:
            self._inside = False
            self._part = None


def table_of(text: str, table_id: str = "players") -> _Table:
    parser = _Table(table_id)
    parser.feed(text)
    return parser


def url(tournament: Tournament, query: str = "") -> str:
    return f"/c/{tournament.club.slug}/tournaments/{tournament.pk}/standings/{query}"


def export_url(tournament: Tournament, fmt: str, query: str = "") -> str:
    return f"/c/{tournament.club.slug}/tournaments/{tournament.pk}/standings.{fmt}{query}"


def expected_rows(
    tournament: Tournament, table: ts.TournamentStandings, rounds: list[int]
) -> list[list[str]]:
    """The rows the page should show for these standings (caps rule, no stage, no lot)."""
    names = selectors.names(tournament)
    rows = []
    for line in table.lines:
        row = [str(line.place), names[line.player]]
        for number in rounds:
            one = line.rounds.get(number)
            if one is None:
                row += ["", "", ""]
                continue
            whists = score(one.whists) + (f" {FLAG}" if one.flagged else "")
            row += [whists, score(one.score), str(one.table)]
        taken = sum(Fraction(p.amount) for p in line.penalties)
        row += [score(-taken) if taken else "", score(line.score)]
        row += [
            score(line.adjusted),
            str(line.table_wins),
            score(line.best_round),
            score(line.opponents_total),
        ]
        rows.append(row)
    return rows


# --- who reads ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played_cup(module_rows, django_db_blocker) -> int:
    """Club A's cup, played once for the module (tests/conftest.py's module_rows)."""
    with django_db_blocker.unblock():
        return played(make_club_a(), floor=-30).pk


@pytest.fixture
def cup(played_cup, club_a) -> Tournament:
    return Tournament.objects.get(pk=played_cup)


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_clubs_standings_are_read_by_its_members_only(as_persona, cup, persona):
    response = as_persona(persona).get(url(cup))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        text = assert_full_page(response, "standings")
        assert "Standings: Autumn cup" in text
        assert len(table_of(text).rows) == 7


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_private_clubs_exports_need_membership(as_persona, cup, persona, fmt):
    response = as_persona(persona).get(export_url(cup, fmt))

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        assert response["Content-Disposition"].startswith("attachment")
        assert f"Autumn cup.{fmt}" in unquote(response["Content-Disposition"])


@pytest.mark.parametrize("page", ["page", "csv", "xlsx"])
def test_a_public_clubs_standings_are_read_by_anyone(client, public_club, page):
    tournament = bulk(public_club, 6, 1)

    response = client.get(url(tournament) if page == "page" else export_url(tournament, page))

    assert response.status_code == 200
    if page == "page":
        assert len(table_of(html(response)).rows) == 6


def test_another_clubs_tournament_is_not_found_through_this_club(as_persona, club_a, club_b):
    theirs = bulk(club_b, 6, 1)
    client = as_persona("owner")

    for path in (url(theirs), export_url(theirs, "csv")):
        crafted = path.replace(f"/c/{club_b.slug}/", f"/c/{club_a.slug}/")
        assert_not_found(client.get(crafted), theirs.name, "Player 000")
    assert_not_found(client.get(f"/c/{club_a.slug}/tournaments/999999/standings/"))


def test_an_unknown_export_format_is_not_found(as_persona, club_a):
    tournament = bulk(club_a, 6, 1)
    response = as_persona("player").get(export_url(tournament, "pdf"))

    assert_not_found(response, "Player 000")
    assert not response.has_header("Content-Disposition")


def test_htmx_gets_the_standings_alone(as_persona, cup):
    text = assert_fragment(as_persona("player").get(url(cup), headers=HTMX), "standings")

    assert 'id="players"' in text
    assert "tournament-rule" not in text  # the heading and the rule stay outside


# --- the numbers -----------------------------------------------------------------------------


def test_the_page_shows_the_cores_standings_over_the_engines_settlements(as_persona, cup):
    text = html(as_persona("player").get(url(cup)))
    shown = table_of(text)
    expected = engine_standings(cup)

    assert shown.headers[0] == [
        "Place",
        "Player",
        "Round 1",
        "Round 2",
        "Round 3",
        "Penalties",
        "Total",
        "Adjusted whists",
        "Table wins",
        "Best round",
        "Opponents' total",
    ]
    assert shown.headers[1] == ["Whists", "Capped", "Table"] * 3
    assert shown.rows == expected_rows(cup, expected, [1, 2, 3])
    assert shown.players == [line.player for line in expected.lines]
    assert expected.lines == selectors.standings(cup).lines  # the page's own source agrees
    assert "After round 3 of 3" in text


def test_the_rule_is_given_in_words_at_the_top(as_persona, cup):
    text = html(as_persona("player").get(url(cup)))

    for line in selectors.rule_words(cup):
        assert f"<li>{line}</li>".replace("'", "&#x27;") in text
    assert "A round counts the whists with caps: full up to 200" in text


def test_a_round_below_the_floor_is_flagged(as_persona, club_a):
    tournament = bulk(club_a, 4, 1, results={1: [120, 60, -80, -100]}, floor=-90)

    text = html(as_persona("player").get(url(tournament)))
    rows = {row[1]: row for row in table_of(text).rows}

    assert rows["Player 003"][2] == f"−100 {FLAG}"
    assert rows["Player 002"][2] == "−80"
    assert "A round below −90 whists, flagged for the judge." in text


def test_caps_adjust_a_big_round_exactly(as_persona, club_a):
    tournament = bulk(club_a, 4, 1, results={1: [700, 252, -252, -700]})

    text = html(as_persona("player").get(url(tournament)))
    rows = {row[1]: row for row in table_of(text).rows}

    # full up to 200, a tenth from 200 to 650, nothing beyond: 200 + 45 = 245; 200 + 5.2
    assert rows["Player 000"][2:4] == ["700", "245"]
    assert rows["Player 001"][2:4] == ["252", "205.20"]
    assert rows["Player 002"][2:4] == ["−252", "−205.20"]
    assert rows["Player 000"][6] == "245"  # the total
    assert '<span title="1026/5">205.20</span>' in text  # the exact value on hover


def test_after_round_k_shows_the_standings_then(as_persona, cup):
    client = as_persona("player")

    text = html(client.get(url(cup, "?after=1")))
    shown = table_of(text)

    assert "After round 1 of 3" in text
    assert shown.headers[0][2:4] == ["Round 1", "Penalties"]
    assert shown.rows == expected_rows(cup, selectors.standings(cup, through=1), [1])
    assert f'href="/c/sochi/tournaments/{cup.pk}/standings/?after=2"' in text
    assert f'href="/c/sochi/tournaments/{cup.pk}/standings.csv?after=1"' in text


@pytest.mark.parametrize("after", ["²", "0", "-1", "99", "1_0", "x", ""])
def test_an_after_that_is_no_round_shows_the_last_standings(as_persona, cup, after):
    text = html(as_persona("player").get(url(cup), {"after": after}))

    assert "After round 3 of 3" in text
    assert len(table_of(text).headers[1]) == 9


def test_a_tournament_before_its_first_round_says_so(as_persona, club_a):
    tournament = autumn_cup(club_a)

    text = html(as_persona("player").get(url(tournament)))

    assert text.count("No round is confirmed yet.") == 2  # the heading and the empty table
    assert table_of(text).players == []


def test_a_round_sat_out_shows_as_a_bye(as_persona, club_a):
    tournament = autumn_cup(club_a, names=SEVEN[:5], round_count=1, bye_score=5)
    play_round(tournament, deals=8, seed="cup")

    shown = table_of(html(as_persona("player").get(url(tournament))))
    (bye,) = [row for row in shown.rows if row[4] == "bye"]

    assert bye[2:4] == ["0", "5"]  # no whists played; the bye counts 5


# --- penalties ---------------------------------------------------------------------------------


def test_a_penalty_shows_with_its_reason_and_takes_from_the_total_at_once(as_persona, cup):
    client = as_persona("player")
    anna = Player.objects.get(club=cup.club, name="Anna")
    before = {row[1]: row for row in table_of(html(client.get(url(cup)))).rows}

    services.penalty_add(
        tournament=cup,
        player_id=anna.pk,
        round_number=2,
        amount=25,
        unit=PenaltyUnit.WHISTS,
        reason="Late for the round",
        by=None,
    )
    text = html(client.get(url(cup)))
    after = {row[1]: row for row in table_of(text).rows}

    column = 11  # place, player, 3 x 3 round columns, then the penalties
    assert before["Anna"][column] == ""
    assert after["Anna"][column] == "−25"
    total = Fraction(before["Anna"][12].replace("−", "-")) - 25
    assert after["Anna"][12] == score(total)
    assert "Anna, round 2 — whists taken away: 25." in text
    assert "Late for the round" in text
    assert table_of(text).rows == expected_rows(cup, engine_standings(cup), [1, 2, 3])


def test_penalties_before_round_k_only_count_after_round_k(as_persona, club_a):
    tournament = bulk(club_a, 4, 2)
    player = Entry.objects.filter(tournament=tournament).first().player_id
    for number in (1, 2):
        services.penalty_add(
            tournament=tournament,
            player_id=player,
            round_number=number,
            amount=10 * number,
            unit=PenaltyUnit.WHISTS,
            reason=f"Round {number}",
            by=None,
        )

    text = html(as_persona("player").get(url(tournament, "?after=1")))
    row = next(r for r in table_of(text).rows if r[1] == "Player 000")

    assert row[5] == "−10"
    assert "whists taken away: 20" not in text


# --- the final, teams, the lot -------------------------------------------------------------


def test_finalists_come_first_marked_with_their_stage(as_persona, club_a):
    tournament = played(club_a, rounds=2, stage_after=1, stage_top=4)
    client = as_persona("player")

    text = html(client.get(url(tournament)))
    shown = table_of(text)
    expected = selectors.standings(tournament)

    assert shown.headers[0][:3] == ["Place", "Player", "Stage"]
    assert [row[2] for row in shown.rows] == ["Final"] * 4 + [""] * 3
    assert shown.players == [line.player for line in expected.lines]
    assert [line.finalist for line in expected.lines] == [True] * 4 + [False] * 3
    final = [row for row in shown.rows if row[2] == "Final"]
    assert all(row[7] for row in final)  # the finalists played round 2 (its table number)
    assert not any(row[7] for row in shown.rows if row[2] != "Final")
    assert 'id="stage-note"' in text


def test_before_its_final_a_staged_tournament_ranks_everyone_plainly(club_a):
    tournament = bulk(
        club_a, 8, 1, round_count=3, stage_after=2, stage_top=4, stage_keep_totals=False
    )

    lines = selectors.standings(tournament).lines

    assert [line.place for line in lines] == list(range(1, 9))
    assert {line.finalist for line in lines} == {None}
    assert StandingsPage(tournament).stage is None


def test_team_standings_follow_below_the_players(as_persona, club_a):
    tournament = autumn_cup(club_a, names=[], round_count=2, team_best=2)
    for team, names in (
        ("Aces", ["Anna", "Boris", "Vera"]),
        ("Kings", ["Gleb", "Dana", "Egor"]),
        ("Queens", ["Zoya", "Ivan", "Oleg"]),
    ):
        services.entries_add(tournament=tournament, names=names, team=team)
    for _ in range(2):
        play_round(tournament, deals=8, seed="cup")

    text = html(as_persona("player").get(url(tournament)))
    shown = table_of(text, "teams")
    lines = selectors.team_lines(tournament, selectors.results(tournament))

    assert shown.headers == [
        ["Place", "Team", "Players", "Round 1", "Round 2", "Total", "Best round"]
    ]
    assert shown.rows == [
        [
            str(line.place),
            line.team,
            {
                "Aces": "Anna, Boris, Vera",
                "Kings": "Dana, Egor, Gleb",
                "Queens": "Ivan, Oleg, Zoya",
            }[line.team],
            score(line.rounds[1]),
            score(line.rounds[2]),
            score(line.total),
            score(line.best_round),
        ]
        for line in lines
    ]
    assert "A team&#x27;s round counts its best 2 players." in text


def test_a_tournament_without_teams_has_no_team_table(as_persona, cup):
    text = html(as_persona("player").get(url(cup)))

    assert 'id="teams"' not in text


def test_the_lot_column_shows_only_when_the_lot_decided(as_persona, club_a):
    tied = {1: [30, 30, -30, -30]}  # equal on the total and on every tie-break, two by two
    drawn = bulk(club_a, 4, 1, results=tied)
    shared = bulk(club_a, 4, 1, results=tied, lot=False)
    client = as_persona("player")

    drawn_text = html(client.get(url(drawn)))
    drawn_table = table_of(drawn_text)
    shared_table = table_of(html(client.get(url(shared))))

    lines = selectors.standings(drawn).lines
    assert drawn_table.headers[0][-1] == "Lot"
    assert [row[0] for row in drawn_table.rows] == ["1", "2", "3", "4"]
    assert [row[-1] for row in drawn_table.rows] == [str(line.lot) for line in lines]
    assert 'id="lot-note"' in drawn_text
    assert "Lot" not in shared_table.headers[0]
    assert [row[0] for row in shared_table.rows] == ["1", "1", "3", "3"]


def test_no_lot_column_when_no_tie_is_left_to_the_lot(as_persona, club_a):
    tournament = bulk(club_a, 4, 1, results={1: [40, 30, -30, -40]})

    text = html(as_persona("player").get(url(tournament)))

    assert "Lot" not in table_of(text).headers[0]
    assert 'id="lot-note"' not in text


def test_the_tie_breaks_are_columns_in_the_tournaments_order(as_persona, club_a):
    tournament = bulk(club_a, 4, 1, tie_breaks=["opponents_total", "table_wins"])

    header = table_of(html(as_persona("player").get(url(tournament)))).headers[0]

    assert header[-2:] == ["Opponents' total", "Table wins"]


# --- the page follows every change --------------------------------------------------------


def test_a_renamed_player_shows_at_once(as_persona, cup):
    client = as_persona("player")
    client.get(url(cup))  # the page's HTML is cached now
    anna = Player.objects.get(club=cup.club, name="Anna")

    player_update(player=anna, name="Anna K.", user=None, is_active=True)

    names = [row[1] for row in table_of(html(client.get(url(cup)))).rows]
    assert "Anna K." in names
    assert "Anna" not in names


def test_a_correction_of_a_confirmed_round_recomputes_and_says_so(as_persona, cup):
    client = as_persona("player")
    assert 'id="corrected"' not in html(client.get(url(cup)))
    table = RoundTable.objects.filter(round__tournament=cup, round__number=2).first()
    pulka = table.pulka
    names = list(pulka.names)
    deal = pulka.deals.get(number=1)
    for seed in range(50):  # a deal that the later deals still fit after
        data, _ = next_valid_deal(
            random.Random(seed), pulka.engine_rules(), names, names[pulka.first_dealer], []
        )
        try:
            scoring_services.deal_update(
                pulka=pulka,
                number=1,
                data=data,
                expected_version=deal.version,
                changed_by=None,
                reason="The judge corrected a misread sheet.",
            )
        except ScoringError:
            continue
        if pulka.deals.get(number=1).version > deal.version:
            break
    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED

    text = html(client.get(url(cup)))

    assert 'id="corrected"' in text
    assert "A deal of round 2 was corrected after the round was confirmed" in text
    assert table_of(text).rows == expected_rows(cup, engine_standings(cup), [1, 2, 3])


def test_a_new_confirmed_round_shows_at_once(as_persona, club_a):
    tournament = autumn_cup(club_a, round_count=2)
    play_round(tournament, deals=8, seed="cup")
    client = as_persona("player")
    assert "After round 1 of 2" in html(client.get(url(tournament)))

    play_round(tournament, deals=8, seed="cup")

    assert "After round 2 of 2" in html(client.get(url(tournament)))


# --- exports ---------------------------------------------------------------------------------


def test_the_csv_has_the_rows_of_the_page_with_numbers_to_two_decimals(as_persona, cup):
    client = as_persona("player")
    response = client.get(export_url(cup, "csv"))
    content = response.content.decode()

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert content.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(content.lstrip("\ufeff"))))
    header, body = rows[0], rows[1:]
    assert header[:5] == ["Place", "Player", "Round 1: Whists", "Round 1: Capped", "Round 1: Table"]
    assert header[-6:] == [
        "Penalties",
        "Total",
        "Adjusted whists",
        "Table wins",
        "Best round",
        "Opponents' total",
    ]
    lines = engine_standings(cup).lines
    names = selectors.names(cup)
    assert [row[1] for row in body] == [names[line.player] for line in lines]
    for row, line in zip(body, lines, strict=True):
        assert row[0] == str(line.place)
        assert row[header.index("Total")] == str(export_number(line.score))
        assert row[header.index("Round 2: Whists")] == str(export_number(line.rounds[2].whists))


def test_the_xlsx_keeps_numbers_as_numbers_and_names_as_text(as_persona, club_a):
    tournament = bulk(club_a, 4, 1, results={1: [101, 50, -51, -100]})
    Player.objects.filter(name="Player 000").update(name="=HYPERLINK(1)")

    response = as_persona("player").get(export_url(tournament, "xlsx"))

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("Place", "Player", "Round 1: Whists")
    assert rows[1][:4] == (1, "'=HYPERLINK(1)", 101, 101)
    assert rows[4][:4] == (4, "Player 003", -100, -100)


def test_the_xlsx_of_a_tournament_with_teams_has_the_teams_on_a_second_sheet(as_persona, club_a):
    tournament = bulk(club_a, 6, 1, team_best=2)
    players = Entry.objects.filter(tournament=tournament).order_by("pk")
    for index, entry in enumerate(players):
        services.entry_update(entry=entry, team="Aces" if index % 2 else "Kings")

    response = as_persona("player").get(export_url(tournament, "xlsx"))

    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Standings", "Teams"]
    teams = list(book["Teams"].iter_rows(values_only=True))
    assert teams[0] == ("Place", "Team", "Players", "Round 1", "Total", "Best round")
    assert {row[1] for row in teams[1:]} == {"Aces", "Kings"}


def test_the_export_after_round_k_is_named_so(as_persona, cup):
    response = as_persona("player").get(export_url(cup, "csv", "?after=2"))

    assert "Autumn cup after round 2.csv" in unquote(response["Content-Disposition"])
    header = next(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    assert "Round 3: Whists" not in header
    assert "Round 2: Whists" in header


# --- queries ---------------------------------------------------------------------------------


def test_the_queries_are_the_same_for_16_and_300_players(client, django_assert_num_queries):
    small = bulk(make_club(slug="small", is_public=False), 16, 4)
    large = bulk(make_club(slug="large", is_public=False), 300, 9, seed=2)
    user = make_member(small.club, Role.PLAYER).user
    make_member(large.club, Role.PLAYER, user=user)
    client.force_login(user)

    counts = {}
    for attempt in ("first", "again", "htmx", "export"):
        path = export_url(small, "csv") if attempt == "export" else url(small)
        headers = HTMX if attempt == "htmx" else {}
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path, headers=headers).status_code == 200
        counts[attempt] = len(captured)
    for attempt in ("first", "again", "htmx", "export"):
        path = export_url(large, "csv") if attempt == "export" else url(large)
        headers = HTMX if attempt == "htmx" else {}
        with django_assert_num_queries(counts[attempt]):
            response = client.get(path, headers=headers)
        if attempt == "first":
            assert len(table_of(html(response)).rows) == 300

    assert counts["again"] < counts["first"]  # the standings computed once, then cached


def test_place_points_show_for_each_round_and_point_penalties_apart(as_persona, club_a):
    tournament = bulk(
        club_a, 4, 2, results={1: [40, 10, -10, -40], 2: [-40, 10, -10, 40]}, scoring="places"
    )
    first = Entry.objects.filter(tournament=tournament).order_by("pk").first().player_id
    services.penalty_add(
        tournament=tournament,
        player_id=first,
        round_number=2,
        amount=1,
        unit=PenaltyUnit.POINTS,
        reason="Phone at the table",
        by=None,
    )

    text = html(as_persona("player").get(url(tournament)))
    shown = table_of(text)
    rows = {row[1]: row for row in shown.rows}

    assert shown.headers[1] == ["Whists", "Points", "Table"] * 2
    assert shown.headers[0][4:7] == ["Penalty points", "Penalty whists", "Total"]
    # 4/2/1/0 at a table of 4: Player 000 first then last, a point taken away.
    assert rows["Player 000"][2:8] == ["40", "4", "1", "−40", "0", "1"]
    assert rows["Player 000"][8:11] == ["−1", "", "3"]
    assert rows["Player 001"][10] == "4"
    assert "Phone at the table" in text
    assert "points taken away: 1." in text
