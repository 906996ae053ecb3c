"""What the FoW table offers a side now comes from the checks that would refuse
it: who may move and how far (G-F1, F-DBL-1, F-DBL-7, F-DBL-8, F-DIG-1,
F-TRAIN-21, F-TRAIN-25), who may shoot and with how many dice (G-F1 Rate of
Fire, F-DIG-6, F-DBL-10, F-DBL-11), who may Go to Ground (G-F1, F-DIG-16),
which platoons may Dig In (F-DIG-1) and which trains may move (F-TRAIN-19)."""
from __future__ import annotations

import pytest

from battles.engine.fold import merge_rules
from battles.engine.fow import offers

from .table import Table, d
from .trains_helpers import enter, lay, move, next_own_turn
from .trains_helpers import table as train_table

RULES = merge_rules(None, "fow")


def movers(t: Table, side: str = "attacker") -> dict[str, tuple[float, float | None]]:
    return {m.team: (m.limit, m.double) for m in offers.movers(t.state, side, RULES)}


@pytest.mark.parametrize("units,inf,tank,is2", [("in", 6, 12, 8), ("cm", 15, 30, 20)])
def test_g_f1_f_dbl_1_movers_with_movement_and_at_the_double_in_the_battles_units(units, inf, tank, is2):
    t = Table(units=units)
    got = movers(t)
    assert got["a1"] == (inf, 2 * inf) and got["t1"] == (tank, 2 * tank) and got["is2"] == (is2, 2 * is2)
    assert movers(t, "defender") == {}  # not its turn


def test_f_dbl_7_a_pinned_platoon_moves_but_not_at_the_double_and_a_moved_team_is_not_offered_again():
    t = Table()
    t.add(("status_set", {"subject": "A1", "status": "pinned"}))
    t.add(("team_moved", {"team": "t1", "distance": 5}))
    got = movers(t)
    assert got["a1"] == (6, None) and "t1" not in got


def test_f_dig_1_a_platoon_that_dug_in_neither_moves_nor_digs_again():
    t = Table()
    assert "A1" in offers.diggers(t.state, "attacker", RULES) and "AT" not in offers.diggers(t.state, "attacker", RULES)
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(2)}))
    assert "a1" not in movers(t) and "A1" not in offers.diggers(t.state, "attacker", RULES)


def test_g_f1_f_dig_6_shooters_roll_two_dice_stationary_one_after_moving_or_digging():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "teams": [{"id": "a1", "kind": "infantry"},
                                                                      {"id": "a2", "kind": "infantry"}]},
                          {"id": "A2", "kind": "infantry", "teams": [{"id": "a3", "kind": "infantry", "rof": 3,
                                                                      "rof_moved": 2}]}))
    t.add(("team_moved", {"team": "a1", "distance": 3}))
    got = {s.team: s.dice for s in offers.shooters(t.state, "attacker", RULES)}
    assert got == {"a1": 1, "a2": 2, "a3": 3}
    t.add(("dig_in_attempted", {"platoon": "A2", "die": d(6)}))
    assert {s.team: s.dice for s in offers.shooters(t.state, "attacker", RULES)}["a3"] == 2  # F-DIG-6


def test_f_dbl_8_a_team_at_the_double_neither_shoots_nor_assaults_and_f_dbl_10_doubles_the_dice_at_it():
    t = Table()
    t.add(("team_moved", {"team": "a1", "distance": 12, "at_the_double": True}))
    assert "a1" not in {s.team for s in offers.shooters(t.state, "attacker", RULES)}
    assert "a1" not in offers.assaulters(t.state, "attacker", RULES)
    t.end_turn()
    assert offers.doubled(t.state, "a1") and not offers.doubled(t.state, "a2")
    assert offers.shot_dice(t.state, "d1", "a1", "direct", RULES) == (4, "F-DBL-10")
    assert offers.shot_dice(t.state, "d1", "a1", "artillery", RULES) == (2, "F-DBL-11")
    assert offers.shot_dice(t.state, "d1", "a2", "direct", RULES) == (2, "G-F1")


def test_g_f1_f_dig_16_who_may_go_to_ground():
    t = Table()
    t.add(("team_moved", {"team": "a1", "distance": 3}))
    t.add(("team_shot", {"shooter": "t1", "target": "d1", "dice": [d(3), d(3)]}))
    assert set(offers.grounders(t.state, "attacker", RULES)) == {"a2", "is2"}


def test_f_train_19_to_25_trains_move_once_on_the_table_and_their_wagons_and_riding_escorts_never_alone():
    t = train_table()
    lay(t)
    assert offers.trains(t.state, "attacker", RULES) == []  # F-TRAIN-14: not entered yet
    assert "w1" not in movers(t) and "ts1" not in movers(t)  # off the table
    t.add(enter(12, 10))
    assert "ts1" not in movers(t)  # F-TRAIN-25: riding the train
    next_own_turn(t)
    assert offers.trains(t.state, "attacker", RULES) == [("BP", 16.0)]
    assert "w1" not in movers(t)  # F-TRAIN-21
    t.add(move(5))
    assert offers.trains(t.state, "attacker", RULES) == []  # F-TRAIN-19: once a turn
