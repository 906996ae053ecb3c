"""What a payload string names, as select choices: ``Table`` is the battle's
state seen from one side, with display names (your side's pieces for actors,
the enemy's living pieces for targets, the owner's own mines only), and
``REFS`` maps each (event type, payload path) that names a piece to the
choices it offers; ``choices_for`` looks one up (``"*"``: any event type).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import pgettext_lazy

from .labels import CTX, enum_label

# --- what a string names: references into the battle's state ------------------------------
Choices = list[tuple[str, str]]


def natural(text: str) -> tuple:
    """Sort key putting «Стрелок №2» before «Стрелок №10»."""
    # ASCII digits only: every other part is text ("²" passes str.isdigit, not int)
    return tuple(int(p) if i % 2 else p.casefold() for i, p in enumerate(re.split(r"([0-9]+)", str(text))))


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
    master); ``names`` the roster names; ``side_names`` the campaign's;
    ``game_master``: the recorder may record for either side."""

    def __init__(self, state: dict[str, Any], side: str | None, names: dict[str, str],
                 side_names: dict[str, str], *, game_master: bool = False) -> None:
        self.state, self.names, self.side_names = state, names, side_names
        self.game_master = game_master
        self.side = side or state.get("side_to_move") or "defender"
        self.enemy = "attacker" if self.side == "defender" else "defender"
        self.fighters_all: dict[str, dict[str, Any]] = state.get("fighters") or {}
        self.units_all: dict[str, dict[str, Any]] = state.get("units") or {}
        self.vehicles_all: dict[str, dict[str, Any]] = state.get("vehicles") or {}
        # each label and word worked out once a table (a panel's selects ask for them again and again)
        self._labels: dict[str, str] = {}
        self._words: dict[Any, str] = {}

    def word(self, value: Any) -> str:
        """``labels.enum_label`` in the reader's language, as text."""
        text = self._words.get(value)
        if text is None:
            text = self._words[value] = str(enum_label(value))
        return text

    # labels ------------------------------------------------------------------------------
    def fighter_label(self, fid: str) -> str:
        text = self._labels.get(fid)
        if text is None:
            text = self._labels[fid] = self._fighter_label(fid)
        return text

    def _fighter_label(self, fid: str) -> str:
        f = self.fighters_all.get(fid, {})
        what = self.word(f["rank"]) if f.get("rank") else self.word(f.get("cls", "rifleman"))
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
        return name or f"{self.word(self.units_all.get(uid, {}).get('kind', 'squad')).capitalize()} {uid}"

    def vehicle_label(self, vid: str) -> str:
        kind = self.word(self.vehicles_all.get(vid, {}).get("kind", "tank"))
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
    # ``defences`` holds only the enemy fighters a shot may strike now (V-TRANS-7), ``firing`` the side's
    # vehicles that may fire now (V-CREW-4, V-CREW-5, G-7).
    offers: dict[str, dict[str, Any]] | None = None
    defences: dict[str, int] | None = None
    firing: frozenset[str] | None = None
    moving: frozenset[str] | None = None  # the side's vehicles that may move now (V-TURN-10, V-VDMG-6, ...)

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


def _assaulted(t: Table) -> Choices:
    """F-DIG-19: the recorder's platoons assaulted in this Assault Step (the defending ones, never a platoon
    of the assaulting side to move) are the ones that mark their foxholes. The game master, whose selects
    show the side to move's pieces, records it for the defender: he is offered the defender's platoons."""
    ply, mover = t.state.get("ply"), t.state.get("side_to_move")
    hit = {pid for pid, p in (t.state.get("platoons") or {}).items()
           if p.get("assaulted_ply") == ply and p.get("side") != mover}
    side = t.enemy if t.game_master and t.side == mover else t.side
    return [c for c in t.platoons(side) if c[0] in hit]


REFS.update({  # Flames of War
    ("*", "team"): lambda t: t.teams(t.side),
    ("*", "platoon"): lambda t: t.platoons(t.side),
    ("team_shot", "shooter"): lambda t: t.teams(t.side),
    ("team_shot", "target"): lambda t: t.teams(t.enemy),
    ("went_to_ground", "teams"): lambda t: t.teams(t.side),
    ("assault_launched", "teams"): lambda t: t.teams(t.side),
    ("assault_launched", "against"): lambda t: t.platoons(t.enemy),
    ("foxholes_marked", "platoon"): _assaulted,
    ("foxholes_reoccupied", "teams"): lambda t: t.teams(t.side),
    ("dig_in_attempted", "in_water"): lambda t: t.teams(t.side),
    ("dig_in_attempted", "in_cover"): lambda t: t.teams(t.side),
    ("status_set", "subject"): lambda t: (t.teams(t.side) + t.platoons(t.side) + t.teams(t.enemy)
                                          + t.platoons(t.enemy)),
})
REFS.update({("air_attack_resolved", "hits.team"): lambda t: t.teams(t.enemy),
             ("air_attack_hit", "hits.team"): lambda t: t.teams(t.enemy)})  # --- aircraft (F-AIR) ---


REFS[("player_done", "player")] = lambda t: t.players(t.side)  # V-TURN-12: one of the side's players


# --- buildings (F-BLD) ---
REFS.update({
    ("building_move", "building"): lambda t: t.houses(),
    ("building_placed", "inside"): lambda t: t.teams(t.side) + t.teams(t.enemy),
})


# --- trains (F-TRAIN) ---
def _trains(t: Table) -> Choices:
    own = {pid for pid, p in (t.state.get("platoons") or {}).items() if p.get("kind") == "armoured_train"}
    return [c for c in t.platoons(t.side) if c[0] in own]


def _wrecks(t: Table) -> Choices:
    return sorted(((tid, t.team_label(tid)) for tid, x in (t.state.get("teams") or {}).items() if x.get("wreck")),
                  key=lambda c: c[1])


REFS.update({
    ("train_held_back", "train"): _trains,
    ("train_deployed", "train"): _trains,
    ("train_entered", "train"): _trains,
    ("train_moved", "train"): _trains,
    ("train_moved", "wrecks_pushed"): _wrecks,
})


def choices_for(type_name: str, path: tuple[str, ...]) -> Callable[[Table], Choices] | None:
    """The choices for the string at ``path`` of ``type_name``'s payload (list indexes left out), if it
    names a piece."""
    dotted = ".".join(p for p in path if not p.isdigit())
    return REFS.get((type_name, dotted)) or REFS.get(("*", dotted))
