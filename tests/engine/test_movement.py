"""Movement (``battles/engine/rules/movement.py``): fighters moving (V-TURN-10, V-TERR-3/7/10, V-HOUSE-8/11, V-WIRE-4, V-MG-5..7,
V-TRANS-3, V-POW-5, V-MED-3/5): each refusal with its rule and each threshold
from both sides; declaring postures and vehicles moving (sections below)."""

import pytest

from .table import D, F, at_turn, attacker_turn, standard, tank


def move(t, fighters, distance=1.0, **kw):
    return t.add("fighters_moved", side="attacker", fighters=fighters, distance=distance, **kw)


def refused_move(t, fighters, distance=1.0, side="attacker", **kw):
    return t.refused("fighters_moved", side=side, fighters=fighters, distance=distance, **kw).rule_id


# --- who may move -------------------------------------------------------------------------------------
def test_v_med_3_a_wounded_fighter_does_not_move():
    t = at_turn()
    t.f("a1").wounded = True
    assert refused_move(t, ["a2", "a1"]) == "V-MED-3"


def test_v_med_3_with_wounded_may_act_a_wounded_fighter_moves():
    t = at_turn({"wounded_may_act": True})
    t.f("a1").wounded = True
    move(t, ["a1"])
    assert t.state.phase == "move"


def test_s_unknown_a_side_moves_only_its_own_fighters():
    t = at_turn()
    assert refused_move(t, ["a1", "d1"]) == "S-UNKNOWN"
    assert refused_move(t, ["ghost"]) == "S-UNKNOWN"


def test_v_trans_3_a_fighter_aboard_disembarks_first():
    t = at_turn()
    assert refused_move(t, ["a_tc"]) == "V-TRANS-3"  # the tank's commander, crew of AT3


def test_v_turn_9_and_v_turn_10_the_move_comes_after_the_postures_and_before_the_fire():
    t = standard()
    t.postures("defender")
    t.end_turn()
    assert refused_move(t, ["a1"]) == "V-TURN-9"
    t.postures("attacker")
    move(t, ["a1"])
    move(t, ["a2"])  # more moves in the move phase
    t.fire("a3", "rifle", struck=[{"fighter": "d1", "die": D(3)}])
    assert refused_move(t, ["a4"]) == "V-TURN-10"


# --- V-MG-5..7: the heavy machine gun's crew -------------------------------------------------------------
@pytest.mark.parametrize("how", ["dead", "captured", "wounded"])
def test_v_mg_6_without_a_fit_assistant_the_heavy_mg_does_not_move(how):
    t = at_turn()
    setattr(t.f("a_hma"), how, True)
    assert refused_move(t, ["a_hmg"]) == "V-MG-6"


def test_v_mg_5_only_the_heavy_mg_needs_two_men_a_light_mg_gunner_moves_alone():
    """V-MG-5: the heavy (tripod) MG needs two men to move; a light MG gunner with no assistant moves alone."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "L", "posture": "recon"}],
          fighters=[F("l_lmg", "L", "lmg_gunner"), F("l1", "L")])
    t.add("fighters_moved", side="attacker", fighters=["l_lmg"], distance=3)


def test_v_mg_6_another_units_assistant_is_not_his():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "M", "posture": "recon"}],
          fighters=[{"id": "m_hmg", "unit": "M", "cls": "hmg_gunner"}, {"id": "m1", "unit": "M"}])
    assert refused_move(t, ["m_hmg", "a_hma"]) == "V-MG-6"


@pytest.mark.parametrize("fighters", [["a_hmg"], ["a_hma"]])
def test_v_mg_7_gunner_and_assistant_move_together(fighters):
    t = at_turn()
    assert refused_move(t, fighters) == "V-MG-7"


@pytest.mark.parametrize(("spacing", "ok"), [(None, True), (1.0, True), (1.01, False)])
def test_v_mg_7_within_one_inch_after_the_move(spacing, ok):
    t = at_turn()
    if ok:
        move(t, ["a_hmg", "a_hma"], mg_spacing=spacing)
    else:
        assert refused_move(t, ["a_hmg", "a_hma"], mg_spacing=spacing) == "V-MG-7"
    assert refused_move(t, ["a_hmg", "a_hma", "a1"], mg_spacing=1.01) == "V-MG-7"


def test_v_mg_7_the_spacing_comes_from_the_rules_data():
    t = at_turn({"mg_crew_spacing": 2.0})
    move(t, ["a_hmg", "a_hma"], mg_spacing=2.0)
    assert refused_move(t, ["a_hmg", "a_hma"], mg_spacing=2.01) == "V-MG-7"


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
        assert refused_move(t, ["a1"], distance=dist, road=road) == "V-TURN-10"


def test_v_turn_10_a_fighters_road_bonus_comes_from_the_rules_data():
    t = at_turn({"road_bonus": 3.0})
    move(t, ["a1"], distance=9.0, road=True)
    assert refused_move(t, ["a1"], distance=9.01, road=True) == "V-TURN-10"


def test_v_turn_10_each_fighter_by_his_own_posture():
    """The sniper's own march posture (V-SNIP-1) lets him go 12"; his squad in recon 6"."""
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.add("postures_declared", side="attacker", units={"A": "recon", "A2": "recon", "AHQ": "dug_in"},
          fighters={"a_snp": "march"})
    move(t, ["a_snp"], distance=12.0)
    assert refused_move(t, ["a_snp", "a1"], distance=12.0) == "V-TURN-10"


