"""Digging In (catalog F-DIG, seed 001 p. 52): the Skill test's both sides, 2"/5 cm both sides, by team type."""
from __future__ import annotations

import pytest

from .table import INFANTRY_A, INFANTRY_D, Table, d, team

GUNS = {"id": "G1", "kind": "gun", "command": "gl", "teams": [
    team("gl", "gun", gun_size="light"), team("gm", "gun", gun_size="medium"), team("gh", "gun", gun_size="heavy"),
    team("gi", "gun", gun_size="immobile"), team("gaa", "gun", gun_size="light", anti_aircraft=True),
    team("gmp", "gun", gun_size="man_packed")]}
MIXED = {"id": "A1", "kind": "infantry", "command": "a1", "teams": [
    team("a1"), team("a2"), team("cav", cavalry=True), team("truck", "vehicle"), team("tk", "tank", armoured=True)]}
SUPPLY = {"id": "P", "kind": "other", "teams": [team("sup", "vehicle", pioneer_supply=True)]}


def tb(units: str = "in") -> Table:
    return Table(units=units, platoons_a=(MIXED, GUNS, SUPPLY))


def dig(pl: str = "A1", die: int = 4, **kw) -> tuple[str, dict]:
    return ("dig_in_attempted", {"platoon": pl, "die": d(die), **kw})


def test_f_dig_3_and_f_dig_4_a_passed_skill_test_4_digs_in_infantry_and_gun_teams():
    t = tb()
    t.add(dig(die=4))
    assert t.t("a1").dug_in and t.t("a2").dug_in
    assert t.state.tests[-1].passed and t.state.tests[-1].purpose == "dig_in"


def test_f_dig_3_and_f_dig_5_a_failed_skill_test_3_leaves_them_not_dug_in():
    t = tb()
    t.add(dig(die=3))
    assert not t.t("a1").dug_in and not t.t("a1").bulletproof_cover
    assert not t.state.tests[-1].passed


def test_f_dig_3_a_platoons_own_skill_rating_sets_the_threshold():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "skill": 5, "teams": [team("a1")]},))
    t.add(dig(die=4))
    assert not t.t("a1").dug_in


def test_f_dig_1_digging_is_instead_of_moving():
    t = tb()
    t.add(("team_moved", {"team": "a1", "distance": 3}))
    t.refused("F-DIG-1", dig())
    t2 = tb()
    t2.add(dig())
    t2.refused("F-DIG-1", ("team_moved", {"team": "a1", "distance": 1}))
    t2.refused("F-DIG-1", dig())  # once per Movement Step


def test_f_dig_2_a_pinned_down_platoon_may_dig_in():
    t = tb()
    t.add(("status_set", {"subject": "A1", "status": "pinned"}))
    t.add(dig(die=6))
    assert t.t("a1").dug_in
    assert t.state.platoons["A1"].pinned  # F-DIG-2: it digs while Pinned Down; digging rallies no one


def test_f_dig_7_and_f_dig_8_cavalry_vehicles_and_teams_in_cover_need_not_dig_and_act_normally():
    t = tb()
    t.add(dig(die=6, in_cover=["a2"]))
    assert t.t("a1").dug_in
    assert not t.t("a2").dug_in and t.t("a2").bulletproof_cover
    for tid in ("cav", "truck", "tk"):
        assert not t.t(tid).dug_in
    for tid in ("a2", "cav", "truck", "tk"):  # they act normally: they may move this turn
        t.add(("team_moved", {"team": tid, "distance": 1}))


def test_f_dig_8_a_team_already_in_bulletproof_cover_need_not_dig_in_a_later_attempt_either():
    """F-DIG-8: a team the state holds in Bulletproof Cover (declared at an earlier attempt) need not dig
    when the platoon digs again, though the table does not name it a second time."""
    t = tb()
    t.add(dig(die=2, in_cover=["a2"]))  # failed: a1 is not Dug In, a2 is in Bulletproof Cover
    t.end_turn()
    t.end_turn()
    t.add(dig(die=6))
    assert t.t("a1").dug_in and not t.t("a2").dug_in and t.t("a2").bulletproof_cover


def test_f_dig_8_a_team_in_bulletproof_cover_acts_normally_while_the_rest_of_its_platoon_digs():
    """F-DIG-8: the team in cover need not dig and may act normally: it moved, and the platoon still digs
    (digging instead of moving, F-DIG-1, binds only the teams that dig)."""
    t = tb()
    t.add(("team_moved", {"team": "a2", "distance": 2}))
    t.add(dig(die=6, in_cover=["a2"]))
    assert t.t("a1").dug_in and not t.t("a2").dug_in


