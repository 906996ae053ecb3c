"""Small builders for roster specs used by the validator tests (no database): v11.2 units, fighters
and vehicles (``Build``), Flames of War platoons of teams (``fow_report``), and the checks every
report line must pass."""
from __future__ import annotations

import itertools
import re

from rosters import domain

CLASSES = {
    code: domain.ClassData(code, category, rank, cost)
    for code, category, rank, cost in [
        ("rifleman", "rifleman", "", 1), ("sniper", "sniper", "", 1), ("light_mg", "mg", "", 1),
        ("heavy_mg", "mg", "", 1), ("scout", "scout", "", 1), ("sapper", "sapper", "", 1),
        ("medic", "medic", "", 1), ("at_grenadier", "at_grenadier", "", 1),
        ("flamethrower", "flamethrower", "", 1), ("radio_operator", "radio", "", 1),
        ("personnel", "personnel", "", 1), ("corporal", "officer", "corporal", 1),
        ("sergeant", "officer", "sergeant", 1), ("lieutenant", "officer", "lieutenant", 2),
        ("captain", "officer", "captain", 3),
    ]
}
OPTIONS = {
    "spotter": domain.OptionData("spotter", "any", 2),
    "tractor": domain.OptionData("tractor", "vehicle", 2),
    "mine_trawl": domain.OptionData("mine_trawl", "vehicle", 2),
    "aa_at_fire": domain.OptionData("aa_at_fire", "aa_gun", 2),
}
UPGRADES = {f"u{n}": n for n in range(0, 10)}
_ids = itertools.count(1)


def rules(**overrides) -> domain.Rules:
    return domain.Rules(classes=CLASSES, armour_cost={n: n for n in range(1, 7)},
                        gun_cost={n: n for n in range(1, 7)}, options=OPTIONS, upgrades=UPGRADES, **overrides)


class Build:
    """Accumulates units, vehicles and fighters; ``spec()`` freezes them."""

    def __init__(self, side: str = "", in_campaign: bool = False) -> None:
        self.units: list[domain.UnitSpec] = []
        self.vehicles: list[domain.VehicleSpec] = []
        self.fighters: list[domain.FighterSpec] = []
        self.side, self.in_campaign = side, in_campaign

    def unit(self, kind: str, parent: str | None = None, group_kind: str = "", upgrades=()) -> str:
        ref = f"{kind}{next(_ids)}"
        self.units.append(domain.UnitSpec(ref, kind, ref, parent, group_kind, tuple(upgrades)))
        return ref

    def add(self, cls: str, count: int = 1, unit: str | None = None, team: int | None = None,
            vehicle: str | None = None) -> None:
        self.fighters.append(domain.FighterSpec(cls, count, unit, vehicle, team))

    def vehicle(self, kind: str, unit: str | None = None, armour: int | None = 1, gun: int | None = None,
                gun_type: str = "", skirts: bool = False, options=(), crew: bool = False) -> str:
        ref = f"v{next(_ids)}"
        self.vehicles.append(domain.VehicleSpec(ref, kind, ref, unit, gun_type, armour, gun, skirts, tuple(options)))
        if crew:
            self.add("personnel", 2, unit, vehicle=ref)
            self.add("corporal", 1, unit, vehicle=ref)
        return ref

    def squad(self, parent: str | None = None, team1: int = 5, team2: int = 5, kind: str = "squad",
              upgrades=(), specials1: dict[str, int] | None = None) -> str:
        """A valid squad: sergeant + riflemen in fire team 1, corporal + riflemen in
        fire team 2. ``specials1`` replaces riflemen of team 1 with other classes."""
        ref = self.unit(kind, parent, upgrades=upgrades)
        self.add("sergeant", 1, ref, team=1)
        left = team1 - 1
        for cls, n in (specials1 or {}).items():
            self.add(cls, n, ref, team=1)
            left -= n
        if left:
            self.add("rifleman", left, ref, team=1)
        self.add("corporal", 1, ref, team=2)
        self.add("rifleman", team2 - 1, ref, team=2)
        return ref

    def group(self, kind: str = "recon", parent: str | None = None, of_kind: int = 2, others: int = 1,
              upgrades=()) -> str:
        """A tactical group: a corporal, ``of_kind`` fighters of its class, ``others`` radio/riflemen."""
        cls = {"at": "at_grenadier", "recon": "scout", "medical": "medic", "sniper": "sniper", "mg": "light_mg",
               "flame": "flamethrower"}[kind]
        ref = self.unit("tactical_group", parent, group_kind=kind, upgrades=upgrades)
        self.add("corporal", 1, ref)
        if of_kind:
            self.add(cls, of_kind, ref)
        if others:
            self.add("rifleman", others, ref)
        return ref

    def platoon(self, parent: str | None = None, squads: int = 2, **squad_kw) -> str:
        ref = self.unit("platoon", parent)
        self.add("lieutenant", 1, ref)
        for _ in range(squads):
            self.squad(ref, **squad_kw)
        return ref

    def company(self, platoons: int = 2) -> str:
        ref = self.unit("company")
        self.add("captain", 1, ref)
        for _ in range(platoons):
            self.platoon(ref)
        return ref

    def spec(self) -> domain.RosterSpec:
        return domain.RosterSpec(tuple(self.units), tuple(self.vehicles), tuple(self.fighters), self.side,
                                 self.in_campaign)

    def report(self, **rule_overrides) -> domain.Report:
        report = domain.validate(self.spec(), rules(**rule_overrides))
        for line in report.violations:
            assert_says_it_in_both_languages(line)
        return report


CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


def assert_says_it_in_both_languages(line: domain.Violation) -> None:
    """Every report line says its rule in Russian and in English (the builder shows the one of the
    reader's language), not the same text twice, not empty."""
    assert isinstance(line.message_ru, str) and CYRILLIC.search(line.message_ru), line
    assert isinstance(line.message_en, str) and line.message_en and not CYRILLIC.search(line.message_en), line


def ids(report: domain.Report, severity: str = "error") -> set[str]:
    return {v.rule_id for v in report.violations if v.severity == severity}


def motorised(vehicles: int, kinds=("tank",), extra_officers: tuple[str, ...] = ()) -> Build:
    """A motorised unit (the first unit) of ``vehicles`` crewed vehicles (2 personnel + a corporal each)
    and its extra officers; a lieutenant outside it (V-OFF-8)."""
    b = Build()
    m = b.unit("motorised")
    for i in range(vehicles):
        b.vehicle(kinds[i % len(kinds)], m, armour=2, gun=2, crew=True)
    for rank in extra_officers:
        b.add(rank, 1, m)
    b.add("lieutenant", 1)
    return b


def lines_of(report: domain.Report, rule_id: str) -> list[domain.Violation]:
    return [v for v in report.violations if v.rule_id == rule_id]


def assert_reported_on(report: domain.Report, rule_id: str, ref: str) -> None:
    """The broken rule is an error on the unit that breaks it, named (the builder names units by their
    ref), in both languages."""
    found = lines_of(report, rule_id)
    assert found, f"{rule_id} not reported"
    for v in found:
        assert (v.unit, v.unit_name, v.severity) == (ref, ref, "error"), v
        assert_says_it_in_both_languages(v)


# --- Flames of War: platoons of teams, priced with placeholder team types (G-F1, G-F3) ----------------------
FOW_TYPES = {
    "rifle": domain.FowTeamData("rifle", "infantry", "", False, 3),
    "scout": domain.FowTeamData("scout", "infantry", "recon", False, 3),
    "car": domain.FowTeamData("car", "vehicle", "recon", False, 5),
    "tank": domain.FowTeamData("tank", "tank", "", False, 10),
    "loco": domain.FowTeamData("loco", "train", "armoured_train", True, 12),
    "wagon": domain.FowTeamData("wagon", "train", "armoured_train", False, 10),
    "cossack": domain.FowTeamData("cossack", "infantry", "cavalry", False, 3),
}


def fow_rules(limit: int = 100) -> domain.Rules:
    return domain.Rules(classes={}, armour_cost={}, gun_cost={}, fow_team_types=FOW_TYPES, fow_points_limit=limit)


def fow_spec(*platoons, teams=(), **spec_kw) -> domain.RosterSpec:
    """platoons: (ref, fow_kind, parent, [(type, count)]); ``teams``: extra (type, unit, count)."""
    units = tuple(domain.UnitSpec(ref, "fow_platoon", f"Взвод {ref}", parent, fow_kind=kind)
                  for ref, kind, parent, _ in platoons)
    rows = tuple(domain.FowTeamSpec(t, ref, n) for ref, _, _, rows in platoons for t, n in rows)
    rows += tuple(domain.FowTeamSpec(t, u, n) for t, u, n in teams)
    return domain.RosterSpec(units=units, teams=rows, ruleset="fow", in_campaign=True, **spec_kw)


def fow_report(*platoons, teams=(), limit=100, **spec_kw) -> domain.Report:
    return domain.validate(fow_spec(*platoons, teams=teams, **spec_kw), fow_rules(limit))
