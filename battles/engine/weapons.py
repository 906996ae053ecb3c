"""One table of what each v11.2 weapon is and can do, read by the engine's
rules and by the roster validator alike (``rosters.domain`` imports it; the
engine never imports rosters).

* ``HOWITZERS``: every howitzer type, and the rocket mortar, which has the
  characteristics of a howitzer (V-ROCKET-1).
* Smoke (V-SMOKE-1): every howitzer (so the rocket mortar too) and every
  mortar; a gun (vehicle-mounted guns included) of class 3 or higher except an
  AT gun. An AA gun is a gun (V-AA-4: it has a class by calibre); an AA
  autocannon is a heavy MG (V-AA-5), not a gun, so it has none.
* ``ROSTER_GUN_TYPES``: the roster's gun types and the engine weapon each
  musters as (``roster_weapon``).

Pure Python, no Django.
"""
from __future__ import annotations

HOWITZERS = frozenset({"howitzer", "tank_howitzer", "heavy_howitzer", "heavy_tank_howitzer", "infantry_howitzer",
                       "rocket_mortar"})
MORTARS = frozenset({"mortar"})
SMOKE_ALWAYS = HOWITZERS | MORTARS  # V-SMOKE-1: every howitzer and every mortar, whatever its class
SMOKE_BY_CLASS = frozenset({"gun", "aa_gun"})  # V-SMOKE-1: guns of class 3+, except AT guns (and not MGs)
AA_WEAPONS = frozenset({"aa_gun", "aa_autocannon"})  # V-AA-2: the only weapons that fire at aircraft

# roster gun type -> engine weapon ("" = the vehicle's standard gun, or none)
ROSTER_GUN_TYPES = {
    "": "gun", "at": "at_gun", "aa": "aa_gun", "aa_autocannon": "aa_autocannon", "howitzer": "howitzer",
    "mortar": "mortar", "rocket_mortar": "rocket_mortar",
}


def roster_weapon(kind: str, gun_type: str, gun_class: int | None) -> str:
    """The engine's main weapon for a roster vehicle's gun type and kind (a
    tank's howitzer is a ``tank_howitzer``; no type and no gun class: none)."""
    if gun_type == "howitzer" and kind == "tank":
        return "tank_howitzer"
    if not gun_type:
        return "gun" if gun_class else "none"
    return ROSTER_GUN_TYPES.get(gun_type, "none")


def has_smoke(weapon: str, gun_class: int | None, min_gun_class: int) -> bool:
    """V-SMOKE-1 for a piece's main weapon (``min_gun_class``: rules data
    ``smoke_min_gun_class``, 3 in the seed)."""
    if weapon in SMOKE_ALWAYS:
        return True
    return weapon in SMOKE_BY_CLASS and gun_class is not None and gun_class >= min_gun_class
