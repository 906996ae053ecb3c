"""Flames of War battle state: what a FoW log folds into.

Plain dataclasses in the FoW vocabulary (catalog glossary, part F): a *team*
is one base («отделение»), a *platoon* its group («взвод»). Team statuses are
the rulebook's: bogged down, bailed out, destroyed, gone to ground, concealed,
in bulletproof cover, dug in; a platoon may be pinned down. Skill and
Firepower tests are kept as ``tests`` records. Railway lines, armoured trains
and buildings have their own tables for the area modules that use them.

``dump``/``load`` are the engine's own (``battles.engine.state``), so a FoW
projection is canonical JSON like a v11.2 one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from battles.engine.state import TurnRecord, dump, load

TEAM_KINDS = ("infantry", "gun", "tank", "vehicle", "train")
PLATOON_KINDS = ("infantry", "gun", "tank", "recon", "armoured_train", "independent", "other")
GUN_SIZES = ("", "man_packed", "light", "medium", "heavy", "immobile")


@dataclass(slots=True)
class Team:
    """One base. ``kind``: infantry | gun | tank | vehicle | train (a wagon of
    an armoured train). Categories not in the seeds (G-F1) are flags."""

    id: str
    side: str
    platoon: str = ""
    kind: str = "infantry"
    gun_size: str = ""  # man_packed | light | medium | heavy | immobile (gun teams)
    anti_aircraft: bool = False
    armoured: bool = False
    recon: bool = False
    independent: bool = False
    warrior: bool = False
    observer: bool = False
    cavalry: bool = False
    pioneer_supply: bool = False
    locomotive: bool = False
    movement: float | None = None  # in the battle's units; None: the rules data default by kind (G-F1)
    rof: int | None = None  # dice when stationary; None: rules data (G-F1)
    rof_moved: int | None = None
    # statuses (FoW vocabulary)
    bogged: bool = False
    bailed_out: bool = False
    destroyed: bool = False
    wreck: bool = False
    gone_to_ground: bool = False
    concealed: bool = False
    bulletproof_cover: bool = False
    dug_in: bool = False
    # when it last did things (``ply``: one side's turn)
    moved_ply: int = -1
    double_ply: int = -1  # moved At the Double (F-DBL-8, F-DBL-10)
    dig_ply: int = -1  # attempted to Dig In (F-DIG-6, F-DIG-16)
    shot_ply: int = -1
    assault_ply: int = -1
    # --- aircraft (F-AIR) ---
    armour_top: int | None = None  # Top armour rating (F-AIR-2); None: not given (G-F1)
    armour_side: int | None = None  # Side armour rating (F-AIR-3)
    removed: bool = False  # Destroyed and taken off the table (F-AIR-14); a wreck stays (F-AIR-13)
    # --- buildings (F-BLD) ---
    building: str = ""  # the building it is in, or at whose Opening it stands outside
    opening: str = ""  # the Opening its base touches from outside ("" with a building: inside it)
    building_ply: int = -1  # the ply since which it has held that place (F-BLD-3: at the start of the Step)
    # --- recon (F-RECON) ---
    passengers: list[str] = field(default_factory=list)  # teams it carries (F-RECON-3, F-RECON-12)
    recon_deployed: bool = False  # made its recon deployment move (F-RECON-6)
    disengage_ply: int = -1  # Disengaged in the enemy's Shooting Step (F-RECON-19)
    ambush_ply: int = -1  # placed from Ambush (F-RECON-4)


@dataclass(slots=True)
class Platoon:
    id: str
    side: str
    kind: str = "infantry"
    command: str = ""  # the Command team's id
    skill: int | None = None  # passes the Skill test on this or more; None: rules data (G-F1)
    teams: list[str] = field(default_factory=list)
    escorts: list[str] = field(default_factory=list)  # Tank Support Platoons of an armoured train (G-F3)
    train: str = ""  # the armoured train a Tank Support Platoon escorts
    pinned: bool = False
    dig_ply: int = -1  # attempted to Dig In (F-DIG-1)
    dig_failed_ply: int = -1  # the attempt of that ply failed, re-roll included (F-DIG-5, F-DIG-10)
    dig_rerolled_ply: int = -1  # its failed test was re-rolled (F-DIG-10: once)
    foxholes: int = 0  # marked positions before a Counterattack (F-DIG-19)
    assaulted_ply: int = -1  # the ply whose Assault Step assaulted it (F-DIG-19: the defending platoon marks)
    # --- recon (F-RECON) ---
    recon_deployed: bool = False  # chosen for the recon deployment move (F-RECON-13)


@dataclass(slots=True)
class TestRecord:
    """A Skill test or Firepower test as the log took it."""

    kind: str  # skill | firepower
    seq: int
    subject: str  # platoon or team id
    purpose: str  # dig_in | building | disengage | save ...
    rolls: list[int] = field(default_factory=list)
    passed: bool = False


@dataclass(slots=True)
class RailwayLine:
    id: str
    side: str
    length: float = 0.0
    # --- trains (F-TRAIN) ---
    edges: str = ""  # north_south | east_west: the two opposite table edges (F-TRAIN-4)
    opponent_edge: str = ""  # the opponent's point (F-TRAIN-5)
    opponent_point: float | None = None
    own_edge: str = ""  # the owner's point on the opposite edge (F-TRAIN-6)
    own_point: float | None = None
    laid: bool = False  # F-TRAIN-7 (or the table's own line, F-TRAIN-2)
    existing: bool = False  # F-TRAIN-2
    crosses_deployment_area: bool = True  # F-TRAIN-16
    bridges: int = 0  # F-TRAIN-9
    buildings_moved: list[str] = field(default_factory=list)  # F-TRAIN-10


@dataclass(slots=True)
class ArmouredTrain:
    """An armoured train: one platoon of wagon teams, one the Locomotive (G-F3)."""

    id: str
    side: str
    line: str = ""
    locomotive: str = ""
    wagons: list[str] = field(default_factory=list)
    escorts: list[str] = field(default_factory=list)
    where: str = "off_table"  # off_table | on_table | left (F-TRAIN-14, F-TRAIN-22)
    reserve: bool = False
    deployed: bool = False  # declared Deployed, not in Reserve (F-TRAIN-14)
    position: float = 0.0
    # --- trains (F-TRAIN) ---
    length: float = 0.0  # the whole train with its Tank Support Platoons aboard (F-TRAIN-15)
    entered_ply: int = -1  # F-TRAIN-14
    entered_from: str = ""  # deployment_area | nearest_edge (F-TRAIN-16)
    moved_ply: int = -1  # F-TRAIN-19: once a turn
    escorts_aboard: list[str] = field(default_factory=list)  # Tank Support Platoons riding it (F-TRAIN-25)
    wrecks_pushed: list[str] = field(default_factory=list)  # F-TRAIN-23, F-TRAIN-24
    escort_left_ply: int = -1  # a Tank Support Platoon left it at the end of this ply's Movement Step (F-TRAIN-25)


@dataclass(slots=True)
class Opening:
    id: str
    ground_floor: bool = True
    blocked_by: list[str] = field(default_factory=list)
    # --- buildings (F-BLD) ---
    width: float | None = None  # physically, in the battle's units; None: no wider than one base (F-BLD-15)
    block_widths: dict[str, float] = field(default_factory=dict)  # blocking team -> width it blocks (F-BLD-15)


@dataclass(slots=True)
class Building:
    id: str
    openings: dict[str, Opening] = field(default_factory=dict)
    inside: list[str] = field(default_factory=list)
    cleared_for: list[str] = field(default_factory=list)  # sides that have it Cleared this Step
    # --- buildings (F-BLD) ---
    name: str = ""
    cleared_ply: int = -1  # the ply (Step) ``cleared_for`` holds for: a passed test or a team there at its start
    cleared_step: str = "movement"  # ... and the Step of that ply: a passed test holds for the rest of it (F-BLD-9)


# --- recon (F-RECON) ---
@dataclass(slots=True)
class Disengagement:
    """A recon platoon's «Отходим!» in one enemy Shooting Step (F-RECON-15..24)."""

    platoon: str
    ply: int
    shooters: list[str] = field(default_factory=list)  # the enemy teams opening fire at it (F-RECON-16)
    stage: str = "declared"  # declared (one shot each, F-RECON-17) | resolved (F-RECON-18..24)
    passed: bool = False  # the Skill test (F-RECON-18)
    moved: list[str] = field(default_factory=list)  # teams that Disengaged (F-RECON-19)
    out_of_reach: bool = False  # the whole platoon out of Range, LOS or Field of Fire (F-RECON-24)


