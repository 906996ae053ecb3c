"""Django forms for recording battle events, built from the event types' own
JSON Schema (``battles.engine.REGISTRY[type].describe()["schema"]``).

Strings that name a fighter, unit, vehicle or battlefield object become
selects filled from the battle's state with display names (your side's pieces
for actors, the enemy's living pieces for targets); enums become selects with
translated labels; numbers keep their bounds (distances in inches); booleans
are checkboxes; lists of objects are a few repeated rows. Each d20 is either
rolled by the service (``{"source": "rolled"}``, filled at append) or entered
from the table with its value. ``EventForm.payload()`` turns the cleaned form
back into the event's JSON payload; the engine validates it on append.
"""
from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Callable
from typing import Any

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext_lazy

from battles import engine
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
NO_DIE = _("not rolled")
BLANK = "—"
MAX_ROWS = {"dice": 6, "struck": 4, "victims": 4, "rolls": 3, "talk_distances": 2, "units": 3, "fighters": 6, "vehicles": 2,
            "vehicles_struck": 2}
MAX_ROWS["hits"] = 4  # --- aircraft (F-AIR) ---: an air attack's hits, one row each


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


# --- what a string names: references into the battle's state ------------------------------
Choices = list[tuple[str, str]]


def natural(text: str) -> tuple:
    """Sort key putting «Стрелок №2» before «Стрелок №10»."""
    return tuple(int(p) if p.isdigit() else p.casefold() for p in re.split(r"(\d+)", str(text)))


def side_players(state: dict[str, Any], side: str | None) -> list[str]:
    """The side's players in muster order (``engine.rules.core.players`` on the stored state)."""
    seen: dict[str, None] = {}
    for group in ("units", "fighters", "vehicles"):
        for x in (state.get(group) or {}).values():
            if x.get("player") and x.get("side") == side:
                seen.setdefault(x["player"], None)
    return list(seen)


