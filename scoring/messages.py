"""The engine's problems in the user's language."""

from __future__ import annotations

from scoring import engine


def translate_problem(exc: engine.PulkaError) -> str:
    return exc.problem
