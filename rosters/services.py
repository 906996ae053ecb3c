"""Every write to rosters and game data goes through here. Views, the API and
the admin all call these functions; each checks who may do it.

Players change only their own draft rosters; the game master may change,
lock and unlock any roster. A draft may be invalid or over budget; a
submission for a battle is refused with every violation (V-TURN-1).
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from rest_framework import status

from campaign.models import Campaign, Character
from campaign.roles import is_game_master
from config import inputs
from config.errors import ApplicationError, Conflict, Forbidden, InvalidInput

from . import domain, selectors
from .models import (
    Fighter,
    FowPlatoonKind,
    FowTeam,
    FowTeamType,
    GameDataVersion,
    GroupKind,
    InfantryClass,
    Roster,
    Side,
    Status,
    Unit,
    UnitKind,
    Upgrade,
    Vehicle,
    VehicleOption,
)


class RosterInvalid(ApplicationError):
    """422: the roster breaks rules, so it cannot be submitted."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "roster_invalid"


# --- game data ------------------------------------------------------------------
def game_data_version_bump(*, note: str = "") -> GameDataVersion:
    """Called after every change of game data, so rosters priced earlier can
    tell that a re-price would change their total."""
    return GameDataVersion.objects.create(note=note[:200])


@transaction.atomic
def game_data_row_save(*, row: Any, changed: list[str]) -> Any:
    """Save a row of game data (from the admin). A placeholder row the master
    has edited stops being a placeholder unless he ticked the marker himself."""
    if changed and hasattr(row, "is_placeholder") and "is_placeholder" not in changed:
        row.is_placeholder = False
    if hasattr(row, "updated_at"):
        row.updated_at = timezone.now()
    row.save()
    game_data_version_bump(note=f"{row._meta.verbose_name}: {row} ({', '.join(changed) or 'saved'})")
    return row


@transaction.atomic
def game_data_row_delete(*, row: Any) -> None:
    label = f"{row._meta.verbose_name}: {row} (deleted)"
    row.delete()
    game_data_version_bump(note=label)


# --- permissions ------------------------------------------------------------------
def _can_edit(user: Any, roster: Roster) -> None:
    if is_game_master(user):
        if roster.status == Status.LOCKED:
            raise Conflict("Состав заблокирован; сначала разблокируйте его.", "The roster is locked; unlock it first.",
                           code="locked")
        return
    if roster.owner_id != getattr(user, "pk", None):
        raise Forbidden("Можно менять только свои составы.", "You may change only your own rosters.")
    if roster.status != Status.DRAFT:
        raise Conflict("Состав уже подан или заблокирован; верните его в черновик.",
                       "The roster is submitted or locked; reopen it as a draft first.", code="not_draft")


def _reprice(roster: Roster) -> domain.Report:
    tree = selectors.roster_tree(roster_id=roster.pk)
    game = selectors.game_data_current()
    report = domain.validate(tree.spec(), game.rules)
    roster.priced_total = report.total
    roster.priced_version = game.version
    roster.updated_at = timezone.now()
    roster.save(update_fields=["priced_total", "priced_version", "updated_at"])
    return report


def _check_side(side: str) -> None:
    if side and side not in Side.values:
        raise InvalidInput("side: неизвестная сторона.", "side: unknown side.", field="side")


# --- rosters ------------------------------------------------------------------
def _campaign_side(campaign: Campaign | None, character: Character, side: str) -> str:
    """A roster in a campaign fights for its character's side there (the game
    master assigns it; V-PP-6 reads it for the attacker's +40). The character
    must be an active member of that campaign."""
    if campaign is None:
        return side
    from campaign.models import Membership

    m = Membership.objects.filter(campaign=campaign, character=character,
                                  status=Membership.Status.ACTIVE).only("side").first()
    if m is None:
        raise InvalidInput("campaign: персонаж не участвует в этой кампании.",
                           "campaign: the character is not a member of this campaign.", field="campaign")
    return m.side or side


@transaction.atomic
def roster_create(*, user: Any, character: Character, name: str, campaign: Campaign | None = None,
                  side: str = "") -> Roster:
    if character.owner_id != user.pk and not is_game_master(user):
        raise Forbidden("Состав можно создать только для своего персонажа.",
                        "You may create a roster only for your own character.", field="character")
    _check_side(side)
    side = _campaign_side(campaign, character, side)
    roster = Roster.objects.create(owner=character.owner, character=character, name=name, campaign=campaign,
                                   side=side)
    _reprice(roster)
    return roster


@transaction.atomic
def roster_update(*, user: Any, roster: Roster, name: str | None = None, campaign: Campaign | None | str = "keep",
                  side: str | None = None, air_support_cards: int | None = None) -> Roster:
    _can_edit(user, roster)
    if name is not None:
        roster.name = name
    if air_support_cards is not None:  # V-FORM-2, G-8: bought as a card; the limit is checked on pricing
        if isinstance(air_support_cards, bool) or not isinstance(air_support_cards, int) or air_support_cards < 0:
            raise InvalidInput("air_support_cards: целое число от 0.", "air_support_cards: a whole number from 0.",
                               field="air_support_cards")
        roster.air_support_cards = air_support_cards
    if campaign != "keep":
        roster.campaign = campaign  # type: ignore[assignment]
    if side is not None:
        _check_side(side)
        roster.side = side
    roster.side = _campaign_side(roster.campaign, roster.character, roster.side)
    roster.save()
    _reprice(roster)
    return roster


