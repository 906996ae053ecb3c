"""Reads of game data and rosters, each at a fixed query count whatever the
roster's size, and the mapping from the ORM to ``rosters.domain``."""
from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Prefetch, QuerySet

from battles.engine.terms import term
from campaign.models import Campaign
from campaign.roles import is_game_master

from . import domain
from .models import (
    ArmourClass,
    Fighter,
    FowTeam,
    FowTeamType,
    GameDataVersion,
    GunClass,
    InfantryClass,
    Roster,
    RosterRules,
    Status,
    Unit,
    Upgrade,
    Vehicle,
    VehicleOption,
)

RULE_FIELDS = [f for f in domain.Rules.__dataclass_fields__ if f not in
               {"classes", "armour_cost", "gun_cost", "options", "upgrades", "fow_team_types"}]
# What roster pages read of battles: "holders" (a queryset of the participations that lock a roster)
# and "fought" (an expression for a roster's queryset: it was brought to a battle). battles, the app
# above rosters, installs them at start-up (battles.apps); rosters may not import it (.importlinter).
BATTLE_READS: dict[str, Callable[[], Any]] = {}
EXPORT_FORMAT = "shtab-roster"
EXPORT_VERSION = 1


@dataclass
class GameData:
    """Everything a roster page needs from the game data, loaded in 8 queries."""

    rules: domain.Rules
    version: GameDataVersion | None
    classes: list[InfantryClass]
    armour: list[ArmourClass]
    guns: list[GunClass]
    options: list[VehicleOption]
    upgrades: list[Upgrade]
    fow_team_types: list[FowTeamType]


def game_data_current() -> GameData:
    row = RosterRules.objects.order_by("pk").first() or RosterRules()
    classes = list(InfantryClass.objects.all())
    armour = list(ArmourClass.objects.all())
    guns = list(GunClass.objects.all())
    options = list(VehicleOption.objects.all())
    upgrades = list(Upgrade.objects.all())
    fow_types = list(FowTeamType.objects.all())
    rules = domain.Rules(
        classes={c.code: domain.ClassData(c.code, c.category, c.rank, c.cost) for c in classes},
        armour_cost={a.number: a.cost for a in armour},
        gun_cost={g.number: g.cost for g in guns},
        options={o.code: domain.OptionData(o.code, o.applies_to, o.cost) for o in options},
        upgrades={u.code: u.cost for u in upgrades},
        fow_team_types={t.code: domain.FowTeamData(t.code, t.kind, t.speciality, t.locomotive, t.cost)
                        for t in fow_types},
        **{name: getattr(row, name) for name in RULE_FIELDS},
    )
    return GameData(rules, GameDataVersion.objects.order_by("-pk").first(), classes, armour, guns, options, upgrades,
                    fow_types)


_rules_cache: dict[str, Any] = {"key": None, "rules": None}


def game_rules_cache_clear(**kwargs: Any) -> None:
    """Connected to saves and deletes of game data (rosters.apps)."""
    _rules_cache.update(key=None, rules=None)


def game_rules_current() -> domain.Rules:
    """Only the rules (no model instances): the fast path of ``roster_validate``.

    Outside a transaction the rules are kept per game-data version (1 query
    when nothing changed). Every change of game data goes through
    ``services.game_data_row_save``/``_delete``, which records a new version,
    so other processes see it; in this process any save clears the cache too.
    Inside a transaction (every service, every test) they are always read
    fresh (6 queries), so a write never validates against stale data.
    """
    if connection.in_atomic_block:
        return _rules_load()
    version = GameDataVersion.objects.order_by("-pk").values_list("pk", "created_at").first()
    if version is not None and _rules_cache["key"] == version:
        return _rules_cache["rules"]
    rules = _rules_load()
    _rules_cache.update(key=version, rules=rules)
    return rules


