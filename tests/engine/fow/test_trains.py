"""Armoured trains (catalog F-TRAIN, seed 000 pp. 206–208): laying the line in
its order, entering, moving 16"/40 cm, leaving, wrecks and Tank Support
Platoons; both sides of every distance, in inches and centimetres."""
from __future__ import annotations

import pytest

from .table import Table, d, team

BRONE = {"id": "BP", "kind": "armoured_train", "escorts": ["TS"],
         "teams": [team("loco", "train", armoured=True, locomotive=True), team("w1", "train", armoured=True),
                   team("w2", "train", armoured=True)]}
ESCORT = {"id": "TS", "kind": "tank", "teams": [team("ts1", "tank", armoured=True), team("ts2", "tank", armoured=True)]}
RIFLES = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2")]}
D_TRAIN = {"id": "DBP", "kind": "armoured_train",
           "teams": [team("dloco", "train", armoured=True, locomotive=True), team("dw1", "train", armoured=True)]}
D_TANKS = {"id": "DT", "kind": "tank", "teams": [team("dt1", "tank", armoured=True)]}


def table(units: str = "in", *, defender_train: bool = False, reserve: bool = False) -> Table:
    brone = {**BRONE, "reserve": reserve}
    dd = (D_TRAIN, D_TANKS, {"id": "D1", "kind": "infantry", "teams": [team("d1")]}) if defender_train else (
        D_TANKS, {"id": "D1", "kind": "infantry", "teams": [team("d1")]})
    return Table(units=units, platoons_a=(brone, ESCORT, RIFLES), platoons_d=dd)


def edges(side: str = "attacker", pair: str = "east_west") -> tuple[str, dict]:
    return ("railway_edges_chosen", {"side": side, "edges": pair})


def point(side: str, edge: str, pos: float = 20) -> tuple[str, dict]:
    return ("railway_point_chosen", {"side": side, "edge": edge, "position": pos})


def laid(side: str = "attacker", **kw) -> tuple[str, dict]:
    return ("railway_line_laid", {"side": side, **kw})


def lay(tb: Table, side: str = "attacker", length: float = 48, **kw) -> None:
    foe = "defender" if side == "attacker" else "attacker"
    tb.add(edges(side), point(foe, "west"), point(side, "east"), laid(side, length=length, **kw))


def enter(dist: float, length: float = 10, train: str = "BP", **kw) -> tuple[str, dict]:
    return ("train_entered", {"train": train, "distance": dist, "train_length": length, **kw})


def move(dist: float, direction: str = "forward", **kw) -> tuple[str, dict]:
    return ("train_moved", {"train": "BP", "distance": dist, "direction": direction, **kw})


def next_own_turn(tb: Table) -> None:
    tb.end_turn()
    tb.end_turn()


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


def test_no_railway_step_once_the_battle_has_ended():
    """S-ENDED: choosing the line's edges and points is over with the battle (F-TRAIN-4, F-TRAIN-5)."""
    tb = table()
    tb.add(("battle_ended", {"winner": "draw"}))
    tb.refused("S-ENDED", edges())
    tb.refused("S-ENDED", point("defender", "west"))


def test_f_train_13_a_train_stays_on_its_own_players_line():
    tb = table(defender_train=True)
    lay(tb, "attacker")
    tb.end_turn()  # the defender's first turn: only the attacker's line is on the table
    tb.refused("F-TRAIN-13", enter(10, train="DBP"))


def test_f_train_14_off_the_table_until_its_first_movement_step_then_never_late():
    tb = table()
    lay(tb)
    tb.refused("F-TRAIN-14", ("team_shot", {"shooter": "w1", "target": "d1", "dice": [d(4), d(4)]}))
    tb.refused("F-TRAIN-14", ("team_moved", {"team": "ts1", "distance": 5}))  # its escorts arrive with it
    tb.refused("F-TRAIN-14", move(5))
    next_own_turn(tb)
    tb.refused("F-TRAIN-14", enter(10))  # missed its first Movement Step and not in Reserve


def test_f_train_14_and_25_an_escort_does_not_leave_a_train_that_has_not_entered():
    """F-TRAIN-14: the Tank Support Platoon arrives with its train; before the train enters, leaving
    it (F-TRAIN-25) is refused as the train's absence, F-TRAIN-14, not as having left (F-TRAIN-22)."""
    tb = table()
    lay(tb)
    tb.refused("F-TRAIN-14", ("escort_left_train", {"platoon": "TS", "distance": 1}))