class Table:
    """The battle's state seen from one side, as select choices with display
    names. ``side`` is the recorder's side (the side to move for the game
    master); ``names`` the roster names; ``side_names`` the campaign's."""

    def __init__(self, state: dict[str, Any], side: str | None, names: dict[str, str],
                 side_names: dict[str, str]) -> None:
        self.state, self.names, self.side_names = state, names, side_names
        self.side = side or state.get("side_to_move") or "defender"
        self.enemy = "attacker" if self.side == "defender" else "defender"
        self.fighters_all: dict[str, dict[str, Any]] = state.get("fighters") or {}
        self.units_all: dict[str, dict[str, Any]] = state.get("units") or {}
        self.vehicles_all: dict[str, dict[str, Any]] = state.get("vehicles") or {}

    # labels ------------------------------------------------------------------------------
    def fighter_label(self, fid: str) -> str:
        f = self.fighters_all.get(fid, {})
        what = str(enum_label(f.get("rank"))) if f.get("rank") else str(enum_label(f.get("cls", "rifleman")))
        name = self.names.get(fid)
        # a named officer's name carries his nation's rank word («Младший сержант №1»): no generic one beside it
        text = (name if f.get("rank") else f"{name} ({what})") if name else f"{what.capitalize()} {fid}"
        if f.get("unit"):  # «Стрелок №1» is in every squad: say which
            text += f" — {self.unit_label(f['unit'])}"
        if f.get("wounded") and not f.get("dead"):
            text += f" · {pgettext_lazy(CTX, 'wounded')}"
        if f.get("aboard"):
            text += f" · {pgettext_lazy(CTX, 'aboard')} {self.vehicle_label(f['aboard'])}"
        return text

    def unit_label(self, uid: str) -> str:
        name = self.names.get(uid)
        kind = str(enum_label(self.units_all.get(uid, {}).get("kind", "squad")))
        return name or f"{kind.capitalize()} {uid}"

    def vehicle_label(self, vid: str) -> str:
        v = self.vehicles_all.get(vid, {})
        kind = str(enum_label(v.get("kind", "tank")))
        name = self.names.get(vid)
        return f"{name} ({kind})" if name else f"{kind.capitalize()} {vid}"

    def object_label(self, kind: str, oid: str) -> str:
        words = {"house": pgettext_lazy(CTX, "House"), "bunker": pgettext_lazy(CTX, "Pillbox"),
                 "wire": pgettext_lazy(CTX, "Wire"), "fence": pgettext_lazy(CTX, "Fence"),
                 "smoke": pgettext_lazy(CTX, "Smoke screen"), "mine": pgettext_lazy(CTX, "Mine")}
        return f"{words[kind]} {oid}"

    # sets ----------------------------------------------------------------------------------
    # ``mine``: the recorder's player keys when he shares his side with other players (he records
    # for his own roster's pieces only, issue 25); None offers every piece of the side.
    mine: frozenset[str] | None = None
    # What each piece of the recorder's side can do now and each enemy's G-2 defence (``engine.offers``),
    # when the quick forms are built for a running v11.2 battle; None offers without numbers.
    offers: dict[str, dict[str, Any]] | None = None
    defences: dict[str, int] | None = None

    def _others(self, side: str, x: dict[str, Any]) -> bool:
        """A piece of the recorder's side that came from a partner's roster."""
        return self.mine is not None and side == self.side and bool(x.get("player")) and x["player"] not in self.mine

    def fighters(self, side: str, pred: Callable[[dict[str, Any]], bool] | None = None, *,
                 living: bool = True) -> Choices:
        out = []
        for fid, f in self.fighters_all.items():
            if f.get("side") != side or self._others(side, f):
                continue
            if living and (f.get("dead") or f.get("captured")):
                continue
            if pred is None or pred(f):
                out.append((fid, self.fighter_label(fid)))
        return sorted(out, key=lambda c: natural(c[1]))

    def units(self, side: str, pred: Callable[[str, dict[str, Any]], bool] | None = None) -> Choices:
        return sorted(((uid, self.unit_label(uid)) for uid, u in self.units_all.items()
                       if u.get("side") == side and not self._others(side, u) and (pred is None or pred(uid, u))),
                      key=lambda c: natural(c[1]))

    def vehicles(self, side: str, pred: Callable[[dict[str, Any]], bool] | None = None) -> Choices:
        return sorted(((vid, self.vehicle_label(vid)) for vid, v in self.vehicles_all.items()
                       if v.get("side") == side and not v.get("destroyed") and not self._others(side, v)
                       and (pred is None or pred(v))),
                      key=lambda c: natural(c[1]))

    def players(self, side: str) -> Choices:
        """The side's players (the participants its pieces were mustered from), by character name."""
        return [(k, self.names.get(k, k)) for k in side_players(self.state, side)]

    def manned_units(self, side: str) -> Choices:
        """Units that must declare a posture this turn (V-TURN-9): with a free
        living fighter, not surrendered, and a fire team only while its
        commander is with it (V-SQUAD-4)."""
        manned = {f.get("unit") for f in self.fighters_all.values()
                  if f.get("side") == side and not f.get("dead") and not f.get("captured")}

        def led(uid: str, u: dict[str, Any]) -> bool:
            if not u.get("parent"):
                return True
            cmd = self.fighters_all.get(u.get("commander", ""))
            return bool(cmd) and not cmd.get("dead") and not cmd.get("captured") and cmd.get("unit") == uid

        return self.units(side, lambda uid, u: uid in manned and u.get("morale") != "surrendered" and led(uid, u))

    def own_posture_fighters(self, side: str) -> Choices:
        """Snipers (V-SNIP-1) and lieutenants/captains outside units (V-OFF-9) declare their own posture."""
        return self.fighters(side, lambda f: f.get("cls") == "sniper"
                             or (f.get("rank") in ("lieutenant", "captain") and not f.get("unit")))

    # Flames of War: teams and platoons -----------------------------------------------------
    def team_label(self, tid: str) -> str:
        t = (self.state.get("teams") or {}).get(tid, {})
        kind = str(enum_label(t.get("kind", "infantry")))
        name = self.names.get(tid)
        return f"{name} ({kind})" if name else f"{kind.capitalize()} {tid}"

    def teams(self, side: str, pred: Callable[[dict[str, Any]], bool] | None = None) -> Choices:
        return sorted(((tid, self.team_label(tid)) for tid, t in (self.state.get("teams") or {}).items()
                       if t.get("side") == side and not t.get("destroyed") and (pred is None or pred(t))),
                      key=lambda c: c[1])

    def platoons(self, side: str) -> Choices:
        return sorted(((pid, self.names.get(pid) or f"{str(enum_label(p.get('kind', 'infantry'))).capitalize()} {pid}")
                       for pid, p in (self.state.get("platoons") or {}).items() if p.get("side") == side),
                      key=lambda c: c[1])

    def houses(self) -> Choices:
        return [(h, self.object_label("house", h)) for h in sorted(self.state.get("buildings") or {})]

    def bunkers(self) -> Choices:
        return [(b, self.object_label("bunker", b)) for b in sorted(self.state.get("bunkers") or {})]

    def wire(self) -> Choices:
        return [(w, self.object_label(x.get("kind", "wire"), w)) for w, x in sorted((self.state.get("wire") or {}).items())
                if not x.get("removed")]

    def smoke(self) -> Choices:
        return [(s, self.object_label("smoke", s)) for s in sorted(self.state.get("smoke") or {})]

    def own_mines(self, kinds: tuple[str, ...]) -> Choices:
        """Only the owner's mines: the enemy's stay hidden (no leak through the page)."""
        return [(m, self.object_label("mine", m)) for m, x in sorted((self.state.get("mines") or {}).items())
                if x.get("side") == self.side and x.get("active", True) and x.get("kind") in kinds]


