"""Movement in Buildings (catalog F-BLD, seed 001 pp. 53-54): the refusals and state changes of
``building_move`` that ``tests/engine/fow/test_buildings.py`` leaves open, so that every branch, rule ID
and stored value of ``_check_building_move`` and ``_apply_building_move`` is pinned (issue 11)."""
from __future__ import annotations

import pytest

from .fow.table import d
from .fow.test_buildings import MOVE, OVER, cleared, mv, tb, two_turns


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
    t.add(("team_moved", {"team": "a1", "distance": 2}))
    assert (t.t("a1").building, t.t("a1").opening, t.t("a1").building_ply) == ("", "", -1)
    assert cleared(t)  # it held the door at the start of the Step: Cleared for the rest of it (F-BLD-3)