def test_f_train_14_entering_puts_the_train_on_the_table_at_its_first_turn():
    tb = table()
    lay(tb)
    tb.add(enter(12, 10))
    tr = tb.state.trains["BP"]
    assert (tr.where, tr.position, tr.length, tr.escorts_aboard) == ("on_table", 12, 10, ["TS"])
    assert tb.t("w1").moved_ply == tb.state.ply == tb.t("ts1").moved_ply
    tb.refused("F-TRAIN-14", enter(12, 10))  # already on the table


@pytest.mark.parametrize("units,move_limit", [("in", 16), ("cm", 40)])
def test_f_train_15_it_enters_far_enough_for_the_whole_train_and_escorts(units, move_limit):
    tb = table(units)
    lay(tb, length=move_limit * 4)
    tb.refused("F-TRAIN-15", enter(9.9, 10))
    tb.refused("F-TRAIN-19", enter(move_limit + 0.1, 10))  # a short train: the usual limit
    long_train = move_limit + 4
    tb.refused("F-TRAIN-15", enter(long_train + 0.1, long_train))
    tb.add(enter(long_train, long_train))  # reading: beyond 16"/40 cm when the train needs it


@pytest.mark.parametrize("units,move_limit", [("in", 16), ("cm", 40)])
def test_f_train_15_exactly_the_train_length_or_the_move_limit_is_enough(units, move_limit):
    tb = table(units)
    lay(tb, length=move_limit * 4)
    tb.add(enter(move_limit, 10))
    tb2 = table(units)
    lay(tb2, length=move_limit * 4)
    tb2.add(enter(10, 10))


def test_f_train_16_enters_where_the_line_crosses_the_deployment_area_else_the_nearest_edge():
    tb = table()
    lay(tb, crosses_deployment_area=True)
    tb.refused("F-TRAIN-16", enter(10, entry="nearest_edge"))
    tb.add(enter(10, entry="deployment_area"))
    tb2 = table()
    lay(tb2, crosses_deployment_area=False)
    tb2.refused("F-TRAIN-16", enter(10, entry="deployment_area"))
    tb2.add(enter(10, entry="nearest_edge"))
    assert tb2.state.trains["BP"].entered_from == "nearest_edge"


def test_f_train_17_never_in_ambush():
    tb = table()
    tb.refused("F-TRAIN-17", ("train_held_back", {"train": "BP", "held_in": "ambush"}))


def test_f_train_18_in_reserve_it_may_arrive_in_a_later_turn():
    tb = table()
    tb.add(("train_held_back", {"train": "BP", "held_in": "reserve"}))
    lay(tb)
    next_own_turn(tb)
    next_own_turn(tb)
    tb.add(enter(10))
    assert tb.state.trains["BP"].where == "on_table" and tb.state.trains["BP"].reserve
    late = table()
    late.end_turn()
    late.refused("F-TRAIN-18", ("train_held_back", {"train": "BP", "held_in": "reserve"}))  # before the game only
    mustered = table(reserve=True)  # or mustered in Reserve from the roster
    lay(mustered)
    next_own_turn(mustered)
    mustered.add(enter(10))


# --- movement -----------------------------------------------------------------------------------
def on_table(units: str = "in", line: float = 48, at: float = 10) -> Table:
    tb = table(units)
    lay(tb, length=line)
    tb.add(enter(at, 10))
    next_own_turn(tb)
    return tb


@pytest.mark.parametrize("units,limit", [("in", 16), ("cm", 40)])
def test_f_train_19_up_to_16in_40cm_forward_or_back_each_turn(units, limit):
    tb = on_table(units, line=limit * 5, at=limit)
    tb.refused("F-TRAIN-19", move(limit + 0.1))
    tb.add(move(limit))
    assert tb.state.trains["BP"].position == 2 * limit
    tb.refused("F-TRAIN-19", move(1))  # once a turn
    next_own_turn(tb)
    tb.refused("F-TRAIN-19", move(limit + 0.1, "backward"))
    tb.add(move(limit, "backward"))
    assert tb.state.trains["BP"].position == limit and tb.state.trains["BP"].where == "on_table"
    assert tb.t("w2").moved_ply == tb.state.ply


