"""Hidden information (V-MINE-1, V-MINE-13, V-MINE-14): a mine is known to the
side that laid it, to everyone once an enemy sapper has revealed it, and to
the game master always. Given events, when a reader asks, then what he sees."""
from __future__ import annotations

import json

import pytest

from battles.engine import dump
from battles.engine.visibility import REDACTED, _object_known, event_for, mine_known, state_for

from .table import standard


def defender_lays_mine(t=None):
    """Defender turn 1: sapper d_sap goes to a spot; turn 2: he lays AP mine m1 there."""
    t = t or standard()
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object="m1", distance=2.0)
    t.end_turn()
    t.postures("attacker")
    t.end_turn()
    t.postures("defender")
    t.add("sapper_worked", sapper="d_sap", action="lay", object="m1", kind="ap")
    return t


def _events(t):
    return {e.type: e for e in t.events}


def test_v_mine_1_the_defenders_mine_is_shown_to_the_defender_only():
    t = defender_lays_mine()
    state = dump(t.state)
    assert "m1" in state["mines"]
    assert "m1" in state_for(state, "defender", game_master=False)["mines"]
    assert "m1" not in state_for(state, "attacker", game_master=False)["mines"]
    assert "m1" not in state_for(state, None, game_master=False)["mines"]
    assert "m1" in state_for(state, None, game_master=True)["mines"]


def test_v_mine_1_the_sappers_secret_target_is_not_in_the_enemys_state():
    t = standard()
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object="m9", distance=3.0)
    state = dump(t.state)
    assert state["fighters"]["d_sap"]["sapper_object"] == "m9"
    for side in ("attacker", None):
        seen = state_for(state, side, game_master=False)
        assert "m9" not in json.dumps(seen)
    assert state_for(state, "defender", game_master=False)["fighters"]["d_sap"]["sapper_object"] == "m9"


def test_v_mine_1_laying_and_approaching_read_as_hidden_work_to_the_enemy():
    t = defender_lays_mine()
    state = dump(t.state)
    for type_ in ("sapper_approached", "sapper_worked"):
        e = _events(t)[type_]
        for side in ("attacker", None):
            seen = event_for(e.type, e.data, side=side, game_master=False, state=state)
            assert seen["redacted"] is True and seen["sapper"] == "d_sap"
            assert "m1" not in json.dumps(seen) and "ap" not in seen.values()
            if type_ == "sapper_approached":  # how far the sapper is from his work stays visible
                assert seen["distance"] == e.data["distance"]
        assert event_for(e.type, e.data, side="defender", game_master=False, state=state) == e.data
        assert event_for(e.type, e.data, side=None, game_master=True, state=state) == e.data


def test_v_mine_14_a_revealed_mine_is_known_to_everyone():
    t = defender_lays_mine()
    t.end_turn()
    t.postures("attacker")
    t.add("mine_revealed", mine="m1", sapper="a_sap", distance=5.0)
    state = dump(t.state)
    for side in ("attacker", "defender", None):
        assert "m1" in state_for(state, side, game_master=False)["mines"]
    laid = _events(t)["sapper_worked"]
    assert event_for(laid.type, laid.data, side="attacker", game_master=False, state=state) == laid.data


def test_wire_work_is_in_plain_sight():
    state = dump(standard().state)
    data = {"sapper": "a_sap", "object": "W", "distance": 2.0}
    assert event_for("sapper_approached", data, side="defender", game_master=False, state=state) == data


def test_an_unknown_mine_fails_closed():
    """A projection behind the log does not know the mine yet: it stays hidden."""
    data = {"sapper": "d_sap", "action": "lay", "object": "m5", "kind": "at"}
    assert event_for("sapper_worked", data, side="attacker", game_master=False, state={})["redacted"] is True
    assert not mine_known(None, "attacker", game_master=False)


