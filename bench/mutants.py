"""``make mutants``: mutation testing of the rules engine and the roster rules (mutmut 3).

Not part of ``make test``. What it does, in order:

1. Lays a working copy of the project in ``.mutants/`` (gitignored; only files whose content
   changed are copied again, so mutmut's cache stays valid between runs).
2. In that copy, rewrites the engine's registration decorators (``@fire.check``,
   ``@fire.mutator``, ``@x.upcaster(1)``) as the equivalent call after the function
   (``_check_fire = (fire.check)(_check_fire)``). mutmut 3 never mutates a decorated
   function, and every check and mutator of the engine is one: without this step the
   rules themselves would not be mutated at all. The checkout is never changed.
3. Runs ``mutmut run`` there under ``nice`` with one worker by default (``MUTANTS_JOBS``),
   over ``battles/engine/`` and ``rosters/domain/`` as ``[tool.mutmut]`` in
   pyproject.toml says: per-function test selection (each mutant runs only the tests
   that call the mutated function), a CPU-time limit per mutant
   ((the tests' time + 1 s) x 15 x 2), and ``-p bench.mutants_plugin`` to run the
   fastest tests first.
4. Reads mutmut's results, prints a summary per file and writes the killed fractions into
   ``bench/results.json`` as ``engine_mutants_killed`` and ``roster_mutants_killed``
   (merged: every other key is kept), with how many mutants were tested of how many.

Sampling (``MUTANTS_SAMPLE=400 MUTANTS_SEED=1``): after generating the mutants, draw a
seeded uniform random sample of that many per area (engine, roster) from the mutants that
do more than reword a message (``MUTANTS_ONLY`` globs, if given, narrow the population),
run those of them that have no result yet, and report the killed fraction of the sample
with its 95 % Wilson confidence interval. The sample is kept in ``.mutants/sample.json``
so ``--report`` reads it again; a run without ``MUTANTS_SAMPLE`` (or ``--report --no-sample``)
forgets it. ``MUTANTS_RERUN=1`` (``--rerun-survivors``) runs the sample's survivors again, after
new tests.

Usage: ``make mutants`` (everything; hours on 2 shared cores, see docs/mutants.md),
``make mutants MUTANTS_ONLY="rosters.domain*"`` (mutmut name globs, space-separated,
always re-run), ``make mutants MUTANTS_SAMPLE=400 MUTANTS_SEED=1`` (a sample per area),
``python bench/mutants.py --report`` (only read the last results).
"""
from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / ".mutants"
RESULTS = ROOT / "bench" / "results.json"
SAMPLE = STAGE / "sample.json"
COPY = ["manage.py", "README.md", "pyproject.toml", "docs", "config", "campaign", "battles", "rosters", "bench",
        "tests"]
SKIP_DIRS = {"__pycache__", ".hypothesis", ".pytest_cache", "media", "staticfiles"}
ENGINE = "battles/engine/"
ROSTER = "rosters/domain/"
# mutmut's exit codes (mutmut.stats.status_by_exit_code), read without importing mutmut here
KILLED = {1, 3, 24, -24, 152, 255, 36, 37, -9, -11}  # failed tests, CPU timeout, killed, type check
NO_TESTS = {5, 33}
SURVIVED = {0}


def rewrite_decorators(src: str) -> str:
    """Top-level functions decorated with anything but the built-ins become undecorated
    functions followed by the same decorators applied as calls (same order, same effect)."""
    tree = ast.parse(src)
    lines = src.splitlines(keepends=True)
    edits = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.decorator_list:
            continue
        decs = [ast.get_source_segment(src, d) for d in node.decorator_list]
        if any(d in {"staticmethod", "classmethod", "property"} or d.startswith("dataclass") for d in decs):
            continue
        call = node.name
        for d in reversed(decs):
            call = f"({d})({call})"
        first = min(d.lineno for d in node.decorator_list)
        edits.append((first, node.lineno, node.end_lineno, f"{node.name} = {call}  # make mutants: was a decorator\n"))
    for first, def_line, end, registration in reversed(edits):
        lines.insert(end, registration)
        for i in range(first - 1, def_line - 1):  # blank the decorator lines: the def keeps its line number
            lines[i] = "\n"
    return "".join(lines)