@dataclass(slots=True)
class FowState:
    ruleset: str = "fow"
    measure: str = "in"  # distances in the events: "in" or "cm" (battle_started.units), as the table measures
    status: str = "planned"  # planned | running | ended
    attacker: str = ""
    defender: str = ""
    first_mover: str = "attacker"
    turn: int = 0
    ply: int = 0
    side_to_move: str | None = None
    # The Step of the side to move's turn: movement | shooting | assault, in that order (rules/steps.py, G-F1)
    step: str = "movement"
    winner: str | None = None
    end_reason: str = ""
    last_seq: int = 0
    applied: int = 0
    voided: list[int] = field(default_factory=list)
    corrections: list[int] = field(default_factory=list)
    unapplied: list[int] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)
    platoons: dict[str, Platoon] = field(default_factory=dict)
    teams: dict[str, Team] = field(default_factory=dict)
    railway_lines: dict[str, RailwayLine] = field(default_factory=dict)
    trains: dict[str, ArmouredTrain] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    tests: list[TestRecord] = field(default_factory=list)
    # --- aircraft (F-AIR) ---
    aircraft: dict[str, Aircraft] = field(default_factory=dict)
    air_attacks: list[AirAttackRecord] = field(default_factory=list)
    # --- recon (F-RECON) ---
    recon_phase: str = ""  # "" | open | closed: the recon deployment move before the game (F-RECON-6)
    recon_chooser: str = ""  # the side to choose the next platoon (F-RECON-13)
    recon_platoon: str = ""  # the platoon making its recon deployment move now (F-RECON-13)
    disengagements: dict[str, Disengagement] = field(default_factory=dict)  # by platoon (F-RECON-15..24)
    cautious: list[str] = field(default_factory=list)  # Reconnaissance and Observer teams (F-RECON-3), at muster

    def copy(self) -> FowState:
        return load(FowState, dump(self))


