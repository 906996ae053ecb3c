"""A synthetic battle for benchmarks and the engine's property tests: ``synthetic_battle(n)`` returns
``n`` stored events (deterministic for a seed) of a long battle between two companies, each with its
support (``synthetic_actions``): the terrain, then postures, moves (one perhaps taken back), orders,
vehicles moving and carrying infantry, crews leaving and manning them, sappers with mines, charges and
wire, rifle fire, tank duels, smoke, corrected mortar fire, flamethrowers, captured vehicles, melee,
prisoners, wound tests with medics, morale tests, reinforcements, each player's «Ход» and turn ends.
The first turns try every act (``synthetic_actions.EAGER_PLIES``), so a short log holds most types.
Every event is checked by the engine's own checks as it is generated, so the log is one the append
gate would accept; ``bench/`` folds it (engine_events_per_s). Pure: no Django."""
from __future__ import annotations

import random
from typing import Any

from .errors import RuleViolation
from .events import REGISTRY, Context, Event
from .fold import merge_rules
from .state import BattleState
from .synthetic_actions import EAGER_PLIES, Actions


class CheckedLog:
    """A generator's log: ``offer`` checks one event against the state with the
    engine's own checks and applies it, or drops it when a rule refuses it.
    Subclasses set ``registry``, ``state``, ``ctx`` and ``out``."""

    registry: dict[str, Any] = REGISTRY
    state: Any
    ctx: Context
    out: list[Event]

    def offer(self, type_: str, data: dict[str, Any]) -> bool:
        """Check and apply one event. The payloads here are well formed by
        construction: each is built as at replay (``EventType.load``, omitted
        defaulted fields filled) and stored as given."""
        entry = self.registry[type_]
        seq = len(self.out) + 1
        event = Event(seq, type_, data, entry.version)
        payload = entry.load(event)
        self.ctx.seq = seq
        try:
            for check in entry.checks:
                check(self.state, payload, self.ctx)
        except RuleViolation:
            return False
        self.out.append(event)
        self.state.last_seq = seq
        entry.mutate(self.state, payload, self.ctx)  # type: ignore[misc]
        self.state.applied += 1
        return True



