"""Forces and terrain on the table: units, fighters, vehicles (incl. guns and
aircraft of the air support), houses, pillboxes, wire. Recorded before the
battle starts (deployment, V-TURN-2..5) or as reinforcements during it."""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState, Building, Bunker, Fighter, Unit, Vehicle, Wire

from .common import refuse

Side = Literal["attacker", "defender"]
Posture = Literal["dug_in", "march", "recon", "assault"]
Cls = Literal["rifleman", "sniper", "lmg_gunner", "hmg_gunner", "hmg_assistant", "scout", "sapper", "medic",
              "at_grenadier", "at_rifleman", "flamethrower", "radio_operator", "personnel", "officer"]
Rank = Literal["", "corporal", "sergeant", "lieutenant", "captain"]
MainWeapon = Literal["gun", "at_gun", "howitzer", "tank_howitzer", "heavy_howitzer", "heavy_tank_howitzer",
                     "infantry_howitzer", "mortar", "rocket_mortar", "aa_gun", "aa_autocannon", "vehicle_mg",
                     "ground_attack_aircraft", "bomber", "dive_bomber", "none"]
Id = Annotated[str, Meta(min_length=1, max_length=64)]


class UnitSpec(Payload):
    id: Id
    kind: Literal["squad", "fire_team", "tactical_group", "hq", "motorised", "crew"] = "squad"
    parent: Annotated[str, Meta(max_length=64, description="The squad of a fire team (V-SQUAD-4)")] = ""
    posture: Posture = "dug_in"
    commander: Annotated[str, Meta(max_length=64)] = ""
    name: Annotated[str, Meta(max_length=200, description="Display name from the roster")] = ""
    player: Annotated[str, Meta(max_length=64, description="The participant whose roster it came from")] = ""


class FighterSpec(Payload):
    id: Id
    unit: Annotated[str, Meta(max_length=64, description="Empty for a lieutenant or captain outside units")] = ""
    cls: Cls = "rifleman"
    rank: Rank = ""
    character: Annotated[str, Meta(max_length=64, description="Campaign character id, if any")] = ""
    posture: Posture | None = None
    morale_bonus: Annotated[int, Meta(ge=-20, le=20, description="G-12")] = 0
    melee_bonus: Annotated[int, Meta(ge=-20, le=20, description="G-12")] = 0
    building: Annotated[str, Meta(max_length=64)] = ""
    bunker: Annotated[str, Meta(max_length=64)] = ""
    name: Annotated[str, Meta(max_length=200, description="Display name from the roster")] = ""
    player: Annotated[str, Meta(max_length=64, description="The participant whose roster it came from")] = ""
    mg: Annotated[str, Meta(max_length=64, description=(
        "A heavy MG assistant: the gunner of his unit whose MG he serves (V-MG-7). Empty: every heavy MG of "
        "his unit (its one MG, or all of them as one crew)"))] = ""


class VehicleSpec(Payload):
    id: Id
    kind: Literal["tank", "apc", "car", "artillery", "aircraft"] = "tank"
    drive: Literal["tracked", "half_tracked", "wheeled", "towed", "none"] = "tracked"
    armour: Annotated[int, Meta(ge=0, le=6)] = 1
    gun: Annotated[int, Meta(ge=0, le=6)] = 0
    weapon: MainWeapon = "gun"
    seats: Annotated[int, Meta(ge=0, le=15, description="Seats for carried infantry (G-25)")] = 0
    skirts: bool = False
    specialisations: list[Literal["spotter", "tractor", "mine_trawl", "at_fire"]] = []
    crew: Annotated[list[str], Meta(
        description="Fighter ids of the crew (mustered in this event)")] = []
    name: Annotated[str, Meta(max_length=200, description="Display name from the roster")] = ""
    player: Annotated[str, Meta(max_length=64, description="The participant whose roster it came from")] = ""


class ForceMustered(Payload):
    """A side's force on the table: units, fighters and vehicles."""

    side: Side
    units: list[UnitSpec] = []
    fighters: list[FighterSpec] = []
    vehicles: list[VehicleSpec] = []
    replace: Annotated[bool, Meta(
        description="A re-muster before the first «Ход»: the side's pieces so far leave the table first (V-TURN-13)")] = False


force_mustered = event_type(
    "force_mustered", ForceMustered, rules=("V-OFF-9", "V-SNIP-1", "V-MG-7"),
    title_ru="Силы выставлены", title_en="Force mustered",
)


