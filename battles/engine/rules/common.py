"""Helpers shared by the rule modules: lookups that refuse unknown ids, the
"may this fighter act" checks, d20 bands and the wounding/killing mutations
with their credits. Each refusal names a catalog rule (or an S- code)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.dice import value
from battles.engine.errors import RuleViolation
from battles.engine.state import BattleState, Credit, Fighter, Vehicle

RANKS = ("corporal", "sergeant", "lieutenant", "captain")
RANK_ORDER = {r: i for i, r in enumerate(RANKS, 1)}
OPPOSITE = {"attacker": "defender", "defender": "attacker"}
# Sides as people read them in refusals (never the raw key).
SIDE_RU = {"attacker": "атакующие", "defender": "обороняющиеся"}
SIDE_EN = {"attacker": "the attacker", "defender": "the defender"}


def side_ru(side: str | None) -> str:
    return SIDE_RU.get(side or "", "никто")


def side_en(side: str | None) -> str:
    return SIDE_EN.get(side or "", "nobody")


def refuse(rule: str, ru: str, en: str) -> RuleViolation:
    return RuleViolation(rule, ru, en)


def fighter(state: BattleState, fid: str) -> Fighter:
    f = state.fighters.get(fid)
    if f is None:
        raise refuse("S-UNKNOWN", f"Боец {fid!r} не найден.", f"No fighter {fid!r}.")
    return f


def vehicle(state: BattleState, vid: str) -> Vehicle:
    v = state.vehicles.get(vid)
    if v is None:
        raise refuse("S-UNKNOWN", f"Техника {vid!r} не найдена.", f"No vehicle {vid!r}.")
    return v


def require_own_turn(state: BattleState, side: str) -> None:
    if state.side_to_move != side:
        raise refuse("V-TURN-12", f"Сейчас ходят {side_ru(state.side_to_move)}, а не {side_ru(side)}.",
                     f"It is {side_en(state.side_to_move)}'s turn, not {side_en(side)}'s.")


def require_alive(f: Fighter) -> None:
    """The dead and the captured never act (V-POW-6)."""
    if f.dead:
        raise refuse("S-DEAD", f"Боец {f.id} погиб и не может действовать.", f"Fighter {f.id} is dead and cannot act.")
    if f.captured:
        raise refuse("V-POW-6", f"Боец {f.id} в плену: пленного нельзя отправлять в бой.",
                     f"Fighter {f.id} is a prisoner and may not be sent into combat.")


def require_fit(state: BattleState, f: Fighter, rules: dict[str, Any], *, moving: bool = False) -> None:
    """Alive, free, not wounded; a fighter recovering this turn may only move (V-MED-5)."""
    require_alive(f)
    if f.wounded and not rules["wounded_may_act"]:
        raise refuse("V-MED-3", f"Боец {f.id} ранен: он действует только после успешного теста на ранение.",
                     f"Fighter {f.id} is wounded: he acts only after passing his wound test.")
    if not moving and f.recovering_ply == state.ply:
        raise refuse("V-MED-5", f"Боец {f.id} выздоровел в этот ход и может только передвигаться.",
                     f"Fighter {f.id} recovered this turn and may only move.")


def require_crew(state: BattleState, vid: str, *, to_fire: bool) -> None:
    """V-CREW-3..5 and V-FLAME-4. A vehicle with no crew at all breaks the
    rule of what it was asked to do: moving needs one crewman (V-CREW-4, read
    with V-CREW-3), firing two with an officer (V-CREW-5)."""
    v = state.vehicles[vid]
    crew = [state.fighters[c] for c in v.crew if not state.fighters[c].dead and not state.fighters[c].captured]
    if v.captured and v.crew_flamed_turn and not any(c.cls == "personnel" for c in crew):
        raise refuse("V-FLAME-4", f"Захваченной технике {vid} нужны бойцы категории «персонал».",
                     f"Captured vehicle {vid} needs personnel aboard to move or fire.")
    if v.kind == "aircraft":
        return
    if not crew:
        if to_fire:
            raise refuse("V-CREW-5", f"У техники {vid} нет экипажа: для огня нужны двое, один из них офицер.",
                         f"Vehicle {vid} has no crew: firing needs two, one of them an officer.")
        raise refuse("V-CREW-4", f"У техники {vid} нет экипажа.", f"Vehicle {vid} has no crew.")
    if to_fire:
        if len(crew) < 2:
            raise refuse("V-CREW-4", f"С одним членом экипажа {vid} может только передвигаться.",
                         f"With one crew member, {vid} may only move, not fire.")
        if not any(is_officer(c) for c in crew):
            raise refuse("V-CREW-5", f"Для огня {vid} нужен офицер в экипаже.",
                         f"To fire, {vid} needs an officer among its crew.")


def require_able(state: BattleState, f: Fighter | None, v: Vehicle | None, rules: dict[str, Any], *,
                 to_fire: bool = False, moving: bool = False) -> None:
    """The actor's own status, checked before turn order, phase and targets so
    that a refusal cites the rule the actor breaks: a fighter dead (S-DEAD),
    captured (V-POW-6), wounded (V-MED-3) or just recovered (V-MED-5); a
    vehicle destroyed or driven off (V-VDMG-4) or without the crew the act
    needs (V-CREW-4, V-CREW-5, V-FLAME-4)."""
    if f is not None:
        require_fit(state, f, rules, moving=moving)
    if v is not None:
        if v.destroyed or v.driven_off:
            raise refuse("V-VDMG-4", f"{v.id} уничтожена.", f"{v.id} is destroyed.")
        require_crew(state, v.id, to_fire=to_fire)


def grenade_min(rules: dict[str, Any]) -> int:
    """G-11: a thrown grenade succeeds from the grenade test's 13 (V-TEST-2), or,
    if the game master sets ``grenade_test`` off, from the hit test's 11 (V-TEST-1)."""
    return rules["grenade_success_min"] if rules["grenade_test"] else rules["test_success_min"]


