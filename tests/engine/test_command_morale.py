"""Command and talking distances and who orders whom (V-CMD, V-OFF, V-RADIO,
V-MOTOR-8, V-VEH-9), morale (V-MORALE, V-TEST-3..7), postures and the turn
(V-TURN, V-SQUAD-4, V-SNIP), smoke (V-SMOKE) and fire correction (V-CORR)."""
import pytest

from .table import D, F, at_turn, attacker_turn, standard, tank


# --- command distances -------------------------------------------------------------
@pytest.mark.parametrize(("officer", "unit", "dist", "rule"), [
    ("a_sgt", "A", 12.0, None), ("a_sgt", "A", 12.01, "V-CMD-4"),
    ("a_cpl", "A2", 12.0, None), ("a_cpl", "A2", 12.01, "V-CMD-4"),
])
def test_v_cmd_4_sergeant_and_corporal_12_inches_and_v_off_2_sergeant_leads_his_squad(officer, unit, dist, rule):
    t = at_turn()
    data = dict(officer=officer, unit=unit, distance=dist)
    if rule:
        assert t.refused("order_given", **data).rule_id == rule
    else:
        t.add("order_given", **data)
        assert t.state.units[unit].under == officer


def test_v_off_2_a_sergeant_does_not_lead_another_squad():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant"), F("b1", "B")])
    assert t.refused("order_given", officer="a_sgt", unit="B", distance=1).rule_id == "V-OFF-2"
    t.add("order_given", officer="a_sgt", unit="A2", distance=1)  # his own squad's fire team


@pytest.mark.parametrize(("dist", "ok"), [(18.0, True), (18.01, False)])
def test_v_cmd_3_lieutenant_18_inches_and_v_off_3_orders_sergeants(dist, ok):
    t = at_turn()
    data = dict(officer="a_lt", unit="A", distance=dist)
    if ok:
        t.add("order_given", **data)
    else:
        assert t.refused("order_given", **data).rule_id == "V-CMD-3"
    assert t.refused("order_given", officer="a_lt", unit="A2", distance=1).rule_id == "V-OFF-3"  # a corporal's team


def captain_table():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "L", "commander": "a_lt2"}],
          fighters=[F("a_lt2", "L", rank="lieutenant")])
    return t


@pytest.mark.parametrize(("dist", "ok"), [(24.0, True), (24.01, False)])
def test_v_cmd_2_and_5_captain_24_inches_over_officers_and_v_off_4_orders_lieutenants(dist, ok):
    """V-CMD-2, V-CMD-5, V-OFF-4."""
    t = captain_table()
    data = dict(officer="a_cpt", unit="L", distance=dist)
    if ok:
        t.add("order_given", **data)
    else:
        assert t.refused("order_given", **data).rule_id == "V-CMD-5"


def test_v_off_4_captain_orders_sergeants_only_without_lieutenants():
    t = at_turn()
    err = t.refused("order_given", officer="a_cpt", unit="A", distance=5)
    assert err.rule_id == "V-OFF-4" and "only when there are no lieutenants" in err.message_en  # the reason
    t2 = standard()
    t2.add("force_mustered", side="defender", fighters=[F("d_cpt", rank="captain")])
    t2.postures("defender")
    t2.add("fire", shooter="d_snp", weapon="sniper_rifle", target="fighters", distance=5,
           struck=[{"fighter": "a1", "die": D(3)}])
    # the defender's lieutenant d_lt is alive: the captain may not order squad D
    assert t2.refused("order_given", officer="d_cpt", unit="D", distance=5).rule_id == "V-OFF-4"


@pytest.mark.parametrize(("dist", "ok"), [(18.0, True), (18.01, False)])
def test_v_cmd_6_captain_commanding_rank_and_file_has_18_inches(dist, ok):
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "HQ", "commander": "a_cpt2"}],
          fighters=[F("a_cpt2", "HQ", rank="captain"), F("hq1", "HQ")])
    data = dict(officer="a_cpt2", unit="HQ", distance=dist)
    if ok:
        t.add("order_given", **data)
    else:
        assert t.refused("order_given", **data).rule_id == "V-CMD-6"


