"""The railway line (F-TRAIN-1..13): laid in its four steps by the right players, bridged over rivers and
around hills and buildings, only at the start, once per player, and the trains set on it."""
from __future__ import annotations

import pytest

from .table import Table, team
from .trains_helpers import edges, enter, laid, lay, move, on_table, point, table

EDGES = {"north_south": ("north", "south"), "east_west": ("east", "west")}


OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


# --- laying the line (table rows with a checkable order) ------------------------------------
def test_f_train_4_to_7_the_line_is_laid_in_its_four_steps_by_the_right_players():
    tb = table()
    tb.refused("F-TRAIN-4", edges("defender"))  # the defender has no train (F-TRAIN-4)
    tb.refused("F-TRAIN-4", point("defender", "west"))  # edges first
    tb.add(edges("attacker", "east_west"))
    tb.refused("F-TRAIN-5", point("attacker", "west"))  # the opponent picks the first point
    tb.refused("F-TRAIN-5", point("defender", "north"))  # ... on one of the two chosen edges
    tb.refused("F-TRAIN-7", laid())  # no line before both points
    tb.add(point("defender", "west", 12))
    tb.refused("F-TRAIN-6", point("defender", "east"))  # the train's player picks the second point
    tb.refused("F-TRAIN-6", point("attacker", "west"))  # ... on the opposite edge
    tb.add(point("attacker", "east", 30))
    tb.refused("F-TRAIN-7", point("attacker", "east"))
    tb.add(laid(length=72, bridges=1, buildings_moved=["Мельница"]))
    line = tb.state.railway_lines["attacker"]
    assert (line.edges, line.opponent_edge, line.opponent_point, line.own_edge, line.own_point) == (
        "east_west", "west", 12, "east", 30)
    assert line.laid and line.length == 72 and tb.state.trains["BP"].line == "attacker"


def test_f_train_2_the_tables_own_line_is_used_without_the_steps():
    tb = table()
    tb.add(laid(existing=True, length=60))
    assert tb.state.railway_lines["attacker"].existing and tb.state.railway_lines["attacker"].laid
    tb.refused("F-TRAIN-12", edges())  # and it is his one line


def test_f_train_3_the_line_is_placed_at_the_start_before_anything_happens():
    tb = table()
    tb.add(("team_moved", {"team": "a1", "distance": 3}))
    tb.refused("F-TRAIN-3", edges())
    tb.refused("F-TRAIN-3", laid(existing=True))


def test_f_train_8_and_f_train_9_rivers_are_bridged_and_woods_crossed():
    tb = table()
    tb.add(edges(), point("defender", "west"), point("attacker", "east"), laid(length=48, bridges=2))
    assert tb.state.railway_lines["attacker"].bridges == 2


def test_f_train_10_buildings_are_moved_aside_never_left_on_the_line():
    tb = table()
    tb.add(edges(), point("defender", "west"), point("attacker", "east"))
    tb.refused("F-TRAIN-10", laid(through_buildings=True))
    tb.add(laid(buildings_moved=["Станция"]))
    assert tb.state.railway_lines["attacker"].buildings_moved == ["Станция"]


def test_f_train_11_the_line_bends_around_hills():
    tb = table()
    tb.add(edges(), point("defender", "west"), point("attacker", "east"))
    tb.refused("F-TRAIN-11", laid(through_hills=True))
    tb.add(laid(through_hills=False))


def test_f_train_12_both_players_lay_lines_the_attacker_first():
    tb = table(defender_train=True)
    tb.refused("F-TRAIN-12", edges("defender"))
    tb.refused("F-TRAIN-12", laid("defender", existing=True))
    tb.add(edges("attacker"))
    tb.refused("F-TRAIN-12", edges("attacker"))  # one line per player, one at a time
    tb.add(point("defender", "west"), point("attacker", "east"), laid("attacker"))
    tb.refused("F-TRAIN-12", edges("attacker"))
    lay(tb, "defender")
    assert set(tb.state.railway_lines) == {"attacker", "defender"}
    assert tb.state.trains["DBP"].line == "defender" and tb.state.trains["BP"].line == "attacker"


# --- deployment ---------------------------------------------------------------------------------
def test_f_train_1_no_railway_line_no_train():
    tb = table()
    tb.refused("F-TRAIN-1", enter(10))
    lay(tb)
    tb.add(enter(10))


