"""Fire at vehicles: the tank test, class comparison and the damage reserve
(V-TEST-8..10, V-VDMG), crews (V-CREW), riders (V-RIDE), MGs, mortars,
flamethrowers, AT grenade launchers and rifles, guns and the AT ambush."""
import pytest

from .table import D, F, attacker_turn, standard, tank


def at_turn(**rules):
    t = attacker_turn(standard(rules or None))
    return t


def shoot_vehicle(t, shooter, weapon, target, die, distance=5.0, **kw):
    t.fire(shooter, weapon, target="vehicle", target_id=target, distance=distance, hit=D(die), **kw)


@pytest.mark.parametrize(("die", "damage", "gear"), [(10, 0, False), (11, 1, False), (15, 1, False),
                                                     (16, 1, True), (20, 1, True), (1, 0, False)])
def test_v_test_8_9_10_tank_test_bands_on_equal_class(die, damage, gear):
    """V-TEST-8 miss 1-10, V-TEST-9 hit 11-15, V-TEST-10 hit + running gear 16-20; V-VDMG-3 equal class = 1 damage."""
    t = at_turn()
    tank(t, "defender", "X3", armour=3, gun=0)
    shoot_vehicle(t, "AT3", "gun", "X3", die)
    x = t.v("X3")
    assert (x.damage, x.running_gear, x.destroyed) == (damage, gear, False)


def test_v_vdmg_2_lower_class_cannot_damage_and_v_test_10_no_running_gear():
    t = at_turn()
    shoot_vehicle(t, "AT3", "gun", "DT4", 20)
    dt = t.v("DT4")
    assert (dt.damage, dt.running_gear, dt.destroyed) == (0, False, False)


def test_v_vdmg_4_reserve_of_one_the_second_damage_destroys_and_v_crew_6_kills_all_aboard():
    t = at_turn()
    tank(t, "defender", "X3", armour=3, gun=0)
    shoot_vehicle(t, "AT3", "gun", "X3", 12)
    assert t.v("X3").damage == 1 and not t.v("X3").destroyed
    assert not t.f("X3_c").wounded  # V-CREW-7: damage never wounds the crew
    tank(t, "attacker", "Y3", armour=3, gun=3)
    shoot_vehicle(t, "Y3", "gun", "X3", 12)
    assert t.v("X3").destroyed
    assert t.f("X3_c").dead and t.f("X3_p").dead  # V-CREW-6
    assert t.f("Y3_c").credit.vehicles_destroyed == 1 and t.f("X3_c").credit.vehicles_lost == 1


def test_v_vdmg_5_higher_class_destroys_on_a_hit():
    t = at_turn()
    tank(t, "defender", "X2", armour=2, gun=0)
    shoot_vehicle(t, "AT3", "gun", "X2", 11)
    assert t.v("X2").destroyed


def test_v_vdmg_6_running_gear_damage_immobilises_until_the_end():
    t = at_turn()
    tank(t, "defender", "X3", armour=3, gun=0)
    shoot_vehicle(t, "AT3", "gun", "X3", 18)
    t.next_turn()
    assert t.refused("vehicle_moved", vehicle="X3", distance=1).rule_id == "V-VDMG-6"


def test_v_crew_4_one_crew_member_may_move_but_not_fire_and_v_crew_5_needs_an_officer():
    t = at_turn()
    tank(t, "attacker", "S1", armour=3, gun=3, crew=1)
    t.add("vehicle_moved", vehicle="S1", distance=4)
    err = t.refused("fire", shooter="S1", weapon="gun", target="vehicle", target_id="DT4", distance=5, hit=D(15))
    assert err.rule_id == "V-CREW-4"
    t.add("force_mustered", side="attacker", fighters=[F("p1", cls="personnel"), F("p2", cls="personnel")],
          vehicles=[{"id": "S2", "armour": 3, "gun": 3, "crew": ["p1", "p2"]}])
    err = t.refused("fire", shooter="S2", weapon="gun", target="vehicle", target_id="DT4", distance=5, hit=D(15))
    assert err.rule_id == "V-CREW-5"


