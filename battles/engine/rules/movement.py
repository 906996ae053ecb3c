"""The turn's first two steps: declaring postures (V-TURN-9) and moving
(V-TURN-10), for fighters and vehicles, with terrain (V-TERR, V-HOUSE-8/11,
V-WIRE) and the movement limits of the posture (G-4) or the drive (G-18)."""
from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState, Fighter

from .common import (  # noqa: F401 - require_crew is re-exported for fire.py
    fighter,
    is_officer,
    posture_of,
    refuse,
    require_able,
    require_crew,
    require_fit,
    require_own_turn,
    unit_commander,
    vehicle,
)
from .core import require_running
from .setup import Posture, Side

Ids = Annotated[list[str], Meta(min_length=1, max_length=200)]


def require_phase(state: BattleState, phase: str, rule: str) -> None:
    order = {"posture": 0, "move": 1, "fire": 2}
    if order[state.phase] > order[phase]:
        names = {"move": ("передвижение", "movement"), "posture": ("объявление положений", "declaring postures")}
        ru, en = names[phase]
        raise refuse(rule, f"После стрельбы/движения {ru} в этом ходу уже невозможно.",
                     f"Too late for {en} in this turn: the turn has moved on.")
    if phase != "posture" and state.postures_ply != state.ply:
        raise refuse("V-TURN-9", "Ход начинается с объявления положений подразделений.",
                     "A turn opens by declaring the posture of each unit.")


def team_led(state: BattleState, uid: str) -> bool:
    """A fire team has its own posture only while its commander is with it (V-SQUAD-4)."""
    return unit_commander(state, uid) is not None


# --- postures_declared -----------------------------------------------------------
class PosturesDeclared(Payload):
    """The player tells the posture of each of his units (V-TURN-9); snipers
    (V-SNIP-1) and lieutenants/captains outside units (V-OFF-9) have their own."""

    side: Side
    units: dict[str, Posture] = {}
    fighters: dict[str, Posture] = {}


# V-MORALE-2: a morale test's result holds the unit's posture (a retreat marches, a unit that dug in stays dug
# in) until it comes under another friendly officer.
MORALE_HELD_POSTURE = {"retreat": "march", "dug_in": "dug_in"}

postures_declared = event_type(
    "postures_declared", PosturesDeclared,
    rules=("V-TURN-9", "V-SQUAD-4", "V-OFF-5", "V-OFF-6", "V-OFF-9", "V-SNIP-1", "V-MORALE-2"),
    title_ru="Положения объявлены", title_en="Postures declared",
)


@postures_declared.check
def _check_postures(state: BattleState, p: PosturesDeclared, ctx: Context) -> None:
    require_running(state)
    require_own_turn(state, p.side)
    require_phase(state, "posture", "V-TURN-9")
    for uid, posture in p.units.items():
        u = state.units.get(uid)
        if u is None or u.side != p.side:
            raise refuse("S-UNKNOWN", f"Подразделение {uid!r} не ваше или не найдено.", f"No unit {uid!r} of yours.")
        if u.parent:
            if not team_led(state, uid):
                raise refuse("V-SQUAD-4", f"Группа {uid} определяет положение только при своём командире.",
                             f"Fire team {uid} sets its own posture only while its commander is with it.")
        if u.morale in MORALE_HELD_POSTURE and posture != MORALE_HELD_POSTURE[u.morale]:
            raise refuse("V-MORALE-2", f"Результат теста морали ({u.morale}) действует до смены командира.",
                         f"The morale result ({u.morale}) holds until the unit comes under another officer.")
        if u.morale == "surrendered":
            raise refuse("V-TEST-3", f"Подразделение {uid} сдалось.", f"Unit {uid} has surrendered.")
    for fid, _posture in p.fighters.items():
        f = fighter(state, fid)
        if f.side != p.side:
            raise refuse("S-UNKNOWN", f"Боец {fid} не ваш.", f"Fighter {fid} is not yours.")
        if f.cls == "sniper":
            continue  # V-SNIP-1
        if f.rank in ("lieutenant", "captain") and not f.unit:
            continue  # V-OFF-6, V-OFF-9
        raise refuse("V-OFF-5", f"Боец {fid} действует согласно положению своего подразделения.",
                     f"Fighter {fid} moves and fires by his unit's posture.")
    # With several players on the side, each declares for the units of his own roster (V-TURN-9 per player);
    # the side's turn opens once every unit is declared (``_apply_postures``).
    shared = len({u.player for u in state.units.values() if u.side == p.side and u.player}) > 1
    named = {state.units[u].player for u in p.units}
    missing = sorted(u for u in undeclared(state, p.side)
                     if u not in p.units and (not shared or state.units[u].player in named))
    if missing:
        raise refuse("V-TURN-9", f"Нужно объявить положение каждого подразделения: нет {', '.join(missing)}.",
                     f"Declare the posture of each unit: missing {', '.join(missing)}.")


