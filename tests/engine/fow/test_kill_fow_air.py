"""Air attacks (catalog F-AIR, seed 004 p. 191): what the check refuses and what the record keeps,
pinned field by field (issue 11: a fresh random sample of ``_check_air`` / ``_apply_air`` mutants
is killed). The attacker's aircraft attack the defender's teams in the attacker's turn."""
from __future__ import annotations

import pytest

from .table import team
from .test_aircraft import air, hit, tb


def last(t):
    return t.state.air_attacks[-1]


# --- _check_air ---------------------------------------------------------------------------------------------
def test_f_air_16_an_aircraft_name_of_the_other_side_is_refused_s_duplicate():
    t = tb()
    t.end_turn()
    t.add(air(hit("a1", 6), side="defender", aircraft="Il-2"))
    t.end_turn()
    t.refused("S-DUPLICATE", air(hit("i1", 6), aircraft="Il-2"))
    t.add(air(hit("i1", 6), aircraft="Ju 87"))
    assert t.state.aircraft["Il-2"].side == "defender" and t.state.aircraft["Ju 87"].side == "attacker"


def test_f_air_16_the_same_aircraft_attack_again_one_turn_later_and_the_record_keeps_the_ply():
    t = tb()
    ply = t.state.ply
    t.add(air(hit("i1", 6)))
    plane = t.state.aircraft["Ju 87"]
    assert (plane.side, plane.attack_ply, plane.attacks, plane.where) == ("attacker", ply, 1, "base")
    assert (last(t).side, last(t).aircraft, last(t).ply, last(t).seq) == ("attacker", "Ju 87", ply, t.state.last_seq)
    t.end_turn()
    t.refused("S-TURN", air(hit("i1", 6)))
    t.end_turn()
    t.add(air(hit("i2", 6)))
    assert plane.attack_ply == t.state.ply and plane.attack_ply != ply and plane.attacks == 2


def test_f_air_1_an_unknown_team_is_refused_s_unknown():
    t = tb()
    t.refused("S-UNKNOWN", air(hit("nobody", 6)))


def test_f_air_1_an_attack_with_no_hits_still_sends_the_aircraft_home():
    t = tb()
    t.add(air())
    assert last(t).hits == [] and last(t).pinned == [] and t.state.aircraft["Ju 87"].attacks == 1


def test_f_air_1_a_destroyed_team_is_refused_in_a_later_attack_even_after_an_enemy_team():
    t = tb()
    t.add(air(hit("i1", 1)))
    t.refused("S-TARGET", air(hit("i2", 6), hit("i1", 6), aircraft="Bf 109"))


def test_f_air_4_an_anti_tank_rating_is_needed_only_against_armoured_vehicles():
    t = tb()
    t.add(air(hit("i1", 6), hit("truck", 6), hit("g1", 6)))
    assert [h.outcome for h in last(t).hits] == ["saved", "saved", "saved"]
    t.refused("F-AIR-4", air(hit("i2", 6), hit("tk2", 6, "cannon"), aircraft="Bf 109"))


def test_f_air_2_a_missing_top_armour_is_refused_even_with_side_armour():
    t = tb()
    t.add(("force_mustered", {"side": "defender", "platoons": [{"id": "DS", "kind": "tank", "teams": [
        team("side_only", "tank", armoured=True, armour_side=2)]}]}))
    t.refused("F-AIR-2", air(hit("side_only", 6, "rockets", anti_tank=1)))
    t.add(air(hit("side_only", 6, "cannon", anti_tank=1)))
    assert last(t).hits[0].total == 8


def test_f_air_4_an_unarmoured_kind_tank_team_takes_a_save_not_the_armour_table():
    """F-AIR-8: a team of a vehicle kind that is not armoured saves on 5+ (no Anti-tank rating asked)."""
    t = tb()
    t.add(("force_mustered", {"side": "defender", "platoons": [{"id": "DS", "kind": "tank", "teams": [
        team("soft", "tank")]}]}))
    t.add(air(hit("soft", 4, "bombs")))
    r = last(t).hits[0]
    assert (r.outcome, r.rule, r.facing, r.total) == ("destroyed", "F-AIR-8", "", None)
    assert t.t("soft").removed and not t.t("soft").wreck


