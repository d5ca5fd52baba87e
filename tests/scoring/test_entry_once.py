"""A repeated entry records its deal once: the entry form's number and one-time key."""

import re
import threading
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client

from club.models import Role
from scoring import services
from scoring.models import MAX_DEALS, Deal, DealRevision, PulkaStatus
from tests.conftest import HTMX, make_club, make_evening, make_member, make_pulka, record
from tests.scoring.factories import PASS_OUT_ROUND, SIX_BY_BORIS, deal_post

pytestmark = pytest.mark.django_db

RASPASY = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}


def _post(client, pulka, data, htmx=True):
    return client.post(pulka.get_absolute_url() + "deals/", data, headers=HTMX if htmx else {})


def _hidden(html: str, name: str) -> str:
    match = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)">', html)
    assert match, f"no hidden {name} in the form"
    return match.group(1)


def test_every_new_deal_form_carries_its_number_and_a_one_time_key(as_persona, pulka):
    client = as_persona("secretary")

    first = client.get(pulka.get_absolute_url()).content.decode()
    again = client.get(pulka.get_absolute_url()).content.decode()

    assert _hidden(first, "number") == "1"
    assert uuid.UUID(_hidden(first, "entry_key")).version == 4
    assert _hidden(first, "entry_key") != _hidden(again, "entry_key")


def test_after_an_entry_the_fresh_form_has_the_next_number_and_a_new_key(as_persona, pulka):
    data = deal_post()

    html = _post(as_persona("secretary"), pulka, data).content.decode()

    assert _hidden(html, "number") == "2"
    assert _hidden(html, "entry_key") not in ("", data["entry_key"])
    assert Deal.objects.get(pulka=pulka).entry_key == uuid.UUID(data["entry_key"])


def test_a_form_refreshed_for_a_choice_keeps_its_number_and_key(as_persona, pulka):
    data = deal_post(kind="raspasy")

    html = as_persona("secretary").get(pulka.get_absolute_url() + "deal-form/", data, headers=HTMX)

    assert _hidden(html.content.decode(), "entry_key") == data["entry_key"]
    assert _hidden(html.content.decode(), "number") == "1"


def test_the_same_form_posted_twice_records_one_deal(as_persona, pulka):
    client = as_persona("secretary")
    data = deal_post()

    _post(client, pulka, data)
    response = _post(client, pulka, data)

    html = response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert DealRevision.objects.filter(pulka=pulka).count() == 1
    assert "Deal 1 is already recorded." in html
    # The answer a successful entry gives: a fresh form for deal 2, the sheet, the log.
    assert "<html" not in html
    assert _hidden(html, "number") == "2"
    assert '<section id="board" class="card board" hx-swap-oob="true"' in html
    assert '<section id="log" class="card log" hx-swap-oob="true"' in html
    assert html.count('id="deal-1"') == 1


def test_a_retry_after_the_answer_was_lost_gets_the_sheet_as_it_stands(as_persona, pulka):
    client = as_persona("secretary")
    lost = deal_post()
    _post(client, pulka, lost)  # saved, but the phone never saw the answer
    record(pulka, RASPASY)  # meanwhile the table went on: deal 2
    version = Deal.objects.get(pulka=pulka, number=2).pulka.version

    response = _post(client, pulka, lost)

    html = response.content.decode()
    pulka.refresh_from_db()
    assert pulka.version == version  # nothing was written
    assert Deal.objects.filter(pulka=pulka).count() == 2
    assert "Deal 1 is already recorded." in html
    assert 'id="deal-2"' in html
    assert _hidden(html, "number") == "3"


def test_the_same_form_posted_twice_without_javascript_says_so_on_the_page(as_persona, pulka):
    client = as_persona("secretary")
    data = deal_post()
    _post(client, pulka, data, htmx=False)

    response = _post(client, pulka, data, htmx=False)
    page = client.get(response["Location"]).content.decode()

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()
    assert "Deal 1 is already recorded." in page
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_second_secretary_posting_the_same_number_is_told_who_recorded_it(
    as_persona, pulka, secretary, club_a
):
    secretary.first_name, secretary.last_name = "Serhii", "Koval"
    secretary.save()
    other = make_member(club_a, Role.SECRETARY, username="marta").user
    _post(as_persona("secretary"), pulka, deal_post())
    client = Client()
    client.force_login(other)

    response = _post(client, pulka, deal_post(kind="raspasy", tricks_0=4, tricks_1=3, tricks_2=3))

    html = response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert Deal.objects.get(pulka=pulka).kind == "game"
    assert "Deal 1 was just recorded by Serhii Koval: check it." in html
    assert 'role="alert"' in html
    assert _hidden(html, "number") == "2"  # a fresh form, for the deal after it
    assert 'id="deal-1"' in html  # the deal to check is in the log


