"""Deploying an armoured train (F-TRAIN-14..18): the declaration ``train_deployed`` that the train is
Deployed, not in Reserve, before it enters; then it enters at the start of its first Movement Step."""
from __future__ import annotations

from battles import engine

from .table import d
from .trains_helpers import enter, lay, next_own_turn, table


def deployed(train: str = "BP") -> tuple[str, dict]:
    return ("train_deployed", {"train": train})


def test_f_train_14_a_declared_deployed_train_is_recorded_and_enters_in_its_first_movement_step():
    tb = table()
    tb.add(deployed())
    assert tb.state.trains["BP"].deployed and not tb.state.trains["BP"].reserve
    lay(tb)
    tb.add(enter(10))
    assert tb.state.trains["BP"].where == "on_table" and tb.state.trains["BP"].entered_ply == 0


def test_f_train_14_the_side_cannot_end_its_first_turn_with_its_deployed_train_off_the_table():
    tb = table()
    tb.add(deployed())
    lay(tb)
    tb.refused("F-TRAIN-14", ("turn_ended", {"side": "attacker", "turn": 1}))
    tb.add(enter(10))
    tb.end_turn()
    assert tb.state.side_to_move == "defender"


def test_f_train_14_an_undeclared_train_keeps_the_older_reading_and_the_turn_may_end():
    tb = table()
    lay(tb)
    tb.end_turn()  # not declared: nothing enforced; it may no longer enter (F-TRAIN-14, its own test)
    assert tb.state.trains["BP"].where == "off_table"


def test_f_train_14_a_deployed_train_enters_at_the_start_of_the_step_before_any_other_team_acts():
    tb = table()
    tb.add(deployed())
    lay(tb)
    tb.add(("team_moved", {"team": "a1", "distance": 3}))
    tb.refused("F-TRAIN-14", enter(10))
    tb2 = table()
    tb2.add(deployed())
    lay(tb2)
    tb2.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4), d(4)]}))
    tb2.refused("F-TRAIN-14", enter(10))


def test_f_train_14_the_declaration_comes_before_the_game_while_the_train_is_off_the_table():
    late = table()
    late.end_turn()
    late.refused("F-TRAIN-14", deployed())
    entered = table()
    lay(entered)
    entered.add(enter(10))
    entered.refused("F-TRAIN-14", deployed())
    twice = table()
    twice.add(deployed())
    twice.refused("F-TRAIN-14", deployed())


def test_f_train_18_a_train_in_reserve_is_not_also_deployed_and_a_deployed_one_not_put_in_reserve():
    tb = table()
    tb.add(("train_held_back", {"train": "BP", "held_in": "reserve"}))
    tb.refused("F-TRAIN-18", deployed())
    mustered = table(reserve=True)
    mustered.refused("F-TRAIN-18", deployed())
    dep = table()
    dep.add(deployed())
    dep.refused("F-TRAIN-14", ("train_held_back", {"train": "BP", "held_in": "reserve"}))
    dep.refused("F-TRAIN-17", ("train_held_back", {"train": "BP", "held_in": "ambush"}))  # never in Ambush


def test_f_train_18_a_train_in_reserve_may_still_end_its_first_turn_off_the_table():
    tb = table()
    tb.add(("train_held_back", {"train": "BP", "held_in": "reserve"}))
    lay(tb)
    next_own_turn(tb)
    tb.add(enter(10))
    assert tb.state.trains["BP"].where == "on_table"


def test_f_train_14_the_second_movers_train_is_declared_in_the_first_movers_turn_and_enters_in_its_own():
    tb = table(defender_train=True)
    tb.add(("train_deployed", {"train": "DBP"}))
    lay(tb)
    lay(tb, "defender")
    tb.end_turn()
    tb.refused("F-TRAIN-14", ("turn_ended", {"side": "defender", "turn": 1}))
    tb.add(enter(10, train="DBP"))
    tb.end_turn()


def test_f_train_14_the_declaration_folds_the_same_in_one_pass():
    tb = table()
    tb.add(deployed())
    lay(tb)
    tb.add(enter(10))
    assert engine.state_to_json(engine.fold(tb.events, ruleset="fow")) == engine.state_to_json(tb.state)