def test_v_crew_7_damage_that_does_not_destroy_never_wounds_the_crew():
    t = at_turn()
    tank(t, "defender", "X3", armour=3, gun=0)
    shoot_vehicle(t, "AT3", "gun", "X3", 17)
    assert t.v("X3").damage == 1 and not any(t.f(c).wounded or t.f(c).dead for c in t.v("X3").crew)


def test_v_test_8_class_1_guns_use_the_hit_test_and_v_mg_2_mg_fires_as_class_1():
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0)
    t.add("embarked", vehicle="AP", fighters=["a1"])
    t.end_turn()
    t.postures("defender")
    t.next_turn()
    t.fire("a1", "vehicle_mg", target="vehicle", target_id="C1", distance=5, hit=D(11))
    c1 = t.v("C1")
    assert c1.damage == 1 and not c1.running_gear  # hit test: no running gear even on a high roll


def test_v_mg_2_mg_hit_test_boundary():
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0)
    t.fire("a_lmg", "lmg", target="vehicle", target_id="C1", distance=5, hit=D(10))
    assert t.v("C1").damage == 0


def test_v_mort_4_mortar_destroys_class_1_and_v_mort_5_does_no_damage_above_class_1():
    """V-MORT-5 is no damage, not a ban: the shot is made, counts towards the two (V-MORT-3), changes nothing."""
    t = standard()
    t.postures("defender")
    tank(t, "attacker", "C1", armour=1, gun=0)
    tank(t, "attacker", "C2", armour=2, gun=0)
    before = (t.v("C2").damage, t.v("C2").running_gear, t.v("C2").destroyed)
    shoot_vehicle(t, "DM", "mortar", "C2", 20)
    shoot_vehicle(t, "DM", "mortar", "C2", 20)
    assert (t.v("C2").damage, t.v("C2").running_gear, t.v("C2").destroyed) == before
    assert not any(t.f(c).dead or t.f(c).wounded for c in t.v("C2").crew)
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C2", distance=5, hit=D(15))
    assert err.rule_id == "V-MORT-3"  # both shots were made
    t.next_turn()
    t.next_turn()
    shoot_vehicle(t, "DM", "mortar", "C1", 11)
    assert t.v("C1").destroyed


def test_v_mort_3_a_no_damage_shot_then_a_shot_at_another_target_is_refused():
    t = standard()
    t.postures("defender")
    tank(t, "attacker", "C1", armour=1, gun=0)
    tank(t, "attacker", "C2", armour=2, gun=0)
    shoot_vehicle(t, "DM", "mortar", "C2", 20)
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C1", distance=5, hit=D(15))
    assert err.rule_id == "V-MORT-3"


def mortar_table():
    t = standard()
    t.postures("defender")
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "C1b", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "C2", armour=2, gun=0)
    return t


@pytest.mark.parametrize(("die", "destroyed"), [(10, False), (11, True)])
def test_v_mort_4_fragments_destroy_a_class_1_vehicle_in_the_radius_and_v_mort_5_spare_class_2(die, destroyed):
    """V-MORT-4: «прямым и осколочным попаданием» — an aim-point hit on infantry reaches class-1 vehicles within 1"."""
    t = mortar_table()
    t.fire("DM", "mortar", distance=10, target_id="pt", hit=D(die),
           struck=[{"fighter": "a1", "die": D(1), "distance": 0.0}],
           vehicles_struck=[{"vehicle": "C1", "distance": 1.0}, {"vehicle": "C2", "distance": 0.5}])
    assert t.v("C1").destroyed is destroyed
    assert all(t.f(c).dead is destroyed for c in t.v("C1").crew)  # V-CREW-6
    assert not t.v("C2").destroyed and t.v("C2").damage == 0
    last = t.events[-1]
    assert last.data["vehicles_struck"][0]["vehicle"] == "C1"


def test_v_mort_4_a_direct_hit_also_reaches_the_class_1_vehicles_beside_it():
    t = mortar_table()
    shoot_vehicle(t, "DM", "mortar", "C1", 12, vehicles_struck=[{"vehicle": "C1b", "distance": 0.8}])
    assert t.v("C1").destroyed and t.v("C1b").destroyed


