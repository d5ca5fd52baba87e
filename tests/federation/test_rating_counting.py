"""The federation's rating list (federation.rating): what counts, by person, and that it is
the clubs' own rating: an independent replay through rate_table gives the same list."""

from __future__ import annotations

import datetime
from collections import defaultdict

import pytest
from django.core.management import call_command

from club.models import Player
from competition.models import RatingSnapshot
from competition.rating.ratings import Rating, rate_table
from federation import rating
from federation.models import (
    FederationRefresh,
    MemberState,
    OpenEvent,
    Person,
    PersonLink,
    PersonRating,
    RatingList,
)
from scoring.models import PairResultCache, PulkaResultCache
from tests.competition.factories import make_tournament, play_round, rating_rows, rebuilt
from tests.conftest import make_club, make_evening
from tests.federation.conftest import join, make_federation
from tests.scoring.factories import ended_early, six

pytestmark = pytest.mark.django_db


def day(n: int) -> datetime.date:
    """A day of 2026."""
    return datetime.date(2026, 1, 1) + datetime.timedelta(days=n - 1)


def linked(federation, name: str, *players: Player) -> Person:
    """A person of the federation with these roster names."""
    person = Person.objects.create(federation=federation, name=name)
    PersonLink.objects.bulk_create(
        PersonLink(federation=federation, person=person, player=player) for player in players
    )
    return person


def played(club, n: int, *deals, names=("Anna", "Boris", "Vera")):
    """A pulka of the club on day n, ended early (rated)."""
    return ended_early(make_evening(club, date=day(n)), *deals, names=names)


def roster(club, *names: str) -> list[Player]:
    return [Player.objects.get(club=club, name=name) for name in names]


def listed(federation) -> list[tuple[int, str, int]]:
    """The list as (place, name, pulkas)."""
    return list(
        RatingList.objects.filter(federation=federation)
        .order_by("place", "person__sort_key")
        .values_list("place", "person__name", "pulkas")
    )


def counted_pulkas(federation) -> set[int]:
    results, _pairs = rating.counted_results(federation)
    return set(results.values_list("pulka_id", flat=True))


@pytest.fixture
def kyiv(clubs):
    return clubs[0]


@pytest.fixture
def lviv(clubs):
    return clubs[2]


# --- what counts -----------------------------------------------------------------------------


def test_a_member_clubs_pulkas_count_and_a_club_outside_does_not(federation, kyiv):
    ours = played(kyiv, 3)
    outside = played(make_club(), 3)

    assert counted_pulkas(federation) == {ours.pk}
    assert outside.pk not in counted_pulkas(federation)


def test_a_club_that_left_keeps_its_pulkas_before_the_day_it_left_and_only_those(federation, kyiv):
    before = played(kyiv, 3)
    on_the_day = played(kyiv, 10)
    after = played(kyiv, 20)
    kyiv_membership = federation.member_clubs.get(club=kyiv)
    kyiv_membership.state, kyiv_membership.left_on = MemberState.LEFT, day(10)
    kyiv_membership.save()

    assert counted_pulkas(federation) == {before.pk}
    assert {on_the_day.pk, after.pk}.isdisjoint(counted_pulkas(federation))


def test_pulkas_count_from_counts_from_and_an_invitation_counts_nothing(federation, kyiv):
    early = played(kyiv, 3)
    late = played(kyiv, 10)
    federation.member_clubs.filter(club=kyiv).update(counts_from=day(10))
    invited_only = make_club()
    federation.member_clubs.create(club=invited_only, state=MemberState.INVITED)
    not_yet = played(invited_only, 12)

    assert counted_pulkas(federation) == {late.pk}
    assert {early.pk, not_yet.pk}.isdisjoint(counted_pulkas(federation))


def test_a_club_of_another_federation_counts_there_only(federation, kyiv):
    other = make_federation(name="Odesa", slug="odesa")
    elsewhere = make_club(slug="odesa-club")
    join(other, elsewhere)
    theirs = played(elsewhere, 3)
    ours = played(kyiv, 3)

    assert counted_pulkas(federation) == {ours.pk}
    assert counted_pulkas(other) == {theirs.pk}


def test_an_evening_not_counted_does_not_count(federation, kyiv):
    evening = make_evening(kyiv, date=day(3), counted=False)
    ended_early(evening)

    assert counted_pulkas(federation) == set()


def test_the_tables_of_an_open_event_that_counts_count_whatever_their_club_or_flag(
    federation,
):
    host = make_club(slug="host")  # not a member: the event's own mark decides
    cup = make_tournament(host, names=("A1", "A2", "A3"), round_count=1, counted=False)
    OpenEvent.objects.create(
        tournament=cup,
        federation=federation,
        deadline=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
    )
    round_ = play_round(cup, deals=2)
    tables = set(round_.tables.values_list("pulka_id", flat=True))
    assert not PulkaResultCache.objects.filter(pulka_id__in=tables, counted=True).exists()

    assert counted_pulkas(federation) == tables
    OpenEvent.objects.filter(tournament=cup).update(counts_for_federation=False)
    assert counted_pulkas(federation) == set()