class _Gen(Actions, CheckedLog):
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.state = BattleState()
        self.ctx = Context(0, merge_rules(None))
        self.out: list[Event] = []
        self.ids = {"attacker": [], "defender": []}  # fighter ids
        self.tanks = {"attacker": [], "defender": []}
        self.units = {"attacker": [], "defender": []}
        self.medics: dict[str, str] = {}  # unit -> medic
        self.made = 0
        self.eager = False
        self.kit: dict[str, dict[str, Any]] = {}  # side -> its support (``Actions.muster_support``)
        self.squad_ids: dict[str, list[str]] = {"attacker": [], "defender": []}  # squads and support squads
        self.fleet: list[str] = []  # both sides' tanks in play (``Actions.side_tanks``)
        self.prisoners: list[str] = []  # men taken prisoner and not yet freed, sent away or killed

    def die(self) -> dict[str, Any]:
        return {"value": self.rng.randint(1, 20), "source": "rolled", "rng": "secrets"}

    def muster(self, side: str, squads: int, tanks: int) -> None:
        p = side[0]
        units, fighters, vehicles = [], [], []
        for _ in range(squads):
            self.made += 1
            u = f"{p}U{self.made}"
            units.append({"id": u, "commander": f"{u}s", "posture": "assault"})
            fighters.append({"id": f"{u}s", "unit": u, "cls": "officer", "rank": "sergeant",
                             "character": f"char-{u}"})
            fighters.append({"id": f"{u}m", "unit": u, "cls": "medic"})
            fighters += [{"id": f"{u}r{i}", "unit": u} for i in range(8)]
            self.units[side].append(u)
            self.medics[u] = f"{u}m"
            self.ids[side] += [f"{u}s", f"{u}m"] + [f"{u}r{i}" for i in range(8)]
            self.squad_ids[side] += [f"{u}s", f"{u}m"] + [f"{u}r{i}" for i in range(8)]
        for _ in range(tanks):
            self.made += 1
            t = f"{p}T{self.made}"
            fighters += [{"id": f"{t}c", "cls": "officer", "rank": "corporal"}, {"id": f"{t}p", "cls": "personnel"}]
            vehicles.append({"id": t, "armour": self.rng.randint(2, 4), "gun": self.rng.randint(2, 4),
                             "crew": [f"{t}c", f"{t}p"]})
            self.tanks[side].append(t)
            self.fleet.append(t)
        self.offer("force_mustered", {"side": side, "units": units, "fighters": fighters, "vehicles": vehicles})

    def fit(self, side: str) -> list[str]:
        f = self.state.fighters
        return [i for i in self.ids[side] if not (f[i].dead or f[i].captured or f[i].wounded)]

    def ply(self) -> None:
        rng, s = self.rng, self.state
        side = s.side_to_move or "defender"
        foe = "attacker" if side == "defender" else "defender"
        self.eager = s.ply < EAGER_PLIES
        if len(self.fit(side)) < 60:
            self.muster(side, 4, 2)  # reinforcements
        self.resupply(side)
        held = {"retreat": "march", "dug_in": "dug_in"}  # a morale result holds (V-MORALE-2)
        postures = {u: held.get(s.units[u].morale, "assault") for u in self.units[side]
                    if s.units[u].morale != "surrendered"}
        self.offer("postures_declared", {"side": side, "units": postures})
        own, enemy = self.fit(side), self.fit(foe)
        for _ in range(rng.randint(2, 4) if self.eager else rng.randint(3, 8)):
            self.offer("fighters_moved", {"side": side, "fighters": [rng.choice(own)], "distance": 4.0})
        # --- the rest of the movement step (synthetic_actions)
        self.take_back(side, own)
        self.order(side)
        self.vehicles(side)
        self.crews(side)
        self.sappers(side, foe)
        self.mines(side, foe)
        self.board(side)
        # V-MED-3: each wounded soldier tests on his side's next turn
        for w in [i for i in self.squad_ids[side] if s.fighters[i].wounded and not s.fighters[i].dead
                  and not s.fighters[i].captured and s.fighters[i].wounded_ply < s.ply]:
            first = self.die()
            data: dict[str, Any] = {"fighter": w, "die": first}
            if first["value"] < 11 and rng.random() < 0.5 and s.fighters[w].unit in self.medics:
                data |= {"medic": self.medics.get(s.fighters[w].unit), "medic_distance": 3.0, "reroll": self.die()}
            if not self.offer("wound_test", data) and "reroll" in data:
                self.offer("wound_test", {"fighter": w, "die": first})
        self.free_prisoner(side)
        if self.eager:
            self.duel(side, foe)  # the first turns: a duel each, so running gear is soon damaged (V-CAPT-2)
        for _ in range(rng.randint(6, 10) if self.eager else rng.randint(12, 24)):
            r = rng.random()
            if r < 0.7 and enemy:
                self.offer("fire", {"shooter": rng.choice(own), "weapon": "rifle", "target": "fighters",
                                    "distance": 6.0, "struck": [{"fighter": rng.choice(enemy), "die": self.die()}]})
            elif r < 0.85:
                self.duel(side, foe)
            elif r < 0.95 and enemy:
                self.offer("melee", {"attacker": rng.choice(own), "defender": rng.choice(enemy), "distance": 1.0,
                                     "rolls": [{"attacker": self.die(), "defender": self.die()}]})
            else:
                unit = rng.choice(self.units[side])
                roll = self.die()
                members = [i for i in own if s.fighters[i].unit == unit]
                if members:
                    self.offer("morale_test", {"unit": unit, "die": roll, "officer_distances": {},
                                               "enemy_distances": {}, "new_commander": members[0]})
        # --- the rest of the fire step (synthetic_actions)
        enemy = self.fit(foe)
        self.smoke(side)
        self.mortar(side, enemy)
        self.capture(side, foe)
        self.flamer(side, foe)
        self.prisoners_of_war(side, foe)
        self.charge(side, foe, enemy)
        self.players_done(side)
        self.offer("turn_ended", {"side": side, "turn": s.turn})

    def duel(self, side: str, foe: str) -> None:
        """A tank duel at 20" (V-TEST-8: 1-10 misses; a gun of the target's class damages it, V-VDMG-3, and
        a 16-20 damages its running gear too, V-TEST-10, V-VDMG-6; a bigger gun destroys it, V-VDMG-5; a
        smaller one does nothing, V-VDMG-2). In the first turns a gun of the target's class is preferred,
        so running gear is damaged early and the vehicle may be captured (V-CAPT-2)."""
        rng = self.rng
        mine = [t for t in self.side_tanks(side) if self.crewed(t)]
        theirs = self.side_tanks(foe)
        if not mine or not theirs:
            return
        pairs = [(a, b) for a in mine for b in theirs if a.gun == b.armour] if self.eager else []
        a, b = rng.choice(pairs) if pairs else (rng.choice(mine), rng.choice(theirs))
        self.offer("fire", {"shooter": a.id, "weapon": "gun", "target": "vehicle", "target_id": b.id,
                            "distance": 20.0, "hit": self.die()})


def synthetic_battle(n: int = 100_000, *, seed: int = 11) -> list[Event]:
    """``n`` events with seqs 1..n: a valid log ending with ``battle_ended``."""
    g = _Gen(seed)
    g.terrain()
    g.muster("attacker", 12, 6)
    g.muster("defender", 12, 6)
    g.muster_support("attacker")
    g.muster_support("defender")
    g.offer("battle_started", {"attacker": "Synthetic attacker", "defender": "Synthetic defender"})
    while len(g.out) < n - 1:
        g.ply()
    del g.out[n - 1:]
    g.out.append(Event(n, "battle_ended", {"winner": "draw", "reason": "synthetic"}, 1))
    return g.out
