"""A table with a deal cap (a tournament's "at most N deals"): it ends at the cap, settled as
unfinished, and its corrections keep its status following its deals.

The rule (scoring.services._settle_status): a pulka is finished by its deals when its last
pool closes or when it has played its cap; a correction that takes that back (a pool open
again, a deal deleted below the cap) sets it running again, so the missing deal can be
entered; a pulka someone ended early stays ended whatever the correction.
"""

import pytest

from scoring import engine, services
from scoring.models import Deal, PulkaResultCache, PulkaStatus, StatusChange
from tests.conftest import make_evening, record
from tests.scoring.factories import PASS_OUT_ROUND

pytestmark = pytest.mark.django_db

# Raspasy where everyone takes tricks: mountain only, no pool closes.
SPREAD = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
OTHER = {"kind": "raspasy", "tricks": {"Anna": 2, "Boris": 5, "Vera": 3}}


def capped(club, cap, pool_target=10):
    from club.models import Player

    evening = make_evening(club)
    players = [
        Player.objects.get_or_create(club=club, name=n)[0] for n in ("Anna", "Boris", "Vera")
    ]
    return services.pulka_create(
        evening=evening,
        players=players,
        first_dealer=players[0],
        rules={"pool_target": pool_target},
        created_by=None,
        deal_cap=cap,
    )


def status(pulka):
    pulka.refresh_from_db()
    return pulka.status


def results(pulka):
    return dict(PulkaResultCache.objects.filter(pulka=pulka).values_list("position", "result"))


def test_the_table_ends_at_the_cap_settled_as_unfinished(club_a):
    pulka = capped(club_a, 3)

    record(pulka, SPREAD, SPREAD)
    assert status(pulka) == PulkaStatus.RUNNING
    sheet = record(pulka, SPREAD)

    assert status(pulka) == PulkaStatus.FINISHED
    assert not sheet.closed
    rows = PulkaResultCache.objects.filter(pulka=pulka)
    assert rows.count() == 3
    assert not any(rows.values_list("closed", flat=True))
    assert StatusChange.objects.filter(pulka=pulka, status=PulkaStatus.FINISHED).count() == 1


def test_a_deal_beyond_the_cap_is_refused_with_the_cap_in_words(club_a):
    pulka = capped(club_a, 2)
    record(pulka, SPREAD, SPREAD)

    with pytest.raises(services.ScoringError) as refused:
        services.deal_record(pulka=pulka, data=SPREAD, entered_by=None)

    assert refused.value.message == ("This table plays at most 2 deals, and they are all recorded.")
    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_a_table_reopened_by_hand_at_its_cap_still_takes_no_deal(club_a):
    pulka = capped(club_a, 2)
    record(pulka, SPREAD, SPREAD)

    with pytest.raises(services.ScoringError, match="has played all its 2 deals"):
        services.pulka_reopen(pulka=pulka, reopened_by=None)
    assert status(pulka) == PulkaStatus.FINISHED


def test_correcting_a_deal_of_a_capped_table_recomputes_it_and_it_stays_ended(club_a):
    pulka = capped(club_a, 2)
    record(pulka, SPREAD, SPREAD)
    before = results(pulka)

    services.deal_update(pulka=pulka, number=2, data=OTHER, expected_version=1, changed_by=None)

    assert status(pulka) == PulkaStatus.FINISHED
    assert results(pulka) != before
    names = ["Anna", "Boris", "Vera"]
    sheet = engine.compute_sheet(
        engine.rules_from_dict(pulka.rules),
        names,
        [engine.deal_from_dict(SPREAD, 1), engine.deal_from_dict(OTHER, 2)],
        first_dealer="Anna",
    )
    assert results(pulka) == {
        k: str(engine.format_score(sheet.result[name])) for k, name in enumerate(names)
    }


