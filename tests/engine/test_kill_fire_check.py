"""Issue 11: the refusals of a shot (``fire._check_fire``), branch by branch: the
shooter's turn and the AT ambush (V-GUN-4, V-GUN-5, V-ATGL-1), who fires what
(S-WEAPON, V-TRANS-6, V-CMD-11, V-SAP-4, V-PERS-2), shots per turn (G-7,
V-MORT-3, V-ROCKET-2), distances (V-CMD-8, V-CMD-11, V-FLAME-6), visual
contact, smoke and correction (V-GUN-1, V-CORR-1, V-CORR-2, V-SMOKE-4) and the
hit roll (S-DIE). Each refusal is checked with its rule ID, and each threshold
on both sides."""
import pytest

from .table import D, F, at_turn, defender_turn, standard, tank


def rifle(shooter="a1", target="d1", die=3, **kw):
    return dict(shooter=shooter, weapon="rifle", target="fighters", distance=5,
                struck=[{"fighter": target, "die": D(die)}], **kw)


def enemy_moving(rules=None):
    """The attacker's turn, movement phase: tank AT3 has just moved."""
    t = at_turn(rules)
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    return t


def ambush(shooter="DG", weapon="at_gun", target_id="AT3", **kw):
    data = dict(shooter=shooter, weapon=weapon, target="vehicle", target_id=target_id, distance=12, hit=D(3),
                ambush=True, path_distance=1)
    data.update(kw)
    return data


# --- the battle and the shooter -----------------------------------------------------------------------------------


def test_s_not_started_no_shot_before_the_battle_starts():
    t = standard(start=False)
    assert t.refused("fire", **rifle()).rule_id == "S-NOT-STARTED"


def test_s_unknown_a_shooter_who_is_neither_fighter_nor_vehicle():
    t = at_turn()
    assert t.refused("fire", **rifle(shooter="nobody")).rule_id == "S-UNKNOWN"


def test_v_med_3_a_wounded_fighter_does_not_fire():
    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(11)}])
    assert t.f("a1").wounded
    t.next_turn(A="recon")
    assert t.refused("fire", **rifle("a1")).rule_id == "V-MED-3"


# --- turn order and the AT ambush (V-GUN-4, V-GUN-5, V-ATGL-1, V-TURN-12) -----------------------------------------


def test_v_turn_12_a_fighter_fires_only_in_his_sides_turn():
    t = at_turn()
    assert t.refused("fire", **rifle("d1", "a1")).rule_id == "V-TURN-12"


def test_v_turn_12_a_vehicle_without_ambush_fires_only_in_its_sides_turn():
    t = enemy_moving()
    data = ambush(ambush=False, path_distance=None)
    assert t.refused("fire", **data).rule_id == "V-TURN-12"


