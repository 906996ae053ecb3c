"""Refusals that name sides and phases to the players, and a defence table
without a row for the target's class (issue 11: mutation kill rate)."""
from types import MappingProxyType

import pytest

from battles.engine.rules.common import side_ru

from .table import D, at_turn, standard


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


# --- V-TURN-9 / V-TURN-10: too late in the turn, naming the phase missed -------------------------------------
def _after_fire():
    t = standard()
    t.postures("defender", D="recon")
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(3)}])
    return t


def test_v_turn_10_a_fighter_moving_after_fire_is_told_movement_is_over():
    t = _after_fire()
    err = t.refused("fighters_moved", side="defender", fighters=["d3"], distance=1)
    assert err.rule_id == "V-TURN-10"
    assert err.message_en == "Too late for movement in this turn: the turn has moved on."
    assert err.message_ru == "После стрельбы/движения передвижение в этом ходу уже невозможно."


def test_v_turn_10_a_vehicle_moving_after_fire_is_told_movement_is_over():
    t = _after_fire()
    err = t.refused("vehicle_moved", vehicle="DT4", distance=1)
    assert err.rule_id == "V-TURN-10"
    assert "Too late for movement" in err.message_en and "передвижение" in err.message_ru


def test_v_turn_9_postures_declared_after_moving_are_too_late_for_declaring_postures():
    t = standard()
    t.postures("defender", D="recon")
    t.add("fighters_moved", side="defender", fighters=["d1"], distance=6)
    err = t.refused("postures_declared", side="defender", units={"D": "recon", "DC": "dug_in"})
    assert err.rule_id == "V-TURN-9"
    assert err.message_en == "Too late for declaring postures in this turn: the turn has moved on."
    assert err.message_ru == "После стрельбы/движения объявление положений в этом ходу уже невозможно."


# --- G-1 / G-2: a class the master's defence table does not list defends with 0 --------------------------------
@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g1_g2_a_defence_table_without_the_target_s_class_gives_defence_0(die, wounded):
    """G-1, G-2: the master's defence table (a read-only mapping, taken whole) has a row for snipers
    only; a rifleman, absent from it, is hit on d20 + 0 - 0 >= 11: the fire resolves, it is not set
    aside as having nothing to act on."""
    t = at_turn({"defence": MappingProxyType({"sniper": 5})})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded
    assert t.state.unapplied == []
    t.fire("a2", "rifle", struck=[{"fighter": "d_snp", "die": D(15)}])
    assert not t.f("d_snp").wounded  # 15 - 5 < 11: the sniper's row is read
