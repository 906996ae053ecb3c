"""Rules data: every number, table and reading the engine uses, as game data.

The service passes the game master's values as the ``rules`` mapping; these
are the defaults, merged into ``fold.DEFAULT_RULES``. Values from the seed
(ruleset v11.2, seed 003) carry their catalog ID in a comment. Keys in
``PLACEHOLDERS`` have no seed basis (catalog "Gaps in the seeds", G-n): the
admin must show them as placeholders until the master sets them. Keys in
``READINGS`` hold an interpretation the catalog adopted (``reading:``) that
the master may change.
"""
from __future__ import annotations

from typing import Any

INFANTRY_CLASSES = (
    "rifleman", "sniper", "lmg_gunner", "hmg_gunner", "hmg_assistant", "scout", "sapper", "medic",
    "at_grenadier", "at_rifleman", "flamethrower", "radio_operator", "personnel", "officer",
)
POSTURES = ("dug_in", "march", "recon", "assault")

DEFAULT_RULES: dict[str, Any] = {
    # V-TEST: d20 bands, inclusive both ends (seed)
    "test_success_min": 11,  # V-TEST-1 hit / wound / spotting / capture
    "grenade_success_min": 13,  # V-TEST-2
    "morale_surrender_max": 5,  # V-TEST-3
    "morale_retreat_max": 10,  # V-TEST-4
    "morale_dig_in_max": 15,  # V-TEST-5 (16-20: V-TEST-6)
    "morale_surrender_distance": 12.0,  # V-TEST-3 (enemy no farther than 12 in)
    "surrender_per_fighter": True,  # V-TEST-3 reading: checked per fighter (else the whole unit)
    "tank_miss_max": 10,  # V-TEST-8
    "tank_hit_max": 15,  # V-TEST-9 (16-20 adds running gear, V-TEST-10)
    # V-CMD: command, talk, observation (seed unless placeholder)
    "command_distance": {"captain": 24.0, "lieutenant": 18.0, "sergeant": 12.0, "corporal": 12.0},  # V-CMD-2..4
    "captain_over_rank_and_file": 18.0,  # V-CMD-6
    "talk_distance": 6.0,  # V-CORR-5, V-RADIO-3
    "observation_distance": {c: 12.0 for c in INFANTRY_CLASSES},  # G-1
    "scout_observation": 24.0,  # V-SCOUT-2
    "scout_height_bonus": True,  # V-SCOUT-2 reading: the height's +4 in still applies
    "height_bonus": 4.0,  # V-TERR-9
    # G-1 infantry table: attack and defence coefficients
    "attack": {c: 0 for c in INFANTRY_CLASSES},
    "defence": {c: 0 for c in INFANTRY_CLASSES},
    # G-4 postures
    "postures": {
        "march": {"move": 12.0, "fire": False, "melee": False, "defence": 0},
        "recon": {"move": 6.0, "fire": True, "melee": False, "defence": 0},
        "assault": {"move": 6.0, "fire": True, "melee": True, "defence": 0},
        "dug_in": {"move": 0.0, "fire": True, "melee": False, "defence": 0},
    },
    # G-3 fire distances in inches (None = unlimited on the table)
    "fire_distance": {
        "rifle": 8.0, "lmg": 12.0, "hmg": 18.0, "sniper_rifle": 24.0, "flamethrower": 6.0,
        "at_grenade_launcher": 6.0, "at_rifle": 6.0, "grenade": 4.0, "vehicle_mg": 12.0,
        "gun": None, "at_gun": None, "howitzer": None, "tank_howitzer": None, "heavy_howitzer": None,
        "heavy_tank_howitzer": None, "infantry_howitzer": None, "mortar": None, "rocket_mortar": None,
        "aa_gun": None, "aa_autocannon": None,  # V-AA-5: unlimited
        "ground_attack_aircraft": None, "bomber": None, "dive_bomber": None,
    },
    # G-3, V-CMD-11: a fighter's fire distance with his class's own small arm (fire.own_weapon), by
    # posture, from the infantry table: {class or "class:rank": {posture: inches, or None = he cannot
    # fire in it}}. An entry prevails over ``fire_distance``; empty by default (logs recorded before it
    # existed replay identically). Per-class tables (observation_distance, attack, defence, this one)
    # take a rank-specific key "officer:lieutenant" before the class (common.class_entry).
    "infantry_fire": {},
    "house_dug_in_fire_distance": 12.0,  # V-HOUSE-10
    "rider_fire_distance": 6.0,  # V-RIDE-4
    "flamethrower_min_distance": 3.0,  # V-FLAME-6 (reading: a minimum)
    "house_fire_distance": "set",  # V-HOUSE-10 reading: "set" to 12 in (or keep a greater one); "add" adds 12 in
    # shots per turn (G-7 placeholder; mortar and rocket mortar 2 are seed)
    "shots_per_turn": {"mortar": 2, "rocket_mortar": 2},  # V-MORT-3, V-ROCKET-2
    "default_shots_per_turn": 1,
    # damage radii in inches
    # seed: V-MG-4, V-MG-8, V-MORT-2; the flamethrower and AA autocannon are heavy MGs (V-FLAME-1, V-AA-5)
    "radius": {"lmg": 1.0, "hmg": 2.0, "flamethrower": 2.0, "aa_autocannon": 2.0, "mortar": 1.0},
    "area_radius": {"howitzer": 2.0, "tank_howitzer": 2.0, "heavy_howitzer": 2.0, "heavy_tank_howitzer": 2.0,
                    "infantry_howitzer": 2.0, "rocket_mortar": 2.0, "ground_attack_aircraft": 2.0,
                    "bomber": 2.0, "dive_bomber": 2.0},  # G-7, G-8
    # houses, pillboxes, cover (seed)
    "house_defence": 2,  # V-HOUSE-1
    "light_cover_defence": 1,  # V-COVER-2
    "house_damaging_weapons": ["howitzer", "tank_howitzer", "heavy_howitzer", "heavy_tank_howitzer",
                               "infantry_howitzer", "rocket_mortar", "gun6", "ground_attack_aircraft",
                               "bomber", "dive_bomber", "flamethrower", "mortar", "charge"],  # V-HOUSE-2
    "bunker_damaging_weapons": ["dive_bomber", "heavy_tank_howitzer", "heavy_howitzer", "gun6",
                                "flamethrower"],  # V-BUNK-3
    "bunker_reserve": 6,  # V-BUNK-4
    "house_damage_per_hit": 1,  # V-HOUSE-2 reading: each hit from a listed weapon adds 1
    "bunker_sniper_needs_spot": True,  # V-BUNK-2 reading: prevails over V-SNIP-3
    "infantry_max_obstacle_height": 1.5,  # V-TERR-10
    "road_bonus": 2.0,  # V-TERR-7
    # medicine
    "medic_distance": 4.0,  # V-MED-4
    "medic_rerolls": 1,  # V-MED-4 reading: once
    "wounded_again_later_killed": True,  # G-10
    "wounded_may_act": False,  # reading: a wounded fighter acts only after recovering (V-MED-5)
    # melee
    "melee_distance": 1.0,  # V-MELEE-1
    "melee_bonus": {},  # G-12: by class or rank
    "morale_bonus": {},  # G-12: by rank
    # prisoners
    "prisoner_enemy_clear": 4.0,  # V-POW-1
    "release_enemy_clear": 4.0,  # V-POW-7
    # vehicle capture
    "capture_min_infantry": 5,  # V-CAPT-3
    "capture_ring": 2.0,  # V-CAPT-3
    "capture_friendly_clear": 8.0,  # V-CAPT-4
    # mines, charges, sappers
    "mine_trigger_distance": 2.0,  # V-MINE-2
    "mine_radius": 2.0,  # V-MINE-3
    "charge_radius": 3.0,  # V-MINE-11
    "ap_mine_wounds_all": True,  # V-MINE-4 reading: every infantryman within 2 in (else only the nearest)
    "sapper_reveal_distance": 6.0,  # V-MINE-14
    "sapper_reach": 4.0,  # V-SAP-2, V-WIRE-5
    # transport, riders
    "transport_max": 15,  # V-TRANS-1
    "seats": {"car": 4, "apc": 10},  # G-25
    "disembark_distance": 1.0,  # V-TRANS-3
    "riders_max": 14,  # V-RIDE-1
    "riders_min_armour": 3,  # V-RIDE-1
    # smoke
    "smoke_limit": 2,  # V-SMOKE-3
    "smoke_period": "battle",  # V-SMOKE-3 reading: the limit is per battle ("turn": per turn)
    "smoke_min_gun_class": 3,  # V-SMOKE-1
    # vehicles
    "vehicle_reserve": 1,  # V-VDMG-4: a tank's damage reserve (seed)
    "non_tank_reserve": 1,  # G-26: cars, APCs, artillery pieces and aircraft
    "atgl_class": 5,  # V-ATGL-1
    "at_grenade_ambush": False,  # V-ATGL-1 reading: no AT ambush for grenade launchers and AT rifles
    "skirts_stop_at_rifles": True,  # V-VDMG-8 reading: skirts also stop AT rifles
    "running_gear_when_outclassed": False,  # V-TEST-10 reading: a lower-class gun has no effect at all
    "mg_vehicle_class": 1,  # V-MG-2
    "radio_link_min_armour": 2,  # V-MOTOR-8
    "radio_orders_min_armour": 3,  # V-VEH-9
    "vehicle_move": {"wheeled": 12.0, "tracked": 8.0, "half_tracked": 8.0, "towed": 0.0, "none": 0.0},  # G-18
    "ambush_path_distance": 2.0,  # V-GUN-5 (less than)
    "ambush_shots_per_phase": 1,  # G-24
    "aa_autocannon_targets": ["ground_attack_aircraft", "dive_bomber"],  # V-AA-6
    "water_needs_bridge": True,  # G-21
    "air_sorties_per_battle": 1,  # G-8
    "aa_shots_per_appearance": 1,  # G-8, V-AA-3: AA shots per AA weapon at one appearance of an aircraft
    "smoke_blocks_sight": True,  # G-20: blocks visual contact, not corrected fire
    "mg_crew_spacing": 1.0,  # V-MG-7
    "corrected_fire_weapons": ["howitzer", "tank_howitzer", "heavy_howitzer", "heavy_tank_howitzer",
                               "infantry_howitzer", "mortar", "rocket_mortar", "ground_attack_aircraft",
                               "bomber", "dive_bomber"],  # V-CORR-2 (reading: every howitzer and the rocket mortar)
    "spotter_needs_scout": {"bunker": True, "vehicle": False},  # V-BUNK-8 reading
    "charge_affects_friends": False,  # V-MINE-11 reading: enemy infantry only
    # issue 11: readings of the gaps that were hard-coded, now game data (defaults: the catalog's placeholder)
    "infantry_fire_min": 11,  # G-2: wounded if d20 + attack - defence >= this (the V-TEST-1 band)
    "grenade_test": True,  # G-11: a thrown grenade uses the grenade test 13-20 (V-TEST-2); False: the hit test
    "spotting_test_everywhere": False,  # G-9: False = only where the catalog says (V-HOUSE-9, V-BUNK-2)
    "melee_tie": "reroll",  # G-13: "reroll" until the tie breaks; "attacker" / "defender" wins a tie; "none": nobody is hurt
    "mines_per_sapper": None,  # G-22: mines and charges one sapper may lay in a battle (None = no limit)
    # G-13 (battles.table.command.command_roll, V-RANK-10): "reroll" until the tie breaks; "senior": the tied
    # player of the highest card rank is captain (still tied: re-roll)
    "command_roll_tie": "reroll",
}

