"""«Отходим!» (F-RECON-15..24): who may disengage and when, the declaration, the one shot, the Skill test,
the moves away and the remaining shots; each refusal with its rule ID."""
from __future__ import annotations

import pytest

from .recon_helpers import LONE_D, cm, tb
from .table import INFANTRY_A, INFANTRY_D, Table, d, team


# --- F-RECON-15 .. F-RECON-24: «Отходим!» ------------------------------------------------------------
def shot(shooter: str, target: str, n: int) -> tuple[str, dict]:
    return ("team_shot", {"shooter": shooter, "target": target, "dice": [d(4)] * n})


def declare(pl: str = "DR", *shooters: str) -> tuple[str, dict]:
    return ("disengage_declared", {"platoon": pl, "shooters": list(shooters or ("a1",))})


def disengage(die: int, *moves: dict, pl: str = "DR", **kw) -> tuple[str, dict]:
    return ("disengaged", {"platoon": pl, "die": d(die), "moves": list(moves), **kw})


def mv(tid: str, dist: float = 5, **kw) -> dict:
    return {"team": tid, "distance": dist, **kw}


def fired_on(units: str = "in") -> Table:
    """The attacker's a1 opens fire at the defender's scouts; they declare, a1 fires its one shot."""
    t = tb(units)
    t.add(declare("DR", "a1"), shot("a1", "dr1", 1))
    return t


def test_f_recon_15_only_when_fired_on_in_the_enemy_shooting_step():
    t = tb()
    t.refused("F-RECON-15", declare("RA", "d1"))  # the attacker's own turn
    t.add(declare("DR", "a1"))


@pytest.mark.parametrize("action", ["shoot", "double", "assault", "artillery"])
def test_f_recon_15_not_after_shooting_moving_at_the_double_or_assaulting_in_its_previous_turn(action):
    t = tb(first="defender")
    if action == "shoot":
        t.add(shot("dl1", "a1", 2))
    elif action == "artillery":
        t.add(("team_shot", {"shooter": "dl1", "target": "a1", "kind": "artillery", "dice": [d(4)] * 2}))
    elif action == "double":
        t.add(("team_moved", {"team": "dl1", "distance": 12, "at_the_double": True}))
    else:
        t.add(("assault_launched", {"teams": ["dl1"], "against": "A1"}))
    t.end_turn()
    t.refused("F-RECON-15", declare("DL", "a1"))
    t.end_turn()
    t.end_turn()  # a quiet turn of its own later: it may again
    t.add(declare("DL", "a1"))


def test_f_recon_15_a_team_that_shot_in_its_last_turn_may_not_disengage_with_its_platoon():
    t = tb(first="defender")
    t.add(shot("dr1", "a1", 2))
    t.end_turn()
    t.add(declare("DR", "a1"), shot("a1", "drj", 1))
    t.refused("F-RECON-15", disengage(4, mv("dr1")))
    t.add(disengage(4, mv("drj")))


def test_f_recon_15_the_shooters_named_are_enemy_teams():
    """F-RECON-15: the platoon Disengages from the enemy's fire; its own team is no shooter (S-TARGET)."""
    t = tb()
    t.refused("S-TARGET", declare("DR", "dr1"))
    assert "DR" not in t.state.disengagements


def test_f_recon_16_declared_before_any_to_hit_roll_and_only_once():
    t = tb()
    t.refused("F-RECON-16", disengage(4))  # nothing declared
    t.add(shot("a2", "d1", 2))
    t.refused("F-RECON-16", declare("DR", "a2"))  # a2 has already rolled to hit
    t.add(declare("DR", "a1"))
    t.refused("F-RECON-16", declare("DR", "a1"))


def test_f_recon_17_each_shooter_first_fires_one_shot_at_the_current_position():
    t = tb()
    t.add(declare("DR", "a1", "a2"))
    t.refused("F-RECON-17", shot("a1", "dr1", 2))
    t.add(shot("a1", "dr1", 1), shot("a2", "drx", 1))
    t.add(shot("a1", "d1", 2))  # other targets are not affected
    assert t.state.disengagements["DR"].shooters == ["a1", "a2"]


@pytest.mark.parametrize("die,passed", [(4, True), (3, False)])
def test_f_recon_18_after_those_shots_the_platoon_takes_a_skill_test(die, passed):
    t = tb()
    t.add(declare("DR", "a1", "a2"), shot("a1", "dr1", 1))
    t.refused("F-RECON-18", disengage(die))  # a2 has not fired its one shot yet
    t.refused("F-RECON-18", shot("a1", "dr1", 1))  # no second shot before the test
    t.add(shot("a2", "dr1", 1), disengage(die))
    rec = t.state.tests[-1]
    assert (rec.purpose, rec.subject, rec.passed, rec.rolls) == ("disengage", "DR", passed, [die])


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_19_passed_recon_teams_move_up_to_their_movement_away_from_the_shooters(units):
    t = fired_on(units)
    t.refused("F-RECON-19", disengage(4, mv("dr1", cm(units, 6) + 0.1)))
    t.refused("F-RECON-19", disengage(4, mv("drj", 2, further_away=False)))
    t.add(disengage(4, mv("dr1", cm(units, 6)), mv("drj", cm(units, 12))))
    assert t.t("dr1").disengage_ply == t.state.ply == t.t("drj").disengage_ply
    assert t.t("dr1").gone_to_ground  # Cautious Movement still holds