def success(die: Any, rules: dict[str, Any]) -> bool:
    """V-TEST-1: 1-10 fail, 11-20 success."""
    return value(die) >= rules["test_success_min"]


def is_officer(f: Fighter) -> bool:
    return f.rank in RANK_ORDER


def posture_of(state: BattleState, f: Fighter) -> str:
    """A fighter's posture: his own (sniper, officer outside a unit, set on
    disembarking) or his unit's (V-OFF-5, V-SNIP-1)."""
    unit = state.units.get(f.unit)
    if f.posture and (unit is None or f.cls == "sniper" or f.posture_ply >= unit.posture_ply):
        return f.posture  # a posture set on disembarking lasts until the unit's next declaration
    return unit.posture if unit is not None else "dug_in"


def in_command(f: Fighter | None) -> bool:
    """An officer who can command: alive and free (V-POW-6)."""
    return f is not None and not f.dead and not f.captured and is_officer(f)


def unit_commander(state: BattleState, uid: str) -> Fighter | None:
    """Who commands unit ``uid``: its commander while he is alive, free and
    with the unit; else nobody. The one answer for every rule that asks (who
    orders whom, V-OFF-2..4; the captain's distance, V-CMD-5, V-CMD-6; a fire
    team's own posture, V-SQUAD-4; radio links, V-MOTOR-8, V-VEH-9)."""
    u = state.units.get(uid)
    cmd = state.fighters.get(u.commander) if u is not None else None
    if not in_command(cmd) or cmd.unit != uid:  # type: ignore[union-attr]
        return None
    return cmd


def commanded_by_officers(state: BattleState, o: Fighter, uid: str) -> bool:
    """V-CMD-5, V-CMD-6: officer ``o`` commands unit ``uid`` through a
    subordinate officer (a living, free sergeant or lieutenant leads it and
    ``o`` is not of the unit); else he commands its rank and file directly."""
    cmd = unit_commander(state, uid)
    return cmd is not None and cmd.id != o.id and cmd.rank in ("sergeant", "lieutenant") and o.unit != uid


def command_distance(f: Fighter, rules: dict[str, Any], *, over_officers: bool) -> float:
    """V-CMD-2..6: a captain's 24 in applies only over officers. Only officers
    (``is_officer``) are asked, and ``merge_rules`` keeps every rank's row of the
    table, so there is no default to fall back on."""
    if f.rank == "captain" and not over_officers:
        return rules["captain_over_rank_and_file"]
    return rules["command_distance"][f.rank]