def test_opening_the_pool_again_at_the_cap_leaves_the_table_ended(club_a):
    """The third no-play six closes every pool at the third deal, which is also the cap:
    a correction that opens a pool again cannot set the table running (it has no deal left
    to play), it is settled as unfinished instead."""
    pulka = capped(club_a, 3, pool_target=2)
    sheet = record(pulka, *PASS_OUT_ROUND)
    assert sheet.closed
    assert status(pulka) == PulkaStatus.FINISHED

    _, sheet = services.deal_update(
        pulka=pulka, number=3, data=SPREAD, expected_version=1, changed_by=None
    )

    assert not sheet.closed
    assert status(pulka) == PulkaStatus.FINISHED
    assert not PulkaResultCache.objects.filter(pulka=pulka).first().closed


def test_deleting_the_last_deal_of_a_table_ended_at_the_cap_sets_it_running_again(club_a):
    """Decided: the cap ended the table, not a person; below the cap again, it plays on
    (so the deal that was really played can be entered), as a pulka whose closed pool a
    correction opens again. Its results leave the standings until it ends again."""
    pulka = capped(club_a, 3)
    record(pulka, SPREAD, SPREAD, OTHER)

    services.deal_delete(pulka=pulka, number=3, expected_version=1, deleted_by=None)

    assert status(pulka) == PulkaStatus.RUNNING
    assert not PulkaResultCache.objects.filter(pulka=pulka).exists()
    record(pulka, SPREAD)
    assert status(pulka) == PulkaStatus.FINISHED
    assert Deal.objects.filter(pulka=pulka).count() == 3


def test_deleting_a_deal_of_a_table_ended_early_keeps_it_ended(club_a):
    pulka = capped(club_a, 5)
    record(pulka, SPREAD, OTHER, SPREAD)
    services.pulka_finish(pulka=pulka, finished_by=None)

    services.deal_delete(pulka=pulka, number=3, expected_version=1, deleted_by=None)

    assert status(pulka) == PulkaStatus.FINISHED
    assert PulkaResultCache.objects.filter(pulka=pulka).count() == 3


def test_a_closed_pool_before_the_cap_ends_the_table_as_always(club_a):
    pulka = capped(club_a, 10, pool_target=2)

    sheet = record(pulka, *PASS_OUT_ROUND)

    assert sheet.closed
    assert status(pulka) == PulkaStatus.FINISHED
    # Opened again by a correction below the cap: the table plays on.
    services.deal_update(pulka=pulka, number=3, data=SPREAD, expected_version=1, changed_by=None)
    assert status(pulka) == PulkaStatus.RUNNING


def test_a_table_without_cap_takes_deals_on(club_a):
    pulka = capped(club_a, None)

    record(pulka, *[SPREAD] * 6)

    assert status(pulka) == PulkaStatus.RUNNING


def test_reseating_a_table_before_its_first_deal(club_a):
    from club.models import Player

    pulka = capped(club_a, 4)
    gleb = Player.objects.create(club=club_a, name="Gleb")
    anna, boris, vera = (Player.objects.get(club=club_a, name=n) for n in ("Anna", "Boris", "Vera"))
    version = pulka.version

    services.pulka_seat(pulka=pulka, players=[vera, gleb, anna], first_dealer=gleb)

    pulka.refresh_from_db()
    assert pulka.names == ["Vera", "Gleb", "Anna"]
    assert pulka.first_dealer == 1
    assert pulka.version == version + 1
    with pytest.raises(services.ScoringError, match="Each player"):
        services.pulka_seat(pulka=pulka, players=[vera, vera, anna], first_dealer=vera)
    record(pulka, {"kind": "raspasy", "tricks": {"Anna": 4, "Gleb": 3, "Vera": 3}})
    with pytest.raises(services.ScoringError, match="has started"):
        services.pulka_seat(pulka=pulka, players=[anna, boris, vera], first_dealer=anna)
    assert pulka.names == ["Vera", "Gleb", "Anna"]
