"""``make bench``: Shtab's write and replay paths against bare baselines, on PostgreSQL.

Every figure is a ratio of two things measured side by side in this run, on
this machine, so it means the same on a laptop and on a server; absolute
rates are printed too, for context only. The goals come from issue 2 and are
reported as PASS or MISS, never asserted: a slow machine must not fail a build.

Environment: ``BENCH_DATABASE_URL`` (default postgres://postgres@127.0.0.1:5432/shtab_bench;
the database is dropped and recreated on every run), ``BENCH_QUICK=1`` for a
smaller run (a minute instead of about five), ``BENCH_PORTS=first-last`` for the
server's port range (default any free port). Results go to bench/results.json.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import env  # noqa: E402
from config import serve  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK", "").lower() in {"1", "true", "yes"}
RESULTS = Path(__file__).resolve().parent / "results.json"

# Sizes: (full, quick).
SIZES = {
    "batch_pairs": (40, 8), "batch_batches": (5, 5),
    "http_seconds": (10.0, 3.0), "http_rounds": (2, 1),
    "writers_seconds": (8.0, 3.0), "writers_rounds": (2, 1), "lag_seconds": (20.0, 8.0),
    "engine_events": (100_000, 100_000), "engine_repeats": (2, 1),
    "fow_engine_events": (100_000, 100_000), "fow_engine_repeats": (3, 1),
    "rebuild_repeats": (1, 1),
    "standings_characters": (10_000, 2_000), "standings_battles": (2_000, 200),
    "standings_events": (1_000_000, 100_000), "standings_requests": (60, 20),
    "roster_repeats": (200, 50),
    "table_events": (1000, 1000), "table_requests": (60, 20), "table_records": (40, 10),
    # game night: table counts probed upwards (then bisected between the last pass and the first miss),
    # seconds measured per probe (after its ramp), bisection steps
    "night_ladder": ((25, 50, 75, 100, 150, 200, 250), (25, 50, 100, 200)), "night_seconds": (30.0, 12.0),
    "night_bisect": (3, 1),
}
HTTP_CLIENTS = 8
WRITERS = 16
# 2 cores shared by the server, the 8 client threads and PostgreSQL: config.serve's default layout
# (4 granian processes x 1 blocking thread; bench/HISTORY.md, "Seventh pass", for the layouts measured).
# Override with BENCH_SERVER=workers:threads.
SERVER = tuple(int(x) for x in os.environ.get("BENCH_SERVER", f"{serve.WORKERS}:{serve.THREADS}").split(":"))


def size(name: str):
    if name == "night_ladder" and os.environ.get("BENCH_NIGHT_LADDER"):  # e.g. "40,60": just those counts
        return tuple(int(x) for x in os.environ["BENCH_NIGHT_LADDER"].split(","))
    if name == "night_bisect" and os.environ.get("BENCH_NIGHT_BISECT"):  # e.g. 0: no bisecting after a miss
        return int(os.environ["BENCH_NIGHT_BISECT"])
    full, quick = SIZES[name]
    return quick if QUICK else full


def step(title: str):
    print(f"bench: {title} ...", flush=True)
    return time.perf_counter()


def verdict(value: float, goal: str) -> str:
    op, bound = goal.split()
    ok = value >= float(bound) if op == ">=" else value <= float(bound)
    return "PASS" if ok else "MISS"


def table(results: dict) -> str:
    rows = []
    if "append_batch_ratio" in results:
        rows.append(("append_batch_ratio", f"{results['append_batch_ratio']:.3f}", ">= 0.9",
                     verdict(results["append_batch_ratio"], ">= 0.9"),
                     f"{results['append_batch_service_events_per_s']:,.0f} vs "
                     f"{results['append_batch_raw_events_per_s']:,.0f} ev/s; the synthetic battle"))
        rows.append(("  turn ends only", f"{results['append_batch_turns_ratio']:.3f}", "-", "",
                     f"{results['append_batch_turns_service_events_per_s']:,.0f} vs "
                     f"{results['append_batch_turns_raw_events_per_s']:,.0f} ev/s; the workload before issue 14"))
    if "append_http_ratio" in results:
        rows.append(("append_http_ratio", f"{results['append_http_ratio']:.3f}", ">= 0.2",
                     verdict(results["append_http_ratio"], ">= 0.2"),
                     f"{results['append_http_events_per_s']:,.0f} vs {results['append_http_raw_events_per_s']:,.0f} ev/s"))
    if "writers_own_battle_per_s" in results:
        own, one = results["writers_own_battle"], results["writers_one_battle"]
        rows += [
            ("writers_own_battle_per_s", f"{results['writers_own_battle_per_s']:,.0f}", "reported", "",
             f"ratio {results['writers_own_battle_ratio']:.3f} of raw {own['raw_per_s']:,.0f}/s; "
             f"ack/stored/gaps/dups {own['acknowledged']}/{own['stored']}/{own['gaps']}/{own['duplicates']}"),
            ("writers_one_battle_per_s", f"{results['writers_one_battle_per_s']:,.0f}", "reported", "",
             f"ratio {results['writers_one_battle_ratio']:.3f} of raw {one['raw_per_s']:,.0f}/s; "
             f"ack/stored/gaps/dups {one['acknowledged']}/{one['stored']}/{one['gaps']}/{one['duplicates']}; "
             f"{one['conflicts']} 409s retried (raw: {one['raw_conflicts']} unique violations)"),
        ]
    if "concurrent_writers" in results:
        cw = results["concurrent_writers"]
        cw_ok = cw["acknowledged"] == cw["stored"] and cw["gaps"] == 0 and cw["duplicates"] == 0
        rows.append(("concurrent_writers", f"{cw['acknowledged']}/{cw['stored']}/{cw['gaps']}/{cw['duplicates']}",
                     "ack=stored, 0 gaps, 0 dups", "PASS" if cw_ok else "MISS",
                     "acknowledged/stored/gaps/duplicates over both writers cases"))
    if "projection_lag_p95_ms" in results:
        rows.append(("projection_lag_p95_ms", f"{results['projection_lag_p95_ms']:.0f}", "<= 500",
                     verdict(results["projection_lag_p95_ms"], "<= 500"),
                     f"median {results['projection_lag_median_ms']:.0f} ms, max {results['projection_lag_max_ms']:.0f} "
                     f"ms over {results['projection_lag_samples']} appends at {results['projection_lag_rate']:.0f}/s; "
                     f"{results['projection_lag_replays']} replays ran"))
    if "engine_events_per_s" in results:
        rows += [
            ("engine_events_per_s", f"{results['engine_events_per_s']:,.0f}", "-", "",
             f"fold of {results['synthetic_events']:,} events ({results['synthetic_source']}) "
             f"in {results['engine_fold_seconds']:.3f} s"),
            ("replay_vs_fold", f"{results['replay_vs_fold']:.2f}", "-", "",
             f"battle_replay(rebuild=True) {results['replay_seconds']:.3f} s; projection "
             f"{'equals' if results['replay_matches_fold'] else 'DIFFERS FROM'} the in-memory fold"),
        ]
    if "fow_engine_events_per_s" in results:
        rows.append(("fow_engine_events_per_s", f"{results['fow_engine_events_per_s']:,.0f}", ">= 200000",
                     verdict(results["fow_engine_events_per_s"], ">= 200000"),
                     f"FoW fold of {results['fow_synthetic_events']:,} synthetic events in "
                     f"{results['fow_engine_fold_seconds']:.3f} s"))
    if "rebuild_vs_read" in results:
        rows.append(("rebuild_vs_read", f"{results['rebuild_vs_read']:.2f}", "<= 2.0",
                     verdict(results["rebuild_vs_read"], "<= 2.0"),
                     f"{results['rebuild_seconds']:.2f} s vs {results['read_seconds']:.2f} s, "
                     f"{results['rebuild_events']:,} events in {results['rebuild_battles']} battles"))
    if "standings_p95_ms" in results:
        rows += [
            ("standings_p95_ms", f"{results['standings_p95_ms']:.1f}", "<= 50", verdict(results["standings_p95_ms"],
                                                                                     "<= 50"),
             f"players' table of {results['standings_characters']:,} characters, "
             f"{results['standings_battles']:,} battles, {results['standings_battle_events']:,} events"),
            ("standings_queries", str(results["standings_queries"]), "<= 10",
             verdict(results["standings_queries"], "<= 10"), "queries of that page (constant, tested)"),
            ("standings_vs_sql", f"{results['standings_vs_sql']:.2f}", "<= 3", verdict(results["standings_vs_sql"],
                                                                                    "<= 3"),
             f"page median {results['standings_median_ms']:.1f} ms vs the same rows by SQL "
             f"{results['standings_sql_median_ms']:.2f} ms"),
            ("  cold page", f"{results['standings_cold_vs_sql']:.2f}", "-", "",
             f"rows not cached (first view after a change): p95 {results['standings_cold_p95_ms']:.1f} ms"),
        ]
    if "roster_validate_ms" in results:
        rows += [
            ("roster_validate_ms", f"{results['roster_validate_ms']:.2f}", "<= 5",
             verdict(results["roster_validate_ms"], "<= 5"),
             f"a company of {results['roster_fighters']} fighters, {results['roster_vehicles']} vehicles"),
            ("roster_page_queries", f"{results['roster_page_queries_small']}/{results['roster_page_queries_full']}",
             "constant", "PASS" if results["roster_page_queries_small"] == results["roster_page_queries_full"]
             else "MISS", "queries of the roster page: small roster / full company"),
        ]
    if "cards_pdf_s" in results:
        rows += [
            ("cards_pdf_s", f"{results['cards_pdf_s']:.2f}", "< 3", verdict(results["cards_pdf_s"], "<= 3"),
             f"{results['cards_pdf_cards']} formulary cards of a roster of {results['cards_pdf_fighters']} fighters "
             f"and {results['cards_pdf_vehicles']} vehicles as A4 sheets, {results['cards_pdf_bytes']:,} bytes"),
        ]
    if "battle_page_p95_ms" in results:
        rows += [
            ("battle_page_p95_ms", f"{results['battle_page_p95_ms']:.1f}", "<= 100",
             verdict(results["battle_page_p95_ms"], "<= 100"),
             f"a participant's page of a {results['battle_page_events']:,}-event battle; median "
             f"{results['battle_page_median_ms']:.1f} ms, {results['battle_page_queries']} queries"),
            ("record_event_p95_ms", f"{results['record_event_p95_ms']:.1f}", "<= 150",
             verdict(results["record_event_p95_ms"], "<= 150"),
             f"one recording form submitted to the stored event (server time); median "
             f"{results['record_event_median_ms']:.1f} ms over {results['record_event_samples']} submissions"),
        ]
    if "game_night_tables" in results:
        at = results["game_night_at_figure"] or {}
        rows += [
            ("game_night_tables", str(results["game_night_tables"]), ">= 200",
             verdict(results["game_night_tables"], ">= 200"),
             (f"page p95 {at['page_p95_ms']:.0f} ms (<= 200), record p95 {at['record_p95_ms']:.0f} ms (<= 150), "
              f"{at['requests_per_s']:.0f} requests/s; CPU ms/s a table: server "
              f"{at.get('server_cpu_ms_per_table_s', 0):.1f}, worker {at.get('worker_cpu_ms_per_table_s', 0):.1f}, "
              f"PostgreSQL {at.get('postgres_cpu_ms_per_table_s', 0):.1f}; load {at['load_before']:.1f}; probes: "
              if at else "no count passed; probes: ")
             + ", ".join(f"{p['tables']} {'pass' if p['passed'] else 'miss'}" for p in results["game_night_probes"])),
            ("live_update_p95_ms", f"{results['live_update_p95_ms']:.0f}", "<= 1500",
             verdict(results["live_update_p95_ms"], "<= 1500"),
             (f"an entry's 303 to the opponent's page showing it, at {results['game_night_tables']} tables; median "
              f"{at['live_update_median_ms']:.0f} ms over {at['live_samples']} entries" if at else "-")),
        ]
    head = ("figure", "value", "goal", "", "detail")
    widths = [max(len(str(r[i])) for r in [*rows, head]) for i in range(5)]
    line = lambda r: "  ".join(str(c).ljust(widths[i]) for i, c in enumerate(r)).rstrip()  # noqa: E731
    out = [line(head), line(tuple("-" * w for w in widths))] + [line(r) for r in rows]
    return "\n".join(out)


CASES = ("append_batch", "append_http", "writers", "projection_lag", "engine", "fow_engine", "rebuild", "standings",
         "roster", "cards", "table", "game_night")


def parse_only(argv: list[str]) -> set[str]:
    """``--only a,b`` (or ``BENCH_ONLY=a,b``) runs just those cases (names in ``CASES``);
    a partial run writes ``bench/results.partial.json`` and leaves results.json alone."""
    only = os.environ.get("BENCH_ONLY", "")
    for i, arg in enumerate(argv):
        if arg == "--only" and i + 1 < len(argv):
            only = argv[i + 1]
        elif arg.startswith("--only="):
            only = arg.split("=", 1)[1]
    chosen = {c.strip() for c in only.split(",") if c.strip()} or set(CASES)
    unknown = chosen - set(CASES)
    if unknown:
        raise SystemExit(f"bench: unknown case(s) {sorted(unknown)}; known: {', '.join(CASES)}")
    return chosen


def keep_mutants(path: Path, results: dict) -> dict:
    """``make mutants`` writes its figures (``*mutants*`` keys) into the same file: a bench run keeps
    them, so results.json reports both; every other key is this run's."""
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError):
        return results
    return {**{k: v for k, v in old.items() if "mutants" in k}, **results}


