"""V-TURN-13: nothing is undone once a turn is over. The muster and the start
are never voided (they carry every piece); a player takes back only his side's
last entry while his turn is on; after that only the game master voids."""
import pytest

from battles.engine import authorize
from battles.engine.actors import GAME_MASTER, NotYours, recorder
from battles.engine.rules.core import Correction

from .table import D, at_turn, standard


def test_v_turn_13_the_muster_and_the_start_cannot_be_voided_by_anyone():
    t = at_turn()
    for seq in (1, 2, 3, 4):  # terrain, the two musters, battle_started
        assert t.refused("correction", voids_seq=seq, reason="ошибка").rule_id == "V-TURN-13"
    t.add("correction", voids_seq=5, reason="не те положения")  # the first entry after the start may be voided
    assert 5 in t.state.voided


def test_v_turn_13_before_the_start_the_set_up_may_still_be_voided():
    t = standard(start=False)
    t.add("correction", voids_seq=2, reason="не тот ростер")
    assert 2 in t.state.voided


def test_v_turn_13_a_player_takes_back_his_last_entry_in_his_turn():
    t = at_turn()
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(20)}])
    assert t.f("d1").wounded
    shot = t.state.last_seq
    t.add("correction", voids_seq=shot, reason="не тот стрелок", side="attacker")
    assert shot in t.state.voided and not t.f("d1").wounded


def test_v_turn_13_only_the_last_entry_and_only_by_the_side_to_move():
    t = at_turn()
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(20)}])
    shot = t.state.last_seq
    assert t.refused("correction", voids_seq=shot, reason="x", side="defender").rule_id == "V-TURN-13"
    t.fire("a2", "rifle", struck=[{"fighter": "d2", "die": D(3)}])
    # something followed it: the first shot is no longer the last entry
    assert t.refused("correction", voids_seq=shot, reason="x", side="attacker").rule_id == "V-TURN-13"


def test_v_turn_13_once_the_turn_is_over_only_the_game_master_voids():
    t = at_turn()
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(20)}])
    t.end_turn()
    ended = t.state.last_seq
    # the defender's turn opened with the attacker's «Ход»: neither side takes it back
    assert t.refused("correction", voids_seq=ended, reason="x", side="defender").rule_id == "V-TURN-13"
    assert t.refused("correction", voids_seq=ended, reason="x", side="attacker").rule_id == "V-TURN-13"
    t.add("correction", voids_seq=ended - 1, reason="мастер исправил")
    assert ended - 1 in t.state.voided


def test_v_turn_13_who_records_a_correction():
    t = at_turn()
    gm = Correction(voids_seq=5, reason="x")
    mine = Correction(voids_seq=5, reason="x", side="attacker")
    assert recorder(t.state, "correction", gm) == GAME_MASTER
    assert recorder(t.state, "correction", mine) == "attacker"
    assert authorize(t.state, "correction", mine, side="attacker") is False
    with pytest.raises(NotYours):
        authorize(t.state, "correction", mine, side="defender")
    with pytest.raises(NotYours):
        authorize(t.state, "correction", gm, side="attacker")
