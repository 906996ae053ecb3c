"""Issue 11: what a shot does (``fire._apply_fire``, ``_hit_vehicle``,
``_resolve``, ``_defence``, ``_damage_house``, ``_hit_bunker``): the shooter's
record of the turn (G-7, V-PERS-2, G-8), the hit test's band (V-TEST-1,
V-TEST-8..10), damage to vehicles by class (V-VDMG-2..6, V-MG-2, V-ATGL-1),
riders (V-RIDE-7), flamethrowers (V-FLAME-2), mortars (V-MORT-4, V-MORT-5),
houses and pillboxes hit through the infantry inside (V-TERR-11, V-HOUSE-2..5,
V-BUNK-3..5), and the G-2 roll's attack and defence (G-1, G-4, V-HOUSE-1,
V-BUNK-2, V-COVER-2)."""
import pytest

from .table import D, F, at_turn, defender_turn, tank


def vfire(t, shooter, weapon, target, die, distance=5.0, **kw):
    t.fire(shooter, weapon, target="vehicle", target_id=target, distance=distance, hit=D(die), **kw)


# --- the shooter's record -----------------------------------------------------------------------------------------


def test_g7_a_fighter_s_shot_records_his_turn_target_and_small_arms():
    t = at_turn()
    assert t.state.phase == "posture"
    t.fire("a1", "rifle", target_id="d1", struck=[{"fighter": "d1", "die": D(3)}])
    a1 = t.f("a1")
    assert (a1.shot_ply, a1.shots, a1.shot_target, a1.small_arms_ply) == (t.state.ply, 1, "fighters:d1", t.state.ply)
    assert t.state.phase == "fire"


def test_v_pers_2_a_vehicle_s_shot_records_its_crew_s_main_weapon():
    t = at_turn()
    vfire(t, "AP", "vehicle_mg", "DT4", 3)
    ap = t.v("AP")
    assert (ap.shot_ply, ap.shots, ap.shot_target) == (t.state.ply, 1, "vehicle:DT4")
    assert all(t.f(c).main_weapon_ply == t.state.ply for c in ("a_pd", "a_pc"))
    assert t.f("a_tp").main_weapon_ply != t.state.ply  # another vehicle's crew
    assert ap.sorties == 0  # only aircraft fly sorties


def test_g7_the_second_shot_of_a_two_shot_weapon_adds_to_the_count():
    t = defender_turn()
    for n in (1, 2):
        t.fire("DM", "mortar", distance=20, hit=D(3), target_id="x", struck=[{"fighter": "a1", "die": D(3)}])
        assert t.v("DM").shots == n and t.v("DM").shot_ply == t.state.ply


def test_g8_an_aircraft_s_attack_counts_a_sortie():
    t = at_turn()
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "bomber"}])
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "bomber", target="house", target_id="H", distance=50, visual_contact=False, corrected=True,
           hit=D(10))
    assert t.v("AIR").sorties == 1 and t.state.buildings["H"].damage == 0  # 10: missed (V-TEST-1)


@pytest.mark.parametrize(("die", "off"), [(10, False), (11, True)])
def test_g8_v_test_1_an_aa_hit_drives_the_aircraft_off(die, off):
    t = at_turn()
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "dive_bomber"}])
    t.fire("DAA", "aa_autocannon", target="aircraft", target_id="AIR", distance=30, hit=D(die))
    assert t.v("AIR").driven_off is off and not t.v("AIR").destroyed
    assert t.v("AIR").aa_by == ["DAA"]


def test_g8_the_hit_band_is_rules_data():
    t = at_turn({"test_success_min": 9})
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "dive_bomber"}])
    t.fire("DAA", "aa_autocannon", target="aircraft", target_id="AIR", distance=30, hit=D(9))
    assert t.v("AIR").driven_off


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


def test_v_atgl_1_the_at_class_is_rules_data():
    t = at_turn({"atgl_class": 4})
    vfire(t, "a_at", "at_rifle", "DT4", 11)
    assert t.v("DT4").damage == 1 and not t.v("DT4").destroyed


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


