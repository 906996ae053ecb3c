"""The measurements. Each one times Shtab's path and a bare baseline side by
side in the same run, on the same table, and returns ratios plus the raw
figures behind them. Import only after ``bench.env.setup()``.

Every case builds valid battles with ``bench.synthetic``, so appends pass the
engine's checks exactly as real ones would.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.contrib.auth.models import Group, User
from django.db import connection, connections
from django.utils import timezone
from psycopg.types.json import Jsonb
from rest_framework.authtoken.models import Token

from battles import engine, services
from battles.models import Battle, BattleEvent, BattleProjection, LogPosition
from battles.services import NewEvent
from bench import env, synthetic
from campaign.models import Campaign
from campaign.roles import GAME_MASTER, PLAYER
from config.errors import RuleRefused

EVENT_TABLE = BattleEvent._meta.db_table
COLUMNS = "battle_id, seq, position, type, data, schema_version, recorded_by_id, recorded_at, key"
INSERT = f"INSERT INTO {EVENT_TABLE} ({COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"


@dataclass
class World:
    url: str
    campaign: Campaign
    token: str
    battles: list[int] = field(default_factory=list)

    def battle(self, name: str) -> int:
        b = services.battle_create(campaign=self.campaign, name=name)
        self.battles.append(b.id)
        return b.id

    def raw(self, *, autocommit: bool = False) -> psycopg.Connection:
        return psycopg.connect(env.psycopg_url(self.url), autocommit=autocommit)


def world(url: str) -> World:
    campaign = Campaign.objects.create(name="Bench campaign")
    # The HTTP client records a synthetic battle of both sides, forces included: only the game
    # master writes such a log (participants record their own side's events only).
    user = User.objects.create_user("bench_player", password="bench-not-a-secret")
    user.groups.add(Group.objects.get(name=PLAYER), Group.objects.get(name=GAME_MASTER))
    token = Token.objects.create(user=user)
    return World(url, campaign, token.key)


def pg_version() -> str:
    with connection.cursor() as cur:
        cur.execute("SHOW server_version")
        return cur.fetchone()[0].split()[0]


# --- helpers for the raw baselines --------------------------------------------------
def reserve_positions(n: int) -> int:
    """Take ``n`` global positions for baseline rows (so they never collide with
    the service's), returning the first. Not timed: the baselines are bare inserts."""
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {LogPosition._meta.db_table} SET position = position + %s WHERE id = 1 "
                    "RETURNING position", [n])
        return cur.fetchone()[0] - n + 1


def raw_rows(battle_id: int, events: list[engine.Event], first_position: int, key_prefix: str) -> list[tuple]:
    now = timezone.now()
    return [(battle_id, e.seq, first_position + i, e.type, Jsonb(e.data), e.version, None, now,
             f"{key_prefix}{e.seq}") for i, e in enumerate(events)]


def set_head(battle_id: int, head: int) -> None:
    """Baseline rows bypass the service, so bring the battle's head along (untimed)."""
    Battle.objects.filter(pk=battle_id).update(head_seq=head)


def new_events(events: list[engine.Event], key_prefix: str) -> list[NewEvent]:
    return [NewEvent(type=e.type, data=e.data, key=f"{key_prefix}{e.seq}") for e in events]


def log_check(battle_id: int) -> dict[str, int]:
    with connection.cursor() as cur:
        cur.execute(f"SELECT seq FROM {EVENT_TABLE} WHERE battle_id = %s ORDER BY seq", [battle_id])
        seqs = [r[0] for r in cur.fetchall()]
    distinct = set(seqs)
    top = max(seqs, default=0)
    return {"stored": len(seqs), "duplicates": len(seqs) - len(distinct),
            "gaps": top - len(distinct), "max_seq": top}