# --- by person ---------------------------------------------------------------------------------


def test_a_person_is_rated_across_his_clubs_and_an_unlinked_name_is_rated_but_not_listed(
    federation, kyiv, lviv
):
    played(kyiv, 3)
    played(lviv, 4, six("Vera", "Anna", "Boris"))
    anna = linked(federation, "Anna", *roster(kyiv, "Anna"), *roster(lviv, "Anna"))
    boris = linked(federation, "Boris", *roster(kyiv, "Boris"))  # Lviv's Boris: no link
    federation.rating_min_pulkas = 1
    federation.save()

    figures = rating.rebuild(federation)

    assert (figures.pulkas, figures.ratings, figures.persons) == (2, 3, 2)
    assert PersonRating.objects.filter(person=anna).count() == 2
    assert PersonRating.objects.filter(person=boris).count() == 1
    assert {name for _, name, _ in listed(federation)} == {"Anna", "Boris"}
    row = RatingList.objects.get(person=anna)
    assert (row.pulkas, row.last_date) == (2, day(4))
    assert row.clubs == sorted([kyiv.pk, lviv.pk])
    assert row.cities == ["Kyiv", "Lviv"]


def test_fewer_pulkas_than_the_least_are_rated_but_not_listed(federation, kyiv):
    played(kyiv, 3)
    played(kyiv, 4, six("Vera", "Anna", "Gleb"), names=("Anna", "Vera", "Gleb"))
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        linked(federation, name, *roster(kyiv, name))
    federation.rating_min_pulkas = 2
    federation.save()

    rating.rebuild(federation)

    assert sorted(name for _, name, _ in listed(federation)) == ["Anna", "Vera"]
    assert PersonRating.objects.filter(person__name="Gleb").count() == 1


def test_a_merged_person_is_not_listed(federation, kyiv):
    played(kyiv, 3)
    anna = linked(federation, "Anna", *roster(kyiv, "Anna"))
    old = Person.objects.create(federation=federation, name="Anna K.")
    old.merged_into = anna
    old.save()
    boris = linked(federation, "Boris", *roster(kyiv, "Boris"))
    Person.objects.filter(pk=boris.pk).update(merged_into=anna)
    federation.rating_min_pulkas = 1
    federation.save()

    rating.rebuild(federation)

    assert [name for _, name, _ in listed(federation)] == ["Anna"]


def test_equal_ratings_share_a_place_and_the_names_order_them():
    entries = [(1100.0, "b", 2), (1100.0, "c", 3), (1000.0, "a", 1), (900.0, "d", 4)]

    assert rating._placed(entries) == [1, 1, 3, 4]


def test_the_build_is_stamped_with_its_latest_pulka_and_nothing_counted_is_today(federation, kyiv):
    rating.rebuild(federation)
    assert FederationRefresh.objects.get(federation=federation).calculated_on == (
        datetime.date.today()
    )

    played(kyiv, 3)
    played(kyiv, 9)
    rating.rebuild(federation)

    refresh = FederationRefresh.objects.get(federation=federation)
    assert refresh.calculated_on == day(9)
    assert refresh.built_at is not None


# --- the same rating: an independent replay ---------------------------------------------------


def independent_list(federation, pulkas, person_of: dict[int, int], least: int):
    """The list replayed here, by rate_table alone, over `pulkas` in the order the clubs use:
    (person id, rating, pulkas), best first."""
    state: dict[object, Rating] = {}
    counts: dict[int, int] = defaultdict(int)
    ordered = sorted(
        pulkas, key=lambda p: (p.evening.date, p.finished_at is None, p.finished_at, p.pk)
    )
    for pulka in ordered:
        seats = list(
            PulkaResultCache.objects.filter(pulka=pulka)
            .order_by("position")
            .values_list("player_id", "place")
        )
        players = [player for player, _ in seats]
        nets = {
            (player, opponent): float(net)
            for player, opponent, net in PairResultCache.objects.filter(pulka=pulka).values_list(
                "player_id", "opponent_id", "net"
            )
        }
        keys = [person_of.get(player, ("p", player)) for player in players]
        after = rate_table(
            [state.get(key, Rating()) for key in keys],
            [place for _, place in seats],
            [[nets.get((i, j), 0.0) for j in players] for i in players],
        )
        for key, new in zip(keys, after, strict=True):
            state[key] = new
            if not isinstance(key, tuple):
                counts[key] += 1
    rows = [(key, state[key].display, n) for key, n in counts.items() if n >= least]
    return sorted(rows, key=lambda row: -row[1])