# --- houses (V-HOUSE-8, V-HOUSE-11) --------------------------------------------------------------------------
@pytest.mark.parametrize(("floors", "ok"), [(0, True), (1, True), (2, False)])
def test_v_house_11_at_most_one_floor_a_turn(floors, ok):
    t = at_turn()
    if ok:
        move(t, ["a1"], floors=floors)
    else:
        assert refused_move(t, ["a1"], floors=floors) == "V-HOUSE-11"


def test_v_house_8_in_through_an_opening_and_out_again():
    t = at_turn()
    assert refused_move(t, ["a1"], enter_house="H", through_opening=False) == "V-HOUSE-8"
    assert refused_move(t, ["a1"], enter_house="nope") == "S-UNKNOWN"
    move(t, ["a1", "a2"], enter_house="H")
    assert t.f("a1").building == "H" and t.f("a2").building == "H" and t.f("a3").building == ""
    assert refused_move(t, ["a1"], leave_house=True, through_opening=False) == "V-HOUSE-8"
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
        assert refused_move(t, ["a1"], obstacle_height=height) == "V-TERR-10"


def test_v_wire_4_every_section_crossed_must_be_removed():
    t = at_turn()
    t.add("terrain_placed", wire=["W2"])
    t.state.wire["W"].removed = True
    move(t, ["a1"], wire=["W"])
    assert refused_move(t, ["a1"], wire=["W", "W2"]) == "V-WIRE-4"
    assert refused_move(t, ["a1"], wire=["W", "nope"]) == "S-UNKNOWN"


@pytest.mark.parametrize(("water", "bridge", "needs", "ok"), [(True, False, True, False), (True, True, True, True),
                                                              (True, False, False, True), (False, True, True, True),
                                                              (False, False, True, True)])
def test_v_terr_3_water_by_bridges_g21(water, bridge, needs, ok):
    t = at_turn({"water_needs_bridge": needs})
    if ok:
        move(t, ["a1"], water=water, bridge=bridge)
    else:
        assert refused_move(t, ["a1"], water=water, bridge=bridge) == "V-TERR-3"


def test_g4_an_officer_outside_units_without_a_declared_posture_is_dug_in_and_does_not_move():
    """posture_of: no unit and no own posture reads as dug in (G-4: 0")."""
    t = at_turn()
    assert t.f("a_cpt").posture == "" and t.f("a_cpt").unit == ""
    assert refused_move(t, ["a_cpt"], distance=0.01) == "V-TURN-10"
    move(t, ["a_cpt"], distance=0.0)


def test_v_off_9_a_declared_own_posture_moves_an_officer_outside_units():
    t = standard()
    t.postures("defender")
    t.end_turn()
    t.add("postures_declared", side="attacker", units={"A": "dug_in", "A2": "dug_in", "AHQ": "dug_in"},
          fighters={"a_cpt": "march"})
    move(t, ["a_cpt"], distance=12.0)
    assert refused_move(t, ["a_cpt"], distance=12.01) == "V-TURN-10"