def test_v_cmd_6_a_captain_inside_the_unit_he_orders_commands_its_rank_and_file_directly():
    """V-CMD-5, V-CMD-6: a captain who is himself of the unit orders it directly, though a lieutenant leads
    it (``commanded_by_officers``): 18 in, not 24 in."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "L", "commander": "l_lt", "posture": "recon"}],
          fighters=[F("l_lt", "L", rank="lieutenant"), F("l_cpt", "L", rank="captain"), F("l1", "L")])
    assert t.refused("order_given", officer="l_cpt", unit="L", distance=20).rule_id == "V-CMD-6"
    t.add("order_given", officer="l_cpt", unit="L", distance=18)


def test_v_cmd_6_reading_a_unit_a_corporal_leads_is_rank_and_file_to_the_captain():
    """V-CMD-6 (the engine's reading, ``commanded_by_officers``): the captain commands officers only through a
    sergeant or lieutenant he orders (V-OFF-4); a fire team under its corporal is rank and file to him, so
    his 18 in decides its morale test."""
    t = at_turn()
    t.add("morale_test", unit="A2", die=D(12), officer_distances={"a_cpt": 20.0})
    assert t.state.units["A2"].morale == "dug_in"


def test_v_cmd_1_only_the_ordering_officers_distance_counts():
    """V-CMD-1: one way. The lieutenant's 18" applies although the sergeant's own distance is 12"."""
    t = at_turn()
    t.add("order_given", officer="a_lt", unit="A", distance=15)
    assert t.state.units["A"].under == "a_lt"


def test_v_cmd_1_the_receiving_commanders_longer_distance_does_not_carry_the_order():
    """V-CMD-1: one way: a sergeant's order to the unit a lieutenant leads reaches only the sergeant's 12 in,
    not the lieutenant's 18 in."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "L", "commander": "l_lt", "posture": "recon"}],
          fighters=[F("l_lt", "L", rank="lieutenant"), F("l_sgt", "L", rank="sergeant"), F("l1", "L")])
    assert t.refused("order_given", officer="l_sgt", unit="L", distance=15).rule_id == "V-CMD-4"
    t.add("order_given", officer="l_sgt", unit="L", distance=12)
    assert t.state.units["L"].under == "l_sgt"


def test_v_off_1_only_officers_give_orders():
    t = at_turn()
    assert t.refused("order_given", officer="a1", unit="A", distance=1).rule_id == "V-OFF-1"


@pytest.mark.parametrize(("talk", "ok"), [((6.0, 6.0), True), ((6.01, 1.0), False), ((1.0, 6.01), False)])
def test_v_radio_2_3_4_two_radio_operators_link_beyond_command_distance(talk, ok):
    t = at_turn()
    data = dict(officer="a_lt", unit="A", radio_operators=["a_rad2", "a_rad"], talk_distances=list(talk))
    if ok:
        t.add("order_given", **data)
        assert t.state.units["A"].under == "a_lt"
    else:
        assert t.refused("order_given", **data).rule_id == "V-RADIO-3"


def test_v_radio_4_one_radio_operator_is_not_a_link():
    t = at_turn()
    err = t.refused("order_given", officer="a_lt", unit="A", radio_operators=["a_rad"], talk_distances=[1.0])
    assert err.rule_id == "V-RADIO-4"


@pytest.mark.parametrize(("armour", "rule"), [(2, None), (1, "V-CMD-3")])
def test_v_motor_8_vehicle_commanders_of_class_2_keep_no_command_distance(armour, rule):
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "TU", "kind": "motorised", "commander": "tb_c"}],
          fighters=[F("ta_c", rank="lieutenant"), F("ta_p", cls="personnel"), F("tb_c", "TU", rank="sergeant"),
                    F("tb_p", "TU", "personnel")],
          vehicles=[{"id": "TA", "armour": armour, "gun": 2, "crew": ["ta_c", "ta_p"]},
                    {"id": "TB", "armour": armour, "gun": 2, "crew": ["tb_c", "tb_p"]}])
    data = dict(officer="ta_c", unit="TU", distance=40)
    if rule is None:
        t.add("order_given", **data)
    else:
        assert t.refused("order_given", **data).rule_id == rule


@pytest.mark.parametrize(("armour", "ok"), [(3, True), (2, False)])
def test_v_veh_9_class_3_tank_receives_orders_through_a_radio_operator(armour, ok):
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "TS", "kind": "motorised", "commander": "ts_c"}],
          fighters=[F("ts_c", "TS", rank="sergeant"), F("ts_p", "TS", "personnel")],
          vehicles=[{"id": "TSV", "armour": armour, "gun": 2, "crew": ["ts_c", "ts_p"]}])
    data = dict(officer="a_lt", unit="TS", radio_operators=["a_rad2", "a_rad"], talk_distances=[3.0, 30.0])
    if ok:
        t.add("order_given", **data)
    else:
        assert t.refused("order_given", **data).rule_id == "V-RADIO-3"


def test_v_veh_9_the_tank_radio_receives_orders_only_through_a_radio_operator():
    """V-VEH-9: the basic tank radio's only function is to receive orders through a radio operator: an
    order given without one still needs the officer's own command distance."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "TS", "kind": "motorised", "commander": "ts_c"}],
          fighters=[F("ts_c", "TS", rank="sergeant"), F("ts_p", "TS", "personnel")],
          vehicles=[{"id": "TSV", "armour": 3, "gun": 2, "crew": ["ts_c", "ts_p"]}])
    assert t.refused("order_given", officer="a_lt", unit="TS", distance=30).rule_id == "V-CMD-3"


# --- morale ------------------------------------------------------------------
def morale(t, die, officers=None, **kw):
    t.add("morale_test", unit="A", die=D(die), officer_distances=officers or {"a_sgt": 12.5, "a_lt": 18.5}, **kw)
    return t.state.units["A"]


@pytest.mark.parametrize(("officers", "rule"), [({"a_sgt": 12.0}, "V-MORALE-1"), ({"a_lt": 18.0}, "V-MORALE-1"),
                                                ({"a_cpt": 24.0}, "V-MORALE-1")])
def test_v_morale_1_and_v_cmd_7_no_test_while_an_officer_has_the_unit_in_command(officers, rule):
    t = at_turn()
    assert t.refused("morale_test", unit="A", die=D(3), officer_distances=officers).rule_id == rule


def test_v_cmd_7_out_of_every_officers_command_distance_the_unit_tests():
    t = at_turn()
    u = morale(t, 12, {"a_sgt": 12.01, "a_lt": 18.01, "a_cpt": 24.01})
    assert u.morale == "dug_in" and t.state.morale_tests == 1


def test_v_morale_1_radio_link_counts_as_in_command_v_radio_4():
    t = at_turn()
    assert t.refused("morale_test", unit="A", die=D(3), officer_distances={}, radio_link=True).rule_id == "V-RADIO-4"


@pytest.mark.parametrize(("die", "posture", "result"), [(6, "march", "retreat"), (10, "march", "retreat"),
                                                        (11, "dug_in", "dug_in"), (15, "dug_in", "dug_in"),
                                                        (16, "recon", "carry_on"), (20, "recon", "carry_on")])
def test_v_test_4_5_6_morale_bands(die, posture, result):
    """V-TEST-4 (6-10 retreat in march), V-TEST-5 (11-15 dug in), V-TEST-6 (16-20 carry on)."""
    t = at_turn()
    u = morale(t, die, new_commander="a2" if die >= 16 else None)
    assert (u.posture, u.morale) == (posture, result)


def test_v_test_6_a_fighter_is_appointed_corporal():
    t = at_turn()
    err = t.refused("morale_test", unit="A", die=D(16), officer_distances={})
    assert err.rule_id == "V-TEST-6"
    u = morale(t, 16, new_commander="a2")
    assert u.commander == "a2" and t.f("a2").rank == "corporal"


@pytest.mark.parametrize(("die", "enemy", "captured"), [(5, 12.0, True), (5, 12.01, False), (1, 3.0, True),
                                                        (6, 3.0, False)])
def test_v_test_3_surrender_1_5_only_with_the_enemy_within_12(die, enemy, captured):
    t = at_turn()
    u = morale(t, die, enemy_distances={"a1": enemy})
    assert t.f("a1").captured is captured
    assert not t.f("a2").captured  # V-TEST-3 reading: per fighter; the rest retreat
    assert u.posture == "march"


