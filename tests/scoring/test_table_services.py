"""The services of the table's own entry: the time rule on every entry, the judge's keep,
a correction resolving a dispute, the evening switch, the history and the live rows."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import Deal, DealCheck, DealRevision, Pulka, RevisionAction
from scoring.selectors import deal_check
from scoring.views import _row_print
from tests.conftest import HTMX, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS, no_play

pytestmark = pytest.mark.django_db


def at_table(pulka, data=SIX_BY_BORIS, seat=0):
    deal, _sheet = services.deal_record(pulka=pulka, data=data, entered_by=None, seat=seat)
    return deal


def state(pulka):
    pulka.refresh_from_db()
    return (
        pulka.version,
        list(Deal.objects.filter(pulka=pulka).values()),
        DealRevision.objects.count(),
    )


# --- the time rule ---


def _clock(pulka, ends_at, after):
    services.table_clock_set(
        pulkas=[pulka], ends_at=ends_at, paused_left=None, deals_after_time=after
    )


def test_after_the_time_the_rule_refuses_the_deal_beyond_the_last_even_to_a_secretary(
    pulka, secretary
):
    record(pulka, SIX_BY_BORIS)
    end = timezone.now() - datetime.timedelta(minutes=1)
    Deal.objects.filter(pulka=pulka).update(entered_at=end - datetime.timedelta(minutes=5))
    _clock(pulka, end, 1)
    services.deal_record(pulka=pulka, data=no_play("Vera", "Anna", "Boris"), entered_by=secretary)

    with pytest.raises(services.ScoringError) as refused:
        services.deal_record(
            pulka=pulka, data=no_play("Anna", "Boris", "Vera"), entered_by=secretary
        )

    assert refused.value.message == "Time is up: deal 2 was the last one."
    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_before_the_time_or_without_a_rule_deals_go_on(pulka):
    _clock(pulka, timezone.now() + datetime.timedelta(minutes=5), 0)
    record(pulka, SIX_BY_BORIS)
    _clock(pulka, timezone.now() - datetime.timedelta(minutes=5), None)
    record(pulka, no_play("Vera", "Anna", "Boris"))

    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_the_pulka_page_says_the_last_deal_has_begun(as_persona, pulka):
    _clock(pulka, timezone.now() - datetime.timedelta(minutes=1), 1)

    html = as_persona("secretary").get(pulka.get_absolute_url()).content.decode()

    assert "The last deal has begun." in html


# --- the judge resolves ---


@pytest.fixture
def disputed(pulka):
    at_table(pulka)
    services.deal_dispute(
        pulka=pulka, number=1, expected_version=1, seat=2, user=None, reason="seven, not six"
    )
    return pulka


def _keep(client, pulka, htmx=True, **data):
    return client.post(
        reverse("scoring:deal-keep", args=[pulka.evening.club.slug, pulka.pk, 1]),
        {"version": "1", **data},
        headers=HTMX if htmx else {},
    )


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    ("persona", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)]
)
def test_only_a_secretary_keeps_a_disputed_deal(as_persona, disputed, persona, status, htmx):
    before = state(disputed)

    response = _keep(as_persona(persona), disputed, htmx=htmx)

    assert response.status_code == status
    assert state(disputed) == before


@pytest.mark.parametrize("htmx", [False, True])
def test_the_secretary_keeps_a_disputed_deal_and_it_is_confirmed(
    as_persona, disputed, secretary, htmx
):
    response = _keep(as_persona("secretary"), disputed, htmx=htmx)

    deal = Deal.objects.get(pulka=disputed)
    assert (deal.confirmation, deal.confirmed_seat) == (DealCheck.CONFIRMED, None)
    line = DealRevision.objects.get(action=RevisionAction.KEPT)
    assert line.user == secretary
    if htmx:
        html = response.content.decode()
        assert "Deal 1 is kept as entered: it is confirmed." in html
        assert "confirmed by the judge" in html
        assert "<html" not in html
    else:
        assert response.status_code == 302


def test_the_pulka_page_shows_the_dispute_and_the_keep_button_to_secretaries_only(
    as_persona, disputed
):
    secretary = as_persona("secretary").get(disputed.get_absolute_url()).content.decode()

    assert "disputed by Vera (seat 3): seven, not six" in secretary
    assert "Keep deal 1 as entered" in secretary


def test_a_player_sees_the_dispute_without_the_keep_button(as_persona, disputed):
    html = as_persona("player").get(disputed.get_absolute_url()).content.decode()

    assert "disputed by Vera (seat 3): seven, not six" in html
    assert "Keep deal 1 as entered" not in html


def test_keeping_a_deal_nobody_disputes_is_refused(pulka, secretary):
    record(pulka, SIX_BY_BORIS)

    with pytest.raises(services.ScoringError, match="awaits no decision"):
        services.deal_keep(pulka=pulka, number=1, expected_version=1, kept_by=secretary)


def test_on_a_locked_table_only_the_owner_keeps_and_says_why(disputed, secretary, owner):
    services.pulka_lock(pulka=disputed)
    disputed = Pulka.objects.get(pk=disputed.pk)

    with pytest.raises(services.ScoringError, match="Only the club's owner"):
        services.deal_keep(pulka=disputed, number=1, expected_version=1, kept_by=secretary)
    with pytest.raises(services.ScoringError, match="Say why"):
        services.deal_keep(pulka=disputed, number=1, expected_version=1, kept_by=owner)
    services.deal_keep(
        pulka=disputed, number=1, expected_version=1, kept_by=owner, reason="Seen by the judge"
    )

    assert DealRevision.objects.get(action=RevisionAction.KEPT).reason == "Seen by the judge"


def test_a_correction_of_a_disputed_deal_makes_it_the_judges_confirmed_one(disputed, secretary):
    services.deal_update(
        pulka=disputed,
        number=1,
        data={**SIX_BY_BORIS, "contract": "7S", "tricks": {"Boris": 7, "Vera": 2, "Anna": 1}},
        expected_version=1,
        changed_by=secretary,
    )

    deal = Deal.objects.get(pulka=disputed)
    assert (deal.confirmation, deal.confirmed_seat, deal.dispute_reason) == (
        DealCheck.CONFIRMED,
        None,
        "seven, not six",
    )


# --- the history and the live rows ---


def test_the_history_names_the_seat_and_player_of_each_step_at_the_table(as_persona, pulka):
    at_table(pulka)
    services.deal_confirm(pulka=pulka, number=1, expected_version=1, seat=1, user=None)

    html = as_persona("player").get(pulka.get_absolute_url() + "history/").content.decode()

    assert "at the table by Anna (seat 1)" in html
    assert "at the table by Boris (seat 2)" in html
    assert "confirmed" in html


def test_a_confirmation_changes_the_deal_rows_print_so_the_polls_swap_it(pulka):
    deal = at_table(pulka)
    item = {
        "deal": deal,
        "data": {},
        "dealer": "Anna",
        "entries": (),
        "raspasy_cost": None,
        "entered_by": None,
        "changed_by": None,
        "check": deal_check(deal, pulka.names),
    }
    before = _row_print(item)
    confirmed = services.deal_confirm(pulka=pulka, number=1, expected_version=1, seat=1, user=None)

    assert (
        _row_print({**item, "deal": confirmed, "check": deal_check(confirmed, pulka.names)})
        != before
    )


def test_the_secretarys_live_rows_show_the_confirmation_from_another_phone(as_persona, pulka):
    at_table(pulka)
    client = as_persona("secretary")
    pulka.refresh_from_db()
    held = pulka.version
    services.deal_confirm(pulka=pulka, number=1, expected_version=1, seat=1, user=None)

    response = client.get(pulka.get_absolute_url() + "live/", {"v": held}, headers=HTMX)

    assert "confirmed by Boris (seat 2)" in response.content.decode()


# --- the evening switch ---


def test_switching_on_self_entry_gives_each_running_table_its_link_and_off_kills_them(
    evening_a, pulka
):
    ended = make_pulka(evening_a, names=("Gleb", "Dana", "Lena"))
    dana_six = {
        "kind": "game",
        "declarer": "Dana",
        "contract": "6S",
        "calls": {"Lena": "whist", "Gleb": "pass"},
        "tricks": {"Dana": 6, "Lena": 3, "Gleb": 1},
    }
    record(ended, dana_six)
    services.pulka_finish(pulka=ended, finished_by=None)

    services.evening_self_entry(evening=evening_a, on=True)
    new = make_pulka(evening_a, names=("Ivan", "Oksana", "Petro"))

    pulka.refresh_from_db()
    ended.refresh_from_db()
    assert pulka.table_token
    assert new.table_token
    assert ended.table_token is None
    services.evening_self_entry(evening=evening_a, on=False)
    assert set(Pulka.objects.filter(evening=evening_a).values_list("table_token", flat=True)) == {
        None
    }


def test_the_evening_form_switches_self_entry(as_persona, evening_a, pulka):
    url = reverse("scoring:evening-edit", args=[evening_a.club.slug, evening_a.pk])
    data = {"date": "2024-05-01", "venue": "Club room", "notes": "", "self_entry": "on"}

    as_persona("secretary").post(url, data)

    evening_a.refresh_from_db()
    pulka.refresh_from_db()
    assert evening_a.self_entry
    assert pulka.table_token


def test_the_evening_page_shows_each_tables_link_and_qr_to_secretaries_only(
    as_persona, client, evening_a, pulka, player
):
    services.evening_self_entry(evening=evening_a, on=True)
    pulka.refresh_from_db()
    link = reverse("scoring:table", args=[pulka.table_token])

    secretary = as_persona("secretary").get(evening_a.get_absolute_url()).content.decode()
    client.force_login(player)
    seen_by_player = client.get(evening_a.get_absolute_url()).content.decode()

    assert link in secretary
    assert "<svg" in secretary
    assert 'class="qr"' in secretary
    assert pulka.table_token not in seen_by_player


def test_a_table_entry_on_a_locked_pulka_is_refused_even_by_the_service(pulka):
    services.pulka_lock(pulka=pulka)
    pulka = Pulka.objects.get(pk=pulka.pk)

    with pytest.raises(services.ScoringError, match="This table has ended"):
        at_table(pulka)
    assert not Deal.objects.filter(pulka=pulka).exists()
