"""The words of the recording forms: a label for every payload key of every
event type (``FIELD_LABELS``, with ``TYPE_FIELD_LABELS`` where one key means
something else in one type) and for every enum value (``ENUM_LABELS``), in the
reader's language (gettext, context ``CTX``); v11.2's words, then Flames of
War's (the FoW vocabulary of the catalog's glossary, part F) by area.

``field_label`` raises KeyError for a key nobody has named yet, so a new event
field cannot reach the page raw (``tests/battles/test_recording.py`` renders
every type's form in both languages).
"""
from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language, pgettext_lazy

from battles.engine.terms import lang_of, term

CTX = "battle record"


def _(text: str) -> Any:
    return pgettext_lazy(CTX, text)


# --- words for the schema's keys and enum values ------------------------------------------
FIELD_LABELS: dict[str, Any] = {
    "action": _("Action"), "ambush": _("Anti-tank ambush (enemy's movement phase)"), "armour": _("Armour class"),
    "attacker": _("Attacker"), "battery_distance": _("Second radio operator to the battery officer, in"),
    "battery_officer": _("Battery officer"), "bridge": _("By a bridge"), "building": _("In house"),
    "bunker": _("In pillbox"), "bunkers": _("Pillboxes"), "captor": _("Captor"), "character": _("Campaign character"),
    "charge": _("Charge"), "cls": _("Class"), "commander": _("Commander"), "corrected": _("Indirect fire on a correction"),
    "corrector": _("Corrector"), "crew": _("Crew"), "defender": _("Defender"), "die": _("Die"),
    "distance": _("Distance, in"), "drive": _("Drive"), "embrasure": _("At a pillbox embrasure"),
    "enemy_distances": _("Distance to the nearest enemy, in"), "enter_house": _("Enters house"),
    "fences": _("Fences"), "fighter": _("Fighter"), "fighters": _("Fighters"), "floors": _("Floors climbed"),
    "gun": _("Gun class"), "hit": _("Hit roll"), "houses": _("Houses"), "id": _("Identifier"),
    "in_contact": _("In contact with the vehicle"), "infantry": _("Capturing infantry: distance to the vehicle, in"),
    "kind": _("Kind"), "leave_house": _("Leaves the house"), "light_cover": _("On a light-cover base"),
    "medic": _("Medic"), "medic_distance": _("Medic's distance, in"), "melee_bonus": _("Melee bonus"),
    "mg_spacing": _("Machine-gun crew: widest gap after the move, in"), "mine": _("Mine"),
    "morale_bonus": _("Morale bonus"), "name": _("Name"), "nearest_enemy": _("Nearest enemy, in"),
    "nearest_fit_enemy": _("Nearest unwounded enemy, in"), "nearest_friendly": _("Nearest friendly unit, in"),
    "new_commander": _("New commander"), "object": _("Object"), "objects": _("Houses and pillboxes within 3 in"),
    "obstacle_height": _("Tallest obstacle crossed, in"), "officer": _("Officer"),
    "officer_distance": _("Officer's distance, in"),
    "officer_distances": _("Officer's distance to the unit's farthest fighter, in"),
    "on_height": _("Shooter on a height"), "on_object_base": _("On the object's base"), "parent": _("Parent squad"),
    "path_distance": _("Tank's path to the aim line, in"), "posture": _("Posture"), "prisoner": _("Prisoner"),
    "radio_link": _("Linked by radio operators"), "radio_operators": _("Radio operators"), "railway": _("Along a railway"),
    "rank": _("Rank"), "reason": _("Reason"), "reroll": _("Medic's re-roll"), "road": _("Along a road"),
    "role": _("Aboard as"), "rolls": _("Melee rolls"), "ruleset": _("Rules"), "sapper": _("Sapper"),
    "seats": _("Seats"), "shooter": _("Shooter"), "side": _("Side"), "skirts": _("Side skirts"),
    "smoke": _("Name of the smoke screen"), "specialisations": _("Specialisations"), "spot": _("Spotting test"),
    "spotter_bunkers": _("Pillboxes with a spotter"), "struck": _("Fighters struck"),
    "vehicles_struck": _("Vehicles in the damage radius"),
    "surrounded": _("Completely surrounded"), "talk_distances": _("Talking distance, in"), "target": _("Target"),
    "target_id": _("Target"), "through_opening": _("Through an agreed opening"),
    "through_smoke": _("Through the smoke screen"), "towing": _("Towing"), "trawl": _("Mine trawl takes it"),
    "turn": _("Turn"), "unit": _("Unit"), "units": _("Units"), "vehicle": _("Vehicle"), "vehicles": _("Vehicles"),
    "via": _("How"), "victims": _("Victims"), "visual_contact": _("Visual contact"),
    "voids_seq": _("Number of the event voided"), "water": _("Crossed water"), "weapon": _("Weapon"),
    "winner": _("Winner"), "wire": _("Wire and fences crossed"),
}
# Overrides where one key means something else in one event type.
TYPE_FIELD_LABELS: dict[tuple[str, str], Any] = {
    ("battle_started", "attacker"): _("Attacking side's name"),
    ("battle_started", "defender"): _("Defending side's name"),
    ("fire_corrected", "shooter"): _("Firing piece"),
    ("fire_corrected", "distance"): _("Corrector to the battery officer or first radio operator, in"),
    ("fire", "target"): _("Target kind"),
    ("fire", "distance"): _("Distance to the target, in"),
    ("disembarked", "distance"): _("Put down within, in"),
    ("crew_dismounted", "distance"): _("Put down within, in"),
    ("smoke_fired", "officer_distance"): _("Officer to the screen's centre, in"),
    ("order_given", "distance"): _("Officer to the unit's farthest fighter, in"),
    ("sapper_approached", "object"): _("Object (mine, charge or wire; or the name of a new mine)"),
    ("sapper_worked", "object"): _("Object"),
    ("sapper_worked", "kind"): _("Laid"),
    ("mine_triggered", "distance"): _("Triggering enemy's distance to the mine, in"),
    ("mine_triggered", "vehicle"): _("Vehicle on the mine"),
    ("vehicle_boarded", "vehicle"): _("Crewless vehicle"),
    ("capture_attempted", "vehicle"): _("Vehicle to capture"),
    ("melee", "attacker"): _("Attacking fighter"),
    ("melee", "defender"): _("Defending fighter"),
    ("turn_ended", "side"): _("Side ending its turn"),
    ("correction", "reason"): _("Reason (kept in the record)"),
    ("struck", "distance"): _("Distance from the point of impact, in"),
    ("victims", "distance"): _("Distance from the mine or charge, in"),
    ("rolls", "attacker"): _("Attacker's die"),
    ("rolls", "defender"): _("Defender's die"),
    ("units", "kind"): _("Unit kind"),
    ("vehicles", "kind"): _("Vehicle kind"),
    ("vehicles", "crew"): _("Crew (fighter identifiers, comma separated)"),
    ("fighters", "unit"): _("Unit identifier"),
    ("fighters", "building"): _("In house"),
}
# Flames of War (ruleset fow): its payload keys and values, in the FoW vocabulary (catalog glossary, part F).
FIELD_LABELS.update({
    "team": _("Team"), "teams": _("Teams"), "platoon": _("Platoon"), "platoons": _("Platoons"),
    "at_the_double": _("At the Double"), "pivot_only": _("Only pivoted in place"),
    "direct_route": _("By the most direct route"), "turned_for": _("Changed direction for"),
    "facing_travel": _("Ends facing the direction of movement"), "difficult_terrain": _("Crossed Difficult Terrain"),
    "closest_enemy": _("Closest to an enemy team (battle's units)"),
    "bulletproof_cover": _("In Bulletproof Cover"), "dice": _("Dice"),
    "pioneer_supply_distance": _("Command team to the Pioneer Supply vehicle (battle's units)"),
    "in_water": _("Teams in water, on a bridge or a ford"), "in_cover": _("Teams already in Bulletproof Cover"),
    "against": _("Enemy platoon"), "subject": _("Team or platoon"), "status": _("Status"), "value": _("Set"),
    "first_mover": _("Moves first"), "gun_size": _("Gun size"),
    "anti_aircraft": _("Anti-aircraft"), "armoured": _("Armoured"), "recon": _("Reconnaissance"),
    "independent": _("Independent"), "warrior": _("Warrior"), "observer": _("Observer"), "cavalry": _("Cavalry"),
    "pioneer_supply": _("Pioneer Supply"), "locomotive": _("Locomotive"), "movement": _("Movement distance"),
    "rof": _("Rate of Fire"), "rof_moved": _("Rate of Fire after moving"), "escorts": _("Tank Support Platoons"),
    "reserve": _("In Reserve"), "skill": _("Skill test on"), "command": _("Command team"),
})
TYPE_FIELD_LABELS.update({
    ("battle_started", "units"): _("Distances in"),
    ("team_moved", "distance"): _("Distance moved (battle's units)"),
    ("team_shot", "target"): _("Target team"),
    ("team_shot", "kind"): _("Fire"),
    ("dig_in_attempted", "die"): _("Skill test"),
    ("dig_in_attempted", "reroll"): _("Re-roll (Pioneer Supply)"),
    ("dig_in_rerolled", "die"): _("Re-rolled Skill test (Pioneer Supply)"),
    ("platoons", "kind"): _("Platoon kind"),
    ("teams", "kind"): _("Team kind"),
})
# --- recon (F-RECON) ---
FIELD_LABELS.update({
    "fire": _("Fire"), "passengers": _("Passengers"), "recon_in_sight": _("Enemy Reconnaissance teams in sight"),
    "first": _("Chooses the first platoon"), "enemies": _("Enemy teams"), "enemy": _("Enemy team"),
    "start_distance": _("Distance at the start (battle's units)"),
    "closest": _("Closest distance during the move (battle's units)"),
    "in_sight_at_start": _("In its Line of Sight at the start"),
    "closest_in_sight": _("Closest distance while in its Line of Sight (battle's units)"), "note": _("Note"),
    "shooters": _("Teams opening fire"), "moves": _("Disengaging teams"),
    "further_away": _("Every part of the move took it further from the shooters"),
    "out_of_reach": _("Whole platoon out of Range, Line of Sight or Field of Fire"),
})
TYPE_FIELD_LABELS.update({
    ("unarmoured_save_rolled", "die"): _("Save"),
    ("disengaged", "die"): _("Skill test"),
    ("recon_deployment_move", "distance"): _("Distance moved (battle's units)"),
    ("moves", "distance"): _("Distance moved (battle's units)"),
    ("recon_in_sight", "team"): _("Enemy Reconnaissance team"),
    ("recon_in_sight", "distance"): _("Distance to the placed team (battle's units)"),
})

