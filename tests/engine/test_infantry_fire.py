"""Fire at infantry: G-2 coefficients, houses (V-HOUSE), pillboxes (V-BUNK),
light cover (V-COVER), heights (V-TERR-9), MGs (V-MG), flamethrowers,
mortars and rocket mortars, snipers and spotting, fire and observation
distances (V-CMD-8..11)."""
import pytest

from .table import D, F, at_turn, attacker_turn, standard, tank


def into_house(t, side, *fids, house="H"):
    t.add("force_mustered", side=side, fighters=[F(x, "D" if side == "defender" else "A", building=house)
                                                for x in fids])


def test_v_house_1_infantry_in_a_house_defends_plus_2():
    t = at_turn()
    into_house(t, "defender", "h1", "h2")
    t.fire("a1", "rifle", distance=5, spot=D(15), struck=[{"fighter": "h1", "die": D(12)}])
    assert not t.f("h1").wounded  # 12 - 2 < 11
    t.fire("a2", "rifle", distance=5, spot=D(15), struck=[{"fighter": "h2", "die": D(13)}])
    assert t.f("h2").wounded  # 13 - 2 >= 11


def test_v_house_9_firing_into_a_house_needs_a_spotting_test_and_v_snip_3_snipers_are_exempt():
    t = at_turn()
    into_house(t, "defender", "h1")
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "h1", "die": D(20)}])
    assert err.rule_id == "V-HOUSE-9"
    t.fire("a1", "rifle", distance=5, spot=D(10), struck=[{"fighter": "h1", "die": D(20)}])
    assert not t.f("h1").wounded  # spotting failed (V-TEST-1: 10 fails)
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "h1", "die": D(20)}])
    assert t.f("h1").wounded  # V-SNIP-3: no spotting test


def test_v_house_2_only_listed_weapons_damage_a_house():
    t = at_turn()
    t.fire("a1", "rifle", target="house", target_id="H", distance=5, hit=D(15))
    t.fire("AT3", "gun", target="house", target_id="H", distance=5, hit=D(15))  # class 3, not 6
    assert t.state.buildings["H"].damage == 0
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=5, hit=D(15))
    assert t.state.buildings["H"].damage == 1
    tank(t, "attacker", "G6", armour=4, gun=6)
    t.fire("G6", "gun", target="house", target_id="H", distance=5, hit=D(15))
    assert t.state.buildings["H"].damage == 2


def test_v_house_3_at_one_damage_only_the_target_is_harmed():
    t = at_turn()
    into_house(t, "defender", "h1", "h2")
    t.fire("a_fl", "flamethrower", distance=4, spot=D(15),
           struck=[{"fighter": "h1", "die": D(20)}, {"fighter": "h2", "die": D(20)}])
    assert t.state.buildings["H"].damage == 1
    assert t.f("h1").wounded and not t.f("h2").wounded


def test_v_house_4_at_two_damage_everyone_inside_is_wounded():
    t = at_turn()
    into_house(t, "defender", "h1", "h2")
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    tank(t, "attacker", "G6", armour=4, gun=6)
    t.fire("G6", "gun", target="house", target_id="H", distance=5, hit=D(15))
    assert t.f("h1").wounded and t.f("h2").wounded


@pytest.mark.parametrize("order", [("d1", "h1"), ("h1", "d1")])
def test_v_house_6_the_hit_that_brings_a_house_to_two_damage_spares_the_man_next_to_it(order):
    """V-HOUSE-4 with V-HOUSE-6: the man next to the house is in the flamethrower's radius and would be
    wounded on his die, but the hit on the house (V-TERR-11) that wounds everyone inside harms no one outside."""
    t = at_turn()
    into_house(t, "defender", "h1", "h2")
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    t.add("force_mustered", side="attacker", fighters=[F("a_fl2", "A", "flamethrower")])
    t.fire("a_fl2", "flamethrower", distance=4, spot=D(15),
           struck=[{"fighter": x, "die": D(20), "distance": 0.5} for x in order])
    assert t.state.buildings["H"].damage == 2 and t.f("h1").wounded and t.f("h2").wounded
    assert not t.f("d1").wounded