def _rules_load() -> domain.Rules:
    row = RosterRules.objects.order_by("pk").values(*RULE_FIELDS).first() or {
        name: RosterRules._meta.get_field(name).default for name in RULE_FIELDS}
    return domain.Rules(
        classes={code: domain.ClassData(code, category, rank, cost) for code, category, rank, cost in
                 InfantryClass.objects.order_by().values_list("code", "category", "rank", "cost")},
        armour_cost=dict(ArmourClass.objects.order_by().values_list("number", "cost")),
        gun_cost=dict(GunClass.objects.order_by().values_list("number", "cost")),
        options={code: domain.OptionData(code, applies_to, cost) for code, applies_to, cost in
                 VehicleOption.objects.order_by().values_list("code", "applies_to", "cost")},
        upgrades=dict(Upgrade.objects.order_by().values_list("code", "cost")),
        fow_team_types={code: domain.FowTeamData(code, kind, spec, loco, cost) for code, kind, spec, loco, cost in
                        FowTeamType.objects.order_by().values_list("code", "kind", "speciality", "locomotive",
                                                                   "cost")},
        **row,
    )


def game_data_version_current() -> GameDataVersion | None:
    return GameDataVersion.objects.order_by("-pk").first()


def rosters_visible(*, user: Any) -> QuerySet[Roster]:
    """The rosters a user may work on: players their own; the game master all."""
    qs = Roster.objects.select_related("owner", "character", "campaign")
    if is_game_master(user):
        return qs
    if not getattr(user, "is_authenticated", False):
        return qs.none()
    return qs.filter(owner=user)


def roster_holders() -> QuerySet:
    """The participations that lock a roster: mustered into a battle that has
    not ended, the latest first (``battles.setup.selectors.roster_holders``,
    installed in ``BATTLE_READS``)."""
    return BATTLE_READS["holders"]()


def roster_locked_by(*, roster: Roster, besides: int | None = None) -> Any:
    """The running battle that holds a locked roster (other than ``besides``),
    or None: a roster that is not locked costs no query, a locked one 1; a
    roster the game master locked by hand has none."""
    if roster.status != Status.LOCKED:
        return None
    holders = roster_holders().filter(roster_id=roster.pk).select_related("battle")
    if besides is not None:
        holders = holders.exclude(battle_id=besides)
    holder = holders.first()
    return holder.battle if holder is not None else None


def roster_battle_names(*, rosters: Any) -> list[str]:
    """The battles ``rosters`` were picked for (a participant's roster), by name in battle order:
    what keeps them from being deleted."""
    return list(Roster.objects.filter(pk__in=[getattr(r, "pk", r) for r in rosters], participations__isnull=False)
                .order_by("participations__battle_id").values_list("participations__battle__name", flat=True)
                .distinct())


def roster_readable(*, user: Any, roster_id: int, share: str = "") -> Roster | None:
    """The one rule for who may READ a roster (its page, its JSON and its
    cards): its owner and the game master; anyone once it has fought in a
    battle (a battle participant brought it: its force is public in the log);
    anyone holding its share link while the owner keeps sharing on. None for
    everyone else, who learns nothing (404). One query."""
    roster = (Roster.objects.select_related("owner", "character", "campaign")
              .annotate(fought=BATTLE_READS["fought"]())
              .filter(pk=roster_id).first())
    if roster is None:
        return None
    if is_game_master(user) or (getattr(user, "is_authenticated", False) and roster.owner_id == user.pk):
        return roster
    if roster.fought:
        return roster
    if share and roster.share_token and secrets.compare_digest(share.encode(), roster.share_token.encode()):
        return roster
    return None


@dataclass
class UnitRemoval:
    """What removing a unit takes with it, for the question asked first."""

    unit: Unit
    sub_units: list[Unit]
    fighters: int
    vehicles: list[Vehicle]
    teams: int


def unit_removal_summary(*, unit: Unit) -> UnitRemoval:
    """The unit's sub-units (all levels), the fighters in it and its sub-units
    (vehicle crews included), its vehicles and FoW teams, in 4 queries."""
    units = list(Unit.objects.filter(roster_id=unit.roster_id).only("pk", "parent_id", "name", "kind", "position"))
    children: dict[int | None, list[Unit]] = defaultdict(list)
    for u in units:
        children[u.parent_id].append(u)
    sub, stack = [], list(children[unit.pk])
    while stack:
        u = stack.pop(0)
        sub.append(u)
        stack[:0] = children[u.pk]
    ids = [unit.pk, *(u.pk for u in sub)]
    vehicles = list(Vehicle.objects.filter(unit_id__in=ids).order_by("position", "id"))
    fighters = sum(Fighter.objects.filter(unit_id__in=ids).values_list("count", flat=True))
    teams = sum(FowTeam.objects.filter(unit_id__in=ids).values_list("count", flat=True))
    return UnitRemoval(unit=unit, sub_units=sub, fighters=fighters, vehicles=vehicles, teams=teams)


