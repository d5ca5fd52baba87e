"""Issue #13's done-when, in Chromium: an organiser plays a whole small tournament.

The club's owner opens a cup through the form (3 rounds, Swiss after round 1, at most 6
deals a table, and the caps preset "full up to 50, x0.5 from 50 to 100, x0.1 above 100",
which the small pools of a short round reach), enters 10 players (tables of 3, 3 and 4),
and plays each round as on the day: draw, look at the draft (tables, seed), publish,
start, record deals, end the tables still running on time, confirm. One deal a round is
entered on the ordinary pulka entry page at a table of 3; the rest are random valid deals
recorded in the test process (scoring.services.deal_record, seeded). The cup's seed is
fixed, so every run draws the same seatings and plays the same deals.

The standings page must show what the engine and the tournament's rule give when the test
computes them itself: each table's pulka replayed (scoring.engine.compute_sheet), its
settlement adjusted by the caps (competition.lib.tournament_scoring). The printouts (the
seating, the table protocols, the final standings) are downloaded from their links and
read back with pypdf: names, tables, seats and numbers. Bad input on the way: publishing a
draft that seats a withdrawn player, confirming with a table still running.
"""

from __future__ import annotations

import io
import random
import re
import time
from fractions import Fraction
from pathlib import Path

import pypdf
import pytest
from django.db import OperationalError
from playwright.sync_api import Page, expect

from club.models import Role
from competition.demo import next_valid_deal
from competition.lib import seating
from competition.lib import tournament_scoring as ts
from competition.models import Entry, Round, RoundState, Tournament
from competition.tournament import selectors as tournament_selectors
from scoring import engine
from scoring.models import Pulka, PulkaStatus
from scoring.selectors import engine_deals
from scoring.services import deal_record
from tests.conftest import PASSWORD, make_club, make_member

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = (
    "Анна Коваль",
    "Борис Ткаченко",
    "Віра Мельник",
    "Gleb Orlov",
    "Dana Kim",
    "Yurii Bondar",
    "Зоя Лисенко",
    "Ivan Petrenko",
    "Kira Savchuk",
    "Lev Moroz",
)
DEAL_CAP = 6
ROUNDS = 3
SEED = 20240406  # the cup's seed: every round's seating follows from it
REFRESHING = {"kind", "declarer", "level", "dealer"}


# --- the browser's moves ---------------------------------------------------------------------


