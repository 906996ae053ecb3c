"""The FoW ruleset's own event registry and recorder policy.

Area modules register their event types with ``REGISTRY.event_type(...)``
and say who records each with ``POLICY[name] = Recorder(...)``.
"""
from __future__ import annotations

from typing import Any

from battles.engine.actors import UNKNOWN, Recorder

# Ruleset-neutral resolvers, shared with v11.2 (re-exported for the area modules).
from battles.engine.actors import _either as either  # noqa: F401
from battles.engine.actors import _game_master as game_master  # noqa: F401
from battles.engine.actors import _named_side as named_side  # noqa: F401
from battles.engine.events import new_registry

POLICY: dict[str, Recorder] = {}
# Actor types the side NOT to move may also record (the battle page offers them off turn);
# "either" and "opponent" types are offered off turn anyway.
OFF_TURN: set[str] = set()
REGISTRY = new_registry("fow", policy=lambda: POLICY)


def team_side(attr: str) -> Any:
    """The side of the team named by ``attr`` (a team id, or a list of them: the first)."""

    def resolve(state: Any, p: Any) -> str:
        tid = getattr(p, attr)
        if isinstance(tid, list):
            tid = tid[0] if tid else None
        t = state.teams.get(tid) if isinstance(tid, str) else None
        return t.side if t is not None else UNKNOWN

    return resolve


def platoon_side(attr: str) -> Any:
    def resolve(state: Any, p: Any) -> str:
        pl = state.platoons.get(getattr(p, attr))
        return pl.side if pl is not None else UNKNOWN

    return resolve


def subject_side(state: Any, p: Any) -> str:
    """A team's or a platoon's side (``p.subject``)."""
    t = state.teams.get(p.subject)
    if t is not None:
        return t.side
    pl = state.platoons.get(p.subject)
    return pl.side if pl is not None else UNKNOWN


__all__ = ["OFF_TURN", "POLICY", "REGISTRY", "Recorder", "either", "game_master", "named_side", "platoon_side",
           "subject_side", "team_side"]
