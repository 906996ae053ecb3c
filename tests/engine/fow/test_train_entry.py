"""An armoured train entering the table (F-TRAIN-14..18): off the table until its first movement step, far
enough for the whole train, where the line crosses the deployment area, never in ambush, from reserve."""
from __future__ import annotations

import pytest

from battles import engine

from .table import Table, d, team
from .trains_helpers import (
    BRONE,
    D_TANKS,
    ESCORT,
    RIFLES,
    d1,
    edges,
    enter,
    lay,
    leave,
    move,
    next_own_turn,
    point,
    table,
)


def first_defender_table() -> Table:
    """The defender moves first; the attacker has the train (``table``'s forces)."""
    return Table(first="defender", platoons_a=(BRONE, ESCORT, RIFLES),
                 platoons_d=(D_TANKS, {"id": "D1", "kind": "infantry", "teams": [team("d1")]}))


def test_no_railway_step_once_the_battle_has_ended():
    """S-ENDED: choosing the line's edges and points is over with the battle (F-TRAIN-4, F-TRAIN-5)."""
    tb = table()
    tb.add(("battle_ended", {"winner": "draw"}))
    tb.refused("S-ENDED", edges())
    tb.refused("S-ENDED", point("defender", "west"))


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


def test_f_train_14_entering_sets_every_part_of_the_train_state():
    tb = table()
    lay(tb, length=48, crosses_deployment_area=False)
    tb.add(enter(14, 12, entry="nearest_edge"))
    tr = tb.state.trains["BP"]
    assert (tr.where, tr.line, tr.length, tr.position, tr.entered_ply, tr.moved_ply, tr.entered_from,
            tr.escorts_aboard) == ("on_table", "attacker", 12, 14, 0, 0, "nearest_edge", ["TS"])
    assert [tb.t(x).moved_ply for x in ("loco", "w1", "w2", "ts1", "ts2", "a1")] == [0, 0, 0, 0, 0, -1]


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


def test_s_correction_voiding_the_trains_entry_leaves_its_escorts_leaving_unapplied():
    """The game master voids the train's entry (S-CORRECTION) after its escort left it (F-TRAIN-25): the
    escort was put aboard by nothing the log still holds, so its leaving stands in the log unapplied, and
    the correction is stored (a ValueError of the escort's mutator once refused it: an append answered 500
    and the battle's replay stopped there)."""
    tb = table()
    lay(tb)
    entered = tb.add(enter(12, 10)).seq
    left = tb.add(leave()).seq
    tb.add(("correction", {"voids_seq": entered, "reason": "поезд вошёл не с того края"}))
    assert tb.state.voided == [entered] and tb.state.unapplied == [left]
    train = tb.state.trains["BP"]
    assert (train.where, train.escorts_aboard, train.escort_left_ply) == ("off_table", [], -1)
    replay = engine.fold(tb.events, ruleset="fow")
    assert engine.dump(replay) == engine.dump(tb.state)
