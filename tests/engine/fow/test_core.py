"""Flames of War: mustering a force (``force_mustered``: S-DUPLICATE, S-UNKNOWN, S-ENDED, G-F3, F-RECON-1,
F-TRAIN-21). Every refusal of ``_check_mustered`` with its rule ID, and every field the mutator copies
from the roster into the state."""
from __future__ import annotations

import pytest

from .table import INFANTRY_A, INFANTRY_D, Table, team


def bare() -> Table:
    return Table(platoons_a=(INFANTRY_A,), platoons_d=(INFANTRY_D,))


def muster(side: str, *platoons: dict) -> tuple[str, dict]:
    return ("force_mustered", {"side": side, "platoons": list(platoons)})


def loco_train(pid: str = "BP", *teams: dict, **kw) -> dict:
    return {"id": pid, "kind": "armoured_train", "teams": list(teams) or [team(f"{pid}-loco", "train", locomotive=True)],
            **kw}


# --- refusals -----------------------------------------------------------------------------------
def test_s_ended_no_force_is_mustered_after_the_battle_ended():
    tb = bare()
    tb.add(("battle_ended", {"winner": "draw"}))
    tb.refused("S-ENDED", muster("attacker", {"id": "A9", "kind": "infantry", "teams": [team("a9")]}))


def test_s_duplicate_a_platoon_id_already_on_the_table_is_refused():
    tb = bare()
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "D1", "kind": "infantry", "teams": [team("x1")]}))
    tb.add(muster("attacker", {"id": "A9", "kind": "infantry", "teams": [team("x1")]}))
    assert tb.state.platoons["A9"].teams == ["x1"]


def test_s_duplicate_a_platoon_id_twice_in_one_muster_is_refused():
    tb = bare()
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("x1")]},
                                     {"id": "P", "kind": "infantry", "teams": [team("x2")]}))
    assert "P" not in tb.state.platoons


def test_s_duplicate_a_team_id_already_on_the_table_or_twice_in_the_muster_is_refused():
    tb = bare()
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("d2")]}))
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("x"), team("x")]}))
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("x")]},
                                     {"id": "Q", "kind": "infantry", "teams": [team("x")]}))


def test_s_duplicate_a_team_may_not_share_its_id_with_a_platoon_of_the_same_muster():
    tb = bare()
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("P")]}))
    tb.refused("S-DUPLICATE", muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("x")]},
                                     {"id": "x", "kind": "infantry", "teams": [team("y")]}))


def test_s_unknown_the_command_team_is_one_of_the_platoons_own_teams():
    tb = bare()
    tb.refused("S-UNKNOWN", muster("attacker", {"id": "P", "kind": "infantry", "command": "a1",
                                                "teams": [team("x1"), team("x2")]}))
    tb.add(muster("attacker", {"id": "P", "kind": "infantry", "command": "x2", "teams": [team("x1"), team("x2")]}))
    assert tb.state.platoons["P"].command == "x2"


def test_the_command_team_defaults_to_the_platoons_first_team():
    tb = bare()
    tb.add(muster("attacker", {"id": "P", "kind": "infantry", "teams": [team("x1"), team("x2")]}))
    assert tb.state.platoons["P"].command == "x1"


@pytest.mark.parametrize("locos", [0, 2])
def test_g_f3_an_armoured_train_has_exactly_one_locomotive(locos):
    tb = bare()
    wagons = [team(f"w{i}", "train", locomotive=i < locos) for i in range(3)]
    tb.refused("G-F3", muster("attacker", loco_train("BP", *wagons)))
    assert "BP" not in tb.state.trains


def test_g_f3_one_locomotive_anywhere_in_the_train_is_enough():
    tb = bare()
    tb.add(muster("attacker", loco_train("BP", team("w0", "train"), team("w1", "train", locomotive=True))))
    assert tb.state.trains["BP"].locomotive == "w1"


def test_g_f3_only_an_armoured_train_has_tank_support_platoons():
    tb = bare()
    tanks = {"id": "TS", "kind": "tank", "teams": [team("ts1", "tank", armoured=True)]}
    tb.refused("G-F3", muster("attacker", tanks, {"id": "P", "kind": "tank", "escorts": ["TS"],
                                                  "teams": [team("x1", "tank")]}))


