"""The engine's problems in the user's language: one translated entry per engine code."""

import pickle
import re

import pytest
from django.utils import translation

from scoring import engine
from scoring.messages import PROBLEMS, engine_problem_text

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_engine_code_has_a_translated_entry_and_nothing_else_has():
    assert set(PROBLEMS) == set(engine.MESSAGES)


@pytest.mark.parametrize("code", sorted(engine.MESSAGES))
def test_the_translated_entry_uses_the_engines_placeholders(code):
    with translation.override("en"):
        english = str(PROBLEMS[code])
    assert placeholders(english) == placeholders(engine.MESSAGES[code])


@pytest.mark.parametrize("language", ["uk", "ru"])
@pytest.mark.parametrize("code", sorted(engine.MESSAGES))
def test_every_entry_is_translated_with_the_same_placeholders(code, language):
    with translation.override("en"):
        english = str(PROBLEMS[code])
    with translation.override(language):
        translated = str(PROBLEMS[code])
    assert translated != english
    assert placeholders(translated) == placeholders(english)


def test_nine_and_nine_tricks_are_shown_with_their_sum():
    error = engine.PulkaError(
        "tricks_sum", 3, players=("Anna", "Boris"), tricks=(9, 9), total=18, expected=10
    )

    with translation.override("en"):
        assert engine_problem_text(error) == "9 + 9 = 18 tricks, a deal has 10"
    with translation.override("uk"):
        assert engine_problem_text(error) == "взяток: 9 + 9 = 18, а в роздачі їх 10"
    with translation.override("ru"):
        assert engine_problem_text(error) == "взяток: 9 + 9 = 18, а в раздаче их 10"


@pytest.mark.parametrize(
    ("error", "english"),
    [
        (
            engine.PulkaError("half_levels", 2, levels=(6, 7)),
            "half-whist is allowed only at levels 6, 7",
        ),
        (engine.PulkaError("half_level", 2, level=6), "half-whist is allowed only at level 6"),
        (engine.PulkaError("closed", 4, target=20), "the pulka is closed: every pool reached 20"),
        (
            engine.PulkaError("talon_sitter_declares", 1, player="Anna"),
            "Anna deals and sits out on the talon, so cannot declare",
        ),
        (engine.PulkaError("talon_twice", 1, card="AS"), "talon: the card AS appears twice"),
        (
            engine.PulkaError("declarer_unknown", 1, player="Gleb"),
            "Gleb does not play at this table",
        ),
        (
            engine.PulkaError("deal_has_no", 1, kind=engine.MISERE, key="contract"),
            "a deal of kind misère has no contract",
        ),
        (
            engine.PulkaError("rules_choice", key="consolation", allowed=("whisters", "all")),
            "the convention consolation must be one of 'whisters', 'all'",
        ),
    ],
)
def test_params_are_put_into_the_users_words(error, english):
    with translation.override("en"):
        assert engine_problem_text(error) == english


def test_a_deal_kind_is_said_in_the_users_language():
    error = engine.PulkaError("deal_has_no", 1, kind=engine.MISERE, key="contract")

    with translation.override("uk"):
        assert engine_problem_text(error) == "у роздачі виду «мізер» немає contract"


def test_the_text_of_a_pickled_error_is_the_same():
    error = engine.PulkaError("tricks_sum", 3, tricks=(9, 9), total=18, expected=10)

    with translation.override("ru"):
        assert engine_problem_text(pickle.loads(pickle.dumps(error))) == engine_problem_text(error)
