"""The engine is pure: standard library only, and importing it pulls in no Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "scoring" / "engine"
SOURCES = sorted(ENGINE.glob("*.py"))


def test_importing_the_engine_imports_no_django():
    code = (
        "import sys, scoring.engine, scoring.engine.__main__\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == ""


def test_scoring_package_init_is_empty():
    assert (ROOT / "scoring" / "__init__.py").read_text(encoding="utf-8").strip() == ""


def test_the_module_checks_below_look_at_the_engine_package():
    # Guards the parametrized checks against an empty glob (a moved package), without
    # pinning which modules the engine is split into.
    assert ENGINE / "__init__.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_engine_module_imports_only_the_standard_library(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the engine
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root == "__future__" or root in sys.stdlib_module_names, (path.name, root)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_engine_module_opens_with_a_docstring_naming_its_rule_section(path):
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc
    assert "§" in doc or "spec" in doc


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_engine_never_uses_floats(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.Constant) and isinstance(node.value, float)), path.name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "float", path.name


def test_glossary_names_every_word_in_three_languages():
    import scoring.engine

    doc = scoring.engine.__doc__
    assert "GLOSSARY" in doc
    for words in [
        ("pool", "пуля"),
        ("mountain", "гора"),
        ("whists", "висты", "висти"),
        ("raspasy", "распасы", "розпаси"),
        ("misère", "мизер", "мізер"),
        ("half-whist", "полвиста", "піввіста"),
        ("consolation", "консоляция", "консоляція"),
        ("help", "помощь", "допомога"),
        ("talon", "прикуп"),
        ("declarer", "разыгрывающий", "розігрувач"),
        ("whister", "вистующий", "вістуючий"),
        ("passer", "пасующий", "пасуючий"),
        ("talon-sitter", "сидящий на прикупе", "той, хто сидить на прикупі"),
    ]:
        for word in words:
            assert word in doc, word
