"""/metrics (config.monitoring, config.metrics; issue 29 §5): the Prometheus text
format, appends counted by outcome, requests timed under their route's name,
the projection lag and the replay queue read when scraped, Celery failures,
the address allow-list, and the counts of several processes added up
(multiprocess mode, as granian's processes run)."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from battles.services import NewEvent, battle_event_append, battle_replay

ROOT = Path(__file__).resolve().parent.parent
START = {"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}}
TURN1 = {"type": "turn_ended", "data": {"side": "defender", "turn": 1}}


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics: (name, sorted labels) -> value."""
    r = client.get("/metrics", **headers)
    assert r.status_code == 200, r.content
    assert r["Content-Type"].startswith("text/plain; version=0.0.4")
    out = {}
    for family in text_string_to_metric_families(r.content.decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def appends(samples, outcome) -> float:
    return value(samples, "shtab_appends_total", outcome=outcome)


def post_events(client, battle, events, expected_seq):
    return client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": expected_seq, "events": events},
                       format="json")


@pytest.mark.django_db
def test_metrics_answers_the_text_format_unauthenticated(client):
    r = client.get("/metrics")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/plain; version=0.0.4")
    names = {f.name for f in text_string_to_metric_families(r.content.decode())}
    assert {"shtab_appends", "shtab_events_stored", "shtab_http_request_duration_seconds",
            "shtab_projections_lagging", "shtab_projection_lag_events", "shtab_projection_lag_seconds"} <= names
    body = r.content.decode()
    for outcome in ("stored", "retry", "stale", "refused", "error"):  # every outcome shows, at 0 at first
        assert f'shtab_appends_total{{outcome="{outcome}"}}' in body


@pytest.mark.django_db
def test_a_stored_append_counts_stored_and_its_events(client, gm_client, battle):
    before = scrape(client)
    r = post_events(gm_client, battle, [START, TURN1], 0)
    assert r.status_code == 201, r.json()
    after = scrape(client)
    assert appends(after, "stored") == appends(before, "stored") + 1
    assert value(after, "shtab_events_stored_total") == value(before, "shtab_events_stored_total") + 2
    assert appends(after, "refused") == appends(before, "refused")


@pytest.mark.django_db
def test_a_refused_append_counts_refused_and_not_stored(client, defender_client, battle):
    before = scrape(client)
    # a participant may not start the battle (the game master's event): 403
    r = post_events(defender_client, battle, [START], 0)
    assert r.status_code == 403, r.json()
    after = scrape(client)
    assert appends(after, "refused") == appends(before, "refused") + 1
    assert appends(after, "stored") == appends(before, "stored")


@pytest.mark.django_db
def test_a_stale_append_and_a_retry_count_as_such(client, gm_client, battle):
    keyed = [dict(START, key="k-1")]
    assert post_events(gm_client, battle, keyed, 0).status_code == 201
    before = scrape(client)
    assert post_events(gm_client, battle, [TURN1], 0).status_code == 409  # stale expected_seq
    assert post_events(gm_client, battle, keyed, 0).status_code == 200  # the same key again: a retry
    after = scrape(client)
    assert appends(after, "stale") == appends(before, "stale") + 1
    assert appends(after, "retry") == appends(before, "retry") + 1
    assert appends(after, "stored") == appends(before, "stored")


@pytest.mark.django_db
def test_a_request_is_timed_under_its_views_name(client, battle):
    name = "shtab_http_request_duration_seconds_count"
    before = scrape(client)
    assert client.get(f"/api/battles/{battle.id}/state/").status_code == 200
    after = scrape(client)
    assert value(after, name, view="api-battle-state", method="GET") == \
        value(before, name, view="api-battle-state", method="GET") + 1
    assert value(after, "shtab_http_responses_total", view="api-battle-state", method="GET", status="200") == \
        value(before, "shtab_http_responses_total", view="api-battle-state", method="GET", status="200") + 1
    # labelled by the route, never the path (whose ids would make a series per battle)
    assert not any("/" in v for (n, labels) in after if n.startswith("shtab_http") for _, v in labels)