def test_v_test_7_morale_is_rolled_once_and_v_morale_2_holds_until_another_officer():
    t = at_turn()
    morale(t, 12)
    assert t.refused("morale_test", unit="A", die=D(3), officer_distances={}).rule_id == "V-TEST-7"
    t.next_turn()
    t.end_turn()
    assert t.refused("postures_declared", side="attacker", units={"A": "assault"}).rule_id == "V-MORALE-2"
    t.postures(A="dug_in")
    t.add("order_given", officer="a_lt", unit="A", distance=10)
    assert t.state.units["A"].morale == ""  # another officer: the result lapses
    morale(t, 18, new_commander="a3")
    assert t.state.units["A"].morale == "carry_on"


def test_v_morale_3_officer_bonus_applies_to_his_whole_unit():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}, {"id": "C", "commander": "c_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant", morale_bonus=5), F("b1", "B"),  # e.g. a campaign award
                    F("c_sgt", "C", rank="sergeant"), F("c1", "C", morale_bonus=5)])
    t.add("morale_test", unit="B", die=D(10), officer_distances={})
    assert t.state.units["B"].morale == "dug_in"  # 10 + 5 = 15
    t.add("morale_test", unit="C", die=D(10), officer_distances={})
    assert t.state.units["C"].morale == "retreat"  # a rank-and-file bonus does not count


def test_v_snip_2_snipers_move_beyond_command_distance_without_morale_tests():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "SN"}], fighters=[F("s1", "SN", "sniper")])
    err = t.refused("morale_test", unit="SN", die=D(3), officer_distances={})
    assert err.rule_id == "V-SNIP-2"
    morale(t, 3, enemy_distances={"a_snp": 1.0})
    assert not t.f("a_snp").captured  # the squad's sniper is not bound by its test


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


# --- smoke ------------------------------------------------------------------
def smoke(t, shooter, sid, officer="a_sgt", dist=10.0):
    t.add("smoke_fired", shooter=shooter, officer=officer, officer_distance=dist, smoke=sid)


def test_v_smoke_2_only_riflemen_fire_smoke_and_v_atgl_2_at_launchers_never():
    t = at_turn()
    err = t.refused("smoke_fired", shooter="a_lmg", officer="a_sgt", officer_distance=5, smoke="s")
    assert err.rule_id == "V-SMOKE-2"
    err = t.refused("smoke_fired", shooter="a_at", officer="a_sgt", officer_distance=5, smoke="s")
    assert err.rule_id == "V-ATGL-2"
    smoke(t, "a1", "s1")
    assert "s1" in t.state.smoke


def test_v_smoke_3_a_third_smoke_round_is_refused():
    t = at_turn()
    smoke(t, "a1", "s1")
    smoke(t, "a2", "s2")
    err = t.refused("smoke_fired", shooter="a3", officer="a_sgt", officer_distance=5, smoke="s3")
    assert err.rule_id == "V-SMOKE-3"
    assert t.state.units["A"].smoke_used == 2
    err = t.refused("smoke_fired", shooter="a5", officer="a_cpl", officer_distance=5, smoke="s3")
    assert err.rule_id == "V-SMOKE-3"  # the squad's fire team shares its two rounds
    t.add("force_mustered", side="attacker", units=[{"id": "TG", "kind": "tactical_group", "commander": "g_cpl"}],
          fighters=[F("g_cpl", "TG", rank="corporal"), F("g1", "TG")])
    smoke(t, "g1", "s4", officer="g_cpl")  # a separate tactical group has its own


def test_v_smoke_1_guns_of_class_3_howitzers_and_mortars_have_smoke_not_at_guns():
    t = standard()
    t.postures("defender")
    smoke(t, "DM", "m1", officer="d_sgt")
    err = t.refused("smoke_fired", shooter="DG", officer="d_sgt", officer_distance=5, smoke="g1")
    assert err.rule_id == "V-SMOKE-1"
    tank(t, "defender", "C2", armour=2, gun=2)
    assert t.refused("smoke_fired", shooter="C2", officer="d_sgt", officer_distance=5, smoke="g2").rule_id == "V-SMOKE-1"


@pytest.mark.parametrize(("dist", "ok"), [(12.0, True), (12.01, False)])
def test_v_smoke_8_an_officer_designates_the_point_within_observation(dist, ok):
    t = at_turn()
    if ok:
        smoke(t, "a1", "s1", dist=dist)
    else:
        err = t.refused("smoke_fired", shooter="a1", officer="a_sgt", officer_distance=dist, smoke="s1")
        assert err.rule_id == "V-SMOKE-8"
    err = t.refused("smoke_fired", shooter="a2", officer="a3", officer_distance=1, smoke="s9")
    assert err.rule_id == "V-SMOKE-8"


def test_v_smoke_6_7_no_test_no_wounds_and_v_smoke_5_removed_at_the_owners_next_turn():
    """V-SMOKE-6, V-SMOKE-7: no die, no harm; V-SMOKE-5: removed at the start of the owner's next turn."""
    t = at_turn()
    before = {k: (f.wounded, f.dead) for k, f in t.state.fighters.items()}
    smoke(t, "a1", "s1")
    assert {k: (f.wounded, f.dead) for k, f in t.state.fighters.items()} == before
    t.end_turn()
    assert "s1" in t.state.smoke  # still there in the defender's turn
    t.postures("defender")
    t.end_turn()
    assert "s1" not in t.state.smoke


def test_v_smoke_7_a_gun_s_smoke_round_places_its_screen_with_no_test_too():
    """V-SMOKE-7: no test, the screen is placed: for a howitzer's round as for a rifleman's."""
    t = at_turn()
    smoke(t, "AH", "s2")
    assert t.state.smoke["s2"].by == "AH" and t.state.smoke["s2"].side == "attacker"


# --- fire correction ---------------------------------------------------------------------
def correction_turn():
    return at_turn()


@pytest.mark.parametrize(("dist", "ok"), [(6.0, True), (6.01, False)])
def test_v_corr_5_direct_correction_within_6_and_v_corr_1_corrected_fire_without_contact(dist, ok):
    t = correction_turn()
    data = dict(corrector="a_sgt", shooter="AH", target="H", distance=dist)
    if not ok:
        assert t.refused("fire_corrected", **data).rule_id == "V-CORR-5"
        return
    t.add("fire_corrected", **data)
    t.fire("AH", "howitzer", target="house", target_id="H", distance=40, visual_contact=False, corrected=True, hit=D(11))
    assert t.state.buildings["H"].damage == 1


