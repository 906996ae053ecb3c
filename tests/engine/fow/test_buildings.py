"""Movement in Buildings (catalog F-BLD, seed 001 pp. 53-54): Openings, Cleared and Contested buildings,
the Skill test on 4+ (3 fails) to enter a Contested one, the blocked Opening (only the base's width), moving
through and leaving within 6"/15 cm, both sides of each distance in inches and in centimetres.

F-BLD-2 (``table``: what is an Opening) is the ``building_placed`` event's list of windows, doors and breaches.
"""
from __future__ import annotations

from typing import Any

import pytest

from battles.engine.fow.rules.buildings import is_cleared

from .table import Table, d, team

INF = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2"), team("a3")]}
GUNS = {"id": "G1", "kind": "gun", "teams": [team("gmp", "gun", gun_size="man_packed"),
                                             team("gl", "gun", gun_size="light")]}
TANKS = {"id": "AT", "kind": "tank", "teams": [team("t1", "tank", armoured=True)]}
DEF = {"id": "D1", "kind": "infantry", "teams": [team("d1"), team("d2")]}
HOUSE = {"id": "H", "name": "Mill", "openings": [{"id": "door"}, {"id": "window"}, {"id": "breach"},
                                                  {"id": "attic", "ground_floor": False}]}
MOVE = {"in": 6.0, "cm": 15.0}  # F-BLD-11, F-BLD-17: the normal infantry move
OVER = {"in": 6.1, "cm": 15.1}


def tb(units: str = "in", **house: Any) -> Table:
    t = Table(units=units, platoons_a=(INF, GUNS, TANKS), platoons_d=(DEF,))
    t.add(("building_placed", {**HOUSE, **house}))
    return t


def mv(tid: str, dist: float = 3, **kw: Any) -> tuple[str, dict[str, Any]]:
    return ("building_move", {"team": tid, "building": "H", "distance": dist, **kw})


def two_turns(t: Table) -> None:
    t.end_turn()
    t.end_turn()


def cleared(t: Table, side: str = "attacker") -> bool:
    return is_cleared(t.state, t.state.buildings["H"], side)


def test_f_bld_2_a_building_is_placed_with_its_openings_ground_floor_or_not_and_their_widths():
    t = tb(openings=[{"id": "door"}, {"id": "attic", "ground_floor": False}, {"id": "breach", "width": 4}])
    b = t.state.buildings["H"]
    assert set(b.openings) == {"door", "attic", "breach"}
    assert b.openings["door"].ground_floor and not b.openings["attic"].ground_floor
    assert b.openings["breach"].width == 4 and b.openings["door"].width is None
    t.refused("S-DUPLICATE", ("building_placed", HOUSE))
    t.refused("S-DUPLICATE", ("building_placed", {"id": "H2", "openings": [{"id": "x"}, {"id": "x"}]}))


def test_f_bld_1_teams_enter_and_leave_only_through_openings_never_through_a_wall():
    t = tb(inside=["a1"])
    t.refused("F-BLD-1", mv("a2", enter_by="wall"))  # no such Opening
    t.refused("F-BLD-1", mv("a2"))  # naming no Opening: not in
    t.refused("F-BLD-1", mv("a2", leave_by="door"))  # not inside, nothing to leave
    t.refused("F-BLD-1", mv("a1", leave_by="chimney"))
    t.refused("F-BLD-1", mv("a1", enter_by="door"))  # already inside
    t.refused("F-BLD-1", ("team_moved", {"team": "a1", "distance": 2}))  # a plain move would walk through a wall
    t.add(("team_moved", {"team": "a1", "distance": 0, "pivot_only": True}))  # turning in place is not leaving
    two_turns(t)
    t.add(mv("a1", leave_by="door"))
    assert not t.t("a1").building and "a1" not in t.state.buildings["H"].inside
    t.add(mv("a2", enter_by="window"))  # a1 was inside at the start of the Step: Cleared
    assert "a2" in t.state.buildings["H"].inside


