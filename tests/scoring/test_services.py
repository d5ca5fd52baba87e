"""The services are the only writers: validation through the engine, locks, caches."""

import datetime
import threading
import uuid

import pytest
from django.db import IntegrityError, connection, transaction

from club.models import Club, Player
from scoring import engine, selectors, services, signals
from scoring.models import (
    Deal,
    DealRevision,
    Evening,
    PairResultCache,
    Pulka,
    PulkaResultCache,
    PulkaStatus,
    Seat,
)
from tests.conftest import make_club, make_evening, make_player, make_pulka, make_user, record
from tests.scoring.factories import (
    PASS_OUT_ROUND,
    SIX_BY_BORIS,
    ended_early,
    no_play,
    play_finished,
)

pytestmark = pytest.mark.django_db


def test_deals_are_numbered_in_order(pulka):
    record(pulka, SIX_BY_BORIS, {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}})

    assert list(Deal.objects.filter(pulka=pulka).values_list("number", flat=True)) == [1, 2]
    assert DealRevision.objects.filter(pulka=pulka, action="created").count() == 2


def test_an_invalid_deal_saves_nothing(pulka):
    bad = {**SIX_BY_BORIS, "tricks": {"Boris": 6, "Vera": 3, "Anna": 0}}

    with pytest.raises(
        services.ScoringError, match=r"^Deal 1: 6 \+ 3 \+ 0 = 9 tricks, a deal has 10$"
    ):
        record(pulka, bad)

    assert not Deal.objects.exists()
    assert not DealRevision.objects.exists()
    pulka.refresh_from_db()
    assert pulka.version == 1


def test_a_player_who_is_not_at_the_table_is_refused(pulka):
    stranger = {**SIX_BY_BORIS, "declarer": "Gleb"}

    with pytest.raises(services.ScoringError, match="Gleb"):
        record(pulka, stranger)


def test_closing_the_last_pool_finishes_and_caches_the_result_with_places(evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})

    record(
        pulka,
        SIX_BY_BORIS,
        no_play("Vera", "Anna", "Boris"),
        no_play("Anna", "Boris", "Vera"),
    )

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    assert pulka.finished_at is not None
    rows = {
        r.player.name: (r.result, r.result_rounded, r.place, r.closed)
        for r in PulkaResultCache.objects.filter(pulka=pulka)
    }
    assert rows == {
        "Anna": ("0", 0, 2, True),
        "Boris": ("-8", -8, 3, True),
        "Vera": ("8", 8, 1, True),
    }


def test_equal_results_share_a_place(evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND)

    places = sorted(PulkaResultCache.objects.filter(pulka=pulka).values_list("place", flat=True))

    assert places == [1, 1, 1]


def test_deal_numbers_are_unique_per_pulka_in_the_database(pulka):
    record(pulka, SIX_BY_BORIS)

    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(pulka=pulka, number=1, kind="raspasy", tricks={"0": 10}, dealer=0)


def test_a_player_holds_one_seat_in_the_database(pulka):
    anna = Player.objects.get(name="Anna")

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(pulka=pulka, position=3, player=anna)


def test_pulka_create_refuses_a_player_twice_and_foreign_players(evening_a, club_b):
    anna = make_player(evening_a.club, "Anna")
    boris = make_player(evening_a.club, "Boris")
    foreign = make_player(club_b, "Oleh")

    with pytest.raises(services.ScoringError, match="only one seat"):
        services.pulka_create(
            evening=evening_a,
            players=[anna, boris, anna],
            first_dealer=anna,
            rules={},
            created_by=None,
        )
    with pytest.raises(services.ScoringError, match="roster"):
        services.pulka_create(
            evening=evening_a,
            players=[anna, boris, foreign],
            first_dealer=anna,
            rules={},
            created_by=None,
        )
    with pytest.raises(services.ScoringError, match="3 or 4"):
        services.pulka_create(
            evening=evening_a, players=[anna, boris], first_dealer=anna, rules={}, created_by=None
        )


def test_tables_are_numbered_per_evening(evening_a):
    first = make_pulka(evening_a)
    second = make_pulka(evening_a, names=("Gleb", "Dana", "Ira", "Oleh"))
    elsewhere = make_pulka(make_evening(evening_a.club))

    assert (first.table, second.table, elsewhere.table) == (1, 2, 1)


def test_rules_snapshot_is_resolved_and_independent_of_the_club(evening_a):
    club = evening_a.club
    club.rules = {"lone_whister": "gentleman"}
    club.save()
    pulka = make_pulka(evening_a, rules=club.default_rules())

    club.rules = {}
    club.save()

    pulka.refresh_from_db()
    assert pulka.rules["lone_whister"] == "gentleman"
    assert pulka.rules["pool_target"] == 10
    # every key, the preset too (in no particular order: PostgreSQL's jsonb sorts keys)
    assert sorted(pulka.rules) == sorted(engine.RULE_KEYS)


