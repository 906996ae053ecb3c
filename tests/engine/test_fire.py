"""Fire (``battles/engine/rules/fire.py``). First the refusals of a shot (``fire._check_fire``), branch by branch: the
shooter's turn and the AT ambush (V-GUN-4, V-GUN-5, V-ATGL-1), who fires what
(S-WEAPON, V-TRANS-6, V-CMD-11, V-SAP-4, V-PERS-2), shots per turn (G-7,
V-MORT-3, V-ROCKET-2), distances (V-CMD-8, V-CMD-11, V-FLAME-6), visual
contact, smoke and correction (V-GUN-1, V-CORR-1, V-CORR-2, V-SMOKE-4) and the
hit roll (S-DIE). Each refusal is checked with its rule ID, and each threshold
on both sides. Then what a shot does (``_apply_fire``), fire correction and smoke rounds, and the
per-target checks (sections below)."""
from types import MappingProxyType

import pytest

from battles.engine.rules.common import observation_distance
from battles.engine.state import Fighter

from .table import D, F, at_turn, attacker_turn, defender_turn, standard, tank


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


@pytest.mark.parametrize(("distance", "ok"), [(6.0, True), (6.01, False)])
def test_v_atgl_4_an_at_rifle_has_the_launcher_s_fire_distance(distance, ok):
    """V-ATGL-4: the AT rifle is treated as an AT grenade launcher, so it fires up to the launcher's 6 in
    (V-ATGL-1), not a rifle's 8 in."""
    t = at_turn()
    data = dict(shooter="a_at", weapon="at_rifle", target="fighters", distance=distance, hit=D(3),
                struck=[{"fighter": "d1"}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


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


def test_v_rocket_1_a_rocket_mortar_has_a_howitzer_s_radius_and_its_corrected_fire():
    """V-ROCKET-1: a howitzer's characteristics: the howitzers' damage radius (2 in, G-7) and corrected
    fire (V-CORR-2) at a target its crew cannot see."""
    t = at_turn()
    tank(t, "attacker", "RM", armour=1, gun=3, weapon="rocket_mortar", kind="artillery")
    far = [{"fighter": "d1", "die": D(11), "distance": 2.01}]
    assert t.refused("fire", **shot("RM", "rocket_mortar", far, distance=30, hit=D(15), target_id="d1")).rule_id == \
        "V-MORT-1"
    t.add("fire_corrected", corrector="a_sgt", shooter="RM", target="H", distance=1)
    t.fire("RM", "rocket_mortar", target="house", target_id="H", distance=60, visual_contact=False, corrected=True,
           hit=D(15))
    assert t.state.buildings["H"].damage == 1


def test_v_rocket_2_the_rocket_mortar_s_second_shot_goes_at_the_same_target():
    t = defender_turn()
    tank(t, "defender", "R", armour=1, gun=4, weapon="rocket_mortar", kind="artillery")
    t.fire("R", "rocket_mortar", target="house", target_id="H", distance=30, hit=D(3))
    err = t.refused("fire", shooter="R", weapon="rocket_mortar", target="bunker", target_id="B", distance=30,
                    hit=D(3), visual_contact=False)
    assert err.rule_id == "V-ROCKET-2"
    t.fire("R", "rocket_mortar", target="house", target_id="H", distance=30, hit=D(3))
    assert t.v("R").shots == 2 and t.v("R").shot_target == "house:H"


# Issue 11: what a shot does (``fire._apply_fire``, ``_hit_vehicle``,
# ``_resolve``, ``_defence``, ``_damage_house``, ``_hit_bunker``): the shooter's
# record of the turn (G-7, V-PERS-2, G-8), the hit test's band (V-TEST-1,
# V-TEST-8..10), damage to vehicles by class (V-VDMG-2..6, V-MG-2, V-ATGL-1),
# riders (V-RIDE-7), flamethrowers (V-FLAME-2), mortars (V-MORT-4, V-MORT-5),
# houses and pillboxes hit through the infantry inside (V-TERR-11, V-HOUSE-2..5,
# V-BUNK-3..5), and the G-2 roll's attack and defence (G-1, G-4, V-HOUSE-1,
# V-BUNK-2, V-COVER-2).


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


def test_v_aa_5_an_aa_autocannon_strikes_as_a_class_1_mg_whatever_gun_class_its_mount_has():
    """V-AA-5: the autocannon is a heavy MG, so at a vehicle it is a class-1 MG (V-MG-2) even on a mount
    whose card carries a gun class: against armour 2 it has no effect (V-VDMG-2), it never destroys it."""
    t = defender_turn()
    tank(t, "defender", "DAA4", armour=1, gun=4, weapon="aa_autocannon", kind="artillery", drive="towed")
    tank(t, "attacker", "C2", armour=2, gun=0, kind="car", drive="wheeled")
    vfire(t, "DAA4", "aa_autocannon", "C2", 15, distance=20)
    assert not t.v("C2").destroyed and t.v("C2").damage == 0


def test_v_aa_5_an_aa_autocannon_strikes_every_fighter_in_a_heavy_mg_s_radius():
    """V-AA-5: a heavy MG (V-MG-3): every enemy fighter in its 2 in radius is struck, not one."""
    t = defender_turn()
    t.add("fire", **shot("DAA", "aa_autocannon", [{"fighter": "a1", "die": D(11), "distance": 1.0},
                                                   {"fighter": "a2", "die": D(11), "distance": 2.0}], distance=30))
    assert t.f("a1").wounded and t.f("a2").wounded


def test_v_house_4_the_dead_and_the_captured_inside_are_not_wounded_again():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H"), F("h2", "D", building="H")])
    t.state.fighters["h2"].captured = True
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(15))
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    assert t.f("h1").wounded and not t.f("h2").wounded
    assert t.f("a_fl").credit.wounds == 1


# Issue 11: fire correction (``fire._check_corrected``, V-CORR-2..6, V-RADIO,
# V-SCOUT-1, V-SNIP-4, V-BUNK-8, V-GUN-1) and smoke rounds (``fire._check_smoke``,
# V-SMOKE-1..3, V-SMOKE-8, V-ATGL-2), each refusal with its rule ID and each
# threshold on both sides, and what each event records.


def corr(corrector="a_sgt", shooter="AH", target="H", **kw):
    return dict(corrector=corrector, shooter=shooter, target=target, **kw)


def radio(**kw):
    data = corr("a_sc", via="radio", distance=6, radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo",
                battery_distance=6)
    data.update(kw)
    return data


def wound(t, fid):
    """Wound ``fid`` (of the side not to move) by a rifle shot of the side to move, within its turn."""
    shooter = {"attacker": "a4", "defender": "d6"}[t.state.side_to_move]
    t.fire(shooter, "rifle", struck=[{"fighter": fid, "die": D(20)}])
    assert t.f(fid).wounded


# --- fire_corrected -----------------------------------------------------------------------------------------------
def test_s_not_started_no_correction_before_the_battle():
    t = standard(start=False)
    assert t.refused("fire_corrected", **corr()).rule_id == "S-NOT-STARTED"


def test_v_corr_records_the_correction_and_the_corrector_s_turn():
    t = at_turn()
    t.add("fire_corrected", **corr(distance=2))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target, c.ply) == ("a_sgt", "AH", "H", t.state.ply)
    assert t.f("a_sgt").corrected_ply == t.state.ply


