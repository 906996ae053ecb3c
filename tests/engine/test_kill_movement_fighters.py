"""Fighters moving (V-TURN-10, V-TERR-3/7/10, V-HOUSE-8/11, V-WIRE-4, V-MG-5..7,
V-TRANS-3, V-POW-5, V-MED-3/5): each refusal with its rule and each threshold
from both sides (issue 11: mutation kill rate)."""
import pytest

from .table import D, attacker_turn, standard


def at_turn(rules=None, **postures):
    return attacker_turn(standard(rules), **postures)


def move(t, fighters, distance=1.0, **kw):
    return t.add("fighters_moved", side="attacker", fighters=fighters, distance=distance, **kw)


def refused(t, fighters, distance=1.0, side="attacker", **kw):
    return t.refused("fighters_moved", side=side, fighters=fighters, distance=distance, **kw).rule_id


# --- who may move -------------------------------------------------------------------------------------
def test_v_med_3_a_wounded_fighter_does_not_move():
    t = at_turn()
    t.f("a1").wounded = True
    assert refused(t, ["a2", "a1"]) == "V-MED-3"


def test_v_med_3_with_wounded_may_act_a_wounded_fighter_moves():
    t = at_turn({"wounded_may_act": True})
    t.f("a1").wounded = True
    move(t, ["a1"])
    assert t.state.phase == "move"


def test_s_unknown_a_side_moves_only_its_own_fighters():
    t = at_turn()
    assert refused(t, ["a1", "d1"]) == "S-UNKNOWN"
    assert refused(t, ["ghost"]) == "S-UNKNOWN"


def test_v_trans_3_a_fighter_aboard_disembarks_first():
    t = at_turn()
    assert refused(t, ["a_tc"]) == "V-TRANS-3"  # the tank's commander, crew of AT3


def test_v_turn_9_and_v_turn_10_the_move_comes_after_the_postures_and_before_the_fire():
    t = standard()
    t.postures("defender")
    t.end_turn()
    assert refused(t, ["a1"]) == "V-TURN-9"
    t.postures("attacker")
    move(t, ["a1"])
    move(t, ["a2"])  # more moves in the move phase
    t.fire("a3", "rifle", struck=[{"fighter": "d1", "die": D(3)}])
    assert refused(t, ["a4"]) == "V-TURN-10"


# --- V-MG-5..7: the heavy machine gun's crew -------------------------------------------------------------
@pytest.mark.parametrize("how", ["dead", "captured", "wounded"])
def test_v_mg_6_without_a_fit_assistant_the_heavy_mg_does_not_move(how):
    t = at_turn()
    setattr(t.f("a_hma"), how, True)
    assert refused(t, ["a_hmg"]) == "V-MG-6"


def test_v_mg_6_another_units_assistant_is_not_his():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "M", "posture": "recon"}],
          fighters=[{"id": "m_hmg", "unit": "M", "cls": "hmg_gunner"}, {"id": "m1", "unit": "M"}])
    assert refused(t, ["m_hmg", "a_hma"]) == "V-MG-6"


@pytest.mark.parametrize("fighters", [["a_hmg"], ["a_hma"]])
def test_v_mg_7_gunner_and_assistant_move_together(fighters):
    t = at_turn()
    assert refused(t, fighters) == "V-MG-7"


@pytest.mark.parametrize(("spacing", "ok"), [(None, True), (1.0, True), (1.01, False)])
def test_v_mg_7_within_one_inch_after_the_move(spacing, ok):
    t = at_turn()
    if ok:
        move(t, ["a_hmg", "a_hma"], mg_spacing=spacing)
    else:
        assert refused(t, ["a_hmg", "a_hma"], mg_spacing=spacing) == "V-MG-7"
    assert refused(t, ["a_hmg", "a_hma", "a1"], mg_spacing=1.01) == "V-MG-7"


def test_v_mg_7_the_spacing_comes_from_the_rules_data():
    t = at_turn({"mg_crew_spacing": 2.0})
    move(t, ["a_hmg", "a_hma"], mg_spacing=2.0)
    assert refused(t, ["a_hmg", "a_hma"], mg_spacing=2.01) == "V-MG-7"


@pytest.mark.parametrize("how", ["dead", "captured", "wounded"])
def test_v_mg_5_the_assistant_alone_moves_when_the_gunner_is_out(how):
    t = at_turn()
    setattr(t.f("a_hmg"), how, True)
    move(t, ["a_hma"])
    assert t.state.phase == "move"


def test_v_mg_7_other_fighters_move_without_the_mg_crew():
    t = at_turn()
    move(t, ["a1", "a2"], mg_spacing=5.0)  # the spacing is for MG crews only
    assert t.state.phase == "move"


# --- distance (G-4, V-TERR-7) ------------------------------------------------------------------------------
@pytest.mark.parametrize(("dist", "road", "ok"), [(6.0, False, True), (6.01, False, False), (8.0, True, True),
                                                  (8.01, True, False)])
