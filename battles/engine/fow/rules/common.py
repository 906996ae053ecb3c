"""Helpers shared by the FoW rule modules: looking pieces up, refusing with
a rule ID, distances in the battle's units, dice thresholds."""
from __future__ import annotations

from typing import Any, NoReturn

from battles.engine.dice import value
from battles.engine.errors import RuleViolation
from battles.engine.events import Context
from battles.engine.fow.state import FowState, Platoon, Team
from battles.engine.rules.core import require_running

UNIT_WORDS = {"in": ('"', '"'), "cm": (" см", " cm")}


def refuse(rule_id: str, ru: str, en: str) -> NoReturn:
    raise RuleViolation(rule_id, ru, en)


def team(state: FowState, tid: str) -> Team:
    t = state.teams.get(tid)
    if t is None:
        refuse("S-UNKNOWN", f"Отделения {tid!r} нет.", f"No team {tid!r}.")
    return t


def platoon(state: FowState, pid: str) -> Platoon:
    p = state.platoons.get(pid)
    if p is None:
        refuse("S-UNKNOWN", f"Взвода {pid!r} нет.", f"No platoon {pid!r}.")
    return p


def require_live(t: Team) -> None:
    if t.destroyed:
        refuse("S-DEAD", f"Отделение {t.id!r} уничтожено.", f"Team {t.id!r} is destroyed.")


def require_own_turn(state: FowState, side: str) -> None:
    """Structural: a side acts in its own turn (the FoW turn sequence is G-F1)."""
    require_running(state)
    if side != state.side_to_move:
        refuse("S-TURN", "Сейчас ход другой стороны.", "It is the other side's turn.")


def distance(ctx: Context, state: FowState, key: str) -> float:
    """A distance of the rules data in the battle's units (the seed gives both)."""
    return float(ctx.rules[key][state.measure])


def fmt(x: float, state: FowState) -> tuple[str, str]:
    ru, en = UNIT_WORDS.get(state.measure, ('"', '"'))
    n = f"{x:g}"
    return n + ru, n + en


def movement(ctx: Context, state: FowState, t: Team) -> float:
    """A team's Movement distance in the battle's units (G-F1: per-team data)."""
    if t.movement is not None:
        return float(t.movement)
    return float(ctx.rules["movement"].get(t.kind, ctx.rules["movement"]["infantry"])[state.measure])


def skill_min(ctx: Context, p: Platoon) -> int:
    return int(p.skill if p.skill is not None else ctx.rules["skill_test_min"])


def passes(die: Any, minimum: int) -> bool:
    """``N+`` on a d6: the face is N or more (G-F4)."""
    return value(die) >= minimum


__all__ = ["distance", "fmt", "movement", "passes", "platoon", "refuse", "require_live", "require_own_turn",
           "require_running", "skill_min", "team"]
