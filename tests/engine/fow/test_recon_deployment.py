"""The recon deployment move (F-RECON-6..14): who moves, how far, the enemies met on the way (16in/40cm and
8in/20cm), passengers, and the players' turns choosing a platoon."""
from __future__ import annotations

import pytest

from .recon_helpers import LONE_D, cm, deploying, rmove, tb
from .table import INFANTRY_A, INFANTRY_D, Table, team


def contact(enemy: str, start: float, closest: float, in_sight_at_start: bool = False,
            closest_in_sight: float | None = None) -> dict:
    return {"enemy": enemy, "start_distance": start, "closest": closest, "in_sight_at_start": in_sight_at_start,
            "closest_in_sight": closest_in_sight}


LONE_RECON_A = {"id": "RA", "kind": "recon", "teams": [team("ra1")]}


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_6_recon_teams_move_up_to_their_movement_before_the_game(units):
    t = tb(units)
    t.refused("F-RECON-6", rmove("ra1"))  # not before the recon deployment
    t.add(("recon_deployment_started", {"first": "attacker"}))
    t.refused("F-RECON-6", rmove("ra1", cm(units, 6) + 0.1))
    t.add(rmove("ra1", cm(units, 6)), rmove("raj", cm(units, 12)))
    assert t.t("ra1").recon_deployed and t.t("ra1").moved_ply == -1  # not a move of the game
    t.refused("F-RECON-6", rmove("ra1"))  # once per team


def test_f_recon_6_only_recon_teams_and_the_game_waits_for_the_end_of_the_recon_deployment():
    t = deploying()
    t.refused("F-RECON-6", rmove("a1"))
    t.refused("F-RECON-6", ("team_moved", {"team": "a1", "distance": 1}))
    t.refused("F-RECON-6", ("turn_ended", {"side": "attacker", "turn": 1}))
    t.add(("recon_deployment_ended", {}))
    t.refused("F-RECON-6", rmove("ra1"))
    t.add(("team_moved", {"team": "a1", "distance": 1}))
    t.refused("F-RECON-6", ("recon_deployment_started", {"first": "attacker"}))


def test_f_recon_6_no_recon_deployment_once_the_game_has_begun():
    t = tb()
    t.add(("team_moved", {"team": "a1", "distance": 1}))
    t.refused("F-RECON-6", ("recon_deployment_started", {"first": "attacker"}))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_7_out_of_sight_it_may_not_enter_an_enemys_sight_within_16in_40cm(units):
    t = deploying(units)
    lim = cm(units, 16)
    t.refused("F-RECON-7", rmove("ra1", 1, contact("d1", lim + 2, lim, closest_in_sight=lim)))
    t.add(rmove("ra1", 1, contact("d1", lim + 2, lim - 1, closest_in_sight=lim + 0.1)))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_8_in_sight_within_16in_40cm_it_may_not_move_closer_while_in_sight(units):
    t = deploying(units)
    start = cm(units, 16)  # within 16"/40 cm includes exactly the limit
    t.refused("F-RECON-8", rmove("ra1", 1, contact("d1", start, start - 0.1, True, start - 0.1)))
    t.add(rmove("ra1", 1, contact("d1", start, start, True, start)))  # sideways, no closer


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_8_in_sight_beyond_16in_40cm_it_may_come_closer_while_it_stays_beyond(units):
    """F-RECON-8 binds within 16"/40 cm: seen from farther, the team may approach as long as it stays beyond
    the limit (F-RECON-14)."""
    t = deploying(units)
    start, stop = cm(units, 20), cm(units, 16) + 0.1
    t.add(rmove("ra1", 1, contact("d1", start, stop, True, stop)))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_9_never_closer_than_8in_20cm_to_any_enemy_in_sight_or_not(units):
    t = deploying(units)
    lim = cm(units, 8)
    t.refused("F-RECON-9", rmove("ra1", 1, contact("d1", lim + 3, lim - 0.1)))
    t.add(rmove("ra1", 1, contact("d1", lim + 3, lim)))


def test_f_recon_10_enemy_independent_and_warrior_teams_are_ignored():
    t = deploying()
    t.add(rmove("ra1", 1, contact("di", 10, 1, True, 1), contact("dw", 10, 1, True, 1)))


def test_f_recon_11_not_at_the_double():
    t = deploying()
    t.refused("F-RECON-11", rmove("raj", 24, at_the_double=True))
    t.refused("F-RECON-11", rmove("raj", 1, at_the_double=True))


