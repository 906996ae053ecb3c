"""Synthetic battle logs for the benchmarks, built from ``battles.engine.REGISTRY``.

The engine grows while the bench stays put, so generation is generic: each
event type the bench knows how to invent has a *producer* (a function of the
current state and a random source that returns a payload, or ``None`` when the
type does not fit right now). ``generate`` starts the battle, then repeatedly
picks one fitting producer by weight, checks the event with the engine's own
checks, applies it with the engine's mutator and moves on. Types registered
in the engine without a producer are simply not used (``uncovered()`` lists
them, and ``bench/run.py`` prints that list so nobody forgets).

To make the synthetic battles richer when the engine learns new events, add a
producer next to the existing ones::

    @producer("unit_moved", weight=5)
    def _moved(state, rng):
        if state.status != "running":
            return None
        return {"unit": rng.choice(...), "inches": rng.randint(1, 12)}

A producer must return only payloads the engine accepts in that state; an
invalid one fails loudly here (``SyntheticError``), not halfway through a
benchmark. Producers never need to know seqs: the generator assigns them.
Each producer's docstring names the rules whose conditions it meets; they
play by the default rules data (``engine.DEFAULT_RULES``).

The battle: terrain, then two forces of two squads, a lieutenant and three
vehicles (tank, APC, mortar) with their crews, then turns of postures, moves
and rifle fire (the bulk), with wound tests, melee, morale tests and orders,
prisoners, smoke, corrected fire, vehicles moving and carrying infantry,
crews leaving and manning them, sappers laying and clearing mines and
charges. No producer kills an officer or a crewman, nor kills or takes
prisoner a fighter of a side whose squads are down to fewer than
``_PLENTY`` men alive and free; wounds never
kill (only unwounded men are shot, fought or mined) and no vehicle is lost,
so a battle of 100k events keeps both sides in the fight.
"""
from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from battles import engine
from battles.engine.events import Context
from battles.engine.rules.common import (
    command_distance,
    commanded_by_officers,
    is_officer,
    observation_distance,
    posture_of,
    unit_commander,
)
from battles.engine.rules.infantry import melee_bonus
from battles.engine.state import Fighter, Unit, Vehicle
from battles.engine.weapons import has_smoke

Payload = dict[str, Any]
Make = Callable[[engine.BattleState, random.Random], Payload | None]


class SyntheticError(Exception):
    """A producer invented an event the engine refuses: fix the producer."""


@dataclass(frozen=True)
class Producer:
    type: str
    make: Make
    weight: float = 1.0
    role: str = "body"  # "open" (starts the battle), "body", or "close" (ends it)


PRODUCERS: dict[str, Producer] = {}


def producer(type_name: str, *, weight: float = 1.0, role: str = "body") -> Callable[[Make], Make]:
    if role not in {"open", "body", "close"}:
        raise ValueError(f"role must be open, body or close, not {role!r}")

    def register(fn: Make) -> Make:
        PRODUCERS[type_name] = Producer(type_name, fn, weight, role)
        return fn

    return register


def uncovered() -> list[str]:
    """Event types the engine registers but the generator cannot invent yet."""
    return sorted(set(engine.REGISTRY) - set(PRODUCERS))


# --- what the producers read of the state -------------------------------------------
# Producers play by the default rules data (``engine.DEFAULT_RULES``): a battle generated with other
# ``rules=`` may be refused, and then fails loudly (``SyntheticError``) rather than mid-benchmark.
_R = engine.DEFAULT_RULES
_PLENTY = 16  # a side's squad members alive and free: below this no producer kills or takes prisoners
_MINES = 3  # live mines and charges a side keeps at most: past this its sappers clear, not lay


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


def _able(state: engine.BattleState, f: Fighter, moving: bool = False) -> bool:
    """May act: alive (S-DEAD), free (V-POW-6), not wounded (V-MED-3), and, unless
    only moving, not recovered this very turn (V-MED-5)."""
    return not (f.dead or f.captured or f.wounded) and (moving or f.recovering_ply != state.ply)


def _fit(state: engine.BattleState, side: str, moving: bool = False) -> list[str]:
    """The side's fighters on foot who may act (``_able``; those aboard act through their vehicle, V-TRANS-3)."""
    ply = -2 if moving else state.ply  # -2: no fighter recovers at ply -2
    return [i for i, f in state.fighters.items() if f.side == side
            and not (f.dead or f.captured or f.wounded or f.aboard) and f.recovering_ply != ply]


def _targets(state: engine.BattleState, side: str) -> list[Fighter]:
    """The side's unwounded fighters on foot: open to fire (V-TRANS-7), melee and blasts, and a
    wound there never kills (V-MED-1, G-10)."""
    return [f for f in state.fighters.values()
            if f.side == side and not (f.dead or f.captured or f.wounded or f.aboard)]


def _strength(state: engine.BattleState, side: str) -> int:
    return sum(1 for f in state.fighters.values() if f.side == side and f.unit and not (f.dead or f.captured))


