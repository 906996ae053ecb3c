"""Machine guns (V-MG-1, V-MG-2, V-MG-8): one fighter or a radius, and class 1 against armour."""
import pytest

from .fire_helpers import shot, vfire
from .table import D, at_turn, defender_turn, tank


# --- vehicles -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "damage"), [(10, 0), (11, 1), (20, 1)])
def test_v_mg_2_an_mg_is_class_1_against_armour_1_with_the_hit_test_and_no_running_gear(die, damage):
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "a_lmg", "lmg", "C1", die)
    c1 = t.v("C1")
    assert (c1.damage, c1.running_gear, c1.destroyed) == (damage, False, False)
    assert t.f("a_lmg").credit.vehicles_damaged == damage


def test_v_mg_2_the_mg_class_is_rules_data():
    t = at_turn({"mg_vehicle_class": 2})
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "a_lmg", "lmg", "C1", 11)
    assert t.v("C1").destroyed  # class 2 > armour 1 (V-VDMG-5)


@pytest.mark.parametrize(("weapon", "destroyed"), [("vehicle_mg", False), ("gun", True)])
def test_v_mg_2_a_tank_s_mg_is_class_1_whatever_its_gun(weapon, destroyed):
    t = at_turn()
    tank(t, "attacker", "T3", armour=3, gun=3)
    tank(t, "defender", "X2", armour=2, gun=0)
    vfire(t, "T3", weapon, "X2", 20)
    x = t.v("X2")
    assert (x.destroyed, x.damage, x.running_gear) == (destroyed, 0, False)


@pytest.mark.parametrize(("shooter", "weapon", "rule"), [
    ("a1", "grenade", "V-MG-1"), ("a_snp", "sniper_rifle", "V-MG-1"), ("a1", "rifle", "V-MG-1"),
    ("a_at", "at_rifle", "V-ATGL-3"), ("a_at", "at_grenade_launcher", "V-ATGL-3"), ("AT3", "gun", "V-GUN-3"),
])
def test_v_mg_1_v_gun_3_v_atgl_3_single_target_weapons_strike_one_fighter(shooter, weapon, rule):
    t = at_turn()
    two = [{"fighter": "d1", "die": D(11)}, {"fighter": "d2", "die": D(11)}]
    assert t.refused("fire", **shot(shooter, weapon, two, distance=3, hit=D(15))).rule_id == rule
    t.add("fire", **shot(shooter, weapon, two[:1], distance=3, hit=D(15)))


@pytest.mark.parametrize(("shooter", "weapon", "radius", "rule", "extra"), [
    ("a_fl", "flamethrower", 2.0, "V-MG-8", {}),
    ("AH", "howitzer", 2.0, "V-MORT-1", {"hit": D(15), "target_id": "p"}),
])
def test_v_mg_8_v_mort_1_the_damage_radius_both_sides(shooter, weapon, radius, rule, extra):
    t = at_turn()
    far = [{"fighter": "d1", "die": D(11), "distance": radius + 0.01}]
    assert t.refused("fire", **shot(shooter, weapon, far, distance=4, **extra)).rule_id == rule
    near = [{"fighter": "d1", "die": D(11), "distance": radius}, {"fighter": "d2", "die": D(10), "distance": 0.0}]
    t.add("fire", **shot(shooter, weapon, near, distance=4, **extra))
    assert t.f("d1").wounded and not t.f("d2").wounded


def test_v_mg_8_v_aa_5_the_aa_autocannon_s_radius_is_a_heavy_mg_s():
    t = defender_turn()
    far = [{"fighter": "a1", "die": D(11), "distance": 2.01}]
    assert t.refused("fire", **shot("DAA", "aa_autocannon", far, distance=30)).rule_id == "V-MG-8"
    t.add("fire", **shot("DAA", "aa_autocannon", [{"fighter": "a1", "die": D(11), "distance": 2.0}], distance=30))
    assert t.f("a1").wounded