ENUM_LABELS: dict[Any, Any] = {
    "": _("rank and file"), "aa_autocannon": _("AA autocannon"), "aa_gun": _("AA gun"), "aircraft": _("aircraft"),
    "ap": _("anti-personnel mine"), "apc": _("armoured personnel carrier"), "artillery": _("artillery piece"),
    "assault": _("assault"), "at": _("anti-tank mine"), "at_fire": _("anti-tank fire"),
    "at_grenade_launcher": _("AT grenade launcher"), "at_grenadier": _("AT grenadier"), "at_gun": _("AT gun"),
    "at_rifle": _("AT rifle"), "at_rifleman": _("AT rifleman"), "bomber": _("bomber"), "bunker": _("pillbox"),
    "captain": _("captain"), "car": _("car"), "charge": _("demolition charge"), "corporal": _("corporal"),
    "crew": _("crew"), "dive_bomber": _("dive bomber"), "draw": _("draw"), "dug_in": _("dug in"),
    "fighters": _("fighters"), "fire_team": _("fire team"), "flamethrower": _("flamethrower"), "grenade": _("grenade"),
    "ground_attack_aircraft": _("ground-attack aircraft"), "gun": _("gun"), "half_tracked": _("half-tracked"),
    "heavy_howitzer": _("heavy howitzer"), "heavy_tank_howitzer": _("heavy tank howitzer"),
    "hmg": _("heavy machine gun"), "hmg_assistant": _("HMG assistant"), "hmg_gunner": _("HMG gunner"),
    "house": _("house"), "howitzer": _("howitzer"), "hq": _("headquarters"), "infantry_howitzer": _("infantry howitzer"),
    "kill": _("kill"), "lay": _("lay"), "leave": _("leave"), "lieutenant": _("lieutenant"),
    "lmg": _("light machine gun"), "lmg_gunner": _("LMG gunner"), "march": _("march"), "medic": _("medic"),
    "mine_trawl": _("mine trawl"), "mortar": _("mortar"), "motorised": _("motorised unit"), "none": _("none"),
    "officer": _("officer"), "passengers": _("passengers"), "personnel": _("personnel"), "radio": _("by radio"),
    "radio_operator": _("radio operator"), "recon": _("reconnaissance"), "remove": _("remove"),
    "riders": _("tank riders"), "rifle": _("rifle"), "rifleman": _("rifleman"), "rocket_mortar": _("rocket mortar"),
    "sapper": _("sapper"), "scout": _("scout"), "send": _("send away"), "sergeant": _("sergeant"),
    "sniper": _("sniper"), "sniper_rifle": _("sniper rifle"), "spotter": _("spotter"), "squad": _("squad"),
    "tactical_group": _("tactical group"), "talk": _("by talking"), "tank": _("tank"),
    "tank_howitzer": _("tank howitzer"), "towed": _("towed"), "tracked": _("tracked"), "tractor": _("tractor"),
    "v11.2": _("v11.2"), "vehicle": _("vehicle"), "vehicle_mg": _("vehicle machine gun"), "wheeled": _("wheeled"),
    "attacker": _("attacker"), "defender": _("defender"), "entered": _("entered from the table"),
    "rolled": _("rolled by the service"),
    # Flames of War
    "fow": _("Flames of War"), "infantry": _("infantry"), "in": _("inches"), "cm": _("centimetres"),
    "difficult_terrain": _("Difficult Terrain"), "road": _("a road"), "enemy": _("the enemy"), "other": _("other"),
    "direct": _("direct fire"), "bogged": _("Bogged Down"), "bailed_out": _("Bailed Out"),
    "destroyed": _("Destroyed"), "pinned": _("Pinned Down"), "gone_to_ground": _("Gone to Ground"),
    "concealed": _("Concealed"), "bulletproof_cover": _("in Bulletproof Cover"), "train": _("armoured train wagon"),
    "armoured_train": _("armoured train"), "independent": _("independent"), "man_packed": _("man-packed"),
    "light": _("light"), "medium": _("medium"), "heavy": _("heavy"), "immobile": _("immobile"),
}
# --- aircraft (F-AIR) ---
FIELD_LABELS.update({
    "armour_top": _("Top armour"), "armour_side": _("Side armour"), "aircraft": _("Aircraft"),
    "hits": _("Hits"), "anti_tank": _("Anti-tank rating"), "firepower": _("Firepower test on"),
    "save": _("Save"), "firepower_die": _("Firepower test"),
})
TYPE_FIELD_LABELS.update({
    ("air_attack_resolved", "side"): _("Side whose aircraft attacked"),
    ("air_attack_hit", "side"): _("Side whose aircraft attacked"),
    ("hits", "team"): _("Team hit"),
})
ENUM_LABELS.update({"bombs": _("bombs"), "rockets": _("rockets"), "cannon": _("cannon"), "mg": _("machine-guns")})
# --- a FoW shot's result, as the table decided it (G-F1) ---: words from battles.engine.terms, in the reader's language
_words = lazy(lambda ru, en: ru if lang_of(get_language()) == "ru" else en, str)
TYPE_FIELD_LABELS.update({
    ("team_shot", "distance"): _words("Дистанция до цели", "Range to the target"),
    ("team_shot", "hits"): _words("Попаданий (как насчитал стол)", "Hits (as the table counted them)"),
    ("team_shot", "result"): _words("Итог для цели (решает стол)", "Result for the target (the table decides)"),
    ("team_shot", "pinned"): _words("Взвод цели Прижат Огнём (Pinned Down)", "The target's platoon is Pinned Down"),
})
_shot_result = lazy(lambda value: term("fow_result", value, get_language()), str)
ENUM_LABELS.update({"miss": _shot_result("miss"), "saved": _shot_result("saved")})
# Postures read as on the battle page and in the log (battles.engine.terms: the seed's own words), so the
# posture a player picks is the word he then sees beside his unit.
_posture = lazy(lambda value: term("posture", value, get_language()), str)
ENUM_LABELS.update({value: _posture(value) for value in ("dug_in", "march", "recon", "assault")})
# player_done's player (V-TURN-12) and force_mustered's replace (the side musters anew)
FIELD_LABELS["player"] = _("Player")
FIELD_LABELS["mg"] = _("Assistant to heavy MG gunner")  # V-MG-7: the gunner whose MG he serves
FIELD_LABELS["replace"] = _("Muster anew before the first «Ход» (the side's earlier pieces leave the table)")