def riders_on(t, vid, *fids):
    """The attacker embarks ``fids`` as riders on ``vid``; then the defender's turn."""
    t.add("embarked", vehicle=vid, fighters=list(fids), role="riders")
    t.end_turn()
    t.postures("defender")


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


@pytest.mark.parametrize(("die", "destroyed"), [(10, False), (11, True)])
def test_v_mort_4_a_direct_mortar_hit_destroys_class_1_and_its_radius_only_on_a_hit(die, destroyed):
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "C1b", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "DM", "mortar", "C1", die, vehicles_struck=[{"vehicle": "C1b", "distance": 1.0}])
    assert t.v("C1").destroyed is destroyed and t.v("C1b").destroyed is destroyed
    assert t.f("d_mc").credit.vehicles_destroyed == (2 if destroyed else 0)  # the mortar's commander


def test_g7_a_howitzer_s_radius_does_not_destroy_the_vehicles_in_it():
    """The seed gives area weapons other than the mortar no fragment effect on vehicles (G-7, V-MORT-4)."""
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    t.fire("AH", "howitzer", distance=30, hit=D(15), target_id="p", struck=[{"fighter": "d1", "die": D(11)}],
           vehicles_struck=[{"vehicle": "C1", "distance": 1.0}])
    assert not t.v("C1").destroyed and t.f("d1").wounded


def test_v_mort_4_fragments_on_an_aim_point_miss_reach_nothing():
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    t.fire("DM", "mortar", distance=10, hit=D(10), target_id="p", struck=[{"fighter": "a1", "die": D(20)}],
           vehicles_struck=[{"vehicle": "C1", "distance": 0.5}])
    assert not t.v("C1").destroyed and not t.f("a1").wounded


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