def test_v_mort_2_a_vehicle_beyond_the_1_inch_radius_is_refused():
    t = mortar_table()
    err = t.refused("fire", shooter="DM", weapon="mortar", target="fighters", distance=10, target_id="pt",
                    hit=D(15), struck=[{"fighter": "a1", "die": D(1), "distance": 0.0}],
                    vehicles_struck=[{"vehicle": "C1", "distance": 1.01}])
    assert err.rule_id == "V-MORT-2"


def test_vehicles_struck_are_only_for_area_weapons_and_only_live_enemy_vehicles():
    """V-GUN-3: a gun's shell has no fragments; an area shot names live enemy vehicles."""
    t = mortar_table()
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="C1", distance=10,
                    hit=D(15), vehicles_struck=[{"vehicle": "C1b", "distance": 0.5}])
    assert err.rule_id == "V-GUN-3"
    err = t.refused("fire", shooter="DM", weapon="mortar", target="vehicle", target_id="C1", distance=10,
                    hit=D(15), vehicles_struck=[{"vehicle": "DT4", "distance": 0.5}])
    assert err.rule_id == "S-TARGET"


def test_v_ride_5_riders_in_the_radius_are_struck_as_fighters_their_class_3_tank_is_untouched():
    """V-RIDE-5, V-MORT-5: the riders on a tank in the mortar's radius are fighters in the radius."""
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.postures("attacker")
    t.add("embarked", vehicle="AT3", fighters=["a1"], role="riders")
    t.end_turn()
    t.postures("defender")
    t.fire("DM", "mortar", distance=10, target_id="pt", hit=D(15),
           struck=[{"fighter": "a1", "die": D(20), "distance": 0.5}],
           vehicles_struck=[{"vehicle": "AT3", "distance": 0.5}])
    assert t.f("a1").wounded and t.v("AT3").damage == 0 and not t.v("AT3").destroyed


@pytest.mark.parametrize(("die", "killed"), [(10, False), (11, True)])
def test_v_flame_2_flamethrower_hit_test_kills_the_crew(die, killed):
    t = at_turn()
    shoot_vehicle(t, "a_fl", "flamethrower", "DT4", die, distance=3)
    assert all(t.f(c).dead is killed for c in ("d_tc", "d_tp"))
    assert not t.v("DT4").destroyed


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (2.99, False)])
def test_v_flame_6_no_flamethrower_fire_under_three_inches(dist, ok):
    t = at_turn()
    if ok:
        shoot_vehicle(t, "a_fl", "flamethrower", "DT4", 5, distance=dist)
    else:
        err = t.refused("fire", shooter="a_fl", weapon="flamethrower", target="vehicle", target_id="DT4",
                        distance=dist, hit=D(5))
        assert err.rule_id == "V-FLAME-6"


def test_v_flame_3_crewless_tank_boarded_next_turn_and_v_flame_4_needs_personnel():
    t = at_turn()
    shoot_vehicle(t, "a_fl", "flamethrower", "DT4", 15, distance=4)
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-FLAME-3"
    t.next_turn()
    t.next_turn()
    t.add("vehicle_boarded", vehicle="DT4", fighter="a1")
    assert t.v("DT4").side == "attacker" and t.f("a1").credit.vehicles_captured == 1
    assert t.refused("vehicle_moved", vehicle="DT4", distance=2).rule_id == "V-FLAME-4"
    t.add("force_mustered", side="attacker", fighters=[F("a_x", cls="personnel")])
    t.add("crew_boarded", vehicle="DT4", fighters=["a_x"])
    t.add("vehicle_moved", vehicle="DT4", distance=2)


def test_v_flame_4_the_owner_re_crewing_his_own_flamed_tank_needs_no_personnel():
    """V-FLAME-4 binds a tank *captured* this way: its owner, who never lost it, mans it with a rifleman."""
    t = at_turn()
    shoot_vehicle(t, "a_fl", "flamethrower", "DT4", 15, distance=4)
    t.next_turn()
    t.add("crew_boarded", vehicle="DT4", fighters=["d1"])
    t.add("vehicle_moved", vehicle="DT4", distance=2)
    assert t.v("DT4").side == "defender" and not t.v("DT4").captured


def test_v_capt_1_no_boarding_without_a_flamed_crew():
    t = at_turn()
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-CAPT-1"


