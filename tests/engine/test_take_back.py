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


# --- V-TURN-12 with two players on a side -----------------------------------------------------------------------
def two_players(*, postures: bool = True):
    """The defender played by ivan (squad D) and petr (squad P): each mustered his own roster."""
    from .table import F, Table

    t = Table()
    t.add("force_mustered", side="defender", units=[{"id": "D", "player": "ivan"}, {"id": "P", "player": "petr"}],
          fighters=[{**F("d1", "D"), "player": "ivan"}, {**F("p1", "P"), "player": "petr"}])
    t.add("force_mustered", side="attacker", units=[{"id": "A", "player": "hans"}],
          fighters=[{**F("a1", "A"), "player": "hans"}])
    t.add("battle_started", attacker="Вермахт", defender="РККА")
    if postures:
        t.add("postures_declared", side="defender", units={"D": "recon", "P": "recon"})
    return t


def test_v_turn_12_the_side_ends_its_turn_only_when_each_of_its_players_said_hod():
    from battles.engine.rules.core import players, waiting_for

    t = two_players()
    assert players(t.state, "defender") == ["ivan", "petr"] and waiting_for(t.state) == ["ivan", "petr"]
    err = t.refused("turn_ended", side="defender", turn=1)
    assert err.rule_id == "V-TURN-12" and "ivan, petr" in err.message_en
    t.add("player_done", side="defender", turn=1, player="ivan")
    assert waiting_for(t.state) == ["petr"] and t.state.side_to_move == "defender"
    assert t.refused("player_done", side="defender", turn=1, player="ivan").rule_id == "V-TURN-12"
    assert "petr" in t.refused("turn_ended", side="defender", turn=1).message_en
    t.add("player_done", side="defender", turn=1, player="petr")
    t.add("turn_ended", side="defender", turn=1)
    assert t.state.side_to_move == "attacker" and t.state.done == []
    # one player on the attacking side: his «Ход» is the side's, as always
    assert waiting_for(t.state) == []
    t.add("postures_declared", side="attacker", units={"A": "recon"})
    t.add("turn_ended", side="attacker", turn=1)
    assert t.state.side_to_move == "defender" and waiting_for(t.state) == ["ivan", "petr"]


def test_v_turn_12_only_a_player_of_the_side_to_move_is_done():
    t = two_players()
    assert t.refused("player_done", side="attacker", turn=1, player="hans").rule_id == "V-TURN-12"
    assert t.refused("player_done", side="defender", turn=1, player="hans").rule_id == "S-UNKNOWN"
    assert t.refused("player_done", side="defender", turn=2, player="ivan").rule_id == "V-TURN-12"


# --- re-muster before the first «Ход» ------------------------------------------------------------------------------
def test_v_turn_13_a_side_is_mustered_anew_before_the_first_hod_and_never_after():
    from .table import F

    t = standard()
    assert t.state.ply == 0 and "d1" in t.state.fighters
    t.add("force_mustered", side="defender", replace=True, units=[{"id": "D", "commander": "d_sgt"}],
          fighters=[F("d_sgt", "D", rank="sergeant"), F("d1", "D"), F("d9", "D")])
    defenders = sorted(f for f, x in t.state.fighters.items() if x.side == "defender")
    assert defenders == ["d1", "d9", "d_sgt"]  # the earlier muster left the table
    assert "a1" in t.state.fighters  # the other side untouched
    t.postures("defender")
    t.end_turn()
    err = t.refused("force_mustered", side="attacker", replace=True, fighters=[F("a9")])
    assert err.rule_id == "V-TURN-13"
    t.add("force_mustered", side="attacker", fighters=[F("a9")])  # reinforcements stay possible
    assert "a9" in t.state.fighters and "a1" in t.state.fighters


def test_v_turn_9_each_player_of_a_shared_side_declares_his_own_units_and_the_turn_opens_with_the_last():
    from .table import F

    t = two_players(postures=False)
    t.add("postures_declared", side="defender", units={"D": "recon"})  # ivan's roster only
    assert t.state.postures_ply != t.state.ply  # petr's squad still to declare: the turn is not open
    assert t.refused("fighters_moved", side="defender", fighters=["d1"], distance=1).rule_id == "V-TURN-9"
    t.add("postures_declared", side="defender", units={"P": "assault"})
    assert t.state.postures_ply == t.state.ply
    t.add("fighters_moved", side="defender", fighters=["d1", "p1"], distance=1)
    # one player alone on a side still declares every unit at once
    t.add("player_done", side="defender", turn=1, player="ivan")
    t.add("player_done", side="defender", turn=1, player="petr")
    t.add("turn_ended", side="defender", turn=1)
    t.add("force_mustered", side="attacker", units=[{"id": "A2", "player": "hans"}],
          fighters=[{**F("a2", "A2"), "player": "hans"}])
    assert t.refused("postures_declared", side="attacker", units={"A": "recon"}).rule_id == "V-TURN-9"
