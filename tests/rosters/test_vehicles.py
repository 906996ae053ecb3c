"""Vehicles, guns and their crews (V-VEH, V-VDMG, V-CREW, V-PERS, V-AA-7, V-BUNK-7) and who gets smoke
(V-SMOKE-1): a vehicle costs its armour class plus its gun class, its characteristics are bought, a
crew is optional but warned. rosters.domain, no database."""
from __future__ import annotations

import pytest

from rosters import domain

from .builders import Build, ids, lines_of, rules


# --- cost and classes: V-VEH, V-VDMG -----------------------------------------------------------------------
def test_v_veh_3_vehicle_costs_armour_plus_gun_from_game_data():
    """V-VEH-3 and V-VEH-2: two characteristics, summed; a tank may have no gun."""
    b = Build()
    v = b.vehicle("tank", armour=3, gun=4, crew=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[v] == 7
    assert domain.validate(b.spec(), _rules_with_armour_cost(3, 10)).vehicle_costs[v] == 14
    b = Build()
    v = b.vehicle("tank", armour=3)
    assert b.report().vehicle_costs[v] == 3


def _rules_with_armour_cost(number: int, cost: int) -> domain.Rules:
    r = rules()
    return domain.Rules(**{**r.__dict__, "armour_cost": {**r.armour_cost, number: cost}})


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


def test_v_veh_1_unknown_vehicle_type_is_refused():
    for kind, ok in (("car", True), ("tank", True), ("apc", True), ("artillery", True), ("submarine", False)):
        b = Build()
        b.vehicle(kind, armour=1, gun=1)
        b.add("lieutenant", 1)
        assert ("V-VEH-1" in ids(b.report())) is (not ok)


def test_v_veh_2_gun_class_must_exist_and_artillery_needs_one():
    for kind, gun, ok in (("tank", 6, True), ("tank", 7, False), ("artillery", None, False), ("car", None, True)):
        b = Build()
        b.vehicle(kind, armour=1, gun=gun)
        b.add("lieutenant", 1)
        assert ("V-VEH-2" in ids(b.report())) is (not ok)


def test_v_veh_2_no_such_gun_class_is_reported_at_the_vehicle():
    """V-VEH-2: a gun class the tables do not know is shown at the vehicle, with its name and the class."""
    spec = domain.RosterSpec(
        units=(domain.UnitSpec("P1", "platoon", "1-й взвод"),),
        vehicles=(domain.VehicleSpec("T1", "tank", "Т-34", "P1", armour_class=2, gun_class=9),),
        fighters=(domain.FighterSpec("lieutenant", 1, "P1"),),
    )
    [line] = lines_of(domain.validate(spec, rules()), "V-VEH-2")
    assert (line.unit, line.unit_name, line.severity) == ("vehicle:T1", "Т-34", "error")
    assert line.message_ru == "Нет такого класса орудия: 9."
    assert line.message_en == "No such gun class: 9."


def test_v_vdmg_1_every_vehicle_has_an_armour_class_from_the_table():
    for armour, ok in ((6, True), (7, False), (None, False)):
        b = Build()
        b.vehicle("tank", armour=armour)
        b.add("lieutenant", 1)
        assert ("V-VDMG-1" in ids(b.report())) is (not ok)


def test_v_vdmg_9_side_skirts_add_3_pp_on_armour_only():
    b = Build()
    v = b.vehicle("tank", armour=2, skirts=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[v] == 5 and "V-VDMG-9" not in ids(report)
    b = Build()
    b.vehicle("car", armour=1, skirts=True)
    b.add("lieutenant", 1)
    assert "V-VDMG-9" in ids(b.report())


def test_v_veh_4_suggested_armour_and_gun_class_from_millimetres():
    """V-VEH-4 (G-6 placeholder mapping)."""
    armour = {1: 0, 2: 15, 3: 30, 4: 50, 5: 80, 6: 120}
    assert [domain.class_for_value(mm, armour, upper=False) for mm in (14, 15, 29, 30, 119, 120)] == [1, 2, 2, 3, 5, 6]
    calibre = {1: 20, 2: 45, 3: 57, 4: 76, 5: 88, 6: None}
    assert [domain.class_for_value(mm, calibre, upper=True) for mm in (20, 21, 76, 77, 88, 152)] == [1, 2, 4, 5, 5, 6]


def test_v_veh_4_g6_no_class_below_the_first_armour_bound_or_above_the_last_calibre_bound():
    """V-VEH-4 / G-6: the suggested class is None (not 0, not ''), so the form suggests nothing."""
    assert domain.class_for_value(5, {1: 10, 2: 20}, upper=False) is None
    assert domain.class_for_value(10, {1: 10, 2: 20}, upper=False) == 1
    assert domain.class_for_value(200, {1: 20, 2: 76}, upper=True) is None
    assert domain.class_for_value(200, {1: 20, 2: None}, upper=True) == 2


# --- characteristics bought: V-VEH-6/7, V-BUNK-7, V-AA-7 --------------------------------------------------
def test_v_veh_6_and_v_veh_7_specialisations_are_bought():
    b = Build()
    v = b.vehicle("tank", armour=2, options=["spotter", "tractor", "mine_trawl"], crew=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[v] == 2 + 6 and report.ok
    for options in (["rocket"], ["spotter", "spotter"]):
        b = Build()
        b.vehicle("tank", armour=2, options=options)
        assert "V-VEH-7" in ids(b.report())


def test_v_bunk_7_a_pillbox_may_buy_spotter_only():
    b = Build()
    b.vehicle("pillbox", armour=3, options=["spotter"])
    assert "V-BUNK-7" not in ids(b.report())
    b = Build()
    b.vehicle("pillbox", armour=3, options=["tractor"])
    assert "V-BUNK-7" in ids(b.report())


def test_v_bunk_7_the_spotter_adds_its_cost_to_the_pillbox():
    """V-BUNK-7: the pillbox's Spotter is bought "as any vehicle": its cost (G-16, 2 PP) is added to the pillbox."""
    b = Build()
    plain = b.vehicle("pillbox", armour=3)
    spotter = b.vehicle("pillbox", armour=3, options=["spotter"])
    costs = b.report().vehicle_costs
    assert (costs[plain], costs[spotter]) == (3, 3 + 2)


def test_v_aa_7_at_fire_only_for_aa_guns_not_autocannons():
    for kind, gun_type, ok in (("artillery", "aa", True), ("artillery", "aa_autocannon", False),
                               ("tank", "", False)):
        b = Build()
        v = b.vehicle(kind, armour=1, gun=3, gun_type=gun_type, options=["aa_at_fire"])
        report = b.report()
        assert ("V-AA-7" in ids(report)) is (not ok)
        assert report.vehicle_costs[v] == 1 + 3 + 2


# --- crews: V-CREW, V-PERS-1 ----------------------------------------------------------------------------
def test_v_crew_1_and_v_pers_1_crews_are_personnel_and_one_officer():
    """V-CREW-1, V-PERS-1: rank-and-file gun crews are personnel."""
    for cls, count, ok in (("personnel", 3, True), ("rifleman", 1, False), ("corporal", 1, False)):
        b = Build()
        v = b.vehicle("artillery", armour=1, gun=2, crew=True)
        b.add(cls, count, vehicle=v)
        b.add("lieutenant", 1)
        assert ("V-CREW-1" in ids(b.report())) is (not ok), cls


def test_v_crew_2_gun_crew_is_paid_vehicle_crew_is_free():
    b = Build()
    gun = b.vehicle("artillery", armour=1, gun=2, crew=True)
    tank = b.vehicle("tank", armour=1, gun=2, crew=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[gun] == 3 + 3  # armour 1 + gun 2, crew of 2 personnel + corporal
    assert report.vehicle_costs[tank] == 3


def test_v_crew_3_crew_is_optional_but_warned():
    b = Build()
    b.vehicle("tank", armour=1)
    b.add("lieutenant", 1)
    report = b.report()
    assert "V-CREW-3" in ids(report, "warning") and report.ok
    b = Build()
    b.vehicle("tank", armour=1, crew=True)
    assert "V-CREW-3" not in ids(b.report(), "warning")


@pytest.mark.parametrize(("crew", "warned", "cannot_move"), [
    ((), True, True),  # no crew: it can neither fire nor move
    (("personnel",), True, False),  # one man: may move, not fire (V-CREW-4)
    (("corporal",), True, False),  # one officer alone: still not 2
    (("personnel", "personnel"), True, False),  # two, no officer
    (("personnel", "corporal"), False, False),
])
def test_v_crew_3_a_vehicle_without_two_crew_and_an_officer_is_warned_and_told_what_it_cannot_do(
        crew, warned, cannot_move):
    """V-CREW-3 (optional crew: a warning), V-CREW-4/5: fewer than 2 or no officer: no fire; nobody: no move."""
    b = Build()
    v = b.vehicle("tank", armour=2, gun=2)
    for cls in crew:
        b.add(cls, 1, vehicle=v)
    lines = [x for x in b.report().violations if x.rule_id == "V-CREW-3"]
    assert bool(lines) is warned
    if lines:
        (line,) = lines
        assert line.severity == "warning" and line.unit == f"vehicle:{v}"
        assert line.message_en.endswith(" or move.") is cannot_move
        assert line.message_ru.endswith(" и двигаться.") is cannot_move


# --- smoke: V-SMOKE-1 -------------------------------------------------------------------------------------
def test_v_smoke_1_who_gets_smoke():
    b = Build()
    p = b.platoon()
    g = b.group("recon", p)
    s = b.squad(p)
    guns = {
        b.vehicle("artillery", p, gun=3): True, b.vehicle("artillery", p, gun=2): False,
        b.vehicle("artillery", p, gun=4, gun_type="at"): False, b.vehicle("artillery", p, gun=1, gun_type="howitzer"): True,
        b.vehicle("artillery", p, gun=1, gun_type="mortar"): True, b.vehicle("tank", p, armour=3, gun=5): True,
    }
    smoke = b.report().smoke
    assert smoke[g] and smoke[s] and not smoke[p]
    for ref, has in guns.items():
        assert smoke[f"vehicle:{ref}"] is has


def test_v_smoke_1_an_aa_autocannon_gets_no_smoke_and_v_rocket_1_a_rocket_mortar_does():
    """V-AA-5: an AA autocannon is a heavy MG, not a gun of class 3+; V-ROCKET-1: a rocket mortar is a howitzer.
    The roster report reads the engine's weapon table (battles.engine.weapons)."""
    b = Build()
    p = b.platoon()
    autocannon = b.vehicle("artillery", p, gun=4, gun_type="aa_autocannon")
    aa_gun = b.vehicle("artillery", p, gun=4, gun_type="aa")
    rocket = b.vehicle("artillery", p, gun=1, gun_type="rocket_mortar")
    report = b.report()
    assert not report.smoke[f"vehicle:{autocannon}"] and report.smoke[f"vehicle:{aa_gun}"]
    assert report.smoke[f"vehicle:{rocket}"]
    assert "V-VEH-1" not in ids(report)  # a rocket mortar is a known gun type


@pytest.mark.django_db
def test_v_bunk_7_the_clubs_default_game_data_lets_a_pillbox_buy_spotter_only():
    """V-BUNK-7 with the game data a new club starts with (rosters.defaults): Spotter is open to a pillbox,
    a vehicle-only specialisation is not."""
    from rosters import selectors

    rules_ = selectors.game_rules_current()
    for option, ok in (("spotter", True), ("tractor", False)):
        spec = domain.RosterSpec(vehicles=(domain.VehicleSpec("p", "pillbox", armour_class=3, options=(option,)),))
        assert ("V-BUNK-7" not in ids(domain.validate(spec, rules_))) is ok


def test_v_veh_1_a_car_is_not_an_armoured_vehicle():
    """V-VEH-1: cars, armoured vehicles and artillery are three types: a car takes no side skirts (V-VDMG-9)
    and is no armour for a motorised unit (V-MOTOR-1)."""
    b = Build()
    b.vehicle("car", skirts=True)
    assert "V-VDMG-9" in ids(b.report())
    b = Build()
    m = b.unit("motorised")
    b.vehicle("car", unit=m)
    assert "V-MOTOR-1" in ids(b.report())


def test_v_veh_1_an_unknown_gun_type_is_refused():
    b = Build()
    b.vehicle("tank", armour=3, gun=3, gun_type="laser")
    assert "V-VEH-1" in ids(b.report())
