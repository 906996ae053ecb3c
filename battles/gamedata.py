"""One source of game data: the engine's rules keys built from the game-data
tables the game master edits for the roster builder (issue 8, section 1).

The infantry table (``rosters.InfantryClass``, catalog gap G-1; fire distances
G-3) and the roster rules (``rosters.RosterRules``) are the only copy of these
numbers. ``game_data_rules`` maps them onto the engine's rules-data keys, and
``battles.selectors.rules_settings`` lays them over the ``RulesSetting`` rows,
which may not hold a key owned here (``RulesSetting.clean`` refuses one; an old
row for it is ignored and the admin shows it as superseded). A battle keeps the
mapping it was started under (``Battle.rules``), so an edit never changes a
battle in play or its replay.

Audit of ``battles.engine.rules_data.DEFAULT_RULES`` against ``rosters.models``
(what exists in both places, now owned by the game data):

- ``observation_distance`` <- ``InfantryClass.observation_in`` (V-CMD-9, G-1)
- ``scout_observation`` <- the scout row's ``observation_in`` (V-SCOUT-2)
- ``attack`` / ``defence`` <- ``InfantryClass.attack`` / ``.defence`` (G-1, G-2)
- ``infantry_fire`` <- ``InfantryClass.fire_dug_in/_march/_recon/_assault``
  (V-CMD-11, G-3; an empty distance means the class cannot fire in that posture)
- ``smoke_min_gun_class`` <- ``RosterRules.smoke_min_gun_class`` (V-SMOKE-1)

Not unified, because the other side has no such number: ``fire_distance``
stays the engine's range per weapon (vehicles' and guns' weapons, the grenade,
a rifle fired by a class whose own arm is another); the class costs, armour and
gun class costs and calibre/armour mappings (G-5, G-6) only price a roster:
the engine receives each vehicle's classes in ``force_mustered``.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from rosters.models import InfantryClass, RosterRules

POSTURE_FIELDS = {"dug_in": "fire_dug_in", "march": "fire_march", "recon": "fire_recon", "assault": "fire_assault"}
INFANTRY_ADMIN = "admin:rosters_infantryclass_changelist"
ROSTER_RULES_ADMIN = "admin:rosters_rosterrules_changelist"
INFANTRY_TABLE = _("the infantry classes (Rosters › Infantry classes)")
ROSTER_RULES = _("the roster rules (Rosters › Roster rules)")

# key -> (what it is, where the game master edits it, that admin page's URL name)
OWNED_KEYS: dict[str, tuple[Any, Any, str]] = {
    "observation_distance": (_("observation distance of each infantry class and officer rank"),
                             INFANTRY_TABLE, INFANTRY_ADMIN),
    "scout_observation": (_("the scout's observation distance"), INFANTRY_TABLE, INFANTRY_ADMIN),
    "attack": (_("attack of each infantry class and officer rank"), INFANTRY_TABLE, INFANTRY_ADMIN),
    "defence": (_("defence of each infantry class and officer rank"), INFANTRY_TABLE, INFANTRY_ADMIN),
    "infantry_fire": (_("fire distance of each infantry class and officer rank by posture"),
                      INFANTRY_TABLE, INFANTRY_ADMIN),
    "smoke_min_gun_class": (_("smallest gun class with smoke rounds"), ROSTER_RULES, ROSTER_RULES_ADMIN),
}

_ROW_FIELDS = ("engine_class", "rank", "observation_in", "attack", "defence", *POSTURE_FIELDS.values())


def game_data_rules() -> dict[str, Any]:
    """The engine's rules keys in ``OWNED_KEYS`` from the game data (2 queries).

    Several rows may map to one engine class: corporal..captain are all
    ``officer``. A row with a rank gives the rank-specific entry
    ``"<class>:<rank>"``, which the engine prefers (``rules.common.class_entry``);
    the class's own entry comes from its first row without a rank, else from
    its first row, in the table's order. Engine classes no row maps to keep the
    engine's defaults.
    """
    rows = list(InfantryClass.objects.order_by("position", "id").values_list(*_ROW_FIELDS))
    observation: dict[str, float] = {}
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}
    fire: dict[str, dict[str, float | None]] = {}

    def put(key: str, row: tuple[Any, ...]) -> None:
        _cls, _rank, obs, att, dfc, *distances = row
        observation.setdefault(key, float(obs))  # V-CMD-9, G-1
        attack.setdefault(key, att)  # G-1, G-2
        defence.setdefault(key, dfc)
        # V-CMD-11, G-3: None = the class does not fire in this posture
        fire.setdefault(key, {p: (None if d is None else float(d)) for p, d in zip(POSTURE_FIELDS, distances, strict=True)})

    for row in rows:
        if row[1]:
            put(f"{row[0]}:{row[1]}", row)
    for row in sorted(rows, key=lambda r: bool(r[1])):  # stable: unranked rows first, each in table order
        put(row[0], row)
    out: dict[str, Any] = {"observation_distance": observation, "attack": attack, "defence": defence,
                           "infantry_fire": fire}
    if "scout" in observation:
        out["scout_observation"] = observation["scout"]  # V-SCOUT-2: the scout's row of the table
    smoke = RosterRules.objects.order_by("pk").values_list("smoke_min_gun_class", flat=True).first()
    out["smoke_min_gun_class"] = smoke if smoke is not None else RosterRules._meta.get_field(
        "smoke_min_gun_class").default  # V-SMOKE-1
    return out


def owned_key_error(key: str) -> Any:
    """Why ``key`` may not be a rules setting, naming where to edit it (translated)."""
    what, where, _url = OWNED_KEYS[key]
    return _("“%(key)s” (%(what)s) comes from the game data: edit it in %(where)s; "
             "the battle engine reads it from there.") % {"key": key, "what": what, "where": where}
