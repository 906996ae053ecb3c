"""The event vocabulary as Markdown (docs/events.md), generated from the
registry so the document cannot drift: a test compares the two.

Regenerate with ``python -m battles.engine.docs > docs/events.md``.
"""
from __future__ import annotations

import json
import sys
from typing import Any, get_args

from .events import REGISTRY, Registry
from .rules_data import PLACEHOLDERS, READINGS
from .rulesets import get
from .schema import hints, is_payload, payload_schema

HEADER = """# Battle event vocabulary (ruleset v11.2)

Generated from `battles/engine` by `python -m battles.engine.docs > docs/events.md`;
`tests/engine/test_docs.py` fails when this file and the registry differ. The same
vocabulary, with JSON Schemas, is served by `GET /api/event-types/`.

Events state the facts the table decides (distances in inches, line of sight,
targets) and the dice. A die is `{"value": 1..20, "source": "entered" | "rolled", "rng": ...}`;
a client may send `{"source": "rolled"}` and the service fills the value, derived from
the battle's committed secret (`"rng": "hmac-sha256"`, docs/verify.md "Committed dice"),
or from a secure random source (`"rng": "secrets"`) once the secret is revealed; a die
thrown at the table is sent `{"value": v, "source": "entered"}`. Only the service writes a
rolled die's face and those `rng`s: a die sent with either is refused (400 naming the field).
Replay never rolls.
An event the rules forbid is refused with the catalog rule ID (`V-...`) or a
structural code (`S-...`), in Russian and English. Once accepted, an event
stands; only the game master's `correction` voids one (V-TURN-13).

Who may record: a battle's events are recorded by its participants and the
game master; everyone else is refused (403) and nothing is stored. Each type
below says who records it (`recorded_by` in `GET /api/event-types/`):
**actor**, the side whose fighter, vehicle or turn acts; **opponent**, the
enemy of the side whose piece the payload names, to whom the rules hand the
record (a prisoner's captors, a mine's owner); **either** side at the table;
**game master** only. The game master may record any event. A payload naming
an unknown fighter, unit, vehicle or mine is refused by the rules
(`S-UNKNOWN`), and so is an enemy's mine that has not been revealed
(V-MINE-14): the refusal does not tell the two apart, nor does a sapper's
`sapper_worked` on such a mine (V-MINE-13). Until the battle starts (the
game master's muster, V-TURN-2) a participant records nothing: the set-up is
the game master's alone. An idempotency `key` is a retry only for the one who
stored it (and the game master): anyone else's batch under that key is judged
as a new one, and refused (409) without a word of the stored event if it
passes. In the log, `key` and `recorded_by` are read by the battle's
participants and game master only, and a key not by a participant from whom
its event's content is hidden.

Limits: an event's `data` may nest at most 32 levels deep and take at most
64 KB as compact UTF-8 JSON; no string or key in it may hold a NUL character
or a lone UTF-16 surrogate. Beyond these the append is refused (400) naming
the field (`events[i].data`, or the path of the bad string), and nothing is
stored.

Structural refusal codes: `S-NOT-STARTED`, `S-ENDED`, `S-STARTED-TWICE` (the
battle's life cycle), `S-UNKNOWN` (no such fighter, unit, vehicle or object, or
not yours), `S-DUPLICATE` (an id already used), `S-TARGET` (not a valid target),
`S-WEAPON` (the shooter has no such weapon), `S-DIE` (a needed die is missing),
`S-RANK` (an officer without a rank), `S-DEAD` (a dead fighter cannot act; a prisoner is refused
under V-POW-6), `S-RULES` (the rules data lack a value the act needs, e.g. a class's observation
distance: there is no hidden fallback). The actor's own status (dead, captured, wounded, a vehicle
destroyed or without the crew the act needs) is checked before turn order, phase and targets, so a
refusal cites the rule the actor breaks.

State (`GET /api/battles/{id}/state/`): sides, turn, ply (one side's turn) and
phase; `units` (posture, commander, morale result, smoke used), `fighters`
(class, rank, character, wounds, dead, captured, recovering, aboard, credits),
`vehicles` (cars, armour, artillery pieces and aircraft: armour and gun class,
damage vs the reserve, running gear, crew, passengers, riders, skirts, owner),
`buildings` (damage 0-3), `bunkers` (hits vs the reserve of 6), `mines`,
`wire`, `smoke`, `characters` (kills and casualties per campaign character).
"""