@pytest.mark.parametrize("status", ["bogged", "bailed_out", "destroyed"])
def test_f_train_20_no_move_with_the_locomotive_bogged_bailed_out_or_destroyed(status):
    tb = on_table()
    tb.add(("status_set", {"subject": "loco", "status": status}))
    tb.refused("F-TRAIN-20", move(5))
    tb.add(("status_set", {"subject": "loco", "status": status, "value": False}))
    tb.add(move(5))


def test_f_train_20_a_wagon_other_than_the_locomotive_does_not_stop_it():
    tb = on_table()
    tb.add(("status_set", {"subject": "w2", "status": "bailed_out"}))
    tb.add(move(5))


def test_f_train_1_a_train_leaving_its_railway_line_is_refused():
    tb = on_table()
    tb.refused("F-TRAIN-1", move(4, off_line=True))
    tb.refused("F-TRAIN-1", ("team_moved", {"team": "loco", "distance": 4}))  # the locomotive moving freely
    tb.refused("F-TRAIN-1", ("team_moved", {"team": "loco", "distance": 0, "pivot_only": True}))
    assert tb.state.trains["BP"].position == 10 and tb.t("loco").moved_ply != tb.state.ply
    tb.add(move(4, off_line=False))
    assert tb.state.trains["BP"].position == 14


def test_f_train_21_a_train_is_never_split_its_wagons_never_move_alone():
    tb = on_table()
    tb.refused("F-TRAIN-21", ("team_moved", {"team": "w1", "distance": 2}))
    tb.add(move(4))
    assert {tb.t(w).moved_ply for w in ("loco", "w1", "w2")} == {tb.state.ply}


def test_f_train_22_any_part_off_the_table_and_the_whole_train_has_left_for_good():
    tb = on_table(line=48, at=16)
    tb.add(move(16))
    next_own_turn(tb)
    tb.add(move(16))  # the front exactly at the far edge: still on
    assert tb.state.trains["BP"].where == "on_table"
    next_own_turn(tb)
    tb.add(move(0.5))  # the front past the far edge
    assert tb.state.trains["BP"].where == "left"
    next_own_turn(tb)
    tb.refused("F-TRAIN-22", move(1, "backward"))
    tb.refused("F-TRAIN-22", enter(10))
    tb.refused("F-TRAIN-22", ("team_shot", {"shooter": "w1", "target": "d1", "dice": [d(4), d(4)]}))
    tb.refused("F-TRAIN-22", ("team_moved", {"team": "ts1", "distance": 2}))  # its escorts rode it off
    tb.refused("F-TRAIN-22", ("escort_left_train", {"platoon": "TS", "distance": 1}))  # nor step off it now


def test_f_train_22_backing_the_rear_off_the_entry_edge_is_leaving_too():
    tb = on_table(line=48, at=12)  # train 10 long: the rear 2 from the edge
    tb.add(move(2, "backward"))
    assert tb.state.trains["BP"].where == "on_table"
    next_own_turn(tb)
    tb.add(move(0.1, "backward"))
    assert tb.state.trains["BP"].where == "left"


def test_f_train_22_the_table_says_it_left_when_the_line_is_not_measured():
    tb = table()
    tb.add(laid(existing=True))
    tb.add(enter(10))
    next_own_turn(tb)
    tb.add(move(16, leaves_table=True))
    assert tb.state.trains["BP"].where == "left"


def test_f_train_23_and_f_train_24_it_pushes_any_tank_wreck_off_the_track():
    tb = on_table()
    tb.refused("F-TRAIN-23", move(5, wrecks_pushed=["dt1"]))  # a live tank is no wreck
    tb.add(("status_set", {"subject": "dt1", "status": "destroyed"}))
    tb.refused("F-TRAIN-23", move(5, wrecks_pushed=["a1"]))  # nor a rifle team
    tb.add(move(5, wrecks_pushed=["dt1"]))
    assert tb.state.trains["BP"].wrecks_pushed == ["dt1"]


