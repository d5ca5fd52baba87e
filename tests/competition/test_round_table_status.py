"""A published round's tables as the organiser watches them (deals entered, awaiting
confirmation, disputed, silent tables), the confirmation refused while a deal is unchecked,
and the tables' links: opened on publishing, shown as QR codes on the protocols, the seating,
the round page and find-your-table, and renewed by the organiser."""

from __future__ import annotations

import datetime
import io
import shutil
import subprocess

import pdfplumber
import pypdfium2
import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import Round, RoundState
from competition.tournament import pages, printouts, services
from competition.tournament.services import TournamentServiceError
from scoring.models import Deal, DealCheck, Pulka, PulkaStatus
from tests.club.factories import MANAGE, assert_fragment, html
from tests.competition.factories import (
    RULES,
    end_all,
    make_tournament,
    names_for,
    play_table,
    published,
)
from tests.conftest import HTMX, PERSONAS

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 5, 9, 10, 0, tzinfo=datetime.UTC)
MINUTE = datetime.timedelta(minutes=1)


def at(minutes: float):
    return time_machine.travel(START + minutes * MINUTE, tick=False)


def pulkas(round: Round) -> list[Pulka]:
    return list(Pulka.objects.filter(tournament_table__round=round).order_by("table"))


def url(round: Round, action: str | None = None) -> str:
    name = "competition:round-detail" if action is None else f"competition:round-{action}"
    return reverse(name, args=[round.tournament.club.slug, round.tournament_id, round.number])


def mark(pulka: Pulka, number: int, check: str, reason: str = "") -> None:
    """A deal as a table's own entry leaves it (the table pages are scoring's)."""
    Deal.objects.filter(pulka=pulka, number=number).update(
        confirmation=check, entered_seat=0, dispute_reason=reason
    )


@pytest.fixture
def round(club_a) -> Round:
    with at(0):
        return services.round_start(round=published(make_tournament(club_a, rules=RULES)))


# --- the links ------------------------------------------------------------------------------


def test_publishing_gives_every_table_its_own_link(round):
    tokens = [p.table_token for p in pulkas(round)]

    assert all(token and len(token) >= 32 for token in tokens)
    assert len(set(tokens)) == 3
    assert round.evening.self_entry


def test_renewing_a_link_kills_the_old_one(round):
    first = pulkas(round)[0]
    old = first.table_token

    new = services.round_table_link_renew(round=round, number=1)

    assert new != old
    assert pulkas(round)[0].table_token == new
    assert not Pulka.objects.filter(table_token=old).exists()
    assert [p.table_token for p in pulkas(round)[1:]] == [p.table_token for p in pulkas(round)[1:]]


def test_an_ended_tables_link_is_not_renewed(round):
    services.table_end(round=round, number=2, by=None)
    before = pulkas(round)[1].table_token

    with pytest.raises(TournamentServiceError, match="Table 2 has ended"):
        services.round_table_link_renew(round=round, number=2)

    assert pulkas(round)[1].table_token == before


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_renews_a_link(as_persona, round, persona):
    before = [p.table_token for p in pulkas(round)]

    response = as_persona(persona).post(url(round, "link-renew"), {"table": "1"})

    assert response.status_code == (302 if persona == "owner" else MANAGE[persona])
    after = [p.table_token for p in pulkas(round)]
    assert (after[0] != before[0]) == (persona == "owner")
    assert after[1:] == before[1:]


def test_the_owner_renews_with_htmx_and_sees_the_new_link(client, owner, round):
    client.force_login(owner)
    old = pulkas(round)[0].table_token

    response = client.post(url(round, "link-renew"), {"table": "1"}, headers=HTMX)

    text = assert_fragment(response, "round")
    assert "Table 1 has a new link" in text
    assert old not in text
    assert f"/t/{pulkas(round)[0].table_token}/" in text


@pytest.mark.parametrize("table", ["", "x", "9", "-1"])
def test_a_renewal_naming_no_table_of_the_round_is_refused(client, owner, round, table):
    client.force_login(owner)
    before = [p.table_token for p in pulkas(round)]

    text = html(client.post(url(round, "link-renew"), {"table": table}, headers=HTMX))

    assert 'class="message error"' in text
    assert [p.table_token for p in pulkas(round)] == before


