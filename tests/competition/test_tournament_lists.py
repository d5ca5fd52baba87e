"""A tournament's entries and penalties pages, a hundred rows at a time (?page=): the rows,
the page links, a page past the end (the last page, as every list of the site), the htmx
fragment; an action keeps the page it came from; and the bound on the penalties."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club.models import Player
from club.params import PAGE_MAX
from competition.models import Entry, EntryStatus, Penalty, PenaltyUnit, Tournament
from competition.tournament import services
from competition.tournament.services import PENALTIES_MAX
from competition.tournament.views.organiser import ROWS_PER_PAGE
from tests.club.factories import READ, assert_fragment, assert_full_page, html
from tests.competition.factories import make_tournament, names_for, published
from tests.conftest import HTMX, PERSONAS

pytestmark = pytest.mark.django_db

ENTRY_ROW = re.compile(r'<tr id="entry-(\d+)"')
PENALTY_ROW = re.compile(r"<td>late (\d+)</td>")


@pytest.fixture
def crowd(club_a) -> Tournament:
    """250 players entered: three pages of entries."""
    return make_tournament(club_a, names_for(250))


@pytest.fixture
def judged(club_a) -> Tournament:
    """150 penalties given in round 1, "late 0" first: two pages of penalties."""
    tournament = make_tournament(club_a)
    published(tournament)
    player = Player.objects.get(club=club_a, name="Anna")
    for k in range(150):
        Penalty.objects.create(
            tournament=tournament,
            player=player,
            round=1,
            amount=1,
            unit=PenaltyUnit.WHISTS,
            reason=f"late {k}",
        )
    return tournament


def url(name: str, tournament: Tournament, *args) -> str:
    return reverse(f"competition:{name}", args=["sochi", tournament.pk, *args])


def entries_on(text: str) -> list[int]:
    return [int(pk) for pk in ENTRY_ROW.findall(text)]


# --- the entries ------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_entries_are_paged_for_their_readers(as_persona, crowd, persona):
    client = as_persona(persona)

    page = client.get(url("tournament-entries", crowd) + "?page=2")
    fragment = client.get(url("tournament-entries", crowd) + "?page=2", headers=HTMX)

    assert page.status_code == fragment.status_code == READ[persona]
    if READ[persona] != 200:
        assert 'id="entries"' not in html(page)
        return
    text = assert_full_page(page, "entries")
    part = assert_fragment(fragment, "entries")
    ordered = list(Entry.objects.filter(tournament=crowd).order_by("player__name_key", "pk"))
    expected = [entry.pk for entry in ordered[ROWS_PER_PAGE : 2 * ROWS_PER_PAGE]]
    assert entries_on(text) == entries_on(part) == expected
    assert "250 players" in text
    assert "page 2 of 3" in text
    assert 'href="?page=1"' in text
    assert 'href="?page=3"' in text
    assert 'hx-get="?page=3"' in part


def test_the_first_page_of_entries_has_a_hundred_rows_and_the_last_the_rest(as_persona, crowd):
    client = as_persona("player")
    ordered = list(Entry.objects.filter(tournament=crowd).order_by("player__name_key", "pk"))

    first = html(client.get(url("tournament-entries", crowd)))
    last = html(client.get(url("tournament-entries", crowd) + "?page=3"))

    assert entries_on(first) == [entry.pk for entry in ordered[:ROWS_PER_PAGE]]
    assert 'href="?page=2"' in first
    assert 'rel="prev"' not in first
    assert entries_on(last) == [entry.pk for entry in ordered[2 * ROWS_PER_PAGE :]]
    assert len(entries_on(last)) == 50
    assert 'rel="next"' not in last


@pytest.mark.parametrize("asked", ["4", "999999", str(PAGE_MAX)])
def test_a_page_past_the_end_answers_the_last_page(as_persona, crowd, asked):
    client = as_persona("player")
    last = html(client.get(url("tournament-entries", crowd) + "?page=3"))

    text = html(client.get(url("tournament-entries", crowd) + f"?page={asked}"))

    assert entries_on(text) == entries_on(last)
    assert "page 3 of 3" in text


# Beyond PAGE_MAX: no number the site reads (club.params), as if none were given.
@pytest.mark.parametrize("asked", ["0", "-1", "abc", "٣", "", str(PAGE_MAX + 1), "9" * 19])
def test_a_page_that_is_no_number_answers_the_first(as_persona, crowd, asked):
    text = html(as_persona("player").get(url("tournament-entries", crowd) + f"?page={asked}"))

    assert len(entries_on(text)) == ROWS_PER_PAGE
    assert "page 1 of 3" in text


def test_a_few_entries_have_no_page_links(as_persona, club_a):
    cup = make_tournament(club_a)

    text = html(as_persona("player").get(url("tournament-entries", cup)))

    assert len(entries_on(text)) == 10
    assert 'aria-label="Pages"' not in text


def test_an_action_on_a_row_answers_with_its_page(as_persona, crowd):
    client = as_persona("owner")
    ordered = list(Entry.objects.filter(tournament=crowd).order_by("player__name_key", "pk"))
    entry = ordered[150]
    page = html(client.get(url("tournament-entries", crowd) + "?page=2"))
    action = url("entry-withdraw", crowd, entry.pk) + "?page=2"

    by_htmx = client.post(action, headers=HTMX)
    entry.refresh_from_db()
    restored = client.post(url("entry-restore", crowd, entry.pk) + "?page=2")

    assert f'hx-post="{action}"' in page
    assert entry.status == EntryStatus.WITHDRAWN
    text = assert_fragment(by_htmx, "entries")
    assert entries_on(text) == [one.pk for one in ordered[100:200]]
    assert f"{entry.player.name} is withdrawn." in text
    assert restored.status_code == 302
    assert restored["Location"] == url("tournament-entries", crowd) + "?page=2"


def test_a_substitute_may_play_for_anyone_entered_whatever_the_page(as_persona, crowd):
    text = html(as_persona("owner").get(url("tournament-entries", crowd)))

    substitute = text.split('id="substitute"')[1]
    assert substitute.count("<option value=") == 250


# --- the penalties ----------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_penalties_are_paged_newest_first_for_their_readers(as_persona, judged, persona):
    client = as_persona(persona)

    page = client.get(url("tournament-penalties", judged))
    fragment = client.get(url("tournament-penalties", judged) + "?page=2", headers=HTMX)

    assert page.status_code == fragment.status_code == READ[persona]
    if READ[persona] != 200:
        assert 'id="penalties"' not in html(page)
        return
    text = assert_full_page(page, "penalties")
    part = assert_fragment(fragment, "penalties")
    assert [int(k) for k in PENALTY_ROW.findall(text)] == list(range(149, 49, -1))
    assert [int(k) for k in PENALTY_ROW.findall(part)] == list(range(49, -1, -1))
    assert f"150 penalties of at most {PENALTIES_MAX}" in text
    assert "page 1 of 2" in text
    assert 'href="?page=2"' in text
    assert 'hx-get="?page=1"' in part


def test_a_page_of_penalties_past_the_end_answers_the_last(as_persona, judged):
    text = html(as_persona("player").get(url("tournament-penalties", judged) + "?page=7"))

    assert [int(k) for k in PENALTY_ROW.findall(text)] == list(range(49, -1, -1))
    assert "page 2 of 2" in text


def test_a_new_penalty_shows_on_the_first_page(as_persona, judged):
    anna = Player.objects.get(club=judged.club, name="Anna")
    data = {"player": anna.pk, "round": "1", "amount": "5", "unit": "whists", "reason": "late 150"}

    response = as_persona("owner").post(url("tournament-penalties", judged), data, headers=HTMX)

    text = assert_fragment(response, "penalties")
    assert [int(k) for k in PENALTY_ROW.findall(text)] == list(range(150, 50, -1))
    assert f"151 penalties of at most {PENALTIES_MAX}" in text


def test_a_tournament_with_every_penalty_it_may_hold_refuses_the_next(as_persona, judged):
    anna = Player.objects.get(club=judged.club, name="Anna")
    Penalty.objects.bulk_create(
        Penalty(tournament=judged, player=anna, round=1, amount=1, reason=f"late {k}")
        for k in range(150, PENALTIES_MAX)
    )
    data = {"player": anna.pk, "round": "1", "amount": "5", "unit": "whists", "reason": "again"}
    client = as_persona("owner")

    page = html(client.get(url("tournament-penalties", judged)))
    refused = client.post(url("tournament-penalties", judged), data, headers=HTMX)

    said = f"A tournament holds at most {PENALTIES_MAX} penalties: this one has them all."
    assert said in page
    assert 'id="penalty-form"' not in page
    assert said in assert_fragment(refused, "penalties")
    assert Penalty.objects.filter(tournament=judged).count() == PENALTIES_MAX
    assert not Penalty.objects.filter(reason="again").exists()


def test_the_service_refuses_a_penalty_past_the_bound(judged):
    anna = Player.objects.get(club=judged.club, name="Anna")
    Penalty.objects.bulk_create(
        Penalty(tournament=judged, player=anna, round=1, amount=1, reason="late")
        for _ in range(150, PENALTIES_MAX)
    )

    with pytest.raises(services.TournamentServiceError) as refused:
        services.penalty_add(
            tournament=judged,
            player_id=anna.pk,
            round_number=1,
            amount=5,
            unit=PenaltyUnit.WHISTS,
            reason="again",
            by=None,
        )

    assert refused.value.message == (
        f"A tournament holds at most {PENALTIES_MAX} penalties: this one has them all."
    )
    assert Penalty.objects.filter(tournament=judged).count() == PENALTIES_MAX
