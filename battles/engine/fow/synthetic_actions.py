"""The synthetic FoW battle's less common acts (``synthetic._Gen`` mixes them in): the set-up before the
first turn (Railway Lines, a train Deployed and one in Reserve, the recon deployment move, a building),
and in a turn the trains, Ambushes, buildings, Passengers, a player's take-back, Going to Ground, air
attacks, the scouts' Disengage, unarmoured saves and assaults on foxholes. Each act is offered to the
engine's own checks (``CheckedLog.offer``), built to meet the rule it names, so almost every one is
accepted; a refused one is dropped. Pure: no Django."""
from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any

from battles.engine.events import Context, Event
from battles.engine.fow.state import FowState, Team

from .offers import refusal
from .rules.actions import TeamShot, dice_expected
from .rules.buildings import is_cleared
from .rules.recon import is_unarmoured_vehicle, may_disengage
from .rules.trains import off_table

EAGER_PLIES = 4  # the first turns try every act, so a short log (60-150 events) holds most types
LINE = 48.0  # each side's Railway Line, in inches
TRAIN_LENGTH = 12.0  # a train with its Tank Support Platoon aboard (F-TRAIN-15)


class Actions:
    """Producers of the less common acts; ``self`` is the generator (``synthetic._Gen``)."""

    rng: random.Random
    state: FowState
    ctx: Context
    out: list[Event]
    made: int
    eager: bool
    recon: dict[str, list[str]]  # side -> its recon platoons
    infantry: dict[str, list[str]]  # side -> its infantry platoons
    rail: dict[str, str]  # side -> the train that lays and uses its Railway Line
    wrecks: list[str]  # tanks left as Wreckage (F-TRAIN-23)
    roster: dict[str, list[str]]  # side -> its teams (wagons aside) not known to be destroyed

    if TYPE_CHECKING:  # the generator's own (``CheckedLog.offer``, ``_Gen.d6``)
        def offer(self, type_: str, data: dict[str, Any]) -> bool: ...

        def d6(self) -> dict[str, Any]: ...

    def chance(self, p: float) -> bool:
        """Every act in the first turns, then with probability ``p``."""
        return self.eager or self.rng.random() < p

    def on_table(self, tid: str) -> bool:
        t = self.state.teams[tid]
        return not t.destroyed and off_table(self.state, t) is None

    def live_recon(self, side: str) -> list[str]:
        s = self.state
        return [t for pid in self.recon[side] for t in s.platoons[pid].teams if self.on_table(t)]

    # --- set-up ------------------------------------------------------------------------------
    def muster_recon(self, side: str) -> None:
        """A Reconnaissance platoon of two unarmoured vehicles (F-RECON-1, F-RECON-2)."""
        self.made += 1
        pid = f"{side[0].upper()}R{self.made}"
        if self.offer("force_mustered", {"side": side, "platoons": [{"id": pid, "kind": "recon", "teams": [
                {"id": f"{pid}j{i}", "kind": "vehicle"} for i in range(2)]}]}):
            self.recon[side].append(pid)
            self.roster[side] += [f"{pid}j{i}" for i in range(2)]

    def setup(self) -> None:
        """Before the first turn: scouts, both Railway Lines, the trains' arrival, the recon deployment
        move and a building with a defending team inside."""
        s = self.state
        for side in ("attacker", "defender"):
            self.muster_recon(side)
            self.rail[side] = next(k for k, tr in s.trains.items() if tr.side == side)
        # F-TRAIN-12: the attacker lays his line first, step by step (F-TRAIN-4..7)...
        self.offer("railway_edges_chosen", {"side": "attacker", "edges": "east_west"})
        self.offer("railway_point_chosen", {"side": "defender", "edge": "east", "position": 18.0})  # F-TRAIN-5
        self.offer("railway_point_chosen", {"side": "attacker", "edge": "west", "position": 30.0})  # F-TRAIN-6
        self.offer("railway_line_laid", {"side": "attacker", "length": LINE, "bridges": 1})  # F-TRAIN-7, F-TRAIN-9
        # ...the defender uses the table's own line, which misses his Deployment Area (F-TRAIN-2, F-TRAIN-16)
        self.offer("railway_line_laid", {"side": "defender", "length": LINE, "existing": True,
                                         "crosses_deployment_area": False})
        self.offer("train_deployed", {"train": self.rail["attacker"]})  # F-TRAIN-14
        self.offer("train_held_back", {"train": self.rail["defender"], "held_in": "reserve"})  # F-TRAIN-18
        # F-RECON-6, F-RECON-13: the sides take turns choosing a platoon; each team moves once
        if self.offer("recon_deployment_started", {"first": "attacker"}):
            for side, foe in (("attacker", "defender"), ("defender", "attacker")):
                scout, enemy = self.live_recon(side)[0], self.infantry[foe][0] + "t0"
                self.offer("recon_deployment_move", {"team": scout, "distance": 6.0, "enemies": [  # F-RECON-9, -14
                    {"enemy": enemy, "start_distance": 30.0, "closest": 24.0, "in_sight_at_start": True,
                     "closest_in_sight": 24.0}]})
            self.offer("recon_deployment_ended", {})
        held = s.platoons[self.infantry["defender"][-1]].teams[1]
        self.offer("building_placed", {"id": "farm", "name": "Farmhouse", "inside": [held], "openings": [  # F-BLD-2
            {"id": "door"}, {"id": "breach", "width": 3.0}, {"id": "loft", "ground_floor": False}]})

    # --- Movement Step -------------------------------------------------------------------------
    def trains(self, side: str) -> None:
        """The side's train enters (a Deployed one at the start of its first Movement Step, F-TRAIN-14; one
        in Reserve later, F-TRAIN-18) from where its line meets the Deployment Area or the nearest edge
        (F-TRAIN-16), far enough for the whole train (F-TRAIN-15); then it runs to and fro along its line
        (F-TRAIN-19), pushing tank Wreckage off the track (F-TRAIN-23)."""
        s = self.state
        tr = s.trains.get(self.rail.get(side, ""))
        line = s.railway_lines.get(side)
        if tr is None or line is None or not line.laid:
            return
        if tr.where == "off_table" and (tr.deployed or (tr.reserve and s.ply >= 3)):
            entry = "deployment_area" if line.crosses_deployment_area else "nearest_edge"
            self.offer("train_entered", {"train": tr.id, "distance": TRAIN_LENGTH + 2, "train_length": TRAIN_LENGTH,
                                         "entry": entry})
        elif tr.where == "on_table":
            data: dict[str, Any] = {"train": tr.id, "distance": 4.0}
            if tr.position > TRAIN_LENGTH + 4:
                data["direction"] = "backward"
            if self.wrecks and self.chance(0.3):
                data["wrecks_pushed"] = [self.wrecks[-1]]
            self.offer("train_moved", data)

    def escort_leaves(self, side: str) -> None:
        """F-TRAIN-25: the Tank Support Platoon leaves its train at the end of the Movement Step."""
        tr = self.state.trains.get(self.rail.get(side, ""))
        if tr is not None and tr.where == "on_table" and tr.escorts_aboard and self.chance(0.5):
            self.offer("escort_left_train", {"platoon": tr.escorts_aboard[0], "distance": 4.0})

    def ambush(self, side: str, foe: str, own: list[str]) -> None:
        """F-RECON-4: a team placed from Ambush no closer than 8" to an enemy scout in sight."""
        if not own or not self.chance(0.1):
            return
        sight = [{"team": r, "distance": 8.0 + 4 * self.rng.random()} for r in self.live_recon(foe)[:1]]
        self.offer("ambush_placed", {"team": self.rng.choice(own), "recon_in_sight": sight})

    def reroll(self, pid: str) -> None:
        """F-DIG-10: a failed Dig In test re-rolled, a Pioneer Supply vehicle within 2"."""
        pl = self.state.platoons[pid]
        if pl.dig_failed_ply == self.state.ply and self.chance(0.5):
            self.offer("dig_in_rerolled", {"platoon": pid, "die": self.d6(), "pioneer_supply_distance": 1.0})

    def free(self, t: Team) -> bool:
        """Has not acted this turn (moved, dug, run At the Double)."""
        ply = self.state.ply
        return not t.destroyed and ply not in (t.moved_ply, t.dig_ply, t.double_ply)

    def building(self, side: str, own: list[str]) -> None:
        """A team inside leaves by a ground-floor Opening (F-BLD-16, F-BLD-17); else an infantry team goes
        in (F-BLD-6, F-BLD-11), taking a Skill test when the building is Contested (F-BLD-8): passed, the
        building is Cleared (F-BLD-9); failed, it stops at the Opening and blocks it (F-BLD-10, F-BLD-15)."""
        s = self.state
        b = s.buildings.get("farm")
        if b is None or not self.chance(0.4):
            return
        inside = [t for t in b.inside if s.teams[t].side == side and self.free(s.teams[t])]
        if inside:
            self.offer("building_move", {"team": inside[0], "building": b.id, "distance": 4.0, "leave_by": "door"})
            return
        ready = [t for t in own if s.teams[t].kind == "infantry" and self.free(s.teams[t])
                 and s.teams[t].building in ("", b.id)]
        if not ready:
            return
        t = s.teams[self.rng.choice(ready)]
        door = t.opening or self.rng.choice(("door", "breach"))
        data: dict[str, Any] = {"team": t.id, "building": b.id, "distance": 3.0, "enter_by": door, "base_width": 1.5}
        if not is_cleared(s, b, side) and (t.building, t.opening) != (b.id, door):
            data["die"] = self.d6()  # F-BLD-8
        self.offer("building_move", data)

    def passengers(self, side: str, own: list[str]) -> None:
        """A scout vehicle takes an infantry team aboard, or sets it down (F-RECON-3, F-RECON-12)."""
        s = self.state
        scouts = self.live_recon(side)
        if not scouts or not own or not self.chance(0.2):
            return
        jeep, walkers = s.teams[scouts[-1]], [t for t in own if s.teams[t].kind == "infantry"]
        riders = [] if jeep.passengers or not walkers else [self.rng.choice(walkers)]
        self.offer("passengers_changed", {"team": jeep.id, "passengers": riders})

    def take_back(self, side: str, tid: str, base: float) -> None:
        """A player takes back his last entry, a mis-measured move, in his own turn (S-CORRECTION, V-TURN-13).
        A replay skips the voided move, so the generator's state drops it too: the move changes only its
        team (the team is outside any building), which is put back as it was."""
        s = self.state
        saved = dataclasses.replace(s.teams[tid], passengers=list(s.teams[tid].passengers))
        seq = len(self.out) + 1
        if self.offer("team_moved", {"team": tid, "distance": base * self.rng.random()}) and self.offer(
                "correction", {"voids_seq": seq, "reason": "measured from the wrong team", "side": side}):
            s.teams[tid] = saved
            s.applied -= 1  # a voided event is not applied at replay

    # --- Shooting Step -------------------------------------------------------------------------
    def go_to_ground(self, own: list[str]) -> set[str]:
        """Teams that neither moved nor shot Go to Ground (G-F1; F-DIG-16 for Dug In ones)."""
        s = self.state
        if not self.chance(0.5):
            return set()
        still = [t for t in own if s.ply not in (s.teams[t].moved_ply, s.teams[t].shot_ply) and self.on_table(t)]
        teams = self.rng.sample(still, min(len(still), self.rng.randint(1, 3)))
        return set(teams) if teams and self.offer("went_to_ground", {"teams": teams}) else set()

    def air_attacks(self, side: str, foe: str) -> None:
        """Aircraft hit enemy infantry: every hit team saves, 3+ (F-AIR-1, F-AIR-10), a failed save in
        Bulletproof Cover takes a Firepower test (F-AIR-12); every platoon hit is Pinned Down (F-AIR-15);
        the aircraft then leave (F-AIR-16). In one event, or the hits first and each save after (F-AIR-1)."""
        s, rng = self.state, self.rng
        targets = [t for pid in self.infantry[foe] for t in s.platoons[pid].teams if not s.teams[t].destroyed]
        if not targets:
            return
        p = side[0].upper()
        if self.chance(0.15):
            self.offer("air_attack_resolved", {"side": side, "aircraft": f"{p}-fighter-bomber", "hits": [
                {"team": t, "weapon": rng.choice(("mg", "cannon", "bombs")), "save": self.d6(), "firepower": 5,
                 "firepower_die": self.d6()} for t in rng.sample(targets, min(2, len(targets)))]})
        if self.chance(0.15):
            hit = rng.sample(targets, min(2, len(targets)))
            if self.offer("air_attack_hit", {"side": side, "aircraft": f"{p}-dive-bomber", "hits": [
                    {"team": t, "weapon": "bombs", "firepower": 3} for t in hit]}):
                for t in hit:
                    self.offer("air_save_rolled", {"aircraft": f"{p}-dive-bomber", "team": t, "save": self.d6(),
                                                   "firepower_die": self.d6()})

    def shoot(self, shooter: str, target: str) -> bool:
        """One shot with the dice the engine expects (none offered when it expects none)."""
        s = self.state
        n, _rule = dice_expected(s, TeamShot(shooter, target, []), s.teams[shooter], s.teams[target], self.ctx.rules)
        return n >= 1 and self.offer("team_shot", {"shooter": shooter, "target": target,
                                                   "dice": [self.d6() for _ in range(n)]})

    def save_vehicle(self, target: str) -> None:
        """F-RECON-2: an unarmoured Reconnaissance vehicle hit saves on 3+ (a failed save destroys it, G-F1)."""
        if is_unarmoured_vehicle(self.state.teams[target]):
            self.offer("unarmoured_save_rolled", {"team": target, "die": self.d6()})

    def disengage(self, side: str, foe: str, own: list[str]) -> int:
        """«Отходим!»: fired on, the enemy scouts declare they Disengage before any to-hit roll (F-RECON-15,
        F-RECON-16); each shooter fires one shot (F-RECON-17); a passed Skill test moves the scouts away
        (F-RECON-18, F-RECON-19); the remaining shots follow (F-RECON-23) unless the whole platoon got out
        of reach (F-RECON-24). Returns the shots fired."""
        s, rng = self.state, self.rng
        platoons = [pid for pid in self.recon[foe] if any(
            self.on_table(t) and may_disengage(s, s.teams[t]) for t in s.platoons[pid].teams)]
        if not platoons or not self.chance(0.3):
            return 0
        pid = rng.choice(platoons)
        scouts = [t for t in s.platoons[pid].teams if self.on_table(t)]
        target = scouts[0]
        ready = [t for t in rng.sample(own, min(len(own), 8)) if self.on_table(t) and s.teams[t].shot_ply != s.ply
                 and not refusal(s, "team_shot", {"shooter": t, "target": target, "dice": [
                     {"value": 1, "source": "entered"}] * max(1, self.dice(t, target))}, self.ctx.rules)][:2]
        if not ready or not self.offer("disengage_declared", {"platoon": pid, "shooters": ready}):
            return 0
        fired = sum(self.shoot(t, target) for t in ready)
        if rng.random() < 0.5:
            self.save_vehicle(target)
        die = self.d6()
        go = [t for t in scouts if may_disengage(s, s.teams[t]) and self.on_table(t)] if die["value"] >= 4 else []
        away = bool(go) and len(go) == len([t for t in s.platoons[pid].teams if not s.teams[t].destroyed]) and \
            rng.random() < 0.5
        self.offer("disengaged", {"platoon": pid, "die": die, "out_of_reach": away,
                                  "moves": [{"team": t, "distance": 6.0} for t in go]})
        if not away and self.on_table(target):
            fired += sum(self.shoot(t, target) for t in ready)
        return fired

    def dice(self, shooter: str, target: str) -> int:
        s = self.state
        return dice_expected(s, TeamShot(shooter, target, []), s.teams[shooter], s.teams[target], self.ctx.rules)[0]

    # --- Assault Step --------------------------------------------------------------------------
    def assault(self, side: str, foe: str, own: list[str]) -> None:
        """Teams assault an enemy platoon (G-F1), Dug In ones if any: the defending platoon marks its
        foxholes (F-DIG-19) and at the end of the Assault Step some teams reoccupy them (F-DIG-20, F-DIG-21)."""
        s, rng = self.state, self.rng
        if not self.chance(0.3):
            return
        if s.step == "shooting" and self.chance(0.5):
            self.offer("step_ended", {"side": side, "step": "shooting"})  # G-F1: the Assault Step begins
        platoons = [pid for pid in self.infantry[foe] if any(
            not s.teams[t].destroyed for t in s.platoons[pid].teams)]
        if not platoons:
            return
        dug = [pid for pid in platoons if any(s.teams[t].dug_in and not s.teams[t].destroyed
                                              for t in s.platoons[pid].teams)]
        pid = rng.choice(dug or platoons)
        ready = [t for t in rng.sample(own, min(len(own), 6)) if self.on_table(t) and s.teams[t].double_ply != s.ply
                 and not s.teams[t].building][:2]  # F-DBL-8: not after At the Double
        if not ready or not self.offer("assault_launched", {"teams": ready, "against": pid}):
            return
        if dug and self.offer("foxholes_marked", {"platoon": pid}):
            pl = s.platoons[pid]
            live = [t for t in pl.teams if not s.teams[t].destroyed]
            back = rng.sample(live, min(len(live), pl.foxholes, rng.randint(1, 4)))
            self.offer("foxholes_reoccupied", {"platoon": pid, "teams": back})


__all__ = ["EAGER_PLIES", "Actions"]