def test_the_round_page_shows_each_running_tables_link_and_qr_to_the_organisers(as_persona, round):
    services.table_end(round=round, number=3, by=None)
    first, second, third = pulkas(round)

    owner = html(as_persona("owner").get(url(round)))
    assert f"http://testserver/t/{first.table_token}/" in owner
    assert f"/t/{second.table_token}/" in owner
    assert f"/t/{third.table_token}/" not in owner  # ended: its link is dead
    assert owner.count('class="qr"') == 2
    assert 'id="table-link-1"' in owner
    assert "New link for table 1" in owner

    secretary = html(as_persona("secretary").get(url(round)))
    assert f"/t/{first.table_token}/" in secretary
    assert "New link for table" not in secretary

    player = html(as_persona("player").get(url(round)))
    assert first.table_token not in player
    assert 'id="round-status"' not in player


# --- the printouts ----------------------------------------------------------------------------


def pdf_text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return "".join(page.extract_text() or "" for page in document.pages).replace("\n", "")


def qr_codes(pdf: bytes) -> list[str]:
    """The QR codes zbarimg reads on the PDF's pages, rendered at 144 dpi."""
    found = []
    for page in pypdfium2.PdfDocument(pdf):
        buffer = io.BytesIO()
        page.render(scale=2).to_pil().save(buffer, format="PNG")
        done = subprocess.run(
            ["zbarimg", "--quiet", "--raw", "-"],
            input=buffer.getvalue(),
            capture_output=True,
            check=False,
        )
        found += done.stdout.decode().split()
    return found


def test_a_tables_protocol_prints_its_link_under_its_qr_code(round):
    token = pulkas(round)[1].table_token

    pdf = printouts.protocols_pdf(round, 2)

    assert f"https://testserver/t/{token}/" in pdf_text(pdf)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is missing")
def test_the_qr_codes_of_the_protocols_and_the_seating_read_as_the_tables_links(round):
    links = [f"https://testserver/t/{p.table_token}/" for p in pulkas(round)]

    assert qr_codes(printouts.protocols_pdf(round)) == links
    assert sorted(qr_codes(printouts.seating_pdf(round))) == sorted(links)


def test_a_draft_and_an_ended_table_print_no_link(club_a):
    cup = make_tournament(club_a, rules=RULES)
    draft = services.round_draft(tournament=cup)
    assert "/t/" not in pdf_text(printouts.seating_pdf(draft))

    round = services.round_publish(round=draft, by=None)
    services.table_end(round=round, number=1, by=None)
    assert "/t/" not in pdf_text(printouts.protocols_pdf(round, 1))
    assert "/t/" in pdf_text(printouts.protocols_pdf(round, 2))


def test_a_renewed_link_makes_a_new_version_of_the_printouts(round):
    club, cup = round.tournament.club, round.tournament
    before = printouts.round_version(club, tournament_id=cup.pk, number=1)

    services.round_table_link_renew(round=round, number=1)

    assert printouts.round_version(club, tournament_id=cup.pk, number=1) != before


# --- find your table --------------------------------------------------------------------------


def find(round: Round, query: str) -> str:
    cup = round.tournament
    return reverse("competition:tournament-find", args=[cup.club.slug, cup.pk]) + f"?q={query}"


@pytest.fixture
def open_round(public_club) -> Round:
    cup = make_tournament(public_club, rules=RULES, round_minutes=100)
    with at(0):
        return services.round_start(round=published(cup))


def test_find_your_table_shows_the_found_players_table_link_and_clock(client, open_round):
    first = pulkas(open_round)[0]

    with at(30):
        # A public club's page: anyone finds his table, and its link.
        text = html(client.get(find(open_round, first.names[0])))

    assert f"http://testserver/t/{first.table_token}/" in text
    assert 'id="your-table-1"' in text
    assert 'class="qr"' in text
    assert text.count('role="timer"') == 2  # the round's, and his table's
    assert "1:10:00 left" in text


def test_find_your_table_shows_no_link_for_a_long_list_nor_for_an_ended_table(client, open_round):
    round = open_round
    assert "/t/" not in html(client.get(find(round, "")))
    services.table_end(round=round, number=1, by=None)
    first = pulkas(round)[0]

    assert "/t/" not in html(client.get(find(round, first.names[0])))


def test_find_your_table_shows_no_link_once_the_round_is_confirmed(client, open_round):
    round = open_round
    first = pulkas(round)[0]
    end_all(round)
    services.round_confirm(round=round, by=None)

    assert first.table_token not in html(client.get(find(round, first.names[0])))


# --- the tables at a glance -----------------------------------------------------------------