def test_v_med_3_a_wounded_officer_does_not_correct():
    t = defender_turn()
    wound(t, "a_sgt")
    t.next_turn(A="recon")
    assert t.refused("fire_corrected", **corr()).rule_id == "V-MED-3"


@pytest.mark.parametrize(("corrector", "ok"), [("a_lt", True), ("a_cpt", True), ("a_cpl", True), ("a_sc", True),
                                               ("a_rad", False), ("a_med", False), ("a_lmg", False)])
def test_v_corr_3_officers_of_every_rank_and_scouts_correct_others_do_not(corrector, ok):
    t = at_turn()
    if ok:
        t.add("fire_corrected", **corr(corrector))
    else:
        assert t.refused("fire_corrected", **corr(corrector)).rule_id == "V-CORR-3"


def test_v_corr_6_a_corrector_corrects_again_in_his_next_turn():
    t = at_turn()
    t.add("fire_corrected", **corr())
    assert t.refused("fire_corrected", **corr(target="B")).rule_id == "V-CORR-6"
    t.add("fire_corrected", **corr("a_lt", target="B"))  # another officer, this turn
    t.next_turn()
    t.next_turn(A="recon")
    t.add("fire_corrected", **corr(target="B"))
    assert t.state.fire_corrections[-1].target == "B"