def test_deleting_the_first_deal_moves_the_others_up(pulka):
    raspasy = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
    record(pulka, SIX_BY_BORIS, raspasy, raspasy)

    services.deal_delete(pulka=pulka, number=1, expected_version=1, deleted_by=None)

    assert list(Deal.objects.filter(pulka=pulka).values_list("number", "kind")) == [
        (1, "raspasy"),
        (2, "raspasy"),
    ]


def test_deleting_a_deal_leaves_the_later_one_dealt_as_it_was_played(evening_a):
    club = make_club()
    pulka = make_pulka(make_evening(club), names=("A", "B", "C", "D"))
    # Deal 2 is dealt by B and declared by A; were the dealers moved up, A would deal it
    # and sit out (refused before the dealers were stored).
    record(
        pulka,
        {"kind": "raspasy", "tricks": {"A": 1, "B": 3, "C": 3, "D": 3}},
        {"kind": "game", "declarer": "A", "contract": "6S", "calls": {"C": "pass", "D": "pass"}},
    )

    sheet = services.deal_delete(pulka=pulka, number=1, expected_version=1, deleted_by=None)

    deal = Deal.objects.get(pulka=pulka)
    assert (deal.number, deal.kind, deal.dealer) == (1, "game", 1)
    assert sheet.snapshots[0].dealer == "B"
    assert sheet.pool["A"] == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_two_secretaries_at_the_same_moment_with_one_form_record_one_deal():
    """At one table two posts of deal 1 are the same deal: the second is told so."""
    club = make_club()
    pulka = make_pulka(make_evening(club))
    raspasy = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
    barrier = threading.Barrier(2)
    outcomes = []

    def post(key):
        try:
            barrier.wait()
            services.deal_record(
                pulka=pulka, data=raspasy, entered_by=None, number=1, entry_key=key
            )
            outcomes.append("recorded")
        except services.DealAlreadyRecorded:
            outcomes.append("already")
        except services.DealNumberTaken:
            outcomes.append("taken")
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(uuid.uuid4(),)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["recorded", "taken"]
    assert list(Deal.objects.filter(pulka=pulka).values_list("number", flat=True)) == [1]


def test_club_rules_update_keeps_the_pool_target_in_its_column():
    club = make_club()

    services.club_rules_update(club=club, rules={"pool_target": 50, "help": False})

    club.refresh_from_db()
    assert club.pool_target == 50
    assert club.rules["help"] is False
    assert "pool_target" not in club.rules
    assert club.default_rules()["pool_target"] == 50


def test_club_rules_update_refuses_conventions_the_engine_does_not_know():
    club = make_club(name="Kept")

    with pytest.raises(services.ScoringError):
        services.club_rules_update(club=club, rules={"pool_target": 10, "x": 1})

    club.refresh_from_db()
    assert "x" not in club.rules


def test_evening_create_and_update_write_what_was_given():
    club = make_club()
    user = make_user()

    evening = services.evening_create(
        club=club, date=datetime.date(2024, 5, 17), venue=" Hall ", notes="", created_by=user
    )
    services.evening_update(
        evening=evening, date=datetime.date(2024, 5, 18), venue="Room", notes="x"
    )

    evening.refresh_from_db()
    assert (evening.club, evening.created_by) == (club, user)
    assert (evening.date, evening.venue, evening.notes) == (datetime.date(2024, 5, 18), "Room", "x")


def test_a_deal_through_an_older_copy_of_a_resumed_pulka_still_finishes_it(evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, SIX_BY_BORIS)
    services.pulka_finish(pulka=pulka, finished_by=None)
    services.pulka_reopen(pulka=Pulka.objects.get(pk=pulka.pk), reopened_by=None)

    # `pulka` still says finished; the deals close the last pool.
    record(pulka, no_play("Vera", "Anna", "Boris"), no_play("Anna", "Boris", "Vera"))

    stored = Pulka.objects.get(pk=pulka.pk)
    assert (stored.status, pulka.status) == (PulkaStatus.FINISHED, PulkaStatus.FINISHED)
    assert list(stored.status_changes.values_list("status", flat=True)) == [
        "finished",
        "running",
        "finished",
    ]
    assert PulkaResultCache.objects.filter(pulka=pulka).count() == 3


def test_corrections_update_the_callers_copy_of_the_pulka(evening_a):
    pulka = play_finished(evening_a)
    assert pulka.status == PulkaStatus.FINISHED

    services.deal_delete(pulka=pulka, number=3, expected_version=1, deleted_by=None)

    stored = Pulka.objects.get(pk=pulka.pk)
    assert stored.status == PulkaStatus.RUNNING  # the last pool is open again
    assert (pulka.status, pulka.version) == (stored.status, stored.version)

    raspasy = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
    services.deal_update(pulka=pulka, number=2, data=raspasy, expected_version=1, changed_by=None)

    assert pulka.version == Pulka.objects.get(pk=pulka.pk).version == stored.version + 1


