"""At the Double (catalog F-DBL, seed 001 p. 51): both sides of every distance, in inches and centimetres."""
from __future__ import annotations

import pytest

from .table import Table, d


def move(tid: str, dist: float, **kw) -> tuple[str, dict]:
    return ("team_moved", {"team": tid, "distance": dist, "at_the_double": True, **kw})


@pytest.mark.parametrize("units,normal,double", [("in", 6, 12), ("cm", 15, 30)])
def test_f_dbl_1_infantry_at_the_double_moves_twice_its_distance_and_no_more(units, normal, double):
    tb = Table(units=units)
    tb.refused("G-F1", ("team_moved", {"team": "a1", "distance": normal + 0.5}))
    tb.refused("F-DBL-1", move("a1", double + 0.5))
    tb.add(move("a1", double))
    assert tb.t("a1").double_ply == tb.state.ply


@pytest.mark.parametrize("units,limit", [("in", 16), ("cm", 40)])
def test_f_dbl_12_is2_moves_8in_20cm_so_16in_40cm_at_the_double(units, limit):
    tb = Table(units=units)
    tb.refused("F-DBL-1", move("is2", limit + 0.1))
    tb.add(move("is2", limit))


@pytest.mark.parametrize("units,limit", [("in", 24), ("cm", 60)])
def test_f_dbl_13_most_tanks_move_12in_30cm_so_24in_60cm_at_the_double(units, limit):
    tb = Table(units=units)
    tb.refused("F-DBL-1", move("t1", limit + 0.1))
    tb.add(move("t1", limit))


def test_f_dbl_2_at_the_double_follows_the_most_direct_route():
    tb = Table()
    tb.refused("F-DBL-2", move("a1", 10, direct_route=False))
    tb.add(move("a1", 10, direct_route=True))


def test_f_dbl_3_turning_only_for_difficult_terrain_a_road_or_the_enemy():
    tb = Table()
    tb.refused("F-DBL-3", move("a1", 10, turned_for=["other"]))
    tb.add(move("a1", 10, turned_for=["difficult_terrain", "road", "enemy"]))


def test_f_dbl_4_ends_facing_the_direction_of_movement():
    tb = Table()
    tb.refused("F-DBL-4", move("a1", 10, facing_travel=False))
    tb.add(move("a1", 10, facing_travel=True))


def test_f_dbl_5_never_through_difficult_terrain():
    tb = Table()
    tb.refused("F-DBL-5", move("a1", 10, difficult_terrain=True))
    tb.add(("team_moved", {"team": "a1", "distance": 5, "difficult_terrain": True}))  # a normal move may


@pytest.mark.parametrize("units,limit", [("in", 8), ("cm", 20)])
def test_f_dbl_6_and_f_dbl_3_not_closer_than_8in_20cm_to_the_enemy(units, limit):
    tb = Table(units=units)
    tb.refused("F-DBL-6", move("a1", 5, closest_enemy=limit - 0.1))
    tb.add(move("a1", 5, closest_enemy=limit))  # "not closer than": exactly the limit is allowed


def test_f_dbl_7_teams_of_a_pinned_down_platoon_cannot_move_at_the_double():
    tb = Table()
    tb.add(("status_set", {"subject": "A1", "status": "pinned"}))
    tb.refused("F-DBL-7", move("a1", 10))
    tb.add(("team_moved", {"team": "a1", "distance": 6}))  # a normal move is not barred by this rule
    tb.add(("status_set", {"subject": "A1", "status": "pinned", "value": False}))
    tb.add(move("a2", 10))


def test_f_dbl_8_a_team_that_moved_at_the_double_may_not_move_shoot_or_assault_again():
    tb = Table()
    tb.add(move("a1", 12))
    tb.refused("F-DBL-8", ("team_moved", {"team": "a1", "distance": 1}))
    tb.refused("F-DBL-8", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(4)]}))
    tb.refused("F-DBL-8", ("assault_launched", {"teams": ["a1"], "against": "D1"}))


def test_f_dbl_9_other_teams_of_the_platoon_are_not_restricted():
    tb = Table()
    tb.add(move("a1", 12))
    tb.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4), d(5)]}))
    tb.add(("assault_launched", {"teams": ["a2"], "against": "D1"}))


def test_f_dbl_8_the_restriction_ends_with_the_turn():
    tb = Table()
    tb.add(move("a1", 12))
    tb.end_turn()
    tb.end_turn()
    tb.add(("team_moved", {"team": "a1", "distance": 6}))


def test_f_dbl_10_shooters_at_a_team_that_moved_at_the_double_roll_twice_the_dice():
    tb = Table()
    tb.add(move("a1", 12))
    tb.end_turn()
    tb.refused("F-DBL-10", ("team_shot", {"shooter": "d1", "target": "a1", "dice": [d(3), d(3)]}))
    tb.add(("team_shot", {"shooter": "d1", "target": "a1", "dice": [d(3)] * 4}))
    tb.refused("G-F1", ("team_shot", {"shooter": "d2", "target": "a2", "dice": [d(3)] * 4}))  # a2 did not double
    tb.add(("team_shot", {"shooter": "d2", "target": "a2", "dice": [d(3)] * 2}))


@pytest.mark.parametrize("kind", ["artillery", "aircraft"])
def test_f_dbl_11_artillery_and_air_attacks_are_not_doubled(kind):
    tb = Table()
    tb.add(move("a1", 12))
    tb.end_turn()
    tb.refused("F-DBL-11", ("team_shot", {"shooter": "d1", "target": "a1", "kind": kind, "dice": [d(3)] * 4}))
    tb.add(("team_shot", {"shooter": "d1", "target": "a1", "kind": kind, "dice": [d(3)] * 2}))