def test_v_turn_12_a_correction_is_made_in_the_corrector_s_turn():
    t = at_turn()
    assert t.refused("fire_corrected", **corr("d_lt", "DM", "a1")).rule_id == "V-TURN-12"


def test_s_unknown_a_corrector_not_on_the_table():
    t = at_turn()
    assert t.refused("fire_corrected", **corr("nobody")).rule_id == "S-UNKNOWN"
    assert t.refused("fire_corrected", **corr(shooter="nothing")).rule_id == "S-UNKNOWN"


def pillbox_table(rules=None, *, spotter=True, scout=True):
    t = standard(rules)
    t.add("terrain_placed", **({"spotter_bunkers": ["P"]} if spotter else {"bunkers": ["P"]}))
    tank(t, "defender", "DH", armour=1, gun=4, weapon="howitzer", kind="artillery")
    if scout:
        t.add("force_mustered", side="defender", fighters=[F("d_sc", "D", "scout", bunker="P")])
    t.postures("defender")
    return t


def test_v_corr_3_a_pillbox_without_the_spotter_characteristic_does_not_correct():
    t = pillbox_table(spotter=False)
    assert t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1)).rule_id == "V-CORR-3"


def test_v_bunk_8_a_spotter_pillbox_with_a_scout_corrects_once_per_turn_v_corr_6():
    t = pillbox_table()
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target) == ("P", "DH", "a1")
    assert t.refused("fire_corrected", **corr("P", "DH", "a2", distance=1)).rule_id == "V-CORR-6"
    t.next_turn()
    t.next_turn()
    t.add("fire_corrected", **corr("P", "DH", "a2", distance=1))


def test_v_bunk_1_and_v_bunk_8_the_scout_inside_survives_a_hit_and_keeps_working_the_spotter():
    """The scout is invulnerable inside (V-BUNK-1), so he works the Spotter next turn (V-BUNK-8);
    a scout who is dead or captured no longer does
    (``test_v_bunk_8_a_scout_who_is_dead_or_captured_does_not_work_the_spotter``)."""
    t = pillbox_table()
    t.end_turn()
    t.postures("attacker")
    t.fire("AT3", "gun", distance=10, hit=D(15), struck=[{"fighter": "d_sc"}])
    assert not t.f("d_sc").dead  # V-BUNK-1: invulnerable inside; the scout stays
    t.next_turn()
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))


def test_v_bunk_8_a_pillbox_s_correction_is_for_the_side_of_the_scout_inside():
    t = pillbox_table()
    t.end_turn()
    t.postures("attacker")  # the attacker's turn: the defender's pillbox corrects nothing now
    assert t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1)).rule_id == "V-TURN-12"


def test_v_bunk_8_read_without_the_scout_the_pillbox_corrects_for_whoever_holds_it():
    """The rules data's other reading of V-BUNK-8 (``spotter_needs_scout.bunker`` off): any of
    the garrison works the Spotter, for his own side, in his side's turn; an empty pillbox
    corrects for no one."""
    t = pillbox_table({"spotter_needs_scout": {"bunker": False}}, scout=False)
    refusal = t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert refusal.rule_id == "V-BUNK-8" and "Nobody is inside" in refusal.message_en
    t.add("force_mustered", side="defender", fighters=[F("d_rf", "D", bunker="P")])
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert t.state.fire_corrections[-1].corrector == "P"
    t.end_turn()
    t.postures("attacker")
    assert t.refused("fire_corrected", **corr("P", "DH", "a2", distance=1)).rule_id == "V-TURN-12"