def test_v_house_5_at_three_damage_all_inside_die_and_it_becomes_light_cover_v_cover_3():
    t = at_turn()
    into_house(t, "defender", "h1")
    for i in range(3):
        tank(t, "attacker", f"G{i}", armour=4, gun=6)
        t.fire(f"G{i}", "gun", target="house", target_id="H", distance=5, hit=D(15))
    h = t.state.buildings["H"]
    assert (h.damage, h.light_cover) == (3, True) and t.f("h1").dead
    into_house(t, "defender", "h9")
    t.fire("a1", "rifle", distance=5, struck=[{"fighter": "h9", "die": D(11)}])  # V-COVER-4: no spot needed
    assert not t.f("h9").wounded  # V-COVER-2/3: light cover +1


def test_v_terr_11_a_hit_on_infantry_in_a_house_is_a_hit_on_the_house():
    t = at_turn()
    into_house(t, "defender", "h1")
    t.fire("a_fl", "flamethrower", distance=4, spot=D(15), struck=[{"fighter": "h1", "die": D(12)}])
    assert t.state.buildings["H"].damage == 0  # 12 - 2 (house) misses: no hit, no damage
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_fl", "flamethrower", distance=4, spot=D(15), struck=[{"fighter": "h1", "die": D(13)}])
    assert t.state.buildings["H"].damage == 1 and t.f("h1").wounded


@pytest.mark.parametrize(("posture", "dist", "ok"), [("dug_in", 12.0, True), ("dug_in", 12.01, False),
                                                     ("recon", 8.01, False), ("recon", 8.0, True)])
def test_v_house_10_dug_in_in_a_house_fires_12_inches(posture, dist, ok):
    t = standard()
    t.postures("defender", D=posture)
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    data = dict(shooter="h1", weapon="rifle", target="fighters", distance=dist, struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "height", "ok"), [(8.0, False, True), (8.01, False, False), (12.0, True, True),
                                                    (12.01, True, False)])
def test_v_cmd_11_fire_distance_g3_and_v_terr_9_height_adds_4(dist, height, ok):
    t = at_turn()
    data = dict(shooter="a1", weapon="rifle", target="fighters", distance=dist, on_height=height,
                struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(24.0, True), (24.01, False)])
def test_v_cmd_8_no_visual_contact_beyond_observation_v_cmd_9_scout_24(dist, ok):
    """V-CMD-9 / V-SCOUT-2: a scout observes 24", others 12" (G-1); fire needs the contact."""
    t = at_turn({"fire_distance": {"rifle": 30.0}})
    data = dict(shooter="a_sc", weapon="rifle", target="fighters", distance=dist, struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-8"
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=12.01,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-CMD-8"
    t.fire("a1", "rifle", distance=12.0, struck=[{"fighter": "d1", "die": D(3)}])  # G-1: 12" for a rifleman


def test_v_cmd_10_vehicle_observation_is_unlimited():
    t = at_turn()
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=70, hit=D(3))
    assert t.v("AT3").shots == 1


def test_v_bunk_1_fighters_in_a_pillbox_are_invulnerable():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_hmg", "hmg", distance=10, struck=[{"fighter": "b1", "die": D(20)}])
    t.fire("AT3", "gun", distance=10, hit=D(20), struck=[{"fighter": "b1"}])
    assert not t.f("b1").wounded and not t.f("b1").dead


@pytest.mark.parametrize(("spot", "die", "wounded"), [(11, 13, True), (10, 20, False), (11, 12, False)])
def test_v_bunk_2_sniper_hits_embrasure_after_spotting_with_house_defence(spot, die, wounded):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(spot), struck=[{"fighter": "b1", "die": D(die), "embrasure": True}])
    assert t.f("b1").wounded is wounded


def test_v_bunk_2_reading_sniper_needs_the_spotting_test_at_a_pillbox():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    err = t.refused("fire", shooter="a_snp", weapon="sniper_rifle", target="fighters", distance=12,
                    struck=[{"fighter": "b1", "die": D(20), "embrasure": True}])
    assert err.rule_id == "V-HOUSE-9"


