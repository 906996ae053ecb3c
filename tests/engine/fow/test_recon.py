"""Reconnaissance (catalog F-RECON, seed 004 pp. 193–194): saves, Cautious Movement, Spotting Ambushes,
the recon deployment move and «Отходим!»; both sides of each distance (in inches and centimetres) and
each dice threshold. F-RECON-1 (roster) is applied at mustering and checked here on the way."""
from __future__ import annotations

import pytest

from battles.engine.fow.rules.recon import counts_as_gone_to_ground, recon_save, vehicle_save
from battles.engine.fow.rules_data import DEFAULT_RULES

from .table import INFANTRY_A, INFANTRY_D, Table, d, team

RECON_A = {"id": "RA", "kind": "recon", "teams": [team("ra1"), team("raj", "vehicle"), team("rac", "tank", armoured=True)]}
RECON_A2 = {"id": "RA2", "kind": "recon", "teams": [team("rb1")]}
OTHER_A = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2"), team("obs", observer=True),
                                                     team("truck", "vehicle")]}
# the defender: a mixed platoon with scouts and one non-recon team, plus plain infantry, an Independent and a Warrior
SCOUTS_D = {"id": "DR", "kind": "other", "teams": [team("dr1", recon=True), team("drj", "vehicle", recon=True),
                                                   team("drx")]}
LONE_D = {"id": "DL", "kind": "recon", "teams": [team("dl1")]}
PLAIN_D = {"id": "D1", "kind": "infantry", "teams": [team("d1"), team("d2"), team("dw", warrior=True)]}
HQ_D = {"id": "DI", "kind": "independent", "teams": [team("di")]}


def tb(units: str = "in", first: str = "attacker") -> Table:
    return Table(units=units, first=first, platoons_a=(RECON_A, RECON_A2, OTHER_A),
                 platoons_d=(SCOUTS_D, LONE_D, PLAIN_D, HQ_D))


def cm(units: str, inches: float) -> float:
    return inches if units == "in" else inches * 2.5


# --- F-RECON-1, F-RECON-2 -----------------------------------------------------------------------
def test_f_recon_1_every_team_of_a_recon_platoon_is_a_recon_team():
    t = tb()
    assert all(t.t(x).recon for x in ("ra1", "raj", "rac", "rb1", "dl1"))
    assert not t.t("a1").recon and not t.t("drx").recon


@pytest.mark.parametrize("die,destroyed", [(3, False), (2, True)])
def test_f_recon_2_an_unarmoured_recon_vehicle_saves_on_3_plus(die, destroyed):
    t = tb()
    t.add(("unarmoured_save_rolled", {"team": "raj", "die": d(die)}))
    assert t.t("raj").destroyed is destroyed
    assert not t.t("raj").wreck


@pytest.mark.parametrize("die,destroyed", [(5, False), (4, True)])
def test_f_recon_2_any_other_unarmoured_vehicle_saves_on_the_usual_5_plus(die, destroyed):
    t = tb()
    t.add(("unarmoured_save_rolled", {"team": "truck", "die": d(die), "fire": "artillery"}))
    assert t.t("truck").destroyed is destroyed


def test_f_recon_2_armoured_recon_vehicles_and_infantry_do_not_roll_this_save():
    t = tb()
    t.refused("F-RECON-2", ("unarmoured_save_rolled", {"team": "rac", "die": d(6)}))
    t.refused("F-RECON-2", ("unarmoured_save_rolled", {"team": "ra1", "die": d(6)}))
    assert recon_save(t.t("raj"), DEFAULT_RULES) == 3
    assert recon_save(t.t("truck"), DEFAULT_RULES) is None and recon_save(t.t("rac"), DEFAULT_RULES) is None
    assert vehicle_save(t.t("truck"), DEFAULT_RULES) == (5, "F-RECON-2")