def test_v_bunk_8_by_default_a_garrison_without_a_scout_does_not_work_the_spotter():
    t = pillbox_table(scout=False)
    t.add("force_mustered", side="defender", fighters=[F("d_rf", "D", bunker="P")])
    refusal = t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert refusal.rule_id == "V-BUNK-8" and "scout" in refusal.message_en


def test_v_corr_3_a_destroyed_spotter_vehicle_corrects_nothing():
    t = at_turn()
    tank(t, "attacker", "SPOT", armour=2, gun=0, specialisations=["spotter"])
    t.state.vehicles["SPOT"].destroyed = True
    assert t.refused("fire_corrected", **corr("SPOT", distance=1)).rule_id == "V-CORR-3"


def test_v_corr_6_a_spotter_vehicle_records_its_correction_without_a_fighter():
    t = at_turn()
    tank(t, "attacker", "SPOT", armour=2, gun=0, specialisations=["spotter"])
    t.add("fire_corrected", **corr("SPOT", distance=6))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target, c.ply) == ("SPOT", "AH", "H", t.state.ply)


@pytest.mark.parametrize("weapon", ["gun", "at_gun", "aa_gun"])
def test_v_gun_1_no_gun_is_directed_by_a_correction(weapon):
    t = at_turn()
    tank(t, "attacker", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    assert t.refused("fire_corrected", **corr(shooter="G")).rule_id == "V-GUN-1"


@pytest.mark.parametrize(("weapon", "ok"), [("mortar", True), ("heavy_howitzer", True), ("infantry_howitzer", True),
                                            ("aa_autocannon", False)])
def test_v_corr_2_the_corrected_weapons(weapon, ok):
    t = at_turn()
    tank(t, "attacker", "W", armour=1, gun=2, weapon=weapon, kind="artillery")
    if ok:
        t.add("fire_corrected", **corr(shooter="W"))
    else:
        assert t.refused("fire_corrected", **corr(shooter="W")).rule_id == "V-CORR-2"


def test_v_corr_2_the_weapons_a_correction_may_direct_are_rules_data():
    t = at_turn({"corrected_fire_weapons": ["mortar"]})
    assert t.refused("fire_corrected", **corr()).rule_id == "V-CORR-2"


@pytest.mark.parametrize(("dist", "ok"), [(4.0, True), (4.01, False)])
def test_v_corr_5_the_talking_distance_is_rules_data(dist, ok):
    t = at_turn({"talk_distance": 4.0})
    if ok:
        t.add("fire_corrected", **corr(distance=dist))
    else:
        assert t.refused("fire_corrected", **corr(distance=dist)).rule_id == "V-CORR-5"


@pytest.mark.parametrize(("dist", "battery", "ok"), [(6.0, 6.0, True), (6.01, 1.0, False), (1.0, 6.01, False)])
def test_v_corr_4_each_spoken_link_of_the_radio_chain_within_6(dist, battery, ok):
    t = at_turn()
    data = radio(distance=dist, battery_distance=battery)
    if ok:
        t.add("fire_corrected", **data)
        assert t.state.fire_corrections[-1].corrector == "a_sc"
    else:
        assert t.refused("fire_corrected", **data).rule_id == "V-CORR-4"


@pytest.mark.parametrize("kw", [dict(radio_operators=["a_rad"]), dict(radio_operators=[]),
                                dict(battery_officer=None), dict(battery_distance=None)])
def test_v_corr_4_the_chain_names_two_radio_operators_the_battery_officer_and_the_distances(kw):
    t = at_turn()
    assert t.refused("fire_corrected", **radio(**kw)).rule_id == "V-CORR-4"


def test_v_corr_4_the_chain_is_of_one_s_own_side():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("d_rad", "D", "radio_operator")])
    assert t.refused("fire_corrected", **radio(radio_operators=["a_rad", "d_rad"])).rule_id == "V-CORR-4"
    assert t.refused("fire_corrected", **radio(battery_officer="d_lt")).rule_id == "V-CORR-4"
    assert t.refused("fire_corrected", **radio(radio_operators=["a_rad", "zz"])).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize("who", ["a_rad", "a_rad2", "a_lt"])
