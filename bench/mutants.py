"""Sampled mutation testing: do the tests notice when a module's code is changed a little?

For each module named, every place where one small change can be made is listed: an
arithmetic or comparison operator swapped, `and` for `or`, a `not` dropped, a number moved
by one, True for False, a statement deleted. A fixed-seed sample of them (40 by default) is
tried one at a time: the mutated module replaces the real one in a scratch copy of the tree
and the module's tests run against it (pytest -x). A mutant is killed when they fail.
Mutants that cannot change behaviour (equivalent ones) are listed in EQUIVALENT with the
reason; the budget is that at least 95% of the others are killed.

    .venv/bin/python bench/mutants.py                    # every module below
    .venv/bin/python bench/mutants.py scoring/services.py --count 40 --jobs 2
    .venv/bin/python bench/mutants.py competition/lib/seating.py --show   # list survivors

The last lines print each module's figures and the budget; the exit status is non-zero when
a module misses it.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 0.95

# module -> the tests that answer for it (pytest arguments)
MODULES: dict[str, list[str]] = {
    # the tests that write through the services (directly, or by posting to the views that
    # call them); the read-only pages, the drawing and the permission grids are left out
    "scoring/services.py": [
        "tests/scoring/test_services.py",
        "tests/scoring/test_bounded.py",
        "tests/scoring/test_club_rules.py",
        "tests/scoring/test_conventions_choice.py",
        "tests/scoring/test_deal_cap.py",
        "tests/scoring/test_deal_corrections.py",
        "tests/scoring/test_deal_entry.py",
        "tests/scoring/test_entry_once.py",
        "tests/scoring/test_evening_create.py",
        "tests/scoring/test_evening_edit.py",
        "tests/scoring/test_exchange.py",
        "tests/scoring/test_live.py",
        "tests/scoring/test_pulka_status.py",
        "tests/scoring/test_restore.py",
        "tests/scoring/test_result_bounds.py",
        "tests/scoring/test_who_entered.py",
    ],
    "club/invitations.py": [
        "tests/club/test_consent.py",
        "tests/club/test_invitations.py",
        "tests/club/test_invitation_accept.py",
        "tests/club/test_invitation_admin.py",
        "tests/club/test_invitation_rules.py",
        "tests/club/test_link_authority.py",
        "tests/club/test_name_claims.py",
    ],
    "competition/lib/seating.py": ["tests/competition/lib"],
    "competition/lib/standings.py": ["tests/competition/lib"],
    "competition/lib/tournament_scoring.py": ["tests/competition/lib"],
}

# module -> {mutant id: why it cannot change what the module does}
EQUIVALENT: dict[str, dict[str, str]] = {
    "scoring/services.py": {
        "417:71:const-False": "deal_record: set running above, and was_done acts on finished ones",
        "555:12:const-1000000": "any shift above MAX_DEALS (500) moves them out and back",
        "801:70:const-False": "pulka_import: just created, running; was_done acts on finished ones",
        "811:18:const-True": "frozen: nothing assigns to or hashes a RestoredDeal",
        "822:18:const-True": "frozen: nothing assigns to or hashes a RestoredRevision",
        "836:18:const-True": "frozen: nothing assigns to or hashes a RestoredStatus",
        "914:82:const-True": "zip(strict=): one stamp per deal was checked above",
    },
    "club/invitations.py": {
        "161:4:delete": "the last line of link_state_error: it returns None without it too",
        "175:18:const-True": "frozen: nothing assigns to or hashes an AcceptPlan",
        "386:8:delete": "_is_address gives None for False; its one caller reads it with `not`",
    },
    "competition/lib/seating.py": {
        "560:22:const-0": "where starts [1]*n instead of [0]*n: the loop below sets every entry",
    },
    "competition/lib/standings.py": {
        "61:16:cmp-Gt": "reached only when |result| > cap >= 0, so the result is never 0",
        "239:4:delete": "a Protocol attribute read by type checkers only (not runtime_checkable)",
        "242:0:delete": "Line is used in annotations only, which __future__ keeps as strings",
        "257:4:delete": "int and Fraction (Number) give the same denominator, int() and float()",
    },
    "competition/lib/tournament_scoring.py": {
        "437:54:op-Add": "Result.players is never read by tally or rank",
        "549:7:cmp-LtE": "with exactly `top` lines both branches take the last line's place",
    },
}

SWAPS: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.And: ast.Or,
    ast.Or: ast.And,
}


@dataclass(frozen=True)
class Site:
    """One small change: where (line:column) and what."""

    line: int
    col: int
    kind: str
    index: int = 0  # which operator of a chained comparison

    @property
    def id(self) -> str:
        return f"{self.line}:{self.col}:{self.kind}" + (f":{self.index}" if self.index else "")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0]))
                found.add(id(body[0].value))
    return found


def _deletable(node: ast.stmt) -> bool:
    return isinstance(
        node, ast.Expr | ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Raise | ast.Return
    ) and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))


def sites(tree: ast.AST) -> list[Site]:
    """Every place one change can be made, in source order."""
    skip = _docstrings(tree)
    found: list[Site] = []
    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "lineno"):
            continue
        at = (node.lineno, node.col_offset)
        if isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in SWAPS:
            found.append(Site(*at, f"op-{type(node.op).__name__}"))
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAPS:
                    found.append(Site(*at, f"cmp-{type(op).__name__}", i))
        elif isinstance(node, ast.BoolOp):
            found.append(Site(*at, f"bool-{type(node.op).__name__}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append(Site(*at, "drop-not"))
        elif isinstance(node, ast.Constant) and type(node.value) in (int, bool):
            found.append(Site(*at, f"const-{node.value!r}"))
        if isinstance(node, ast.stmt) and _deletable(node):
            found.append(Site(*at, "delete"))
    return sorted(set(found), key=lambda s: (s.line, s.col, s.kind, s.index))


class _Mutate(ast.NodeTransformer):
    def __init__(self, site: Site) -> None:
        self.site = site
        self.done = False

    def _here(self, node: ast.AST) -> bool:
        return (getattr(node, "lineno", None), getattr(node, "col_offset", None)) == (
            self.site.line,
            self.site.col,
        )

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if self.done or not self._here(node):
            return node
        kind = self.site.kind
        if kind.startswith("op-") and isinstance(node, ast.BinOp | ast.AugAssign):
            node.op = SWAPS[type(node.op)]()
        elif kind.startswith("cmp-") and isinstance(node, ast.Compare):
            node.ops[self.site.index] = SWAPS[type(node.ops[self.site.index])]()
        elif kind.startswith("bool-") and isinstance(node, ast.BoolOp):
            node.op = SWAPS[type(node.op)]()
        elif kind == "drop-not" and isinstance(node, ast.UnaryOp):
            self.done = True
            return node.operand
        elif kind.startswith("const-") and isinstance(node, ast.Constant):
            node.value = (not node.value) if isinstance(node.value, bool) else node.value + 1
        elif kind == "delete" and isinstance(node, ast.stmt):
            self.done = True
            return ast.copy_location(ast.Pass(), node)
        else:
            return node
        self.done = True
        return node


def mutant_source(tree: ast.AST, site: Site) -> str:
    changed = _Mutate(site).visit(copy.deepcopy(tree))
    return ast.unparse(ast.fix_missing_locations(changed))


def _scratch_tree() -> Path:
    """A copy of the project without .git and .venv, where one mutant at a time is tried."""
    scratch = Path(tempfile.mkdtemp(prefix="pulka-mutants-"))
    ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.pyc", "staticfiles")
    shutil.copytree(ROOT, scratch / "tree", ignore=ignore)
    return scratch / "tree"


def _run_tests(tree: Path, tests: list[str], timeout: float) -> bool:
    """True when the tests fail (the mutant is killed)."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["-p", "no:playwright", "-m", "not browser", *tests]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(
            command, cwd=tree, capture_output=True, timeout=timeout, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return True  # an endless loop is noticed too
    return done.returncode not in (0, 5)


