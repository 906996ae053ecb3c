"""Who orders whom (V-OFF-1..4, V-CMD-1, V-RADIO-2..4, V-MOTOR-8, V-VEH-9): every branch of the order check,
each refusal with its rule, both sides of each threshold."""
import pytest

from .table import F, at_turn, attacker_turn, standard


def order(t, **data):
    t.add("order_given", **data)
    return t.state.units[data["unit"]]


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


# Who orders whom and over what distance (V-OFF-1..4, V-CMD-1..6, V-RADIO-2..4,
# V-MOTOR-8, V-VEH-9): every branch of the order check, each refusal with the rule
# it cites, both sides of each threshold.




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


@pytest.mark.parametrize(("officer_armour", "unit_armour"), [(2, None), (None, 2), (2, 1), (1, 2)])
def test_v_motor_8_without_both_commanders_in_class_2_vehicles_the_command_distance_holds(officer_armour,
                                                                                         unit_armour):
    t = vehicles_table(officer_armour, unit_armour)
    assert order(t, officer="ta_c", unit="TU", distance=18.0).under == "ta_c"
    assert t.refused("order_given", officer="ta_c", unit="TU", distance=18.01).rule_id == "V-CMD-3"


def test_v_motor_8_both_commanders_in_class_2_vehicles_ignore_the_distance():
    t = vehicles_table(2, 2)
    assert order(t, officer="ta_c", unit="TU", distance=100.0).under == "ta_c"


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