# --- F-RECON-3 ---------------------------------------------------------------------------------
def test_f_recon_3_recon_and_observer_teams_always_count_as_gone_to_ground_even_after_moving():
    t = tb()
    for x in ("ra1", "obs"):
        assert counts_as_gone_to_ground(t.state, t.t(x))
    assert not counts_as_gone_to_ground(t.state, t.t("a1"))
    t.add(("team_moved", {"team": "ra1", "distance": 6}), ("team_moved", {"team": "a1", "distance": 6}))
    assert t.t("ra1").gone_to_ground and counts_as_gone_to_ground(t.state, t.t("ra1"))
    assert not t.t("a1").gone_to_ground


def test_f_recon_3_not_gone_to_ground_after_moving_at_the_double_until_its_next_turn():
    t = tb()
    t.add(("team_moved", {"team": "ra1", "distance": 12, "at_the_double": True}))
    assert not t.t("ra1").gone_to_ground
    t.end_turn()  # the enemy shoots at it: it moved At the Double in its last turn
    assert not counts_as_gone_to_ground(t.state, t.t("ra1"))
    t.end_turn()
    assert counts_as_gone_to_ground(t.state, t.t("ra1"))


def test_f_recon_3_the_stored_flag_follows_the_turns_after_a_shot():
    """The state (and so the page and the API) says Gone to Ground once the shot is out of
    the team's running and last turn, with no move of its own to refresh it."""
    t = tb()
    t.add(("team_shot", {"shooter": "ra1", "target": "d1", "dice": [d(4), d(4)]}))
    t.end_turn()  # the enemy's turn: the shot was in its last turn
    assert not t.t("ra1").gone_to_ground
    t.end_turn()  # its own next turn, no move of its own yet
    assert t.t("ra1").gone_to_ground and counts_as_gone_to_ground(t.state, t.t("ra1"))


def test_f_recon_3_not_gone_to_ground_after_shooting_or_assaulting():
    t = tb()
    t.add(("team_shot", {"shooter": "ra1", "target": "d1", "dice": [d(4), d(4)]}),
          ("assault_launched", {"teams": ["obs"], "against": "D1"}))
    t.end_turn()
    assert not counts_as_gone_to_ground(t.state, t.t("ra1"))
    assert not counts_as_gone_to_ground(t.state, t.t("obs"))
    assert counts_as_gone_to_ground(t.state, t.t("rb1"))


def test_f_recon_3_not_gone_to_ground_while_carrying_non_recon_passengers():
    t = tb()
    t.add(("passengers_changed", {"team": "raj", "passengers": ["rb1"]}))
    assert counts_as_gone_to_ground(t.state, t.t("raj")) and t.t("raj").gone_to_ground  # a recon passenger
    t.add(("passengers_changed", {"team": "raj", "passengers": ["a1"]}))
    assert not counts_as_gone_to_ground(t.state, t.t("raj")) and not t.t("raj").gone_to_ground
    t.add(("passengers_changed", {"team": "raj", "passengers": []}))
    assert t.t("raj").gone_to_ground


# --- F-RECON-4, F-RECON-5 -----------------------------------------------------------------------
def ambush(tid: str, recon: str, dist: float) -> tuple[str, dict]:
    return ("ambush_placed", {"team": tid, "recon_in_sight": [{"team": recon, "distance": dist}]})


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_4_ambush_not_closer_than_8in_20cm_to_enemy_recon_in_line_of_sight(units):
    t = tb(units)
    t.end_turn()  # the defender's turn: it springs an ambush near the attacker's scouts
    limit = cm(units, 8)
    t.refused("F-RECON-4", ambush("d1", "ra1", limit - 0.1))
    t.add(ambush("d1", "ra1", limit))
    assert t.t("d1").ambush_ply == t.state.ply
    t.refused("S-TARGET", ambush("d2", "a1", limit + 1))  # not a recon team