def test_f_air_1_a_team_destroyed_earlier_in_the_attack_needs_no_further_firepower_die():
    t = tb()
    t.add(air(hit("tk", 1, anti_tank=9, fp=4), hit("tk", 4, anti_tank=5), hit("i1", 1), hit("i1", 6)))
    assert [h.outcome for h in last(t).hits] == ["destroyed", "already_destroyed", "destroyed", "already_destroyed"]


def test_f_air_6_after_a_skipped_destroyed_team_a_later_hit_still_needs_its_test():
    t = tb()
    t.refused("F-AIR-6", air(hit("i1", 1), hit("i1", 2), hit("tk2", 4, anti_tank=5)))


@pytest.mark.parametrize("fp", [3, None])
def test_f_air_7_a_tank_that_survived_its_test_needs_a_test_for_its_next_hit(fp):
    """Only a passed Firepower test Destroys (F-AIR-7), so the next hit on the same tank is still due one."""
    t = tb()
    first = hit("tk", 1, anti_tank=9, fp=fp) if fp else hit("tk", 6, anti_tank=1)
    t.refused("F-AIR-7", air(first, hit("tk", 1, anti_tank=9)))


def test_f_air_7_the_weapons_own_firepower_decides_whether_the_first_hit_destroyed():
    t = tb()
    t.refused("F-AIR-7", air(hit("tk", 1, anti_tank=9, firepower=5, fp=4), hit("tk", 1, anti_tank=9)))
    t.add(air(hit("tk", 1, anti_tank=9, firepower=5, fp=5), hit("tk", 1, anti_tank=9)))
    assert [h.outcome for h in last(t).hits] == ["destroyed", "already_destroyed"]


def test_f_air_6_a_bail_out_never_destroys_so_the_next_hit_needs_its_test():
    t = tb()
    t.refused("F-AIR-6", air(hit("tk", 4, anti_tank=5, fp=6), hit("tk", 4, anti_tank=5)))


def test_f_air_12_a_team_in_cover_destroyed_by_its_test_needs_no_second_test():
    t = tb()
    t.add(("status_set", {"subject": "i1", "status": "bulletproof_cover"}))
    t.refused("F-AIR-12", air(hit("i1", 1, fp=3), hit("i1", 1)))
    t.add(air(hit("i1", 1, fp=4), hit("i1", 1)))
    assert [h.outcome for h in last(t).hits] == ["destroyed", "already_destroyed"]


# --- _apply_air: the record --------------------------------------------------------------------------------
def test_f_air_5_the_record_of_a_hit_with_no_effect_keeps_die_facing_total_and_rule():
    t = tb()
    t.add(air(hit("tk", 5, "mg", anti_tank=7, fp=2)))  # 5 + Side 3 = 8 > 7
    r = last(t).hits[0]
    assert (r.team, r.weapon, r.save, r.facing, r.total) == ("tk", "mg", 5, "side", 8)
    assert (r.firepower_die, r.firepower_used, r.outcome, r.rule) == (2, False, "no_effect", "F-AIR-5")
    assert not any(x.kind == "firepower" for x in t.state.tests)


def test_f_air_6_the_record_of_a_test_marks_the_die_used_and_the_test_is_kept():
    t = tb()
    t.add(air(hit("tk", 4, "bombs", anti_tank=5, fp=4)))  # 4 + Top 1 = 5
    r = last(t).hits[0]
    assert (r.save, r.facing, r.total, r.firepower_die, r.firepower_used) == (4, "top", 5, 4, True)
    assert (r.outcome, r.rule) == ("bailed_out", "F-AIR-6")
    test = t.state.tests[-1]
    assert (test.kind, test.seq, test.subject, test.purpose, test.rolls, test.passed) == (
        "firepower", t.state.last_seq, "tk", "air_attack", [4], True)


def test_f_air_7_a_failed_test_is_kept_as_failed():
    t = tb()
    t.add(air(hit("tk", 1, anti_tank=9, fp=3)))
    assert t.state.tests[-1].passed is False and t.state.tests[-1].rolls == [3]
    r = last(t).hits[0]
    assert (r.outcome, r.rule, r.firepower_used, r.total) == ("bailed_out", "F-AIR-7", True, 2)


@pytest.mark.parametrize(("tid", "save", "rule"), [("i1", 3, "F-AIR-10"), ("truck", 5, "F-AIR-8"),
                                                    ("jeep", 3, "F-AIR-9"), ("g1", 5, "F-AIR-11")])