@pytest.mark.django_db
def test_a_requests_cpu_time_is_counted_under_its_views_name(client, battle, monkeypatch):
    """The thread's CPU time, not the wall time: what a route costs the server's cores."""
    import time
    from types import SimpleNamespace

    from config import monitoring

    name = "shtab_http_request_cpu_seconds_total"
    before = scrape(client)
    ticks = iter([10.0, 10.25])  # the middleware reads the thread's CPU clock before and after the request
    monkeypatch.setattr(monitoring, "time", SimpleNamespace(perf_counter=time.perf_counter,
                                                            thread_time=lambda: next(ticks)))
    assert client.get(f"/api/battles/{battle.id}/state/").status_code == 200
    monkeypatch.setattr(monitoring, "time", time)
    after = scrape(client)
    assert value(after, name, view="api-battle-state", method="GET") == pytest.approx(
        value(before, name, view="api-battle-state", method="GET") + 0.25)
    assert value(after, name, view="metrics", method="GET") >= value(before, name, view="metrics", method="GET")


@pytest.mark.django_db
def test_a_path_no_route_matches_is_counted_as_unresolved(client):
    before = scrape(client)
    assert client.get("/no-such-page-at-all/").status_code == 404
    after = scrape(client)
    key = dict(view="unresolved", method="GET", status="404")
    assert value(after, "shtab_http_responses_total", **key) == value(before, "shtab_http_responses_total", **key) + 1


@pytest.mark.django_db
def test_projection_lag_is_read_when_scraped(client, battle):
    # (a test's transaction never commits, so no replay follows the append: the projection lags)
    battle_event_append(battle_id=battle.id, events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"}),
                                                     NewEvent("turn_ended", {"side": "defender", "turn": 1})],
                        expected_seq=0, as_game_master=True)
    lagging = scrape(client)
    assert value(lagging, "shtab_projections_lagging") == 1
    assert value(lagging, "shtab_projection_lag_events") == 2
    assert value(lagging, "shtab_projection_lag_seconds") >= 0
    battle_replay(battle_id=battle.id)
    caught_up = scrape(client)
    assert value(caught_up, "shtab_projections_lagging") == 0
    assert value(caught_up, "shtab_projection_lag_events") == 0
    assert value(caught_up, "shtab_projection_lag_seconds") == 0


@pytest.mark.django_db
def test_replay_queue_depth_is_absent_in_eager_mode(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER, settings.REDIS_URL = True, ""
    assert not any(n == "shtab_replay_queue_depth" for n, _ in scrape(client))


def _redis_url() -> str:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/1"
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except Exception:
        pytest.skip(f"no Redis answers at {url}")
    return url


@pytest.mark.django_db
def test_replay_queue_depth_is_the_brokers_queue_length(client, settings):
    import redis

    url = _redis_url()
    queue = f"shtab-metrics-test-{uuid.uuid4().hex}"  # a queue of its own: no worker takes from it
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = settings.CELERY_BROKER_URL = url
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    broker = redis.Redis.from_url(url)
    try:
        assert value(scrape(client), "shtab_replay_queue_depth") == 0
        broker.rpush(queue, "a", "b", "c")
        assert value(scrape(client), "shtab_replay_queue_depth") == 3
    finally:
        broker.delete(queue)


@pytest.mark.django_db
def test_a_reading_that_fails_is_left_out_and_the_rest_answers(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    samples = scrape(client)
    assert not any(n == "shtab_replay_queue_depth" for n, _ in samples)
    assert ("shtab_projections_lagging", ()) in samples


@pytest.mark.django_db
def test_a_celery_task_that_fails_is_counted_by_name(client):
    from config.celery import app

    name = f"tests.metrics.fails_{uuid.uuid4().hex[:8]}"

    @app.task(name=name)
    def fails():
        raise RuntimeError("boom")

    before = scrape(client)
    result = fails.apply(throw=False)
    assert result.failed()
    after = scrape(client)
    assert value(after, "shtab_celery_task_failures_total", task=name) == \
        value(before, "shtab_celery_task_failures_total", task=name) + 1


@pytest.mark.django_db
def test_metrics_allow_list_refuses_other_addresses(client, settings):
    settings.SHTAB = {**settings.SHTAB, "METRICS_ALLOW": "10.0.0.0/8, 192.0.2.7"}
    refused = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert refused.status_code == 403 and "SHTAB_METRICS_ALLOW" in refused.content.decode()
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="192.0.2.7").status_code == 200
    settings.SHTAB = {**settings.SHTAB, "METRICS_ALLOW": ""}
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 200


COUNT = """
import sys
from config import metrics
assert metrics.MULTIPROCESS
metrics.append_counted("stored", 3)
metrics.REQUEST_SECONDS.labels("api-battle-events", "POST").observe(0.01)
"""

RENDER = """
import django
django.setup()
from prometheus_client import generate_latest
from config import monitoring
sys_out = generate_latest(monitoring.registry()).decode()
print(sys_out)
"""


def test_multiprocess_mode_adds_up_every_processs_counts(tmp_path):
    """PROMETHEUS_MULTIPROC_DIR set: each process (two here, as granian's
    workers) writes its counts there, and any process's /metrics answers their sum."""
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "DATABASE_URL", "REDIS_URL"}}
    env |= {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "SQLITE_PATH": str(tmp_path / "none.sqlite3"), "PYTHONPATH": str(ROOT)}
    (tmp_path / "metrics").mkdir()
    for _ in range(2):
        subprocess.run([sys.executable, "-c", COUNT], cwd=ROOT, env=env, check=True, timeout=120)
    out = subprocess.run([sys.executable, "-c", RENDER], cwd=ROOT, env=env, check=True, timeout=120,
                         capture_output=True, text=True).stdout
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for f in text_string_to_metric_families(out) for s in f.samples}
    assert value(samples, "shtab_appends_total", outcome="stored") == 2
    assert value(samples, "shtab_events_stored_total") == 6
    assert value(samples, "shtab_http_request_duration_seconds_count", view="api-battle-events", method="POST") == 2


