"""Why a player sits out, said once (competition.tournament.messages.bye_reason_text) for the
draft's review, the players' seat lines and the printed seating."""

from __future__ import annotations

import pytest
from django.utils import translation

from competition.lib.seating import BYE_FIVE_PLAYERS
from competition.models import Round, Scoring
from competition.tournament import pages, printouts, selectors, services
from competition.tournament.messages import PROBLEMS, bye_reason_text
from tests.conftest import make_club

FIVE = "5 players cannot fill tables of 3 and 4, so one player sits out each round in turn"


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (BYE_FIVE_PLAYERS, FIVE),
        ("", "sits out this round"),  # a seating that gave no reason
        ("gone_code", "sits out this round"),  # a code no longer in the table
        ("entrant_twice", "sits out this round"),  # a text that needs a player's name
    ],
)
def test_a_bye_says_its_reason_or_that_he_sits_out_never_the_code(code, text):
    assert bye_reason_text(code) == text


def test_a_bye_is_said_in_the_users_language():
    with translation.override("uk"):
        assert bye_reason_text(BYE_FIVE_PLAYERS) == str(PROBLEMS[BYE_FIVE_PLAYERS])
        assert bye_reason_text("gone_code") == translation.gettext("sits out this round")
        assert bye_reason_text("gone_code") != "sits out this round"


@pytest.fixture
def draft(db) -> Round:
    tournament = services.tournament_create(
        club=make_club(), created_by=None, name="Five", round_count=3, scoring=Scoring.WHISTS
    )
    services.entries_add(tournament=tournament, names=["Anna", "Boris", "Vera", "Gleb", "Dana"])
    return services.round_draft(tournament=tournament)


def reasons(round: Round) -> tuple[list[str], list[str], list[str]]:
    """The bye's reason on the draft's review, on the seat lines and on the printed seating."""
    review = [why for _name, why in pages.draft_review(round).byes]
    lines = [line.reason for line in selectors.seat_lines(round) if line.table is None]
    printed = [one.note for one in printouts.seating_context(round)["byes"]]
    return review, lines, printed


@pytest.mark.parametrize(
    ("code", "text"), [(BYE_FIVE_PLAYERS, FIVE), ("gone_code", "sits out this round")]
)
def test_every_page_that_shows_a_bye_says_the_same(draft, code, text):
    for bye in draft.seating["byes"]:
        bye["reason"] = code
    draft.save(update_fields=["seating"])

    review, lines, printed = reasons(draft)

    assert review == lines == printed == [text]
