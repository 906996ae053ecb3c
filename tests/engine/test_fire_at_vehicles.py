"""Fire at vehicles (V-VDMG-2..8, V-TEST-8..10, V-RIDE-4, V-RIDE-7, V-FLAME-2, G-11, G-26): damage by gun
class, the tank test's bands, the reserve, running gear, skirts, riders and flamed crews."""
import pytest

from .fire_helpers import aircraft, riders_turn, rifle, smoke, vfire, vshot
from .table import D, F, at_turn, attacker_turn, defender_turn, standard, tank


def riders_on(t, vid, *fids):
    """The attacker embarks ``fids`` as riders on ``vid``; then the defender's turn."""
    t.add("embarked", vehicle=vid, fighters=list(fids), role="riders")
    t.end_turn()
    t.postures("defender")


@pytest.mark.parametrize(("dist", "ok"), [(6.0, True), (6.01, False)])
def test_v_ride_4_the_rider_limit_is_rules_data_and_applies_to_riders_only(dist, ok):
    t = riders_turn()
    data = dict(rifle("a1"), distance=dist)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-RIDE-4"
    t.fire("a3", "rifle", distance=8.0, struck=[{"fighter": "d2", "die": D(3)}])  # not a rider: 8" (G-3)


def test_v_ride_4_rider_fire_distance_is_rules_data():
    t = at_turn({"rider_fire_distance": 4.0})
    t.add("embarked", vehicle="AT3", fighters=["a1"], role="riders")
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("fire", **dict(rifle("a1"), distance=4.01)).rule_id == "V-RIDE-4"
    t.add("fire", **dict(rifle("a1"), distance=4.0))


def test_v_vdmg_4_an_aircraft_driven_off_flies_no_attack():
    t = defender_turn()
    aircraft(t, "defender", "AIR")
    tank(t, "attacker", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    t.add("fire", shooter="AAG", weapon="aa_gun", target="aircraft", target_id="AIR", distance=30, hit=D(11))
    assert t.v("AIR").driven_off
    t.add("fire_corrected", corrector="d_lt", shooter="AIR", target="H", distance=5)
    err = t.refused("fire", shooter="AIR", weapon="ground_attack_aircraft", target="house", target_id="H",
                    distance=50, visual_contact=False, corrected=True, hit=D(14))
    assert err.rule_id == "V-VDMG-4"


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (1.99, False)])
def test_v_flame_6_the_minimum_is_rules_data_and_binds_only_the_flamethrower(dist, ok):
    t = at_turn({"flamethrower_min_distance": 2.0})
    data = dict(shooter="a_fl", weapon="flamethrower", target="fighters", distance=dist,
                struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-FLAME-6"
    t.fire("a1", "grenade", distance=0.5, hit=D(3), struck=[{"fighter": "d2"}])


def test_v_vdmg_2_an_mg_does_not_damage_armour_2():
    t = at_turn()
    vfire(t, "a_hmg", "hmg", "DT4", 20, distance=10)
    dt = t.v("DT4")
    assert (dt.damage, dt.running_gear, dt.destroyed) == (0, False, False)


def test_v_vdmg_3_equal_class_damage_credits_the_shooter_and_his_character():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("a_atx", "A", "at_grenadier", character="char-x")])
    tank(t, "defender", "X5", armour=5, gun=0)
    vfire(t, "a_atx", "at_grenade_launcher", "X5", 11)
    x = t.v("X5")
    assert (x.damage, x.running_gear, x.destroyed) == (1, False, False)
    assert t.f("a_atx").credit.vehicles_damaged == 1
    assert t.state.characters["char-x"].vehicles_damaged == 1


@pytest.mark.parametrize(("die", "damage", "gear"), [(10, 0, False), (11, 1, False), (15, 1, False), (16, 1, True)])
def test_v_test_8_9_10_the_tank_test_bands_are_rules_data_edges(die, damage, gear):
    t = at_turn()
    tank(t, "defender", "X3", armour=3, gun=0)
    vfire(t, "AT3", "gun", "X3", die)
    assert (t.v("X3").damage, t.v("X3").running_gear) == (damage, gear)


