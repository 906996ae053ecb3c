"""The log's skeleton (``battles/engine/rules/core.py``: V-TURN-8, V-TURN-12, V-TURN-13): a battle starts once, the
sides alternate with each turn's record of seqs, it ends with a winner, and a
correction voids only an earlier, not yet voided, non-correction event."""

import pytest

from battles.engine.rules.common import side_ru

from .table import D, Table, attacker_turn, standard


def test_s_not_started_nothing_happens_before_battle_started():
    t = standard(start=False)
    for type_, data in (("turn_ended", dict(side="defender", turn=1)), ("battle_ended", dict(winner="draw")),
                        ("postures_declared", dict(side="defender", units={"D": "recon", "DC": "dug_in"}))):
        assert t.refused(type_, **data).rule_id == "S-NOT-STARTED"


def test_v_turn_8_battle_started_the_defender_moves_first_in_turn_1():
    t = standard(start=False)
    seq = t.state.last_seq + 1
    t.add("battle_started", attacker="Вермахт", defender="РККА")
    s = t.state
    assert (s.status, s.attacker, s.defender, s.ruleset) == ("running", "Вермахт", "РККА", "v11.2")
    assert (s.first_mover, s.turn, s.side_to_move, s.ply, s.phase) == ("defender", 1, "defender", 0, "posture")
    assert [(r.number, r.side, r.first_seq, r.last_seq) for r in s.turns] == [(1, "defender", seq, seq)]
    assert t.refused("battle_started", attacker="X", defender="Y").rule_id == "S-STARTED-TWICE"


def test_v_turn_12_the_side_to_move_ends_the_current_turn_and_the_other_side_moves():
    t = standard()
    assert t.refused("turn_ended", side="attacker", turn=1).rule_id == "V-TURN-12"
    assert t.refused("turn_ended", side="defender", turn=2).rule_id == "V-TURN-12"
    t.postures("defender")
    seq = t.state.last_seq + 1
    t.add("turn_ended", side="defender", turn=1)
    s = t.state
    assert (s.turn, s.side_to_move, s.ply, s.phase) == (1, "attacker", 1, "posture")
    assert [(r.number, r.side, r.first_seq, r.last_seq) for r in s.turns] == \
        [(1, "defender", seq - 2, seq), (1, "attacker", seq + 1, seq)]
    t.postures("attacker")
    t.add("turn_ended", side="attacker", turn=1)
    s = t.state
    assert (s.turn, s.side_to_move, s.ply) == (2, "defender", 2)  # both sides moved: turn 2
    assert [(r.number, r.side) for r in s.turns] == [(1, "defender"), (1, "attacker"), (2, "defender")]
    assert s.turns[1].last_seq == s.last_seq and s.turns[2].first_seq == s.last_seq + 1
    assert t.refused("turn_ended", side="defender", turn=1).rule_id == "V-TURN-12"


def test_v_smoke_5_only_the_side_whose_turn_opens_loses_its_smoke():
    t = standard()
    t.postures("defender")
    t.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=2, smoke="S1")
    t.end_turn()
    assert "S1" in t.state.smoke  # the attacker's turn opens: the defender's smoke stays
    t.postures("attacker")
    t.end_turn()
    assert "S1" not in t.state.smoke


def test_battle_ended_with_its_winner_and_nothing_after_but_corrections():
    t = standard()
    t.postures("defender")
    seq = t.state.last_seq + 1
    t.add("battle_ended", winner="attacker", reason="flag taken")
    s = t.state
    assert (s.status, s.winner, s.end_reason, s.side_to_move) == ("ended", "attacker", "flag taken", None)
    assert s.turns[-1].last_seq == seq and len(s.turns) == 1
    for type_, data in (("turn_ended", dict(side="defender", turn=1)), ("battle_ended", dict(winner="draw")),
                        ("fire", dict(shooter="d1", weapon="rifle", target="fighters", distance=3,
                                      struck=[{"fighter": "a1", "die": D(15)}]))):
        assert t.refused(type_, **data).rule_id == "S-ENDED"
    t.add("correction", voids_seq=seq, reason="not over yet")
    assert t.state.status == "running"