@pytest.mark.parametrize("weapon", ["at_grenade_launcher", "at_rifle"])
def test_v_atgl_1_and_4_at_weapons_act_as_class_5_guns(weapon):
    """V-ATGL-1 (class-5 AT gun), V-ATGL-4 (AT rifles are AT grenade launchers)."""
    t = at_turn()
    shooter = "a_at"
    shoot_vehicle(t, shooter, weapon, "DT4", 11)
    assert t.v("DT4").destroyed  # class 5 > armour 4 (V-VDMG-5)


def test_v_vdmg_8_side_skirts_make_a_tank_immune_to_grenade_launchers_and_at_rifles():
    t = at_turn()
    tank(t, "defender", "SK", armour=4, gun=0, skirts=True)
    shoot_vehicle(t, "a_at", "at_grenade_launcher", "SK", 18)
    assert (t.v("SK").damage, t.v("SK").destroyed) == (0, False)


def test_v_atgl_3_and_v_gun_3_one_infantryman_at_most_no_fragments():
    """V-GUN-2 and V-ATGL-3: no fragments, so a shot cannot strike a second fighter (V-GUN-3)."""
    t = at_turn()
    for shooter, weapon, rule in (("a_at", "at_grenade_launcher", "V-ATGL-3"), ("AT3", "gun", "V-GUN-3")):
        err = t.refused("fire", shooter=shooter, weapon=weapon, target="fighters", distance=5, hit=D(15),
                        struck=[{"fighter": "d1"}, {"fighter": "d2"}])
        assert err.rule_id == rule


@pytest.mark.parametrize(("die", "dead"), [(10, False), (11, True)])
def test_v_gun_3_a_direct_gun_hit_kills_one_infantryman_and_v_gun_2_no_fragments(die, dead):
    """V-GUN-3: the hit test alone decides (no wound die); V-GUN-2: no fragments, so the man next to
    him cannot be struck by the same shell, and a missed shell harms no one."""
    t = at_turn()
    two = [{"fighter": "d1"}, {"fighter": "d2", "distance": 0.5}]
    assert t.refused("fire", shooter="AT3", weapon="gun", target="fighters", distance=10, hit=D(15),
                     struck=two).rule_id == "V-GUN-3"
    assert t.refused("fire", shooter="AT3", weapon="gun", target="fighters", distance=10, hit=D(15),
                     struck=two[:1], vehicles_struck=[{"vehicle": "DT4", "distance": 0.5}]).rule_id == "V-GUN-3"
    t.fire("AT3", "gun", distance=10, hit=D(die), struck=two[:1])
    assert t.f("d1").dead is dead and not t.f("d1").wounded


def test_v_gun_1_guns_need_visual_contact_and_never_use_correction():
    t = at_turn()
    err = t.refused("fire", shooter="AT3", weapon="gun", target="vehicle", target_id="DT4", distance=10,
                    visual_contact=False, hit=D(15))
    assert err.rule_id == "V-GUN-1"
    err = t.refused("fire", shooter="AT3", weapon="gun", target="vehicle", target_id="DT4", distance=10,
                    corrected=True, visual_contact=False, hit=D(15))
    assert err.rule_id == "V-GUN-1"


def enemy_moving():
    """Attacker's turn, movement phase: tank AT3 has just moved."""
    t = at_turn()
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    return t


@pytest.mark.parametrize(("path", "ok"), [(1.99, True), (2.0, False)])
def test_v_gun_4_and_5_at_ambush_in_the_enemy_movement_phase_path_under_2(path, ok):
    """V-GUN-4, V-GUN-5: the path must pass less than 2\" from the aim line."""
    t = enemy_moving()
    data = dict(shooter="DG", weapon="at_gun", target="vehicle", target_id="AT3", distance=12, hit=D(12),
                ambush=True, path_distance=path)
    if ok:
        t.add("fire", **data)
        assert t.v("AT3").destroyed  # gun 4 > armour 3
    else:
        assert t.refused("fire", **data).rule_id == "V-GUN-5"