def test_v_bunk_3_4_5_only_listed_weapons_six_hits_reserve_seventh_destroys():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("AT3", "gun", target="bunker", target_id="B", distance=10, hit=D(20), visual_contact=False)  # V-BUNK-6
    assert t.state.bunkers["B"].hits == 0  # class 3 gun: no effect (V-BUNK-3)
    for i in range(7):
        tank(t, "attacker", f"G{i}", armour=4, gun=6)
        t.fire(f"G{i}", "gun", target="bunker", target_id="B", distance=10, hit=D(15), visual_contact=False)
        if i < 6:
            assert not t.f("b1").dead and not t.state.bunkers["B"].light_cover  # V-BUNK-4
    b = t.state.bunkers["B"]
    assert b.hits == 7 and b.light_cover and t.f("b1").dead  # V-BUNK-5


def test_v_flame_5_flamethrower_fires_at_a_pillbox_without_contact_with_a_hit_test():
    t = at_turn()
    t.fire("a_fl", "flamethrower", target="bunker", target_id="B", distance=5, visual_contact=False, hit=D(10))
    assert t.state.bunkers["B"].hits == 0
    t2 = at_turn()
    t2.fire("a_fl", "flamethrower", target="bunker", target_id="B", distance=5, visual_contact=False, hit=D(11))
    assert t2.state.bunkers["B"].hits == 1


def test_v_flame_1_flamethrower_at_infantry_is_a_heavy_mg_several_targets():
    t = at_turn()
    t.fire("a_fl", "flamethrower", distance=4, struck=[{"fighter": "d1", "die": D(11)}, {"fighter": "d2", "die": D(11)}])
    assert t.f("d1").wounded and t.f("d2").wounded


def test_v_mg_1_mg_hits_several_targets_v_mg_3_each_compares_attack_with_defence():
    t = at_turn({"attack": {"lmg_gunner": 2}, "defence": {"rifleman": 1}})
    t.fire("a_lmg", "lmg", distance=10, struck=[{"fighter": "d1", "die": D(10)}, {"fighter": "d2", "die": D(9)}])
    assert t.f("d1").wounded and not t.f("d2").wounded  # 10 + 2 - 1 = 11; 9 + 2 - 1 = 10


def test_v_mg_3_every_enemy_fighter_in_the_radius_is_compared_not_only_the_first():
    """V-MG-3: every enemy fighter within the MG's radius counts as affected, each against his own roll."""
    t = at_turn()
    t.fire("a_lmg", "lmg", distance=10, struck=[{"fighter": "d1", "die": D(3)}, {"fighter": "d2", "die": D(11)},
                                                 {"fighter": "d3", "die": D(15)}])
    assert not t.f("d1").wounded and t.f("d2").wounded and t.f("d3").wounded


def test_v_mg_3_only_enemy_fighters_in_the_radius_are_struck():
    """V-MG-3: every *enemy* fighter in the radius; the shooter's own men there are no target (S-TARGET)."""
    t = at_turn()
    err = t.refused("fire", shooter="a_lmg", weapon="lmg", target="fighters", distance=10,
                    struck=[{"fighter": "d1", "die": D(15)}, {"fighter": "a2", "die": D(15)}])
    assert err.rule_id == "S-TARGET"


def test_v_mg_5_a_heavy_mg_reaches_farther_and_wider_than_a_light_mg():
    """V-MG-5: the heavy MG's fire distance (18 in) and radius (2 in) are greater than the light MG's
    (12 in, 1 in; V-MG-4, V-MG-8)."""
    from battles.engine.rules_data import INFANTRY_CLASSES

    t = at_turn({"observation_distance": {c: 30.0 for c in INFANTRY_CLASSES}})
    far = dict(target="fighters", distance=18.0, struck=[{"fighter": "d1", "die": D(3), "distance": 2.0}])
    assert t.refused("fire", shooter="a_lmg", weapon="lmg", **far).rule_id == "V-CMD-11"
    near = dict(far, distance=10.0)
    assert t.refused("fire", shooter="a_lmg", weapon="lmg", **near).rule_id == "V-MG-4"
    t.add("fire", shooter="a_hmg", weapon="hmg", **far)