# Declaring postures (V-TURN-9, V-SQUAD-4, V-OFF-5/6/9, V-SNIP-1, V-MORALE-2,
# V-TEST-3): which units must be declared, which fighters may have their own, and
# what a morale result allows.


ALL = {"A": "recon", "A2": "recon", "AHQ": "dug_in"}


def attacker_to_declare(rules=None):
    t = standard(rules)
    t.postures("defender")
    t.end_turn()
    return t


def declare(t, units=None, fighters=None):
    return t.add("postures_declared", side="attacker", units=ALL if units is None else units, fighters=fighters or {})


def refused_postures(t, units=None, fighters=None):
    return t.refused("postures_declared", side="attacker", units=ALL if units is None else units,
                     fighters=fighters or {})


@pytest.mark.parametrize("unit", ["nope", "D"])
def test_s_unknown_a_side_declares_only_its_own_units(unit):
    t = attacker_to_declare()
    err = refused_postures(t, units={**ALL, unit: "recon"})
    assert err.rule_id == "S-UNKNOWN"


def test_v_squad_4_a_fire_team_with_its_commander_declares_its_own_posture():
    t = attacker_to_declare()
    declare(t, units={"A": "recon", "A2": "assault", "AHQ": "dug_in"})
    assert (t.state.units["A"].posture, t.state.units["A2"].posture) == ("recon", "assault")
    assert t.state.units["A2"].posture_ply == t.state.ply == t.state.postures_ply


def test_v_squad_4_a_captured_corporals_team_follows_its_squad():
    t = attacker_to_declare()
    t.f("a_cpl").captured = True
    assert refused_postures(t).rule_id == "V-SQUAD-4"
    declare(t, units={"A": "assault", "AHQ": "dug_in"})
    assert t.state.units["A2"].posture == "assault" and t.state.units["A2"].posture_ply == t.state.ply


# --- V-TURN-9: every manned unit is declared -------------------------------------------------------------------
@pytest.mark.parametrize("omitted", ["A", "A2", "AHQ"])
def test_v_turn_9_each_manned_unit_of_the_side_is_declared(omitted):
    t = attacker_to_declare()
    err = refused_postures(t, units={k: v for k, v in ALL.items() if k != omitted})
    assert err.rule_id == "V-TURN-9" and err.message_en.endswith(f"missing {omitted}.")


def test_v_turn_9_a_squad_without_a_commander_is_declared_too():
    t = attacker_to_declare()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N")])
    err = refused_postures(t)
    assert err.rule_id == "V-TURN-9" and err.message_en.endswith("missing N.")
    t.f("a_sgt").dead = True  # a squad whose sergeant is dead still has a posture
    err = refused_postures(t, units={"A2": "recon", "AHQ": "dug_in", "N": "recon"})
    assert err.rule_id == "V-TURN-9" and err.message_en.endswith("missing A.")


@pytest.mark.parametrize("how", ["dead", "captured"])
def test_v_turn_9_a_unit_with_no_fighter_left_is_not_declared(how):
    t = attacker_to_declare()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N"), F("n2", "N")])
    for fid in ("n1", "n2"):
        setattr(t.f(fid), how, True)
    declare(t)
    assert t.state.units["N"].posture_ply == -1


def test_v_turn_9_one_fighter_left_keeps_the_unit_manned():
    t = attacker_to_declare()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N"), F("n2", "N")])
    t.f("n1").dead = True
    assert refused_postures(t).rule_id == "V-TURN-9"
    declare(t, units={**ALL, "N": "march"})
    assert t.state.units["N"].posture == "march"


# --- fighters' own postures (V-OFF-5, V-OFF-6, V-OFF-9, V-SNIP-1) -----------------------------------------------
@pytest.mark.parametrize("fid", ["a_tp", "a_bo", "a_sgt", "a1"])
def test_v_off_5_fighters_follow_their_units_posture(fid):
    """Rank and file outside units (a tank's personnel), a lieutenant inside a unit (a_bo in AHQ),
    a sergeant and a rifleman have no posture of their own."""
    t = attacker_to_declare()
    assert refused_postures(t, fighters={fid: "march"}).rule_id == "V-OFF-5"


