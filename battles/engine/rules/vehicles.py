"""Vehicles and the men in and on them: embarking and disembarking (V-TRANS),
tank riders (V-RIDE), capture of a vehicle (V-CAPT), boarding a tank whose
crew a flamethrower destroyed (V-FLAME-3), and crews leaving and manning a
piece (V-CREW-3..6)."""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from battles.engine.dice import Die
from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState

from .common import (
    capture,
    credit_of,
    enemy,
    fighter,
    refuse,
    require_fit,
    require_own_turn,
    success,
    vehicle,
    vehicle_commander,
)
from .core import require_running

Id = Annotated[str, Meta(min_length=1, max_length=64)]


class Embarked(Payload):
    """Infantrymen brought into contact with a vehicle go onto its card
    (V-TRANS-2): as passengers of a car or APC, or as tank riders (V-RIDE-2, -3)."""

    vehicle: Id
    fighters: Annotated[list[str], Meta(min_length=1, max_length=15)]
    role: Literal["passengers", "riders"] = "passengers"
    in_contact: bool = True


embarked = event_type(
    "embarked", Embarked,
    rules=("V-TRANS-1", "V-TRANS-2", "V-TRANS-4", "V-TRANS-5", "V-RIDE-1", "V-RIDE-2", "V-RIDE-3"),
    title_ru="Посадка в технику", title_en="Embarked",
)