@pytest.mark.parametrize("status", ["bogged", "bailed_out"])
def test_f_recon_5_bogged_down_or_bailed_out_recon_does_not_spot_ambushes(status):
    t = tb()
    t.add(("status_set", {"subject": "raj", "status": status}))
    t.end_turn()
    t.add(ambush("d1", "raj", 1))


def test_f_recon_5_recon_that_moved_at_the_double_does_not_spot_ambushes():
    t = tb()
    t.add(("team_moved", {"team": "ra1", "distance": 12, "at_the_double": True}))
    t.end_turn()
    t.refused("F-RECON-4", ambush("d1", "rb1", 1))
    t.add(ambush("d1", "ra1", 1))


# --- F-RECON-6 .. F-RECON-14: the recon deployment move ---------------------------------------------
def rmove(tid: str, dist: float = 1, *enemies: dict, **kw) -> tuple[str, dict]:
    return ("recon_deployment_move", {"team": tid, "distance": dist, "enemies": list(enemies), **kw})


def contact(enemy: str, start: float, closest: float, in_sight_at_start: bool = False,
            closest_in_sight: float | None = None) -> dict:
    return {"enemy": enemy, "start_distance": start, "closest": closest, "in_sight_at_start": in_sight_at_start,
            "closest_in_sight": closest_in_sight}


def deploying(units: str = "in", first: str = "attacker") -> Table:
    t = tb(units)
    t.add(("recon_deployment_started", {"first": first}))
    return t


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_6_recon_teams_move_up_to_their_movement_before_the_game(units):
    t = tb(units)
    t.refused("F-RECON-6", rmove("ra1"))  # not before the recon deployment
    t.add(("recon_deployment_started", {"first": "attacker"}))
    t.refused("F-RECON-6", rmove("ra1", cm(units, 6) + 0.1))
    t.add(rmove("ra1", cm(units, 6)), rmove("raj", cm(units, 12)))
    assert t.t("ra1").recon_deployed and t.t("ra1").moved_ply == -1  # not a move of the game
    t.refused("F-RECON-6", rmove("ra1"))  # once per team


def test_f_recon_3_a_recon_team_counts_as_gone_to_ground_after_its_recon_deployment_move():
    """F-RECON-3: a Reconnaissance team that has not moved At the Double, shot or assaulted counts as
    Gone to Ground; its recon deployment move (F-RECON-6) is none of those, and the move is applied whole."""
    t = deploying()
    t.add(rmove("ra1"))
    assert t.t("ra1").recon_deployed and t.t("ra1").gone_to_ground
    assert t.state.unapplied == []


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


# --- F-RECON-15 .. F-RECON-24: «Отходим!» ------------------------------------------------------------
def shot(shooter: str, target: str, n: int) -> tuple[str, dict]:
    return ("team_shot", {"shooter": shooter, "target": target, "dice": [d(4)] * n})


def declare(pl: str = "DR", *shooters: str) -> tuple[str, dict]:
    return ("disengage_declared", {"platoon": pl, "shooters": list(shooters or ("a1",))})


def disengage(die: int, *moves: dict, pl: str = "DR", **kw) -> tuple[str, dict]:
    return ("disengaged", {"platoon": pl, "die": d(die), "moves": list(moves), **kw})


def mv(tid: str, dist: float = 5, **kw) -> dict:
    return {"team": tid, "distance": dist, **kw}


def fired_on(units: str = "in") -> Table:
    """The attacker's a1 opens fire at the defender's scouts; they declare, a1 fires its one shot."""
    t = tb(units)
    t.add(declare("DR", "a1"), shot("a1", "dr1", 1))
    return t


def test_f_recon_15_only_when_fired_on_in_the_enemy_shooting_step():
    t = tb()
    t.refused("F-RECON-15", declare("RA", "d1"))  # the attacker's own turn
    t.add(declare("DR", "a1"))