def test_f_air_8_to_11_a_saved_hit_records_saved_with_its_rule_and_no_facing(tid, save, rule):
    t = tb()
    t.add(air(hit(tid, save, "cannon", fp=6)))
    r = last(t).hits[0]
    assert (r.team, r.weapon, r.save, r.outcome, r.rule) == (tid, "cannon", save, "saved", rule)
    assert (r.facing, r.total, r.firepower_die, r.firepower_used) == ("", None, 6, False)
    assert not t.t(tid).destroyed and not t.t(tid).removed


@pytest.mark.parametrize(("tid", "save", "rule"), [("i1", 2, "F-AIR-10"), ("truck", 4, "F-AIR-8"),
                                                    ("jeep", 2, "F-AIR-9"), ("g1", 4, "F-AIR-11")])
def test_f_air_14_a_failed_save_records_destroyed_with_its_rule(tid, save, rule):
    t = tb()
    t.add(air(hit(tid, save, "rockets")))
    r = last(t).hits[0]
    assert (r.outcome, r.rule, r.firepower_die, r.firepower_used) == ("destroyed", rule, None, False)
    assert t.t(tid).destroyed and t.t(tid).removed and not t.t(tid).wreck


def test_f_air_1_a_hit_on_an_already_destroyed_team_is_recorded_as_such_with_its_dice():
    t = tb()
    t.add(air(hit("tk", 1, anti_tank=9, fp=5), hit("tk", 3, "mg", anti_tank=1, fp=2)))
    r = last(t).hits[1]
    assert (r.team, r.weapon, r.save, r.firepower_die, r.outcome, r.rule) == (
        "tk", "mg", 3, 2, "already_destroyed", "F-AIR-1")
    assert (r.facing, r.total, r.firepower_used) == ("", None, False)
    assert len([x for x in t.state.tests if x.kind == "firepower"]) == 1


def test_f_air_6_a_bailed_out_tank_bailed_out_again_stays_bailed_out_not_destroyed():
    t = tb()
    t.add(air(hit("tk", 4, anti_tank=5, fp=4), hit("tk", 4, anti_tank=5, fp=4)))
    assert [h.outcome for h in last(t).hits] == ["bailed_out", "bailed_out"]
    assert t.t("tk").bailed_out and not t.t("tk").destroyed


def test_f_air_6_a_failed_test_on_an_equal_total_leaves_the_tank_as_it_was():
    t = tb()
    t.add(air(hit("tk", 4, anti_tank=5, fp=3)))
    assert (last(t).hits[0].outcome, t.t("tk").bailed_out, t.t("tk").destroyed) == ("no_effect", False, False)


def test_f_air_12_a_failed_save_in_cover_with_a_failed_test_is_saved_and_the_test_kept():
    t = tb()
    t.add(("status_set", {"subject": "g1", "status": "bulletproof_cover"}))
    t.add(air(hit("g1", 4, firepower=3, fp=2)))
    r = last(t).hits[0]
    assert (r.outcome, r.rule, r.firepower_used) == ("saved", "F-AIR-12", True)
    assert t.state.tests[-1].passed is False and not t.t("g1").destroyed


def test_f_air_12_the_weapons_own_firepower_sets_the_cover_test():
    t = tb()
    t.add(("status_set", {"subject": "g1", "status": "bulletproof_cover"}))
    t.add(air(hit("g1", 4, firepower=3, fp=3)))
    assert last(t).hits[0].outcome == "destroyed" and t.t("g1").removed


def test_f_air_15_pinned_platoons_are_listed_once_in_the_order_of_their_first_hit():
    t = tb()
    t.add(air(hit("g1", 6), hit("i1", 6), hit("g2", 6), hit("i2", 1), hit("truck", 6)))
    assert last(t).pinned == ["DG", "DI", "DV"]
    assert all(t.state.platoons[p].pinned for p in ("DG", "DI", "DV"))
    assert not t.state.platoons["DT"].pinned and not t.state.platoons["DR"].pinned


def test_f_air_2_and_f_air_3_the_refusal_names_the_missing_armour_rating():
    """F-AIR-2 asks for the Top armour, F-AIR-3 for the Side armour: the message says which one is missing."""
    t = tb()
    top = t.refused("F-AIR-2", air(hit("bare", 6, "bombs", anti_tank=1)))
    side = t.refused("F-AIR-3", air(hit("bare", 6, "mg", anti_tank=1)))
    assert "no Top armour" in top.message_en and "Верхней" in top.message_ru
    assert "no Side armour" in side.message_en and "Боковой" in side.message_ru