def test_f_dig_7_a_platoon_with_nothing_to_dig_is_refused():
    t = tb()
    t.refused("F-DIG-7", dig(pl="P"))


def test_f_dig_11_teams_in_water_or_on_bridges_cannot_dig_and_act_normally():
    t = tb()
    t.add(dig(die=6, in_water=["a2"]))
    assert t.t("a1").dug_in and not t.t("a2").dug_in
    t.add(("team_moved", {"team": "a2", "distance": 2}))


@pytest.mark.parametrize("units,limit", [("in", 2), ("cm", 5)])
def test_f_dig_10_pioneer_supply_within_2in_5cm_allows_a_reroll_of_a_failed_test(units, limit):
    t = tb(units)
    t.refused("F-DIG-10", dig(die=2, reroll=d(5), pioneer_supply_distance=limit + 0.1))
    t.refused("F-DIG-10", dig(die=2, reroll=d(5)))
    t.refused("F-DIG-10", dig(die=4, reroll=d(5), pioneer_supply_distance=limit))  # a passed test is not re-rolled
    t.add(dig(die=2, reroll=d(5), pioneer_supply_distance=limit))
    assert t.t("a1").dug_in
    assert t.state.tests[-1].rolls == [2, 5]


def test_f_dig_10_no_reroll_without_a_pioneer_supply_vehicle():
    t = Table()
    t.refused("F-DIG-10", dig(die=2, reroll=d(5), pioneer_supply_distance=1))


def test_f_dig_6_diggers_count_as_moved_for_rate_of_fire():
    t = tb()
    t.add(dig(die=3))
    t.refused("F-DIG-6", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(4), d(4)]}))
    t.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(4)]}))
    t.add(("team_shot", {"shooter": "tk", "target": "d1", "dice": [d(4), d(4)]}))  # the tank did not dig


def test_f_dig_12_dug_in_infantry_and_man_packed_guns_are_concealed_and_in_bulletproof_cover():
    t = tb()
    t.add(dig(die=4), dig(pl="G1", die=4))
    for tid in ("a1", "gmp"):
        assert t.t(tid).dug_in and t.t(tid).concealed and t.t(tid).bulletproof_cover


def test_f_dig_13_a_failed_attempt_leaves_infantry_and_man_packed_guns_concealed_in_the_open():
    t = tb()
    t.add(dig(die=1), dig(pl="G1", die=1))
    assert t.t("a1").concealed and not t.t("a1").bulletproof_cover
    assert t.t("gmp").concealed
    assert not t.t("gl").concealed  # only infantry and man-packed guns


def test_f_dig_14_dug_in_light_and_medium_guns_are_concealed_and_in_bulletproof_cover():
    t = tb()
    t.add(dig(pl="G1", die=4))
    for tid in ("gl", "gm"):
        assert t.t(tid).concealed and t.t(tid).bulletproof_cover


def test_f_dig_15_dug_in_heavy_immobile_and_aa_guns_are_in_cover_but_not_concealed():
    t = tb()
    t.add(dig(pl="G1", die=4))
    for tid in ("gh", "gi", "gaa"):
        assert t.t(tid).bulletproof_cover and t.t(tid).dug_in and not t.t(tid).concealed


def test_f_dig_16_teams_that_dug_in_may_go_to_ground_unless_they_shot():
    t = tb()
    t.add(dig(die=4))
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4)]}))
    t.refused("F-DIG-16", ("went_to_ground", {"teams": ["a2"]}))
    t.add(("went_to_ground", {"teams": ["a1"]}))
    assert t.t("a1").gone_to_ground


def test_f_dig_17_moving_other_than_pivoting_ends_dug_in():
    t = tb()
    t.add(dig(die=4))
    t.end_turn()
    t.end_turn()
    t.add(("team_moved", {"team": "a1", "distance": 0, "pivot_only": True}))
    assert t.t("a1").dug_in
    t.add(("team_moved", {"team": "a2", "distance": 1}))
    assert not t.t("a2").dug_in and not t.t("a2").concealed and not t.t("a2").bulletproof_cover


