"""Fire: small arms and MGs (G-2), guns and the tank test, howitzers, mortars
and rocket mortars, flamethrowers, AT grenade launchers and rifles, grenades,
AA guns and autocannons; against fighters, vehicles, houses, pillboxes and
aircraft. Also smoke rounds and fire correction (indirect fire)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.dice import Die, value
from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState, Correction, Fighter, Smoke, Vehicle
from battles.engine.weapons import AA_WEAPONS, HOWITZERS, has_smoke

from .common import (
    class_entry,
    credit_of,
    credited,
    damage_reserve,
    destroy_vehicle,
    enemy,
    fighter,
    grenade_min,
    is_officer,
    kill,
    observation_distance,
    posture_of,
    refuse,
    require_able,
    require_fit,
    require_own_turn,
    vehicle,
    wound,
)
from .core import require_running
from .movement import require_crew, require_phase

Weapon = Literal[
    "rifle", "sniper_rifle", "lmg", "hmg", "flamethrower", "at_grenade_launcher", "at_rifle", "grenade",
    "vehicle_mg", "gun", "at_gun", "howitzer", "tank_howitzer", "heavy_howitzer", "heavy_tank_howitzer",
    "infantry_howitzer", "mortar", "rocket_mortar", "aa_gun", "aa_autocannon", "ground_attack_aircraft",
    "bomber", "dive_bomber",
]
AIRCRAFT = frozenset({"ground_attack_aircraft", "bomber", "dive_bomber"})
AREA = HOWITZERS | AIRCRAFT | {"mortar"}  # aim point hit test, then G-2 for each fighter in the radius (G-7)
# Armour («бронетехника»): the seed's vehicle kinds are cars, armour and artillery pieces (V-VEH-1).
ARMOUR_KINDS = frozenset({"tank", "apc"})
GUNS = frozenset({"gun", "at_gun", "aa_gun"})
AT_INFANTRY = frozenset({"at_grenade_launcher", "at_rifle"})
MG_LIKE = frozenset({"lmg", "hmg", "vehicle_mg", "aa_autocannon"})
CLASS_WEAPONS = {
    "sniper_rifle": ("sniper",), "lmg": ("lmg_gunner",), "hmg": ("hmg_gunner",), "flamethrower": ("flamethrower",),
    "at_grenade_launcher": ("at_grenadier",), "at_rifle": ("at_rifleman", "at_grenadier"),
}
FIGHTER_WEAPONS = frozenset({"rifle", "grenade", "vehicle_mg"}) | frozenset(CLASS_WEAPONS)
# Classes armed with a weapon of their own; every other class's own small arm is the rifle.
ARMED_CLASSES = frozenset(c for classes in CLASS_WEAPONS.values() for c in classes)
POSTURE_NAMES = {"dug_in": ("в обороне", "dug in"), "march": ("на марше", "on the march"),
                 "recon": ("в разведке", "in recon"), "assault": ("в атаке", "in assault")}


def own_weapon(f: Fighter, weapon: str) -> bool:
    """Whether ``weapon`` is the small arm of ``f``'s class, the one whose fire
    distance by posture his row of the infantry table gives (G-3)."""
    allowed = CLASS_WEAPONS.get(weapon)
    if allowed is not None:
        return f.cls in allowed
    return weapon == "rifle" and f.cls not in ARMED_CLASSES


def shots_per_turn(weapon: str, rules: dict[str, Any]) -> int:
    """The shots a piece fires with ``weapon`` in a turn (G-7; V-MORT-3, V-ROCKET-2 by the rules data)."""
    return rules["shots_per_turn"].get(weapon, rules["default_shots_per_turn"])


def sorties_flown(aircraft: Any, rules: dict[str, Any]) -> bool:
    """V-CORR-2, G-8: an aircraft has flown the sorties a battle allows it (False for anything else)."""
    return aircraft.kind == "aircraft" and aircraft.sorties >= rules["air_sorties_per_battle"]


def class_fire_distance(state: BattleState, f: Fighter, weapon: str, rules: dict[str, Any]) -> tuple[bool, float | None]:
    """G-3, V-CMD-11: the fire distance of ``f``'s own small arm in his
    current posture, from ``infantry_fire`` (class or ``class:rank`` ->
    posture -> inches, ``None`` = he cannot fire in that posture). Returns
    ``(True, inches or None)`` when the table speaks, ``(False, None)`` when
    the weapon's own ``fire_distance`` applies (not his class's weapon, or
    no entry for his class and posture)."""
    if not own_weapon(f, weapon):
        return False, None
    table = class_entry(rules["infantry_fire"], f)
    posture = posture_of(state, f)
    if not table or posture not in table:
        return False, None
    return True, table[posture]


class Struck(Payload):
    """A fighter hit or in the damage radius, with his G-2 roll."""

    fighter: Annotated[str, Meta(min_length=1, max_length=64)]
    die: Die | None = None
    light_cover: Annotated[bool, Meta(description="Standing on a light-cover base (V-COVER-2)")] = False
    embrasure: Annotated[bool, Meta(description="At a pillbox embrasure (V-BUNK-2)")] = False
    distance: Annotated[float, Meta(ge=0, description="Inches from the point of impact (radius weapons)")] | None = None


class VehicleStruck(Payload):
    """A vehicle in an area weapon's damage radius, other than the one aimed at."""

    vehicle: Annotated[str, Meta(min_length=1, max_length=64)]
    distance: Annotated[float, Meta(ge=0, description="Inches from the point of impact")]


class Fire(Payload):
    """One shot. The table states the distance, visual contact, the target and
    the dice: ``hit`` is the hit, tank or grenade test; ``spot`` the spotting
    test; each struck fighter has his own die."""

    shooter: Annotated[str, Meta(min_length=1, max_length=64, description="Fighter or vehicle id")]
    weapon: Weapon
    target: Literal["fighters", "vehicle", "house", "bunker", "aircraft"]
    distance: Annotated[float, Meta(ge=0, description="Inches to the target")]
    target_id: Annotated[str, Meta(max_length=64)] = ""
    visual_contact: bool = True
    on_height: Annotated[bool, Meta(description="Shooter on a height (V-TERR-9)")] = False
    corrected: Annotated[bool, Meta(description="Indirect fire on a correction (V-CORR)")] = False
    hit: Die | None = None
    spot: Die | None = None
    struck: Annotated[list[Struck], Meta(max_length=50)] = []
    through_smoke: Annotated[str, Meta(
        max_length=64, description="Smoke screen on the line of sight (G-20)")] | None = None
    ambush: Annotated[bool, Meta(description="AT ambush in the enemy's movement phase (V-GUN-4)")] = False
    path_distance: Annotated[float, Meta(ge=0, description="Tank path to the aim line (V-GUN-5)")] | None = None
    vehicles_struck: Annotated[list[VehicleStruck], Meta(
        max_length=20,
        description="Area weapons: the other vehicles in the damage radius (V-MORT-4); their riders go in struck")] = []