def test_without_a_full_name_or_a_roster_name_the_role_names_him(pulka, secretary):
    services.deal_record(
        pulka=pulka, data=SIX_BY_BORIS, entered_by=secretary, number=1, entry_key=uuid.uuid4()
    )

    taken = r"^Deal 1 was just recorded by a secretary: check it\.$"
    with pytest.raises(services.DealNumberTaken, match=taken):
        services.deal_record(
            pulka=pulka, data=RASPASY, entered_by=None, number=1, entry_key=uuid.uuid4()
        )


def test_a_form_for_a_number_beyond_the_next_is_refused(pulka):
    record(pulka, SIX_BY_BORIS)

    with pytest.raises(services.ScoringError, match="goes on with deal 2 now"):
        services.deal_record(
            pulka=pulka, data=RASPASY, entered_by=None, number=3, entry_key=uuid.uuid4()
        )
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_an_outdated_form_without_number_or_key_gets_a_fresh_form(as_persona, pulka):
    data = {k: v for k, v in deal_post().items() if k not in ("number", "entry_key")}

    response = _post(as_persona("secretary"), pulka, data)

    html = response.content.decode()
    assert not Deal.objects.filter(pulka=pulka).exists()
    assert "This entry form is out of date" in html
    assert _hidden(html, "number") == "1"
    assert _hidden(html, "entry_key") != ""


def test_the_repeat_of_the_deal_that_finished_the_pulka_is_told_it_is_recorded(
    as_persona, evening_a
):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND[:2])
    client = as_persona("secretary")
    data = deal_post(
        number=3, declarer=0, dealer=2, rotation_dealer=2, call_1="pass", call_2="pass", call_0=None
    )
    _post(client, pulka, data)

    response = _post(client, pulka, data)

    html = response.content.decode()
    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    assert Deal.objects.filter(pulka=pulka).count() == 3
    assert "Deal 3 is already recorded." in html
    assert response["HX-Retarget"] == "#pulka"
    assert "no deal can be added" not in html


def test_the_database_refuses_a_key_twice_in_one_pulka(pulka):
    key = uuid.uuid4()
    services.deal_record(pulka=pulka, data=SIX_BY_BORIS, entered_by=None, entry_key=key)

    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(pulka=pulka, number=2, kind="raspasy", entry_key=key, dealer=1)


def test_a_form_that_slips_past_the_lock_is_answered_as_already_recorded(pulka, monkeypatch):
    key = uuid.uuid4()
    services.deal_record(pulka=pulka, data=SIX_BY_BORIS, entered_by=None, number=1, entry_key=key)
    # As a writer that bypassed the row lock would: it sees neither the key nor deal 1.
    monkeypatch.setattr(services, "_number_of_entry", lambda pulka, entry_key: None)
    monkeypatch.setattr(services.selectors, "engine_deals", lambda pulka, names: [])

    with pytest.raises(services.DealAlreadyRecorded, match=r"^Deal 1 is already recorded\.$"):
        services.deal_record(pulka=pulka, data=RASPASY, entered_by=None, number=1, entry_key=key)
    assert Deal.objects.filter(pulka=pulka).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_five_posts_of_one_form_at_the_same_moment_record_one_deal():
    club = make_club(slug="five")
    user = make_member(club, Role.SECRETARY).user
    pulka = make_pulka(make_evening(club))
    data = deal_post()
    barrier = threading.Barrier(5)
    answers = []

    def post():
        try:
            client = Client()
            client.force_login(user)
            barrier.wait()
            answers.append(_post(client, pulka, data).content.decode())
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert len(answers) == 5
    assert sum("Deal 1 is already recorded." in html for html in answers) == 4
    assert all('id="deal-1"' in html for html in answers)


def test_a_pulka_holds_at_most_max_deals(pulka):
    Deal.objects.bulk_create(
        Deal(pulka=pulka, number=n, kind="raspasy", tricks={"0": 4, "1": 3, "2": 3}, dealer=0)
        for n in range(1, MAX_DEALS + 1)
    )

    with pytest.raises(services.ScoringError, match=f"at most {MAX_DEALS} deals"):
        services.deal_record(
            pulka=pulka, data=RASPASY, entered_by=None, number=MAX_DEALS + 1, entry_key=None
        )
    assert Deal.objects.filter(pulka=pulka).count() == MAX_DEALS