def test_each_table_shows_its_deals_awaiting_and_disputed(client, owner, round):
    first, second, _third = pulkas(round)
    with at(1):
        play_table(first, deals=3)
        play_table(second, deals=1)
    mark(first, 2, DealCheck.AWAITING)
    mark(first, 3, DealCheck.DISPUTED, reason="seven, not six")
    client.force_login(owner)

    with at(10):
        statuses = {s.number: s for s in pages.round_table_status(round, START + 10 * MINUTE)}
        text = html(client.get(url(round)))

    assert (statuses[1].deals, statuses[2].deals, statuses[3].deals) == (3, 1, 0)
    assert [d.number for d in statuses[1].awaiting] == [2]
    assert [(d.number, d.reason) for d in statuses[1].disputed] == [(3, "seven, not six")]
    assert 'id="status-table-1"' in text
    assert f"{first.get_absolute_url()}#deal-3" in text
    assert "seven, not six" in text


def test_a_running_table_silent_for_over_15_minutes_is_flagged(client, owner, round):
    first = pulkas(round)[0]
    with at(2):
        play_table(first, deals=1)
    client.force_login(owner)

    with at(16):
        quiet = html(client.get(url(round)))
    with at(18):
        silent = html(client.get(url(round)))

    assert 'id="silent-1"' not in quiet  # 14 minutes since its entry
    assert 'id="silent-2"' in quiet  # no deal 16 minutes after the start
    assert 'id="silent-1"' in silent


def test_an_ended_table_is_never_silent(client, owner, round):
    services.table_end(round=round, number=2, by=None)
    client.force_login(owner)

    with at(60):
        text = html(client.get(url(round)))

    assert 'id="silent-1"' in text
    assert 'id="silent-2"' not in text


def test_the_tables_at_a_glance_take_as_many_queries_for_many_tables(club_a):
    def queries(players: int) -> int:
        cup = make_tournament(club_a, names_for(players, prefix=f"T{players}-"), rules=RULES)
        round = services.round_start(round=published(cup))
        for pulka in pulkas(round):
            play_table(pulka, deals=1)
            Deal.objects.filter(pulka=pulka).update(confirmation=DealCheck.AWAITING)
        with CaptureQueriesContext(connection) as captured:
            pages.round_table_status(round, START)
        return len(captured)

    assert queries(8) == queries(40)


def test_the_tables_poll_answers_with_the_status(client, owner, round):
    client.force_login(owner)

    response = client.get(url(round) + "?v=stale", headers=HTMX)

    text = assert_fragment(response, "round-tables")
    assert 'id="round-status"' in text


# --- confirming the round -------------------------------------------------------------------


def test_the_round_cannot_be_confirmed_while_a_deal_awaits_or_is_disputed(round):
    first, second, third = pulkas(round)
    play_table(second, deals=5)
    play_table(third, deals=2)
    mark(second, 5, DealCheck.AWAITING)
    mark(third, 2, DealCheck.DISPUTED)
    end_all(round)

    with pytest.raises(TournamentServiceError) as refused:
        services.round_confirm(round=round, by=None)

    message = refused.value.message
    assert "Table 2: deal 5 awaits confirmation. Table 3: deal 2 is disputed." in message
    assert Round.objects.get(pk=round.pk).state == RoundState.PLAYING

    mark(second, 5, DealCheck.CONFIRMED)
    mark(third, 2, DealCheck.CONFIRMED)
    assert services.round_confirm(round=round, by=None).state == RoundState.CONFIRMED


def test_the_refusal_names_the_unchecked_deals_and_the_running_tables_at_once(round):
    first = pulkas(round)[0]
    play_table(first, deals=1)
    mark(first, 1, DealCheck.AWAITING)

    with pytest.raises(TournamentServiceError) as refused:
        services.round_confirm(round=round, by=None)

    assert "Table 1: deal 1 awaits confirmation." in refused.value.message
    assert "Tables still running: 1, 2, 3." in refused.value.message


def test_many_unchecked_deals_are_named_up_to_ten_and_counted_after(round):
    first = pulkas(round)[0]
    play_table(first, deals=12)
    assert first.deals.count() == 12 or first.status != PulkaStatus.RUNNING
    Deal.objects.filter(pulka=first).update(confirmation=DealCheck.AWAITING)
    count = first.deals.count()
    end_all(round)

    with pytest.raises(TournamentServiceError) as refused:
        services.round_confirm(round=round, by=None)

    message = refused.value.message
    assert message.count("awaits confirmation") == min(count, 10)
    if count > 10:
        assert f"And {count - 10} more" in message


def test_the_round_page_says_which_deals_keep_the_round_from_being_confirmed(client, owner, round):
    second = pulkas(round)[1]
    play_table(second, deals=1)
    mark(second, 1, DealCheck.AWAITING)
    end_all(round)
    client.force_login(owner)

    text = html(client.post(url(round, "confirm"), headers=HTMX))

    assert "Table 2: deal 1 awaits confirmation." in text
    assert Round.objects.get(pk=round.pk).state == RoundState.PLAYING
