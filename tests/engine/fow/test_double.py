"""At the Double (catalog F-DBL, seed 001 p. 51): both sides of every distance, in inches and centimetres."""
from __future__ import annotations

from typing import Any

import pytest

from battles import engine

from .table import INFANTRY_D, Table, d, team


def move(tid: str, dist: float, **kw) -> tuple[str, dict]:
    return ("team_moved", {"team": tid, "distance": dist, "at_the_double": True, **kw})


@pytest.mark.parametrize("units,normal,double", [("in", 6, 12), ("cm", 15, 30)])
def test_f_dbl_1_infantry_at_the_double_moves_twice_its_distance_and_no_more(units, normal, double):
    tb = Table(units=units)
    tb.refused("G-F1", ("team_moved", {"team": "a1", "distance": normal + 0.5}))
    tb.refused("F-DBL-1", move("a1", double + 0.5))
    tb.add(move("a1", double))
    assert tb.t("a1").double_ply == tb.state.ply


@pytest.mark.parametrize("units,limit", [("in", 16), ("cm", 40)])
def test_f_dbl_12_is2_moves_8in_20cm_so_16in_40cm_at_the_double(units, limit):
    tb = Table(units=units)
    tb.refused("F-DBL-1", move("is2", limit + 0.1))
    tb.add(move("is2", limit))


@pytest.mark.parametrize("units,limit", [("in", 24), ("cm", 60)])
def test_f_dbl_13_most_tanks_move_12in_30cm_so_24in_60cm_at_the_double(units, limit):
    tb = Table(units=units)
    tb.refused("F-DBL-1", move("t1", limit + 0.1))
    tb.add(move("t1", limit))


def test_f_dbl_2_at_the_double_follows_the_most_direct_route():
    tb = Table()
    tb.refused("F-DBL-2", move("a1", 10, direct_route=False))
    tb.add(move("a1", 10, direct_route=True))


def test_f_dbl_3_turning_only_for_difficult_terrain_a_road_or_the_enemy():
    tb = Table()
    tb.refused("F-DBL-3", move("a1", 10, turned_for=["other"]))
    tb.add(move("a1", 10, turned_for=["difficult_terrain", "road", "enemy"]))


def test_f_dbl_4_ends_facing_the_direction_of_movement():
    tb = Table()
    tb.refused("F-DBL-4", move("a1", 10, facing_travel=False))
    tb.add(move("a1", 10, facing_travel=True))


def test_f_dbl_5_never_through_difficult_terrain():
    tb = Table()
    tb.refused("F-DBL-5", move("a1", 10, difficult_terrain=True))
    tb.add(("team_moved", {"team": "a1", "distance": 5, "difficult_terrain": True}))  # a normal move may


@pytest.mark.parametrize("units,limit", [("in", 8), ("cm", 20)])
def test_f_dbl_6_and_f_dbl_3_not_closer_than_8in_20cm_to_the_enemy(units, limit):
    tb = Table(units=units)
    tb.refused("F-DBL-6", move("a1", 5, closest_enemy=limit - 0.1))
    tb.add(move("a1", 5, closest_enemy=limit))  # "not closer than": exactly the limit is allowed


def test_f_dbl_7_teams_of_a_pinned_down_platoon_cannot_move_at_the_double():
    tb = Table()
    tb.add(("status_set", {"subject": "A1", "status": "pinned"}))
    tb.refused("F-DBL-7", move("a1", 10))
    tb.add(("team_moved", {"team": "a1", "distance": 6}))  # a normal move is not barred by this rule
    tb.add(("status_set", {"subject": "A1", "status": "pinned", "value": False}))
    tb.add(move("a2", 10))


def test_f_dbl_8_a_team_that_moved_at_the_double_may_not_move_shoot_or_assault_again():
    tb = Table()
    tb.add(move("a1", 12))
    tb.refused("F-DBL-8", ("team_moved", {"team": "a1", "distance": 1}))
    tb.refused("F-DBL-8", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(4)]}))
    tb.refused("F-DBL-8", ("assault_launched", {"teams": ["a1"], "against": "D1"}))


def test_f_dbl_9_other_teams_of_the_platoon_are_not_restricted():
    tb = Table()
    tb.add(move("a1", 12))
    tb.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4), d(5)]}))
    tb.add(("assault_launched", {"teams": ["a2"], "against": "D1"}))


