"""Battle state: what the log folds into.

Plain dataclasses, mutated only by the mutators in ``rules/`` during a fold
(``fold`` works on its own copy, so callers never see their input change).
``dump``/``load`` map state to canonical JSON-ready dicts for the projection
table (msgspec, from the dataclasses themselves); dumping is deterministic so a
rebuild yields identical bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

SIDES = ("attacker", "defender")


@dataclass(slots=True)
class TurnRecord:
    """One side's turn: who moved and which seqs it spans (for the battle report)."""

    number: int
    side: str
    first_seq: int
    last_seq: int = 0


@dataclass(slots=True)
class Credit:
    """What a fighter or a campaign character is credited with (awards need it)."""

    kills: int = 0
    wounds: int = 0
    vehicles_destroyed: int = 0
    vehicles_damaged: int = 0
    vehicles_captured: int = 0
    prisoners_taken: int = 0
    buildings_damaged: int = 0
    saves: int = 0  # wounded fighters who recovered on this medic's re-roll (V-MED-4)
    wounded: int = 0  # casualties suffered by this fighter / character's own figure
    killed: int = 0
    captured: int = 0
    vehicles_lost: int = 0  # vehicles he commanded that were destroyed or captured


@dataclass(slots=True)
class Unit:
    """A squad, fire team, tactical group or vehicle unit. ``parent`` links a
    fire team to its squad (V-SQUAD-4)."""

    id: str
    side: str
    kind: str = "squad"
    parent: str = ""
    posture: str = "dug_in"  # dug_in | march | recon | assault
    posture_ply: int = -1  # when it was last declared (V-TURN-9)
    commander: str = ""
    under: str = ""  # the officer whose orders the unit last received
    morale: str = ""  # "" | surrendered | retreat | dug_in | carry_on (V-TEST-3..6)
    player: str = ""  # the participant whose roster it came from (a side may have several players)
    morale_officer: str = ""  # officer in command when the result was set (V-MORALE-2)
    smoke_used: int = 0  # V-SMOKE-3
    smoke_ply: int = -1  # when smoke was last fired (for a per-turn limit)


@dataclass(slots=True)
class Fighter:
    id: str
    side: str
    unit: str = ""
    cls: str = "rifleman"
    rank: str = ""  # corporal | sergeant | lieutenant | captain ("" = rank and file)
    character: str = ""
    player: str = ""  # the participant whose roster he came from
    mg: str = ""  # a heavy MG assistant: the gunner whose MG he serves (V-MG-7); "" = any of his unit's
    posture: str = ""  # own posture (sniper, officer outside a unit, set on disembarking)
    posture_ply: int = -1  # when his own posture was set; a later unit declaration overrides a disembark posture
    morale_bonus: int = 0
    melee_bonus: int = 0
    wounded: bool = False
    dead: bool = False
    captured: bool = False
    captor_side: str = ""
    captor_unit: str = ""
    wounded_turn: int = 0
    wounded_ply: int = 0
    recovering_ply: int = -1
    tested_ply: int = -1
    building: str = ""
    bunker: str = ""
    aboard: str = ""  # vehicle id
    aboard_as: str = ""  # crew | passenger | rider
    melee_turn: int = 0
    moved_ply: int = -1  # the ply of his last move on foot
    shot_ply: int = -1
    shots: int = 0
    shot_target: str = ""
    main_weapon_ply: int = -1  # personnel fired their main weapon (V-PERS-2)
    small_arms_ply: int = -1
    sapper_object: str = ""
    sapper_ply: int = -1
    sapper_work_ply: int = -1
    corrected_ply: int = -1
    ambush_ply: int = -1  # an AT grenadier's ambush, if the rules data allow it (V-ATGL-1)
    ambush_shots: int = 0
    credit: Credit = field(default_factory=Credit)


@dataclass(slots=True)
class Vehicle:
    """Cars, armoured vehicles and artillery pieces (V-VEH-1); an aircraft of
    the air support is a vehicle of kind ``aircraft``."""

    id: str
    side: str  # the owner; a capture changes it (V-CAPT-7)
    kind: str = "tank"  # tank | apc | car | artillery | aircraft
    drive: str = "tracked"  # tracked | half_tracked | wheeled | towed | none
    armour: int = 1
    gun: int = 0
    weapon: str = "gun"
    seats: int = 0
    skirts: bool = False
    specialisations: list[str] = field(default_factory=list)
    damage: int = 0
    running_gear: bool = False
    destroyed: bool = False
    player: str = ""  # the participant whose roster it came from
    crew: list[str] = field(default_factory=list)
    passengers: list[str] = field(default_factory=list)
    riders: list[str] = field(default_factory=list)
    embark_ply: int = -1
    moved_ply: int = -1
    shot_ply: int = -1
    shots: int = 0
    shot_target: str = ""
    ambush_ply: int = -1
    ambush_shots: int = 0  # G-24
    crew_flamed_turn: int = 0  # V-FLAME-3
    capture_failed_turn: int = 0  # V-CAPT-6
    captured: bool = False
    driven_off: bool = False
    sorties: int = 0  # aircraft attacks flown (G-8)
    aa_ply: int = -1  # an aircraft: the ply of its appearance last fired at (V-AA-3, G-8)
    aa_by: list[str] = field(default_factory=list)  # the AA weapons that fired at that appearance, one per shot
    smoke_used: int = 0  # V-SMOKE-3
    smoke_ply: int = -1  # when smoke was last fired (for a per-turn limit)