def test_g_f3_an_escort_mustered_earlier_or_in_the_same_muster_is_known():
    tb = bare()
    tb.add(muster("attacker", {"id": "TS", "kind": "tank", "teams": [team("ts1", "tank", armoured=True)]}))
    tb.add(muster("attacker", loco_train("BP", escorts=["TS"])))  # the escort from an earlier muster
    assert tb.state.platoons["TS"].train == "BP" and tb.state.trains["BP"].escorts == ["TS"]
    tb.refused("S-UNKNOWN", muster("attacker", loco_train("BQ", escorts=["TX"])))
    tb.add(muster("attacker", {"id": "TX", "kind": "tank", "teams": [team("tx1", "tank")]},
                  loco_train("BQ", escorts=["TX"])))  # named in the same muster
    assert tb.state.platoons["TX"].train == "BQ"


# --- what the state keeps ------------------------------------------------------------------------
def test_g_f1_every_team_rating_of_the_roster_is_kept_in_the_state():
    """G-F1: the roster's ratings (per-team data) are what the rules later read."""
    tb = bare()
    spec = team("g1", "gun", gun_size="man_packed", anti_aircraft=True, armoured=True, warrior=True, observer=True,
                cavalry=True, pioneer_supply=True, movement=7.5, rof=3, rof_moved=1, armour_top=2, armour_side=4)
    tb.add(muster("defender", {"id": "G", "kind": "gun", "skill": 5, "teams": [spec, team("g2")]}))
    g1 = tb.t("g1")
    assert (g1.side, g1.platoon, g1.kind, g1.gun_size) == ("defender", "G", "gun", "man_packed")
    assert (g1.anti_aircraft, g1.armoured, g1.warrior, g1.observer, g1.cavalry, g1.pioneer_supply) == (True,) * 6
    assert (g1.recon, g1.independent, g1.locomotive) == (False, False, False)
    assert (g1.movement, g1.rof, g1.rof_moved, g1.armour_top, g1.armour_side) == (7.5, 3, 1, 2, 4)
    g2 = tb.t("g2")
    assert (g2.kind, g2.gun_size, g2.anti_aircraft, g2.armoured, g2.warrior, g2.observer, g2.cavalry,
            g2.pioneer_supply) == ("infantry", "", False, False, False, False, False, False)
    assert (g2.movement, g2.rof, g2.rof_moved, g2.armour_top, g2.armour_side) == (None,) * 5
    pl = tb.state.platoons["G"]
    assert (pl.side, pl.kind, pl.skill, pl.teams, pl.escorts, pl.train) == ("defender", "gun", 5, ["g1", "g2"], [], "")


def test_f_recon_1_every_team_of_a_recon_platoon_is_a_recon_team_and_others_only_by_their_flag():
    tb = bare()
    tb.add(muster("attacker", {"id": "R", "kind": "recon", "teams": [team("r1"), team("r2", "vehicle")]},
                  {"id": "S", "kind": "infantry", "teams": [team("s1", recon=True), team("s2")]}))
    assert [tb.t(t).recon for t in ("r1", "r2", "s1", "s2")] == [True, True, True, False]
    assert {"r1", "r2", "s1"} <= set(tb.state.cautious) and "s2" not in tb.state.cautious  # F-RECON-3's index


def test_g_f1_every_team_of_an_independent_platoon_is_independent_and_others_only_by_their_flag():
    tb = bare()
    tb.add(muster("attacker", {"id": "HQ", "kind": "independent", "teams": [team("h1")]},
                  {"id": "S", "kind": "infantry", "teams": [team("s1", independent=True), team("s2")]}))
    assert [tb.t(t).independent for t in ("h1", "s1", "s2")] == [True, True, False]


@pytest.mark.parametrize("reserve", [False, True])
def test_f_train_21_a_train_is_one_whole_with_its_wagons_locomotive_escorts_and_reserve(reserve):
    tb = bare()
    tb.add(muster("defender", {"id": "TS", "kind": "tank", "teams": [team("ts1", "tank")]},
                  loco_train("BP", team("w1", "train"), team("lc", "train", locomotive=True), team("w2", "train"),
                             escorts=["TS"], reserve=reserve)))
    tr = tb.state.trains["BP"]
    assert (tr.side, tr.locomotive, tr.wagons, tr.escorts, tr.reserve) == (
        "defender", "lc", ["w1", "lc", "w2"], ["TS"], reserve)
    assert (tr.where, tr.line, tr.escorts_aboard) == ("off_table", "", [])
    assert tb.state.platoons["BP"].escorts == ["TS"] and tb.state.platoons["TS"].train == "BP"
    assert tb.t("lc").locomotive and not tb.t("w1").locomotive
    assert "TS" not in tb.state.trains and tb.state.platoons["D1"].train == ""


