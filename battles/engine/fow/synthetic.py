"""A synthetic Flames of War battle for benchmarks: ``synthetic_fow_battle(n)``
returns ``n`` stored events (deterministic for a seed) of a long FoW battle:
infantry and tank platoons, a recon platoon and an armoured train with its tank
escort on each side. Before the first turn both Railway Lines are laid, one train
is Deployed and the other held in Reserve, the scouts make their recon deployment
move and a farmhouse is placed with a defending team inside. Every turn, in the
order of its Steps: pinned platoons rally, the train enters or runs along its
line, a team may be placed from Ambush, platoons try to Dig In (a failed test
re-rolled), a team goes into or out of the farmhouse, a scout takes on or sets
down a passenger, teams move once each (some At the Double, one move perhaps
taken back), the tank escort leaves the train; then teams Go to Ground, aircraft
attack, enemy scouts fired on Disengage, teams shoot with the dice the engine
expects, wrecks appear and unarmoured vehicles save; teams assault a platoon,
which marks and reoccupies its foxholes; and the turn ends. The first turns try
every act (``synthetic_actions.EAGER_PLIES``). Every event is checked by the FoW
engine's own checks as it is generated, so the log is one the append gate would
accept; ``bench/`` folds it (fow_engine_events_per_s). Pure: no Django."""
from __future__ import annotations

import random
from typing import Any

from battles.engine.events import Context, Event
from battles.engine.fold import merge_rules
from battles.engine.synthetic import CheckedLog

from .registry import REGISTRY
from .rules.actions import TeamShot, dice_expected
from .rules.trains import off_table
from .state import FowState
from .synthetic_actions import EAGER_PLIES, Actions