fire = event_type(
    "fire", Fire,
    rules=("V-TURN-11", "V-CMD-8", "V-CMD-9", "V-CMD-10", "V-CMD-11", "V-TEST-1", "V-TEST-2", "V-TEST-8",
           "V-TEST-9", "V-TEST-10", "V-VDMG-2", "V-VDMG-3", "V-VDMG-4", "V-VDMG-5", "V-VDMG-6", "V-VDMG-8",
           "V-HOUSE-1", "V-HOUSE-2", "V-HOUSE-3", "V-HOUSE-4", "V-HOUSE-5", "V-HOUSE-6", "V-HOUSE-9", "V-HOUSE-10",
           "V-BUNK-1", "V-BUNK-2", "V-BUNK-3", "V-BUNK-4", "V-BUNK-5", "V-BUNK-6", "V-COVER-2", "V-COVER-3",
           "V-COVER-4", "V-TERR-9", "V-TERR-11", "V-MG-1", "V-MG-2", "V-MG-3", "V-MG-4", "V-MG-8", "V-FLAME-1",
           "V-FLAME-2", "V-FLAME-5", "V-FLAME-6", "V-MORT-1", "V-MORT-2", "V-MORT-3", "V-MORT-4", "V-MORT-5",
           "V-ROCKET-1", "V-ROCKET-2", "V-GUN-1", "V-GUN-2", "V-GUN-3", "V-GUN-4", "V-GUN-5", "V-ATGL-1",
           "V-ATGL-3", "V-ATGL-4", "V-AA-1", "V-AA-2", "V-AA-3", "V-AA-4", "V-AA-5", "V-AA-6", "V-AA-7",
           "V-CREW-4", "V-CREW-5", "V-CREW-6", "V-CREW-7", "V-RIDE-4", "V-RIDE-5", "V-RIDE-7", "V-TRANS-6",
           "V-TRANS-7", "V-PERS-2", "V-SAP-4", "V-SNIP-3", "V-CORR-1", "V-MED-5"),
    title_ru="Выстрел", title_en="Shot fired",
)


def _shooter(state: BattleState, sid: str) -> tuple[Fighter | None, Vehicle | None, str]:
    f = state.fighters.get(sid)
    if f is not None:
        return f, None, f.side
    v = state.vehicles.get(sid)
    if v is not None:
        return None, v, v.side
    raise refuse("S-UNKNOWN", f"Стрелок {sid!r} не найден.", f"No shooter {sid!r}.")


def _gun_class(p: Fire, v: Vehicle | None, rules: dict[str, Any]) -> int:
    if p.weapon in AT_INFANTRY:
        return rules["atgl_class"]  # V-ATGL-1, V-ATGL-4
    if p.weapon in MG_LIKE or p.weapon == "flamethrower":
        return rules["mg_vehicle_class"]  # V-MG-2, V-AA-5
    return v.gun if v is not None else 0  # V-AA-4: by calibre, entered as the gun class


def _object_weapon(p: Fire, v: Vehicle | None) -> str:
    if p.weapon in GUNS and v is not None and v.gun == 6:
        return "gun6"
    return p.weapon


def _inside(state: BattleState, attr: str, oid: str) -> list[Fighter]:
    return [f for f in state.fighters.values() if getattr(f, attr) == oid and not f.dead and not f.captured]


def _max_distance(state: BattleState, f: Fighter | None, p: Fire, rules: dict[str, Any]) -> float | None:
    base = rules["fire_distance"].get(p.weapon)
    if f is not None:
        by_class, distance = class_fire_distance(state, f, p.weapon, rules)  # G-3: the infantry table first
        if by_class:
            base = distance  # None here is refused before (the class cannot fire in this posture)
    if base is None:
        return None
    if f is not None and f.building and posture_of(state, f) == "dug_in":
        if rules["house_fire_distance"] == "add":
            base += rules["house_dug_in_fire_distance"]
        else:
            base = max(base, rules["house_dug_in_fire_distance"])  # V-HOUSE-10 reading: set, not add
    if p.on_height:
        base += rules["height_bonus"]  # V-TERR-9
    return base