def test_f_dbl_8_the_restriction_ends_with_the_turn():
    tb = Table()
    tb.add(move("a1", 12))
    tb.end_turn()
    tb.end_turn()
    tb.add(("team_moved", {"team": "a1", "distance": 6}))


def test_f_dbl_10_shooters_at_a_team_that_moved_at_the_double_roll_twice_the_dice():
    tb = Table()
    tb.add(move("a1", 12))
    tb.end_turn()
    tb.refused("F-DBL-10", ("team_shot", {"shooter": "d1", "target": "a1", "dice": [d(3), d(3)]}))
    tb.add(("team_shot", {"shooter": "d1", "target": "a1", "dice": [d(3)] * 4}))
    tb.refused("G-F1", ("team_shot", {"shooter": "d2", "target": "a2", "dice": [d(3)] * 4}))  # a2 did not double
    tb.add(("team_shot", {"shooter": "d2", "target": "a2", "dice": [d(3)] * 2}))


@pytest.mark.parametrize("kind", ["artillery", "aircraft"])
def test_f_dbl_11_artillery_and_air_attacks_are_not_doubled(kind):
    tb = Table()
    tb.add(move("a1", 12))
    tb.end_turn()
    tb.refused("F-DBL-11", ("team_shot", {"shooter": "d1", "target": "a1", "kind": kind, "dice": [d(3)] * 4}))
    tb.add(("team_shot", {"shooter": "d1", "target": "a1", "kind": kind, "dice": [d(3)] * 2}))


# At the Double (F-DBL, seed 001 p. 51) and the team actions it hooks into (move, shoot, assault,
# Go to Ground; G-F1): every branch of ``_check_double``, ``_doubled`` and the action checks pinned.


class RulesTable(Table):
    """The FoW table with the game master's rules data (merged over the defaults)."""

    def __init__(self, rules: dict[str, Any], **kw: Any) -> None:
        self.rules = rules
        super().__init__(**kw)

    def add(self, *items):
        first = self.state.last_seq + 1
        new, self.state = engine.decide_and_apply(self.state, [(t, x, None) for t, x in items], first_seq=first,
                                                  ruleset="fow", rules=self.rules, history=lambda: list(self.events))
        self.events.extend(new)
        return new[-1]

    def refused(self, rule, *items):
        with pytest.raises(engine.RuleViolation) as exc:
            engine.decide(self.state, [(t, x, None) for t, x in items], first_seq=self.state.last_seq + 1,
                          ruleset="fow", rules=self.rules)
        assert exc.value.rule_id == rule, str(exc.value)
        return exc.value


def shot(shooter: str, target: str, n: int, **kw: Any) -> tuple[str, dict]:
    return ("team_shot", {"shooter": shooter, "target": target, "dice": [d(3)] * n, **kw})


# --- _check_double ------------------------------------------------------------------------------------------
def test_f_dbl_1_an_unknown_team_is_refused_s_unknown():
    Table().refused("S-UNKNOWN", move("ghost", 1))


@pytest.mark.parametrize(("dist", "rule"), [(18.0, None), (18.5, "F-DBL-1")])
def test_f_dbl_1_the_masters_factor_multiplies_the_move(dist, rule):
    t = RulesTable({"double_factor": 3})
    if rule:
        t.refused(rule, move("a1", dist))
    else:
        t.add(move("a1", dist))
        assert t.t("a1").double_ply == t.state.ply


def test_f_dbl_1_a_teams_own_movement_is_doubled_and_named_in_the_refusal():
    t = Table(units="cm")
    err = t.refused("F-DBL-1", move("a1", 30.5))
    assert "30 cm" in err.message_en and "30 см" in err.message_ru
    err = t.refused("F-DBL-1", move("is2", 40.5))  # is2's own Movement 20 cm, not a tank's 30 cm
    assert "40 cm" in err.message_en


@pytest.mark.parametrize(("units", "near", "word"), [("in", 7.9, '8"'), ("cm", 19.9, "20 cm")])
def test_f_dbl_6_the_refusal_names_the_distance_in_the_battles_units(units, near, word):
    err = Table(units=units).refused("F-DBL-6", move("a1", 5, closest_enemy=near))
    assert word in err.message_en