@pytest.mark.parametrize(("die", "damage", "gear"), [(12, 0, False), (13, 1, False), (17, 1, False), (18, 1, True)])
def test_v_test_8_10_shifted_bands_from_the_rules_data(die, damage, gear):
    t = at_turn({"tank_miss_max": 12, "tank_hit_max": 17})
    tank(t, "defender", "X3", armour=3, gun=0)
    vfire(t, "AT3", "gun", "X3", die)
    assert (t.v("X3").damage, t.v("X3").running_gear) == (damage, gear)


def test_v_test_8_a_class_2_gun_uses_the_tank_test():
    t = at_turn()
    tank(t, "attacker", "G2", armour=2, gun=2)
    tank(t, "defender", "X2", armour=2, gun=0)
    vfire(t, "G2", "gun", "X2", 18)
    assert (t.v("X2").damage, t.v("X2").running_gear) == (1, True)


def test_v_test_8_a_class_1_gun_uses_the_hit_test():
    t = at_turn()
    tank(t, "attacker", "G1", armour=1, gun=1)
    tank(t, "defender", "X1", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "G1", "gun", "X1", 20)
    assert (t.v("X1").damage, t.v("X1").running_gear) == (1, False)


@pytest.mark.parametrize(("reserve", "destroyed"), [(1, True), (2, False)])
def test_v_vdmg_4_the_tank_reserve_is_rules_data(reserve, destroyed):
    t = at_turn({"vehicle_reserve": reserve})
    tank(t, "defender", "X3", armour=3, gun=0)
    tank(t, "attacker", "Y3", armour=3, gun=3)
    vfire(t, "AT3", "gun", "X3", 12)
    vfire(t, "Y3", "gun", "X3", 12)
    assert t.v("X3").damage == 2 and t.v("X3").destroyed is destroyed


@pytest.mark.parametrize(("reserve", "destroyed"), [(0, True), (1, False)])
def test_g26_the_reserve_of_other_vehicles_is_rules_data(reserve, destroyed):
    t = at_turn({"non_tank_reserve": reserve})
    tank(t, "defender", "X5", armour=5, gun=0, kind="apc", drive="tracked", seats=4)
    vfire(t, "a_at", "at_grenade_launcher", "X5", 11)
    assert t.v("X5").damage == 1 and t.v("X5").destroyed is destroyed


def test_v_vdmg_6_equal_class_running_gear_with_the_damage():
    t = at_turn()
    tank(t, "defender", "X5", armour=5, gun=0)
    vfire(t, "a_at", "at_grenade_launcher", "X5", 16)
    assert (t.v("X5").damage, t.v("X5").running_gear, t.v("X5").destroyed) == (1, True, False)


@pytest.mark.parametrize(("die", "gear"), [(15, False), (16, True)])
def test_v_test_10_reading_on_a_lower_class_gun_damages_only_the_running_gear(die, gear):
    t = at_turn({"running_gear_when_outclassed": True})
    vfire(t, "AT3", "gun", "DT4", die)
    dt = t.v("DT4")
    assert (dt.damage, dt.running_gear, dt.destroyed) == (0, gear, False)


def test_v_vdmg_8_skirts_do_not_stop_a_gun():
    t = at_turn()
    tank(t, "defender", "SK", armour=3, gun=0, skirts=True)
    vfire(t, "AT3", "gun", "SK", 12)
    assert t.v("SK").damage == 1


@pytest.mark.parametrize(("stop", "damage"), [(True, 0), (False, 1)])
def test_v_vdmg_8_reading_skirts_and_the_at_rifle(stop, damage):
    t = at_turn({"skirts_stop_at_rifles": stop})
    tank(t, "defender", "SK", armour=5, gun=0, skirts=True)
    vfire(t, "a_at", "at_rifle", "SK", 12)
    assert t.v("SK").damage == damage