def test_f_dig_18_a_dug_in_team_that_assaults_stops_being_dug_in():
    t = tb()
    t.add(dig(die=4))
    t.end_turn()
    t.end_turn()
    t.add(("assault_launched", {"teams": ["a1"], "against": "D1"}))
    assert not t.t("a1").dug_in and t.t("a2").dug_in


def _assaulted() -> Table:
    """A1 dug in; in the defender's turn its d1 assaults A1: the Assault Step (F-DIG-19: during an assault)."""
    t = tb()
    t.add(dig(die=4))
    t.end_turn()
    t.add(("assault_launched", {"teams": ["d1"], "against": "A1"}))
    return t


def test_f_dig_19_and_f_dig_20_marked_positions_dig_teams_in_again_after_the_assault():
    t = _assaulted()
    t.add(("foxholes_marked", {"platoon": "A1"}))
    assert t.state.platoons["A1"].foxholes == 2
    t.add(("status_set", {"subject": "a1", "status": "gone_to_ground", "value": False}))
    t.add(("foxholes_reoccupied", {"platoon": "A1", "teams": ["a2", "a1"]}))
    assert t.t("a1").dug_in and t.t("a2").dug_in
    assert t.state.platoons["A1"].foxholes == 0  # F-DIG-22: markers removed


def _both_dug_in_then_a1_assaults_d1() -> Table:
    """A1 and D1 both Dug In; in the attacker's next turn a1 assaults D1 (a1 leaves its foxhole, F-DIG-18;
    a2 stays Dug In): the Assault Step, D1 the defending platoon."""
    t = tb()
    t.add(dig(die=4))
    t.end_turn()
    t.add(dig(pl="D1", die=4))
    t.end_turn()
    t.add(("assault_launched", {"teams": ["a1"], "against": "D1"}))
    assert t.t("a2").dug_in and t.t("d1").dug_in
    return t


def test_f_dig_19_only_the_defending_platoon_marks_its_foxholes():
    """F-DIG-19 «позиции Окопанных отделений обороняющегося взвода»: the assaulting platoon, though it still has
    a Dug In team, may not mark its own positions in its Assault Step; the platoon assaulted may."""
    t = _both_dug_in_then_a1_assaults_d1()
    err = t.refused("F-DIG-19", ("foxholes_marked", {"platoon": "A1"}))
    assert "обороняющийся" in err.message_ru and "defending platoon" in err.message_en
    assert t.state.platoons["A1"].foxholes == 0
    t.add(("foxholes_marked", {"platoon": "D1"}))
    assert t.state.platoons["D1"].foxholes == 2
    t.add(("foxholes_reoccupied", {"platoon": "D1", "teams": ["d1", "d2"]}))
    assert t.t("d1").dug_in and t.t("d2").dug_in


def test_f_dig_19_a_platoon_not_assaulted_this_assault_step_marks_nothing():
    """F-DIG-19: only a platoon assaulted in *this* Assault Step: D1, assaulted in the attacker's turn, may not
    mark in the defender's own Assault Step; a second defending platoon nobody assaulted may not either."""
    d2 = {"id": "D2", "kind": "infantry", "teams": [team("d3"), team("d4")]}
    t = Table(platoons_a=(MIXED,), platoons_d=(INFANTRY_D, d2))
    t.add(dig(die=4))
    t.end_turn()
    t.add(dig(pl="D1", die=4), dig(pl="D2", die=4))
    t.end_turn()
    t.add(("assault_launched", {"teams": ["a1"], "against": "D1"}))
    t.refused("F-DIG-19", ("foxholes_marked", {"platoon": "D2"}))  # Dug In, on the defending side, not assaulted
    t.end_turn()
    t.add(("assault_launched", {"teams": ["d3"], "against": "A1"}))
    t.refused("F-DIG-19", ("foxholes_marked", {"platoon": "D1"}))  # assaulted last turn, not in this Step
    t.add(("foxholes_marked", {"platoon": "A1"}))


def test_f_dig_19_an_assault_names_an_enemy_platoon_g_f1():
    """The platoon an assault names is the enemy's (G-F1): naming its own would let it mark its foxholes."""
    t = tb()
    t.add(dig(die=4))
    t.end_turn()
    t.end_turn()
    t.refused("G-F1", ("assault_launched", {"teams": ["a1"], "against": "A1"}))
    t.refused("S-UNKNOWN", ("assault_launched", {"teams": ["a1"], "against": "NOPE"}))