@pytest.mark.parametrize("action", ["shoot", "double", "assault", "artillery"])
def test_f_recon_15_not_after_shooting_moving_at_the_double_or_assaulting_in_its_previous_turn(action):
    t = tb(first="defender")
    if action == "shoot":
        t.add(shot("dl1", "a1", 2))
    elif action == "artillery":
        t.add(("team_shot", {"shooter": "dl1", "target": "a1", "kind": "artillery", "dice": [d(4)] * 2}))
    elif action == "double":
        t.add(("team_moved", {"team": "dl1", "distance": 12, "at_the_double": True}))
    else:
        t.add(("assault_launched", {"teams": ["dl1"], "against": "A1"}))
    t.end_turn()
    t.refused("F-RECON-15", declare("DL", "a1"))
    t.end_turn()
    t.end_turn()  # a quiet turn of its own later: it may again
    t.add(declare("DL", "a1"))


def test_f_recon_15_a_team_that_shot_in_its_last_turn_may_not_disengage_with_its_platoon():
    t = tb(first="defender")
    t.add(shot("dr1", "a1", 2))
    t.end_turn()
    t.add(declare("DR", "a1"), shot("a1", "drj", 1))
    t.refused("F-RECON-15", disengage(4, mv("dr1")))
    t.add(disengage(4, mv("drj")))


def test_f_recon_15_the_shooters_named_are_enemy_teams():
    """F-RECON-15: the platoon Disengages from the enemy's fire; its own team is no shooter (S-TARGET)."""
    t = tb()
    t.refused("S-TARGET", declare("DR", "dr1"))
    assert "DR" not in t.state.disengagements


def test_f_recon_16_declared_before_any_to_hit_roll_and_only_once():
    t = tb()
    t.refused("F-RECON-16", disengage(4))  # nothing declared
    t.add(shot("a2", "d1", 2))
    t.refused("F-RECON-16", declare("DR", "a2"))  # a2 has already rolled to hit
    t.add(declare("DR", "a1"))
    t.refused("F-RECON-16", declare("DR", "a1"))


def test_f_recon_17_each_shooter_first_fires_one_shot_at_the_current_position():
    t = tb()
    t.add(declare("DR", "a1", "a2"))
    t.refused("F-RECON-17", shot("a1", "dr1", 2))
    t.add(shot("a1", "dr1", 1), shot("a2", "drx", 1))
    t.add(shot("a1", "d1", 2))  # other targets are not affected
    assert t.state.disengagements["DR"].shooters == ["a1", "a2"]


@pytest.mark.parametrize("die,passed", [(4, True), (3, False)])
def test_f_recon_18_after_those_shots_the_platoon_takes_a_skill_test(die, passed):
    t = tb()
    t.add(declare("DR", "a1", "a2"), shot("a1", "dr1", 1))
    t.refused("F-RECON-18", disengage(die))  # a2 has not fired its one shot yet
    t.refused("F-RECON-18", shot("a1", "dr1", 1))  # no second shot before the test
    t.add(shot("a2", "dr1", 1), disengage(die))
    rec = t.state.tests[-1]
    assert (rec.purpose, rec.subject, rec.passed, rec.rolls) == ("disengage", "DR", passed, [die])


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_19_passed_recon_teams_move_up_to_their_movement_away_from_the_shooters(units):
    t = fired_on(units)
    t.refused("F-RECON-19", disengage(4, mv("dr1", cm(units, 6) + 0.1)))
    t.refused("F-RECON-19", disengage(4, mv("drj", 2, further_away=False)))
    t.add(disengage(4, mv("dr1", cm(units, 6)), mv("drj", cm(units, 12))))
    assert t.t("dr1").disengage_ply == t.state.ply == t.t("drj").disengage_ply
    assert t.t("dr1").gone_to_ground  # Cautious Movement still holds


@pytest.mark.parametrize("status", ["bogged", "bailed_out"])
def test_f_recon_19_bogged_down_or_bailed_out_teams_do_not_disengage(status):
    t = fired_on()
    t.add(("status_set", {"subject": "drj", "status": status}))
    t.refused("F-RECON-19", disengage(6, mv("drj")))
    t.add(disengage(6, mv("dr1")))