def unit_places(*, unit: Unit) -> list[Unit]:
    """The units of its roster this unit may be moved under (not itself nor its
    parts); the rules are checked by ``services.unit_move``."""
    units = list(Unit.objects.filter(roster_id=unit.roster_id).order_by("position", "id"))
    parents = {u.pk: u.parent_id for u in units}

    def inside(pk: int | None) -> bool:
        while pk is not None:
            if pk == unit.pk:
                return True
            pk = parents.get(pk)
        return False

    return [u for u in units if not inside(u.pk)]


@dataclass
class RosterTree:
    """A roster with its units, vehicles and fighters, loaded in a fixed number
    of queries (1 roster + 3 parts + 2 many-to-many)."""

    roster: Roster
    units: list[Unit]
    vehicles: list[Vehicle]
    fighters: list[Fighter]
    teams: list[FowTeam] = field(default_factory=list)  # FoW rosters only

    @property
    def ruleset(self) -> str:
        return self.roster.campaign.ruleset if self.roster.campaign_id else "v11.2"

    def spec(self) -> domain.RosterSpec:
        return domain.RosterSpec(
            units=tuple(domain.UnitSpec(str(u.pk), u.kind, u.name, str(u.parent_id) if u.parent_id else None,
                                        u.group_kind, tuple(x.code for x in u.upgrades.all()), u.fow_kind)
                        for u in self.units),
            vehicles=tuple(domain.VehicleSpec(str(v.pk), v.kind, v.name, str(v.unit_id) if v.unit_id else None,
                                              v.gun_type, v.armour_class, v.gun_class, v.side_skirts,
                                              tuple(o.code for o in v.options.all())) for v in self.vehicles),
            fighters=tuple(domain.FighterSpec(f.infantry_class.code, f.count,
                                              str(f.unit_id) if f.unit_id else None,
                                              str(f.vehicle_id) if f.vehicle_id else None, f.fire_team, str(f.pk))
                           for f in self.fighters),
            side=self.roster.side,
            in_campaign=self.roster.campaign_id is not None,
            ruleset=self.ruleset,
            teams=tuple(domain.FowTeamSpec(t.team_type.code, str(t.unit_id), t.count, str(t.pk)) for t in self.teams),
            air_support=self.roster.air_support_cards,
        )


def roster_tree(*, roster_id: int) -> RosterTree:
    roster = Roster.objects.select_related("owner", "character__nationality", "campaign",
                                           "priced_version").get(pk=roster_id)
    units = list(Unit.objects.filter(roster_id=roster_id).prefetch_related(
        Prefetch("upgrades", queryset=Upgrade.objects.only("id", "code", "name_ru", "name_en"))))
    vehicles = list(Vehicle.objects.filter(roster_id=roster_id).prefetch_related(
        Prefetch("options", queryset=VehicleOption.objects.only("id", "code", "name_ru", "name_en"))))
    fighters = list(Fighter.objects.filter(roster_id=roster_id).select_related("infantry_class"))
    tree = RosterTree(roster, units, vehicles, fighters)
    if tree.ruleset == "fow" or any(u.kind == "fow_platoon" for u in units):  # one more query, FoW rosters only
        tree.teams = list(FowTeam.objects.filter(roster_id=roster_id).select_related("team_type"))
    return tree


def roster_report(*, tree: RosterTree, game: GameData | None = None) -> domain.Report:
    """V-TURN-1: price and validate with the current game data."""
    game = game or game_data_current()
    return domain.validate(tree.spec(), game.rules)


