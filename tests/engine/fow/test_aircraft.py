"""Saves against aircraft hits (catalog F-AIR, seed 004 p. 191): both sides of every die threshold.

The attacker's aircraft attack the defender's teams in the attacker's turn.
"""
from __future__ import annotations

from typing import Any

import pytest

from battles import engine

from .table import Table, d, team

TANKS = {"id": "DT", "kind": "tank", "teams": [
    team("tk", "tank", armoured=True, armour_top=1, armour_side=3),
    team("tk2", "tank", armoured=True, armour_top=1, armour_side=3),
    team("bare", "tank", armoured=True)]}
VEHICLES = {"id": "DV", "kind": "other", "teams": [
    team("truck", "vehicle"), team("jeep", "vehicle", recon=True), team("wv", "vehicle", warrior=True),
    team("iv", "vehicle", independent=True)]}
RECON = {"id": "DR", "kind": "recon", "teams": [team("scout", "vehicle")]}
INFANTRY = {"id": "DI", "kind": "infantry", "teams": [team("i1"), team("i2"), team("iw", warrior=True)]}
GUNS = {"id": "DG", "kind": "gun", "teams": [team("g1", "gun", gun_size="medium"), team("g2", "gun", gun_size="light")]}
OTHER = {"id": "DX", "kind": "infantry", "teams": [team("x1")]}


def tb() -> Table:
    return Table(platoons_d=(TANKS, VEHICLES, RECON, INFANTRY, GUNS, OTHER))


def hit(tid: str, save: int, weapon: str = "bombs", fp: int | None = None, **kw: Any) -> dict[str, Any]:
    h: dict[str, Any] = {"team": tid, "weapon": weapon, "save": d(save), **kw}
    if fp is not None:
        h["firepower_die"] = d(fp)
    return h


def air(*hits: dict[str, Any], aircraft: str = "Ju 87", side: str = "attacker") -> tuple[str, dict[str, Any]]:
    return ("air_attack_resolved", {"side": side, "aircraft": aircraft, "hits": list(hits)})


def outcome(t: Table, n: int = 0) -> str:
    return t.state.air_attacks[-1].hits[n].outcome


# --- armoured vehicles: top vs side armour, the result table -------------------------------------
def test_f_air_2_bombs_and_rockets_hit_top_armour():
    for weapon in ("bombs", "rockets"):
        t = tb()
        t.add(air(hit("tk", 4, weapon, anti_tank=5, fp=4)))  # 4 + Top 1 = 5: equal, not 4 + Side 3 = 7
        r = t.state.air_attacks[-1].hits[0]
        assert (r.facing, r.total) == ("top", 5)
        assert t.state.tests[-1].kind == "firepower" and t.state.tests[-1].purpose == "air_attack"


def test_f_air_3_cannon_and_machine_guns_hit_side_armour():
    for weapon in ("cannon", "mg"):
        t = tb()
        t.add(air(hit("tk", 2, weapon, anti_tank=5, fp=4)))  # 2 + Side 3 = 5: equal (Top would give 3: lower)
        r = t.state.air_attacks[-1].hits[0]
        assert (r.facing, r.total) == ("side", 5)
        assert t.t("tk").bailed_out and not t.t("tk").destroyed  # equal: Bailed Out, not Destroyed


def test_f_air_2_and_f_air_3_a_missing_armour_rating_for_the_facing_is_refused():
    t = tb()
    t.refused("F-AIR-2", air(hit("bare", 6, "bombs", anti_tank=1)))
    t.refused("F-AIR-3", air(hit("bare", 6, "mg", anti_tank=1)))


def test_f_air_4_the_owner_adds_the_die_to_the_armour_and_compares_with_the_anti_tank_rating():
    t = tb()
    t.refused("F-AIR-4", air(hit("tk", 6, "bombs")))  # no Anti-tank rating given
    t.add(air(hit("tk", 6, "bombs", anti_tank=6)))
    r = t.state.air_attacks[-1].hits[0]
    assert r.total == 7 and r.rule == "F-AIR-5"


def test_f_air_5_a_total_higher_than_the_anti_tank_rating_has_no_effect():
    t = tb()
    t.add(air(hit("tk", 5, anti_tank=5)))  # 5 + 1 = 6 > 5, no Firepower test needed
    assert outcome(t) == "no_effect"
    assert not t.t("tk").bailed_out and not t.t("tk").destroyed
    assert not any(x.kind == "firepower" for x in t.state.tests)


@pytest.mark.parametrize("fp,bailed", [(4, True), (3, False)])
def test_f_air_6_an_equal_total_bails_out_on_a_passed_firepower_test_4_and_does_nothing_on_3(fp, bailed):
    t = tb()
    t.refused("F-AIR-6", air(hit("tk", 4, anti_tank=5)))  # 4 + 1 = 5: the test is due
    t.add(air(hit("tk", 4, anti_tank=5, fp=fp)))
    assert t.t("tk").bailed_out is bailed and not t.t("tk").destroyed
    assert outcome(t) == ("bailed_out" if bailed else "no_effect")
    assert t.state.tests[-1].passed is bailed and t.state.tests[-1].rolls == [fp]