# --- append_batch_ratio -------------------------------------------------------------
def append_batch(w: World, *, pairs: int, batches: int, size: int = 100) -> dict[str, Any]:
    """Batches of ``size`` through ``battle_event_append`` versus psycopg
    ``executemany`` of the same rows in one transaction per batch. Each side
    fills ``pairs`` battles with ``batches`` batches; the two sides alternate
    batch by batch so drift (cache, autovacuum, WAL) hits both alike."""
    script = synthetic.battle(batches * size)
    svc_time = raw_time = 0.0
    svc_by_batch = [0.0] * batches
    raw_by_batch = [0.0] * batches
    n = 0
    raw = w.raw()
    cur = raw.cursor()
    for p in range(pairs):
        svc_battle, raw_battle = w.battle(f"batch svc {p}"), w.battle(f"batch raw {p}")
        first_pos = reserve_positions(len(script))
        for k in range(batches):
            chunk = script[k * size:(k + 1) * size]
            svc_in = new_events(chunk, "k")
            raw_in = raw_rows(raw_battle, chunk, first_pos + k * size, "k")
            t = time.perf_counter()
            services.battle_event_append(battle_id=svc_battle, events=svc_in, expected_seq=k * size,
                                         recorded_by=None, as_game_master=True)
            t1 = time.perf_counter()
            cur.executemany(INSERT, raw_in)
            raw.commit()
            t2 = time.perf_counter()
            svc_time += t1 - t
            raw_time += t2 - t1
            svc_by_batch[k] += t1 - t
            raw_by_batch[k] += t2 - t1
            n += len(chunk)
        set_head(raw_battle, len(script))
    raw.close()
    svc_rate, raw_rate = n / svc_time, n / raw_time
    return {"append_batch_ratio": svc_rate / raw_rate, "append_batch_service_events_per_s": svc_rate,
            "append_batch_raw_events_per_s": raw_rate, "append_batch_events_each_side": n,
            "append_batch_layout": f"{pairs} battles x {batches} batches of {size} per side",
            # Cost by position in the battle: the service's grows with the log (see the report).
            "append_batch_service_ms_by_batch": [round(1000 * t / pairs, 2) for t in svc_by_batch],
            "append_batch_raw_ms_by_batch": [round(1000 * t / pairs, 2) for t in raw_by_batch]}


# --- append_http_ratio --------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn serving config.wsgi in its own process group, under the bench's environment."""

    def __init__(self, workers: int, threads: int) -> None:
        self.workers, self.threads = workers, threads
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        cmd = [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "config.wsgi",
               "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers), "--threads", str(self.threads),
               "--worker-class", "gthread", "--keep-alive", "30", "--log-level", "warning"]
        self.proc = subprocess.Popen(cmd, cwd=str(env.ROOT), env={**os.environ, **env.server_env()},
                                     start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}")
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/api/event-types/")
                c.getresponse().read()
                c.close()
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer within 30 s")

    def __exit__(self, *exc: Any) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _run_clients(n: int, seconds: float, work: Callable[[int, Callable[[], bool]], int]) -> tuple[int, float]:
    """Run ``work(i, keep_going)`` in ``n`` threads started together; returns
    (operations done, wall seconds)."""
    counts = [0] * n
    errors: list[BaseException] = []
    start = threading.Barrier(n + 1)
    stop_at = [0.0]

    def keep_going() -> bool:
        return time.perf_counter() < stop_at[0]

    def body(i: int) -> None:
        try:
            start.wait()
            counts[i] = work(i, keep_going)
        except BaseException as exc:  # reported below, never swallowed
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    stop_at[0] = time.perf_counter() + seconds
    t0 = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return sum(counts), wall


