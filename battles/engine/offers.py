"""What each of a side's pieces can do now (v11.2): the table guides, the engine decides.

The battle page offers a unit, fighter or vehicle with its move allowance and
fire distance for its class and posture, what it has already done this turn,
and each enemy fighter with his defence. The numbers come from the same
helpers the checks use (``posture_of``, ``class_fire_distance``, the fire
rules' ``_max_distance`` and ``_defence``, the rules data), so what the page
offers is what the engine then accepts: a dug-in unit is not offered a move
(V-TURN-10, G-4), a fighter who has used his shots this turn is not offered a
shot (G-7), a wounded one neither (V-MED-3).

Pure: the engine's state in, plain dicts out, no Django.
"""
from __future__ import annotations

from typing import Any

from .errors import RuleViolation
from .events import Context, EventType
from .rules.common import posture_of, require_able
from .rules.fire import (
    Fire,
    Struck,
    _defence,
    _max_distance,
    class_fire_distance,
    exposed_to_fire,
    own_weapon,
    shots_per_turn,
    sorties_flown,
)
from .rules.movement import VehicleMoved, vehicle_moved
from .state import BattleState, Fighter

WEAPON_BY_CLASS = {
    "sniper": "sniper_rifle", "lmg_gunner": "lmg", "hmg_gunner": "hmg", "flamethrower": "flamethrower",
    "at_grenadier": "at_grenade_launcher", "at_rifleman": "at_rifle",
}


def main_weapon(f: Fighter) -> str:
    """A fighter's own small arm (the one his class's row of the infantry table speaks of, G-3)."""
    weapon = WEAPON_BY_CLASS.get(f.cls, "rifle")
    return weapon if own_weapon(f, weapon) else "rifle"


def phase_open(state: BattleState, phase: str) -> bool:
    """Whether the side to move may still act in ``phase`` (``require_phase``: postures first, V-TURN-9;
    no movement after fire, V-TURN-10..11)."""
    order = {"posture": 0, "move": 1, "fire": 2}
    return state.postures_ply == state.ply and order[state.phase] <= order[phase]


def _fit(state: BattleState, f: Fighter, rules: dict[str, Any]) -> bool:
    return not (f.dead or f.captured or (f.wounded and not rules["wounded_may_act"]))


def fighter_offer(state: BattleState, f: Fighter, rules: dict[str, Any]) -> dict[str, Any]:
    """``move``: inches he may walk now (0: he may not, V-TURN-10 / G-4); ``fire``: his weapon's reach
    (None: no limit on the table) or absent when he may not fire; ``moved``/``fired``: this turn."""
    posture = posture_of(state, f)
    row = rules["postures"][posture]
    fit = _fit(state, f, rules)
    out: dict[str, Any] = {"posture": posture, "moved": f.moved_ply == state.ply,
                           "fired": f.shot_ply == state.ply and f.shots > 0}
    out["move"] = float(row["move"]) if fit and not f.aboard and phase_open(state, "move") else 0.0
    weapon = main_weapon(f)
    shots_left = shots_per_turn(weapon, rules) - (f.shots if f.shot_ply == state.ply else 0)
    can_fire = (fit and row["fire"] and shots_left > 0 and f.recovering_ply != state.ply and not f.aboard
                and phase_open(state, "fire"))
    by_class, distance = class_fire_distance(state, f, weapon, rules)
    if can_fire and not (by_class and distance is None):  # V-CMD-11: the class's row may bar this posture
        # the reach, None where the table sets no limit
        out["fire"] = _max_distance(state, f, Fire(shooter=f.id, weapon=weapon, target="fighters", distance=0), rules)
        out["weapon"], out["shots_left"] = weapon, shots_left
    return out


def targets(state: BattleState, side: str) -> list[str]:
    """The enemy fighters a shot of ``side`` may strike now: living, free and exposed to fire (a vehicle's
    crew and its passengers who have not fired are not, V-TRANS-7)."""
    return [fid for fid, f in state.fighters.items()
            if f.side != side and not f.dead and not f.captured and exposed_to_fire(state, f)]


def vehicle_may_fire(state: BattleState, vid: str, rules: dict[str, Any]) -> bool:
    """Whether the side to move's vehicle ``vid`` may fire now: the turn's fire phase is open, its shots of
    the turn are not used (G-7; an aircraft's sorties, V-CORR-2), and it is whole with the crew firing
    needs (two, one of them an officer: V-CREW-4, V-CREW-5; V-VDMG-4, V-FLAME-4), by the check itself."""
    v = state.vehicles[vid]
    if v.side != state.side_to_move or not phase_open(state, "fire"):
        return False
    if v.shot_ply == state.ply and v.shots >= shots_per_turn(v.weapon, rules):  # G-7
        return False
    if sorties_flown(v, rules):  # V-CORR-2
        return False
    try:
        require_able(state, None, v, rules, to_fire=True)
    except RuleViolation:
        return False
    return True


def taken_now(state: BattleState, kind: EventType[Any], payload: Any, rules: dict[str, Any]) -> bool:
    """Whether the event type's own checks take ``payload`` now: the engine asked, not told again here
    (checks only read the state)."""
    ctx = Context(state.last_seq + 1, rules)
    try:
        for check in kind.checks:
            check(state, payload, ctx)
    except RuleViolation:
        return False
    return True


def vehicle_may_move(state: BattleState, vid: str, rules: dict[str, Any]) -> bool:
    """Whether the side to move's vehicle ``vid`` may move now: a move of no distance put to the move's own
    checks (its phase, V-TURN-10: not after the side fired; V-VDMG-6, V-TRANS-4, V-CREW-4, V-FLAME-4)."""
    v = state.vehicles[vid]
    return (v.side == state.side_to_move and v.kind != "aircraft"
            and taken_now(state, vehicle_moved, VehicleMoved(vehicle=vid, distance=0.0), rules))


def defence(state: BattleState, f: Fighter, rules: dict[str, Any]) -> int:
    """What a shot at ``f`` must beat in G-2 beyond its die (class, posture, house or pillbox)."""
    return _defence(state, f, Struck(fighter=f.id), rules)


def side_offers(state: BattleState, side: str, rules: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every living, free fighter of ``side`` and every unit of it with what it can do now. A unit moves
    as far as its slowest fit fighter on foot; it has moved or fired when any of its fighters has."""
    fighters = {fid: fighter_offer(state, f, rules) for fid, f in state.fighters.items()
                if f.side == side and not f.dead and not f.captured}
    out: dict[str, dict[str, Any]] = dict(fighters)
    for uid, u in state.units.items():
        if u.side != side:
            continue
        members = [fid for fid, f in state.fighters.items() if f.unit == uid and fid in fighters
                   and _fit(state, f, rules) and not f.aboard]
        if not members:
            continue
        out[uid] = {"posture": u.posture, "move": min(fighters[m]["move"] for m in members),
                    "moved": any(fighters[m]["moved"] for m in members),
                    "fired": any(fighters[m]["fired"] for m in members), "fighters": members}
    return out