def test_v_gun_4_no_ambush_in_ones_own_turn():
    t = at_turn()
    t.add("vehicle_moved", vehicle="AP", distance=4)
    err = t.refused("fire", shooter="AT3", weapon="gun", target="vehicle", target_id="DT4", distance=10, hit=D(3),
                    ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


def test_v_gun_4_a_rifleman_has_no_at_ambush():
    t = enemy_moving()
    err = t.refused("fire", shooter="d1", weapon="rifle", target="vehicle", target_id="AT3", distance=5, hit=D(3),
                    ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


@pytest.mark.parametrize(("specs", "ok"), [([], False), (["at_fire"], True)])
def test_v_gun_4_v_aa_7_an_aa_gun_ambushes_only_with_the_at_ability(specs, ok):
    t = enemy_moving()
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", specialisations=specs, kind="artillery")
    data = ambush("AAG", "aa_gun")
    if ok:
        t.add("fire", **data)
        assert t.v("AAG").ambush_shots == 1
    else:
        assert t.refused("fire", **data).rule_id == "V-GUN-4"


def test_v_atgl_1_reading_allowed_ambush_still_needs_the_movement_phase_and_the_path():
    """With the master's reading on, an AT grenadier's ambush follows V-GUN-4 and V-GUN-5."""
    t = enemy_moving({"at_grenade_ambush": True})
    t.add("force_mustered", side="defender", fighters=[F("d_at", "D", "at_grenadier")])
    base = ambush("d_at", "at_grenade_launcher", distance=5)
    assert t.refused("fire", **{**base, "path_distance": 2.0}).rule_id == "V-GUN-5"
    t.add("fire", **{**base, "path_distance": 1.99})
    assert t.f("d_at").ambush_shots == 1 and t.f("d_at").ambush_ply == t.state.ply
    assert t.refused("fire", **base).rule_id == "V-GUN-4"  # one per phase (G-24)


def test_v_gun_5_an_ambush_states_the_tanks_path_distance():
    t = enemy_moving()
    assert t.refused("fire", **ambush(path_distance=None)).rule_id == "V-GUN-5"


@pytest.mark.parametrize(("path", "ok"), [(2.99, True), (3.0, False)])
def test_v_gun_5_the_path_limit_is_rules_data(path, ok):
    t = enemy_moving({"ambush_path_distance": 3.0})
    if ok:
        t.add("fire", **ambush(path_distance=path))
    else:
        assert t.refused("fire", **ambush(path_distance=path)).rule_id == "V-GUN-5"


def test_v_gun_4_an_ambush_is_not_fired_at_fighters():
    t = enemy_moving()
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="fighters", distance=12, hit=D(3),
                    ambush=True, path_distance=1, struck=[{"fighter": "a1"}])
    assert err.rule_id == "V-GUN-4"


def test_v_gun_4_the_ambush_before_the_movement_phase_is_refused():
    t = at_turn()
    assert t.state.phase == "posture"
    assert t.refused("fire", **ambush()).rule_id == "V-GUN-4"


def test_g24_the_ambush_count_starts_again_in_the_next_enemy_movement_phase():
    t = enemy_moving()
    t.add("fire", **ambush())
    first = t.state.ply
    assert (t.v("DG").ambush_ply, t.v("DG").ambush_shots) == (first, 1)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AT3", distance=2)
    t.add("fire", **ambush())
    assert t.v("DG").ambush_ply == t.state.ply != first and t.v("DG").ambush_shots == 1


def test_an_ambush_shot_is_not_a_shot_of_the_gun_s_own_turn():
    """The ambush counts apart (G-24): the phase, the shots and the target of the turn stay as they were."""
    t = enemy_moving()
    t.add("fire", **ambush())
    dg = t.v("DG")
    assert (dg.shots, dg.shot_target, t.state.phase) == (0, "", "move")
    assert not any(t.f(c).main_weapon_ply != t.state.ply for c in dg.crew)  # V-PERS-2: it is the main weapon


def test_v_aa_3_fire_at_an_aircraft_in_the_enemy_turn_does_not_move_the_phase():
    t = at_turn()
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "dive_bomber"}])
    t.add("fire", shooter="DAA", weapon="aa_autocannon", target="aircraft", target_id="AIR", distance=30,
          hit=D(10), visual_contact=False)
    assert t.state.phase == "posture"
    assert (t.v("DAA").shots, t.v("DAA").shot_target) == (0, "")
    assert t.v("AIR").aa_by == ["DAA"] and t.v("AIR").aa_ply == t.state.ply and not t.v("AIR").driven_off


def test_v_turn_9_no_fire_before_the_postures_are_declared():
    t = standard()
    assert t.refused("fire", **rifle("d1", "a1")).rule_id == "V-TURN-9"


