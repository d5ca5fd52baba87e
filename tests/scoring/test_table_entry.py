"""The table's own entry through its link /t/<token>/ (scoring.table_views): its players
choose their seats, enter the deals and confirm or dispute each other's, without an account
of the club. The link is the credential: dead, foreign and guessed links are tried as an
attacker would."""

from __future__ import annotations

import datetime
import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club import notices
from club.models import Notice, Player
from scoring import services, table_views
from scoring.models import Deal, DealCheck, DealRevision, RevisionAction, Seat
from tests.conftest import HTMX, make_club, make_evening, make_pulka, make_user, record
from tests.scoring.factories import SIX_BY_BORIS, deal_post

pytestmark = pytest.mark.django_db

# Deal 2 of the pulka fixture as its form posts it: Vera (seat 3) plays a six, Boris deals.
SECOND = {
    "dealer": "1",
    "rotation_dealer": "1",
    "declarer": "2",
    "call_0": "whist",
    "call_1": "pass",
    "call_2": "",
    "tricks_2": "6",
    "tricks_0": "3",
    "tricks_1": "1",
}


@pytest.fixture
def token(pulka):
    return services.table_link_open(pulka=pulka)


def url(name: str, token: str, *args) -> str:
    return reverse(f"scoring:{name}", args=[token, *args])


def sit(client: Client, token: str, seat: int, **kw):
    return client.post(url("table-seat", token), {"seat": str(seat)}, **kw)


def enter(client: Client, token: str, htmx: bool = True, **fields):
    return client.post(
        url("table-deal-create", token), deal_post(**fields), headers=HTMX if htmx else {}
    )


def confirm(client: Client, token: str, number: int = 1, version: str = "1", htmx=True):
    return client.post(
        url("table-confirm", token, number), {"version": version}, headers=HTMX if htmx else {}
    )


def dispute(client: Client, token: str, reason: str, number: int = 1, version: str = "1"):
    return client.post(
        url("table-dispute", token, number), {"version": version, "reason": reason}, headers=HTMX
    )


def text(response) -> str:
    return response.content.decode()


def phone(token: str, seat: int) -> Client:
    """A player's own phone, with no account: the link and a chosen seat."""
    client = Client()
    sit(client, token, seat)
    return client


def _state(pulka) -> tuple:
    pulka.refresh_from_db()
    return (
        pulka.version,
        list(Deal.objects.filter(pulka=pulka).values()),
        DealRevision.objects.filter(pulka=pulka).count(),
        list(Seat.objects.filter(pulka=pulka).values_list("claimed_by", flat=True)),
    )


# --- the page and the seats ---


def test_the_link_opens_the_table_with_a_choice_of_its_seats_for_anyone(client, pulka, token):
    response = client.get(url("table", token))

    html = text(response)
    assert response.status_code == 200
    assert "Which seat are you?" in html
    for seat, name in enumerate(("Anna", "Boris", "Vera"), 1):
        assert f'name="seat" value="{seat}"' in html
        assert f"Seat {seat}: {name}" in html
    assert 'id="deal-form"' not in html  # no seat yet: nothing to enter with


def test_the_htmx_page_is_the_table_alone(client, pulka, token):
    html = text(client.get(url("table", token), headers=HTMX))

    assert '<div id="table"' in html
    assert "<html" not in html


def test_a_chosen_seat_gets_the_entry_form_and_is_kept_for_this_link_only(
    client, evening_a, pulka, token
):
    other = services.table_link_open(pulka=make_pulka(evening_a, names=("Gleb", "Dana", "Lena")))

    response = sit(client, token, 2)

    assert response.status_code == 302
    html = text(client.get(url("table", token)))
    assert "You are Boris (seat 2)." in html
    assert 'id="deal-form"' in html
    assert "Which seat are you?" in text(client.get(url("table", other)))


def test_a_seat_out_of_the_table_is_refused(client, pulka, token):
    response = sit(client, token, 4, headers=HTMX)

    assert "Choose one of the table&#x27;s seats." in text(response)
    assert "table-seat:" + token not in client.session


def test_handing_the_phone_on_forgets_the_seat(client, pulka, token):
    sit(client, token, 1)

    client.post(url("table-seat", token), {"seat": ""})

    assert "Which seat are you?" in text(client.get(url("table", token)))


def test_a_player_signed_in_with_his_own_account_gets_his_seat_and_takes_it(client, pulka, token):
    anna = make_user(username="anna")
    Player.objects.filter(club=pulka.evening.club, name="Anna").update(user=anna)
    client.force_login(anna)

    html = text(client.get(url("table", token)))

    assert "You are Anna (seat 1)." in html
    assert Seat.objects.get(pulka=pulka, position=0).claimed_by == anna


