"""Copy and import: ``roster_duplicate`` and ``roster_import`` (the JSON export
read back, every problem listed before anything is written)."""
from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.models import Campaign, Character
from campaign.roles import is_game_master
from config import inputs
from config.errors import Forbidden, InvalidInput
from rosters import domain, selectors
from rosters.models import Fighter, FowPlatoonKind, FowTeam, GroupKind, Roster, Side, Unit, UnitKind, Vehicle

from .common import _campaign_side, _reprice


@transaction.atomic
def roster_duplicate(*, user: Any, roster: Roster, name: str | None = None) -> Roster:
    if roster.owner_id != getattr(user, "pk", None) and not is_game_master(user):
        raise Forbidden("Можно копировать только свои составы.", "You may copy only your own rosters.")
    data = selectors.roster_export(tree=selectors.roster_tree(roster_id=roster.pk))
    data["name"] = name or f"{roster.name} (копия)"
    copy, _report = roster_import(user=user, character=roster.character, data=data, campaign=roster.campaign)
    return copy


def _problem(problems: list[dict[str, str]], where: str, ru: str, en: str) -> None:
    problems.append({"field": where, "message_ru": f"{where}: {ru}", "message_en": f"{where}: {en}"})


def _parse_import(data: Any) -> tuple[domain.RosterSpec, list[dict[str, str]]]:
    """Check the JSON shape and every reference before anything is written."""
    problems: list[dict[str, str]] = []
    found = inputs.find_bad(data, max_depth=inputs.MAX_BODY_DEPTH)  # text the database cannot store
    if found is not None:
        where = found[0] or "data"
        if found[1] == "depth":
            _problem(problems, where, "слишком глубокая вложенность", "nested too deep")
        else:
            _problem(problems, where, "недопустимый символ (NUL или одиночный суррогат)",
                     "a character that is not allowed (NUL or a lone surrogate)")
        return domain.RosterSpec(), problems
    if not isinstance(data, dict) or data.get("format") != selectors.EXPORT_FORMAT:
        _problem(problems, "format", f"ожидается «{selectors.EXPORT_FORMAT}»", f"expected '{selectors.EXPORT_FORMAT}'")
        return domain.RosterSpec(), problems
    if data.get("version") != selectors.EXPORT_VERSION:
        _problem(problems, "version", "неизвестная версия формата", "unknown format version")
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        _problem(problems, "name", "нужно название", "a name is required")
    side = data.get("side", "")
    if side not in ("", *Side.values):
        _problem(problems, "side", "неизвестная сторона", "unknown side")
    units, vehicles, fighters, teams = [], [], [], []
    raw_units = data.get("units", [])
    raw_vehicles = data.get("vehicles", [])
    raw_fighters = data.get("fighters", [])
    raw_teams = data.get("teams", [])  # FoW platoons' teams (absent from older and v11.2 exports)
    for key, value in (("units", raw_units), ("vehicles", raw_vehicles), ("fighters", raw_fighters),
                       ("teams", raw_teams)):
        if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
            _problem(problems, key, "ожидается список объектов", "expected a list of objects")
            return domain.RosterSpec(), problems
    unit_refs = [u.get("ref") for u in raw_units]
    vehicle_refs = [v.get("ref") for v in raw_vehicles]
    for i, u in enumerate(raw_units):
        where = f"units[{i}]"
        if not isinstance(u.get("ref"), str) or unit_refs.count(u["ref"]) > 1:
            _problem(problems, where, "нужен уникальный ref", "a unique ref is required")
        if u.get("kind") not in UnitKind.values:
            _problem(problems, where, "неизвестный вид подразделения", "unknown unit type")
        if (u.get("group_kind") or "") not in ("", *GroupKind.values):
            _problem(problems, where, "неизвестный вид группы", "unknown group type")
        fow_kind = u.get("fow_kind") or ""
        if u.get("kind") == UnitKind.FOW_PLATOON and fow_kind not in FowPlatoonKind.values:
            _problem(problems, where, "неизвестный тип взвода FoW (fow_kind)", "unknown FoW platoon type (fow_kind)")
        if u.get("kind") != UnitKind.FOW_PLATOON and fow_kind:
            _problem(problems, where, "fow_kind только у взвода FoW", "fow_kind belongs only to a FoW platoon")
        if u.get("parent") is not None and (u["parent"] not in unit_refs or u["parent"] == u.get("ref")):
            _problem(problems, where, "неизвестный parent", "unknown parent")
        ups = u.get("upgrades", [])
        if not isinstance(ups, list) or not all(isinstance(x, str) for x in ups):
            _problem(problems, where, "upgrades — список кодов", "upgrades must be a list of codes")
            ups = []
        units.append(domain.UnitSpec(str(u.get("ref")), str(u.get("kind")), str(u.get("name") or "")[:200],
                                     u.get("parent"), str(u.get("group_kind") or ""), tuple(ups), str(fow_kind)))
    for i, v in enumerate(raw_vehicles):
        where = f"vehicles[{i}]"
        if not isinstance(v.get("ref"), str) or vehicle_refs.count(v["ref"]) > 1:
            _problem(problems, where, "нужен уникальный ref", "a unique ref is required")
        if v.get("unit") is not None and v["unit"] not in unit_refs:
            _problem(problems, where, "неизвестный unit", "unknown unit")
        ac, gc = v.get("armour_class", 1), v.get("gun_class")
        if not (isinstance(ac, int) and not isinstance(ac, bool) and 1 <= ac <= 99) or not (
                gc is None or (isinstance(gc, int) and not isinstance(gc, bool) and 1 <= gc <= 99)):
            _problem(problems, where, "класс брони/орудия — целое 1…99", "armour/gun class must be an integer 1…99")
            ac, gc = 1, None
        opts = v.get("options", [])
        if not isinstance(opts, list) or not all(isinstance(x, str) for x in opts):
            _problem(problems, where, "options — список кодов", "options must be a list of codes")
            opts = []
        vehicles.append(domain.VehicleSpec(str(v.get("ref")), str(v.get("kind")), str(v.get("name") or "")[:200],
                                           v.get("unit"), str(v.get("gun_type") or ""), ac, gc,
                                           bool(v.get("side_skirts")), tuple(opts)))
    for i, f in enumerate(raw_fighters):
        where = f"fighters[{i}]"
        count, team = f.get("count", 1), f.get("fire_team")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 1000:
            _problem(problems, where, "count — целое 1…1000", "count must be an integer 1…1000")
            count = 1
        if team is not None and (not isinstance(team, int) or isinstance(team, bool) or not 1 <= team <= 99):
            _problem(problems, where, "fire_team — целое или null", "fire_team must be an integer or null")
            team = None
        if f.get("unit") is not None and f["unit"] not in unit_refs:
            _problem(problems, where, "неизвестный unit", "unknown unit")
        if f.get("vehicle") is not None and f["vehicle"] not in vehicle_refs:
            _problem(problems, where, "неизвестный vehicle", "unknown vehicle")
        fighters.append(domain.FighterSpec(str(f.get("class")), count, f.get("unit"), f.get("vehicle"), team))
    platoon_refs = [u.get("ref") for u in raw_units if u.get("kind") == UnitKind.FOW_PLATOON]
    for i, t in enumerate(raw_teams):
        where = f"teams[{i}]"
        count = t.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 1000:
            _problem(problems, where, "count — целое 1…1000", "count must be an integer 1…1000")
            count = 1
        if not isinstance(t.get("type"), str):
            _problem(problems, where, "type — код типа отделения FoW", "type must be a FoW team type's code")
        if t.get("unit") not in platoon_refs:
            _problem(problems, where, "unit — ref взвода FoW из этого файла",
                     "unit must be the ref of a FoW platoon in this file")
        teams.append(domain.FowTeamSpec(str(t.get("type")), str(t.get("unit")), count))
    air = data.get("air_support_cards", 0)  # V-FORM-2, G-8
    if isinstance(air, bool) or not isinstance(air, int) or air < 0:
        _problem(problems, "air_support_cards", "целое число от 0", "a whole number from 0")
        air = 0
    return domain.RosterSpec(tuple(units), tuple(vehicles), tuple(fighters), side, teams=tuple(teams),
                             air_support=air), problems


