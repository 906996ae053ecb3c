"""A battle on the test table: append events through ``decide`` (the append
gate) and ``fold`` (replay), as the service does, and a standard set-up."""
from __future__ import annotations

import re
from typing import Any

import pytest

from battles.engine import BattleState, RuleViolation, decide, fold, requires_rebuild
from battles.engine.rules.movement import team_led


def D(v: int) -> dict[str, Any]:  # noqa: N802 - reads like a die on the table
    return {"value": v, "source": "entered"}


RULE_ID = re.compile(r"[SVFG]-[A-Z0-9]+(?:-[A-Z0-9]+)*")
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


def assert_well_formed(exc: RuleViolation) -> None:
    """Every refusal names a catalog ID (``V-…``, ``F-…``, ``G-…``) or a structural ``S-`` code, and
    says why in Russian and in English (issue 11: a refusal must cite the rule actually broken)."""
    assert RULE_ID.fullmatch(exc.rule_id or ""), f"not a rule ID: {exc.rule_id!r}"
    assert isinstance(exc.message_ru, str) and CYRILLIC.search(exc.message_ru), f"not Russian: {exc.message_ru!r}"
    assert isinstance(exc.message_en, str) and exc.message_en and not CYRILLIC.search(exc.message_en), \
        f"not English: {exc.message_en!r}"

class Table:
    def __init__(self, rules: dict[str, Any] | None = None) -> None:
        self.rules = rules or {}
        self.state = BattleState()
        self.events: list = []

    def add(self, type_: str, **data: Any) -> BattleState:
        evs = decide(self.state, [(type_, data, None)], first_seq=self.state.last_seq + 1, rules=self.rules,
                     history=lambda: list(self.events))
        if requires_rebuild(self.state, evs):
            self.events += evs
            self.state = fold(self.events, None, self.rules)
            return self.state
        self.events += evs
        self.state = fold(evs, self.state, self.rules)
        return self.state

    def refused(self, type_: str, **data: Any) -> RuleViolation:
        with pytest.raises(RuleViolation) as exc:
            decide(self.state, [(type_, data, None)], first_seq=self.state.last_seq + 1, rules=self.rules)
        assert_well_formed(exc.value)
        return exc.value

    # shortcuts ---------------------------------------------------------------
    def f(self, fid: str):
        return self.state.fighters[fid]

    def v(self, vid: str):
        return self.state.vehicles[vid]

    def end_turn(self) -> None:
        self.add("turn_ended", side=self.state.side_to_move, turn=self.state.turn)

    def postures(self, side: str | None = None, **units: str) -> None:
        """Declare postures; units not named keep theirs (a morale result holds)."""
        side = side or self.state.side_to_move
        held = {"retreat": "march", "dug_in": "dug_in"}
        every = {u.id: held.get(u.morale, u.posture) for u in self.state.units.values()
                 if u.side == side and u.morale != "surrendered" and (not u.parent or team_led(self.state, u.id))}
        self.add("postures_declared", side=side, units={**every, **units})

    def next_turn(self, **units: str) -> None:
        """End this side's turn and open the other side's with its postures."""
        self.end_turn()
        self.postures(**units)

    def fire(self, shooter: str, weapon: str, target: str = "fighters", distance: float = 5.0, **kw: Any):
        return self.add("fire", shooter=shooter, weapon=weapon, target=target, distance=distance, **kw)


def F(fid: str, unit: str = "", cls: str = "rifleman", rank: str = "", **kw: Any) -> dict[str, Any]:  # noqa: N802
    cls = "officer" if rank and cls == "rifleman" else cls
    return {"id": fid, "unit": unit, "cls": cls, "rank": rank, **kw}