def append_http(w: World, *, clients: int, seconds: float, rounds: int, workers: int, threads: int) -> dict[str, Any]:
    """Single-event appends over HTTP, ``clients`` keep-alive connections each
    appending to its own battle (expected_seq null, an idempotency key per
    event), versus ``clients`` psycopg threads doing autocommit single-row
    INSERTs of the same rows into their own battles. The sides alternate in
    ``rounds`` rounds of ``seconds`` each."""
    script = synthetic.battle(60000)
    http_battles = [w.battle(f"http {i}") for i in range(clients)]
    raw_battles = [w.battle(f"http raw {i}") for i in range(clients)]
    http_next = [0] * clients
    raw_next = [0] * clients
    headers = {"Authorization": f"Token {w.token}", "Content-Type": "application/json"}
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def http_client(i: int, keep_going: Callable[[], bool]) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        done = 0
        path = f"/api/battles/{http_battles[i]}/events/"
        while keep_going() and http_next[i] < len(script):
            e = script[http_next[i]]
            body = json.dumps({"expected_seq": None,
                               "events": [{"type": e.type, "data": e.data, "key": f"h{e.seq}"}]})
            conn.request("POST", path, body=body, headers=headers)
            resp = conn.getresponse()
            payload = resp.read()
            if resp.status != 201:
                raise RuntimeError(f"HTTP append answered {resp.status}: {payload[:300]!r}")
            http_next[i] += 1
            done += 1
        conn.close()
        with lock:
            statuses[201] = statuses.get(201, 0) + done
        return done

    positions = iter(range(reserve_positions(10**7), 10**12))
    pos_lock = threading.Lock()

    def raw_client(i: int, keep_going: Callable[[], bool]) -> int:
        done = 0
        with w.raw(autocommit=True) as conn:
            now = timezone.now()
            while keep_going() and raw_next[i] < len(script):  # a fast machine may write it all
                e = script[raw_next[i]]
                with pos_lock:
                    pos = next(positions)
                conn.execute(INSERT, (raw_battles[i], e.seq, pos, e.type, Jsonb(e.data), e.version, None, now,
                                      f"h{e.seq}"))
                raw_next[i] += 1
                done += 1
        return done

    with Server(workers, threads) as server:
        # Warm-up: every worker imports and connects before the clock starts.
        _run_clients(clients, 1.0, http_client)
        _run_clients(clients, 0.5, raw_client)
        http_n = raw_n = 0
        http_t = raw_t = 0.0
        for _ in range(rounds):
            n, t = _run_clients(clients, seconds, http_client)
            http_n, http_t = http_n + n, http_t + t
            n, t = _run_clients(clients, seconds, raw_client)
            raw_n, raw_t = raw_n + n, raw_t + t
    for b, head in zip(raw_battles, raw_next, strict=True):
        set_head(b, head)
    http_rate, raw_rate = http_n / http_t, raw_n / raw_t
    return {"append_http_ratio": http_rate / raw_rate, "append_http_events_per_s": http_rate,
            "append_http_raw_events_per_s": raw_rate,
            "append_http_layout": (f"{clients} clients, one battle each; gunicorn gthread {workers} workers x "
                                   f"{threads} threads; {rounds} rounds of {seconds:g} s per side"),
            "append_http_max_battle_length": max(http_next)}


# --- concurrent_writers -------------------------------------------------------------
def concurrent_writers(w: World, *, writers: int, appends: int, budget: float) -> dict[str, Any]:
    """``writers`` threads, each with its own database connection, append to
    one battle through the service with expected_seq=None until each has
    ``appends`` acknowledged appends or ``budget`` seconds have passed.

    Today's events (turn_ended) fit only one seq, so a writer reads the head,
    proposes the event for head + 1, and when another writer got there first
    the engine refuses it (422) and the writer tries again with a fresh head.
    Refusals are counted; they store nothing."""
    battle_id = w.battle("concurrent writers")
    script = synthetic.battle(writers * appends + 1)
    acked = [0] * writers
    refused = [0] * writers

    def writer(i: int, keep_going: Callable[[], bool]) -> int:
        rng = random.Random(i)
        try:
            while acked[i] < appends and keep_going():
                head = Battle.objects.filter(pk=battle_id).values_list("head_seq", flat=True).get()
                if head >= len(script):
                    break
                e = script[head]
                try:
                    r = services.battle_event_append(
                        battle_id=battle_id, events=[NewEvent(type=e.type, data=e.data)],
                        expected_seq=None, recorded_by=None, as_game_master=True)
                except RuleRefused:
                    # Another writer took head + 1 first. Retry with a little
                    # jitter, as any client should, so 15 losers do not
                    # stampede the battle's row lock in lockstep.
                    refused[i] += 1
                    time.sleep(rng.uniform(0, 0.002))
                    continue
                if r.created:
                    acked[i] += 1
            return acked[i]
        finally:
            connections.close_all()

    total, wall = _run_clients(writers, budget, writer)
    check = log_check(battle_id)
    head = Battle.objects.filter(pk=battle_id).values_list("head_seq", flat=True).get()
    return {"concurrent_writers": {
        "writers": writers, "appends_per_writer": appends, "target": writers * appends,
        "acknowledged": total, "stored": check["stored"], "gaps": check["gaps"],
        "duplicates": check["duplicates"], "head_seq": head, "refused_stale": sum(refused),
        "seconds": wall, "completed": total == writers * appends, "budget_seconds": budget,
    }}


