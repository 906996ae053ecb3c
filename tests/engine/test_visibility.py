"""Hidden information (V-MINE-1, V-MINE-13, V-MINE-14): a mine is known to the
side that laid it, to everyone once an enemy sapper has revealed it, and to
the game master always. Given events, when a reader asks, then what he sees."""
from __future__ import annotations

import json

from battles.engine import dump
from battles.engine.visibility import event_for, mine_known, state_for

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