def test_v_gun_4_one_ambush_shot_per_enemy_movement_phase_g24_and_only_at_guns():
    t = enemy_moving()
    tank(t, "attacker", "X5", armour=5, gun=0)
    t.add("vehicle_moved", vehicle="X5", distance=6)
    t.add("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="X5", distance=12, hit=D(3),
          ambush=True, path_distance=1)
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="AT3", distance=12,
                    hit=D(12), ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"
    err = t.refused("fire", shooter="DT4", weapon="gun", target="vehicle", target_id="AT3", distance=12,
                    hit=D(12), ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


def test_v_gun_4_no_ambush_outside_the_movement_phase():
    t = enemy_moving()
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(2)}])  # the attacker is now firing
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="AT3", distance=12,
                    hit=D(12), ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


def test_v_gun_4_the_ambush_is_fired_only_at_armour_not_at_an_unarmoured_car():
    """V-GUN-4 «по бронетехнике»: a moving car is not armour; an APC is."""
    t = enemy_moving()
    tank(t, "attacker", "CAR", armour=1, gun=0, kind="car", drive="wheeled")
    t.add("vehicle_moved", vehicle="CAR", distance=6)
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="CAR", distance=12,
                    hit=D(12), ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"
    t.add("vehicle_moved", vehicle="AP", distance=6)
    t.add("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="AP", distance=12, hit=D(12),
          ambush=True, path_distance=1)
    assert t.v("AP").destroyed  # gun 4 > armour 2


def test_v_atgl_1_reading_no_ambush_for_at_grenadiers():
    t = enemy_moving()
    t.add("force_mustered", side="defender", fighters=[F("d_at", "D", "at_grenadier")])
    err = t.refused("fire", shooter="d_at", weapon="at_grenade_launcher", target="vehicle", target_id="AT3",
                    distance=5, hit=D(12), ambush=True, path_distance=1)
    assert err.rule_id == "V-ATGL-1"


def test_v_aa_7_aa_gun_with_bought_at_ability_may_ambush():
    t = enemy_moving()
    tank(t, "defender", "AAG", armour=1, gun=4, weapon="aa_gun", specialisations=["at_fire"], kind="artillery")
    t.add("fire", shooter="AAG", weapon="aa_gun", target="vehicle", target_id="AT3", distance=12, hit=D(12),
          ambush=True, path_distance=0.5)
    assert t.v("AT3").destroyed


def test_v_aa_4_aa_gun_at_ground_targets_by_its_class_and_v_aa_1_artillery_crew_rules():
    t = standard()
    t.postures("defender")
    tank(t, "defender", "AAG", armour=1, gun=3, weapon="aa_gun", kind="artillery")
    t.fire("AAG", "aa_gun", target="vehicle", target_id="AT3", distance=20, hit=D(12))
    assert t.v("AT3").damage == 1  # class 3 vs armour 3 (V-VDMG-3)
    tank(t, "defender", "AA1", armour=1, gun=3, weapon="aa_gun", kind="artillery", crew=1)
    err = t.refused("fire", shooter="AA1", weapon="aa_gun", target="vehicle", target_id="AT3", distance=20, hit=D(12))
    assert err.rule_id == "V-CREW-4"  # V-AA-1: general artillery rules


def test_v_aa_5_autocannon_is_a_heavy_mg_with_unlimited_range():
    t = standard()
    t.postures("defender")
    t.fire("DAA", "aa_autocannon", distance=60, struck=[{"fighter": "a1", "die": D(11)}, {"fighter": "a2", "die": D(10)}])
    assert t.f("a1").wounded and not t.f("a2").wounded


def aircraft(t, side, vid, kind):
    t.add("force_mustered", side=side, vehicles=[{"id": vid, "kind": "aircraft", "drive": "none", "weapon": kind}])


@pytest.mark.parametrize(("kind", "ok"), [("ground_attack_aircraft", True), ("dive_bomber", True), ("bomber", False)])
def test_v_aa_6_autocannon_only_at_ground_attack_aircraft_and_dive_bombers(kind, ok):
    t = at_turn()
    aircraft(t, "attacker", "AIR", kind)
    data = dict(shooter="DAA", weapon="aa_autocannon", target="aircraft", target_id="AIR", distance=30, hit=D(11))
    if ok:
        t.add("fire", **data)  # V-AA-3: during the enemy's turn
        assert t.v("AIR").driven_off
    else:
        assert t.refused("fire", **data).rule_id == "V-AA-6"


