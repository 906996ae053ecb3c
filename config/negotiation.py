"""DRF's content negotiation, its choices kept per header (named in
``REST_FRAMEWORK["DEFAULT_CONTENT_NEGOTIATION_CLASS"]``).

DRF parses the ``Accept`` header and matches it against every renderer for
every request, and the ``Content-Type`` against every parser: 30-40 µs, a
twentieth of a single-event append's CPU. Clients send the same few headers
all evening, so the renderer chosen for an ``Accept``, a ``?format=`` and a
view's renderers is kept, and so is the parser chosen for a ``Content-Type``
and a view's parsers (each for at most ``KEEP`` such combinations a process;
beyond them DRF chooses every time). A refusal (406, an unknown format's 404,
no parser: 415) is never kept: DRF answers it anew.
"""
from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation

KEEP = 256
_chosen: dict[tuple[Any, ...], tuple[int, str]] = {}
_parsers: dict[tuple[Any, ...], int] = {}


class CachedContentNegotiation(DefaultContentNegotiation):
    def select_parser(self, request: Any, parsers: list[Any]) -> Any:
        key = (request.content_type, *(type(p) for p in parsers))
        kept = _parsers.get(key)
        if kept is not None:
            return parsers[kept]
        parser = super().select_parser(request, parsers)
        if parser is not None and len(_parsers) < KEEP:
            _parsers[key] = next(i for i, p in enumerate(parsers) if p is parser)
        return parser

    def select_renderer(self, request: Any, renderers: list[Any], format_suffix: str | None = None) -> tuple[Any, str]:
        fmt = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        key = (request.META.get("HTTP_ACCEPT"), fmt, *(type(r) for r in renderers))
        kept = _chosen.get(key)
        if kept is not None:
            return renderers[kept[0]], kept[1]
        renderer, media_type = super().select_renderer(request, renderers, format_suffix)
        if len(_chosen) < KEEP:
            _chosen[key] = (next(i for i, r in enumerate(renderers) if r is renderer), media_type)
        return renderer, media_type
