"""Merging two roster entries of one person: the service (what moves, what is refused) and
its page (who may see and use it, full page and htmx fragment)."""

from __future__ import annotations

import datetime

import pytest

from club.models import Player, RosterMerge
from competition.league import selectors as leagues
from competition.models import RatingSnapshot
from competition.profile import selectors as profile
from competition.rating import ratings
from competition.roster.services import RosterMergeError, roster_merge
from scoring.models import PairResultCache, Pulka, PulkaResultCache, Seat
from tests.club.factories import MANAGE, assert_fragment, assert_full_page, html
from tests.competition.factories import make_league
from tests.conftest import (
    HTMX,
    PERSONAS,
    make_club_a,
    make_evening,
    make_player,
    make_pulka,
    make_user,
)
from tests.scoring.factories import play_finished

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 3, 1)
KEPT, DUPLICATE = "Олена", "Олена Шевченко"


@pytest.fixture(scope="module")
def roster_rows(module_rows, django_db_blocker) -> dict:
    """Club A's roster and pulkas, made once for the module (tests/conftest.py's
    module_rows), as primary keys."""
    with django_db_blocker.unblock():
        club = make_club_a()
        kept = make_player(club, KEPT)
        duplicate = make_player(club, DUPLICATE)
        first = play_finished(make_evening(club, date=DAY), names=(KEPT, "Boris", "Vera"))
        second = play_finished(
            make_evening(club, date=DAY + datetime.timedelta(days=7)),
            names=("Boris", "Vera", DUPLICATE),
        )
        running = make_pulka(
            make_evening(club, date=DAY + datetime.timedelta(days=14)),
            names=(DUPLICATE, "Boris", "Vera"),
        )
        return {
            "kept": kept.pk,
            "duplicate": duplicate.pk,
            "pulkas": (first.pk, second.pk, running.pk),
        }


@pytest.fixture
def roster(roster_rows, club_a):
    """Олена played on day 1 (0, 2nd); her duplicate entry won on day 2 (+8, 1st) and sits at
    a running table on day 3. Boris and Vera played both days."""
    return {
        "kept": Player.objects.get(pk=roster_rows["kept"]),
        "duplicate": Player.objects.get(pk=roster_rows["duplicate"]),
        "pulkas": tuple(Pulka.objects.get(pk=pk) for pk in roster_rows["pulkas"]),
    }


def snapshot_rows(club) -> set[tuple]:
    return set(
        RatingSnapshot.objects.filter(club=club).values_list(
            "player_id", "pulka_id", "date", "seq", "mu", "sigma", "rating", "delta"
        )
    )


# What moves


def test_a_merge_moves_seats_results_pairs_and_ratings_to_the_player_kept(club_a, roster, owner):
    kept, duplicate = roster["kept"], roster["duplicate"]
    first, second, running = roster["pulkas"]
    duplicate_id = duplicate.pk

    merge = roster_merge(club=club_a, kept=kept, duplicate=duplicate, merged_by=owner)

    assert not Player.objects.filter(pk=duplicate_id).exists()
    assert set(Seat.objects.filter(player=kept).values_list("pulka_id", flat=True)) == {
        first.pk,
        second.pk,
        running.pk,
    }
    assert set(PulkaResultCache.objects.filter(player=kept).values_list("pulka_id", "result")) == {
        (first.pk, "0"),
        (second.pk, "8"),
    }
    assert not PairResultCache.objects.filter(player_id=duplicate_id).exists()
    assert not PairResultCache.objects.filter(opponent_id=duplicate_id).exists()
    assert PairResultCache.objects.filter(player=kept, pulka=second).count() == 2
    assert PairResultCache.objects.filter(opponent=kept, pulka=second).count() == 2
    assert set(RatingSnapshot.objects.filter(player=kept).values_list("pulka_id", flat=True)) == {
        first.pk,
        second.pk,
    }
    assert not RatingSnapshot.objects.filter(player_id=duplicate_id).exists()
    assert (merge.kept, merge.kept_name, merge.removed_name) == (kept, KEPT, DUPLICATE)
    assert (merge.removed_id, merge.pulkas, merge.merged_by) == (duplicate_id, 2, owner)


def test_the_ratings_after_a_merge_are_those_of_a_full_rebuild(club_a, roster):
    roster_merge(club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None)
    after_merge = snapshot_rows(club_a)

    ratings.ratings_update(club=club_a)

    assert after_merge == snapshot_rows(club_a)
    # The second pulka is Олена's second: she comes to it with her first rating, not new.
    first, second = RatingSnapshot.objects.filter(player=roster["kept"]).order_by("seq")
    assert second.mu != first.mu


