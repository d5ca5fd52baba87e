"""The tests' own house rules, read from their source: a test module imports no other test
module (what tests share lives in conftest.py and factories.py), and no test checks only a
status code (it also asserts what the page shows or what changed)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SOURCES = sorted(TESTS.rglob("*.py"))
TEST_MODULES = [path for path in SOURCES if path.name.startswith("test_")]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


@cache
def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(tree: ast.Module, module: str) -> list[str]:
    """Every module the source of `module` imports, and each name it takes from one (a name
    may be a module too), relative imports resolved."""
    package = module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def imported_test_modules(tree: ast.Module, module: str) -> set[str]:
    """The test modules (other than itself) that the source of `module` imports."""
    found = {name for name in imports_of(tree, module) if is_test_module(name)} - {module}
    return {name for name in found if name.rsplit(".", 1)[0] not in found}


def is_test_module(name: str) -> bool:
    parts = name.split(".")
    return parts[0] == "tests" and any(part.startswith("test_") for part in parts[1:])


def test_the_rules_read_the_test_modules():
    assert TESTS / "test_test_imports.py" in TEST_MODULES
    assert TESTS / "conftest.py" in SOURCES
    assert len(TEST_MODULES) > 100
    assert is_test_module("tests.competition.test_ratings")
    assert not is_test_module("tests.competition.factories")


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(TESTS)))
def test_no_file_of_the_tests_imports_a_test_module(path):
    """A helper two test modules need belongs in a factories.py (or a conftest.py)."""
    wrong = imported_test_modules(tree_of(path), module_name(path))

    assert not wrong, f"{path.relative_to(ROOT)} imports test modules: {sorted(wrong)}"


@pytest.mark.parametrize(
    "source",
    [
        "from tests.competition.test_ratings import six\n",
        "import tests.test_fuzz\n",
        "from .test_invitations import make_invitation\n",
        "from . import test_invitations\n",
        "def f():\n    from tests.scoring.test_exchange import error_of\n",
    ],
)
def test_an_import_of_a_test_module_is_caught(source):
    assert imported_test_modules(ast.parse(source), "tests.club.test_probe")


def test_imports_of_factories_and_conftest_pass():
    source = "from tests.conftest import make_club\nfrom .factories import html\n"

    assert not imported_test_modules(ast.parse(source), "tests.club.test_probe")


# --- tests that check only a status code --------------------------------------------------------

QUERY_COUNTERS = {"django_assert_num_queries", "django_assert_max_num_queries"}
# Calls that check something by themselves (outside the tests' own helpers).
CHECKING = {"raises", "warns", "fail", "assertNumQueries", *QUERY_COUNTERS}


def reads_only_a_status(test: ast.expr) -> bool:
    """The assert's condition compares status codes with values (a number, a persona's
    expected status) and reads nothing else of the answer."""
    if isinstance(test, ast.BoolOp):
        return all(reads_only_a_status(value) for value in test.values)
    if isinstance(test, ast.Compare):
        parts = [test.left, *test.comparators]
        others = [part for part in parts if not is_status(part)]
        return len(others) < len(parts) and not any(
            isinstance(node, ast.Call) or is_status(node)
            for part in others
            for node in ast.walk(part)
        )
    return False


def is_status(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "status_code"


@cache
def functions_of(path: Path) -> dict[str, ast.FunctionDef]:
    """The module's own functions, and those it imports from the tests' helpers."""
    tree = tree_of(path)
    found = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests."):
            source = ROOT.joinpath(*node.module.split(".")).with_suffix(".py")
            if source.exists():
                theirs = functions_of(source)
                for alias in node.names:
                    if alias.name in theirs:
                        found[alias.asname or alias.name] = theirs[alias.name]
    return found


def checks(function: ast.FunctionDef, functions: dict, seen: set[str]) -> list[bool]:
    """For each check the function makes (its asserts, its helpers' asserts, the checking
    calls and contexts it uses): does it read only a status code?"""
    found: list[bool] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            found.append(reads_only_a_status(node.test))
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in functions and name not in seen:
                seen.add(name)
                found += checks(functions[name], functions, seen)
            elif name in CHECKING or (name or "").startswith("assert"):
                found.append(False)
        elif isinstance(node, ast.withitem):
            context = node.context_expr
            name = getattr(context, "id", None) or getattr(
                getattr(context, "func", None), "id", None
            )
            if name in QUERY_COUNTERS:
                found.append(False)
    return found


def status_only_tests(tree: ast.Module, functions: dict[str, ast.FunctionDef]) -> list[str]:
    """The tests in the module whose every check reads only a status code."""
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        for found in [checks(node, functions, {node.name})]
        if found and all(found)
    ]


def test_every_test_that_checks_a_status_also_checks_what_was_answered_or_changed():
    found = [
        f"{path.relative_to(ROOT)}::{name}"
        for path in TEST_MODULES
        for name in status_only_tests(tree_of(path), functions_of(path))
    ]

    assert not found, "tests that check only a status code:\n" + "\n".join(found)


PROBE = """
from tests.club.factories import assert_fragment


def helper(response):
    assert response.status_code == 404


def test_alone(client):
    assert client.get("/").status_code == 200


def test_through_a_helper(client):
    helper(client.get("/"))


def test_of_two_statuses(client):
    assert client.get("/").status_code in (200, 302) or client.get("/x").status_code == 404


@pytest.mark.parametrize("persona", PERSONAS)
def test_of_a_persona(as_persona, persona):
    assert as_persona(persona).get("/").status_code == READ[persona]


def test_with_the_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Pulka" in response.content.decode()


def test_with_a_fragment_helper(client):
    assert_fragment(client.get("/"), "board")


def test_with_a_query_count(client, django_assert_num_queries):
    with django_assert_num_queries(2):
        response = client.get("/")
    assert response.status_code == 204
"""


def test_a_test_of_a_status_alone_is_caught():
    tree = ast.parse(PROBE)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    functions |= functions_of(TESTS / "club" / "factories.py")

    assert status_only_tests(tree, functions) == [
        "test_alone",
        "test_through_a_helper",
        "test_of_two_statuses",
        "test_of_a_persona",
    ]


def test_browser_waits_are_functions_the_csp_lets_run():
    """page.wait_for_function("expr") polls by eval, which our Content-Security-Policy
    refuses (no 'unsafe-eval'): it fails whenever the first check is not yet true. A
    function ("() => expr") is called as it is."""
    expressions = []
    for path in sorted((TESTS / "browser").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "wait_for_function"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and "=>" not in node.args[0].value
            ):
                expressions.append(f"{path.name}:{node.lineno}")
    assert expressions == []
