"""The table's link keeps its deals on the players' phone too (static/js/offline.js): the page
is one the service worker keeps, and a deal sent from the phone's queue is answered in JSON,
recorded under the seat that sends it, awaiting confirmation as any seat's entry."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Deal, DealCheck, PulkaStatus
from tests.conftest import HTMX, record
from tests.scoring.factories import PASS_OUT_ROUND, deal_post

pytestmark = pytest.mark.django_db

QUEUE = {"Pulka-Queue": "1"}


@pytest.fixture
def token(pulka):
    return services.table_link_open(pulka=pulka)


def sit(client, token, seat: int):
    client.post(reverse("scoring:table-seat", args=[token]), {"seat": str(seat)})


def send(client, token, data):
    return client.post(reverse("scoring:table-deal-create", args=[token]), data, headers=QUEUE)


def test_a_seated_phone_gets_the_queue_and_its_page_is_kept(client, token):
    sit(client, token, 1)

    response = client.get(reverse("scoring:table", args=[token]))

    assert response["Pulka-Offline"] == "entry"
    html = response.content.decode()
    assert 'data-account="table"' in html
    assert 'data-log="table-deal-log"' in html
    assert 'data-offline="new"' in html
    assert "js/offline.js" in html


def test_a_phone_without_a_seat_gets_no_queue(client, token):
    response = client.get(reverse("scoring:table", args=[token]))

    assert "Pulka-Offline" not in response
    assert 'id="offline-queue"' not in response.content.decode()


def test_the_form_redrawn_by_htmx_keeps_its_offline_mark(client, token):
    sit(client, token, 1)

    html = client.get(
        reverse("scoring:table-deal-form", args=[token]), {"kind": "raspasy"}, headers=HTMX
    ).content.decode()

    assert 'data-offline="new"' in html


def test_a_deal_from_the_queue_is_recorded_under_the_seat_awaiting_confirmation(
    client, token, pulka
):
    sit(client, token, 2)

    response = send(client, token, deal_post())

    assert response.json() == {"outcome": "recorded", "message": "", "next": 2, "number": 1}
    deal = Deal.objects.get(pulka=pulka)
    assert (deal.entered_seat, deal.confirmation) == (1, DealCheck.AWAITING)


def test_the_same_deal_again_counts_as_sent(client, token, pulka):
    sit(client, token, 2)
    data = deal_post()
    send(client, token, data)

    again = send(client, token, data)

    assert again.json()["outcome"] == "already"
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_number_taken_meanwhile_is_refused_with_the_next_one(client, token, pulka):
    sit(client, token, 2)
    record(pulka, PASS_OUT_ROUND[0])

    response = send(client, token, deal_post())

    assert response.status_code == 409
    assert response.json()["message"].startswith("Deal 1 was just recorded by ")
    assert response.json()["next"] == 2


def test_a_deal_from_a_phone_that_left_its_seat_is_refused(client, token, pulka):
    response = send(client, token, deal_post())

    assert response.status_code == 409
    assert response.json()["outcome"] == "refused"
    assert response.json()["message"]
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_mistyped_deal_is_refused_in_the_forms_words(client, token, pulka):
    sit(client, token, 2)

    response = send(client, token, deal_post(tricks_1="eleven"))

    assert response.status_code == 409
    assert response.json()["message"] == "Enter a whole number."


def test_a_table_that_ended_answers_gone_and_records_nothing(client, token, pulka):
    sit(client, token, 2)
    pulka.status = PulkaStatus.FINISHED
    pulka.save()

    response = send(client, token, deal_post())

    # The link's own page, 410: the queue reads it as a refusal (offline-core.js outcome()),
    # and the page says the table has ended.
    assert response.status_code == 410
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_the_tables_answer_to_a_recorded_deal_names_it_for_the_device(client, token):
    sit(client, token, 2)
    data = deal_post()
    create = reverse("scoring:table-deal-create", args=[token])

    first = client.post(create, data, headers=HTMX)
    again = client.post(create, data, headers=HTMX)

    assert first["Pulka-Recorded"] == "1"
    assert again["Pulka-Recorded"] == "1"