@pytest.mark.parametrize(("shooter", "weapon", "wounded"), [
    ("DT4", "gun", True), ("DG", "at_gun", True), ("d_at", "at_grenade_launcher", True),
    ("d_hmg", "hmg", False), ("DH", "howitzer", True),
])
def test_v_ride_7_a_hit_on_the_tank_wounds_its_riders_for_guns_howitzers_and_at_weapons(shooter, weapon, wounded):
    t = at_turn()
    tank(t, "attacker", "H6", armour=6, gun=0)
    t.add("force_mustered", side="defender", fighters=[F("d_at", "D", "at_grenadier"), F("d_hmg", "D", "hmg_gunner")])
    tank(t, "defender", "DH", armour=1, gun=4, weapon="howitzer", kind="artillery")
    riders_on(t, "H6", "a1", "a2")
    vfire(t, shooter, weapon, "H6", 12)
    assert t.f("a1").wounded is wounded and t.f("a2").wounded is wounded
    assert (t.v("H6").damage, t.v("H6").destroyed) == (0, False)


def test_v_ride_7_a_missed_tank_test_spares_the_riders():
    t = at_turn()
    riders_on(t, "AT3", "a1")
    vfire(t, "DT4", "gun", "AT3", 10)
    assert not t.f("a1").wounded and not t.v("AT3").destroyed


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_ride_7_g11_a_grenade_at_the_tank_wounds_the_riders_on_the_grenade_test(die, wounded):
    t = at_turn()
    riders_on(t, "AT3", "a1", "a2")
    vfire(t, "d1", "grenade", "AT3", die, distance=3)
    assert t.f("a1").wounded is wounded and t.f("a2").wounded is wounded
    assert t.v("AT3").damage == 0


def test_g11_reading_off_the_grenade_uses_the_hit_test():
    t = at_turn({"grenade_test": False})
    riders_on(t, "AT3", "a1")
    vfire(t, "d1", "grenade", "AT3", 11, distance=3)
    assert t.f("a1").wounded
    t.fire("d2", "grenade", distance=3, hit=D(11), struck=[{"fighter": "a2"}])
    assert t.f("a2").wounded
    t.fire("d3", "grenade", distance=3, hit=D(10), struck=[{"fighter": "a3"}])
    assert not t.f("a3").wounded


def test_v_flame_2_the_flamed_crew_is_dead_and_the_turn_recorded_riders_untouched():
    t = at_turn()
    riders_on(t, "AT3", "a1")
    t.add("force_mustered", side="defender", fighters=[F("d_fl", "D", "flamethrower")])
    vfire(t, "d_fl", "flamethrower", "AT3", 11, distance=3)
    assert t.f("a_tc").dead and t.f("a_tp").dead and not t.f("a1").wounded
    assert t.v("AT3").crew_flamed_turn == t.state.turn and t.f("d_fl").credit.kills == 2
    assert (t.v("AT3").damage, t.v("AT3").destroyed) == (0, False)


def test_v_flame_2_a_missed_flamethrower_does_not_mark_the_crew_flamed():
    t = at_turn()
    before = t.v("DT4").crew_flamed_turn
    vfire(t, "a_fl", "flamethrower", "DT4", 10, distance=3)
    assert t.v("DT4").crew_flamed_turn == before and not t.f("d_tc").dead


def test_g7_a_howitzer_s_radius_does_not_destroy_the_vehicles_in_it():
    """The seed gives area weapons other than the mortar no fragment effect on vehicles (G-7, V-MORT-4)."""
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    t.fire("AH", "howitzer", distance=30, hit=D(15), target_id="p", struck=[{"fighter": "d1", "die": D(11)}],
           vehicles_struck=[{"vehicle": "C1", "distance": 1.0}])
    assert not t.v("C1").destroyed and t.f("d1").wounded