def test_v_med_3_a_wounded_link_breaks_the_chain(who):
    t = defender_turn()
    wound(t, who)
    t.next_turn(A="recon")
    assert t.refused("fire_corrected", **radio(battery_officer="a_lt")).rule_id == "V-MED-3"


# --- smoke_fired ------------------------------------------------------------------------------------------------------
def smoke(shooter="a1", officer="a_sgt", sid="S", dist=5.0):
    return dict(shooter=shooter, officer=officer, officer_distance=dist, smoke=sid)


def test_v_smoke_records_the_screen_the_round_and_the_shot():
    t = at_turn()
    t.add("smoke_fired", **smoke())
    s = t.state.smoke["S"]
    assert (s.id, s.side, s.ply, s.by) == ("S", "attacker", t.state.ply, "a1")
    a1 = t.f("a1")
    assert (a1.shot_ply, a1.shots, a1.shot_target) == (t.state.ply, 1, "smoke")
    assert (t.state.units["A"].smoke_used, t.state.units["A"].smoke_ply) == (1, t.state.ply)
    assert t.state.phase == "fire"
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "d1", "die": D(3)}]).rule_id == "V-TURN-11"  # his shot of the turn


def test_v_smoke_a_fire_team_s_round_is_its_squad_s():
    t = at_turn()
    t.add("smoke_fired", **smoke("a5", "a_cpl"))
    assert t.state.units["A"].smoke_used == 1 and t.state.units["A2"].smoke_used == 0


def test_v_smoke_1_a_vehicle_records_its_own_rounds():
    t = defender_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt"))
    dm = t.v("DM")
    assert (dm.smoke_used, dm.smoke_ply, dm.shots, dm.shot_target) == (1, t.state.ply, 1, "smoke")
    assert t.state.smoke["S"].side == "defender" and t.state.smoke["S"].by == "DM"
    t.next_turn()
    t.next_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt", "S2"))
    t.next_turn()
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("DM", "d_lt", "S3")).rule_id == "V-SMOKE-3"


def test_v_smoke_3_reading_per_turn_the_vehicle_s_count_starts_again():
    t = defender_turn({"smoke_period": "turn"})
    t.add("smoke_fired", **smoke("DM", "d_lt"))
    t.next_turn()
    t.next_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt", "S2"))
    assert t.v("DM").smoke_used == 1


def test_v_smoke_3_the_limit_is_rules_data():
    t = at_turn({"smoke_limit": 1})
    t.add("smoke_fired", **smoke())
    assert t.refused("smoke_fired", **smoke("a2", sid="S2")).rule_id == "V-SMOKE-3"


def test_s_duplicate_a_screen_id_already_on_the_table():
    t = at_turn()
    t.add("smoke_fired", **smoke())
    assert t.refused("smoke_fired", **smoke("a2")).rule_id == "S-DUPLICATE"


def test_v_turn_12_smoke_is_fired_in_one_s_own_turn():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke("d1", "d_sgt")).rule_id == "V-TURN-12"


def test_v_turn_9_smoke_after_the_postures():
    t = standard()
    assert t.refused("smoke_fired", **smoke("d1", "d_sgt")).rule_id == "V-TURN-9"


def test_s_unknown_a_smoke_shooter_not_on_the_table():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke("zz")).rule_id == "S-UNKNOWN"
    assert t.refused("smoke_fired", **smoke(officer="zz")).rule_id == "S-UNKNOWN"


def test_v_med_3_a_wounded_rifleman_fires_no_smoke():
    t = defender_turn()
    wound(t, "a1")
    t.next_turn(A="recon")
    assert t.refused("smoke_fired", **smoke("a1")).rule_id == "V-MED-3"


