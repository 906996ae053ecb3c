"""The production server (``config.serve``: granian serving ``config.wsgi``)
answers the API and appends through the lean front, and hands Django each
response's ``close()``, so ``request_finished`` recycles the database
connection as under any WSGI server (PEP 3333).

PostgreSQL only: the server is another process and must see the test
database (SQLite's test database lives in this process's memory); under
CI=true the suite runs on PostgreSQL, so these run there.
"""
from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import subprocess
import time
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection

from config import serve
from tests.processes import database_url, free_port

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = [
    pytest.mark.skipif(not ON_POSTGRES, reason="the server process needs a database it can share (PostgreSQL); "
                                               "CI runs these on PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


@contextmanager
def server(threads: int = 2, **env: str):
    """The server on a free port, on the test database; yields (port, application_name of its
    database connections)."""
    port, app_name = free_port(), f"shtab-test-server-{secrets.token_hex(4)}"
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "DATABASE_URL": database_url(),
               "DJANGO_DEBUG": "0", "PGAPPNAME": app_name, **env}
    if not getattr(settings, "REDIS_URL", ""):
        environ.pop("REDIS_URL", None)  # as this process: replays run eagerly in the server
    proc = subprocess.Popen(serve.argv(host="127.0.0.1", port=port, workers=1, threads=threads),
                            cwd=str(serve.ROOT), env=environ, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, f"the server exited with {proc.returncode}"
            try:
                status, _ = request(port, "GET", "/api/event-types/")
                assert status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer within 30 s"
                time.sleep(0.2)
        yield port, app_name
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


def open_connections(app_name: str) -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [app_name])
        return cur.fetchone()[0]


def settled(app_name: str, want, timeout: float = 5.0) -> int:
    """The server's open database connections once ``want(count)`` holds (or at the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        n = open_connections(app_name)
        if want(n) or time.monotonic() > deadline:
            return n
        time.sleep(0.05)


@pytest.fixture
def gm_token(game_master):
    from rest_framework.authtoken.models import Token

    return Token.objects.create(user=game_master).key


START = {"type": "battle_started", "data": {"attacker": "A", "defender": "D"}, "key": "start"}


def test_the_server_appends_through_the_lean_front_and_answers_a_stale_head(battle, gm_token):
    from battles.models import BattleEvent

    path = f"/api/battles/{battle.id}/events/"
    with server() as (port, _):
        status, body = request(port, "POST", path, {"expected_seq": 0, "events": [START]}, gm_token)
        assert status == 201, body
        assert [(e["seq"], e["type"], e["key"]) for e in body] == [(1, "battle_started", "start")]
        status, again = request(port, "POST", path, {"expected_seq": 0, "events": [START]}, gm_token)
        assert (status, again) == (200, body)  # the same key again: the stored answer, nothing new
        status, stale = request(port, "POST", path, {"expected_seq": 0, "events": [
            {"type": "turn_ended", "data": {"side": "attacker", "turn": 1}}]}, gm_token)
        assert status == 409 and stale["error"]["code"] == "stale_seq", stale
        status, stranger = request(port, "POST", path, {"expected_seq": 1, "events": [START]}, "no-such-token")
        assert status == 401, stranger
    stored = list(BattleEvent.objects.filter(battle=battle).values_list("seq", "type", "key"))
    assert stored == [(1, "battle_started", "start")]


def test_the_server_closes_each_response_so_django_recycles_connections(battle, gm_token):
    from battles.services import battle_create

    path = f"/api/battles/{battle.id}/events/"
    other = battle_create(campaign=battle.campaign, name="Бой 2")
    # Kept between requests (CONN_MAX_AGE 60): the server's connection is seen while it is idle.
    with server(DB_CONN_MAX_AGE="60") as (port, app_name):
        assert request(port, "POST", path, {"expected_seq": 0, "events": [START]}, gm_token)[0] == 201
        assert settled(app_name, lambda n: n >= 1) >= 1
    # CONN_MAX_AGE 0: request_finished, sent by the response's close(), closes it after each request,
    # the lean append's and Django's alike.
    with server(DB_CONN_MAX_AGE="0") as (port, app_name):
        assert request(port, "POST", f"/api/battles/{other.id}/events/", {"expected_seq": 0, "events": [START]},
                       gm_token)[0] == 201
        assert settled(app_name, lambda n: n == 0) == 0
        assert request(port, "GET", path, token=gm_token)[0] == 200
        assert settled(app_name, lambda n: n == 0) == 0


def test_as_it_runs_in_production_a_live_request_waits_for_its_battle_to_move(battle, gm_token):
    """``config.serve``'s own environment (``serve.ENVIRONMENT``: waiting live requests, a pool of
    connections): a battle page's live request is held while nothing moves, answered once an entry is
    stored, and the server keeps no more connections than its pool (issue 25, battles.log.moves)."""
    import threading

    path = f"/api/battles/{battle.id}/events/"
    with server(threads=serve.THREADS, **serve.ENVIRONMENT) as (port, app_name):
        answers = []

        def live() -> None:
            answers.append(request(port, "GET", f"/battles/{battle.id}/live/?since=0&state=0&wait=20"))

        waiting = [threading.Thread(target=live) for _ in range(12)]
        for t in waiting:
            t.start()
        time.sleep(1.5)
        assert not answers  # nothing moved: all twelve held, none answered
        assert request(port, "POST", path, {"expected_seq": 0, "events": [START]}, gm_token)[0] == 201
        for t in waiting:
            t.join(15)
        assert len(answers) == 12 and all(s == 200 and body["changed"] and body["head_seq"] == 1
                                          for s, body in answers), answers
        assert 0 < open_connections(app_name) <= int(serve.ENVIRONMENT["SHTAB_DB_POOL"]) + 1  # (+ the listener)


def test_a_request_is_answered_while_more_connections_are_open_than_granian_allows_by_itself():
    """Granian keeps a permit for each open connection, and left to itself allows backlog ÷ workers
    (1,024 for one process); past that a new connection waits until another closes. An open battle page
    holds two (its live request waits on one), so ``config.serve`` sets the limit (``CONNECTIONS``): with
    1,100 connections open and idle, a new one is still answered at once (bench/HISTORY.md, "Game night,
    sixteenth session")."""
    import resource
    import socket

    idle = 1100
    assert serve.CONNECTIONS > idle
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2 * idle + 200  # this process's sockets and, as it inherits the limit, the server's
    if hard != resource.RLIM_INFINITY and hard < want:
        pytest.skip(f"the open files' hard limit ({hard}) is below {want}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))
    sockets = []
    try:
        with server() as (port, _):
            for _ in range(idle):
                sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=8)
            try:
                conn.request("GET", "/healthz")
                assert conn.getresponse().status == 200  # (granian's own limit: no answer, a timeout)
            finally:
                conn.close()
    finally:
        for s in sockets:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
