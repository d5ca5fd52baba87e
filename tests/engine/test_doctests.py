"""The worked examples in the engine's docstrings are correct."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "scoring.engine",
    "scoring.engine.errors",
    "scoring.engine.words",
    "scoring.engine.rules",
    "scoring.engine.deal",
    "scoring.engine.sheet",
    "scoring.engine.settlement",
    "scoring.engine.compute",
    "scoring.engine.jsonio",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, verbose=False)
    assert attempted > 0
    assert failed == 0
