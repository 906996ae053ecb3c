"""Vehicle crews (V-CREW-4..6, V-FLAME-3, V-FLAME-4): boarding and leaving a vehicle, crews too small to act."""
import pytest

from .engineering_helpers import RING, capture_table, flamed
from .table import D, at_turn, standard


def test_v_flame_4_a_tank_taken_by_the_capture_rules_needs_no_personnel():
    """V-FLAME-4 is for a tank taken the flamethrower's way (V-FLAME-3): one taken by the capture rules fires
    manned by a sergeant and a rifleman, no personnel aboard."""
    t = capture_table()
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=8.01, die=D(11))
    t.add("crew_boarded", vehicle="X", fighters=["a_sgt", "a1"])
    t.fire("X", "gun", target="vehicle", target_id="DT4", distance=5, hit=D(3))
    assert t.v("X").shots == 1


# --- crew_boarded -----------------------------------------------------------------------------------------
def test_v_crew_4_boarding_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("crew_boarded", vehicle="AT3", fighters=["a1"]).rule_id == "S-NOT-STARTED"


def test_v_crew_4_men_of_the_side_join_the_crew_in_order():
    t = at_turn()
    t.add("crew_boarded", vehicle="AT3", fighters=["a1", "a2"])
    assert t.v("AT3").crew == ["a_tc", "a_tp", "a1", "a2"]
    assert (t.f("a2").aboard, t.f("a2").aboard_as) == ("AT3", "crew")


def test_v_turn_12_own_men_board_only_in_their_turn():
    t = at_turn()
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1"]).rule_id == "V-TURN-12"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_crew_4_an_unfit_man_does_not_board_in_or_out_of_turn(status, rule):
    t = at_turn()
    setattr(t.f("a2"), status, True)
    setattr(t.f("d2"), status, True)
    assert t.refused("crew_boarded", vehicle="AT3", fighters=["a1", "a2"]).rule_id == rule
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1", "d2"]).rule_id == rule


def test_v_vdmg_4_a_destroyed_vehicle_takes_no_crew_but_after_turn_order():
    t = at_turn()
    t.state.vehicles["DT4"].destroyed = True
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1"]).rule_id == "V-TURN-12"
    t.state.vehicles["AT3"].destroyed = True
    assert t.refused("crew_boarded", vehicle="AT3", fighters=["a1"]).rule_id == "V-VDMG-4"


def test_v_crew_4_a_man_aboard_as_a_passenger_does_not_join_a_crew():
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1"])
    err = t.refused("crew_boarded", vehicle="AT3", fighters=["a2", "a1"])
    assert err.rule_id == "S-UNKNOWN" and "a1" in err.message_en


# --- crew_dismounted and vehicle_boarded (the rest of the module) -----------------------------------------
def test_v_crew_6_dismounting_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=1).rule_id == "S-NOT-STARTED"


def test_v_crew_6_a_dismounted_crewman_stands_dug_in_and_leaves_the_crew():
    t = at_turn()
    t.add("crew_dismounted", vehicle="AT3", fighters=["a_tp"], distance=1.0)
    tp = t.f("a_tp")
    assert t.v("AT3").crew == ["a_tc"]
    assert (tp.aboard, tp.aboard_as, tp.posture, tp.posture_ply) == ("", "", "dug_in", t.state.ply)


def test_v_vdmg_4_no_crew_dismounts_from_a_destroyed_vehicle():
    t = at_turn()
    t.state.vehicles["AT3"].destroyed = True
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=1).rule_id == "V-VDMG-4"


def test_v_crew_6_only_the_crew_dismounts_not_passengers_nor_another_vehicles_crew():
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1"])
    for who, vid in (("a1", "AP"), ("a_pd", "AT3")):
        err = t.refused("crew_dismounted", vehicle=vid, fighters=[who], distance=1)
        assert err.rule_id == "S-UNKNOWN" and who in err.message_en
    t.f("a2").aboard, t.f("a2").aboard_as = "AT3", "crew"  # claims the seat, not on the crew list (given)
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a2"], distance=1).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize("status", ["dead", "captured"])
def test_v_crew_6_the_dead_and_the_captured_do_not_dismount(status):
    t = at_turn()
    setattr(t.f("a_tp"), status, True)
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tp"], distance=1).rule_id == "S-DEAD"


def test_v_flame_3_boarding_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "S-NOT-STARTED"


def test_v_flame_3_the_tank_is_taken_the_next_turn_not_this_one():
    t = at_turn()
    flamed(t)
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-FLAME-3"
    t.next_turn()
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-TURN-12"
    t.next_turn(A="recon")
    t.add("vehicle_boarded", vehicle="DT4", fighter="a1")
    dt4, a1 = t.v("DT4"), t.f("a1")
    assert (dt4.side, dt4.captured, dt4.crew) == ("attacker", True, ["a1"])
    assert (a1.aboard, a1.aboard_as, a1.credit.vehicles_captured) == ("DT4", "crew", 1)


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("wounded", "V-MED-3")])
def test_v_flame_3_an_unfit_boarder_is_refused_for_his_status_even_out_of_turn(status, rule):
    t = at_turn()
    flamed(t)
    setattr(t.f("d1"), status, True)
    assert t.refused("vehicle_boarded", vehicle="AT3", fighter="d1").rule_id == rule


def test_v_med_5_a_man_recovered_this_turn_may_board_a_flamed_tank():
    t = at_turn()
    flamed(t)
    t.next_turn()
    t.next_turn(A="recon")
    t.f("a1").recovering_ply = t.state.ply
    t.add("vehicle_boarded", vehicle="DT4", fighter="a1")
    assert t.v("DT4").side == "attacker"