def test_v_turn_10_recon_6_and_v_terr_7_road_plus_2(dist, road, ok):
    t = at_turn()
    if ok:
        move(t, ["a1"], distance=dist, road=road)
    else:
        assert refused(t, ["a1"], distance=dist, road=road) == "V-TURN-10"


def test_v_turn_10_the_road_bonus_comes_from_the_rules_data():
    t = at_turn({"road_bonus": 3.0})
    move(t, ["a1"], distance=9.0, road=True)
    assert refused(t, ["a1"], distance=9.01, road=True) == "V-TURN-10"


def test_v_turn_10_each_fighter_by_his_own_posture():
    """The sniper's own march posture (V-SNIP-1) lets him go 12"; his squad in recon 6"."""
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.add("postures_declared", side="attacker", units={"A": "recon", "A2": "recon", "AHQ": "dug_in"},
          fighters={"a_snp": "march"})
    move(t, ["a_snp"], distance=12.0)
    assert refused(t, ["a_snp", "a1"], distance=12.0) == "V-TURN-10"


# --- houses (V-HOUSE-8, V-HOUSE-11) --------------------------------------------------------------------------
@pytest.mark.parametrize(("floors", "ok"), [(0, True), (1, True), (2, False)])
def test_v_house_11_at_most_one_floor_a_turn(floors, ok):
    t = at_turn()
    if ok:
        move(t, ["a1"], floors=floors)
    else:
        assert refused(t, ["a1"], floors=floors) == "V-HOUSE-11"


def test_v_house_8_in_through_an_opening_and_out_again():
    t = at_turn()
    assert refused(t, ["a1"], enter_house="H", through_opening=False) == "V-HOUSE-8"
    assert refused(t, ["a1"], enter_house="nope") == "S-UNKNOWN"
    move(t, ["a1", "a2"], enter_house="H")
    assert t.f("a1").building == "H" and t.f("a2").building == "H" and t.f("a3").building == ""
    assert refused(t, ["a1"], leave_house=True, through_opening=False) == "V-HOUSE-8"
    move(t, ["a1"], leave_house=True)
    assert t.f("a1").building == "" and t.f("a2").building == "H"


def test_v_house_8_a_move_outside_houses_needs_no_opening():
    t = at_turn()
    move(t, ["a1"], through_opening=False)
    t2 = at_turn()
    t2.f("a1").building = "H"
    move(t2, ["a1"])  # a move that neither enters nor leaves keeps him where he is
    assert t2.f("a1").building == "H"


# --- obstacles, wire, water (V-TERR-10, V-WIRE-4, V-TERR-3) ----------------------------------------------------
@pytest.mark.parametrize(("height", "ok"), [(1.5, True), (1.51, False)])
def test_v_terr_10_obstacles_up_to_1_5_inches(height, ok):
    t = at_turn()
    if ok:
        move(t, ["a1"], obstacle_height=height)
    else:
        assert refused(t, ["a1"], obstacle_height=height) == "V-TERR-10"


def test_v_wire_4_every_section_crossed_must_be_removed():
    t = at_turn()
    t.add("terrain_placed", wire=["W2"])
    t.state.wire["W"].removed = True
    move(t, ["a1"], wire=["W"])
    assert refused(t, ["a1"], wire=["W", "W2"]) == "V-WIRE-4"
    assert refused(t, ["a1"], wire=["W", "nope"]) == "S-UNKNOWN"


@pytest.mark.parametrize(("water", "bridge", "needs", "ok"), [(True, False, True, False), (True, True, True, True),
                                                              (True, False, False, True), (False, True, True, True),
                                                              (False, False, True, True)])
def test_v_terr_3_water_by_bridges_g21(water, bridge, needs, ok):
    t = at_turn({"water_needs_bridge": needs})
    if ok:
        move(t, ["a1"], water=water, bridge=bridge)
    else:
        assert refused(t, ["a1"], water=water, bridge=bridge) == "V-TERR-3"


def test_g4_an_officer_outside_units_without_a_declared_posture_is_dug_in_and_does_not_move():
    """posture_of: no unit and no own posture reads as dug in (G-4: 0")."""
    t = at_turn()
    assert t.f("a_cpt").posture == "" and t.f("a_cpt").unit == ""
    assert refused(t, ["a_cpt"], distance=0.01) == "V-TURN-10"
    move(t, ["a_cpt"], distance=0.0)


def test_v_off_9_a_declared_own_posture_moves_an_officer_outside_units():
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.add("postures_declared", side="attacker", units={"A": "dug_in", "A2": "dug_in", "AHQ": "dug_in"},
          fighters={"a_cpt": "march"})
    move(t, ["a_cpt"], distance=12.0)
    assert refused(t, ["a_cpt"], distance=12.01) == "V-TURN-10"