def test_f_bld_1_a_man_packed_gun_inside_leaves_only_through_an_opening_too():
    """F-BLD-1: no team passes through a wall: the Man-packed Gun team inside (F-BLD-16) as the infantry."""
    t = tb(inside=["gmp"])
    t.refused("F-BLD-1", ("team_moved", {"team": "gmp", "distance": 2}))
    t.add(mv("gmp", leave_by="door"))
    assert not t.t("gmp").building


def test_f_bld_1_a_team_inside_one_building_leaves_it_before_entering_another():
    t = tb(inside=["a1"])
    t.add(("building_placed", {"id": "H2", "openings": [{"id": "door"}]}))
    t.refused("F-BLD-1", ("building_move", {"team": "a1", "building": "H2", "distance": 1, "enter_by": "door"}))


def test_f_bld_3_cleared_while_a_friendly_team_is_inside():
    t = tb(inside=["a1"])
    assert cleared(t) and not cleared(t, "defender")
    t.refused("F-BLD-8", mv("a2", enter_by="door", die=d(6)))  # no test for a Cleared building
    t.add(mv("a2", enter_by="door"))
    assert t.state.tests == []


def test_f_bld_3_cleared_by_a_team_touching_an_opening_at_the_start_of_the_step_not_by_one_arriving_in_it():
    t = tb()
    t.add(("team_moved", {"team": "a3", "distance": 1}))
    t.add(mv("a1", ends_at="door"))
    assert t.t("a1").opening == "door" and not cleared(t)  # arrived this Step: not yet
    t.refused("F-BLD-8", mv("a2", enter_by="window"))
    two_turns(t)
    assert cleared(t)  # touching the door at the start of this Step
    t.add(mv("a2", enter_by="window"))
    assert "a2" in t.state.buildings["H"].inside


def test_f_bld_3_a_team_there_at_the_start_of_the_step_keeps_it_cleared_for_the_step_after_it_leaves():
    t = tb()
    t.add(mv("a1", ends_at="door"))
    two_turns(t)
    t.add(("team_moved", {"team": "a1", "distance": 4}))  # walks away from the door
    assert not t.t("a1").building
    t.add(mv("a2", enter_by="window"))  # still Cleared for the rest of the Step
    two_turns(t)
    t.add(mv("a2", leave_by="window"))
    two_turns(t)
    assert not cleared(t)  # nobody inside nor at an Opening at the start of this Step
    t.refused("F-BLD-8", mv("a3", enter_by="door"))


def test_f_bld_4_a_building_can_be_cleared_with_an_enemy_team_inside():
    t = tb(inside=["d1"])
    t.add(mv("a1", ends_at="breach"))
    two_turns(t)
    assert cleared(t) and cleared(t, "defender")
    t.add(mv("a2", enter_by="door"))  # no Skill test despite the enemy inside
    assert set(t.state.buildings["H"].inside) == {"d1", "a2"}


@pytest.mark.parametrize("inside", [[], ["d1"]])
def test_f_bld_5_a_building_not_cleared_is_contested_empty_or_enemy_held(inside):
    t = tb(inside=inside)
    assert not cleared(t)
    t.refused("F-BLD-8", mv("a1", enter_by="door"))  # Contested: the Skill test is required
    t.add(mv("a1", enter_by="door", die=d(4)))
    assert t.state.tests[-1].purpose == "building"


def test_f_bld_5_a_destroyed_team_inside_does_not_clear_it():
    t = tb(inside=["a1"])
    t.add(("status_set", {"subject": "a1", "status": "destroyed"}))
    assert not cleared(t)


def test_f_bld_6_infantry_and_man_packed_guns_enter_a_cleared_building_by_any_ground_floor_opening():
    t = tb(inside=["a1"])
    t.add(mv("a2", enter_by="door"), mv("a3", enter_by="breach"), mv("gmp", enter_by="window"))
    assert {"a2", "a3", "gmp"} <= set(t.state.buildings["H"].inside)


