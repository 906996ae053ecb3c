"""The Steps of a turn (issue 28): Movement, Shooting, Assault in that order, one move per team in its
Movement Step, ``step_ended``, and the clauses tied to a Step (F-DIG-1, F-DIG-6, F-BLD-8, F-BLD-9,
F-TRAIN-14, F-TRAIN-25, F-DIG-19, F-DIG-20, F-RECON-15). The turn sequence itself is a core rule not in the
seeds (G-F1); its reading is in docs/events-fow.md."""
from __future__ import annotations

from typing import Any

from battles import engine
from battles.engine.fow.rules.buildings import is_cleared

from .table import Table, d, team
from .trains_helpers import enter, lay, table

SUPPLY = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2")]}
OTHER = {"id": "A2", "kind": "infantry", "teams": [team("b1"), team("sup", "vehicle", pioneer_supply=True)]}


def shot(shooter: str = "a2", target: str = "d1", n: int = 2) -> tuple[str, dict[str, Any]]:
    return ("team_shot", {"shooter": shooter, "target": target, "dice": [d(4)] * n})


def step_ended(step: str, side: str = "attacker") -> tuple[str, dict[str, Any]]:
    return ("step_ended", {"side": side, "step": step})


def test_g_f1_a_team_moves_once_in_its_movement_step():
    t = Table()
    t.add(("team_moved", {"team": "a1", "distance": 3}))
    t.refused("G-F1", ("team_moved", {"team": "a1", "distance": 3}))  # 3" + 3": two moves, not one of 6"
    t.refused("G-F1", ("team_moved", {"team": "a1", "distance": 0, "pivot_only": True}))
    t.add(("team_moved", {"team": "a2", "distance": 6}))  # another team still moves
    t.end_turn()
    t.end_turn()
    t.add(("team_moved", {"team": "a1", "distance": 6}))  # a new Movement Step: its move again


def test_g_f1_the_step_moves_forward_with_the_first_act_of_a_later_step_and_each_turn_opens_with_movement():
    t = Table()
    assert t.state.step == "movement"
    t.add(("team_moved", {"team": "a1", "distance": 3}))
    assert t.state.step == "movement"
    t.add(shot())
    assert t.state.step == "shooting"
    t.add(("assault_launched", {"teams": ["t1"], "against": "D1"}))
    assert t.state.step == "assault"
    t.end_turn()
    assert (t.state.side_to_move, t.state.step) == ("defender", "movement")


def test_g_f1_no_move_once_the_shooting_step_has_begun():
    t = Table()
    t.add(shot("a2"))
    t.refused("G-F1", ("team_moved", {"team": "a1", "distance": 3}))  # another team: the Step is past for all
    t2 = Table()
    t2.add(("went_to_ground", {"teams": ["a2"]}))  # Going to Ground is the Shooting Step's too
    t2.refused("G-F1", ("team_moved", {"team": "a1", "distance": 3}))


def test_g_f1_no_shot_nor_going_to_ground_once_the_assault_step_has_begun():
    t = Table()
    t.add(("assault_launched", {"teams": ["t1"], "against": "D1"}))
    t.refused("G-F1", shot("a2"))
    t.refused("G-F1", ("went_to_ground", {"teams": ["a2"]}))
    t.refused("G-F1", ("team_moved", {"team": "a1", "distance": 1}))
    t.refused("G-F1", ("air_attack_hit", {"side": "attacker", "aircraft": "Ил-2", "hits": [
        {"team": "d1", "weapon": "mg"}]}))


