"""pytest plugin for ``make mutants`` only (``-p bench.mutants_plugin`` in ``[tool.mutmut]``).

While mutmut tests a mutant, run the selected tests fastest first (durations from
mutmut's own stats), so a killed mutant is found by its cheapest failing test. Test
outcomes do not change, only their order; outside a mutant run it does nothing.
"""
from __future__ import annotations

import json
import os
from pathlib import Path


def pytest_collection_modifyitems(session, config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if mutant in {"", "stats", "fail", "mutant_generation"}:
        return
    stats = Path("mutmut-stats.json")
    if not stats.exists():
        return
    try:
        duration = json.loads(stats.read_text(encoding="utf-8")).get("duration_by_test", {})
    except ValueError:
        return
    items.sort(key=lambda item: duration.get(item.nodeid, 0.0))


def _mutant_run() -> bool:
    return os.environ.get("MUTANT_UNDER_TEST", "") not in {"", "stats", "fail", "mutant_generation"}


# The engine's memo tables: filled at first use from the payload and state annotations (resolved hints,
# the payloads' number checks, dice fields, the ruleset lookup). mutmut forks each mutant from a
# process that has already run the tests once, so without emptying them a mutant of the code that
# fills them never runs: the child would reuse what the unmutated code built.
MEMOS = {
    "battles.engine.schema": ("_HINTS", "_DECLARED", "_NUMBER_CHECKS"),
    "battles.engine.events": ("_BY_CODE",),
    "battles.engine.dice": ("_DICE_FIELDS", "_DICE_IN"),
}


def forget_memos() -> int:
    """Empty the memo tables so the code that fills them runs again, under the mutant. Returns how many
    tables were emptied. (Which payload classes check their numbers is decided when the class is made,
    at import, before any fork.)"""
    import importlib

    emptied = 0
    for module, names in MEMOS.items():
        mod = importlib.import_module(module)
        for name in names:
            getattr(mod, name).clear()
            emptied += 1
    return emptied


def pytest_configure(config):
    """Each forked mutant gets its own SQLite test database (the settings name it after
    the parent's pid, which every fork inherits), so two workers never share one; and
    the engine's memo tables start empty (``forget_memos``)."""
    if not _mutant_run():
        return
    forget_memos()
    from django.conf import settings

    db = settings.DATABASES["default"]
    if "sqlite" in db.get("ENGINE", ""):
        db.setdefault("TEST", {})["NAME"] = os.path.join("/tmp", f"shtab-mutant-{os.getpid()}.sqlite3")