@pytest.mark.parametrize("fp,destroyed", [(4, True), (3, False)])
def test_f_air_7_a_lower_total_destroys_on_a_passed_firepower_test_4_and_bails_out_on_3(fp, destroyed):
    t = tb()
    t.refused("F-AIR-7", air(hit("tk", 3, anti_tank=5)))  # 3 + 1 = 4 < 5: the test is due
    t.add(air(hit("tk", 3, anti_tank=5, fp=fp)))
    assert t.t("tk").destroyed is destroyed
    assert t.t("tk").bailed_out is not destroyed
    assert outcome(t) == ("destroyed" if destroyed else "bailed_out")


@pytest.mark.parametrize("fp,destroyed", [(5, True), (4, False)])
def test_f_air_7_the_weapons_own_firepower_rating_sets_the_test(fp, destroyed):
    t = tb()
    t.add(air(hit("tk", 1, anti_tank=5, firepower=5, fp=fp)))
    assert t.t("tk").destroyed is destroyed


# --- other teams: save rolls ------------------------------------------------------------------
@pytest.mark.parametrize("save,survives", [(5, True), (4, False)])
def test_f_air_8_an_unarmoured_vehicle_ignores_the_hit_on_5_plus(save, survives):
    t = tb()
    t.add(air(hit("truck", save, "mg")))
    assert t.t("truck").destroyed is not survives
    assert outcome(t) == ("saved" if survives else "destroyed")
    assert t.state.air_attacks[-1].hits[0].rule == "F-AIR-8"


@pytest.mark.parametrize("tid", ["jeep", "wv", "iv", "scout"])
@pytest.mark.parametrize("save,survives", [(3, True), (2, False)])
def test_f_air_9_an_unarmoured_warrior_independent_or_recon_vehicle_saves_on_3_plus(tid, save, survives):
    t = tb()
    t.add(air(hit(tid, save, "cannon")))  # "scout" is Recon through its Reconnaissance platoon (F-RECON-1)
    assert t.t(tid).destroyed is not survives
    assert t.state.air_attacks[-1].hits[0].rule == "F-AIR-9"


def test_f_air_9_reading_the_3_plus_is_for_unarmoured_vehicles_a_warrior_infantry_team_keeps_its_own_save():
    t = tb()
    t.add(air(hit("iw", 3)))
    assert t.state.air_attacks[-1].hits[0].rule == "F-AIR-10"
    t2 = tb()
    t2.add(air(hit("tk", 6, anti_tank=20, fp=1)))  # an armoured vehicle uses the armour table, never a save
    assert t2.state.air_attacks[-1].hits[0].rule == "F-AIR-7"


@pytest.mark.parametrize("save,survives", [(3, True), (2, False)])
def test_f_air_10_an_infantry_team_ignores_the_hit_on_3_plus(save, survives):
    t = tb()
    t.add(air(hit("i1", save, "mg")))
    assert t.t("i1").destroyed is not survives
    assert outcome(t) == ("saved" if survives else "destroyed")


@pytest.mark.parametrize("save,survives", [(5, True), (4, False)])
def test_f_air_11_a_gun_team_ignores_the_hit_on_5_plus(save, survives):
    t = tb()
    t.add(air(hit("g1", save, "rockets")))
    assert t.t("g1").destroyed is not survives


@pytest.mark.parametrize("save,survives", [(3, True), (2, False)])
def test_f_air_11_a_gun_team_gone_to_ground_ignores_the_hit_on_3_plus(save, survives):
    t = tb()
    t.add(("status_set", {"subject": "g1", "status": "gone_to_ground"}))
    t.add(air(hit("g1", save, "rockets")))
    assert t.t("g1").destroyed is not survives


@pytest.mark.parametrize("tid,failed", [("i1", 2), ("g1", 4)])
@pytest.mark.parametrize("fp,destroyed", [(4, True), (3, False)])
def test_f_air_12_in_bulletproof_cover_a_failed_save_destroys_only_on_a_passed_firepower_test(tid, failed, fp,
                                                                                               destroyed):
    t = tb()
    t.add(("status_set", {"subject": tid, "status": "bulletproof_cover"}))
    t.refused("F-AIR-12", air(hit(tid, failed)))  # the test is due after the failed save
    t.add(air(hit(tid, failed, fp=fp)))
    assert t.t(tid).destroyed is destroyed
    assert outcome(t) == ("destroyed" if destroyed else "saved")
    assert t.state.tests[-1].kind == "firepower" and t.state.tests[-1].passed is destroyed


def test_f_air_12_in_bulletproof_cover_a_passed_save_needs_no_firepower_test():
    t = tb()
    t.add(("status_set", {"subject": "i1", "status": "bulletproof_cover"}))
    t.add(air(hit("i1", 3)))
    assert not t.t("i1").destroyed and not any(x.kind == "firepower" for x in t.state.tests)