@postures_declared.mutator
def _apply_postures(state: BattleState, p: PosturesDeclared, ctx: Context) -> None:
    units = state.units
    for uid, posture in p.units.items():
        u = units[uid]
        u.posture, u.posture_ply = posture, state.ply
    for u in units.values():  # a fire team without its commander follows its squad (V-SQUAD-4)
        if u.parent and u.parent in p.units and u.id not in p.units and u.side == p.side:
            u.posture, u.posture_ply = p.units[u.parent], state.ply
    for fid, posture in p.fighters.items():
        f = state.fighters[fid]
        f.posture, f.posture_ply = posture, state.ply
    if not undeclared(state, p.side):  # every unit of the side has its posture: the turn opens (V-TURN-9)
        state.postures_ply = state.ply


def undeclared(state: BattleState, side: str) -> list[str]:
    """The side's units that must still declare a posture this turn (V-TURN-9): manned, not surrendered,
    a fire team only while its commander leads it (V-SQUAD-4)."""
    manned = {f.unit for f in state.fighters.values() if f.side == side and not f.dead and not f.captured}
    return [u.id for u in state.units.values()
            if u.side == side and u.id in manned and u.posture_ply != state.ply and u.morale != "surrendered"
            and (not u.parent or team_led(state, u.id))]


# --- fighters_moved ------------------------------------------------------------------
class FightersMoved(Payload):
    """Fighters move (V-TURN-10). The table states the distance moved, whether
    on a road, floors climbed inside a house, and what was crossed."""

    side: Side
    fighters: Ids
    distance: Annotated[float, Meta(ge=0, description="Longest horizontal move, inches")]
    road: Annotated[bool, Meta(description="Moved along a road section (V-TERR-7)")] = False
    floors: Annotated[int, Meta(ge=0, le=20, description="Floors climbed inside a house (V-HOUSE-11)")] = 0
    enter_house: Annotated[str, Meta(max_length=64)] | None = None
    leave_house: bool = False
    through_opening: Annotated[bool, Meta(description="Entered/left through an agreed opening (V-HOUSE-8)")] = True
    obstacle_height: Annotated[float, Meta(ge=0, description="Tallest object moved over, inches")] = 0.0
    wire: Annotated[list[str], Meta(description="Wire or fence sections crossed")] = []
    water: Annotated[bool, Meta(description="Crossed a water obstacle")] = False
    bridge: Annotated[bool, Meta(description="...by a bridge")] = False
    mg_spacing: Annotated[float, Meta(
        ge=0, description="MG crew: widest gap to the MG or each other after the move (V-MG-7)")] | None = None


fighters_moved = event_type(
    "fighters_moved", FightersMoved,
    rules=("V-TURN-10", "V-TERR-3", "V-TERR-7", "V-TERR-10", "V-HOUSE-8", "V-HOUSE-11", "V-WIRE-1", "V-WIRE-4",
           "V-MED-5", "V-MG-5", "V-MG-6", "V-MG-7", "V-POW-5", "V-OFF-5"),
    title_ru="Бойцы передвинуты", title_en="Fighters moved",
)


