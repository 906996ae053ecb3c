"""Clause mutants (issue 28, "A clause audit of the whole catalog"): hand-written bugs, one per clause
of a rule, run against the tests that cite the rule.

Operator-swapping mutants (``make mutants``) break numbers; they cannot see a rule applied to the wrong
men, to too many of them, at the wrong moment, in the wrong order, or without its exception. This
harness draws a seeded random sample of the catalog's engine and roster rules (both rulesets) and, for
each sampled rule, applies the hand-written mutants of ``bench/clause_mutants_data.py`` one at a time
in a scratch copy of the checkout, runs only the tests that cite that rule, and records whether they
fail (killed) or pass (survived). The figure is ``clause_mutants_killed`` = killed / mutants.

    python bench/clause_mutants.py            # every mutant of the sample (make clause-mutants)
    python bench/clause_mutants.py --list     # the sample and how many tests cite each rule
    python bench/clause_mutants.py --only V-MG-5 F-DIG-8   # some rules' mutants only (no figure)
    python bench/clause_mutants.py --jobs 2   # two workers, each with its own scratch copy

A test *cites* a rule when its function's source (decorators with their ``parametrize`` ids, the
name, the docstring, the body and its comments) names the ID, as ``V-MG-5`` or as the name form
``v_mg_5``, not followed by another digit; or when the docstring of its class or its module names it.
Files: ``tests/**/test_*.py`` except the browser tests of ``tests/e2e/`` and this harness's own test.

Method and results: docs/rules-audit.md. Figures also go to bench/results.json (merged).
"""
from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.clause_mutants_data import MUTANTS, Mutant  # noqa: E402

SEED = 28  # issue 28; written in docs/rules-audit.md
SAMPLE_SIZE = 60
KINDS = ("engine", "roster")
CATALOG = Path(os.environ.get("SHTAB_RULES_CATALOG") or ROOT.parent / "shared" / "rules" / "CATALOG.md")
RESULTS = ROOT / "bench" / "results.json"
OUT = ROOT / ".clause_mutants"
IGNORE = shutil.ignore_patterns(".git", ".venv", ".mutants", ".clause_mutants", "__pycache__", "*.pyc",
                                "*.sqlite3", "node_modules", "media", "staticfiles", ".pytest_cache",
                                ".ruff_cache", ".hypothesis", "html", "mutants")
ROW = re.compile(r"^\|\s*([VF]-[A-Z]+-\d+)\s*\|\s*([a-z]+)\s*\|")


def catalog_rows(path: Path = CATALOG) -> dict[str, str]:
    """Every rule ID of the catalog with its kind (engine, roster, campaign, table)."""
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def sample_ids(rows: dict[str, str], seed: int = SEED, size: int = SAMPLE_SIZE) -> list[str]:
    """The sample: ``random.Random(seed).sample`` over the sorted engine and roster IDs, in draw order."""
    population = sorted(rid for rid, kind in rows.items() if kind in KINDS)
    return random.Random(seed).sample(population, size)


ID_FORM = re.compile(r"(?<![A-Za-z0-9-])([VF]-[A-Z]+-\d+)(?!\d)")
NAME_FORM = re.compile(r"(?<![a-z0-9])([vf])_([a-z]+)_(\d+)(?!\d)")


@functools.cache
def cited_ids(text: str) -> frozenset[str]:
    """The rule IDs a text names, as ``V-MG-5`` or as the name form ``v_mg_5`` (not ``V-MG-50``)."""
    return frozenset(ID_FORM.findall(text)) | frozenset(
        f"{a}-{b}-{n}".upper() for a, b, n in NAME_FORM.findall(text))


def _source(lines: list[str], node: ast.AST) -> str:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "\n".join(lines[first - 1:node.end_lineno])


