"""Sappers, mines and demolition charges (V-SAP, V-MINE, V-WIRE-4/5).

The sapper's scheme (V-SAP-2, -3): in one turn he stops within 4" of an
object (``sapper_approached``); in his next turn he removes it or lays mines
(``sapper_worked``) and may not fire (V-SAP-4)."""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from battles.engine import mines
from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState, Mine

from .common import (
    credit_of,
    credited,
    damage_reserve,
    destroy_vehicle,
    enemy,
    fighter,
    is_officer,
    kill,
    refuse,
    require_fit,
    require_own_turn,
    vehicle,
    wound,
)
from .core import require_running

Id = Annotated[str, Meta(min_length=1, max_length=64)]


def _sapper(state: BattleState, sid: str, rules: dict) -> None:
    s = fighter(state, sid)
    require_fit(state, s, rules)  # the sapper's own status before turn order
    require_own_turn(state, s.side)
    if s.cls != "sapper":
        raise refuse("V-SAP-1", f"{sid} — не сапёр.", f"{sid} is not a sapper.")


class SapperApproached(Payload):
    """Scheme, turn 1: the sapper stops within 4" of one chosen object (a mine,
    charge or wire section) or of the spot where he will lay mines."""

    sapper: Id
    object: Annotated[str, Meta(min_length=1, max_length=64, description="Mine, charge or wire id, or a new mine id")]
    distance: Annotated[float, Meta(ge=0)]


sapper_approached = event_type("sapper_approached", SapperApproached, rules=("V-SAP-1", "V-SAP-2", "V-WIRE-5"),
                               title_ru="Сапёр вышел к объекту", title_en="Sapper approached")


@sapper_approached.check
def _check_approached(state: BattleState, p: SapperApproached, ctx: Context) -> None:
    require_running(state)
    _sapper(state, p.sapper, ctx.rules)
    if p.distance > ctx.rules["sapper_reach"]:
        raise refuse("V-SAP-2", "Сапёр останавливается в пределах 4\" от объекта.", "The sapper must stop within 4\".")


@sapper_approached.mutator
def _apply_approached(state: BattleState, p: SapperApproached, ctx: Context) -> None:
    s = state.fighters[p.sapper]
    s.sapper_object, s.sapper_ply = p.object, state.ply


class SapperWorked(Payload):
    """Scheme, turn 2: the sapper removes the object (wire section, mine,
    charge) or lays a mine or charge there (V-SAP-3, V-MINE-1). A new mine's
    id must not name a mine his side knows of; an enemy mine it was never
    shown does not take the id (V-MINE-14: no oracle), and the two then stand
    side by side under one id, each side's events meaning its own."""

    sapper: Id
    action: Literal["remove", "lay"]
    object: Id
    kind: Literal["ap", "at", "charge"] | None = None


sapper_worked = event_type(
    "sapper_worked", SapperWorked,
    rules=("V-SAP-1", "V-SAP-3", "V-SAP-4", "V-MINE-1", "V-WIRE-4", "V-WIRE-5"),
    title_ru="Сапёр выполнил работу", title_en="Sapper worked",
)


