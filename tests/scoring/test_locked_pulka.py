"""A locked pulka (its results confirmed, e.g. a tournament's confirmed round): nobody but
the club's owner changes it, and the owner only as a judge, giving a reason that its history
keeps and shows."""

import pytest

from scoring import selectors, services
from scoring.models import Deal, DealRevision, PulkaResultCache, PulkaStatus, StatusChange
from tests.conftest import HTMX
from tests.scoring.factories import SIX_BY_BORIS, deal_post, ended_early

pytestmark = pytest.mark.django_db

RASPASY = {"kind": "raspasy", "tricks": {"Anna": 2, "Boris": 0, "Vera": 8}}
LOCKED = "This table is locked: its results are confirmed."
REASON = "The sheet of table 1 was misread: Vera took 3 tricks."


@pytest.fixture
def locked(evening_a):
    """A pulka ended early after two deals, then locked."""
    pulka = ended_early(evening_a, SIX_BY_BORIS, RASPASY)
    services.pulka_lock(pulka=pulka)
    pulka.refresh_from_db()
    return pulka


def _state(pulka):
    pulka.refresh_from_db()
    return (pulka.version, pulka.status, list(Deal.objects.filter(pulka=pulka).values()))


def test_locking_bumps_the_version_and_unlocking_opens_it_again(evening_a, secretary):
    pulka = ended_early(evening_a)
    version = pulka.version

    services.pulka_lock(pulka=pulka)
    pulka.refresh_from_db()
    assert pulka.is_locked
    assert pulka.version == version + 1

    services.pulka_unlock(pulka=pulka)
    pulka.refresh_from_db()
    assert not pulka.is_locked
    services.pulka_reopen(pulka=pulka, reopened_by=secretary)
    assert pulka.status == PulkaStatus.RUNNING


@pytest.mark.parametrize(
    "change",
    [
        lambda p, by: services.deal_update(
            pulka=p, number=1, data=SIX_BY_BORIS, expected_version=1, changed_by=by
        ),
        lambda p, by: services.deal_delete(pulka=p, number=1, expected_version=1, deleted_by=by),
        lambda p, by: services.deal_insert(
            pulka=p, before=1, data=RASPASY, expected_version=1, inserted_by=by
        ),
        lambda p, by: services.pulka_reopen(pulka=p, reopened_by=by),
        lambda p, by: services.pulka_abandon(pulka=p, abandoned_by=by),
    ],
    ids=["correct", "delete", "insert", "reopen", "abandon"],
)
@pytest.mark.parametrize("persona", ["secretary", "player"])
def test_only_the_owner_changes_a_locked_pulka(request, locked, change, persona):
    before = _state(locked)

    with pytest.raises(services.ScoringError, match=LOCKED):
        change(locked, request.getfixturevalue(persona))

    assert _state(locked) == before


def test_a_secretary_cannot_record_on_a_locked_running_pulka(evening_a, secretary, owner):
    pulka = ended_early(evening_a)
    services.pulka_lock(pulka=pulka)
    services.pulka_reopen(pulka=pulka, reopened_by=owner, reason="Two deals were forgotten.")

    with pytest.raises(services.ScoringError, match=LOCKED):
        services.deal_record(pulka=pulka, data=RASPASY, entered_by=secretary)
    with pytest.raises(services.ScoringError, match=LOCKED):
        services.pulka_finish(pulka=pulka, finished_by=secretary)

    services.deal_record(pulka=pulka, data=RASPASY, entered_by=owner, reason="Forgotten deal 2.")
    assert DealRevision.objects.get(number=2).reason == "Forgotten deal 2."


def test_the_owner_must_say_why(locked, owner):
    before = _state(locked)

    with pytest.raises(services.ScoringError, match="Say why"):
        services.deal_delete(
            pulka=locked, number=1, expected_version=1, deleted_by=owner, reason="  "
        )

    assert _state(locked) == before


def test_a_reason_too_long_is_refused(locked, owner):
    with pytest.raises(services.ScoringError, match="at most 500 characters"):
        services.deal_delete(
            pulka=locked, number=1, expected_version=1, deleted_by=owner, reason="x" * 501
        )


