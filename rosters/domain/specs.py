"""The shapes of roster validation: game data, a roster, a report. Pure Python, no Django.

``rosters.selectors`` maps the ORM to these frozen dataclasses (and the JSON
import builds them directly), so the rules (``v11``, ``fow``) run the same way
on a saved roster and on an import that has not touched the database yet. The
vocabularies here (ranks, unit and vehicle kinds) are the ones the rules read.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from battles.engine.weapons import ROSTER_GUN_TYPES

RANKS = ("corporal", "sergeant", "lieutenant", "captain")
RANK_LEVEL = {r: i for i, r in enumerate(RANKS)}
RANK_RU = {"corporal": "капрал", "sergeant": "сержант", "lieutenant": "лейтенант", "captain": "капитан"}
SENIOR = ("lieutenant", "captain")  # V-OFF-7/8: may join any unit or stand alone
SQUAD_KINDS = ("squad", "hq_squad")  # G-19: an HQ squad follows the squad rules
UNIT_KINDS = ("company", "platoon", "squad", "hq_squad", "tactical_group", "motorised")
VEHICLE_KINDS = ("car", "tank", "apc", "artillery", "pillbox")  # V-VEH-1 (+ pillbox, V-BUNK-7)
ARMOURED = ("tank", "apc")
GUN_TYPES = tuple(ROSTER_GUN_TYPES)  # the engine's weapon table (V-VEH-1, V-ROCKET-1)


# --- game data ------------------------------------------------------------------
@dataclass(frozen=True)
class ClassData:
    code: str
    category: str
    rank: str
    cost: int


@dataclass(frozen=True)
class OptionData:
    code: str
    applies_to: str  # any | vehicle | aa_gun
    cost: int


@dataclass(frozen=True)
class FowTeamData:
    """A FoW team type (game data, placeholders: G-F1, G-F3)."""

    code: str
    kind: str  # infantry | gun | tank | vehicle | train
    speciality: str = ""  # F-SPEC-1: recon | armoured_train | G-F2 types
    locomotive: bool = False
    cost: int = 0


@dataclass(frozen=True)
class Rules:
    """Game data the game master edits (``RosterRules`` and the class tables).
    Defaults are the seed's numbers and the catalog's readings."""

    classes: dict[str, ClassData]
    armour_cost: dict[int, int]
    gun_cost: dict[int, int]
    options: dict[str, OptionData] = field(default_factory=dict)
    upgrades: dict[str, int] = field(default_factory=dict)
    budget_corporal: int = 8
    budget_sergeant: int = 16
    budget_lieutenant: int = 45
    budget_captain: int = 80
    attacker_bonus: int = 40
    tactical_group_budget: int = 8
    fire_team_min: int = 5
    fire_team_max: int = 7
    squad_max_men: int = 14
    squad_max_sniper: int = 1
    squad_max_mg: int = 2
    squad_max_scout: int = 2
    squad_max_officer: int = 2
    squad_max_sapper: int = 2
    squad_max_medic: int = 2
    squad_max_at_grenadier: int = 2
    squad_max_flamethrower: int = 1
    squad_max_radio: int = 1
    platoon_min_squads: int = 2
    platoon_max_squads: int = 3
    platoon_max_groups: int = 1
    company_min_platoons: int = 2
    company_max_platoons: int = 3
    company_max_groups: int = 2
    company_max_hq_squads: int = 1
    tg_min_of_kind: int = 2
    tg_max_men: int = 7
    motor_max_vehicles: int = 3
    motor_max_officers: int = 3
    motor_crew_personnel: int = 2
    motor_max_sergeants: int = 1
    squad_vehicle_max_class: int = 1
    smoke_min_gun_class: int = 3
    tg_max_includes_corporal: bool = True
    air_support_cost: int = 8  # G-8 placeholder: an air-support card costs 8 PP
    air_support_max: int = 1  # G-8 placeholder: one sortie per battle, so one card
    hq_squad_rules: str = "squad"  # G-19: an HQ squad follows the squad rules (V-SQUAD); "free": not checked
    reinforcement_group_rules: str = "tactical_group"  # G-19: a company's group is a tactical group (V-TG); or "squad"
    upgrades_per_unit: int = 1
    group_upgrade_limit: bool = True
    side_skirts_cost: int = 3
    fow_team_types: dict[str, FowTeamData] = field(default_factory=dict)
    fow_points_limit: int = 100

    def budget_for(self, rank: str) -> int:
        return getattr(self, f"budget_{rank}")


# --- a roster ---------------------------------------------------------------------
@dataclass(frozen=True)
class UnitSpec:
    ref: str
    kind: str
    name: str = ""
    parent: str | None = None
    group_kind: str = ""
    upgrades: tuple[str, ...] = ()
    fow_kind: str = ""  # FoW platoons: infantry | gun | tank | recon | armoured_train | independent | other


@dataclass(frozen=True)
class VehicleSpec:
    ref: str
    kind: str
    name: str = ""
    unit: str | None = None
    gun_type: str = ""
    armour_class: int | None = 1
    gun_class: int | None = None
    side_skirts: bool = False
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class FighterSpec:
    cls: str
    count: int = 1
    unit: str | None = None
    vehicle: str | None = None
    fire_team: int | None = None
    ref: str = ""


@dataclass(frozen=True)
class FowTeamSpec:
    """``count`` FoW teams of one type in one FoW platoon."""

    type: str
    unit: str
    count: int = 1
    ref: str = ""


@dataclass(frozen=True)
class RosterSpec:
    units: tuple[UnitSpec, ...] = ()
    vehicles: tuple[VehicleSpec, ...] = ()
    fighters: tuple[FighterSpec, ...] = ()
    side: str = ""
    in_campaign: bool = False
    ruleset: str = "v11.2"  # the campaign's: "fow" validates by the FoW roster rules
    teams: tuple[FowTeamSpec, ...] = ()
    air_support: int = 0  # air-support cards bought (V-FORM-2, G-8)


@dataclass(frozen=True)
class Violation:
    rule_id: str
    message_ru: str
    message_en: str
    unit: str | None = None  # a unit ref, "vehicle:<ref>", or None for the whole roster
    unit_name: str = ""
    severity: str = "error"

    def as_dict(self) -> dict:
        return {"rule_id": self.rule_id, "unit": self.unit, "unit_name": self.unit_name, "severity": self.severity,
                "message_ru": self.message_ru, "message_en": self.message_en}


@dataclass
class Report:
    total: int
    budget: int
    senior_rank: str | None
    violations: list[Violation]
    unit_costs: dict[str, int]
    vehicle_costs: dict[str, int]
    smoke: dict[str, bool]  # V-SMOKE-1, by unit ref and "vehicle:<ref>"

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def for_unit(self, ref: str | None) -> list[Violation]:
        return [v for v in self.violations if v.unit == ref]


def class_for_value(value: int, thresholds: dict[int, int], *, upper: bool) -> int | None:
    """V-VEH-4 / G-6: the suggested class for an armour thickness (``upper=False``:
    thresholds are each class's lower bound) or a calibre (``upper=True``: each
    class's upper bound, None = no bound)."""
    if upper:
        for number in sorted(thresholds):
            bound = thresholds[number]
            if bound is None or value <= bound:
                return number
        return None
    found = None
    for number in sorted(thresholds):
        if value >= thresholds[number]:
            found = number
    return found