@fire.check
def _check_fire(state: BattleState, p: Fire, ctx: Context) -> None:  # noqa: C901 - one rule per branch
    require_running(state)
    r = ctx.rules
    f, v, side = _shooter(state, p.shooter)
    require_able(state, f, v, r, to_fire=True)  # the shooter's own status before turn order and targets
    off_turn = state.side_to_move != side
    if off_turn:
        if p.target == "aircraft":
            pass  # V-AA-3: AA fire at an aircraft as it appears, in the enemy's turn
        elif p.ambush:
            if p.weapon in AT_INFANTRY:
                if not r["at_grenade_ambush"]:
                    raise refuse("V-ATGL-1", "ПТ гранатомёт не стреляет из засады.", "AT grenade launchers fire no ambush.")
            elif v is None or not (p.weapon == "at_gun" or (p.weapon == "aa_gun" and "at_fire" in v.specialisations)):
                raise refuse("V-GUN-4", "«Противотанковая засада» доступна только ПТ орудиям.",
                             "Only AT guns may fire an AT ambush.")
            if state.phase != "move":
                raise refuse("V-GUN-4", "Засада — только в фазе движения противника.",
                             "An ambush shot is allowed only in the enemy's movement phase.")
            if p.path_distance is None or p.path_distance >= r["ambush_path_distance"]:
                raise refuse("V-GUN-5", "Путь танка должен пройти менее чем в 2\" от линии направления орудия.",
                             "The tank's path must pass less than 2\" from the gun's aim line.")
            gunner: Any = v if v is not None else f
            if gunner.ambush_ply == state.ply and gunner.ambush_shots >= r["ambush_shots_per_phase"]:
                raise refuse("V-GUN-4", "Одна засада за фазу движения противника (G-24).",
                             "One ambush shot per enemy movement phase (G-24).")
            if p.target != "vehicle":
                raise refuse("V-GUN-4", "Засада — только по бронетехнике.", "An ambush is fired only at armour.")
        else:
            require_own_turn(state, side)
    else:
        if p.ambush:
            raise refuse("V-GUN-4", "Засада — только в ход противника.", "An ambush is fired in the enemy's turn.")
        require_phase(state, "fire", "V-TURN-11")
    # --- who fires what
    if f is not None:
        require_fit(state, f, r)
        if p.weapon not in FIGHTER_WEAPONS:
            raise refuse("S-WEAPON", f"Боец {f.id} не стреляет из {p.weapon}.", f"Fighter {f.id} cannot fire {p.weapon}.")
        allowed = CLASS_WEAPONS.get(p.weapon)
        if allowed is not None and f.cls not in allowed:
            raise refuse("S-WEAPON", f"{p.weapon}: не для класса {f.cls}.", f"{p.weapon} is not a {f.cls}'s weapon.")
        if p.weapon == "vehicle_mg":
            carrier = state.vehicles.get(f.aboard)
            if f.aboard_as != "passenger" or carrier is None or carrier.kind not in ("apc", "car"):
                raise refuse("V-TRANS-6", "Из штатного оружия БТР/автомобиля стреляют перевозимые пехотинцы.",
                             "Only infantry carried in an APC or car fires its mounted weapon.")
        elif f.aboard_as == "passenger":
            raise refuse("V-TRANS-6", "Перевозимые пехотинцы стреляют только из штатного оружия техники.",
                         "Carried infantry fires only the vehicle's mounted weapon.")
        elif f.aboard_as == "rider" and p.distance > r["rider_fire_distance"]:
            raise refuse("V-RIDE-4", "Танковый десант стреляет не далее 6\" от танка.",
                         "Tank riders fire at most 6\" from the tank.")
        if not r["postures"][posture_of(state, f)]["fire"]:
            raise refuse("V-TURN-11", "В этом положении огонь не ведётся (G-4).", "No fire in this posture (G-4).")
        by_class, distance = class_fire_distance(state, f, p.weapon, r)
        if by_class and distance is None:
            ru, en = POSTURE_NAMES.get(posture_of(state, f), (posture_of(state, f),) * 2)
            raise refuse("V-CMD-11", f"По пехотной таблице боец {f.id} не ведёт огонь {ru} (G-3).",
                         f"By the infantry table, fighter {f.id} cannot fire {en} (G-3).")
        if f.sapper_work_ply == state.ply:
            raise refuse("V-SAP-4", f"Сапёр {f.id} во 2-й ход схемы не стреляет.",
                         f"Sapper {f.id} may not fire in turn 2 of his scheme.")
        if f.cls == "personnel" and f.main_weapon_ply == state.ply:
            raise refuse("V-PERS-2", "Персонал стрелял из основного оружия в этом ходу.",
                         "Personnel fired their main weapon this turn.")
    else:
        assert v is not None
        if v.destroyed or v.driven_off:
            raise refuse("V-VDMG-4", f"{v.id} уничтожена.", f"{v.id} is destroyed.")
        if p.weapon not in (v.weapon, "vehicle_mg") and not (p.weapon == "at_gun" and "at_fire" in v.specialisations):
            raise refuse("S-WEAPON", f"{v.id} не имеет оружия {p.weapon}.", f"{v.id} has no {p.weapon}.")
        require_crew(state, v.id, to_fire=True)
        if sorties_flown(v, r):
            raise refuse("V-CORR-2", f"Вылеты {v.id} в этом бою исчерпаны (G-8).", f"{v.id} has flown its sorties (G-8).")
        if any(state.fighters[c].small_arms_ply == state.ply and state.fighters[c].cls == "personnel" for c in v.crew):
            raise refuse("V-PERS-2", "Персонал уже стрелял из стрелкового оружия в этом ходу.",
                         "The crew's personnel fired small arms this turn.")
    # --- shots per turn (V-MORT-3, V-ROCKET-2; G-7 otherwise)
    shots, last, target_key = (f.shots, f.shot_ply, f.shot_target) if f else (v.shots, v.shot_ply, v.shot_target)  # type: ignore[union-attr]
    limit = shots_per_turn(p.weapon, r)
    if limit > 1 and not p.target_id and not p.ambush:
        raise refuse("S-TARGET", "Назовите цель (target_id): оба выстрела за ход — по одной цели.",
                     "Name the target (target_id): both shots of the turn go at one target.")
    if last == state.ply and not p.ambush and p.target != "aircraft":
        if shots >= limit:
            rule = {"mortar": "V-MORT-3", "rocket_mortar": "V-ROCKET-2"}.get(p.weapon, "V-TURN-11")
            raise refuse(rule, f"Не более {limit} выстрел(ов) за ход.", f"At most {limit} shot(s) per turn.")
        if target_key != f"{p.target}:{p.target_id}":
            rule = {"mortar": "V-MORT-3", "rocket_mortar": "V-ROCKET-2"}.get(p.weapon, "V-TURN-11")
            raise refuse(rule, "Оба выстрела за ход — по одной цели.", "Both shots of the turn go at the same target.")
    # --- distances
    top = _max_distance(state, f, p, r)
    if top is not None and p.distance > top:
        raise refuse("V-CMD-11", f"Дистанция огня {p.weapon} — не более {top}\".",
                     f"{p.weapon}'s fire distance is at most {top}\".")
    if p.weapon == "flamethrower" and p.distance < r["flamethrower_min_distance"]:
        raise refuse("V-FLAME-6", "Огнемёт не стреляет ближе 3\".", "A flamethrower may not fire at under 3\".")
    if f is not None and p.visual_contact and p.distance > observation_distance(f, r, on_height=p.on_height):
        raise refuse("V-CMD-8", "Визуального контакта за дистанцией наблюдения нет.",
                     "There is no visual contact beyond the observation distance.")
    # --- visual contact and correction
    if p.corrected:
        if p.weapon in GUNS:
            raise refuse("V-GUN-1", "Пушки стреляют только прямой наводкой.", "Guns fire only by direct fire.")
        if p.weapon not in r["corrected_fire_weapons"]:
            raise refuse("V-CORR-2", f"{p.weapon} не ведёт огонь по корректировке.", f"{p.weapon} has no corrected fire.")
        if not any(c.shooter == p.shooter and c.target == p.target_id and c.ply == state.ply
                   for c in state.fire_corrections):
            raise refuse("V-CORR-1", "Нет корректировки этого огня в этом ходу.", "No correction for this fire this turn.")
    elif p.through_smoke is not None and p.through_smoke in state.smoke and r["smoke_blocks_sight"]:
        raise refuse("V-SMOKE-4", "Дымовая завеса закрывает визуальный контакт (G-20).",
                     "A smoke screen blocks visual contact (G-20).")
    elif not p.visual_contact and p.target != "bunker" and p.target != "aircraft":
        rule = "V-GUN-1" if p.weapon in GUNS else "V-CORR-1"
        raise refuse(rule, "Без визуального контакта огонь ведётся только по корректировке.",
                     "Without visual contact, only corrected fire is possible.")
    # --- the target
    needs_hit = p.weapon in AREA or p.weapon in GUNS or p.weapon in AT_INFANTRY or p.weapon == "grenade" \
        or p.target != "fighters"
    if needs_hit and p.hit is None:
        raise refuse("S-DIE", "Нужен бросок на попадание (hit).", "A hit roll (hit) is required.")
    getattr(_TARGET_CHECKS, p.target)(state, p, f, v, side, r)
    _check_vehicles_struck(state, p, side, r)