@pytest.mark.parametrize("first", ["a_snp", "a_lt", "a_cpt"])
def test_v_off_5_a_fighter_with_his_own_posture_does_not_excuse_the_next(first):
    t = attacker_to_declare()
    assert refused_postures(t, fighters={first: "march", "a1": "recon"}).rule_id == "V-OFF-5"


def test_v_snip_1_v_off_9_snipers_and_officers_outside_units_have_their_own():
    t = attacker_to_declare()
    declare(t, fighters={"a_snp": "march", "a_lt": "assault", "a_cpt": "dug_in"})
    assert [(t.f(x).posture, t.f(x).posture_ply) for x in ("a_snp", "a_lt", "a_cpt")] == \
        [("march", t.state.ply), ("assault", t.state.ply), ("dug_in", t.state.ply)]


def test_s_unknown_a_side_declares_no_posture_for_another_sides_sniper():
    t = attacker_to_declare()
    assert refused_postures(t, fighters={"d_snp": "recon"}).rule_id == "S-UNKNOWN"


# --- V-MORALE-2: the morale result holds -------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "held", "other"), [(8, "march", "recon"), (12, "dug_in", "assault"),
                                                    (12, "dug_in", "march")])
def test_v_morale_2_a_retreat_holds_march_and_digging_in_holds_dug_in(die, held, other):
    t = standard()
    t.postures("defender")
    t.add("morale_test", unit="D", die=D(die), officer_distances={})
    t.end_turn()
    t.postures("attacker")
    t.end_turn()
    units = {"D": other, "DC": "dug_in"}
    assert t.refused("postures_declared", side="defender", units=units).rule_id == "V-MORALE-2"
    t.add("postures_declared", side="defender", units={**units, "D": held})
    assert t.state.units["D"].posture == held


def test_v_morale_2_carrying_on_any_posture_may_be_declared():
    t = standard()
    t.postures("defender")
    t.add("morale_test", unit="D", die=D(18), officer_distances={}, new_commander="d1")
    t.end_turn()
    t.postures("attacker")
    t.end_turn()
    t.add("postures_declared", side="defender", units={"D": "assault", "DC": "dug_in"})
    assert t.state.units["D"].posture == "assault"


# Vehicles moving (V-TURN-10 with G-18, V-TERR-5/7, V-WIRE-1/3, V-TRANS-4,
# V-VDMG-6, V-CREW-4): each drive's limit from both sides, the railway, the wire,
# and what a move records.


def vehicles_turn(rules=None):
    t = attacker_turn(standard(rules))
    tank(t, "attacker", "CAR", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "LT", armour=1, gun=1, drive="tracked")
    return t


def refused_drive(t, vehicle, distance=1.0, **kw):
    return t.refused("vehicle_moved", vehicle=vehicle, distance=distance, **kw).rule_id


def test_s_unknown_no_such_vehicle():
    assert refused_drive(vehicles_turn(), "nope") == "S-UNKNOWN"


@pytest.mark.parametrize(("vid", "limit"), [("CAR", 12.0), ("AT3", 8.0), ("AP", 8.0), ("AH", 0.0)])
def test_v_turn_10_g18_each_drive_moves_its_distance_and_2_more_on_a_road(vid, limit):
    """wheeled 12, tracked 8, half-tracked 8, towed 0 (G-18); a road adds 2 (V-TERR-7)."""
    t = vehicles_turn()
    assert refused_drive(t, vid, distance=limit + 0.01) == "V-TURN-10"
    assert refused_drive(t, vid, distance=limit + 2.01, road=True) == "V-TURN-10"
    t.add("vehicle_moved", vehicle=vid, distance=limit + 2.0, road=True)
    t.add("vehicle_moved", vehicle=vid, distance=limit)
    assert t.v(vid).moved_ply == t.state.ply and t.state.phase == "move"


def test_v_turn_10_a_vehicles_road_bonus_comes_from_the_rules_data():
    t = vehicles_turn({"road_bonus": 4.0})
    t.add("vehicle_moved", vehicle="AT3", distance=12.0, road=True)
    assert refused_drive(t, "AT3", distance=12.01, road=True) == "V-TURN-10"