# --- who fires what -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shooter", "weapon", "ok"), [
    ("a1", "gun", False), ("a1", "mortar", False), ("a1", "lmg", False), ("a1", "sniper_rifle", False),
    ("a1", "flamethrower", False), ("a1", "at_grenade_launcher", False), ("a1", "at_rifle", False),
    ("a_lmg", "hmg", False), ("a_hmg", "lmg", False), ("a_snp", "lmg", False),
    ("a_at", "at_rifle", True), ("a_at", "at_grenade_launcher", True), ("a_lmg", "lmg", True),
    ("a_snp", "sniper_rifle", True), ("a_fl", "flamethrower", True), ("a_hmg", "hmg", True), ("a1", "grenade", True),
])
def test_s_weapon_a_fighter_fires_only_his_classes_weapons_v_atgl_4(shooter, weapon, ok):
    t = at_turn()
    data = dict(shooter=shooter, weapon=weapon, target="fighters", distance=3, hit=D(3),
                struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
        assert t.f(shooter).shots == 1
    else:
        assert t.refused("fire", **data).rule_id == "S-WEAPON"


def test_v_atgl_4_an_at_rifleman_fires_the_at_rifle_not_the_launcher():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("a_atr", "A", "at_rifleman")])
    data = dict(shooter="a_atr", target="fighters", distance=3, hit=D(3), struck=[{"fighter": "d1"}])
    assert t.refused("fire", weapon="at_grenade_launcher", **data).rule_id == "S-WEAPON"
    t.add("fire", weapon="at_rifle", **data)


def test_v_trans_6_the_mounted_mg_is_fired_only_by_a_passenger():
    t = at_turn()
    err = t.refused("fire", shooter="a1", weapon="vehicle_mg", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-TRANS-6"


def riders_turn():
    """a1, a2 ride on tank AT3; the attacker's second turn."""
    t = at_turn()
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.next_turn()
    t.next_turn(A="recon")
    return t


def test_v_trans_6_a_rider_fires_his_own_rifle_not_the_tanks_mg():
    t = riders_turn()
    err = t.refused("fire", shooter="a1", weapon="vehicle_mg", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-TRANS-6"
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(3)}])


@pytest.mark.parametrize(("kind", "ok"), [("car", True), ("apc", True)])
def test_v_trans_6_passengers_of_a_car_or_apc_fire_its_mounted_mg(kind, ok):
    t = at_turn()
    tank(t, "attacker", "CAR", armour=1, gun=1, weapon="vehicle_mg", kind=kind, drive="wheeled", seats=4)
    t.add("embarked", vehicle="CAR", fighters=["a3"])
    t.fire("a3", "vehicle_mg", distance=12, struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded and t.f("a3").shots == 1


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


@pytest.mark.parametrize("posture", ["recon", "assault", "dug_in"])
def test_g4_each_firing_posture_fires_and_march_does_not(posture):
    t = at_turn(None, A=posture)
    t.add("fire", **rifle())
    t2 = at_turn(None, A="march")
    assert t2.refused("fire", **rifle()).rule_id == "V-TURN-11"


@pytest.mark.parametrize(("posture", "en"), [("recon", "in recon"), ("assault", "in assault"),
                                             ("dug_in", "dug in")])
def test_v_cmd_11_the_infantry_table_can_forbid_fire_in_a_posture(posture, en):
    t = at_turn({"infantry_fire": {"rifleman": {posture: None}}}, A=posture)
    err = t.refused("fire", **rifle())
    assert err.rule_id == "V-CMD-11" and en in err.message_en and "a1" in err.message_en
    t.add("fire", **rifle("a_lmg") | {"weapon": "lmg"})  # another class: its own row (none: G-3 default)


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (3.01, False)])
def test_v_cmd_11_the_infantry_table_sets_the_class_fire_distance_by_posture(dist, ok):
    t = at_turn({"infantry_fire": {"rifleman": {"recon": 3.0}}})
    data = dict(rifle(), distance=dist)
    if ok:
        t.add("fire", **data)
    else:
        err = t.refused("fire", **data)
        assert err.rule_id == "V-CMD-11" and "3.0" in err.message_en


def test_v_cmd_11_the_infantry_table_speaks_only_for_the_class_s_own_weapon():
    """G-3: the row is the rifleman's rifle; his grenade keeps the weapon's fire distance (4")."""
    t = at_turn({"infantry_fire": {"rifleman": {"recon": 2.0}}})
    t.fire("a1", "grenade", distance=4.0, hit=D(3), struck=[{"fighter": "d1"}])
    t.fire("a_sgt", "rifle", distance=7.0, struck=[{"fighter": "d2", "die": D(3)}])  # no officer row: 8"