@pytest.mark.parametrize(("near", "ok"), [(10.0, True), (9.99, False)])
def test_f_dbl_6_the_masters_distance_to_the_enemy_counts(near, ok):
    t = RulesTable({"double_enemy_min": {"in": 10.0, "cm": 25.0}})
    if ok:
        t.add(move("a1", 5, closest_enemy=near))
    else:
        t.refused("F-DBL-6", move("a1", 5, closest_enemy=near))


def test_f_dbl_6_with_no_enemy_near_it_is_no_limit():
    t = Table()
    t.add(move("a1", 12, closest_enemy=None))
    t.add(move("a2", 12, closest_enemy=8.0))


def test_f_dbl_5_a_normal_move_ignores_every_at_the_double_condition():
    t = Table()
    t.add(("status_set", {"subject": "A1", "status": "pinned"}))
    t.add(("team_moved", {"team": "a1", "distance": 6, "difficult_terrain": True, "closest_enemy": 1,
                          "direct_route": False, "turned_for": ["other"], "facing_travel": False}))
    assert t.t("a1").double_ply == -1 and t.t("a1").moved_ply == t.state.ply


@pytest.mark.parametrize(("kw", "rule"), [
    ({"distance": 12.5, "difficult_terrain": True}, "F-DBL-1"),
    ({"difficult_terrain": True, "closest_enemy": 1.0}, "F-DBL-5"),
    ({"closest_enemy": 1.0, "direct_route": False}, "F-DBL-6"),
    ({"direct_route": False, "turned_for": ["other"]}, "F-DBL-2"),
    ({"turned_for": ["road", "other"], "facing_travel": False}, "F-DBL-3"),
    ({"facing_travel": False}, "F-DBL-4"),
])
def test_f_dbl_each_condition_is_its_own_refusal_in_order(kw, rule):
    data = {"team": "a1", "distance": 10, "at_the_double": True, **kw}
    Table().refused(rule, ("team_moved", data))


def test_f_dbl_7_another_platoons_pinning_does_not_stop_this_one():
    t = Table()
    t.add(("status_set", {"subject": "AT", "status": "pinned"}))
    t.add(move("a1", 12))
    t.refused("F-DBL-7", move("t1", 10))


# --- F-DBL-8, F-DBL-9: nothing else that turn ---------------------------------------------------------------
def test_f_dbl_8_a_team_at_the_double_may_not_move_at_the_double_again():
    t = Table()
    t.add(move("a1", 6))
    t.refused("F-DBL-8", move("a1", 6))


def test_f_dbl_8_any_team_of_an_assault_that_moved_at_the_double_refuses_it():
    t = Table()
    t.add(move("a2", 12))
    err = t.refused("F-DBL-8", ("assault_launched", {"teams": ["a1", "a2"], "against": "D1"}))
    assert "launch an assault" in err.message_en


def test_f_dbl_8_the_enemy_shooting_in_its_own_turn_is_not_restricted_by_the_targets_move():
    t = Table()
    t.add(move("a1", 12))
    t.end_turn()
    t.add(("team_moved", {"team": "d2", "distance": 1}))
    t.add(shot("d1", "a1", 4))


# --- _doubled (F-DBL-10, F-DBL-11) --------------------------------------------------------------------------
def test_f_dbl_10_only_in_the_turn_right_after_the_double_move():
    t = Table()
    t.add(move("a1", 12))
    t.refused("S-TARGET", shot("a2", "a1", 2))  # own team: never a target
    t.end_turn()
    t.add(shot("d1", "a1", 4))
    t.end_turn()
    t.end_turn()
    t.refused("G-F1", shot("d1", "a1", 4))  # two turns later: no longer doubled
    t.add(shot("d2", "a1", 2))


def test_f_dbl_10_the_masters_factor_is_not_the_dice_factor_twice_the_dice():
    t = RulesTable({"double_factor": 3})
    t.add(move("a1", 12))
    t.end_turn()
    t.refused("F-DBL-10", shot("d1", "a1", 6))
    t.add(shot("d1", "a1", 4))


def test_f_dbl_10_a_moved_shooter_doubles_its_moved_rate_of_fire():
    t = Table()
    t.add(move("a1", 12))
    t.end_turn()
    t.add(("team_moved", {"team": "d1", "distance": 2}))
    t.refused("F-DBL-10", shot("d1", "a1", 4))
    t.add(shot("d1", "a1", 2))  # moved: 1 die, doubled to 2


