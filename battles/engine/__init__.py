"""Shtab's rules engine: pure Python, no Django.

Events in, state out: ``state = fold(events)``. ``decide`` gates appends.
Rules data (thresholds, distances, the missing infantry table) comes in as
the ``rules`` mapping; the engine never reads settings or the database.
"""
from . import rules as _rules  # noqa: F401  (registers event types)
from .actors import POLICY as RECORDERS
from .actors import NotYours, authorize, recorder
from .dice import Die, fill_rolls
from .errors import EngineError, PayloadError, RuleViolation
from .events import REGISTRY, Event, EventType, lookup, vocabulary
from .fold import DEFAULT_RULES, SequenceGap, decide, decide_and_apply, fold, requires_rebuild, voided_by
from .rules_data import PLACEHOLDERS, READINGS
from .state import BattleState, census, dump, load, prisoners

ENGINE_VERSION = 3  # bump when replay of the same log would give a different state


def state_to_json(state: BattleState) -> dict:
    return dump(state)


def state_from_json(data: dict | None) -> BattleState:
    return BattleState() if not data else load(BattleState, data)


__all__ = [
    "RECORDERS", "NotYours", "authorize", "recorder",
    "DEFAULT_RULES", "ENGINE_VERSION", "PLACEHOLDERS", "READINGS", "Die", "census", "fill_rolls", "prisoners", "REGISTRY", "BattleState", "EngineError", "Event", "EventType",
    "PayloadError", "RuleViolation", "SequenceGap", "decide", "decide_and_apply", "dump", "fold", "load", "lookup",
    "requires_rebuild", "state_from_json", "state_to_json", "vocabulary", "voided_by",
]
