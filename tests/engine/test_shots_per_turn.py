"""Shots per turn and the shooter's record (G-7, G-8, V-PERS-2, V-MORT-3): the count, the named target and
the sorties."""
import pytest

from .fire_helpers import rifle, vfire
from .table import D, at_turn, defender_turn

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


# Issue 11: what a shot does (``fire._apply_fire``, ``_hit_vehicle``,
# ``_resolve``, ``_defence``, ``_damage_house``, ``_hit_bunker``): the shooter's
# record of the turn (G-7, V-PERS-2, G-8), the hit test's band (V-TEST-1,
# V-TEST-8..10), damage to vehicles by class (V-VDMG-2..6, V-MG-2, V-ATGL-1),
# riders (V-RIDE-7), flamethrowers (V-FLAME-2), mortars (V-MORT-4, V-MORT-5),
# houses and pillboxes hit through the infantry inside (V-TERR-11, V-HOUSE-2..5,
# V-BUNK-3..5), and the G-2 roll's attack and defence (G-1, G-4, V-HOUSE-1,
# V-BUNK-2, V-COVER-2).




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