def test_f_recon_12_carrying_non_recon_passengers_it_may_not_make_the_move_at_all():
    t = tb()
    t.add(("passengers_changed", {"team": "raj", "passengers": ["a1"]}),
          ("recon_deployment_started", {"first": "attacker"}))
    t.refused("F-RECON-12", rmove("raj"))
    t.add(("passengers_changed", {"team": "raj", "passengers": ["rb1"]}))
    t.add(rmove("raj"))


def test_f_recon_13_players_take_turns_choosing_a_platoon_and_the_mission_says_who_first():
    t = deploying(first="defender")
    assert t.state.recon_chooser == "defender"
    t.refused("F-RECON-13", rmove("ra1"))
    t.add(rmove("dr1"), rmove("drj"))  # the defender's platoon DR: its teams move
    assert t.state.recon_chooser == "attacker"
    t.refused("F-RECON-13", rmove("dl1"))
    t.add(rmove("ra1"))
    t.add(rmove("dl1"))  # the defender's turn to choose again
    t.refused("F-RECON-13", rmove("raj"))  # RA's move is over: a platoon is chosen once
    t.add(rmove("rb1"))  # RA2: the defender has no platoon left, the attacker goes on
    assert t.state.platoons["RA2"].recon_deployed and t.state.platoons["DR"].recon_deployed


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_14_seen_from_beyond_16in_40cm_it_may_not_come_within_it_while_in_sight(units):
    t = deploying(units)
    lim = cm(units, 16)
    t.refused("F-RECON-14", rmove("ra1", 1, contact("d1", lim + 4, lim, True, lim)))
    t.add(rmove("ra1", 1, contact("d1", lim + 4, lim - 2, True, lim + 0.1)))  # closer only out of its sight


# The refusals and state changes of the recon deployment move and of «Отходим!»: every branch, threshold
# and rule ID of ``_check_recon_move``, ``_check_contact``, ``_check_declared`` and ``_check_disengaged``
# (and their mutators).


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


def test_f_recon_6_only_the_defender_has_recon_teams_so_the_defender_chooses_first():
    """F-RECON-6: a recon deployment needs Reconnaissance teams on either side; a side without any
    does not choose, the other does."""
    t = Table(platoons_a=(INFANTRY_A,), platoons_d=(LONE_D, INFANTRY_D))
    t.add(("recon_deployment_started", {"first": "attacker"}))
    assert t.state.recon_phase == "open" and t.state.recon_chooser == "defender"


def test_f_recon_6_no_recon_teams_on_either_side_no_recon_deployment():
    t = Table(platoons_a=(INFANTRY_A,), platoons_d=(INFANTRY_D,))
    t.refused("F-RECON-6", ("recon_deployment_started", {"first": "attacker"}))


def test_f_recon_6_a_recon_deployment_ends_only_when_one_is_going_on():
    t = Table(platoons_a=(LONE_RECON_A, INFANTRY_A), platoons_d=(INFANTRY_D,))
    t.refused("F-RECON-6", ("recon_deployment_ended", {}))


@pytest.mark.parametrize("load", [["rb1", "a1"], ["a1", "rb1"], ["ra1", "rb1", "obs"], ["rb1", "truck", "ra1"]])
def test_f_recon_12_one_non_recon_passenger_among_recon_ones_bars_the_move(load):
    """F-RECON-12: Passengers that are not Reconnaissance teams, one among any number of recon ones, in any
    order (an Observer is not a Reconnaissance team: F-RECON-3 names them apart)."""
    t = tb()
    t.add(("passengers_changed", {"team": "raj", "passengers": load}),
          ("recon_deployment_started", {"first": "attacker"}))
    t.refused("F-RECON-12", rmove("raj"))


def test_f_recon_12_a_load_of_recon_passengers_only_may_make_the_move():
    t = tb()
    t.add(("passengers_changed", {"team": "raj", "passengers": ["ra1", "rb1"]}),
          ("recon_deployment_started", {"first": "attacker"}))
    t.add(rmove("raj"))


def test_f_recon_12_the_non_recon_passenger_set_down_frees_the_rest_of_the_load():
    t = tb()
    t.add(("passengers_changed", {"team": "raj", "passengers": ["rb1", "a1", "ra1"]}),
          ("recon_deployment_started", {"first": "attacker"}))
    t.refused("F-RECON-12", rmove("raj"))
    t.add(("passengers_changed", {"team": "raj", "passengers": ["rb1", "ra1"]}))
    t.add(rmove("raj"))