@force_mustered.check
def _check_muster(state: BattleState, p: ForceMustered, ctx: Context) -> None:
    if state.status == "ended":
        raise refuse("S-ENDED", "Бой окончен.", "The battle is over.")
    if p.replace and (state.status != "running" or state.ply != 0):
        # V-TURN-13: nothing is undone once a turn is over; before the first «Ход» the table is still set up
        raise refuse("V-TURN-13", "Заново силы выставляются только до первого «Хода»; потом — подкреплением.",
                     "Forces are mustered anew only before the first end of turn; later, as reinforcements.")
    ids = [u.id for u in p.units]
    fids = [f.id for f in p.fighters]
    vids = [v.id for v in p.vehicles]
    for group, known in ((ids, state.units), (fids, state.fighters), (vids, state.vehicles)):
        kept = {i for i, x in known.items() if not (p.replace and x.side == p.side)}
        if len(set(group)) != len(group) or any(i in kept for i in group):
            raise refuse("S-DUPLICATE", "Повторяющийся идентификатор.", "A duplicate id.")
    units = set(ids) | {u for u, x in state.units.items() if x.side == p.side and not p.replace}
    gunners = {x.id: x.unit for x in state.fighters.values()
               if x.cls == "hmg_gunner" and x.side == p.side and not p.replace}
    gunners.update({x.id: x.unit for x in p.fighters if x.cls == "hmg_gunner"})
    for f in p.fighters:
        if f.unit and f.unit not in units:
            raise refuse("S-UNKNOWN", f"Подразделение {f.unit!r} не найдено.", f"No unit {f.unit!r}.")
        if f.cls == "officer" and not f.rank:
            raise refuse("S-RANK", f"Офицер {f.id} должен иметь звание.", f"Officer {f.id} needs a rank.")
        if f.building and f.building not in state.buildings:
            raise refuse("S-UNKNOWN", f"Дом {f.building!r} не найден.", f"No house {f.building!r}.")
        if f.bunker and f.bunker not in state.bunkers:
            raise refuse("S-UNKNOWN", f"ДОТ {f.bunker!r} не найден.", f"No pillbox {f.bunker!r}.")
        if f.mg and (f.cls != "hmg_assistant" or gunners.get(f.mg) != f.unit):
            raise refuse("V-MG-7", f"{f.id}: mg — станковый пулемётчик его подразделения, если {f.id} — помощник.",
                         f"{f.id}: mg names a heavy MG gunner of his own unit, and only for an assistant.")
        if f.posture is not None and f.cls != "sniper" and not (f.rank in ("lieutenant", "captain") and not f.unit):
            raise refuse("V-OFF-5", f"Боец {f.id} действует согласно положению подразделения.",
                         f"Fighter {f.id} moves and fires by his unit's posture.")
    crew = [c for v in p.vehicles for c in v.crew]
    if len(set(crew)) != len(crew) or not set(crew) <= set(fids):
        raise refuse("S-UNKNOWN", "Экипаж должен состоять из бойцов этого события.",
                     "A crew must consist of fighters mustered in this event.")


@force_mustered.mutator
def _apply_muster(state: BattleState, p: ForceMustered, ctx: Context) -> None:
    if p.replace:  # the side's earlier muster leaves the table (the log keeps it)
        for group in (state.units, state.fighters, state.vehicles):
            for pid in [i for i, x in group.items() if x.side == p.side]:
                del group[pid]
    for u in p.units:
        state.units[u.id] = Unit(id=u.id, side=p.side, kind=u.kind, parent=u.parent, posture=u.posture,
                                 commander=u.commander, under=u.commander, player=u.player)
    for f in p.fighters:
        state.fighters[f.id] = Fighter(
            id=f.id, side=p.side, unit=f.unit, cls=f.cls, rank=f.rank, character=f.character, posture=f.posture or "",
            morale_bonus=f.morale_bonus, melee_bonus=f.melee_bonus, building=f.building, bunker=f.bunker,
            player=f.player, mg=f.mg)
    for v in p.vehicles:
        state.vehicles[v.id] = Vehicle(
            id=v.id, side=p.side, kind=v.kind, drive=v.drive, armour=v.armour, gun=v.gun, weapon=v.weapon,
            seats=v.seats, skirts=v.skirts, specialisations=list(v.specialisations), crew=list(v.crew),
            player=v.player)
        for fid in v.crew:
            f = state.fighters[fid]
            f.aboard, f.aboard_as = v.id, "crew"


class TerrainPlaced(Payload):
    """Battlefield objects agreed before the battle (V-TURN-5): houses,
    pillboxes (with the Spotter characteristic, V-BUNK-7), wire and fences."""

    houses: list[str] = []
    bunkers: list[str] = []
    spotter_bunkers: list[str] = []
    wire: list[str] = []
    fences: list[str] = []


terrain_placed = event_type("terrain_placed", TerrainPlaced, title_ru="Объекты поля боя",
                            title_en="Terrain placed")


@terrain_placed.check
def _check_terrain(state: BattleState, p: TerrainPlaced, ctx: Context) -> None:
    if state.status == "ended":
        raise refuse("S-ENDED", "Бой окончен.", "The battle is over.")
    ids = [*p.houses, *p.bunkers, *p.spotter_bunkers, *p.wire, *p.fences]
    if len(set(ids)) != len(ids) or any(i in state.buildings or i in state.bunkers or i in state.wire for i in ids):
        raise refuse("S-DUPLICATE", "Повторяющийся идентификатор.", "A duplicate id.")


@terrain_placed.mutator
def _apply_terrain(state: BattleState, p: TerrainPlaced, ctx: Context) -> None:
    for h in p.houses:
        state.buildings[h] = Building(h)
    for b in p.bunkers:
        state.bunkers[b] = Bunker(b)
    for b in p.spotter_bunkers:
        state.bunkers[b] = Bunker(b, spotter=True)
    for w in p.wire:
        state.wire[w] = Wire(w, "wire")
    for w in p.fences:
        state.wire[w] = Wire(w, "fence")