def test_state_for_does_not_change_its_input():
    t = defender_lays_mine()
    state = dump(t.state)
    before = json.dumps(state, sort_keys=True)
    state_for(state, "attacker", game_master=False)
    assert json.dumps(state, sort_keys=True) == before


# Issue 11: the pure helpers next to fire. ``visibility`` (V-MINE-1, V-SAP-3,
# V-MINE-14: who may know of a mine, a charge or a sapper's secret target) on
# hand-built JSON states, and ``weapons`` (V-SMOKE-1, V-ROCKET-1, V-AA-4, V-AA-5:
# the weapon table shared with the roster).


# --- mine_known (V-MINE-14) ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("mine", "side", "gm", "known"), [
    (None, "attacker", True, True), (None, None, True, True), (None, "attacker", False, False),
    ({"side": "defender"}, "defender", False, True), ({"side": "defender"}, "attacker", False, False),
    ({"side": "defender"}, None, False, False), ({"side": "defender", "revealed": True}, "attacker", False, True),
    ({"side": "defender", "revealed": True}, None, False, True), ({"side": "defender", "revealed": False}, None, False,
                                                                  False),
    ({"side": "defender"}, "defender", True, True), ({}, None, False, False),
])
def test_v_mine_14_who_knows_a_mine(mine, side, gm, known):
    assert mine_known(mine, side, game_master=gm) is known


# --- _object_known (V-SAP-3) ----------------------------------------------------------------------------------------
STATE = {"wire": {"W": {"id": "W"}}, "mines": {"m1": {"side": "defender"}, "m2": {"side": "defender", "revealed": True}}}


@pytest.mark.parametrize(("obj", "owner", "side", "gm", "known"), [
    ("W", "defender", "attacker", False, True), ("W", "defender", None, False, True),
    ("m1", "defender", "attacker", False, False), ("m1", "attacker", "attacker", False, False),
    ("m1", "defender", "defender", False, True), ("m2", "defender", "attacker", False, True),
    ("spot", "defender", "defender", False, True), ("spot", "defender", "attacker", False, False),
    ("spot", None, None, False, False), ("spot", "defender", None, False, False),
    ("m1", "defender", "attacker", True, True), ("spot", "defender", None, True, True),
])
def test_v_sap_3_a_sappers_object_is_known_by_its_kind(obj, owner, side, gm, known):
    assert _object_known(STATE, obj, owner, side, game_master=gm) is known


def test_v_sap_3_a_state_without_wire_or_mines_keys_knows_only_the_own_side_s_spot():
    assert _object_known({"wire": None, "mines": None}, "W", "defender", "defender", game_master=False) is True
    assert _object_known({}, "W", "defender", "attacker", game_master=False) is False


# --- state_for (V-MINE-1) -------------------------------------------------------------------------------------------
def full_state():
    return {
        "turn": 3,
        "wire": {"W": {"id": "W"}},
        "mines": {"m1": {"side": "defender"}, "m2": {"side": "attacker"}, "m3": {"side": "defender", "revealed": True}},
        "fighters": {
            "d_sap": {"side": "defender", "sapper_object": "m1"},
            "d_sap2": {"side": "defender", "sapper_object": "W"},
            "a_sap": {"side": "attacker", "sapper_object": "spot"},
            "d1": {"side": "defender", "sapper_object": ""},
        },
    }


def test_v_mine_1_the_game_master_sees_the_state_itself():
    s = full_state()
    assert state_for(s, None, game_master=True) is s