def _check_vehicles_struck(state: BattleState, p: Fire, side: str, r: dict[str, Any]) -> None:
    """The vehicles in an area weapon's radius (V-MORT-4 «осколочным попаданием»):
    only area weapons fired at fighters or a vehicle have a radius (V-GUN-3: a
    gun's shell has none); each is a live enemy vehicle within the radius."""
    if not p.vehicles_struck:
        return
    if p.weapon not in AREA or p.target not in ("fighters", "vehicle"):
        rule = "V-GUN-3" if p.weapon in GUNS else ("V-ATGL-3" if p.weapon in AT_INFANTRY else "S-TARGET")
        raise refuse(rule, "У этого выстрела нет радиуса поражения по технике.",
                     "This shot has no damage radius for vehicles.")
    radius = r["radius"].get(p.weapon, r["area_radius"].get(p.weapon))
    seen: set[str] = {p.target_id} if p.target == "vehicle" else set()
    for s in p.vehicles_struck:
        t = vehicle(state, s.vehicle)
        if s.vehicle in seen or not enemy(side, t.side) or t.destroyed or t.kind == "aircraft":
            raise refuse("S-TARGET", f"{t.id} — не цель в радиусе.", f"{t.id} is not a target in the radius.")
        seen.add(s.vehicle)
        if radius is not None and s.distance > radius:
            rule = "V-MORT-2" if p.weapon == "mortar" else "V-MORT-1"
            raise refuse(rule, f"{t.id} вне радиуса поражения {radius}\".",
                         f"{t.id} is outside the {radius}\" damage radius.")


class _TARGET_CHECKS:  # noqa: N801 - a namespace of per-target checks
    @staticmethod
    def fighters(state: BattleState, p: Fire, f: Fighter | None, v: Vehicle | None, side: str, r: dict) -> None:
        if not p.struck:
            raise refuse("S-TARGET", "Укажите поражённых бойцов (struck).", "Name the fighters struck.")
        single = p.weapon in GUNS or p.weapon in AT_INFANTRY or p.weapon in ("grenade", "rifle", "sniper_rifle")
        if single and len(p.struck) > 1:
            rule = "V-GUN-3" if p.weapon in GUNS else ("V-ATGL-3" if p.weapon in AT_INFANTRY else "V-MG-1")
            raise refuse(rule, "Этот выстрел поражает только одного бойца.", "This shot can strike only one fighter.")
        spot_needed = False
        sniper = f is not None and f.cls == "sniper"  # V-SNIP-3: a sniper needs no spotting test
        radius = r["radius"].get(p.weapon, r["area_radius"].get(p.weapon))
        for s in p.struck:
            if radius is not None and s.distance is not None and s.distance > radius:
                rule = {"lmg": "V-MG-4", "hmg": "V-MG-8", "flamethrower": "V-MG-8", "aa_autocannon": "V-MG-8",
                        "mortar": "V-MORT-2"}.get(p.weapon, "V-MORT-1")
                raise refuse(rule, f"{s.fighter} вне радиуса поражения {radius}\".",
                             f"{s.fighter} is outside the {radius}\" damage radius.")
            t = fighter(state, s.fighter)
            if not enemy(side, t.side) or t.dead or t.captured:
                raise refuse("S-TARGET", f"{t.id} — не живой боец противника.", f"{t.id} is not a live enemy fighter.")
            if not exposed_to_fire(state, t):
                raise refuse("V-TRANS-7", f"{t.id} внутри техники и не открыт для огня.",
                             f"{t.id} is inside a vehicle and not exposed to fire.")
            house = state.buildings.get(t.building)
            if house is not None and not house.light_cover:
                spot_needed = spot_needed or (f is None or f.cls != "sniper")  # V-HOUSE-9, V-SNIP-3
            elif house is None and not t.bunker and r["spotting_test_everywhere"] and not sniper:
                spot_needed = True  # G-9 set to "everywhere": every target outside cover; light cover is exempt (V-COVER-4)
            if t.bunker and s.embrasure and f is not None and f.cls == "sniper":
                spot_needed = spot_needed or r["bunker_sniper_needs_spot"]  # V-BUNK-2 prevails over V-SNIP-3
            if s.die is None and p.weapon not in GUNS and p.weapon not in AT_INFANTRY and p.weapon != "grenade":
                raise refuse("S-DIE", f"Нужен бросок для {t.id}.", f"A roll is required for {t.id}.")
        if spot_needed and p.spot is None:
            raise refuse("V-HOUSE-9", "Нужен тест на обнаружение (spot).", "A spotting test (spot) is required.")

    @staticmethod
    def vehicle(state: BattleState, p: Fire, f: Fighter | None, v: Vehicle | None, side: str, r: dict) -> None:
        t = vehicle(state, p.target_id)
        if not enemy(side, t.side) or t.destroyed or t.kind == "aircraft":
            raise refuse("S-TARGET", f"{t.id} — не цель.", f"{t.id} is not a valid target.")
        if p.weapon in ("rifle", "sniper_rifle"):
            raise refuse("V-VDMG-2", "Стрелковое оружие не повреждает технику.", "Small arms cannot damage vehicles.")
        if p.ambush and t.kind not in ARMOUR_KINDS:
            raise refuse("V-GUN-4", f"{t.id} — не бронетехника: засада — только по бронетехнике.",
                         f"{t.id} is not armour: an ambush is fired only at armour.")
        if p.ambush and t.side != state.side_to_move:
            raise refuse("V-GUN-4", "Засада — по технике противника в её ход.", "An ambush targets the moving enemy.")
        if p.ambush and t.moved_ply != state.ply:
            raise refuse("V-GUN-5", f"{t.id} не двигалась в эту фазу движения: засады нет.",
                         f"{t.id} has not moved in this movement phase: no ambush.")

    @staticmethod
    def house(state: BattleState, p: Fire, f: Fighter | None, v: Vehicle | None, side: str, r: dict) -> None:
        if p.target_id not in state.buildings:
            raise refuse("S-UNKNOWN", f"Дом {p.target_id!r} не найден.", f"No house {p.target_id!r}.")

    @staticmethod
    def bunker(state: BattleState, p: Fire, f: Fighter | None, v: Vehicle | None, side: str, r: dict) -> None:
        if p.target_id not in state.bunkers:
            raise refuse("S-UNKNOWN", f"ДОТ {p.target_id!r} не найден.", f"No pillbox {p.target_id!r}.")

    @staticmethod
    def aircraft(state: BattleState, p: Fire, f: Fighter | None, v: Vehicle | None, side: str, r: dict) -> None:
        t = vehicle(state, p.target_id)
        if t.kind != "aircraft" or not enemy(side, t.side) or t.driven_off:
            raise refuse("S-TARGET", f"{t.id} — не самолёт противника.", f"{t.id} is not an enemy aircraft.")
        if p.weapon not in AA_WEAPONS:
            raise refuse("V-AA-2", "По авиации стреляют зенитные пушки и автоматы.", "Only AA guns and autocannons fire at aircraft.")
        if t.side != state.side_to_move:
            raise refuse("V-AA-3", "Самолёт обстреливают при его появлении — в ход противника.",
                         "Aircraft are engaged as they appear, in the enemy's turn.")
        if p.weapon == "aa_autocannon" and t.weapon not in r["aa_autocannon_targets"]:
            raise refuse("V-AA-6", "Зенитный автомат бьёт только по штурмовикам и пикирующим бомбардировщикам.",
                         "An AA autocannon fires only at ground-attack aircraft and dive bombers.")
        # V-AA-3, G-8: AA fire meets the aircraft as it appears, before its attack; so many shots per AA
        # weapon at each appearance (one aircraft turn) as the rules data allow
        if t.shot_ply == state.ply or sorties_flown(t, r):
            raise refuse("V-AA-3", f"{t.id} уже атаковал: зенитный огонь ведут при появлении самолёта, до атаки (G-8).",
                         f"{t.id} has already attacked: AA fire meets an aircraft as it appears, before its attack (G-8).")
        if t.aa_ply == state.ply and t.aa_by.count(p.shooter) >= r["aa_shots_per_appearance"]:
            limit = r["aa_shots_per_appearance"]
            raise refuse("V-AA-3", f"{p.shooter}: не более {limit} зенитн. выстрел(ов) по {t.id} за его появление (G-8).",
                         f"{p.shooter}: at most {limit} AA shot(s) at {t.id} per appearance (G-8).")