def _spec_sql() -> dict[str, str]:
    """Six plain SELECTs, built once from the models' table and column names
    (portable between SQLite and PostgreSQL). ``{ids}`` takes the placeholders."""
    t = {m.__name__: m._meta.db_table for m in (Roster, Unit, Vehicle, Fighter, Upgrade, VehicleOption,
                                                InfantryClass, FowTeam, FowTeamType, Campaign)}
    unit_ups, vehicle_opts = Unit.upgrades.through._meta.db_table, Vehicle.options.through._meta.db_table
    q = connection.ops.quote_name
    return {
        "rosters": f"SELECT r.id, r.side, r.campaign_id, c.ruleset, r.air_support_cards FROM {t['Roster']} r LEFT JOIN {t['Campaign']} c "
                   f"ON c.id = r.campaign_id WHERE r.id IN ({{ids}})",
        "teams": f"SELECT x.roster_id, x.id, y.code, x.{q('count')}, x.unit_id FROM {t['FowTeam']} x "
                 f"JOIN {t['FowTeamType']} y ON y.id = x.team_type_id WHERE x.roster_id IN ({{ids}}) "
                 f"ORDER BY x.{q('position')}, x.id",
        "upgrades": f"SELECT x.unit_id, g.code FROM {unit_ups} x JOIN {t['Upgrade']} g ON g.id = x.upgrade_id "
                    f"JOIN {t['Unit']} u ON u.id = x.unit_id WHERE u.roster_id IN ({{ids}}) ORDER BY g.code",
        "options": f"SELECT x.vehicle_id, o.code FROM {vehicle_opts} x JOIN {t['VehicleOption']} o "
                   f"ON o.id = x.vehicleoption_id JOIN {t['Vehicle']} v ON v.id = x.vehicle_id "
                   f"WHERE v.roster_id IN ({{ids}}) ORDER BY o.code",
        "units": f"SELECT roster_id, id, kind, {q('name')}, parent_id, group_kind, fow_kind FROM {t['Unit']} "
                 f"WHERE roster_id IN ({{ids}}) ORDER BY {q('position')}, id",
        "vehicles": f"SELECT roster_id, id, kind, {q('name')}, unit_id, gun_type, armour_class, gun_class, "
                    f"side_skirts FROM {t['Vehicle']} WHERE roster_id IN ({{ids}}) ORDER BY {q('position')}, id",
        "fighters": f"SELECT f.roster_id, f.id, c.code, f.{q('count')}, f.unit_id, f.vehicle_id, f.fire_team "
                    f"FROM {t['Fighter']} f JOIN {t['InfantryClass']} c ON c.id = f.infantry_class_id "
                    f"WHERE f.roster_id IN ({{ids}}) ORDER BY f.{q('position')}, f.id",
    }


_SPEC_SQL: dict[str, str] = {}


def roster_specs(*, roster_ids: list[int]) -> dict[int, domain.RosterSpec]:
    """Rosters as plain values, 6 queries for any number of rosters: the fast
    path of ``roster_validate`` and of roster lists. Plain SQL because the ORM's
    query building cost more than the queries themselves on this hot path."""
    if not roster_ids:
        return {}
    if not _SPEC_SQL:
        _SPEC_SQL.update(_spec_sql())
    ids = [int(pk) for pk in roster_ids]
    marks = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        def rows(name: str) -> list[tuple]:
            cursor.execute(_SPEC_SQL[name].format(ids=marks), ids)
            return cursor.fetchall()

        heads = {pk: (side, campaign_id, ruleset or "v11.2", air) for pk, side, campaign_id, ruleset, air
                 in rows("rosters")}
        ups: dict[int, list[str]] = defaultdict(list)
        for unit_id, code in rows("upgrades"):
            ups[unit_id].append(code)
        opts: dict[int, list[str]] = defaultdict(list)
        for vehicle_id, code in rows("options"):
            opts[vehicle_id].append(code)
        parts: dict[int, tuple[list, list, list, list]] = {pk: ([], [], [], []) for pk in heads}
        s = str
        for roster_id, pk, kind, name, parent, group_kind, fow_kind in rows("units"):
            parts[roster_id][0].append(domain.UnitSpec(s(pk), kind, name, s(parent) if parent else None,
                                                       group_kind, tuple(ups.get(pk, ())), fow_kind))
        for roster_id, pk, kind, name, unit, gun_type, armour, gun, skirts in rows("vehicles"):
            parts[roster_id][1].append(domain.VehicleSpec(s(pk), kind, name, s(unit) if unit else None, gun_type,
                                                          armour, gun, bool(skirts), tuple(opts.get(pk, ()))))
        for roster_id, pk, code, count, unit, vehicle, team in rows("fighters"):
            parts[roster_id][2].append(domain.FighterSpec(code, count, s(unit) if unit else None,
                                                          s(vehicle) if vehicle else None, team, s(pk)))
        if any(head[2] == "fow" for head in heads.values()):  # FoW rosters only: one more query
            for roster_id, pk, code, count, unit in rows("teams"):
                parts[roster_id][3].append(domain.FowTeamSpec(code, s(unit), count, s(pk)))
    return {pk: domain.RosterSpec(tuple(parts[pk][0]), tuple(parts[pk][1]), tuple(parts[pk][2]), side,
                                  campaign_id is not None, ruleset, tuple(parts[pk][3]), air or 0)
            for pk, (side, campaign_id, ruleset, air) in heads.items()}