EXAMPLES: list[tuple[str, str, dict[str, Any]]] = [
    ("A rifleman fires at a fighter in the open; the service rolls the die",
     "fire", {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": 7,
              "struck": [{"fighter": "d1", "die": {"source": "rolled"}}]}),
    ("A tank fires at a tank (tank test entered from the table)",
     "fire", {"shooter": "T34", "weapon": "gun", "target": "vehicle", "target_id": "PzIV", "distance": 14,
              "hit": {"value": 17, "source": "entered"}}),
    ("A wounded fighter's test, re-rolled with a medic 3\" away",
     "wound_test", {"fighter": "a1", "die": {"value": 7, "source": "entered"}, "medic": "a_med",
                    "medic_distance": 3, "reroll": {"value": 15, "source": "entered"}}),
    ("Melee at 1\": a tie, then a decisive roll",
     "melee", {"attacker": "a3", "defender": "d3", "distance": 1,
               "rolls": [{"attacker": {"value": 9, "source": "entered"}, "defender": {"value": 9, "source": "entered"}},
                         {"attacker": {"value": 12, "source": "entered"}, "defender": {"value": 8, "source": "entered"}}]}),
]


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " \\| ".join(_type(s) for s in schema["anyOf"])
    if "enum" in schema:
        return " \\| ".join(f"`{v}`" if v != "" else '`""`' for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type(schema['items'])}"
    if kind == "object" and "properties" in schema:
        return "object (" + ", ".join(schema["properties"]) + ")"
    if kind == "object":
        return f"map of {_type(schema.get('additionalProperties', {}))}"
    bounds = []
    if "minimum" in schema:
        bounds.append(f"≥ {schema['minimum']}")
    if "maximum" in schema:
        bounds.append(f"≤ {schema['maximum']}")
    return (kind or "any") + (f" ({', '.join(bounds)})" if bounds else "")


FOW_HEADER = """# Battle event vocabulary (ruleset fow: Flames of War)

Generated from `battles/engine/fow` by `python -m battles.engine.docs fow > docs/events-fow.md`;
`tests/engine/fow/test_dispatch.py` fails when this file and the registry differ. The same
vocabulary, with JSON Schemas, is served by `GET /api/event-types/?ruleset=fow` and
`GET /api/battles/{id}/event-types/` for a battle of a FoW campaign.

A FoW battle's events are replayed by the FoW engine (its campaign's ruleset); a v11.2
event type is refused in it, and the other way round. Distances are in the unit the
battle started with (`battle_started.units`: `in` or `cm`); the rules data keep each
distance as the seed gives it, in both (e.g. `{"in": 8.0, "cm": 20.0}`). A die is a d6
(G-F4): `{"value": 1..6, "source": "entered" | "rolled"}`; `{"source": "rolled"}` is
filled by the service (a die sent rolled with a face, or with the service's `rng`, is
refused: 400 naming the field). Refusals name the catalog rule (`F-...`), a gap (`G-F...`) or a
structural code (`S-...`; `S-CORRECTION` for the game master's `correction`, which voids
an event exactly as in v11.2).

The Steps of a turn (`battles/engine/fow/rules/steps.py`). The seeds name the Movement, Shooting
and Assault Steps (F-DIG-1, F-BLD-3, F-BLD-9, F-TRAIN-14, F-TRAIN-25, F-RECON-15, F-DIG-20) but not the
turn sequence, a core rule (G-F1). Reading adopted: a side's turn goes Movement, Shooting, Assault,
and a Step once left is not gone back to; each team moves once in its Movement Step (so "the start
of its move", F-BLD-8, is where it stood when the Step began, and a move is not recorded in parts);
a pivot in place is that move. The state's `step` is the side to move's Step: a turn opens at
`movement`; the first shot, air attack or Go to Ground begins `shooting`, the first assault
`assault`; `step_ended` ends the current Step when nothing else does (F-BLD-9's "rest of the Step"
ends with it). Moves, Digging In (F-DIG-1), a train entering (F-TRAIN-14) or moving and Tank Support
Platoons leaving it (F-TRAIN-25) belong to the Movement Step; once those platoons have left, the
Movement Step is at its end (F-TRAIN-25). Shots, air attacks and Going to Ground belong to the
Shooting Step (G-F1); foxholes are marked and reoccupied in the Assault Step (F-DIG-19, F-DIG-20),
marked only by a platoon assaulted in that Step (F-DIG-19: the defending platoon, which
`assault_launched.against` names; it must be an enemy platoon, G-F1); the enemy Disengages in the
Shooting Step, not the Assault Step (F-RECON-15). An act of an earlier Step is refused once a later
one has begun. These checks run when an event is appended: a log recorded
before them replays as it did.

State (`GET /api/battles/{id}/state/`): `measure` (in or cm), sides, turn, ply, step; `platoons` (kind,
Command team, skill, pinned, foxholes marked, `assaulted_ply`: the ply it was last assaulted in),
`teams` (kind, gun size, flags, and the statuses bogged, bailed_out, destroyed, gone_to_ground,
concealed, bulletproof_cover, dug_in), `trains`, `railway_lines`, `buildings`, `tests` (Skill and Firepower tests taken).
"""