@dataclass(slots=True)
class Building:
    id: str
    damage: int = 0  # 0..3 (V-HOUSE-3..5)
    light_cover: bool = False


@dataclass(slots=True)
class Bunker:
    id: str
    hits: int = 0  # against the reserve of 6 (V-BUNK-4)
    light_cover: bool = False
    spotter: bool = False


@dataclass(slots=True)
class Mine:
    id: str
    side: str
    kind: str = "ap"  # ap | at | charge
    laid_by: str = ""
    active: bool = True
    revealed: bool = False


@dataclass(slots=True)
class Wire:
    id: str
    kind: str = "wire"  # wire | fence
    removed: bool = False


@dataclass(slots=True)
class Smoke:
    id: str
    side: str
    ply: int
    by: str = ""


@dataclass(slots=True)
class Correction:
    """A fire correction made this turn (V-CORR-6): shooter -> target."""

    corrector: str
    shooter: str
    target: str
    ply: int


@dataclass(slots=True)
class BattleState:
    ruleset: str = "v11.2"
    status: str = "planned"  # planned | running | ended
    attacker: str = ""
    defender: str = ""
    first_mover: str = "defender"
    turn: int = 0
    ply: int = 0  # one side's turn; counts up by one at every «Ход»
    phase: str = "posture"  # posture | move | fire (V-TURN-9..11)
    postures_ply: int = -1
    side_to_move: str | None = None
    done: list[str] = field(default_factory=list)  # players of the side to move who said «Ход» this turn
    winner: str | None = None  # attacker | defender | draw
    end_reason: str = ""
    last_seq: int = 0
    applied: int = 0
    voided: list[int] = field(default_factory=list)
    corrections: list[int] = field(default_factory=list)
    unapplied: list[int] = field(default_factory=list)  # seqs left without effect by a correction
    turns: list[TurnRecord] = field(default_factory=list)
    units: dict[str, Unit] = field(default_factory=dict)
    fighters: dict[str, Fighter] = field(default_factory=dict)
    vehicles: dict[str, Vehicle] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    bunkers: dict[str, Bunker] = field(default_factory=dict)
    mines: dict[str, Mine] = field(default_factory=dict)
    wire: dict[str, Wire] = field(default_factory=dict)
    smoke: dict[str, Smoke] = field(default_factory=dict)
    fire_corrections: list[Correction] = field(default_factory=list)
    characters: dict[str, Credit] = field(default_factory=dict)
    morale_tests: int = 0

    def copy(self) -> BattleState:
        return load(BattleState, dump(self))


def prisoners(state: BattleState, held_by: str | None = None) -> list[str]:
    """Ids of the living prisoners (optionally those held by one side), sorted."""
    return sorted(f.id for f in state.fighters.values()
                  if f.captured and not f.dead and (held_by is None or f.captor_side == held_by))


def census(state: BattleState, side: str | None = None) -> dict[str, int]:
    """Fighters by fate (each counted once: dead, then captured, then wounded)."""
    out = {"alive": 0, "wounded": 0, "dead": 0, "captured": 0}
    for f in state.fighters.values():
        if side is not None and f.side != side:
            continue
        if f.dead:
            out["dead"] += 1
        elif f.captured:
            out["captured"] += 1
        elif f.wounded:
            out["wounded"] += 1
        else:
            out["alive"] += 1
    return out


def dump(obj: Any) -> Any:
    """Canonical JSON-ready form (msgspec): a dataclass becomes a dict of its fields in their declared
    order, a map's keys are sorted, a set becomes a sorted list; nothing is shared with ``obj``."""
    return msgspec.to_builtins(obj, order="deterministic")


def load(cls: type, data: dict[str, Any]) -> Any:
    """Inverse of ``dump``; unknown keys are ignored, missing ones take defaults (a projection
    written by an older engine still loads). A map's keys come back sorted, as ``dump`` writes them,
    whatever order the store kept (jsonb reorders them): the JSON text msgspec writes with its keys
    sorted is read back as ``cls``."""
    return msgspec.json.decode(msgspec.json.encode(data, order="sorted"), type=cls)
