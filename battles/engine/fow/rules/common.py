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


# The Steps of a player turn, in order (G-F1: the turn sequence is a core rule the pages name but do not
# contain; reading in docs/events-fow.md). ``FowState.step`` is the side to move's current Step.
STEPS = ("movement", "shooting", "assault")
STEP_WORDS = {"movement": ("Шаг Движения", "Movement Step"), "shooting": ("Шаг Стрельбы", "Shooting Step"),
              "assault": ("Шаг Ближнего Боя", "Assault Step")}
_STEP_IN_RU = {"movement": "в Шаге Движения", "shooting": "в Шаге Стрельбы", "assault": "в Шаге Ближнего Боя"}


def step_index(step: str) -> int:
    return STEPS.index(step) if step in STEPS else 0


def require_step(state: FowState, step: str, rule: str, what_ru: str, what_en: str) -> None:
    """Refuse an act of ``step`` once a later Step of this turn has begun: the Steps come in order and
    none is gone back to. ``rule`` is the clause that puts the act in its Step (G-F1 where none does)."""
    if step_index(state.step) > step_index(step):
        en = STEP_WORDS[step][1]
        now_ru, now_en = STEP_WORDS[state.step]
        refuse(rule, f"{what_ru} — {_STEP_IN_RU[step]}, а уже идёт {now_ru}: к прошедшему Шагу не возвращаются.",
               f"{what_en} belongs to the {en}, and the {now_en} has begun: a Step past is not gone back to.")


def enter_step(state: FowState, step: str) -> None:
    """A mutator's first act of ``step`` begins it (never goes back: the check refused that)."""
    if step_index(step) > step_index(state.step):
        state.step = step


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


__all__ = ["STEPS", "STEP_WORDS", "distance", "enter_step", "fmt", "movement", "passes", "platoon", "refuse", "require_live", "require_own_turn",
           "require_running", "require_step", "step_index", "skill_min", "team"]