# --- resolution ---------------------------------------------------------------

def exposed_to_fire(state: BattleState, t: Fighter) -> bool:
    """Whether a shot may strike ``t`` where he is (V-TRANS-7): a vehicle's crew never, a passenger only
    since he fired a mounted weapon (that ply and the enemy's next), anyone else always."""
    if t.aboard_as == "crew":
        return False
    return t.aboard_as != "passenger" or t.shot_ply >= state.ply - 1


def _defence(state: BattleState, t: Fighter, s: Struck, r: dict[str, Any]) -> int:
    d = class_entry(r["defence"], t, 0) + r["postures"][posture_of(state, t)].get("defence", 0)
    house = state.buildings.get(t.building)
    bunker = state.bunkers.get(t.bunker)
    if house is not None and not house.light_cover:
        d += r["house_defence"]  # V-HOUSE-1
    elif s.embrasure and bunker is not None and not bunker.light_cover:
        d += r["house_defence"]  # V-BUNK-2: as "in houses"
    elif s.light_cover or (house is not None and house.light_cover) or (bunker is not None and bunker.light_cover) \
            or (t.aboard_as == "passenger"):
        d += r["light_cover_defence"]  # V-COVER-2, V-COVER-3, V-TRANS-7
    return d


def _g2_success(state: BattleState, f: Fighter | None, t: Fighter, s: Struck, r: dict[str, Any]) -> bool:
    """G-2: the target is hit if d20 + attack - defence >= 11."""
    attack = class_entry(r["attack"], f, 0) if f is not None else 0  # G-1: an officer's rank row first
    return s.die is not None and value(s.die) + attack - _defence(state, t, s, r) >= r["infantry_fire_min"]


def g2_need(state: BattleState, shooter: str, t: Fighter, s: Struck, r: dict[str, Any]) -> int:
    """The lowest d20 that hits ``t`` by G-2 (d20 + attack - defence >= 11), as
    ``_g2_success`` judges it: what the table shows beside the die."""
    f = state.fighters.get(shooter)
    attack = class_entry(r["attack"], f, 0) if f is not None else 0
    return r["infantry_fire_min"] - attack + _defence(state, t, s, r)


def hit_need(state: BattleState, p: Fire, r: dict[str, Any]) -> int | None:
    """The lowest die of ``p.hit`` that does what the shot's hit test is for, as
    ``_apply_fire`` and ``_hit_vehicle`` judge it (V-TEST-1, V-TEST-2 / G-11,
    V-TEST-8); None when the shot has no hit test."""
    if p.hit is None:
        return None
    if p.weapon == "grenade":
        return grenade_min(r)
    if p.target == "vehicle" and p.weapon not in ("flamethrower", "mortar"):
        v = state.vehicles.get(p.shooter)
        if _gun_class(p, v, r) > 1:
            return r["tank_miss_max"] + 1  # V-TEST-8: the tank test misses up to its band
    return r["test_success_min"]


def _g2(state: BattleState, p: Fire, f: Fighter | None, t: Fighter, s: Struck, by: Fighter | None,
        r: dict[str, Any]) -> None:
    if _g2_success(state, f, t, s, r):
        wound(state, t, by, r)


def _damage_house(state: BattleState, hid: str, by: Fighter | None, r: dict[str, Any]) -> int:
    """V-HOUSE-2..5 (reading: each hit adds 1, cumulative). Returns the new damage."""
    h = state.buildings[hid]
    if h.damage >= 3:
        return h.damage
    h.damage = min(3, h.damage + r["house_damage_per_hit"])
    for c in credit_of(state, by):
        c.buildings_damaged += 1
    if h.damage == 2:
        for t in _inside(state, "building", hid):
            wound(state, t, by, r)  # V-HOUSE-4
    elif h.damage == 3:
        h.light_cover = True  # V-HOUSE-5, V-COVER-3
        for t in _inside(state, "building", hid):
            kill(state, t, by)
    return h.damage


