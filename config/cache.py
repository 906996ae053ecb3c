"""The cache is an accelerator, never a dependency.

Rendered fragments (the standings rows) are kept in Redis in production. When
Redis is down or refuses, the page is rendered from the database as if the
entry were missing, and the failure is logged: a cache outage never answers
500 (the API's standings read the database directly and need no cache).
"""
from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

log = logging.getLogger(__name__)


def cache_get(key: str, default: Any = None) -> Any:
    """The cached value, or ``default`` when it is missing or the cache is unreachable."""
    try:
        return cache.get(key, default)
    except Exception:  # any backend's connection error: serve from the database
        log.warning("cache unavailable, reading %s from the database", key, exc_info=True)
        return default


def cache_set(key: str, value: Any, timeout: int) -> None:
    """Store ``value`` if the cache is reachable; otherwise log and go on."""
    try:
        cache.set(key, value, timeout)
    except Exception:  # the page was rendered already; only the reuse is lost
        log.warning("cache unavailable, %s not stored", key, exc_info=True)