@transaction.atomic
def roster_delete(*, user: Any, roster: Roster) -> None:
    _can_edit(user, roster)
    roster.delete()


@transaction.atomic
def roster_reprice(*, user: Any, roster: Roster) -> domain.Report:
    """Price the roster with the current game data (an explicit act, never silent)."""
    _can_edit(user, roster)
    return _reprice(roster)


@transaction.atomic
def roster_reprice_after_admin_edit(*, roster: Roster) -> domain.Report:
    """The master edited a roster's parts in the admin: price it again."""
    return _reprice(roster)


@transaction.atomic
def roster_submit(*, user: Any, roster: Roster) -> domain.Report:
    """Submit for a battle; refused with every violation (V-TURN-1)."""
    _can_edit(user, roster)
    roster = Roster.objects.select_for_update().get(pk=roster.pk)
    report = _reprice(roster)
    if not report.ok:
        raise RosterInvalid(
            f"Состав нельзя подать: нарушений — {len(report.errors)}.",
            f"The roster cannot be submitted: {len(report.errors)} violation(s).",
            rule_id=report.errors[0].rule_id,
            extra={"violations": [v.as_dict() for v in report.violations], "total": report.total,
                   "budget": report.budget})
    roster.status = Status.SUBMITTED
    roster.submitted_at = timezone.now()
    roster.save(update_fields=["status", "submitted_at"])
    return report


@transaction.atomic
def roster_reopen(*, user: Any, roster: Roster) -> Roster:
    """A submitted roster goes back to draft (its owner or the master); a locked
    one only by the master (``roster_unlock``)."""
    if roster.status == Status.LOCKED:
        raise Conflict("Состав заблокирован мастером.", "The game master has locked the roster.", code="locked")
    if roster.owner_id != getattr(user, "pk", None) and not is_game_master(user):
        raise Forbidden("Можно менять только свои составы.", "You may change only your own rosters.")
    roster.status = Status.DRAFT
    roster.submitted_at = None
    roster.save(update_fields=["status", "submitted_at"])
    return roster


def _require_master(user: Any) -> None:
    if not is_game_master(user):
        raise Forbidden("Только мастер может это сделать.", "Only the game master may do this.")


@transaction.atomic
def roster_lock(*, user: Any, roster: Roster) -> Roster:
    _require_master(user)
    roster.status = Status.LOCKED
    roster.save(update_fields=["status"])
    return roster


@transaction.atomic
def roster_unlock(*, user: Any, roster: Roster) -> Roster:
    _require_master(user)
    roster.status = Status.DRAFT
    roster.save(update_fields=["status"])
    return roster


# --- parts ------------------------------------------------------------------
def _own_unit(roster: Roster, unit: Unit | None, field: str = "unit") -> None:
    if unit is not None and unit.roster_id != roster.pk:
        raise InvalidInput(f"{field}: подразделение из другого состава.", f"{field}: a unit of another roster.",
                           field=field)


@transaction.atomic
def unit_add(*, user: Any, roster: Roster, kind: str, name: str = "", parent: Unit | None = None,
             group_kind: str = "", fow_kind: str = "") -> Unit:
    _can_edit(user, roster)
    if kind not in UnitKind.values:
        raise InvalidInput("kind: неизвестный вид подразделения.", "kind: unknown unit type.", field="kind")
    if kind == UnitKind.FOW_PLATOON and fow_kind not in FowPlatoonKind.values:
        raise InvalidInput("fow_kind: укажите тип взвода Flames of War.", "fow_kind: choose the FoW platoon type.",
                           field="fow_kind")
    _own_unit(roster, parent, "parent")
    default = FowPlatoonKind(fow_kind).label if kind == UnitKind.FOW_PLATOON else UnitKind(kind).label
    unit = Unit.objects.create(roster=roster, kind=kind, name=name or default, parent=parent,
                               group_kind=group_kind if kind == UnitKind.TACTICAL_GROUP else "",
                               fow_kind=fow_kind if kind == UnitKind.FOW_PLATOON else "",
                               position=roster.units.count())
    _reprice(roster)
    return unit


@transaction.atomic
def unit_remove(*, user: Any, roster: Roster, unit: Unit) -> None:
    _can_edit(user, roster)
    _own_unit(roster, unit)
    unit.delete()
    _reprice(roster)


@transaction.atomic
def unit_upgrades_set(*, user: Any, roster: Roster, unit: Unit, upgrades: list[Upgrade]) -> Unit:
    _can_edit(user, roster)
    _own_unit(roster, unit)
    unit.upgrades.set(upgrades)
    _reprice(roster)
    return unit


