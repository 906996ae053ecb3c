"""The FoW log's skeleton: a battle starts (in inches or centimetres), forces
are mustered as platoons of teams, sides take turns, the battle ends, and the
game master's ``correction`` voids a mistaken event (the shared mechanism of
every ruleset: replay skips the voided event; S-CORRECTION here, as no F- row
covers it). ``status_set`` records what the core FoW rules (not in the seeds,
G-F1) decide: bogged down, bailed out, destroyed, pinned down, and their end.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.actors import CORRECTION_EN, CORRECTION_RU, correction_recorder
from battles.engine.events import Context
from battles.engine.fow.registry import POLICY, REGISTRY, Recorder, either, game_master, named_side, subject_side
from battles.engine.fow.state import ArmouredTrain, FowState, Platoon, Team
from battles.engine.rules.common import side_en, side_ru
from battles.engine.rules.core import Correction, _apply_correction, check_correction, other
from battles.engine.rules.core import _apply_ended as _apply_v11_ended
from battles.engine.schema import Payload
from battles.engine.state import TurnRecord

from .common import refuse, require_running

Side = Literal["attacker", "defender"]
TeamKind = Literal["infantry", "gun", "tank", "vehicle", "train"]
PlatoonKind = Literal["infantry", "gun", "tank", "recon", "armoured_train", "independent", "other"]
GunSize = Literal["", "man_packed", "light", "medium", "heavy", "immobile"]


# --- battle_started ----------------------------------------------------------------
class FowBattleStarted(Payload):
    """The table is set: sides named, the units the table measures in, and the
    side that moves first (the Mission says, G-F1)."""

    attacker: Annotated[str, Meta(min_length=1, max_length=200, description="Attacking side's name")]
    defender: Annotated[str, Meta(min_length=1, max_length=200, description="Defending side's name")]
    ruleset: Literal["fow"] = "fow"
    units: Annotated[Literal["in", "cm"], Meta(
        description="Distances in this battle's events: inches or centimetres")] = "in"
    first_mover: Annotated[Side, Meta(description="The side that takes the first turn (the Mission)")] = "attacker"


battle_started = REGISTRY.event_type("battle_started", FowBattleStarted, rules=("G-F1",),
                                     title_ru="Бой начат", title_en="Battle started")
POLICY["battle_started"] = Recorder("either", either, "Любая сторона за столом (до выставления сил — только мастер)",
                                    "Either side at the table (before the muster, the game master only)")


@battle_started.check
def _check_started(state: FowState, p: FowBattleStarted, ctx: Context) -> None:
    if state.status != "planned":
        refuse("S-STARTED-TWICE", "Бой уже начат.", "The battle has already started.")


@battle_started.mutator
def _apply_started(state: FowState, p: FowBattleStarted, ctx: Context) -> None:
    state.status = "running"
    state.attacker, state.defender, state.ruleset, state.measure = p.attacker, p.defender, p.ruleset, p.units
    state.first_mover = p.first_mover
    state.turn = 1
    state.side_to_move = p.first_mover
    state.step = "movement"  # the first turn opens with its Movement Step (rules/steps.py, G-F1)
    state.turns.append(TurnRecord(number=1, side=p.first_mover, first_seq=ctx.seq, last_seq=ctx.seq))


# --- force_mustered ------------------------------------------------------------------
class TeamSpec(Payload):
    """One team (base) of a platoon. Ratings the seeds do not give are game data (G-F1)."""

    id: Annotated[str, Meta(min_length=1, max_length=60)]
    kind: Annotated[TeamKind, Meta(
        description="infantry, gun, tank, (unarmoured) vehicle, or a wagon of an armoured train")]
    name: Annotated[str, Meta(max_length=200, description="Display name from the roster")] = ""
    gun_size: Annotated[GunSize, Meta(description="Gun teams: man-packed, light, medium, heavy or immobile")] = ""
    anti_aircraft: bool = False
    armoured: bool = False
    recon: bool = False
    independent: bool = False
    warrior: bool = False
    observer: bool = False
    cavalry: bool = False
    pioneer_supply: bool = False
    locomotive: Annotated[bool, Meta(description="The armoured train's Locomotive (G-F3)")] = False
    movement: Annotated[float, Meta(ge=0, description="Movement distance in the battle's units")] | None = None
    rof: Annotated[int, Meta(ge=0, le=20, description="Dice when stationary")] | None = None
    rof_moved: Annotated[int, Meta(ge=0, le=20, description="Dice after moving")] | None = None
    # --- aircraft (F-AIR) ---
    armour_top: Annotated[int, Meta(
        ge=0, le=30, description="Top armour rating (armoured vehicles, F-AIR-2)")] | None = None
    armour_side: Annotated[int, Meta(
        ge=0, le=30, description="Side armour rating (armoured vehicles, F-AIR-3)")] | None = None


class PlatoonSpec(Payload):
    """A platoon and its teams; an armoured train is a platoon of wagon teams
    with its Tank Support Platoons named in ``escorts`` (G-F3)."""

    id: Annotated[str, Meta(min_length=1, max_length=60)]
    kind: PlatoonKind
    teams: Annotated[list[TeamSpec], Meta(min_length=1, max_length=60)]
    name: Annotated[str, Meta(max_length=200, description="Display name from the roster")] = ""
    command: Annotated[str, Meta(max_length=60, description="The Command team's id")] = ""
    skill: Annotated[int, Meta(ge=1, le=6, description="Skill test passes on this or more")] | None = None
    escorts: Annotated[list[str], Meta(
        max_length=10, description="Tank Support Platoons of an armoured train")] = []
    reserve: Annotated[bool, Meta(description="An armoured train held in Reserve (F-TRAIN-18)")] = False


class FowForceMustered(Payload):
    """One side's force from its roster: platoons of teams."""

    side: Side
    platoons: Annotated[list[PlatoonSpec], Meta(min_length=1, max_length=60)]


