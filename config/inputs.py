"""Checks every piece of incoming text and every paging parameter passes, so that
bad input is a 400 naming the field, never a 500.

PostgreSQL refuses a NUL character in ``text`` and ``jsonb``, and a lone
surrogate (``"\\ud800"``, legal in JSON) cannot be encoded as UTF-8 by any
database driver: either would surface as a server error deep in a query. The
JSON parser (``config.parsers.JSONParser``), the form and query-string check of
``config.middleware.ApiErrorMiddleware`` and the services that take free JSON
(the battle log, roster import) all refuse them here, naming the path of the
offending value (``events[0].data.attacker``). The walk is iterative: a body
nested deeper than Python's recursion limit is refused, not crashed on.

Every integer read from a query string, a form field or a JSON object's key is
read by ``ascii_int``: ``str.isdigit`` is true for ``"²"`` (which ``int`` refuses)
and ``int`` takes ``"١"`` (an Arabic-Indic one), ``" 1"`` and ``"1_0"``; only
ASCII digits within what a database column holds are a number here.
"""
from __future__ import annotations

import math
import re
from typing import Any

from rest_framework.request import Request

from .errors import InvalidInput

# Deepest JSON accepted in any request body (event data has its own, smaller cap).
MAX_BODY_DEPTH = 64
# Largest integer a database id or offset can hold (PostgreSQL bigint, SQLite INTEGER).
MAX_INT = 2**63 - 1

_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


def bad_text(value: str) -> bool:
    """True for a string holding NUL or a lone surrogate."""
    return _BAD_TEXT.search(value) is not None


def _join(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def find_bad(value: Any, path: str = "", *, max_depth: int | None = None,
             numbers: bool = False) -> tuple[str, str] | None:
    """The first problem in a JSON value as ``(path, kind)``: kind ``"text"``
    for a string (or key) with NUL or a lone surrogate, ``"depth"`` for nesting
    beyond ``max_depth`` containers (path names the container that is too deep),
    and with ``numbers`` ``"number"`` for a float that is not finite (Python's
    JSON reads ``1e400`` as infinity, which no column or JSON writer keeps)."""
    if _clean(value, max_depth, numbers):  # the common case, asked without building a path for every item
        return None
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            if bad_text(item):
                return where, "text"
        elif numbers and isinstance(item, float):
            if not math.isfinite(item):
                return where, "number"
        elif isinstance(item, (dict, list)):
            if max_depth is not None and depth >= max_depth:
                return where, "depth"
            pairs = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
            for key, child in reversed(pairs):
                if isinstance(key, str) and bad_text(key):
                    return _join(where, _printable(key)), "text"
                stack.append((child, _join(where, key), depth + 1))
    return None


def _clean(value: Any, max_depth: int | None, numbers: bool) -> bool:
    """Whether ``find_bad`` finds nothing, a level at a time: every string and key
    searched at once, containers counted by depth, no path built."""
    level, depth, texts = [value], 0, []
    while level:
        below: list[Any] = []
        for item in level:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, (dict, list)):
                if max_depth is not None and depth >= max_depth:
                    return False
                if isinstance(item, dict):
                    if not all(isinstance(key, str) for key in item):
                        return False  # (not from JSON: the walk names it, or finds it harmless)
                    texts.extend(item)
                    below.extend(item.values())
                else:
                    below.extend(item)
            elif numbers and isinstance(item, float) and not math.isfinite(item):
                return False
        level, depth = below, depth + 1
    return not bad_text("".join(texts))


def too_deep(value: Any, max_depth: int) -> bool:
    """Whether ``value`` holds a container ``max_depth`` levels down (``find_bad``'s
    "depth", without naming where: a level at a time, no path built)."""
    level, depth = [value], 0  # the items ``depth`` levels down
    while True:
        containers = [v for v in level if isinstance(v, (dict, list))]
        if not containers:
            return False
        if depth >= max_depth:
            return True
        level = [c for v in containers for c in (v.values() if isinstance(v, dict) else v)]
        depth += 1


def _printable(key: str) -> str:
    return _BAD_TEXT.sub("\ufffd", key)


def text_error(field: str) -> InvalidInput:
    return InvalidInput(f"{field}: недопустимый символ (NUL или одиночный суррогат UTF-16).",
                        f"{field}: a character that is not allowed (NUL or a lone UTF-16 surrogate).",
                        field=field, code="invalid_text")


def depth_error(field: str, limit: int) -> InvalidInput:
    return InvalidInput(f"{field}: вложенность JSON глубже {limit} уровней.",
                        f"{field}: JSON nested deeper than {limit} levels.", field=field, code="too_deep")


def number_error(field: str) -> InvalidInput:
    return InvalidInput(f"{field}: число вне допустимого диапазона.", f"{field}: a number out of range.",
                        field=field, code="invalid_number")


def refuse_bad(value: Any, path: str = "", *, max_depth: int | None = None) -> None:
    """Raise ``InvalidInput`` naming the first bad string, number that is not
    finite or too-deep container: a request body as it is parsed."""
    found = find_bad(value, path, max_depth=max_depth, numbers=True)
    if found is None:
        return
    where, kind = found
    if kind == "depth":
        raise depth_error(where or "body", max_depth or 0)
    if kind == "number":
        raise number_error(where or "body")
    raise text_error(where or "body")


_DIGITS = re.compile(r"[0-9]{1,40}")
_INTEGER = re.compile(r"-?[0-9]{1,40}")


def ascii_int(text: Any) -> int | None:
    """``text`` as an integer when it is one written in ASCII digits alone (no
    sign, no space) up to ``MAX_INT``; None for anything else, a non-string
    included. The one reader of an integer (an id, a page, a sequence number)
    from a query string, a form field or a JSON object's key."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= MAX_INT else None


def int_param(request: Request | Any, name: str, default: int, *, lo: int = 0, hi: int | None = None) -> int:
    """A non-negative integer query parameter (paging: ``limit``, ``offset``,
    ``after``...): anything else, or a value outside ``lo..hi``, is a 400 naming it."""
    params = getattr(request, "query_params", None) or request.GET
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    hi = MAX_INT if hi is None else hi
    if not _INTEGER.fullmatch(raw):
        raise InvalidInput(f"{name}: ожидается целое число.", f"{name}: expected an integer.", field=name)
    value = ascii_int(raw)  # None: negative, or beyond MAX_INT
    if value is None or not lo <= value <= hi:
        raise _range_error(name, lo, hi)
    return value


def _range_error(name: str, lo: int, hi: int) -> InvalidInput:
    bound = f"{lo}..{hi}"
    return InvalidInput(f"{name}: допустимо {bound}.", f"{name}: must be {bound}.", field=name)


def json_object(request: Request) -> dict:
    """The request's JSON object; any other JSON value (a number, a list) is a 400 naming the body."""
    if not isinstance(request.data, dict):
        raise InvalidInput("body: ожидается JSON-объект.", "body: a JSON object is expected.", field="body")
    return request.data
