"""Last-Modified on the read-only API (issue 29 §4), answered by Django's
``ConditionalGetMiddleware``: a view that knows cheaply when what it shows last
changed (a battle's last event or projection, a campaign's standings) sets the
header, and the middleware answers a client's ``If-Modified-Since`` with 304
while nothing changed since (``If-None-Match``, the ETag of the body, takes
precedence when a client sends both, RFC 9110 §13.2.2).

An HTTP date counts whole seconds, so two changes in one second share it: a
client that read the first would be told 304 after the second. A change younger
than ``SETTLE_SECONDS`` therefore gives no Last-Modified yet (the ETag still
revalidates the answer); once the moment has settled, every later change falls
in a later second. The margin covers the second's truncation and an append's
transaction, whose events carry the time they were recorded at, a few
milliseconds before they commit.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.http import HttpResponseBase
from django.utils import timezone
from django.utils.http import http_date

SETTLE_SECONDS = 2


def settled(moment: datetime | None) -> datetime | None:
    """``moment`` if it is at least ``SETTLE_SECONDS`` old, else None."""
    if moment is None:
        return None
    return moment if timezone.now() - moment >= timedelta(seconds=SETTLE_SECONDS) else None


def last_modified(response: HttpResponseBase, *moments: datetime | None) -> HttpResponseBase:
    """Set Last-Modified to the latest of ``moments`` (what the answer shows
    changed last), on a successful answer only and once it has settled."""
    latest = max((m for m in moments if m is not None), default=None)
    if 200 <= response.status_code < 300 and settled(latest) is not None:
        response["Last-Modified"] = http_date(latest.timestamp())
    return response