def _sync_file(src: Path, dst: Path, content: bytes | None = None) -> None:
    data = src.read_bytes() if content is None else content
    if dst.exists() and dst.read_bytes() == data:
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        shutil.copy2(src, dst)
    else:
        dst.write_bytes(data)


def stage() -> None:
    """Lay (or refresh) the working copy in .mutants/."""
    STAGE.mkdir(exist_ok=True)
    wanted = set()
    for name in COPY:
        src = ROOT / name
        paths = [src] if src.is_file() else [p for p in src.rglob("*") if p.is_file()]
        for p in paths:
            rel = p.relative_to(ROOT)
            if SKIP_DIRS & set(rel.parts) or p.suffix == ".pyc":
                continue
            wanted.add(rel)
            content = None
            if rel.as_posix().startswith(ENGINE) and p.suffix == ".py":
                text = p.read_text(encoding="utf-8")
                new = rewrite_decorators(text)
                content = new.encode("utf-8") if new != text else None
            _sync_file(p, STAGE / rel, content)
    for name in COPY:  # files deleted from the checkout leave the copy too
        top = STAGE / name
        if top.is_dir():
            for p in top.rglob("*"):
                rel = p.relative_to(STAGE)
                if p.is_file() and not SKIP_DIRS & set(rel.parts) and p.suffix != ".pyc" and rel not in wanted:
                    p.unlink()


def _env() -> dict:
    env = dict(os.environ)
    catalog = ROOT.parent / "shared" / "rules" / "CATALOG.md"
    if catalog.exists():
        env.setdefault("SHTAB_RULES_CATALOG", str(catalog))
    env.pop("DATABASE_URL", None)  # SQLite: each forked mutant gets its own test database
    env.pop("CI", None)
    return env


GENERATE = """
import os
from mutmut.__main__ import (copy_also_copy_files, copy_src_dir, create_mutants, set_mutant_under_test,
                             setup_source_paths, store_lines_covered_by_tests)
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir(); copy_also_copy_files(); setup_source_paths(); store_lines_covered_by_tests()
create_mutants({jobs})
"""


def generate(jobs: int) -> int:
    """mutmut's own first step (the same calls as ``mutmut run``), alone, so the sample can be
    drawn from every mutant that exists now; ``mutmut run`` then finds the files unmodified.
    Results of changed functions are reset here, as mutmut does."""
    print("make mutants: generating mutants", flush=True)
    return subprocess.call(["nice", "-n", "19", sys.executable, "-c", GENERATE.format(jobs=jobs)], cwd=STAGE,
                           env=_env(), stdout=subprocess.DEVNULL)


def run_mutmut(only: list[str], jobs: int) -> int:
    env = _env()
    mutmut = Path(sys.executable).parent / "mutmut"
    cmd = ["nice", "-n", "19", str(mutmut), "run", "--max-children", str(jobs), *only]
    shown = cmd if len(cmd) < 12 else [*cmd[:6], f"... {len(only)} mutant names"]
    print("make mutants:", " ".join(shown), f"(in {STAGE.relative_to(ROOT)}/)", flush=True)
    proc = subprocess.Popen(cmd, cwd=STAGE, env=env)
    try:
        return proc.wait()
    except KeyboardInterrupt:  # Ctrl-C: mutmut stops its workers; what it finished still counts
        proc.wait()
        return 1


def read_results() -> dict[str, dict]:
    """{source file: {mutant name: exit code or None}} from mutmut's .meta files."""
    out = {}
    base = STAGE / "mutants"
    for meta in sorted(base.rglob("*.py.meta")):
        rel = meta.relative_to(base).as_posix()[: -len(".meta")]
        if not (rel.startswith(ENGINE) or rel.startswith(ROSTER)):
            continue
        out[rel] = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
    return out