@transaction.atomic
def fighter_add(*, user: Any, roster: Roster, infantry_class: InfantryClass, count: int = 1,
                unit: Unit | None = None, vehicle: Vehicle | None = None, fire_team: int | None = None) -> Fighter:
    _can_edit(user, roster)
    _own_unit(roster, unit)
    if vehicle is not None and vehicle.roster_id != roster.pk:
        raise InvalidInput("vehicle: техника из другого состава.", "vehicle: a vehicle of another roster.",
                           field="vehicle")
    if count < 1:
        raise InvalidInput("count: не меньше 1.", "count: at least 1.", field="count")
    if vehicle is not None:
        unit = vehicle.unit
    fighter = Fighter.objects.create(roster=roster, unit=unit, vehicle=vehicle, infantry_class=infantry_class,
                                     count=count, fire_team=fire_team, position=roster.fighters.count())
    _reprice(roster)
    return fighter


@transaction.atomic
def fow_team_add(*, user: Any, roster: Roster, unit: Unit, team_type: FowTeamType, count: int = 1) -> FowTeam:
    """``count`` FoW teams of one type join a FoW platoon (F-SPEC-1, F-RECON-1 are checked by the report)."""
    _can_edit(user, roster)
    _own_unit(roster, unit)
    if unit is None or unit.kind != UnitKind.FOW_PLATOON:
        raise InvalidInput("unit: отделения Flames of War входят только во взвод FoW.",
                           "unit: Flames of War teams belong only in a FoW platoon.", field="unit")
    if count < 1:
        raise InvalidInput("count: не меньше 1.", "count: at least 1.", field="count")
    team = FowTeam.objects.create(roster=roster, unit=unit, team_type=team_type, count=count,
                                  position=roster.fow_teams.count())
    _reprice(roster)
    return team


@transaction.atomic
def fow_team_update(*, user: Any, roster: Roster, team: FowTeam, count: int) -> FowTeam | None:
    """How many teams of one type stand in the platoon (0 removes them)."""
    _can_edit(user, roster)
    if team.roster_id != roster.pk:
        raise InvalidInput("team: из другого состава.", "team: of another roster.", field="team")
    if count < 0:
        raise InvalidInput("count: не меньше 0.", "count: at least 0.", field="count")
    if count == 0:
        team.delete()
        _reprice(roster)
        return None
    team.count = count
    team.save(update_fields=["count"])
    _reprice(roster)
    return team


@transaction.atomic
def unit_rename(*, user: Any, roster: Roster, unit: Unit, name: str) -> Unit:
    _can_edit(user, roster)
    _own_unit(roster, unit)
    unit.name = name
    unit.save(update_fields=["name"])
    return unit


@transaction.atomic
def fighter_update(*, user: Any, roster: Roster, fighter: Fighter, count: int,
                   fire_team: int | None | str = "keep") -> Fighter | None:
    """Set how many fighters of one class stand in one place (0 removes them),
    and optionally move them to another fire team."""
    _can_edit(user, roster)
    if fighter.roster_id != roster.pk:
        raise InvalidInput("fighter: из другого состава.", "fighter: of another roster.", field="fighter")
    if count < 0:
        raise InvalidInput("count: не меньше 0.", "count: at least 0.", field="count")
    if count == 0:
        fighter.delete()
        _reprice(roster)
        return None
    fighter.count = count
    if fire_team != "keep":
        fighter.fire_team = fire_team  # type: ignore[assignment]
    fighter.save(update_fields=["count", "fire_team"])
    _reprice(roster)
    return fighter


@transaction.atomic
def vehicle_add(*, user: Any, roster: Roster, kind: str, name: str = "", unit: Unit | None = None,
                gun_type: str = "", armour_class: int = 1, gun_class: int | None = None, side_skirts: bool = False,
                options: list[VehicleOption] | None = None) -> Vehicle:
    _can_edit(user, roster)
    _own_unit(roster, unit)
    vehicle = Vehicle.objects.create(roster=roster, unit=unit, kind=kind, name=name or kind, gun_type=gun_type,
                                     armour_class=armour_class, gun_class=gun_class, side_skirts=side_skirts,
                                     position=roster.vehicles.count())
    if options:
        vehicle.options.set(options)
    _reprice(roster)
    return vehicle


@transaction.atomic
def vehicle_remove(*, user: Any, roster: Roster, vehicle: Vehicle) -> None:
    _can_edit(user, roster)
    if vehicle.roster_id != roster.pk:
        raise InvalidInput("vehicle: из другого состава.", "vehicle: of another roster.", field="vehicle")
    vehicle.delete()
    _reprice(roster)


# --- copy, import ------------------------------------------------------------------
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


def rosters_follow_side(*, campaign: Campaign, character: Character, side: str) -> int:
    """The game master moved a character to a side: his unsubmitted rosters in
    that campaign follow (and are re-priced, V-PP-6)."""
    changed = 0
    for roster in Roster.objects.filter(campaign=campaign, character=character, status=Status.DRAFT):
        if roster.side != side:
            roster.side = side
            roster.save(update_fields=["side"])
            _reprice(roster)
            changed += 1
    return changed