def test_v_corr_1_no_indirect_fire_without_a_correction():
    t = correction_turn()
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="house", target_id="H", distance=40,
                    visual_contact=False, corrected=True, hit=D(11))
    assert err.rule_id == "V-CORR-1"
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="house", target_id="H", distance=40,
                    visual_contact=False, hit=D(11))
    assert err.rule_id == "V-CORR-1"


def test_v_corr_2_only_howitzers_mortars_aviation_and_v_corr_3_who_corrects_v_snip_4():
    t = correction_turn()
    assert t.refused("fire_corrected", corrector="a_sgt", shooter="AT3", target="H", distance=1).rule_id == "V-GUN-1"
    assert t.refused("fire_corrected", corrector="a1", shooter="AH", target="H", distance=1).rule_id == "V-CORR-3"
    assert t.refused("fire_corrected", corrector="a_snp", shooter="AH", target="H", distance=1).rule_id == "V-SNIP-4"
    t.add("fire_corrected", corrector="a_sc", shooter="AH", target="H", distance=6)  # V-SCOUT-1


def test_v_corr_2_reading_rocket_mortar_allowed_and_a_machine_gun_not():
    t = correction_turn()
    tank(t, "attacker", "RM", armour=1, gun=3, weapon="rocket_mortar", kind="artillery")
    tank(t, "attacker", "MG", armour=1, gun=1, weapon="vehicle_mg", kind="car")
    t.add("fire_corrected", corrector="a_sgt", shooter="RM", target="H", distance=1)
    assert t.refused("fire_corrected", corrector="a_cpl", shooter="MG", target="H", distance=1).rule_id == "V-CORR-2"