@pytest.mark.parametrize(("shooter", "weapon", "target", "rule"), [
    ("a_at", "at_grenade_launcher", "vehicle", "V-ATGL-3"), ("AT3", "gun", "vehicle", "V-GUN-3"),
    ("a_lmg", "lmg", "vehicle", "S-TARGET"), ("AH", "howitzer", "house", "S-TARGET"),
])
def test_v_gun_3_v_atgl_3_only_an_area_shot_at_fighters_or_a_vehicle_has_a_radius(shooter, weapon, target, rule):
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tid = "H" if target == "house" else "DT4"
    err = t.refused("fire", shooter=shooter, weapon=weapon, target=target, target_id=tid, distance=5, hit=D(15),
                    vehicles_struck=[{"vehicle": "C1", "distance": 0.5}])
    assert err.rule_id == rule


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (2.01, False)])
def test_v_mort_1_a_howitzer_s_vehicles_in_the_radius_of_2(dist, ok):
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    data = dict(shooter="AH", weapon="howitzer", target="vehicle", target_id="DT4", distance=30, hit=D(15),
                vehicles_struck=[{"vehicle": "C1", "distance": dist}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-MORT-1"


# --- houses and pillboxes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "damage"), [(10, 0), (11, 1)])
def test_v_house_2_a_house_is_damaged_on_the_hit_test_and_credited(die, damage):
    t = at_turn()
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(die))
    assert t.state.buildings["H"].damage == damage
    assert t.f("a_bo").credit.buildings_damaged == damage  # the howitzer's officer


@pytest.mark.parametrize(("weapon", "damage"), [("at_gun", 1), ("aa_gun", 1), ("gun", 1)])
def test_v_house_2_every_class_6_gun_damages_a_house(weapon, damage):
    t = at_turn()
    tank(t, "attacker", "G6", armour=1, gun=6, weapon=weapon, kind="artillery")
    t.fire("G6", weapon, target="house", target_id="H", distance=10, hit=D(11))
    assert t.state.buildings["H"].damage == damage


def test_v_house_2_a_class_5_gun_does_not_damage_a_house():
    t = at_turn()
    tank(t, "attacker", "G5", armour=1, gun=5, weapon="at_gun", kind="artillery")
    t.fire("G5", "at_gun", target="house", target_id="H", distance=10, hit=D(20))
    assert t.state.buildings["H"].damage == 0


@pytest.mark.parametrize(("die", "hits"), [(10, 0), (11, 1)])
def test_v_bunk_3_a_pillbox_hit_needs_the_hit_test(die, hits):
    t = at_turn()
    tank(t, "attacker", "G6", armour=4, gun=6)
    t.fire("G6", "gun", target="bunker", target_id="B", distance=10, hit=D(die))
    assert t.state.bunkers["B"].hits == hits


def test_v_bunk_4_5_the_reserve_is_rules_data_and_a_ruined_pillbox_takes_no_more_hits():
    t = at_turn({"bunker_reserve": 1})
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    tank(t, "attacker", "G6", armour=4, gun=6)
    tank(t, "attacker", "G7", armour=4, gun=6)
    tank(t, "attacker", "G8", armour=4, gun=6)
    t.fire("G6", "gun", target="bunker", target_id="B", distance=10, hit=D(11))
    assert (t.state.bunkers["B"].hits, t.state.bunkers["B"].light_cover, t.f("b1").dead) == (1, False, False)
    t.fire("G7", "gun", target="bunker", target_id="B", distance=10, hit=D(11))
    assert (t.state.bunkers["B"].hits, t.state.bunkers["B"].light_cover, t.f("b1").dead) == (2, True, True)
    assert t.f("G7_c").credit.kills == 1
    t.fire("G8", "gun", target="bunker", target_id="B", distance=10, hit=D(11))
    assert t.state.bunkers["B"].hits == 2


@pytest.mark.parametrize(("die", "hits"), [(10, 0), (11, 1)])
def test_v_terr_11_a_flamethrower_at_infantry_in_a_pillbox_hits_it_on_the_g2_roll(die, hits):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B"), F("b2", "D", bunker="B")])
    t.fire("a_fl", "flamethrower", distance=4, struck=[{"fighter": "b1", "die": D(die)}, {"fighter": "b2", "die": D(20)}])
    assert t.state.bunkers["B"].hits == hits  # one hit for the shot, whoever else is struck
    assert not t.f("b1").wounded and not t.f("b2").wounded


@pytest.mark.parametrize(("die", "hits"), [(10, 0), (11, 1)])
def test_v_terr_11_a_heavy_howitzer_at_infantry_in_a_pillbox_hits_it_on_the_aim_point(die, hits):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    tank(t, "attacker", "HH", armour=1, gun=5, weapon="heavy_howitzer", kind="artillery")
    t.fire("HH", "heavy_howitzer", distance=30, hit=D(die), target_id="p", struck=[{"fighter": "b1", "die": D(1)}])
    assert t.state.bunkers["B"].hits == hits and not t.f("b1").wounded


def test_v_bunk_1_the_pillbox_shelters_its_men_others_in_the_radius_are_struck():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_lmg", "lmg", distance=10, struck=[{"fighter": "b1", "die": D(20)}, {"fighter": "d1", "die": D(11)}])
    assert not t.f("b1").wounded and t.f("d1").wounded


@pytest.mark.parametrize(("die", "damage", "wounded"), [(10, 0, False), (11, 1, True)])
def test_v_terr_11_v_house_3_a_mortar_hit_on_infantry_in_a_house_damages_it_and_strikes_the_target(die, damage,
                                                                                                  wounded):
    t = defender_turn()
    t.add("force_mustered", side="attacker", fighters=[F("h1", "A", building="H"), F("h2", "A", building="H")])
    t.fire("DM", "mortar", distance=20, hit=D(die), target_id="h1", spot=D(11),
           struck=[{"fighter": "h1", "die": D(13)}, {"fighter": "h2", "die": D(20)}])
    assert t.state.buildings["H"].damage == damage
    assert t.f("h1").wounded is wounded and not t.f("h2").wounded  # V-HOUSE-3: only the target
    # V-HOUSE-2 through V-TERR-11: the house's damage is the mortar crew's credit, as a shot at the house
    assert [f.id for f in t.state.fighters.values() if f.credit.buildings_damaged] == (["d_mc"] if damage else [])


def test_v_house_3_the_target_s_own_roll_with_house_defence_decides():
    t = defender_turn()
    t.add("force_mustered", side="attacker", fighters=[F("h1", "A", building="H")])
    t.fire("DM", "mortar", distance=20, hit=D(15), target_id="h1", spot=D(11), struck=[{"fighter": "h1", "die": D(12)}])
    assert t.state.buildings["H"].damage == 1 and not t.f("h1").wounded  # 12 - 2 < 11


def test_v_house_4_a_second_damage_by_infantry_fire_wounds_all_inside_but_no_extra_for_the_target():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H"), F("h2", "D", building="H")])
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(15))
    t.fire("a_fl", "flamethrower", distance=4, spot=D(11), struck=[{"fighter": "h1", "die": D(20)}])
    assert t.state.buildings["H"].damage == 2
    assert t.f("h1").wounded and t.f("h2").wounded and not t.f("h1").dead