def test_f_train_23_it_pushes_every_tank_wreck_in_its_way_however_large_and_heavy():
    """F-TRAIN-23: the Wreckage of any tank, however large and heavy: two wrecks in one move, one of them a
    heavy tank far better armoured than the Locomotive."""
    heavy = {"id": "DH", "kind": "tank", "teams": [team("dh1", "tank", armoured=True, armour_top=4, armour_side=12)]}
    tb = Table(platoons_a=(BRONE, ESCORT, RIFLES), platoons_d=(D_TANKS, heavy))
    lay(tb)
    tb.add(enter(10, 10))
    next_own_turn(tb)
    for wreck in ("dt1", "dh1"):
        tb.add(("status_set", {"subject": wreck, "status": "destroyed"}))
    tb.add(move(5, wrecks_pushed=["dt1", "dh1"]))
    assert tb.state.trains["BP"].wrecks_pushed == ["dt1", "dh1"]


@pytest.mark.parametrize("units,extra", [("in", 4), ("cm", 10)])
def test_f_train_25_tank_support_platoons_leave_the_train_with_an_extra_4in_10cm(units, extra):
    tb = table(units)
    lay(tb, length=200)
    tb.add(enter(12, 10))
    tb.refused("F-TRAIN-25", ("team_moved", {"team": "ts1", "distance": 2}))  # still aboard
    tb.refused("F-TRAIN-25", ("escort_left_train", {"platoon": "A1", "distance": 1}))  # not an escort
    tb.refused("F-TRAIN-25", ("escort_left_train", {"platoon": "TS", "distance": extra + 0.1}))
    tb.add(("escort_left_train", {"platoon": "TS", "distance": extra}))
    assert tb.state.trains["BP"].escorts_aboard == []
    tb.refused("F-TRAIN-25", ("escort_left_train", {"platoon": "TS", "distance": 1}))
    next_own_turn(tb)
    tb.add(("team_moved", {"team": "ts1", "distance": 5}))  # on its own tracks now


# --- every branch, threshold and rule ID of ``fow/rules/trains.py``'s checks and mutators ---------------


EDGES = {"north_south": ("north", "south"), "east_west": ("east", "west")}


OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def leave(pid: str = "TS", dist: float = 1) -> tuple[str, dict]:
    return ("escort_left_train", {"platoon": pid, "distance": dist})


def first_defender_table() -> Table:
    """The defender moves first; the attacker has the train (``table``'s forces)."""
    return Table(first="defender", platoons_a=(BRONE, ESCORT, RIFLES),
                 platoons_d=(D_TANKS, {"id": "D1", "kind": "infantry", "teams": [team("d1")]}))


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


# --- entering: F-TRAIN-14..16, F-TRAIN-19 -------------------------------------------------------------
def test_s_unknown_and_s_turn_on_the_trains_events():
    tb = table()
    lay(tb)
    tb.refused("S-UNKNOWN", enter(10, train="XX"))
    tb.refused("S-UNKNOWN", ("train_moved", {"train": "XX", "distance": 1}))
    tb.refused("S-UNKNOWN", ("train_held_back", {"train": "XX", "held_in": "reserve"}))
    tb.refused("S-UNKNOWN", leave("XX"))
    tb.end_turn()
    tb.refused("S-TURN", enter(10))  # the defender's turn
    tb2 = table()
    lay(tb2)
    tb2.add(enter(10))
    tb2.end_turn()
    tb2.refused("S-TURN", move(1))
    tb2.refused("S-TURN", leave())


def test_f_train_14_a_train_of_the_side_moving_second_enters_in_the_second_ply():
    tb = first_defender_table()
    lay(tb)
    tb.end_turn()  # ply 1: the attacker's first Movement Step
    tb.add(enter(10))
    assert tb.state.trains["BP"].entered_ply == 1 == tb.state.ply


def test_f_train_14_the_defenders_train_enters_in_his_first_turn_and_never_later():
    tb = table(defender_train=True)
    lay(tb, "attacker")
    lay(tb, "defender")
    tb.end_turn()
    tb.add(enter(10, train="DBP"))
    tr = tb.state.trains["DBP"]
    assert (tr.where, tr.entered_ply, tr.position) == ("on_table", 1, 10)
    late = table(defender_train=True)
    lay(late, "attacker")
    lay(late, "defender")
    late.end_turn()
    next_own_turn(late)
    late.refused("F-TRAIN-14", enter(10, train="DBP"))


