"""What competition.lib's modules export (`__all__`): their own API, not what they import."""

from __future__ import annotations

import inspect

import pytest

from competition.lib import seating, tournament_scoring


@pytest.mark.parametrize("module", [seating, tournament_scoring], ids=lambda m: m.__name__)
def test_a_star_import_gives_every_public_class_and_function_and_nothing_imported(module):
    namespace: dict[str, object] = {}
    exec(f"from {module.__name__} import *", namespace)
    exported = {name: value for name, value in namespace.items() if name != "__builtins__"}
    defined = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__ == module.__name__
    }

    assert set(exported) == set(module.__all__)
    assert defined <= set(exported)
    # e.g. not tournament_scoring's Problem, Result or tally, nor seating's Counter
    borrowed = [
        name
        for name, value in exported.items()
        if getattr(value, "__module__", module.__name__) != module.__name__
    ]
    assert borrowed == []
