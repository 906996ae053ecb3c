"""Shtab's rules engine: pure Python, no Django.

Events in, state out: ``state = fold(events)``. ``decide`` gates appends.
Rules data (thresholds, distances, the missing infantry table) comes in as
the ``rules`` mapping; the engine never reads settings or the database.
Two rulesets live side by side (``rulesets.RULESETS``: "v11.2", the default,
and "fow"); every entry point takes ``ruleset=``.
"""
from typing import Any

import msgspec

from . import rules as _rules  # noqa: F401  (registers event types)
from .actors import POLICY as RECORDERS
from .actors import NotYours, authorize, recorder
from .dice import D6, Die, fill_rolls
from .errors import EngineError, PayloadError, RuleViolation
from .events import REGISTRY, Event, EventType, lookup, vocabulary
from .fold import DEFAULT_RULES, SequenceGap, decide, decide_and_apply, fold, parse_batch, requires_rebuild, voided_by
from .rules_data import PLACEHOLDERS, READINGS
from .rulesets import RULESETS, V11_ENGINE_VERSION, Ruleset
from .rulesets import get as ruleset_of
from .state import BattleState, census, dump, load, prisoners

ENGINE_VERSION = V11_ENGINE_VERSION  # the v11.2 engine's; ``engine_version(ruleset)`` for any


def engine_version(ruleset: Any = None) -> int:
    return ruleset_of(ruleset).engine_version


def new_state(ruleset: Any = None) -> Any:
    """An empty state of the ruleset (a ``BattleState`` for v11.2)."""
    return ruleset_of(ruleset).state_cls()


def state_to_json(state: Any) -> dict:
    return dump(state)


def state_to_json_text(state: Any) -> str:
    """``state_to_json`` as JSON text, written by msgspec at once (the projection's write: four times
    quicker than dumping the dict with ``json``)."""
    return msgspec.json.encode(state, order="deterministic").decode()


def state_from_json(data: dict | None, ruleset: Any = None) -> Any:
    cls = ruleset_of(ruleset).state_cls
    return cls() if not data else load(cls, data)


__all__ = [
    "RECORDERS", "NotYours", "authorize", "recorder", "RULESETS", "Ruleset", "ruleset_of", "engine_version",
    "new_state", "D6",
    "DEFAULT_RULES", "ENGINE_VERSION", "PLACEHOLDERS", "READINGS", "Die", "census", "fill_rolls", "prisoners", "REGISTRY", "BattleState", "EngineError", "Event", "EventType",
    "PayloadError", "RuleViolation", "SequenceGap", "decide", "decide_and_apply", "dump", "fold", "load", "lookup",
    "parse_batch",
    "requires_rebuild", "state_from_json", "state_to_json", "state_to_json_text", "vocabulary", "voided_by",
]
