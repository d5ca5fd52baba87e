"""A tournament's big printouts, prepared as files (competition.tournament.views.printouts,
competition.files.services): only for a member who may download them, one build per version
of what they print, shared by every member; and what their size counts: the penalties, the
teams and the rounds, not only the lines.

The tournament is small (7 players, a round confirmed without deals); a test that needs a
"big" file lowers the threshold.
"""

from __future__ import annotations

import io

import pypdf
import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from club.models import Club, Player, Role
from competition.models import FileState, Penalty, PenaltyUnit, PreparedFile, Tournament
from competition.tournament import printouts, services
from competition.tournament.services import PENALTIES_MAX, TournamentServiceError
from tests.club.factories import READ, assert_fragment, assert_full_page, html
from tests.competition.factories import (
    DATABASE,
    TEN,
    draft,
    make_tournament,
    play_round,
    work,
)
from tests.conftest import HTMX, PERSONAS, make_member

pytestmark = pytest.mark.django_db

SEVEN = TEN[:7]  # a table of 4 and one of 3
# Who gets the "Prepare the file" button on a public club's standings: its members.
PREPARES = {"anonymous": False, "outsider": False, "player": True, "secretary": True, "owner": True}


@pytest.fixture
def cup(club_a) -> Tournament:
    """Club A's tournament of seven, round 1 confirmed."""
    tournament = make_tournament(club_a, SEVEN)
    play_round(tournament, deals=0)
    return Tournament.objects.select_related("club").get(pk=tournament.pk)


@pytest.fixture
def public_cup(cup) -> Tournament:
    Club.objects.filter(pk=cup.club_id).update(is_public=True)
    cup.club.refresh_from_db()
    return cup


@pytest.fixture
def big(monkeypatch):
    """Every standings and team standings is big."""
    monkeypatch.setattr(printouts, "STANDINGS_THRESHOLD_CELLS", 1)


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"competition:{name}", args=[tournament.club.slug, tournament.pk])


def penalise(tournament: Tournament, count: int) -> None:
    """`count` penalties on the first entrant, as the judge's service would record them."""
    player = Player.objects.get(club=tournament.club, name=SEVEN[0])
    Penalty.objects.bulk_create(
        Penalty(
            tournament=tournament,
            player=player,
            round=1,
            amount=1,
            unit=PenaltyUnit.WHISTS,
            reason=f"late {k}",
        )
        for k in range(count)
    )


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)


# --- who may have a printout prepared --------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_public_clubs_big_standings_are_prepared_only_for_a_member(
    as_persona, public_cup, big, persona
):
    client = as_persona(persona)
    address = url("tournament-print-standings", public_cup)

    page = client.get(address)
    fragment = client.get(address, headers=HTMX)
    posted = client.post(address)
    posted_by_htmx = client.post(address, headers=HTMX)

    text = assert_full_page(page, "prepare")
    assert "<html" not in assert_fragment(fragment, "prepare")
    assert ('id="prepare-file"' in text) == PREPARES[persona]
    if PREPARES[persona]:
        prepared = PreparedFile.objects.get()
        assert posted["Location"] == prepared.get_absolute_url()
        assert posted_by_htmx["HX-Redirect"] == prepared.get_absolute_url()  # the same row
        assert (prepared.state, prepared.readers) == (FileState.READY, Role.PLAYER)
        return
    assert not PreparedFile.objects.exists()
    assert 'id="prepare-members-only"' in text
    said = (
        "Log in if you are one, or ask a member for it."
        if persona == "anonymous"
        else "in the background for the club&#x27;s members only. Ask a member for it."
    )
    assert posted.status_code == 302
    assert posted["Location"] == address
    assert said in html(client.get(address))  # the message, on the page it came from
    assert said in assert_fragment(posted_by_htmx, "prepare")
    if persona == "anonymous":
        assert 'href="/accounts/login/?next=/c/sochi/tournaments/' in text


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_clubs_big_team_standings_are_prepared_for_its_members(
    as_persona, club_a, big, persona
):
    cup = make_tournament(club_a, (), team_best=1)
    services.entries_add(tournament=cup, names=list(SEVEN[:4]), team="Aces")
    services.entries_add(tournament=cup, names=list(SEVEN[4:]), team="Kings")
    play_round(cup, deals=0)
    client = as_persona(persona)
    address = url("tournament-print-teams", cup)

    page = client.get(address)
    fragment = client.get(address, headers=HTMX)
    posted = client.post(address)

    for response in (page, fragment):
        assert response.status_code == READ[persona]
    if READ[persona] != 200:
        assert posted.status_code == READ[persona]
        assert not PreparedFile.objects.exists()
        return
    assert "Teams: 2, of 5 columns." in assert_full_page(page, "prepare")
    assert "<html" not in assert_fragment(fragment, "prepare")
    prepared = PreparedFile.objects.get()
    assert (prepared.kind, prepared.readers) == (printouts.TEAMS_KIND, Role.PLAYER)
    assert posted["Location"] == prepared.get_absolute_url()
    download = client.get(reverse("competition:file-download", args=["sochi", prepared.pk]))
    text = pdf_text(download.content)
    assert "Team standings after round 1" in text
    assert "Aces" in text


# --- one build per version, shared -----------------------------------------------------------