def test_v_corr_4_radio_chain_and_v_radio_1_2_radio_operators_call_strikes():
    t = correction_turn()
    t.add("fire_corrected", corrector="a_sc", shooter="AH", target="H", via="radio", distance=6,
          radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo", battery_distance=6)
    t.fire("AH", "howitzer", target="house", target_id="H", distance=60, visual_contact=False, corrected=True, hit=D(15))
    assert t.state.buildings["H"].damage == 1


@pytest.mark.parametrize("kw", [dict(radio_operators=["a_rad"], battery_officer="a_bo", battery_distance=1),
                                dict(radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo", battery_distance=6.01),
                                dict(radio_operators=["a_rad", "a1"], battery_officer="a_bo", battery_distance=1),
                                dict(radio_operators=["a_rad", "a_rad2"], battery_officer="a1", battery_distance=1)])
def test_v_corr_4_broken_radio_chains_are_refused(kw):
    t = correction_turn()
    assert t.refused("fire_corrected", corrector="a_sgt", shooter="AH", target="H", via="radio", distance=2,
                     **kw).rule_id == "V-CORR-4"


def test_v_corr_6_one_correction_per_turn_per_corrector_one_target():
    t = correction_turn()
    t.add("fire_corrected", corrector="a_sgt", shooter="AH", target="H", distance=1)
    assert t.refused("fire_corrected", corrector="a_sgt", shooter="AH", target="B", distance=1).rule_id == "V-CORR-6"
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="bunker", target_id="B", distance=40,
                    corrected=True, visual_contact=False, hit=D(11))
    assert err.rule_id == "V-CORR-1"  # corrected onto H, not B


def test_v_bunk_8_pillbox_spotter_needs_a_scout_inside():
    t = standard()
    tank(t, "defender", "DH", armour=1, gun=4, weapon="howitzer", kind="artillery")
    t.postures("defender")
    assert t.refused("fire_corrected", corrector="B", shooter="DH", target="x", distance=1).rule_id == "V-BUNK-8"
    t.add("force_mustered", side="defender", fighters=[F("d_sc", "D", "scout", bunker="B")])
    t.add("fire_corrected", corrector="B", shooter="DH", target="x", distance=1)


def test_v_corr_3_spotter_vehicles_correct_other_vehicles_do_not_v_corr_6_once_per_turn():
    t = correction_turn()
    tank(t, "attacker", "SPOT", armour=2, gun=0, specialisations=["spotter"])
    assert t.refused("fire_corrected", corrector="AT3", shooter="AH", target="H", distance=1).rule_id == "V-CORR-3"
    t.add("fire_corrected", corrector="SPOT", shooter="AH", target="H", distance=3)
    assert t.refused("fire_corrected", corrector="SPOT", shooter="AH", target="B", distance=3).rule_id == "V-CORR-6"
    t.next_turn()
    t.next_turn(A="recon")
    t.add("fire_corrected", corrector="SPOT", shooter="AH", target="B", distance=3)  # a new turn


# --- who commands a unit: the living, free commander with his unit (V-CMD-5, V-CMD-6) -------
def sergeant_lost(how):
    """The defender's turn: sergeant a_sgt of squad A is killed or taken prisoner; then the attacker's turn."""
    t = standard()
    t.postures("defender")
    if how == "dead":
        t.fire("DG", "at_gun", distance=5, hit=D(15), struck=[{"fighter": "a_sgt"}])
        assert t.f("a_sgt").dead
    else:
        t.fire("d_snp", "sniper_rifle", distance=5, struck=[{"fighter": "a_sgt", "die": D(20)}])
        assert t.f("a_sgt").wounded
        t.add("prisoner_taken", captor="d1", prisoner="a_sgt", distance=1)
        assert t.f("a_sgt").captured
    t.end_turn()
    t.postures("attacker")
    return t


@pytest.mark.parametrize("how", ["dead", "captured"])
def test_v_cmd_6_a_unit_whose_sergeant_is_lost_is_rank_and_file_the_captain_has_18_in_for_its_morale(how):
    """V-CMD-5, V-CMD-6: a dead or captured sergeant no longer makes the squad "commanded by officers"."""
    t = sergeant_lost(how)
    err = t.refused("morale_test", unit="A", die=D(12), officer_distances={"a_cpt": 18.0})
    assert err.rule_id == "V-MORALE-1"  # within the lieutenant's 18"
    t.add("morale_test", unit="A", die=D(12), officer_distances={"a_cpt": 20.0})  # 24" no longer applies
    assert t.state.units["A"].morale == "dug_in"


def test_v_cmd_5_a_living_sergeant_keeps_the_captains_24_in_for_the_morale_check():
    t = at_turn()
    err = t.refused("morale_test", unit="A", die=D(12), officer_distances={"a_cpt": 20.0})
    assert err.rule_id == "V-MORALE-1"


@pytest.mark.parametrize("how", ["dead", "captured"])
def test_v_off_3_a_lieutenant_does_not_order_a_squad_whose_sergeant_is_lost(how):
    """V-OFF-3: the lieutenant orders sergeants; a captured one commands nothing, like a dead one."""
    t = sergeant_lost(how)
    assert t.refused("order_given", officer="a_lt", unit="A", distance=5).rule_id == "V-OFF-3"


def test_unit_commander_is_the_one_answer_living_free_and_with_his_unit():
    """V-CMD-5, V-CMD-6, V-SQUAD-4: one function decides who commands a unit."""
    from battles.engine.rules.common import unit_commander
    from battles.engine.rules.movement import team_led

    t = at_turn()
    assert unit_commander(t.state, "A").id == "a_sgt" and unit_commander(t.state, "A2").id == "a_cpl"
    assert unit_commander(t.state, "nope") is None
    t.state.fighters["a_cpl"].captured = True
    assert unit_commander(t.state, "A2") is None and not team_led(t.state, "A2")
    t.state.fighters["a_sgt"].dead = True
    assert unit_commander(t.state, "A") is None


@pytest.mark.parametrize("fate", ["dead", "captured"])
def test_v_morale_1_a_unit_with_no_fighters_left_takes_no_test(fate):
    """Not a sniper exemption (V-SNIP-2): a unit whose every fighter is dead or a prisoner has
    nobody to take the test; a sniper-only unit stays V-SNIP-2."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "E"}], fighters=[F("e1", "E"), F("e2", "E")])
    for fid in ("e1", "e2"):
        setattr(t.f(fid), fate, True)
    err = t.refused("morale_test", unit="E", die=D(3), officer_distances={})
    assert err.rule_id == "V-MORALE-1" and "no fighters left" in err.message_en


# The morale test (V-MORALE-1..3, V-CMD-7, V-RADIO-4, V-SNIP-2, V-TEST-3..7):
# who is tested, which officers count, the bands at each edge, the bonus, surrender
# per fighter or per unit, and the new corporal.


FAR = {"a_sgt": 12.5, "a_lt": 18.5}


def run_test(t, unit="A", die=12, officers=None, **kw):
    return t.add("morale_test", unit=unit, die=D(die), officer_distances=FAR if officers is None else officers, **kw)


def refused(t, unit="A", die=12, officers=None, **kw):
    return t.refused("morale_test", unit=unit, die=D(die), officer_distances=FAR if officers is None else officers,
                     **kw).rule_id


def test_s_unknown_no_such_unit():
    assert refused(at_turn(), unit="nope") == "S-UNKNOWN"


def test_v_test_7_a_unit_without_a_commander_tests_once():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N"), F("n2", "N")])
    run_test(t, unit="N", die=12, officers={})
    assert t.state.units["N"].morale == "dug_in"
    assert refused(t, unit="N", officers={}) == "V-TEST-7"


# --- which officers' distances count (V-MORALE-1, V-CMD-7) ----------------------------------------
@pytest.mark.parametrize("who", ["d_lt", "a1", "dead", "captured"])
def test_v_morale_1_only_a_living_free_officer_of_the_units_side_spares_the_test(who):
    """An enemy officer, a rank-and-file fighter, a dead or a captured officer at 0" do not count."""
    t = at_turn()
    oid = {"dead": "a_lt", "captured": "a_lt"}.get(who, who)
    if who in ("dead", "captured"):
        setattr(t.f(oid), who, True)
    run_test(t, die=12, officers={oid: 0.0})
    assert t.state.units["A"].morale == "dug_in"


def test_v_morale_1_an_officer_who_does_not_count_does_not_hide_one_who_does():
    t = at_turn()
    assert refused(t, officers={"d_lt": 0.0, "a1": 0.0, "a_sgt": 5.0}) == "V-MORALE-1"


def test_s_unknown_an_unknown_officer_is_refused():
    assert refused(at_turn(), officers={"ghost": 1.0}) == "S-UNKNOWN"


# --- V-TEST-6: the new commander ---------------------------------------------------------------------
@pytest.mark.parametrize("who", ["d1", "a5", "a_snp", "dead"])
def test_v_test_6_the_new_commander_is_a_tested_fighter_of_the_unit(who):
    """Not an enemy, not a fighter of another unit (a5 of the fire team), not the sniper
    (V-SNIP-2: not tested), not a dead member."""
    t = at_turn()
    fid = "a2" if who == "dead" else who
    if who == "dead":
        t.f(fid).dead = True
    assert refused(t, die=18, new_commander=fid) == "V-TEST-6"


@pytest.mark.parametrize(("die", "needed"), [(15, False), (16, True)])
def test_v_test_6_from_16_a_new_commander_must_be_named(die, needed):
    t = at_turn()
    if needed:
        assert refused(t, die=die) == "V-TEST-6"
    else:
        run_test(t, die=die)
        assert t.state.units["A"].morale == "dug_in"


@pytest.mark.parametrize(("die", "needed"), [(10, False), (11, True)])
def test_v_morale_3_the_bonus_counts_toward_16_for_the_new_commander(die, needed):
    """The sergeant's own bonus of 5 (G-12) lifts 11 to 16 (V-TEST-6), 10 only to 15."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant", morale_bonus=5), F("b1", "B")])
    if needed:
        assert refused(t, unit="B", die=die, officers={}) == "V-TEST-6"
        run_test(t, unit="B", die=die, officers={}, new_commander="b1")
        assert t.state.units["B"].morale == "carry_on"
    else:
        run_test(t, unit="B", die=die, officers={})
        assert t.state.units["B"].morale == "dug_in"


def test_v_morale_3_a_rank_bonus_from_the_rules_data_and_none_for_ranks_it_omits():
    t = at_turn({"morale_bonus": {"sergeant": 3}})
    assert refused(t, die=13) == "V-TEST-6"  # 13 + 3
    run_test(t, die=12)
    assert t.state.units["A"].morale == "dug_in"  # 12 + 3 = 15
    run_test(t, unit="A2", die=15, officers={})  # the corporal's rank is not in the table: + 0
    assert t.state.units["A2"].morale == "dug_in"


def test_v_morale_3_the_best_officer_bonus_counts_once():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant", morale_bonus=2), F("b_cpl", "B", rank="corporal", morale_bonus=4),
                    F("b1", "B", morale_bonus=9)])
    run_test(t, unit="B", die=11, officers={})  # 11 + 4 = 15, not 11 + 6 or + 15
    assert t.state.units["B"].morale == "dug_in"


def test_v_morale_3_any_officer_directly_of_the_unit_lends_his_bonus_not_only_its_commander():
    """V-MORALE-3: the bonus of an officer applies to the whole unit he is directly a member of, whether or
    not he commands it: the corporal's 5 lifts 10 to 15 though his sergeant has none."""
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant"), F("b_cpl", "B", rank="corporal", morale_bonus=5), F("b1", "B")])
    run_test(t, unit="B", die=10, officers={})
    assert t.state.units["B"].morale == "dug_in"


def test_v_morale_3_a_unit_with_no_officer_has_no_bonus():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N")])
    run_test(t, unit="N", die=15, officers={})
    assert t.state.units["N"].morale == "dug_in"


# --- the bands (V-TEST-3..6) ---------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "morale", "posture"), [(5, "retreat", "march"), (6, "retreat", "march"),
                                                        (10, "retreat", "march"), (11, "dug_in", "dug_in"),
                                                        (15, "dug_in", "dug_in"), (16, "carry_on", "recon")])