# --- engine_events_per_s and replay_vs_fold -----------------------------------------
def copy_events(battle_id: int, events: list[engine.Event]) -> None:
    """Load a long synthetic battle with COPY (setup, not timed)."""
    first = reserve_positions(len(events))
    now = timezone.now()
    with connection.cursor() as cur:
        with cur.connection.cursor() as raw, raw.copy(f"COPY {EVENT_TABLE} ({COLUMNS}) FROM STDIN") as cp:
            for i, e in enumerate(events):
                cp.write_row((battle_id, e.seq, first + i, e.type, json.dumps(e.data), e.version, None, now, None))
    set_head(battle_id, len(events))


def engine_and_replay(w: World, *, n: int, repeats: int) -> dict[str, Any]:
    events, source = synthetic.long_battle(n)
    battle_id = w.battle("long synthetic")
    copy_events(battle_id, events)
    fold_times, replay_times = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        folded = engine.fold(events)
        fold_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        r = services.battle_replay(battle_id=battle_id, rebuild=True)
        replay_times.append(time.perf_counter() - t)
        assert r.seq == n, f"replay reached seq {r.seq}, expected {n}: the loaded log is incomplete"
    # A correctness cross-check, reported (a mismatch is an engine or replay bug).
    matches = BattleProjection.objects.get(battle_id=battle_id).state == engine.state_to_json(folded)
    fold_t, replay_t = min(fold_times), min(replay_times)
    return {"engine_events_per_s": n / fold_t, "engine_fold_seconds": fold_t, "replay_seconds": replay_t,
            "replay_vs_fold": replay_t / fold_t, "synthetic_events": n, "synthetic_source": source,
            "replay_matches_fold": matches,
            "synthetic_types": sorted({e.type for e in events}), "synthetic_uncovered_types": synthetic.uncovered()}


# --- fow_engine_events_per_s ---------------------------------------------------------
def fow_engine(*, n: int, repeats: int) -> dict[str, Any]:
    """The FoW engine's fold of a synthetic FoW battle (armoured trains, At the
    Double, Digging In, shots), in memory, one thread."""
    from battles.engine.fow.synthetic import synthetic_fow_battle

    events = synthetic_fow_battle(n)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        folded = engine.fold(events, ruleset="fow")
        times.append(time.perf_counter() - t)
    assert folded.applied == n and not folded.unapplied, "the synthetic FoW battle did not fold cleanly"
    best = min(times)
    return {"fow_engine_events_per_s": n / best, "fow_engine_fold_seconds": best, "fow_synthetic_events": n,
            "fow_synthetic_types": sorted({e.type for e in events})}


# --- rebuild_vs_read ----------------------------------------------------------------
def read_all(url: str) -> int:
    """The bare read: every event, in battle and seq order, as engine events."""
    with psycopg.connect(env.psycopg_url(url)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT battle_id, seq, type, data, schema_version FROM {EVENT_TABLE} ORDER BY battle_id, seq")
        events = [(b, engine.Event(seq, t, d, v)) for b, seq, t, d, v in cur]
    return len(events)


def rebuild_vs_read(w: World, *, repeats: int) -> dict[str, Any]:
    rebuild_times, read_times = [], []
    n = 0
    for _ in range(repeats):
        t = time.perf_counter()
        results = services.projections_rebuild()
        rebuild_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        n = read_all(w.url)
        read_times.append(time.perf_counter() - t)
    rebuild_t, read_t = min(rebuild_times), min(read_times)
    return {"rebuild_vs_read": rebuild_t / read_t, "rebuild_seconds": rebuild_t, "read_seconds": read_t,
            "rebuild_events": n, "rebuild_battles": len(results)}