def class_entry(table: Mapping[str, Any], f: Fighter, default: Any = None) -> Any:
    """``f``'s entry in a per-class table of the infantry table (G-1, G-3):
    the rank-specific key ``"<class>:<rank>"`` first (corporal..captain are
    separate rows of the table but one engine class, ``officer``), then the
    class, then ``default``."""
    if f.rank:
        key = f"{f.cls}:{f.rank}"
        if key in table:
            return table[key]
    return table.get(f.cls, default)


def observation_distance(f: Fighter, rules: dict[str, Any], *, on_height: bool = False) -> float:
    """V-CMD-9 (G-1; an officer's rank row first), V-SCOUT-2 (the scout's
    fixed distance, ``scout_observation``), V-TERR-9 (+4 in on a height)."""
    if f.cls == "scout":
        return rules["scout_observation"] + (rules["height_bonus"] if on_height and rules["scout_height_bonus"] else 0.0)
    base = class_entry(rules["observation_distance"], f)
    if base is None:  # no hidden fallback: the rules data must name every class's distance
        raise refuse("S-RULES", f"В данных правил нет дистанции наблюдения (observation_distance) для класса {f.cls}.",
                     f"The rules data give no observation distance (observation_distance) for class {f.cls}.")
    return base + (rules["height_bonus"] if on_height else 0.0)


def damage_reserve(v: Vehicle, rules: dict[str, Any]) -> int:
    """A tank's damage reserve is seed text (V-VDMG-4: 1); every other vehicle
    and artillery piece has the placeholder ``non_tank_reserve`` (G-26)."""
    return rules["vehicle_reserve"] if v.kind == "tank" else rules["non_tank_reserve"]


def credit_of(state: BattleState, f: Fighter | None) -> list[Credit]:
    if f is None:
        return []
    out = [f.credit]
    if f.character:
        c = state.characters.get(f.character)
        if c is None:
            c = state.characters[f.character] = Credit()
        out.append(c)
    return out


def vehicle_commander(state: BattleState, v: Vehicle) -> Fighter | None:
    for fid in v.crew:
        f = state.fighters.get(fid)
        if in_command(f):
            return f
    return None


def credited(state: BattleState, by: str) -> Fighter | None:
    """The fighter credited with an act by ``by`` (a fighter, or a vehicle's commander)."""
    f = state.fighters.get(by)
    if f is not None:
        return f
    v = state.vehicles.get(by)
    return vehicle_commander(state, v) if v is not None else None


def kill(state: BattleState, f: Fighter, by: Fighter | None) -> None:
    if f.dead:
        return
    f.dead = True
    for c in credit_of(state, by):
        c.kills += 1
    for c in credit_of(state, f):
        c.killed += 1


def wound(state: BattleState, f: Fighter, by: Fighter | None, rules: dict[str, Any]) -> None:
    """V-MED-1: two wounds in one turn kill; G-10: a wounded fighter wounded
    again in a later turn is killed too (rules data)."""
    if f.dead:
        return
    if f.wounded and (f.wounded_turn == state.turn or rules["wounded_again_later_killed"]):
        kill(state, f, by)
        return
    f.wounded = True
    f.wounded_turn = state.turn
    f.wounded_ply = state.ply
    f.recovering_ply = -1
    for c in credit_of(state, by):
        c.wounds += 1
    for c in credit_of(state, f):
        c.wounded += 1


def capture(state: BattleState, f: Fighter, side: str, unit: str, by: Fighter | None) -> None:
    if f.dead or f.captured:
        return
    f.captured = True
    f.captor_side = side
    f.captor_unit = unit
    for c in credit_of(state, by):
        c.prisoners_taken += 1
    for c in credit_of(state, f):
        c.captured += 1


def destroy_vehicle(state: BattleState, v: Vehicle, by: Fighter | None) -> None:
    """V-CREW-6: everyone inside and on the armour is killed."""
    if v.destroyed:
        return
    v.destroyed = True
    for c in credit_of(state, by):
        c.vehicles_destroyed += 1
    for c in credit_of(state, vehicle_commander(state, v)):
        c.vehicles_lost += 1
    for fid in (*v.crew, *v.passengers, *v.riders):
        f = state.fighters.get(fid)
        if f is not None and not f.captured:
            kill(state, f, by)


def enemy(a: str, b: str) -> bool:
    return OPPOSITE.get(a) == b