def test_v_med_3_a_wounded_officer_designates_no_smoke_point():
    t = defender_turn()
    t.fire("d6", "rifle", struck=[{"fighter": "a_lt", "die": D(20)}])
    t.next_turn(A="recon")
    assert t.refused("smoke_fired", **smoke(officer="a_lt")).rule_id == "V-MED-3"


def test_v_atgl_2_an_at_rifleman_fires_no_smoke():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("a_atr", "A", "at_rifleman")])
    assert t.refused("smoke_fired", **smoke("a_atr")).rule_id == "V-ATGL-2"


@pytest.mark.parametrize("cls", ["scout", "sniper", "sapper", "radio_operator", "medic"])
def test_v_smoke_2_only_the_rifleman_fires_smoke(cls):
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("x", "A", cls)])
    assert t.refused("smoke_fired", **smoke("x")).rule_id == "V-SMOKE-2"


@pytest.mark.parametrize(("weapon", "gun", "ok"), [("gun", 3, True), ("gun", 2, False), ("aa_gun", 3, True),
                                                   ("aa_gun", 2, False), ("at_gun", 5, False),
                                                   ("vehicle_mg", 1, False), ("rocket_mortar", 1, True)])
def test_v_smoke_1_which_pieces_have_smoke(weapon, gun, ok):
    t = defender_turn()
    tank(t, "defender", "P", armour=1, gun=gun, weapon=weapon, kind="artillery")
    if ok:
        t.add("smoke_fired", **smoke("P", "d_lt"))
    else:
        assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-SMOKE-1"


def test_v_smoke_1_the_minimum_gun_class_is_rules_data():
    t = defender_turn({"smoke_min_gun_class": 2})
    tank(t, "defender", "P", armour=1, gun=2, kind="artillery")
    t.add("smoke_fired", **smoke("P", "d_lt"))


def test_v_crew_4_a_piece_with_one_crewman_fires_no_smoke():
    t = defender_turn()
    tank(t, "defender", "P", armour=1, gun=3, kind="artillery", crew=1)
    assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-CREW-4"


def test_v_vdmg_4_a_destroyed_piece_fires_no_smoke():
    t = at_turn()
    tank(t, "defender", "X2", armour=2, gun=3)
    t.fire("AT3", "gun", target="vehicle", target_id="X2", distance=5, hit=D(11))
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("X2", "d_lt")).rule_id == "V-VDMG-4"


def test_v_smoke_8_the_designating_officer_is_of_one_s_own_side():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke(officer="d_lt")).rule_id == "V-SMOKE-8"


@pytest.mark.parametrize(("dist", "ok"), [(20.0, True), (20.01, False)])
def test_v_smoke_8_the_officer_s_observation_distance_is_rules_data(dist, ok):
    t = at_turn({"observation_distance": {"officer": 20.0, "rifleman": 12.0}})
    if ok:
        t.add("smoke_fired", **smoke(dist=dist))
    else:
        assert t.refused("smoke_fired", **smoke(dist=dist)).rule_id == "V-SMOKE-8"


def test_v_crew_4_the_crew_is_checked_before_the_turn_for_smoke():
    """A piece with one crewman may move but not fire (V-CREW-4), and smoke is fire: the crew rule is cited
    first, out of turn too."""
    t = at_turn()
    tank(t, "defender", "P", armour=1, gun=3, kind="artillery", crew=1)
    assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-CREW-4"
    tank(t, "defender", "P2", armour=1, gun=2, kind="artillery", crew=1)
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("P2", "d_lt")).rule_id == "V-CREW-4"


# Issue 11: the per-target checks of a shot (``fire._TARGET_CHECKS``) and the
# vehicles in an area weapon's radius (``_check_vehicles_struck``): who may be
# struck (S-TARGET, V-TRANS-7), how many (V-MG-1, V-GUN-3, V-ATGL-3), within
# which radius (V-MG-4, V-MG-8, V-MORT-1, V-MORT-2), when a spotting test is
# needed (V-HOUSE-9, V-SNIP-3, V-BUNK-2, V-COVER-4, G-9), what may be shot at a
# vehicle (V-VDMG-2, V-GUN-4, V-GUN-5) and at an aircraft (V-AA-2, V-AA-3,
# V-AA-6, G-8).


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
    # V-GUN-3: the direct hit itself kills the one man struck (no wound die is asked), credited once
    assert t.f("a1").dead and t.f("G_c").credit.kills == 1


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