def test_a_seat_taken_by_its_players_account_is_refused_to_anyone_else(client, pulka, token):
    anna = make_user(username="anna")
    Player.objects.filter(club=pulka.evening.club, name="Anna").update(user=anna)
    Seat.objects.filter(pulka=pulka, position=0).update(claimed_by=anna)
    before = _state(pulka)

    page = text(client.get(url("table", token)))
    response = sit(client, token, 1, headers=HTMX)

    assert "taken by an account" in page
    html = text(response)
    assert "Seat 1 is taken by Anna&#x27;s account: sign in to that account to play it." in html
    assert "You are Anna" not in html
    assert _state(pulka) == before


def test_a_seat_chosen_before_its_account_took_it_acts_no_more(pulka, token):
    stranger = phone(token, 1)
    anna = make_user(username="anna")
    Seat.objects.filter(pulka=pulka, position=0).update(claimed_by=anna)

    response = enter(stranger, token)

    assert "Say which seat you are first." in text(response)
    assert not Deal.objects.filter(pulka=pulka).exists()


# --- dead, foreign and guessed links ---

VIEWS = [
    ("get", "table", ()),
    ("post", "table-seat", ()),
    ("post", "table-deal-create", ()),
    ("get", "table-deal-form", ()),
    ("post", "table-confirm", (1,)),
    ("post", "table-dispute", (1,)),
    ("get", "table-live", ()),
]


def _ask(client, method, name, token, args, htmx=False):
    data = {"seat": "1", "version": "1", "reason": "wrong", **deal_post()}
    headers = HTMX if htmx else {}
    if method == "get":
        return client.get(url(name, token, *args), headers=headers)
    return client.post(url(name, token, *args), data, headers=headers)


@pytest.mark.parametrize(("method", "name", "args"), VIEWS)
@pytest.mark.parametrize(
    "wrong", ["a" * 32, "short", "x" * 44, "..%2F..", "%00" * 20, "Ю" * 32], ids=repr
)
def test_a_link_of_no_table_is_404_and_says_nothing_of_any_table(
    client, pulka, token, method, name, args, wrong
):
    record(pulka, SIX_BY_BORIS)
    before = _state(pulka)

    response = _ask(client, method, name, wrong, args)

    assert response.status_code == 404
    assert "Anna" not in text(response)
    assert "Table" not in text(response)
    assert _state(pulka) == before


@pytest.mark.parametrize(("method", "name", "args"), VIEWS)
@pytest.mark.parametrize("how", ["finished", "locked", "renewed"])
def test_a_dead_link_answers_that_the_table_has_ended_and_changes_nothing(
    client, pulka, token, method, name, args, how
):
    record(pulka, SIX_BY_BORIS)
    sit(client, token, 2)
    if how == "finished":
        services.pulka_finish(pulka=pulka, finished_by=None)
    elif how == "locked":
        services.pulka_lock(pulka=pulka)
    else:
        services.table_link_renew(pulka=pulka)
    before = _state(pulka)

    response = _ask(client, method, name, token, args)
    fragment = _ask(client, method, name, token, args, htmx=True)

    if how == "renewed":
        assert response.status_code == 404  # the old link is nobody's any more
    else:
        assert response.status_code == 410
        assert "This table has ended: its link no longer works." in text(response)
        # htmx swaps no 410: the page goes to the link, which says it.
        assert fragment["HX-Redirect"] == url("table", token)
    assert _state(pulka) == before


def test_a_seat_at_one_table_acts_nowhere_else(evening_a, pulka, token):
    record(pulka, SIX_BY_BORIS)
    Deal.objects.filter(pulka=pulka).update(confirmation=DealCheck.AWAITING, entered_seat=0)
    other = make_pulka(evening_a, names=("Gleb", "Dana", "Lena"))
    foreign = services.table_link_open(pulka=other)
    boris = phone(token, 2)
    before = _state(pulka)

    refused = confirm(boris, foreign)  # deal 1 of the other table: it has none

    assert "Say which seat you are first." in text(refused)
    sit(boris, foreign, 2)
    assert "Deal 1 no longer exists." in text(confirm(boris, foreign))
    assert _state(pulka) == before


# --- entering -----------------------------------------------------------------------


