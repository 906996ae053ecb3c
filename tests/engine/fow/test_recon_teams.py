"""Recon teams (F-RECON-1..5): who is a recon team, the 3+ save of unarmoured recon vehicles, always gone to
ground, and spotting ambushes."""
from __future__ import annotations

import pytest

from battles.engine.fow.rules.recon import counts_as_gone_to_ground, recon_save, vehicle_save
from battles.engine.fow.rules_data import DEFAULT_RULES

from .recon_helpers import cm, deploying, rmove, tb
from .table import d


# --- F-RECON-4, F-RECON-5 -----------------------------------------------------------------------
def ambush(tid: str, recon: str, dist: float) -> tuple[str, dict]:
    return ("ambush_placed", {"team": tid, "recon_in_sight": [{"team": recon, "distance": dist}]})


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


def test_f_recon_3_a_recon_team_counts_as_gone_to_ground_after_its_recon_deployment_move():
    """F-RECON-3: a Reconnaissance team that has not moved At the Double, shot or assaulted counts as
    Gone to Ground; its recon deployment move (F-RECON-6) is none of those, and the move is applied whole."""
    t = deploying()
    t.add(rmove("ra1"))
    assert t.t("ra1").recon_deployed and t.t("ra1").gone_to_ground
    assert t.state.unapplied == []


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