def test_club_rules_update_returns_the_club_as_it_stands_with_its_new_conventions():
    club = make_club(name="Old name")
    Club.objects.filter(pk=club.pk).update(name="New name")

    updated = services.club_rules_update(club=club, rules={"pool_target": 20})

    assert (updated.pk, updated.name, updated.pool_target) == (club.pk, "New name", 20)
    assert Club.objects.get(pk=club.pk).name == "New name"  # only the conventions are written


def test_a_problem_with_the_conventions_names_no_deal():
    club = make_club()

    with pytest.raises(services.ScoringError) as refused:
        services.club_rules_update(club=club, rules={"pool_target": 10, "x": 1})

    assert refused.value.message == "unknown convention 'x'"


def test_every_write_to_a_table_tells_its_spectators(monkeypatch, evening_a):
    told = []
    monkeypatch.setattr(services.live, "table_changed", lambda **where: told.append(where))
    pulka = make_pulka(evening_a)
    where = {"pulka_id": pulka.pk, "evening_id": evening_a.pk, "club_slug": "sochi"}
    players = list(Player.objects.filter(seats__pulka=pulka).order_by("seats__position"))
    raspasy = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}

    services.pulka_update_rules(pulka=pulka, rules={"pool_target": 10}, first_dealer=1)
    services.pulka_seat(pulka=pulka, players=players, first_dealer=players[0])
    record(pulka, SIX_BY_BORIS, raspasy)
    services.deal_update(
        pulka=pulka, number=2, data=SIX_BY_BORIS, expected_version=1, changed_by=None
    )
    services.deal_delete(pulka=pulka, number=2, expected_version=2, deleted_by=None)
    services.pulka_finish(pulka=pulka, finished_by=None)
    services.pulka_reopen(pulka=pulka, reopened_by=None)
    services.pulka_abandon(pulka=pulka, abandoned_by=None)

    assert told == [where] * 10


def test_pulka_update_rules_returns_the_table_with_its_new_conventions_and_dealer(pulka):
    updated = services.pulka_update_rules(
        pulka=pulka, rules={"pool_target": 20, "help": False}, first_dealer=2
    )

    pulka.refresh_from_db()
    assert (updated.pk, updated.rules, updated.first_dealer, updated.version) == (
        pulka.pk,
        pulka.rules,
        2,
        2,
    )
    assert (pulka.rules["pool_target"], pulka.rules["help"], pulka.first_dealer) == (20, False, 2)


@pytest.mark.parametrize("first_dealer", [-1, 3])
def test_pulka_update_rules_refuses_a_dealer_who_is_not_at_the_table(pulka, first_dealer):
    with pytest.raises(services.ScoringError, match="^The first dealer must be one of the"):
        services.pulka_update_rules(pulka=pulka, rules={}, first_dealer=first_dealer)

    pulka.refresh_from_db()
    assert (pulka.first_dealer, pulka.version) == (0, 1)


def test_pulka_seat_updates_the_callers_table_too(pulka):
    anna, boris, vera = (Player.objects.get(name=n) for n in ("Anna", "Boris", "Vera"))
    assert pulka.names == ["Anna", "Boris", "Vera"]

    seated = services.pulka_seat(pulka=pulka, players=[vera, anna, boris], first_dealer=boris)

    assert (pulka.first_dealer, pulka.version, pulka.names) == (2, 2, ["Vera", "Anna", "Boris"])
    assert (seated.first_dealer, seated.version) == (2, 2)


def test_pulka_seat_refuses_a_table_that_has_started(pulka):
    record(pulka, SIX_BY_BORIS)
    anna, boris, vera = (Player.objects.get(name=n) for n in ("Anna", "Boris", "Vera"))

    with pytest.raises(services.ScoringError, match="^This table has started: its players stay"):
        services.pulka_seat(pulka=pulka, players=[vera, anna, boris], first_dealer=anna)

    assert pulka.names == ["Anna", "Boris", "Vera"]


@pytest.fixture
def announced():
    """Every results_changed sent during the test, as (sender, club, since)."""
    sent = []

    def listen(sender, *, club, since, **kwargs):
        sent.append((sender, club, since))

    signals.results_changed.connect(listen)
    yield sent
    signals.results_changed.disconnect(listen)


def test_finishing_a_table_announces_its_club_and_date(announced, evening_a):
    ended_early(evening_a)

    assert announced == [(Pulka, evening_a.club, evening_a.date)]


