"""A synthetic battle for benchmarks: ``synthetic_battle(n)`` returns ``n``
stored-form events (deterministic for a seed) of a long battle between two
companies: postures, moves, rifle and MG fire, gun fire at tanks, wound
tests and turn ends. ``bench/`` measures ``fold`` on it
(engine_events_per_s); the events are valid as the append gate would accept
most of them, and replay applies them without checks."""
from __future__ import annotations

import random

from .events import Event


def _die(rng: random.Random) -> dict:
    return {"value": rng.randint(1, 20), "source": "rolled", "rng": "secrets"}


def synthetic_battle(n: int = 100_000, *, seed: int = 11, per_side: int = 400) -> list[Event]:
    rng = random.Random(seed)
    out: list[Event] = []

    def add(type_: str, data: dict) -> None:
        out.append(Event(len(out) + 1, type_, data, 1))

    for side, p in (("attacker", "a"), ("defender", "d")):
        units = [{"id": f"{p}U{u}", "kind": "squad", "parent": "", "posture": "recon", "commander": f"{p}{u * 10}"}
                 for u in range(per_side // 10)]
        fighters = [{"id": f"{p}{i}", "unit": f"{p}U{i // 10}", "cls": "officer" if i % 10 == 0 else "rifleman",
                     "rank": "sergeant" if i % 10 == 0 else "", "character": f"{p}c{i}" if i % 10 == 0 else "",
                     "posture": None, "morale_bonus": 0, "melee_bonus": 0, "building": "", "bunker": ""}
                    for i in range(per_side)]
        vehicles = [{"id": f"{p}T{k}", "kind": "tank", "drive": "tracked", "armour": 3, "gun": 3, "weapon": "gun",
                     "seats": 0, "skirts": False, "specialisations": [], "crew": []} for k in range(20)]
        add("force_mustered", {"side": side, "units": units, "fighters": fighters, "vehicles": vehicles})
    add("battle_started", {"attacker": "A", "defender": "D", "ruleset": "v11.2"})
    side, turn = "defender", 1
    while len(out) < n:
        p, q = ("a", "d") if side == "attacker" else ("d", "a")
        add("postures_declared", {"side": side, "units": {f"{p}U{u}": "recon" for u in range(0, per_side // 10, 7)},
                                  "fighters": {}})
        for _ in range(rng.randint(20, 40)):
            r = rng.random()
            if r < 0.15:
                add("fighters_moved", {"side": side, "fighters": [f"{p}{rng.randrange(per_side)}"], "distance": 3.0,
                                       "road": False, "floors": 0, "enter_house": None, "leave_house": False,
                                       "through_opening": True, "obstacle_height": 0.0, "wire": [], "water": False,
                                       "bridge": False, "mg_spacing": None})
            elif r < 0.75:
                add("fire", {"shooter": f"{p}{rng.randrange(per_side)}", "weapon": "rifle", "target": "fighters",
                             "distance": 5.0, "target_id": "", "visual_contact": True, "on_height": False,
                             "corrected": False, "hit": None, "spot": None, "ambush": False, "path_distance": None,
                             "through_smoke": None,
                             "struck": [{"fighter": f"{q}{rng.randrange(per_side)}", "die": _die(rng),
                                         "light_cover": False, "embrasure": False, "distance": None}]})
            elif r < 0.85:
                add("fire", {"shooter": f"{p}T{rng.randrange(20)}", "weapon": "gun", "target": "vehicle",
                             "distance": 12.0, "target_id": f"{q}T{rng.randrange(20)}", "visual_contact": True,
                             "on_height": False, "corrected": False, "hit": _die(rng), "spot": None, "ambush": False,
                             "path_distance": None, "through_smoke": None, "struck": []})
            else:
                add("wound_test", {"fighter": f"{p}{rng.randrange(per_side)}", "die": _die(rng), "medic": None,
                                   "medic_distance": None, "reroll": None})
        add("turn_ended", {"side": side, "turn": turn})
        if side == "attacker":
            turn += 1
        side = "attacker" if side == "defender" else "defender"
    return out[:n]