def _lethal(state: engine.BattleState, f: Fighter) -> bool:
    """May a producer kill ``f``: a squad's rank and file (never an officer or a crewman,
    so orders and vehicles go on), while his side keeps ``_PLENTY`` squad members alive and free."""
    return bool(f.unit) and not is_officer(f) and _strength(state, f.side) >= _PLENTY


def _acting(state: engine.BattleState) -> str | None:
    """The side to move once its postures are declared (V-TURN-9: every act of a turn follows them)."""
    if state.status != "running" or state.side_to_move is None or state.postures_ply != state.ply:
        return None
    return state.side_to_move


def _officers(state: engine.BattleState, side: str) -> list[Fighter]:
    return [f for f in state.fighters.values()
            if f.side == side and is_officer(f) and not f.aboard and _able(state, f)]


def _crew(state: engine.BattleState, v: Vehicle) -> list[Fighter]:
    """The crew ``require_crew`` counts: alive and free (V-CREW-3..5)."""
    return [c for c in (state.fighters[i] for i in v.crew) if not (c.dead or c.captured)]


def _d20(rng: random.Random) -> dict[str, Any]:
    return {"value": rng.randint(1, 20), "source": "entered"}


def _inches(rng: random.Random, low: float, high: float) -> float:
    """A distance in tenths of an inch within [low, high] (both ends allowed by the checks)."""
    return rng.randint(round(low * 10), round(high * 10)) / 10


