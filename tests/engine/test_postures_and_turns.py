"""Postures and the turn's structure (V-TURN-9..13, V-SQUAD-4, V-OFF-5, V-SNIP-1)."""
import pytest

from .table import D, at_turn, standard


# --- postures and turn structure ------------------------------------------------------------
def test_v_turn_9_a_turn_opens_with_postures_v_turn_10_then_moves_v_turn_11_then_fire():
    t = standard()
    err = t.refused("fighters_moved", side="defender", fighters=["d1"], distance=0)
    assert err.rule_id == "V-TURN-9"
    t.postures("defender", D="recon")
    t.add("fighters_moved", side="defender", fighters=["d1"], distance=6)
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(3)}])
    assert t.refused("fighters_moved", side="defender", fighters=["d3"], distance=1).rule_id == "V-TURN-10"
    assert t.refused("postures_declared", side="defender", units={"D": "recon"}).rule_id == "V-TURN-9"


@pytest.mark.parametrize(("posture", "dist", "road", "ok"), [("recon", 6.0, False, True), ("recon", 6.01, False, False),
                                                             ("march", 12.0, False, True), ("march", 14.0, True, True),
                                                             ("march", 14.01, True, False), ("dug_in", 0.01, False, False)])
def test_v_turn_10_moves_by_posture_g4_and_v_terr_7_road_adds_2(posture, dist, road, ok):
    t = standard()
    t.postures("defender", D=posture)
    data = dict(side="defender", fighters=["d1"], distance=dist, road=road)
    if ok:
        t.add("fighters_moved", **data)
    else:
        assert t.refused("fighters_moved", **data).rule_id == "V-TURN-10"


def test_v_turn_12_the_side_says_hod_and_the_other_moves_v_turn_13_corrections_only():
    t = standard()
    t.postures("defender")
    t.end_turn()
    assert t.state.side_to_move == "attacker" and t.state.ply == 1
    assert t.refused("postures_declared", side="defender", units={}).rule_id == "V-TURN-12"


def test_v_squad_4_fire_team_sets_its_posture_only_with_its_commander():
    t = at_turn()
    t.next_turn()
    t.fire("d1", "rifle", struck=[{"fighter": "a_cpl", "die": D(12)}])
    t.fire("d2", "rifle", struck=[{"fighter": "a_cpl", "die": D(12)}])
    assert t.f("a_cpl").dead
    t.end_turn()
    assert t.refused("postures_declared", side="attacker", units={"A2": "assault"}).rule_id == "V-SQUAD-4"
    t.postures(A="assault")
    assert t.state.units["A2"].posture == "assault"  # the leaderless team follows its squad


def test_v_turn_9_the_posture_of_each_unit_is_declared():
    t = standard()
    err = t.refused("postures_declared", side="defender", units={"D": "recon"})
    assert err.rule_id == "V-TURN-9" and "DC" in err.message_en
    t.add("postures_declared", side="defender", units={"D": "recon", "DC": "dug_in"})


def test_v_off_5_unit_officers_follow_the_unit_posture_v_off_6_and_9_lieutenants_outside_units_choose():
    """V-OFF-5; V-OFF-6 and V-OFF-9: a lieutenant outside units has his own posture."""
    t = standard()
    err = t.refused("postures_declared", side="defender", fighters={"d_sgt": "march"})
    assert err.rule_id == "V-OFF-5"
    t.add("postures_declared", side="defender", units={"D": "dug_in", "DC": "dug_in"},
          fighters={"d_lt": "march", "d_snp": "recon"})
    assert t.f("d_lt").posture == "march"
    t.add("fighters_moved", side="defender", fighters=["d_lt"], distance=12)  # march: 12"
    assert t.refused("fighters_moved", side="defender", fighters=["d1"], distance=1).rule_id == "V-TURN-10"


def test_v_snip_1_sniper_has_his_own_posture():
    t = standard()
    t.add("postures_declared", side="defender", units={"D": "dug_in", "DC": "dug_in"}, fighters={"d_snp": "recon"})
    t.add("fighters_moved", side="defender", fighters=["d_snp"], distance=6)
    assert t.f("d_snp").posture == "recon" and t.state.units["D"].posture == "dug_in"