def test_a_deal_entered_at_the_table_awaits_another_seats_confirmation(pulka, token):
    anna = phone(token, 1)

    response = enter(anna, token)

    html = text(response)
    assert "Deal 1 recorded: another player of the table confirms it." in html
    assert "entered by Anna (seat 1), awaiting confirmation" in html
    assert '<section id="board" class="card board" hx-swap-oob="true"' in html
    assert '<ol hx-swap-oob="afterbegin:#table-deal-log">' in html
    deal = Deal.objects.get(pulka=pulka)
    assert (deal.confirmation, deal.entered_seat, deal.entered_by) == (
        DealCheck.AWAITING,
        0,
        None,
    )
    revision = DealRevision.objects.get(pulka=pulka)
    assert (revision.action, revision.seat) == (RevisionAction.CREATED, 0)
    # The entering seat sees no confirm button for its own deal, and may go on.
    assert "Confirm deal 1" not in html
    assert 'name="number" value="2"' in html


def test_the_next_deal_may_be_entered_while_the_first_awaits(pulka, token):
    anna = phone(token, 1)
    enter(anna, token)

    enter(anna, token, number=2, **SECOND)

    assert list(Deal.objects.filter(pulka=pulka).values_list("confirmation", flat=True)) == [
        DealCheck.AWAITING,
        DealCheck.AWAITING,
    ]


def test_without_javascript_an_entry_posts_and_redirects_to_the_table(pulka, token):
    anna = phone(token, 1)

    response = enter(anna, token, htmx=False)

    assert response.status_code == 302
    assert response["Location"] == url("table", token)
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_the_same_form_posted_twice_records_one_deal(pulka, token):
    anna = phone(token, 1)
    data = deal_post()

    anna.post(url("table-deal-create", token), data, headers=HTMX)
    again = anna.post(url("table-deal-create", token), data, headers=HTMX)

    assert "Deal 1 is already recorded." in text(again)
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert DealRevision.objects.filter(pulka=pulka).count() == 1


def test_an_entry_without_a_seat_is_refused(client, pulka, token):
    response = enter(client, token)

    assert "Say which seat you are first." in text(response)
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_an_invalid_deal_gets_the_form_back_with_its_error(pulka, token):
    anna = phone(token, 1)

    response = enter(anna, token, tricks_1="9", tricks_2="9")

    html = text(response)
    assert response.status_code == 200
    assert '<form id="deal-form"' in html
    assert "<html" not in html
    assert 'class="errors"' in html
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_the_form_refreshes_for_a_choice_through_the_link(pulka, token):
    anna = phone(token, 1)
    data = deal_post(kind="raspasy")

    response = anna.get(url("table-deal-form", token), data, headers=HTMX)
    page = anna.get(url("table-deal-form", token), data)

    html = text(response)
    assert '<form id="deal-form"' in html
    assert "<html" not in html
    assert f'value="{data["entry_key"]}"' in html
    assert page.status_code == 302
    assert page["Location"] == url("table", token)


# --- confirming and disputing ---


@pytest.fixture
def entered(pulka, token):
    """Deal 1 entered by Anna (seat 1) through the link."""
    enter(phone(token, 1), token)
    return pulka


def test_another_seat_confirms_the_deal(entered, token):
    boris = phone(token, 2)
    assert "Confirm deal 1" in text(boris.get(url("table", token)))

    response = confirm(boris, token)

    html = text(response)
    assert "Deal 1 confirmed." in html
    assert "entered by Anna (seat 1), confirmed by Boris (seat 2)" in html
    deal = Deal.objects.get(pulka=entered)
    assert (deal.confirmation, deal.confirmed_seat) == (DealCheck.CONFIRMED, 1)
    assert deal.confirmed_at is not None
    line = DealRevision.objects.get(pulka=entered, action=RevisionAction.CONFIRMED)
    assert (line.seat, line.user) == (1, None)


def test_the_entering_seat_cannot_confirm_its_own_deal(entered, token):
    anna = phone(token, 1)
    before = _state(entered)

    response = confirm(anna, token)

    assert "You entered deal 1: another player of the table confirms it." in text(response)
    assert _state(entered) == before