def test_v_aa_2_aa_guns_fire_at_aircraft_and_ground_others_not_at_aircraft_v_aa_3_enemy_turn():
    t = at_turn()
    aircraft(t, "attacker", "AIR", "bomber")
    tank(t, "defender", "AAG", armour=1, gun=3, weapon="aa_gun", kind="artillery")
    t.add("fire", shooter="AAG", weapon="aa_gun", target="aircraft", target_id="AIR", distance=30, hit=D(10))
    assert not t.v("AIR").driven_off  # G-8: 1-10 fails
    err = t.refused("fire", shooter="DT4", weapon="gun", target="aircraft", target_id="AIR", distance=30, hit=D(15))
    assert err.rule_id == "V-AA-2"


def test_v_ride_7_riders_wounded_when_the_tank_is_hit_by_a_gun():
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.postures("attacker", A="recon")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.end_turn()
    t.postures("defender")
    t.fire("DT4", "gun", target="vehicle", target_id="AT3", distance=10, hit=D(11))
    assert t.v("AT3").destroyed and t.f("a1").dead and t.f("a2").dead  # V-CREW-6 includes riders


def test_v_ride_7_riders_wounded_when_hit_without_destruction_and_by_a_grenade():
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.postures("attacker")
    tank(t, "attacker", "H5", armour=5, gun=0)
    t.add("embarked", vehicle="H5", fighters=["a1"], role="riders")
    t.add("embarked", vehicle="AT3", fighters=["a3"], role="riders")
    t.end_turn()
    t.postures("defender")
    t.fire("DT4", "gun", target="vehicle", target_id="H5", distance=10, hit=D(12))
    assert t.v("H5").damage == 0 and t.f("a1").wounded  # class 4 < 5: no damage, riders still wounded
    t.fire("d1", "grenade", target="vehicle", target_id="AT3", distance=3, hit=D(13))
    assert t.f("a3").wounded and t.v("AT3").damage == 0


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_test_2_grenade_band_1_12_fails_13_20_succeeds(die, wounded):
    t = at_turn()
    t.fire("a1", "grenade", distance=3, hit=D(die), struck=[{"fighter": "d1"}])
    assert t.f("d1").wounded is wounded


def test_v_ride_5_riders_are_vulnerable_to_any_weapon_and_v_ride_4_fire_within_6():
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.postures("attacker")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=6.01,
                     struck=[{"fighter": "d1", "die": D(15)}]).rule_id == "V-RIDE-4"
    t.fire("a1", "rifle", distance=6, struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.fire("d2", "rifle", distance=6, struck=[{"fighter": "a2", "die": D(11)}])
    assert t.f("a2").wounded


def test_v_pers_2_personnel_small_arms_only_when_not_firing_the_main_weapon():
    t = at_turn()
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=10, hit=D(3))
    err = t.refused("fire", shooter="a_tp", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "V-PERS-2"
    t2 = at_turn()
    t2.fire("a_pd", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    err = t2.refused("fire", shooter="AP", weapon="vehicle_mg", target="fighters", distance=5,
                     struck=[{"fighter": "d2", "die": D(15)}])
    assert err.rule_id == "V-PERS-2"


def test_v_gun_5_no_ambush_at_a_tank_that_has_not_moved():
    t = enemy_moving()
    tank(t, "attacker", "STILL", armour=3, gun=0)
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="STILL", distance=12,
                    hit=D(12), ambush=True, path_distance=0.5)
    assert err.rule_id == "V-GUN-5"


def test_g24_ambush_shots_per_phase_are_rules_data():
    t = attacker_turn(standard({"ambush_shots_per_phase": 2}))
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    for die in (3, 4):
        t.add("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="AT3", distance=12, hit=D(die),
              ambush=True, path_distance=1)
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="AT3", distance=12,
                    hit=D(12), ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


def test_v_vdmg_4_a_destroyed_vehicle_neither_fires_nor_moves():
    t = at_turn()
    tank(t, "defender", "X2", armour=2, gun=2)
    shoot_vehicle(t, "AT3", "gun", "X2", 12)
    assert t.v("X2").destroyed
    t.next_turn()
    assert t.refused("vehicle_moved", vehicle="X2", distance=1).rule_id == "V-VDMG-4"
    err = t.refused("fire", shooter="X2", weapon="gun", target="vehicle", target_id="AT3", distance=5, hit=D(20))
    assert err.rule_id == "V-VDMG-4"


def test_v_aa_3_aircraft_are_engaged_in_their_sides_turn_only():
    t = standard()
    t.postures("defender")
    aircraft(t, "attacker", "AIR", "dive_bomber")
    err = t.refused("fire", shooter="DAA", weapon="aa_autocannon", target="aircraft", target_id="AIR", distance=30,
                    hit=D(15))
    assert err.rule_id == "V-AA-3"


def test_g8_an_aircraft_flies_one_sortie_corrected_like_artillery_v_corr_2():
    t = at_turn()
    aircraft(t, "attacker", "AIR", "ground_attack_aircraft")
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
           corrected=True, hit=D(14))
    assert t.state.buildings["H"].damage == 1  # V-HOUSE-2: ground-attack aircraft damage houses
    t.next_turn()
    t.next_turn()
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    err = t.refused("fire", shooter="AIR", weapon="ground_attack_aircraft", target="house", target_id="H",
                    distance=50, visual_contact=False, corrected=True, hit=D(14))
    assert err.rule_id == "V-CORR-2"


