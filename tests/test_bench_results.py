"""``make bench`` and ``make mutants`` share bench/results.json (issue 11 asks for the mutants' figures
there, issue 14 for the bench's): a bench run keeps the mutants' keys and replaces its own."""
import json

from bench.run import keep_mutants


def test_a_bench_run_keeps_the_mutants_figures_and_drops_its_own_stale_ones(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"engine_mutants_killed": 0.98, "roster_mutants_ci95_low": 0.954,
                                "mutants_headline": "sample", "append_batch_ratio": 0.5, "stale_figure": 1}))
    merged = keep_mutants(path, {"append_batch_ratio": 0.8})
    assert merged == {"engine_mutants_killed": 0.98, "roster_mutants_ci95_low": 0.954,
                      "mutants_headline": "sample", "append_batch_ratio": 0.8}


def test_without_a_readable_file_the_run_writes_its_own_figures_only(tmp_path):
    assert keep_mutants(tmp_path / "missing.json", {"a": 1}) == {"a": 1}
    (tmp_path / "bad.json").write_text("{not json")
    assert keep_mutants(tmp_path / "bad.json", {"a": 1}) == {"a": 1}