def test_f_recon_20_a_disengaging_team_may_not_move_at_the_double():
    t = fired_on()
    t.refused("F-RECON-20", disengage(6, mv("drj", 4, at_the_double=True)))


def test_f_recon_21_non_recon_teams_and_scouts_that_choose_to_stay_stay_where_they_are():
    t = fired_on()
    t.refused("F-RECON-21", disengage(6, mv("drx")))
    t.add(disengage(6, mv("drj")))
    assert t.t("dr1").disengage_ply == -1 and t.t("drx").disengage_ply == -1


def test_f_recon_22_after_a_failed_test_the_scouts_stay_where_they_are():
    t = fired_on()
    t.refused("F-RECON-22", disengage(3, mv("dr1")))
    t.add(disengage(3))
    assert not t.state.disengagements["DR"].passed and t.t("dr1").disengage_ply == -1


def test_f_recon_23_the_remaining_shots_follow_at_the_new_position():
    t = fired_on()
    t.add(disengage(5, mv("dr1")))
    t.refused("F-RECON-23", shot("a1", "dr1", 2))  # two dice less the one already fired
    t.add(shot("a1", "dr1", 1))


def test_f_recon_23_the_remaining_shots_follow_after_a_failed_test_too():
    t = fired_on()
    t.add(disengage(2))
    t.add(shot("a1", "drx", 1))


def test_f_recon_24_when_the_whole_platoon_is_out_of_reach_the_remaining_shots_miss():
    t = tb()
    t.add(declare("DL", "a1"), shot("a1", "dl1", 1))
    t.add(disengage(4, mv("dl1"), pl="DL", out_of_reach=True))
    t.refused("F-RECON-24", shot("a1", "dl1", 1))


def test_f_recon_24_not_out_of_reach_while_a_team_of_the_platoon_stayed():
    t = fired_on()
    t.refused("F-RECON-24", disengage(4, mv("dr1"), mv("drj"), out_of_reach=True))  # drx stayed
    t.add(("status_set", {"subject": "drx", "status": "destroyed"}))
    t.add(disengage(4, mv("dr1"), mv("drj"), out_of_reach=True))


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


# --- the ambush, passenger and save events' refusals (F-RECON-2..5, S-codes) ---------------------------


def test_s_target_an_ambush_is_spotted_only_by_enemy_recon_teams():
    """F-RECON-4: only an *enemy* Reconnaissance team in sight bars the placement; the ambusher's own scouts
    are no such team (S-TARGET)."""
    t = tb()
    t.end_turn()
    t.refused("S-TARGET", ambush("d1", "dr1", 10))  # its own side's scouts
    t.refused("S-UNKNOWN", ambush("d1", "ghost", 10))
    t.refused("S-UNKNOWN", ambush("ghost", "ra1", 10))


def test_f_recon_5_a_destroyed_recon_team_spots_no_ambush():
    t = tb()
    t.add(("status_set", {"subject": "ra1", "status": "destroyed"}))
    t.end_turn()
    t.add(ambush("d1", "ra1", 1))
    t.add(("status_set", {"subject": "d2", "status": "destroyed"}))
    t.refused("S-DEAD", ambush("d2", "raj", 20))


def test_f_recon_5_at_the_double_in_an_earlier_turn_no_longer_blinds_it():
    t = tb()
    t.add(("team_moved", {"team": "rb1", "distance": 12, "at_the_double": True}))
    t.end_turn()
    t.add(ambush("d1", "rb1", 1))  # its last turn: it moved At the Double
    t.end_turn()
    t.end_turn()
    t.refused("F-RECON-4", ambush("d2", "rb1", 1))  # a quiet turn of its own since


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_4_the_refusal_names_the_scout_and_the_distance(units):
    t = tb(units)
    t.end_turn()
    exc = t.refused("F-RECON-4", ambush("d1", "raj", 1))
    unit = '"' if units == "in" else " cm"
    assert f"closer than {cm(units, 8):g}{unit}" in exc.message_en and "'raj'" in exc.message_en


