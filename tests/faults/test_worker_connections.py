"""The replay worker keeps its PostgreSQL connection from task to task (a new
one cost a tenth of its time under the bench's load: Celery's Django fixup
closed it after every task, celery/celery#4116), and a connection that breaks
between tasks (a restarted server, a killed backend) is replaced without a
person: the task that meets it fails, is retried, and the retry connects anew
(``config.celery``). PostgreSQL and Redis only; under CI=true it never skips."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from battles.engine.synthetic import synthetic_battle
from battles.log import replays
from battles.models import BattleProjection
from battles.services import NewEvent, battle_create, battle_event_append
from battles.tasks import replay_battle
from tests.processes import database_url
from tests.synthetic_logs import entered

ROOT = Path(__file__).resolve().parents[2]
LOG = entered(synthetic_battle(60, seed=5))[:3]


def _projected(battle_id: int, seq: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if BattleProjection.objects.filter(battle_id=battle_id, seq__gte=seq).exists():
            return True
        time.sleep(0.2)
    return False


def _backends() -> set[int]:
    with connection.cursor() as cur:
        cur.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
                    "AND backend_type = 'client backend'")
        return {pid for (pid,) in cur.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_the_worker_keeps_its_connection_and_replaces_a_broken_one(campaign, tmp_path):
    if connection.vendor != "postgresql" or settings.CELERY_TASK_ALWAYS_EAGER:
        if os.environ.get("CI") == "true":
            pytest.fail("under CI the worker's connection test must run (PostgreSQL and Redis)")
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    queue = f"connections-{os.getpid()}"
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.base", DATABASE_URL=database_url(),
               CELERY_QUEUE=queue, DB_CONN_MAX_AGE="600", LOG_LEVEL="WARNING")
    log = open(tmp_path / "worker.log", "w")
    others = _backends()
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c", "1",
                               "-l", "info", "--without-gossip", "--without-mingle", "-n", f"{queue}@%h"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    battle = battle_create(campaign=campaign, name="Соединение")
    try:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(replays.COALESCER, "_publish", lambda battle_id: replay_battle.apply_async((battle_id,),
                                                                                                  queue=queue))
            kept: set[int] = set()
            for seq, e in enumerate(LOG, start=1):
                battle_event_append(battle_id=battle.id, events=[NewEvent(e.type, e.data, schema_version=e.version)],
                                    expected_seq=seq - 1, as_game_master=True)
                assert _projected(battle.id, seq), (tmp_path / "worker.log").read_text()[-3000:]
                backends = _backends() - others
                if seq == 2:
                    # kept from task to task: the worker's backend is the one that replayed the first event
                    assert backends == kept, "the worker opened a new connection for its second task"
                    with connection.cursor() as cur:  # its connection breaks between tasks
                        for pid in backends:
                            cur.execute("SELECT pg_terminate_backend(%s)", [pid])
                kept = backends
                assert len(kept) == 1
    finally:
        worker.terminate()
        try:
            worker.wait(20)
        except subprocess.TimeoutExpired:
            worker.kill()