def mortar_turn(rules=None):
    """The defender's turn with its mortar DM (crew d_mc + d_mp) ready to fire."""
    t = standard(rules)
    t.postures("defender")
    return t


def test_v_house_2_a_mortar_hit_damages_a_house():
    """V-HOUSE-2 lists the mortar among the weapons that damage houses: a hit adds 1."""
    t = mortar_turn()
    t.fire("DM", "mortar", target="house", target_id="H", distance=20, hit=D(15))
    assert t.state.buildings["H"].damage == 1


def test_v_house_2_a_mortar_miss_does_not_damage_a_house():
    t = mortar_turn()
    t.fire("DM", "mortar", target="house", target_id="H", distance=20, hit=D(3))
    assert t.state.buildings["H"].damage == 0


@pytest.mark.parametrize(("dist", "height", "ok"), [(12.0, False, True), (12.01, False, False),
                                                    (16.0, True, True), (16.01, True, False)])
def test_v_terr_9_a_height_adds_4_inches_to_observation(dist, height, ok):
    """V-TERR-9: +4 in of observation on a height (G-1: a rifleman observes 12 in); the fire
    distance is out of the way (30 in), so V-CMD-8 (visual contact) is what decides."""
    t = attacker_turn(standard({"fire_distance": {"rifle": 30.0}}))
    data = dict(shooter="a1", weapon="rifle", target="fighters", distance=dist, on_height=height,
                struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-8"


def test_v_terr_9_observation_distance_on_a_height():
    f = Fighter(id="x", side="attacker", unit="A", cls="rifleman")
    rules = {"observation_distance": {"rifleman": 12.0}, "height_bonus": 4.0, "scout_observation": 24.0,
             "scout_height_bonus": True}
    assert observation_distance(f, rules) == 12.0
    assert observation_distance(f, rules, on_height=True) == 16.0


def test_g_4_a_postures_defence_counts_against_fire():
    """G-4: the posture table's defence (0 in every posture by default) is added to the target's defence."""
    from battles.engine.rules_data import DEFAULT_RULES

    hard = {name: {**p, "defence": 20} for name, p in DEFAULT_RULES["postures"].items()}
    for postures, wounded in ((None, True), (hard, False)):
        t = attacker_turn(standard({"postures": postures} if postures else None))
        t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
        assert bool(t.f("d1").wounded or t.f("d1").dead) is wounded


def test_v_trans_6_only_carried_infantry_fire_the_mounted_mg():
    t = attacker_turn(standard())
    err = t.refused("fire", shooter="a1", weapon="vehicle_mg", target="fighters", distance=10,
                    struck=[{"fighter": "d1", "die": D(11)}])
    assert err.rule_id == "V-TRANS-6"


def test_a_dead_fighter_is_not_a_target_and_an_unknown_one_is_not_found():
    t = attacker_turn(standard())
    t.f("d1").dead = True
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "S-TARGET"
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "nobody", "die": D(15)}])
    assert err.rule_id == "S-UNKNOWN"


def test_v_smoke_3_a_rifleman_outside_any_squad_has_no_smoke_rounds():
    """V-SMOKE-3: smoke rounds are the squad's two (a fire team shares its squad's); a rifleman
    outside any unit has no squad, so no rounds: his smoke is refused at the limit."""
    t = attacker_turn(standard())
    t.add("force_mustered", side="attacker", fighters=[F("lone")])
    err = t.refused("smoke_fired", shooter="lone", officer="a_sgt", officer_distance=5, smoke="s1")
    assert err.rule_id == "V-SMOKE-3"
    assert "s1" not in t.state.smoke


