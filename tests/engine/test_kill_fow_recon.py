"""Reconnaissance (catalog F-RECON, seed 004 pp. 193–194): the refusals and state changes of the recon
deployment move and of «Отходим!» that ``tests/engine/fow/test_recon.py`` leaves open, so that every
branch, threshold and rule ID of ``_check_recon_move``, ``_check_contact``, ``_check_declared`` and
``_check_disengaged`` (and their mutators) is pinned (issue 11: mutation tests)."""
from __future__ import annotations

import pytest

from .fow.table import Table, team
from .fow.test_recon import cm, contact, declare, deploying, disengage, fired_on, mv, rmove, shot, tb


# --- the recon deployment move (F-RECON-6, F-RECON-13) --------------------------------------------------
def test_s_unknown_and_s_dead_a_recon_move_names_a_live_team():
    t = deploying()
    t.refused("S-UNKNOWN", rmove("ghost"))
    t.add(("status_set", {"subject": "ra1", "status": "destroyed"}))
    t.refused("S-DEAD", rmove("ra1"))
    t.add(rmove("raj"))  # its platoon mates still may


def test_s_ended_no_recon_move_or_end_of_it_after_the_battle():
    t = deploying()
    t.add(("battle_ended", {"winner": "draw"}))
    t.refused("S-ENDED", rmove("ra1"))
    t.refused("S-ENDED", ("recon_deployment_ended", {}))
    t.refused("S-ENDED", ("recon_deployment_started", {"first": "attacker"}))


def test_f_recon_6_the_recon_deployment_is_open_then_closed_and_the_chosen_platoon_forgotten():
    t = deploying()
    assert (t.state.recon_phase, t.state.recon_chooser, t.state.recon_platoon) == ("open", "attacker", "")
    t.add(rmove("ra1"))
    assert (t.state.recon_platoon, t.state.recon_chooser) == ("RA", "defender")
    t.add(("recon_deployment_ended", {}))
    assert (t.state.recon_phase, t.state.recon_platoon) == ("closed", "")
    t.refused("F-RECON-6", ("recon_deployment_ended", {}))


def test_f_recon_13_the_first_chooser_is_the_mission_s_unless_that_side_has_no_recon():
    plain = {"id": "A1", "kind": "infantry", "teams": [team("a1")]}
    scouts = {"id": "DL", "kind": "recon", "teams": [team("dl1")]}
    t = Table(platoons_a=(plain,), platoons_d=(scouts,))
    t.add(("recon_deployment_started", {"first": "defender"}))
    assert t.state.recon_chooser == "defender"
    t.add(rmove("dl1"))
    assert t.state.recon_chooser == "defender"  # the attacker has nothing to choose: the defender goes on


def test_f_recon_13_a_platoon_chosen_earlier_is_not_chosen_again_after_another():
    t = deploying()
    t.add(rmove("ra1"), rmove("dl1"))  # RA, then the defender's DL
    t.refused("F-RECON-13", rmove("raj"))  # RA's turn is over, though raj never moved
    t.add(rmove("rb1"))
    assert t.state.recon_platoon == "RA2" and t.state.platoons["RA"].recon_deployed
    assert not t.t("raj").recon_deployed


def test_f_recon_13_the_teams_of_the_platoon_being_moved_go_on_without_a_new_choice():
    t = deploying()
    t.add(rmove("ra1"))
    assert t.state.recon_chooser == "defender"
    t.add(rmove("raj"), rmove("rac"))  # the chosen platoon RA still moving, though the defender chooses next
    assert [t.t(x).recon_deployed for x in ("ra1", "raj", "rac")] == [True, True, True]
    t.refused("F-RECON-6", rmove("raj"))  # each team once


def test_f_recon_6_a_destroyed_recon_team_does_not_keep_its_side_choosing():
    t = deploying()
    for x in ("dr1", "drj", "dl1"):
        t.add(("status_set", {"subject": x, "status": "destroyed"}))
    t.add(rmove("ra1"))
    assert t.state.recon_chooser == "attacker"  # the defender's scouts are all gone: no turn to choose


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_6_a_team_with_its_own_movement_moves_up_to_it(units):
    fast = {"id": "RF", "kind": "recon", "teams": [team("rf", movement=cm(units, 10))]}
    t = Table(units=units, platoons_a=(fast,), platoons_d=({"id": "D1", "kind": "infantry", "teams": [team("d1")]},))
    t.add(("recon_deployment_started", {"first": "attacker"}))
    t.refused("F-RECON-6", rmove("rf", cm(units, 10) + 0.1))
    t.add(rmove("rf", cm(units, 10)))