# --- V-TURN-13: corrections ------------------------------------------------------------------------------------
def test_v_turn_13_a_correction_voids_an_earlier_event_once_and_is_never_voided():
    t = Table()
    t.add("terrain_placed", houses=["H1"])
    t.add("terrain_placed", houses=["H2"])
    t.add("terrain_placed", houses=["H3"])
    nxt = t.state.last_seq + 1
    assert t.refused("correction", voids_seq=nxt, reason="x").rule_id == "V-TURN-13"  # itself
    assert t.refused("correction", voids_seq=nxt + 1, reason="x").rule_id == "V-TURN-13"  # a later one
    t.add("correction", voids_seq=3, reason="third house was a mistake")
    t.add("correction", voids_seq=1, reason="so was the first")
    assert (t.state.corrections, t.state.voided) == ([4, 5], [1, 3])
    assert set(t.state.buildings) == {"H2"}
    assert t.refused("correction", voids_seq=3, reason="again").rule_id == "V-TURN-13"
    assert t.refused("correction", voids_seq=4, reason="undo").rule_id == "V-TURN-13"
    t.add("correction", voids_seq=2, reason="and the second")
    assert t.state.voided == [1, 2, 3] and not t.state.buildings


# --- V-TURN-12: the side out of turn is told whose turn it is, in Russian too ---------------------------------
@pytest.mark.parametrize(("side", "expected"), [("attacker", "атакующие"), ("defender", "обороняющиеся"),
                                                (None, "никто"), ("", "никто")])
def test_v_turn_12_sides_read_in_russian(side, expected):
    """V-TURN-12: a refusal names the sides as people read them, never the raw key."""
    assert side_ru(side) == expected


def test_v_turn_12_the_attacker_out_of_turn_is_told_the_defenders_move():
    t = standard()  # the defender moves first
    err = t.refused("turn_ended", side="attacker", turn=1)
    assert err.rule_id == "V-TURN-12"
    assert err.message_ru == "Сейчас ходят обороняющиеся, а не атакующие."
    assert err.message_en == "It is the defender's turn, not the attacker's."


def test_v_turn_12_the_defender_out_of_turn_is_told_the_attackers_move():
    t = standard()
    t.postures("defender")
    t.end_turn()
    err = t.refused("postures_declared", side="defender", units={"D": "recon", "DC": "dug_in"})
    assert err.rule_id == "V-TURN-12"
    assert err.message_ru == "Сейчас ходят атакующие, а не обороняющиеся."
    assert err.message_en == "It is the attacker's turn, not the defender's."


def test_a_battle_ends_with_its_winner_and_the_reason_the_table_gave():
    t = attacker_turn(standard())
    t.add("battle_ended", winner="defender", reason="Наступающие отошли.")
    assert (t.state.status, t.state.winner, t.state.end_reason) == ("ended", "defender", "Наступающие отошли.")


def test_each_turn_is_recorded_with_its_number_side_and_events_for_the_battle_report():
    t = attacker_turn(standard())
    t.end_turn()
    last_seq = t.state.last_seq
    record = t.state.turns[-1]
    assert (record.number, record.side) == (t.state.turn, t.state.side_to_move)
    assert (record.first_seq, record.last_seq) == (last_seq + 1, last_seq)  # nothing recorded in it yet
    previous = t.state.turns[-2]
    assert previous.side != record.side and previous.last_seq == last_seq


def test_nothing_but_battle_started_is_recorded_before_the_battle_starts():
    from battles.engine import BattleState, RuleViolation, decide

    with pytest.raises(RuleViolation) as exc:
        decide(BattleState(), [("turn_ended", {"side": "attacker", "turn": 1}, None)], first_seq=1)
    assert exc.value.rule_id == "S-NOT-STARTED"
