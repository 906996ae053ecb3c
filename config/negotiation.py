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
_renderers: dict[tuple[Any, ...], tuple[int, str]] = {}
_parsers: dict[tuple[Any, ...], tuple[int, None]] = {}


def _keep(kept: dict[tuple[Any, ...], Any], key: tuple[Any, ...], choices: list[Any], chosen: Any,
          media_type: str | None = None) -> None:
    """Keep which of ``choices`` was ``chosen`` for ``key`` (nothing once ``KEEP`` are kept)."""
    if len(kept) < KEEP:
        kept[key] = (choices.index(chosen), media_type)


class CachedContentNegotiation(DefaultContentNegotiation):
    def select_parser(self, request: Any, parsers: list[Any]) -> Any:
        key = (request.content_type, *(type(p) for p in parsers))
        if key in _parsers:
            return parsers[_parsers[key][0]]
        parser = super().select_parser(request, parsers)
        if parser is not None:  # (none: a 415, answered anew each time)
            _keep(_parsers, key, parsers, parser)
        return parser

    def select_renderer(self, request: Any, renderers: list[Any], format_suffix: str | None = None) -> tuple[Any, str]:
        fmt = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        key = (request.META.get("HTTP_ACCEPT"), fmt, *(type(r) for r in renderers))
        if key in _renderers:
            index, media_type = _renderers[key]
            return renderers[index], media_type
        renderer, media_type = super().select_renderer(request, renderers, format_suffix)  # (a refusal raises)
        _keep(_renderers, key, renderers, renderer, media_type)
        return renderer, media_type