def roster_spec(*, roster_id: int) -> domain.RosterSpec:
    spec = roster_specs(roster_ids=[roster_id]).get(roster_id)
    if spec is None:
        raise Roster.DoesNotExist(f"roster {roster_id}")
    return spec


def rosters_reports(*, rosters: list[Roster], game: GameData | None = None) -> dict[int, domain.Report]:
    """Reports of many rosters at once (a list page), in a fixed number of queries."""
    rules = game.rules if game is not None else game_rules_current()
    specs = roster_specs(roster_ids=[r.pk for r in rosters])
    return {pk: domain.validate(spec, rules) for pk, spec in specs.items()}


def roster_validate(*, roster: Roster | int, game: GameData | None = None) -> domain.Report:
    """Every violation of the catalog's ``roster`` rules at once, each with its
    rule ID, the unit it concerns and a message in Russian and English, priced
    with the current game data. A fixed number of queries whatever the size."""
    roster_id = roster if isinstance(roster, int) else roster.pk
    rules = game.rules if game is not None else game_rules_current()
    return domain.validate(roster_spec(roster_id=roster_id), rules)


@dataclass(frozen=True)
class ClassCard:
    """An infantry class as the builder offers it: the numbers the game master
    edits (``InfantryClass``, G-1, G-3) in the battle page's words."""

    code: str
    name: str
    category: str
    cost: int
    engine: str
    observation: int
    fire: list[tuple[str, int | None]]  # (posture, distance; None: does not fire in it)
    attack: int
    defence: int
    is_placeholder: bool


POSTURE_FIELDS = (("dug_in", "fire_dug_in"), ("march", "fire_march"), ("recon", "fire_recon"),
                  ("assault", "fire_assault"))


def class_cards(*, classes: list[InfantryClass], nationality: Any, language: str = "ru") -> list[ClassCard]:
    """Each class's numbers, officers under the roster's national rank names (G-23). No query."""
    ru = language.startswith("ru")

    def name(c: InfantryClass) -> str:
        if c.rank and nationality is not None:
            return nationality.rank_name(c.rank, "ru" if ru else "en")
        return c.name_ru if ru else c.name_en

    return [ClassCard(c.code, name(c), c.category, c.cost, term("cls", c.engine_class, language), c.observation_in,
                      [(term("posture", p, language), getattr(c, f)) for p, f in POSTURE_FIELDS],
                      c.attack, c.defence, c.is_placeholder) for c in classes]