def test_f_train_14_the_first_mover_enters_only_in_ply_0():
    tb = first_defender_table()
    lay(tb)
    tb.end_turn()
    next_own_turn(tb)
    tb.refused("F-TRAIN-14", enter(10))


@pytest.mark.parametrize("units,limit", [("in", 16), ("cm", 40)])
def test_f_train_19_a_train_exactly_as_long_as_the_move_is_refused_beyond_it_under_f_train_19(units, limit):
    tb = table(units)
    lay(tb, length=limit * 4)
    tb.refused("F-TRAIN-19", enter(limit + 0.5, limit))
    tb.refused("F-TRAIN-15", enter(limit + 1.5, limit + 1))
    tb.add(enter(limit + 1, limit + 1))


def test_f_train_14_entering_sets_every_part_of_the_train_state():
    tb = table()
    lay(tb, length=48, crosses_deployment_area=False)
    tb.add(enter(14, 12, entry="nearest_edge"))
    tr = tb.state.trains["BP"]
    assert (tr.where, tr.line, tr.length, tr.position, tr.entered_ply, tr.moved_ply, tr.entered_from,
            tr.escorts_aboard) == ("on_table", "attacker", 12, 14, 0, 0, "nearest_edge", ["TS"])
    assert [tb.t(x).moved_ply for x in ("loco", "w1", "w2", "ts1", "ts2", "a1")] == [0, 0, 0, 0, 0, -1]


def test_f_train_22_a_train_entering_past_the_far_end_of_a_short_line_has_left_at_once():
    tb = table()
    lay(tb, length=12)
    tb.add(enter(12.5, 10))
    assert tb.state.trains["BP"].where == "left"
    tb2 = table()
    lay(tb2, length=12)
    tb2.add(enter(12, 10))
    assert tb2.state.trains["BP"].where == "on_table"


# --- moving: F-TRAIN-19..23 ------------------------------------------------------------------------------
@pytest.mark.parametrize("status,en,ru", [("destroyed", "Destroyed", "Уничтожен"),
                                          ("bailed_out", "Bailed Out", "Покинут"),
                                          ("bogged", "Bogged Down", "Застрял")])
def test_f_train_20_the_refusal_names_the_locomotives_status(status, en, ru):
    tb = on_table()
    tb.add(("status_set", {"subject": "loco", "status": status}))
    exc = tb.refused("F-TRAIN-20", move(1))
    assert f"The Locomotive is {en}:" in exc.message_en
    assert f"Локомотив {ru}:" in exc.message_ru


def test_f_train_23_a_destroyed_unarmoured_vehicle_or_a_recovered_wreck_is_no_tank_wreckage():
    trucks = {"id": "DV", "kind": "other", "teams": [team("dv1", "vehicle"), team("dt9", "tank", armoured=True)]}
    tb = Table(platoons_a=(BRONE, ESCORT, RIFLES), platoons_d=(trucks,))
    lay(tb)
    tb.add(enter(10))
    next_own_turn(tb)
    tb.add(("status_set", {"subject": "dv1", "status": "destroyed"}))
    tb.refused("F-TRAIN-23", move(2, wrecks_pushed=["dv1"]))  # destroyed, but no wreck
    tb.add(("status_set", {"subject": "dt9", "status": "destroyed"}),
           ("status_set", {"subject": "dt9", "status": "destroyed", "value": False}))
    tb.refused("F-TRAIN-23", move(2, wrecks_pushed=["dt9"]))  # a wreck no longer destroyed
    tb.refused("S-UNKNOWN", move(2, wrecks_pushed=["ghost"]))


def test_f_train_24_each_wreck_is_recorded_once_and_the_train_moves_its_distance():
    tb = on_table(line=100, at=16)
    tb.add(("status_set", {"subject": "dt1", "status": "destroyed"}))
    tb.add(move(3.5, wrecks_pushed=["dt1", "dt1"]))
    tr = tb.state.trains["BP"]
    assert (tr.position, tr.wrecks_pushed, tr.moved_ply) == (19.5, ["dt1"], tb.state.ply)
    next_own_turn(tb)
    tb.add(move(2, "backward", wrecks_pushed=["dt1"]))
    assert (tr.position, tr.wrecks_pushed) == (17.5, ["dt1"])
    assert [tb.t(x).moved_ply for x in ("loco", "w1", "ts1")] == [tb.state.ply] * 3