def test_f_bld_6_not_tanks_nor_other_guns_nor_by_an_upper_floor_opening():
    t = tb(inside=["a1"])
    t.refused("F-BLD-6", mv("t1", enter_by="door"))
    t.refused("F-BLD-6", mv("gl", enter_by="door"))
    t.refused("F-BLD-6", mv("a2", enter_by="attic"))
    t.refused("F-BLD-6", ("building_placed", {"id": "H2", "openings": [{"id": "door"}], "inside": ["gl"]}))
    t.add(mv("t1", ends_at="door"))  # a tank may still stand at an Opening
    assert t.t("t1").opening == "door"


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_7_the_move_into_a_building_is_measured_as_in_any_other_terrain(units):
    own = 4.0 if units == "in" else 10.0
    t = Table(units=units, platoons_a=({"id": "A1", "kind": "infantry",
                                        "teams": [team("a1"), team("slow", movement=own)]},))
    t.add(("building_placed", {**HOUSE, "inside": ["a1"]}))
    t.refused("F-BLD-12", mv("slow", own + 0.1, enter_by="door"))  # its own move, not more
    t.add(mv("slow", own, enter_by="door"))
    assert t.t("slow").moved_ply == t.state.ply  # a move like any other (rate of fire, no second action)


def test_f_bld_7_a_building_move_is_a_move_for_the_other_rules_on_moving():
    t = tb(inside=["a1"])
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    t.refused("F-DIG-1", mv("a2", enter_by="door"))
    t2 = tb(inside=["a1"])
    t2.add(("team_moved", {"team": "a2", "distance": 10, "at_the_double": True}))
    t2.refused("F-DBL-8", mv("a2", enter_by="door"))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_11_and_f_bld_12_infantry_enters_a_cleared_building_within_its_normal_6in_15cm(units):
    t = tb(units, inside=["a1"])
    t.refused("F-BLD-12", mv("a2", OVER[units], enter_by="door"))  # not long enough to get fully in
    t.add(mv("a2", MOVE[units], enter_by="door"))
    assert "a2" in t.state.buildings["H"].inside


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_12_a_move_too_short_to_get_fully_into_a_contested_building_is_refused_before_the_test(units):
    t = tb(units)
    t.refused("F-BLD-12", mv("a1", OVER[units], enter_by="door", die=d(6)))
    t.add(mv("a1", MOVE[units], enter_by="door", die=d(6)))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_13_a_team_that_does_not_get_across_stops_inside_where_its_move_ends(units):
    t = tb(units, inside=["a1"])
    t.refused("F-BLD-13", mv("a1", OVER[units]))
    t.add(mv("a1", MOVE[units]))  # across a room, no Opening reached
    assert t.t("a1").building == "H" and not t.t("a1").opening and "a1" in t.state.buildings["H"].inside
    t.refused("F-BLD-1", mv("a2", 3, enter_by="door", ends_at="window"))  # a team that entered ends inside


@pytest.mark.parametrize("skill,die,passed", [(None, 4, True), (None, 3, False), (5, 5, True), (5, 4, False)])
def test_f_bld_8_entering_a_contested_building_takes_a_skill_test_4_plus_or_the_platoons_own(skill, die, passed):
    pl = {**INF, "skill": skill} if skill else INF
    t = Table(platoons_a=(pl,), platoons_d=(DEF,))
    t.add(("building_placed", HOUSE))
    t.add(mv("a1", enter_by="door", die=d(die)))
    rec = t.state.tests[-1]
    assert (rec.kind, rec.subject, rec.purpose, rec.rolls, rec.passed) == ("skill", "a1", "building", [die], passed)
    assert ("a1" in t.state.buildings["H"].inside) is passed


def test_f_bld_8_no_test_through_the_opening_the_team_touched_at_the_start_of_its_move():
    t = tb()
    t.add(mv("a1", ends_at="door"))
    two_turns(t)
    t.refused("F-BLD-8", mv("a1", enter_by="door", die=d(6)))
    t.add(mv("a1", enter_by="door"))
    assert "a1" in t.state.buildings["H"].inside and t.state.tests == []


