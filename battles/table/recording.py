"""The recording panel of the battle page: who may record what, and the forms for it.

``events_allowed`` says which event types the rules hand to this person now;
``record_panel`` builds the panel's forms (a quick panel for the common
actions of the side to move, then one form per allowed type, built from the
type's JSON Schema in ``battles.table.forms``; a Flames of War battle's quick
forms are ``battles.table.recording_fow``). The POST that records from the
panel is ``battles.table.views.battle_record``: it rebuilds the sent form here
(``build_form``) and appends through the same service as the API.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import get_language, pgettext, pgettext_lazy

from battles import engine, selectors
from battles.engine.fold import merge_rules
from battles.engine.offers import defence, side_offers, targets, vehicle_may_fire, vehicle_may_move
from battles.engine.rules.fire import AREA, AT_INFANTRY, GUNS
from battles.engine.terms import term
from battles.log import tail
from battles.models import Battle
from battles.services import NewEvent

from . import recording_fow, report
from .choices import Table, side_players
from .forms import FAST_RENDERER, EventForm
from .labels import BLANK, CTX, enum_label
from .namer import Namer

# --- who may record what, now ------------------------------------------------------------------
# The order the panel lists a v11.2 side's forms in (the turn's own order, V-TURN-9..12); who may record
# what comes from the engine's recorder policy (``engine.actors``), as for every ruleset.
PANEL_ORDER = (
    "postures_declared", "fighters_moved", "vehicle_moved", "fire", "turn_ended", "wound_test", "order_given",
    "morale_test", "melee", "smoke_fired", "fire_corrected", "prisoner_taken", "prisoner_handled", "prisoner_freed",
    "embarked", "disembarked", "crew_boarded", "crew_dismounted", "vehicle_boarded", "capture_attempted",
    "sapper_approached", "sapper_worked", "mine_triggered", "charge_detonated", "mine_revealed", "battle_ended",
    "player_done", "terrain_placed", "force_mustered", "battle_started", "correction",
)
_POSITION = {t: i for i, t in enumerate(PANEL_ORDER)}
# FoW's armoured-train events (F-TRAIN): offered only in a battle that has a train.
TRAIN_TYPES = frozenset({"railway_edges_chosen", "railway_line_laid", "railway_point_chosen", "train_entered",
                         "train_held_back", "train_deployed", "train_moved", "escort_left_train"})


def events_allowed(*, state: dict[str, Any], role: Any) -> list[str]:
    """The event types this person may record now, in the panel's order, from
    the ruleset's recorder policy (``engine.actors``): nothing for onlookers;
    before the start the game master's set-up types; during the battle the
    game master anything but the start, the side to move every type a side
    records (not the set-up, not «Ход» of one player, which has its button),
    the other side what the rules hand to it (``Ruleset.off_turn``); after the
    end only the game master's correction."""
    if role is None or not role.may_record:
        return []
    rs = engine.ruleset_of(state.get("ruleset", "v11.2"))
    status = state.get("status", "planned")
    types = sorted(rs.registry, key=lambda t: (_POSITION.get(t, len(_POSITION)), t))
    if status == "ended":
        return ["correction"] if role.is_game_master else []
    if role.is_game_master:
        if status == "planned":
            return [t for t in types if t in rs.setup or t == "correction" or t == "terrain_placed"]
        return [t for t in types if t != "battle_started"]
    if status != "running":
        # Before the battle the game master musters the forces (which starts the battle,
        # V-TURN-2..8): a player recording a start of his own would only get in the way.
        return []
    players = [t for t in types if rs.policy[t].kind != "game_master" and t not in rs.setup and t != "player_done"
               and (state.get("trains") or t not in TRAIN_TYPES)]  # no railway events without a train
    if state.get("side_to_move") == role.side:
        return players
    return [t for t in players if t in rs.off_turn]


def acting_side(*, state: dict[str, Any], role: Any) -> str | None:
    """Whose pieces are "yours" in the selects: the player's side, or the side to move for the game master."""
    return role.side if role.side else (state.get("side_to_move") or None)