def test_f_air_12_bulletproof_cover_does_not_protect_an_unarmoured_vehicle():
    t = tb()
    t.add(("status_set", {"subject": "truck", "status": "bulletproof_cover"}))
    t.add(air(hit("truck", 4, fp=1)))
    assert t.t("truck").destroyed
    assert not t.state.air_attacks[-1].hits[0].firepower_used  # a die given in advance is kept, unused


# --- wrecks, removal, pinned, leaving ----------------------------------------------------------------
def test_f_air_13_a_destroyed_armoured_vehicle_is_wreckage_and_stays_on_the_table():
    t = tb()
    t.add(air(hit("tk", 1, anti_tank=9, fp=6)))
    assert t.t("tk").destroyed and t.t("tk").wreck and not t.t("tk").removed


def test_f_air_14_every_other_destroyed_team_is_removed_from_the_table():
    t = tb()
    t.add(air(hit("i2", 6), hit("i1", 2), hit("truck", 1), hit("g2", 1)))
    for tid in ("i1", "truck", "g2"):
        assert t.t(tid).destroyed and t.t(tid).removed and not t.t(tid).wreck
    assert not t.t("i2").destroyed and not t.t("i2").removed  # hit too, but saved: it stays


def test_f_air_15_every_platoon_with_a_hit_even_a_saved_one_is_pinned_down():
    t = tb()
    t.add(air(hit("i1", 6), hit("tk", 6, anti_tank=1)))  # both saved / no effect
    assert t.state.platoons["DI"].pinned and t.state.platoons["DT"].pinned
    assert not t.state.platoons["DX"].pinned and not t.state.platoons["DG"].pinned
    assert t.state.air_attacks[-1].pinned == ["DI", "DT"]


def test_f_air_16_after_their_attack_the_aircraft_leave_and_cannot_attack_again_that_turn():
    t = tb()
    t.add(air(hit("i1", 6)))
    assert t.state.aircraft["Ju 87"].where == "base"
    t.refused("F-AIR-16", air(hit("i2", 6)))
    t.add(air(hit("i2", 6), aircraft="Bf 109"))  # other aircraft may still attack
    t.end_turn()
    t.end_turn()
    t.add(air(hit("i2", 6)))  # back from base in a later turn (when they come is G-F1)
    assert t.state.aircraft["Ju 87"].attacks == 2


def test_f_air_1_saves_are_rolled_for_every_hit_team_in_order():
    t = tb()
    t.add(air(hit("i1", 2), hit("i1", 6), hit("i2", 6), hit("truck", 5)))
    rec = t.state.air_attacks[-1]
    assert [(h.team, h.outcome) for h in rec.hits] == [
        ("i1", "destroyed"), ("i1", "already_destroyed"), ("i2", "saved"), ("truck", "saved")]


def test_f_air_1_only_live_enemy_teams_are_hit_and_in_the_aircrafts_turn():
    t = tb()
    t.refused("S-TARGET", air(hit("a1", 6)))  # own team
    t.refused("S-TURN", air(hit("i1", 6), side="defender"))
    t.add(air(hit("i1", 1)))
    t.refused("S-TARGET", air(hit("i1", 6), aircraft="Bf 109"))


def test_f_air_1_the_service_rolls_a_d6_for_each_save_and_firepower_die():
    data = {"side": "attacker", "aircraft": "Ил-2", "hits": [
        {"team": "tk", "weapon": "bombs", "anti_tank": 5, "save": {"source": "rolled"},
         "firepower_die": {"source": "rolled"}}]}
    filled = engine.fill_rolls("air_attack_resolved", data, lambda sides: sides, ruleset="fow")
    h = filled["hits"][0]
    assert h["save"] == {"source": "rolled", "value": 6, "rng": "secrets"}
    assert h["firepower_die"]["value"] == 6
    t = tb()
    t.add(("air_attack_resolved", filled))  # 6 + 1 = 7 > 5: no effect
    assert outcome(t) == "no_effect"


def test_f_air_1_an_air_attack_folded_from_the_log_equals_the_incremental_state():
    t = tb()
    t.add(air(hit("tk", 3, anti_tank=5, fp=4), hit("i1", 2), hit("g1", 5)))
    assert engine.state_to_json(engine.fold(t.events, ruleset="fow")) == engine.state_to_json(t.state)


# Air attacks (catalog F-AIR, seed 004 p. 191): what the check refuses and what the record keeps,
# pinned field by field. The attacker's aircraft attack the defender's teams in the attacker's turn.


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


def test_f_air_an_air_attack_is_recorded_in_the_ply_it_was_made():
    """The battle report places each air attack (F-AIR) in the turn it was made."""
    t = tb()
    t.end_turn()
    t.end_turn()
    ply = t.state.ply
    t.add(air(hit("tk", 4, "bombs", anti_tank=5, fp=4)))
    assert t.state.air_attacks[-1].ply == ply != 0