def test_v_sap_4_a_sapper_who_has_not_worked_this_turn_fires():
    t = at_turn()
    t.fire("a_sap", "rifle", struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded


def test_v_pers_2_only_personnel_are_bound_by_the_main_weapon():
    """After the tank's gun fired, its personnel may not fire small arms; its corporal commander may."""
    t = at_turn()
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=10, hit=D(3))
    assert t.f("a_tc").main_weapon_ply == t.f("a_tp").main_weapon_ply == t.state.ply
    assert t.refused("fire", **rifle("a_tp")).rule_id == "V-PERS-2"
    t.fire("a_tc", "rifle", struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded and t.f("a_tc").small_arms_ply == t.state.ply


def test_v_pers_2_personnel_fire_small_arms_in_a_later_turn():
    t = at_turn()
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=10, hit=D(3))
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_tp", "rifle", struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded


def test_v_pers_2_the_corporal_s_small_arms_do_not_stop_the_main_weapon():
    t = at_turn()
    t.fire("a_pc", "rifle", struck=[{"fighter": "d1", "die": D(3)}])
    t.fire("AP", "vehicle_mg", distance=5, struck=[{"fighter": "d2", "die": D(11)}])
    assert t.f("d2").wounded


def test_v_pers_2_small_arms_in_an_earlier_turn_do_not_stop_the_main_weapon():
    t = at_turn()
    t.fire("a_pd", "rifle", struck=[{"fighter": "d1", "die": D(3)}])
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("AP", "vehicle_mg", distance=5, struck=[{"fighter": "d2", "die": D(11)}])
    assert t.f("d2").wounded


# --- a vehicle's weapons ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("weapon", "specs", "ok"), [
    ("gun", [], True), ("vehicle_mg", [], True), ("howitzer", [], False), ("at_gun", [], False),
    ("at_gun", ["at_fire"], True), ("mortar", ["at_fire"], False), ("aa_gun", [], False),
])
def test_s_weapon_a_vehicle_fires_its_own_weapon_its_mg_or_with_at_fire_the_at_gun(weapon, specs, ok):
    t = at_turn()
    tank(t, "attacker", "T", armour=3, gun=3, specialisations=specs)
    data = dict(shooter="T", weapon=weapon, target="vehicle", target_id="DT4", distance=10, hit=D(3))
    if ok:
        t.add("fire", **data)
        assert t.v("T").shots == 1 and t.v("T").shot_target == "vehicle:DT4"
    else:
        assert t.refused("fire", **data).rule_id == "S-WEAPON"


def aircraft(t, side, vid, kind="ground_attack_aircraft"):
    t.add("force_mustered", side=side, vehicles=[{"id": vid, "kind": "aircraft", "drive": "none", "weapon": kind}])


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


def test_g8_v_corr_2_an_aircraft_flies_as_many_sorties_as_the_rules_data_allow():
    sorties = 2
    t = at_turn({"air_sorties_per_battle": sorties})
    aircraft(t, "attacker", "AIR")
    for _ in range(sorties):
        t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
        t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
               corrected=True, hit=D(3))
        t.next_turn()
        t.next_turn()
    assert t.v("AIR").sorties == sorties
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    err = t.refused("fire", shooter="AIR", weapon="ground_attack_aircraft", target="house", target_id="H",
                    distance=50, visual_contact=False, corrected=True, hit=D(3))
    assert err.rule_id == "V-CORR-2"


# --- shots per turn (G-7, V-MORT-3, V-ROCKET-2) -------------------------------------------------------------------


def test_g7_a_rifleman_fires_once_per_turn_v_turn_11():
    t = at_turn()
    t.add("fire", **rifle())
    assert t.f("a1").shots == 1 and t.f("a1").shot_target == "fighters:" and t.state.phase == "fire"
    assert t.refused("fire", **rifle()).rule_id == "V-TURN-11"


