"""The morale test (V-MORALE-1..3, V-CMD-7, V-SNIP-2, V-TEST-3..7): who is tested, which officers count, the
bands at each edge, the bonus, surrender and the new commander."""
import pytest

from .table import D, F, at_turn, attacker_turn, standard


# --- morale ------------------------------------------------------------------
def morale(t, die, officers=None, **kw):
    t.add("morale_test", unit="A", die=D(die), officer_distances=officers or {"a_sgt": 12.5, "a_lt": 18.5}, **kw)
    return t.state.units["A"]


FAR = {"a_sgt": 12.5, "a_lt": 18.5}


def run_test(t, unit="A", die=12, officers=None, **kw):
    return t.add("morale_test", unit=unit, die=D(die), officer_distances=FAR if officers is None else officers, **kw)


def refused(t, unit="A", die=12, officers=None, **kw):
    return t.refused("morale_test", unit=unit, die=D(die), officer_distances=FAR if officers is None else officers,
                     **kw).rule_id


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


def test_v_test_3_a_unit_whose_every_man_is_captured_has_surrendered():
    """V-TEST-3 with surrender_per_fighter off (rules data): the enemy near one man takes the whole unit;
    with no man left free the unit has surrendered, it does not retreat."""
    t = attacker_turn(standard({"surrender_per_fighter": False}))
    t.add("morale_test", unit="A", die=D(1), officer_distances={"a_sgt": 12.5, "a_lt": 18.5},
          enemy_distances={"a1": 5})
    assert all(f.captured for f in t.state.fighters.values() if f.unit == "A" and f.cls != "sniper")
    assert t.state.units["A"].morale == "surrendered"