# --- the battle's skeleton: battle_started, turn_ended, status_set (G-F1, S-codes) ---------------------
@pytest.mark.parametrize("units,first", [("in", "attacker"), ("cm", "defender")])
def test_g_f1_a_started_battle_keeps_its_sides_units_and_first_mover(units, first):
    tb = Table(units=units, first=first)
    st = tb.state
    assert (st.status, st.attacker, st.defender, st.ruleset, st.measure) == ("running", "Red", "Blue", "fow", units)
    assert (st.first_mover, st.side_to_move, st.turn, st.ply) == (first, first, 1, 0)
    assert [(r.number, r.side, r.first_seq, r.last_seq) for r in st.turns] == [(1, first, 1, 1)]
    tb.refused("S-STARTED-TWICE", ("battle_started", {"attacker": "X", "defender": "Y", "ruleset": "fow"}))


@pytest.mark.parametrize("first", ["attacker", "defender"])
def test_g_f1_turns_alternate_and_the_number_grows_when_the_first_mover_moves_again(first):
    tb = Table(first=first)
    second = "defender" if first == "attacker" else "attacker"
    tb.refused("S-TURN", ("turn_ended", {"side": second, "turn": 1}))
    tb.refused("S-TURN", ("turn_ended", {"side": first, "turn": 2}))
    tb.end_turn()
    st = tb.state
    assert (st.side_to_move, st.turn, st.ply) == (second, 1, 1)
    tb.end_turn()
    assert (tb.state.side_to_move, tb.state.turn, tb.state.ply) == (first, 2, 2)
    assert [(r.number, r.side) for r in tb.state.turns] == [(1, first), (1, second), (2, first)]
    seqs = [(r.first_seq, r.last_seq) for r in tb.state.turns]
    assert seqs == [(1, 4), (5, 5), (6, 5)]  # each turn closes on the turn_ended event; the next opens after it


def test_s_unknown_a_status_names_a_known_team_or_for_pinned_a_known_platoon():
    tb = bare()
    tb.refused("S-UNKNOWN", ("status_set", {"subject": "a1", "status": "pinned"}))
    tb.refused("S-UNKNOWN", ("status_set", {"subject": "A1", "status": "bogged"}))
    tb.refused("S-UNKNOWN", ("status_set", {"subject": "ghost", "status": "destroyed"}))
    tb.add(("status_set", {"subject": "A1", "status": "pinned"}))
    assert tb.state.platoons["A1"].pinned
    tb.add(("status_set", {"subject": "A1", "status": "pinned", "value": False}))
    assert not tb.state.platoons["A1"].pinned


def test_g_f1_a_destroyed_armoured_team_leaves_a_wreck_an_unarmoured_one_none():
    tb = Table()
    tb.add(("status_set", {"subject": "t1", "status": "destroyed"}), ("status_set", {"subject": "a1", "status": "destroyed"}))
    assert (tb.t("t1").destroyed, tb.t("t1").wreck, tb.t("a1").destroyed, tb.t("a1").wreck) == (True, True, True, False)
    tb.add(("status_set", {"subject": "is2", "status": "bailed_out"}))
    assert tb.t("is2").bailed_out and not tb.t("is2").wreck
    tb.add(("status_set", {"subject": "is2", "status": "destroyed", "value": False}))
    assert not tb.t("is2").wreck and not tb.t("is2").destroyed
    tb.add(("battle_ended", {"winner": "draw"}))
    tb.refused("S-ENDED", ("status_set", {"subject": "a2", "status": "bogged"}))
    tb.refused("S-ENDED", ("battle_ended", {"winner": "draw"}))


def test_the_first_turn_is_turn_1_of_the_first_mover():
    t = Table(first="defender")
    assert [(r.number, r.side) for r in t.state.turns] == [(1, "defender")]


def test_g_f3_an_armoured_train_naming_an_unknown_tank_support_platoon_is_refused():
    """G-F3: a train's Tank Support Platoons are platoons of the force; an unknown one is S-UNKNOWN."""
    train = {"id": "BP", "kind": "armoured_train", "escorts": ["nope"],
             "teams": [team("loco", "train", armoured=True, locomotive=True)]}
    t = Table(platoons_a=(INFANTRY_A,), platoons_d=(INFANTRY_D,))
    t.refused("S-UNKNOWN", ("force_mustered", {"side": "attacker", "platoons": [train]}))
    assert "BP" not in t.state.platoons


def test_g_f3_the_locomotive_team_is_marked_in_the_state():
    """G-F3: exactly one Locomotive; the state marks that team and no wagon."""
    train = {"id": "BP", "kind": "armoured_train",
             "teams": [team("loco", "train", armoured=True, locomotive=True), team("w1", "train", armoured=True)]}
    t = Table(platoons_a=(train, INFANTRY_A), platoons_d=(INFANTRY_D,))
    assert t.t("loco").locomotive is True and t.t("w1").locomotive is False
    assert t.state.trains["BP"].locomotive == "loco"
