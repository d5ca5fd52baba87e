"""What the device's queue is told when it sends a deal (static/js/offline-core.js): JSON, as
scoring.views.deal_create answers a post carrying the Pulka-Queue header."""

import uuid

import pytest

from scoring.models import Deal, PulkaStatus
from tests.conftest import HTMX, record
from tests.scoring.factories import PASS_OUT_ROUND, deal_post

pytestmark = pytest.mark.django_db

QUEUE = {"Pulka-Queue": "1"}


def _send(client, pulka, data):
    return client.post(pulka.get_absolute_url() + "deals/", data, headers=QUEUE)


def test_a_deal_sent_from_the_queue_is_recorded_and_answered_in_json(as_persona, pulka):
    response = _send(as_persona("secretary"), pulka, deal_post())

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"outcome": "recorded", "message": "", "next": 2, "number": 1}
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_the_same_deal_sent_again_counts_as_sent_and_is_recorded_once(as_persona, pulka):
    client = as_persona("secretary")
    data = deal_post()
    _send(client, pulka, data)

    again = _send(client, pulka, data)

    assert again.status_code == 200
    assert again.json()["outcome"] == "already"
    assert again.json()["number"] == 1
    assert again.json()["message"] == "Deal 1 is already recorded."
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_number_another_secretary_took_is_refused_with_who_and_the_next_number(as_persona, pulka):
    record(pulka, PASS_OUT_ROUND[0])

    response = _send(as_persona("secretary"), pulka, deal_post())

    assert response.status_code == 409
    answer = response.json()
    assert answer["outcome"] == "refused"
    assert answer["message"].startswith("Deal 1 was just recorded by ")
    assert answer["next"] == 2
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_deal_the_engine_refuses_is_refused_in_the_engines_words(as_persona, pulka):
    response = _send(as_persona("secretary"), pulka, deal_post(tricks_0="0"))

    assert response.status_code == 409
    assert response.json()["outcome"] == "refused"
    assert "a deal has 10" in response.json()["message"]
    assert response.json()["next"] == 1
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_form_with_a_bad_field_is_refused_with_the_fields_words(as_persona, pulka):
    response = _send(as_persona("secretary"), pulka, deal_post(tricks_1="eleven"))

    assert response.status_code == 409
    assert response.json()["message"] == "Enter a whole number."
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_deal_for_a_pulka_that_ended_is_refused(as_persona, pulka):
    pulka.status = PulkaStatus.FINISHED
    pulka.save()

    response = _send(as_persona("secretary"), pulka, deal_post())

    assert response.status_code == 409
    assert response.json()["message"] == "This pulka is over: no deal can be added to it."


def test_a_form_without_its_number_and_key_is_refused_not_recorded(as_persona, pulka):
    data = {k: v for k, v in deal_post().items() if k not in ("number", "entry_key")}

    response = _send(as_persona("secretary"), pulka, data)

    assert response.status_code == 409
    assert "out of date" in response.json()["message"]
    assert not Deal.objects.filter(pulka=pulka).exists()


@pytest.mark.parametrize(("persona", "status"), [("outsider", 404), ("player", 403)])
def test_the_queue_gets_no_more_right_than_the_form(as_persona, pulka, persona, status):
    response = _send(as_persona(persona), pulka, deal_post())

    assert response.status_code == status
    assert not response["Content-Type"].startswith("application/json")
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_signed_out_queue_is_sent_to_the_login_page_and_records_nothing(as_persona, pulka):
    response = _send(as_persona("anonymous"), pulka, deal_post())

    assert response.status_code in (302, 404)
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_the_key_not_the_number_decides_a_repeat(as_persona, pulka):
    client = as_persona("secretary")
    key = str(uuid.uuid4())
    _send(client, pulka, deal_post(entry_key=key))

    # The device renumbered it after a refusal: same key, another number.
    again = _send(client, pulka, deal_post(entry_key=key, number="2"))

    assert again.json()["outcome"] == "already"
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_the_pages_answer_to_a_recorded_deal_names_it_for_the_device(as_persona, pulka):
    client = as_persona("secretary")
    data = deal_post()

    first = client.post(pulka.get_absolute_url() + "deals/", data, headers=HTMX)
    again = client.post(pulka.get_absolute_url() + "deals/", data, headers=HTMX)
    refused = client.post(
        pulka.get_absolute_url() + "deals/", deal_post(number="2", tricks_0="0"), headers=HTMX
    )

    # offline.js remembers the key as used: a copy of the page from before never reuses it.
    assert first["Pulka-Recorded"] == "1"
    assert again["Pulka-Recorded"] == "1"
    assert "Pulka-Recorded" not in refused