PLACEHOLDERS: dict[str, str] = {
    "observation_distance": "G-1",
    "attack": "G-1",
    "defence": "G-1",
    "postures": "G-4",
    "fire_distance": "G-3",
    "infantry_fire": "G-3",
    "default_shots_per_turn": "G-7",
    "area_radius": "G-7",
    "wounded_again_later_killed": "G-10",
    "melee_bonus": "G-12",
    "morale_bonus": "G-12",
    "seats": "G-25",
    "vehicle_move": "G-18",
    "ambush_shots_per_phase": "G-24",
    "water_needs_bridge": "G-21",
    "smoke_blocks_sight": "G-20",
    "air_sorties_per_battle": "G-8",
    "non_tank_reserve": "G-26",
    "infantry_fire_min": "G-2",
    "grenade_test": "G-11",
    "spotting_test_everywhere": "G-9",
    "melee_tie": "G-13",
    "mines_per_sapper": "G-22",
    "command_roll_tie": "G-13",
    "aa_shots_per_appearance": "G-8",
}

READINGS: dict[str, str] = {
    "smoke_period": "V-SMOKE-3: 2 rounds per battle, not per turn",
    "medic_rerolls": "V-MED-4: the medic allows one re-roll",
    "flamethrower_min_distance": "V-FLAME-6: a literal minimum distance",
    "corrected_fire_weapons": "V-CORR-2: every howitzer type and the rocket mortar",
    "spotter_needs_scout": "V-BUNK-8: a spotter vehicle needs no scout aboard",
    "charge_affects_friends": "V-MINE-11: only enemy infantry is killed",
    "radio_link_min_armour": "V-MOTOR-8 vs V-VEH-9: class >= 2 for links between vehicle commanders",
    "radio_orders_min_armour": "V-VEH-9: class >= 3 to receive orders via a radio operator",
    "wounded_may_act": "V-MED-5/6: only a recovered fighter regains his functions",
    "house_fire_distance": "V-HOUSE-10: 12 in is set (or a greater own distance kept), not added",
    "house_damage_per_hit": "V-HOUSE-2: each hit inflicts 1 damage point",
    "bunker_sniper_needs_spot": "V-BUNK-2: the sniper needs the spotting test at a pillbox",
    "ap_mine_wounds_all": "V-MINE-4: every infantryman within 2 in is wounded",
    "at_grenade_ambush": "V-ATGL-1: AT ambush not included",
    "skirts_stop_at_rifles": "V-VDMG-8: side skirts also stop AT rifles",
    "running_gear_when_outclassed": "V-TEST-10: no running-gear damage from a gun of lower class",
    "scout_height_bonus": "V-SCOUT-2: the +4 in of a height still applies",
    "surrender_per_fighter": "V-TEST-3: surrender checked per fighter; the rest retreat",
}