OFFICER = ("lieutenant", "captain", "sergeant", "corporal")


def _officer(f: dict[str, Any]) -> bool:
    return f.get("rank") in OFFICER


def _cls(*names: str) -> Callable[[dict[str, Any]], bool]:
    return lambda f: f.get("cls") in names


# (event type or "*", dotted path) -> choices from the table. Actors are your side's, targets the enemy's.
REFS: dict[tuple[str, str], Callable[[Table], Choices]] = {
    ("*", "shooter"): lambda t: t.fighters(t.side) + t.vehicles(t.side),
    ("fire", "target_id"): lambda t: t.vehicles(t.enemy) + t.houses() + t.bunkers(),
    ("fire", "struck.fighter"): lambda t: t.fighters(t.enemy),
    ("fire", "through_smoke"): lambda t: t.smoke(),
    ("fighters_moved", "fighters"): lambda t: t.fighters(t.side),
    ("*", "enter_house"): lambda t: t.houses(),
    ("*", "wire"): lambda t: t.wire(),
    ("vehicle_moved", "vehicle"): lambda t: t.vehicles(t.side),
    ("vehicle_moved", "towing"): lambda t: t.vehicles(t.side, lambda v: v.get("kind") == "artillery"),
    ("postures_declared", "units"): lambda t: t.manned_units(t.side),
    ("postures_declared", "fighters"): lambda t: t.own_posture_fighters(t.side),
    ("melee", "attacker"): lambda t: t.fighters(t.side),
    ("melee", "defender"): lambda t: t.fighters(t.enemy),
    # V-MED-3: only those whose test falls due now (wounded in an earlier turn, not tested this turn)
    ("wound_test", "fighter"): lambda t: t.fighters(t.side, lambda f: bool(f.get("wounded"))
                                                    and f.get("wounded_ply", -1) < t.state.get("ply", 0)
                                                    and f.get("tested_ply", -1) != t.state.get("ply", 0)),
    ("*", "medic"): lambda t: t.fighters(t.side, _cls("medic")),
    ("*", "unit"): lambda t: t.units(t.side),
    ("morale_test", "officer_distances"): lambda t: t.fighters(t.side, _officer),
    ("morale_test", "enemy_distances"): lambda t: t.fighters(t.side),
    ("*", "new_commander"): lambda t: t.fighters(t.side),
    ("*", "officer"): lambda t: t.fighters(t.side, _officer),
    ("*", "battery_officer"): lambda t: t.fighters(t.side, _officer),
    ("*", "radio_operators"): lambda t: t.fighters(t.side, _cls("radio_operator")),
    ("prisoner_taken", "captor"): lambda t: t.fighters(t.side),
    ("prisoner_taken", "prisoner"): lambda t: t.fighters(t.enemy, lambda f: bool(f.get("wounded"))),
    ("prisoner_handled", "prisoner"): lambda t: t.fighters(
        t.enemy, lambda f: bool(f.get("captured")) and f.get("captor_side") == t.side and not f.get("dead"),
        living=False),
    ("prisoner_freed", "prisoner"): lambda t: t.fighters(
        t.side, lambda f: bool(f.get("captured")) and not f.get("dead"), living=False),
    ("*", "sapper"): lambda t: t.fighters(t.side, _cls("sapper")),
    ("mine_revealed", "sapper"): lambda t: t.fighters(t.enemy, _cls("sapper")),
    ("mine_revealed", "mine"): lambda t: t.own_mines(("ap", "at", "charge")),
    ("mine_triggered", "mine"): lambda t: t.own_mines(("ap", "at")),
    ("mine_triggered", "vehicle"): lambda t: t.vehicles(t.enemy),
    ("*", "victims.fighter"): lambda t: t.fighters(t.enemy),
    ("charge_detonated", "charge"): lambda t: t.own_mines(("charge",)),
    ("charge_detonated", "objects"): lambda t: t.houses() + t.bunkers(),
    ("fire_corrected", "corrector"): lambda t: t.fighters(t.side) + t.vehicles(t.side) + t.bunkers(),
    ("fire_corrected", "target"): lambda t: t.fighters(t.enemy) + t.vehicles(t.enemy) + t.houses() + t.bunkers(),
    ("embarked", "vehicle"): lambda t: t.vehicles(t.side),
    ("embarked", "fighters"): lambda t: t.fighters(t.side, lambda f: not f.get("aboard")),
    ("disembarked", "vehicle"): lambda t: t.vehicles(t.side),
    ("disembarked", "fighters"): lambda t: t.fighters(t.side, lambda f: bool(f.get("aboard"))),
    ("crew_boarded", "vehicle"): lambda t: t.vehicles(t.side),
    ("crew_boarded", "fighters"): lambda t: t.fighters(t.side, lambda f: not f.get("aboard")),
    ("crew_dismounted", "vehicle"): lambda t: t.vehicles(t.side),
    ("crew_dismounted", "fighters"): lambda t: t.fighters(t.side, lambda f: f.get("aboard_as") == "crew"),
    ("capture_attempted", "vehicle"): lambda t: t.vehicles(t.enemy),
    ("capture_attempted", "infantry"): lambda t: t.fighters(t.side),
    ("vehicle_boarded", "vehicle"): lambda t: t.vehicles(t.enemy) + t.vehicles(t.side, lambda v: not v.get("crew")),
    ("vehicle_boarded", "fighter"): lambda t: t.fighters(t.side),
}