def test_v_flame_3_a_flamed_tank_manned_again_by_its_owner_is_not_taken_by_one_fighter():
    # V-FLAME-3: only a tank whose crew is dead is taken without the capture rules (V-CAPT-1)
    t = at_turn()
    shoot_vehicle(t, "a_fl", "flamethrower", "DT4", 15, distance=4)
    t.next_turn()  # the defender's turn: he mans his tank again
    t.add("force_mustered", side="defender", fighters=[F("d_x", "D", cls="personnel"), F("d_y", "D", cls="personnel")])
    t.add("crew_boarded", vehicle="DT4", fighters=["d_x", "d_y"])
    t.next_turn()
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-FLAME-3"
    dt4 = t.v("DT4")
    assert dt4.side == "defender" and {"d_x", "d_y"} <= set(dt4.crew)


def test_v_flame_4_a_captured_flamed_tank_without_personnel_does_not_fire():
    """V-FLAME-4 «использовать (двигать или стрелять)»: three crewmen with an officer, but no personnel,
    still do not fire the captured tank (V-CREW-4 and V-CREW-5 are met); personnel aboard, it fires."""
    t = at_turn()
    shoot_vehicle(t, "a_fl", "flamethrower", "DT4", 15, distance=4)
    t.next_turn()
    t.next_turn()
    t.add("vehicle_boarded", vehicle="DT4", fighter="a1")
    t.add("crew_boarded", vehicle="DT4", fighters=["a2", "a_cpl"])
    err = t.refused("fire", shooter="DT4", weapon="gun", target="vehicle", target_id="DG", distance=5, hit=D(3))
    assert err.rule_id == "V-FLAME-4"
    t.add("force_mustered", side="attacker", fighters=[F("a_x", cls="personnel")])
    t.add("crew_boarded", vehicle="DT4", fighters=["a_x"])
    shoot_vehicle(t, "DT4", "gun", "DG", 3)
    assert t.v("DT4").shots == 1


def test_v_vdmg_6_immobilised_to_the_end_of_the_battle_and_still_fires():
    """V-VDMG-6 «до конца боя»: turns later the vehicle still cannot move; running-gear damage stops only
    movement, so it still fires."""
    t = at_turn()
    tank(t, "defender", "X3", armour=3, gun=3)
    shoot_vehicle(t, "AT3", "gun", "X3", 18)
    assert t.v("X3").running_gear and not t.v("X3").destroyed
    for _ in range(3):
        t.next_turn()
        t.next_turn()
    assert t.state.side_to_move == "attacker"
    t.next_turn()
    assert t.refused("vehicle_moved", vehicle="X3", distance=1).rule_id == "V-VDMG-6"
    t.fire("X3", "gun", target="vehicle", target_id="AT3", distance=5, hit=D(3))
    assert t.v("X3").shots == 1
