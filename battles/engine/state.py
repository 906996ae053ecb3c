"""Battle state: what the log folds into.

Plain dataclasses, mutated only by the mutators in ``rules/`` during a fold
(``fold`` works on its own copy, so callers never see their input change).
``dump``/``load`` map state to canonical JSON-ready dicts for the projection
table; dumping is deterministic so a rebuild yields identical bytes.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Union, get_args, get_origin

SIDES = ("attacker", "defender")


@dataclass(slots=True)
class TurnRecord:
    """One side's turn: who moved and which seqs it spans (for the battle report)."""

    number: int
    side: str
    first_seq: int
    last_seq: int = 0


@dataclass(slots=True)
class BattleState:
    ruleset: str = "v11.2"
    status: str = "planned"  # planned | running | ended
    attacker: str = ""
    defender: str = ""
    first_mover: str = "defender"
    turn: int = 0
    side_to_move: str | None = None
    winner: str | None = None  # attacker | defender | draw
    end_reason: str = ""
    last_seq: int = 0
    applied: int = 0
    voided: list[int] = field(default_factory=list)
    corrections: list[int] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)

    def copy(self) -> BattleState:
        return load(BattleState, dump(self))


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        h = _HINTS[cls] = typing.get_type_hints(cls)
    return h


def dump(obj: Any) -> Any:
    """Canonical JSON-ready form: dataclasses become dicts, dict keys sorted."""
    if dataclasses.is_dataclass(obj):
        return {f.name: dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): dump(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [dump(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(dump(v) for v in obj)
    return obj


def _load_value(tp: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        return _load_value(args[0], value) if len(args) == 1 else value
    if origin is list:
        (item,) = get_args(tp)
        return [_load_value(item, v) for v in value]
    if origin is dict:
        _k, v_tp = get_args(tp)
        return {k: _load_value(v_tp, v) for k, v in value.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return load(tp, value)
    return value


def load(cls: type, data: dict[str, Any]) -> Any:
    """Inverse of ``dump``; unknown keys are ignored, missing ones take defaults
    (a projection written by an older engine still loads)."""
    tps = _hints(cls)
    kwargs = {f.name: _load_value(tps[f.name], data[f.name]) for f in dataclasses.fields(cls) if f.name in data}
    return cls(**kwargs)