def test_f_bld_9_a_passed_test_clears_the_building_for_the_rest_of_the_step_and_others_follow():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(4)))
    assert cleared(t)
    t.add(mv("a2", enter_by="window"), mv("gmp", enter_by="door"))  # they follow in, no test
    assert len(t.state.tests) == 1
    t.add(("status_set", {"subject": "a1", "status": "destroyed"}),
          ("status_set", {"subject": "a2", "status": "destroyed"}),
          ("status_set", {"subject": "gmp", "status": "destroyed"}))
    assert cleared(t)  # for the rest of the Step
    two_turns(t)
    assert not cleared(t)  # a new Step: Contested again
    t.refused("F-BLD-8", mv("a3", enter_by="door"))


def test_f_bld_10_a_failed_test_stops_the_team_outside_touching_the_opening_which_it_blocks():
    t = tb()
    t.add(mv("a1", 5, enter_by="door", leave_by="window", die=d(3)))
    a1 = t.t("a1")
    assert (a1.building, a1.opening) == ("H", "door") and "a1" not in t.state.buildings["H"].inside
    assert t.state.buildings["H"].openings["door"].blocked_by == ["a1"]
    assert not cleared(t)
    t.refused("F-BLD-10", mv("a2", enter_by="door", die=d(6)))  # nobody else through that Opening
    t.refused("F-BLD-10", ("team_moved", {"team": "a1", "distance": 1}))  # it stopped there
    t.refused("F-BLD-10", mv("a1", enter_by="window", die=d(6)))


def test_f_bld_10_the_blocker_clears_the_building_next_step_and_frees_the_opening_by_moving():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(1)))
    two_turns(t)
    assert cleared(t)  # it touched the door at the start of the Step (F-BLD-3)
    t.add(mv("a1", enter_by="door"))
    assert "a1" in t.state.buildings["H"].inside
    assert t.state.buildings["H"].openings["door"].blocked_by == []
    t.add(mv("a2", enter_by="door"))


def test_f_bld_10_a_blocker_that_moves_away_or_assaults_no_longer_blocks():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(1)), mv("a2", enter_by="window", die=d(2)))
    two_turns(t)
    t.add(("team_moved", {"team": "a1", "distance": 2}))
    t.add(("assault_launched", {"teams": ["a2"], "against": "D1"}))
    doors = t.state.buildings["H"].openings
    assert doors["door"].blocked_by == [] and doors["window"].blocked_by == []
    assert not t.t("a1").building and not t.t("a2").building


def test_f_bld_10_a_destroyed_blocker_blocks_no_more():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(1)))
    t.add(("status_set", {"subject": "a1", "status": "destroyed"}))
    t.add(mv("a2", enter_by="door", die=d(5)))


def test_f_bld_14_with_one_opening_blocked_others_may_still_try_other_openings():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(2)))
    t.add(mv("a2", enter_by="window", die=d(3)))  # tries and fails too: the window is blocked now
    t.add(mv("a3", enter_by="breach", die=d(4)))
    assert "a3" in t.state.buildings["H"].inside and cleared(t)
    t.refused("F-BLD-10", mv("gmp", enter_by="door"))  # Cleared now, but the door is still blocked
    t.add(mv("gmp", enter_by="breach"))  # follows a3, no test


@pytest.mark.parametrize("units,width,base", [("in", 4.0, 2.0), ("cm", 10.0, 5.0)])
def test_f_bld_15_a_wide_opening_is_blocked_only_for_the_blockers_base_width(units, width, base):
    t = tb(units, openings=[{"id": "gate", "width": width}, {"id": "door"}])
    t.add(mv("a1", enter_by="gate", die=d(3), base_width=base))
    assert t.state.buildings["H"].openings["gate"].block_widths == {"a1": base}
    t.refused("F-BLD-15", mv("a2", enter_by="gate", die=d(6), base_width=base + 0.1))  # does not fit
    t.refused("F-BLD-10", mv("a2", enter_by="gate", die=d(6)))  # its base unknown: blocked
    t.add(mv("a2", enter_by="gate", die=d(3), base_width=base))  # tries the free part, fails, blocks the rest
    t.refused("F-BLD-15", mv("a3", enter_by="gate", die=d(6), base_width=0.1))


def test_f_bld_15_an_opening_no_wider_than_a_base_is_blocked_whole():
    t = tb(openings=[{"id": "door"}])
    t.add(mv("a1", enter_by="door", die=d(3), base_width=1))
    t.refused("F-BLD-10", mv("a2", enter_by="door", die=d(6), base_width=0.5))