def test_f_recon_4_every_scout_in_sight_is_checked():
    t = tb()
    t.end_turn()
    t.refused("F-RECON-4", ("ambush_placed", {"team": "d1", "recon_in_sight": [
        {"team": "ra1", "distance": 9}, {"team": "rb1", "distance": 7.9}]}))
    t.add(("ambush_placed", {"team": "d1", "recon_in_sight": [
        {"team": "ra1", "distance": 9}, {"team": "rb1", "distance": 8}]}))


def test_s_duplicate_s_target_s_dead_passengers_are_other_live_friendly_teams_named_once():
    t = tb()
    t.refused("S-DUPLICATE", ("passengers_changed", {"team": "raj", "passengers": ["a1", "a1"]}))
    t.refused("S-TARGET", ("passengers_changed", {"team": "raj", "passengers": ["raj"]}))
    t.refused("S-TARGET", ("passengers_changed", {"team": "raj", "passengers": ["d1"]}))
    t.refused("S-UNKNOWN", ("passengers_changed", {"team": "raj", "passengers": ["ghost"]}))
    t.refused("S-UNKNOWN", ("passengers_changed", {"team": "ghost", "passengers": []}))
    t.add(("status_set", {"subject": "a2", "status": "destroyed"}))
    t.refused("S-DEAD", ("passengers_changed", {"team": "raj", "passengers": ["a2"]}))
    t.refused("S-DEAD", ("passengers_changed", {"team": "a2", "passengers": []}))
    t.add(("passengers_changed", {"team": "raj", "passengers": ["a1", "rb1"]}))
    assert t.t("raj").passengers == ["a1", "rb1"] and not t.t("raj").gone_to_ground


def test_f_recon_3_a_destroyed_passenger_does_not_stop_cautious_movement():
    t = tb()
    t.add(("passengers_changed", {"team": "raj", "passengers": ["a1"]}))
    assert not t.t("raj").gone_to_ground
    t.add(("status_set", {"subject": "a1", "status": "destroyed"}))
    t.end_turn()
    t.end_turn()
    assert t.t("raj").gone_to_ground  # refreshed at the turn's end: it carries no live non-recon team


def test_s_dead_and_s_unknown_no_save_for_a_destroyed_or_unknown_team():
    t = tb()
    t.refused("S-UNKNOWN", ("unarmoured_save_rolled", {"team": "ghost", "die": d(6)}))
    t.add(("unarmoured_save_rolled", {"team": "raj", "die": d(1)}))
    assert t.t("raj").destroyed and not t.t("raj").gone_to_ground
    t.refused("S-DEAD", ("unarmoured_save_rolled", {"team": "raj", "die": d(6)}))


def test_f_recon_2_a_saved_recon_vehicle_keeps_its_cautious_movement():
    t = tb()
    t.add(("team_moved", {"team": "raj", "distance": 4}))
    assert t.t("raj").gone_to_ground
    t.add(("unarmoured_save_rolled", {"team": "raj", "die": d(3)}))
    assert not t.t("raj").destroyed and t.t("raj").gone_to_ground


LONE_RECON_A = {"id": "RA", "kind": "recon", "teams": [team("ra1")]}


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


def test_f_recon_15_a_shooter_named_twice_in_a_disengage_declaration_is_refused():
    """F-RECON-15: the platoon fired on names the shooters it disengages from, each once."""
    t = Table(platoons_a=(INFANTRY_A,), platoons_d=(LONE_D, INFANTRY_D))
    t.refused("S-DUPLICATE", ("disengage_declared", {"platoon": "DL", "shooters": ["a1", "a1"]}))
    t.add(("disengage_declared", {"platoon": "DL", "shooters": ["a1"]}))


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