def test_v_test_3_to_6_band_edges(die, morale, posture):
    t = at_turn()
    run_test(t, die=die, new_commander="a2" if die > 15 else None)
    u = t.state.units["A"]
    assert (u.morale, u.posture, u.morale_officer) == (morale, posture, "a_sgt")
    assert not any(f.captured for f in t.state.fighters.values())  # no enemy distance given: nobody surrenders


def test_v_test_7_every_test_is_counted():
    t = at_turn()
    run_test(t, unit="A", die=12)
    run_test(t, unit="A2", die=12, officers={})
    assert t.state.morale_tests == 2


# --- V-TEST-3: surrender ------------------------------------------------------------------------------------
def test_v_test_3_per_fighter_the_defenders_close_men_are_taken_by_the_attacker():
    t = standard()
    t.postures("defender")
    t.add("morale_test", unit="D", die=D(5), officer_distances={}, enemy_distances={"d1": 12.0, "d2": 12.01})
    d1, d2 = t.f("d1"), t.f("d2")
    assert (d1.captured, d1.captor_side, d1.captor_unit) == (True, "attacker", "")
    assert not d2.captured
    assert t.state.units["D"].morale == "retreat" and t.state.units["D"].posture == "march"
    assert d1.credit.captured == 1 and t.state.characters["char-fritz"].captured == 1


def test_v_test_3_per_fighter_the_attackers_close_men_are_taken_by_the_defender():
    t = at_turn()
    run_test(t, die=1, enemy_distances={"a1": 0.0})
    assert (t.f("a1").captured, t.f("a1").captor_side, t.f("a1").captor_unit) == (True, "defender", "")


def test_v_test_3_when_every_tested_man_is_close_the_unit_has_surrendered():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant"), F("b1", "B"), F("b_snp", "B", "sniper")])
    run_test(t, unit="B", die=3, officers={}, enemy_distances={"b_sgt": 1.0, "b1": 2.0})
    assert t.state.units["B"].morale == "surrendered" and t.state.units["B"].posture == "march"
    assert t.f("b_sgt").captured and t.f("b1").captured and not t.f("b_snp").captured


@pytest.mark.parametrize(("enemy", "captured"), [({"a1": 12.0}, True), ({"a1": 12.01}, False), ({}, False)])
def test_v_test_3_whole_unit_reading_one_close_man_and_all_surrender(enemy, captured):
    t = at_turn({"surrender_per_fighter": False})
    run_test(t, die=5, enemy_distances=enemy)
    members = [f for f in t.state.fighters.values() if f.unit == "A" and f.cls != "sniper"]
    assert all(f.captured is captured for f in members)
    assert not t.f("a_snp").captured
    assert t.state.units["A"].morale == ("surrendered" if captured else "retreat")


# --- V-TEST-6: the new commander ---------------------------------------------------------------------------
def test_v_test_6_an_officer_named_keeps_his_rank_and_takes_the_command():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "B", "commander": "b_sgt"}],
          fighters=[F("b_sgt", "B", rank="sergeant"), F("b_cpl", "B", rank="corporal"), F("b1", "B")])
    run_test(t, unit="B", die=17, officers={}, new_commander="b_cpl")
    assert t.f("b_cpl").rank == "corporal" and t.state.units["B"].commander == "b_cpl"
    run_test(t, unit="A", die=20, new_commander="a_sgt")
    assert t.f("a_sgt").rank == "sergeant" and t.state.units["A"].commander == "a_sgt"


# Who orders whom and over what distance (V-OFF-1..4, V-CMD-1..6, V-RADIO-2..4,
# V-MOTOR-8, V-VEH-9): every branch of the order check, each refusal with the rule
# it cites, both sides of each threshold.


def order(t, **data):
    t.add("order_given", **data)
    return t.state.units[data["unit"]]


# --- the officer himself -------------------------------------------------------------------
def test_v_med_3_a_wounded_officer_gives_no_order():
    t = at_turn()
    t.f("a_lt").wounded = True
    assert t.refused("order_given", officer="a_lt", unit="A", distance=5).rule_id == "V-MED-3"


def test_v_med_3_with_wounded_may_act_a_wounded_officer_orders():
    """The rules data's reading switch (V-MED-5/6) is what the officer's check consults."""
    t = at_turn({"wounded_may_act": True})
    t.f("a_lt").wounded = True
    assert order(t, officer="a_lt", unit="A", distance=5).under == "a_lt"


