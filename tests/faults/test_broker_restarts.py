"""Issue 27 §1: faults heal without a person. Redis (the broker, the replay
flags and the cache) is restarted ten times under append load, with a real
worker and a separate beat, as in production (deploy/systemd/); afterwards
every battle's projection equals its rebuild from the log within 30 s, with no
manual step.

The test runs its own Redis on a free port, so the suite's worker and Redis are
untouched. The worker and beat are run as ``deploy/systemd`` runs them:
restarted if they exit (``Restart=always``); the test reports how often that
happened. PostgreSQL only (the worker and the load are separate processes on
the test database); under CI=true it never skips.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection

from battles import engine
from battles.log.projections import fold_log
from battles.models import Battle, BattleProjection
from battles.selectors import battle_rules
from battles.services import battle_create
from tests.processes import database_url, free_port

ROOT = Path(__file__).resolve().parents[2]
RESTARTS = 10
HEAL_SECONDS = 30


class Supervised:
    """A process kept running as systemd's ``Restart=always`` keeps it."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.argv, self.env, self.log = argv, env, log
        self.restarts = 0
        self._stop = threading.Event()
        self.proc = self._start()
        self._watch = threading.Thread(target=self._loop, daemon=True)
        self._watch.start()

    def _start(self) -> subprocess.Popen:
        with open(self.log, "a") as out:
            return subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)

    def _loop(self) -> None:
        while not self._stop.wait(0.5):
            if self.proc.poll() is not None:
                self.restarts += 1
                time.sleep(1)  # RestartSec=1
                self.proc = self._start()

    def stop(self) -> None:
        self._stop.set()
        self._watch.join(5)
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class PrivateRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.proc = self._start()

    def _start(self) -> subprocess.Popen:
        proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return proc
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def down(self) -> None:
        self.proc.kill()  # as a crash or an operator's restart: nothing is saved
        self.proc.wait()

    def up(self) -> None:
        self.proc = self._start()

    def restart(self) -> None:
        self.down()
        time.sleep(0.3)
        self.up()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _lagging_or_unequal(ids: list[int]) -> list[int]:
    """Battles whose stored projection is not (yet) the rebuild of their log."""
    out = []
    for battle in Battle.objects.select_related("campaign").filter(pk__in=ids):
        projection = BattleProjection.objects.get(battle=battle)
        ruleset = battle.campaign.ruleset
        rebuilt, _ = fold_log(battle.id, engine.new_state(ruleset), battle_rules(battle=battle), ruleset=ruleset)
        if projection.seq != battle.head_seq or projection.state != engine.state_to_json(rebuilt):
            out.append(battle.id)
    return out


@pytest.mark.django_db(transaction=True)
def test_projections_heal_after_ten_redis_restarts_under_append_load(campaign, tmp_path):
    reasons = []
    if connection.vendor != "postgresql":
        reasons.append("needs PostgreSQL (set DATABASE_URL)")
    if shutil.which("redis-server") is None:
        reasons.append("needs redis-server")
    if reasons:
        if os.environ.get("CI") == "true":
            pytest.fail("under CI the broker-restart test must run: " + "; ".join(reasons))
        pytest.skip("; ".join(reasons))

    battles = [battle_create(campaign=campaign, name=f"Перезапуск {i}").id for i in range(8)]
    redis = PrivateRedis()
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.base", DATABASE_URL=database_url(),
               REDIS_URL=f"redis://127.0.0.1:{redis.port}/0", CELERY_QUEUE="faults", DB_CONN_MAX_AGE="0",
               LOG_LEVEL="WARNING")
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    worker = Supervised([*celery, "worker", "-Q", "faults", "-c", "2", "-l", "info", "--without-gossip",
                         "--without-mingle", "-n", f"faults-{os.getpid()}@%h"], env, tmp_path / "worker.log")
    beat = Supervised([*celery, "beat", "-l", "info", "-s", str(tmp_path / "beat-schedule")], env,
                      tmp_path / "beat.log")
    load = subprocess.Popen([sys.executable, "-m", "tests.faults.append_load", "--seconds", str(RESTARTS * 1.5),
                             *map(str, battles)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=open(tmp_path / "load.log", "w"), text=True)
    try:
        time.sleep(2)
        for _ in range(RESTARTS - 1):
            redis.restart()
            time.sleep(1.5)
        redis.down()  # the last outage outlasts the load: its last appends' replays are never queued
        out, _ = load.communicate(timeout=60)
        redis.up()
        assert load.returncode == 0, (tmp_path / "load.log").read_text()[-2000:]
        stored = int(out.split()[-1])
        assert stored > 100  # the load ran across the restarts
        deadline = time.monotonic() + HEAL_SECONDS
        while (unhealed := _lagging_or_unequal(battles)) and time.monotonic() < deadline:
            time.sleep(1)
        assert not unhealed, (
            f"battles {unhealed} did not heal within {HEAL_SECONDS} s after {RESTARTS} Redis restarts "
            f"(worker restarted {worker.restarts}×, beat {beat.restarts}×); worker log: "
            + (tmp_path / "worker.log").read_text()[-3000:])
        print(f"{stored} appends, healed in {HEAL_SECONDS - (deadline - time.monotonic()):.1f} s, across {RESTARTS} Redis restarts; worker restarted {worker.restarts}×, "
              f"beat {beat.restarts}×; " + " | ".join(line for line in (tmp_path / "worker.log").read_text().splitlines() if "Unrecoverable" in line or "CRITICAL" in line)[:2000])
    finally:
        if load.poll() is None:
            load.kill()
        worker.stop()
        beat.stop()
        redis.stop()