PROSE = re.compile(r"[^\W\d_]{3,}\s")  # a word and a space: a message, not a key, ID or separator
LETTER = re.compile(r"[^\W\d_]")
MESSAGE_PARAM = re.compile(r"^(ru|en)$|_(ru|en)$")  # refuse(rule, ru, en), _no_other_action(..., what_ru, what_en)
# Functions whose message arguments are behaviour, not wording: ``actors._hidden`` must refuse an
# enemy's unrevealed mine or charge with exactly the text of an unknown id's refusal (S-UNKNOWN), or
# the wording would tell the enemy that something is there.
WORDING_MATTERS = {"_hidden"}


def _is_prose(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(PROSE.search(node.value))


def _first_difference(x: str, y: str) -> int:
    return next((i for i, (c, d) in enumerate(zip(x, y, strict=False)) if c != d), min(len(x), len(y)))


def _reworded(a: ast.AST, b: ast.AST) -> bool:
    """``b`` is the string literal ``a`` in other letters: lower case, upper case or "XX...XX"
    (mutmut's three string mutations), nothing else. An implicitly concatenated literal
    (``"one " "two"``) is one constant whose piece mutmut changed, so a piece will do."""
    if not (isinstance(a, ast.Constant) and isinstance(b, ast.Constant)
            and isinstance(a.value, str) and isinstance(b.value, str)) or a.value == b.value:
        return False
    x, y = a.value, b.value
    if len(y) == len(x):
        return y.lower() == x.lower()
    if len(y) != len(x) + 4:
        return False
    i = _first_difference(x, y)
    if y[i:i + 2] != "XX":
        return False
    z = y[:i] + y[i + 2:]
    j = _first_difference(x, z)
    return z[j:j + 2] == "XX" and z[:j] + z[j + 2:] == x


def message_params(sources: dict[str, str]) -> dict[str, set[int | str]]:
    """{callable name: its message parameters}, positions and names, from the source texts:
    the parameters named ``ru``, ``en`` or ending ``_ru``, ``_en`` of every function, method and
    class (``__init__`` or dataclass fields) defined there. A name defined more than once keeps
    only the positions that are message parameters in every definition."""
    found: dict[str, list[set[int | str]]] = defaultdict(list)

    def positional(args: ast.arguments, method: bool) -> list[str]:
        names = [a.arg for a in (*args.posonlyargs, *args.args)]
        return names[1:] if method and names and names[0] in {"self", "cls"} else names

    def record(name: str, names: list[str], kwonly: list[str]) -> None:
        found[name].append({i for i, n in enumerate(names) if MESSAGE_PARAM.search(n)}
                           | {n for n in (*names, *kwonly) if MESSAGE_PARAM.search(n)})

    for text in sources.values():
        tree = ast.parse(text)
        methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body
                   if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                record(node.name, positional(node.args, id(node) in methods), [a.arg for a in node.args.kwonlyargs])
            elif isinstance(node, ast.ClassDef):
                init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
                if init is not None:
                    record(node.name, positional(init.args, True), [a.arg for a in init.args.kwonlyargs])
                else:  # a dataclass: its annotated fields, in order
                    record(node.name, [f.target.id for f in node.body
                                       if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)], [])
    return {name: set.intersection(*defs) for name, defs in found.items() if set.intersection(*defs)}


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _is_message_argument(node: ast.AST, parent: ast.AST | None, params: dict[str, set[int | str]]) -> bool:
    """``node`` is a string literal with a letter passed to a message parameter (``ru``, ``en``,
    ``*_ru``, ``*_en``) of a function, by position or by name: a message however short
    (``"shoot"``, ``"Отделение"``). Never a rule ID, an enum value or a key: those are passed
    to other parameters, or compared, not to a message parameter."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and LETTER.search(node.value)):
        return False
    if not isinstance(parent, ast.Call) or _callee(parent) in WORDING_MATTERS:
        return False
    wanted = params.get(_callee(parent) or "", set())
    for i, arg in enumerate(parent.args):
        if isinstance(arg, ast.Starred):
            return False
        if arg is node:
            return i in wanted
    return any(kw.value is node and kw.arg is not None and (kw.arg in wanted or MESSAGE_PARAM.search(kw.arg))
               for kw in parent.keywords)


def _diff(a, b) -> list[tuple]:
    """The smallest differing subtrees of two ASTs."""
    if type(a) is not type(b):
        return [(a, b)]
    if isinstance(a, ast.Constant):
        return [] if a.value == b.value and type(a.value) is type(b.value) else [(a, b)]
    if not isinstance(a, ast.AST):
        return [] if a == b else [(a, b)]
    out = []
    for field_name in a._fields:
        if field_name == "name" and isinstance(a, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        x, y = getattr(a, field_name, None), getattr(b, field_name, None)
        if isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return [(a, b)]
            for i, j in zip(x, y, strict=True):
                out += _diff(i, j)
        else:
            out += _diff(x, y)
    return out


def message_mutant_names(source: str, module: str, params: dict[str, set[int | str]]) -> set[str]:
    """The mutants in ``source`` (a file as mutmut writes it: ``f__mutmut_orig`` and its
    mutants ``f__mutmut_1``...) whose only change rewords a message: a string literal made
    lower case, upper case or "XX...XX", where the literal is prose (a word and a space) or
    any word passed to a message parameter (``_is_message_argument``). Pure: no mutmut needed."""
    tree = ast.parse(source)
    funcs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    out = set()
    for name, node in funcs.items():
        base, sep, number = name.rpartition("__mutmut_")
        if not sep or number == "orig" or f"{base}__mutmut_orig" not in funcs:
            continue
        orig = funcs[f"{base}__mutmut_orig"]
        changed = _diff(orig, node)
        if not changed:
            continue
        parents = {id(child): parent for parent in ast.walk(orig) for child in ast.iter_child_nodes(parent)}
        if all(_reworded(a, b) and (_is_prose(a) or _is_message_argument(a, parents.get(id(a)), params))
               for a, b in changed):
            out.add(f"{module}.{name}")
    return out


_PARAMS: dict[str, set[int | str]] | None = None


def message_mutants(path: str) -> set[str]:
    """Mutants of ``path`` whose only change is the wording of a message (message_mutant_names).
    The refusal or report line is still made, with its rule ID, severity and subject, which
    is what the tests assert; only its letters differ (docs/mutants.md). A message replaced
    by None or dropped is not in this set: tests catch those."""
    global _PARAMS
    mutated = STAGE / "mutants" / path
    if not mutated.exists():
        return set()
    if _PARAMS is None:
        files = [*sorted((ROOT / ENGINE).rglob("*.py")), *sorted((ROOT / ROSTER).rglob("*.py"))]
        _PARAMS = message_params({str(f): f.read_text(encoding="utf-8") for f in files})
    module = path[: -len(".py")].replace("/", ".").removesuffix(".__init__")
    return message_mutant_names(mutated.read_text(encoding="utf-8"), module, _PARAMS)


def area_of(path: str) -> str:
    return "roster" if path.startswith(ROSTER) else "engine"


def draw_sample(results: dict[str, dict], size: int, seed: int, only: list[str]) -> dict[str, list[str]]:
    """A seeded uniform random sample of ``size`` mutants per area, drawn without replacement
    from the mutants that do more than reword a message (and match ``only``, if given).
    The same seed and the same mutants give the same sample."""
    population: dict[str, list[str]] = {"engine": [], "roster": []}
    for path, codes in results.items():
        wording = message_mutants(path)
        population[area_of(path)] += [n for n in codes if n not in wording
                                      and (not only or any(fnmatch.fnmatch(n, g) for g in only))]
    out = {}
    for area, names in population.items():
        if names:
            rng = random.Random(f"{seed}:{area}")
            out[area] = sorted(rng.sample(sorted(names), min(size, len(names))))
    return out


def load_sample() -> dict:
    try:
        return json.loads(SAMPLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def wilson(killed: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion killed/n."""
    if not n:
        return (0.0, 1.0)
    p = killed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise_sample(results: dict[str, dict], sample: dict) -> dict:
    """The killed fraction of each area's sample, with its Wilson interval; it becomes the
    headline ``*_mutants_killed`` (the complete-run fraction stays as ``*_mutants_killed_tested``)."""
    codes = {name: code for per_file in results.values() for name, code in per_file.items()}
    figures: dict = {}
    for area, names in sample.get("areas", {}).items():
        verdicts = Counter(verdict(codes.get(n)) for n in names)
        n = len(names) - verdicts["not tested"]
        killed = verdicts["killed"]
        low, high = wilson(killed, n)
        frac = round(killed / n, 4) if n else None
        figures.update({f"{area}_mutants_killed": frac, f"{area}_mutants_sample": n,
                        f"{area}_mutants_sample_drawn": len(names), f"{area}_mutants_sample_seed": sample.get("seed"),
                        f"{area}_mutants_ci95_low": round(low, 4), f"{area}_mutants_ci95_high": round(high, 4)})
        shown = "n/a" if frac is None else f"{frac:.1%}"
        print(f"{area} SAMPLE (seed {sample.get('seed')}): {shown} killed ({killed} of {n} sampled mutants, "
              f"rewordings left out), 95 % CI {low:.1%} to {high:.1%}"
              + (f"; {verdicts['not tested']} of the {len(names)} drawn not tested yet" if verdicts["not tested"]
                 else ""))
        survivors = sorted(x for x in names if verdict(codes.get(x)) in {"survived", "no tests", "suspicious"})
        (STAGE / f"survivors-sample-{area}.txt").write_text("\n".join(survivors) + "\n", encoding="utf-8")
    return figures