def test_the_second_of_two_confirmations_hears_who_was_first_and_changes_nothing(entered, token):
    boris, vera = phone(token, 2), phone(token, 3)
    confirm(boris, token)
    before = _state(entered)

    response = confirm(vera, token)

    assert "Deal 1 was already confirmed by Boris (seat 2)." in text(response)
    assert _state(entered) == before
    assert DealRevision.objects.filter(action=RevisionAction.CONFIRMED).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_two_phones_confirming_at_the_same_moment_confirm_once():
    pulka = make_pulka(make_evening(make_club(slug="two-phones")))
    token = services.table_link_open(pulka=pulka)
    enter(phone(token, 1), token)
    phones = [phone(token, 2), phone(token, 3)]
    barrier = threading.Barrier(len(phones))
    answers = []

    def press(client: Client) -> None:
        try:
            barrier.wait()
            answers.append(text(confirm(client, token)))
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(client,)) for client in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    deal = Deal.objects.get(pulka=pulka, number=1)
    assert deal.confirmation == DealCheck.CONFIRMED
    assert deal.confirmed_seat in (1, 2)
    assert DealRevision.objects.filter(pulka=pulka, action=RevisionAction.CONFIRMED).count() == 1
    assert sum("Deal 1 confirmed." in html for html in answers) == 1
    first = "Boris (seat 2)" if deal.confirmed_seat == 1 else "Vera (seat 3)"
    assert sum(f"Deal 1 was already confirmed by {first}." in html for html in answers) == 1


def test_a_deal_the_secretary_corrected_meanwhile_is_the_judges_and_not_confirmed_again(
    entered, token, secretary
):
    vera = phone(token, 3)
    services.deal_update(
        pulka=entered,
        number=1,
        data={**SIX_BY_BORIS, "tricks": {"Boris": 7, "Vera": 2, "Anna": 1}},
        expected_version=1,
        changed_by=secretary,
    )
    before = _state(entered)

    response = confirm(vera, token, version="1")

    assert "Deal 1 was already confirmed by the judge." in text(response)
    assert _state(entered) == before


@pytest.mark.parametrize("version", ["", "x", "-1", "2", "99999999999999"])
def test_a_confirmation_of_another_version_than_the_deals_is_stale(entered, token, version):
    before = _state(entered)

    response = confirm(phone(token, 2), token, version=version)

    assert "while you were editing it" in text(response)
    assert _state(entered) == before


def test_any_seat_disputes_a_deal_with_a_reason(entered, token):
    vera = phone(token, 3)

    response = dispute(vera, token, "  Boris took   seven, not six ")

    html = text(response)
    assert "Deal 1 is disputed: the judge will decide it." in html
    assert "disputed by Vera (seat 3): Boris took seven, not six" in html
    deal = Deal.objects.get(pulka=entered)
    assert (deal.confirmation, deal.disputed_seat, deal.dispute_reason) == (
        DealCheck.DISPUTED,
        2,
        "Boris took seven, not six",
    )
    line = DealRevision.objects.get(action=RevisionAction.DISPUTED)
    assert (line.seat, line.reason) == (2, "Boris took seven, not six")
    # A disputed deal is the judge's: nobody confirms it any more.
    assert "Deal 1 is disputed: the judge decides it." in text(confirm(phone(token, 2), token))


@pytest.mark.parametrize(
    ("reason", "message"),
    [
        ("", "Say what is wrong with the deal: the judge reads it."),
        ("   ", "Say what is wrong with the deal: the judge reads it."),
        ("x" * 201, "The reason can be at most 200 characters long."),
    ],
)
def test_a_dispute_without_a_short_reason_is_refused(entered, token, reason, message):
    before = _state(entered)

    response = dispute(phone(token, 3), token, reason)

    assert message in text(response)
    assert _state(entered) == before


def test_a_secretarys_deal_is_neither_confirmed_nor_disputed_at_the_table(pulka, token):
    record(pulka, SIX_BY_BORIS)
    boris = phone(token, 2)
    before = _state(pulka)

    confirmed = confirm(boris, token)
    disputed = dispute(boris, token, "wrong")

    assert "it needs no confirmation" in text(confirmed)
    assert "ask the judge at the table" in text(disputed)
    assert "recorded by a secretary" in text(boris.get(url("table", token)))
    assert _state(pulka) == before


def test_the_link_never_corrects_an_older_deal(entered, token):
    """No edit or delete view hangs under the link; a form for a recorded number is refused."""
    vera = phone(token, 3)
    before = _state(entered)

    response = enter(vera, token, number=1, tricks_1="7", tricks_2="2")

    assert "Deal 1 was just recorded by" in text(response)
    assert _state(entered) == before
    assert vera.post(f"/t/{token}/deals/1/edit/", deal_post()).status_code == 404
    assert vera.post(f"/t/{token}/deals/1/delete/", {"version": "1"}).status_code == 404


# --- the rate limit ---


def test_attempts_beyond_the_links_limit_get_429_and_change_nothing(monkeypatch, entered, token):
    monkeypatch.setattr(table_views, "ATTEMPTS", 3)
    vera = phone(token, 3)  # one attempt
    dispute(vera, token, "")  # two
    confirm(vera, token, version="7")  # three
    before = _state(entered)

    response = confirm(vera, token)

    assert response.status_code == 429
    assert "Too many attempts through this table" in text(response)
    assert _state(entered) == before