def test_f_train_25_escorts_that_left_the_train_do_not_move_with_it():
    tb = table()
    lay(tb, length=100)
    tb.add(enter(12, 10), leave("TS", 2))
    assert tb.t("ts1").moved_ply == tb.state.ply == tb.t("ts2").moved_ply
    next_own_turn(tb)
    tb.add(move(4))
    assert tb.t("w1").moved_ply == tb.state.ply and tb.t("ts1").moved_ply == tb.state.ply - 2
    assert tb.state.trains["BP"].escorts_aboard == []


@pytest.mark.parametrize("units,extra", [("in", 4), ("cm", 10)])
def test_f_train_25_the_extra_move_off_the_train_is_in_the_battles_units(units, extra):
    tb = table(units)
    lay(tb, length=200)
    tb.add(enter(12, 10))
    exc = tb.refused("F-TRAIN-25", leave("TS", extra + 0.5))
    unit = '"' if units == "in" else " cm"
    assert f"an extra {extra}{unit}" in exc.message_en


# --- the train's parts on the shared actions (F-TRAIN-14, F-TRAIN-22, F-TRAIN-25) ------------------------
def test_f_train_14_the_refusal_names_the_role_and_the_team_of_a_train_not_yet_on_the_table():
    tb = table()
    lay(tb)
    exc = tb.refused("F-TRAIN-14", ("team_shot", {"shooter": "w1", "target": "d1", "dice": [d1()] * 2}))
    assert exc.message_en == "Shooter 'w1': its armoured train has not entered the table yet."
    assert exc.message_ru == "Стрелок 'w1': бронепоезд ещё не въехал на стол."
    exc = tb.refused("F-TRAIN-14", ("assault_launched", {"teams": ["a1", "ts2"], "against": "D1"}))
    assert exc.message_en == "Team 'ts2': its armoured train has not entered the table yet."
    tb.end_turn()
    exc = tb.refused("F-TRAIN-14", ("team_shot", {"shooter": "d1", "target": "w2", "dice": [d1()] * 2}))
    assert exc.message_en == "Target 'w2': its armoured train has not entered the table yet."


def test_f_train_22_the_refusal_says_the_train_has_left_for_good():
    tb = table()
    lay(tb, length=12)
    tb.add(enter(12.5, 10))
    tb.end_turn()
    exc = tb.refused("F-TRAIN-22", ("team_shot", {"shooter": "d1", "target": "loco", "dice": [d1()] * 2}))
    assert exc.message_en == "Target 'loco': its armoured train has left the table and may not return."
    assert exc.message_ru == "Цель 'loco': бронепоезд покинул стол и не может вернуться."


def test_f_train_25_an_escort_that_stepped_off_stays_on_the_table_when_the_train_leaves():
    tb = table()
    lay(tb, length=20)
    tb.add(enter(12, 10), leave("TS", 4))
    next_own_turn(tb)
    tb.add(move(10))  # the front past the far end: the train has left
    assert tb.state.trains["BP"].where == "left"
    tb.refused("F-TRAIN-22", ("team_shot", {"shooter": "w1", "target": "d1", "dice": [d1()]}))
    tb.add(("team_moved", {"team": "ts1", "distance": 5}))  # its own tracks: still on the table
    tb.add(("team_shot", {"shooter": "ts2", "target": "d1", "dice": [d1()] * 2}))


def test_f_train_18_a_train_already_on_the_table_is_not_held_back():
    tb = table()
    lay(tb)
    tb.add(enter(10))
    tb.refused("F-TRAIN-18", ("train_held_back", {"train": "BP", "held_in": "reserve"}))
    tb.refused("F-TRAIN-17", ("train_held_back", {"train": "BP", "held_in": "ambush"}))


def test_f_train_18_held_in_reserve_before_the_game_is_recorded():
    tb = table()
    assert tb.state.trains["BP"].reserve is False
    tb.add(("train_held_back", {"train": "BP", "held_in": "reserve"}))
    assert tb.state.trains["BP"].reserve is True


def test_f_train_21_other_platoons_teams_move_freely_beside_a_train():
    tb = table()
    lay(tb)
    tb.add(("team_moved", {"team": "a1", "distance": 3}))
    assert tb.t("a1").moved_ply == 0


def d1() -> dict:
    return {"value": 4, "source": "entered"}


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