def test_v_mg_1_rifle_fire_strikes_one_fighter():
    t = at_turn()
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}, {"fighter": "d2", "die": D(15)}])
    assert err.rule_id == "V-MG-1"


@pytest.mark.parametrize(("shooter", "weapon", "radius", "rule"), [("a_lmg", "lmg", 1.0, "V-MG-4"),
                                                                   ("a_hmg", "hmg", 2.0, "V-MG-8")])
def test_v_mg_4_light_mg_radius_1_and_v_mg_8_heavy_mg_radius_2(shooter, weapon, radius, rule):
    t = at_turn()
    err = t.refused("fire", shooter=shooter, weapon=weapon, target="fighters", distance=10,
                    struck=[{"fighter": "d1", "die": D(15), "distance": radius + 0.01}])
    assert err.rule_id == rule
    t.fire(shooter, weapon, distance=10, struck=[{"fighter": "d1", "die": D(15), "distance": radius}])
    assert t.f("d1").wounded


def test_v_mort_2_mortar_fragment_radius_is_1_inch():
    t = mortar_turn()
    assert t.refused("fire", shooter="DM", weapon="mortar", target="fighters", distance=20, hit=D(15),
                     struck=[{"fighter": "a1", "die": D(15)}]).rule_id == "S-TARGET"  # name the target
    err = t.refused("fire", shooter="DM", weapon="mortar", target="fighters", target_id="p1", distance=20,
                    hit=D(15), struck=[{"fighter": "a1", "die": D(15), "distance": 1.01}])
    assert err.rule_id == "V-MORT-2"
    t.fire("DM", "mortar", distance=20, hit=D(15), target_id="p1",
           struck=[{"fighter": "a1", "die": D(15), "distance": 1.0}])
    assert t.f("a1").wounded