class _Gen(Actions, CheckedLog):
    registry = REGISTRY

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.state = FowState()
        self.ctx = Context(0, merge_rules(None, "fow"))
        self.out: list[Event] = []
        self.made = 0
        self.eager = False
        self.recon: dict[str, list[str]] = {"attacker": [], "defender": []}
        self.infantry: dict[str, list[str]] = {"attacker": [], "defender": []}
        self.rail: dict[str, str] = {}
        self.wrecks: list[str] = []
        self.roster: dict[str, list[str]] = {"attacker": [], "defender": []}  # teams not known destroyed

    def d6(self) -> dict[str, Any]:
        return {"value": self.rng.randint(1, 6), "source": "rolled", "rng": "secrets"}

    def muster(self, side: str, infantry: int, tanks: int) -> None:
        p = side[0].upper()
        platoons = []
        for _ in range(infantry):
            self.made += 1
            pid = f"{p}I{self.made}"
            platoons.append({"id": pid, "kind": "infantry", "teams": [
                {"id": f"{pid}t{i}", "kind": "infantry", "pioneer_supply": i == 0} for i in range(6)]})
        escorts = []
        for _ in range(tanks):
            self.made += 1
            pid = f"{p}T{self.made}"
            escorts.append(pid)
            platoons.append({"id": pid, "kind": "tank", "teams": [
                {"id": f"{pid}t{i}", "kind": "tank", "armoured": True} for i in range(3)]})
        self.made += 1
        train = f"{p}B{self.made}"
        platoons.append({"id": train, "kind": "armoured_train", "escorts": escorts[:1], "teams": [
            {"id": f"{train}w{i}", "kind": "train", "armoured": True, "locomotive": i == 0} for i in range(4)]})
        if self.offer("force_mustered", {"side": side, "platoons": platoons}):
            self.infantry[side] += [pl["id"] for pl in platoons if pl["kind"] == "infantry"]
            self.roster[side] += [t["id"] for pl in platoons[:-1] for t in pl["teams"]]

    def live(self, side: str) -> list[str]:
        """The side's teams on the table that are neither destroyed nor wagons: the Tank Support Platoon of
        a train still off the table is not there to act (F-TRAIN-14), so it neither counts towards the 40
        that hold off reinforcements nor is picked to act."""
        teams = self.state.teams
        self.roster[side] = alive = [tid for tid in self.roster[side] if not teams[tid].destroyed]
        return [tid for tid in alive if off_table(self.state, teams[tid]) is None]

    def ply(self) -> None:
        rng, s = self.rng, self.state
        side = s.side_to_move or "attacker"
        foe = "defender" if side == "attacker" else "attacker"
        self.eager = s.ply < EAGER_PLIES
        if len(self.live(side)) < 40:
            self.muster(side, 4, 2)  # reinforcements
        for pid in [p.id for p in s.platoons.values() if p.side == side and p.pinned]:
            self.offer("status_set", {"subject": pid, "status": "pinned", "value": False, "reason": "rallied"})
        # --- the Movement Step: a Deployed train enters before any other team acts (F-TRAIN-14)
        self.trains(side)
        own = [t for t in self.live(side) if not s.teams[t].recon]  # the scouts act in their own producers
        self.ambush(side, foe, own)
        self.infantry[side] = diggers = [pid for pid in self.infantry[side]  # a wiped-out platoon digs no more
                                         if any(not s.teams[t].destroyed for t in s.platoons[pid].teams)]
        for pid in rng.sample(diggers, min(2, len(diggers))):
            self.offer("dig_in_attempted", {"platoon": pid, "die": self.d6()})
            self.reroll(pid)
        self.building(side, own)
        self.passengers(side, own)
        moves = rng.randint(6, 9) if self.eager else rng.randint(6, 14)
        for i, tid in enumerate(rng.sample(own, min(moves, len(own)))):  # each team moves once a Step (G-F1)
            t = s.teams[tid]
            base = 6.0 if t.kind == "infantry" else 12.0
            if i == 0 and moves < 14 and not t.building and self.chance(0.05):
                self.take_back(side, tid, base)
            if rng.random() < 0.3:
                self.offer("team_moved", {"team": tid, "distance": base * 1.5, "at_the_double": True,
                                          "closest_enemy": 10.0})
            else:
                self.offer("team_moved", {"team": tid, "distance": base * rng.random()})
        self.escort_leaves(side)
        if self.chance(0.3):
            self.offer("step_ended", {"side": side, "step": "movement"})  # G-F1: the Shooting Step begins
        # --- the Shooting Step
        grounded = self.go_to_ground(own)
        self.air_attacks(side, foe)
        fired = self.disengage(side, foe, own)
        shooters = [t for t in own if t not in grounded]
        enemy = self.live(foe)
        for _ in range((rng.randint(8, 12) if self.eager else rng.randint(10, 20)) - fired):
            if not enemy or not shooters:
                break
            shooter, target = rng.choice(shooters), rng.choice(enemy)
            st, tt = s.teams[shooter], s.teams[target]
            if st.destroyed or tt.destroyed:
                continue
            n, _rule = dice_expected(s, TeamShot(shooter, target, []), st, tt, self.ctx.rules)
            if not self.offer("team_shot", {"shooter": shooter, "target": target,
                                            "dice": [self.d6() for _ in range(max(n, 1))]}):
                continue
            if tt.recon and rng.random() < 0.5:
                self.save_vehicle(target)  # F-RECON-2
            elif rng.random() < 0.08:
                self.offer("status_set", {"subject": target, "status": "destroyed", "reason": "hit, failed save"})
                if tt.armoured:
                    self.wrecks.append(target)  # F-TRAIN-23: Wreckage on the track
                if rng.random() < 0.3:
                    self.offer("status_set", {"subject": tt.platoon, "status": "pinned", "reason": "5 hits"})
        # --- the Assault Step
        self.assault(side, foe, own)
        if self.recon[side] and not self.live_recon(side):
            self.muster_recon(side)  # new scouts once the last ones are gone
        self.offer("turn_ended", {"side": side, "turn": s.turn})


def synthetic_fow_battle(n: int = 100_000, *, seed: int = 11) -> list[Event]:
    """``n`` FoW events with seqs 1..n: a valid log ending with ``battle_ended``."""
    g = _Gen(seed)
    g.offer("battle_started", {"attacker": "Synthetic attacker", "defender": "Synthetic defender",
                               "ruleset": "fow", "units": "in", "first_mover": "attacker"})
    g.muster("attacker", 8, 4)
    g.muster("defender", 8, 4)
    g.setup()
    while len(g.out) < n - 1:
        g.ply()
    del g.out[n - 1:]
    g.out.append(Event(n, "battle_ended", {"winner": "draw", "reason": "synthetic"}, REGISTRY["battle_ended"].version))
    return g.out