def test_f_dig_19_no_marks_no_reoccupation():
    t = _assaulted()
    t.refused("F-DIG-19", ("foxholes_reoccupied", {"platoon": "A1", "teams": ["a1"]}))
    t.refused("F-DIG-19", ("foxholes_marked", {"platoon": "G1"}))  # nothing dug in to mark


def test_f_dig_21_a_team_not_on_a_marked_position_is_no_longer_dug_in():
    t = _assaulted()
    t.add(("foxholes_marked", {"platoon": "A1"}))
    t.add(("foxholes_reoccupied", {"platoon": "A1", "teams": ["a1"]}))
    assert t.t("a1").dug_in and not t.t("a2").dug_in


def test_f_dig_21_no_more_teams_than_unoccupied_marked_positions():
    t = _assaulted()
    t.add(("foxholes_marked", {"platoon": "A1"}))
    t.refused("F-DIG-21", ("foxholes_reoccupied", {"platoon": "A1", "teams": ["a1", "a1"]}))


def test_f_dig_23_any_foxhole_of_its_own_platoon_but_not_another_platoons():
    t = _assaulted()
    t.add(("foxholes_marked", {"platoon": "A1"}))
    t.refused("F-DIG-23", ("foxholes_reoccupied", {"platoon": "A1", "teams": ["gl"]}))
    t.add(("foxholes_reoccupied", {"platoon": "A1", "teams": ["a2"]}))  # a2 need not return to its own hole
    assert t.t("a2").dug_in


# Digging In (catalog F-DIG, seed 001 p. 52): every branch of the check and of its record pinned.


ENEMY_SUPPLY = {"id": "DP", "kind": "other", "teams": [team("esup", "vehicle", pioneer_supply=True)]}


def test_f_dig_1_an_unknown_platoon_is_refused_s_unknown():
    tb().refused("S-UNKNOWN", dig(pl="NOPE"))


def test_f_dig_1_a_platoon_digs_in_its_own_sides_turn_only():
    t = tb()
    t.end_turn()
    t.refused("S-TURN", dig())
    t.end_turn()
    t.add(dig())
    assert t.t("a1").dug_in


@pytest.mark.parametrize("key", ["in_water", "in_cover"])
def test_f_dig_7_11_teams_named_in_water_or_in_cover_must_be_of_the_platoon(key):
    t = tb()
    err = t.refused("S-UNKNOWN", dig(**{key: ["a2", "gl"]}))
    assert "gl" in err.message_en
    t.refused("S-UNKNOWN", dig(**{key: ["ghost"]}))


def test_f_dig_1_once_per_movement_step_but_again_in_a_later_turn():
    t = tb()
    t.add(dig(die=3))
    t.refused("F-DIG-1", dig(die=6))
    t.end_turn()
    t.end_turn()
    t.add(dig(die=6))
    assert t.t("a1").dug_in and t.state.platoons["A1"].dig_ply == t.state.ply


def test_f_dig_1_another_platoon_digging_does_not_stop_this_one():
    t = tb()
    t.add(dig(pl="G1", die=6))
    t.add(dig(pl="A1", die=6))
    assert t.t("a1").dug_in and t.t("gl").dug_in


def test_f_dig_1_a_vehicle_of_the_platoon_that_moved_does_not_stop_its_infantry_digging():
    t = tb()
    t.add(("team_moved", {"team": "truck", "distance": 3}))
    t.add(dig(die=6))
    assert t.t("a1").dug_in and t.t("a2").dug_in


def test_f_dig_11_a_team_in_water_that_moved_does_not_stop_the_others_digging():
    t = tb()
    t.add(("team_moved", {"team": "a2", "distance": 3}))
    t.refused("F-DIG-1", dig(die=6))
    t.add(dig(die=6, in_water=["a2"]))
    assert t.t("a1").dug_in and not t.t("a2").dug_in


def test_f_dig_1_a_team_that_moved_is_named_in_the_refusal():
    t = tb()
    t.add(("team_moved", {"team": "a2", "distance": 3}))
    assert "a2" in t.refused("F-DIG-1", dig(die=6)).message_en


@pytest.mark.parametrize("kw", [{"in_water": ["a1", "a2"]}, {"in_cover": ["a1", "a2"]},
                                {"in_water": ["a1"], "in_cover": ["a2"]}])
def test_f_dig_7_a_platoon_whose_every_infantry_team_is_in_water_or_cover_has_nothing_to_dig(kw):
    tb().refused("F-DIG-7", dig(**kw))