def _nested(registry: Registry = REGISTRY) -> set[type]:
    """Every payload class used inside a payload (dice, targets, specs)."""
    found: set[type] = set()

    def walk(tp: Any) -> None:
        for arg in get_args(tp):
            walk(arg)
        if is_payload(tp) and tp not in found:
            found.add(tp)
            for sub in hints(tp).values():
                walk(sub)

    for entry in registry.values():
        for sub in hints(entry.payload).values():
            walk(sub)
    return found


FOW_EXAMPLES: list[tuple[str, str, dict[str, Any]]] = [
    ("A platoon Digs In; the service rolls the Skill test",
     "dig_in_attempted", {"platoon": "rifles1", "die": {"source": "rolled"}}),
    ("An IS-2 moves At the Double (16\" = twice its 8\")",
     "team_moved", {"team": "is2_a", "distance": 16, "at_the_double": True, "closest_enemy": 12}),
    ("The attacker ends its Movement Step before any shot: its Shooting Step begins",
     "step_ended", {"side": "attacker", "step": "movement"}),
]


def render(ruleset: str = "v11.2") -> str:
    rs = get(ruleset)
    registry = rs.registry
    v11 = rs.code == "v11.2"
    out = [HEADER if v11 else FOW_HEADER]
    out.append("\n## Examples\n")
    for title, type_, data in (EXAMPLES if v11 else FOW_EXAMPLES):
        body = json.dumps({"type": type_, "data": data}, ensure_ascii=False)
        out.append(f"- {title}:\n\n  ```json\n  {body}\n  ```")
    for name in sorted(registry):
        entry = registry[name]
        d = entry.describe()
        schema = d["schema"]
        out.append(f"\n## `{name}` — {entry.title_en} / {entry.title_ru}\n")
        if schema.get("description"):
            out.append(schema["description"] + "\n")
        who = d["recorded_by"]
        rules = ", ".join(entry.rules) if entry.rules else "—"
        out.append(f"- Recorded by: **{who['kind'].replace('_', ' ')}**: {who['text_en']} / {who['text_ru']}; "
                   f"schema version {entry.version}")
        out.append(f"- Rules: {rules}\n")
        out.append("| field | type | required | notes |")
        out.append("|---|---|---|---|")
        required = set(schema.get("required", []))
        for field, fs in schema["properties"].items():
            note = fs.get("description", "")
            out.append(f"| `{field}` | {_type(fs)} | {'yes' if field in required else 'no'} | {note} |")
    out.append("\n## Nested objects\n")
    for cls in sorted(_nested(registry), key=lambda c: c.__name__):
        schema = payload_schema(cls)
        out.append(f"\n### {cls.__name__}\n")
        if schema.get("description"):
            out.append(schema["description"] + "\n")
        out.append("| field | type | required | notes |")
        out.append("|---|---|---|---|")
        required = set(schema.get("required", []))
        for field, fs in schema["properties"].items():
            out.append(f"| `{field}` | {_type(fs)} | {'yes' if field in required else 'no'} | {fs.get('description', '')} |")
    if not v11:
        out.append("\n## Rules data\n")
        out.append("`battles.engine.fow.rules_data.DEFAULT_RULES`; distances in both units as the seed gives them.\n")
        out.append("| key | default | gap or reading |")
        out.append("|---|---|---|")
        for key in sorted(rs.default_rules):
            note = rs.placeholders.get(key, "") or rs.readings.get(key, "")
            out.append(f"| `{key}` | `{json.dumps(rs.default_rules[key], sort_keys=True)}` | {note} |")
        return "\n".join(out) + "\n"
    out.append("\n## Rules data placeholders (catalog gaps)\n")
    out.append("Keys of `battles.engine.rules_data.DEFAULT_RULES` with no seed basis; the master edits them.\n")
    out.append("Per-class tables (`observation_distance`, `attack`, `defence`, `infantry_fire`) also take a "
               "rank-specific key `class:rank` (e.g. `officer:lieutenant`), preferred over the class's entry. "
               "`infantry_fire` gives a fighter's fire distance with his class's own small arm by posture "
               "(`null`: he cannot fire in that posture) and prevails over `fire_distance`. The app builds these tables, "
               "`scout_observation` and `smoke_min_gun_class` from its game-data tables (`battles.gamedata`), "
               "not from rules settings.\n")
    out.append("| key | gap |")
    out.append("|---|---|")
    for key in sorted(PLACEHOLDERS):
        out.append(f"| `{key}` | {PLACEHOLDERS[key]} |")
    out.append("\n## Readings adopted (catalog `reading:`)\n")
    out.append("| key | reading |")
    out.append("|---|---|")
    for key in sorted(READINGS):
        out.append(f"| `{key}` | {READINGS[key]} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # pragma: no cover
    import battles.engine  # noqa: F401  (registers the event types: this module may run as a script)

    print(render(sys.argv[1] if len(sys.argv) > 1 else "v11.2"), end="")
