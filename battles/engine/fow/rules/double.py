"""Moving At the Double (seed 001, rulebook p. 51; catalog F-DBL).

A team At the Double moves twice its distance (F-DBL-1, examples F-DBL-12/13),
by the most direct route (F-DBL-2), turning only for Difficult Terrain, a Road
or to keep 8"/20 cm from the enemy (F-DBL-3), ending facing its way (F-DBL-4),
never through Difficult Terrain (F-DBL-5) nor closer than 8"/20 cm to the enemy
(F-DBL-6), never from a Pinned Down platoon (F-DBL-7, reading), and does nothing
else that turn (F-DBL-8; its platoon's other teams are free, F-DBL-9). Teams
shooting at it roll twice the dice (F-DBL-10), artillery and aircraft excepted
(F-DBL-11).
"""
from __future__ import annotations

from typing import Any

from battles.engine.events import Context
from battles.engine.fow.state import FowState, Team

from .actions import DICE_MODIFIERS, ON_MOVE, TeamMoved, assault_launched, team_moved, team_shot
from .common import distance, fmt, movement, refuse, team


def _no_other_action(t: Team, state: FowState, what_ru: str, what_en: str) -> None:
    """F-DBL-8 (only this team: F-DBL-9 leaves its platoon's other teams free)."""
    if t.double_ply == state.ply:
        refuse("F-DBL-8", f"Отделение двигалось С Удвоенной Скоростью и больше не может {what_ru} в этот ход.",
               f"The team moved At the Double and may not {what_en} this turn.")


@team_moved.check
def _check_double(state: FowState, p: TeamMoved, ctx: Context) -> None:
    t = team(state, p.team)
    _no_other_action(t, state, "двигаться", "move further")
    if not p.at_the_double:
        return
    pl = state.platoons.get(t.platoon)
    if pl is not None and pl.pinned:
        refuse("F-DBL-7", "Взвод Прижат Огнём: его отделения не могут двигаться С Удвоенной Скоростью.",
               "The platoon is Pinned Down: its teams cannot move At the Double.")
    limit = movement(ctx, state, t) * ctx.rules["double_factor"]
    if p.distance > limit:
        ru, en = fmt(limit, state)
        refuse("F-DBL-1", f"С Удвоенной Скоростью отделение двигается не дальше {ru} (вдвое дальше обычного).",
               f"At the Double the team moves at most {en} (twice its normal distance).")
    if p.difficult_terrain:
        refuse("F-DBL-5", "С Удвоенной Скоростью нельзя двигаться через Труднопроходимую Местность.",
               "A team may not move At the Double through Difficult Terrain.")
    near = distance(ctx, state, "double_enemy_min")
    if p.closest_enemy is not None and p.closest_enemy < near:
        ru, en = fmt(near, state)
        refuse("F-DBL-6", f"С Удвоенной Скоростью нельзя приближаться к врагу ближе, чем на {ru}.",
               f"At the Double a team may not come closer than {en} to the enemy.")
    if not p.direct_route:
        refuse("F-DBL-2", "С Удвоенной Скоростью двигаются по как можно более прямому пути.",
               "At the Double a team follows the most direct route possible.")
    if "other" in p.turned_for:
        refuse("F-DBL-3", "С Удвоенной Скоростью поворачивают только из-за Труднопроходимой Местности, Дороги или врага.",
               "At the Double a team turns only for Difficult Terrain, a Road or the enemy.")
    if not p.facing_travel:
        refuse("F-DBL-4", "Отделение оканчивает движение фронтом по направлению движения.",
               "The team must end its move facing the direction of movement.")


def _mark_double(state: FowState, p: Any, ctx: Context) -> None:
    if p.at_the_double:
        state.teams[p.team].double_ply = state.ply


ON_MOVE.append(_mark_double)


@team_shot.check
def _check_shooter(state: FowState, p: Any, ctx: Context) -> None:
    _no_other_action(team(state, p.shooter), state, "стрелять", "shoot")


@assault_launched.check
def _check_assaulter(state: FowState, p: Any, ctx: Context) -> None:
    for tid in p.teams:
        _no_other_action(team(state, tid), state, "атаковать в ближнем бою", "launch an assault")


def _doubled(state: FowState, p: Any, shooter: Team, target: Team, n: int) -> tuple[int, str | None]:
    """F-DBL-10: twice the dice at a team that moved At the Double in its last
    turn (the turn before the shooter's); F-DBL-11: not for artillery or aircraft."""
    if target.double_ply < 0 or target.double_ply != state.ply - 1:
        return n, None
    if p.kind != "direct":
        return n, "F-DBL-11"
    return n * 2, "F-DBL-10"


DICE_MODIFIERS.append(_doubled)