def _hit_bunker(state: BattleState, bid: str, by: Fighter | None, r: dict[str, Any]) -> None:
    b = state.bunkers[bid]
    if b.light_cover:
        return
    b.hits += 1  # V-BUNK-4: hits 1-6 have no effect
    if b.hits > r["bunker_reserve"]:
        b.light_cover = True  # V-BUNK-5
        for t in _inside(state, "bunker", bid):
            kill(state, t, by)


def _hit_vehicle(state: BattleState, p: Fire, v: Vehicle | None, t: Vehicle, by: Fighter | None,
                 r: dict[str, Any]) -> None:
    die = value(p.hit)
    if p.weapon == "flamethrower":  # V-FLAME-2
        if die >= r["test_success_min"]:
            for fid in t.crew:
                kill(state, state.fighters[fid], by)
            t.crew_flamed_turn = state.turn
        return
    if p.weapon == "grenade":  # V-TEST-2 / G-11: the grenade wounds the riders (V-RIDE-7)
        if die >= grenade_min(r):
            _wound_riders(state, t, by, r)
        return
    if p.weapon == "mortar":
        if die >= r["test_success_min"]:
            _mortar_blast(state, t, by)  # V-MORT-4, V-MORT-5
        return
    cls = _gun_class(p, v, r)
    if cls <= 1:  # V-TEST-8: class-1 guns (and MGs, V-MG-2) use the hit test
        if die < r["test_success_min"]:
            return
        gear = False
    else:
        if die <= r["tank_miss_max"]:
            return  # V-TEST-8
        gear = die > r["tank_hit_max"]  # V-TEST-10
    if t.skirts and (p.weapon == "at_grenade_launcher" or (p.weapon == "at_rifle" and r["skirts_stop_at_rifles"])):
        return  # V-VDMG-8: side skirts
    if p.weapon in GUNS or p.weapon in HOWITZERS or p.weapon in AT_INFANTRY:
        _wound_riders(state, t, by, r)  # V-RIDE-7
    if cls < t.armour:
        if gear and r["running_gear_when_outclassed"]:
            t.running_gear = True
        return  # V-VDMG-2 (and no running-gear damage, V-TEST-10 reading)
    if cls > t.armour:
        destroy_vehicle(state, t, by)  # V-VDMG-5
        return
    t.damage += 1  # V-VDMG-3; V-CREW-7: the crew is not wounded
    for c in credit_of(state, by):
        c.vehicles_damaged += 1
    if gear:
        t.running_gear = True  # V-VDMG-6
    if t.damage > damage_reserve(t, r):
        destroy_vehicle(state, t, by)  # V-VDMG-4


def _mortar_blast(state: BattleState, t: Vehicle, by: Fighter | None) -> None:
    """A mortar's direct or fragment hit on a vehicle: class 1 is destroyed
    (V-MORT-4); above class 1 it does no damage (V-MORT-5): the shot was made,
    nothing changes."""
    if t.armour <= 1:
        destroy_vehicle(state, t, by)


def _blast_vehicles(state: BattleState, p: Fire, by: Fighter | None) -> None:
    """The vehicles in the radius of an area shot whose aim point was hit, with
    what the seed gives each: the mortar's fragments destroy class 1 (V-MORT-4);
    the seed gives other area weapons no fragment effect on vehicles (G-7), and
    riders are fighters in the radius, resolved from ``struck``."""
    if p.weapon != "mortar":
        return
    for s in p.vehicles_struck:
        _mortar_blast(state, state.vehicles[s.vehicle], by)


def _wound_riders(state: BattleState, t: Vehicle, by: Fighter | None, r: dict[str, Any]) -> None:
    for fid in t.riders:
        wound(state, state.fighters[fid], by, r)


@fire.mutator
def _apply_fire(state: BattleState, p: Fire, ctx: Context) -> None:  # noqa: C901
    r = ctx.rules
    f = state.fighters.get(p.shooter)
    v = None if f is not None else state.vehicles.get(p.shooter)
    by = f if f is not None else credited(state, p.shooter)
    key = f"{p.target}:{p.target_id}"
    actor: Any = f if f is not None else v
    if not p.ambush and p.target != "aircraft":
        if state.side_to_move == (f.side if f is not None else v.side):  # type: ignore[union-attr]
            state.phase = "fire"
        if actor.shot_ply != state.ply:
            actor.shot_ply, actor.shots = state.ply, 0
        actor.shots += 1
        actor.shot_target = key
    if p.ambush:
        if actor.ambush_ply != state.ply:
            actor.ambush_ply, actor.ambush_shots = state.ply, 0
        actor.ambush_shots += 1
    if f is not None:
        f.small_arms_ply = state.ply
    elif v is not None:
        for c in v.crew:
            state.fighters[c].main_weapon_ply = state.ply  # V-PERS-2
        if v.kind == "aircraft":
            v.sorties += 1
    hit = p.hit is not None and value(p.hit) >= r["test_success_min"]
    target = p.target
    if target == "aircraft":
        plane = state.vehicles[p.target_id]
        if plane.aa_ply != state.ply:
            plane.aa_ply, plane.aa_by = state.ply, []
        plane.aa_by.append(p.shooter)  # V-AA-3, G-8: the shots at this appearance
        if hit:
            state.vehicles[p.target_id].driven_off = True  # G-8
        return
    if target == "vehicle":
        _hit_vehicle(state, p, v, state.vehicles[p.target_id], by, r)
        if hit:
            _blast_vehicles(state, p, by)
        return
    weapon = _object_weapon(p, v)
    if target == "house":
        if hit and weapon in r["house_damaging_weapons"]:
            _damage_house(state, p.target_id, by, r)  # else V-HOUSE-2: no damage
        return
    if target == "bunker":
        if hit and weapon in r["bunker_damaging_weapons"]:
            _hit_bunker(state, p.target_id, by, r)  # V-BUNK-3
        return
    # fighters
    if p.weapon in AREA and not hit:
        return  # the aim point was missed (G-7)
    if p.weapon in AREA:
        _blast_vehicles(state, p, by)
    if p.weapon == "grenade":
        if p.hit is not None and value(p.hit) >= grenade_min(r):
            wound(state, state.fighters[p.struck[0].fighter], by, r)  # G-11
        return
    spot_ok = p.spot is None or value(p.spot) >= r["test_success_min"]
    direct = p.weapon in GUNS or p.weapon in AT_INFANTRY  # V-GUN-3, V-ATGL-1: at most one killed
    struck = list(p.struck)
    if spot_ok and weapon in r["house_damaging_weapons"]:
        # V-HOUSE-6: a hit on a house harms no one next to it, whatever the order of the list. The men
        # in an intact house go first (a stable sort keeps the first of them as V-HOUSE-3's target), so
        # the hit on the house (V-TERR-11) ends the shot before anyone outside is resolved.
        struck.sort(key=lambda s: not _in_intact_house(state, s.fighter))
    for i, s in enumerate(struck):
        t = state.fighters[s.fighter]
        if t.dead:
            continue
        bunker = state.bunkers.get(t.bunker)
        if bunker is not None and not bunker.light_cover:
            if weapon in r["bunker_damaging_weapons"]:
                # V-TERR-11: a hit on infantry in the pillbox is a hit on the pillbox (V-BUNK-3..5)
                landed = hit if (p.weapon in AREA or direct) else _g2_success(state, f, t, s, r)
                if landed:
                    _hit_bunker(state, t.bunker, by, r)
                return
            if not (s.embrasure and f is not None and f.cls == "sniper" and spot_ok):
                continue  # V-BUNK-1
        house = state.buildings.get(t.building)
        if house is None and bunker is None and not spot_ok and r["spotting_test_everywhere"] \
                and not (f is not None and f.cls == "sniper"):
            continue  # G-9 set to "everywhere": a failed spotting test, no effect
        if house is not None and not house.light_cover:
            if not spot_ok:
                continue  # V-HOUSE-9
            if weapon in r["house_damaging_weapons"]:
                # V-TERR-11: a hit on infantry in the house is a hit on the house. The hit is the
                # aim-point or direct hit test, or for a flamethrower the target's G-2 roll.
                landed = hit if (p.weapon in AREA or direct) else _g2_success(state, f, t, s, r)
                if landed:
                    dmg = _damage_house(state, t.building, by, r)
                    if dmg == 1 and i == 0 and not t.dead:
                        _resolve(state, p, f, t, s, by, r, direct, hit)  # V-HOUSE-3: only the target
                return
        _resolve(state, p, f, t, s, by, r, direct, hit)


