"""Who may be struck by a shot (S-TARGET, V-TRANS-7, G-9): the fighters named, own side and captured fighters,
a passenger at a mounted weapon, and the spotting test everywhere."""
import pytest

from .fire_helpers import into, passengers, shot
from .table import D, at_turn

# Issue 11: the per-target checks of a shot (``fire._TARGET_CHECKS``) and the
# vehicles in an area weapon's radius (``_check_vehicles_struck``): who may be
# struck (S-TARGET, V-TRANS-7), how many (V-MG-1, V-GUN-3, V-ATGL-3), within
# which radius (V-MG-4, V-MG-8, V-MORT-1, V-MORT-2), when a spotting test is
# needed (V-HOUSE-9, V-SNIP-3, V-BUNK-2, V-COVER-4, G-9), what may be shot at a
# vehicle (V-VDMG-2, V-GUN-4, V-GUN-5) and at an aircraft (V-AA-2, V-AA-3,
# V-AA-6, G-8).




# --- fighters -------------------------------------------------------------------------------------------------------
def test_s_target_a_shot_at_fighters_names_the_struck():
    t = at_turn()
    assert t.refused("fire", **shot("a1", "rifle", [])).rule_id == "S-TARGET"


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


@pytest.mark.parametrize(("shooter", "weapon", "extra"), [
    ("a_lmg", "lmg", {}), ("a_fl", "flamethrower", {}), ("a1", "rifle", {}), ("AP", "vehicle_mg", {}),
    ("AH", "howitzer", {"hit": D(15), "target_id": "p"}),
])
def test_s_die_each_struck_fighter_needs_his_g2_roll(shooter, weapon, extra):
    t = at_turn()
    err = t.refused("fire", **shot(shooter, weapon, [{"fighter": "d1"}], distance=4, **extra))
    assert err.rule_id == "S-DIE" and "d1" in err.message_en
