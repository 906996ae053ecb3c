"""rosters.domain: report lines that name their subject, and a unit's cost with
several vehicles (issue 11: mutation kill rate). No database."""
from __future__ import annotations

from rosters import domain

from .builders import Build, rules


def _lines(report: domain.Report, rule_id: str) -> list[domain.Violation]:
    return [v for v in report.violations if v.rule_id == rule_id]


def test_v_turn_1_an_unknown_unit_type_is_reported_at_that_unit_in_both_languages():
    """V-TURN-1: troops are bought as the known units; a unit of an unknown type is named, with its type."""
    spec = domain.RosterSpec(
        units=(domain.UnitSpec("P1", "platoon", "1-й взвод"), domain.UnitSpec("B1", "brigade", "Бригада")),
        fighters=(domain.FighterSpec("lieutenant", 1, "P1"),),
    )
    [line] = _lines(domain.validate(spec, rules()), "V-TURN-1")
    assert (line.unit, line.unit_name, line.severity) == ("B1", "Бригада", "error")
    assert line.message_ru == "Неизвестный вид подразделения: brigade."
    assert line.message_en == "Unknown unit type: brigade."


def test_v_veh_3_a_unit_s_cost_counts_every_vehicle_in_it():
    """V-VEH-3: each vehicle costs its armour class plus its gun class (G-5: N PP each); a unit with two
    vehicles costs both, plus its lieutenant (2 PP)."""
    b = Build()
    p = b.unit("platoon")
    b.add("lieutenant", 1, p)
    tank = b.vehicle("tank", p, armour=2, gun=3)
    car = b.vehicle("car", p, armour=1)
    report = b.report()
    assert report.vehicle_costs == {tank: 5, car: 1}
    assert report.unit_costs[p] == 2 + 5 + 1
    assert report.total == 8


def test_v_tg_6_a_group_s_two_vehicles_both_count_towards_its_standard_cost():
    """V-TG-6: the group's cost, vehicles included, against the standard 8 PP (advisory)."""
    b = Build()
    g = b.group("recon")  # corporal + 2 scouts + 1 rifleman = 4 PP
    b.vehicle("car", g, armour=3)
    b.vehicle("car", g, armour=2)
    report = b.report()
    assert report.unit_costs[g] == 4 + 3 + 2
    [line] = _lines(report, "V-TG-6")
    assert line.unit == g and line.severity == "warning"
    assert "9" in line.message_en and "9" in line.message_ru


def test_v_veh_2_no_such_gun_class_is_reported_at_the_vehicle():
    """V-VEH-2: a gun class the tables do not know is shown at the vehicle, with its name and the class."""
    spec = domain.RosterSpec(
        units=(domain.UnitSpec("P1", "platoon", "1-й взвод"),),
        vehicles=(domain.VehicleSpec("T1", "tank", "Т-34", "P1", armour_class=2, gun_class=9),),
        fighters=(domain.FighterSpec("lieutenant", 1, "P1"),),
    )
    [line] = _lines(domain.validate(spec, rules()), "V-VEH-2")
    assert (line.unit, line.unit_name, line.severity) == ("vehicle:T1", "Т-34", "error")
    assert line.message_ru == "Нет такого класса орудия: 9."
    assert line.message_en == "No such gun class: 9."