# --- buildings (F-BLD) ---
FIELD_LABELS.update({
    "openings": _("Openings (windows, doors, breaches)"), "inside": _("Teams inside"),
    "ground_floor": _("On the ground floor"), "width": _("Width (battle's units)"),
    "enter_by": _("Enters through the Opening"), "leave_by": _("Leaves through the Opening"),
    "ends_at": _("Ends outside at the Opening"), "base_width": _("Base width (battle's units)"),
})
TYPE_FIELD_LABELS.update({
    ("building_move", "building"): _("Building"),
    ("building_move", "distance"): _("Distance moved (battle's units)"),
    ("building_move", "die"): _("Skill test"),
    ("building_placed", "id"): _("Building"),
    ("openings", "id"): _("Opening"),
})

# --- trains (F-TRAIN) ---
FIELD_LABELS.update({
    "edges": _("Two opposite table edges"), "edge": _("Table edge"),
    "position": _("Along the edge from its left corner (battle's units)"),
    "existing": _("The table's own Railway Line"),
    "crosses_deployment_area": _("The line crosses this player's Deployment Area"),
    "bridges": _("Rivers and streams bridged"), "buildings_moved": _("Buildings moved aside"),
    "through_hills": _("Runs over a hill"), "through_buildings": _("A building left on the line"),
    "train": _("Armoured train"), "held_in": _("Held in"),
    "train_length": _("Length of the train with its Tank Support Platoons (battle's units)"),
    "entry": _("Enters from"), "direction": _("Direction"), "wrecks_pushed": _("Wrecks pushed off the track"),
    "leaves_table": _("Leaves the table"), "off_line": _("Leaves its Railway Line"),
})
TYPE_FIELD_LABELS.update({
    ("railway_line_laid", "length"): _("Length of the line on the table (battle's units, 0: not measured)"),
    ("train_entered", "distance"): _("Distance onto the table (battle's units)"),
    ("train_moved", "distance"): _("Distance along the line (battle's units)"),
    ("escort_left_train", "distance"): _("Extra distance off the train (battle's units)"),
    ("escort_left_train", "platoon"): _("Tank Support Platoon"),
})
ENUM_LABELS.update({
    "north_south": _("north and south edges"), "east_west": _("east and west edges"), "north": _("north edge"),
    "south": _("south edge"), "east": _("east edge"), "west": _("west edge"), "reserve": _("Reserve"),
    "ambush": _("Ambush"), "deployment_area": _("where the line crosses the Deployment Area"),
    "nearest_edge": _("the table edge nearest the Deployment Area"), "forward": _("forward"),
    "backward": _("backward"),
})
# --- the Steps of a turn (fow/rules/steps.py): the words of battles.engine.terms, in the reader's language ---
_step = lazy(lambda value: term("fow_step", value, get_language()), str)
TYPE_FIELD_LABELS.update({
    ("step_ended", "side"): _words("Сторона, чей Шаг кончается", "Side ending its Step"),
    ("step_ended", "step"): _words("Шаг, который окончен", "The Step that ends"),
})
ENUM_LABELS.update({"movement": _step("movement"), "shooting": _step("shooting")})
NO_DIE = _("not rolled")
BLANK = "—"


def field_label(type_name: str, path: tuple[str, ...]) -> Any:
    """The word for a payload key (never the key itself). Raises KeyError for
    a key nobody has named yet, so a new event field cannot reach the page raw."""
    key = path[-1]
    for ctx in (*reversed(path[:-1]), type_name) if len(path) > 1 else (type_name,):
        if (ctx, key) in TYPE_FIELD_LABELS:
            return TYPE_FIELD_LABELS[(ctx, key)]
    return FIELD_LABELS[key]


def enum_label(value: Any) -> Any:
    return ENUM_LABELS[value]