def main(argv: list[str] | None = None) -> int:
    chosen = parse_only(sys.argv[1:] if argv is None else argv)
    partial = chosen != set(CASES)
    started = time.perf_counter()
    url = env.setup()
    from bench import cases  # needs Django set up

    version = cases.pg_version()
    print(f"bench: database: PostgreSQL {version} ({url.rsplit('@', 1)[-1]}), Redis queue {env.QUEUE!r} "
          f"(consumed only by the projection_lag case's worker), {'quick' if QUICK else 'full'} run"
          + (f", only {', '.join(sorted(chosen))}" if partial else ""), flush=True)
    results: dict = {"database": f"PostgreSQL {version}", "quick": QUICK, "python": platform.python_version(),
                     "cpus": os.cpu_count(), "load_before": os.getloadavg()[0]}
    w = cases.world(url)

    def run(name: str, title: str, fn) -> None:
        if name not in chosen:
            return
        t = step(title)
        results.update(fn())
        print(f"        {time.perf_counter() - t:.1f} s", flush=True)

    try:
        run("append_batch", "append_batch (service vs executemany)",
            lambda: cases.append_batch(w, pairs=size("batch_pairs"), batches=size("batch_batches")))
        run("append_http", "append_http (the server vs autocommit inserts)",
            lambda: cases.append_http(w, clients=HTTP_CLIENTS, seconds=size("http_seconds"),
                                      rounds=size("http_rounds"), workers=SERVER[0], threads=SERVER[1]))
        run("engine", f"engine fold and replay of {size('engine_events'):,} synthetic events",
            lambda: cases.engine_and_replay(w, n=size("engine_events"), repeats=size("engine_repeats")))
        run("fow_engine", f"FoW engine fold of {size('fow_engine_events'):,} synthetic events",
            lambda: cases.fow_engine(n=size("fow_engine_events"), repeats=size("fow_engine_repeats")))
        run("rebuild", "rebuild_vs_read (all projections vs SELECT)",
            lambda: cases.rebuild_vs_read(w, repeats=size("rebuild_repeats")))
        # After rebuild_vs_read, which rebuilds every battle in the database: these add some 60 battles,
        # whose per-battle overhead would change that figure's workload from earlier runs.
        run("writers", f"writers ({WRITERS} on their own battles, {WRITERS} on one battle; vs raw psycopg)",
            lambda: cases.writers(w, writers=WRITERS, seconds=size("writers_seconds"), rounds=size("writers_rounds")))
        run("projection_lag", "projection_lag (a Celery worker, 100 appends/s over HTTP across 20 battles)",
            lambda: cases.projection_lag(w, rate=100, battles=20, seconds=size("lag_seconds"),
                                         workers=SERVER[0], threads=SERVER[1]))

        def standings_case() -> dict:
            from bench import standings

            big = standings.build(characters=size("standings_characters"), battles=size("standings_battles"),
                                  events=size("standings_events"))
            return big | standings.measure(big["campaign"], requests=size("standings_requests"))

        run("standings", "standings of a big campaign (10,000 characters, 2,000 battles, 1,000,000 events)",
            standings_case)

        def roster_case() -> dict:
            from rosters import bench as roster_bench

            return roster_bench.measure(repeats=size("roster_repeats"))

        run("roster", "roster_validate (a full company)", roster_case)

        def cards_case() -> dict:
            from bench import cards as cards_bench

            return cards_bench.measure()

        run("cards", "cards_pdf_s (A4 card sheets of a 170-fighter, 6-vehicle roster)", cards_case)

        def table_case() -> dict:
            from bench import table as table_bench

            built = table_bench.build(events=size("table_events"))
            return table_bench.measure(built, requests=size("table_requests"), records=size("table_records"))

        run("table", f"the battle table (page of a {size('table_events'):,}-event battle, recording form)", table_case)

        def game_night_case() -> dict:
            from bench import game_night

            ladder = size("night_ladder")
            built = game_night.build(tables=max(ladder))
            return game_night.measure(built, ladder=ladder, seconds=size("night_seconds"),
                                      bisect=size("night_bisect"), workers=SERVER[0], threads=SERVER[1])

        run("game_night", "game night (simultaneous battles at a human pace, the production server and a worker)",
            game_night_case)
    finally:
        purged = env.purge_queue()
        print(f"bench: purged {purged} queued replay messages from {env.QUEUE!r}", flush=True)

    results["load_after"] = os.getloadavg()[0]
    results["seconds_total"] = time.perf_counter() - started
    out = RESULTS.with_name("results.partial.json") if partial else RESULTS
    out.write_text(json.dumps(keep_mutants(out, results), indent=2, sort_keys=True, default=str) + "\n")
    print()
    print(f"database: PostgreSQL {version}; load average {results['load_before']:.1f} before, "
          f"{results['load_after']:.1f} after (2 cores shared: ratios are side by side, absolute rates are not)")
    print(table(results))
    print()
    if "append_batch_layout" in results:
        print(f"append_batch: {results['append_batch_layout']}; service ms per batch by position in the battle: "
              f"{results['append_batch_service_ms_by_batch']} (raw: {results['append_batch_raw_ms_by_batch']})")
    if "append_http_layout" in results:
        print(f"append_http: {results['append_http_layout']}; longest battle {results['append_http_max_battle_length']}")
    if "writers_layout" in results:
        print(f"writers: {results['writers_layout']}")
    if "projection_lag_layout" in results:
        print(f"projection_lag: {results['projection_lag_layout']}")
    if "game_night_layout" in results:
        print(f"game_night: {results['game_night_layout']}")
    if results.get("synthetic_uncovered_types"):
        print(f"(bench/synthetic.py, which builds the appended battles, has no producer yet for: "
              f"{', '.join(results['synthetic_uncovered_types'])})")
    print(f"\nwrote {out.relative_to(env.ROOT)} in {results['seconds_total']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