@embarked.check
def _check_embarked(state: BattleState, p: Embarked, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    v = vehicle(state, p.vehicle)
    if v.destroyed:  # the vehicle's and the men's own status before turn order
        raise refuse("V-VDMG-4", f"{v.id} уничтожена.", f"{v.id} is destroyed.")
    for fid in p.fighters:
        require_fit(state, fighter(state, fid), r, moving=True)
    require_own_turn(state, v.side)
    if not p.in_contact:
        raise refuse("V-TRANS-2", "Пехотинца подводят непосредственно к технике.", "The infantryman must touch the vehicle.")
    for fid in p.fighters:
        f = fighter(state, fid)
        if f.side != v.side:
            raise refuse("S-UNKNOWN", f"Боец {fid} не ваш.", f"Fighter {fid} is not yours.")
        require_fit(state, f, r, moving=True)
        if f.aboard:
            raise refuse("V-TRANS-2", f"Боец {fid} уже на технике.", f"Fighter {fid} is already aboard.")
    if p.role == "passengers":
        if v.kind not in ("apc", "car"):
            raise refuse("V-TRANS-5", "Пехоту перевозят только автомобили и БТР; танки — десантом.",
                         "Only cars and APCs carry infantry; tanks carry riders.")
        seats = min(r["transport_max"], v.seats or r["seats"].get(v.kind, 0))
        if len(v.passengers) + len(p.fighters) > seats:
            raise refuse("V-TRANS-1", f"Мест: {seats} (не более 15).", f"Seats: {seats} (never more than 15).")
    else:
        if v.armour < r["riders_min_armour"]:
            raise refuse("V-RIDE-1", "Десант — на броне техники класса 3 и выше.",
                         "Tank riders ride only on vehicles of armour class 3 or higher.")
        if len(v.riders) + len(p.fighters) > r["riders_max"]:
            raise refuse("V-RIDE-1", "Не более 14 бойцов десанта.", "At most 14 tank riders.")


@embarked.mutator
def _apply_embarked(state: BattleState, p: Embarked, ctx: Context) -> None:
    v = state.vehicles[p.vehicle]
    role = "passenger" if p.role == "passengers" else "rider"
    (v.passengers if role == "passenger" else v.riders).extend(p.fighters)
    v.embark_ply = state.ply  # V-TRANS-4
    for fid in p.fighters:
        f = state.fighters[fid]
        f.aboard, f.aboard_as, f.building = v.id, role, ""


class Disembarked(Payload):
    """Carried infantry is put down dug in within 1" of the vehicle, from the
    turn after embarking (V-TRANS-3)."""

    vehicle: Id
    fighters: Annotated[list[str], Meta(min_length=1, max_length=15)]
    distance: Annotated[float, Meta(ge=0)]


disembarked = event_type("disembarked", Disembarked, rules=("V-TRANS-3",), title_ru="Высадка",
                         title_en="Disembarked")


@disembarked.check
def _check_disembarked(state: BattleState, p: Disembarked, ctx: Context) -> None:
    require_running(state)
    v = vehicle(state, p.vehicle)
    require_own_turn(state, v.side)
    if v.embark_ply == state.ply:
        raise refuse("V-TRANS-3", "Высадка — на следующий ход после погрузки.", "Disembark on the turn after embarking.")
    if p.distance > ctx.rules["disembark_distance"]:
        raise refuse("V-TRANS-3", "Высаженные ставятся в 1\" от техники.", "They are placed within 1\" of the vehicle.")
    for fid in p.fighters:
        f = fighter(state, fid)
        if f.aboard != v.id or f.aboard_as == "crew":
            raise refuse("V-TRANS-3", f"Боец {fid} не перевозится этой техникой.", f"Fighter {fid} is not carried by it.")
        if f.dead or f.captured:
            raise refuse("S-DEAD", f"Боец {fid} не может действовать.", f"Fighter {fid} cannot act.")


@disembarked.mutator
def _apply_disembarked(state: BattleState, p: Disembarked, ctx: Context) -> None:
    v = state.vehicles[p.vehicle]
    gone = set(p.fighters)
    v.passengers = [x for x in v.passengers if x not in gone]
    v.riders = [x for x in v.riders if x not in gone]
    for fid in p.fighters:
        f = state.fighters[fid]
        f.aboard, f.aboard_as, f.posture, f.posture_ply = "", "", "dug_in", state.ply


class CaptureAttempted(Payload):
    """A capture test (V-CAPT-5) once V-CAPT-2..4 hold: running gear damaged,
    at least 5 enemy infantry within 2" all round, no friendly unit within 8"."""

    vehicle: Id
    infantry: Annotated[dict[str, float], Meta(description="Capturing fighter -> distance to the vehicle, inches")]
    surrounded: Annotated[bool, Meta(description="The vehicle is completely surrounded")]
    nearest_friendly: Annotated[float, Meta(
        ge=0, description="Nearest unit friendly to the owner; null if none")] | None
    die: Die


capture_attempted = event_type(
    "capture_attempted", CaptureAttempted,
    rules=("V-CAPT-1", "V-CAPT-2", "V-CAPT-3", "V-CAPT-4", "V-CAPT-5", "V-CAPT-6", "V-CAPT-7", "V-TEST-1"),
    title_ru="Попытка захвата техники", title_en="Vehicle capture attempted",
)


@capture_attempted.check
def _check_capture(state: BattleState, p: CaptureAttempted, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    v = vehicle(state, p.vehicle)
    if v.destroyed or v.kind == "aircraft":
        raise refuse("S-TARGET", f"{v.id} нельзя захватить.", f"{v.id} cannot be captured.")
    side = "attacker" if v.side == "defender" else "defender"
    for fid in p.infantry:  # the capturing men's own status before turn order
        require_fit(state, fighter(state, fid), r)
    require_own_turn(state, side)
    if not v.running_gear:
        raise refuse("V-CAPT-2", "Захват — только при повреждённой ходовой части.", "Capture needs running-gear damage.")
    fit = []
    for fid, dist in p.infantry.items():
        f = fighter(state, fid)
        if not enemy(v.side, f.side):
            raise refuse("V-CAPT-3", f"{fid} — не пехота противника этой техники.", f"{fid} is not enemy infantry.")
        require_fit(state, f, r)
        if dist <= r["capture_ring"] and not f.aboard:
            fit.append(fid)
    if not p.surrounded or len(fit) < r["capture_min_infantry"]:
        raise refuse("V-CAPT-3", "Нужно полное окружение: не менее 5 пехотинцев в пределах 2\".",
                     "The vehicle must be completely surrounded by at least 5 infantry within 2\".")
    if p.nearest_friendly is not None and p.nearest_friendly <= r["capture_friendly_clear"]:
        raise refuse("V-CAPT-4", "В пределах 8\" есть дружественные технике подразделения.",
                     "A unit friendly to the vehicle is within 8\".")
    if v.capture_failed_turn == state.turn:
        raise refuse("V-CAPT-6", "Неудачный тест повторяют в следующий ход.", "A failed test may be repeated next turn.")


@capture_attempted.mutator
def _apply_capture(state: BattleState, p: CaptureAttempted, ctx: Context) -> None:
    v = state.vehicles[p.vehicle]
    if not success(p.die, ctx.rules):
        v.capture_failed_turn = state.turn  # V-CAPT-6
        return
    # JSON objects keep no order in every database (PostgreSQL jsonb): credit the first id
    first = state.fighters[min(p.infantry)]
    for c in credit_of(state, vehicle_commander(state, v)):
        c.vehicles_lost += 1
    for fid in (*v.crew, *v.passengers):
        capture(state, state.fighters[fid], first.side, first.unit, first)  # V-CAPT-7
    v.side, v.captured = first.side, True
    v.crew, v.passengers = [], []
    for c in credit_of(state, first):
        c.vehicles_captured += 1


class VehicleBoarded(Payload):
    """A fighter is put inside a tank whose crew a flamethrower destroyed: from
    the next turn that captures it without the capture rules (V-FLAME-3)."""

    vehicle: Id
    fighter: Id


vehicle_boarded = event_type("vehicle_boarded", VehicleBoarded, rules=("V-FLAME-3", "V-FLAME-4"),
                             title_ru="Захват техники без экипажа", title_en="Crewless vehicle boarded")


@vehicle_boarded.check
def _check_boarded(state: BattleState, p: VehicleBoarded, ctx: Context) -> None:
    require_running(state)
    v, f = vehicle(state, p.vehicle), fighter(state, p.fighter)
    require_fit(state, f, ctx.rules, moving=True)  # the boarder's own status before turn order
    require_own_turn(state, f.side)
    if not v.crew_flamed_turn or v.destroyed or v.side == f.side:
        raise refuse("V-CAPT-1", "Без правил захвата можно взять только танк, экипаж которого уничтожен огнемётом.",
                     "Only a tank whose crew a flamethrower destroyed can be taken without the capture rules.")
    if v.crew_flamed_turn >= state.turn:
        raise refuse("V-FLAME-3", "Такой танк захватывают на следующий ход.", "Such a tank is captured on the next turn.")
    manned = [c for c in (*v.crew, *v.passengers) if not state.fighters[c].dead and not state.fighters[c].captured]
    if manned:  # V-FLAME-3: only while the crew is dead; men put back in are taken only by V-CAPT
        raise refuse("V-FLAME-3", f"В {v.id} снова есть живые ({', '.join(manned)}): его берут только по правилам захвата.",
                     f"{v.id} is manned again ({', '.join(manned)}): it is taken only by the capture rules.")


@vehicle_boarded.mutator
def _apply_boarded(state: BattleState, p: VehicleBoarded, ctx: Context) -> None:
    v, f = state.vehicles[p.vehicle], state.fighters[p.fighter]
    v.side, v.captured = f.side, True
    v.crew = [p.fighter]
    f.aboard, f.aboard_as = v.id, "crew"
    for c in credit_of(state, f):
        c.vehicles_captured += 1


class CrewBoarded(Payload):
    """Fighters join a vehicle's crew (e.g. personnel to drive a captured tank, V-FLAME-4)."""

    vehicle: Id
    fighters: Annotated[list[str], Meta(min_length=1, max_length=10)]


crew_boarded = event_type("crew_boarded", CrewBoarded, rules=("V-FLAME-4", "V-CREW-4", "V-CREW-5", "V-CAPT-1"),
                          title_ru="Экипаж занял места", title_en="Crew boarded")


@crew_boarded.check
def _check_crew_boarded(state: BattleState, p: CrewBoarded, ctx: Context) -> None:
    require_running(state)
    v = vehicle(state, p.vehicle)
    for fid in p.fighters:  # the men's own status before turn order
        require_fit(state, fighter(state, fid), ctx.rules, moving=True)
    if any(enemy(v.side, fighter(state, fid).side) for fid in p.fighters):
        raise refuse("V-CAPT-1", f"{v.id} — техника противника: её берут только по правилам захвата.",
                     f"{v.id} is the enemy's: it is taken only by the capture rules.")
    require_own_turn(state, v.side)
    if v.destroyed:
        raise refuse("V-VDMG-4", f"{v.id} уничтожена.", f"{v.id} is destroyed.")
    for fid in p.fighters:
        f = fighter(state, fid)
        if f.side != v.side or f.aboard:
            raise refuse("S-UNKNOWN", f"Боец {fid} не может сесть в {v.id}.", f"Fighter {fid} cannot board {v.id}.")
        require_fit(state, f, ctx.rules, moving=True)


@crew_boarded.mutator
def _apply_crew_boarded(state: BattleState, p: CrewBoarded, ctx: Context) -> None:
    v = state.vehicles[p.vehicle]
    v.crew.extend(p.fighters)
    for fid in p.fighters:
        f = state.fighters[fid]
        f.aboard, f.aboard_as = v.id, "crew"


class CrewDismounted(Payload):
    """Crewmen leave their vehicle or gun (having a crew is optional, V-CREW-3):
    with one man left it may only move (V-CREW-4), with none it neither moves
    nor fires, and those who left are no longer killed with it (V-CREW-6).
    Men of the same side may man it again (``crew_boarded``); the enemy takes
    it only by the capture rules (V-CAPT-1). Reading: the men are put down
    dug in within 1" of it, as carried infantry (V-TRANS-3)."""

    vehicle: Id
    fighters: Annotated[list[str], Meta(min_length=1, max_length=10)]
    distance: Annotated[float, Meta(ge=0)]


crew_dismounted = event_type("crew_dismounted", CrewDismounted,
                             rules=("V-CREW-4", "V-CREW-5", "V-CREW-6", "V-CAPT-1", "V-TRANS-3"),
                             title_ru="Экипаж покинул технику", title_en="Crew dismounted")


@crew_dismounted.check
def _check_crew_dismounted(state: BattleState, p: CrewDismounted, ctx: Context) -> None:
    require_running(state)
    v = vehicle(state, p.vehicle)
    require_own_turn(state, v.side)
    if v.destroyed:
        raise refuse("V-VDMG-4", f"{v.id} уничтожена.", f"{v.id} is destroyed.")
    for fid in p.fighters:
        f = fighter(state, fid)
        if f.aboard != v.id or f.aboard_as != "crew" or fid not in v.crew:
            raise refuse("S-UNKNOWN", f"Боец {fid} не в экипаже {v.id}.", f"Fighter {fid} is not in {v.id}'s crew.")
        if f.dead or f.captured:
            raise refuse("S-DEAD", f"Боец {fid} не может действовать.", f"Fighter {fid} cannot act.")
    if p.distance > ctx.rules["disembark_distance"]:
        raise refuse("V-TRANS-3", "Покинувшие технику ставятся в 1\" от неё.", "They are placed within 1\" of it.")


@crew_dismounted.mutator
def _apply_crew_dismounted(state: BattleState, p: CrewDismounted, ctx: Context) -> None:
    v = state.vehicles[p.vehicle]
    gone = set(p.fighters)
    v.crew = [x for x in v.crew if x not in gone]
    for fid in p.fighters:
        f = state.fighters[fid]
        f.aboard, f.aboard_as, f.posture, f.posture_ply = "", "", "dug_in", state.ply