def _in_intact_house(state: BattleState, fid: str) -> bool:
    t = state.fighters[fid]
    house = state.buildings.get(t.building)
    return not t.dead and house is not None and not house.light_cover


def _resolve(state: BattleState, p: Fire, f: Fighter | None, t: Fighter, s: Struck, by: Fighter | None,
             r: dict[str, Any], direct: bool, hit: bool) -> None:
    if direct:
        if hit:
            kill(state, t, by)
        return
    _g2(state, p, f, t, s, by, r)


# --- smoke ---------------------------------------------------------------------
class SmokeFired(Payload):
    """A smoke round: no test, no fragments (V-SMOKE-6, V-SMOKE-7); an officer
    designates the point within his observation distance (V-SMOKE-8)."""

    shooter: Annotated[str, Meta(min_length=1, max_length=64)]
    officer: Annotated[str, Meta(min_length=1, max_length=64)]
    officer_distance: Annotated[float, Meta(ge=0, description="Officer to the screen's centre, inches")]
    smoke: Annotated[str, Meta(min_length=1, max_length=64, description="Id of the new screen")]


smoke_fired = event_type(
    "smoke_fired", SmokeFired,
    rules=("V-SMOKE-1", "V-SMOKE-2", "V-SMOKE-3", "V-SMOKE-5", "V-SMOKE-6", "V-SMOKE-7", "V-SMOKE-8", "V-ATGL-2"),
    title_ru="Дымовой выстрел", title_en="Smoke round fired",
)


def _smoke_count(state: BattleState, holder: Any, r: dict[str, Any]) -> int:
    """Rounds used in the period (V-SMOKE-3 reading: per battle; the master may set per turn)."""
    if r["smoke_period"] == "turn" and holder.smoke_ply != state.ply:
        return 0
    return holder.smoke_used


def _smoke_add(state: BattleState, holder: Any, r: dict[str, Any]) -> None:
    holder.smoke_used = _smoke_count(state, holder, r) + 1
    holder.smoke_ply = state.ply


def _smoke_unit(state: BattleState, f: Fighter) -> str:
    """The squad whose smoke a fighter fires: a fire team shares its squad's two rounds."""
    unit = state.units[f.unit]
    return unit.parent if unit.parent in state.units else unit.id


