"""Flames of War engine: tests written to kill mutants that survived a sampled ``make mutants``
run (docs/mutants.md, second pass). Each asserts behaviour and cites its catalog rule."""
from __future__ import annotations

import pytest

from .fow.table import Table, d, team

RECON_A = {"id": "RA", "kind": "recon", "teams": [team("ra1")]}
PLAIN_A = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2")]}
LONE_D = {"id": "DL", "kind": "recon", "teams": [team("dl1")]}
PLAIN_D = {"id": "D1", "kind": "infantry", "teams": [team("d1"), team("d2")]}


def test_the_first_turn_is_turn_1_of_the_first_mover():
    t = Table(first="defender")
    assert [(r.number, r.side) for r in t.state.turns] == [(1, "defender")]


def test_f_recon_6_only_the_defender_has_recon_teams_so_the_defender_chooses_first():
    """F-RECON-6: a recon deployment needs Reconnaissance teams on either side; a side without any
    does not choose, the other does."""
    t = Table(platoons_a=(PLAIN_A,), platoons_d=(LONE_D, PLAIN_D))
    t.add(("recon_deployment_started", {"first": "attacker"}))
    assert t.state.recon_phase == "open" and t.state.recon_chooser == "defender"


def test_f_recon_6_no_recon_teams_on_either_side_no_recon_deployment():
    t = Table(platoons_a=(PLAIN_A,), platoons_d=(PLAIN_D,))
    t.refused("F-RECON-6", ("recon_deployment_started", {"first": "attacker"}))


def test_f_recon_6_a_recon_deployment_ends_only_when_one_is_going_on():
    t = Table(platoons_a=(RECON_A, PLAIN_A), platoons_d=(PLAIN_D,))
    t.refused("F-RECON-6", ("recon_deployment_ended", {}))


def test_f_recon_15_a_shooter_named_twice_in_a_disengage_declaration_is_refused():
    """F-RECON-15: the platoon fired on names the shooters it disengages from, each once."""
    t = Table(platoons_a=(PLAIN_A,), platoons_d=(LONE_D, PLAIN_D))
    t.refused("S-DUPLICATE", ("disengage_declared", {"platoon": "DL", "shooters": ["a1", "a1"]}))
    t.add(("disengage_declared", {"platoon": "DL", "shooters": ["a1"]}))


@pytest.mark.parametrize("where", ["in_cover", "in_water"])
def test_f_dig_a_team_of_another_platoon_cannot_be_named_in_a_dig_in(where):
    """F-DIG-8 (in cover), F-DIG-11 (in water): the teams a Dig In names are the platoon's own."""
    t = Table(platoons_a=(PLAIN_A, {"id": "A2", "kind": "infantry", "teams": [team("b1")]}), platoons_d=(PLAIN_D,))
    t.refused("S-UNKNOWN", ("dig_in_attempted", {"platoon": "A1", "die": d(6), where: ["b1"]}))
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(6), where: ["a2"]}))


def test_g_f1_a_team_that_shot_this_turn_cannot_go_to_ground():
    """G-F1 (Going to Ground, p. 90, not in the seeds): a team that shot this turn may not Go to Ground;
    one that did not shoot may."""
    t = Table()
    t.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(2), d(2)]}))
    t.refused("G-F1", ("went_to_ground", {"teams": ["a1"]}))
    t.add(("went_to_ground", {"teams": ["a2"]}))


def test_f_bld_a_team_already_at_one_building_is_not_placed_in_another():
    """F-BLD (buildings): a team is at one building at a time."""
    t = Table()
    t.add(("building_placed", {"id": "H1", "openings": [{"id": "door"}], "inside": ["a1"]}))
    t.refused("S-DUPLICATE", ("building_placed", {"id": "H2", "openings": [{"id": "door"}], "inside": ["a1"]}))
    t.add(("building_placed", {"id": "H2", "openings": [{"id": "door"}], "inside": ["a2"]}))


def test_f_air_an_air_attack_is_recorded_in_the_ply_it_was_made():
    """The battle report places each air attack (F-AIR) in the turn it was made."""
    from .fow.test_aircraft import air, hit, tb

    t = tb()
    t.end_turn()
    t.end_turn()
    ply = t.state.ply
    t.add(air(hit("tk", 4, "bombs", anti_tank=5, fp=4)))
    assert t.state.air_attacks[-1].ply == ply != 0


# --- third pass: survivors of a fresh sample (seed 2, docs/mutants.md) -----------------------------------
def test_g_f1_a_teams_own_rate_of_fire_prevails_over_the_default():
    """G-F1: a team shoots its own ROF dice (here 3 stationary), not the rules data's default 2."""
    fast = {"id": "A1", "kind": "infantry", "teams": [team("a1", rof=3, rof_moved=2), team("a2")]}
    t = Table(platoons_a=(fast,), platoons_d=(PLAIN_D,))
    t.refused("G-F1", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(1)] * 2}))
    t.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(1)] * 3}))
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(1)] * 2}))  # the default


def test_g_f3_an_armoured_train_naming_an_unknown_tank_support_platoon_is_refused():
    """G-F3: a train's Tank Support Platoons are platoons of the force; an unknown one is S-UNKNOWN."""
    train = {"id": "BP", "kind": "armoured_train", "escorts": ["nope"],
             "teams": [team("loco", "train", armoured=True, locomotive=True)]}
    t = Table(platoons_a=(PLAIN_A,), platoons_d=(PLAIN_D,))
    t.refused("S-UNKNOWN", ("force_mustered", {"side": "attacker", "platoons": [train]}))
    assert "BP" not in t.state.platoons


def test_g_f3_the_locomotive_team_is_marked_in_the_state():
    """G-F3: exactly one Locomotive; the state marks that team and no wagon."""
    train = {"id": "BP", "kind": "armoured_train",
             "teams": [team("loco", "train", armoured=True, locomotive=True), team("w1", "train", armoured=True)]}
    t = Table(platoons_a=(train, PLAIN_A), platoons_d=(PLAIN_D,))
    assert t.t("loco").locomotive is True and t.t("w1").locomotive is False
    assert t.state.trains["BP"].locomotive == "loco"
