"""``/metrics`` for Prometheus, and the middleware that times every request.

The counters live in ``config.metrics``. Read when scraped, by whichever
process answers:

* ``shtab_projections_lagging``: battles whose projection is behind their log
  (the beat sweep's own measure, ``battles.selectors.battles_lagging``);
* ``shtab_projection_lag_events``: the events of those logs not yet folded
  into their projections, summed;
* ``shtab_projection_lag_seconds``: how long the oldest of those events has
  waited (0 when no projection lags);
* ``shtab_replay_queue_depth``: messages waiting in the Celery queue (Redis
  ``LLEN``); absent in eager mode (no ``REDIS_URL``), where nothing queues.

A reading that fails (the database or Redis down) is left out of the answer
and logged; ``/readyz`` is the place that says what is down.

``SHTAB_METRICS_ALLOW`` (comma-separated addresses or networks, e.g.
``127.0.0.1,10.0.0.0/8``) limits who may read ``/metrics`` (others get 403);
empty, anyone may. The address is the one the login throttling keys on
(``SHTAB_TRUSTED_PROXIES``).
"""
from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from django.db.models import Min, Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import REGISTRY, CollectorRegistry, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder

from battles.models import BattleEvent
from battles.selectors import battles_lagging
from campaign.accounts import client_ip
from config import metrics

log = logging.getLogger(__name__)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNRESOLVED = "unresolved"  # a path no route matched (404), or refused before routing


class RequestMetricsMiddleware:
    """Times each request and counts its answer under its route's name
    (``resolver_match.view_name``: ``battle-events``, ``admin:index``), so
    the labels stay few whatever the paths' ids."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # the labelled series met so far, bound once (a label lookup costs more than the count itself)
        self.series: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start, cpu = time.perf_counter(), time.thread_time()  # (the thread's own CPU: none while it waits)
        response = self.get_response(request)
        elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu
        match = getattr(request, "resolver_match", None)
        view = (match.view_name if match is not None else None) or UNRESOLVED
        method = request.method if request.method in METHODS else "other"
        key = (view, method, response.status_code)
        series = self.series.get(key)
        if series is None:
            series = self.series[key] = (metrics.REQUEST_SECONDS.labels(view, method),
                                         metrics.RESPONSES.labels(view, method, str(response.status_code)),
                                         metrics.REQUEST_CPU.labels(view, method))
        series[0].observe(elapsed)
        series[1].inc()
        series[2].inc(cpu)
        return response


class _Readings:
    """The scrape-time gauges (the module's docstring)."""

    def collect(self) -> Iterator[Metric]:
        for read in (_lag, _queue_depth):
            try:
                yield from read()
            except Exception:  # a reading that fails is left out; /readyz says what is down
                log.warning("metrics: %s could not be read", read.__name__, exc_info=True)


def _lag() -> Iterator[Metric]:
    behind = list(battles_lagging().values_list("id", "head_seq", "projection__seq"))
    events = sum(head - (seq or 0) for _, head, seq in behind)
    oldest = None
    if behind:
        # the first event each lagging projection has not folded: one indexed lookup a battle, in one query
        first = Q()
        for battle_id, _, seq in behind[:1000]:
            first |= Q(battle_id=battle_id, seq=(seq or 0) + 1)
        oldest = BattleEvent.objects.filter(first).aggregate(oldest=Min("recorded_at"))["oldest"]
    seconds = max(0.0, (timezone.now() - oldest).total_seconds()) if oldest is not None else 0.0
    yield GaugeMetricFamily("shtab_projections_lagging", "Battles whose projection is behind their log.",
                            value=len(behind))
    yield GaugeMetricFamily("shtab_projection_lag_events", "Events not yet folded into their battle's projection.",
                            value=events)
    yield GaugeMetricFamily("shtab_projection_lag_seconds",
                            "Age of the oldest event not yet folded into its projection (0: none lags).",
                            value=seconds)


def _queue_depth() -> Iterator[Metric]:
    if settings.CELERY_TASK_ALWAYS_EAGER or not settings.REDIS_URL:
        return
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=1, socket_timeout=1)
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    # kombu's Redis transport keeps a queue's prioritised messages in lists beside it ("<queue>\x06\x16<n>")
    names = [queue, *(f"{queue}\x06\x16{n}" for n in (3, 6, 9))]
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.llen(name)
    depth = sum(pipe.execute())
    yield GaugeMetricFamily("shtab_replay_queue_depth",
                            "Messages waiting in the Celery queue (replays, conclusions, notifications).",
                            value=depth)


class _Counted:
    """This process's own registry (single-process mode), added to a scrape's."""

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


@lru_cache(maxsize=8)
def _networks(allow: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in allow.split(",") if part.strip())


def allowed(request: HttpRequest) -> bool:
    networks = _networks(settings.SHTAB.get("METRICS_ALLOW", ""))
    if not networks:
        return True
    try:
        address = ipaddress.ip_address(client_ip(request) or "")
    except ValueError:
        return False
    return any(address in network for network in networks)


def registry() -> CollectorRegistry:
    """What one scrape answers: every process's counts (multiprocess mode) or
    this process's, and the readings."""
    found = CollectorRegistry()
    if metrics.MULTIPROCESS:
        multiprocess.MultiProcessCollector(found)
    else:
        found.register(_Counted())
    found.register(_Readings())
    return found


@never_cache
@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        return HttpResponse("403: адрес не из SHTAB_METRICS_ALLOW. / The address is not in SHTAB_METRICS_ALLOW.\n",
                            status=403, content_type="text/plain; charset=utf-8")
    # the text format, or OpenMetrics to a scraper that asks for it
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return HttpResponse(encode(registry()), content_type=content_type)