def citable_functions(root: Path = ROOT) -> list[tuple[str, str, str]]:
    """(node id, the function's own source, the docstrings of its class and module) of every test."""
    found = []
    for path in sorted((root / "tests").rglob("test_*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("tests/e2e/") or rel == "tests/test_clause_mutants.py":
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        module_doc = ast.get_docstring(tree) or ""
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                found.append((f"{rel}::{node.name}", _source(lines, node), module_doc))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                outer = module_doc + "\n" + (ast.get_docstring(node) or "")
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                        found.append((f"{rel}::{node.name}::{item.name}", _source(lines, item), outer))
    return found


def citing_tests(rule_id: str, functions: list[tuple[str, str, str]]) -> list[str]:
    return [nid for nid, src, outer in functions if rule_id in cited_ids(src) or rule_id in cited_ids(outer)]


def check_applies(mutant: Mutant, root: Path = ROOT) -> str:
    """The file's text with the mutant applied; the old text must occur exactly once."""
    text = (root / mutant.file).read_text(encoding="utf-8")
    n = text.count(mutant.old)
    if n != 1:
        raise ValueError(f"{mutant.rule} {mutant.description!r}: old text occurs {n} times in {mutant.file}")
    return text.replace(mutant.old, mutant.new)


@dataclass
class Result:
    mutant: Mutant
    outcome: str  # killed | survived
    killer: str
    seconds: float


def _pytest(copy: Path, tests: list[str]) -> tuple[int, str]:
    env = dict(os.environ, SHTAB_RULES_CATALOG=str(CATALOG), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                           "-p", "no:schemathesis", "-p", "no:anyio", *tests],
                          cwd=copy, env=env, capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def _first_failure(output: str) -> str:
    m = re.search(r"^(?:FAILED|ERROR) (\S+)", output, re.M)
    return m.group(1) if m else ""


def _run_rule(copy: Path, rid: str, functions: list[tuple[str, str, str]], log) -> list[Result]:
    tests = citing_tests(rid, functions)
    if not tests:
        raise SystemExit(f"{rid}: no test cites it")
    rc, out = _pytest(copy, tests)
    if rc != 0:
        raise SystemExit(f"{rid}: the citing tests fail without a mutant:\n{out[-3000:]}")
    results = []
    for m in MUTANTS.get(rid, []):
        original = (copy / m.file).read_text(encoding="utf-8")
        (copy / m.file).write_text(check_applies(m, copy), encoding="utf-8")
        started = time.monotonic()
        try:
            rc, out = _pytest(copy, tests)
        finally:
            (copy / m.file).write_text(original, encoding="utf-8")
        if rc not in (0, 1):  # 2: an interrupted run (a collection error), 5: nothing collected
            raise SystemExit(f"{rid} {m.description!r}: pytest exited {rc}:\n{out[-3000:]}")
        r = Result(m, "survived" if rc == 0 else "killed", _first_failure(out), time.monotonic() - started)
        results.append(r)
        log(f"{rid:12} {r.outcome:8} {m.clause:9} {m.description}  [{r.killer}] {r.seconds:.1f}s")
    return results


def run(rules: list[str], jobs: int = 1, log=functools.partial(print, flush=True)) -> list[Result]:
    """Each worker has its own scratch copy of the checkout and takes whole rules (the citing tests
    without a mutant first: they must pass, or a kill would mean nothing)."""
    functions = citable_functions()
    with tempfile.TemporaryDirectory(prefix="clause-mutants-") as tmp:
        copies = queue.Queue()
        for i in range(jobs):
            shutil.copytree(ROOT, Path(tmp) / f"repo{i}", ignore=IGNORE)
            copies.put(Path(tmp) / f"repo{i}")

        def one(rid: str) -> list[Result]:
            copy = copies.get()
            try:
                return _run_rule(copy, rid, functions, log)
            finally:
                copies.put(copy)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return [r for rule_results in pool.map(one, rules) for r in rule_results]


def figure(results: list[Result]) -> float:
    return round(sum(r.outcome == "killed" for r in results) / len(results), 2) if results else 0.0


def table(results: list[Result]) -> str:
    out = ["| rule | mutant | clause | result | killing test |", "|---|---|---|---|---|"]
    for r in results:
        killer = f"`{r.killer}`" if r.killer else "–"
        out.append(f"| {r.mutant.rule} | {r.mutant.description} | {r.mutant.clause} | {r.outcome} | {killer} |")
    return "\n".join(out)


def _merge(path: Path, figures: dict) -> None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    data.update(figures)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="show the sample and the citing tests' counts")
    ap.add_argument("--jobs", type=int, default=1, help="workers, each with its own scratch copy (default 1)")
    ap.add_argument("--only", nargs="+", metavar="RULE", help="run these rules' mutants only (no figure)")
    args = ap.parse_args(argv)
    sample = sample_ids(catalog_rows())
    if args.list:
        functions = citable_functions()
        for rid in sample:
            print(f"{rid:12} {len(MUTANTS.get(rid, [])):2} mutants  {len(citing_tests(rid, functions)):3} citing tests")
        return 0
    rules = args.only or sample
    started = time.monotonic()
    results = run(rules, args.jobs)
    killed = sum(r.outcome == "killed" for r in results)
    print()
    print(table(results))
    print(f"\n{killed} of {len(results)} killed in {time.monotonic() - started:.0f} s")
    print(f"clause_mutants_killed = {figure(results):.2f}")
    if args.only:
        return 0
    OUT.mkdir(exist_ok=True)
    (OUT / "results.md").write_text(table(results) + f"\n\nclause_mutants_killed = {figure(results):.2f}\n",
                                    encoding="utf-8")
    (OUT / "results.json").write_text(json.dumps(
        [{"rule": r.mutant.rule, "clause": r.mutant.clause, "description": r.mutant.description,
          "outcome": r.outcome, "killer": r.killer, "seconds": round(r.seconds, 1)} for r in results], indent=1)
        + "\n", encoding="utf-8")
    _merge(RESULTS, {"clause_mutants_killed": figure(results), "clause_mutants_total": len(results),
                     "clause_mutants_survived": len(results) - killed, "clause_mutants_seed": SEED,
                     "clause_mutants_rules": len(rules)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
