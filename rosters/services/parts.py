"""A roster's parts: units, fighters, vehicles and FoW teams added, changed,
moved and removed; each write re-prices the roster."""
from __future__ import annotations

from typing import Any

from django.db import transaction

from config.errors import InvalidInput
from rosters import domain
from rosters.models import (
    Fighter,
    FowPlatoonKind,
    FowTeam,
    FowTeamType,
    InfantryClass,
    Roster,
    Unit,
    UnitKind,
    Upgrade,
    Vehicle,
    VehicleOption,
)

from .common import _can_edit, _reprice


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
    name = (name or "").strip()
    if not name:
        raise InvalidInput("name: дайте подразделению название.", "name: give the unit a name.", field="name")
    unit.name = name
    unit.save(update_fields=["name"])
    return unit


@transaction.atomic
def unit_move(*, user: Any, roster: Roster, unit: Unit, parent: Unit | None) -> Unit:
    """Put a unit (with everything in it) under another unit of the same
    roster, or at the top. Refused when the roster rules forbid the place
    (V-PLT-3 for the club's units, G-F3 for FoW platoons) or it would put the
    unit inside itself; the unit is never removed and re-added."""
    _can_edit(user, roster)
    _own_unit(roster, unit)
    _own_unit(roster, parent, "parent")
    if parent is not None:
        ids = {u.pk: u.parent_id for u in roster.units.only("pk", "parent_id")}
        up: int | None = parent.pk
        while up is not None:
            if up == unit.pk:
                raise InvalidInput(f"parent: «{unit.name}» не может входить сам в себя или в свою часть.",
                                   f"parent: '{unit.name}' cannot be put inside itself or one of its parts.",
                                   field="parent", rule_id="V-PLT-3")
            up = ids.get(up)
    if unit.kind == UnitKind.FOW_PLATOON:
        if parent is not None and not (parent.fow_kind == FowPlatoonKind.ARMOURED_TRAIN
                                       and unit.fow_kind == FowPlatoonKind.TANK):
            raise InvalidInput("parent: входить в другой взвод может только танковый взвод поддержки бронепоезда.",
                               "parent: only a tank platoon escorting an armoured train may be part of another "
                               "platoon.", field="parent", rule_id="G-F3")
    elif unit.kind in domain.ALLOWED_PARENTS and (parent.kind if parent else None) not in domain.ALLOWED_PARENTS[
            unit.kind]:
        where_ru = f"в «{parent.name}»" if parent else "на верхний уровень состава"
        where_en = f"into '{parent.name}'" if parent else "at the top of the roster"
        raise InvalidInput(f"parent: «{unit.name}» нельзя поставить {where_ru}.",
                           f"parent: '{unit.name}' cannot be put {where_en}.", field="parent", rule_id="V-PLT-3")
    unit.parent = parent
    unit.save(update_fields=["parent"])
    _reprice(roster)
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
