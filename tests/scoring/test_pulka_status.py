import pytest

from scoring.models import Deal, PulkaStatus
from tests.conftest import HTMX, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db


def test_ending_early_settles_as_unfinished_and_fills_the_result_cache(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    response = as_persona("secretary").post(pulka.get_absolute_url() + "finish/", headers=HTMX)

    pulka.refresh_from_db()
    html = response.content.decode()
    assert pulka.status == PulkaStatus.FINISHED
    assert "Ended early" in html
    assert 'id="deal-form"' not in html
    cache = {row.player.name: (row.result, row.place) for row in pulka.result_cache.all()}
    # Pools 0/2/0 of 10: missing points count as mountain (10, 8, 10; average 28/3), and
    # Vera wrote 8 whists on Boris: Anna 10·(28/3 − 10) = −20/3, Boris 40/3 − 8 = 16/3,
    # Vera −20/3 + 8 = 4/3.
    assert cache == {"Boris": ("16/3", 1), "Vera": ("4/3", 2), "Anna": ("-20/3", 3)}


def test_a_finished_pulka_can_be_resumed(as_persona, pulka):
    client = as_persona("secretary")
    client.post(pulka.get_absolute_url() + "finish/")

    response = client.post(pulka.get_absolute_url() + "reopen/")

    pulka.refresh_from_db()
    assert response.status_code == 302
    assert pulka.status == PulkaStatus.RUNNING
    assert not pulka.result_cache.exists()


def test_resuming_a_running_pulka_says_so(as_persona, pulka):
    response = as_persona("secretary").post(pulka.get_absolute_url() + "reopen/", follow=True)

    assert "already running" in response.content.decode()


def test_an_abandoned_pulka_keeps_its_deals_but_takes_no_more(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("owner")

    client.post(pulka.get_absolute_url() + "abandon/")
    client.post(pulka.get_absolute_url() + "deals/", {"kind": "raspasy"})

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.ABANDONED
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_rules_can_change_before_the_first_deal_only(as_persona, pulka):
    client = as_persona("secretary")
    url = pulka.get_absolute_url() + "rules/"

    client.post(url, {"rules-pool_target": "30", "rules-lone_whister": "gentleman"})
    pulka.refresh_from_db()
    assert (pulka.rules["pool_target"], pulka.rules["lone_whister"]) == (30, "gentleman")

    record(pulka, SIX_BY_BORIS)
    response = client.post(url, {"rules-pool_target": "40"})
    pulka.refresh_from_db()
    assert pulka.rules["pool_target"] == 30
    assert "only before the first deal" in response.content.decode()


def test_bad_rules_are_refused_with_a_message(as_persona, pulka):
    response = as_persona("secretary").post(
        pulka.get_absolute_url() + "rules/",
        {"rules-pool_target": "0", "rules-raspasy_progression": "1, x"},
    )

    html = response.content.decode()
    assert "greater than or equal to 1" in html
    assert "whole numbers above zero" in html
    pulka.refresh_from_db()
    assert pulka.rules["pool_target"] == 10


def test_who_finished_resumed_and_abandoned_the_pulka_is_in_its_history(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("secretary")
    for change in ("finish", "reopen", "abandon"):
        client.post(pulka.get_absolute_url() + f"{change}/")

    changes = list(pulka.status_changes.order_by("at", "id").values_list("status", "user"))
    html = client.get(pulka.get_absolute_url() + "history/").content.decode()

    user = pulka.status_changes.first().user
    assert user is not None
    assert user.memberships.get(club=pulka.evening.club).role == "secretary"
    assert changes == [
        (PulkaStatus.FINISHED, user.pk),
        (PulkaStatus.RUNNING, user.pk),
        (PulkaStatus.ABANDONED, user.pk),
    ]
    abandoned, resumed, finished = (
        html.index("The pulka was abandoned"),
        html.index("The pulka was resumed"),
        html.index("The pulka was finished"),
    )
    assert abandoned < resumed < finished  # newest first
    assert html.count("a secretary,") >= 3  # named by the role; the login is never shown
    assert html.count(user.get_username()) == 1  # his own, in the nav bar only


def test_the_history_of_one_deal_leaves_out_the_status_changes(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("secretary")
    client.post(pulka.get_absolute_url() + "finish/")

    html = client.get(pulka.get_absolute_url() + "history/?deal=1").content.decode()

    assert "The pulka was finished" not in html
    assert "History of deal 1" in html
