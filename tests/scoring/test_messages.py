import pytest
from django.utils import translation

from scoring import engine
from scoring.messages import translate_problem


@pytest.mark.parametrize(
    ("problem", "english"),
    [
        ("tricks sum to 9, expected 10", "tricks sum to 9, expected 10"),
        ("half-whist is allowed only at levels 6, 7", "half-whist is allowed only at levels 6, 7"),
        ("half-whist is allowed only at level 6", "half-whist is allowed only at levels 6"),
        (
            "the pulka is closed: every pool reached 20",
            "the pulka is closed: every pool reached 20",
        ),
        (
            "Anna deals and sits out on the talon, so cannot declare",
            "Anna deals and sits out on the talon, so cannot declare",
        ),
        ("talon: the card 'AS' appears twice", "talon: the card AS appears twice"),
        ("unknown player 'Gleb' as declarer", "Gleb does not play at this table"),
    ],
)
def test_engine_problems_the_form_can_meet_are_put_in_the_users_words(problem, english):
    with translation.override("en"):
        assert translate_problem(engine.PulkaError(problem, 3)) == english


def test_every_known_problem_has_ukrainian_and_russian_words():
    error = engine.PulkaError("tricks sum to 9, expected 10", 3)

    with translation.override("uk"):
        assert translate_problem(error) == "взятки в сумі 9, а має бути 10"
    with translation.override("ru"):
        assert translate_problem(error) == "взяток в сумме 9, а должно быть 10"


def test_an_unknown_problem_keeps_the_engine_wording():
    error = engine.PulkaError("a deal must be an object", 2)

    assert translate_problem(error) == "a deal must be an object"