def test_a_table_of_an_evening_that_does_not_count_is_announced_as_not_counted(club_a):
    sent = []

    def listen(sender, *, club, since, counted, **kwargs):
        sent.append((sender, club, since, counted))

    signals.results_changed.connect(listen)
    try:
        evening = make_evening(club_a, counted=False)
        pulka = ended_early(evening)
    finally:
        signals.results_changed.disconnect(listen)

    assert sent == [(Pulka, club_a, evening.date, False)]
    assert PulkaResultCache.objects.filter(pulka=pulka, counted=False).count() == 3


def test_a_cache_rebuild_without_announcing_announces_nothing(announced, evening_a):
    pulka = ended_early(evening_a)
    announced.clear()
    version = Club.objects.get(pk=evening_a.club_id).results_version

    services.result_cache_rebuild(pulka, pulka.names, selectors.pulka_sheet(pulka), announce=False)

    assert announced == []
    assert PulkaResultCache.objects.filter(pulka=pulka).count() == 3
    assert Club.objects.get(pk=evening_a.club_id).results_version == version + 1


def test_an_evening_switched_off_moves_its_caches_and_announces_it(announced, evening_a):
    pulka = ended_early(evening_a)
    announced.clear()
    version = Club.objects.get(pk=evening_a.club_id).results_version

    switched = services.evening_count(evening=evening_a, counted=False)

    assert (switched, switched.counted) == (evening_a, False)
    evening_a.refresh_from_db()
    assert evening_a.counted is False
    assert set(PulkaResultCache.objects.filter(pulka=pulka).values_list("counted", flat=True)) == {
        False
    }
    assert set(PairResultCache.objects.filter(pulka=pulka).values_list("counted", flat=True)) == {
        False
    }
    assert announced == [(Evening, evening_a.club, evening_a.date)]
    assert Club.objects.get(pk=evening_a.club_id).results_version > version


def test_an_evening_switched_without_announcing_leaves_it_to_the_caller(announced, evening_a):
    pulka = ended_early(evening_a)
    announced.clear()
    version = Club.objects.get(pk=evening_a.club_id).results_version

    services.evening_count(evening=evening_a, counted=False, announce=False)

    assert announced == []
    assert not PulkaResultCache.objects.filter(pulka=pulka, counted=True).exists()
    # The cached rankings of the club's leagues are stale all the same.
    assert Club.objects.get(pk=evening_a.club_id).results_version == version + 1


def test_an_evening_switched_to_what_it_is_changes_nothing(announced, evening_a):
    pulka = ended_early(evening_a)
    announced.clear()
    version = Club.objects.get(pk=evening_a.club_id).results_version

    services.evening_count(evening=evening_a, counted=True)

    assert announced == []
    assert Club.objects.get(pk=evening_a.club_id).results_version == version
    assert not PulkaResultCache.objects.filter(pulka=pulka, counted=False).exists()


def test_an_evening_without_results_switched_off_announces_nothing(announced, evening_a):
    make_pulka(evening_a)
    version = Club.objects.get(pk=evening_a.club_id).results_version

    services.evening_count(evening=evening_a, counted=False)

    assert announced == []
    assert Club.objects.get(pk=evening_a.club_id).results_version == version
    assert Evening.objects.get(pk=evening_a.pk).counted is False


def test_an_evening_counts_unless_told_otherwise_and_its_words_are_trimmed():
    club = make_club()

    evening = services.evening_create(
        club=club, date=datetime.date(2024, 5, 17), venue=" Hall ", notes=" late ", created_by=None
    )

    evening.refresh_from_db()
    assert (evening.counted, evening.venue, evening.notes) == (True, "Hall", "late")


def test_a_new_date_moves_the_cached_results_and_re_rates_from_the_earlier(announced, evening_a):
    evening_a.date = datetime.date(2024, 5, 17)
    evening_a.save()
    pulka = ended_early(evening_a)
    announced.clear()

    moved = services.evening_update(
        evening=evening_a, date=datetime.date(2024, 5, 10), venue="Room ", notes=""
    )

    day = datetime.date(2024, 5, 10)
    assert (moved, moved.date, moved.venue) == (evening_a, day, "Room")
    assert set(PulkaResultCache.objects.filter(pulka=pulka).values_list("date", flat=True)) == {day}
    assert set(PairResultCache.objects.filter(pulka=pulka).values_list("date", flat=True)) == {day}
    assert announced == [(Evening, evening_a.club, day)]
    assert Evening.objects.get(pk=evening_a.pk).venue == "Room"


def test_the_same_date_re_rates_nothing(announced, evening_a):
    ended_early(evening_a)
    announced.clear()
    version = Club.objects.get(pk=evening_a.club_id).results_version

    services.evening_update(evening=evening_a, date=evening_a.date, venue="Room", notes="x")

    assert announced == []
    assert Club.objects.get(pk=evening_a.club_id).results_version == version