def test_f_dig_7_destroyed_teams_do_not_dig():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2")]},))
    t.state.teams["a1"].destroyed = True
    t.add(dig(die=6))
    assert t.t("a2").dug_in and not t.t("a1").dug_in and t.t("a1").dig_ply != t.state.ply
    t2 = Table(platoons_a=({"id": "A1", "kind": "infantry", "teams": [team("a1")]},))
    t2.state.teams["a1"].destroyed = True
    t2.refused("F-DIG-7", dig(die=6))


def test_f_dig_8_cavalry_alone_has_nothing_to_dig():
    t = Table(platoons_a=({"id": "C", "kind": "infantry", "teams": [team("c1", cavalry=True)]},))
    t.refused("F-DIG-7", dig(pl="C"))


def test_f_dig_7_a_team_already_in_bulletproof_cover_need_not_dig_and_may_move():
    t = tb()
    t.state.teams["a2"].bulletproof_cover = True  # in a building (given)
    t.add(dig(die=6))
    assert t.t("a1").dug_in and not t.t("a2").dug_in and t.t("a2").dig_ply != t.state.ply
    t.add(("team_moved", {"team": "a2", "distance": 1}))


def test_f_dig_7_a_team_whose_only_cover_is_its_foxhole_digs_again():
    t = tb()
    t.add(dig(die=6))
    t.end_turn()
    t.end_turn()
    t.add(dig(die=1))
    assert t.t("a1").dig_ply == t.state.ply and t.t("a2").dig_ply == t.state.ply
    t.refused("F-DIG-1", ("team_moved", {"team": "a1", "distance": 1}))


def test_f_dig_7_a_team_named_in_cover_is_put_in_cover_even_on_a_failed_test():
    t = tb()
    t.add(dig(die=1, in_cover=["a2"]))
    assert t.t("a2").bulletproof_cover and not t.t("a2").dug_in and not t.t("a2").concealed
    assert not t.t("a1").bulletproof_cover and t.t("a1").concealed


def test_f_dig_3_the_skill_test_is_recorded_with_its_subject_purpose_and_roll():
    t = tb()
    t.add(dig(die=4))
    rec = t.state.tests[-1]
    assert (rec.kind, rec.seq, rec.subject, rec.purpose, rec.rolls, rec.passed) == (
        "skill", t.state.last_seq, "A1", "dig_in", [4], True)


@pytest.mark.parametrize(("reroll", "passed"), [(4, True), (3, False)])
def test_f_dig_10_the_reroll_decides_and_both_rolls_are_recorded(reroll, passed):
    t = tb()
    t.add(dig(die=3, reroll=d(reroll), pioneer_supply_distance=0))
    rec = t.state.tests[-1]
    assert (rec.rolls, rec.passed) == ([3, reroll], passed)
    assert t.t("a1").dug_in is passed and t.t("a1").bulletproof_cover is passed
    assert t.t("a1").concealed  # either way: Dug In (F-DIG-12) or Concealed in the open (F-DIG-13)


def test_f_dig_10_a_platoons_own_skill_sets_what_a_failed_test_is():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "skill": 5, "teams": [team("a1")]}, SUPPLY))
    t.add(dig(die=4, reroll=d(5), pioneer_supply_distance=1))
    assert t.t("a1").dug_in and t.state.tests[-1].rolls == [4, 5]
    t2 = Table(platoons_a=({"id": "A1", "kind": "infantry", "skill": 3, "teams": [team("a1")]}, SUPPLY))
    t2.refused("F-DIG-10", dig(die=3, reroll=d(5), pioneer_supply_distance=1))


def test_f_dig_10_only_a_live_pioneer_supply_vehicle_of_the_side_allows_the_reroll():
    t = Table(platoons_a=(MIXED, GUNS), platoons_d=({"id": "D1", "kind": "infantry", "teams": [team("d1")]},
                                                     ENEMY_SUPPLY))
    t.refused("F-DIG-10", dig(die=2, reroll=d(5), pioneer_supply_distance=0))
    t2 = tb()
    t2.state.teams["sup"].destroyed = True
    t2.refused("F-DIG-10", dig(die=2, reroll=d(5), pioneer_supply_distance=0))


def test_f_dig_10_the_refusal_names_the_distance_in_the_battles_units():
    err = tb("cm").refused("F-DIG-10", dig(die=2, reroll=d(5), pioneer_supply_distance=6))
    assert "5" in err.message_en and "cm" in err.message_en


