"""The clause-mutant harness's invariants (issue 28, bench/clause_mutants.py), without running a mutant:
the sample is the documented seed's, every sampled rule has its mutants and a citing test, every mutant
names a catalog rule and applies to today's code exactly once (a mutant that silently did not apply would
count as a kill of nothing)."""
import random
import re
from pathlib import Path

import pytest

from bench.clause_mutants import (
    KINDS,
    SAMPLE_SIZE,
    SEED,
    catalog_rows,
    check_applies,
    citable_functions,
    citing_tests,
    sample_ids,
)
from bench.clause_mutants_data import CLAUSES, MUTANTS
from tests.engine.test_structure import CATALOG, catalog_text

ROOT = Path(__file__).resolve().parent.parent
ALL = [m for ms in MUTANTS.values() for m in ms]


@pytest.fixture(scope="module")
def rows():
    catalog_text()  # skips on a laptop without ../shared, fails under CI
    return catalog_rows(CATALOG)


def test_the_sample_is_at_least_60_rules_drawn_by_the_documented_seed(rows):
    sample = sample_ids(rows)
    population = sorted(r for r, kind in rows.items() if kind in KINDS)
    assert SAMPLE_SIZE >= 60 and len(set(sample)) == SAMPLE_SIZE
    assert sample == random.Random(SEED).sample(population, SAMPLE_SIZE)
    assert {r[0] for r in sample} == {"V", "F"}  # both rulesets
    assert {rows[r] for r in sample} == set(KINDS)  # engine and roster rules
    doc = (ROOT / "docs" / "rules-audit.md").read_text(encoding="utf-8")
    assert f"seed {SEED}" in doc and f"SEED = {SEED}" in (ROOT / "bench" / "clause_mutants.py").read_text()


def test_every_sampled_rule_has_mutants_and_a_citing_test_and_no_mutant_is_outside_the_sample(rows):
    sample = set(sample_ids(rows))
    functions = citable_functions(ROOT)
    assert not sorted(r for r in sample if not MUTANTS.get(r))
    assert not sorted(r for r in sample if not citing_tests(r, functions))
    assert not sorted(set(MUTANTS) - sample)


def test_every_mutant_names_a_catalog_rule_and_a_clause_and_describes_itself(rows):
    for m in ALL:
        assert m.rule in rows and rows[m.rule] in KINDS, m
        assert m.clause in CLAUSES, m
        assert m.old != m.new and m.description.strip(), m


@pytest.mark.parametrize("mutant", ALL, ids=lambda m: f"{m.rule}:{m.description[:40]}")
def test_every_mutant_applies_exactly_once_to_today_s_code(mutant):
    patched = check_applies(mutant, ROOT)  # raises unless the old text occurs exactly once
    assert patched != (ROOT / mutant.file).read_text(encoding="utf-8")


def test_a_mutant_whose_text_is_gone_or_repeated_is_refused(tmp_path):
    from bench.clause_mutants_data import Mutant

    (tmp_path / "x.py").write_text("a = 1\na = 1\n", encoding="utf-8")
    for old in ("a = 1", "b = 2"):
        with pytest.raises(ValueError, match=re.escape("occurs")):
            check_applies(Mutant("V-X-1", "who", "x.py", old, "c = 3", "d"), tmp_path)


def test_a_test_cites_a_rule_by_its_id_or_its_name_form_not_by_a_longer_id():
    functions = [("t.py::test_v_mg_5_heavy", "def test_v_mg_5_heavy(): pass", ""),
                 ("t.py::test_b", 'def test_b():\n    """V-MG-5: two men."""', ""),
                 ("t.py::test_c", "def test_c(): pass  # V-MG-50, v_mg_51", ""),
                 ("t.py::C::test_d", "def test_d(): pass", "module\nclass cites F-DIG-8 and V-MG-5")]
    assert citing_tests("V-MG-5", functions) == ["t.py::test_v_mg_5_heavy", "t.py::test_b", "t.py::C::test_d"]