def test_the_owners_correction_is_kept_with_its_reason_and_the_results_follow(locked, owner):
    corrected = {**SIX_BY_BORIS, "tricks": {"Boris": 7, "Vera": 2, "Anna": 1}, "contract": "7S"}

    services.deal_update(
        pulka=locked,
        number=1,
        data=corrected,
        expected_version=1,
        changed_by=owner,
        reason=f"  {REASON} ",
    )

    revision = DealRevision.objects.get(action="changed")
    assert (revision.user, revision.reason) == (owner, REASON)
    sheet = selectors.pulka_sheet(locked)
    cached = dict(PulkaResultCache.objects.filter(pulka=locked).values_list("position", "result"))
    assert cached[1] == str(sheet.result["Boris"])
    assert sheet.pool["Boris"] == 4  # a seven made: 4 into the pool


def test_the_owners_status_change_keeps_its_reason(locked, owner):
    services.pulka_reopen(pulka=locked, reopened_by=owner, reason=REASON)

    assert StatusChange.objects.filter(pulka=locked).first().reason == REASON


# --- the pages ---------------------------------------------------------------------------


def test_the_page_tells_a_secretary_the_pulka_is_locked_and_offers_no_change(as_persona, locked):
    html = as_persona("secretary").get(locked.get_absolute_url()).content.decode()

    assert "Only the club's owner can change it, as a judge." in html
    assert "/deals/1/edit/" not in html
    assert "/deals/1/insert/" not in html
    assert "Resume the pulka" not in html
    assert 'name="reason"' not in html


@pytest.mark.parametrize("htmx", [False, True])
def test_the_page_offers_the_owner_the_corrections_with_a_reason(as_persona, locked, htmx):
    html = (
        as_persona("owner")
        .get(locked.get_absolute_url(), headers=HTMX if htmx else {})
        .content.decode()
    )

    assert "A change now is a judge's correction" in html
    assert "/deals/1/edit/" in html
    assert "Resume the pulka" in html
    assert 'name="reason"' in html
    assert ("<html" in html) is not htmx


def test_the_edit_form_of_a_locked_pulka_asks_the_owner_for_a_reason(as_persona, locked):
    html = as_persona("owner").get(f"{locked.get_absolute_url()}deals/1/edit/").content.decode()

    assert "Reason for the judge&#x27;s correction" in html
    assert 'name="reason"' in html


def test_the_delete_confirmation_of_a_locked_pulka_asks_the_owner_for_a_reason(as_persona, locked):
    url = f"{locked.get_absolute_url()}deals/1/delete/"

    html = as_persona("owner").get(url, headers=HTMX).content.decode()

    assert "Delete deal 1?" in html
    assert '<input type="text" name="reason" maxlength="500" required>' in html


def test_a_secretarys_post_to_a_locked_pulka_is_refused_with_the_sheet(as_persona, locked):
    before = _state(locked)

    response = as_persona("secretary").post(
        f"{locked.get_absolute_url()}deals/1/delete/", {"version": "1"}, headers=HTMX
    )

    html = response.content.decode()
    assert LOCKED in html
    assert 'id="board"' in html
    assert _state(locked) == before


def test_the_owner_deletes_with_a_reason_through_the_page(as_persona, locked, owner):
    response = as_persona("owner").post(
        f"{locked.get_absolute_url()}deals/2/delete/",
        {"version": "1", "reason": REASON},
        headers=HTMX,
    )

    assert "Deal 2 deleted." in response.content.decode()
    assert DealRevision.objects.get(action="deleted").reason == REASON
    history = as_persona("owner").get(f"{locked.get_absolute_url()}history/").content.decode()
    assert f"<strong>judge's correction:</strong> {REASON}" in history


def test_the_owners_correction_without_a_reason_is_refused_on_the_page(as_persona, locked):
    data = deal_post(version="1", tricks_1="7", tricks_2="2", tricks_0="1")

    response = as_persona("owner").post(
        f"{locked.get_absolute_url()}deals/1/edit/", data, headers=HTMX
    )

    assert "Say why" in response.content.decode()
    assert Deal.objects.get(pulka=locked, number=1).tricks["1"] == 6


def test_the_owner_resumes_a_locked_pulka_with_a_reason(as_persona, locked):
    response = as_persona("owner").post(
        f"{locked.get_absolute_url()}reopen/", {"reason": REASON}, headers=HTMX
    )

    assert "The pulka is running again." in response.content.decode()
    locked.refresh_from_db()
    assert locked.status == PulkaStatus.RUNNING
