"""Rulesets: which engine a battle's log is replayed by.

A campaign chooses its ruleset (``Campaign.ruleset``); each is a package of
rules side by side under ``battles/engine/`` with its own event registry,
state class, default rules data, engine version and recorder policy. They
share the log's envelope (``events.Event``), the fold and the append-time
gate (``fold``), dice provenance (``dice``), the game master's ``correction``
and the refusal shape (``RuleViolation`` with a rule ID, in Russian and
English). Everything that takes ``ruleset=`` accepts a code or a
``Ruleset``; None means v11.2, so callers written before FoW are unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import fow
from . import rules as _v11_rules  # noqa: F401  (registers the v11.2 event types)
from .actors import OFF_TURN as V11_OFF_TURN
from .actors import POLICY as V11_POLICY
from .actors import SETUP as V11_SETUP
from .errors import PayloadError
from .events import REGISTRY, Registry
from .fold import DEFAULT_RULES as V11_DEFAULTS
from .rules_data import PLACEHOLDERS as V11_PLACEHOLDERS
from .rules_data import READINGS as V11_READINGS
from .state import BattleState

V11_ENGINE_VERSION = 7  # bump when replay of the same v11.2 log would give a different state
DEFAULT = "v11.2"


@dataclass(frozen=True, eq=False)
class Ruleset:
    code: str
    title_ru: str
    title_en: str
    registry: Registry
    state_cls: type
    default_rules: dict[str, Any]
    engine_version: int
    policy: dict[str, Any]
    placeholders: dict[str, str]
    readings: dict[str, str]
    docs_file: str
    off_turn: frozenset[str] = frozenset()  # the types the side not to move may record (the page offers them)
    setup: tuple[str, ...] = ("force_mustered", "battle_started")  # set before the battle, by the game master

    def new_state(self) -> Any:
        return self.state_cls()


RULESETS: dict[str, Ruleset] = {
    "v11.2": Ruleset("v11.2", "Правила клуба v11.2", "Club rules v11.2", REGISTRY, BattleState, V11_DEFAULTS,
                     V11_ENGINE_VERSION, V11_POLICY, V11_PLACEHOLDERS, V11_READINGS, "docs/events.md",
                     V11_OFF_TURN, V11_SETUP),
    # FoW: what either side or the opponent records, and the actor types its rules hand to the side not moving.
    "fow": Ruleset("fow", "Flames of War", "Flames of War", fow.REGISTRY, fow.FowState, fow.DEFAULT_RULES,
                   fow.ENGINE_VERSION, fow.POLICY, fow.PLACEHOLDERS, fow.READINGS, "docs/events-fow.md",
                   frozenset(fow.OFF_TURN) | {t for t, r in fow.POLICY.items() if r.kind in ("either", "opponent")}),
}


def get(ruleset: Any = None) -> Ruleset:
    """The ``Ruleset`` for a code (None: v11.2); a ``PayloadError`` on ``ruleset`` for an unknown code."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    rs = RULESETS.get(DEFAULT if ruleset is None else ruleset) if isinstance(ruleset, (str, type(None))) else None
    if rs is None:
        known = ", ".join(RULESETS)
        raise PayloadError("ruleset", f"ruleset: неизвестные правила {ruleset!r} (есть {known})",
                           f"ruleset: unknown ruleset {ruleset!r} (known: {known})")
    return rs


__all__ = ["DEFAULT", "RULESETS", "Ruleset", "get"]