force_mustered = REGISTRY.event_type("force_mustered", FowForceMustered, rules=("F-RECON-1", "F-TRAIN-21"),
                                     title_ru="Силы выставлены", title_en="Force mustered", game_master_only=True)
POLICY["force_mustered"] = Recorder("game_master", game_master, "Мастер (сбор сил из ростеров)",
                                    "The game master (mustering from rosters)")


@force_mustered.check
def _check_mustered(state: FowState, p: FowForceMustered, ctx: Context) -> None:
    if state.status == "ended":
        refuse("S-ENDED", "Бой окончен.", "The battle is over.")
    ids: set[str] = set()
    platoon_ids = {pl.id for pl in p.platoons}
    for pl in p.platoons:
        if pl.id in state.platoons or pl.id in ids:
            refuse("S-DUPLICATE", f"Идентификатор {pl.id!r} уже занят.", f"The id {pl.id!r} is already used.")
        ids.add(pl.id)
        for t in pl.teams:
            if t.id in state.teams or t.id in ids:
                refuse("S-DUPLICATE", f"Идентификатор {t.id!r} уже занят.", f"The id {t.id!r} is already used.")
            ids.add(t.id)
        if pl.command and pl.command not in {t.id for t in pl.teams}:
            refuse("S-UNKNOWN", f"Командного отделения {pl.command!r} нет во взводе {pl.id!r}.",
                   f"The Command team {pl.command!r} is not in platoon {pl.id!r}.")
        if pl.kind == "armoured_train":
            if sum(t.locomotive for t in pl.teams) != 1:
                refuse("G-F3", "У бронепоезда ровно один Локомотив.", "An armoured train has exactly one Locomotive.")
            for e in pl.escorts:
                if e not in platoon_ids and e not in state.platoons:
                    refuse("S-UNKNOWN", f"Танкового Взвода Поддержки {e!r} нет.", f"No Tank Support Platoon {e!r}.")
        elif pl.escorts:
            refuse("G-F3", "Танковые Взводы Поддержки бывают только у бронепоезда.",
                   "Only an armoured train has Tank Support Platoons.")


@force_mustered.mutator
def _apply_mustered(state: FowState, p: FowForceMustered, ctx: Context) -> None:
    for pl in p.platoons:
        state.platoons[pl.id] = Platoon(id=pl.id, side=p.side, kind=pl.kind, command=pl.command or pl.teams[0].id,
                                        skill=pl.skill, teams=[t.id for t in pl.teams], escorts=list(pl.escorts))
        for t in pl.teams:
            state.teams[t.id] = Team(
                id=t.id, side=p.side, platoon=pl.id, kind=t.kind, gun_size=t.gun_size, anti_aircraft=t.anti_aircraft,
                armoured=t.armoured, recon=t.recon or pl.kind == "recon",  # F-RECON-1
                independent=t.independent or pl.kind == "independent", warrior=t.warrior, observer=t.observer,
                cavalry=t.cavalry, pioneer_supply=t.pioneer_supply, locomotive=t.locomotive, movement=t.movement,
                rof=t.rof, rof_moved=t.rof_moved,
                armour_top=t.armour_top, armour_side=t.armour_side)  # aircraft (F-AIR)
        if pl.kind == "armoured_train":  # F-TRAIN-21: one whole train; G-F3: wagons, one Locomotive
            loco = next(t.id for t in pl.teams if t.locomotive)
            state.trains[pl.id] = ArmouredTrain(id=pl.id, side=p.side, locomotive=loco,
                                                wagons=[t.id for t in pl.teams], escorts=list(pl.escorts),
                                                reserve=pl.reserve)
    for train in state.trains.values():
        for e in train.escorts:
            if e in state.platoons:
                state.platoons[e].train = train.id
    for hook in ON_MUSTER:
        hook(state, p, ctx)


# --- turn_ended --------------------------------------------------------------------
class FowTurnEnded(Payload):
    """The side to move ends its turn; the other side moves next."""

    side: Annotated[Side, Meta(description="The side whose turn ends")]
    turn: Annotated[int, Meta(ge=1, description="The turn number being ended")]


turn_ended = REGISTRY.event_type("turn_ended", FowTurnEnded, rules=("G-F1",),
                                 title_ru="Ход окончен", title_en="Turn ended")
