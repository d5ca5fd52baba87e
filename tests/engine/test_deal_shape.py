"""deal_shape: what a deal needs entered, so that a form offers only valid choices."""

import pytest

from scoring.engine import Rules, deal_shape

ABC = ["Anna", "Boris", "Vera"]
ABCD = ["Anna", "Boris", "Vera", "Gleb"]


def test_the_four_player_dealer_cannot_declare_and_does_not_call():
    shape = deal_shape(Rules(), ABCD, "Anna", "game", "Boris", 6, {"Vera": "whist"})

    assert shape.declarers == ("Boris", "Vera", "Gleb")
    assert shape.defenders == ("Vera", "Gleb")
    assert shape.trick_players == ("Boris", "Vera", "Gleb")


@pytest.mark.parametrize(
    ("levels", "level", "first", "half"),
    [
        ((6, 7), 6, "pass", "Anna"),
        ((6, 7), 7, "pass", "Anna"),
        ((6, 7), 8, "pass", None),
        ((6,), 7, "pass", None),
        ((), 6, "pass", None),
        ((6, 7), 6, "whist", None),
    ],
)
def test_half_whist_is_open_to_the_second_defender_after_a_pass_at_allowed_levels(
    levels, level, first, half
):
    shape = deal_shape(
        Rules(half_whist_levels=levels), ABC, "Anna", "game", "Boris", level, {"Vera": first}
    )

    assert shape.half_whist == half


def test_tricks_are_entered_only_when_somebody_whists():
    passed = deal_shape(Rules(), ABC, "Anna", "game", "Boris", 7, {"Vera": "pass", "Anna": "pass"})
    whisted = deal_shape(
        Rules(), ABC, "Anna", "game", "Boris", 7, {"Vera": "pass", "Anna": "whist"}
    )

    assert (passed.played, passed.trick_players) == (False, ())
    assert (whisted.played, whisted.trick_players) == (True, ("Boris", "Vera", "Anna"))


def test_misere_asks_the_declarer_and_raspasy_everybody_with_the_dealer():
    misere = deal_shape(Rules(), ABCD, "Anna", "misere", "Vera", 6, {})
    raspasy = deal_shape(Rules(), ABCD, "Anna", "raspasy", "Boris", 6, {})

    assert misere.trick_players == ("Vera",)
    assert raspasy.trick_players == ("Anna", "Boris", "Vera", "Gleb")
