"""The round clock: a tournament's round length and last-deal rule, the clock started with
the round on the round and every table, minutes added to all tables or one, pause and
resume, and every table whose time is out ended in one action; the organiser's buttons."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from competition.models import LastDeal, Round, RoundState, Tournament
from competition.tournament import services
from competition.tournament.services import TournamentServiceError, deals_after_time
from scoring.models import Pulka, PulkaStatus
from tests.club.factories import MANAGE, assert_fragment, assert_full_page, html
from tests.competition.factories import RULES, draft, make_tournament, play_table, published
from tests.conftest import HTMX, PERSONAS

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 5, 9, 10, 0, tzinfo=datetime.UTC)
MINUTE = datetime.timedelta(minutes=1)


def at(minutes: float):
    """Frozen time, `minutes` after START."""
    return time_machine.travel(START + minutes * MINUTE, tick=False)


def pulkas(round: Round) -> list[Pulka]:
    return list(Pulka.objects.filter(tournament_table__round=round).order_by("table"))


def clocks(round: Round) -> list[tuple]:
    return [(p.table, p.ends_at, p.paused_left, p.deals_after_time) for p in pulkas(round)]


def fresh(round: Round) -> Round:
    found = Round.objects.select_related("tournament__club").get(pk=round.pk)
    return found


@pytest.fixture
def timed(club_a):
    # Sochi to 10: a table plays a few deals and still runs.
    return make_tournament(
        club_a, rules=RULES, round_minutes=100, last_deal=LastDeal.MORE, more_deals=2
    )


@pytest.fixture
def playing(timed) -> Round:
    with at(0):
        return services.round_start(round=published(timed))


# --- the settings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "more", "expected"),
    [("", None, None), ("current", None, 1), ("more", 1, 2), ("more", 3, 4)],
)
def test_the_last_deal_rule_says_how_many_deals_may_start_once_time_is_out(rule, more, expected):
    assert deals_after_time(Tournament(last_deal=rule, more_deals=more)) == expected


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"round_minutes": 0}, "round_minutes", "1 to 600 minutes"),
        ({"round_minutes": 601}, "round_minutes", "1 to 600 minutes"),
        ({"round_minutes": 100, "last_deal": "later"}, "last_deal", "what happens"),
        ({"last_deal": "current"}, "last_deal", "length in minutes"),
        ({"round_minutes": 100, "last_deal": "more"}, "more_deals", "how many deals more"),
        ({"round_minutes": 100, "last_deal": "more", "more_deals": 21}, "more_deals", "1 to 20"),
    ],
)
def test_a_clock_setting_that_makes_no_sense_is_refused_on_its_field(club_a, fields, field, words):
    with pytest.raises(TournamentServiceError) as refused:
        make_tournament(club_a, **fields)

    assert refused.value.field == field
    assert words in refused.value.message


def test_more_deals_is_kept_only_for_the_rule_that_reads_it(club_a):
    cup = make_tournament(club_a, round_minutes=90, last_deal="more", more_deals=2)

    services.tournament_update(tournament=cup, last_deal="current", more_deals=2)
    cup.refresh_from_db()

    assert (cup.round_minutes, cup.last_deal, cup.more_deals) == (90, "current", None)


# --- starting the round ---------------------------------------------------------------------


def test_starting_a_timed_round_starts_its_clock_and_every_tables(playing):
    ends = START + 100 * MINUTE

    round = fresh(playing)
    assert (round.state, round.ends_at, round.paused_left) == (RoundState.PLAYING, ends, None)
    # The rule "2 more": the deal in progress at time, and two after it.
    assert clocks(round) == [(n, ends, None, 3) for n in (1, 2, 3)]


def test_an_untimed_round_starts_with_no_clock(club_a):
    round = services.round_start(round=published(make_tournament(club_a)))

    assert (fresh(round).ends_at, fresh(round).paused_left) == (None, None)
    assert {(p.ends_at, p.paused_left, p.deals_after_time) for p in pulkas(round)} == {
        (None, None, None)
    }


def test_the_rule_current_lets_the_deal_in_progress_be_the_last(club_a):
    cup = make_tournament(club_a, round_minutes=60, last_deal="current")
    with at(0):
        round = services.round_start(round=published(cup))

    assert {p.deals_after_time for p in pulkas(round)} == {1}


def test_a_table_ended_before_the_start_gets_no_clock(timed):
    round = published(timed)
    services.table_end(round=round, number=2, by=None)
    with at(0):
        services.round_start(round=round)

    assert [p.ends_at is None for p in pulkas(round)] == [False, True, False]


# --- adding minutes ---------------------------------------------------------------------------


def test_minutes_added_to_every_table_move_the_round_and_each_tables_clock(playing):
    with at(10):
        services.round_clock_add(round=playing, minutes=5, table=2)
        services.round_clock_add(round=playing, minutes=10)

    assert fresh(playing).ends_at == START + 110 * MINUTE
    assert [ends for _n, ends, _p, _d in clocks(playing)] == [
        START + 110 * MINUTE,
        START + 115 * MINUTE,  # its own 5 minutes kept
        START + 110 * MINUTE,
    ]


def test_minutes_for_a_table_whose_time_is_out_count_from_now(playing):
    with at(130):
        services.round_clock_add(round=playing, minutes=5, table=1)

    assert pulkas(playing)[0].ends_at == START + 135 * MINUTE
    assert pulkas(playing)[1].ends_at == START + 100 * MINUTE


@pytest.mark.parametrize("minutes", [0, -5, 241, 10**6])
def test_minutes_out_of_range_are_refused_and_change_nothing(playing, minutes):
    before = clocks(playing)

    with pytest.raises(TournamentServiceError, match="1 to 240 minutes"):
        services.round_clock_add(round=playing, minutes=minutes)

    assert clocks(playing) == before


def test_minutes_for_an_ended_or_unknown_table_are_refused(playing):
    services.table_end(round=playing, number=3, by=None)
    before = clocks(playing)

    with pytest.raises(TournamentServiceError, match="Table 3 has ended"):
        services.round_clock_add(round=playing, minutes=5, table=3)
    with pytest.raises(TournamentServiceError, match="no table 9"):
        services.round_clock_add(round=playing, minutes=5, table=9)

    assert clocks(playing) == before


def test_the_clock_of_a_round_not_started_or_untimed_cannot_be_moved(club_a, timed):
    round = published(timed)
    with pytest.raises(TournamentServiceError, match="Round 1 is published"):
        services.round_clock_add(round=round, minutes=5)

    untimed = services.round_start(round=published(make_tournament(club_a, names=("A", "B", "C"))))
    for act in (services.round_clock_pause, services.round_clock_resume):
        with pytest.raises(TournamentServiceError, match="has no clock"):
            act(round=untimed)


# --- pause and resume -------------------------------------------------------------------------


def test_a_paused_clock_keeps_what_each_table_had_left_and_resumes_from_it(playing):
    with at(10):
        services.round_clock_add(round=playing, minutes=5, table=1)
    with at(40):
        services.round_clock_pause(round=playing)

    assert (fresh(playing).ends_at, fresh(playing).paused_left) == (None, 60 * MINUTE)
    assert [(ends, left) for _n, ends, left, _d in clocks(playing)] == [
        (None, 65 * MINUTE),
        (None, 60 * MINUTE),
        (None, 60 * MINUTE),
    ]

    with at(55):  # a quarter of an hour's break
        services.round_clock_resume(round=playing)

    assert (fresh(playing).ends_at, fresh(playing).paused_left) == (START + 115 * MINUTE, None)
    assert [(ends, left) for _n, ends, left, _d in clocks(playing)] == [
        (START + 120 * MINUTE, None),
        (START + 115 * MINUTE, None),
        (START + 115 * MINUTE, None),
    ]
    assert {d for *_rest, d in clocks(playing)} == {3}  # the rule stays


def test_minutes_added_while_paused_are_added_to_what_is_left(playing):
    with at(40):
        services.round_clock_pause(round=playing)
        services.round_clock_add(round=playing, minutes=10)

    assert fresh(playing).paused_left == 70 * MINUTE
    assert {left for _n, _e, left, _d in clocks(playing)} == {70 * MINUTE}


def test_pausing_twice_or_resuming_a_running_clock_is_refused(playing):
    with pytest.raises(TournamentServiceError, match="not paused"):
        services.round_clock_resume(round=playing)
    with at(5):
        services.round_clock_pause(round=playing)
    before = clocks(playing)

    with pytest.raises(TournamentServiceError, match="already paused"):
        services.round_clock_pause(round=playing)

    assert clocks(playing) == before


# --- ending the tables at time ------------------------------------------------------------


def test_ending_at_time_is_refused_before_any_tables_time_is_out(playing):
    with at(99), pytest.raises(TournamentServiceError, match="No table's time is out yet"):
        services.round_end_at_time(round=playing, by=None)

    assert {p.status for p in pulkas(playing)} == {PulkaStatus.RUNNING}


def test_ending_at_time_ends_every_running_table_whose_time_is_out_and_no_other(playing):
    first, second, third = pulkas(playing)
    play_table(first, deals=2)
    assert first.status == PulkaStatus.RUNNING
    with at(50):
        services.round_clock_add(round=playing, minutes=15, table=3)

    with at(101):
        ended = services.round_end_at_time(round=playing, by=None)

    assert ended == [1, 2]
    statuses = [p.status for p in pulkas(playing)]
    # Table 1 had deals: settled as unfinished; table 2 had none: set aside, as table_end does.
    assert statuses == [PulkaStatus.FINISHED, PulkaStatus.ABANDONED, PulkaStatus.RUNNING]

    with at(116):
        assert services.round_end_at_time(round=playing, by=None) == [3]
    with at(117), pytest.raises(TournamentServiceError, match="Every table"):
        services.round_end_at_time(round=playing, by=None)


def test_a_paused_clock_is_never_out(playing):
    with at(99):
        services.round_clock_pause(round=playing)

    with at(500), pytest.raises(TournamentServiceError, match="No table's time is out yet"):
        services.round_end_at_time(round=playing, by=None)


# --- the organiser's buttons ----------------------------------------------------------------


def url(round: Round, action: str | None = None) -> str:
    name = "competition:round-detail" if action is None else f"competition:round-{action}"
    return reverse(name, args=[round.tournament.club.slug, round.tournament_id, round.number])


ACTIONS = [
    ("clock-add", {"minutes": "5"}),
    ("clock-pause", {}),
    ("end-at-time", {}),
]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(("action", "data"), ACTIONS)
def test_only_the_owner_works_the_clock(as_persona, playing, persona, action, data):
    before = clocks(playing)
    with at(100):
        response = as_persona(persona).post(url(playing, action), data)

    assert response.status_code == (302 if persona == "owner" else MANAGE[persona])
    if persona != "owner":
        assert clocks(playing) == before
        assert {p.status for p in pulkas(playing)} == {PulkaStatus.RUNNING}
    else:
        assert response["Location"] == url(playing)
        assert clocks(playing) != before or action == "end-at-time"


def test_the_owner_adds_minutes_to_one_table_with_htmx(client, owner, playing):
    client.force_login(owner)
    with at(20):
        response = client.post(
            url(playing, "clock-add"), {"minutes": "7", "table": "2"}, headers=HTMX
        )

    text = assert_fragment(response, "round")
    assert "Table 2 has 7 minutes more." in text
    assert [ends for _n, ends, _p, _d in clocks(playing)][1] == START + 107 * MINUTE


@pytest.mark.parametrize(
    "data", [{}, {"minutes": "x"}, {"minutes": "0"}, {"minutes": "5", "table": "٣"}]
)
def test_bad_minutes_are_refused_with_a_message_and_change_nothing(client, owner, playing, data):
    client.force_login(owner)
    before = clocks(playing)

    response = client.post(url(playing, "clock-add"), data, headers=HTMX)

    text = assert_fragment(response, "round")
    assert 'id="round-outcome"' in text
    assert 'class="message error"' in text
    assert clocks(playing) == before


def test_the_owner_pauses_resumes_and_ends_at_time_from_the_round_page(client, owner, playing):
    client.force_login(owner)
    with at(30):
        text = assert_full_page(client.get(url(playing)), "round-clock")
        assert 'id="pause-clock"' in text
        assert "1:10:00 left" in text
        paused = html(client.post(url(playing, "clock-pause"), headers=HTMX))
    assert "The clock is paused." in paused
    assert 'id="resume-clock"' in paused
    assert "paused, 1:10:00 left" in paused

    with at(40):
        resumed = html(client.post(url(playing, "clock-resume"), headers=HTMX))
    assert "The clock runs again." in resumed
    assert fresh(playing).ends_at == START + 110 * MINUTE

    with at(50):
        early = html(client.post(url(playing, "end-at-time"), headers=HTMX))
    assert "No table&#x27;s time is out yet" in early
    with at(111):
        ended = html(client.post(url(playing, "end-at-time"), headers=HTMX))
    assert "Tables 1, 2, 3 are ended on time." in ended
    assert {p.status for p in pulkas(playing)} == {PulkaStatus.ABANDONED}


def test_the_clock_is_shown_with_the_servers_times_for_the_browser(client, owner, playing):
    client.force_login(owner)
    with at(95):
        text = html(client.get(url(playing)))

    assert 'role="timer"' in text
    assert 'data-left="300.000"' in text
    assert 'data-paused="false"' in text
    assert f'data-now="{timezone.localtime(START + 95 * MINUTE).isoformat()}"' in text
    assert "clock-warning" in text  # the last ten minutes
    with at(101):
        assert "time is up" in html(client.get(url(playing)))


def test_publishing_asks_for_the_planned_start_and_the_pages_show_it(client, owner, timed):
    round = draft(timed)
    client.force_login(owner)
    text = html(client.get(url(round)))
    assert 'name="starts_at"' in text
    assert 'type="datetime-local"' in text

    response = client.post(url(round, "publish"), {"starts_at": "2026-05-09T10:30"}, headers=HTMX)

    assert "is published" in html(response)
    round = fresh(round)
    assert timezone.localtime(round.starts_at).strftime("%H:%M") == "10:30"
    assert 'id="round-starts-at"' in html(client.get(url(round)))
    find = reverse("competition:tournament-find", args=[timed.club.slug, timed.pk])
    assert 'id="find-starts-at"' in html(client.get(find))
    screen = reverse("competition:tournament-screen", args=[timed.club.slug, timed.pk])
    assert 'id="screen-starts-at"' in html(client.get(screen))


def test_a_planned_start_that_is_no_time_is_refused_and_nothing_is_published(client, owner, timed):
    from tests.competition.factories import draft

    round = draft(timed)
    client.force_login(owner)

    response = client.post(url(round, "publish"), {"starts_at": "tomorrow"}, headers=HTMX)

    assert 'class="message error"' in html(response)
    assert fresh(round).state == RoundState.DRAFT


def test_the_projector_and_find_your_table_show_the_rounds_clock(client, owner, playing):
    client.force_login(owner)
    club, cup = playing.tournament.club, playing.tournament
    with at(30):
        screen = html(
            client.get(reverse("competition:tournament-screen", args=[club.slug, cup.pk]))
        )
        find = html(client.get(reverse("competition:tournament-find", args=[club.slug, cup.pk])))

    assert 'id="screen-clock"' in screen
    assert "1:10:00 left" in screen
    assert "js/clock.js" in screen
    assert 'id="find-clock"' in find