def test_v_house_9_a_failed_spotting_test_spares_only_the_men_in_the_house():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_lmg", "lmg", distance=10, spot=D(10),
           struck=[{"fighter": "h1", "die": D(20)}, {"fighter": "d1", "die": D(11)}])
    assert not t.f("h1").wounded and t.f("d1").wounded


def test_g9_everywhere_a_sniper_s_failed_spot_does_not_matter():
    t = at_turn({"spotting_test_everywhere": True})
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(3), struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded


def test_g9_everywhere_a_failed_spot_in_a_pillbox_changes_nothing_and_a_spot_into_a_ruin_is_not_needed():
    t = at_turn({"spotting_test_everywhere": True})
    t.state.buildings["H"].light_cover = True
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a1", "rifle", spot=D(3), struck=[{"fighter": "h1", "die": D(12)}])
    assert t.f("h1").wounded  # a ruined house is light cover: the spotting test binds no one in it


# --- the G-2 roll -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "wounded"), [(8, False), (9, True)])
def test_g1_g2_the_shooter_s_attack_by_class_adds(die, wounded):
    t = at_turn({"attack": {"rifleman": 2}})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


def test_g1_a_vehicle_shooter_has_no_class_attack():
    t = at_turn({"attack": {"officer": 5, "personnel": 5}})
    t.fire("AP", "vehicle_mg", distance=5, struck=[{"fighter": "d1", "die": D(10)}])
    assert not t.f("d1").wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_g1_g2_the_target_s_defence_by_class_subtracts(die, wounded):
    t = at_turn({"defence": {"rifleman": 2}})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(11, False), (12, True)])
def test_g4_the_target_s_posture_defence_subtracts(die, wounded):
    postures = {"march": {"move": 12.0, "fire": False, "melee": False, "defence": 0},
                "recon": {"move": 6.0, "fire": True, "melee": False, "defence": 0},
                "assault": {"move": 6.0, "fire": True, "melee": True, "defence": 0},
                "dug_in": {"move": 0.0, "fire": True, "melee": False, "defence": 1}}
    t = at_turn({"postures": postures})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_house_1_the_house_defence_is_rules_data(die, wounded):
    t = at_turn({"house_defence": 1, "light_cover_defence": 0})
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "h1", "die": D(die - 1)}])
    assert t.f("h1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_cover_2_the_light_cover_defence_is_rules_data(die, wounded):
    t = at_turn({"light_cover_defence": 2})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die), "light_cover": True}])
    assert t.f("d1").wounded is wounded


def test_v_cover_2_light_cover_does_not_add_to_the_house_defence():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "h1", "die": D(13), "light_cover": True}])
    assert t.f("h1").wounded  # 13 - 2 >= 11: +2 only, not +3


