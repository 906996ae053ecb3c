"""The synthetic v11.2 battle's less common acts (``synthetic._Gen`` mixes them in): the terrain and each
side's support (a lieutenant, a support squad of sappers, a flamethrower and riflemen, an APC, a mortar
and a spare crewman, played by two players of the side), and in a turn orders, vehicles moving and
carrying infantry, crews leaving and manning them, a player's take-back, sappers laying and clearing
mines and charges, mines revealed and set off, smoke, corrected mortar fire, flamethrowers burning a
tank's crew and the tank boarded, vehicles with damaged running gear captured, prisoners taken,
handled and freed, and each player's «Ход». Each act is offered to the engine's own checks
(``CheckedLog.offer``), built to meet the rule it names, so almost every one is accepted; a refused one
is dropped. The first turns try every act (``EAGER_PLIES``), later ones each with some probability.
Pure: no Django."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .events import Context, Event
from .rules.common import command_distance, commanded_by_officers, is_officer, observation_distance, unit_commander
from .state import BattleState, Fighter, Vehicle

EAGER_PLIES = 6  # the first turns try every act, so a short log (60-150 events) holds most types
TERRAIN = {"houses": ["H1", "H2"], "bunkers": ["B1"], "wire": ["W1", "W2", "W3"], "fences": ["F1"]}


class Actions:
    """Producers of the less common acts; ``self`` is the generator (``synthetic._Gen``)."""

    rng: random.Random
    state: BattleState
    ctx: Context
    out: list[Event]
    made: int
    eager: bool
    units: dict[str, list[str]]  # side -> its units (squads and support squads)
    tanks: dict[str, list[str]]  # side -> the tanks it mustered (a captured one changes side)
    fleet: list[str]  # both sides' tanks still in play (``side_tanks``)
    kit: dict[str, dict[str, Any]]  # side -> its support: lieutenant, sappers, flamer, spare, apc, mortar
    squad_ids: dict[str, list[str]]  # side -> every squad member it mustered, in muster order

    if TYPE_CHECKING:  # the generator's own (``CheckedLog.offer``, ``_Gen.die``)
        def offer(self, type_: str, data: dict[str, Any]) -> bool: ...

        def die(self) -> dict[str, Any]: ...

    def chance(self, p: float) -> bool:
        """Every act in the first turns, then with probability ``p``."""
        return self.eager or self.rng.random() < p

    def able(self, fid: str, moving: bool = False) -> bool:
        """Alive (S-DEAD), free (V-POW-6), not wounded (V-MED-3) and, unless only moving, not recovered this
        very turn (V-MED-5)."""
        f = self.state.fighters.get(fid)
        return f is not None and not (f.dead or f.captured or f.wounded) and (
            moving or f.recovering_ply != self.state.ply)

    def on_foot(self, fid: str, moving: bool = False) -> bool:
        return self.able(fid, moving) and not self.state.fighters[fid].aboard

    def live_vehicle(self, vid: str, side: str) -> Vehicle | None:
        v = self.state.vehicles.get(vid)
        return v if v is not None and v.side == side and not (v.destroyed or v.driven_off) else None

    def manned(self, v: Vehicle) -> bool:
        """Crewed to move (V-CREW-4); a captured tank whose crew was burnt, only with personnel (V-FLAME-4)."""
        crew = [self.state.fighters[c] for c in v.crew]
        crew = [c for c in crew if not (c.dead or c.captured)]
        return bool(crew) and not (v.captured and v.crew_flamed_turn and all(c.cls != "personnel" for c in crew))

    def crewed(self, v: Vehicle) -> bool:
        """Crewed to fire: two alive and free, one of them an officer (V-CREW-5)."""
        crew = [self.state.fighters[c] for c in v.crew]
        crew = [c for c in crew if not (c.dead or c.captured)]
        return len(crew) >= 2 and any(is_officer(c) for c in crew) and self.manned(v)

    def side_tanks(self, side: str) -> list[Vehicle]:
        """The tanks ``side`` holds now (its own and any it captured, V-CAPT-7, V-FLAME-3), not destroyed.
        The fleet drops for good a destroyed tank and one left without a live crew (captured with it,
        V-CAPT-7), unless a flamethrower burnt that crew (then it waits to be boarded, V-FLAME-3)."""
        vs, fs = self.state.vehicles, self.state.fighters
        self.fleet = fleet = [t for t in self.fleet if not vs[t].destroyed and (vs[t].crew_flamed_turn or any(
            not (fs[c].dead or fs[c].captured) for c in vs[t].crew))]
        return [vs[t] for t in fleet if vs[t].side == side]

    # --- set-up ------------------------------------------------------------------------------
    def terrain(self) -> None:
        """V-TURN-5: the battlefield objects are agreed first, before deployment: houses, a pillbox, wire
        and a fence, each id once (S-DUPLICATE). The sappers clear the wire (V-WIRE-5)."""
        self.offer("terrain_placed", dict(TERRAIN))

    def muster_support(self, side: str) -> None:
        """A side's support, played by two more players of the side (V-TURN-12: each says his «Ход»): a
        support squad (a sergeant, two sappers, a flamethrower, four riflemen) of one player; a lieutenant
        outside the squads with his own posture (V-OFF-9), an APC with ten seats and a crew of two
        (V-TRANS-5, G-25), a mortar with a corporal and a crewman (corrected fire, V-CORR-2; two crew,
        one an officer, so it fires, V-CREW-5) and a spare crewman of personnel on foot (to drive a
        captured tank, V-FLAME-4) of the other. Officers have a rank (S-RANK)."""
        p = side[0]
        self.made += 1
        n = self.made
        inf, sup = f"{side}-infantry", f"{side}-support"
        u = f"{p}S{n}"
        members = [{"id": f"{u}s", "unit": u, "cls": "officer", "rank": "sergeant", "player": inf},
                   {"id": f"{u}x0", "unit": u, "cls": "sapper", "player": inf},
                   {"id": f"{u}x1", "unit": u, "cls": "sapper", "player": inf},
                   {"id": f"{u}f", "unit": u, "cls": "flamethrower", "player": inf}]
        members += [{"id": f"{u}r{i}", "unit": u, "player": inf} for i in range(4)]
        apc, mortar = f"{p}A{n}", f"{p}M{n}"
        fighters = members + [
            {"id": f"{p}L{n}", "cls": "officer", "rank": "lieutenant", "posture": "assault", "player": sup},
            {"id": f"{p}P{n}", "cls": "personnel", "player": sup},
            {"id": f"{apc}c", "cls": "officer", "rank": "corporal", "player": sup},
            {"id": f"{apc}p", "cls": "personnel", "player": sup},
            {"id": f"{mortar}c", "cls": "officer", "rank": "corporal", "player": sup},
            {"id": f"{mortar}p", "cls": "personnel", "player": sup}]
        vehicles = [
            {"id": apc, "kind": "apc", "drive": "half_tracked", "armour": 2, "gun": 0, "weapon": "vehicle_mg",
             "seats": 10, "crew": [f"{apc}c", f"{apc}p"], "player": sup},
            {"id": mortar, "kind": "artillery", "drive": "towed", "armour": 1, "gun": 1, "weapon": "mortar",
             "crew": [f"{mortar}c", f"{mortar}p"], "player": sup}]
        units = [{"id": u, "commander": f"{u}s", "posture": "assault", "player": inf}]
        if self.offer("force_mustered", {"side": side, "units": units, "fighters": fighters, "vehicles": vehicles}):
            self.units[side].append(u)
            self.squad_ids[side] += [m["id"] for m in members]
            self.kit[side] = {"unit": u, "lt": f"{p}L{n}", "sappers": [f"{u}x0", f"{u}x1"], "flamer": f"{u}f",
                              "rifles": [f"{u}r{i}" for i in range(4)], "spare": f"{p}P{n}", "apc": apc,
                              "mortar": mortar, "players": [inf, sup]}

    def resupply(self, side: str) -> None:
        """New support once the old is spent (its lieutenant, flamethrower, sappers, riflemen or vehicles
        lost), and, a while after the side's last tank crewed to fire is lost, two new tanks, so every act stays
        possible to the end of a long battle."""
        k = self.kit.get(side)
        if k is None:
            return
        if not (self.able(k["lt"]) and self.able(k["flamer"]) and any(self.able(x) for x in k["sappers"])
                and any(self.able(x) for x in k["rifles"])
                and self.live_vehicle(k["apc"], side) and self.live_vehicle(k["mortar"], side)):
            self.muster_support(side)
        if self.rng.random() < 0.01 and not any(self.crewed(t) for t in self.side_tanks(side)):
            self.muster(side, 0, 2)  # type: ignore[attr-defined]  # after a while without tanks

    # --- the movement step ---------------------------------------------------------------------
    def take_back(self, side: str, own: list[str]) -> None:
        """A player takes back his last entry, a mis-measured move, in his own turn
        (V-TURN-13). A replay skips the voided move, so the generator's state drops it too: the move
        changed only its fighter's ``moved_ply`` and the turn's phase, which are put back as they were."""
        s = self.state
        if not own or not (s.ply == 0 or self.rng.random() < 0.08):  # in the first turn, then now and then
            return
        fid = self.rng.choice(own)
        f = s.fighters[fid]
        saved, phase = f.moved_ply, s.phase
        seq = len(self.out) + 1
        if self.offer("fighters_moved", {"side": side, "fighters": [fid], "distance": 4.0}) and self.offer(
                "correction", {"voids_seq": seq, "reason": "measured from the wrong fighter", "side": side}):
            f.moved_ply, s.phase = saved, phase
            s.applied -= 1  # a voided event is not applied at replay

    def order(self, side: str) -> None:
        """V-CMD-1: a fit officer of the side orders one of its units within his command distance: the
        lieutenant a squad led by its sergeant (V-OFF-3, V-CMD-3), or a sergeant his own squad back
        (V-OFF-2, V-CMD-4). Only orders that change the officer the unit is under, so a morale result
        lapses (V-MORALE-2) and may be tested again."""
        s, k = self.state, self.kit.get(side)
        if k is None or not self.chance(0.4):
            return
        uid = self.rng.choice(self.units[side])
        cmd = unit_commander(s, uid)
        if cmd is None or cmd.rank != "sergeant" or not self.on_foot(cmd.id):
            return
        lt = s.fighters[k["lt"]]
        o = lt if s.units[uid].under != lt.id and self.on_foot(lt.id) else cmd
        if s.units[uid].under == o.id:
            return
        limit = command_distance(o, self.ctx.rules, over_officers=commanded_by_officers(s, o, uid))
        self.offer("order_given", {"officer": o.id, "unit": uid, "distance": max(1.0, limit - 2.0)})

    def vehicles(self, side: str) -> None:
        """The APC carries a few men of the support squad: they embark on foot in the movement step
        (V-TRANS-2, V-TURN-10; within its seats, V-TRANS-1, V-TRANS-5) and get down within 1" from the
        next turn (V-TRANS-3); it moves when it loaded none this turn (V-TRANS-4), as a tank (once a turn,
        within its drive's move, G-18; running gear intact, V-VDMG-6; a crewman aboard, V-CREW-4). A
        tank of armour 3 or more now and then carries riders (V-RIDE-1) and puts them down later."""
        s, k, rng = self.state, self.kit.get(side), self.rng
        move = self.ctx.rules["vehicle_move"]
        if k is not None and (apc := self.live_vehicle(k["apc"], side)) is not None and self.chance(0.5):
            alive = [x for x in apc.passengers if not (s.fighters[x].dead or s.fighters[x].captured)]
            if alive and apc.embark_ply != s.ply:
                self.offer("disembarked", {"vehicle": apc.id, "fighters": alive, "distance": 0.5})
            else:
                men = [x for x in k["rifles"] if self.on_foot(x, moving=True)]
                if men:
                    self.offer("embarked", {"vehicle": apc.id, "fighters": men[:rng.randint(1, 2)],
                                            "role": "passengers"})
            if apc.embark_ply != s.ply and not apc.running_gear and apc.moved_ply != s.ply:
                self.offer("vehicle_moved", {"vehicle": apc.id, "distance": move[apc.drive] / 2})
        tanks = [t for t in self.side_tanks(side) if not t.running_gear and self.manned(t)]
        if tanks and self.chance(0.4):
            t = rng.choice(tanks)
            data: dict[str, Any] = {"vehicle": t.id, "distance": move.get(t.drive, 8.0) / 2}
            if t.drive in ("tracked", "half_tracked") and rng.random() < 0.3:
                data["wire"] = [rng.choice(TERRAIN["wire"])]  # V-WIRE-3: a tracked vehicle removes it
            if t.moved_ply != s.ply and t.embark_ply != s.ply:
                self.offer("vehicle_moved", data)
        if tanks and self.chance(0.15):
            ridden = [t for t in tanks if t.riders and t.embark_ply != s.ply]
            alive = [x for x in ridden[0].riders if not (s.fighters[x].dead or s.fighters[x].captured)] \
                if ridden else []
            if alive:
                self.offer("disembarked", {"vehicle": ridden[0].id, "fighters": alive, "distance": 1.0})
            else:
                big = [t for t in tanks if t.armour >= self.ctx.rules["riders_min_armour"]]
                men = [x for x in self.fit(side) if not s.fighters[x].aboard][:3]  # type: ignore[attr-defined]
                if big and men:
                    self.offer("embarked", {"vehicle": big[0].id, "fighters": men, "role": "riders"})

    def crews(self, side: str) -> None:
        """V-CREW-3: the APC's crewman gets out (one stays, so it still moves, V-CREW-4), put down within 1"
        (V-TRANS-3), and mans it again a turn later (V-CREW-4); the spare crewman of personnel mans a
        tank the side boarded after a flamethrower burnt its crew (V-FLAME-4: it moves only so)."""
        s, k = self.state, self.kit.get(side)
        if k is None or not self.chance(0.3):
            return
        spare = k["spare"]
        won = [t for t in self.side_tanks(side) if t.captured and t.crew_flamed_turn
               and not any(s.fighters[c].cls == "personnel" for c in t.crew)]
        if won and self.on_foot(spare, moving=True):
            self.offer("crew_boarded", {"vehicle": won[0].id, "fighters": [spare]})
            return
        apc = self.live_vehicle(k["apc"], side)
        if apc is None:
            return
        out = f"{apc.id}p"
        if out in apc.crew and len(apc.crew) >= 2 and s.fighters[out].moved_ply != s.ply:
            self.offer("crew_dismounted", {"vehicle": apc.id, "fighters": [out], "distance": 0.5})
        elif out not in apc.crew and self.on_foot(out, moving=True) and s.fighters[out].posture_ply != s.ply:
            self.offer("crew_boarded", {"vehicle": apc.id, "fighters": [out]})

    def sappers(self, side: str, foe: str) -> None:
        """V-SAP-2: a fit sapper (V-SAP-1) with no scheme under way stops within 4" of one object: the spot
        of a new mine or charge, a wire section still standing (V-WIRE-5) or an enemy mine he was shown
        (V-MINE-14); in a later turn (V-SAP-3), not having fired (V-SAP-4), he lays it (V-MINE-1) or
        removes it. An enemy sapper coming within 6" of a mine not yet shown has it shown (V-MINE-13,
        V-MINE-14)."""
        s, k, rng = self.state, self.kit.get(side), self.rng
        if k is None:
            return
        for i, sid in enumerate(k["sappers"]):
            if not self.on_foot(sid) or not self.chance(0.1):
                continue
            x = s.fighters[sid]
            if x.sapper_object and 0 <= x.sapper_ply < s.ply:
                obj = x.sapper_object
                if obj in s.wire or any(m.id == obj and m.side != side for m in s.mines.values()):
                    self.offer("sapper_worked", {"sapper": sid, "action": "remove", "object": obj})
                else:
                    self.offer("sapper_worked", {"sapper": sid, "action": "lay", "object": obj,
                                                 "kind": obj.rsplit("-", 1)[1]})
            elif not x.sapper_object:
                shown = [m.id for m in s.mines.values() if m.side == foe and m.active and m.revealed]
                standing = [w for w, sec in s.wire.items() if not sec.removed]
                live = sum(1 for m in s.mines.values() if m.side == side and m.active)
                r = rng.random()
                if self.eager and live < 2:  # the first turns: an AT mine and a charge (V-MINE-1)
                    obj = f"{side[0]}mine{len(self.out) + 1}-{('at', 'charge')[i % 2]}"
                elif shown and r < 0.3:
                    obj = shown[0]
                elif standing and r < 0.45:
                    obj = rng.choice(standing)
                elif live < 2:
                    obj = f"{side[0]}mine{len(self.out) + 1}-{rng.choice(('ap', 'ap', 'at', 'charge'))}"
                else:
                    continue
                self.offer("sapper_approached", {"sapper": sid, "object": obj, "distance": 3.0})
        hidden = [m.id for m in s.mines.values() if m.side == foe and m.active and not m.revealed]
        mine = [x for x in k["sappers"] if not (s.fighters[x].dead or s.fighters[x].captured)]
        if hidden and mine and self.chance(0.4):
            self.offer("mine_revealed", {"mine": hidden[0], "sapper": mine[0], "distance": 5.0})

    def mines(self, side: str, foe: str) -> None:
        """V-MINE-2: once the side has moved, one of its tanks of armour 3 or more, undamaged, ends within
        2" of a live enemy AT mine: its running gear is damaged and it takes a damage point (V-MINE-5);
        or two of its unwounded men on foot end within 2" of an AP mine (never set off by a vehicle,
        V-MINE-8), which wounds them (V-MINE-3, V-MINE-4)."""
        s, rng = self.state, self.rng
        if s.phase != "move" or not self.chance(0.3):
            return
        enemy_mines = [m for m in s.mines.values() if m.side == foe and m.active]
        at = [m for m in enemy_mines if m.kind == "at"]
        tanks = [t for t in self.side_tanks(side) if t.armour >= 3 and not t.damage and not t.running_gear]
        if at and tanks and self.chance(0.3):
            self.offer("mine_triggered", {"mine": at[0].id, "distance": 1.0, "vehicle": rng.choice(tanks).id})
        ap = [m for m in enemy_mines if m.kind == "ap"]
        men = [x for x in self.fit(side) if not s.fighters[x].aboard]  # type: ignore[attr-defined]
        if ap and len(men) > 40:
            victims = [{"fighter": x, "distance": 1.5} for x in rng.sample(men, 2)]
            self.offer("mine_triggered", {"mine": ap[0].id, "distance": 1.5, "victims": victims})

    def board(self, side: str) -> None:
        """V-FLAME-3: from the turn after a flamethrower killed an enemy tank's crew, a fit man of the side,
        its spare crewman of personnel (so the tank may move, V-FLAME-4), is put inside it and takes it
        without the capture rules."""
        s, k = self.state, self.kit.get(side)
        if k is None:
            return
        foe = "defender" if side == "attacker" else "attacker"
        burnt = [t for t in self.side_tanks(foe) if t.crew_flamed_turn and t.crew_flamed_turn < s.turn
                 and not any(not (s.fighters[c].dead or s.fighters[c].captured) for c in (*t.crew, *t.passengers))]
        if burnt and self.on_foot(k["spare"], moving=True):
            self.offer("vehicle_boarded", {"vehicle": burnt[0].id, "fighter": k["spare"]})

    def free_prisoner(self, side: str) -> None:
        """V-POW-7: a living prisoner of the side, no enemy within 4", within the command distance of its
        fit lieutenant (V-CMD-3), is freed."""
        s, k = self.state, self.kit.get(side)
        if k is None or not self.on_foot(k["lt"]) or not self.chance(0.5):
            return
        held = [f.id for f in self.held(side) if not f.aboard]
        if held:
            lt = s.fighters[k["lt"]]
            self.offer("prisoner_freed", {"prisoner": held[0], "officer": lt.id,
                                          "officer_distance": command_distance(lt, self.ctx.rules, over_officers=False) - 2.0,
                                          "nearest_enemy": None})

    def held(self, side: str) -> list[Fighter]:
        """The side's men the enemy holds prisoner, alive."""
        s = self.state
        return [s.fighters[x] for x in self.prisoners if s.fighters[x].side == side  # type: ignore[attr-defined]
                and s.fighters[x].captured and not s.fighters[x].dead]

    # --- the fire step ------------------------------------------------------------------------
    def smoke(self, side: str) -> None:
        """V-SMOKE-2: a fit rifleman of the support squad on foot who has not shot this turn fires a smoke
        round while his squad has one left (V-SMOKE-3), or the mortar does (V-SMOKE-1: the weapon table
        gives it smoke; crewed to fire, V-CREW-5); in the fire step (V-TURN-11) the lieutenant designates
        the point within his observation distance (V-SMOKE-8, G-1). A new screen id each time
        (S-DUPLICATE); the screen lifts at the side's next turn (V-SMOKE-5)."""
        s, k = self.state, self.kit.get(side)
        if k is None or not self.on_foot(k["lt"]) or not self.chance(0.25):
            return
        limit = self.ctx.rules["smoke_limit"]
        rifles = [x for x in k["rifles"] if self.on_foot(x) and s.fighters[x].shot_ply != s.ply]
        gun = self.live_vehicle(k["mortar"], side)
        if rifles and s.units[k["unit"]].smoke_used < limit:
            shooter = rifles[0]
        elif gun is not None and gun.smoke_used < limit and not self.eager and gun.shot_ply != s.ply:
            shooter = gun.id  # not in the first turns: the mortar fires on a correction there
        else:
            return
        lt = s.fighters[k["lt"]]
        self.offer("smoke_fired", {"shooter": shooter, "officer": lt.id, "smoke": f"smoke{len(self.out) + 1}",
                                   "officer_distance": observation_distance(lt, self.ctx.rules) - 2.0})

    def mortar(self, side: str, enemy: list[str]) -> None:
        """V-CORR-3: the fit lieutenant on foot, once a turn (V-CORR-6), designates an enemy by voice within
        6" of the battery officer (V-CORR-5) for his side's mortar, which has corrected fire (V-CORR-2; not
        a gun, V-GUN-1); the mortar then fires on that correction without visual contact (V-CORR-1): its
        hit test for the aim point (V-MORT-1), the men within its 1" radius each with his G-2 roll
        (V-MORT-2)."""
        s, k, rng = self.state, self.kit.get(side), self.rng
        if k is None or not enemy or not self.on_foot(k["lt"]) or not self.chance(0.3):
            return
        gun = self.live_vehicle(k["mortar"], side)
        if gun is None or gun.shot_ply == s.ply:
            return
        target = rng.choice(enemy)
        if self.offer("fire_corrected", {"corrector": k["lt"], "shooter": gun.id, "target": target, "via": "talk",
                                         "distance": 4.0}):
            self.offer("fire", {"shooter": gun.id, "weapon": "mortar", "target": "fighters", "target_id": target,
                                "distance": 30.0, "corrected": True, "visual_contact": False, "hit": self.die(),
                                "struck": [{"fighter": target, "die": self.die(), "distance": 0.5}]})

    def flamer(self, side: str, foe: str) -> None:
        """V-FLAME-1, V-FLAME-2: the support squad's flamethrower, fit and on foot, fires at an enemy tank
        between 3" and its 6" (V-FLAME-6, V-CMD-11) with a hit test: a hit kills the crew, and from the next
        turn the tank may be boarded (V-FLAME-3)."""
        s, k, rng = self.state, self.kit.get(side), self.rng
        if k is None or not self.on_foot(k["flamer"]) or s.fighters[k["flamer"]].shot_ply == s.ply \
                or not self.chance(0.08):
            return
        targets = [t for t in self.side_tanks(foe) if not (t.crew_flamed_turn or t.riders or t.running_gear)]
        if targets:
            self.offer("fire", {"shooter": k["flamer"], "weapon": "flamethrower", "target": "vehicle",
                                "target_id": rng.choice(targets).id, "distance": 4.0, "hit": self.die()})

    def capture(self, side: str, foe: str) -> None:
        """V-CAPT-2..5: an enemy vehicle with damaged running gear (a 16-20 hit by a gun of its class,
        V-TEST-10, or an AT mine, V-MINE-5) is ringed by five fit infantrymen of the side within 2"
        (V-CAPT-3), no unit friendly to it within 8" (V-CAPT-4): they take a capture test, once a turn
        (V-CAPT-6). Passed, the vehicle is theirs and its crew their prisoners (V-CAPT-7)."""
        s = self.state
        stuck = [v for v in s.vehicles.values() if v.side == foe and v.running_gear and not v.destroyed
                 and v.capture_failed_turn != s.turn and v.kind != "aircraft"
                 and any(not (s.fighters[c].dead or s.fighters[c].captured) for c in v.crew)] \
            if self.chance(0.3) else []  # a crewed one: an empty wreck is not worth the test
        if not stuck:
            return
        men = [x for x in self.fit(side) if self.on_foot(x)][:5]  # type: ignore[attr-defined]
        if len(men) < 5:
            return
        v = stuck[0]
        crew = list(v.crew)
        if self.offer("capture_attempted", {"vehicle": v.id, "infantry": {x: 1.5 for x in men}, "surrounded": True,
                                            "nearest_friendly": None, "die": self.die()}) and v.captured:
            self.prisoners += crew  # type: ignore[attr-defined]

    def prisoners_of_war(self, side: str, foe: str) -> None:
        """V-POW-1: a fit man of the side at melee distance (1", V-MELEE-1) of a wounded enemy on foot, alive
        and free (V-POW-6), no unwounded enemy within 4" of him, takes him prisoner (V-POW-2); the side
        leaves, sends away or kills a prisoner it holds, in its own turn (V-POW-4)."""
        s, rng = self.state, self.rng
        if self.chance(0.3):
            wounded = [x for x in self.squad_ids[foe][-60:] if s.fighters[x].wounded and not (
                s.fighters[x].dead or s.fighters[x].captured or s.fighters[x].aboard)]
            own = [x for x in self.fit(side) if self.on_foot(x)]  # type: ignore[attr-defined]
            if wounded and own:
                x = rng.choice(wounded)
                if self.offer("prisoner_taken", {"captor": rng.choice(own), "prisoner": x, "distance": 1.0,
                                                 "nearest_fit_enemy": rng.choice([None, 6.0])}):
                    self.prisoners.append(x)  # type: ignore[attr-defined]
        ours = [s.fighters[x] for x in self.prisoners  # type: ignore[attr-defined]
                if s.fighters[x].captured and not s.fighters[x].dead and s.fighters[x].captor_side == side]
        if ours and self.chance(0.3):
            x = ours[0]
            action = "leave" if self.eager else rng.choice(("leave", "send", "kill"))  # left: his side may free him
            if self.offer("prisoner_handled", {"prisoner": x.id, "action": action}) and action != "leave":
                self.prisoners.remove(x.id)  # type: ignore[attr-defined]

    def charge(self, side: str, foe: str, enemy: list[str]) -> None:
        """V-MINE-10: a fit sapper of the side sets off its live charge on the lieutenant's order; an enemy
        within 3" dies (V-MINE-11)."""
        s, k, rng = self.state, self.kit.get(side), self.rng
        if k is None or not self.on_foot(k["lt"]) or not self.chance(0.3):
            return
        charges = [m.id for m in s.mines.values() if m.side == side and m.active and m.kind == "charge"]
        sappers = [x for x in k["sappers"] if self.on_foot(x)]
        if charges and sappers:
            victims = [{"fighter": rng.choice(enemy), "distance": 2.0}] if enemy and rng.random() < 0.5 else []
            self.offer("charge_detonated", {"charge": charges[0], "sapper": sappers[0], "officer": k["lt"],
                                            "victims": victims})

    def players_done(self, side: str) -> None:
        """V-TURN-12: with several players on a side, each says his «Ход» before the side's turn ends."""
        k = self.kit.get(side)
        if k is None:
            return
        for player in k["players"]:
            self.offer("player_done", {"side": side, "turn": self.state.turn, "player": player})


__all__ = ["EAGER_PLIES", "TERRAIN", "Actions"]