@smoke_fired.check
def _check_smoke(state: BattleState, p: SmokeFired, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    f, v, side = _shooter(state, p.shooter)
    require_able(state, f, v, r, to_fire=True)  # the shooter's own status before turn order
    require_own_turn(state, side)
    require_phase(state, "fire", "V-TURN-11")
    if p.smoke in state.smoke:
        raise refuse("S-DUPLICATE", "Повторяющийся идентификатор завесы.", "A duplicate smoke id.")
    if f is not None:
        require_fit(state, f, r)
        if f.cls in ("at_grenadier", "at_rifleman"):
            raise refuse("V-ATGL-2", "ПТ гранатомёт не стреляет дымовыми.", "An AT grenade launcher cannot fire smoke.")
        if f.cls != "rifleman":
            raise refuse("V-SMOKE-2", "Дымовой боеприпас применяет только стрелок.", "Only a rifleman fires smoke.")
        used = _smoke_count(state, state.units[_smoke_unit(state, f)], r) if f.unit in state.units else r["smoke_limit"]
    else:
        assert v is not None
        if not has_smoke(v.weapon, v.gun, r["smoke_min_gun_class"]) or v.destroyed:  # the weapon table
            raise refuse("V-SMOKE-1", f"{v.id} не имеет дымовых боеприпасов.", f"{v.id} has no smoke ammunition.")
        require_crew(state, v.id, to_fire=True)
        used = _smoke_count(state, v, r)
    if used >= r["smoke_limit"]:
        raise refuse("V-SMOKE-3", "Лимит — 2 дымовых боеприпаса.", "The limit is 2 smoke rounds.")
    o = fighter(state, p.officer)
    if not is_officer(o) or o.side != side:
        raise refuse("V-SMOKE-8", "Дымовой выстрел корректирует офицер.", "An officer must correct a smoke round.")
    require_fit(state, o, r)
    if p.officer_distance > observation_distance(o, r):
        raise refuse("V-SMOKE-8", "Точка завесы — в пределах радиуса наблюдения офицера.",
                     "The screen's point must lie within the officer's observation distance.")


@smoke_fired.mutator
def _apply_smoke(state: BattleState, p: SmokeFired, ctx: Context) -> None:
    f = state.fighters.get(p.shooter)
    if f is not None:
        _smoke_add(state, state.units[_smoke_unit(state, f)], ctx.rules)
        f.shot_ply, f.shots, f.shot_target = state.ply, 1, "smoke"
        side = f.side
    else:
        v = state.vehicles[p.shooter]
        _smoke_add(state, v, ctx.rules)
        v.shot_ply, v.shots, v.shot_target = state.ply, 1, "smoke"
        side = v.side
    state.phase = "fire"
    state.smoke[p.smoke] = Smoke(p.smoke, side, state.ply, p.shooter)


# --- fire_corrected ---------------------------------------------------------------
class FireCorrected(Payload):
    """A target designation for indirect fire (V-CORR): directly within talking
    distance, or by the radio chain of V-CORR-4."""

    corrector: Annotated[str, Meta(
        min_length=1, max_length=64, description="Officer, scout, spotter vehicle or pillbox")]
    shooter: Annotated[str, Meta(min_length=1, max_length=64, description="The howitzer, mortar or aircraft")]
    target: Annotated[str, Meta(min_length=1, max_length=64)]
    via: Literal["talk", "radio"] = "talk"
    distance: Annotated[float, Meta(
        ge=0, description="Corrector to the battery officer (talk) or to the first radio operator (radio)")] = 0.0
    radio_operators: Annotated[list[str], Meta(max_length=2)] = []
    battery_officer: Annotated[str, Meta(max_length=64)] | None = None
    battery_distance: Annotated[float, Meta(
        ge=0, description="Second radio operator to the battery officer")] | None = None


fire_corrected = event_type(
    "fire_corrected", FireCorrected,
    rules=("V-CORR-2", "V-CORR-3", "V-CORR-4", "V-CORR-5", "V-CORR-6", "V-RADIO-1", "V-RADIO-2", "V-SCOUT-1",
           "V-SNIP-4", "V-BUNK-8", "V-GUN-1"),
    title_ru="Корректировка огня", title_en="Fire corrected",
)


@fire_corrected.check
def _check_corrected(state: BattleState, p: FireCorrected, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    talk = r["talk_distance"]
    side = ""
    c = state.fighters.get(p.corrector)
    if c is not None:
        side = c.side
        require_fit(state, c, r)
        if c.cls == "sniper":
            raise refuse("V-SNIP-4", "Снайпер не корректирует огонь.", "A sniper cannot correct fire.")
        if not (is_officer(c) or c.cls == "scout"):
            raise refuse("V-CORR-3", "Корректируют только офицеры, разведчики и машины корректировки.",
                         "Only officers, scouts and spotter vehicles correct fire.")
        if c.corrected_ply == state.ply:
            raise refuse("V-CORR-6", "Корректировка — 1 раз за ход.", "One correction per turn.")
    elif p.corrector in state.bunkers:
        b = state.bunkers[p.corrector]
        inside = _inside(state, "bunker", b.id)
        scouts = [f for f in inside if f.cls == "scout"]
        if not b.spotter:
            raise refuse("V-CORR-3", "ДОТ без характеристики «Корректировщик».", "The pillbox has no Spotter characteristic.")
        if not scouts and r["spotter_needs_scout"]["bunker"]:
            raise refuse("V-BUNK-8", "«Корректировщик» ДОТа действует, только если в ДОТе разведчик.",
                         "A pillbox's Spotter works only while a scout is inside.")
        # The side it corrects for is its garrison's: the scout's, or (the rules data's reading
        # without the scout) whoever holds it. An empty pillbox corrects for no one.
        if not inside:
            raise refuse("V-BUNK-8", "В ДОТе никого нет: корректировать некому.",
                         "Nobody is inside the pillbox: nobody corrects fire from it.")
        side = (scouts or inside)[0].side
        if any(x.corrector == p.corrector for x in state.fire_corrections):
            raise refuse("V-CORR-6", "Корректировка — 1 раз за ход.", "One correction per turn.")
    else:
        cv = vehicle(state, p.corrector)
        side = cv.side
        if "spotter" not in cv.specialisations or cv.destroyed:
            raise refuse("V-CORR-3", "Корректируют только офицеры, разведчики и машины корректировки.",
                         "Only officers, scouts and spotter vehicles correct fire.")
        if any(x.corrector == p.corrector for x in state.fire_corrections):
            raise refuse("V-CORR-6", "Корректировка — 1 раз за ход.", "One correction per turn.")
    require_own_turn(state, side)
    gun = vehicle(state, p.shooter)
    if gun.side != side:
        raise refuse("S-UNKNOWN", "Батарея не ваша.", "The battery is not yours.")
    if gun.weapon in GUNS:
        raise refuse("V-GUN-1", "Пушки не ведут огонь по корректировке.", "Guns never use corrected fire.")
    if gun.weapon not in r["corrected_fire_weapons"]:
        raise refuse("V-CORR-2", f"{gun.weapon} не ведёт огонь по корректировке.", f"{gun.weapon} has no corrected fire.")
    if p.via == "talk":
        if p.distance > talk:
            raise refuse("V-CORR-5", "Корректировка голосом — в пределах разговорной дистанции 6\".",
                         "Direct correction only within the talking distance of 6\".")
        return
    # V-CORR-4: corrector -> radio operator (talk) -> radio operator at the battery -> battery officer (talk)
    if len(p.radio_operators) != 2 or p.battery_officer is None or p.battery_distance is None:
        raise refuse("V-CORR-4", "Схема: корректировщик → радист → радист батареи → офицер батареи.",
                     "Chain: corrector → radio operator → battery radio operator → battery officer.")
    for rid in p.radio_operators:
        ro = fighter(state, rid)
        if ro.cls != "radio_operator" or ro.side != side:
            raise refuse("V-CORR-4", f"{rid} — не ваш радист.", f"{rid} is not your radio operator.")
        require_fit(state, ro, r)
    bo = fighter(state, p.battery_officer)
    if not is_officer(bo) or bo.side != side:
        raise refuse("V-CORR-4", "Целеуказание принимает офицер батареи.", "The battery officer receives the designation.")
    require_fit(state, bo, r)
    if p.distance > talk or p.battery_distance > talk:
        raise refuse("V-CORR-4", "Каждое звено голосом — в пределах 6\".", "Each spoken link must be within 6\".")


@fire_corrected.mutator
def _apply_corrected(state: BattleState, p: FireCorrected, ctx: Context) -> None:
    c = state.fighters.get(p.corrector)
    if c is not None:
        c.corrected_ply = state.ply
    state.fire_corrections.append(Correction(p.corrector, p.shooter, p.target, state.ply))
