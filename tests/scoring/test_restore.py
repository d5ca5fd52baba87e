"""Restoring a pulka as a backup holds it (scoring.services.pulka_restore): its table, status,
who entered and changed each deal, its history; and every part of it the service refuses.

The backup's own reading of the file is tested in tests/competition/test_backup.py; here the
service is called directly, with the values the backup would pass it."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from scoring import signals
from scoring.models import (
    MAX_DEALS,
    Deal,
    DealRevision,
    Pulka,
    PulkaResultCache,
    PulkaStatus,
    StatusChange,
)
from scoring.services import (
    RestoredDeal,
    RestoredRevision,
    RestoredStatus,
    ScoringError,
    pulka_restore,
)
from tests.conftest import database_state, make_evening, make_user
from tests.scoring.factories import PASS_OUT_ROUND, SIX_BY_BORIS

pytestmark = pytest.mark.django_db

SPREAD = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
AT = datetime.datetime(2025, 11, 3, 19, 30, tzinfo=datetime.UTC)


def document(*deals: dict, pool_target: int = 10) -> dict:
    return {
        "format": "pulka/1",
        "players": ["Anna", "Boris", "Vera"],
        "first_dealer": "Boris",
        "rules": {"pool_target": pool_target},
        "deals": list(deals),
    }


def stamp(version: int = 1, by=None, minutes: int = 0) -> RestoredDeal:
    at = AT + datetime.timedelta(minutes=minutes)
    return RestoredDeal(version=version, entered_by=by, entered_at=at, changed_by=by, changed_at=at)


def restore(evening, doc: dict, **overrides) -> Pulka:
    """pulka_restore with a stamp for every deal of `doc` and no history unless given."""
    arguments = {
        "evening": evening,
        "document": doc,
        "table": 1,
        "status": PulkaStatus.RUNNING,
        "created_by": None,
        "created_at": AT,
        "finished_at": None,
        "deals": [stamp(minutes=i) for i, _ in enumerate(doc["deals"])],
        "revisions": [],
        "status_changes": [],
        **overrides,
    }
    return pulka_restore(**arguments)


@pytest.fixture
def evening(club_a):
    return make_evening(club_a, date=datetime.date(2025, 11, 3))


def test_a_pulka_is_restored_with_its_stamps_and_history(evening):
    olena, serhii = make_user(username="olena"), make_user(username="serhii")
    later = AT + datetime.timedelta(hours=1)
    deals = [
        RestoredDeal(
            version=3, entered_by=olena, entered_at=AT, changed_by=serhii, changed_at=later
        ),
        RestoredDeal(
            version=1, entered_by=serhii, entered_at=later, changed_by=None, changed_at=later
        ),
    ]
    revisions = [
        RestoredRevision(
            number=1, deal=1, action="created", before=None, after={"x": 1}, user=olena, at=AT
        ),
        RestoredRevision(
            number=2, deal=None, action="deleted", before={"y": 2}, after=None, user=None, at=AT
        ),
        RestoredRevision(
            number=2,
            deal=2,
            action="changed",
            before={"y": 2},
            after={"y": 3},
            user=serhii,
            at=later,
        ),
    ]
    changes = [RestoredStatus(status="finished", user=serhii, at=later)]

    pulka = restore(
        evening,
        document(SIX_BY_BORIS, SPREAD),
        table=4,
        status=PulkaStatus.FINISHED,
        created_by=olena,
        finished_at=later,
        deals=deals,
        revisions=revisions,
        status_changes=changes,
        deal_cap=2,
    )

    pulka.refresh_from_db()
    assert (pulka.evening, pulka.table, pulka.status, pulka.deal_cap) == (
        evening,
        4,
        PulkaStatus.FINISHED,
        2,
    )
    assert (pulka.created_by, pulka.created_at, pulka.finished_at) == (olena, AT, later)
    assert pulka.first_dealer == 1
    assert pulka.names == ["Anna", "Boris", "Vera"]
    assert list(
        Deal.objects.filter(pulka=pulka)
        .order_by("number")
        .values_list(
            "number", "kind", "version", "entered_by", "entered_at", "changed_by", "changed_at"
        )
    ) == [
        (1, "game", 3, olena.pk, AT, serhii.pk, later),
        (2, "raspasy", 1, serhii.pk, later, None, later),
    ]
    assert [
        (r.number, r.deal and r.deal.number, r.action, r.before, r.after, r.user, r.at)
        for r in DealRevision.objects.filter(pulka=pulka).order_by("pk")
    ] == [
        (1, 1, "created", None, {"x": 1}, olena, AT),
        (2, None, "deleted", {"y": 2}, None, None, AT),
        (2, 2, "changed", {"y": 2}, {"y": 3}, serhii, later),
    ]
    assert list(StatusChange.objects.filter(pulka=pulka).values_list("status", "user", "at")) == [
        ("finished", serhii.pk, later)
    ]
    # Finished: its results are cached at once, as the deals settle it.
    cached = dict(PulkaResultCache.objects.filter(pulka=pulka).values_list("player__name", "place"))
    assert sorted(cached) == ["Anna", "Boris", "Vera"]


def test_a_deal_of_version_zero_is_stored_as_version_one(evening):
    pulka = restore(evening, document(SIX_BY_BORIS, SPREAD), deals=[stamp(0), stamp(1)])

    assert list(Deal.objects.filter(pulka=pulka).values_list("version", flat=True)) == [1, 1]


def test_anonymous_users_are_stored_as_nobody(evening):
    nobody = AnonymousUser()
    line = RestoredRevision(
        number=1, deal=1, action="created", before=None, after=None, user=nobody, at=AT
    )

    pulka = restore(
        evening,
        document(SPREAD),
        created_by=nobody,
        deals=[RestoredDeal(1, nobody, AT, nobody, AT)],
        revisions=[line],
        status_changes=[RestoredStatus(status="running", user=nobody, at=AT)],
    )

    pulka.refresh_from_db()
    deal = Deal.objects.get(pulka=pulka)
    assert (pulka.created_by, deal.entered_by, deal.changed_by) == (None, None, None)
    assert DealRevision.objects.get(pulka=pulka).user is None
    assert StatusChange.objects.get(pulka=pulka).user is None


def test_a_running_pulka_has_no_end_and_an_ended_one_without_a_moment_ends_now(evening):
    running = restore(evening, document(SPREAD), finished_at=AT)
    before = timezone.now()
    ended = restore(evening, document(SPREAD), table=2, status=PulkaStatus.ABANDONED)

    running.refresh_from_db()
    ended.refresh_from_db()
    assert running.finished_at is None
    assert ended.finished_at >= before
    # Only a finished pulka has results to cache.
    assert not PulkaResultCache.objects.exists()


def test_a_restore_announces_nothing(evening):
    """The backup re-rates the club once, after its last pulka."""
    sent = []

    def listen(sender, **kwargs):
        sent.append(kwargs)

    signals.results_changed.connect(listen)
    try:
        restore(evening, document(SIX_BY_BORIS), status=PulkaStatus.FINISHED, finished_at=AT)
    finally:
        signals.results_changed.disconnect(listen)

    assert sent == []
    assert PulkaResultCache.objects.filter(pulka__evening=evening).count() == 3


@pytest.mark.parametrize(
    ("cap", "deals", "status"),
    [
        (1, 1, PulkaStatus.FINISHED),
        (2, 1, PulkaStatus.RUNNING),
        (MAX_DEALS, 2, PulkaStatus.RUNNING),
    ],
)
def test_a_table_within_its_cap_is_restored(evening, cap, deals, status):
    pulka = restore(evening, document(*[SPREAD] * deals), status=status, deal_cap=cap)

    pulka.refresh_from_db()
    assert (pulka.deal_cap, pulka.status, pulka.deals.count()) == (cap, status, deals)


def test_the_first_table_and_the_last_revision_line_are_accepted(evening):
    lines = [
        RestoredRevision(
            number=n, deal=n, action="created", before=None, after=None, user=None, at=AT
        )
        for n in (1, 2)
    ]

    pulka = restore(evening, document(SPREAD, SPREAD), table=1, revisions=lines)

    assert pulka.table == 1
    assert [r.deal.number for r in DealRevision.objects.filter(pulka=pulka).order_by("number")] == [
        1,
        2,
    ]


def revision(**fields) -> RestoredRevision:
    line = {"number": 7, "deal": 1, "action": "created", "before": None, "after": None}
    return RestoredRevision(**{**line, **fields}, user=None, at=AT)


@pytest.mark.parametrize(
    ("overrides", "doc", "message"),
    [
        ({"status": "paused"}, document(SPREAD), "Unknown status of a pulka: paused."),
        (
            {"status": PulkaStatus.RUNNING},
            document(*PASS_OUT_ROUND, pool_target=2),
            "Every pool of this pulka is closed: it cannot be running.",
        ),
        ({"deal_cap": 0}, document(SPREAD), "A deal cap is a number from 1 to 500."),
        ({"deal_cap": MAX_DEALS + 1}, document(SPREAD), "A deal cap is a number from 1 to 500."),
        ({"deal_cap": True}, document(SPREAD), "A deal cap is a number from 1 to 500."),
        ({"deal_cap": "2"}, document(SPREAD), "A deal cap is a number from 1 to 500."),
        (
            {"deal_cap": 1},
            document(SPREAD, SPREAD),
            "This table plays at most 1 deals, and the file holds 2.",
        ),
        (
            {"deal_cap": 2, "status": PulkaStatus.RUNNING},
            document(SPREAD, SPREAD),
            "This table plays at most 2 deals, and the file holds 2.",
        ),
        ({"table": 0}, document(SPREAD), "Table 0 cannot be added to this evening."),
        ({"deals": []}, document(SPREAD), "Each deal needs one line saying who entered it."),
        (
            {"revisions": [revision(action="renamed")]},
            document(SPREAD),
            "A line of the history of deal 7 is not understood.",
        ),
        (
            {"revisions": [revision(deal=0)]},
            document(SPREAD),
            "A line of the history of deal 7 is not understood.",
        ),
        (
            {"revisions": [revision(deal=2)]},
            document(SPREAD),
            "A line of the history of deal 7 is not understood.",
        ),
        (
            {"status_changes": [RestoredStatus(status="paused", user=None, at=AT)]},
            document(SPREAD),
            "A line of the pulka's history is not understood.",
        ),
    ],
)
def test_a_restore_the_service_refuses_saves_nothing_and_says_why(evening, overrides, doc, message):
    before = database_state()

    with pytest.raises(ScoringError) as refused:
        restore(evening, doc, **overrides)

    assert refused.value.message == message
    assert database_state() == before


def test_a_table_the_evening_has_already_is_refused(evening):
    restore(evening, document(SPREAD), table=3)
    before = database_state()

    with pytest.raises(ScoringError) as refused:
        restore(evening, document(SIX_BY_BORIS), table=3)

    assert refused.value.message == "Table 3 cannot be added to this evening."
    assert database_state() == before
    # Another evening has its own table 3.
    assert restore(make_evening(evening.club), document(SPREAD), table=3).table == 3
