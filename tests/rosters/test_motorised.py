"""Motorised units (V-MOTOR): armoured vehicles (up to three) with their crews of two personnel and a
corporal, at most a sergeant and two corporals in command. rosters.domain, no database."""
from __future__ import annotations

import pytest

from .builders import Build, assert_reported_on, ids, lines_of, motorised


def test_v_motor_1_needs_armoured_vehicles():
    b = Build()
    m = b.unit("motorised")
    b.vehicle("car", m, crew=True)
    b.add("lieutenant", 1)
    assert "V-MOTOR-1" in ids(b.report())
    assert motorised(1).report().ok


def test_v_motor_1_reading_the_crews_are_its_infantry_and_more_infantry_may_join():
    """V-MOTOR-1 (reading): armour with its crews (V-MOTOR-6) is a motorised unit, as the seed's "tank squad";
    riflemen beside them are allowed, not required."""
    b = motorised(1)
    assert b.report().ok
    b.add("rifleman", 4, b.units[0].ref)
    assert b.report().ok
    b = Build()
    m = b.unit("motorised")
    b.add("rifleman", 4, m)
    b.add("lieutenant", 1)
    assert "V-MOTOR-1" in ids(b.report())  # infantry alone is not motorised


def test_v_motor_3_and_v_motor_5_any_armour_up_to_three_vehicles():
    """V-MOTOR-3 (reading): any armour type; V-MOTOR-5 binds: at most 3."""
    report = motorised(3, ("tank", "tank", "tank"), ()).report()
    assert report.ok, report.violations
    assert "V-MOTOR-5" in ids(motorised(4).report())


def test_v_motor_5_a_car_beside_three_armoured_vehicles_is_not_counted():
    """V-MOTOR-5 limits *armoured* vehicles: a car in the unit is not one of the three."""
    b = motorised(3)
    b.vehicle("car", b.units[0].ref, armour=1)
    assert "V-MOTOR-5" not in ids(b.report())
    b.vehicle("apc", b.units[0].ref, armour=1)
    assert "V-MOTOR-5" in ids(b.report())


def test_v_motor_4_tanks_with_apcs_is_a_warning_only():
    report = motorised(2, ("tank", "apc")).report()
    assert "V-MOTOR-4" in ids(report, "warning") and report.ok
    assert "V-MOTOR-4" not in ids(motorised(2, ("apc",)).report(), "warning")


def test_v_motor_6_crew_of_two_personnel_and_a_corporal_and_v_crew_2_free():
    """V-MOTOR-6; V-CREW-2: the crew costs nothing."""
    b = motorised(1)
    report = b.report()
    assert report.ok and report.total == 2 + 2 + 2  # armour 2 + gun 2 + lieutenant; crew free
    b = Build()
    m = b.unit("motorised")
    v = b.vehicle("tank", m, armour=2)
    b.add("personnel", 1, m, vehicle=v)
    b.add("corporal", 1, m, vehicle=v)
    b.add("lieutenant", 1)
    assert "V-MOTOR-6" in ids(b.report())


def test_v_motor_6_every_vehicles_crew_is_checked_not_only_the_first():
    """V-MOTOR-6: *each* armoured vehicle's crew is 2 personnel and a corporal; a short crew on the second
    vehicle is refused as well as on the first."""
    b = Build()
    m = b.unit("motorised")
    b.vehicle("tank", m, armour=2, crew=True)
    v = b.vehicle("tank", m, armour=2)
    b.add("personnel", 1, m, vehicle=v)
    b.add("corporal", 1, m, vehicle=v)
    b.add("lieutenant", 1)
    assert "V-MOTOR-6" in ids(b.report())


def _motor_crew(personnel: int, commanders: tuple[str, ...]) -> Build:
    b = Build()
    m = b.unit("motorised")
    v = b.vehicle("tank", m, armour=2, gun=2)
    b.add("personnel", personnel, m, vehicle=v)
    for rank in commanders:
        b.add(rank, 1, m, vehicle=v)
    b.add("lieutenant", 1)
    return b


@pytest.mark.parametrize(("commanders", "ok"), [
    (("corporal",), True),
    ((), False),  # no commander
    (("corporal", "corporal"), False),  # two commanders: the seed says one
])
def test_v_motor_6_exactly_one_corporal_commands_a_motorised_crew(commanders, ok):
    """V-MOTOR-6: each armoured vehicle's crew is 2 personnel and one corporal commander."""
    report = _motor_crew(2, commanders).report()
    assert ("V-MOTOR-6" in ids(report)) is (not ok)


@pytest.mark.parametrize("personnel", [1, 3])
def test_v_motor_6_two_personnel_not_more_not_fewer(personnel):
    assert "V-MOTOR-6" in ids(_motor_crew(personnel, ("corporal",)).report())


def test_v_motor_7_at_most_a_sergeant_and_two_corporals():
    """V-MOTOR-7 reading: with 3 vehicles the sergeant commands one of them."""
    b = Build()
    m = b.unit("motorised")
    for rank in ("sergeant", "corporal", "corporal"):
        v = b.vehicle("tank", m, armour=2)
        b.add("personnel", 2, m, vehicle=v)
        b.add(rank, 1, m, vehicle=v)
    b.add("lieutenant", 1)
    assert b.report().ok
    assert "V-MOTOR-7" in ids(motorised(3, extra_officers=("corporal",)).report())
    assert "V-MOTOR-7" in ids(motorised(1, extra_officers=("sergeant", "sergeant")).report())


# --- each broken rule is reported on the motorised unit, by name ------------------------------------------
def _case_motorised(vehicles=("tank",), crew=True, members=()):
    def build():
        b = Build()
        m = b.unit("motorised")
        for kind in vehicles:
            b.vehicle(kind, m, armour=2, gun=2, crew=crew)
        for rank in members:
            b.add(rank, 1, m)
        b.add("lieutenant", 1)
        return b, m
    return build


@pytest.mark.parametrize(("rule_id", "build"), [
    ("V-MOTOR-1", _case_motorised(vehicles=())),
    ("V-MOTOR-5", _case_motorised(vehicles=("tank",) * 4)),
    ("V-MOTOR-6", _case_motorised(crew=False)),
    ("V-MOTOR-7", _case_motorised(vehicles=("tank", "tank"), members=("sergeant", "corporal"))),
    ("V-MOTOR-7", _case_motorised(members=("sergeant", "sergeant"))),
])
def test_v_motor_a_broken_rule_is_reported_on_that_unit_by_name(rule_id, build):
    b, ref = build()
    assert_reported_on(b.report(), rule_id, ref)


def test_v_motor_4_tanks_with_apcs_warn_on_the_unit():
    b, ref = _case_motorised(vehicles=("tank", "apc"))()
    [v] = lines_of(b.report(), "V-MOTOR-4")
    assert (v.unit, v.unit_name, v.severity) == (ref, ref, "warning") and v.message_ru and v.message_en


def test_v_motor_7_a_sergeant_counts_among_the_three_command_staff():
    """V-MOTOR-7: a sergeant and corporals, three at most: two crews' corporals + a sergeant is three."""
    b, _ = _case_motorised(vehicles=("tank", "tank"), members=("sergeant",))()
    assert "V-MOTOR-7" not in ids(b.report())
    b, _ = _case_motorised(vehicles=("tank", "tank", "tank"), members=("sergeant",))()
    assert "V-MOTOR-7" in ids(b.report())