def test_g7_shots_per_turn_are_counted_again_each_turn():
    t = at_turn()
    t.add("fire", **rifle())
    t.next_turn()
    t.next_turn(A="recon")
    t.add("fire", **rifle(die=11))
    assert t.f("a1").shots == 1 and t.f("d1").wounded


def test_g7_two_shots_per_turn_go_at_one_named_target_v_turn_11():
    t = at_turn({"shots_per_turn": {"rifle": 2, "mortar": 2, "rocket_mortar": 2}})
    assert t.refused("fire", **rifle()).rule_id == "S-TARGET"  # two shots: name the target
    t.add("fire", **rifle(target_id="d1"))
    assert t.f("a1").shot_target == "fighters:d1"
    assert t.refused("fire", **rifle(target="d2", target_id="d2")).rule_id == "V-TURN-11"
    t.add("fire", **rifle(target_id="d1", die=11))
    assert t.f("a1").shots == 2 and t.f("d1").wounded
    assert t.refused("fire", **rifle(target_id="d1")).rule_id == "V-TURN-11"


def test_v_mort_3_the_mortar_s_second_shot_in_a_new_turn_may_take_a_new_target():
    t = defender_turn()
    t.fire("DM", "mortar", distance=20, hit=D(3), target_id="a1", struck=[{"fighter": "a1", "die": D(3)}])
    t.fire("DM", "mortar", distance=20, hit=D(3), target_id="a1", struck=[{"fighter": "a1", "die": D(3)}])
    t.next_turn()
    t.next_turn()
    t.fire("DM", "mortar", distance=20, hit=D(11), target_id="a2", struck=[{"fighter": "a2", "die": D(11)}])
    assert t.v("DM").shots == 1 and t.v("DM").shot_target == "fighters:a2" and t.f("a2").wounded