def try_module(module: str, *, count: int, seed: int, jobs: int, timeout: float):
    source = (ROOT / module).read_text(encoding="utf-8")
    tree = ast.parse(source)
    every = sites(tree)
    chosen = sorted(
        random.Random(f"{seed}:{module}").sample(every, min(count, len(every))),
        key=lambda s: (s.line, s.col),
    )
    trees = [_scratch_tree() for _ in range(jobs)]
    free = list(trees)

    def attempt(site: Site) -> tuple[Site, bool]:
        tree_dir = free.pop()
        try:
            (tree_dir / module).write_text(mutant_source(tree, site), encoding="utf-8")
            return site, _run_tests(tree_dir, MODULES[module], timeout)
        finally:
            (tree_dir / module).write_text(source, encoding="utf-8")
            free.append(tree_dir)

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(attempt, chosen))
    finally:
        for tree_dir in trees:
            shutil.rmtree(tree_dir.parent, ignore_errors=True)
    return len(every), results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=list(MODULES))
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--show", action="store_true", help="print each surviving mutant")
    args = parser.parse_args()
    lines = []
    ok = True
    for module in args.modules:
        total, results = try_module(
            module, count=args.count, seed=args.seed, jobs=args.jobs, timeout=args.timeout
        )
        equivalent = EQUIVALENT.get(module, {})
        survivors = [site for site, killed in results if not killed and site.id not in equivalent]
        judged = [site for site, _killed in results if site.id not in equivalent]
        killed = len(judged) - len(survivors)
        share = killed / len(judged) if judged else 1.0
        ok &= share >= BUDGET
        if args.show:
            source = (ROOT / module).read_text(encoding="utf-8").splitlines()
            for site in survivors:
                print(f"survived {module}:{site.id}  {source[site.line - 1].strip()}")
        lines.append(
            f"{module}: {killed} of {len(judged)} killed ({share:.0%}), "
            f"{len(results) - len(judged)} equivalent, {total} sites"
        )
    print("\n".join(lines))
    print(f"budget: at least {BUDGET:.0%} of the non-equivalent mutants killed in each module")
    print("budget met" if ok else "budget MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