REFS.update({  # Flames of War
    ("*", "team"): lambda t: t.teams(t.side),
    ("*", "platoon"): lambda t: t.platoons(t.side),
    ("team_shot", "shooter"): lambda t: t.teams(t.side),
    ("team_shot", "target"): lambda t: t.teams(t.enemy),
    ("went_to_ground", "teams"): lambda t: t.teams(t.side),
    ("assault_launched", "teams"): lambda t: t.teams(t.side),
    ("assault_launched", "against"): lambda t: t.platoons(t.enemy),
    ("foxholes_reoccupied", "teams"): lambda t: t.teams(t.side),
    ("dig_in_attempted", "in_water"): lambda t: t.teams(t.side),
    ("dig_in_attempted", "in_cover"): lambda t: t.teams(t.side),
    ("status_set", "subject"): lambda t: (t.teams(t.side) + t.platoons(t.side) + t.teams(t.enemy)
                                          + t.platoons(t.enemy)),
})
REFS.update({("air_attack_resolved", "hits.team"): lambda t: t.teams(t.enemy)})  # --- aircraft (F-AIR) ---


REFS[("player_done", "player")] = lambda t: t.players(t.side)  # V-TURN-12: one of the side's players
FIELD_LABELS["player"] = _("Player")
FIELD_LABELS["replace"] = _("Muster anew before the first «Ход» (the side's earlier pieces leave the table)")