# --- quick actions for the side to move ----------------------------------------------------------
WEAPON_BY_CLASS = {
    "sniper": "sniper_rifle", "lmg_gunner": "lmg", "hmg_gunner": "hmg", "flamethrower": "flamethrower",
    "at_grenadier": "at_grenade_launcher", "at_rifleman": "at_rifle",
}


def main_weapon(table: Table, shooter: str) -> str | None:
    f = table.fighters_all.get(shooter)
    if f is not None:
        return WEAPON_BY_CLASS.get(f.get("cls", ""), "rifle")
    v = table.vehicles_all.get(shooter)
    if v is not None and v.get("weapon", "none") != "none":
        return v["weapon"]
    return None


def _die_fields(form: forms.Form, label: Any, name: str = "die") -> None:
    form.fields[f"{name}__source"] = forms.ChoiceField(
        label=label, initial="rolled",
        choices=[("rolled", enum_label("rolled")), ("entered", enum_label("entered"))],
        widget=forms.Select(attrs={"class": "die-source"}))
    form.fields[f"{name}__value"] = forms.IntegerField(
        label=pgettext_lazy(CTX, "Face entered, 1–20"), required=False, min_value=1, max_value=engine.dice.SIDES,
        widget=forms.NumberInput(attrs={"class": "die-value", "inputmode": "numeric"}))


def _die(form: forms.Form, name: str = "die") -> dict[str, Any] | None:
    if form.cleaned_data.get(f"{name}__source") == "entered":
        v = form.cleaned_data.get(f"{name}__value")
        if v is None:
            form.add_error(f"{name}__value", pgettext_lazy(CTX, "Enter the face rolled at the table (1–20)."))
            return None
        return {"value": v, "source": "entered"}
    return {"source": "rolled"}


class OfferedChoice(forms.ChoiceField):
    """Shows only what the rules offer now, yet takes any piece of the side: a form sent from a page the
    battle has moved on from then gets the engine's refusal, naming its rule, not «select a valid choice»."""

    def __init__(self, *, also: list[tuple[str, str]], **kw: Any) -> None:
        super().__init__(**kw)
        self.also = dict(also)

    def valid_value(self, value: Any) -> bool:
        return value in self.also or super().valid_value(value)

    def keep(self, value: Any) -> None:
        """A sent value the rules do not offer now stays selected when the form comes back refused."""
        shown = {str(k) for k, v in self.choices if not isinstance(v, (list, tuple))}
        shown |= {str(k) for _, v in self.choices if isinstance(v, (list, tuple)) for k, _ in v}
        if value in self.also and value not in shown:
            self.choices = [*self.choices, (value, self.also[value])]


