"""The restore drill of README's "Running it for a club" (issue 29 §5), performed
on PostgreSQL: battles of both rulesets are played from the synthetic
generators, the database is dumped with ``pg_dump``, restored with
``pg_restore`` into a new database, the projections there are thrown away and
rebuilt from the restored logs alone (``manage.py rebuild_projections``, as a
club would run it), the logs' chains verified (``manage.py verify_log``), and
every projection and event outcome compared with the originals.

Skips when the suite does not run on PostgreSQL (CI always does); under CI a
missing ``pg_dump``/``pg_restore`` fails.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.db import connection

from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.synthetic import synthetic_battle
from battles.models import BattleEvent, BattleEventOutcome, BattleProjection
from battles.services import NewEvent, battle_create, battle_event_append, projections_rebuild
from campaign.models import Campaign
from tests.synthetic_logs import entered

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
pytestmark = pytest.mark.django_db(transaction=True)


def _pg() -> dict[str, str]:
    """The test database's connection, as the PostgreSQL tools take it (PG* variables)."""
    db = connection.settings_dict
    env = {"PGHOST": db["HOST"] or "127.0.0.1", "PGPORT": str(db["PORT"] or 5432), "PGUSER": db["USER"] or "postgres"}
    if db["PASSWORD"]:
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def _url(pg: dict[str, str], name: str) -> str:
    password = f":{pg['PGPASSWORD']}" if "PGPASSWORD" in pg else ""
    return f"postgres://{pg['PGUSER']}{password}@{pg['PGHOST']}:{pg['PGPORT']}/{name}"


def _run(args: list[str], env: dict[str, str], **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, **kw)
    assert done.returncode == 0, f"{' '.join(args[:3])}…: {done.stdout}\n{done.stderr}"
    return done


def _play(campaign: Campaign, name: str, log: list) -> int:
    battle = battle_create(campaign=campaign, name=name)
    log = entered(log)  # the dice as a client sends them (the service rolls none it is handed)
    for i in range(0, len(log), 40):
        battle_event_append(battle_id=battle.id, expected_seq=i, as_game_master=True,
                            events=[NewEvent(e.type, e.data, schema_version=e.version) for e in log[i:i + 40]])
    return battle.id


def _projections(rows) -> dict[int, tuple]:
    return {battle_id: (seq, state, version) for battle_id, seq, state, version in rows}


def test_a_dump_restores_and_its_projections_rebuild_to_the_originals(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the restore drill runs on PostgreSQL (DATABASE_URL=postgres://…; CI always)")
    tools = [shutil.which(t) for t in ("pg_dump", "pg_restore", "createdb", "dropdb")]
    if not all(tools):
        if CI:
            pytest.fail("CI: pg_dump, pg_restore, createdb and dropdb must be on the PATH")
        pytest.skip("the PostgreSQL client tools are not on the PATH")

    v11 = _play(Campaign.objects.create(name="Клубная кампания", ruleset="v11.2"), "Бой у переправы",
                synthetic_battle(160, seed=3))
    fow = _play(Campaign.objects.create(name="Кампания FoW", ruleset="fow"), "Бронепоезд", synthetic_fow_battle(160, seed=3))
    projections_rebuild()  # the originals, current (a replay may still be queued to a worker: rebuilt the same)
    originals = _projections(BattleProjection.objects.values_list("battle_id", "seq", "state", "engine_version"))
    outcomes = sorted(BattleEventOutcome.objects.values_list("battle_id", "seq", "effects"))
    events = BattleEvent.objects.count()
    assert set(originals) == {v11, fow} and originals[v11][0] > 100 and originals[fow][0] > 100 and outcomes

    pg = dict(os.environ, **_pg())
    restored = f"shtab_restore_drill_{uuid.uuid4().hex[:12]}"
    dump = tmp_path / "shtab.dump"
    # README: the nightly dump, and the drill's restore into a database of its own
    _run(["pg_dump", "--format=custom", f"--file={dump}", connection.settings_dict["NAME"]], pg)
    _run(["createdb", "--template=template0", restored], pg)
    try:
        _run(["pg_restore", "--exit-on-error", "--single-transaction", f"--dbname={restored}", str(dump)], pg)
        app = {k: v for k, v in os.environ.items() if k not in {"CI", "REDIS_URL", "CELERY_QUEUE"}}
        app |= {"DATABASE_URL": _url(_pg(), restored), "DJANGO_SETTINGS_MODULE": "config.settings.base",
                "DB_CONN_MAX_AGE": "0"}
        # the projections are derived data: dropped, they must come back from the restored logs alone
        _run(["psql", "-v", "ON_ERROR_STOP=1", "-qc",
              f"DELETE FROM {BattleEventOutcome._meta.db_table}; DELETE FROM {BattleProjection._meta.db_table};",
              restored], pg)
        rebuilt = _run([sys.executable, "manage.py", "rebuild_projections"], app, cwd=ROOT).stdout
        assert "rebuilt 2 projection(s)" in rebuilt, rebuilt
        _run([sys.executable, "manage.py", "verify_log"], app, cwd=ROOT)

        import psycopg

        with psycopg.connect(_url(_pg(), restored)) as conn:
            got = _projections(conn.execute(f"SELECT battle_id, seq, state, engine_version FROM "
                                            f"{BattleProjection._meta.db_table}").fetchall())
            got_outcomes = sorted(conn.execute(f"SELECT battle_id, seq, effects FROM "
                                               f"{BattleEventOutcome._meta.db_table}").fetchall())
            got_events = conn.execute(f"SELECT count(*) FROM {BattleEvent._meta.db_table}").fetchone()[0]
        assert got_events == events
        assert got == originals
        assert got_outcomes == outcomes
    finally:
        subprocess.run(["dropdb", "--if-exists", "--force", restored], env=pg, capture_output=True, timeout=120)