POLICY["turn_ended"] = Recorder("actor", named_side, "Сторона, чей ход кончается", "The side whose turn ends")


@turn_ended.check
def _check_turn_ended(state: FowState, p: FowTurnEnded, ctx: Context) -> None:
    require_running(state)
    if p.side != state.side_to_move or p.turn != state.turn:
        refuse("S-TURN", f"Сейчас ход {state.turn}: ходят {side_ru(state.side_to_move)}.",
               f"It is turn {state.turn} of {side_en(state.side_to_move)}.")


# Hooks run after a force is mustered (``(state, payload, ctx)``): indexes an area keeps.
ON_MUSTER: list[Any] = []

# Hooks run after a turn ends (``(state, payload, ctx)``), for statuses that
# change with the turn rather than with an action (F-RECON-3's cautious movement).
ON_TURN_END: list[Any] = []


@turn_ended.mutator
def _apply_turn_ended(state: FowState, p: FowTurnEnded, ctx: Context) -> None:
    if state.turns:
        state.turns[-1].last_seq = ctx.seq
    nxt = other(p.side)
    if nxt == state.first_mover:
        state.turn = p.turn + 1
    state.side_to_move = nxt
    state.step = "movement"  # the next turn opens with its Movement Step (rules/steps.py, G-F1)
    state.ply += 1
    state.turns.append(TurnRecord(number=state.turn, side=nxt, first_seq=ctx.seq + 1, last_seq=ctx.seq))
    for hook in ON_TURN_END:
        hook(state, p, ctx)


# --- battle_ended --------------------------------------------------------------------
class FowBattleEnded(Payload):
    """The battle is over, with its outcome as the table agreed it."""

    winner: Annotated[Literal["attacker", "defender", "draw"], Meta(description="Winner, or draw")]
    reason: Annotated[str, Meta(max_length=2000)] = ""


battle_ended = REGISTRY.event_type("battle_ended", FowBattleEnded, title_ru="Бой окончен", title_en="Battle ended")
POLICY["battle_ended"] = Recorder("either", either, "Любая сторона: итог, о котором договорился стол",
                                  "Either side: the outcome the table agreed")


@battle_ended.check
def _check_ended(state: FowState, p: FowBattleEnded, ctx: Context) -> None:
    require_running(state)


# The end is the same fact in both rulesets: v11.2's mutator reads only fields FowState shares.
battle_ended.mutator(_apply_v11_ended)


# --- correction (shared with v11.2: same name, payload and effect) --------------------
correction = REGISTRY.event_type("correction", Correction, rules=("S-CORRECTION",),
                                 title_ru="Исправление", title_en="Correction")
POLICY["correction"] = Recorder("game_master", correction_recorder, CORRECTION_RU, CORRECTION_EN)


@correction.check
def _check_correction(state: FowState, p: Correction, ctx: Context) -> None:
    check_correction(state, p, ctx, "S-CORRECTION")


correction.mutator(_apply_correction)


# --- status_set: what the core rules decide (G-F1) -------------------------------------
Status = Literal["bogged", "bailed_out", "destroyed", "pinned", "gone_to_ground", "concealed", "bulletproof_cover"]
TEAM_STATUSES = ("bogged", "bailed_out", "destroyed", "gone_to_ground", "concealed", "bulletproof_cover")


class StatusSet(Payload):
    """A status the core rules (not in the seeds, G-F1) give or take away:
    a team Bogged Down, Bailed Out (or remounted), Destroyed, in cover, or a
    platoon Pinned Down (or rallied)."""

    subject: Annotated[str, Meta(min_length=1, max_length=60, description="A team's or a platoon's id")]
    status: Status
    value: bool = True
    reason: Annotated[str, Meta(max_length=500)] = ""


status_set = REGISTRY.event_type("status_set", StatusSet, rules=("G-F1",),
                                 title_ru="Состояние: Покинутый, Уничтоженный, Прижатый Огнём…",
                                 title_en="Status: Bailed Out, Destroyed, Pinned Down…")
POLICY["status_set"] = Recorder("either", either, "Любая сторона: итог по основным правилам",
                                "Either side: the outcome of the core rules")


@status_set.check
def _check_status(state: FowState, p: StatusSet, ctx: Context) -> None:
    require_running(state)
    if p.status == "pinned":
        if p.subject not in state.platoons:
            refuse("S-UNKNOWN", f"Взвода {p.subject!r} нет.", f"No platoon {p.subject!r}.")
    elif p.subject not in state.teams:
        refuse("S-UNKNOWN", f"Отделения {p.subject!r} нет.", f"No team {p.subject!r}.")


@status_set.mutator
def _apply_status(state: FowState, p: StatusSet, ctx: Context) -> None:
    if p.status == "pinned":
        state.platoons[p.subject].pinned = p.value
        return
    t: Any = state.teams[p.subject]
    setattr(t, p.status, p.value)
    if p.status == "destroyed" and p.value:
        t.wreck = t.armoured  # F-AIR-13 reads the same for any armoured vehicle


__all__ = ["GunSize", "PlatoonKind", "Side", "TeamKind", "subject_side"]