def verdict(code: int | None) -> str:
    if code is None:
        return "not tested"
    if code in KILLED:
        return "killed"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    return "suspicious"


def summarise(results: dict[str, dict], seconds: float | None) -> dict:
    """Per file and per group (engine, roster): killed, survived, untested. The headline
    fraction leaves out the mutants that only change a message's wording (message_mutants);
    ``*_killed_all`` counts them too."""
    groups = {"engine": Counter(), "roster": Counter()}
    per_file: dict[str, Counter] = defaultdict(Counter)
    survivors: list[str] = []
    for path, codes in results.items():
        group = "roster" if path.startswith(ROSTER) else "engine"
        wording = message_mutants(path)
        for name, code in codes.items():
            v = verdict(code)
            groups[group][v] += 1
            if v != "not tested" and name in wording:
                groups[group]["wording " + ("killed" if v == "killed" else "survived")] += 1
                per_file[path]["wording"] += 1
                continue
            per_file[path][v] += 1
            if v in {"survived", "no tests", "suspicious"}:
                survivors.append(name)
    print(f"\n{'file':48} {'killed':>7} {'surv.':>6} {'wording':>8} {'untested':>8} {'total':>6}")
    for path, c in sorted(per_file.items()):
        total = sum(c[k] for k in ("killed", "survived", "suspicious", "no tests", "not tested", "wording"))
        if total:
            print(f"{path:48} {c['killed']:7} {c['survived'] + c['suspicious'] + c['no tests']:6} {c['wording']:8} "
                  f"{c['not tested']:8} {total:6}")
    figures: dict = {}
    for group, c in groups.items():
        total = sum(c[k] for k in ("killed", "survived", "suspicious", "no tests", "not tested"))
        tested = total - c["not tested"]
        wording = c["wording killed"] + c["wording survived"]
        killed = c["killed"] - c["wording killed"]
        frac = round(killed / (tested - wording), 4) if tested - wording else None
        figures[f"{group}_mutants_killed"] = frac
        figures[f"{group}_mutants_killed_tested"] = frac
        figures[f"{group}_mutants_killed_all"] = round(c["killed"] / tested, 4) if tested else None
        figures[f"{group}_mutants_tested"] = tested
        figures[f"{group}_mutants_wording"] = wording
        figures[f"{group}_mutants_total"] = total
        shown = "n/a" if frac is None else f"{frac:.1%}"
        print(f"{group}: {shown} killed ({killed} of {tested - wording} tested, leaving out {wording} that only "
              f"reword a message; {c['killed']} of {tested} with them); {total} mutants in all, "
              f"{c['not tested']} not tested in this run")
    if seconds is not None:
        figures["mutants_seconds"] = round(seconds)
    (STAGE / "survivors.txt").write_text("\n".join(sorted(survivors)) + "\n", encoding="utf-8")
    print(f"survivors (not counting rewordings) in {(STAGE / 'survivors.txt').relative_to(ROOT)}; "
          f"show one with: cd .mutants && mutmut show NAME")
    return figures