def test_the_list_equals_an_independent_replay_of_the_same_pulkas(federation, clubs):
    kyiv, pechersk, lviv = clubs
    names = ("Anna", "Boris", "Vera", "Gleb")
    pulkas = [
        played(kyiv, 3, six("Boris", "Vera", "Anna")),
        played(pechersk, 3, six("Boris", "Vera", "Gleb"), names=names),
        played(lviv, 5, six("Vera", "Anna", "Boris", tricks=5)),
        played(kyiv, 7, six("Anna", "Vera", "Boris"), six("Vera", "Boris", "Anna")),
        played(lviv, 7, six("Gleb", "Anna", "Vera"), names=("Gleb", "Anna", "Vera")),
        played(
            pechersk, 9, six("Boris", "Anna", "Gleb", tricks=7), names=("Boris", "Anna", "Gleb")
        ),
    ]
    played(make_club(), 4)  # outside: not counted
    for name in names:
        # Vera of Lviv is someone else: her own (unlinked) name.
        players = [p for c in clubs for p in Player.objects.filter(club=c, name=name)]
        if name == "Vera":
            players = [p for p in players if p.club != lviv]
        linked(federation, name, *players)
    federation.rating_min_pulkas = 3
    federation.save()
    person_of = rating.identities(federation)

    rating.rebuild(federation)

    expected = independent_list(federation, pulkas, person_of, least=3)
    got = list(
        RatingList.objects.filter(federation=federation)
        .order_by("place")
        .values_list("person_id", "rating", "pulkas")
    )
    assert [person for person, _, _ in got] == [person for person, _, _ in expected]
    assert [n for _, _, n in got] == [n for _, _, n in expected]
    assert [r for _, r, _ in got] == pytest.approx([r for _, r, _ in expected], abs=1e-9)
    assert len(got) == 4


def test_the_clubs_own_ratings_are_untouched_by_the_federation(federation, kyiv, lviv):
    played(kyiv, 3)
    played(kyiv, 5, six("Vera", "Anna", "Boris"))
    played(lviv, 4)
    linked(federation, "Anna", *roster(kyiv, "Anna"), *roster(lviv, "Anna"))
    before = rating_rows(kyiv)

    rating.rebuild(federation)

    assert rating_rows(kyiv) == before == rebuilt(kyiv)
    # The club's rating of Anna ignores her Lviv pulka; the federation's counts it.
    anna = roster(kyiv, "Anna")[0]
    assert RatingSnapshot.objects.filter(player=anna).count() == 2
    assert PersonRating.objects.filter(person__name="Anna").count() == 3


def test_a_second_name_of_one_person_at_the_same_table_is_rated_on_its_own(federation, kyiv):
    played(kyiv, 3)
    linked(federation, "Anna", *roster(kyiv, "Anna", "Boris"))  # wrongly linked twice
    federation.rating_min_pulkas = 1
    federation.save()

    figures = rating.rebuild(federation)

    assert figures.ratings == 1
    assert PersonRating.objects.get().person.name == "Anna"


# --- the history and the command ---------------------------------------------------------------


def test_a_persons_history_lists_his_ratings_with_their_clubs_oldest_first(federation, kyiv, lviv):
    played(lviv, 8)
    played(kyiv, 3)
    anna = linked(federation, "Anna", *roster(kyiv, "Anna"), *roster(lviv, "Anna"))
    rating.rebuild(federation)

    history = rating.person_history(anna)

    assert [(date, club) for date, _, club in history] == [
        (day(3), "Kyiv Club"),
        (day(8), "Lviv Club"),
    ]
    last = PersonRating.objects.filter(person=anna).order_by("-seq").first()
    assert history[-1][1] == last.rating
    context = rating.person_rating_context(anna)
    assert context["rating_history_total"] == 2
    assert len(context["rating_chart"].dots) == 2


def test_the_command_rebuilds_the_named_federations_and_says_what_it_did(federation, kyiv):
    played(kyiv, 3)
    linked(federation, "Anna", *roster(kyiv, "Anna"))
    RatingList.objects.all().delete()
    federation.rating_min_pulkas = 1
    federation.save()
    from io import StringIO

    out = StringIO()
    call_command("rebuild_federation_ratings", "kpf", stdout=out)

    assert "kpf: 1 pulkas rated, 1 ratings of 1 persons, 1 listed" in out.getvalue()
    assert "Total: 1 pulkas rated, 1 persons listed" in out.getvalue()
    assert listed(federation) == [(1, "Anna", 1)]


def test_the_command_refuses_an_unknown_federation(federation):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="There is no federation 'nope'"):
        call_command("rebuild_federation_ratings", "nope")