@sapper_worked.check
def _check_worked(state: BattleState, p: SapperWorked, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    s = fighter(state, p.sapper)
    if s.cls != "sapper" and p.action == "lay":
        raise refuse("V-MINE-1", "Мины и заряды размещает только сапёр.", "Only a sapper places mines and charges.")
    _sapper(state, p.sapper, r)
    if s.sapper_object != p.object or s.sapper_ply < 0 or s.sapper_ply >= state.ply:
        raise refuse("V-SAP-3", "Сначала (ход 1) сапёр выходит к этому объекту на 4\".",
                     "First (turn 1) the sapper must stop within 4\" of this object.")
    if s.shot_ply == state.ply:
        raise refuse("V-SAP-4", "Во 2-й ход схемы сапёр не стреляет.", "In turn 2 of his scheme the sapper does not fire.")
    if p.action == "lay":
        # V-MINE-14: only a mine the sapper's side knows of makes the name taken; one of the enemy's it was
        # never shown does not (refusing would tell it is there): the new mine stands beside it (``mines``).
        if p.kind is None or any(mines.known_to(m, s.side) for m in mines.named(state, p.object)):
            raise refuse("V-SAP-3", "Укажите тип и новый идентификатор мины.", "Give the kind and a new mine id.")
        limit = r["mines_per_sapper"]
        if limit is not None and sum(1 for m in state.mines.values() if m.laid_by == s.id) >= limit:
            raise refuse("V-SAP-3", f"Сапёр {s.id} уже разместил {limit} мин(ы) и заряд(ы) за бой (G-22).",
                         f"Sapper {s.id} has already laid {limit} mine(s) and charge(s) this battle (G-22).")
    elif p.object not in state.wire and mines.worked_on(state, p.object, s.side) is None:
        # V-MINE-13, V-MINE-14: an enemy's mine or charge the sapper's side has not been shown is
        # refused exactly as one that does not exist (same rule, text and order): no oracle.
        raise refuse("S-UNKNOWN", f"Объект {p.object!r} не найден.", f"No object {p.object!r}.")


@sapper_worked.mutator
def _apply_worked(state: BattleState, p: SapperWorked, ctx: Context) -> None:
    s = state.fighters[p.sapper]
    s.sapper_work_ply, s.sapper_object = state.ply, ""
    if p.action == "lay":
        state.mines[mines.new_key(state, p.object)] = Mine(p.object, s.side, p.kind or "ap", s.id)
    elif p.object in state.wire:
        state.wire[p.object].removed = True  # V-WIRE-5
    else:
        mine = mines.worked_on(state, p.object, s.side)
        assert mine is not None  # (the check above)
        mine.active = False  # defused


class Victim(Payload):
    fighter: Id
    distance: Annotated[float, Meta(ge=0, description="Inches from the mine or charge")] = 0.0
    on_object_base: Annotated[bool, Meta(
        description="Within the base of the object the charge is on (V-MINE-11)")] = False


class MineTriggered(Payload):
    """An enemy ended its movement phase within 2" of a mine (V-MINE-2), in any
    phase of any turn. AP mines wound every infantryman within 2" (V-MINE-4);
    AT mines hit the vehicle (V-MINE-5, -6) unless a trawl takes it (V-MINE-9)."""

    mine: Id
    distance: Annotated[float, Meta(ge=0, description="The triggering enemy's distance to the mine")]
    vehicle: Annotated[str, Meta(max_length=64)] | None = None
    victims: list[Victim] = []
    trawl: bool = False


mine_triggered = event_type(
    "mine_triggered", MineTriggered,
    rules=("V-MINE-2", "V-MINE-3", "V-MINE-4", "V-MINE-5", "V-MINE-6", "V-MINE-7", "V-MINE-8", "V-MINE-9",
           "V-RIDE-7"),
    title_ru="Подрыв на мине", title_en="Mine triggered",
)


@mine_triggered.check
def _check_mine(state: BattleState, p: MineTriggered, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    m = mines.mine_for(state, "mine_triggered", p)
    if m is None or not m.active or m.kind == "charge":
        raise refuse("S-UNKNOWN", f"Мины {p.mine!r} нет.", f"No live mine {p.mine!r}.")
    if p.distance > r["mine_trigger_distance"]:
        raise refuse("V-MINE-2", "Мина срабатывает, если противник закончил движение в 2\".",
                     "A mine goes off when an enemy ends its move within 2\".")
    if m.kind == "ap" and p.vehicle is not None:
        raise refuse("V-MINE-8", "Противопехотная мина не срабатывает от танка.", "A vehicle does not set off an AP mine.")
    if m.kind == "at" and p.vehicle is None:
        raise refuse("V-MINE-7", "Противотанковая мина не срабатывает от пехоты.", "Infantry does not set off an AT mine.")
    if p.vehicle is not None:
        v = vehicle(state, p.vehicle)
        if not enemy(m.side, v.side) or v.destroyed:
            raise refuse("V-MINE-2", "Мину подрывает только противник.", "Only an enemy sets off a mine.")
        if p.trawl and "mine_trawl" not in v.specialisations:
            raise refuse("V-MINE-9", f"У {v.id} нет минного трала.", f"{v.id} has no mine trawl.")
    if m.kind == "ap" and not any(enemy(m.side, fighter(state, x.fighter).side) for x in p.victims):
        raise refuse("V-MINE-2", "Мину подрывает противник, закончивший движение в 2\".",
                     "A mine is set off by an enemy ending his move within 2\".")
    for x in p.victims:
        f = fighter(state, x.fighter)
        if x.distance > r["mine_radius"]:
            raise refuse("V-MINE-3", "Радиус взрыва мины — 2\".", "A mine's blast radius is 2\".")
        if f.aboard:
            raise refuse("V-MINE-4", f"{f.id} не на земле.", f"{f.id} is not on the ground.")


@mine_triggered.mutator
def _apply_mine(state: BattleState, p: MineTriggered, ctx: Context) -> None:
    r = ctx.rules
    m = mines.mine_for(state, "mine_triggered", p)
    assert m is not None  # (the check)
    m.active = False
    layer = state.fighters.get(m.laid_by)
    if m.kind == "ap":
        victims = p.victims if r["ap_mine_wounds_all"] else sorted(p.victims, key=lambda x: (x.distance, x.fighter))[:1]
        for x in victims:
            wound(state, state.fighters[x.fighter], layer, r)  # V-MINE-4
        return
    v = state.vehicles[p.vehicle or ""]
    if p.trawl:
        v.specialisations = [s for s in v.specialisations if s != "mine_trawl"]  # V-MINE-9
        return
    for fid in v.riders:
        wound(state, state.fighters[fid], layer, r)  # V-RIDE-7
    if v.armour <= 2:
        destroy_vehicle(state, v, layer)  # V-MINE-6
        return
    v.damage += 1  # V-MINE-5
    v.running_gear = True
    if v.damage > damage_reserve(v, r):
        destroy_vehicle(state, v, layer)


class ChargeDetonated(Payload):
    """A sapper detonates a charge on an officer's order, at any distance and
    in any phase (V-MINE-10): enemy infantry within 3" or on the object's base
    dies whatever the cover (V-MINE-11); objects in the radius become light
    cover (V-MINE-12)."""

    charge: Id
    sapper: Id
    officer: Id
    victims: list[Victim] = []
    objects: Annotated[list[str], Meta(description="Houses and pillboxes within 3\"")] = []


charge_detonated = event_type(
    "charge_detonated", ChargeDetonated, rules=("V-MINE-10", "V-MINE-11", "V-MINE-12", "V-HOUSE-2", "V-COVER-3"),
    title_ru="Подрыв заряда", title_en="Charge detonated",
)


@charge_detonated.check
def _check_charge(state: BattleState, p: ChargeDetonated, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    m = mines.mine_for(state, "charge_detonated", p)
    if m is None or not m.active or m.kind != "charge":
        raise refuse("S-UNKNOWN", f"Заряда {p.charge!r} нет.", f"No live charge {p.charge!r}.")
    s, o = fighter(state, p.sapper), fighter(state, p.officer)
    require_fit(state, s, r)
    if s.cls != "sapper" or s.side != m.side:
        raise refuse("V-MINE-10", "Заряд подрывает сапёр его стороны.", "A sapper of the charge's side detonates it.")
    if not is_officer(o) or o.side != m.side:
        raise refuse("V-MINE-10", "Подрыв — по приказу офицера.", "A charge goes off on an officer's order.")
    for x in p.victims:
        fighter(state, x.fighter)
        if x.distance > r["charge_radius"] and not x.on_object_base:
            raise refuse("V-MINE-11", "Заряд убивает в радиусе 3\" или на подставке объекта.",
                         "A charge kills within 3\" or on the object's base.")
    for oid in p.objects:
        if oid not in state.buildings and oid not in state.bunkers:
            raise refuse("S-UNKNOWN", f"Объект {oid!r} не найден.", f"No object {oid!r}.")


@charge_detonated.mutator
def _apply_charge(state: BattleState, p: ChargeDetonated, ctx: Context) -> None:
    r = ctx.rules
    m = mines.mine_for(state, "charge_detonated", p)
    assert m is not None  # (the check)
    m.active = False
    by = credited(state, p.sapper)
    for x in p.victims:
        f = state.fighters[x.fighter]
        if enemy(m.side, f.side) or r["charge_affects_friends"]:
            kill(state, f, by)  # V-MINE-11: regardless of cover and walls
    for oid in p.objects:
        obj = state.buildings.get(oid) or state.bunkers.get(oid)
        if obj is not None and not obj.light_cover:
            obj.light_cover = True  # V-MINE-12
            if oid in state.buildings:
                state.buildings[oid].damage = 3
            for c in credit_of(state, by):
                c.buildings_damaged += 1


class MineRevealed(Payload):
    """An enemy sapper within 6" of a mine or charge: its owner must show it
    (V-MINE-14). Only sappers detect mines (V-MINE-13)."""

    mine: Id
    sapper: Id
    distance: Annotated[float, Meta(ge=0)]


mine_revealed = event_type("mine_revealed", MineRevealed, rules=("V-MINE-13", "V-MINE-14"),
                           title_ru="Мина обнаружена", title_en="Mine revealed")


@mine_revealed.check
def _check_revealed(state: BattleState, p: MineRevealed, ctx: Context) -> None:
    require_running(state)
    m = mines.mine_for(state, "mine_revealed", p)
    if m is None or not m.active:
        raise refuse("S-UNKNOWN", f"Мины {p.mine!r} нет.", f"No live mine {p.mine!r}.")
    s = fighter(state, p.sapper)
    if s.cls != "sapper":
        raise refuse("V-MINE-13", "Опознавать мины и заряды могут только сапёры.", "Only sappers detect mines and charges.")
    if not enemy(m.side, s.side) or s.dead or s.captured:
        raise refuse("V-MINE-14", "Нужен живой сапёр противника.", "A live enemy sapper is needed.")
    if p.distance > ctx.rules["sapper_reveal_distance"]:
        raise refuse("V-MINE-14", "Сапёр должен быть в пределах 6\".", "The sapper must be within 6\".")


@mine_revealed.mutator
def _apply_revealed(state: BattleState, p: MineRevealed, ctx: Context) -> None:
    m = mines.mine_for(state, "mine_revealed", p)
    assert m is not None  # (the check)
    m.revealed = True
