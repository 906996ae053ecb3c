"""Request ids, and logs as JSON lines.

``RequestIdMiddleware`` gives every request an id: the client's
``X-Request-ID`` when it is sane (1–128 of ``A-Z a-z 0-9 . _ : + / = -``: what
a proxy or a tracing header carries, nothing that could forge a log line),
else a fresh uuid4. The answer carries it back in ``X-Request-ID``, and every
log record written while the request is handled carries it as ``request_id``
(a context variable read by ``RequestIdFilter``), Django's own "Not Found" and
"Internal Server Error" lines included: those are written after the
middleware returns, so the id is cleared only when the request has finished.

``SHTAB_LOG_JSON=1`` (``config.settings.base.LOGGING``) writes each record as
one JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
``message``, ``request_id`` (``null`` outside a request) and, for an
exception, ``exception`` (its traceback).
"""
from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
SANE = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")
REQUEST_ID: ContextVar[str | None] = ContextVar("shtab_request_id", default=None)


def request_id_of(header: str | None) -> str:
    """The client's id when sane, else a new one."""
    if header and SANE.fullmatch(header):
        return header
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = request_id_of(request.headers.get(HEADER))
        request.request_id = rid  # type: ignore[attr-defined]
        REQUEST_ID.set(rid)
        response = self.get_response(request)
        response[HEADER] = rid
        return response


def _finished(sender: Any, **kwargs: Any) -> None:
    REQUEST_ID.set(None)


request_finished.connect(_finished, dispatch_uid="shtab-request-id-finished")


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (``request_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line (the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", REQUEST_ID.get()),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)