class QuickFireForm(forms.Form):
    """«Огонь»: shooter, target, distance. The shot's die is rolled by the
    service unless entered; the shooter's main weapon fires."""

    default_renderer = FAST_RENDERER

    event_type = "fire"

    def __init__(self, data: Any = None, *, table: Table, **kw: Any) -> None:
        super().__init__(data, prefix="quick_fire", **kw)
        self.table = table
        shooters = [(i, lbl) for i, lbl in table.fighters(table.side, lambda f: not f.get("wounded"))
                    if table.fighters_all[i].get("aboard_as") not in ("crew", "passenger")]
        armed = [(i, lbl) for i, lbl in table.vehicles(table.side) if main_weapon(table, i)]
        every = shooters + armed
        if table.offers is not None:  # only those the rules let fire now, each with his reach (G-3, G-4, G-7)
            shooters = [(i, _shooter_label(table, i, lbl)) for i, lbl in shooters if "fire" in table.offers.get(i, {})]
        shooters += [(i, lbl) for i, lbl in armed if table.firing is None or i in table.firing]  # V-CREW-4, V-CREW-5
        everyone = [(f"f:{i}", lbl) for i, lbl in table.fighters(table.enemy)]
        # only those a shot may strike now: not the crews, nor passengers who have not fired (V-TRANS-7)
        targets = [(k, lbl) for k, lbl in everyone if table.defences is None or k[2:] in table.defences]
        if table.defences is not None:  # what the shot must beat (G-2)
            targets = [(k, f"{lbl} · {pgettext(CTX, 'defence %(d)s') % {'d': table.defences.get(k[2:], 0)}}")
                       for k, lbl in targets]
        targets += [(f"v:{i}", lbl) for i, lbl in table.vehicles(table.enemy, lambda v: v.get("kind") != "aircraft")]
        self.fields["shooter"] = OfferedChoice(label=pgettext_lazy(CTX, "Shooter"), choices=[("", BLANK), *shooters],
                                               also=every,
                                               help_text=_why_none(table, "fire") if not shooters else "")
        if self.is_bound:
            self.fields["shooter"].keep(self.data.get(self.add_prefix("shooter")))
        self.fields["target"] = OfferedChoice(label=pgettext_lazy(CTX, "Target"), choices=[("", BLANK), *targets],
                                              also=everyone)
        if self.is_bound:
            self.fields["target"].keep(self.data.get(self.add_prefix("target")))
        riders = any(f.get("aboard_as") == "rider" and not f.get("dead") and f.get("side") == table.enemy
                     for f in table.fighters_all.values())
        self.fields["distance"] = forms.FloatField(
            label=pgettext_lazy(CTX, "Distance to the target, in"), min_value=0,
            # V-RIDE-6: where the table measures to when the enemy rides a tank
            help_text=pgettext_lazy(CTX, "To a tank rider: to the tank's gun mantlet (V-RIDE-6).") if riders else "",
            widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal", "class": "inches"}))
        _die_fields(self, pgettext_lazy(CTX, "Die"))
        if any(main_weapon(table, i) in AREA for i, _l in shooters):
            # G-2 after an area weapon's hit roll (G-7): the struck man's own die, which a table that plays
            # offline enters too (the service rolls it only when asked, issue 30)
            _die_fields(self, pgettext_lazy(CTX, "Die of the man struck (G-2)"), name="struck_die")

    def payload(self) -> dict[str, Any]:
        cd = self.cleaned_data
        shooter, target = cd["shooter"], cd["target"]
        weapon = main_weapon(self.table, shooter) or "rifle"
        die = _die(self)
        data: dict[str, Any] = {"shooter": shooter, "weapon": weapon, "distance": cd["distance"]}
        kind, tid = target.split(":", 1)
        if kind == "v":
            data.update(target="vehicle", target_id=tid, hit=die)
            return data
        data.update(target="fighters", target_id=tid)
        needs_hit = weapon in AREA or weapon in GUNS or weapon in AT_INFANTRY or weapon == "grenade"
        if needs_hit:
            data["hit"] = die
        struck: dict[str, Any] = {"fighter": tid}
        if not (weapon in GUNS or weapon in AT_INFANTRY or weapon == "grenade"):
            # G-2: the struck fighter's own roll; after a hit roll, its own die (the service's unless entered)
            struck["die"] = (_die(self, "struck_die") if "struck_die__source" in self.fields else
                             {"source": "rolled"}) if needs_hit else die
        data["struck"] = [struck]
        return data


class QuickMoveForm(forms.Form):
    """«Движение»: a unit (its fit fighters on foot), one fighter or a vehicle, and the distance."""

    default_renderer = FAST_RENDERER

    def __init__(self, data: Any = None, *, table: Table, **kw: Any) -> None:
        super().__init__(data, prefix="quick_move", **kw)
        self.table = table
        groups: list[tuple[Any, list[tuple[str, str]]]] = []
        units = [(f"u:{i}", lbl) for i, lbl in table.units(table.side) if self._unit_fighters(i)]
        fighters = [(f"f:{i}", lbl) for i, lbl in table.fighters(table.side, lambda f: not f.get("aboard"))]
        every = units + fighters
        if table.offers is not None:  # only those that may move now, each with its allowance (V-TURN-10, G-4)
            units = [(k, _mover_label(table, k[2:], lbl)) for k, lbl in units
                     if table.offers.get(k[2:], {}).get("move", 0) > 0]
            fighters = [(k, _mover_label(table, k[2:], lbl)) for k, lbl in fighters
                        if table.offers.get(k[2:], {}).get("move", 0) > 0]
        vehicles = [(f"v:{i}", lbl) for i, lbl in table.vehicles(table.side, lambda v: v.get("kind") != "aircraft")]
        every += vehicles
        if table.moving is not None:  # only those the move's own checks take now (V-TURN-10, V-VDMG-6, ...)
            vehicles = [(k, lbl) for k, lbl in vehicles if k[2:] in table.moving]
        for title, items in ((pgettext(CTX, "Units"), units), (pgettext(CTX, "Fighters"), fighters),
                             (pgettext(CTX, "Vehicles"), vehicles)):
            if items:
                groups.append((title, items))
        self.fields["who"] = OfferedChoice(label=pgettext_lazy(CTX, "Who moves"), choices=[("", BLANK), *groups],
                                           also=every, help_text=_why_none(table, "move", vehicles=bool(vehicles))
                                           if not (units or fighters) else "")
        if self.is_bound:
            self.fields["who"].keep(self.data.get(self.add_prefix("who")))
        self.fields["distance"] = forms.FloatField(
            label=pgettext_lazy(CTX, "Distance moved, in"), min_value=0,
            widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal", "class": "inches"}))

    def _unit_fighters(self, uid: str) -> list[str]:
        return sorted(i for i, f in self.table.fighters_all.items()
                      if f.get("unit") == uid and f.get("side") == self.table.side and not f.get("dead")
                      and not f.get("captured") and not f.get("aboard") and not f.get("wounded"))

    @property
    def event_type(self) -> str:
        who = (self.cleaned_data or {}).get("who", "") if hasattr(self, "cleaned_data") else ""
        return "vehicle_moved" if who.startswith("v:") else "fighters_moved"

    def payload(self) -> dict[str, Any]:
        kind, wid = self.cleaned_data["who"].split(":", 1)
        distance = self.cleaned_data["distance"]
        if kind == "v":
            return {"vehicle": wid, "distance": distance}
        fighters = self._unit_fighters(wid) if kind == "u" else [wid]
        return {"side": self.table.side, "fighters": fighters, "distance": distance}


# --- the panel ---------------------------------------------------------------------------------
@dataclass
class Submitted:
    """A form sent back to its author: the bound form, and why it was not stored."""

    form_id: str
    form: Any
    error: dict[str, Any] | None = None


def _side_names(battle: Battle) -> dict[str, str]:
    c = battle.campaign
    return {"attacker": c.attacker_name, "defender": c.defender_name}


def _prefill(type_name: str, state: dict[str, Any], side: str | None, side_names: dict[str, str]) -> dict[str, Any]:
    if type_name == "turn_ended":
        return {"side": state.get("side_to_move") or side, "turn": state.get("turn") or 1}
    if type_name == "battle_started":
        return {"attacker": side_names["attacker"], "defender": side_names["defender"]}
    if type_name in ("postures_declared", "fighters_moved", "force_mustered"):
        return {"side": side}
    if type_name == "wound_test":  # V-MED-4: a medic's re-roll only after a failed test, so none by default
        due = wound_tests_due(state, state.get("side_to_move") or side)
        return {"reroll": "none", **({"fighter": due[0]} if due else {})}
    return {}


def wound_tests_due(state: dict[str, Any], side: str | None) -> list[str]:
    """The side's wounded fighters whose test falls due now: on the owner's next turn after the wound,
    once a turn (V-MED-3)."""
    ply = state.get("ply", 0)
    return sorted(i for i, f in (state.get("fighters") or {}).items()
                  if f.get("side") == side and f.get("wounded") and not f.get("dead") and not f.get("captured")
                  and f.get("wounded_ply", -1) < ply and f.get("tested_ply", -1) != ply)


def build_form(form_id: str, data: Any, *, battle: Battle, role: Any, state: dict[str, Any], table: Table) -> Any:
    """The form behind ``form_id`` (bound to ``data`` if given)."""
    if form_id in recording_fow.FORMS:  # a FoW battle's quick panel (battles.table.recording_fow)
        return recording_fow.build(form_id, data, table=table, rules=battle.rules)
    side_names = table.side_names
    if role.side:
        side_choices = [(role.side, side_names[role.side])]
    else:
        first = table.side
        side_choices = [(s, side_names[s]) for s in (first, "defender" if first == "attacker" else "attacker")]
    if form_id == "quick_fire":
        return QuickFireForm(data, table=table)
    if form_id == "quick_move":
        return QuickMoveForm(data, table=table)
    type_name = {"quick_turn": "turn_ended", "postures": "postures_declared"}.get(form_id, form_id)
    form = EventForm(data, event_type=type_name, table=table, side_choices=side_choices, prefix=form_id,
                     prefill=_prefill(type_name, state, table.side, side_names), ruleset=state.get("ruleset"))
    if form_id == "quick_turn":
        for f in form.fields.values():
            f.widget = forms.HiddenInput()
    return form


def _form_ids(allowed: list[str], state: dict[str, Any], role: Any) -> tuple[list[str], list[str]]:
    """(quick forms, full forms) for this person now."""
    quick: list[str] = []
    moving = state.get("status") == "running" and (role.is_game_master or state.get("side_to_move") == role.side)
    if moving and "fire" in allowed:
        mine = [] if role.is_game_master else list(role.players) if role.shares_side else []
        if mine and set(mine) <= set(state.get("done") or ()):
            return ["quick_turn"], allowed  # he has said «Ход»: only who is still playing is left to see
        if state.get("postures_ply", -1) != state.get("ply", 0) and "postures_declared" in allowed \
                and (not mine or _undeclared_of(state, mine)):
            quick.append("postures")  # V-TURN-9: a turn opens with the postures (each player's own units)
        if "wound_test" in allowed and wound_tests_due(state, state.get("side_to_move")):
            quick.append("wound_test")  # the follow-up of last turn's hits, offered at once (V-MED-3)
        quick += ["quick_fire", "quick_move", "quick_turn"]
    return quick, allowed


def _undeclared_of(state: dict[str, Any], players: list[str]) -> list[str]:
    """These players' manned units that still have to declare a posture this turn (V-TURN-9)."""
    ply = state.get("ply", 0)
    manned = {f.get("unit") for f in (state.get("fighters") or {}).values() if not f.get("dead") and not f.get("captured")}
    return [u for u, x in (state.get("units") or {}).items() if x.get("player") in players and u in manned
            and x.get("posture_ply", -1) != ply and x.get("morale") != "surrendered"]


def type_title(type_name: str, ruleset: str | None = None) -> str:
    """The event type's title in the reader's language (its ruleset's registry)."""
    entry = engine.ruleset_of(ruleset).registry[type_name]
    return entry.title_ru if (get_language() or "ru").startswith("ru") else entry.title_en


QUICK_TITLES = {
    "postures": pgettext_lazy(CTX, "Postures for this turn"), "quick_fire": pgettext_lazy(CTX, "Fire"),
    "quick_move": pgettext_lazy(CTX, "Move"), "quick_turn": pgettext_lazy(CTX, "End of turn («Ход»)"),
    "wound_test": pgettext_lazy(CTX, "Wound tests due (V-MED-3)"),
}
# The phone's action bar: one word each.
SHORT_TITLES = {
    "postures": pgettext_lazy(CTX, "Postures"), "quick_fire": pgettext_lazy(CTX, "Fire"),
    "quick_move": pgettext_lazy(CTX, "Move"), "quick_turn": pgettext_lazy(CTX, "«Ход»"),
    "wound_test": pgettext_lazy(CTX, "Wounds"),
    # Flames of War's quick forms (battles.table.recording_fow)
    "fow_move": pgettext_lazy(CTX, "Move"), "fow_shot": pgettext_lazy(CTX, "Shoot"),
    "fow_assault": pgettext_lazy(CTX, "Assault"), "fow_dig": pgettext_lazy(CTX, "Dig In"),
    "fow_ground": pgettext_lazy(CTX, "To ground"), "fow_train": pgettext_lazy(CTX, "Train"),
    "fow_dig_reroll": pgettext_lazy(CTX, "Re-roll"), "fow_step": pgettext_lazy(CTX, "End the Step"),
}


class RulesTable(Table):
    """A running v11.2 battle's table with what the rules offer now (``engine.offers``), worked out from
    the engine's state when a form first asks: the quick fire and move forms do, the waiting player's
    panel and most entries' forms do not, and the engine's state cost more than the rest of their panel."""

    def __init__(self, *args: Any, rules: dict[str, Any] | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.battle_rules = rules

    @cached_property
    def now(self) -> Any:
        return engine.state_from_json(self.state, "v11.2")

    @cached_property
    def rules(self) -> dict[str, Any]:
        return merge_rules(self.battle_rules)

    @cached_property
    def offers(self) -> dict[str, dict[str, Any]]:  # type: ignore[override]
        return side_offers(self.now, self.side, self.rules)

    @cached_property
    def defences(self) -> dict[str, int]:  # type: ignore[override]
        now = self.now
        return {fid: defence(now, now.fighters[fid], self.rules) for fid in targets(now, self.side)
                if now.fighters[fid].side == self.enemy}

    @cached_property
    def firing(self) -> frozenset[str]:  # type: ignore[override]
        return frozenset(vid for vid, v in self.now.vehicles.items()
                         if v.side == self.side and vehicle_may_fire(self.now, vid, self.rules))

    @cached_property
    def moving(self) -> frozenset[str]:  # type: ignore[override]
        return frozenset(vid for vid, v in self.now.vehicles.items()
                         if v.side == self.side and vehicle_may_move(self.now, vid, self.rules))


def recorder_table(state: dict[str, Any], role: Any, names: dict[str, str], battle: Any) -> Table:
    """The table as this recorder sees it: with partners on his side, only his own roster's pieces are his."""
    args = (state, acting_side(state=state, role=role), names, _side_names(battle))
    if state.get("ruleset", "v11.2") == "v11.2" and state.get("status") == "running":
        table: Table = RulesTable(*args, game_master=role.is_game_master, rules=battle.rules)
    else:
        table = Table(*args, game_master=role.is_game_master)
    if role.shares_side and not role.is_game_master:
        table.mine = frozenset(role.players)
    return table


def _inches(v: Any) -> str:
    return f"{float(v):g}″"


def _why_none(table: Table, what: str, *, vehicles: bool = False) -> str:
    """Why nobody is offered to move or fire, in the rules' words (instead of a refusal to learn from);
    ``vehicles``: the move form still offers vehicles, so the reason is said of the men on foot."""
    state = table.state
    if state.get("postures_ply", -1) != state.get("ply", 0):
        if table.mine is not None and not _undeclared_of(state, list(table.mine)):
            return pgettext(CTX, "Your units' postures are declared; the turn opens when your partners have "
                                 "declared theirs (V-TURN-9).")
        return pgettext(CTX, "First declare the postures of your units (V-TURN-9).")
    if what == "move" and state.get("phase") == "fire":
        return pgettext(CTX, "Fire has begun: no more movement this turn (V-TURN-10).")
    if what == "move" and vehicles:
        return pgettext(CTX, "Only vehicles may move now: dug-in units and wounded fighters do not move "
                             "(G-4, V-MED-3).")
    if what == "move":
        return pgettext(CTX, "Dug-in units and wounded fighters do not move (G-4, V-MED-3).")
    return pgettext(CTX, "Nobody may fire now: on the march, wounded, or shots used (G-4, V-MED-3, G-7).")


def _shooter_label(table: Table, fid: str, label: str) -> str:
    """«Стрелок №1 — 1-е отделение · до 8″», and how many shots are left once he has fired (G-3, G-7)."""
    o = (table.offers or {}).get(fid) or {}
    reach = pgettext(CTX, "up to %(d)s") % {"d": _inches(o["fire"])} if o.get("fire") is not None \
        else pgettext(CTX, "no range limit")
    left = f" · {pgettext(CTX, 'shots left: %(n)s') % {'n': o.get('shots_left')}}" if o.get("fired") else ""
    return f"{label} · {reach}{left}"


def _mover_label(table: Table, pid: str, label: str) -> str:
    """«1-е отделение · до 6″ (разведка)», and whether it has moved this turn (V-TURN-10, G-4)."""
    o = (table.offers or {}).get(pid) or {}
    posture = term("posture", o.get("posture"), get_language())
    moved = f" · {pgettext(CTX, 'has moved')}" if o.get("moved") else ""
    return f"{label} · {pgettext(CTX, 'up to %(d)s') % {'d': _inches(o.get('move', 0))}} ({posture}){moved}"


def turn_players(state: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """Who of the side to move has said «Ход» (when several players share it), by character name."""
    everyone = side_players(state, state.get("side_to_move"))
    if len(everyone) < 2:
        return []
    done = set(state.get("done") or ())
    return [{"key": k, "name": names.get(k, k), "done": k in done} for k in everyone]


def hod_events(state: dict[str, Any], role: Any, key: str | None, data: dict[str, Any]) -> list[Any]:
    """A player sharing his side says «Ход» for himself (``player_done``); the last of them ends the side's turn."""
    done = set(state.get("done") or ())
    everyone = side_players(state, state.get("side_to_move"))
    mine = [p for p in role.players if p in everyone and p not in done]
    events = [NewEvent("player_done", {"side": data["side"], "turn": data["turn"], "player": p},
                       key=f"{key}:{p}" if key else None) for p in mine]
    if set(everyone) <= done | set(mine):
        events.append(NewEvent("turn_ended", data, key=key))
    return events


def unused(table: Table) -> list[str]:
    """The side's pieces that neither moved nor fired this turn (what «Ход» would leave unused):
    units whose fit fighters all stood still, officers outside units, and vehicles."""
    ply = table.state.get("ply", 0)

    def idle(f: dict[str, Any]) -> bool:
        return f.get("moved_ply", -1) != ply and f.get("shot_ply", -1) != ply

    fit = [(i, f) for i, f in table.fighters_all.items() if f.get("side") == table.side and not f.get("dead")
           and not f.get("captured") and not f.get("wounded") and not f.get("aboard")
           and not table._others(table.side, f)]
    out = []
    for uid, label in table.units(table.side):
        members = [f for _, f in fit if f.get("unit") == uid]
        if members and all(idle(f) for f in members):
            out.append(label)
    out += [table.fighter_label(i) for i, f in fit if not f.get("unit") and idle(f)]
    out += [label for vid, label in table.vehicles(table.side, lambda v: v.get("kind") != "aircraft"
                                                      and v.get("crew"))
            if table.vehicles_all[vid].get("moved_ply", -1) != ply and table.vehicles_all[vid].get("shot_ply", -1) != ply]
    return out


def last_entry(*, battle: Any, role: Any, view: Any, names: dict[str, str], user: Any) -> dict[str, Any] | None:
    """The reader's own last entry when it is the log's last: its sentence and
    outcome (the die large), and whether he may still take it back (V-TURN-13:
    his side's turn is on; the engine decides when he asks)."""
    state = view.state if view is not None else {}
    if not role.side or not getattr(user, "is_authenticated", False) or not view or not view.head_seq:
        return None
    rows = tail.page(battle_id=battle.id, head=view.head_seq, limit=1)
    if not rows or rows[-1].seq != view.head_seq or rows[-1].recorded_by_id != user.pk:
        return None
    seq, type_, data = rows[-1].seq, rows[-1].type, rows[-1].data
    lang = "en" if (get_language() or "ru").startswith("en") else "ru"
    namer = Namer(names, state, lang, _side_names(battle))
    effects = selectors.battle_outcomes(battle_id=battle.id, first=seq, last=seq).get(seq) if view.seq >= seq else None
    dice = [e for e in effects or () if e.get("kind") == "roll"]
    turns = state.get("turns") or []
    return {
        "seq": seq, "text": report.sentence(type_, data, lang, names=names, state=state, sides=_side_names(battle)),
        "outcome": report.outcome(effects, namer) if effects else "",
        "die": {**dice[0], "meaning": report.die_meaning(dice[0], namer)} if len(dice) == 1 else None,
        "pending": view.seq < seq,
        "take_back": (type_ not in ("correction", "turn_ended") and state.get("status") == "running"
                      and state.get("side_to_move") == role.side and bool(turns) and seq > turns[0]["first_seq"]),
    }


def before_battle(*, battle: Any, role: Any, state: dict[str, Any]) -> dict[str, Any] | None:
    """What comes next while the battle is planned, for those at its table: the
    game master deploys the forces and starts the battle on its set-up page
    (V-TURN-2..8), where its participants and their rosters are; a participant
    waits for that, and his recording forms then take this notice's place (the
    page's live answer brings the panel anew). ``None`` once it has started."""
    if state.get("status", "planned") != "planned" or role is None or not role.may_record:
        return None
    return {"scheduled_for": battle.scheduled_for,
            "setup_url": reverse("battle-setup", args=[battle.id]) if role.is_game_master else "",
            "rules": "V-TURN-2…8" if battle.campaign.ruleset == "v11.2" else ""}


def record_panel(*, battle: Any, role: Any, view: Any, names: dict[str, str], request: Any,
                 submitted: Submitted | None = None, notice: str = "") -> dict[str, Any]:
    """Context for ``battles/_record_panel.html``: the quick panel and the
    forms of the event types allowed now, a fresh idempotency token, and the
    seq the forms were built at (``expected_seq``)."""
    state = view.state if view is not None else {}
    allowed = events_allowed(state=state, role=role)
    before = before_battle(battle=battle, role=role, state=state)
    if not allowed:
        return {"allowed": False, "forms": [], "quick": [], "before": before}
    table = recorder_table(state, role, names, battle)
    if state.get("ruleset") == "fow":
        quick_ids, full_ids = recording_fow.form_ids(allowed, state, role, table, battle.rules)
    else:
        quick_ids, full_ids = _form_ids(allowed, state, role)

    # The full forms are built only when asked for (``?record=<type>``) or re-shown
    # after a refusal: a battle of a hundred pieces would otherwise send every
    # select of every event type with each page (megabytes, and most of the
    # page's time). The common actions are the quick forms, always built.
    wanted = request.GET.get("record", "") if request is not None and request.method == "GET" else ""

    def item(form_id: str, title: Any, *, always: bool = True) -> dict[str, Any]:
        mine = submitted is not None and submitted.form_id == form_id
        if not (always or mine or form_id == wanted):
            return {"id": form_id, "title": title, "form": None, "error": None, "open": False}
        form = submitted.form if mine else build_form(form_id, None, battle=battle, role=role, state=state, table=table)
        return {"id": form_id, "title": title, "form": form, "error": submitted.error if mine else None,
                "open": mine or form_id == wanted, "short": SHORT_TITLES.get(form_id, "")}

    return {
        "allowed": True,
        "before": before,
        "action": reverse("battle-record", args=[battle.id]),
        "expected_seq": view.head_seq if view is not None else 0,
        "token": secrets.token_urlsafe(16),
        "notice": notice,
        "side": "" if before else table.side_names.get(table.side, ""),  # (the game master's set-up: no side's)
        # an ended battle is not played on: the panel offers the game master's corrections alone (V-TURN-13)
        "ended": state.get("status") == "ended",
        "quick": [item(i, QUICK_TITLES.get(i) or recording_fow.title(i)) for i in quick_ids],
        "forms": [item(t, type_title(t, state.get("ruleset")), always=False) for t in full_ids],
        "unused": ((recording_fow.unused(table, battle.rules) if state.get("ruleset") == "fow" else unused(table))
                   if "quick_turn" in quick_ids else []),
        "turn_players": turn_players(state, names) if "quick_turn" in quick_ids else [],
        "last": last_entry(battle=battle, role=role, view=view, names=names,
                           user=getattr(request, "user", None)) if request is not None else None,
        "take_back_action": reverse("battle-take-back", args=[battle.id]),
    }