def test_f_train_12_a_railway_line_once_laid_is_not_laid_again():
    tb = table()
    lay(tb)
    tb.refused("F-TRAIN-12", laid("attacker", length=48))


def test_f_train_13_a_train_stays_on_its_own_players_line():
    tb = table(defender_train=True)
    lay(tb, "attacker")
    tb.end_turn()  # the defender's first turn: only the attacker's line is on the table
    tb.refused("F-TRAIN-13", enter(10, train="DBP"))


def test_f_train_1_a_train_leaving_its_railway_line_is_refused():
    tb = on_table()
    tb.refused("F-TRAIN-1", move(4, off_line=True))
    tb.refused("F-TRAIN-1", ("team_moved", {"team": "loco", "distance": 4}))  # the locomotive moving freely
    tb.refused("F-TRAIN-1", ("team_moved", {"team": "loco", "distance": 0, "pivot_only": True}))
    assert tb.state.trains["BP"].position == 10 and tb.t("loco").moved_ply != tb.state.ply
    tb.add(move(4, off_line=False))
    assert tb.state.trains["BP"].position == 14


# --- every branch, threshold and rule ID of ``fow/rules/trains.py``'s checks and mutators ---------------










# --- laying the line: F-TRAIN-4..7, F-TRAIN-12 ------------------------------------------------------
@pytest.mark.parametrize("pair", ["north_south", "east_west"])
def test_f_train_5_and_6_the_points_are_on_the_chosen_edges_the_second_opposite_the_first(pair):
    for first in EDGES[pair]:
        tb = table()
        tb.add(edges("attacker", pair))
        for wrong in {"north", "south", "east", "west"} - set(EDGES[pair]):
            tb.refused("F-TRAIN-5", point("defender", wrong))
        tb.add(point("defender", first, 7.5))
        for wrong in {"north", "south", "east", "west"} - {OPPOSITE[first]}:
            tb.refused("F-TRAIN-6", point("attacker", wrong))
        tb.add(point("attacker", OPPOSITE[first], 3))
        line = tb.state.railway_lines["attacker"]
        assert (line.edges, line.opponent_edge, line.opponent_point, line.own_edge, line.own_point, line.laid) == (
            pair, first, 7.5, OPPOSITE[first], 3, False)


def test_f_train_4_the_edges_name_the_line_of_the_player_with_the_train_and_set_his_trains_line():
    tb = table(defender_train=True)
    tb.add(edges("attacker", "north_south"))
    line = tb.state.railway_lines["attacker"]
    assert (line.id, line.side, line.edges, line.opponent_point, line.own_point) == (
        "attacker", "attacker", "north_south", None, None)
    assert tb.state.trains["BP"].line == "attacker" and tb.state.trains["DBP"].line == ""


def test_f_train_4_no_point_before_the_edges_and_f_train_12_no_new_edges_while_a_line_is_being_laid():
    tb = table(defender_train=True)
    tb.refused("F-TRAIN-4", point("defender", "west"))
    tb.add(edges("attacker"), point("defender", "west"), point("attacker", "east"), laid("attacker", length=30))
    tb.add(edges("defender", "north_south"))
    tb.refused("F-TRAIN-12", edges("attacker"))  # the attacker's is laid
    tb.refused("F-TRAIN-5", point("defender", "north"))  # the defender's line: the attacker picks first
    tb.add(point("attacker", "north", 4), point("defender", "south", 6))
    line = tb.state.railway_lines["defender"]
    assert (line.opponent_edge, line.opponent_point, line.own_edge, line.own_point) == ("north", 4, "south", 6)


def test_f_train_12_the_defender_lays_first_when_only_he_has_a_train():
    tb = Table(platoons_d=({"id": "DBP", "kind": "armoured_train",
                            "teams": [team("dloco", "train", armoured=True, locomotive=True)]},
                           {"id": "D1", "kind": "infantry", "teams": [team("d1")]}))
    tb.refused("F-TRAIN-4", edges("attacker"))
    tb.add(edges("defender"), point("attacker", "east"), point("defender", "west"), laid("defender", length=40))
    assert tb.state.railway_lines["defender"].laid and tb.state.trains["DBP"].line == "defender"


def test_f_train_12_the_defender_waits_while_the_attackers_line_is_only_being_laid():
    tb = table(defender_train=True)
    tb.add(edges("attacker"), point("defender", "west"))
    tb.refused("F-TRAIN-12", edges("defender"))
    tb.refused("F-TRAIN-12", laid("defender", existing=True))
    tb.add(point("attacker", "east"), laid("attacker"))
    tb.add(laid("defender", existing=True, length=50))
    assert tb.state.railway_lines["defender"].existing