def test_v_turn_9_and_v_turn_12_a_vehicle_moves_in_its_sides_turn_after_the_postures():
    t = standard()
    assert refused_drive(t, "DT4") == "V-TURN-9"
    t.postures("defender")
    assert refused_drive(t, "AT3") == "V-TURN-12"
    t.add("vehicle_moved", vehicle="DT4", distance=8.0)


# --- V-TERR-5: the railway ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("vid", "railway", "ok"), [("CAR", True, False), ("LT", True, False), ("CAR", False, True),
                                                    ("AP", True, True), ("AT3", True, True)])
def test_v_terr_5_armour_class_1_keeps_off_the_railway(vid, railway, ok):
    t = vehicles_turn()
    if ok:
        t.add("vehicle_moved", vehicle=vid, distance=1.0, railway=railway)
    else:
        assert refused_drive(t, vid, railway=railway) == "V-TERR-5"


# --- V-WIRE-1, V-WIRE-3 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("vid", ["AT3", "AP"])
def test_v_wire_3_tracked_and_half_tracked_drive_through_and_remove_every_section(vid):
    t = vehicles_turn()
    t.add("vehicle_moved", vehicle=vid, distance=1.0, wire=["W", "FN"])
    assert t.state.wire["W"].removed and t.state.wire["FN"].removed


def test_v_wire_1_wheeled_stops_at_any_standing_section_but_crosses_a_removed_one():
    t = vehicles_turn()
    t.state.wire["W"].removed = True
    t.add("vehicle_moved", vehicle="CAR", distance=1.0, wire=["W"])
    assert refused_drive(t, "CAR", wire=["W", "FN"]) == "V-WIRE-1"
    assert not t.state.wire["FN"].removed
    assert refused_drive(t, "CAR", wire=["W", "nope"]) == "S-UNKNOWN"
    assert refused_drive(t, "AT3", wire=["nope"]) == "S-UNKNOWN"


def test_v_turn_10_a_move_without_wire_removes_none():
    t = vehicles_turn()
    t.add("vehicle_moved", vehicle="AT3", distance=1.0)
    assert not t.state.wire["W"].removed and not t.state.wire["FN"].removed


# --- V-TURN-9 / V-TURN-10: too late in the turn, naming the phase missed -------------------------------------
def _after_fire():
    t = standard()
    t.postures("defender", D="recon")
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(3)}])
    return t


def test_v_turn_10_a_fighter_moving_after_fire_is_told_movement_is_over():
    t = _after_fire()
    err = t.refused("fighters_moved", side="defender", fighters=["d3"], distance=1)
    assert err.rule_id == "V-TURN-10"
    assert err.message_en == "Too late for movement in this turn: the turn has moved on."
    assert err.message_ru == "После стрельбы/движения передвижение в этом ходу уже невозможно."


def test_v_turn_10_a_vehicle_moving_after_fire_is_told_movement_is_over():
    t = _after_fire()
    err = t.refused("vehicle_moved", vehicle="DT4", distance=1)
    assert err.rule_id == "V-TURN-10"
    assert "Too late for movement" in err.message_en and "передвижение" in err.message_ru


def test_v_turn_9_postures_declared_after_moving_are_too_late_for_declaring_postures():
    t = standard()
    t.postures("defender", D="recon")
    t.add("fighters_moved", side="defender", fighters=["d1"], distance=6)
    err = t.refused("postures_declared", side="defender", units={"D": "recon", "DC": "dug_in"})
    assert err.rule_id == "V-TURN-9"
    assert err.message_en == "Too late for declaring postures in this turn: the turn has moved on."
    assert err.message_ru == "После стрельбы/движения объявление положений в этом ходу уже невозможно."


def test_moving_through_a_wire_section_that_is_not_there_is_refused():
    t = attacker_turn(standard())
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=1,
                     wire=["nowhere"]).rule_id == "S-UNKNOWN"


def test_v_test_3_a_surrendered_unit_declares_no_posture_and_an_unknown_unit_is_not_found():
    t = standard()
    t.state.units["D"].morale = "surrendered"
    assert t.refused("postures_declared", side="defender", units={"D": "dug_in"}).rule_id == "V-TEST-3"
    assert t.refused("postures_declared", side="defender", units={"nowhere": "dug_in"}).rule_id == "S-UNKNOWN"