__all__ = ["ArmouredTrain", "Building", "FowState", "Opening", "Platoon", "RailwayLine", "Team", "TestRecord"]


# --- aircraft (F-AIR) ---
@dataclass(slots=True)
class Aircraft:
    """Aircraft that attacked: after the attack they are back at base to re-arm (F-AIR-16)."""

    id: str
    side: str
    where: str = "base"  # base (left the table, F-AIR-16); their arrival is G-F1
    attack_ply: int = -1
    attacks: int = 0
    pending: list[AirHitPending] = field(default_factory=list)  # hits whose saves are still due (F-AIR-1)


@dataclass(slots=True)
class AirHitPending:
    """A hit declared by ``air_attack_hit`` whose save is rolled later, one event a save (F-AIR-1)."""

    team: str
    weapon: str
    anti_tank: int | None = None
    firepower: int | None = None


@dataclass(slots=True)
class AirHitResult:
    """One hit of an air attack and what it did (F-AIR-1..14)."""

    team: str
    weapon: str
    save: int
    facing: str = ""  # top | side for an armoured vehicle (F-AIR-2, F-AIR-3)
    total: int | None = None  # die + Armour rating (F-AIR-4)
    firepower_die: int | None = None
    firepower_used: bool = False
    outcome: str = ""  # saved | no_effect | bailed_out | destroyed | already_destroyed
    rule: str = ""


@dataclass(slots=True)
class AirAttackRecord:
    seq: int
    side: str
    aircraft: str
    ply: int = 0
    hits: list[AirHitResult] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)  # platoons Pinned Down (F-AIR-15)


__all__ += ["Aircraft", "AirAttackRecord", "AirHitPending", "AirHitResult"]
__all__ = ["ArmouredTrain", "Building", "Disengagement", "FowState", "Opening", "Platoon", "RailwayLine", "Team", "TestRecord"]