@pytest.mark.parametrize("size", ["light", "medium", "heavy"])
def test_f_dig_13_a_failed_attempt_leaves_other_guns_neither_dug_in_nor_concealed(size):
    t = Table(platoons_a=({"id": "G", "kind": "gun", "teams": [team("g", "gun", gun_size=size)]},))
    t.add(dig(pl="G", die=1))
    g = t.t("g")
    assert (g.dug_in, g.concealed, g.bulletproof_cover, g.dig_ply) == (False, False, False, t.state.ply)


def test_f_dig_14_a_gun_without_a_size_counts_as_medium_and_is_concealed_dug_in():
    t = Table(platoons_a=({"id": "G", "kind": "gun", "teams": [team("g", "gun")]},))
    t.add(dig(pl="G", die=6))
    assert t.t("g").dug_in and t.t("g").concealed and t.t("g").bulletproof_cover


def test_f_dig_12_a_man_packed_aa_gun_is_concealed_dug_in():
    t = Table(platoons_a=({"id": "G", "kind": "gun", "teams": [
        team("g", "gun", gun_size="man_packed", anti_aircraft=True)]},))
    t.add(dig(pl="G", die=6))
    assert t.t("g").dug_in and t.t("g").concealed


def test_f_dig_6_only_the_diggers_count_as_moved_for_rate_of_fire():
    t = tb()
    t.add(dig(die=6, in_water=["a2"]))
    t.refused("F-DIG-6", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(4), d(4)]}))
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4), d(4)]}))


@pytest.mark.parametrize("where", ["in_cover", "in_water"])
def test_f_dig_a_team_of_another_platoon_cannot_be_named_in_a_dig_in(where):
    """F-DIG-8 (in cover), F-DIG-11 (in water): the teams a Dig In names are the platoon's own."""
    t = Table(platoons_a=(INFANTRY_A, {"id": "A2", "kind": "infantry", "teams": [team("b1")]}), platoons_d=(INFANTRY_D,))
    t.refused("S-UNKNOWN", ("dig_in_attempted", {"platoon": "A1", "die": d(6), where: ["b1"]}))
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(6), where: ["a2"]}))


# --- clauses added by the clause audit (docs/rules-audit.md) ------------------------------
def test_f_dig_15_a_dug_in_medium_aa_gun_is_in_cover_but_not_concealed():
    """F-DIG-15: Light *and Medium* Anti-aircraft Gun teams, Dug In, are in Bulletproof Cover but not
    Concealed (F-DIG-14's medium gun is, unless it is an AA gun)."""
    t = Table(platoons_a=({"id": "G", "kind": "gun", "teams": [
        team("gmaa", "gun", gun_size="medium", anti_aircraft=True), team("gm", "gun", gun_size="medium")]},))
    t.add(dig(pl="G", die=6))
    aa, gm = t.t("gmaa"), t.t("gm")
    assert (aa.dug_in, aa.bulletproof_cover, aa.concealed) == (True, True, False)
    assert (gm.dug_in, gm.bulletproof_cover, gm.concealed) == (True, True, True)


def test_f_dig_16_teams_whose_attempt_failed_may_go_to_ground():
    """F-DIG-16: teams that *attempted* to Dig In (the test failed, they are not Dug In) did not move, so they
    may Go to Ground; one of them that shot may not."""
    t = tb()
    t.add(dig(die=1))
    assert not t.t("a1").dug_in and t.t("a1").dig_ply == t.state.ply
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4)]}))
    t.refused("F-DIG-16", ("went_to_ground", {"teams": ["a2"]}))
    t.add(("went_to_ground", {"teams": ["a1"]}))
    assert t.t("a1").gone_to_ground


def test_f_dig_21_three_teams_do_not_take_two_marked_positions():
    """F-DIG-21: A1 had two Dug In teams, so two positions are marked; three distinct teams of the platoon
    cannot all end on them."""
    t = _assaulted()
    t.add(("foxholes_marked", {"platoon": "A1"}))
    assert t.state.platoons["A1"].foxholes == 2
    t.refused("F-DIG-21", ("foxholes_reoccupied", {"platoon": "A1", "teams": ["a1", "a2", "cav"]}))
    t.add(("foxholes_reoccupied", {"platoon": "A1", "teams": ["a1", "cav"]}))
    assert t.t("a1").dug_in and t.t("cav").dug_in and not t.t("a2").dug_in