# --- team actions (G-F1) ------------------------------------------------------------------------------------
def test_g_f1_a_normal_move_within_the_teams_movement_and_its_effects():
    t = Table()
    t.add(("status_set", {"subject": "a1", "status": "gone_to_ground"}))
    t.add(("team_moved", {"team": "a1", "distance": 6.0, "bulletproof_cover": True}))
    a1 = t.t("a1")
    assert (a1.moved_ply, a1.gone_to_ground, a1.bulletproof_cover) == (t.state.ply, False, True)
    t.end_turn()
    t.end_turn()
    t.add(("team_moved", {"team": "a1", "distance": 1.0}))
    a1 = t.t("a1")
    assert a1.bulletproof_cover is False


def test_g_f1_pivoting_keeps_gone_to_ground_and_cover():
    t = Table()
    t.add(("status_set", {"subject": "a1", "status": "gone_to_ground"}))
    t.add(("team_moved", {"team": "a1", "distance": 1.0, "bulletproof_cover": True}))
    t.end_turn()
    t.end_turn()
    t.add(("team_moved", {"team": "a1", "distance": 0, "pivot_only": True}))
    assert t.t("a1").bulletproof_cover and t.t("a1").moved_ply == t.state.ply
    t.end_turn()
    t.end_turn()
    t.add(("status_set", {"subject": "a2", "status": "gone_to_ground"}))
    t.add(("team_moved", {"team": "a2", "distance": 0, "pivot_only": True}))
    assert t.t("a2").gone_to_ground


@pytest.mark.parametrize(("units", "ok", "bad", "word"), [("in", 12.0, 12.1, '12"'), ("cm", 30.0, 30.1, "30 cm")])
def test_g_f1_a_tank_moves_its_kinds_distance(units, ok, bad, word):
    t = Table(units=units)
    assert word in t.refused("G-F1", ("team_moved", {"team": "t1", "distance": bad})).message_en
    t.add(("team_moved", {"team": "t1", "distance": ok}))


def test_g_f1_a_team_moves_shoots_and_assaults_only_in_its_turn_and_alive():
    t = Table()
    t.refused("S-TURN", ("team_moved", {"team": "d1", "distance": 1}))
    t.refused("S-TURN", shot("d1", "a1", 2))
    t.refused("S-TURN", ("assault_launched", {"teams": ["a1", "d1"], "against": "D1"}))
    t.refused("S-TURN", ("went_to_ground", {"teams": ["a1", "d1"]}))
    t.state.teams["a2"].destroyed = True  # destroyed earlier (given)
    t.refused("S-DEAD", ("team_moved", {"team": "a2", "distance": 1}))
    t.refused("S-DEAD", shot("a2", "d1", 2))
    t.refused("S-DEAD", ("assault_launched", {"teams": ["a1", "a2"], "against": "D1"}))
    t.refused("S-DEAD", ("went_to_ground", {"teams": ["a1", "a2"]}))
    t.refused("S-UNKNOWN", ("assault_launched", {"teams": ["a1", "ghost"]}))
    t.refused("S-UNKNOWN", ("went_to_ground", {"teams": ["a1", "ghost"]}))
    t.refused("S-UNKNOWN", shot("a1", "ghost", 2))


def test_g_f1_a_destroyed_enemy_is_no_target_and_the_shot_marks_the_shooter():
    t = Table()
    t.state.teams["d2"].destroyed = True
    t.refused("S-TARGET", shot("a1", "d2", 2))
    t.add(("status_set", {"subject": "a1", "status": "gone_to_ground"}))
    t.add(shot("a1", "d1", 2))
    assert t.t("a1").shot_ply == t.state.ply and not t.t("a1").gone_to_ground


@pytest.mark.parametrize(("own", "moved", "n"), [({}, False, 2), ({}, True, 1), ({"rof": 3, "rof_moved": 0}, False, 3),
                                                 ({"rof": 3, "rof_moved": 0}, True, 0)])
def test_g_f1_rate_of_fire_stationary_or_moved_the_teams_own_first(own, moved, n):
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "teams": [team("a1", **own)]},))
    if moved:
        t.add(("team_moved", {"team": "a1", "distance": 1}))
    err = t.refused("G-F1", shot("a1", "d1", n + 1))
    assert f"rolls {n} dice" in err.message_en
    if n:
        t.add(shot("a1", "d1", n))