def test_guessing_links_is_stopped_before_it_costs_a_query(
    monkeypatch, client, django_assert_num_queries
):
    monkeypatch.setattr(table_views, "MISSES", 2)
    for n in range(2):
        assert client.get(url("table", f"guess{n:028d}")).status_code == 404

    with django_assert_num_queries(0):
        response = client.get(url("table", "guess" + "9" * 28))

    assert response.status_code == 429


# --- the live poll ---


def test_the_poll_is_204_while_nothing_changed_and_brings_another_phones_deal(entered, token):
    vera = phone(token, 3)
    entered.refresh_from_db()
    held = str(entered.version)

    unchanged = vera.get(url("table-live", token), {"v": held}, headers=HTMX)
    confirm(phone(token, 2), token)
    changed = vera.get(url("table-live", token), {"v": held}, headers=HTMX)
    page = vera.get(url("table-live", token), {"v": held})

    assert unchanged.status_code == 204
    html = text(changed)
    assert '<section id="board"' in html
    assert '<section id="table-log" class="card log" hx-swap-oob="true"' in html
    assert "confirmed by Boris (seat 2)" in html
    assert "<html" not in html
    assert page.status_code == 302


def test_the_poll_replaces_an_entry_form_another_phone_has_overtaken(pulka, token):
    boris = phone(token, 2)
    page = text(boris.get(url("table", token)))
    assert 'hx-include="#deal-form [name=number]"' in page
    enter(phone(token, 1), token)  # Anna records deal 1 while Boris's form is for deal 1

    overtaken = text(boris.get(url("table-live", token), {"v": "1", "number": "1"}, headers=HTMX))
    current = text(boris.get(url("table-live", token), {"v": "1", "number": "2"}, headers=HTMX))

    assert '<aside id="entry" class="entry" hx-swap-oob="true">' in overtaken
    assert re.search(r'name="number" value="2"', overtaken)
    assert 'id="entry"' not in current  # his form is for the next deal: left as he typed it


def test_the_table_page_polls_its_own_link(entered, token):
    html = text(phone(token, 3).get(url("table", token)))

    assert f'hx-get="{url("table-live", token)}?v=' in html
    assert "/c/" not in re.sub(r'href="/c/[^"]*"', "", html).split("<main", 1)[-1]


# --- the time rule on the table's page ---


def _time_out(pulka, minutes_ago: int = 1, after: int = 1) -> None:
    ends = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    services.table_clock_set(pulkas=[pulka], ends_at=ends, paused_left=None, deals_after_time=after)


def test_the_table_says_when_the_last_deal_has_begun_and_when_time_is_up(pulka, token):
    anna = phone(token, 1)
    record(pulka, SIX_BY_BORIS)
    Deal.objects.filter(pulka=pulka).update(entered_at=timezone.now() - datetime.timedelta(hours=1))
    _time_out(pulka)

    begun = text(anna.get(url("table", token)))
    enter(anna, token, number=2, **SECOND)
    over = text(anna.get(url("table", token)))
    refused = enter(anna, token, number=3)

    assert "The last deal has begun." in begun
    assert "Time is up: deal 2 was the last one." in over
    assert 'id="deal-form"' not in over
    assert "Time is up: deal 2 was the last one." in text(refused)
    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_a_table_on_another_club_is_reached_by_its_link_alone(client, club_b):
    pulka = make_pulka(make_evening(club_b), names=("Ivan", "Oksana", "Petro"))
    token = services.table_link_open(pulka=pulka)

    html = text(client.get(url("table", token)))

    assert "Seat 1: Ivan" in html


def test_the_other_seats_players_with_an_account_are_asked_to_confirm(pulka, token):
    boris, anna = make_user(username="boris", email="boris@example.com"), make_user(username="an")
    notices.preferences_save(user=boris, choices={"confirm_by_mail": True})
    Player.objects.filter(club=pulka.evening.club, name="Boris").update(user=boris)
    Player.objects.filter(club=pulka.evening.club, name="Anna").update(user=anna)

    enter(phone(token, 1), token)

    deal = Deal.objects.get(pulka=pulka)
    asked = Notice.objects.filter(topic=f"table-deal:{deal.pk}")
    assert set(asked.values_list("user__username", flat=True)) == {"boris"}
    mail = asked.exclude(channel="none").first()
    assert mail.subject == "Table 1, deal 1 awaits your confirmation"
    assert f"/t/{token}/" in mail.text