@transaction.atomic
def roster_import(*, user: Any, character: Character, data: Any,
                  campaign: Campaign | None = None) -> tuple[Roster, domain.Report]:
    """Create a draft roster from an export. Malformed data or unknown game data
    (classes, options, upgrades, vehicle types) refuses the whole import with
    every problem listed, writing nothing; rule violations are reported and the
    roster is kept as a draft, like any draft."""
    if character.owner_id != getattr(user, "pk", None) and not is_game_master(user):
        raise Forbidden("Состав можно создать только для своего персонажа.",
                        "You may create a roster only for your own character.", field="character")
    spec, problems = _parse_import(data)
    game = selectors.game_data_current()
    if not problems:
        for i, f in enumerate(spec.fighters):
            if f.cls not in game.rules.classes:
                _problem(problems, f"fighters[{i}]", f"неизвестный класс {f.cls}", f"unknown class {f.cls}")
        for i, v in enumerate(spec.vehicles):
            if v.kind not in domain.VEHICLE_KINDS or v.gun_type not in domain.GUN_TYPES:
                _problem(problems, f"vehicles[{i}]", "неизвестный вид техники", "unknown vehicle type")
            for code in v.options:
                if code not in game.rules.options:
                    _problem(problems, f"vehicles[{i}]", f"неизвестная опция {code}", f"unknown option {code}")
        for i, u in enumerate(spec.units):
            for code in u.upgrades:
                if code not in game.rules.upgrades:
                    _problem(problems, f"units[{i}]", f"неизвестное улучшение {code}", f"unknown upgrade {code}")
        for i, t in enumerate(spec.teams):
            if t.type not in game.rules.fow_team_types:
                _problem(problems, f"teams[{i}]", f"неизвестный тип отделения FoW {t.type}",
                         f"unknown FoW team type {t.type}")
    if problems:
        raise InvalidInput(f"Импорт отклонён: ошибок — {len(problems)}.",
                           f"Import refused: {len(problems)} problem(s).", field=problems[0]["field"],
                           code="import_invalid", extra={"problems": problems})
    roster = Roster.objects.create(owner=character.owner, character=character, name=data["name"][:200],
                                   campaign=campaign, side=_campaign_side(campaign, character, spec.side),
                                   air_support_cards=spec.air_support)
    classes = {c.code: c for c in game.classes}
    options = {o.code: o for o in game.options}
    upgrades = {u.code: u for u in game.upgrades}
    units: dict[str, Unit] = {}
    order = {u.ref: i for i, u in enumerate(spec.units)}
    pending = list(spec.units)
    while pending:  # parents before children
        ready = [u for u in pending if u.parent is None or u.parent in units]
        if not ready:
            raise InvalidInput("Импорт отклонён: циклические parent.", "Import refused: the parents form a cycle.",
                               field="units", code="import_invalid")
        for u in ready:
            default = FowPlatoonKind(u.fow_kind).label if u.kind == UnitKind.FOW_PLATOON else UnitKind(u.kind).label
            units[u.ref] = Unit.objects.create(roster=roster, kind=u.kind, name=u.name or default,
                                               parent=units.get(u.parent) if u.parent else None,
                                               group_kind=u.group_kind, fow_kind=u.fow_kind,
                                               position=order[u.ref])  # the file's order, not the creation's
            if u.upgrades:
                units[u.ref].upgrades.set([upgrades[c] for c in u.upgrades])
        pending = [u for u in pending if u.ref not in units]
    vehicles: dict[str, Vehicle] = {}
    for i, v in enumerate(spec.vehicles):
        vehicles[v.ref] = Vehicle.objects.create(roster=roster, unit=units.get(v.unit) if v.unit else None,
                                                 kind=v.kind, name=v.name or v.kind, gun_type=v.gun_type,
                                                 armour_class=v.armour_class or 1, gun_class=v.gun_class,
                                                 side_skirts=v.side_skirts, position=i)
        if v.options:
            vehicles[v.ref].options.set([options[c] for c in v.options])
    Fighter.objects.bulk_create([
        Fighter(roster=roster, unit=units.get(f.unit) if f.unit else None,
                vehicle=vehicles.get(f.vehicle) if f.vehicle else None, infantry_class=classes[f.cls],
                count=f.count, fire_team=f.fire_team, position=i)
        for i, f in enumerate(spec.fighters)])
    team_types = {t.code: t for t in game.fow_team_types}
    FowTeam.objects.bulk_create([
        FowTeam(roster=roster, unit=units[t.unit], team_type=team_types[t.type], count=t.count, position=i)
        for i, t in enumerate(spec.teams)])
    report = _reprice(roster)
    return roster, report
