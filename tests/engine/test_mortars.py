"""Mortars and rocket mortars (V-MORT-1..4, V-ROCKET-1, V-ROCKET-2): the radius, the direct hit and the
second shot."""
import pytest

from .fire_helpers import shot, vfire
from .table import D, at_turn, defender_turn, tank


def test_v_mort_3_the_mortar_s_second_shot_in_a_new_turn_may_take_a_new_target():
    t = defender_turn()
    t.fire("DM", "mortar", distance=20, hit=D(3), target_id="a1", struck=[{"fighter": "a1", "die": D(3)}])
    t.fire("DM", "mortar", distance=20, hit=D(3), target_id="a1", struck=[{"fighter": "a1", "die": D(3)}])
    t.next_turn()
    t.next_turn()
    t.fire("DM", "mortar", distance=20, hit=D(11), target_id="a2", struck=[{"fighter": "a2", "die": D(11)}])
    assert t.v("DM").shots == 1 and t.v("DM").shot_target == "fighters:a2" and t.f("a2").wounded


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


@pytest.mark.parametrize(("die", "destroyed"), [(10, False), (11, True)])
def test_v_mort_4_a_direct_mortar_hit_destroys_class_1_and_its_radius_only_on_a_hit(die, destroyed):
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "C1b", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "DM", "mortar", "C1", die, vehicles_struck=[{"vehicle": "C1b", "distance": 1.0}])
    assert t.v("C1").destroyed is destroyed and t.v("C1b").destroyed is destroyed
    assert t.f("d_mc").credit.vehicles_destroyed == (2 if destroyed else 0)  # the mortar's commander


def test_v_mort_4_fragments_on_an_aim_point_miss_reach_nothing():
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    t.fire("DM", "mortar", distance=10, hit=D(10), target_id="p", struck=[{"fighter": "a1", "die": D(20)}],
           vehicles_struck=[{"vehicle": "C1", "distance": 0.5}])
    assert not t.v("C1").destroyed and not t.f("a1").wounded


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


def test_v_mort_2_the_radius_is_rules_data_and_a_rifle_has_none():
    t = at_turn({"radius": {"lmg": 3.0}})
    t.fire("a_lmg", "lmg", distance=10, struck=[{"fighter": "d1", "die": D(11), "distance": 3.0}])
    assert t.f("d1").wounded
    t.fire("a1", "rifle", struck=[{"fighter": "d2", "die": D(11), "distance": 40.0}])
    assert t.f("d2").wounded
