"""Issue 11: the per-target checks of a shot (``fire._TARGET_CHECKS``) and the
vehicles in an area weapon's radius (``_check_vehicles_struck``): who may be
struck (S-TARGET, V-TRANS-7), how many (V-MG-1, V-GUN-3, V-ATGL-3), within
which radius (V-MG-4, V-MG-8, V-MORT-1, V-MORT-2), when a spotting test is
needed (V-HOUSE-9, V-SNIP-3, V-BUNK-2, V-COVER-4, G-9), what may be shot at a
vehicle (V-VDMG-2, V-GUN-4, V-GUN-5) and at an aircraft (V-AA-2, V-AA-3,
V-AA-6, G-8)."""
import pytest

from .table import D, F, at_turn, defender_turn, tank


def shot(shooter, weapon, struck, distance=5.0, **kw):
    return dict(shooter=shooter, weapon=weapon, target="fighters", distance=distance, struck=struck, **kw)


# --- fighters -------------------------------------------------------------------------------------------------------


def test_s_target_a_shot_at_fighters_names_the_struck():
    t = at_turn()
    assert t.refused("fire", **shot("a1", "rifle", [])).rule_id == "S-TARGET"


@pytest.mark.parametrize(("shooter", "weapon", "rule"), [
    ("a1", "grenade", "V-MG-1"), ("a_snp", "sniper_rifle", "V-MG-1"), ("a1", "rifle", "V-MG-1"),
    ("a_at", "at_rifle", "V-ATGL-3"), ("a_at", "at_grenade_launcher", "V-ATGL-3"), ("AT3", "gun", "V-GUN-3"),
])
def test_v_mg_1_v_gun_3_v_atgl_3_single_target_weapons_strike_one_fighter(shooter, weapon, rule):
    t = at_turn()
    two = [{"fighter": "d1", "die": D(11)}, {"fighter": "d2", "die": D(11)}]
    assert t.refused("fire", **shot(shooter, weapon, two, distance=3, hit=D(15))).rule_id == rule
    t.add("fire", **shot(shooter, weapon, two[:1], distance=3, hit=D(15)))


@pytest.mark.parametrize("weapon", ["at_gun", "aa_gun"])
def test_v_gun_3_an_at_or_aa_gun_strikes_one_fighter(weapon):
    t = defender_turn()
    tank(t, "defender", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    two = [{"fighter": "a1"}, {"fighter": "a2"}]
    assert t.refused("fire", **shot("G", weapon, two, distance=10, hit=D(15))).rule_id == "V-GUN-3"
    t.add("fire", **shot("G", weapon, two[:1], distance=10, hit=D(15)))
    assert t.f("a1").dead and not t.f("a2").dead  # V-GUN-3: a direct hit kills one infantryman


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


def test_v_mort_2_the_radius_is_rules_data_and_a_rifle_has_none():
    t = at_turn({"radius": {"lmg": 3.0}})
    t.fire("a_lmg", "lmg", distance=10, struck=[{"fighter": "d1", "die": D(11), "distance": 3.0}])
    assert t.f("d1").wounded
    t.fire("a1", "rifle", struck=[{"fighter": "d2", "die": D(11), "distance": 40.0}])
    assert t.f("d2").wounded


def test_s_target_a_fighter_of_one_s_own_side_is_no_target():
    t = at_turn()
    assert t.refused("fire", **shot("a1", "rifle", [{"fighter": "a2", "die": D(11)}])).rule_id == "S-TARGET"


def test_s_target_a_captured_fighter_is_no_target():
    t = at_turn()
    t.state.fighters["d1"].captured = True
    assert t.refused("fire", **shot("a1", "rifle", [{"fighter": "d1", "die": D(11)}])).rule_id == "S-TARGET"


def test_s_unknown_a_struck_fighter_not_on_the_table():
    t = at_turn()
    assert t.refused("fire", **shot("a1", "rifle", [{"fighter": "zz", "die": D(11)}])).rule_id == "S-UNKNOWN"


def test_v_trans_7_a_vehicle_s_crew_is_never_exposed_to_fire():
    t = at_turn()
    t.fire("a_tc", "rifle", struck=[{"fighter": "d1", "die": D(3)}])
    t.end_turn()
    t.postures("defender")
    assert t.refused("fire", **shot("d1", "rifle", [{"fighter": "a_tc", "die": D(11)}])).rule_id == "V-TRANS-7"


def passengers():
    """a1, a2 embarked on APC AP in the attacker's first turn; the defender's second turn follows."""
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1", "a2"])
    return t


def test_v_trans_7_a_passenger_who_fired_last_turn_is_exposed_then_hidden_again():
    t = passengers()
    t.fire("a1", "vehicle_mg", distance=10, struck=[{"fighter": "d1", "die": D(3)}])
    t.end_turn()
    t.postures("defender")  # the ply after a1's shot: exposed (as in light cover)
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(12)}])
    assert t.f("a1").wounded
    assert t.refused("fire", **shot("d3", "rifle", [{"fighter": "a2", "die": D(20)}])).rule_id == "V-TRANS-7"
    t.next_turn(A="recon")
    t.next_turn()  # two plies after the shot: hidden again
    assert t.refused("fire", **shot("d3", "rifle", [{"fighter": "a1", "die": D(20)}])).rule_id == "V-TRANS-7"