def test_f_bld_15_a_successful_wide_entry_beside_a_blocker():
    t = tb(openings=[{"id": "gate", "width": 4}])
    t.add(mv("a1", enter_by="gate", die=d(3), base_width=2))
    t.add(mv("a2", enter_by="gate", die=d(4), base_width=2))
    assert "a2" in t.state.buildings["H"].inside


def test_f_bld_16_infantry_and_man_packed_guns_move_through_and_leave_by_ground_floor_openings():
    t = tb(inside=["a1", "gmp"])
    t.refused("F-BLD-16", mv("a1", leave_by="attic"))
    t.add(mv("a1", leave_by="door"), mv("gmp", leave_by="breach", ends_at="breach"))
    assert not t.t("a1").building
    assert (t.t("gmp").building, t.t("gmp").opening) == ("H", "breach")  # outside, at the breach


def test_f_bld_16_only_infantry_and_man_packed_guns_move_through_a_building():
    t = tb(inside=["a1"])
    t.refused("F-BLD-6", mv("t1", 6, enter_by="door", leave_by="window"))
    t.refused("F-BLD-6", mv("gl", 6, enter_by="door", leave_by="window"))
    t.add(mv("gmp", 6, enter_by="door", leave_by="window"))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_17_a_team_leaves_a_cleared_building_moving_its_normal_6in_15cm(units):
    t = tb(units, inside=["a1"])
    t.refused("F-BLD-17", mv("a1", OVER[units], leave_by="door"))
    t.add(mv("a1", MOVE[units], leave_by="door"))
    assert not t.t("a1").building


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_18_a_team_passes_through_a_cleared_building_if_its_move_allows(units):
    t = tb(units, inside=["a1"])
    t.refused("F-BLD-18", mv("a2", OVER[units], enter_by="door", leave_by="window"))
    t.add(mv("a2", MOVE[units], enter_by="door", leave_by="window"))
    assert not t.t("a2").building and "a2" not in t.state.buildings["H"].inside


def test_f_bld_18_passing_through_a_contested_building_takes_the_test_at_the_way_in():
    t = tb()
    t.add(mv("a1", 6, enter_by="door", leave_by="window", die=d(4)))
    assert not t.t("a1").building and cleared(t)  # through, and the building Cleared for the Step


def test_building_moves_are_recorded_by_the_teams_side_in_its_turn():
    t = tb()
    t.refused("S-TURN", mv("d1", enter_by="door", die=d(4)))
    t.refused("S-UNKNOWN", ("building_move", {"team": "a1", "building": "nope", "distance": 1, "ends_at": "x"}))


def test_a_projection_with_buildings_reloads_and_refolds_identically():
    from battles import engine
    from battles.engine.state import dump

    t = tb(openings=[{"id": "gate", "width": 4}, {"id": "door"}], inside=["d1"])
    t.add(mv("a1", enter_by="gate", die=d(3), base_width=2), mv("a2", enter_by="door", die=d(5)))
    assert dump(t.state.copy()) == dump(t.state)
    assert dump(engine.fold(t.events, ruleset="fow")) == dump(t.state)


# --- every refusal and stored value of ``building_move`` (``_check_building_move``, ``_apply_building_move``) ---


def test_s_unknown_and_s_dead_a_building_move_is_a_live_teams():
    t = tb()
    t.refused("S-UNKNOWN", mv("ghost", enter_by="door", die=d(4)))
    t.add(("status_set", {"subject": "a1", "status": "destroyed"}))
    t.refused("S-DEAD", mv("a1", enter_by="door", die=d(4)))


def test_f_bld_1_an_opening_the_move_ends_at_must_exist():
    t = tb()
    t.refused("F-BLD-1", mv("a1", ends_at="chimney"))
    t.add(mv("a1", ends_at="window"))
    a1 = t.t("a1")
    assert (a1.building, a1.opening, a1.building_ply) == ("H", "window", t.state.ply)
    assert "a1" not in t.state.buildings["H"].inside