@pytest.mark.parametrize("status", ["bogged", "bailed_out"])
def test_f_recon_19_bogged_down_or_bailed_out_teams_do_not_disengage(status):
    t = fired_on()
    t.add(("status_set", {"subject": "drj", "status": status}))
    t.refused("F-RECON-19", disengage(6, mv("drj")))
    t.add(disengage(6, mv("dr1")))


def test_f_recon_20_a_disengaging_team_may_not_move_at_the_double():
    t = fired_on()
    t.refused("F-RECON-20", disengage(6, mv("drj", 4, at_the_double=True)))


def test_f_recon_21_non_recon_teams_and_scouts_that_choose_to_stay_stay_where_they_are():
    t = fired_on()
    t.refused("F-RECON-21", disengage(6, mv("drx")))
    t.add(disengage(6, mv("drj")))
    assert t.t("dr1").disengage_ply == -1 and t.t("drx").disengage_ply == -1


def test_f_recon_22_after_a_failed_test_the_scouts_stay_where_they_are():
    t = fired_on()
    t.refused("F-RECON-22", disengage(3, mv("dr1")))
    t.add(disengage(3))
    assert not t.state.disengagements["DR"].passed and t.t("dr1").disengage_ply == -1


def test_f_recon_23_the_remaining_shots_follow_at_the_new_position():
    t = fired_on()
    t.add(disengage(5, mv("dr1")))
    t.refused("F-RECON-23", shot("a1", "dr1", 2))  # two dice less the one already fired
    t.add(shot("a1", "dr1", 1))


def test_f_recon_23_the_remaining_shots_follow_after_a_failed_test_too():
    t = fired_on()
    t.add(disengage(2))
    t.add(shot("a1", "drx", 1))


def test_f_recon_24_when_the_whole_platoon_is_out_of_reach_the_remaining_shots_miss():
    t = tb()
    t.add(declare("DL", "a1"), shot("a1", "dl1", 1))
    t.add(disengage(4, mv("dl1"), pl="DL", out_of_reach=True))
    t.refused("F-RECON-24", shot("a1", "dl1", 1))


def test_f_recon_24_not_out_of_reach_while_a_team_of_the_platoon_stayed():
    t = fired_on()
    t.refused("F-RECON-24", disengage(4, mv("dr1"), mv("drj"), out_of_reach=True))  # drx stayed
    t.add(("status_set", {"subject": "drx", "status": "destroyed"}))
    t.add(disengage(4, mv("dr1"), mv("drj"), out_of_reach=True))


# --- «Отходим!»: declaring (F-RECON-15, F-RECON-16) ----------------------------------------------------
def test_s_unknown_s_dead_and_s_ended_on_a_disengage_declaration():
    t = tb()
    t.refused("S-UNKNOWN", declare("XX", "a1"))
    t.refused("S-UNKNOWN", declare("DR", "ghost"))
    t.add(("status_set", {"subject": "a2", "status": "destroyed"}))
    t.refused("S-DEAD", declare("DR", "a1", "a2"))
    t.add(("battle_ended", {"winner": "draw"}))
    t.refused("S-ENDED", declare("DR", "a1"))


@pytest.mark.parametrize("pl", ["D1", "DI"])
def test_f_recon_15_a_platoon_without_a_recon_team_does_not_disengage(pl):
    t = tb()
    t.refused("F-RECON-15", declare(pl, "a1"))


def test_f_recon_15_a_platoon_whose_scouts_are_all_destroyed_does_not_disengage():
    t = tb()
    t.add(("status_set", {"subject": "dl1", "status": "destroyed"}))
    t.refused("F-RECON-15", declare("DL", "a1"))
    t.add(("status_set", {"subject": "dr1", "status": "destroyed"}))
    t.add(declare("DR", "a1"))  # drj still may


def test_f_recon_16_a_declaration_of_an_earlier_shooting_step_does_not_stop_a_new_one():
    t = tb()
    t.add(declare("DR", "a1"))
    t.end_turn()
    t.end_turn()
    t.add(declare("DR", "a2"))
    dis = t.state.disengagements["DR"]
    assert (dis.platoon, dis.ply, dis.shooters, dis.stage) == ("DR", 2, ["a2"], "declared")


def test_f_recon_16_disengaging_needs_a_declaration_of_this_shooting_step():
    t = tb()
    t.add(declare("DR", "a1"), shot("a1", "dr1", 1))
    t.end_turn()
    t.end_turn()
    t.refused("F-RECON-16", disengage(4))
    t.refused("S-UNKNOWN", disengage(4, pl="XX"))


# --- «Отходим!»: the Skill test and the moves (F-RECON-18..24) -----------------------------------------
def test_f_recon_16_a_disengage_is_resolved_once():
    t = fired_on()
    t.add(disengage(4, mv("dr1")))
    t.refused("F-RECON-16", disengage(4))


