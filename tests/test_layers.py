"""The one-way house: club -> scoring -> competition -> federation, and imports point down only.

Every .py file of the four apps is read with ast, migrations included, and every import
in it, at module level or inside a function, is checked against the layer it may use.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("club", "scoring", "competition", "federation")  # lowest first
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


# --- inside competition: rooms that point one way -------------------------------------------

COMPETITION = ROOT / "competition"
LIB = sorted((COMPETITION / "lib").rglob("*.py"))
ROOMS_APART = ("league", "tournament")  # neither may import the other


def test_the_pure_library_is_read():
    assert COMPETITION / "lib" / "__init__.py" in LIB
    assert {path.stem for path in LIB} >= {"problems", "standings", "seating", "tournament_scoring"}


@pytest.mark.parametrize("path", LIB, ids=lambda p: p.name)
def test_the_library_imports_only_the_standard_library(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            assert node.level == 1, (path.name, "a relative import may not leave the library")
            continue
        for _line, module in imported_modules(ast.Module(body=[node], type_ignores=[])):
            root = module.split(".")[0]
            assert root == "__future__" or root in sys.stdlib_module_names, (path.name, module)


def test_importing_the_library_imports_no_django():
    code = (
        "import sys, competition.lib.problems, competition.lib.standings, "
        "competition.lib.seating, competition.lib.tournament_scoring\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'club', 'scoring'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == ""


ROOM_SOURCES = sorted(path for room in ROOMS_APART for path in (COMPETITION / room).rglob("*.py"))


def room_imports(path: Path) -> list[str]:
    """What this file of one room imports of the other room."""
    room = path.relative_to(COMPETITION).parts[0]
    other = next(name for name in ROOMS_APART if name != room)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for line, module in imported_modules(tree)
        if module == f"competition.{other}" or module.startswith(f"competition.{other}.")
    ]


@pytest.mark.parametrize("path", ROOM_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_leagues_and_tournaments_never_import_each_other(path):
    assert room_imports(path) == []


def test_the_room_check_sees_a_league_import_in_a_tournament_module(tmp_path, monkeypatch):
    fake = COMPETITION / "tournament" / "views" / "fake.py"
    source = "def f():\n    from competition.league.views import league_list\n"
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source)

    assert room_imports(fake) == [
        "competition/tournament/views/fake.py:2 imports competition.league.views",
        "competition/tournament/views/fake.py:2 imports competition.league.views.league_list",
    ]


def test_competition_keeps_at_most_twelve_modules_at_its_top_and_no_prefixed_names():
    top = sorted(path.stem for path in COMPETITION.glob("*.py"))
    assert len(top) <= 12, top
    prefixes = ("tournament_", "league_", "standings_", "printout_", "profile_", "file_")
    assert [name for name in top if name.startswith(prefixes) or name.endswith("_views")] == []


def test_only_federation_may_import_competition_from_above():
    # club and scoring never import competition (test_no_module_imports_a_higher_layer);
    # competition never imports federation, the app above it, when there is one.
    sources = sorted(COMPETITION.rglob("*.py"))
    imports = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sources
        for line, module in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
        if module.split(".")[0] == "federation"
    ]
    assert imports == []