def test_f_bld_1_a_team_inside_ends_inside_unless_it_leaves():
    t = tb(inside=["a1"])
    t.refused("F-BLD-1", mv("a1", ends_at="door"))  # inside: it leaves by an Opening first
    t.add(mv("a1", leave_by="door", ends_at="door"))
    assert (t.t("a1").building, t.t("a1").opening) == ("H", "door")


def test_f_bld_1_a_team_at_another_buildings_opening_may_go_to_this_one():
    t = tb()
    t.add(("building_placed", {"id": "H2", "openings": [{"id": "gate"}]}))
    t.add(("building_move", {"team": "a1", "building": "H2", "distance": 1, "ends_at": "gate"}))
    two_turns(t)
    t.add(mv("a1", enter_by="door", die=d(4)))
    assert t.t("a1").building == "H" and "a1" in t.state.buildings["H"].inside


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_13_a_move_up_to_an_opening_from_outside_is_within_the_normal_move_too(units):
    t = tb(units)
    t.refused("F-BLD-13", mv("a1", OVER[units], ends_at="door"))
    exc = t.refused("F-BLD-13", mv("a1", OVER[units] + 1, ends_at="door"))
    unit = '"' if units == "in" else " cm"
    assert f"at most {MOVE[units]:g}{unit}" in exc.message_en
    t.add(mv("a1", MOVE[units], ends_at="door"))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_bld_12_17_18_the_refusal_names_the_normal_move_in_the_battles_units(units):
    t = tb(units, inside=["a1"])
    unit = '"' if units == "in" else " cm"
    limit = f"{MOVE[units]:g}{unit}"
    assert limit in t.refused("F-BLD-12", mv("a2", OVER[units], enter_by="door")).message_en
    assert limit in t.refused("F-BLD-17", mv("a1", OVER[units], leave_by="door")).message_en
    assert limit in t.refused("F-BLD-18", mv("a2", OVER[units], enter_by="door", leave_by="window")).message_en


def test_f_bld_8_no_skill_test_entering_a_cleared_building_nor_leaving_nor_walking_up_to_it():
    t = tb(inside=["a1"])
    t.refused("F-BLD-8", mv("a2", enter_by="door", die=d(4)))
    t.refused("F-BLD-8", mv("a1", leave_by="door", die=d(4)))
    t.refused("F-BLD-8", mv("a3", ends_at="door", die=d(4)))
    t.add(mv("a2", enter_by="door"))
    assert t.state.tests == []


def test_f_bld_8_a_test_is_needed_by_the_defender_too_where_only_the_attacker_cleared():
    t = tb(inside=["a1"])
    t.end_turn()
    t.refused("F-BLD-8", mv("d1", enter_by="door"))
    t.add(mv("d1", enter_by="door", die=d(4)))
    assert "d1" in t.state.buildings["H"].inside and cleared(t) and cleared(t, "defender")  # F-BLD-4


def test_f_bld_9_a_passed_test_marks_the_building_cleared_for_the_side_this_step():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(4)))
    b = t.state.buildings["H"]
    assert (b.cleared_for, b.cleared_ply, b.inside) == (["attacker"], t.state.ply, ["a1"])
    assert (t.t("a1").building, t.t("a1").opening, t.t("a1").building_ply) == ("H", "", t.state.ply)
    rec = t.state.tests[-1]
    assert rec.seq == t.state.last_seq


def test_f_bld_10_a_failed_test_records_the_test_and_blocks_without_clearing():
    t = tb()
    t.add(mv("a1", enter_by="door", die=d(3)))
    b = t.state.buildings["H"]
    assert (b.cleared_for, b.inside, b.openings["door"].blocked_by) == ([], [], ["a1"])
    assert (t.t("a1").building, t.t("a1").opening, t.t("a1").building_ply) == ("H", "door", t.state.ply)
    rec = t.state.tests[-1]
    assert (rec.passed, rec.rolls, rec.seq) == (False, [3], t.state.last_seq)


