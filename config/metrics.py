"""The service's Prometheus metrics (prometheus_client), counted where things happen.

Counted as they happen, in every process (web, worker):

* ``shtab_http_request_duration_seconds{view,method}`` and
  ``shtab_http_responses_total{view,method,status}``: every request, by the
  route's name (``config.monitoring.RequestMetricsMiddleware``);
* ``shtab_http_request_cpu_seconds_total{view,method}``: the CPU time the
  thread answering spent on it, by route (a request waiting for its battle to
  move, ``battles.log.moves``, spends none while it waits): which pages cost
  the server its cores (``make bench``'s game night reads it);
* ``shtab_appends_total{outcome}``: every append (``battles.services.battle_event_append``):
  ``stored``, ``retry`` (every key already stored: the stored events answered
  again), ``stale`` (a stale ``expected_seq``, 409), ``refused`` (any other
  refusal: 400, 403, 404, 409, 422) or ``error`` (an exception that is no
  refusal: a database outage); ``shtab_events_stored_total``: the events stored;
* ``shtab_celery_task_failures_total{task}`` and ``shtab_celery_task_retries_total{task}``
  (Celery's ``task_failure`` and ``task_retry`` signals).

Read when scraped (``config.monitoring``): the projection lag and the replay
queue's depth.

With ``PROMETHEUS_MULTIPROC_DIR`` set in the environment of every process (it
must be set before the process starts: prometheus_client reads it on import),
each process writes its counts to files in that directory and ``/metrics``
adds up every process's (prometheus_client's multiprocess mode): granian's
worker processes and the Celery worker's pool on the same machine are one
service. Unset, each process counts in memory and answers for itself alone.
"""
from __future__ import annotations

import os
from typing import Any

from celery.signals import task_failure, task_retry
from prometheus_client import Counter, Histogram

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

REQUEST_SECONDS = Histogram(
    "shtab_http_request_duration_seconds", "Time to answer a request, by the route's name and the method.",
    ["view", "method"], buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
REQUEST_CPU = Counter(
    "shtab_http_request_cpu_seconds", "CPU time of the thread answering a request, by the route's name and the method.",
    ["view", "method"])
RESPONSES = Counter("shtab_http_responses", "Answers, by the route's name, the method and the status.",
                    ["view", "method", "status"])
APPENDS = Counter("shtab_appends", "Appends to a battle log, by outcome: stored, retry, stale, refused, error.",
                  ["outcome"])
EVENTS_STORED = Counter("shtab_events_stored", "Events stored in battle logs.")
TASK_FAILURES = Counter("shtab_celery_task_failures", "Celery tasks that raised, by task.", ["task"])
TASK_RETRIES = Counter("shtab_celery_task_retries", "Celery tasks retried, by task.", ["task"])

OUTCOMES = ("stored", "retry", "stale", "refused", "error")
# Bound once (an append spares the label lookup), so every outcome shows from the start, at 0.
_BY_OUTCOME = {outcome: APPENDS.labels(outcome) for outcome in OUTCOMES}


def append_counted(outcome: str, events: int = 0) -> None:
    _BY_OUTCOME[outcome].inc()
    if events:
        EVENTS_STORED.inc(events)


def _task_name(sender: Any) -> str:
    return str(getattr(sender, "name", None) or "unknown")


@task_failure.connect
def _count_failure(sender: Any = None, **kwargs: Any) -> None:
    TASK_FAILURES.labels(_task_name(sender)).inc()


@task_retry.connect
def _count_retry(sender: Any = None, **kwargs: Any) -> None:
    TASK_RETRIES.labels(_task_name(sender)).inc()
