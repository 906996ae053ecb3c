"""Coalesced replay scheduling: at most one pending replay per battle.

An append used to publish a Celery message on its own request thread after
commit (~1.5 ms, most of it CPU) and every append queued one, so under load
the queue backed up with replays that found nothing new to write. Now:

* After commit, the append hands the battle id to this process's dispatcher
  (a set and a condition: microseconds) and returns.
* The dispatcher thread, woken by a hand-over, waits ``LINGER_SECONDS`` (10 ms)
  for more, then takes every id handed over since its last round and,
  for each, sets ``shtab:replay-pending:<id>`` in Redis with NX and a TTL
  (one pipelined round trip for the round). Only the caller that set the flag
  publishes ``replay_battle``; while the flag stands, a replay is queued and
  has not started, so further appends need nothing more.
* ``replay_battle`` deletes the flag *before* it reads the log. So an append
  committed before the delete is read by that replay, and one committed after
  it finds no flag and queues the next replay. No committed event is left
  without a replay that will read it (docs/append.md, "Coalesced replays").

Staleness: a projection trails its log by the dispatcher's hand-over (with
its linger), the queue and one replay. If a message is lost (broker flushed, Redis down) the
flag expires after ``PENDING_SECONDS`` and the beat sweep (every
``SHTAB_SWEEP_SECONDS``, 15 by default) queues every lagging battle again:
the worst case is the TTL plus one sweep period. Eager Celery (the embedded
default and the test suite) replays at once on the committing thread, as
before.
"""
from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from django.conf import settings

log = logging.getLogger(__name__)

PENDING_SECONDS = int(os.environ.get("SHTAB_REPLAY_PENDING_SECONDS", "10"))
# The dispatcher waits this long after the first hand-over of a round before it takes the round's ids, so
# that under load one Redis round trip flags the appends of many requests (at ~300 appends a second a round
# per append cost ~6 % of a server process's CPU). It adds at most this much to a projection's staleness.
LINGER_SECONDS = float(os.environ.get("SHTAB_REPLAY_LINGER_SECONDS", "0.01"))
KEY = "shtab:replay-pending:{}"


def _redis() -> Any:
    client = getattr(_redis, "client", None)
    if client is None or getattr(_redis, "pid", None) != os.getpid():
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=2)
        _redis.client, _redis.pid = client, os.getpid()  # type: ignore[attr-defined]
    return client


def _publish(battle_id: int) -> None:
    # .tasks imports this module (replays.started), so the task is imported when first published
    from battles.tasks import replay_battle

    replay_battle.delay(battle_id)


class Coalescer:
    """The ids handed over since the last round, and the thread that
    publishes them (started lazily, again after a fork)."""

    def __init__(self, *, redis: Callable[[], Any] = _redis, publish: Callable[[int], None] = _publish,
                 linger: float | None = None) -> None:
        self._redis, self._publish = redis, publish
        self.linger = LINGER_SECONDS if linger is None else linger
        self._pending: set[int] = set()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self.published = 0  # replays queued by this process (for the bench and tests)
        self.coalesced = 0  # hand-overs that found a replay already pending

    def add(self, battle_id: int) -> None:
        with self._cond:
            self._pending.add(battle_id)
            if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._loop, name="shtab-replay-dispatcher", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _take(self, wait: bool) -> set[int]:
        with self._cond:
            while wait and not self._pending:
                self._cond.wait()
            batch, self._pending = self._pending, set()
        return batch

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._pending:
                    self._cond.wait()
            if self.linger > 0:
                time.sleep(self.linger)  # the round's other hand-overs join it
            batch = self._take(wait=False)
            try:
                self.dispatch(batch)
            except Exception:  # never let the thread die: the sweep covers what was lost
                log.exception("replay dispatch failed for battles %s; the sweep will pick them up", sorted(batch))

    def flush(self) -> None:
        """Dispatch what is pending now, on the calling thread (process exit, tests)."""
        batch = self._take(wait=False)
        if batch:
            self.dispatch(batch)

    def dispatch(self, ids: Iterable[int]) -> None:
        ids = sorted(ids)
        try:
            pipe = self._redis().pipeline(transaction=False)
            for battle_id in ids:
                pipe.set(KEY.format(battle_id), "1", nx=True, ex=PENDING_SECONDS)
            fresh = pipe.execute()
        except Exception:  # Redis down: the broker (same Redis) is too; the sweep requeues later
            log.exception("could not flag replays of battles %s; the sweep will pick them up", ids)
            return
        for battle_id, was_set in zip(ids, fresh, strict=True):
            if not was_set:
                self.coalesced += 1
                continue
            try:
                self._publish(battle_id)
                self.published += 1
            except Exception:
                log.exception("could not queue replay of battle %s; the sweep will pick it up", battle_id)
                self.clear(battle_id)  # let the next append (or the sweep) try again

    def clear(self, battle_id: int) -> None:
        try:
            self._redis().delete(KEY.format(battle_id))
        except Exception:  # the flag expires by itself
            log.warning("could not clear the pending flag of battle %s", battle_id)


COALESCER = Coalescer()
atexit.register(lambda: COALESCER.flush())


def schedule(battle_id: int) -> None:
    """Called after commit by every append that stored something."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        try:
            _publish(battle_id)
        except Exception:
            log.exception("replay of battle %s failed; the sweep will pick it up", battle_id)
        return
    COALESCER.add(battle_id)


def started(battle_id: int) -> None:
    """A replay is about to read the log: appends from now on queue the next one."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        COALESCER.clear(battle_id)