def into(t, side, fid, **kw):
    t.add("force_mustered", side=side, fighters=[F(fid, "D" if side == "defender" else "A", **kw)])


def test_v_house_9_a_vehicle_firing_into_a_house_needs_the_spotting_test():
    t = at_turn()
    into(t, "defender", "h1", building="H")
    err = t.refused("fire", **shot("AP", "vehicle_mg", [{"fighter": "h1", "die": D(20)}]))
    assert err.rule_id == "V-HOUSE-9"
    t.fire("AP", "vehicle_mg", spot=D(11), struck=[{"fighter": "h1", "die": D(13)}])
    assert t.f("h1").wounded  # 13 - 2 >= 11 (V-HOUSE-1)


def test_v_house_9_one_struck_fighter_in_a_house_is_enough_to_need_the_test():
    t = at_turn()
    into(t, "defender", "h1", building="H")
    struck = [{"fighter": "h1", "die": D(20), "distance": 0.0}, {"fighter": "d1", "die": D(20), "distance": 0.5}]
    assert t.refused("fire", **shot("a_lmg", "lmg", struck, distance=10)).rule_id == "V-HOUSE-9"
    struck.reverse()
    assert t.refused("fire", **shot("a_lmg", "lmg", struck, distance=10)).rule_id == "V-HOUSE-9"


def test_g9_everywhere_spares_pillbox_targets_and_light_cover_houses_v_cover_4():
    t = at_turn({"spotting_test_everywhere": True})
    into(t, "defender", "b1", bunker="B")
    t.fire("a1", "rifle", struck=[{"fighter": "b1", "die": D(20)}])
    assert not t.f("b1").wounded  # V-BUNK-1
    t.state.buildings["H"].light_cover = True
    into(t, "defender", "h1", building="H")
    t.fire("a2", "rifle", struck=[{"fighter": "h1", "die": D(12)}])
    assert t.f("h1").wounded  # light cover: +1, no spotting test (V-COVER-4)


def test_g9_everywhere_applies_to_a_vehicle_s_fire_too():
    t = at_turn({"spotting_test_everywhere": True})
    assert t.refused("fire", **shot("AP", "vehicle_mg", [{"fighter": "d1", "die": D(20)}])).rule_id == "V-HOUSE-9"


def test_v_bunk_2_only_a_sniper_at_an_embrasure_needs_the_spot_others_have_no_effect():
    t = at_turn()
    into(t, "defender", "b1", bunker="B")
    t.fire("a1", "rifle", struck=[{"fighter": "b1", "die": D(20), "embrasure": True}])
    assert not t.f("b1").wounded  # V-BUNK-1: only the sniper at the embrasure
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "b1", "die": D(20)}])
    assert not t.f("b1").wounded  # a sniper not at the embrasure: no spotting test needed, no effect


def test_v_bunk_2_reading_off_a_sniper_at_an_embrasure_needs_no_spotting_test():
    t = at_turn({"bunker_sniper_needs_spot": False})
    into(t, "defender", "b1", bunker="B")
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "b1", "die": D(13), "embrasure": True}])
    assert t.f("b1").wounded  # 13 - 2 >= 11, no spotting test with the reading switched off


@pytest.mark.parametrize(("shooter", "weapon", "extra"), [
    ("a_lmg", "lmg", {}), ("a_fl", "flamethrower", {}), ("a1", "rifle", {}), ("AP", "vehicle_mg", {}),
    ("AH", "howitzer", {"hit": D(15), "target_id": "p"}),
])
def test_s_die_each_struck_fighter_needs_his_g2_roll(shooter, weapon, extra):
    t = at_turn()
    err = t.refused("fire", **shot(shooter, weapon, [{"fighter": "d1"}], distance=4, **extra))
    assert err.rule_id == "S-DIE" and "d1" in err.message_en


# --- vehicles -------------------------------------------------------------------------------------------------------


def vshot(shooter, weapon, target_id, die=11, distance=5.0, **kw):
    return dict(shooter=shooter, weapon=weapon, target="vehicle", target_id=target_id, distance=distance, hit=D(die),
                **kw)


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