@pytest.mark.parametrize(("die", "wounded"), [(11, False), (12, True)])
def test_v_bunk_2_a_sniper_at_an_embrasure_of_a_ruined_pillbox_meets_light_cover(die, wounded):
    t = at_turn()
    t.state.bunkers["B"].light_cover = True
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(11), struck=[{"fighter": "b1", "die": D(die), "embrasure": True}])
    assert t.f("b1").wounded is wounded


@pytest.mark.parametrize(("die", "killed"), [(10, False), (11, True)])
def test_v_atgl_1_v_gun_3_a_direct_hit_kills_one_infantryman_whatever_his_cover(die, killed):
    t = at_turn()
    t.fire("a_at", "at_grenade_launcher", distance=5, hit=D(die), struck=[{"fighter": "d1", "light_cover": True}])
    assert t.f("d1").dead is killed
    assert t.f("a_at").credit.kills == (1 if killed else 0)


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


def test_v_house_2_each_damage_adds_to_the_shooter_s_credit_and_v_house_5_caps_at_3():
    t = at_turn({"house_damage_per_hit": 2})
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(11))
    h = t.state.buildings["H"]
    assert (h.damage, h.light_cover, t.f("h1").wounded, t.f("h1").dead) == (2, False, True, False)
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(11))
    h = t.state.buildings["H"]
    assert (h.damage, h.light_cover, t.f("h1").dead) == (3, True, True)
    assert t.f("a_fl").credit.buildings_damaged == 2 and t.f("a_fl").credit.kills == 1


@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g1_g2_a_class_missing_from_the_tables_has_no_attack_or_defence(die, wounded):
    t = at_turn({"attack": {}, "defence": {}})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g4_a_posture_without_a_defence_entry_adds_nothing(die, wounded):
    postures = {"march": {"move": 12.0, "fire": False, "melee": False},
                "recon": {"move": 6.0, "fire": True, "melee": False},
                "assault": {"move": 6.0, "fire": True, "melee": True},
                "dug_in": {"move": 0.0, "fire": True, "melee": False}}
    t = at_turn({"postures": postures})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


def test_v_bunk_1_a_vehicle_s_mg_at_an_embrasure_does_nothing():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("AP", "vehicle_mg", distance=5, spot=D(20), struck=[{"fighter": "b1", "die": D(20), "embrasure": True}])
    assert not t.f("b1").wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_bunk_2_the_embrasure_counts_as_a_house_v_house_1(die, wounded):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(11),
           struck=[{"fighter": "b1", "die": D(die), "embrasure": True, "light_cover": True}])
    assert t.f("b1").wounded is wounded


@pytest.mark.parametrize(("weapon", "destroyed"), [("vehicle_mg", False), ("gun", True)])
def test_v_mg_2_a_tank_s_mg_is_class_1_whatever_its_gun(weapon, destroyed):
    t = at_turn()
    tank(t, "attacker", "T3", armour=3, gun=3)
    tank(t, "defender", "X2", armour=2, gun=0)
    vfire(t, "T3", weapon, "X2", 20)
    x = t.v("X2")
    assert (x.destroyed, x.damage, x.running_gear) == (destroyed, 0, False)


@pytest.mark.parametrize(("die", "damage"), [(10, 0), (11, 1)])
def test_v_aa_5_an_aa_autocannon_at_a_vehicle_is_a_class_1_mg_with_the_hit_test(die, damage):
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "DAA", "aa_autocannon", "C1", die, distance=20)
    assert (t.v("C1").damage, t.v("C1").running_gear) == (damage, False)


def test_v_house_4_the_dead_and_the_captured_inside_are_not_wounded_again():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H"), F("h2", "D", building="H")])
    t.state.fighters["h2"].captured = True
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(15))
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    assert t.f("h1").wounded and not t.f("h2").wounded
    assert t.f("a_fl").credit.wounds == 1
