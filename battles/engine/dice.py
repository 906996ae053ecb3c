"""Dice with provenance: a d20 is either entered from the table or rolled by
the service with a secure random source. Replay never rolls; the service
fills rolls once, before append, with ``fill_rolls``.

All v11.2 bands are on a d20 and inclusive at both ends (V-TEST-1..10).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from .schema import _is_optional, hints

SIDES = 20


@dataclass(frozen=True, slots=True)
class Die:
    """One d20: its value and where it came from."""

    value: int = field(metadata={"min": 1, "max": SIDES, "doc": "The face rolled, 1..20"})
    source: Literal["entered", "rolled"] = field(metadata={"doc": "Entered from the table, or rolled by the service"})
    rng: str | None = field(default=None, metadata={"max_length": 40, "doc": "Random source of a rolled die"})


def value(die: Any) -> int:
    """The face of a die (a ``Die`` at append time, a dict in a raw payload)."""
    try:
        return die.value  # a Die at append time, its replay twin at replay
    except AttributeError:
        return int(die["value"])


def _fill(tp: Any, data: Any, roll: Callable[[int], int]) -> Any:
    _opt, tp = _is_optional(tp)
    if data is None:
        return None
    if tp is Die:
        if isinstance(data, dict) and data.get("source") == "rolled" and "value" not in data:
            return {**data, "value": roll(SIDES), "rng": "secrets"}
        return data
    origin = get_origin(tp)
    if origin is list and isinstance(data, list):
        (item,) = get_args(tp)
        return [_fill(item, v, roll) for v in data]
    if origin is dict and isinstance(data, dict):
        _k, item = get_args(tp)
        return {k: _fill(item, v, roll) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and isinstance(data, dict):
        tps = hints(tp)
        return {k: (_fill(tps[k], v, roll) if k in tps else v) for k, v in data.items()}
    return data


def fill_rolls(type_name: str, data: Any, roll: Callable[[int], int]) -> Any:
    """Return a copy of the client payload ``data`` of event type ``type_name``
    in which every die given as ``{"source": "rolled"}`` without a value gets
    ``roll(20)`` and ``rng = "secrets"``. Entered dice and unknown types are
    left alone (validation reports them later). Pure: ``data`` is not changed."""
    from .events import REGISTRY

    entry = REGISTRY.get(type_name) if isinstance(type_name, str) else None
    if entry is None or not isinstance(data, dict):
        return data
    return _fill(entry.payload, data, roll)


__all__ = ["Die", "fill_rolls", "value"]