@pytest.mark.parametrize("width,base,blocked", [(None, 1.0, 0.0), (4.0, None, 4.0), (4.0, 1.5, 1.5)])
def test_f_bld_15_a_failed_blocker_blocks_its_base_width_only_where_both_widths_are_known(width, base, blocked):
    opening = {"id": "gate"} if width is None else {"id": "gate", "width": width}
    t = tb(openings=[opening])
    step = {"enter_by": "gate", "die": d(1)}
    if base is not None:
        step["base_width"] = base
    t.add(mv("a1", **step))
    assert t.state.buildings["H"].openings["gate"].block_widths == {"a1": blocked}


@pytest.mark.parametrize("units,width", [("in", 4.0), ("cm", 10.0)])
def test_f_bld_15_the_refusal_names_the_free_part_of_the_opening(units, width):
    t = tb(units, openings=[{"id": "gate", "width": width}])
    t.add(mv("a1", enter_by="gate", die=d(1), base_width=width / 4))
    exc = t.refused("F-BLD-15", mv("a2", enter_by="gate", die=d(6), base_width=width))
    unit = '"' if units == "in" else " cm"
    assert f"is {width * 3 / 4:g}{unit}" in exc.message_en and "'gate'" in exc.message_en


def test_f_bld_15_two_blockers_leave_only_what_is_left_between_them():
    t = tb(openings=[{"id": "gate", "width": 5}])
    t.add(mv("a1", enter_by="gate", die=d(1), base_width=2), mv("a2", enter_by="gate", die=d(1), base_width=2))
    t.refused("F-BLD-15", mv("a3", enter_by="gate", die=d(6), base_width=1.1))
    t.add(mv("a3", enter_by="gate", die=d(6), base_width=1))
    assert "a3" in t.state.buildings["H"].inside


def test_f_bld_16_a_team_passing_through_ends_outside_at_the_opening_it_names():
    t = tb(inside=["a1"])
    t.add(mv("a2", 5, enter_by="door", leave_by="window", ends_at="window"))
    a2 = t.t("a2")
    assert (a2.building, a2.opening) == ("H", "window") and "a2" not in t.state.buildings["H"].inside
    t.add(mv("a3", 5, enter_by="door", leave_by="window"))
    assert (t.t("a3").building, t.t("a3").opening, t.t("a3").building_ply) == ("", "", -1)


def test_f_bld_13_a_move_inside_keeps_the_team_inside_once():
    t = tb(inside=["a1"])
    t.add(mv("a1", 2))
    assert t.state.buildings["H"].inside == ["a1"]
    assert (t.t("a1").building, t.t("a1").building_ply, t.t("a1").moved_ply) == ("H", t.state.ply, t.state.ply)


# --- building_placed and the shared actions (F-BLD-1..3, F-BLD-6, F-BLD-10) --------------------------------
def test_f_bld_2_a_placed_building_keeps_its_name_openings_and_the_teams_deployed_inside():
    t = tb(inside=["a1", "gmp"])
    b = t.state.buildings["H"]
    assert (b.id, b.name, b.inside, b.cleared_for) == ("H", "Mill", ["a1", "gmp"], [])
    assert [(o.id, o.ground_floor, o.width, o.blocked_by) for o in b.openings.values()] == [
        ("door", True, None, []), ("window", True, None, []), ("breach", True, None, []), ("attic", False, None, [])]
    a1 = t.t("a1")
    assert (a1.building, a1.opening, a1.building_ply) == ("H", "", -1)  # held since before the first Step
    t.refused("S-UNKNOWN", ("building_placed", {"id": "H3", "openings": [{"id": "door"}], "inside": ["ghost"]}))
    t.refused("S-DUPLICATE", ("building_placed", {"id": "H3", "openings": [{"id": "door"}], "inside": ["a1"]}))


def test_f_bld_1_an_assault_from_inside_leaves_the_team_inside_but_one_at_an_opening_steps_away():
    t = tb(inside=["a1"])
    t.add(mv("a2", ends_at="door"))
    two_turns(t)
    t.add(("assault_launched", {"teams": ["a1", "a2"], "against": "D1"}))
    assert (t.t("a1").building, t.t("a1").opening) == ("H", "")
    assert (t.t("a2").building, t.t("a2").opening) == ("", "")
    assert cleared(t)  # a1 inside; a2 was at the door since before the Step (F-BLD-3)