def write_results(figures: dict, sampled: bool = False) -> None:
    data = {}
    if RESULTS.exists():
        try:
            data = json.loads(RESULTS.read_text(encoding="utf-8"))
        except ValueError:
            data = {}
    if not sampled:  # figures of an earlier sample no longer describe the headline
        for key in [k for k in data if re.search(r"_mutants_(sample\w*|ci95_\w+)$", k)]:
            del data[key]
    data["mutants_headline"] = "sample" if sampled else "tested"
    data.update({k: v for k, v in figures.items() if v is not None})
    RESULTS.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("only", nargs="*", help="mutmut name globs, e.g. 'rosters.domain*' (re-run even if cached)")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("MUTANTS_JOBS", "1")))
    ap.add_argument("--report", action="store_true", help="only summarise the last run")
    ap.add_argument("--sample", type=int, default=int(os.environ.get("MUTANTS_SAMPLE") or 0),
                    help="run a seeded uniform random sample of this many mutants per area (MUTANTS_SAMPLE)")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("MUTANTS_SEED") or 1), help="MUTANTS_SEED")
    ap.add_argument("--no-sample", action="store_true", help="forget the last sample; report the tested fractions")
    ap.add_argument("--rerun-survivors", action="store_true",
                    help="with --sample: run the sample's survivors again too (after new tests); MUTANTS_RERUN=1")
    args = ap.parse_args(argv)
    args.rerun_survivors = args.rerun_survivors or os.environ.get("MUTANTS_RERUN") == "1"
    only = args.only or os.environ.get("MUTANTS_ONLY", "").split()
    seconds = None
    if args.no_sample or (not args.report and not args.sample):
        SAMPLE.unlink(missing_ok=True)
    if not args.report:
        start = time.monotonic()
        stage()
        if args.sample:
            if generate(args.jobs):
                return 1
            results = read_results()
            drawn = draw_sample(results, args.sample, args.seed, only)
            sample = load_sample()
            if sample.get("seed") != args.seed:
                sample = {"seed": args.seed, "areas": {}}
            sample["areas"].update(drawn)  # an area drawn alone keeps the other area's earlier sample
            sample["size"] = args.sample
            SAMPLE.write_text(json.dumps(sample, indent=1) + "\n", encoding="utf-8")
            codes = {n: c for per_file in results.values() for n, c in per_file.items()}
            again = {"survived", "no tests", "suspicious"} if args.rerun_survivors else set()
            only = sorted(n for names in drawn.values() for n in names
                          if codes.get(n) is None or verdict(codes.get(n)) in again)
            print(f"make mutants: sample of {args.sample} per area (seed {args.seed}): "
                  + ", ".join(f"{a} {len(n)}" for a, n in drawn.items()) + f"; {len(only)} to run",
                  flush=True)
        code = run_mutmut(only, args.jobs) if only or not args.sample else 0
        seconds = time.monotonic() - start
        print(f"make mutants: mutmut exited {code} after {seconds / 60:.1f} min", flush=True)
        if code not in (0, 1):  # mutmut exits 1 when it was interrupted part-way; its results still count
            return code
    results = read_results()
    figures = summarise(results, seconds)
    sample = load_sample()
    if sample:
        figures.update(summarise_sample(results, sample))
    write_results(figures, sampled=bool(sample))
    return 0


if __name__ == "__main__":
    sys.exit(main())