# --- the enemies met on the way (F-RECON-7..10, F-RECON-14) ---------------------------------------------
def test_s_target_and_s_unknown_the_teams_met_are_enemy_teams():
    t = deploying()
    t.refused("S-TARGET", rmove("ra1", 1, contact("a1", 10, 1)))
    t.refused("S-UNKNOWN", rmove("ra1", 1, contact("ghost", 10, 1)))


def test_f_recon_10_a_destroyed_enemy_team_is_ignored_too():
    t = deploying()
    t.add(("status_set", {"subject": "d1", "status": "destroyed"}))
    t.add(rmove("ra1", 1, contact("d1", 10, 1, True, 1)))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_9_already_closer_than_8in_20cm_it_may_stay_there_but_not_come_closer(units):
    lim = cm(units, 8)
    t = deploying(units)
    t.add(rmove("ra1", 1, contact("d1", lim - 2, lim - 2)))  # no closer than it started
    t.refused("F-RECON-9", rmove("raj", 1, contact("d1", lim - 2, lim - 2.5)))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_7_8_14_exactly_at_16in_40cm_is_within_and_just_beyond_is_not(units):
    lim = cm(units, 16)
    t = deploying(units)
    t.refused("F-RECON-7", rmove("ra1", 1, contact("d1", lim + 5, lim, False, lim)))
    t.refused("F-RECON-14", rmove("ra1", 1, contact("d1", lim + 0.1, lim, True, lim)))
    t.add(rmove("ra1", 1, contact("d1", lim, lim, True, lim)))  # seen from exactly 16": not beyond it
    t.add(rmove("raj", 1, contact("d1", lim + 5, lim + 0.1, False, lim + 0.1)))  # in sight only beyond it


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_8_in_sight_it_may_move_away_while_in_sight(units):
    lim = cm(units, 16)
    t = deploying(units)
    t.add(rmove("ra1", 1, contact("d1", lim - 4, lim - 4, True, lim - 3)))  # further from it, still in sight
    t.refused("F-RECON-8", rmove("raj", 1, contact("d1", lim - 4, lim - 4, True, lim - 4.1)))


def test_f_recon_7_the_refusal_names_the_enemy_and_the_limit_in_the_battles_units():
    t = deploying("cm")
    exc = t.refused("F-RECON-7", rmove("ra1", 1, contact("d1", 60, 40, False, 40)))
    assert "'d1'" in exc.message_en and "40 cm" in exc.message_en
    exc = t.refused("F-RECON-9", rmove("ra1", 1, contact("d2", 60, 19)))
    assert "'d2'" in exc.message_en and "20 cm" in exc.message_en


# --- «Отходим!»: declaring (F-RECON-15, F-RECON-16) ----------------------------------------------------
def test_s_unknown_s_dead_and_s_ended_on_a_disengage_declaration():
    t = tb()
    t.refused("S-UNKNOWN", declare("XX", "a1"))
    t.refused("S-UNKNOWN", declare("DR", "ghost"))
    t.add(("status_set", {"subject": "a2", "status": "destroyed"}))
    t.refused("S-DEAD", declare("DR", "a1", "a2"))
    t.add(("battle_ended", {"winner": "draw"}))
    t.refused("S-ENDED", declare("DR", "a1"))


@pytest.mark.parametrize("pl", ["D1", "DI"])
def test_f_recon_15_a_platoon_without_a_recon_team_does_not_disengage(pl):
    t = tb()
    t.refused("F-RECON-15", declare(pl, "a1"))


def test_f_recon_15_a_platoon_whose_scouts_are_all_destroyed_does_not_disengage():
    t = tb()
    t.add(("status_set", {"subject": "dl1", "status": "destroyed"}))
    t.refused("F-RECON-15", declare("DL", "a1"))
    t.add(("status_set", {"subject": "dr1", "status": "destroyed"}))
    t.add(declare("DR", "a1"))  # drj still may


def test_f_recon_16_a_declaration_of_an_earlier_shooting_step_does_not_stop_a_new_one():
    t = tb()
    t.add(declare("DR", "a1"))
    t.end_turn()
    t.end_turn()
    t.add(declare("DR", "a2"))
    dis = t.state.disengagements["DR"]
    assert (dis.platoon, dis.ply, dis.shooters, dis.stage) == ("DR", 2, ["a2"], "declared")


def test_f_recon_16_disengaging_needs_a_declaration_of_this_shooting_step():
    t = tb()
    t.add(declare("DR", "a1"), shot("a1", "dr1", 1))
    t.end_turn()
    t.end_turn()
    t.refused("F-RECON-16", disengage(4))
    t.refused("S-UNKNOWN", disengage(4, pl="XX"))


