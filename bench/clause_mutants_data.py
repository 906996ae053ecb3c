"""The hand-written clause mutants of bench/clause_mutants.py, grouped by rule ID (issue 28).

Each mutant is a bug a programmer could plausibly make reading the rule's Russian or English text,
breaking one clause: who is affected, how many, when, in which order, or except whom. ``old`` must
occur exactly once in ``file`` (tests/test_clause_mutants.py checks it at HEAD).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    rule: str
    clause: str  # who | how many | when | order | except
    file: str
    old: str
    new: str
    description: str


CLAUSES = ("who", "how many", "when", "order", "except")

_M: list[Mutant] = []


def m(rule: str, clause: str, file: str, old: str, new: str, description: str) -> None:
    _M.append(Mutant(rule, clause, file, old, new, description))


FIRE = "battles/engine/rules/fire.py"
DATA = "battles/engine/rules_data.py"
WEAPONS = "battles/engine/weapons.py"

# --- V-AA-3: AA guns fire at an aircraft as it appears, in the enemy's turn ---------------------------
m("V-AA-3", "when", FIRE,
  'if p.target == "aircraft":\n            pass  # V-AA-3',
  'if False:\n            pass  # V-AA-3',
  "drop: AA fire out of turn is refused like any other (no fire in the enemy's turn)")
m("V-AA-3", "when", FIRE,
  '        if t.side != state.side_to_move:\n            raise refuse("V-AA-3"',
  '        if False:\n            raise refuse("V-AA-3"',
  "widen: AA fire at an aircraft also in the AA side's own turn")
m("V-AA-3", "order", FIRE,
  "if t.shot_ply == state.ply or sorties_flown(t, r):",
  'if t.sorties > r["air_sorties_per_battle"]:',  # (after its attack, a sortie left: still fired at)
  "reorder: AA fire still allowed after the aircraft has made its attack")
m("V-AA-3", "how many", FIRE,
  't.aa_by.count(p.shooter) >= r["aa_shots_per_appearance"]',
  'len(t.aa_by) >= r["aa_shots_per_appearance"]',
  "widen: the per-appearance limit counts every AA weapon's shots, not this weapon's own")

# --- V-AA-5: an AA autocannon is a heavy MG with unlimited fire distance ------------------------------
m("V-AA-5", "who", FIRE,
  'MG_LIKE = frozenset({"lmg", "hmg", "vehicle_mg", "aa_autocannon"})',
  'MG_LIKE = frozenset({"lmg", "hmg", "vehicle_mg"})',
  "drop: the autocannon is not an MG against vehicles (hits with its mount's gun class)")
m("V-AA-5", "how many", DATA,
  '"aa_autocannon": 2.0, "mortar"',
  '"aa_autocannon": 1.0, "mortar"',
  "narrow: the autocannon as a light MG (1 in damage radius)")
m("V-AA-5", "how many", DATA,
  '"aa_gun": None, "aa_autocannon": None,',
  '"aa_gun": None, "aa_autocannon": 18.0,',
  "drop: the autocannon keeps the heavy MG's fire distance (not unlimited)")
m("V-AA-5", "how many", FIRE,
  'p.weapon in ("grenade", "rifle", "sniper_rifle")\n',
  'p.weapon in ("grenade", "rifle", "sniper_rifle", "aa_autocannon")\n',
  "narrow: the autocannon strikes one fighter, not every fighter in a heavy MG's radius")

# --- V-ATGL-4: AT rifles are treated as AT grenade launchers ------------------------------------------
m("V-ATGL-4", "who", FIRE,
  'AT_INFANTRY = frozenset({"at_grenade_launcher", "at_rifle"})',
  'AT_INFANTRY = frozenset({"at_grenade_launcher"})',
  "drop: the AT rifle is not an AT grenade launcher (no class 5, strikes like a rifle)")
m("V-ATGL-4", "who", FIRE,
  '"at_grenade_launcher": ("at_grenadier",), "at_rifle": ("at_rifleman", "at_grenadier"),',
  '"at_grenade_launcher": ("at_grenadier",), "at_rifle": ("at_rifleman",),',
  "narrow: only an AT rifleman fires an AT rifle, not the AT grenadier whose rows apply to it")
m("V-ATGL-4", "how many", DATA,
  '"at_grenade_launcher": 6.0, "at_rifle": 6.0,',
  '"at_grenade_launcher": 6.0, "at_rifle": 8.0,',
  "drop: the AT rifle keeps a rifle's 8 in fire distance, not the launcher's 6 in")

# --- V-BUNK-4: a pillbox's reserve of 6 hits; hits 1-6 harm neither it nor those inside --------------
m("V-BUNK-4", "how many", DATA,
  '"bunker_reserve": 6,  # V-BUNK-4',
  '"bunker_reserve": 5,  # V-BUNK-4',
  "miscount: the 6th hit already breaks the pillbox (reserve read as 'up to the 6th')")
m("V-BUNK-4", "except", FIRE,
  "    b.hits += 1  # V-BUNK-4: hits 1-6 have no effect\n",
  "    b.hits += 1  # V-BUNK-4: hits 1-6 have no effect\n"
  "    for t in _inside(state, \"bunker\", bid):\n        wound(state, t, by, r)\n",
  "widen: a reserve hit wounds the men inside (as a house's damage does)")
m("V-BUNK-4", "who", FIRE,
  "                if landed:\n                    _hit_bunker(state, t.bunker, by, r)\n                return",
  "                if landed:\n                    _hit_bunker(state, t.bunker, by, r)\n                    kill(state, t, by)\n"
  "                return",
  "widen: the struck man inside is resolved as well as the hit on the pillbox")

# --- V-CMD-11: fire distance; firing beyond it is not allowed ----------------------------------------
m("V-CMD-11", "who", FIRE,
  "    top = _max_distance(state, f, p, r)\n",
  "    top = _max_distance(state, f, p, r) if f is not None else None\n",
  "narrow: only fighters' fire distance is checked; vehicles' weapons fire any distance")
m("V-CMD-11", "except", FIRE,
  "        if by_class and distance is None:\n            ru, en",
  "        if False:\n            ru, en",
  "drop: a posture the class's row bars from fire is allowed")
m("V-CMD-11", "who", FIRE,
  "        if by_class:\n            base = distance  # None here",
  "        if by_class and False:\n            base = distance  # None here",
  "drop: the class's own row of the infantry table is ignored; the weapon's default governs")
m("V-CMD-11", "who", FIRE,
  '    return weapon == "rifle" and f.cls not in ARMED_CLASSES',
  '    return weapon == "rifle"',
  "widen: a class's row also sets the rifle distance of a class armed with its own weapon")

# --- V-CORR-1: corrected fire when the firing unit has no visual contact -----------------------------
m("V-CORR-1", "who", FIRE,
  "if not any(c.shooter == p.shooter and c.target == p.target_id and c.ply == state.ply",
  "if not any(c.target == p.target_id and c.ply == state.ply",
  "widen: a correction made for another battery serves this one")
m("V-CORR-1", "who", FIRE,
  "if not any(c.shooter == p.shooter and c.target == p.target_id and c.ply == state.ply",
  "if not any(c.shooter == p.shooter and c.ply == state.ply",
  "widen: a correction of one target serves a shot at any target")
m("V-CORR-1", "when", FIRE,
  "if not any(c.shooter == p.shooter and c.target == p.target_id and c.ply == state.ply",
  "if not any(c.shooter == p.shooter and c.target == p.target_id",
  "widen: a correction from an earlier turn still serves")
m("V-CORR-1", "when", FIRE,
  '    elif not p.visual_contact and p.target != "bunker" and p.target != "aircraft":',
  '    elif False:',
  "drop: fire without visual contact needs no correction")

# --- V-CORR-4: the radio chain corrector -> radio op -> radio op -> battery officer ------------------
m("V-CORR-4", "how many", FIRE,
  "if len(p.radio_operators) != 2 or p.battery_officer",
  "if len(p.radio_operators) < 1 or p.battery_officer",
  "shorten: one radio operator is enough for the chain")
m("V-CORR-4", "who", FIRE,
  'if ro.cls != "radio_operator" or ro.side != side:',
  'if ro.cls != "radio_operator":',
  "widen: the enemy's radio operator can carry the designation")
m("V-CORR-4", "who", FIRE,
  "    if not is_officer(bo) or bo.side != side:",
  "    if bo.side != side:",
  "widen: any fighter at the battery receives the designation, not its officer")
m("V-CORR-4", "how many", FIRE,
  "    if p.distance > talk or p.battery_distance > talk:",
  "    if p.distance > talk:",
  "drop: the last spoken link (radio operator to battery officer) is not measured")

# --- V-MG-3: an MG affects every enemy fighter in its radius, attack against each one's defence ------
m("V-MG-3", "how many", FIRE,
  'p.weapon in ("grenade", "rifle", "sniper_rifle")\n',
  'p.weapon in ("grenade", "rifle", "sniper_rifle", "lmg", "hmg")\n',
  "narrow: an MG strikes one fighter only")
m("V-MG-3", "who", FIRE,
  '            if not enemy(side, t.side) or t.dead or t.captured:\n                raise refuse("S-TARGET", f"{t.id} — не живой',
  '            if t.dead or t.captured:\n                raise refuse("S-TARGET", f"{t.id} — не живой',
  "widen: the shooter's own men in the radius are struck too")
m("V-MG-3", "how many", FIRE,
  "        _resolve(state, p, f, t, s, by, r, direct, hit)\n\n\ndef _in_intact_house",
  "        _resolve(state, p, f, t, s, by, r, direct, hit)\n        if p.weapon in (\"lmg\", \"hmg\"):\n            break\n\n\n"
  "def _in_intact_house",
  "narrow: the MG's attack is compared with the first fighter only; the rest of its radius is untouched")

# --- V-MORT-2: a mortar's fragmentation radius is 1 in ------------------------------------------------
m("V-MORT-2", "how many", DATA,
  '"aa_autocannon": 2.0, "mortar": 1.0}',
  '"aa_autocannon": 2.0, "mortar": 2.0}',
  "widen: the mortar takes the howitzer's 2 in radius")
m("V-MORT-2", "who", FIRE,
  "        if radius is not None and s.distance > radius:",
  "        if radius is not None and s.distance > radius and p.weapon != \"mortar\":",
  "drop: the 1 in radius limits the fragments on fighters, not on vehicles")
m("V-MORT-2", "who", FIRE,
  "            if radius is not None and s.distance is not None and s.distance > radius:",
  "            if radius is not None and s.distance is not None and s.distance > radius and p.weapon != \"mortar\":",
  "drop: the 1 in radius limits the fragments on vehicles, not on fighters")

# --- V-ROCKET-1: a rocket mortar has a howitzer's characteristics ------------------------------------
m("V-ROCKET-1", "who", WEAPONS,
  '"infantry_howitzer",\n                       "rocket_mortar"})',
  '"infantry_howitzer"})',
  "drop: the rocket mortar is not a howitzer (no area fire, no smoke)")
m("V-ROCKET-1", "who", DATA,
  '"infantry_howitzer": 2.0, "rocket_mortar": 2.0, ',
  '"infantry_howitzer": 2.0, ',
  "drop: the rocket mortar has no howitzer's damage radius")
m("V-ROCKET-1", "who", DATA,
  '"infantry_howitzer", "rocket_mortar", "gun6",',
  '"infantry_howitzer", "gun6",',
  "drop: the rocket mortar is not a howitzer in V-HOUSE-2's list (does not damage houses)")
m("V-ROCKET-1", "who", DATA,
  '"infantry_howitzer", "mortar", "rocket_mortar", "ground_attack_aircraft",',
  '"infantry_howitzer", "mortar", "ground_attack_aircraft",',
  "drop: the rocket mortar has no corrected fire")

# --- V-VDMG-5: a gun of a higher class than the tank's armour destroys it on a hit --------------------
m("V-VDMG-5", "how many", FIRE,
  "    if cls > t.armour:\n        destroy_vehicle(state, t, by)  # V-VDMG-5",
  "    if cls > t.armour + 1:\n        destroy_vehicle(state, t, by)  # V-VDMG-5",
  "miscount: 'higher' read as two classes higher; one class higher only damages")
m("V-VDMG-5", "when", FIRE,
  "    if cls > t.armour:\n        destroy_vehicle(state, t, by)  # V-VDMG-5\n        return",
  "    if cls > t.armour and gear:\n        destroy_vehicle(state, t, by)  # V-VDMG-5\n        return",
  "narrow: only a hit in the 16-20 band destroys; a plain hit damages")
m("V-VDMG-5", "who", FIRE,
  "    if p.weapon in GUNS or p.weapon in HOWITZERS or p.weapon in AT_INFANTRY:\n        _wound_riders",
  "    if p.weapon in GUNS or p.weapon in HOWITZERS or p.weapon in AT_INFANTRY:\n"
  "        if cls > t.armour and p.weapon in AT_INFANTRY:\n            return\n        _wound_riders",
  "narrow: only guns, not AT infantry weapons of a higher class, destroy")

# --- V-VDMG-8: side skirts make a tank invulnerable to grenade launchers (reading: AT rifles too) -----
m("V-VDMG-8", "who", FIRE,
  '(p.weapon == "at_grenade_launcher" or (p.weapon == "at_rifle" and r["skirts_stop_at_rifles"]))',
  '(p.weapon == "at_grenade_launcher")',
  "drop: skirts do not stop AT rifles (the reading)")
m("V-VDMG-8", "who", FIRE,
  '    if t.skirts and (p.weapon == "at_grenade_launcher"',
  '    if t.skirts and t.kind == "apc" and (p.weapon == "at_grenade_launcher"',
  "narrow: skirts protect only APCs, not tanks")
m("V-VDMG-8", "who", FIRE,
  '    if t.skirts and (p.weapon',
  '    if t.skirts and t.armour < 3 and (p.weapon',
  "narrow: skirts count only on light tanks (below class 3)")

INFANTRY = "battles/engine/rules/infantry.py"
COMMON = "battles/engine/rules/common.py"
MOVEMENT = "battles/engine/rules/movement.py"
VEHICLES = "battles/engine/rules/vehicles.py"
ENGINEERING = "battles/engine/rules/engineering.py"
VISIBILITY = "battles/engine/visibility.py"

# --- V-CMD-1: command distance works one way: only the ordering officer's distance is measured ---------
m("V-CMD-1", "who", INFANTRY,
  "    limit = command_distance(o, r, over_officers=over_officers)\n",
  "    limit = command_distance(o, r, over_officers=over_officers)\n"
  "    if cmd is not None:\n        limit = max(limit, command_distance(cmd, r, over_officers=False))\n",
  "widen: works both ways, the receiving commander's distance counts too (the greater)")
m("V-CMD-1", "who", INFANTRY,
  "    limit = command_distance(o, r, over_officers=over_officers)\n",
  "    limit = command_distance(cmd if cmd is not None else o, r, over_officers=over_officers)\n",
  "swap: the distance of the unit's own commander is measured, not the ordering officer's")

# --- V-CMD-6: a captain commanding rank and file directly has a lieutenant's 18 in --------------------
m("V-CMD-6", "how many", DATA,
  '"captain_over_rank_and_file": 18.0,  # V-CMD-6',
  '"captain_over_rank_and_file": 24.0,  # V-CMD-6',
  "drop: the captain keeps 24 in over rank and file")
m("V-CMD-6", "who", COMMON,
  'cmd.rank in ("sergeant", "lieutenant") and o.unit != uid',
  'cmd.rank in ("sergeant", "lieutenant")',
  "widen: a captain inside the unit he orders still counts as commanding through its officer")
m("V-CMD-6", "who", COMMON,
  'cmd.rank in ("sergeant", "lieutenant") and o.unit != uid',
  'o.unit != uid',
  "widen: any unit not his own counts as officers, even one without a living sergeant or lieutenant")

# --- V-MELEE-5: a fighter fights at most 1 melee per turn ----------------------------------------------
m("V-MELEE-5", "who", INFANTRY,
  "    for f in (a, d):\n        if f.melee_turn == state.turn:",
  "    for f in (a,):\n        if f.melee_turn == state.turn:",
  "narrow: only the attacker's melee counts; a defender may be attacked again")
m("V-MELEE-5", "who", INFANTRY,
  "    a.melee_turn = d.melee_turn = state.turn\n",
  "    a.melee_turn = state.turn\n",
  "drop: the defender's melee is not recorded")

# --- V-MORALE-3: an officer's bonus applies to the whole unit he is directly a member of ---------------
m("V-MORALE-3", "who", INFANTRY,
  "    roll = value(p.die) + bonus\n",
  "    roll = value(p.die)\n",
  "drop: the officer's bonus is not added to the unit's roll")
m("V-MORALE-3", "how many", INFANTRY,
  '    bonus = max((f.morale_bonus + r["morale_bonus"].get(f.rank, 0) for f in members if f.rank), default=0)  # V-MORALE-3',
  '    bonus = sum(f.morale_bonus + r["morale_bonus"].get(f.rank, 0) for f in members if f.rank)  # V-MORALE-3',
  "widen: the bonuses of every officer in the unit add up")
m("V-MORALE-3", "who", INFANTRY,
  '    bonus = max((f.morale_bonus + r["morale_bonus"].get(f.rank, 0) for f in members if f.rank), default=0)  # V-MORALE-3',
  '    bonus = max((f.morale_bonus + r["morale_bonus"].get(f.rank, 0) for f in members if f.id == u.commander),'
  ' default=0)  # V-MORALE-3',
  "narrow: only the unit's commander lends his bonus, not another officer of the unit")
m("V-MORALE-3", "who", INFANTRY,
  "    if value(p.die) + bonus > r[\"morale_dig_in_max\"] and p.new_commander is None:",
  "    if value(p.die) > r[\"morale_dig_in_max\"] and p.new_commander is None:",
  "drop: the bonus is ignored when the check asks for a new commander on 16-20")

# --- V-OFF-4: a captain orders lieutenants, or sergeants when there are no lieutenants -----------------
m("V-OFF-4", "except", INFANTRY,
  '        elif cmd_rank == "sergeant":\n            raise refuse("V-OFF-4"',
  '        elif False:\n            raise refuse("V-OFF-4"',
  "drop: the captain orders sergeants even while there are lieutenants")
m("V-OFF-4", "who", INFANTRY,
  'side_has_lt = any(f.rank == "lieutenant" and f.side == o.side and not f.dead',
  'side_has_lt = any(f.rank == "lieutenant" and not f.dead',
  "widen: the enemy's lieutenants count as 'there are lieutenants'")
m("V-OFF-4", "who", INFANTRY,
  'side_has_lt = any(f.rank == "lieutenant" and f.side == o.side and not f.dead and not f.captured',
  'side_has_lt = any(f.rank == "lieutenant" and f.side == o.side',
  "widen: a dead or captured lieutenant still counts")
m("V-OFF-4", "who", INFANTRY,
  '        elif p.unit != o.unit:\n            raise refuse("V-OFF-4"',
  '        elif False:\n            raise refuse("V-OFF-4"',
  "widen: a captain orders any unit directly, not only lieutenants or sergeants")

# --- V-TEST-3: 1-5 surrenders, but only within 12 in of the enemy (per fighter); else retreats ---------
m("V-TEST-3", "who", INFANTRY,
  '        if close and not r["surrender_per_fighter"]:',
  '        if close:',
  "widen: the whole unit surrenders when the enemy is near any one man (the per-fighter reading ignored)")
m("V-TEST-3", "except", INFANTRY,
  "(d := p.enemy_distances.get(f.id)) is not None and d <= near]",
  "(d := p.enemy_distances.get(f.id)) is None or d <= near]",
  "widen: a man with no enemy distance given surrenders as if the enemy were near")
m("V-TEST-3", "except", INFANTRY,
  '        u.morale = "retreat" if any(not f.captured for f in members) else "surrendered"',
  '        u.morale = "surrendered"',
  "drop: the men out of reach do not retreat; the unit counts as surrendered")
m("V-TEST-3", "except", INFANTRY,
  '    members = [f for f in _members(state, p.unit) if f.cls != "sniper"]\n    bonus',
  '    members = _members(state, p.unit)\n    bonus',
  "widen: the unit's snipers surrender (and lend bonuses) with it")

# --- V-TEST-6: 16-20 carries on, a fighter of the unit is appointed to a corporal's post --------------
m("V-TEST-6", "who", INFANTRY,
  "    if p.new_commander is not None and p.new_commander not in {f.id for f in members}:",
  "    if False:",
  "widen: a fighter of another unit may be appointed")
m("V-TEST-6", "how many", INFANTRY,
  '            if not nc.rank:\n                nc.rank = "corporal"\n',
  "",
  "drop: the appointed fighter does not take a corporal's rank")
m("V-TEST-6", "who", INFANTRY,
  "            u.commander = nc.id\n",
  "",
  "drop: the appointee does not command the unit")
m("V-TEST-6", "when", INFANTRY,
  '    if value(p.die) + bonus > r["morale_dig_in_max"] and p.new_commander is None:',
  '    if False:',
  "drop: 16-20 is accepted without naming the appointee")

# --- V-SCOUT-2: a scout's observation distance is always 24 in (reading: + the height's 4 in) ----------
m("V-SCOUT-2", "who", COMMON,
  '    if f.cls == "scout":\n        return rules["scout_observation"]',
  '    if False:\n        return rules["scout_observation"]',
  "drop: the scout's distance comes from the infantry table like any class")
m("V-SCOUT-2", "except", COMMON,
  '        return rules["scout_observation"] + (rules["height_bonus"] if on_height and rules["scout_height_bonus"] else 0.0)',
  '        return rules["scout_observation"]',
  "drop: the height's +4 in does not apply to a scout (the reading)")
m("V-SCOUT-2", "who", COMMON,
  '    if f.cls == "scout":\n        return rules["scout_observation"]',
  '    if f.cls == "scout" and not f.unit:\n        return rules["scout_observation"]',
  "narrow: only a scout outside a unit has 24 in; a scout in a unit takes the table's")

# --- V-FLAME-4: a tank captured this way needs personnel aboard to move or fire -----------------------
m("V-FLAME-4", "who", COMMON,
  'not any(c.cls == "personnel" for c in crew):\n        raise refuse("V-FLAME-4"',
  'not crew:\n        raise refuse("V-FLAME-4"',
  "widen: any crewman, not only personnel, may drive or fire the captured tank")
m("V-FLAME-4", "who", COMMON,
  "    if v.captured and v.crew_flamed_turn and not any(",
  "    if v.captured and not any(",
  "widen: every captured vehicle needs personnel, not only one taken after flaming")
m("V-FLAME-4", "who", COMMON,
  "    if v.captured and v.crew_flamed_turn and not any(",
  "    if v.crew_flamed_turn and not any(",
  "widen: the owner's own flamed tank, never captured, needs personnel too")

# --- V-MG-5: a heavy MG has a greater range and diameter than a light one, and needs two men to move ----
m("V-MG-5", "how many", MOVEMENT,
  '            if not mates:\n                raise refuse("V-MG-6"',
  '            if False:\n                raise refuse("V-MG-6"',
  "drop: the gunner moves the heavy MG alone")
m("V-MG-5", "who", MOVEMENT,
  '        if f.cls == "hmg_gunner":\n            mates',
  '        if f.cls in ("hmg_gunner", "lmg_gunner"):\n            mates',
  "widen: a light MG also needs two men to move")
m("V-MG-5", "how many", DATA,
  '"rifle": 8.0, "lmg": 12.0, "hmg": 18.0,',
  '"rifle": 8.0, "lmg": 12.0, "hmg": 12.0,',
  "drop: the heavy MG's range equals the light MG's")
m("V-MG-5", "how many", DATA,
  '"radius": {"lmg": 1.0, "hmg": 2.0,',
  '"radius": {"lmg": 1.0, "hmg": 1.0,',
  "drop: the heavy MG's fire diameter equals the light MG's")
m("V-MG-5", "who", MOVEMENT,
  "            and not m.dead and not m.captured and not m.wounded]",
  "            and not m.dead and not m.captured]",
  "widen: a wounded assistant still counts as the second man")

# --- V-TERR-7: any unit may move along a road and add 2 in that turn ---------------------------------
m("V-TERR-7", "who", MOVEMENT,
  '        allowed = r["postures"][posture_of(state, f)]["move"] + (r["road_bonus"] if p.road else 0.0)',
  '        allowed = r["postures"][posture_of(state, f)]["move"]',
  "narrow: the road bonus is for vehicles only")
m("V-TERR-7", "who", MOVEMENT,
  '    allowed = ctx.rules["vehicle_move"].get(v.drive, 0.0) + (ctx.rules["road_bonus"] if p.road else 0.0)',
  '    allowed = ctx.rules["vehicle_move"].get(v.drive, 0.0)',
  "narrow: the road bonus is for infantry only")
m("V-TERR-7", "who", MOVEMENT,
  '        allowed = r["postures"][posture_of(state, f)]["move"] + (r["road_bonus"] if p.road else 0.0)',
  '        allowed = r["postures"][posture_of(state, f)]["move"] + (r["road_bonus"] if p.road and '
  'posture_of(state, f) == "march" else 0.0)',
  "narrow: the road bonus only for infantry on the march")
m("V-TERR-7", "who", MOVEMENT,
  '    allowed = ctx.rules["vehicle_move"].get(v.drive, 0.0) + (ctx.rules["road_bonus"] if p.road else 0.0)',
  '    allowed = ctx.rules["vehicle_move"].get(v.drive, 0.0) + (ctx.rules["road_bonus"] if p.road and '
  'v.drive == "wheeled" else 0.0)',
  "narrow: the road bonus only for wheeled vehicles")

# --- V-TRANS-2: to embark, a man is brought into contact; his figure goes onto the vehicle's card -------
m("V-TRANS-2", "when", VEHICLES,
  '    if not p.in_contact:\n        raise refuse("V-TRANS-2"',
  '    if False:\n        raise refuse("V-TRANS-2"',
  "drop: men embark without touching the vehicle")
m("V-TRANS-2", "who", VEHICLES,
  '        if f.aboard:\n            raise refuse("V-TRANS-2"',
  '        if f.aboard == v.id:\n            raise refuse("V-TRANS-2"',
  "widen: a man aboard another vehicle embarks again")
m("V-TRANS-2", "who", VEHICLES,
  '        f.aboard, f.aboard_as, f.building = v.id, role, ""',
  '        f.aboard, f.aboard_as = v.id, role',
  "drop: the figure stays in its house (not taken off the table)")

# --- V-TRANS-4: a vehicle may not move in the turn men embark -----------------------------------------
m("V-TRANS-4", "when", MOVEMENT,
  '    if v.embark_ply == state.ply:\n        raise refuse("V-TRANS-4"',
  '    if False:\n        raise refuse("V-TRANS-4"',
  "drop: the vehicle moves in the turn men embark")
m("V-TRANS-4", "who", VEHICLES,
  "    v.embark_ply = state.ply  # V-TRANS-4",
  '    v.embark_ply = state.ply if role == "passenger" else v.embark_ply  # V-TRANS-4',
  "narrow: only passengers, not tank riders, hold the vehicle")
m("V-TRANS-4", "who", MOVEMENT,
  '    if v.embark_ply == state.ply:\n        raise refuse("V-TRANS-4"',
  '    if v.embark_ply == state.ply and v.kind == "apc":\n        raise refuse("V-TRANS-4"',
  "narrow: only an APC waits; a car or tank moves off with the men")

# --- V-WIRE-4: infantry crosses wire or a fence only with a sapper's help -----------------------------
m("V-WIRE-4", "except", MOVEMENT,
  '        if not sec.removed:\n            raise refuse("V-WIRE-4"',
  '        if False:\n            raise refuse("V-WIRE-4"',
  "drop: infantry crosses wire the sapper has not removed")
m("V-WIRE-4", "how many", MOVEMENT,
  '    for w in p.wire:\n        sec = state.wire.get(w)\n        if sec is None:\n'
  '            raise refuse("S-UNKNOWN", f"Секция {w!r} не найдена.", f"No section {w!r}.")\n'
  '        if not sec.removed:\n            raise refuse("V-WIRE-4"',
  '    for w in p.wire[:1]:\n        sec = state.wire.get(w)\n        if sec is None:\n'
  '            raise refuse("S-UNKNOWN", f"Секция {w!r} не найдена.", f"No section {w!r}.")\n'
  '        if not sec.removed:\n            raise refuse("V-WIRE-4"',
  "narrow: only the first section crossed in a move is checked")
m("V-WIRE-4", "order", ENGINEERING,
  "    s.sapper_object, s.sapper_ply = p.object, state.ply\n",
  "    s.sapper_object, s.sapper_ply = p.object, state.ply\n"
  "    if p.object in state.wire:\n        state.wire[p.object].removed = True\n",
  "reorder: the section is open once the sapper arrives (scheme turn 1), before his work turn")

# --- V-MINE-1: only a sapper places mines and charges (in secret) ------------------------------------
m("V-MINE-1", "who", ENGINEERING,
  '    if s.cls != "sapper" and p.action == "lay":\n        raise refuse("V-MINE-1"',
  '    if False:\n        raise refuse("V-MINE-1"',
  "drop: laying by a non-sapper is refused only as V-SAP-1 (not the mine rule)")
m("V-MINE-1", "who", VISIBILITY,
  '    return bool(mine.get("revealed")) or (side is not None and mine.get("side") == side)',
  '    return True',
  "widen: every reader sees the sapper's mines (not laid in secret)")
m("V-MINE-1", "who", ENGINEERING,
  '        state.mines[mines.new_key(state, p.object)] = Mine(p.object, s.side, p.kind or "ap", s.id)',
  '        state.mines[mines.new_key(state, p.object)] = Mine(p.object, s.side, p.kind or "ap", "")',
  "drop: the mine is not the sapper's (no layer recorded)")

# --- V-MINE-7: infantry does not set off an AT mine --------------------------------------------------
m("V-MINE-7", "except", ENGINEERING,
  '    if m.kind == "at" and p.vehicle is None:\n        raise refuse("V-MINE-7"',
  '    if False:\n        raise refuse("V-MINE-7"',
  "drop: infantry sets off an AT mine")
m("V-MINE-7", "order", ENGINEERING,
  '    if m.kind == "at" and p.vehicle is None:\n        raise refuse("V-MINE-7"',
  '    if m.kind == "at" and p.vehicle is None and p.distance <= 0:\n        raise refuse("V-MINE-7"',
  "narrow: infantry is barred only when standing on the mine; nearby infantry sets it off")

# --- V-MINE-12: every object within a charge's 3 in radius becomes light cover ------------------------
m("V-MINE-12", "who", ENGINEERING,
  "        if obj is not None and not obj.light_cover:\n            obj.light_cover = True  # V-MINE-12",
  "        if obj is not None and not obj.light_cover and oid in state.buildings:\n"
  "            obj.light_cover = True  # V-MINE-12",
  "narrow: only houses, not pillboxes, in the radius turn to light cover")
m("V-MINE-12", "how many", ENGINEERING,
  "    for oid in p.objects:\n        obj = state.buildings.get(oid)",
  "    for oid in p.objects[:1]:\n        obj = state.buildings.get(oid)",
  "narrow: only the object the charge is on, not every object in the radius")

# --- V-VEH-9: class 3+ armour has a basic radio: its crew receives orders through a radio operator ----
m("V-VEH-9", "how many", DATA,
  '"radio_orders_min_armour": 3,  # V-VEH-9',
  '"radio_orders_min_armour": 2,  # V-VEH-9',
  "widen: class 2 counts (V-MOTOR-8's number)")
m("V-VEH-9", "who", INFANTRY,
  '        if tank is not None and tank.armour >= r["radio_orders_min_armour"]:\n            last = 0.0',
  '        if False:\n            last = 0.0',
  "drop: a commander in a tank still needs the radio operator within 6 in")
m("V-VEH-9", "except", INFANTRY,
  '    if p.distance is None:\n        raise refuse("V-CMD-1"',
  '    if cmd is not None and cmd.aboard and cmd.aboard in state.vehicles and '
  'state.vehicles[cmd.aboard].armour >= r["radio_orders_min_armour"]:\n        return\n'
  '    if p.distance is None:\n        raise refuse("V-CMD-1"',
  "widen: the tank radio receives orders with no radio operator at all (more than its only function)")

AIRCRAFT = "battles/engine/fow/rules/aircraft.py"
AIR_SAVES = "battles/engine/fow/rules/air_saves.py"
BUILDINGS = "battles/engine/fow/rules/buildings.py"
DOUBLE = "battles/engine/fow/rules/double.py"
DIGGING = "battles/engine/fow/rules/digging.py"
RECON = "battles/engine/fow/rules/recon.py"
TRAINS = "battles/engine/fow/rules/trains.py"
FOW_CORE = "battles/engine/fow/rules/core.py"
FOW_ROSTER = "rosters/domain/fow.py"
V11_ROSTER = "rosters/domain/v11.py"
SPECS = "rosters/domain/specs.py"
VALIDATION = "rosters/domain/validation.py"
ROSTER_DEFAULTS = "rosters/defaults.py"
SETUP = "battles/engine/rules/setup.py"

# --- F-AIR-15: every platoon with at least one hit from an air attack is Pinned Down -------------------
m("F-AIR-15", "how many", AIRCRAFT,
  "    for pid in pinned:\n        if pid in state.platoons:",
  "    for pid in pinned[:1]:\n        if pid in state.platoons:",
  "narrow: only the first platoon hit is Pinned Down")
m("F-AIR-15", "when", AIRCRAFT,
  "        if t.platoon and t.platoon not in pinned:\n            pinned.append(t.platoon)  # F-AIR-15: any hit pins, "
  "saved or not\n        resolve_one(state, ctx, record, h)",
  "        resolve_one(state, ctx, record, h)\n        if t.platoon and t.platoon not in pinned and t.destroyed:\n"
  "            pinned.append(t.platoon)",
  "narrow: only a platoon that lost a team is pinned; a saved hit does not pin")
m("F-AIR-15", "who", AIR_SAVES,
  "                state.platoons[pl].pinned = True  # F-AIR-15: any hit pins, saved or not",
  "                pass  # F-AIR-15: any hit pins, saved or not",
  "drop: hits recorded one at a time (before their saves) pin no one")

# --- F-AIR-8: an unarmoured vehicle saves on 5+ --------------------------------------------------------
m("F-AIR-8", "who", AIRCRAFT,
  '        return int(saves["unarmoured"]), "F-AIR-8"',
  '        return int(saves["infantry"]), "F-AIR-8"',
  "swap: an unarmoured vehicle takes an infantry team's save")
m("F-AIR-8", "who", AIRCRAFT,
  "    return t.armoured and t.kind in VEHICLE_KINDS",
  "    return t.kind in VEHICLE_KINDS",
  "widen: every vehicle is armoured (no unarmoured save at all)")
m("F-AIR-8", "who", AIRCRAFT,
  "        if t.warrior or t.independent or t.recon:\n            return int(saves[\"unarmoured_special\"])",
  "        if t.warrior or t.independent or t.recon or t.kind == \"vehicle\":\n"
  "            return int(saves[\"unarmoured_special\"])",
  "widen: every soft-skin vehicle gets the 3+ of the special teams")

# --- F-BLD-1: teams enter and leave a building only through Openings; never through a wall ------------
m("F-BLD-1", "who", BUILDINGS,
  '    if t.building and t.building != b.id and not t.opening:\n        refuse("F-BLD-1"',
  '    if False:\n        refuse("F-BLD-1"',
  "drop: a team inside one building moves into another without leaving by an Opening")
m("F-BLD-1", "when", BUILDINGS,
  '    if p.enter_by and within:\n        refuse("F-BLD-1"',
  '    if False:\n        refuse("F-BLD-1"',
  "widen: a team already inside enters again")
m("F-BLD-1", "except", BUILDINGS,
  '        if not p.ends_at:\n            refuse("F-BLD-1", "Войти',
  '        if False:\n            refuse("F-BLD-1", "Войти',
  "drop: a team outside moves into a building without naming an Opening")
m("F-BLD-1", "who", BUILDINGS,
  "    if t.building and not t.opening and not p.pivot_only:",
  "    if t.building and not t.opening and not p.pivot_only and t.kind != \"gun\":",
  "narrow: a gun team inside walks out through the wall with a plain move")
m("F-BLD-1", "who", BUILDINGS,
  "    if (p.enter_by or within) and not p.leave_by and p.ends_at:",
  "    if False:",
  "widen: a team inside ends its move at an Opening outside without leaving by it")

# --- F-DBL-4: a team At the Double ends its move facing the direction of movement ---------------------
m("F-DBL-4", "when", DOUBLE,
  '    if not p.facing_travel:\n        refuse("F-DBL-4"',
  '    if False:\n        refuse("F-DBL-4"',
  "drop: a team At the Double may end facing any way")
m("F-DBL-4", "who", DOUBLE,
  '    _no_other_action(t, state, "двигаться", "move further")\n    if not p.at_the_double:\n        return',
  '    _no_other_action(t, state, "двигаться", "move further")\n    if not p.facing_travel:\n'
  '        refuse("F-DBL-4", "Фронтом по движению.", "Facing the way it moved.")\n    if not p.at_the_double:\n        return',
  "widen: every move, not only At the Double, must end facing the direction of movement")

# --- F-DBL-11: bombardments and air attacks are not doubled against a team At the Double ---------------
m("F-DBL-11", "who", DOUBLE,
  '    if p.kind != "direct":\n        return n, "F-DBL-11"',
  '    if p.kind == "aircraft":\n        return n, "F-DBL-11"',
  "narrow: only air attacks are exempt; a bombardment rolls double")
m("F-DBL-11", "who", DOUBLE,
  '    if p.kind != "direct":\n        return n, "F-DBL-11"',
  '    if p.kind == "artillery":\n        return n, "F-DBL-11"',
  "narrow: only bombardments are exempt; an air attack rolls double")
m("F-DBL-11", "who", DOUBLE,
  '    if p.kind != "direct":\n        return n, "F-DBL-11"',
  '    if False:\n        return n, "F-DBL-11"',
  "drop: bombardments and air attacks roll double too")

# --- F-DIG-2: a platoon may Dig In while Pinned Down ---------------------------------------------------
m("F-DIG-2", "except", DIGGING,
  "    require_own_turn(state, pl.side)  # F-DIG-2: a Pinned Down platoon may still dig\n",
  "    require_own_turn(state, pl.side)  # F-DIG-2: a Pinned Down platoon may still dig\n"
  "    if pl.pinned:\n        refuse(\"F-DIG-1\", \"Прижат.\", \"Pinned Down.\")\n",
  "drop: a Pinned Down platoon may not Dig In (the pin read as barring every move)")
m("F-DIG-2", "when", DIGGING,
  "    pl.dig_ply = state.ply\n    pl.dig_failed_ply",
  "    pl.dig_ply = state.ply\n    pl.pinned = False\n    pl.dig_failed_ply",
  "widen: digging in also rallies the Pinned Down platoon")

# --- F-DIG-5: a failed Skill test leaves the soldiers unprotected: not Dug In --------------------------
m("F-DIG-5", "when", DIGGING,
  "        if passed:\n            _dig_in(t)  # F-DIG-4\n        elif",
  "        if True:\n            _dig_in(t)  # F-DIG-4\n        elif",
  "drop: the teams are Dug In whatever the Skill test")
m("F-DIG-5", "how many", DIGGING,
  "            t.concealed = True  # F-DIG-5, F-DIG-13: not Dug In, but Concealed in the Open",
  "            t.concealed = True  # F-DIG-5, F-DIG-13: not Dug In, but Concealed in the Open\n"
  "            t.bulletproof_cover = True",
  "widen: a failed test still gives Bulletproof Cover (half dug in)")

# --- F-DIG-8: teams in Bulletproof Cover, Cavalry and vehicles need not Dig In ------------------------
m("F-DIG-8", "who", DIGGING,
  '    return t.kind in ("infantry", "gun") and not t.cavalry and not t.destroyed',
  '    return t.kind in ("infantry", "gun") and not t.destroyed',
  "widen: Cavalry teams dig")
m("F-DIG-8", "who", DIGGING,
  '    return t.kind in ("infantry", "gun") and not t.cavalry and not t.destroyed',
  '    return not t.cavalry and not t.destroyed',
  "widen: vehicles dig")
m("F-DIG-8", "except", DIGGING,
  "        if t.bulletproof_cover and not t.dug_in or tid in p.in_cover:",
  "        if tid in p.in_cover:",
  "drop: a team already in Bulletproof Cover digs unless the table says so again")
m("F-DIG-8", "except", DIGGING,
  "        if t.bulletproof_cover and not t.dug_in or tid in p.in_cover:",
  "        if t.bulletproof_cover and not t.dug_in:",
  "drop: a team the table declares in Bulletproof Cover still digs")

# --- F-DIG-11: teams in water or on bridges or fords cannot Dig In, and act normally ------------------
m("F-DIG-11", "who", DIGGING,
  "        if tid in p.in_water:\n            continue  # F-DIG-11",
  "        if False:\n            continue  # F-DIG-11",
  "drop: teams in water dig with the rest")
m("F-DIG-11", "except", DIGGING,
  "    for tid in p.in_cover:\n        state.teams[tid].bulletproof_cover = True\n",
  "    for tid in p.in_cover:\n        state.teams[tid].bulletproof_cover = True\n"
  "    for tid in p.in_water:\n        state.teams[tid].dig_ply = state.ply\n",
  "drop 'act normally': teams in water count as having dug (moved ROF)")

# --- F-RECON-1: every team of a Reconnaissance platoon is a Reconnaissance team -----------------------
m("F-RECON-1", "who", FOW_CORE,
  'recon=t.recon or pl.kind == "recon",  # F-RECON-1',
  'recon=t.recon,  # F-RECON-1',
  "drop: a team of a recon platoon is recon only if its own data says so")
m("F-RECON-1", "who", FOW_CORE,
  'recon=t.recon or pl.kind == "recon",  # F-RECON-1',
  'recon=pl.kind == "recon",  # F-RECON-1',
  "converse: only teams of a recon platoon are recon teams")
m("F-RECON-1", "who", FOW_ROSTER,
  'if u.fow_kind == "recon":  # F-RECON-1',
  'if False:  # F-RECON-1',
  "drop: a recon platoon may hold non-recon teams")
m("F-RECON-1", "how many", FOW_ROSTER,
  'wrong = [d.code for _, d in known if d.speciality != "recon"]',
  'wrong = [d.code for _, d in known[:1] if d.speciality != "recon"]',
  "narrow: only the platoon's first team is checked")

# --- F-RECON-4: not placed from Ambush closer than 8"/20 cm to an enemy recon team in LOS --------------
m("F-RECON-4", "who", RECON,
  "        if spots_ambush(state, r) and s.distance < near:",
  "        if False:",
  "drop: an ambush may be placed next to an enemy recon team")
m("F-RECON-4", "how many", RECON,
  "    for s in p.recon_in_sight:\n        r = team(state, s.team)",
  "    for s in p.recon_in_sight[:1]:\n        r = team(state, s.team)",
  "narrow: only the first recon team in sight is measured")
m("F-RECON-4", "who", RECON,
  "        if r.side == t.side or not r.recon:\n            refuse(\"S-TARGET\"",
  "        if not r.recon:\n            refuse(\"S-TARGET\"",
  "widen: the ambusher's own recon teams also bar the placement")

# --- F-RECON-8: in an enemy's LOS within 16"/40 cm, a recon team may not move closer to it --------------
m("F-RECON-8", "when", RECON,
  '    if c.closest_in_sight < c.start_distance:\n        refuse("F-RECON-8"',
  '    if False:\n        refuse("F-RECON-8"',
  "drop: a recon team in sight within 16 in moves closer")
m("F-RECON-8", "when", RECON,
  '    if c.closest_in_sight < c.start_distance:\n        refuse("F-RECON-8"',
  '    if c.closest < c.start_distance:\n        refuse("F-RECON-8"',
  "widen: moving closer out of the enemy's sight counts too")
m("F-RECON-8", "how many", RECON,
  "    if c.closest_in_sight is None or c.closest_in_sight > seen:\n        return",
  "    if c.closest_in_sight is None:\n        return",
  "widen: the 16 in limit is dropped: any distance in sight counts")

# --- F-RECON-9: a recon team never moves closer than 8"/20 cm to any enemy team, LOS or not -----------
m("F-RECON-9", "who", RECON,
  "    if c.closest < near and c.closest < c.start_distance:",
  "    if False:",
  "drop: a recon team may come within 8 in of the enemy")
m("F-RECON-9", "who", RECON,
  "    if c.closest < near and c.closest < c.start_distance:",
  "    if c.closest_in_sight is not None and c.closest_in_sight < near and c.closest_in_sight < c.start_distance:",
  "narrow: only an enemy in Line of Sight counts")
m("F-RECON-9", "except", RECON,
  "    if c.closest < near and c.closest < c.start_distance:",
  "    if c.closest < near:",
  "widen: a team that starts within 8 in may not move at all, even away")

# --- F-RECON-15: a recon team fired on in the enemy Shooting Step may Disengage unless last turn it ... -
m("F-RECON-15", "when", RECON,
  "prev not in (t.double_ply, t.shot_ply, t.assault_ply))",
  "prev not in (t.shot_ply, t.assault_ply))",
  "drop: a team that moved At the Double last turn may Disengage")
m("F-RECON-15", "when", RECON,
  "prev not in (t.double_ply, t.shot_ply, t.assault_ply))",
  "prev not in (t.double_ply, t.assault_ply))",
  "drop: a team that shot last turn may Disengage")
m("F-RECON-15", "when", RECON,
  "prev not in (t.double_ply, t.shot_ply, t.assault_ply))",
  "prev not in (t.double_ply, t.shot_ply))",
  "drop: a team that assaulted last turn may Disengage")
m("F-RECON-15", "when", RECON,
  "    prev = last_own_ply(state, t.side)\n    return t.recon",
  "    prev = state.ply\n    return t.recon",
  "swap: the current (enemy) turn is looked at, not the team's own previous turn")
m("F-RECON-15", "when", RECON,
  '    if pl.side == state.side_to_move:\n        refuse("F-RECON-15"',
  '    if False:\n        refuse("F-RECON-15"',
  "widen: Disengage declared in the platoon's own turn")
m("F-RECON-15", "who", RECON,
  '        if not may_disengage(state, t):\n            refuse("F-RECON-15"',
  '        if False:\n            refuse("F-RECON-15"',
  "widen: once the platoon may Disengage, a team of it that shot last turn moves too")

# --- F-RECON-22: a failed Skill test: the recon teams may not Disengage and stay where they are ---------
m("F-RECON-22", "when", RECON,
  '    if p.moves and not passed:\n        refuse("F-RECON-22"',
  '    if False:\n        refuse("F-RECON-22"',
  "drop: the teams Disengage though the Skill test failed")
m("F-RECON-22", "who", RECON,
  '    d.stage, d.passed, d.out_of_reach = "resolved", passed, p.out_of_reach',
  '    d.stage, d.passed, d.out_of_reach = "resolved", True, p.out_of_reach',
  "drop: a failed test is recorded as passed")

# --- F-RECON-24: the whole platoon out of Range, LOS or Field of Fire: the remaining shots miss --------
m("F-RECON-24", "when", RECON,
  '    if d.stage == "resolved" and d.out_of_reach:\n        refuse("F-RECON-24"',
  '    if False:\n        refuse("F-RECON-24"',
  "drop: the remaining shots are rolled though the platoon got out of reach")
m("F-RECON-24", "how many", RECON,
  "        if not live <= set(ids):",
  "        if not set(ids):",
  "narrow: one team out of reach counts as the whole platoon")
m("F-RECON-24", "who", RECON,
  "        live = {t for t in pl.teams if not state.teams[t].destroyed}",
  "        live = set(pl.teams)",
  "widen: the platoon's destroyed teams must Disengage too")

# --- F-SPEC-1 (roster): the specialised troop types of the FoW ruleset --------------------------------
m("F-SPEC-1", "who", FOW_ROSTER,
  "        if self.spec.fighters or self.spec.vehicles:  # F-SPEC-1",
  "        if self.spec.fighters:  # F-SPEC-1",
  "widen: v11.2 vehicles may be bought in a FoW roster")
m("F-SPEC-1", "who", FOW_ROSTER,
  '            if u.kind != "fow_platoon":\n                self.add("F-SPEC-1"',
  '            if False:\n                self.add("F-SPEC-1"',
  "widen: v11.2 units are accepted in a FoW roster")
m("F-SPEC-1", "who", FOW_ROSTER,
  '    "cavalry": ("кавалерия", "cavalry"),\n',
  "",
  "drop: cavalry is not flagged as a type without seed rules")
m("F-SPEC-1", "how many", FOW_ROSTER,
  '            if t.unit not in self.units:\n                self.add("F-SPEC-1"',
  '            if False:\n                self.add("F-SPEC-1"',
  "widen: a team outside any platoon is accepted")

# --- F-TRAIN-16: the train enters where its line crosses the Deployment Area, or the nearest edge -------
m("F-TRAIN-16", "who", TRAINS,
  '    if (p.entry == "nearest_edge") == line.crosses_deployment_area:',
  '    if False:',
  "drop: either entry point is accepted")
m("F-TRAIN-16", "who", TRAINS,
  '    if (p.entry == "nearest_edge") == line.crosses_deployment_area:',
  '    if p.entry == "nearest_edge" and line.crosses_deployment_area:',
  "narrow: a line that misses the Deployment Area may still enter 'from the Deployment Area'")
m("F-TRAIN-16", "who", TRAINS,
  '    if (p.entry == "nearest_edge") == line.crosses_deployment_area:',
  '    if p.entry == "deployment_area" and not line.crosses_deployment_area:',
  "narrow: a line crossing the Deployment Area may still enter from the nearest edge")

# --- F-TRAIN-22: any part of the train off the table: the whole train has left, never to return --------
m("F-TRAIN-22", "how many", TRAINS,
  "    if tr.position - tr.length < 0:\n        return True",
  "    if tr.position < 0:\n        return True",
  "narrow: backing off, the train leaves only when all of it is off")
m("F-TRAIN-22", "how many", TRAINS,
  "    return _line_length_known(line) and tr.position > line.length",
  "    return _line_length_known(line) and tr.position - tr.length > line.length",
  "narrow: going forward, the train leaves only when all of it is past the edge")
m("F-TRAIN-22", "when", TRAINS,
  '    if tr.where == "left":\n        refuse("F-TRAIN-22", "Бронепоезд покинул стол и не может вернуться.",\n'
  '               "The armoured train has left the table and may not return.")\n    if tr.where == "off_table":',
  '    if tr.where == "off_table":',
  "widen: a train that left may move back on")
m("F-TRAIN-22", "when", TRAINS,
  '    if tr.where == "left":\n        refuse("F-TRAIN-22", "Бронепоезд покинул стол и не может вернуться.",\n'
  '               "The armoured train has left the table and may not return.")\n    if tr.where == "on_table":',
  '    if tr.where == "on_table":',
  "widen: a train that left may enter again")
m("F-TRAIN-22", "who", TRAINS,
  '        if tr is None or (tr.where == "left" and t.platoon not in tr.escorts_aboard):',
  '        if tr is None or tr.where == "left":',
  "narrow: the Tank Support Platoons riding it stay on the table when the train leaves")
m("F-TRAIN-22", "when", TRAINS,
  "    if p.leaves_table or _left(state, tr):",
  "    if p.leaves_table:",
  "drop: a position past the edge does not count unless the table says it left")

# --- F-TRAIN-23: a train pushes the Wreckage of any tank off the track, however large -----------------
m("F-TRAIN-23", "who", TRAINS,
  "        if not (w.wreck and w.destroyed):",
  "        if False:",
  "widen: anything, a live team too, is pushed off the track")
m("F-TRAIN-23", "who", TRAINS,
  "        if not (w.wreck and w.destroyed):",
  "        if not w.destroyed:",
  "widen: a destroyed team that left no Wreckage is pushed")
m("F-TRAIN-23", "how many", TRAINS,
  "    for wid in p.wrecks_pushed:\n        w = team(state, wid)",
  "    if len(p.wrecks_pushed) > 1:\n        refuse(\"F-TRAIN-23\", \"Одни.\", \"One.\")\n"
  "    for wid in p.wrecks_pushed:\n        w = team(state, wid)",
  "narrow: one Wreckage per move")
m("F-TRAIN-23", "except", TRAINS,
  "        if not (w.wreck and w.destroyed):",
  "        if not (w.wreck and w.destroyed) or (w.armour_side or 0) > (loco.armour_side or 0):",
  "narrow: a Wreckage heavier than the Locomotive is not pushed ('however large' dropped)")
m("F-TRAIN-23", "who", TRAINS,
  "    tr.wrecks_pushed.extend(w for w in p.wrecks_pushed if w not in tr.wrecks_pushed)  # F-TRAIN-23, F-TRAIN-24",
  "    pass  # F-TRAIN-23, F-TRAIN-24",
  "drop: the pushed Wreckage is not recorded as off the track")

# --- V-BUNK-7 (roster): a pillbox may buy the Spotter characteristic --------------------------------
m("V-BUNK-7", "who", V11_ROSTER,
  '            if opt.applies_to == "vehicle" and v.kind == "pillbox":',
  '            if False:',
  "widen: a pillbox may buy any vehicle specialisation")
m("V-BUNK-7", "who", ROSTER_DEFAULTS,
  '("spotter", "Корректировщик", "Spotter", "any"),',
  '("spotter", "Корректировщик", "Spotter", "vehicle"),',
  "narrow: Spotter is for vehicles only, not pillboxes")
m("V-BUNK-7", "who", SETUP,
  "        state.bunkers[b] = Bunker(b, spotter=True)",
  "        state.bunkers[b] = Bunker(b)",
  "drop: a pillbox with the Spotter characteristic enters the battle without it")

# --- V-MOTOR-1 (roster): a motorised unit combines infantry and armoured vehicles ---------------------
m("V-MOTOR-1", "who", V11_ROSTER,
  '        armoured = [v for v in vehicles if v.kind in ARMOURED]\n        # V-MOTOR-1',
  '        armoured = list(vehicles)\n        # V-MOTOR-1',
  "widen: any vehicle (a car, a gun) counts as the unit's armour")
m("V-MOTOR-1", "how many", V11_ROSTER,
  '        if not armoured:\n            self.add("V-MOTOR-1"',
  '        if False:\n            self.add("V-MOTOR-1"',
  "drop: a motorised unit without armour passes")

# --- V-PLT-1 (roster): a platoon is 2 squads (reading 2-3), optionally 1 tactical group and vehicles ----
m("V-PLT-1", "how many", SPECS,
  "    platoon_min_squads: int = 2\n",
  "    platoon_min_squads: int = 1\n",
  "narrow: one squad makes a platoon")
m("V-PLT-1", "how many", V11_ROSTER,
  "        if groups > r.platoon_max_groups:  # V-PLT-1",
  "        if False:  # V-PLT-1",
  "drop: any number of tactical groups")
m("V-PLT-1", "who", V11_ROSTER,
  '        squads = sum(1 for k in kids if k.kind == "squad")\n        groups = sum(1 for k in kids if k.kind == '
  '"tactical_group")\n        if squads < r.platoon_min_squads:',
  '        squads = sum(1 for k in kids if k.kind in ("squad", "hq_squad"))\n        groups = sum(1 for k in kids if '
  'k.kind == "tactical_group")\n        if squads < r.platoon_min_squads:',
  "widen: an HQ squad counts as one of the platoon's squads")

# --- V-PP-3 (roster): a lieutenant receives 45 PP to build a platoon -----------------------------------
m("V-PP-3", "how many", SPECS,
  "    budget_lieutenant: int = 45\n",
  "    budget_lieutenant: int = 40\n",
  "miscount: the domain's default lieutenant budget is 40 PP")
m("V-PP-3", "how many", "rosters/models.py",
  '_("budget: lieutenant (V-PP-3)"), default=45)',
  '_("budget: lieutenant (V-PP-3)"), default=40)',
  "miscount: the stored rules' default lieutenant budget is 40 PP")
m("V-PP-3", "who", V11_ROSTER,
  "        budget = self.rules.budget_for(senior)  # V-PP-1…4",
  "        budget = self.rules.budget_for(\"sergeant\" if senior == \"lieutenant\" else senior)  # V-PP-1…4",
  "swap: a lieutenant's force is priced on a sergeant's budget")

# --- V-RANK-7 (roster): a lieutenant commands a platoon of 2-3 squads + 1 reinforcement group ----------
m("V-RANK-7", "how many", V11_ROSTER,
  '        if not self.officers(self.members.get(u.ref, ()), "lieutenant"):',
  "        if False:",
  "drop: a platoon without a lieutenant (a second one is allowed, V-OFF-7; none is not)")
m("V-RANK-7", "how many", SPECS,
  "    platoon_max_squads: int = 3\n",
  "    platoon_max_squads: int = 2\n",
  "narrow: at most 2 squads (V-PLT-1's number, the conflict read the other way)")
m("V-RANK-7", "how many", V11_ROSTER,
  "        if squads > r.platoon_max_squads:  # V-RANK-7",
  "        if False:  # V-RANK-7",
  "drop: a platoon of any number of squads")
m("V-RANK-7", "who", V11_ROSTER,
  '        if not self.officers(self.members.get(u.ref, ()), "lieutenant"):',
  '        if not self.officers(self.members.get(u.ref, ()), "lieutenant", "captain"):',
  "widen: a captain attached to the platoon counts as its lieutenant")
m("V-RANK-7", "who", VALIDATION,
  '        elif u.kind == "platoon" and "lieutenant" not in ranks:\n            need(u.ref, "lieutenant")\n',
  "",
  "drop: a platoon without its lieutenant is not offered one")

# --- V-RANK-8 (roster): a captain commands 2-3 platoons + 2 groups (or an HQ squad) --------------------
m("V-RANK-8", "how many", V11_ROSTER,
  "hq > r.company_max_hq_squads or (hq and groups):",
  "hq > r.company_max_hq_squads:",
  "widen: an HQ squad alongside the reinforcement groups (not in their place)")
m("V-RANK-8", "how many", V11_ROSTER,
  "        if platoons > r.company_max_platoons:  # V-RANK-8",
  "        if False:  # V-RANK-8",
  "drop: a company of any number of platoons")
m("V-RANK-8", "how many", V11_ROSTER,
  "        if groups > r.company_max_groups or hq > r.company_max_hq_squads or (hq and groups):",
  "        if groups > r.company_max_groups or (hq and groups):",
  "widen: several HQ squads")

# --- V-SQUAD-3 (roster): a squad is divided into at most 2 groups --------------------------------------
m("V-SQUAD-3", "how many", V11_ROSTER,
  "        if any(t not in (1, 2) for t in teams):  # V-SQUAD-3",
  "        if len(teams) > 2:  # V-SQUAD-3",
  "miscount: any two group numbers pass (groups 1 and 3)")
m("V-SQUAD-3", "how many", V11_ROSTER,
  "        if any(t not in (1, 2) for t in teams):  # V-SQUAD-3",
  "        if False:  # V-SQUAD-3",
  "drop: a squad in three groups")

# --- V-VDMG-1 (roster): every vehicle has an armour class on its card ----------------------------------
m("V-VDMG-1", "who", V11_ROSTER,
  "        if v.armour_class is None or v.armour_class not in r.armour_cost:",
  "        if v.armour_class is not None and v.armour_class not in r.armour_cost:",
  "drop: a vehicle without an armour class passes")
m("V-VDMG-1", "who", V11_ROSTER,
  "        if v.armour_class is None or v.armour_class not in r.armour_cost:",
  "        if v.kind in ARMOURED and (v.armour_class is None or v.armour_class not in r.armour_cost):",
  "narrow: only armoured vehicles need an armour class (cars, guns, pillboxes exempt)")

# --- V-VEH-1 (roster): the vehicle types are cars, armoured vehicles and artillery ---------------------
m("V-VEH-1", "who", SPECS,
  'VEHICLE_KINDS = ("car", "tank", "apc", "artillery", "pillbox")',
  'VEHICLE_KINDS = ("tank", "apc", "artillery", "pillbox")',
  "narrow: cars are not a vehicle type")
m("V-VEH-1", "who", SPECS,
  'ARMOURED = ("tank", "apc")',
  'ARMOURED = ("tank", "apc", "car")',
  "widen: cars count as armoured vehicles")
m("V-VEH-1", "who", V11_ROSTER,
  "            if v.kind not in VEHICLE_KINDS or v.gun_type not in GUN_TYPES:  # V-VEH-1",
  "            if v.kind not in VEHICLE_KINDS:  # V-VEH-1",
  "drop: an unknown gun type passes")
m("V-VEH-1", "who", V11_ROSTER,
  '            if v.unit is not None and v.unit not in self.units:\n                self.add("V-VEH-1"',
  '            if False:\n                self.add("V-VEH-1"',
  "widen: a vehicle of a unit that does not exist passes")

# --- V-SMOKE-7: a smoke round needs no test: the screen is placed at the designated point ---------------
m("V-SMOKE-7", "who", FIRE,
  '        v.shot_ply, v.shots, v.shot_target = state.ply, 1, "smoke"\n        side = v.side\n    state.phase = "fire"',
  '        v.shot_ply, v.shots, v.shot_target = state.ply, 1, "smoke"\n        side = v.side\n        return\n'
  '    state.phase = "fire"',
  "narrow: a gun's smoke round places no screen")
m("V-SMOKE-7", "who", FIRE,
  '        f.shot_ply, f.shots, f.shot_target = state.ply, 1, "smoke"\n        side = f.side\n',
  '        f.shot_ply, f.shots, f.shot_target = state.ply, 1, "smoke"\n        side = f.side\n        return\n',
  "narrow: a rifleman's smoke round places no screen")


MUTANTS: dict[str, list[Mutant]] = {}


def _group() -> None:
    for x in _M:
        MUTANTS.setdefault(x.rule, []).append(x)


_group()
