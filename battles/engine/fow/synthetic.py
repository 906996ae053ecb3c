"""A synthetic Flames of War battle for benchmarks: ``synthetic_fow_battle(n)``
returns ``n`` stored events (deterministic for a seed) of a long FoW battle:
infantry and tank platoons and an armoured train with its tank escort on each
side; every turn, in the order of its Steps, pinned platoons rally, platoons
try to Dig In, teams move once each (some At the Double), teams shoot with
the dice the engine expects, wrecks appear, and the turn ends. Every event is checked by the FoW engine's own
checks as it is generated, so the log is one the append gate would accept;
``bench/`` folds it (fow_engine_events_per_s). Pure: no Django."""
from __future__ import annotations

import random
from typing import Any

from battles.engine.events import Context, Event
from battles.engine.fold import merge_rules
from battles.engine.synthetic import CheckedLog

from .registry import REGISTRY
from .rules.actions import TeamShot, dice_expected
from .state import FowState


class _Gen(CheckedLog):
    registry = REGISTRY

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.state = FowState()
        self.ctx = Context(0, merge_rules(None, "fow"))
        self.out: list[Event] = []
        self.made = 0

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
        self.offer("force_mustered", {"side": side, "platoons": platoons})

    def live(self, side: str) -> list[str]:
        return [t.id for t in self.state.teams.values() if t.side == side and not t.destroyed and t.kind != "train"]

    def ply(self) -> None:
        rng, s = self.rng, self.state
        side = s.side_to_move or "attacker"
        foe = "defender" if side == "attacker" else "attacker"
        if len(self.live(side)) < 40:
            self.muster(side, 4, 2)  # reinforcements
        for pid in [p.id for p in s.platoons.values() if p.side == side and p.pinned]:
            self.offer("status_set", {"subject": pid, "status": "pinned", "value": False, "reason": "rallied"})
        own = self.live(side)
        diggers = [p.id for p in s.platoons.values() if p.side == side and p.kind == "infantry"]
        for pid in rng.sample(diggers, min(2, len(diggers))):
            self.offer("dig_in_attempted", {"platoon": pid, "die": self.d6()})
        for tid in rng.sample(own, min(rng.randint(6, 14), len(own))):  # each team moves once a Step (G-F1)
            t = s.teams[tid]
            base = 6.0 if t.kind == "infantry" else 12.0
            if rng.random() < 0.3:
                self.offer("team_moved", {"team": tid, "distance": base * 1.5, "at_the_double": True,
                                          "closest_enemy": 10.0})
            else:
                self.offer("team_moved", {"team": tid, "distance": base * rng.random()})
        enemy = self.live(foe)
        for _ in range(rng.randint(10, 20)):
            if not enemy:
                break
            shooter, target = rng.choice(own), rng.choice(enemy)
            st, tt = s.teams[shooter], s.teams[target]
            if st.destroyed or tt.destroyed:
                continue
            n, _rule = dice_expected(s, TeamShot(shooter, target, []), st, tt, self.ctx.rules)
            if self.offer("team_shot", {"shooter": shooter, "target": target,
                                        "dice": [self.d6() for _ in range(max(n, 1))]}) and rng.random() < 0.08:
                self.offer("status_set", {"subject": target, "status": "destroyed", "reason": "hit, failed save"})
                if rng.random() < 0.3:
                    self.offer("status_set", {"subject": tt.platoon, "status": "pinned", "reason": "5 hits"})
        self.offer("turn_ended", {"side": side, "turn": s.turn})


def synthetic_fow_battle(n: int = 100_000, *, seed: int = 11) -> list[Event]:
    """``n`` FoW events with seqs 1..n: a valid log ending with ``battle_ended``."""
    g = _Gen(seed)
    g.offer("battle_started", {"attacker": "Synthetic attacker", "defender": "Synthetic defender",
                               "ruleset": "fow", "units": "in", "first_mover": "attacker"})
    g.muster("attacker", 8, 4)
    g.muster("defender", 8, 4)
    while len(g.out) < n - 1:
        g.ply()
    del g.out[n - 1:]
    g.out.append(Event(n, "battle_ended", {"winner": "draw", "reason": "synthetic"}, REGISTRY["battle_ended"].version))
    return g.out