def test_g_f1_an_assault_marks_each_team_moved_and_assaulting():
    t = Table()
    t.add(("status_set", {"subject": "a2", "status": "gone_to_ground"}))
    t.add(("assault_launched", {"teams": ["a1", "a2"], "against": "D1"}))
    for tid in ("a1", "a2"):
        x = t.t(tid)
        assert (x.assault_ply, x.moved_ply, x.gone_to_ground) == (t.state.ply, t.state.ply, False)
    t.refused("G-F1", shot("a1", "d1", 2))  # moved: one die


def test_g_f1_a_team_that_moved_or_shot_does_not_go_to_ground_the_others_do():
    t = Table()
    t.add(("team_moved", {"team": "a1", "distance": 1}))
    assert "moved" in t.refused("G-F1", ("went_to_ground", {"teams": ["a2", "a1"]})).message_en
    t.add(shot("t1", "d1", 2))
    assert "shot" in t.refused("G-F1", ("went_to_ground", {"teams": ["a2", "t1"]})).message_en
    t.add(("went_to_ground", {"teams": ["a2", "is2"]}))
    assert t.t("a2").gone_to_ground and t.t("is2").gone_to_ground and not t.t("a1").gone_to_ground
    t.end_turn()
    t.end_turn()
    t.add(("went_to_ground", {"teams": ["a1", "t1"]}))  # a new turn


def test_f_dig_16_a_dug_in_team_that_shot_is_refused_under_f_dig_16():
    t = Table()
    t.state.teams["a1"].dug_in = True  # dug in earlier (given)
    t.add(shot("a1", "d1", 2))
    t.refused("F-DIG-16", ("went_to_ground", {"teams": ["a1"]}))


def test_g_f1_a_team_that_shot_this_turn_cannot_go_to_ground():
    """G-F1 (Going to Ground, p. 90, not in the seeds): a team that shot this turn may not Go to Ground;
    one that did not shoot may."""
    t = Table()
    t.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(2), d(2)]}))
    t.refused("G-F1", ("went_to_ground", {"teams": ["a1"]}))
    t.add(("went_to_ground", {"teams": ["a2"]}))


# --- Rate of Fire --------------------------------------------------------------------------------------
def test_g_f1_a_teams_own_rate_of_fire_prevails_over_the_default():
    """G-F1: a team shoots its own ROF dice (here 3 stationary), not the rules data's default 2."""
    fast = {"id": "A1", "kind": "infantry", "teams": [team("a1", rof=3, rof_moved=2), team("a2")]}
    t = Table(platoons_a=(fast,), platoons_d=(INFANTRY_D,))
    t.refused("G-F1", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(1)] * 2}))
    t.add(("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(1)] * 3}))
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(1)] * 2}))  # the default


@pytest.mark.parametrize("dice", [1, 2, 4])
def test_f_dbl_8_a_shot_by_a_team_that_moved_at_the_double_is_refused_f_dbl_8_whatever_its_dice(dice):
    """F-DBL-8 bars the shot itself: the refusal names it before the dice count (G-F1, F-DBL-10) is looked at."""
    tb = Table(first="defender")
    tb.add(move("d1", 12))  # the defender moved At the Double in its last turn...
    tb.end_turn()
    tb.add(move("a1", 12))  # ...and the attacker's a1 At the Double in this one
    tb.refused("F-DBL-8", ("team_shot", {"shooter": "a1", "target": "d1", "dice": [d(4)] * dice}))
    tb.refused("F-DBL-8", ("team_shot", {"shooter": "a1", "target": "d2", "dice": [d(4)] * dice}))


def test_f_dbl_8_a_further_move_beyond_the_normal_distance_is_refused_f_dbl_8_not_for_its_length():
    tb = Table()
    tb.add(move("a1", 12))
    tb.refused("F-DBL-8", ("team_moved", {"team": "a1", "distance": 7}))


def test_f_dbl_9_another_team_of_the_platoon_may_still_move():
    """F-DBL-9: only the team that moved At the Double is done for the turn; its platoon's other teams may
    still move (here after it; F-DBL-8 bars a1 alone)."""
    tb = Table()
    tb.add(move("a1", 12))
    tb.add(("team_moved", {"team": "a2", "distance": 6}))
    assert tb.t("a2").moved_ply == tb.state.ply and tb.t("a2").double_ply == -1
    tb.refused("F-DBL-8", ("team_moved", {"team": "a1", "distance": 1}))