def test_the_kept_players_profile_counts_the_pulkas_of_both(club_a, roster):
    kept = roster["kept"]
    before = profile.player_summary(club_a, kept)

    roster_merge(club=club_a, kept=kept, duplicate=roster["duplicate"], merged_by=None)

    after = profile.player_summary(club_a, kept)
    assert (before.pulkas, before.whists, before.best) == (1, 0, 0)
    assert (after.pulkas, after.whists, after.best, after.worst) == (2, 8, 8, 0)
    assert [share.count for share in after.places][:2] == [1, 1]
    assert len(profile.rating_series(kept)) == 2
    opponents = {row.name: row.pulkas for row in profile.head_to_head(club_a, kept)}
    assert opponents == {"Boris": 2, "Vera": 2}


def test_the_league_ranks_the_merged_player_once_without_being_told(club_a, roster):
    league = make_league(club_a, start=DAY, end=DAY + datetime.timedelta(days=30))
    before = leagues.league_ranking(leagues.league_for_club(club_a, league.pk))
    assert {before.names[s.player_id] for s in before.ranked} == {KEPT, DUPLICATE, "Boris", "Vera"}

    roster_merge(club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None)

    after = leagues.league_ranking(leagues.league_for_club(club_a, league.pk))
    standings = {after.names[s.player_id]: s for s in after.ranked}
    assert set(standings) == {KEPT, "Boris", "Vera"}
    assert (standings[KEPT].pulkas, standings[KEPT].total) == (2, 8)


def test_the_running_table_shows_the_kept_name_and_tells_its_watchers(club_a, roster):
    running = roster["pulkas"][2]
    version = running.version

    roster_merge(club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None)

    running = Pulka.objects.get(pk=running.pk)
    assert running.names == [KEPT, "Boris", "Vera"]
    assert running.version == version + 1


def test_the_duplicates_user_account_moves_to_the_kept_entry_without_one(club_a, roster):
    user = make_user()
    Player.objects.filter(pk=roster["duplicate"].pk).update(user=user)

    roster_merge(club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None)

    assert Player.objects.get(pk=roster["kept"].pk).user == user


def test_a_merge_of_a_player_without_results_rerates_nothing(club_a, roster):
    spare = make_player(club_a, "Олена Ш.")
    before = snapshot_rows(club_a)

    roster_merge(club=club_a, kept=roster["kept"], duplicate=spare, merged_by=None)

    assert snapshot_rows(club_a) == before
    assert not Player.objects.filter(pk=spare.pk).exists()


# What is refused


def assert_nothing_changed(club, roster) -> None:
    assert Player.objects.filter(pk=roster["duplicate"].pk).exists()
    assert Seat.objects.filter(player=roster["duplicate"]).count() == 2
    assert PulkaResultCache.objects.filter(player=roster["duplicate"]).count() == 1
    assert not RosterMerge.objects.filter(club=club).exists()


def test_two_players_who_sat_at_one_table_cannot_merge(club_a, roster):
    evening = make_evening(club_a, date=datetime.date(2024, 5, 9))
    make_pulka(evening, names=(KEPT, DUPLICATE, "Boris"))
    make_pulka(evening, names=("Anna", "Gleb", "Ivan"))  # table 2, so the first is table 1

    with pytest.raises(RosterMergeError) as error:
        roster_merge(
            club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None
        )

    assert error.value.message == (
        "Олена and Олена Шевченко sat at the same table (Table 1, May 9, 2024): "
        "they are two people and cannot be merged."
    )
    assert Seat.objects.filter(player=roster["duplicate"]).count() == 3


def test_two_entries_with_two_user_accounts_cannot_merge(club_a, roster):
    Player.objects.filter(pk=roster["kept"].pk).update(user=make_user())
    Player.objects.filter(pk=roster["duplicate"].pk).update(user=make_user())

    with pytest.raises(RosterMergeError, match="linked to two user accounts"):
        roster_merge(
            club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None
        )

    assert_nothing_changed(club_a, roster)


def test_an_entry_cannot_merge_into_itself(club_a, roster):
    with pytest.raises(RosterMergeError, match="Choose two different entries"):
        roster_merge(club=club_a, kept=roster["kept"], duplicate=roster["kept"], merged_by=None)

    assert_nothing_changed(club_a, roster)


