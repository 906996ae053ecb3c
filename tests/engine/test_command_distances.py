"""Command distances (V-CMD-1..6, V-OFF, V-RADIO, V-MOTOR-8, V-VEH-9): how far each officer commands, by
voice, by radio and from vehicles."""
import pytest

from .table import D, F, at_turn, standard


def captain_table():
    t = at_turn()
    t.add("force_mustered", side="attacker", units=[{"id": "L", "commander": "a_lt2"}],
          fighters=[F("a_lt2", "L", rank="lieutenant")])
    return t


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
