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
from config import serve
from config.errors import Conflict

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
    """``append_batch_ratio`` on the synthetic battle (musters, postures, moves,
    fire, turn ends: events the engine has work to check), and
    ``append_batch_turns_ratio`` on the turn-ends-only battles the bench used
    before issue 14 (the workload of its earlier figures)."""
    rich = _append_batch(w, pairs=pairs, batches=batches, size=size, script=synthetic.battle(batches * size))
    turns = _append_batch(w, pairs=pairs, batches=batches, size=size,
                          script=synthetic.battle(batches * size, types=synthetic.TURNS_ONLY), tag="turns ")
    return rich | {"append_batch_turns_ratio": turns["append_batch_ratio"],
                   "append_batch_turns_service_events_per_s": turns["append_batch_service_events_per_s"],
                   "append_batch_turns_raw_events_per_s": turns["append_batch_raw_events_per_s"]}


def _append_batch(w: World, *, pairs: int, batches: int, size: int, script: list[engine.Event],
                  tag: str = "") -> dict[str, Any]:
    """Batches of ``size`` through ``battle_event_append`` versus psycopg
    ``executemany`` of the same rows in one transaction per batch. Each side
    fills ``pairs`` battles with ``batches`` batches; the two sides alternate
    batch by batch so drift (cache, autovacuum, WAL) hits both alike."""
    svc_time = raw_time = 0.0
    svc_by_batch = [0.0] * batches
    raw_by_batch = [0.0] * batches
    n = 0
    raw = w.raw()
    cur = raw.cursor()
    # Warm-up, untimed, as the other cases: one battle a side (the service's compiled parsers, prepared
    # statements and first replay publish, ~35 ms of Celery set-up on the dispatcher thread; the raw
    # side's connection), then a pause for the dispatcher to finish.
    warm_svc, warm_raw = w.battle(f"batch {tag}warm-up"), w.battle(f"batch {tag}warm-up raw")
    warm_pos = reserve_positions(len(script))
    for k in range(batches):
        chunk = script[k * size:(k + 1) * size]
        services.battle_event_append(battle_id=warm_svc, events=new_events(chunk, "w"), expected_seq=k * size,
                                     recorded_by=None, as_game_master=True)
        cur.executemany(INSERT, raw_rows(warm_raw, chunk, warm_pos + k * size, "w"))
        raw.commit()
    set_head(warm_raw, len(script))
    time.sleep(0.1)
    for p in range(pairs):
        svc_battle, raw_battle = w.battle(f"batch {tag}svc {p}"), w.battle(f"batch {tag}raw {p}")
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
    """A free port: any, or the first free one of ``BENCH_PORTS`` (``first-last``)
    when a shared machine gives each session its own range."""
    first, _, last = os.environ.get("BENCH_PORTS", "0-0").partition("-")
    for port in range(int(first), int(last or first) + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError(f"no free port in BENCH_PORTS={os.environ['BENCH_PORTS']}")


class Server:
    """The production server (``config.serve``: granian serving config.wsgi) in its own process
    group, under the bench's environment."""

    def __init__(self, workers: int, threads: int, env: dict[str, str] | None = None) -> None:
        self.workers, self.threads, self.env = workers, threads, env or {}
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        cmd = serve.argv(host="127.0.0.1", port=self.port, workers=self.workers, threads=self.threads)
        self.proc = subprocess.Popen(cmd, cwd=str(env.ROOT), env=serve.environ({**os.environ, **env.server_env(), **self.env}),
                                     start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/api/event-types/")
                c.getresponse().read()
                c.close()
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not answer within 30 s")

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
            "append_http_layout": (f"{clients} clients, one battle each; granian {workers} workers x "
                                   f"{threads} threads; {rounds} rounds of {seconds:g} s per side"),
            "append_http_max_battle_length": max(http_next)}


# --- writers_own_battle_per_s and writers_one_battle_per_s --------------------------
def _writers_service_own(battles: list[int], script: list[engine.Event], nxt: list[int]):
    def work(i: int, keep_going: Callable[[], bool]) -> int:
        done = 0
        try:
            while keep_going() and nxt[i] < len(script):
                e = script[nxt[i]]
                r = services.battle_event_append(battle_id=battles[i], events=[NewEvent(type=e.type, data=e.data)],
                                                 expected_seq=nxt[i], recorded_by=None, as_game_master=True)
                assert r.created and r.events[0].seq == nxt[i] + 1
                nxt[i] += 1
                done += 1
        finally:
            connections.close_all()
        return done

    return work


def _writers_raw_own(w: World, battles: list[int], script: list[engine.Event], nxt: list[int], positions):
    def work(i: int, keep_going: Callable[[], bool]) -> int:
        done = 0
        now = timezone.now()
        with w.raw(autocommit=True) as conn:
            while keep_going() and nxt[i] < len(script):
                e = script[nxt[i]]
                conn.execute(INSERT, (battles[i], e.seq, positions(), e.type, Jsonb(e.data), e.version, None, now,
                                      None))
                nxt[i] += 1
                done += 1
        return done

    return work


def writers(w: World, *, writers: int, seconds: float, rounds: int) -> dict[str, Any]:
    """``writers`` threads (own connection each) appending single valid events
    from the synthetic battle through ``battle_event_append``, side by side
    with as many psycopg threads doing the bare equivalent, in ``rounds``
    rounds of ``seconds`` per side:

    * own battle: each writer appends to its own battle with ``expected_seq``
      (it is the only writer there, so never refused); raw: autocommit
      single-row INSERTs into its own battle.
    * one battle: every writer appends to the same battle, reading the head
      and sending the event that fits head + 1 with ``expected_seq=head``; a
      409 carries ``current_seq`` and the writer retries with it. Raw: the same
      race on the bare table, each writer inserting max(seq) + 1 and retrying
      on the unique (battle, seq) violation.

    Afterwards every battle's log is checked: acknowledged = stored, no gaps,
    no duplicates."""
    script = synthetic.battle(30000, seed=7)
    pos_lock = threading.Lock()
    pos_iter = iter(range(reserve_positions(10**7), 10**12))

    def positions() -> int:
        with pos_lock:
            return next(pos_iter)

    own_svc = [w.battle(f"own {i}") for i in range(writers)]
    own_raw = [w.battle(f"own raw {i}") for i in range(writers)]
    svc_next, raw_next = [0] * writers, [0] * writers
    one_svc, one_raw = w.battle("one battle"), w.battle("one battle raw")
    conflicts, raw_conflicts = [0] * writers, [0] * writers
    one_acked, one_raw_acked = [0] * writers, [0] * writers

    def svc_one(i: int, keep_going: Callable[[], bool]) -> int:
        done = 0
        try:
            head = Battle.objects.filter(pk=one_svc).values_list("head_seq", flat=True).get()
            while keep_going() and head < len(script):
                e = script[head]
                try:
                    r = services.battle_event_append(battle_id=one_svc, events=[NewEvent(type=e.type, data=e.data)],
                                                     expected_seq=head, recorded_by=None, as_game_master=True)
                except Conflict as exc:
                    conflicts[i] += 1
                    head = exc.extra["current_seq"]
                    continue
                assert r.created and r.events[0].seq == head + 1
                head += 1
                done += 1
        finally:
            connections.close_all()
        one_acked[i] += done
        return done

    def raw_one(i: int, keep_going: Callable[[], bool]) -> int:
        done = 0
        now = timezone.now()
        with w.raw(autocommit=True) as conn:
            head = conn.execute(f"SELECT COALESCE(MAX(seq), 0) FROM {EVENT_TABLE} WHERE battle_id = %s",
                                [one_raw]).fetchone()[0]
            while keep_going() and head < len(script):
                e = script[head]
                try:
                    conn.execute(INSERT, (one_raw, e.seq, positions(), e.type, Jsonb(e.data), e.version, None, now,
                                          None))
                except psycopg.errors.UniqueViolation:
                    raw_conflicts[i] += 1
                    head = conn.execute(f"SELECT MAX(seq) FROM {EVENT_TABLE} WHERE battle_id = %s",
                                        [one_raw]).fetchone()[0]
                    continue
                head += 1
                done += 1
        one_raw_acked[i] += done
        return done

    # Warm-up: connections, the state cache, prepared statements.
    _run_clients(writers, 0.5, _writers_service_own(own_svc, script, svc_next))
    _run_clients(writers, 0.5, _writers_raw_own(w, own_raw, script, raw_next, positions))
    totals = {k: [0, 0.0] for k in ("own", "own_raw", "one", "one_raw")}
    own_acked = sum(svc_next)  # acknowledged so far (the warm-up's count too)
    for _ in range(rounds):
        for key, work in (("own", _writers_service_own(own_svc, script, svc_next)),
                          ("own_raw", _writers_raw_own(w, own_raw, script, raw_next, positions)),
                          ("one", svc_one), ("one_raw", raw_one)):
            n, t = _run_clients(writers, seconds, work)
            totals[key][0] += n
            totals[key][1] += t
            if key == "own":
                own_acked += n
    for b, head in zip(own_raw, raw_next, strict=True):
        set_head(b, head)
    rate = {k: n / t for k, (n, t) in totals.items()}
    own_checks = [log_check(b) for b in own_svc]
    own_stored = sum(c["stored"] for c in own_checks)
    one_check = log_check(one_svc)
    heads = dict(Battle.objects.filter(pk__in=[*own_svc, one_svc]).values_list("id", "head_seq"))
    own = {"writers": writers, "acknowledged": own_acked, "stored": own_stored,
           "gaps": sum(c["gaps"] for c in own_checks), "duplicates": sum(c["duplicates"] for c in own_checks),
           "heads_match": all(heads[b] == c["stored"] for b, c in zip(own_svc, own_checks, strict=True)),
           "per_s": rate["own"], "raw_per_s": rate["own_raw"], "ratio": rate["own"] / rate["own_raw"]}
    one = {"writers": writers, "acknowledged": sum(one_acked), "stored": one_check["stored"],
           "gaps": one_check["gaps"], "duplicates": one_check["duplicates"],
           "heads_match": heads[one_svc] == one_check["stored"], "conflicts": sum(conflicts),
           "raw_conflicts": sum(raw_conflicts), "per_s": rate["one"], "raw_per_s": rate["one_raw"],
           "ratio": rate["one"] / rate["one_raw"]}
    return {
        "writers_own_battle_per_s": rate["own"], "writers_own_battle_ratio": own["ratio"],
        "writers_one_battle_per_s": rate["one"], "writers_one_battle_ratio": one["ratio"],
        "writers_own_battle": own, "writers_one_battle": one,
        # The old figure's shape, over both cases: acknowledged = stored, no gaps, no duplicates.
        "concurrent_writers": {"acknowledged": own["acknowledged"] + one["acknowledged"],
                               "stored": own["stored"] + one["stored"], "gaps": own["gaps"] + one["gaps"],
                               "duplicates": own["duplicates"] + one["duplicates"]},
        "writers_layout": (f"{writers} writers, single events of the synthetic battle "
                           f"({', '.join(sorted({e.type for e in script}))}); {rounds} rounds of {seconds:g} s "
                           "per side; service: battle_event_append in the bench process, raw: psycopg autocommit"),
    }


# --- projection_lag_p95_ms ---------------------------------------------------------
class Worker:
    """A real Celery worker consuming the bench queue, in its own process group."""

    def __init__(self, concurrency: int = 2) -> None:
        self.concurrency = concurrency
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Worker:
        cmd = [os.path.join(os.path.dirname(sys.executable), "celery"), "-A", "config", "worker", "-Q", env.QUEUE,
               "-c", str(self.concurrency), "-l", "warning", "--without-gossip", "--without-mingle",
               "--without-heartbeat"]
        self.proc = subprocess.Popen(cmd, cwd=str(env.ROOT), env={**os.environ, **env.server_env()},
                                     start_new_session=True)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def projection_lag(w: World, *, rate: float, battles: int, seconds: float, workers: int,
                   threads: int, clients: int = 4) -> dict[str, Any]:
    """``rate`` single-event appends a second over HTTP (the server, as in
    append_http), spread over ``battles`` battles by ``clients`` paced
    clients, with a real Celery worker replaying. For each 201, the time until
    the battle's stored projection shows that seq, seen by a poller reading the
    projections every 5 ms (so the figures carry up to 5 ms of polling)."""
    script = synthetic.battle(int(rate * seconds / battles) + 200, seed=3)
    ids = [w.battle(f"lag {i}") for i in range(battles)]
    headers = {"Authorization": f"Token {w.token}", "Content-Type": "application/json"}
    acks: list[tuple[int, int, float]] = []
    lock = threading.Lock()
    reached: dict[int, list[tuple[int, float]]] = {b: [] for b in ids}
    stop_polling = threading.Event()
    table = BattleProjection._meta.db_table

    def poller() -> None:
        last = dict.fromkeys(ids, 0)
        with w.raw(autocommit=True) as conn:
            while not stop_polling.is_set():
                rows = conn.execute(f"SELECT battle_id, seq FROM {table} WHERE battle_id = ANY(%s)", [ids]).fetchall()
                now = time.perf_counter()
                for b, seq in rows:
                    if seq > last[b]:
                        last[b] = seq
                        reached[b].append((seq, now))
                time.sleep(0.005)

    nxt = dict.fromkeys(ids, 0)
    interval = clients / rate

    def client(i: int, keep_going: Callable[[], bool]) -> int:
        mine = ids[i::clients]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        done, k = 0, 0
        due = time.perf_counter()
        while keep_going():
            b = mine[k % len(mine)]
            k += 1
            e = script[nxt[b]]
            body = json.dumps({"expected_seq": None, "events": [{"type": e.type, "data": e.data, "key": f"l{e.seq}"}]})
            conn.request("POST", f"/api/battles/{b}/events/", body=body, headers=headers)
            resp = conn.getresponse()
            payload = resp.read()
            acked_at = time.perf_counter()
            if resp.status != 201:
                raise RuntimeError(f"HTTP append answered {resp.status}: {payload[:300]!r}")
            nxt[b] += 1
            with lock:
                acks.append((b, nxt[b], acked_at))
            done += 1
            due += interval
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
        conn.close()
        return done

    env.purge_queue()
    env.clear_pending_flags()
    with Server(workers, threads) as server, Worker():
        poll = threading.Thread(target=poller, daemon=True)
        poll.start()
        # Warm-up: the worker is up when a first append's projection appears.
        _run_clients(clients, 1.0, client)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(not reached[b] or reached[b][-1][0] < nxt[b] for b in ids):
            time.sleep(0.05)
        warm = len(acks)
        n, wall = _run_clients(clients, seconds, client)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(reached[b][-1][0] < nxt[b] for b in ids if reached[b]):
            time.sleep(0.05)
        stop_polling.set()
        poll.join(5)
    lags = []
    for b, seq, t in acks[warm:]:
        seen = next((at for s, at in reached[b] if s >= seq), None)
        lags.append(float("inf") if seen is None else max(0.0, seen - t) * 1000)
    lags.sort()
    p95 = lags[max(0, round(0.95 * len(lags)) - 1)]
    return {"projection_lag_p95_ms": p95, "projection_lag_median_ms": lags[len(lags) // 2],
            "projection_lag_max_ms": lags[-1], "projection_lag_samples": len(lags), "projection_lag_rate": n / wall,
            "projection_lag_replays": sum(len(v) for v in reached.values()),
            "projection_lag_layout": (f"{clients} paced HTTP clients, {battles} battles, target {rate:g} appends/s "
                                      f"for {seconds:g} s; granian {workers}x{threads}; a Celery worker -c 2; "
                                      "'replays ran' counts projection updates the poller saw")}


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
    # a player's take-back (a correction) voids his last move: the replay skips it
    assert folded.applied == n - len(folded.voided) and not folded.unapplied, "the synthetic FoW battle did not fold cleanly"
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