def test_f_dig_1_and_f_dig_6_no_digging_in_once_the_side_has_shot():
    """F-DIG-1: a platoon Digs In instead of moving, in its Movement Step. After its teams have shot at the
    full stationary Rate of Fire, a dig would make F-DIG-6 (diggers count as moved for Rate of Fire) moot."""
    t = Table()
    t.add(shot("a2", n=2))  # 2 dice: stationary (G-F1), not the 1 of a team that moved or dug (F-DIG-6)
    t.refused("F-DIG-1", ("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    t2 = Table()
    t2.add(("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    t2.add(shot("a2", n=1))  # dug first: it shoots as a team that moved (F-DIG-6)


def test_f_dig_1_the_re_roll_is_of_the_movement_step_too():
    t = Table(platoons_a=(SUPPLY, OTHER))
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(1)}))
    t.add(shot("b1"))  # another platoon shoots: the Movement Step is over for the side
    t.refused("F-DIG-1", ("dig_in_rerolled", {"platoon": "A1", "die": d(6), "pioneer_supply_distance": 1}))


def test_g_f1_step_ended_ends_the_current_step_in_order_and_only_the_side_to_move_ends_it():
    t = Table()
    t.refused("G-F1", step_ended("shooting"))  # it is the Movement Step
    t.refused("S-TURN", step_ended("movement", "defender"))
    t.add(step_ended("movement"))
    assert t.state.step == "shooting"
    t.refused("G-F1", ("team_moved", {"team": "a1", "distance": 1}))
    t.refused("F-DIG-1", ("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    t.add(shot("a2"))
    t.add(step_ended("shooting"))
    assert t.state.step == "assault"
    t.refused("G-F1", shot("a1"))
    t.refused("G-F1", step_ended("shooting"))
    t.add(("assault_launched", {"teams": ["a1"], "against": "D1"}))


def test_f_bld_9_a_passed_test_clears_the_building_for_the_rest_of_the_step_only():
    """F-BLD-9: Cleared for the rest of the Step, so others follow the team in; the Step's end ends it."""
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2"), team("a3")]},))
    t.add(("building_placed", {"id": "H", "openings": [{"id": "door"}, {"id": "window"}]}))
    t.add(("building_move", {"team": "a1", "building": "H", "distance": 3, "enter_by": "door", "die": d(4)}))
    t.add(("status_set", {"subject": "a1", "status": "destroyed"}))  # nobody of the side inside now
    assert is_cleared(t.state, t.state.buildings["H"], "attacker")
    t.add(("building_move", {"team": "a2", "building": "H", "distance": 3, "enter_by": "window"}))  # follows, no test
    t.add(("status_set", {"subject": "a2", "status": "destroyed"}))
    t.add(step_ended("movement"))
    assert not is_cleared(t.state, t.state.buildings["H"], "attacker")  # the Step is over: Contested again


def test_f_train_14_the_train_enters_in_the_movement_step_not_after_a_shot():
    tb = table()
    lay(tb, length=200)
    tb.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(3)] * 2}))
    tb.refused("F-TRAIN-14", enter(12, 10))


def test_f_train_25_the_escorts_leave_at_the_end_of_the_movement_step():
    tb = table()
    lay(tb, length=200)
    tb.add(enter(12, 10))
    tb.add(("escort_left_train", {"platoon": "TS", "distance": 4}))
    # the end of the Movement Step: no more moves of the side, nor the train again
    tb.refused("F-TRAIN-25", ("team_moved", {"team": "a1", "distance": 1}))
    tb.refused("F-TRAIN-25", ("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    tb.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(3)] * 2}))  # the Shooting Step follows
    tb2 = table()
    lay(tb2, length=200)
    tb2.add(enter(12, 10))
    tb2.add(step_ended("movement"))
    tb2.refused("F-TRAIN-25", ("escort_left_train", {"platoon": "TS", "distance": 4}))  # the end is past


def test_f_dig_19_and_f_dig_20_foxholes_only_in_the_assault_step():
    t = Table()
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    t.end_turn()
    t.refused("F-DIG-19", ("foxholes_marked", {"platoon": "A1"}))  # no assault yet
    t.refused("F-DIG-20", ("foxholes_reoccupied", {"platoon": "A1", "teams": []}))
    t.add(("assault_launched", {"teams": ["d1"], "against": "A1"}))
    t.add(("foxholes_marked", {"platoon": "A1"}))
    t.add(("foxholes_reoccupied", {"platoon": "A1", "teams": ["a1"]}))


def test_f_recon_15_no_disengage_in_the_enemys_assault_step():
    t = Table(platoons_d=({"id": "DR", "kind": "recon", "teams": [team("dr1")]},))
    t.add(("assault_launched", {"teams": ["t1"], "against": "DR"}))
    t.refused("F-RECON-15", ("disengage_declared", {"platoon": "DR", "shooters": ["a1"]}))


def test_a_log_stored_before_the_steps_replays_as_it_did_the_checks_run_only_on_append():
    """A move after a shot was accepted before the Steps existed: replay runs no check, so it still folds."""
    t = Table()
    events = [*t.events,
              engine.Event(len(t.events) + 1, "team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4)] * 2}),
              engine.Event(len(t.events) + 2, "team_moved", {"team": "a1", "distance": 3})]
    state = engine.fold(events, ruleset="fow")
    assert state.unapplied == [] and state.teams["a1"].moved_ply == 0 and state.step == "shooting"