@pytest.mark.parametrize(("dist", "ok"), [(18.0, True), (18.01, False)])
def test_v_mg_5_heavy_mg_has_the_greater_range_g3(dist, ok):
    t = at_turn({"observation_distance": {"hmg_gunner": 24.0}})
    data = dict(shooter="a_hmg", weapon="hmg", target="fighters", distance=dist, struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


def test_v_mg_5_and_6_heavy_mg_moves_with_its_assistant_fires_without_him():
    t = at_turn()
    t.add("fighters_moved", side="attacker", fighters=["a_hmg", "a_hma"], distance=3)
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", distance=5, struck=[{"fighter": "a_hma", "die": D(11)}])
    t.fire("d2", "rifle", distance=5, struck=[{"fighter": "a_hma", "die": D(11)}])
    assert t.f("a_hma").dead
    t.next_turn(A="recon")
    err = t.refused("fighters_moved", side="attacker", fighters=["a_hmg"], distance=3)
    assert err.rule_id == "V-MG-6"
    t.fire("a_hmg", "hmg", distance=10, struck=[{"fighter": "d3", "die": D(11)}])
    assert t.f("d3").wounded


def test_v_mg_7_mg_crew_moves_together_within_one_inch():
    t = at_turn()
    assert t.refused("fighters_moved", side="attacker", fighters=["a_hmg"], distance=3).rule_id == "V-MG-7"
    assert t.refused("fighters_moved", side="attacker", fighters=["a_hma"], distance=3).rule_id == "V-MG-7"
    t.add("fighters_moved", side="attacker", fighters=["a_hmg", "a_hma"], distance=6)


def mortar_turn():
    t = standard()
    t.postures("defender")
    return t


def test_v_mort_1_mortar_aim_point_hit_test_then_g2_for_fighters_in_radius_v_mort_2():
    t = mortar_turn()
    t.fire("DM", "mortar", distance=20, hit=D(10), target_id="a1", struck=[{"fighter": "a1", "die": D(20)}])
    assert not t.f("a1").wounded
    t2 = mortar_turn()
    t2.fire("DM", "mortar", distance=20, hit=D(11), target_id="a1",
            struck=[{"fighter": "a1", "die": D(11)}, {"fighter": "a2", "die": D(10)}])
    assert t2.f("a1").wounded and not t2.f("a2").wounded


def test_v_mort_3_two_shots_per_turn_at_one_target():
    t = mortar_turn()
    t.fire("DM", "mortar", distance=20, hit=D(3), struck=[{"fighter": "a1", "die": D(3)}], target_id="a1")
    err = t.refused("fire", shooter="DM", weapon="mortar", target="fighters", target_id="a2", distance=20, hit=D(3),
                    struck=[{"fighter": "a2", "die": D(3)}])
    assert err.rule_id == "V-MORT-3"
    t.fire("DM", "mortar", distance=20, hit=D(3), struck=[{"fighter": "a1", "die": D(3)}], target_id="a1")
    err = t.refused("fire", shooter="DM", weapon="mortar", target="fighters", target_id="a1", distance=20, hit=D(3),
                    struck=[{"fighter": "a1", "die": D(3)}])
    assert err.rule_id == "V-MORT-3"


def test_v_rocket_1_and_2_rocket_mortar_howitzer_profile_two_shots_one_target():
    t = mortar_turn()
    tank(t, "defender", "R", armour=1, gun=4, weapon="rocket_mortar", kind="artillery")
    for _ in range(2):
        t.fire("R", "rocket_mortar", target="house", target_id="H", distance=30, hit=D(12))
    assert t.state.buildings["H"].damage == 2  # a howitzer damages houses (V-HOUSE-2)
    err = t.refused("fire", shooter="R", weapon="rocket_mortar", target="house", target_id="H", distance=30, hit=D(12))
    assert err.rule_id == "V-ROCKET-2"


def test_g7_a_howitzer_fires_once_per_turn():
    t = attacker_turn(standard())
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(12))
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="house", target_id="H", distance=30, hit=D(12))
    assert err.rule_id == "V-TURN-11"


def test_v_cover_2_light_cover_adds_one_to_defence_and_v_cover_4_needs_no_spotting():
    t = at_turn()
    t.fire("a1", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(11), "light_cover": True}])
    assert not t.f("d1").wounded
    t.fire("a2", "rifle", distance=5, struck=[{"fighter": "d2", "die": D(12), "light_cover": True}])
    assert t.f("d2").wounded


