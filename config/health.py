"""Probes for whatever runs the service (systemd, a load balancer, a monitor):
unauthenticated, cheap, and saying nothing a stranger could use.

* ``/healthz``: the process answers (200).
* ``/readyz``: the database answers and every migration is applied, and, when
  ``REDIS_URL`` is set, Redis (the cache and the replay flags) and the Celery
  broker answer. 200 when all do; 503 naming each that does not, so a dead
  broker shows here rather than as projections that stop moving.
"""
from __future__ import annotations

from collections.abc import Callable

import redis
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.celery import app

TIMEOUT = 1.0  # seconds a dependency may take before it counts as down
_migrated: set[str] = set()  # aliases found fully migrated (migrations are not unapplied under a running server)


def _database() -> None:
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cur:
        cur.execute("SELECT 1")
    if DEFAULT_DB_ALIAS not in _migrated:
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            raise RuntimeError("migrations not applied")
        _migrated.add(DEFAULT_DB_ALIAS)


def _redis() -> None:
    redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT).ping()


def _broker() -> None:
    with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT)


def checks() -> dict[str, Callable[[], None]]:
    found = {"database": _database}
    if settings.REDIS_URL:
        found |= {"redis": _redis, "broker": _broker}
    return found


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    result = {}
    for name, check in checks().items():
        try:
            check()
            result[name] = "ok"
        except Exception:  # any failure means not ready; the type says nothing a stranger needs
            result[name] = "down"
    ready = all(v == "ok" for v in result.values())
    return JsonResponse({"status": "ok" if ready else "unavailable", **result}, status=200 if ready else 503)