# --- distances ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dist", "ok"), [(8.0, True), (8.01, False)])
def test_v_cmd_11_the_fire_distance_table_is_rules_data(dist, ok):
    t = at_turn({"fire_distance": {"grenade": 8.0}})
    data = dict(shooter="a1", weapon="grenade", target="fighters", distance=dist, hit=D(3),
                struck=[{"fighter": "d1"}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


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


@pytest.mark.parametrize(("dist", "ok"), [(16.0, True), (16.01, False)])
def test_v_cmd_8_v_terr_9_a_height_adds_to_the_observation_for_the_shot(dist, ok):
    t = at_turn({"fire_distance": {"rifle": 30.0}})
    data = dict(rifle(), distance=dist, on_height=True)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-8"


def test_v_cmd_8_without_visual_contact_the_observation_distance_does_not_bind():
    """V-BUNK-6: fire at a pillbox needs no visual contact, so no observation limit either."""
    t = at_turn({"fire_distance": {"rifle": 30.0}})
    t.fire("a1", "rifle", target="bunker", target_id="B", distance=20, visual_contact=False, hit=D(15))
    assert t.f("a1").shot_target == "bunker:B" and t.state.bunkers["B"].hits == 0


# --- correction, smoke, visual contact ------------------------------------------------------------------------------


def corrected_mortar(**kw):
    data = dict(shooter="DM", weapon="mortar", target="fighters", target_id="a1", distance=20, hit=D(11),
                corrected=True, visual_contact=False, struck=[{"fighter": "a1", "die": D(11)}])
    data.update(kw)
    return data


def test_v_corr_1_corrected_fire_needs_this_turn_s_correction_of_this_shooter_at_this_target():
    t = defender_turn()
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"
    t.add("fire_corrected", corrector="d_lt", shooter="DM", target="a2", distance=5)
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"  # another target
    t.add("fire", **corrected_mortar(target_id="a2", struck=[{"fighter": "a2", "die": D(11)}]))
    assert t.f("a2").wounded


def test_v_corr_1_a_correction_of_an_earlier_turn_has_lapsed():
    t = defender_turn()
    t.add("fire_corrected", corrector="d_lt", shooter="DM", target="a1", distance=5)
    t.next_turn()
    t.next_turn()
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"


def test_v_corr_1_a_correction_serves_only_the_shooter_it_names():
    t = defender_turn()
    tank(t, "defender", "DM2", armour=1, gun=2, weapon="mortar", kind="artillery")
    t.add("fire_corrected", corrector="d_lt", shooter="DM2", target="a1", distance=5)
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"
    t.add("fire", **corrected_mortar(shooter="DM2"))


def test_v_corr_2_a_rifle_has_no_corrected_fire():
    t = at_turn()
    err = t.refused("fire", **rifle(corrected=True, visual_contact=False))
    assert err.rule_id == "V-CORR-2"


def test_v_corr_2_the_corrected_weapons_are_rules_data():
    t = defender_turn({"corrected_fire_weapons": ["howitzer"]})
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-2"


@pytest.mark.parametrize("weapon", ["at_gun", "aa_gun"])
def test_v_gun_1_no_gun_fires_on_a_correction(weapon):
    t = defender_turn()
    tank(t, "defender", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    err = t.refused("fire", shooter="G", weapon=weapon, target="vehicle", target_id="AT3", distance=10, hit=D(11),
                    corrected=True, visual_contact=False)
    assert err.rule_id == "V-GUN-1"
    err = t.refused("fire", shooter="G", weapon=weapon, target="vehicle", target_id="AT3", distance=10, hit=D(11),
                    visual_contact=False)
    assert err.rule_id == "V-GUN-1"


def test_g20_corrected_fire_is_not_blocked_by_smoke():
    t = defender_turn()
    t.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=5, smoke="S")
    t.add("fire_corrected", corrector="d_lt", shooter="DM", target="a1", distance=5)
    t.add("fire", **corrected_mortar(through_smoke="S"))
    assert t.f("a1").wounded


def test_g20_a_smoke_id_not_on_the_table_blocks_nothing_and_the_reading_can_turn_smoke_off():
    t = defender_turn()
    t.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=5, smoke="S")
    t.fire("d2", "rifle", through_smoke="S2", struck=[{"fighter": "a1", "die": D(11)}])
    assert t.f("a1").wounded
    assert t.refused("fire", **rifle("d3", "a2", through_smoke="S")).rule_id == "V-SMOKE-4"
    t2 = defender_turn({"smoke_blocks_sight": False})
    t2.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=5, smoke="S")
    t2.fire("d2", "rifle", through_smoke="S", struck=[{"fighter": "a1", "die": D(11)}])
    assert t2.f("a1").wounded


def test_v_corr_1_without_visual_contact_only_corrected_fire_at_fighters_houses_and_vehicles():
    t = at_turn()
    assert t.refused("fire", **rifle(visual_contact=False)).rule_id == "V-CORR-1"
    err = t.refused("fire", shooter="a_fl", weapon="flamethrower", target="house", target_id="H", distance=4,
                    hit=D(15), visual_contact=False)
    assert err.rule_id == "V-CORR-1"
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="vehicle", target_id="DT4", distance=30,
                    hit=D(15), visual_contact=False)
    assert err.rule_id == "V-CORR-1"