def roster_page(*, roster_id: int, language: str = "ru") -> dict[str, Any]:
    """The roster builder page: the unit tree with each unit's fighters,
    vehicles, cost, subtotal and violations (in ``language``), the officers
    each unit or crew still needs, and each class's numbers, in a fixed number
    of queries (6 for the roster, +1 for a FoW roster's teams, 8 for the game data)."""
    tree = roster_tree(roster_id=roster_id)
    game = game_data_current()
    report = roster_report(tree=tree, game=game)
    by_code = {c.code: c for c in game.classes}
    offers = {key: [(by_code[n.cls], n.fire_team) for n in needs if n.cls in by_code]
              for key, needs in domain.officers_missing(tree.spec(), game.rules).items()}
    ru = language.startswith("ru")
    by_unit = defaultdict(list)
    for v in report.violations:
        by_unit[v.unit].append({"rule_id": v.rule_id, "severity": v.severity,
                                "message": v.message_ru if ru else v.message_en})
    fighters_in, crew_of = defaultdict(list), defaultdict(list)
    for f in tree.fighters:
        (crew_of[f.vehicle_id] if f.vehicle_id else fighters_in[f.unit_id]).append(f)
    vehicles_in = defaultdict(list)
    for v in tree.vehicles:
        v.crew_lines = crew_of.get(v.pk, [])
        v.cost = report.vehicle_costs.get(str(v.pk), 0)
        v.violations = by_unit.get(f"vehicle:{v.pk}", [])
        v.smoke = report.smoke.get(f"vehicle:{v.pk}", False)
        v.has_error = any(x["severity"] == "error" for x in v.violations)
        v.officer_offers = offers.get(f"vehicle:{v.pk}", [])
        vehicles_in[v.unit_id].append(v)
    teams_in = defaultdict(list)
    for t in tree.teams:
        teams_in[t.unit_id].append(t)
    children = defaultdict(list)
    for u in tree.units:
        u.team_lines = teams_in.get(u.pk, [])
        u.fighter_lines = fighters_in.get(u.pk, [])
        u.vehicle_list = vehicles_in.get(u.pk, [])
        u.cost = report.unit_costs.get(str(u.pk), 0)
        u.violations = by_unit.get(str(u.pk), [])
        u.smoke = report.smoke.get(str(u.pk), False)
        u.has_error = any(x["severity"] == "error" for x in u.violations)
        u.officer_offers = offers.get(str(u.pk), [])
        u.men = sum(f.count for f in u.fighter_lines)
        children[u.parent_id].append(u)
    for u in tree.units:
        u.child_units = children.get(u.pk, [])

    def subtotal(u) -> int:
        u.subtotal = u.cost + sum(subtotal(c) for c in u.child_units)
        return u.subtotal

    for u in children.get(None, []):
        subtotal(u)
    roster = tree.roster
    cards = class_cards(classes=game.classes, nationality=roster.character.nationality, language=language)
    return {
        "roster": roster, "tree": tree, "report": report, "game": game,
        "top_units": children.get(None, []), "loose_fighters": fighters_in.get(None, []),
        "loose_vehicles": vehicles_in.get(None, []), "roster_violations": by_unit.get(None, []),
        "errors": len(report.errors), "over_budget": report.total > report.budget,
        "reprice_changes_total": report.total != roster.priced_total,
        "class_cards": cards, "crew_cards": [c for c in cards if c.category in ("personnel", "officer")],
        # the side by its name in the roster's campaign («РККА»), not the word «обороняющиеся»
        "side_name": (roster.campaign.side_name(roster.side) if roster.campaign_id else roster.get_side_display())
        if roster.side else "",
        "stale_version": game.version is not None and roster.priced_version_id != game.version.pk,
    }


def roster_export(*, tree: RosterTree) -> dict[str, Any]:
    """The JSON export; ``rosters.services.roster_import`` reads it back."""
    r = tree.roster
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": r.name,
        "side": r.side,
        "game_data_version": r.priced_version_id,
        "priced_total": r.priced_total,
        "air_support_cards": r.air_support_cards,
        "units": [{"ref": f"u{u.pk}", "kind": u.kind, "name": u.name,
                   "parent": f"u{u.parent_id}" if u.parent_id else None, "group_kind": u.group_kind,
                   "fow_kind": u.fow_kind, "upgrades": [x.code for x in u.upgrades.all()]} for u in tree.units],
        "vehicles": [{"ref": f"v{v.pk}", "kind": v.kind, "name": v.name,
                      "unit": f"u{v.unit_id}" if v.unit_id else None, "gun_type": v.gun_type,
                      "armour_class": v.armour_class, "gun_class": v.gun_class, "side_skirts": v.side_skirts,
                      "options": [o.code for o in v.options.all()]} for v in tree.vehicles],
        "fighters": [{"class": f.infantry_class.code, "count": f.count,
                      "unit": f"u{f.unit_id}" if f.unit_id else None,
                      "vehicle": f"v{f.vehicle_id}" if f.vehicle_id else None,
                      "fire_team": f.fire_team} for f in tree.fighters],
        "teams": [{"type": t.team_type.code, "count": t.count, "unit": f"u{t.unit_id}"} for t in tree.teams],
    }