# --- «Отходим!»: the Skill test and the moves (F-RECON-18..24) -----------------------------------------
def test_f_recon_16_a_disengage_is_resolved_once():
    t = fired_on()
    t.add(disengage(4, mv("dr1")))
    t.refused("F-RECON-16", disengage(4))


def test_f_recon_18_a_shooter_destroyed_before_its_one_shot_does_not_hold_up_the_test():
    t = tb()
    t.add(declare("DR", "a1", "a2"), shot("a1", "dr1", 1))
    t.refused("F-RECON-18", disengage(4))
    t.add(("status_set", {"subject": "a2", "status": "destroyed"}))
    t.add(disengage(4, mv("dr1")))


@pytest.mark.parametrize("die,passed", [(3, True), (2, False)])
def test_f_recon_18_the_skill_test_uses_the_platoons_own_skill(die, passed):
    skilled = {"id": "DS", "kind": "recon", "skill": 3, "teams": [team("ds1"), team("ds2")]}
    t = Table(platoons_d=(skilled,))
    t.add(declare("DS", "a1"), shot("a1", "ds1", 1))
    if passed:
        t.add(disengage(die, mv("ds1"), pl="DS"))
    else:
        t.refused("F-RECON-22", disengage(die, mv("ds1"), pl="DS"))
        t.add(disengage(die, pl="DS"))
    rec = t.state.tests[-1]
    assert (rec.kind, rec.subject, rec.purpose, rec.rolls, rec.passed) == ("skill", "DS", "disengage", [die], passed)
    assert rec.seq == t.state.last_seq


def test_s_duplicate_s_unknown_and_s_dead_the_teams_disengaging_are_live_teams_of_the_platoon_named_once():
    t = fired_on()
    t.refused("S-DUPLICATE", disengage(4, mv("dr1"), mv("dr1")))
    t.refused("S-UNKNOWN", disengage(4, mv("dl1")))  # a recon team, but of another platoon
    t.refused("S-UNKNOWN", disengage(4, mv("ghost")))
    t.add(("status_set", {"subject": "drj", "status": "destroyed"}))
    t.refused("S-DEAD", disengage(4, mv("drj")))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_19_a_team_with_its_own_movement_disengages_up_to_it(units):
    scouts = {"id": "DS", "kind": "recon", "teams": [team("ds1", movement=cm(units, 9))]}
    t = Table(units=units, platoons_d=(scouts,))
    t.add(declare("DS", "a1"), shot("a1", "ds1", 1))
    exc = t.refused("F-RECON-19", disengage(4, mv("ds1", cm(units, 9) + 0.1), pl="DS"))
    assert f"{cm(units, 9):g}" in exc.message_en
    t.add(disengage(4, mv("ds1", cm(units, 9)), pl="DS"))


def test_f_recon_19_to_24_the_state_after_disengaging():
    t = fired_on()
    t.add(disengage(5, mv("dr1"), mv("drj")))
    dis = t.state.disengagements["DR"]
    assert (dis.stage, dis.passed, dis.out_of_reach, dis.moved) == ("resolved", True, False, ["dr1", "drj"])
    assert [t.t(x).disengage_ply for x in ("dr1", "drj", "drx")] == [t.state.ply, t.state.ply, -1]


def test_f_recon_24_out_of_reach_is_kept_in_the_state():
    t = tb()
    t.add(declare("DL", "a1"), shot("a1", "dl1", 1), disengage(6, mv("dl1"), pl="DL", out_of_reach=True))
    dis = t.state.disengagements["DL"]
    assert (dis.stage, dis.passed, dis.out_of_reach, dis.moved) == ("resolved", True, True, ["dl1"])


def test_f_recon_23_other_shooters_and_other_platoons_are_not_affected():
    t = fired_on()
    t.add(disengage(5, mv("dr1")))
    t.add(shot("a2", "dr1", 2))  # a2 did not open fire with a1: its full dice
    t.add(shot("a1", "d1", 2))  # a1 at another platoon: its full dice


def test_f_recon_24_the_remaining_shots_of_a_failed_test_are_made_even_if_out_of_reach_is_claimed():
    t = tb()
    t.add(declare("DL", "a1"), shot("a1", "dl1", 1), disengage(2, pl="DL"))
    t.add(shot("a1", "dl1", 1))
    dis = t.state.disengagements["DL"]
    assert (dis.passed, dis.out_of_reach, dis.moved) == (False, False, [])


def test_f_recon_17_18_the_one_shot_rule_applies_only_to_the_shooters_of_this_step():
    t = tb()
    t.add(declare("DR", "a1"), shot("a1", "dr1", 1))
    t.end_turn()
    t.end_turn()
    t.add(shot("a1", "dr1", 2))  # a new Shooting Step: the old declaration is over