def _ref(type_name: str, path: tuple[str, ...]) -> Callable[[Table], Choices] | None:
    dotted = ".".join(p for p in path if not p.isdigit())
    return REFS.get((type_name, dotted)) or REFS.get(("*", dotted))


# --- slots: how cleaned form data goes back into the payload --------------------------------
EMPTY = object()


@dataclasses.dataclass
class Slot:
    kind: str  # scalar | die | object | rows | map | multi | text_list
    name: str = ""  # the form field (scalar, multi, text_list) or field prefix
    required: bool = False
    children: dict[str, Slot] = dataclasses.field(default_factory=dict)
    rows: list[Slot] = dataclasses.field(default_factory=list)
    optional_die: bool = False


def _unwrap(schema: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    if "anyOf" in schema:
        inner = next(s for s in schema["anyOf"] if s.get("type") != "null")
        return True, inner
    return False, schema


def _is_die(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "object" and set(schema.get("properties", {})) == {"value", "source", "rng"}


def _defaults(cls: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return out
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            out[f.name] = f.default_factory()  # type: ignore[misc]
    return out


def _nested(cls: Any, name: str) -> Any:
    """The dataclass inside a field's annotation (``list[X]``, ``X | None``), if any."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return None
    tp = typing.get_type_hints(cls).get(name)
    stack = [tp]
    while stack:
        t = stack.pop()
        if isinstance(t, type) and dataclasses.is_dataclass(t):
            return t
        stack.extend(typing.get_args(t))
    return None


def _distance(name: str) -> bool:
    return "distance" in name or name in ("obstacle_height", "mg_spacing", "nearest_enemy", "nearest_fit_enemy",
                                          "nearest_friendly", "infantry")


def _attrs(attrs: dict[str, Any]) -> str:
    """Django's widgets/attrs.html, in Python."""
    out = []
    for name, value in attrs.items():
        if value is False or value is None:
            continue
        out.append(f" {name}" if value is True else f' {name}="{conditional_escape(str(value))}"')
    return "".join(out)


class FastSelectRenderer(DjangoTemplates):
    """Renders ``<select>`` widgets in Python, the same markup as Django's
    templates. The battle's selects list every piece on the table; rendered
    through one template include per option they were most of the battle
    page's time. Every other widget goes through the templates as usual."""

    SELECT = "django/forms/widgets/select.html"

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name != self.SELECT:
            return super().render(template_name, context, request)
        w = context["widget"]
        parts = [f'<select name="{conditional_escape(w["name"])}"{_attrs(w["attrs"])}>']
        for group_name, options, _index in w["optgroups"]:
            if group_name:
                parts.append(f'<optgroup label="{conditional_escape(group_name)}">')
            for o in options:
                parts.append(f'<option value="{conditional_escape(str(o["value"]))}"{_attrs(o["attrs"])}>'
                             f'{conditional_escape(o["label"])}</option>')
            if group_name:
                parts.append("</optgroup>")
        parts.append("</select>")
        return mark_safe("\n".join(parts))  # noqa: S308 - every value above is escaped


FAST_RENDERER = FastSelectRenderer()


class EventForm(forms.Form):
    """One event type's form. ``layout`` groups field names under legends
    (rows of a list, dice) for the template; ``payload()`` rebuilds the JSON."""

    default_renderer = FAST_RENDERER

    def __init__(self, data: Any = None, *, event_type: str, table: Table, side_choices: Choices,
                 prefill: dict[str, Any] | None = None, prefix: str | None = None, ruleset: str | None = None,
                 **kw: Any) -> None:
        super().__init__(data, prefix=prefix or event_type, **kw)
        self.event_type = event_type
        self.entry = engine.ruleset_of(ruleset).registry[event_type]  # the battle's ruleset (v11.2 by default)
        self.table, self.side_choices = table, side_choices
        self.prefill = prefill or {}
        self.layout: list[tuple[Any, list[str]]] = []
        schema = self.entry.describe()["schema"]
        self.root = self._object((), schema, self.entry.payload, group=None)

    # building -----------------------------------------------------------------------------
    def _object(self, path: tuple[str, ...], schema: dict[str, Any], cls: Any, group: Any,
                in_row: bool = False) -> Slot:
        required = set(schema.get("required", []))
        defaults = _defaults(cls)
        slot = Slot("object")
        own: list[str] = []
        self.layout.append((group, own))
        for key, sub in schema.get("properties", {}).items():
            if key == "rng":
                continue
            child = self._property((*path, key), sub, key in required, defaults.get(key, EMPTY), cls, own, in_row)
            if child is not None:
                slot.children[key] = child
        slot.required = bool(required)
        return slot

    def _fname(self, path: tuple[str, ...]) -> str:
        return "__".join(path)

    def _property(self, path: tuple[str, ...], schema: dict[str, Any], required: bool, default: Any, cls: Any,
                  own: list[str], in_row: bool) -> Slot | None:
        key = path[-1]
        optional, inner = _unwrap(schema)
        label = field_label(self.event_type, tuple(p for p in path if not p.isdigit()))
        name = self._fname(path)
        must = required and not optional
        ref = _ref(self.event_type, path)
        if _is_die(inner):
            slot = self._die(path, label, optional or in_row, own, inner["properties"]["value"].get("maximum", 20))
            slot.required = required and not optional
            return slot
        if inner.get("type") == "array":
            items = inner["items"]
            if _is_die(items):  # a list of dice (FoW to-hit dice): a few die rows, the first ones rolled
                slot = Slot("rows", required=must)
                for i in range(MAX_ROWS.get(key, 2)):
                    die = self._die((*path, str(i)), f"{label} {i + 1}", True, own,
                                    items["properties"]["value"].get("maximum", 20))
                    if i >= 1:
                        self.fields[f"{die.name}__source"].initial = "none"
                    slot.rows.append(die)
                return slot
            if items.get("type") == "object":
                return self._rows(path, label, items, _nested(cls, key))
            if ref is not None or "enum" in items:
                choices = ref(self.table) if ref is not None else [(v, enum_label(v)) for v in items["enum"]]
                self.fields[name] = forms.MultipleChoiceField(label=label, choices=choices, required=False,
                                                              widget=forms.CheckboxSelectMultiple)
                own.append(name)
                return Slot("multi", name, required=must)
            if items.get("type") == "number":
                slot = Slot("rows")
                for i in range(MAX_ROWS.get(key, 2)):
                    fname = f"{name}__{i}"
                    self.fields[fname] = forms.FloatField(label=f"{label} ({i + 1})", required=False,
                                                          min_value=items.get("minimum", 0))
                    own.append(fname)
                    slot.rows.append(Slot("scalar", fname))
                return slot
            self.fields[name] = forms.CharField(label=label, required=False, max_length=2000,
                                                help_text=pgettext_lazy(CTX, "Comma separated"))
            own.append(name)
            return Slot("text_list", name, required=must)
        if inner.get("type") == "object" and "additionalProperties" in inner:
            return self._map(path, label, inner["additionalProperties"], ref)
        field = self._scalar(path, label, inner, must and not in_row, default, ref)
        self.fields[name] = field
        own.append(name)
        return Slot("scalar", name, required=must)

    def _scalar(self, path: tuple[str, ...], label: Any, schema: dict[str, Any], must: bool, default: Any,
                ref: Callable[[Table], Choices] | None) -> forms.Field:
        key = path[-1]
        initial = self.prefill.get(".".join(path), None if default is EMPTY else default)
        if key == "side" or (key == "winner"):
            choices = list(self.side_choices) if key == "side" else [
                *self.side_choices_all(), ("draw", enum_label("draw"))]
            return forms.ChoiceField(label=label, choices=choices, initial=initial or choices[0][0])
        if "enum" in schema:
            choices = [(v, enum_label(v)) for v in schema["enum"]]
            if not must and initial in (None, EMPTY):
                choices = [("", BLANK), *choices]
            return forms.TypedChoiceField(label=label, choices=choices, required=must, initial=initial,
                                          empty_value=None)
        if ref is not None:
            choices = ref(self.table)
            return forms.ChoiceField(label=label, choices=[("", BLANK), *choices], required=must, initial=initial)
        t = schema.get("type")
        if t == "boolean":
            return forms.BooleanField(label=label, required=False, initial=bool(initial))
        if t == "integer":
            return forms.IntegerField(label=label, required=must, initial=initial, min_value=schema.get("minimum"),
                                      max_value=schema.get("maximum"))
        if t == "number":
            attrs = {"step": "any", "inputmode": "decimal"}
            if _distance(key):
                attrs["class"] = "inches"
            return forms.FloatField(label=label, required=must, initial=initial, min_value=schema.get("minimum"),
                                    max_value=schema.get("maximum"), widget=forms.NumberInput(attrs=attrs))
        max_length = schema.get("maxLength")
        widget = forms.Textarea(attrs={"rows": 2}) if (max_length or 0) > 200 else None
        return forms.CharField(label=label, required=must, initial=initial, max_length=max_length, widget=widget)

    def side_choices_all(self) -> Choices:
        return [(s, self.table.side_names[s]) for s in ("attacker", "defender")]

    def _die(self, path: tuple[str, ...], label: Any, optional: bool, own: list[str], sides: int = 20) -> Slot:
        name = self._fname(path)
        default = self.prefill.get(".".join(path), "rolled")
        choices = [("rolled", enum_label("rolled")), ("entered", enum_label("entered"))]
        if optional:
            choices = [("none", NO_DIE), *choices]
        self.fields[f"{name}__source"] = forms.ChoiceField(label=label, choices=choices, initial=default,
                                                           required=not optional,
                                                           widget=forms.Select(attrs={"class": "die-source"}))
        face = (pgettext_lazy(CTX, "Face entered, 1–20") if sides == engine.dice.SIDES
                else pgettext_lazy(CTX, "Face entered, 1–6"))
        self.fields[f"{name}__value"] = forms.IntegerField(
            label=face, required=False, min_value=1, max_value=sides,
            widget=forms.NumberInput(attrs={"class": "die-value", "inputmode": "numeric"}))
        own += [f"{name}__source", f"{name}__value"]
        return Slot("die", name, optional_die=optional)

    def _rows(self, path: tuple[str, ...], label: Any, items: dict[str, Any], cls: Any) -> Slot:
        slot = Slot("rows")
        for i in range(MAX_ROWS.get(path[-1], 2)):
            before = set(self.fields)
            row = self._object((*path, str(i)), items, cls, group=f"{label} · {i + 1}", in_row=True)
            if i > 0:  # later rows' dice start as "not rolled"
                for fname in set(self.fields) - before:
                    if fname.endswith("__source"):
                        self.fields[fname].initial = "none"
            slot.rows.append(row)
        return slot

    def _map(self, path: tuple[str, ...], label: Any, values: dict[str, Any],
             ref: Callable[[Table], Choices] | None) -> Slot:
        slot = Slot("map")
        keys = ref(self.table) if ref is not None else []
        own: list[str] = []
        self.layout.append((label, own))
        required = path[-1] == "units" and self.event_type == "postures_declared"  # V-TURN-9: every unit
        for i, (k, key_label) in enumerate(keys):
            fname = f"{self._fname(path)}__{i}"
            if "enum" in values:
                current = self._current_posture(k) if required else None
                choices = [(v, enum_label(v)) for v in values["enum"]]
                if not required:
                    choices = [("", BLANK), *choices]
                self.fields[fname] = forms.ChoiceField(label=key_label, choices=choices, required=required,
                                                       initial=current)
            else:
                self.fields[fname] = forms.FloatField(label=key_label, required=False, min_value=values.get("minimum", 0),
                                                      widget=forms.NumberInput(attrs={"step": "any", "class": "inches"}))
            own.append(fname)
            slot.children[k] = Slot("scalar", fname)
        return slot

    def _current_posture(self, uid: str) -> str:
        u = self.table.units_all.get(uid, {})
        return {"retreat": "march", "dug_in": "dug_in"}.get(u.get("morale", ""), u.get("posture", "dug_in"))

    def groups(self) -> list[tuple[Any, list[Any]]]:
        """(legend, bound visible fields) in the schema's order, for the template."""
        out = []
        for legend, names in self.layout:
            fields = [self[n] for n in names if not self.fields[n].widget.is_hidden]
            if fields:
                out.append((legend, fields))
        return out

    # reading back ----------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self._payload = self._read(self.root, cleaned, top=True)
        return cleaned

    def payload(self) -> dict[str, Any]:
        """The event's payload (call after ``is_valid()``)."""
        return self._payload

    def _read(self, slot: Slot, cd: dict[str, Any], top: bool = False) -> Any:
        if slot.kind == "scalar":
            v = cd.get(slot.name)
            return EMPTY if v in (None, "") else v
        if slot.kind == "die":
            src = cd.get(f"{slot.name}__source")
            if src in (None, "", "none"):
                return EMPTY
            if src == "rolled":
                return {"source": "rolled"}
            v = cd.get(f"{slot.name}__value")
            if v is None:
                self.add_error(f"{slot.name}__value", pgettext_lazy(CTX, "Enter the face rolled at the table (1–20)."))
                return EMPTY
            return {"value": v, "source": "entered"}
        if slot.kind == "multi":
            return list(cd.get(slot.name) or []) or EMPTY
        if slot.kind == "text_list":
            parts = [p.strip() for p in (cd.get(slot.name) or "").split(",") if p.strip()]
            return parts or EMPTY
        if slot.kind == "map":
            out = {k: v for k, s in slot.children.items() if (v := self._read(s, cd)) is not EMPTY}
            return out or EMPTY
        if slot.kind == "rows":
            items = [v for r in slot.rows if (v := self._read(r, cd)) is not EMPTY]
            return items or EMPTY
        # an object: a row counts when one of its required parts (a name, a die) is given
        values = {k: self._read(s, cd) for k, s in slot.children.items()}
        keys = [k for k, s in slot.children.items() if s.required] or list(slot.children)
        if not top and all(values[k] is EMPTY or isinstance(values[k], bool) for k in keys):
            return EMPTY
        for k, s in slot.children.items():
            if s.required and values[k] is EMPTY and s.kind in ("scalar", "multi", "text_list"):
                msg = (pgettext_lazy(CTX, "Fill this in, or clear the whole row.") if not top
                       else pgettext_lazy(CTX, "This field is required."))
                if s.name not in self.errors:
                    self.add_error(s.name, msg)
        return {k: v for k, v in values.items() if v is not EMPTY}


def schema_required(type_name: str, ruleset: str | None = None) -> set[str]:
    return set(engine.ruleset_of(ruleset).registry[type_name].describe()["schema"].get("required", []))


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
REFS.update({
    ("building_move", "building"): lambda t: t.houses(),
    ("building_placed", "inside"): lambda t: t.teams(t.side) + t.teams(t.enemy),
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
    "leaves_table": _("Leaves the table"),
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


def _trains(t: Table) -> Choices:
    own = {pid for pid, p in (t.state.get("platoons") or {}).items() if p.get("kind") == "armoured_train"}
    return [c for c in t.platoons(t.side) if c[0] in own]


def _wrecks(t: Table) -> Choices:
    return sorted(((tid, t.team_label(tid)) for tid, x in (t.state.get("teams") or {}).items() if x.get("wreck")),
                  key=lambda c: c[1])


REFS.update({
    ("train_held_back", "train"): _trains,
    ("train_entered", "train"): _trains,
    ("train_moved", "train"): _trains,
    ("train_moved", "wrecks_pushed"): _wrecks,
})