# --- correction, credits, the hit roll -------------------------------------------------------------------
def test_s_unknown_a_player_does_not_correct_the_enemys_battery():
    """V-CORR: an officer corrects his own side's battery; the enemy's mortar is not his to direct."""
    t = attacker_turn(standard())
    err = t.refused("fire_corrected", corrector="a_sgt", shooter="DM", target="H", distance=1)
    assert err.rule_id == "S-UNKNOWN"
    assert t.state.fire_corrections == []


def test_v_house_5_a_ruined_house_takes_no_more_damage_nor_credits_it():
    """V-HOUSE-2..5: each hit adds 1 up to 3 (ruined: light cover); a hit on a ruined house changes
    nothing, and is no building damaged to the shooter's credit."""
    t = mortar_turn()
    for _ in range(4):
        t.fire("DM", "mortar", target="house", target_id="H", distance=20, hit=D(15))
        t.next_turn()
        t.next_turn()
    assert t.state.buildings["H"].damage == 3 and t.state.buildings["H"].light_cover
    assert sum(f.credit.buildings_damaged for f in t.state.fighters.values()) == 3


def test_v_atgl_3_an_at_grenade_has_no_damage_radius_for_vehicles():
    """V-ATGL-3: an AT grenade launcher strikes one target; it names no vehicles in a radius."""
    t = attacker_turn(standard())
    err = t.refused("fire", shooter="a_at", weapon="at_grenade_launcher", target="vehicle", target_id="DT4",
                    distance=5, hit=D(11), vehicles_struck=[{"vehicle": "DM", "distance": 1}])
    assert err.rule_id == "V-ATGL-3"


def test_v_vdmg_5_the_shooter_who_outclasses_the_armour_is_credited_with_the_vehicle():
    """V-VDMG-5 (class 5 > armour 4: destroyed); the vehicle is the AT grenadier's credit (campaign awards)."""
    t = attacker_turn(standard())
    t.fire("a_at", "at_grenade_launcher", target="vehicle", target_id="DT4", distance=5, hit=D(11))
    assert t.v("DT4").destroyed
    assert t.f("a_at").credit.vehicles_destroyed == 1


def test_s_die_a_rifle_hit_needs_its_roll():
    t = attacker_turn(standard())
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "d1"}]).rule_id == "S-DIE"


# --- G-1 / G-2: a class the master's defence table does not list defends with 0 --------------------------------
@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g1_g2_a_defence_table_without_the_target_s_class_gives_defence_0(die, wounded):
    """G-1, G-2: the master's defence table (a read-only mapping, taken whole) has a row for snipers
    only; a rifleman, absent from it, is hit on d20 + 0 - 0 >= 11: the fire resolves, it is not set
    aside as having nothing to act on."""
    t = at_turn({"defence": MappingProxyType({"sniper": 5})})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded
    assert t.state.unapplied == []
    t.fire("a2", "rifle", struck=[{"fighter": "d_snp", "die": D(15)}])
    assert not t.f("d_snp").wounded  # 15 - 5 < 11: the sniper's row is read


def test_v_crew_6_a_vehicle_destroyed_with_passengers_kills_everyone_inside():
    t = passengers()  # a1, a2 inside AP; riders on a destroyed tank: test_vehicle_fire.py
    t.end_turn()
    t.postures("defender")
    t.fire("DT4", "gun", target="vehicle", target_id="AP", distance=10, hit=D(12))  # class 4 > armour 2 (V-VDMG-5)
    assert t.v("AP").destroyed
    assert all(t.f(x).dead for x in ("a1", "a2", "a_pd", "a_pc"))  # V-CREW-6


@pytest.mark.parametrize("fate", ["dead", "captured"])
def test_v_bunk_8_a_scout_who_is_dead_or_captured_does_not_work_the_spotter(fate):
    """V-BUNK-8 (issue 28 clause audit): the Spotter works only while a scout is inside, a living and free
    one; the rest of the garrison does not stand in for him."""
    t = pillbox_table()
    t.add("force_mustered", side="defender", fighters=[F("d_rf", "D", bunker="P")])
    setattr(t.f("d_sc"), fate, True)
    refusal = t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert refusal.rule_id == "V-BUNK-8" and "scout" in refusal.message_en