PRODUCTION = """
import django
django.setup()
from django.test import Client
c = Client()
print(c.get("/metrics").status_code, c.get("/healthz").status_code, c.get("/readyz").status_code in (200, 503),
      c.get("/").status_code)
"""


def test_production_lets_a_local_monitor_scrape_over_plain_http(tmp_path):
    """The HTTPS redirect passes the probes and /metrics by (PROBE_PATHS): a
    Prometheus or systemd check on the machine itself scrapes http://127.0.0.1:8000."""
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "DATABASE_URL", "REDIS_URL"}}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings.production", "DJANGO_SECRET_KEY": "x" * 50,
            "DJANGO_ALLOWED_HOSTS": "testserver", "SQLITE_PATH": str(tmp_path / "none.sqlite3"),
            "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PRODUCTION], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["200", "200", "True", "301"]  # a page still goes to HTTPS


def _http(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read().decode()
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_granians_four_processes_answer_one_sum(battle, game_master, tmp_path):
    """The production server (config.serve, here with 4 processes) with PROMETHEUS_MULTIPROC_DIR:
    whichever process answers a scrape counts every process's appends and requests."""
    import signal
    import time

    from django.db import connection
    from rest_framework.authtoken.models import Token

    from config import serve
    from tests.processes import database_url, free_port

    if connection.vendor != "postgresql":
        pytest.skip("the server process needs a database it can share (PostgreSQL); CI runs this on PostgreSQL")
    token = Token.objects.create(user=game_master).key
    (tmp_path / "metrics").mkdir()
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "DATABASE_URL": database_url(),
           "DJANGO_DEBUG": "0", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    from django.conf import settings

    if not settings.REDIS_URL:
        env.pop("REDIS_URL", None)
    proc = subprocess.Popen(serve.argv(host="127.0.0.1", port=port, workers=4, threads=1), cwd=str(serve.ROOT),
                            env=env, start_new_session=True)
    try:
        for _ in range(300):  # up to 30 s for the server to answer
            assert proc.poll() is None, f"the server exited with {proc.returncode}"
            try:
                if _http(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        path, n = f"/api/battles/{battle.id}/events/", 8
        events = [START] + [{"type": "turn_ended", "data": {"side": side, "turn": t}}
                            for t in range(1, 5) for side in ("defender", "attacker")][:n - 1]
        for ev in events:  # a connection each: granian hands them to its processes in turn
            status, body = _http(port, "POST", path, {"expected_seq": None, "events": [ev]}, token)
            assert status == 201, body
        served: list[str] = []
        for scrape_no in range(1, 51):  # a connection each, until more than one process has answered
            status, body = _http(port, "GET", "/metrics")
            assert status == 200
            samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
                       for f in text_string_to_metric_families(body) for s in f.samples}
            assert value(samples, "shtab_appends_total", outcome="stored") == n
            assert value(samples, "shtab_http_responses_total", view="api-battle-events", method="POST",
                         status="201") == n
            # a process's histogram file appears with the first request it times
            served = sorted(p.name for p in (tmp_path / "metrics").glob("histogram_*.db"))
            if scrape_no >= 8 and len(served) > 1:
                break
        assert len(served) > 1, f"one process answered everything ({served}): the sum was not put to the test"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