# --- the hit roll (S-DIE) -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shooter", "weapon", "target", "extra"), [
    ("a1", "grenade", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("a_at", "at_grenade_launcher", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("a_at", "at_rifle", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("AT3", "gun", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("AH", "howitzer", "fighters", {"struck": [{"fighter": "d1", "die": D(3)}], "target_id": "d1"}),
    ("a_lmg", "lmg", "vehicle", {"target_id": "DT4"}),
    ("a_fl", "flamethrower", "house", {"target_id": "H"}),
    ("a_fl", "flamethrower", "bunker", {"target_id": "B"}),
    ("a1", "rifle", "vehicle", {"target_id": "DT4"}),
])
def test_s_die_a_hit_test_needs_its_roll(shooter, weapon, target, extra):
    t = at_turn()
    err = t.refused("fire", shooter=shooter, weapon=weapon, target=target, distance=4, **extra)
    assert err.rule_id == "S-DIE"


def test_s_die_small_arms_and_mgs_at_fighters_need_no_hit_roll():
    t = at_turn()
    t.fire("a_lmg", "lmg", distance=4, struck=[{"fighter": "d1", "die": D(11)}])
    t.fire("a1", "rifle", distance=4, struck=[{"fighter": "d2", "die": D(11)}])
    assert t.f("d1").wounded and t.f("d2").wounded


# --- the fire distance (_max_distance, class_fire_distance; G-3, V-HOUSE-10, V-TERR-9) ------------------------------


def in_house_dug_in(rules, cls="hmg_gunner"):
    t = standard({"observation_distance": {cls: 30.0}, **rules})
    t.postures("defender", D="dug_in")
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", cls, building="H")])
    return t


@pytest.mark.parametrize(("dist", "ok"), [(18.0, True), (18.01, False)])
def test_v_house_10_set_reading_keeps_a_greater_class_distance(dist, ok):
    t = in_house_dug_in({})
    data = dict(shooter="h1", weapon="hmg", target="fighters", distance=dist, struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(14.0, True), (14.01, False)])
def test_v_house_10_the_dug_in_house_distance_is_rules_data(dist, ok):
    t = in_house_dug_in({"house_dug_in_fire_distance": 14.0}, "rifleman")
    data = dict(shooter="h1", weapon="rifle", target="fighters", distance=dist, struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(16.0, True), (16.01, False)])
def test_v_house_10_dug_in_in_a_house_on_a_height_v_terr_9(dist, ok):
    t = in_house_dug_in({}, "rifleman")
    data = dict(shooter="h1", weapon="rifle", target="fighters", distance=dist, on_height=True,
                struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(5.0, True), (5.01, False)])
def test_v_terr_9_the_height_bonus_is_rules_data_and_adds_to_the_class_table(dist, ok):
    t = at_turn({"infantry_fire": {"rifleman": {"recon": 3.0}}, "height_bonus": 2.0})
    data = dict(rifle(), distance=dist, on_height=True)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


def test_v_house_10_dug_in_outside_a_house_keeps_the_weapon_distance():
    t = defender_turn()
    assert t.refused("fire", **dict(rifle("d1", "a1"), distance=8.01)).rule_id == "V-CMD-11"
    t.add("fire", **dict(rifle("d1", "a1"), distance=8.0))


def test_g3_a_vehicle_s_gun_has_no_fire_distance_limit_and_its_mg_has():
    t = at_turn()
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=100, hit=D(3))
    err = t.refused("fire", shooter="AP", weapon="vehicle_mg", target="fighters", distance=12.01,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-CMD-11"
    t.fire("AP", "vehicle_mg", distance=12.0, struck=[{"fighter": "d1", "die": D(3)}])


@pytest.mark.parametrize(("key", "dist", "ok"), [("rifleman", 10.0, True), ("rifleman", 10.01, False),
                                                 ("officer:sergeant", 10.0, True)])
def test_v_cmd_11_the_infantry_table_row_by_class_or_rank(key, dist, ok):
    t = at_turn({"infantry_fire": {key: {"recon": 10.0}}, "observation_distance": {"rifleman": 30.0,
                                                                                  "officer": 30.0}})
    shooter = "a1" if key == "rifleman" else "a_sgt"
    data = dict(rifle(shooter), distance=dist)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


def test_v_rocket_2_the_rocket_mortar_s_second_shot_goes_at_the_same_target():
    t = defender_turn()
    tank(t, "defender", "R", armour=1, gun=4, weapon="rocket_mortar", kind="artillery")
    t.fire("R", "rocket_mortar", target="house", target_id="H", distance=30, hit=D(3))
    err = t.refused("fire", shooter="R", weapon="rocket_mortar", target="bunker", target_id="B", distance=30,
                    hit=D(3), visual_contact=False)
    assert err.rule_id == "V-ROCKET-2"
    t.fire("R", "rocket_mortar", target="house", target_id="H", distance=30, hit=D(3))
    assert t.v("R").shots == 2 and t.v("R").shot_target == "house:H"