def test_v_gun_5_the_ambushed_tank_is_the_one_that_moved_this_phase():
    t = at_turn()
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    t.add("vehicle_moved", vehicle="AP", distance=6)
    t.add("fire", **vshot("DG", "at_gun", "AP", die=3, distance=12, ambush=True, path_distance=1))
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AP", distance=2)
    err = t.refused("fire", **vshot("DG", "at_gun", "AT3", distance=12, ambush=True, path_distance=1))
    assert err.rule_id == "V-GUN-5"  # AT3 moved in an earlier phase, not this one


# --- aircraft ---------------------------------------------------------------------------------------------------------


def air(t, side, vid, kind="ground_attack_aircraft"):
    t.add("force_mustered", side=side, vehicles=[{"id": vid, "kind": "aircraft",
                                                  "drive": "none", "weapon": kind}])


def ashot(shooter, target_id, weapon="aa_autocannon", die=11):
    return dict(shooter=shooter, weapon=weapon, target="aircraft", target_id=target_id, distance=30, hit=D(die))


def test_s_target_aa_fire_is_at_a_live_enemy_aircraft():
    t = at_turn()
    air(t, "attacker", "AIR")
    air(t, "defender", "OWN")
    assert t.refused("fire", **ashot("DAA", "OWN")).rule_id == "S-TARGET"
    assert t.refused("fire", **ashot("DAA", "AP")).rule_id == "S-TARGET"  # not an aircraft
    t.add("fire", **ashot("DAA", "AIR"))
    assert t.v("AIR").driven_off
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    assert t.refused("fire", **ashot("AAG", "AIR", "aa_gun")).rule_id == "S-TARGET"  # driven off already


def test_v_aa_3_an_aircraft_that_has_flown_its_sorties_is_no_longer_engaged():
    t = at_turn()
    air(t, "attacker", "AIR")
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
           corrected=True, hit=D(3))
    assert t.v("AIR").sorties == 1 and t.v("AIR").shot_ply == t.state.ply
    t.next_turn()
    t.next_turn()  # the attacker's next turn: the aircraft has attacked, its sortie is over
    assert t.refused("fire", **ashot("DAA", "AIR")).rule_id == "V-AA-3"


def test_v_aa_3_with_two_sorties_the_aircraft_is_engaged_again_on_its_next_appearance():
    t = at_turn({"air_sorties_per_battle": 2})
    air(t, "attacker", "AIR")
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
           corrected=True, hit=D(3))
    t.next_turn()
    t.next_turn()
    t.add("fire", **ashot("DAA", "AIR", die=10))
    assert t.v("AIR").aa_by == ["DAA"] and not t.v("AIR").driven_off


def test_g8_the_aa_shots_at_one_appearance_count_per_aa_weapon():
    t = at_turn()
    air(t, "attacker", "AIR")
    t.add("fire", **ashot("DAA", "AIR", die=10))
    assert t.refused("fire", **ashot("DAA", "AIR", die=10)).rule_id == "V-AA-3"
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    t.add("fire", **ashot("AAG", "AIR", "aa_gun", die=10))
    assert t.v("AIR").aa_by == ["DAA", "AAG"]
    t.next_turn()
    t.next_turn()  # a new appearance: the list starts again
    t.add("fire", **ashot("DAA", "AIR", die=10))
    assert t.v("AIR").aa_by == ["DAA"] and t.v("AIR").aa_ply == t.state.ply


def test_v_aa_6_the_autocannon_targets_are_rules_data():
    t = at_turn({"aa_autocannon_targets": ["bomber"]})
    air(t, "attacker", "B", "bomber")
    air(t, "attacker", "G", "ground_attack_aircraft")
    assert t.refused("fire", **ashot("DAA", "G")).rule_id == "V-AA-6"
    t.add("fire", **ashot("DAA", "B"))
    assert t.v("B").driven_off
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    t.add("fire", **ashot("AAG", "G", "aa_gun"))  # an AA gun fires at every aircraft
    assert t.v("G").driven_off


@pytest.mark.parametrize(("target", "ru", "en"), [("house", "Дом 'ZZ'", "No house 'ZZ'"),
                                                  ("bunker", "ДОТ 'ZZ'", "No pillbox 'ZZ'")])
def test_s_unknown_a_shot_at_an_object_not_on_the_table_names_it_in_both_languages(target, ru, en):
    t = at_turn()
    refusal = t.refused("fire", shooter="AH", weapon="howitzer", target=target, target_id="ZZ", distance=30,
                        hit=D(15))
    assert refusal.rule_id == "S-UNKNOWN"
    assert ru in refusal.message_ru and en in refusal.message_en