def test_v_turn_12_an_officer_orders_only_in_his_sides_turn():
    t = at_turn()
    assert t.refused("order_given", officer="d_sgt", unit="D", distance=5).rule_id == "V-TURN-12"


def test_v_off_1_a_rank_and_file_fighter_orders_no_one():
    t = at_turn()
    assert t.refused("order_given", officer="a_med", unit="A", distance=1).rule_id == "V-OFF-1"


# --- the unit ----------------------------------------------------------------------------------
@pytest.mark.parametrize("unit", ["nope", "D"])
def test_s_unknown_an_order_goes_only_to_a_unit_of_ones_own_side(unit):
    t = at_turn()
    assert t.refused("order_given", officer="a_lt", unit=unit, distance=1).rule_id == "S-UNKNOWN"


# --- V-OFF-2: sergeants and corporals ------------------------------------------------------------
def test_v_off_2_a_corporal_does_not_order_the_squad_above_his_fire_team():
    t = at_turn()
    assert t.refused("order_given", officer="a_cpl", unit="A", distance=1).rule_id == "V-OFF-2"
    assert order(t, officer="a_cpl", unit="A2", distance=1).under == "a_cpl"


def test_v_off_2_a_sergeant_outside_any_squad_leads_no_squad():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("x_sgt", rank="sergeant")])
    assert t.refused("order_given", officer="x_sgt", unit="A", distance=1).rule_id == "V-OFF-2"


def test_v_off_2_a_sergeant_does_not_order_a_fire_team_of_another_squad():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[
        {"id": "B", "commander": "b_sgt"}, {"id": "B2", "kind": "fire_team", "parent": "B", "commander": "b_cpl"}],
        fighters=[F("b_sgt", "B", rank="sergeant"), F("b_cpl", "B2", rank="corporal")])
    assert t.refused("order_given", officer="a_sgt", unit="B2", distance=1).rule_id == "V-OFF-2"
    assert order(t, officer="b_sgt", unit="B2", distance=12.0).under == "b_sgt"
    assert t.refused("order_given", officer="b_sgt", unit="B2", distance=12.01).rule_id == "V-CMD-4"


# --- V-OFF-3: lieutenants ----------------------------------------------------------------------------
def test_v_off_3_a_lieutenant_does_not_order_a_unit_without_a_sergeant_or_led_by_a_lieutenant():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}, {"id": "L", "commander": "l_lt"}],
          fighters=[F("n1", "N"), F("l_lt", "L", rank="lieutenant"), F("l1", "L")])
    assert t.refused("order_given", officer="a_lt", unit="N", distance=1).rule_id == "V-OFF-3"
    assert t.refused("order_given", officer="a_lt", unit="L", distance=1).rule_id == "V-OFF-3"
    assert order(t, officer="a_lt", unit="A", distance=18.0).under == "a_lt"


# --- V-OFF-4: captains ----------------------------------------------------------------------------------
def lone_captain():
    """An attacker with a captain, a squad (sergeant) and a fire team (corporal), and
    no lieutenant of its own; the defender has a living lieutenant."""
    t = standard(start=False)
    t.add("force_mustered", side="attacker", units=[
        {"id": "S", "commander": "s_sgt", "posture": "recon"},
        {"id": "S2", "kind": "fire_team", "parent": "S", "commander": "s_cpl", "posture": "recon"},
        {"id": "N", "posture": "recon"}],
        fighters=[F("s_sgt", "S", rank="sergeant"), F("s1", "S"), F("s_cpl", "S2", rank="corporal"), F("s2", "S2"),
                  F("n1", "N"), F("k_cpt", rank="captain")])
    t.add("battle_started", attacker="A", defender="D")
    t = attacker_turn(t)
    for fid in ("a_lt", "a_bo"):  # the standard force's lieutenants: out of the picture
        t.f(fid).dead = True
    return t


def test_v_off_4_a_captain_orders_a_sergeant_when_his_side_has_no_living_free_lieutenant():
    """The enemy's living lieutenant (d_lt) does not count; dead ones do not either."""
    t = lone_captain()
    assert order(t, officer="k_cpt", unit="S", distance=24.0).under == "k_cpt"  # over an officer: 24" (V-CMD-5)
    assert t.refused("order_given", officer="k_cpt", unit="S", distance=24.01).rule_id == "V-CMD-5"


def test_v_off_4_a_captured_lieutenant_does_not_stop_the_captain_ordering_sergeants():
    t = lone_captain()
    t.f("a_lt").dead = False
    t.f("a_lt").captured = True
    assert order(t, officer="k_cpt", unit="S", distance=3).under == "k_cpt"


def test_v_off_4_a_living_free_lieutenant_of_his_side_stops_the_captain_ordering_sergeants():
    t = lone_captain()
    t.f("a_lt").dead = False
    assert t.refused("order_given", officer="k_cpt", unit="S", distance=3).rule_id == "V-OFF-4"


@pytest.mark.parametrize("unit", ["S2", "N"])
def test_v_off_4_even_without_lieutenants_a_captain_does_not_order_corporals_or_leaderless_units(unit):
    t = lone_captain()
    assert t.refused("order_given", officer="k_cpt", unit=unit, distance=3).rule_id == "V-OFF-4"


# --- V-RADIO-2..4: the radio link -------------------------------------------------------------------------
@pytest.mark.parametrize(("ops", "talk"), [(["a_rad2", "a_rad"], [1.0]), (["a_rad2"], [1.0, 1.0]),
                                           (["a_rad2"], [1.0])])
def test_v_radio_4_the_link_is_two_radio_operators_and_two_talking_distances(ops, talk):
    t = at_turn()
    err = t.refused("order_given", officer="a_lt", unit="A", radio_operators=ops, talk_distances=talk)
    assert err.rule_id == "V-RADIO-4"


def test_v_radio_4_only_ones_own_radio_operators_link():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("d_rad", "D", "radio_operator")])
    for ops in (["a_rad2", "a1"], ["a1", "a_rad"], ["a_rad2", "d_rad"]):
        err = t.refused("order_given", officer="a_lt", unit="A", radio_operators=ops, talk_distances=[1.0, 1.0])
        assert err.rule_id == "V-RADIO-4", ops
    err = t.refused("order_given", officer="a_lt", unit="A", radio_operators=["a_rad2", "ghost"],
                    talk_distances=[1.0, 1.0])
    assert err.rule_id == "S-UNKNOWN"