def test_v_mine_1_each_side_sees_its_own_and_the_revealed_mines_and_its_own_sappers_targets():
    s = full_state()
    att = state_for(s, "attacker", game_master=False)
    assert sorted(att["mines"]) == ["m2", "m3"] and att["turn"] == 3 and att["wire"] == s["wire"]
    assert att["fighters"]["d_sap"] == {"side": "defender", "sapper_object": ""}
    assert att["fighters"]["d_sap2"]["sapper_object"] == "W"  # wire is in plain sight
    assert att["fighters"]["a_sap"]["sapper_object"] == "spot"
    assert att["fighters"]["d1"] == {"side": "defender", "sapper_object": ""}
    dfn = state_for(s, "defender", game_master=False)
    assert sorted(dfn["mines"]) == ["m1", "m3"]
    assert dfn["fighters"]["d_sap"]["sapper_object"] == "m1" and dfn["fighters"]["a_sap"]["sapper_object"] == ""
    onlooker = state_for(s, None, game_master=False)
    assert sorted(onlooker["mines"]) == ["m3"]
    assert onlooker["fighters"]["d_sap"]["sapper_object"] == "" == onlooker["fighters"]["a_sap"]["sapper_object"]
    assert s == full_state()  # the input is left as it was


def test_v_mine_1_nothing_hidden_keeps_the_fighters_as_they_are():
    s = full_state()
    s["fighters"] = {"d1": {"side": "defender", "sapper_object": "W"}}
    out = state_for(s, "attacker", game_master=False)
    assert out["fighters"] is s["fighters"] and out is not s


def test_v_mine_1_a_state_without_mines_or_fighters():
    out = state_for({"turn": 1}, "attacker", game_master=False)
    assert out == {"turn": 1, "mines": {}}


# --- event_for (V-MINE-1, V-SAP-3) ----------------------------------------------------------------------------------
@pytest.mark.parametrize("type_", ["sapper_worked", "sapper_approached"])
def test_v_sap_3_the_enemy_sees_a_sapper_at_work_without_the_object(type_):
    s = full_state()
    data = {"sapper": "d_sap", "object": "m1", "distance": 2.0, "kind": "ap", "action": "lay"}
    assert event_for(type_, data, side="attacker", game_master=False, state=s) == {
        "sapper": "d_sap", "distance": 2.0, REDACTED: True}
    assert event_for(type_, data, side=None, game_master=False, state=s) == {
        "sapper": "d_sap", "distance": 2.0, REDACTED: True}
    assert event_for(type_, data, side="defender", game_master=False, state=s) is data
    assert event_for(type_, data, side="attacker", game_master=True, state=s) is data


def test_v_sap_3_without_a_distance_only_the_sapper_is_kept():
    s = full_state()
    data = {"sapper": "d_sap", "object": "m1", "action": "lay"}
    assert event_for("sapper_worked", data, side="attacker", game_master=False, state=s) == {
        "sapper": "d_sap", REDACTED: True}


def test_v_mine_14_work_on_a_revealed_mine_or_on_wire_is_seen_whole():
    s = full_state()
    for obj in ("m3", "W"):
        data = {"sapper": "d_sap", "object": obj, "distance": 1.0}
        assert event_for("sapper_worked", data, side="attacker", game_master=False, state=s) is data


def test_other_events_are_never_redacted():
    s = full_state()
    data = {"sapper": "d_sap", "object": "m1"}
    assert event_for("mine_triggered", data, side="attacker", game_master=False, state=s) is data


def test_v_sap_3_an_unknown_sapper_fails_closed():
    s = full_state()
    data = {"sapper": "ghost", "object": "spot", "distance": 3.0}
    assert event_for("sapper_approached", data, side="attacker", game_master=False, state=s)[REDACTED] is True
    assert event_for("sapper_approached", data, side=None, game_master=False, state={})[REDACTED] is True


def test_v_sap_3_a_side_sees_its_own_sapper_going_to_a_spot_where_no_mine_is_yet():
    s = full_state()
    data = {"sapper": "a_sap", "object": "spot", "distance": 2.0}
    assert event_for("sapper_approached", data, side="attacker", game_master=False, state=s) is data
    assert event_for("sapper_approached", data, side="defender", game_master=False, state=s) == {
        "sapper": "a_sap", "distance": 2.0, REDACTED: True}
