"""Reconnaissance (catalog F-RECON): the ambush, passenger and save events' refusals that
``tests/engine/fow/test_recon.py`` leaves open (F-RECON-2..5, S-codes; issue 11: mutation tests)."""
from __future__ import annotations

import pytest

from .fow.table import d
from .fow.test_recon import ambush, cm, tb


def test_s_target_an_ambush_is_spotted_only_by_enemy_recon_teams():
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
