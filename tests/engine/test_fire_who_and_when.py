"""Who fires what, and when (S-WEAPON, V-TURN-9, V-TURN-12, V-TRANS-6, V-CMD-11, V-SAP-4, V-PERS-2, G-4):
the shooter, his turn, his posture and his weapons."""
import pytest

from .fire_helpers import aircraft, ambush, enemy_moving, riders_turn, rifle
from .table import D, at_turn, standard, tank

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


def test_v_trans_6_the_mounted_mg_is_fired_only_by_a_passenger():
    t = at_turn()
    err = t.refused("fire", shooter="a1", weapon="vehicle_mg", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-TRANS-6"


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