def test_v_turn_10_no_vehicle_moves_once_the_fire_has_begun():
    """V-TURN-10 then V-TURN-11: moves come before fire in a turn, for vehicles as for men."""
    t = standard()
    t.postures("defender", D="recon")
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(3)}])
    assert t.refused("vehicle_moved", vehicle="DG", distance=1).rule_id == "V-TURN-10"


def test_v_morale_2_a_retreating_unit_declares_march_until_another_officer():
    """V-MORALE-2 (V-TEST-4): a unit that retreated keeps the march posture until the result lapses."""
    t = attacker_turn(standard())
    t.state.units["A"].morale = "retreat"  # the morale test's result (given)
    t.next_turn()
    t.end_turn()
    assert t.refused("postures_declared", side="attacker", units={"A": "assault"}).rule_id == "V-MORALE-2"
    t.postures(A="march")


def test_s_unknown_a_side_declares_no_posture_for_the_enemys_fighter():
    t = standard()
    err = t.refused("postures_declared", side="defender", fighters={"a1": "assault"})
    assert err.rule_id == "S-UNKNOWN"


# --- V-MG-7 with two heavy MGs in one squad (V-SQUAD-8) ------------------------------------------------------
def two_hmg_squad(t):
    t.add("force_mustered", side="attacker", units=[{"id": "M", "posture": "recon"}],
          fighters=[{"id": "g1", "unit": "M", "cls": "hmg_gunner"}, {"id": "s1", "unit": "M", "cls": "hmg_assistant", "mg": "g1"},
                    {"id": "g2", "unit": "M", "cls": "hmg_gunner"}, {"id": "s2", "unit": "M", "cls": "hmg_assistant", "mg": "g2"}])


def test_v_mg_7_each_heavy_mg_crew_of_a_squad_moves_alone():
    t = at_turn()
    two_hmg_squad(t)
    move(t, ["g1", "s1"], mg_spacing=1.0)  # the other crew (g2, s2) stays
    assert t.f("g1").moved_ply == t.state.ply and t.f("g2").moved_ply != t.state.ply


@pytest.mark.parametrize("fighters", [["g1", "s2"], ["g1"], ["s1"], ["g1", "s1", "g2"]])
def test_v_mg_7_a_crew_of_a_squad_with_two_heavy_mgs_is_not_split(fighters):
    t = at_turn()
    two_hmg_squad(t)
    assert refused_move(t, fighters) == "V-MG-7"  # ["g1", "s2"]: s2 serves g2's MG, not g1's


def test_v_mg_6_the_other_crews_assistant_does_not_move_a_gunner():
    t = at_turn()
    two_hmg_squad(t)
    t.f("s1").dead = True
    assert refused_move(t, ["g1", "s2"]) == "V-MG-6"  # s2 serves g2's MG (V-MG-7)


def test_v_mg_7_an_assistant_names_a_heavy_mg_gunner_of_his_own_unit():
    t = at_turn()
    bad = [{"id": "x1", "unit": "A", "cls": "hmg_assistant", "mg": "a1"}]  # a1 is a rifleman
    assert t.refused("force_mustered", side="attacker", fighters=bad).rule_id == "V-MG-7"


# --- V-TERR-3 / G-21: vehicles and water -------------------------------------------------------------------------
@pytest.mark.parametrize(("water", "bridge", "needs", "ok"), [(True, False, True, False), (True, True, True, True),
                                                              (True, False, False, True), (False, True, True, True),
                                                              (False, False, True, True)])
@pytest.mark.parametrize("vid", ["CAR", "AT3"])
def test_v_terr_3_a_vehicle_crosses_water_by_bridges_g21(vid, water, bridge, needs, ok):
    # the seed's line is for every piece, not infantry only: G-21's reading (bridges only) holds for vehicles
    t = vehicles_turn({"water_needs_bridge": needs})
    if ok:
        t.add("vehicle_moved", vehicle=vid, distance=2.0, water=water, bridge=bridge)
        assert t.v(vid).moved_ply == t.state.ply
    else:
        assert refused_drive(t, vid, distance=2.0, water=water, bridge=bridge) == "V-TERR-3"
