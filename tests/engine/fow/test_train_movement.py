"""An armoured train moving (F-TRAIN-19..25): up to 16in/40cm along its line, the locomotive, never split,
leaving for good, pushing tank wrecks off the track, and its tank support stepping off."""
from __future__ import annotations

import pytest

from .table import Table, d, team
from .trains_helpers import (
    BRONE,
    D_TANKS,
    ESCORT,
    RIFLES,
    d1,
    enter,
    laid,
    lay,
    leave,
    move,
    next_own_turn,
    on_table,
    table,
)


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


@pytest.mark.parametrize("units,limit", [("in", 16), ("cm", 40)])
def test_f_train_19_a_train_exactly_as_long_as_the_move_is_refused_beyond_it_under_f_train_19(units, limit):
    tb = table(units)
    lay(tb, length=limit * 4)
    tb.refused("F-TRAIN-19", enter(limit + 0.5, limit))
    tb.refused("F-TRAIN-15", enter(limit + 1.5, limit + 1))
    tb.add(enter(limit + 1, limit + 1))


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


def test_f_train_21_other_platoons_teams_move_freely_beside_a_train():
    tb = table()
    lay(tb)
    tb.add(("team_moved", {"team": "a1", "distance": 3}))
    assert tb.t("a1").moved_ply == 0