def hmg_crew(state: BattleState, f: Fighter) -> list[Fighter]:
    """V-MG-7: the fit men of ``f``'s heavy MG crew, ``f`` included: a gunner and the assistants who
    name him (``mg``). An assistant who names no gunner serves every heavy MG of his unit, so in a
    squad with two MGs (V-SQUAD-8) such a man binds the two crews into one."""
    mates = [m for m in state.fighters.values() if m.unit == f.unit and m.cls in ("hmg_gunner", "hmg_assistant")]
    if f.cls == "hmg_gunner" or f.mg:
        gunners = {f.id if f.cls == "hmg_gunner" else f.mg}
    else:
        gunners = {m.id for m in mates if m.cls == "hmg_gunner"}
    return [m for m in mates if (m.id in gunners or m.id == f.id
                                 or (m.cls == "hmg_assistant" and (not m.mg or m.mg in gunners)))
            and not m.dead and not m.captured and not m.wounded]


@fighters_moved.check
def _check_moved(state: BattleState, p: FightersMoved, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    for fid in p.fighters:  # the actors' own status before turn order
        f = fighter(state, fid)
        if f.captured:
            raise refuse("V-POW-5", f"Пленный {fid} не может бежать.", f"Prisoner {fid} cannot escape.")
        require_fit(state, f, r, moving=True)
    require_own_turn(state, p.side)
    require_phase(state, "move", "V-TURN-10")
    for fid in p.fighters:
        f = fighter(state, fid)
        if f.captured:
            raise refuse("V-POW-5", f"Пленный {fid} не может бежать.", f"Prisoner {fid} cannot escape.")
        if f.side != p.side:
            raise refuse("S-UNKNOWN", f"Боец {fid} не ваш.", f"Fighter {fid} is not yours.")
        require_fit(state, f, r, moving=True)
        if f.aboard:
            raise refuse("V-TRANS-3", f"Боец {fid} в технике: сначала высадка.", f"Fighter {fid} is aboard: disembark first.")
        if f.cls == "hmg_gunner":
            mates = [m for m in hmg_crew(state, f) if m.cls == "hmg_assistant"]
            if not mates:
                raise refuse("V-MG-6", f"Без помощника станковый пулемёт {fid} не может двигаться.",
                             f"Without his assistant, heavy MG gunner {fid} cannot move the gun.")
        if f.cls in ("hmg_gunner", "hmg_assistant"):
            crew = [m.id for m in hmg_crew(state, f)]
            if not set(crew) <= set(p.fighters) or (p.mg_spacing is not None and p.mg_spacing > r["mg_crew_spacing"]):
                raise refuse("V-MG-7", "Пулемётчики передвигаются вместе, в пределах 1\" от пулемёта и друг от друга.",
                             "MG crewmen move together, within 1\" of the MG and of each other.")
        allowed = r["postures"][posture_of(state, f)]["move"] + (r["road_bonus"] if p.road else 0.0)
        if p.distance > allowed:
            raise refuse("V-TURN-10", f"Боец {fid} может пройти не более {allowed}\" в этом положении.",
                         f"Fighter {fid} may move at most {allowed}\" in this posture.")
    if p.floors > 1:
        raise refuse("V-HOUSE-11", "Внутри дома — не более 1 этажа за ход.", "At most 1 floor per turn inside a house.")
    if (p.enter_house or p.leave_house) and not p.through_opening:
        raise refuse("V-HOUSE-8", "В дом входят и выходят только через оговорённые проёмы.",
                     "Fighters enter and leave houses only through the agreed openings.")
    if p.enter_house is not None and p.enter_house not in state.buildings:
        raise refuse("S-UNKNOWN", f"Дом {p.enter_house!r} не найден.", f"No house {p.enter_house!r}.")
    if p.obstacle_height > r["infantry_max_obstacle_height"]:
        raise refuse("V-TERR-10", "Объекты выше 1,5\" непроходимы для пехоты.",
                     "Objects taller than 1.5\" are impassable for infantry.")
    for w in p.wire:
        sec = state.wire.get(w)
        if sec is None:
            raise refuse("S-UNKNOWN", f"Секция {w!r} не найдена.", f"No section {w!r}.")
        if not sec.removed:
            raise refuse("V-WIRE-4", f"Секцию {w} пехота преодолевает только после работы сапёра.",
                         f"Infantry crosses section {w} only once a sapper has removed it.")
    require_bridge(p.water, p.bridge, r)


@fighters_moved.mutator
def _apply_moved(state: BattleState, p: FightersMoved, ctx: Context) -> None:
    state.phase = "move"
    fighters = state.fighters
    for fid in p.fighters:
        fighters[fid].moved_ply = state.ply  # what the table shows as done this turn
    if p.enter_house is None and not p.leave_house:
        return
    for fid in p.fighters:
        fighters[fid].building = "" if p.leave_house else (p.enter_house or "")


# --- vehicle_moved -----------------------------------------------------------
class VehicleMoved(Payload):
    """A vehicle moves (V-TURN-10); wire sections driven through are removed
    by tracked vehicles (V-WIRE-3)."""

    vehicle: Annotated[str, Meta(min_length=1, max_length=64)]
    distance: Annotated[float, Meta(ge=0)]
    road: bool = False
    railway: Annotated[bool, Meta(description="Moved along a railway section (V-TERR-5)")] = False
    wire: list[str] = []
    towing: Annotated[str, Meta(max_length=64, description="Artillery piece towed (tractor)")] | None = None
    water: Annotated[bool, Meta(description="Crossed a water obstacle (V-TERR-3)")] = False
    bridge: Annotated[bool, Meta(description="...by a bridge")] = False


vehicle_moved = event_type(
    "vehicle_moved", VehicleMoved,
    rules=("V-TURN-10", "V-TRANS-4", "V-RIDE-3", "V-VDMG-6", "V-CREW-4", "V-FLAME-4", "V-TERR-5", "V-TERR-7",
           "V-WIRE-1", "V-WIRE-3", "V-TERR-3"),
    title_ru="Техника передвинута", title_en="Vehicle moved",
)


@vehicle_moved.check
def _check_vehicle_moved(state: BattleState, p: VehicleMoved, ctx: Context) -> None:
    require_running(state)
    v = vehicle(state, p.vehicle)
    require_able(state, None, v, ctx.rules)  # the actor's own status before turn order
    require_own_turn(state, v.side)
    require_phase(state, "move", "V-TURN-10")
    if v.running_gear:
        raise refuse("V-VDMG-6", f"Ходовая часть {v.id} повреждена: движение до конца боя невозможно.",
                     f"{v.id}'s running gear is damaged: it cannot move until the end of the battle.")
    if v.embark_ply == state.ply:
        raise refuse("V-TRANS-4", f"В ход погрузки техника {v.id} не движется.",
                     f"Vehicle {v.id} may not move in the turn men embark.")
    require_crew(state, v.id, to_fire=False)
    allowed = ctx.rules["vehicle_move"].get(v.drive, 0.0) + (ctx.rules["road_bonus"] if p.road else 0.0)
    if p.distance > allowed:
        raise refuse("V-TURN-10", f"Техника {v.id} проходит не более {allowed}\".", f"{v.id} moves at most {allowed}\".")
    if p.railway and v.armour == 1:
        raise refuse("V-TERR-5", "Техника класса брони 1 не ездит по железной дороге.",
                     "Vehicles of armour class 1 may not move along a railway.")
    for w in p.wire:
        sec = state.wire.get(w)
        if sec is None:
            raise refuse("S-UNKNOWN", f"Секция {w!r} не найдена.", f"No section {w!r}.")
        if not sec.removed and v.drive not in ("tracked", "half_tracked"):
            raise refuse("V-WIRE-1", "Проволока и забор непреодолимы для колёсной техники.",
                         "Wire and fences are impassable for wheeled vehicles.")
    require_bridge(p.water, p.bridge, ctx.rules)


def require_bridge(water: bool, bridge: bool, r: dict[str, Any]) -> None:
    """V-TERR-3 for men and vehicles alike: the seed's line names no kind of piece, and says nothing of
    fording (G-21), so its placeholder (bridges only) holds for vehicles too."""
    if water and not bridge and r["water_needs_bridge"]:
        raise refuse("V-TERR-3", "Водные препятствия пересекают по мостам.", "Water obstacles are crossed by bridges.")


@vehicle_moved.mutator
def _apply_vehicle_moved(state: BattleState, p: VehicleMoved, ctx: Context) -> None:
    state.phase = "move"
    state.vehicles[p.vehicle].moved_ply = state.ply
    for w in p.wire:
        state.wire[w].removed = True  # V-WIRE-3