def _login(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(base + "/")


def _choose(page: Page, name: str, value: str) -> None:
    radio = page.locator(f"#deal-form input[name='{name}'][value='{value}']")
    if radio.is_checked():
        return
    if name in REFRESHING or name.startswith("call_"):
        with page.expect_response(re.compile(r"/deal-form/")):
            radio.check()
        page.wait_for_timeout(60)  # htmx settles the swap
    else:
        radio.check()


def _enter_a_made_six(page: Page) -> None:
    """On the pulka entry page of a fresh table of 3: seat 1 declares a six and makes it,
    seat 2 whists alone (3 tricks), seat 0 passes."""
    _choose(page, "declarer", "1")
    _choose(page, "call_2", "whist")
    _choose(page, "call_0", "pass")
    page.locator("#deal-form input[name='tricks_1']").fill("6")
    last = page.locator("#deal-form input[name='tricks_2']")
    last.fill("3")
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        last.press("Enter")
    expect(page.locator("#deal-log li.deal")).to_have_count(1)


def _round_action(page: Page, button, outcome: str) -> None:
    button.click()
    expect(page.locator("#round-outcome")).to_contain_text(outcome)


# --- the test process's deals ----------------------------------------------------------------


def _unlocked(write, tries: int = 20, **kwargs) -> None:
    """Write in the test process. The live server's SQLite (in memory, shared cache) does
    not wait for a table lock: a poll the browser sent just before it left the page may
    still be read there. The write is one transaction: tried again, it is done once."""
    for attempt in range(tries):
        try:
            write(**kwargs)
            return
        except OperationalError as exc:
            if "locked" not in str(exc) or attempt == tries - 1:
                raise
            time.sleep(0.05)


def _play_random(pulka: Pulka, rng: random.Random, deals: int | None) -> None:
    """Record up to `deals` random valid deals (None: until the table ends by itself)."""
    names = pulka.names
    played = engine_deals(pulka, names)
    count = 0
    while deals is None or count < deals:
        pulka.refresh_from_db()
        if pulka.status != PulkaStatus.RUNNING:
            return
        data, _sheet = next_valid_deal(
            rng, pulka.engine_rules(), names, names[pulka.first_dealer], played
        )
        _unlocked(deal_record, pulka=pulka, data=data, entered_by=None)
        played.append(engine.deal_from_dict(data, len(played) + 1))
        count += 1


# --- what the page must show, computed here ----------------------------------------------------


def _expected(tournament: Tournament) -> ts.TournamentStandings:
    """Each table's pulka replayed by the engine, its settlement adjusted by the cup's caps."""
    rule = ts.ScoringRule(ts.Method.CAPS, caps=ts.CAPS_50_100)
    scores: list[ts.RoundScore] = []
    for round in Round.objects.filter(tournament=tournament).order_by("number"):
        assert round.state == RoundState.CONFIRMED
        for table in round.tables.select_related("pulka").order_by("number"):
            pulka = table.pulka
            names = pulka.names
            sheet = engine.compute_sheet(
                pulka.engine_rules(),
                names,
                engine_deals(pulka, names),
                first_dealer=names[pulka.first_dealer],
            )
            ids = dict(pulka.seats.values_list("player__name", "player_id"))
            whists = {ids[name]: sheet.result[name] for name in names}
            scores += ts.score_table(ts.TableResult(round.number, table.number, whists), rule)
    entries = Entry.objects.filter(tournament=tournament)
    names = dict(entries.values_list("player_id", "player__name"))
    return ts.standings(
        scores,
        rule=rule,
        names=names,
        tie_breaks=ts.DEFAULT_TIE_BREAKS,
        lot_seed=tournament_selectors.lot_seed(tournament),
    )


def _printed(value: Fraction) -> str:
    """A number as the printouts write it in English: 12, −3, 56.67."""
    sign = "\u2212" if value < 0 else ""
    if value.denominator == 1:
        return f"{sign}{abs(value.numerator)}"
    return f"{sign}{abs(float(value)):.2f}"


def _download(page: Page, link_text: str) -> list[str]:
    """Click a printout's link on the page (a download in the owner's session); the text of
    each of the PDF's pages, whitespace tidied."""
    with page.expect_download() as info:
        page.locator("#print-links a", has_text=link_text).click()
    download = info.value
    assert download.suggested_filename.endswith(".pdf")
    content = Path(download.path()).read_bytes()
    assert content.startswith(b"%PDF-")
    return [
        "\n".join(" ".join(line.split()) for line in one.extract_text().splitlines())
        for one in pypdf.PdfReader(io.BytesIO(content)).pages
    ]


def _number(text: str) -> Fraction | None:
    """A cell's exact number: 12, −3, or the 1009/5 on hover of a 201.80 (empty: None)."""
    text = text.strip().replace("\u2212", "-")
    return Fraction(text) if text else None


# Each cell's exact value: its title where the figure is rounded (201.80 on 1009/5), else its text.
EXACT_CELLS = "tds => tds.map(td => td.querySelector('[title]')?.title ?? td.innerText)"


# --- the test ----------------------------------------------------------------------------------


def test_an_organiser_plays_a_whole_small_tournament(live_server, page, artifacts, monkeypatch):
    monkeypatch.setattr(seating, "new_seed", lambda: SEED)  # the same seatings on every run
    club = make_club(name="Сочинка", slug="sochi", is_public=False, pool_target=6)
    owner = make_member(club, Role.OWNER, username="olena").user
    base = live_server.url
    _login(page, base, owner.username)

    # The cup, through the form.
    page.goto(f"{base}/c/{club.slug}/tournaments/new/")
    page.fill("#tournament-form input[name=name]", "Кубок клубу")
    page.fill("#tournament-form input[name=round_count]", str(ROUNDS))
    page.fill("#tournament-form input[name=deal_cap]", str(DEAL_CAP))
    page.select_option("#tournament-form select[name=seating]", "swiss")
    page.select_option("#tournament-form select[name=scoring]", "caps")
    page.select_option("#tournament-form select[name=caps_preset]", "50-100")
    page.check("#tournament-form input[name=caps_mirror]")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(re.compile(r"/tournaments/\d+/entries/$"))
    tournament = Tournament.objects.get(club=club)
    assert (tournament.round_count, tournament.deal_cap, tournament.scoring) == (3, 6, "caps")

    # Ten players, one a line.
    page.fill("#entries-form textarea[name=names]", "\n".join(PLAYERS))
    page.click("#entries-form button[type=submit]")
    expect(page.locator("#entries-outcome")).to_have_text("10 players entered.")
    expect(page.locator("#entries tbody tr")).to_have_count(10)
    player_ids = dict(
        Entry.objects.filter(tournament=tournament).values_list("player__name", "player_id")
    )

    rng = random.Random(13)
    for number in range(1, ROUNDS + 1):
        page.goto(base + tournament.get_absolute_url())
        page.click("#draw-round")
        page.wait_for_url(re.compile(rf"/rounds/{number}/$"))
        round = Round.objects.get(tournament=tournament, number=number)
        if number > 1:
            assert round.method == "swiss"

        # The draft: the tables (3, 3 and 4 players), the seed.
        expect(page.locator("#round-state")).to_have_text("draft")
        expect(page.locator("#round")).to_contain_text(f"seed {round.seed}")
        expect(page.locator("#draft-ok")).to_be_visible()
        sizes = sorted(page.locator(f"#draft-table-{n} .seat-list li").count() for n in (1, 2, 3))
        assert sizes == [3, 3, 4]
        seated = {
            name.removesuffix("deals first").strip()
            for name in page.locator("#draft .seat-list li").all_inner_texts()
        }
        assert seated == set(PLAYERS)

        if number == 2:
            _publish_refused_with_a_withdrawn_player(page, base, tournament, round)

        _round_action(page, page.locator("#publish-round"), f"Round {number} is published")
        expect(page.locator("#round-state")).to_have_text("published")
        _round_action(page, page.locator("#start-round"), f"Round {number} has started")
        expect(page.locator("#round-state")).to_have_text("playing")

        # One deal on the ordinary entry page, at a table of 3.
        tables = list(round.tables.select_related("pulka").order_by("number"))
        three = next(t for t in tables if t.pulka.seats.count() == 3)
        round_url = page.url
        page.locator(f"#round-table-{three.number} a", has_text="Enter deals").click()
        page.wait_for_url(re.compile(r"/p/\d+/$"))
        _enter_a_made_six(page)
        assert three.pulka.deals.count() == 1

        # The rest in the test process: one table plays to its cap (or closes), the others
        # a deal or two more and are then ended on time. The browser waits on a blank page
        # meanwhile: the live server's SQLite (in memory, shared) refuses a read while this
        # thread writes ("database table is locked"), and the entry page polls (a poll
        # still read there when the page went is what _unlocked waits out).
        page.wait_for_load_state("networkidle")
        page.goto("about:blank")
        others = [t for t in tables if t != three]
        _play_random(three.pulka, rng, 1)
        _play_random(others[0].pulka, rng, None)
        _play_random(others[1].pulka, rng, 2)

        page.goto(round_url)
        running = tournament_selectors.running_tables(round)
        assert running, "a table is left to end on time"
        if number == 1:
            listed = ", ".join(map(str, running))
            _round_action(page, page.locator("#confirm-round"), f"Tables still running: {listed}")
            round.refresh_from_db()
            assert round.state == RoundState.PLAYING
            expect(page.locator("#round-state")).to_have_text("playing")
        for table in running:
            _round_action(
                page,
                page.get_by_role("button", name=f"End table {table} on time"),
                f"Table {table} is ended.",
            )
        assert tournament_selectors.running_tables(round) == []
        _round_action(page, page.locator("#confirm-round"), f"Round {number} is confirmed")
        expect(page.locator("#round-state")).to_have_text("confirmed")

    tournament.refresh_from_db()
    assert tournament.finished_at is not None

    # The standings page against the engine and the rule, computed here.
    expected = _expected(tournament)
    page.goto(f"{base}/c/{club.slug}/tournaments/{tournament.pk}/standings/")
    expect(page.locator("#after-round")).to_have_text(f"After round {ROUNDS} of {ROUNDS}")
    page.screenshot(path=str(artifacts / "tournament-standings.png"), full_page=True)
    header = page.locator("#players thead tr").last.locator("th").all_inner_texts()
    assert header[: 3 * ROUNDS] == ["Whists", "Capped", "Table"] * ROUNDS
    rows = page.locator("#players tbody tr")
    assert rows.evaluate_all("rows => rows.map(r => +r.dataset.player)") == [
        line.player for line in expected.lines
    ]
    names = {pid: name for name, pid in player_ids.items()}
    for line, row in zip(expected.lines, rows.all(), strict=True):
        cells = row.locator("td").evaluate_all(EXACT_CELLS)
        place, name, *rounds = cells[: 2 + 3 * ROUNDS]
        penalties, total, adjusted, wins, best, opponents = cells[
            2 + 3 * ROUNDS : 2 + 3 * ROUNDS + 6
        ]
        assert (int(place), name) == (line.place, names[line.player])
        for number in range(1, ROUNDS + 1):
            one = line.rounds[number]
            whists, capped, table = rounds[3 * (number - 1) : 3 * number]
            assert (_number(whists), _number(capped), int(table)) == (
                one.whists,
                one.score,
                one.table,
            )
        assert penalties == ""
        assert _number(total) == line.score == sum(s.score for s in line.rounds.values())
        assert _number(adjusted) == line.adjusted
        assert int(wins) == line.table_wins
        assert _number(best) == line.best_round
        assert _number(opponents) == line.opponents_total
    assert sum(line.whists for line in expected.lines) == 0  # every settlement sums to 0
    assert any(s.score != s.whists for line in expected.lines for s in line.rounds.values())

    _check_printouts(page, base, tournament, expected, names)


def _publish_refused_with_a_withdrawn_player(
    page: Page, base: str, tournament: Tournament, round: Round
) -> None:
    """The owner withdraws a player the draft seats: publishing names him and publishes
    nothing; back in the tournament, the same draft goes out."""
    round_url = page.url
    name = PLAYERS[3]
    entry = Entry.objects.get(tournament=tournament, player__name=name)
    page.goto(base + f"/c/{tournament.club.slug}/tournaments/{tournament.pk}/entries/")
    page.get_by_role("button", name=f"Withdraw {name}").click()
    expect(page.locator("#entries-outcome")).to_have_text(f"{name} is withdrawn.")

    page.goto(round_url)
    expect(page.locator("#draft-problems")).to_contain_text(name)
    table = next(t["number"] for t in round.seating["tables"] if entry.player_id in t["seats"])
    page.locator("#publish-round").click()
    outcome = page.locator("#round-outcome")
    expect(outcome).to_have_text(
        f"{name} has withdrawn but sits at table {table}. "
        "9 players sit at tables of 3 + 3 + 3, not 4 + 3 + 3."
    )
    assert "error" in outcome.get_attribute("class")
    round.refresh_from_db()
    assert round.state == RoundState.DRAFT
    assert round.evening_id is None
    assert not round.tables.exists()
    expect(page.locator("#round-state")).to_have_text("draft")

    page.goto(base + f"/c/{tournament.club.slug}/tournaments/{tournament.pk}/entries/")
    page.get_by_role("button", name=f"Restore {name}").click()
    expect(page.locator("#entries-outcome")).to_have_text(f"{name} plays again from round 2.")
    entry.refresh_from_db()
    assert entry.is_active
    page.goto(round_url)
    expect(page.locator("#draft-ok")).to_be_visible()


def _check_printouts(
    page: Page,
    base: str,
    tournament: Tournament,
    expected: ts.TournamentStandings,
    names: dict[int, str],
) -> None:
    """The three kinds of PDF, downloaded from their links: the last round's seating and
    table protocols on the round page, the final standings on the tournament's home."""
    last = Round.objects.get(tournament=tournament, number=ROUNDS)
    tables = last.seating["tables"]
    page.goto(base + last.get_absolute_url())

    text = "\n".join(_download(page, "Seating for the notice board"))
    assert f"Round {ROUNDS}: seating" in text
    assert f"Seed of the seating: {last.seed}" in text
    for table in tables:
        assert f"Table {table['number']}" in text
        for position, player in enumerate(table["seats"], start=1):
            dealer = " ★" if player == table["first_dealer"] else ""
            assert f"\n{position} {names[player]}{dealer}\n" in text  # the table's card
            # ... and the list A to Z: the name, then the table and seat.
            assert re.search(
                rf"{re.escape(names[player])} {table['number']} · {position}(\s|$)", text
            ), names[player]

    protocols = _download(page, "Table protocols")
    assert len(protocols) == len(tables)  # a page a table
    for table, text in zip(tables, protocols, strict=True):
        assert f"Round {ROUNDS} · Table {table['number']}" in text
        assert f"Seed of the seating: {last.seed}" in text
        assert f"at most {DEAL_CAP} deals" in text
        for position, player in enumerate(table["seats"], start=1):
            dealer = " ★ deals first" if player == table["first_dealer"] else ""
            assert f"\n{position} {names[player]}{dealer}\n" in text  # seat order, dealer
            assert f"\n{position}. {names[player]}\n" in text  # his line of the result boxes
        others = set(names.values()) - {names[p] for p in table["seats"]}
        assert not any(name in text for name in others)

    page.goto(base + tournament.get_absolute_url())
    text = "\n".join(_download(page, "Standings (PDF)"))
    assert "Final standings" in text
    assert "A round counts the whists with caps: full up to 50" in text
    rows = [line for line in text.splitlines() if re.match(r"\d+ \D", line)]
    assert rows == [
        " ".join(
            [
                str(line.place),
                names[line.player],
                *(_printed(line.rounds[n].score) for n in range(1, ROUNDS + 1)),
                _printed(line.score),
                _printed(line.adjusted),
                str(line.table_wins),
                _printed(line.best_round),
                _printed(line.opponents_total),
                str(line.lot),
            ]
        )
        for line in expected.lines
    ]