def test_ten_members_preparing_the_same_standings_share_one_build(
    client, cup, big, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE
    members = [make_member(cup.club, Role.PLAYER, username=f"reader{k}").user for k in range(10)]
    address = url("tournament-print-standings", cup)

    answers = set()
    for user in members:
        client.force_login(user)
        with django_capture_on_commit_callbacks(execute=True):
            answers.add(client.post(address)["Location"])
    work()
    downloads = set()
    for user in members:
        client.force_login(user)
        with django_capture_on_commit_callbacks(execute=True):
            location = client.post(address)["Location"]  # ready now: still the same file
        answers.add(location)
        downloads.add(client.get(f"{location}download/").content)

    prepared = PreparedFile.objects.get()
    assert answers == {prepared.get_absolute_url()}
    assert prepared.state == FileState.READY
    assert list(DBTaskResult.objects.values_list("queue_name", flat=True)) == ["files"]
    assert len(downloads) == 1
    assert "Standings after round 1" in pdf_text(downloads.pop())


def test_a_changed_tournament_gives_a_new_build(client, owner, cup, big):
    client.force_login(owner)
    address = url("tournament-print-standings", cup)
    first = client.post(address)["Location"]
    services.penalty_add(
        tournament=cup,
        player_id=Player.objects.get(club=cup.club, name=SEVEN[0]).pk,
        round_number=1,
        amount=20,
        unit=PenaltyUnit.WHISTS,
        reason="talking",
        by=owner,
    )

    second = client.post(address)["Location"]
    third = client.post(address)["Location"]

    assert first != second == third
    old, new = PreparedFile.objects.order_by("pk")
    assert old.version != new.version
    assert (old.state, new.state) == (FileState.READY, FileState.READY)
    assert "talking" in pdf_text(client.get(f"{second}download/").content)
    assert "talking" not in pdf_text(client.get(f"{first}download/").content)


@pytest.mark.parametrize("change", ["penalty", "round", "name", "setting", "finished"])
def test_the_standings_version_follows_what_they_print(cup, change):
    version = printouts.standings_version(cup.club, tournament_id=cup.pk, after=None)
    anna = Player.objects.get(club=cup.club, name=SEVEN[0])
    assert printouts.standings_version(cup.club, tournament_id=cup.pk, after=None) == version

    if change == "penalty":
        penalise(cup, 1)
    elif change == "round":
        play_round(cup, deals=0)
    elif change == "name":
        Player.objects.filter(pk=anna.pk).update(name="Anna-Maria")
    elif change == "setting":
        Tournament.objects.filter(pk=cup.pk).update(name="Another Cup")
    else:
        Tournament.objects.filter(pk=cup.pk).update(finished_at=cup.created_at)

    assert printouts.standings_version(cup.club, tournament_id=cup.pk, after=None) != version


def test_a_rounds_version_changes_when_it_is_published(cup):
    round = draft(cup)
    drafted = printouts.round_version(cup.club, tournament_id=cup.pk, number=round.number)

    services.round_publish(round=round, by=None)

    published = printouts.round_version(cup.club, tournament_id=cup.pk, number=round.number)
    assert published != drafted
    assert printouts.seating_readers(round) == Role.OWNER  # the draft's file: the owner's


# --- what a printout's size counts -----------------------------------------------------------


def test_the_standings_size_counts_rounds_tie_breaks_teams_and_penalties(cup):
    Tournament.objects.filter(pk=cup.pk).update(lot=False)
    cup.refresh_from_db()
    one_round = printouts.standings_size(cup)
    play_round(cup, deals=0)
    penalise(cup, 3)
    Tournament.objects.filter(pk=cup.pk).update(lot=True)
    cup.refresh_from_db()
    services.entry_update(entry=cup.entries.first(), team="Aces")

    every = printouts.standings_size(cup)
    after_one = printouts.standings_size(cup, 1)

    tie_breaks = len(printouts.selectors.tie_breaks(cup))
    assert (one_round.lines, one_round.columns, one_round.listed) == (7, 3 + 1 + tie_breaks, 0)
    # Two rounds, and a column each for the team, the penalty and the lot.
    assert (every.columns, every.listed) == (3 + 2 + tie_breaks + 3, 3)
    assert every.cells == 7 * every.columns + 3 * printouts.PENALTY_CELLS
    assert after_one.columns == every.columns - 1


def test_penalties_are_bounded_and_make_the_standings_prepared_not_built_at_once(
    client, owner, cup
):
    client.force_login(owner)
    address = url("tournament-print-standings", cup)
    at_once = client.get(address)
    penalise(cup, PENALTIES_MAX)

    with pytest.raises(TournamentServiceError, match=f"at most {PENALTIES_MAX} penalties"):
        services.penalty_add(
            tournament=cup,
            player_id=Player.objects.get(club=cup.club, name=SEVEN[1]).pk,
            round_number=1,
            amount=5,
            unit=PenaltyUnit.WHISTS,
            reason="one too many",
            by=owner,
        )
    offered = client.get(address)

    assert at_once["Content-Type"] == "application/pdf"
    assert Penalty.objects.filter(tournament=cup).count() == PENALTIES_MAX
    text = assert_full_page(offered, "prepare")
    assert f"penalties: {PENALTIES_MAX}." in text
    assert 'id="prepare-file"' in text
    assert not PreparedFile.objects.exists()