def test_a_player_of_another_club_cannot_merge(club_a, club_b, roster):
    stranger = make_player(club_b, "Олена")

    with pytest.raises(RosterMergeError, match="on this club's roster"):
        roster_merge(club=club_a, kept=roster["kept"], duplicate=stranger, merged_by=None)
    with pytest.raises(RosterMergeError, match="on this club's roster"):
        roster_merge(club=club_b, kept=stranger, duplicate=roster["duplicate"], merged_by=None)

    assert Player.objects.filter(pk=stranger.pk).exists()
    assert_nothing_changed(club_a, roster)


# The page

URL = "/c/sochi/players/merge/"


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_sees_the_merge_page(as_persona, roster, persona):
    response = as_persona(persona).get(URL)

    assert response.status_code == MANAGE[persona]
    if MANAGE[persona] == 200:
        text = assert_full_page(response, "merge")
        assert f"{DUPLICATE} (pulkas: 2)" in text
        assert f"{KEPT} (pulkas: 1)" in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_owner_gets_the_merge_fragment(as_persona, roster, persona):
    response = as_persona(persona).get(URL, headers=HTMX)

    assert response.status_code == MANAGE[persona]
    if MANAGE[persona] == 200:
        text = assert_fragment(response, "merge")
        assert 'name="duplicate"' in text


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_only_the_owner_can_merge(as_persona, roster, persona, headers):
    data = {"kept": roster["kept"].pk, "duplicate": roster["duplicate"].pk}

    response = as_persona(persona).post(URL, data, headers=headers)

    merged = not Player.objects.filter(pk=roster["duplicate"].pk).exists()
    assert merged is (persona == "owner")
    if persona == "owner":
        if headers:
            assert response.status_code == 200
            assert response["HX-Redirect"] == "/c/sochi/players/"
        else:
            assert response.status_code == 302
            assert response["Location"] == "/c/sochi/players/"
    else:
        assert response.status_code == MANAGE[persona]


def test_after_a_merge_the_roster_says_so_and_lists_it_for_the_owner(as_persona, roster):
    client = as_persona("owner")
    data = {"kept": roster["kept"].pk, "duplicate": roster["duplicate"].pk}

    text = html(client.post(URL, data, follow=True))

    assert f"{DUPLICATE} is merged into {KEPT}." in text
    assert 'id="roster-merges"' in text
    assert f"{DUPLICATE} into {KEPT}" in text
    assert f"{DUPLICATE} merged into {KEPT} (2 pulkas moved)" in html(client.get(URL))


def test_the_secretary_sees_neither_the_merge_link_nor_the_merges(as_persona, club_a, roster):
    roster_merge(club=club_a, kept=roster["kept"], duplicate=roster["duplicate"], merged_by=None)

    text = html(as_persona("secretary").get("/c/sochi/players/"))

    assert 'id="roster-merge-link"' not in text
    assert 'id="roster-merges"' not in text
    assert 'id="roster-merge-link"' in html(as_persona("owner").get("/c/sochi/players/"))


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_a_refused_merge_comes_back_with_its_reason(as_persona, club_a, roster, headers):
    make_pulka(make_evening(club_a, date=DAY), names=(KEPT, DUPLICATE, "Boris"))
    data = {"kept": roster["kept"].pk, "duplicate": roster["duplicate"].pk}

    response = as_persona("owner").post(URL, data, headers=headers)

    text = assert_fragment(response, "merge") if headers else assert_full_page(response, "merge")
    assert "sat at the same table" in text
    assert Player.objects.filter(pk=roster["duplicate"].pk).exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kept": "abc", "duplicate": "1"},
        {"kept": "99999999", "duplicate": "99999998"},
        {"kept": "1e9", "duplicate": "-1"},
        {"kept": "\x00", "duplicate": "🂡"},
    ],
)
def test_crafted_merge_forms_get_messages_not_errors(as_persona, roster, data):
    response = as_persona("owner").post(URL, data, headers=HTMX)

    text = assert_fragment(response, "merge")
    assert "errorlist" in text
    assert Player.objects.filter(pk=roster["duplicate"].pk).exists()


def test_the_form_offers_only_this_clubs_players(as_persona, club_b, roster):
    stranger = make_player(club_b, "Stranger")
    data = {"kept": roster["kept"].pk, "duplicate": stranger.pk}

    response = as_persona("owner").post(URL, data)

    assert "Select a valid choice" in html(response)
    assert "Stranger" not in html(response)
    assert Player.objects.filter(pk=stranger.pk).exists()


def test_the_same_entry_twice_is_refused_by_the_form(as_persona, roster):
    data = {"kept": roster["kept"].pk, "duplicate": roster["kept"].pk}

    text = html(as_persona("owner").post(URL, data))

    assert "Choose two different entries" in text
    assert not RosterMerge.objects.exists()