def test_v_med_3_a_wounded_radio_operator_passes_no_order():
    t = at_turn()
    t.f("a_rad").wounded = True
    err = t.refused("order_given", officer="a_lt", unit="A", radio_operators=["a_rad2", "a_rad"],
                    talk_distances=[1.0, 1.0])
    assert err.rule_id == "V-MED-3"


def test_v_radio_3_the_link_needs_no_command_distance_and_its_order_is_recorded():
    t = at_turn()
    u = order(t, officer="a_lt", unit="A", radio_operators=["a_rad2", "a_rad"], talk_distances=[6.0, 6.0])
    assert u.under == "a_lt"


def test_v_radio_3_a_captain_links_by_radio_to_his_own_unit_without_a_named_commander():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "HQ"}],
          fighters=[F("h_cpt", "HQ", rank="captain"), F("h_rad", "HQ", "radio_operator")])
    data = dict(officer="h_cpt", unit="HQ", radio_operators=["h_rad", "a_rad"])
    assert order(t, talk_distances=[6.0, 6.0], **data).under == "h_cpt"
    assert t.refused("order_given", talk_distances=[6.0, 6.01], **data).rule_id == "V-RADIO-3"


def test_v_veh_9_a_tank_radio_takes_the_last_leg_whatever_its_length():
    """V-VEH-9: with the tank's radio the second operator's talking distance does not
    count, even under a talking distance shorter than an inch (rules data)."""
    t = at_turn({"talk_distance": 0.5})
    t.add("force_mustered", side="attacker", units=[{"id": "TS", "kind": "motorised", "commander": "ts_c"}],
          fighters=[F("ts_c", "TS", rank="sergeant"), F("ts_p", "TS", "personnel")],
          vehicles=[{"id": "TSV", "armour": 3, "gun": 2, "crew": ["ts_c", "ts_p"]}])
    data = dict(officer="a_lt", unit="TS", radio_operators=["a_rad2", "a_rad"])
    assert order(t, talk_distances=[0.5, 0.9], **data).under == "a_lt"
    assert t.refused("order_given", talk_distances=[0.51, 0.0], **data).rule_id == "V-RADIO-3"


# --- V-MOTOR-8: both ends in vehicles of class 2+ ----------------------------------------------------------
def vehicles_table(officer_armour, unit_armour):
    t = at_turn()
    vehicles, fighters = [], [F("tb_c", "TU", rank="sergeant"), F("tb_p", "TU", "personnel"),
                              F("ta_c", rank="lieutenant"), F("ta_p", cls="personnel")]
    if officer_armour is not None:
        vehicles.append({"id": "TA", "armour": officer_armour, "gun": 2, "crew": ["ta_c", "ta_p"]})
    if unit_armour is not None:
        vehicles.append({"id": "TB", "armour": unit_armour, "gun": 2, "crew": ["tb_c", "tb_p"]})
    t.add("force_mustered", side="attacker", units=[{"id": "TU", "kind": "motorised", "commander": "tb_c"}],
          fighters=fighters, vehicles=vehicles)
    return t


@pytest.mark.parametrize(("officer_armour", "unit_armour"), [(2, None), (None, 2), (2, 1), (1, 2)])
def test_v_motor_8_without_both_commanders_in_class_2_vehicles_the_command_distance_holds(officer_armour,
                                                                                         unit_armour):
    t = vehicles_table(officer_armour, unit_armour)
    assert order(t, officer="ta_c", unit="TU", distance=18.0).under == "ta_c"
    assert t.refused("order_given", officer="ta_c", unit="TU", distance=18.01).rule_id == "V-CMD-3"


def test_v_motor_8_both_commanders_in_class_2_vehicles_ignore_the_distance():
    t = vehicles_table(2, 2)
    assert order(t, officer="ta_c", unit="TU", distance=100.0).under == "ta_c"


# --- the order's effect -------------------------------------------------------------------------------------
def test_v_morale_2_an_order_from_the_officer_of_the_test_keeps_its_result():
    t = at_turn()
    t.add("order_given", officer="a_lt", unit="A", distance=5)
    t.add("morale_test", unit="A", die={"value": 12, "source": "entered"}, officer_distances={})
    t.add("order_given", officer="a_lt", unit="A", distance=5)
    assert t.state.units["A"].morale == "dug_in"
    t.add("order_given", officer="a_sgt", unit="A", distance=5)
    assert (t.state.units["A"].morale, t.state.units["A"].under) == ("", "a_sgt")


def test_v_test_6_the_new_commander_is_a_man_of_the_unit():
    t = attacker_turn(standard())
    err = t.refused("morale_test", unit="A", die=D(16), officer_distances={"a_sgt": 12.5, "a_lt": 18.5},
                    new_commander="d1")
    assert err.rule_id == "V-TEST-6"


# --- who orders whom, the new commander, a unit all captured ------------------------------------
def test_v_off_4_a_captain_does_not_order_a_corporals_fire_team():
    """V-OFF-4: a captain orders lieutenants (or sergeants when there are none); a corporal's fire
    team (A2) is neither, and it is not the captain's own unit."""
    t = attacker_turn(standard())
    err = t.refused("order_given", officer="a_cpt", unit="A2", distance=1)
    assert err.rule_id == "V-OFF-4"
    assert t.state.units["A2"].under != "a_cpt"


def test_v_cmd_1_an_order_states_the_officers_distance():
    t = attacker_turn(standard())
    assert t.refused("order_given", officer="a_lt", unit="A").rule_id == "V-CMD-1"


def test_v_test_3_a_unit_whose_every_man_is_captured_has_surrendered():
    """V-TEST-3 with surrender_per_fighter off (rules data): the enemy near one man takes the whole unit;
    with no man left free the unit has surrendered, it does not retreat."""
    t = attacker_turn(standard({"surrender_per_fighter": False}))
    t.add("morale_test", unit="A", die=D(1), officer_distances={"a_sgt": 12.5, "a_lt": 18.5},
          enemy_distances={"a1": 5})
    assert all(f.captured for f in t.state.fighters.values() if f.unit == "A" and f.cls != "sniper")
    assert t.state.units["A"].morale == "surrendered"
