"""Roster pricing and validation: pure Python, no Django (import-linter holds
it to that, ``.importlinter``).

``validate(spec, rules)`` prices a roster and returns *every* violation of the
catalog's ``roster`` rules at once; ``officers_missing`` lists the commanders
the builder offers. This package's names are its interface; the modules split
it by job:

- ``specs``: game data, a roster and a report as frozen dataclasses, and the
  vocabularies the rules read (ranks, unit and vehicle kinds);
- ``v11``: the v11.2 roster rules (pricing, structure, squads, groups, crews);
- ``fow``: the Flames of War roster rules;
- ``validation``: the entry points.
"""
from .fow import FOW_NOT_IN_SEEDS, FOW_PLATOON_KINDS, FOW_TEAM_KINDS
from .specs import (
    ARMOURED,
    GUN_TYPES,
    RANK_LEVEL,
    RANK_RU,
    RANKS,
    SENIOR,
    SQUAD_KINDS,
    UNIT_KINDS,
    VEHICLE_KINDS,
    ClassData,
    FighterSpec,
    FowTeamData,
    FowTeamSpec,
    OptionData,
    Report,
    RosterSpec,
    Rules,
    UnitSpec,
    VehicleSpec,
    Violation,
    class_for_value,
)
from .v11 import ALLOWED_PARENTS, GROUP_CATEGORY, SQUAD_MAXIMA
from .validation import OfficerNeed, officers_missing, validate

__all__ = [
    "ALLOWED_PARENTS", "ARMOURED", "FOW_NOT_IN_SEEDS", "FOW_PLATOON_KINDS", "FOW_TEAM_KINDS", "GROUP_CATEGORY",
    "GUN_TYPES", "RANKS", "RANK_LEVEL", "RANK_RU", "SENIOR", "SQUAD_KINDS", "SQUAD_MAXIMA", "UNIT_KINDS",
    "VEHICLE_KINDS", "ClassData", "FighterSpec", "FowTeamData", "FowTeamSpec", "OfficerNeed", "OptionData", "Report",
    "RosterSpec", "Rules", "UnitSpec", "VehicleSpec", "Violation", "class_for_value", "officers_missing", "validate",
]