def test_f_bld_10_a_plain_move_of_a_team_standing_at_an_opening_takes_it_away():
    t = tb()
    t.add(mv("a1", ends_at="door"))
    two_turns(t)
    t.add(("team_moved", {"team": "a1", "distance": 0, "pivot_only": True}))
    assert t.t("a1").opening == "door"  # pivoting in place keeps its place
    two_turns(t)
    t.add(("team_moved", {"team": "a1", "distance": 2}))
    assert (t.t("a1").building, t.t("a1").opening, t.t("a1").building_ply) == ("", "", -1)
    assert cleared(t)  # it held the door at the start of the Step: Cleared for the rest of it (F-BLD-3)


def test_f_bld_a_team_already_at_one_building_is_not_placed_in_another():
    """F-BLD (buildings): a team is at one building at a time."""
    t = Table()
    t.add(("building_placed", {"id": "H1", "openings": [{"id": "door"}], "inside": ["a1"]}))
    t.refused("S-DUPLICATE", ("building_placed", {"id": "H2", "openings": [{"id": "door"}], "inside": ["a1"]}))
    t.add(("building_placed", {"id": "H2", "openings": [{"id": "door"}], "inside": ["a2"]}))


@pytest.mark.parametrize("opening_width", [None, 2.0])
@pytest.mark.parametrize("blocker_base", [None, 2.0])
@pytest.mark.parametrize("entrant_base", [None, 1.0, 2.0])
def test_f_bld_10_an_opening_one_base_wide_filled_by_the_blocker_is_refused_f_bld_10_with_or_without_widths(
        opening_width, blocker_base, entrant_base):
    """F-BLD-15 applies only where the Opening is wider than the blocker's base; a base that fills
    it (or whose width is not given) blocks it whole, F-BLD-10, whichever optional widths were entered."""
    opening = {"id": "door"} if opening_width is None else {"id": "door", "width": opening_width}
    t = tb(openings=[opening])
    first: dict[str, Any] = {"enter_by": "door", "die": d(1)}
    if blocker_base is not None:
        first["base_width"] = blocker_base
    t.add(mv("a1", **first))
    second: dict[str, Any] = {"enter_by": "door", "die": d(6)}
    if entrant_base is not None:
        second["base_width"] = entrant_base
    t.refused("F-BLD-10", mv("a2", **second))


def test_f_bld_15_two_blockers_narrower_than_the_opening_that_fill_it_between_them_are_f_bld_15():
    """Each blocks only its own base (F-BLD-15): the refusal names the free part left, none."""
    t = tb(openings=[{"id": "gate", "width": 4}])
    t.add(mv("a1", enter_by="gate", die=d(1), base_width=2), mv("a2", enter_by="gate", die=d(1), base_width=2))
    exc = t.refused("F-BLD-15", mv("a3", enter_by="gate", die=d(6), base_width=1))
    assert 'is 0"' in exc.message_en


def test_f_bld_8_walking_up_to_the_opening_and_going_in_is_not_two_moves_of_one_movement_step():
    """F-BLD-8 (issue 28): the test is due through an Opening the team was not touching at the start of its
    move. Recorded as two moves, 6" up to the door then 6" in, it went in with no test and 12" in all; a team
    moves once in its Movement Step (G-F1 reading), so the second part is refused, die or no die."""
    t = tb()
    t.add(mv("a1", 6, ends_at="door"))
    t.refused("G-F1", mv("a1", 6, enter_by="door"))
    t.refused("G-F1", mv("a1", 1, enter_by="door", die=d(4)))
    t.refused("G-F1", mv("a1", 2, ends_at="window"))
    assert "a1" not in t.state.buildings["H"].inside and t.state.tests == []


def test_f_bld_8_the_start_of_the_move_is_the_start_of_this_steps_move_not_an_earlier_steps():
    t = tb()
    t.add(mv("a1", 2, ends_at="window"))
    two_turns(t)  # a new Movement Step: it starts touching the window
    t.add(mv("a1", 1, enter_by="window"))
    assert "a1" in t.state.buildings["H"].inside and t.state.tests == []
