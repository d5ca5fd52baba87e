"""The one-way house: club -> scoring -> competition, and imports point down only.

Every .py file of the three apps is read with ast, migrations included, and every import
in it, at module level or inside a function, is checked against the layer it may use.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("club", "scoring", "competition")  # lowest first
SOURCES = sorted(path for app in LAYERS for path in (ROOT / app).rglob("*.py"))


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every import in the tree, wherever it stands."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            # `from scoring import engine` names the package; its names may be modules.
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def upward_imports(path: Path) -> list[str]:
    app = path.relative_to(ROOT).parts[0]
    above = LAYERS[LAYERS.index(app) + 1 :]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for line, module in imported_modules(tree)
        if module.split(".")[0] in above
    ]


def test_every_app_is_read():
    assert {path.relative_to(ROOT).parts[0] for path in SOURCES} == set(LAYERS)
    assert any("migrations" in path.parts for path in SOURCES)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_higher_layer(path):
    assert upward_imports(path) == []


def test_the_check_sees_an_import_hidden_in_a_function(tmp_path):
    source = "def f():\n    from competition import ratings\n    import scoring.engine\n"
    tree = ast.parse(source)

    modules = [module for _, module in imported_modules(tree)]

    assert "competition" in modules
    assert "scoring.engine" in modules