@pytest.mark.parametrize("done", [0, 1])
def test_f_train_7_the_line_is_laid_only_once_both_points_are_chosen(done):
    tb = table()
    tb.refused("F-TRAIN-7", laid())  # not even the edges
    tb.add(edges())
    steps = [point("defender", "west"), point("attacker", "east")][:done]
    for s in steps:
        tb.add(s)
    tb.refused("F-TRAIN-7", laid())


def test_f_train_2_the_tables_own_line_is_named_only_by_a_player_with_a_train_and_not_mid_steps():
    tb = table()
    tb.refused("F-TRAIN-4", laid("defender", existing=True))
    tb.add(edges())
    tb.refused("F-TRAIN-2", laid(existing=True))
    tb2 = table()
    tb2.add(laid(existing=True))
    tb2.refused("F-TRAIN-12", laid(existing=True))  # his one line is laid


@pytest.mark.parametrize("existing", [False, True])
def test_f_train_10_and_11_neither_over_hills_nor_through_buildings_either_way_of_laying(existing):
    def ready() -> Table:
        tb = table()
        if not existing:
            tb.add(edges(), point("defender", "west"), point("attacker", "east"))
        return tb

    tb = ready()
    tb.refused("F-TRAIN-11", laid(existing=existing, through_hills=True, through_buildings=True))
    tb.refused("F-TRAIN-10", laid(existing=existing, through_buildings=True))
    tb.add(laid(existing=existing, length=33, crosses_deployment_area=False, bridges=3, buildings_moved=["A", "B"]))
    line = tb.state.railway_lines["attacker"]
    assert (line.laid, line.existing, line.length, line.crosses_deployment_area, line.bridges,
            line.buildings_moved) == (True, existing, 33, False, 3, ["A", "B"])
    assert tb.state.trains["BP"].line == "attacker"


def test_f_train_13_laying_a_line_sets_only_that_players_trains_on_it():
    tb = table(defender_train=True)
    tb.add(laid("attacker", existing=True, length=40))
    assert (tb.state.trains["BP"].line, tb.state.trains["DBP"].line) == ("attacker", "")
    assert tb.state.railway_lines["attacker"].side == "attacker"


@pytest.mark.parametrize("action", ["turn", "shot", "assault", "dig"])
def test_f_train_3_no_line_once_a_turn_has_passed_or_any_team_shot_assaulted_or_dug(action):
    tb = table()
    if action == "turn":
        tb.end_turn()
    elif action == "shot":
        tb.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [{"value": 1, "source": "entered"}] * 2}))
    elif action == "assault":
        tb.add(("assault_launched", {"teams": ["a1"], "against": "D1"}))
    else:
        tb.add(("dig_in_attempted", {"platoon": "A1", "die": {"value": 1, "source": "entered"}}))
    tb.refused("F-TRAIN-3", edges())
    tb.refused("F-TRAIN-3", laid(existing=True))


def test_f_train_3_no_second_line_once_a_train_is_on_the_table():
    tb = table(defender_train=True)
    lay(tb, "attacker")
    tb.add(enter(10))
    tb.refused("F-TRAIN-3", edges("defender"))


def test_s_ended_no_line_is_laid_once_the_battle_has_ended():
    tb = table()
    tb.add(edges(), point("defender", "west"), point("attacker", "east"))
    tb.add(("battle_ended", {"winner": "draw"}))
    tb.refused("S-ENDED", laid())
    tb.refused("S-ENDED", ("train_held_back", {"train": "BP", "held_in": "reserve"}))


def test_f_train_1_a_line_only_partly_laid_is_no_line_yet():
    tb = table()
    tb.add(edges(), point("defender", "west"), point("attacker", "east"))
    tb.refused("F-TRAIN-1", enter(10))
    tb.add(laid(length=48))
    tb.add(enter(10))


def test_f_train_12_the_second_players_line_is_finished_before_its_edges_are_chosen_again():
    tb = table(defender_train=True)
    lay(tb, "attacker")
    tb.add(edges("defender", "north_south"))
    tb.refused("F-TRAIN-12", edges("defender", "east_west"))
    assert tb.state.railway_lines["defender"].edges == "north_south"