def test_v_trans_6_passengers_fire_the_mounted_mg_and_v_trans_7_become_exposed_as_in_light_cover():
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.postures("attacker")
    t.add("embarked", vehicle="AP", fighters=["a1", "a2"])
    t.next_turn()
    err = t.refused("fire", shooter="d1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "a1", "die": D(20)}])
    assert err.rule_id == "V-TRANS-7"  # inside, not exposed
    t.next_turn(A="recon")
    err = t.refused("fire", shooter="a2", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(20)}])
    assert err.rule_id == "V-TRANS-6"
    t.fire("a1", "vehicle_mg", distance=10, struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded
    t.next_turn()
    t.fire("d2", "rifle", distance=5, struck=[{"fighter": "a1", "die": D(11)}])
    assert not t.f("a1").wounded  # +1 as in light cover
    t.fire("d3", "rifle", distance=5, struck=[{"fighter": "a1", "die": D(12)}])
    assert t.f("a1").wounded


def test_v_sap_4_sapper_does_not_fire_in_turn_two_of_his_scheme():
    t = at_turn()
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    err = t.refused("fire", shooter="a_sap", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "V-SAP-4"


def test_march_posture_cannot_fire_g4():
    t = at_turn(None, A="march")
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "V-TURN-11"


@pytest.mark.parametrize(("shooter", "weapon", "top"), [
    ("a_lmg", "lmg", 12.0), ("a_snp", "sniper_rifle", 24.0), ("a_fl", "flamethrower", 6.0),
    ("a_at", "at_grenade_launcher", 6.0), ("a_at", "at_rifle", 6.0), ("a1", "grenade", 4.0),
])
def test_v_cmd_11_each_weapons_fire_distance_both_sides_of_the_limit_g3(shooter, weapon, top):
    t = at_turn({"observation_distance": {c: 30.0 for c in ("lmg_gunner", "sniper", "flamethrower", "at_grenadier",
                                                             "rifleman")}})
    needs_hit = weapon in ("at_grenade_launcher", "at_rifle", "grenade")
    data = dict(shooter=shooter, weapon=weapon, target="fighters",
                struck=[{"fighter": "d1"} if needs_hit else {"fighter": "d1", "die": D(3)}],
                **({"hit": D(3)} if needs_hit else {}))
    assert t.refused("fire", distance=top + 0.01, **data).rule_id == "V-CMD-11"
    t.add("fire", distance=top, **data)


def test_v_terr_11_a_hit_on_infantry_in_a_pillbox_is_a_hit_on_the_pillbox():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    tank(t, "attacker", "G6", armour=4, gun=6)
    t.fire("G6", "gun", distance=10, hit=D(10), struck=[{"fighter": "b1"}])
    assert t.state.bunkers["B"].hits == 0  # missed
    tank(t, "attacker", "G7", armour=4, gun=6)
    t.fire("G7", "gun", distance=10, hit=D(11), struck=[{"fighter": "b1"}])
    assert t.state.bunkers["B"].hits == 1 and not t.f("b1").dead  # V-BUNK-4: no effect inside


@pytest.mark.parametrize(("gap", "ok"), [(1.0, True), (1.01, False)])
def test_v_mg_7_mg_crew_stays_within_one_inch_of_the_mg_and_each_other(gap, ok):
    t = at_turn()
    data = dict(side="attacker", fighters=["a_hmg", "a_hma"], distance=4, mg_spacing=gap)
    if ok:
        t.add("fighters_moved", **data)
    else:
        assert t.refused("fighters_moved", **data).rule_id == "V-MG-7"


def test_g20_a_smoke_screen_blocks_direct_fire_until_removed_v_smoke_4():
    t = attacker_turn(standard())
    t.add("smoke_fired", shooter="a1", officer="a_sgt", officer_distance=6, smoke="S")
    t.end_turn()
    t.postures("defender")
    err = t.refused("fire", shooter="d1", weapon="rifle", target="fighters", distance=5, through_smoke="S",
                    struck=[{"fighter": "a2", "die": D(15)}])
    assert err.rule_id == "V-SMOKE-4"
    t.end_turn()  # the attacker's next turn: his screen is removed (V-SMOKE-5)
    t.postures("attacker")
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", distance=5, through_smoke="S", struck=[{"fighter": "a2", "die": D(15)}])
    assert t.f("a2").wounded


def test_g7_howitzer_fragment_radius_is_rules_data():
    t = attacker_turn(standard({"area_radius": {"howitzer": 3.0}}))
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="fighters", distance=30, hit=D(15),
                    struck=[{"fighter": "d1", "die": D(15), "distance": 3.01}])
    assert err.rule_id == "V-MORT-1"
    t.fire("AH", "howitzer", distance=30, hit=D(15), struck=[{"fighter": "d1", "die": D(15), "distance": 3.0}])
    assert t.f("d1").wounded


def test_v_cover_3_a_destroyed_pillbox_is_light_cover_for_whoever_stands_in_it():
    t = at_turn()
    for i in range(7):
        tank(t, "attacker", f"G{i}", armour=4, gun=6)
        t.fire(f"G{i}", "gun", target="bunker", target_id="B", distance=10, hit=D(15), visual_contact=False)
    t.add("force_mustered", side="defender", fighters=[F("b2", "D", bunker="B")])
    t.fire("a1", "rifle", distance=5, struck=[{"fighter": "b2", "die": D(11)}])
    assert not t.f("b2").wounded  # +1: 11 - 1 < 11 (no longer invulnerable, V-BUNK-5)
    t.fire("a2", "rifle", distance=5, struck=[{"fighter": "b2", "die": D(12)}])
    assert t.f("b2").wounded


@pytest.mark.parametrize("order", [("h1", "d1"), ("d1", "h1")])
def test_v_house_6_a_hit_on_the_house_spares_the_man_next_to_it_whatever_the_struck_order(order):
    # V-HOUSE-6 with V-TERR-11 and V-HOUSE-3: the flame on the man inside is a hit on the house; the man
    # next to it is unharmed and the man inside is resolved as the target, in either order of the list
    t = at_turn()
    into_house(t, "defender", "h1")
    t.fire("a_fl", "flamethrower", distance=4, spot=D(15), struck=[{"fighter": x, "die": D(20)} for x in order])
    assert t.state.buildings["H"].damage == 1
    assert t.f("h1").wounded and not t.f("d1").wounded


# --- issue 28 clause audit (docs/rules-audit.md): clauses no test guarded ---------------------------------


def test_v_house_5_every_man_inside_is_killed_when_the_house_falls():
    """V-HOUSE-5: the 3rd damage kills *every* fighter sheltering in the house, not only one."""
    t = at_turn()
    into_house(t, "defender", "h1", "h2", "h3")
    for i in range(3):
        tank(t, "attacker", f"G{i}", armour=4, gun=6)
        t.fire(f"G{i}", "gun", target="house", target_id="H", distance=5, hit=D(15))
    assert t.state.buildings["H"].light_cover
    assert [t.f(x).dead for x in ("h1", "h2", "h3")] == [True, True, True]


@pytest.mark.parametrize("order", [("d1", "h1"), ("h1", "d1")])
def test_v_house_6_the_hit_that_ruins_a_house_spares_the_man_next_to_it(order):
    """V-HOUSE-6 «его уничтожение»: the flame on the man inside brings the house to 3 damage (V-TERR-11,
    V-HOUSE-5); the man next to it, in the flamethrower's radius on a die that would wound him, is unharmed."""
    t = at_turn()
    into_house(t, "defender", "h1")
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    tank(t, "attacker", "G6", armour=4, gun=6)
    t.fire("G6", "gun", target="house", target_id="H", distance=5, hit=D(15))
    assert t.state.buildings["H"].damage == 2 and t.f("h1").wounded
    t.add("force_mustered", side="attacker", fighters=[F("a_fl2", "A", "flamethrower")])
    t.fire("a_fl2", "flamethrower", distance=4, spot=D(15),
           struck=[{"fighter": x, "die": D(20), "distance": 0.5} for x in order])
    assert t.state.buildings["H"].light_cover and t.f("h1").dead
    assert not t.f("d1").wounded and not t.f("d1").dead


def test_v_bunk_5_every_man_inside_is_killed_by_the_seventh_hit():
    """V-BUNK-5: the 7th hit kills *every* fighter inside the pillbox, not only one."""
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B"), F("b2", "D", bunker="B"),
                                                       F("b3", "D", bunker="B")])
    for i in range(7):
        tank(t, "attacker", f"G{i}", armour=4, gun=6)
        t.fire(f"G{i}", "gun", target="bunker", target_id="B", distance=10, hit=D(15), visual_contact=False)
    assert t.state.bunkers["B"].light_cover
    assert [t.f(x).dead for x in ("b1", "b2", "b3")] == [True, True, True]


@pytest.mark.parametrize(("row", "dist", "ok"), [(30.0, 24.0, True), (30.0, 24.01, False), (6.0, 24.0, True)])
def test_v_scout_2_the_scout_observes_24_whatever_his_row_of_the_infantry_table(row, dist, ok):
    """V-SCOUT-2 «всегда 24»: neither a longer nor a shorter scout row of the infantry table (G-1) moves it."""
    t = at_turn({"fire_distance": {"rifle": 40.0}, "observation_distance": {"scout": row}})
    data = dict(shooter="a_sc", weapon="rifle", target="fighters", distance=dist, struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-8"