# --- vehicles in the radius (_check_vehicles_struck) ------------------------------------------------------------------
def test_s_target_a_vehicle_in_the_radius_named_twice_or_the_target_itself():
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "C1b", armour=1, gun=0, kind="car", drive="wheeled")
    twice = [{"vehicle": "C1b", "distance": 0.5}, {"vehicle": "C1b", "distance": 0.5}]
    err = t.refused("fire", shooter="DM", weapon="mortar", target="fighters", target_id="p", distance=10, hit=D(15),
                    struck=[{"fighter": "a1", "die": D(3)}], vehicles_struck=twice)
    assert err.rule_id == "S-TARGET"
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C1", distance=10, hit=D(15),
                    vehicles_struck=[{"vehicle": "C1", "distance": 0.0}])
    assert err.rule_id == "S-TARGET"
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "bomber"}])
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C1", distance=10, hit=D(15),
                    vehicles_struck=[{"vehicle": "AIR", "distance": 0.0}])
    assert err.rule_id == "S-TARGET"


def test_s_target_a_destroyed_vehicle_is_not_in_the_radius():
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "C1b", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "DM", "mortar", "C1b", 15)
    assert t.v("C1b").destroyed
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C1b", distance=5, hit=D(15),
                    vehicles_struck=[{"vehicle": "C1", "distance": 0.0}])
    assert err.rule_id == "S-TARGET"  # C1b is no target now
    t.next_turn()
    t.next_turn()
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C1", distance=5, hit=D(15),
                    vehicles_struck=[{"vehicle": "C1b", "distance": 0.0}])
    assert err.rule_id == "S-TARGET"


# --- credits add up; defaults of the tables ---------------------------------------------------------------------------
def test_v_vdmg_3_each_damage_adds_to_the_shooter_s_credit():
    t = at_turn()
    tank(t, "defender", "X5", armour=5, gun=0)
    tank(t, "defender", "Y5", armour=5, gun=0)
    vfire(t, "a_at", "at_grenade_launcher", "X5", 11)
    t.next_turn()
    t.next_turn(A="recon")
    vfire(t, "a_at", "at_grenade_launcher", "Y5", 11)
    assert t.f("a_at").credit.vehicles_damaged == 2


def test_v_vdmg_4_a_destroyed_piece_fires_no_smoke():
    t = at_turn()
    tank(t, "defender", "X2", armour=2, gun=3)
    t.fire("AT3", "gun", target="vehicle", target_id="X2", distance=5, hit=D(11))
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("X2", "d_lt")).rule_id == "V-VDMG-4"


def test_s_target_a_vehicle_target_is_a_live_enemy_ground_vehicle():
    t = at_turn()
    assert t.refused("fire", **vshot("AT3", "gun", "AP")).rule_id == "S-TARGET"  # own side
    t.add("force_mustered", side="defender", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "bomber"}])
    assert t.refused("fire", **vshot("AT3", "gun", "AIR")).rule_id == "S-TARGET"
    tank(t, "defender", "X2", armour=2, gun=0)
    t.fire("AT3", "gun", target="vehicle", target_id="X2", distance=5, hit=D(11))
    assert t.v("X2").destroyed
    assert t.refused("fire", **vshot("a_at", "at_rifle", "X2")).rule_id == "S-TARGET"
    assert t.refused("fire", **vshot("a_lmg", "lmg", "ZZ")).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("shooter", "weapon"), [("a1", "rifle"), ("a_snp", "sniper_rifle")])
def test_v_vdmg_2_small_arms_are_no_weapon_against_vehicles(shooter, weapon):
    t = at_turn()
    assert t.refused("fire", **vshot(shooter, weapon, "DT4")).rule_id == "V-VDMG-2"


def test_v_vdmg_5_the_shooter_who_outclasses_the_armour_is_credited_with_the_vehicle():
    """V-VDMG-5 (class 5 > armour 4: destroyed); the vehicle is the AT grenadier's credit (campaign awards)."""
    t = attacker_turn(standard())
    t.fire("a_at", "at_grenade_launcher", target="vehicle", target_id="DT4", distance=5, hit=D(11))
    assert t.v("DT4").destroyed
    assert t.f("a_at").credit.vehicles_destroyed == 1