# --- the opening and the core events (battles/engine/rules/setup.py, core.py, movement.py, fire.py)
@producer("terrain_placed", role="open", weight=2.0)
def _terrain(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-5: the battlefield objects are agreed first, before deployment
    (heaviest of the opening, so it comes first): houses, a pillbox, wire and a
    fence, each id once (S-DUPLICATE). The sappers clear the wire (V-WIRE-5)."""
    if state.status != "planned" or state.buildings or state.bunkers or state.wire:
        return None
    return {"houses": ["H1", "H2"], "bunkers": ["B1"], "wire": ["W1", "W2", "W3"], "fences": ["F1"]}


@producer("battle_started", role="open", weight=0.001)
def _started(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-8: the battle starts once (S-STARTED-TWICE), after both forces; the defender moves first."""
    if state.status != "planned" or len({u.side for u in state.units.values()}) == 1:
        return None  # one side mustered: the other musters first (none: a battle of turn ends only)
    return {"attacker": "Synthetic attacker", "defender": "Synthetic defender"}


@producer("force_mustered", role="open")
def _mustered(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """Each side's force before the battle starts (V-TURN-2, V-TURN-3): two
    squads (a sergeant and eight riflemen each, the shape
    ``battles.engine.synthetic`` musters, with a medic and a sapper each), a
    lieutenant outside the squads with his own posture (V-OFF-9), and three
    vehicles with their crews mustered in the same event (S-UNKNOWN): a tank
    of armour 3 (riders, V-RIDE-1; smoke from its class-3 gun, V-SMOKE-1; a
    corporal and a crewman, so it may fire, V-CREW-5), an APC with ten seats
    (passengers, V-TRANS-5, G-25) and a mortar (corrected fire, V-CORR-2)
    with a corporal and a crewman. Officers have a rank (S-RANK)."""
    if state.status != "planned":
        return None
    sides = {u.side for u in state.units.values()}
    side = next((s for s in ("attacker", "defender") if s not in sides), None)
    if side is None:
        return None
    p = side[0]
    units, fighters = [], []
    for n in range(1, 3):
        u = f"{p}U{n}"
        units.append({"id": u, "commander": f"{u}s", "posture": "assault"})
        fighters.append({"id": f"{u}s", "unit": u, "cls": "officer", "rank": "sergeant"})
        fighters += [{"id": f"{u}r{i}", "unit": u} for i in range(8)]
        fighters += [{"id": f"{u}m", "unit": u, "cls": "medic"}, {"id": f"{u}x", "unit": u, "cls": "sapper"}]
    fighters.append({"id": f"{p}L", "cls": "officer", "rank": "lieutenant", "posture": "assault"})
    vehicles = [
        {"id": f"{p}T1", "kind": "tank", "drive": "tracked", "armour": 3, "gun": 3, "crew": [f"{p}T1c", f"{p}T1p"]},
        {"id": f"{p}A1", "kind": "apc", "drive": "half_tracked", "armour": 2, "gun": 0, "weapon": "vehicle_mg",
         "seats": 10, "crew": [f"{p}A1p"]},
        {"id": f"{p}M1", "kind": "artillery", "drive": "towed", "armour": 1, "gun": 1, "weapon": "mortar",
         "crew": [f"{p}M1c", f"{p}M1p"]},
    ]
    for v in vehicles:
        for c in v["crew"]:
            fighters.append({"id": c, "cls": "officer", "rank": "corporal"} if c.endswith("c")
                            else {"id": c, "cls": "personnel"})
    return {"side": side, "units": units, "fighters": fighters, "vehicles": vehicles}


@producer("postures_declared", weight=1000.0)
def _postures(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-9: a turn opens by declaring the posture of each unit (weighted
    to come first; once per ply); a morale result holds its posture
    (V-MORALE-2) and a surrendered unit declares none (V-TEST-3)."""
    if state.status != "running" or state.side_to_move is None:
        return None
    side = state.side_to_move
    if state.postures_ply == state.ply:
        return None
    held = {"retreat": "march", "dug_in": "dug_in"}
    units = {u: held.get(unit.morale, "assault") for u, unit in state.units.items()
             if unit.side == side and unit.morale != "surrendered"}
    return {"side": side, "units": units} if units else None


@producer("fighters_moved", weight=3.0)
def _moved(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-10: one fighter of the side to move, on foot (V-TRANS-3), not
    wounded (V-MED-3; one recovering may move, V-MED-5), moves 4 in, within
    his posture's allowance (G-4: not dug in); after the postures (V-TURN-9),
    before any fire of the turn."""
    if state.status != "running" or state.side_to_move is None:
        return None
    if state.postures_ply != state.ply or state.phase == "fire":  # V-TURN-9: postures, moves, then fire
        return None
    moves = _R["postures"]
    own = [i for i in _fit(state, state.side_to_move, moving=True)
           if moves[posture_of(state, state.fighters[i])]["move"] >= 4.0]
    return {"side": state.side_to_move, "fighters": [rng.choice(own)], "distance": 4.0} if own else None


@producer("fire", weight=2.0)
def _fire(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-11: one rifle shot per fighter and turn, after the postures
    (V-TURN-9), by a fighter on foot (V-TRANS-6) fit to fire (V-MED-3,
    V-MED-5), in a posture that fires (G-4) and not in turn 2 of a sapper's
    scheme (V-SAP-4), at 6 in (within the rifle's 8 in, V-CMD-11, and sight,
    V-CMD-8) at an unwounded enemy on foot (V-TRANS-7) with his G-2 die."""
    if state.status != "running" or state.side_to_move is None:
        return None
    side = state.side_to_move
    if state.postures_ply != state.ply:
        return None
    fires = _R["postures"]
    own = [i for i in _fit(state, side) if state.fighters[i].shot_ply != state.ply  # V-TURN-11: one shot a turn
           and state.fighters[i].sapper_work_ply != state.ply and fires[posture_of(state, state.fighters[i])]["fire"]]
    enemy = [f.id for f in _targets(state, _other(side))]
    if not own or not enemy:
        return None
    return {"shooter": rng.choice(own), "weapon": "rifle", "target": "fighters", "distance": 6.0,
            "struck": [{"fighter": rng.choice(enemy), "die": {"value": rng.randint(1, 20), "source": "entered"}}]}


@producer("turn_ended", weight=1.0)
def _turn_ended(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-12: the side to move says «Ход» for the current turn."""
    if state.status != "running" or state.side_to_move is None:
        return None
    return {"side": state.side_to_move, "turn": state.turn}


@producer("battle_ended", role="close")
def _ended(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """The outcome as the table agreed it, while the battle runs (S-NOT-STARTED, S-ENDED)."""
    if state.status != "running":
        return None
    return {"winner": rng.choice(["attacker", "defender", "draw"])}


# --- infantry (battles/engine/rules/infantry.py) ------------------------------------------
@producer("wound_test", weight=2.0)
def _wound_test(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-MED-3: a wounded fighter (alive, free) of the side to move tests on a
    later turn than his wound, once a turn. A failed test (V-TEST-1: 1-10) is
    sometimes re-rolled with a fit medic of his side within 4 in (V-MED-4).
    Weighted up: it is due only while someone waits for it, so it keeps pace
    with the wounds."""
    side = _acting(state)
    if side is None:
        return None
    due = [f for f in state.fighters.values() if f.side == side and f.wounded and not (f.dead or f.captured)
           and f.wounded_ply < state.ply and f.tested_ply != state.ply]
    if not due:
        return None
    f = rng.choice(due)
    data: dict[str, Any] = {"fighter": f.id, "die": _d20(rng)}
    if data["die"]["value"] < _R["test_success_min"] and _R["medic_rerolls"] >= 1 and rng.random() < 0.9:
        medics = [m for m in state.fighters.values()
                  if m.side == side and m.cls == "medic" and not m.aboard and _able(state, m)]
        if medics:
            near = [m for m in medics if m.unit == f.unit]
            data |= {"medic": (near or medics)[0].id, "medic_distance": _inches(rng, 0.5, _R["medic_distance"]),
                     "reroll": _d20(rng)}
    return data


@producer("melee", weight=0.3)
def _melee(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-MELEE-1: a fighter of the side to move, fit (V-MED-3, V-MED-5) and
    in assault (the one posture that starts a melee, G-4), attacks an
    unwounded enemy at 1 in; neither has fought a melee this turn (V-MELEE-5).
    V-MELEE-2 with G-13: simultaneous rolls, every one but the last a tie."""
    side = _acting(state)
    if side is None:
        return None
    melee_ok = _R["postures"]
    own = [state.fighters[i] for i in _fit(state, side)]
    own = [f for f in own if f.melee_turn != state.turn and melee_ok[posture_of(state, f)]["melee"]]
    foes = [f for f in _targets(state, _other(side)) if f.melee_turn != state.turn]
    if not own or not foes:
        return None
    a, d = rng.choice(own), rng.choice(foes)
    ba, bd = melee_bonus(a, _R), melee_bonus(d, _R)
    rolls = []
    if rng.random() < 0.2 and 1 <= (tie := rng.randint(1, 20)) + ba - bd <= 20:
        rolls.append({"attacker": {"value": tie, "source": "entered"},
                      "defender": {"value": tie + ba - bd, "source": "entered"}})
    while True:
        x, y = rng.randint(1, 20), rng.randint(1, 20)
        if x + ba != y + bd:
            break
    rolls.append({"attacker": {"value": x, "source": "entered"}, "defender": {"value": y, "source": "entered"}})
    return {"attacker": a.id, "defender": d.id, "distance": _R["melee_distance"], "rolls": rolls}


@producer("morale_test", weight=0.15)
def _morale(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-MORALE-1: a unit with fighters left (none of them snipers, V-SNIP-2)
    tests once until it comes under another officer (V-TEST-7), not linked by
    radio (V-RADIO-4), its lieutenant beyond his command distance (V-CMD-3);
    each fighter's nearest enemy is over 12 in, so a 1-5 is a retreat, not a
    surrender (V-TEST-3); on 16-20 the unit's commander (or first fighter) is
    named to the corporal's post (V-TEST-6)."""
    if _acting(state) is None:
        return None
    units = [u for u in state.units.values() if not (u.morale and u.morale_officer == u.under)]
    if not units:
        return None
    u = rng.choice(units)
    members = [f for f in state.fighters.values()
               if f.unit == u.id and not (f.dead or f.captured) and f.cls != "sniper"]
    if not members:
        return None
    data: dict[str, Any] = {"unit": u.id, "die": _d20(rng), "officer_distances": {},
                            "enemy_distances": {f.id: _inches(rng, 13.0, 30.0) for f in members}}
    for o in state.fighters.values():
        if o.side == u.side and o.rank == "lieutenant" and not (o.dead or o.captured):
            limit = command_distance(o, _R, over_officers=commanded_by_officers(state, o, u.id))
            data["officer_distances"][o.id] = _inches(rng, limit + 1.0, limit + 12.0)
    bonus = max((f.morale_bonus + _R["morale_bonus"].get(f.rank, 0) for f in members if f.rank), default=0)
    if data["die"]["value"] + bonus > _R["morale_dig_in_max"]:
        data["new_commander"] = u.commander if any(f.id == u.commander for f in members) else members[0].id
    return data


@producer("order_given", weight=0.3)
def _order(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-CMD-1: a fit officer (V-OFF-1, V-MED-3, V-MED-5) of the side to move
    orders one of its units within his command distance: a sergeant or
    corporal his own squad (V-OFF-2, V-CMD-4), the lieutenant a squad led by
    its sergeant (V-OFF-3, V-CMD-3). Only orders that change the officer the
    unit is under, so a morale result lapses (V-MORALE-2) and may be tested again."""
    side = _acting(state)
    if side is None:
        return None
    lieutenants = [o for o in _officers(state, side) if o.rank == "lieutenant"]
    orders = []
    for uid, u in state.units.items():
        if u.side != side:
            continue
        cmd = unit_commander(state, uid)
        if cmd is None:
            continue
        if cmd.rank in ("sergeant", "corporal") and cmd.unit == uid and _able(state, cmd) and u.under != cmd.id:
            orders.append((cmd, uid))
        if cmd.rank == "sergeant":
            orders += [(o, uid) for o in lieutenants if u.under != o.id]
    if not orders:
        return None
    o, uid = rng.choice(orders)
    limit = command_distance(o, _R, over_officers=commanded_by_officers(state, o, uid))
    return {"officer": o.id, "unit": uid, "distance": _inches(rng, 1.0, limit - 1.0)}


@producer("prisoner_taken", weight=0.15)
def _prisoner_taken(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-POW-1: a fit fighter of the side to move (V-MED-3, V-MED-5) at melee
    distance (1 in, V-MELEE-1) of a wounded enemy on the ground, alive and
    free (V-POW-6), with no unwounded enemy within 4 in of him; only while the
    enemy stays strong (prisoners leave the fight until freed, V-POW-7)."""
    side = _acting(state)
    if side is None or _strength(state, _other(side)) < _PLENTY:
        return None
    wounded = [f for f in state.fighters.values() if f.side != side and f.wounded
               and not (f.dead or f.captured or f.aboard)]
    own = _fit(state, side)
    if not wounded or not own:
        return None
    return {"captor": rng.choice(own), "prisoner": rng.choice(wounded).id, "distance": _R["melee_distance"],
            "nearest_fit_enemy": rng.choice([None, _inches(rng, _R["prisoner_enemy_clear"] + 1, 12.0)])}


@producer("prisoner_handled", weight=0.1)
def _prisoner_handled(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-POW-4: the side holding a living prisoner decides, in its own turn,
    to leave him, send him away or kill him (V-POW-2: at the capturing
    unit's commander's disposal); a kill only of a squad's rank and file
    while his side stays strong (``_lethal``)."""
    side = _acting(state)
    if side is None:
        return None
    held = [f for f in state.fighters.values() if f.captured and not f.dead and f.captor_side == side]
    if not held:
        return None
    x = rng.choice(held)
    action = rng.choice(["leave", "send"])
    if _lethal(state, x) and rng.random() < 0.3:
        action = "kill"
    return {"prisoner": x.id, "action": action}


@producer("prisoner_freed", weight=0.1)
def _prisoner_freed(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-POW-7: a living prisoner of the side to move, with no enemy within
    4 in, within the command distance of a fit officer of his own army
    (V-CMD-3, V-CMD-4), is freed."""
    side = _acting(state)
    if side is None:
        return None
    held = [f for f in state.fighters.values() if f.side == side and f.captured and not f.dead]
    officers = _officers(state, side)
    if not held or not officers:
        return None
    o = rng.choice(officers)
    limit = command_distance(o, _R, over_officers=False)
    return {"prisoner": rng.choice(held).id, "officer": o.id, "officer_distance": _inches(rng, 1.0, limit),
            "nearest_enemy": rng.choice([None, _inches(rng, _R["release_enemy_clear"] + 1, 12.0)])}


# --- fire support (battles/engine/rules/fire.py) --------------------------------------------
def _smoke_used(state: engine.BattleState, holder: Any) -> int:
    """V-SMOKE-3 as ``fire._smoke_count`` reads it (per battle, or per turn if the rules say so)."""
    if _R["smoke_period"] == "turn" and holder.smoke_ply != state.ply:
        return 0
    return holder.smoke_used


def _squad(state: engine.BattleState, uid: str) -> Unit:
    """The squad whose smoke rounds a unit shares: a fire team its squad's (``fire._smoke_unit``)."""
    unit = state.units[uid]
    return state.units[unit.parent] if unit.parent in state.units else unit


@producer("smoke_fired", weight=0.2)
def _smoke(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-SMOKE-2: a fit rifleman of the side to move on foot, not having shot
    this turn, whose squad has a smoke round left (V-SMOKE-3); or a vehicle
    with smoke (V-SMOKE-1: the class-3 gun, the mortar) crewed to fire (two,
    one an officer, V-CREW-5) with a round left. In the fire step (V-TURN-11);
    a fit officer of the side designates the point within his observation
    distance (V-SMOKE-8, G-1). A new screen id each time (S-DUPLICATE)."""
    side = _acting(state)
    if side is None:
        return None
    limit = _R["smoke_limit"]
    shooters = [f.id for f in state.fighters.values()
                if f.side == side and f.cls == "rifleman" and not f.aboard and f.shot_ply != state.ply
                and _able(state, f) and f.unit in state.units and _smoke_used(state, _squad(state, f.unit)) < limit]
    for v in state.vehicles.values():
        if v.side != side or v.destroyed or v.driven_off or v.shot_ply == state.ply:
            continue
        crew = _crew(state, v)
        if has_smoke(v.weapon, v.gun, _R["smoke_min_gun_class"]) and _smoke_used(state, v) < limit \
                and len(crew) >= 2 and any(is_officer(c) for c in crew):
            shooters.append(v.id)
    officers = _officers(state, side)
    if not shooters or not officers:
        return None
    o = rng.choice(officers)
    return {"shooter": rng.choice(shooters), "officer": o.id,
            "officer_distance": _inches(rng, 2.0, observation_distance(o, _R) - 1.0),
            "smoke": f"smoke{state.last_seq + 1}"}


@producer("fire_corrected", weight=0.15)
def _fire_corrected(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-CORR-3: a fit officer of the side to move on foot (V-MED-3, V-MED-5;
    no sniper, V-SNIP-4), once a turn (V-CORR-6), designates an enemy squad
    by voice within 6 in of the battery officer (V-CORR-5) for his side's
    mortar, which has corrected fire (V-CORR-2; no gun, V-GUN-1)."""
    side = _acting(state)
    if side is None:
        return None
    guns = [v.id for v in state.vehicles.values() if v.side == side and not v.destroyed
            and v.weapon in _R["corrected_fire_weapons"]]
    officers = [o for o in _officers(state, side) if o.corrected_ply != state.ply]
    targets = [u for u, unit in state.units.items() if unit.side != side]
    if not guns or not officers or not targets:
        return None
    return {"corrector": rng.choice(officers).id, "shooter": rng.choice(guns), "target": rng.choice(targets),
            "via": "talk", "distance": _inches(rng, 1.0, _R["talk_distance"])}


# --- vehicles and the men in them (battles/engine/rules/movement.py, vehicles.py) ------------
@producer("vehicle_moved", weight=0.5)
def _vehicle_moved(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-10: a vehicle of the side to move, after the postures and
    before the fire (V-TURN-9), once a turn, within its drive's move (G-18;
    a towed piece does not move): not destroyed (V-VDMG-4), running gear
    intact (V-VDMG-6), not loaded this turn (V-TRANS-4), with a crewman
    aboard (V-CREW-4)."""
    side = _acting(state)
    if side is None or state.phase == "fire":
        return None
    moving = [v for v in state.vehicles.values() if v.side == side and not (v.destroyed or v.driven_off)
              and not v.running_gear and v.embark_ply != state.ply and v.moved_ply != state.ply
              and _R["vehicle_move"].get(v.drive, 0.0) >= 1.0 and _crew(state, v)]
    if not moving:
        return None
    v = rng.choice(moving)
    return {"vehicle": v.id, "distance": _inches(rng, 1.0, _R["vehicle_move"][v.drive])}


@producer("embarked", weight=0.15)
def _embarked(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TRANS-2: men of one squad of the side to move, on foot and fit to
    move (V-MED-3), brought into contact with a vehicle of their side, in the
    movement step (V-TURN-9, V-TURN-10): as passengers of the APC within its
    seats (V-TRANS-5, V-TRANS-1, G-25) or as riders of the armour-3 tank, at
    most 14 (V-RIDE-1)."""
    side = _acting(state)
    if side is None or state.phase == "fire":
        return None
    room = []
    for v in state.vehicles.values():
        if v.side != side or v.destroyed:
            continue
        if v.kind in ("apc", "car"):
            free = min(_R["transport_max"], v.seats or _R["seats"].get(v.kind, 0)) - len(v.passengers)
            if free > 0:
                room.append((v, "passengers", free))
        elif v.armour >= _R["riders_min_armour"] and _R["riders_max"] - len(v.riders) > 0:
            room.append((v, "riders", _R["riders_max"] - len(v.riders)))
    squads = [u for u, unit in state.units.items() if unit.side == side]
    if not room or not squads:
        return None
    v, role, free = rng.choice(room)
    unit = rng.choice(squads)
    men = [i for i in _fit(state, side, moving=True) if state.fighters[i].unit == unit]
    if not men:
        return None
    return {"vehicle": v.id, "fighters": rng.sample(men, rng.randint(1, min(free, len(men), 6))), "role": role}


@producer("disembarked", weight=0.2)
def _disembarked(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TRANS-3: men carried by a vehicle of the side to move (passengers or
    riders, not its crew) are put down within 1 in of it, from the turn after
    they embarked."""
    side = _acting(state)
    if side is None:
        return None
    loaded = [v for v in state.vehicles.values() if v.side == side and v.embark_ply != state.ply
              and (v.passengers or v.riders)]
    if not loaded:
        return None
    v = rng.choice(loaded)
    men = [i for i in (*v.passengers, *v.riders) if not (state.fighters[i].dead or state.fighters[i].captured)]
    if not men:
        return None
    return {"vehicle": v.id, "fighters": rng.sample(men, rng.randint(1, min(len(men), 15))),
            "distance": _inches(rng, 0.0, _R["disembark_distance"])}


@producer("crew_dismounted", weight=0.05)
def _crew_dismounted(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-CREW-3: one crewman of a vehicle of the side to move (not destroyed,
    V-VDMG-4) leaves it, put down within 1 in (V-TRANS-3); at least one stays,
    so it still moves (V-CREW-4)."""
    side = _acting(state)
    if side is None:
        return None
    crewed = [(v, crew) for v in state.vehicles.values() if v.side == side and not v.destroyed
              and len(crew := _crew(state, v)) >= 2]
    if not crewed:
        return None
    v, crew = rng.choice(crewed)
    return {"vehicle": v.id, "fighters": [rng.choice(crew).id], "distance": _inches(rng, 0.0, _R["disembark_distance"])}


@producer("crew_boarded", weight=0.2)
def _crew_boarded(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-CREW-4: crewmen of the side to move who left their own vehicle (not
    destroyed, V-VDMG-4), on foot and fit to move (V-MED-3), man it again; a
    vehicle of their own side, so no capture (V-CAPT-1)."""
    side = _acting(state)
    if side is None:
        return None
    back = []
    for v in state.vehicles.values():
        if v.side != side or v.destroyed:
            continue
        for c in (f"{v.id}c", f"{v.id}p"):  # the muster's crew ids
            f = state.fighters.get(c)
            if f is not None and f.side == side and not f.aboard and _able(state, f, moving=True):
                back.append((v.id, c))
    if not back:
        return None
    vid, c = rng.choice(back)
    return {"vehicle": vid, "fighters": [c]}


# --- sappers and mines (battles/engine/rules/engineering.py) -------------------------------
def _sappers(state: engine.BattleState, side: str) -> list[Fighter]:
    """V-SAP-1: the side's sappers on foot, fit (V-MED-3, V-MED-5)."""
    return [f for f in state.fighters.values() if f.side == side and f.cls == "sapper" and not f.aboard
            and _able(state, f)]


@producer("sapper_approached", weight=0.15)
def _sapper_approached(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-SAP-2: a fit sapper of the side to move (V-SAP-1) with no scheme
    under way stops within 4 in of one object: the spot of a new AP mine or
    charge (while his side has fewer than three live), a wire section still
    standing (V-WIRE-5), or an enemy mine he has been shown (V-MINE-14: only
    a revealed one is known to him)."""
    side = _acting(state)
    if side is None:
        return None
    sappers = [s for s in _sappers(state, side) if not s.sapper_object]
    if not sappers:
        return None
    objects = [w for w, sec in state.wire.items() if not sec.removed]
    objects += [m for m, mine in state.mines.items() if mine.side != side and mine.active and mine.revealed]
    if sum(1 for m in state.mines.values() if m.side == side and m.active) < _MINES:
        objects.append(f"mine{state.last_seq + 1}-{rng.choice(['ap', 'ap', 'charge'])}")
    if not objects:
        return None
    return {"sapper": rng.choice(sappers).id, "object": rng.choice(objects),
            "distance": _inches(rng, 0.5, _R["sapper_reach"])}


@producer("sapper_worked", weight=0.3)
def _sapper_worked(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-SAP-3: in a later turn than his approach, a fit sapper of the side to
    move who has not fired this turn (V-SAP-4) works on the object he
    approached: lays the new mine or charge there (V-MINE-1), or removes the
    wire section (V-WIRE-5) or the mine."""
    side = _acting(state)
    if side is None:
        return None
    ready = [s for s in _sappers(state, side) if s.sapper_object and 0 <= s.sapper_ply < state.ply
             and s.shot_ply != state.ply]
    if not ready:
        return None
    s = rng.choice(ready)
    obj = s.sapper_object
    if obj in state.wire or obj in state.mines:
        return {"sapper": s.id, "action": "remove", "object": obj}
    return {"sapper": s.id, "action": "lay", "object": obj, "kind": obj.rsplit("-", 1)[1]}


@producer("mine_revealed", weight=0.2)
def _mine_revealed(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-MINE-14: a live sapper (V-MINE-13: only sappers detect mines) of the
    side to move comes within 6 in of a live enemy mine or charge not yet
    shown: its owner shows it."""
    side = _acting(state)
    if side is None:
        return None
    hidden = [m for m, mine in state.mines.items() if mine.side != side and mine.active and not mine.revealed]
    sappers = [s for s in state.fighters.values() if s.side == side and s.cls == "sapper"
               and not (s.dead or s.captured)]
    if not hidden or not sappers:
        return None
    return {"mine": rng.choice(hidden), "sapper": rng.choice(sappers).id,
            "distance": _inches(rng, 1.0, _R["sapper_reveal_distance"])}


@producer("mine_triggered", weight=0.15)
def _mine_triggered(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-MINE-2: once the side to move has moved (its movement step), one or
    two of its unwounded men on foot end within 2 in of a live enemy AP mine
    (never a vehicle, V-MINE-8); it wounds them (V-MINE-3: within its 2 in
    radius, on the ground, V-MINE-4)."""
    side = _acting(state)
    if side is None or state.phase != "move":
        return None
    mines = [m for m, mine in state.mines.items() if mine.side != side and mine.active and mine.kind == "ap"]
    men = _targets(state, side)
    if not mines or not men:
        return None
    victims = [{"fighter": f.id, "distance": _inches(rng, 0.0, _R["mine_radius"])}
               for f in rng.sample(men, min(len(men), rng.randint(1, 2)))]
    return {"mine": rng.choice(mines), "distance": victims[0]["distance"], "victims": victims}


@producer("charge_detonated", weight=0.1)
def _charge_detonated(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-MINE-10: a fit sapper of the charge's side sets off its live charge
    on the order of an officer of that side (here in its own turn); an enemy
    within 3 in dies (V-MINE-11): a squad's rank and file, while the enemy
    stays strong (``_lethal``)."""
    side = _acting(state)
    if side is None:
        return None
    charges = [m for m, mine in state.mines.items() if mine.side == side and mine.active and mine.kind == "charge"]
    sappers = _sappers(state, side)
    officers = _officers(state, side)
    if not charges or not sappers or not officers:
        return None
    victims = []
    foes = [f for f in _targets(state, _other(side)) if _lethal(state, f)]
    if foes and rng.random() < 0.5:
        victims.append({"fighter": rng.choice(foes).id, "distance": _inches(rng, 0.0, _R["charge_radius"])})
    return {"charge": rng.choice(charges), "sapper": rng.choice(sappers).id, "officer": rng.choice(officers).id,
            "victims": victims}


# Left uncovered (``uncovered()`` lists them, tests/test_bench_synthetic.py pins the list):
# - correction (V-TURN-13) voids an earlier event: replay then skips it, every later event that relied
#   on it stands without effect (``state.unapplied``), and the append gate must refold the history to
#   check what follows; a bench battle must replay with every event applied.
# - capture_attempted (V-CAPT-2..5) needs a vehicle with damaged running gear (a 16-20 hit by a gun of
#   its class or an AT mine) ringed by five enemy infantrymen; and vehicle_boarded (V-FLAME-3) a tank
#   whose crew a flamethrower burnt the turn before. Both cost a side its vehicle for good (and the fire
#   that sets them up is a tank duel the rifle-only ``fire`` producer does not stage), so a long bench
#   battle would soon run out of vehicles; the producers here keep every vehicle in play.
# - player_done (V-TURN-12) is said by each of several players of a side; the synthetic forces have one
#   player a side, whose «Ход» is the side's turn_ended.


# --- generation ---------------------------------------------------------------------
class _Builder:
    """Tracks the state of the battle being invented, applying each accepted
    event in place (no per-event copy, so 100k events stay linear)."""

    def __init__(self, rules: dict[str, Any] | None, seed: int, types: frozenset[str] | None = None) -> None:
        self.types = types
        self.state = engine.BattleState()
        self.rules = dict(engine.DEFAULT_RULES, **(rules or {}))
        self.rng = random.Random(seed)
        self.seq = 0
        self._roles: dict[str, tuple[list[Producer], list[float], list[float]]] = {}

    def offer(self, p: Producer) -> engine.Event | None:
        data = p.make(self.state, self.rng)
        if data is None:
            return None
        entry = engine.lookup(p.type)
        seq = self.seq + 1
        ctx = Context(seq, self.rules)
        try:
            payload = entry.parse(data)
            for check in entry.checks:
                check(self.state, payload, ctx)
        except engine.EngineError as exc:
            raise SyntheticError(f"producer for {p.type} made an event the engine refuses at seq {seq}: {exc}") from exc
        event = engine.Event(seq, entry.name, engine.dump(payload), entry.version)
        if entry.mutate is not None:
            self.state.last_seq = seq
            entry.mutate(self.state, payload, ctx)
        self.state.last_seq = seq
        self.seq = seq
        return event

    def producers(self, role: str) -> tuple[list[Producer], list[float], list[float]]:
        """The producers of ``role`` this battle may use (the opening in a fixed order,
        heaviest first: terrain, forces, then the start), their weights and cumulated
        weights; worked out once per battle."""
        known = self._roles.get(role)
        if known is None:
            live = [p for p in PRODUCERS.values() if p.role == role and p.type in engine.REGISTRY
                    and (self.types is None or p.type in self.types)]
            if role == "open":
                live.sort(key=lambda p: -p.weight)
            weights = [p.weight for p in live]
            known = self._roles[role] = (live, weights, list(accumulate(weights)))
        return known

    def pick(self, role: str) -> engine.Event | None:
        """One event of ``role``: a producer drawn by weight (``rng.choices`` by hand, the
        same draw), dropped from this pick when it does not fit, until one does."""
        base, base_weights, cum = self.producers(role)
        live, weights = base, base_weights  # copied on the first drop
        while live:
            if len(live) == 1 or role == "open":
                i = 0
            else:
                i = bisect(cum, self.rng.random() * cum[-1], 0, len(live) - 1)
            event = self.offer(live[i])
            if event is not None:
                return event
            if live is base:
                live, weights = list(base), list(base_weights)
            del live[i]
            del weights[i]
            cum = list(accumulate(weights))
        return None


def iter_battle(n: int, *, seed: int = 0, end: bool = False, rules: dict[str, Any] | None = None,
                types: frozenset[str] | None = None) -> Iterator[engine.Event]:
    """Yield ``n`` valid events (seq 1..n) of one battle, in their stored form
    (payloads normalised as the append path stores them). With ``end`` the last
    one closes the battle."""
    b = _Builder(rules, seed, types)
    while b.seq < n:
        role = "close" if end and b.seq == n - 1 else ("open" if b.state.status == "planned" else "body")
        event = b.pick(role)
        if event is None:
            raise SyntheticError(f"no producer fits after seq {b.seq} (role {role}, state {b.state.status}); "
                                 "add one in bench/synthetic.py")
        yield event


def battle(n: int, *, seed: int = 0, end: bool = False, rules: dict[str, Any] | None = None,
           types: frozenset[str] | None = None) -> list[engine.Event]:
    """``types`` limits the producers to those event types (``TURNS_ONLY``: the
    battles of the bench before issue 14, battle_started and turn ends)."""
    return list(iter_battle(n, seed=seed, end=end, rules=rules, types=types))


TURNS_ONLY = frozenset({"battle_started", "turn_ended", "battle_ended"})


def long_battle(n: int, *, seed: int = 0) -> tuple[list[engine.Event], str]:
    """The battle for ``engine_events_per_s`` and ``replay_vs_fold``, and where it came from.

    The engine may ship its own richer generator (``battles.engine.synthetic``,
    written by whoever knows the rules best); fold and replay apply stored
    events without checks, so that one is preferred when present. Otherwise,
    or with ``BENCH_SYNTHETIC=generic``, the generic producers above are used.
    """
    import importlib
    import os

    if os.environ.get("BENCH_SYNTHETIC", "") != "generic":
        try:
            rich = importlib.import_module("battles.engine.synthetic")
        except ModuleNotFoundError:
            rich = None
        if rich is not None and hasattr(rich, "synthetic_battle"):
            try:
                events = list(rich.synthetic_battle(n))
                if len(events) != n or any(e.seq != i for i, e in enumerate(events, 1)):
                    raise SyntheticError(f"expected {n} events with seqs 1..{n}")
                return events, "battles.engine.synthetic"
            except Exception as exc:  # someone else's module, maybe mid-edit: say so, use ours
                print(f"bench: battles.engine.synthetic failed ({type(exc).__name__}: {exc}); "
                      "using bench.synthetic", flush=True)
                return battle(n, seed=seed, end=True), f"bench.synthetic (engine generator failed: {exc})"
    return battle(n, seed=seed, end=True), "bench.synthetic"
