"""Correcting and deleting deals: every change is kept, stale edits are refused."""

import re

import pytest

from scoring import selectors
from scoring.models import Deal, DealRevision, PulkaStatus
from tests.club.factories import assert_not_found
from tests.conftest import HTMX, make_pulka, record
from tests.scoring.factories import PASS_OUT_ROUND, SIX_BY_BORIS, deal_post

pytestmark = pytest.mark.django_db

RASPASY = {"kind": "raspasy", "tricks": {"Anna": 2, "Boris": 0, "Vera": 8}}


def _edit_url(pulka, number):
    return f"{pulka.get_absolute_url()}deals/{number}/edit/"


def test_edit_form_shows_the_deal_as_recorded(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = as_persona("secretary").get(_edit_url(pulka, 1)).content.decode()

    assert "Correct deal 1" in html
    assert re.search(r'<input type="number" name="tricks_2" [^>]*value="3">', html)
    assert 'id="id_declarer_1" checked' in html
    assert 'name="version" value="1"' in html


def test_edit_fragment_replaces_the_entry_area(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = as_persona("secretary").get(_edit_url(pulka, 1), headers=HTMX).content.decode()

    assert html.lstrip().startswith('<aside id="entry"')
    assert "Correct deal 1" in html
    assert "<html" not in html


def test_a_correction_recomputes_the_sheet_and_keeps_a_revision(as_persona, pulka, secretary):
    record(pulka, SIX_BY_BORIS, RASPASY)
    data = deal_post(tricks_1="5", tricks_2="4", tricks_0="1", version="1")

    response = as_persona("secretary").post(_edit_url(pulka, 1), data, headers=HTMX)

    deal = Deal.objects.get(pulka=pulka, number=1)
    revision = DealRevision.objects.get(pulka=pulka, action="changed")
    assert deal.tricks == {"1": 5, "2": 4, "0": 1}
    assert deal.version == 2
    assert deal.changed_by == secretary
    assert revision.before["tricks"] == {"Boris": 6, "Vera": 3, "Anna": 1}
    assert revision.after["tricks"] == {"Boris": 5, "Vera": 4, "Anna": 1}
    # Set by one at a six (2), then the raspasy write-off for no trick (−1).
    assert selectors.pulka_sheet(pulka).mountain["Boris"] == 1
    assert response["HX-Retarget"] == "#pulka"
    assert 'id="pulka"' in response.content.decode()


def test_a_stale_edit_is_refused_and_changes_nothing(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("secretary")
    client.post(
        _edit_url(pulka, 1), deal_post(tricks_1="7", tricks_2="2", version="1"), headers=HTMX
    )

    response = client.post(
        _edit_url(pulka, 1), deal_post(tricks_1="5", tricks_2="4", version="1"), headers=HTMX
    )

    text = response.content.decode()
    assert "was changed by a secretary while you were editing it" in text
    assert "serhii" not in text  # named as the deal log names him, never by his login
    assert Deal.objects.get(pulka=pulka).tricks["1"] == 7


def test_a_correction_that_breaks_a_rule_is_refused(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    response = as_persona("secretary").post(
        _edit_url(pulka, 1), deal_post(tricks_0="5", version="1"), headers=HTMX
    )

    assert "= 14 tricks, a deal has 10" in response.content.decode()
    assert Deal.objects.get(pulka=pulka).tricks["0"] == 1


def test_editing_an_unknown_deal_is_404(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    assert_not_found(as_persona("secretary").get(_edit_url(pulka, 5)), 'id="deal-form"')
    assert_not_found(as_persona("secretary").post(_edit_url(pulka, 5), deal_post(number=5)))
    assert list(pulka.deals.values_list("number", flat=True)) == [1]


def test_delete_asks_for_confirmation_first(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = (
        as_persona("secretary").get(f"{pulka.get_absolute_url()}deals/1/delete/").content.decode()
    )

    assert "Delete deal 1?" in html
    assert "Boris 6♠" in html
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_delete_renumbers_the_later_deals_and_keeps_the_deal_in_history(as_persona, pulka):
    record(pulka, SIX_BY_BORIS, RASPASY, RASPASY)

    response = as_persona("secretary").post(
        f"{pulka.get_absolute_url()}deals/1/delete/", {"version": "1"}, headers=HTMX
    )

    assert list(Deal.objects.filter(pulka=pulka).values_list("number", "kind")) == [
        (1, "raspasy"),
        (2, "raspasy"),
    ]
    deleted = DealRevision.objects.get(pulka=pulka, action="deleted")
    assert deleted.before["declarer"] == "Boris"
    assert 'id="deal-3"' not in response.content.decode()
    assert selectors.pulka_sheet(pulka).pool["Boris"] == 0


def test_a_stale_delete_is_refused(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    response = as_persona("secretary").post(
        f"{pulka.get_absolute_url()}deals/1/delete/", {"version": "7"}, headers=HTMX
    )

    assert "while you were editing it" in response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_history_lists_every_change_with_who_and_what(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    client = as_persona("secretary")
    client.post(_edit_url(pulka, 1), deal_post(tricks_1="7", tricks_2="2", version="1"))

    html = client.get(f"{pulka.get_absolute_url()}history/?deal=1").content.decode()

    assert "History of deal 1" in html
    assert "changed" in html
    assert "serhii" in html
    assert "before: Boris 6♠ · Vera whist, Anna pass · 6–3–1" in html
    assert "after: Boris 6♠ · Vera whist, Anna pass · 7–2–1" in html


def test_correcting_a_finished_pulka_so_a_pool_reopens_resumes_it(as_persona, evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND)
    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    assert pulka.result_cache.count() == 3
    raspasy = {
        "kind": "raspasy",
        "tricks_0": "3",
        "tricks_1": "3",
        "tricks_2": "4",
        "dealer": "2",
        "rotation_dealer": "2",
        "version": "1",
    }

    as_persona("secretary").post(_edit_url(pulka, 3), raspasy)

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.RUNNING
    assert pulka.result_cache.count() == 0


def test_the_log_says_who_entered_and_who_corrected_a_deal(as_persona, pulka):
    client = as_persona("secretary")
    client.post(pulka.get_absolute_url() + "deals/", deal_post())
    client.post(_edit_url(pulka, 1), deal_post(tricks_1="7", tricks_2="2", version="1"))

    html = as_persona("player").get(pulka.get_absolute_url()).content.decode()

    # serhii has no full name and no roster player: he is named by his role, not his login.
    assert "entered by a secretary at" in html
    assert "corrected by a secretary" in html
    assert "serhii" not in html