def standard(rules: dict[str, Any] | None = None, *, start: bool = True) -> Table:
    """Two forces and some terrain. The defender (d*) moves first.

    attacker: squad A (sergeant a_sgt, riflemen a1-a4, medic, sniper, sapper,
    LMG, HMG + assistant, flamethrower, AT grenadier, radio operator, scout),
    fire team A2 (corporal a_cpl, riflemen a5, a6), lieutenant a_lt and captain
    a_cpt outside units, radio operator a_rad2 at battery AH (a howitzer with
    officer a_bo and gunner), tank AT3 (armour 3, gun 3; crew a_tc corporal +
    a_tp personnel), APC AP (armour 2, 10 seats; crew a_pd + a_pc corporal).
    defender: squad D (sergeant d_sgt, riflemen d1-d6, medic d_med, sapper
    d_sap, sniper d_snp), tank DT4 (armour 4, gun 4; crew d_tc + d_tp), AT gun
    DG (gun 4; crew d_gc + d_gp), mortar DM (crew d_mc + d_mp), AA autocannon
    DAA. Terrain: house H, pillbox B (spotter), wire W, fence FN.
    """
    t = Table(rules)
    t.add("terrain_placed", houses=["H"], bunkers=[], spotter_bunkers=["B"], wire=["W"], fences=["FN"])
    t.add("force_mustered", side="attacker", units=[
        {"id": "A", "commander": "a_sgt", "posture": "recon"},
        {"id": "A2", "kind": "fire_team", "parent": "A", "commander": "a_cpl", "posture": "recon"},
        {"id": "AHQ", "kind": "crew", "commander": "a_bo"},
    ], fighters=[
        F("a_sgt", "A", rank="sergeant", character="char-ivan"), F("a1", "A", character="char-petr"), F("a2", "A"),
        F("a3", "A"), F("a4", "A"), F("a_med", "A", "medic"), F("a_snp", "A", "sniper"),
        F("a_sap", "A", "sapper"), F("a_lmg", "A", "lmg_gunner"), F("a_hmg", "A", "hmg_gunner"),
        F("a_hma", "A", "hmg_assistant"), F("a_fl", "A", "flamethrower"), F("a_at", "A", "at_grenadier"),
        F("a_rad", "A", "radio_operator"), F("a_sc", "A", "scout"),
        F("a_cpl", "A2", rank="corporal"), F("a5", "A2"), F("a6", "A2"),
        F("a_lt", rank="lieutenant", character="char-lt"), F("a_cpt", rank="captain"),
        F("a_rad2", "AHQ", "radio_operator"), F("a_bo", "AHQ", rank="lieutenant"), F("a_bg", "AHQ", "personnel"),
        F("a_tc", rank="corporal"), F("a_tp", cls="personnel"), F("a_pd", cls="personnel"), F("a_pc", rank="corporal"),
    ], vehicles=[
        {"id": "AH", "kind": "artillery", "drive": "towed", "armour": 1, "gun": 4, "weapon": "howitzer",
         "crew": ["a_bo", "a_bg"]},
        {"id": "AT3", "kind": "tank", "armour": 3, "gun": 3, "weapon": "gun", "crew": ["a_tc", "a_tp"]},
        {"id": "AP", "kind": "apc", "drive": "half_tracked", "armour": 2, "gun": 1, "weapon": "vehicle_mg",
         "seats": 10, "crew": ["a_pd", "a_pc"]},
    ])
    t.add("force_mustered", side="defender", units=[
        {"id": "D", "commander": "d_sgt", "posture": "dug_in"},
        {"id": "DC", "kind": "crew", "commander": "d_gc"},
    ], fighters=[
        F("d_sgt", "D", rank="sergeant", character="char-hans"), F("d1", "D", character="char-fritz"), F("d2", "D"),
        F("d3", "D"), F("d4", "D"), F("d5", "D"), F("d6", "D"), F("d_med", "D", "medic"), F("d_sap", "D", "sapper"),
        F("d_snp", "D", "sniper"), F("d_lt", rank="lieutenant"),
        F("d_tc", rank="corporal"), F("d_tp", cls="personnel"), F("d_gc", "DC", rank="corporal"),
        F("d_gp", "DC", "personnel"), F("d_mc", rank="corporal"), F("d_mp", cls="personnel"),
        F("d_ac", rank="corporal"), F("d_ap", cls="personnel"),
    ], vehicles=[
        {"id": "DT4", "kind": "tank", "armour": 4, "gun": 4, "weapon": "gun", "crew": ["d_tc", "d_tp"]},
        {"id": "DG", "kind": "artillery", "drive": "towed", "armour": 1, "gun": 4, "weapon": "at_gun",
         "crew": ["d_gc", "d_gp"]},
        {"id": "DM", "kind": "artillery", "drive": "towed", "armour": 1, "gun": 2, "weapon": "mortar",
         "crew": ["d_mc", "d_mp"]},
        {"id": "DAA", "kind": "artillery", "drive": "towed", "armour": 1, "gun": 1, "weapon": "aa_autocannon",
         "crew": ["d_ac", "d_ap"]},
    ])
    if start:
        t.add("battle_started", attacker="Вермахт", defender="РККА")
    return t


def attacker_turn(t: Table, **units: str) -> Table:
    """Pass the defender's first turn; the attacker's turn is open with postures."""
    t.postures("defender")
    t.end_turn()
    t.postures("attacker", **(units or {"A": "recon", "A2": "recon"}))
    return t


def tank(t: Table, side: str, vid: str, armour: int, gun: int, weapon: str = "gun", crew: int = 2,
         **kw: Any) -> str:
    """Muster one more vehicle with a crew of a corporal + personnel."""
    names = [f"{vid}_c", f"{vid}_p", f"{vid}_q"][:crew]
    fighters = [F(n, rank="corporal") if i == 0 else F(n, cls="personnel") for i, n in enumerate(names)]
    t.add("force_mustered", side=side, fighters=fighters,
          vehicles=[{"id": vid, "armour": armour, "gun": gun, "weapon": weapon, "crew": names, **kw}])
    return vid


def at_turn(rules=None, **postures):
    """The attacker's first turn, postures declared (attacker recon, defender dug in)."""
    return attacker_turn(standard(rules), **postures)


def defender_turn(rules=None):
    """The defender's postures declared on a standard table."""
    t = standard(rules)
    t.postures("defender")
    return t
