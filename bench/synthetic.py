"""Synthetic battle logs for the benchmarks, built from ``battles.engine.REGISTRY``.

The engine grows while the bench stays put, so generation is generic: each
event type the bench knows how to invent has a *producer* (a function of the
current state and a random source that returns a payload, or ``None`` when the
type does not fit right now). ``generate`` starts the battle, then repeatedly
picks one fitting producer by weight, checks the event with the engine's own
checks, applies it with the engine's mutator and moves on. Types registered
in the engine without a producer are simply not used (``uncovered()`` lists
them, and ``bench/run.py`` prints that list so nobody forgets).

To make the synthetic battles richer when the engine learns new events, add a
producer next to the existing ones::

    @producer("unit_moved", weight=5)
    def _moved(state, rng):
        if state.status != "running":
            return None
        return {"unit": rng.choice(...), "inches": rng.randint(1, 12)}

A producer must return only payloads the engine accepts in that state; an
invalid one fails loudly here (``SyntheticError``), not halfway through a
benchmark. Producers never need to know seqs: the generator assigns them.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from battles import engine
from battles.engine.events import Context

Payload = dict[str, Any]
Make = Callable[[engine.BattleState, random.Random], Payload | None]


class SyntheticError(Exception):
    """A producer invented an event the engine refuses: fix the producer."""


@dataclass(frozen=True)
class Producer:
    type: str
    make: Make
    weight: float = 1.0
    role: str = "body"  # "open" (starts the battle), "body", or "close" (ends it)


PRODUCERS: dict[str, Producer] = {}


def producer(type_name: str, *, weight: float = 1.0, role: str = "body") -> Callable[[Make], Make]:
    if role not in {"open", "body", "close"}:
        raise ValueError(f"role must be open, body or close, not {role!r}")

    def register(fn: Make) -> Make:
        PRODUCERS[type_name] = Producer(type_name, fn, weight, role)
        return fn

    return register


def uncovered() -> list[str]:
    """Event types the engine registers but the generator cannot invent yet."""
    return sorted(set(engine.REGISTRY) - set(PRODUCERS))


# --- producers for the core events (battles/engine/rules/core.py) -------------
@producer("battle_started", role="open", weight=0.001)
def _started(state: engine.BattleState, rng: random.Random) -> Payload | None:
    if state.status != "planned" or len({u.side for u in state.units.values()}) == 1:
        return None  # one side mustered: the other musters first (none: a battle of turn ends only)
    return {"attacker": "Synthetic attacker", "defender": "Synthetic defender"}


@producer("force_mustered", role="open")
def _mustered(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """Each side's force before the battle starts: two squads (a sergeant and
    eight riflemen each), the shape ``battles.engine.synthetic`` musters."""
    if state.status != "planned":
        return None
    sides = {u.side for u in state.units.values()}
    side = next((s for s in ("attacker", "defender") if s not in sides), None)
    if side is None:
        return None
    p = side[0]
    units, fighters = [], []
    for n in range(1, 3):
        u = f"{p}U{n}"
        units.append({"id": u, "commander": f"{u}s", "posture": "assault"})
        fighters.append({"id": f"{u}s", "unit": u, "cls": "officer", "rank": "sergeant"})
        fighters += [{"id": f"{u}r{i}", "unit": u} for i in range(8)]
    return {"side": side, "units": units, "fighters": fighters, "vehicles": []}


def _fit(state: engine.BattleState, side: str) -> list[str]:
    return [i for i, f in state.fighters.items() if f.side == side and not (f.dead or f.captured or f.wounded)]


@producer("postures_declared", weight=1000.0)
def _postures(state: engine.BattleState, rng: random.Random) -> Payload | None:
    """V-TURN-9: a turn opens by declaring the posture of each unit (weighted
    to come first; once per ply)."""
    if state.status != "running" or state.side_to_move is None:
        return None
    side = state.side_to_move
    if state.postures_ply == state.ply:
        return None
    held = {"retreat": "march", "dug_in": "dug_in"}
    units = {u: held.get(unit.morale, "assault") for u, unit in state.units.items()
             if unit.side == side and unit.morale != "surrendered"}
    return {"side": side, "units": units} if units else None


@producer("fighters_moved", weight=3.0)
def _moved(state: engine.BattleState, rng: random.Random) -> Payload | None:
    if state.status != "running" or state.side_to_move is None:
        return None
    if state.postures_ply != state.ply or state.phase == "fire":  # V-TURN-9: postures, moves, then fire
        return None
    own = _fit(state, state.side_to_move)
    return {"side": state.side_to_move, "fighters": [rng.choice(own)], "distance": 4.0} if own else None


@producer("fire", weight=2.0)
def _fire(state: engine.BattleState, rng: random.Random) -> Payload | None:
    if state.status != "running" or state.side_to_move is None:
        return None
    side = state.side_to_move
    if state.postures_ply != state.ply:
        return None
    own = [i for i in _fit(state, side) if state.fighters[i].shot_ply != state.ply]  # V-TURN-11: one shot a turn
    enemy = _fit(state, "defender" if side == "attacker" else "attacker")
    if not own or not enemy:
        return None
    return {"shooter": rng.choice(own), "weapon": "rifle", "target": "fighters", "distance": 6.0,
            "struck": [{"fighter": rng.choice(enemy), "die": {"value": rng.randint(1, 20), "source": "entered"}}]}


@producer("turn_ended", weight=1.0)
def _turn_ended(state: engine.BattleState, rng: random.Random) -> Payload | None:
    if state.status != "running" or state.side_to_move is None:
        return None
    return {"side": state.side_to_move, "turn": state.turn}


@producer("battle_ended", role="close")
def _ended(state: engine.BattleState, rng: random.Random) -> Payload | None:
    if state.status != "running":
        return None
    return {"winner": rng.choice(["attacker", "defender", "draw"])}


# --- generation ---------------------------------------------------------------------
class _Builder:
    """Tracks the state of the battle being invented, applying each accepted
    event in place (no per-event copy, so 100k events stay linear)."""

    def __init__(self, rules: dict[str, Any] | None, seed: int, types: frozenset[str] | None = None) -> None:
        self.types = types
        self.state = engine.BattleState()
        self.rules = dict(engine.DEFAULT_RULES, **(rules or {}))
        self.rng = random.Random(seed)
        self.seq = 0

    def offer(self, p: Producer) -> engine.Event | None:
        data = p.make(self.state, self.rng)
        if data is None:
            return None
        entry = engine.lookup(p.type)
        seq = self.seq + 1
        ctx = Context(seq, self.rules)
        try:
            payload = entry.parse(data)
            for check in entry.checks:
                check(self.state, payload, ctx)
        except engine.EngineError as exc:
            raise SyntheticError(f"producer for {p.type} made an event the engine refuses at seq {seq}: {exc}") from exc
        event = engine.Event(seq, entry.name, engine.dump(payload), entry.version)
        if entry.mutate is not None:
            self.state.last_seq = seq
            entry.mutate(self.state, payload, ctx)
        self.state.last_seq = seq
        self.seq = seq
        return event

    def pick(self, role: str) -> engine.Event | None:
        live = [p for p in PRODUCERS.values() if p.role == role and p.type in engine.REGISTRY
                and (self.types is None or p.type in self.types)]
        if role == "open":  # the opening in a fixed order, heaviest first: forces, then the start
            live.sort(key=lambda p: -p.weight)
        while live:
            if len(live) == 1 or role == "open":
                p = live[0]
            else:
                p = self.rng.choices(live, weights=[p.weight for p in live])[0]
            event = self.offer(p)
            if event is not None:
                return event
            live.remove(p)
        return None


def iter_battle(n: int, *, seed: int = 0, end: bool = False, rules: dict[str, Any] | None = None,
                types: frozenset[str] | None = None) -> Iterator[engine.Event]:
    """Yield ``n`` valid events (seq 1..n) of one battle, in their stored form
    (payloads normalised as the append path stores them). With ``end`` the last
    one closes the battle."""
    b = _Builder(rules, seed, types)
    while b.seq < n:
        role = "close" if end and b.seq == n - 1 else ("open" if b.state.status == "planned" else "body")
        event = b.pick(role)
        if event is None:
            raise SyntheticError(f"no producer fits after seq {b.seq} (role {role}, state {b.state.status}); "
                                 "add one in bench/synthetic.py")
        yield event


def battle(n: int, *, seed: int = 0, end: bool = False, rules: dict[str, Any] | None = None,
           types: frozenset[str] | None = None) -> list[engine.Event]:
    """``types`` limits the producers to those event types (``TURNS_ONLY``: the
    battles of the bench before issue 14, battle_started and turn ends)."""
    return list(iter_battle(n, seed=seed, end=end, rules=rules, types=types))


TURNS_ONLY = frozenset({"battle_started", "turn_ended", "battle_ended"})


def long_battle(n: int, *, seed: int = 0) -> tuple[list[engine.Event], str]:
    """The battle for ``engine_events_per_s`` and ``replay_vs_fold``, and where it came from.

    The engine may ship its own richer generator (``battles.engine.synthetic``,
    written by whoever knows the rules best); fold and replay apply stored
    events without checks, so that one is preferred when present. Otherwise,
    or with ``BENCH_SYNTHETIC=generic``, the generic producers above are used.
    """
    import importlib
    import os

    if os.environ.get("BENCH_SYNTHETIC", "") != "generic":
        try:
            rich = importlib.import_module("battles.engine.synthetic")
        except ModuleNotFoundError:
            rich = None
        if rich is not None and hasattr(rich, "synthetic_battle"):
            try:
                events = list(rich.synthetic_battle(n))
                if len(events) != n or any(e.seq != i for i, e in enumerate(events, 1)):
                    raise SyntheticError(f"expected {n} events with seqs 1..{n}")
                return events, "battles.engine.synthetic"
            except Exception as exc:  # someone else's module, maybe mid-edit: say so, use ours
                print(f"bench: battles.engine.synthetic failed ({type(exc).__name__}: {exc}); "
                      "using bench.synthetic", flush=True)
                return battle(n, seed=seed, end=True), f"bench.synthetic (engine generator failed: {exc})"
    return battle(n, seed=seed, end=True), "bench.synthetic"