def test_f_recon_18_a_shooter_destroyed_before_its_one_shot_does_not_hold_up_the_test():
    t = tb()
    t.add(declare("DR", "a1", "a2"), shot("a1", "dr1", 1))
    t.refused("F-RECON-18", disengage(4))
    t.add(("status_set", {"subject": "a2", "status": "destroyed"}))
    t.add(disengage(4, mv("dr1")))


@pytest.mark.parametrize("die,passed", [(3, True), (2, False)])
def test_f_recon_18_the_skill_test_uses_the_platoons_own_skill(die, passed):
    skilled = {"id": "DS", "kind": "recon", "skill": 3, "teams": [team("ds1"), team("ds2")]}
    t = Table(platoons_d=(skilled,))
    t.add(declare("DS", "a1"), shot("a1", "ds1", 1))
    if passed:
        t.add(disengage(die, mv("ds1"), pl="DS"))
    else:
        t.refused("F-RECON-22", disengage(die, mv("ds1"), pl="DS"))
        t.add(disengage(die, pl="DS"))
    rec = t.state.tests[-1]
    assert (rec.kind, rec.subject, rec.purpose, rec.rolls, rec.passed) == ("skill", "DS", "disengage", [die], passed)
    assert rec.seq == t.state.last_seq


def test_s_duplicate_s_unknown_and_s_dead_the_teams_disengaging_are_live_teams_of_the_platoon_named_once():
    t = fired_on()
    t.refused("S-DUPLICATE", disengage(4, mv("dr1"), mv("dr1")))
    t.refused("S-UNKNOWN", disengage(4, mv("dl1")))  # a recon team, but of another platoon
    t.refused("S-UNKNOWN", disengage(4, mv("ghost")))
    t.add(("status_set", {"subject": "drj", "status": "destroyed"}))
    t.refused("S-DEAD", disengage(4, mv("drj")))


@pytest.mark.parametrize("units", ["in", "cm"])
def test_f_recon_19_a_team_with_its_own_movement_disengages_up_to_it(units):
    scouts = {"id": "DS", "kind": "recon", "teams": [team("ds1", movement=cm(units, 9))]}
    t = Table(units=units, platoons_d=(scouts,))
    t.add(declare("DS", "a1"), shot("a1", "ds1", 1))
    exc = t.refused("F-RECON-19", disengage(4, mv("ds1", cm(units, 9) + 0.1), pl="DS"))
    assert f"{cm(units, 9):g}" in exc.message_en
    t.add(disengage(4, mv("ds1", cm(units, 9)), pl="DS"))


def test_f_recon_19_to_24_the_state_after_disengaging():
    t = fired_on()
    t.add(disengage(5, mv("dr1"), mv("drj")))
    dis = t.state.disengagements["DR"]
    assert (dis.stage, dis.passed, dis.out_of_reach, dis.moved) == ("resolved", True, False, ["dr1", "drj"])
    assert [t.t(x).disengage_ply for x in ("dr1", "drj", "drx")] == [t.state.ply, t.state.ply, -1]


def test_f_recon_24_out_of_reach_is_kept_in_the_state():
    t = tb()
    t.add(declare("DL", "a1"), shot("a1", "dl1", 1), disengage(6, mv("dl1"), pl="DL", out_of_reach=True))
    dis = t.state.disengagements["DL"]
    assert (dis.stage, dis.passed, dis.out_of_reach, dis.moved) == ("resolved", True, True, ["dl1"])


def test_f_recon_23_other_shooters_and_other_platoons_are_not_affected():
    t = fired_on()
    t.add(disengage(5, mv("dr1")))
    t.add(shot("a2", "dr1", 2))  # a2 did not open fire with a1: its full dice
    t.add(shot("a1", "d1", 2))  # a1 at another platoon: its full dice


def test_f_recon_24_the_remaining_shots_of_a_failed_test_are_made_even_if_out_of_reach_is_claimed():
    t = tb()
    t.add(declare("DL", "a1"), shot("a1", "dl1", 1), disengage(2, pl="DL"))
    t.add(shot("a1", "dl1", 1))
    dis = t.state.disengagements["DL"]
    assert (dis.passed, dis.out_of_reach, dis.moved) == (False, False, [])


def test_f_recon_17_18_the_one_shot_rule_applies_only_to_the_shooters_of_this_step():
    t = tb()
    t.add(declare("DR", "a1"), shot("a1", "dr1", 1))
    t.end_turn()
    t.end_turn()
    t.add(shot("a1", "dr1", 2))  # a new Shooting Step: the old declaration is over


def test_f_recon_15_a_shooter_named_twice_in_a_disengage_declaration_is_refused():
    """F-RECON-15: the platoon fired on names the shooters it disengages from, each once."""
    t = Table(platoons_a=(INFANTRY_A,), platoons_d=(LONE_D, INFANTRY_D))
    t.refused("S-DUPLICATE", ("disengage_declared", {"platoon": "DL", "shooters": ["a1", "a1"]}))
    t.add(("disengage_declared", {"platoon": "DL", "shooters": ["a1"]}))
