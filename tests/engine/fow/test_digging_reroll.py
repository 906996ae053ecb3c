"""The Pioneer Supply re-roll as its own event, ``dig_in_rerolled`` (F-DIG-10, with F-DIG-4, F-DIG-13 and
F-DIG-16): the table records the Dig In attempt, sees the failed die, then records the re-roll; with
service-rolled dice the re-roll cannot be asked for up front (F-DIG-10 refuses it when the first die passes)."""
from __future__ import annotations

from typing import Any

import pytest

from battles import engine

from .table import Table, d, team
from .test_digging import GUNS, MIXED, SUPPLY, dig, tb
from .test_shot_result_and_outcomes import last


def reroll(pl: str = "A1", die: Any = 4, near: float = 0.0) -> tuple[str, dict]:
    return ("dig_in_rerolled", {"platoon": pl, "die": die if isinstance(die, dict) else d(die),
                                "pioneer_supply_distance": near})


@pytest.mark.parametrize(("die", "passed"), [(3, False), (4, True)])
def test_f_dig_10_a_failed_attempt_is_rerolled_in_its_own_event_and_the_reroll_decides(die, passed):
    t = tb()
    t.add(dig(die=2))
    assert not t.t("a1").dug_in
    t.add(reroll(die=die))
    assert t.t("a1").dug_in is passed and t.t("a2").dug_in is passed  # F-DIG-4 on a passed re-roll
    assert t.t("a1").bulletproof_cover is passed and t.t("a1").concealed
    assert not t.t("cav").dug_in and not t.t("truck").dug_in  # F-DIG-8: they never tried
    rec = t.state.tests[-1]
    assert (rec.kind, rec.subject, rec.purpose, rec.rolls, rec.passed, rec.seq) == (
        "skill", "A1", "dig_in_reroll", [die], passed, t.state.last_seq)


def test_f_dig_10_with_service_rolled_dice_the_table_records_the_attempt_then_the_reroll():
    t = tb()
    first = engine.fill_rolls("dig_in_attempted", dig(die=1)[1] | {"die": {"source": "rolled"}},
                              lambda sides: 1, ruleset="fow")
    t.add(("dig_in_attempted", first))
    assert t.state.tests[-1].passed is False
    second = engine.fill_rolls("dig_in_rerolled", reroll(die={"source": "rolled"})[1], lambda sides: sides,
                               ruleset="fow")
    assert second["die"]["value"] == 6
    t.add(("dig_in_rerolled", second))
    assert t.t("a1").dug_in


@pytest.mark.parametrize(("units", "limit"), [("in", 2.0), ("cm", 5.0)])
def test_f_dig_10_the_reroll_event_needs_pioneer_supply_within_2in_5cm(units, limit):
    t = tb(units)
    t.add(dig(die=2))
    t.refused("F-DIG-10", reroll(near=limit + 0.1))
    t.add(reroll(near=limit))
    assert t.t("a1").dug_in


def test_f_dig_10_the_reroll_event_needs_a_live_pioneer_supply_vehicle_of_the_side():
    t = Table(platoons_a=(MIXED, GUNS))
    t.add(dig(die=2))
    t.refused("F-DIG-10", reroll())
    t2 = tb()
    t2.add(dig(die=2))
    t2.state.teams["sup"].destroyed = True
    t2.refused("F-DIG-10", reroll())


def test_f_dig_10_only_a_failed_attempt_of_this_turn_is_rerolled_and_only_once():
    t = tb()
    t.refused("F-DIG-10", reroll())  # no attempt yet
    t.add(dig(die=4))
    t.refused("F-DIG-10", reroll())  # the attempt passed
    t.add(dig(pl="G1", die=2))
    t.add(reroll(pl="G1", die=3))
    t.refused("F-DIG-10", reroll(pl="G1", die=5))  # a re-roll is not re-rolled
    t2 = tb()
    t2.add(dig(die=2, reroll=d(3), pioneer_supply_distance=0))
    t2.refused("F-DIG-10", reroll())  # already re-rolled in the attempt
    t3 = tb()
    t3.add(dig(die=2))
    t3.end_turn()
    t3.end_turn()
    t3.refused("F-DIG-10", reroll())  # last turn's attempt


def test_f_dig_10_a_platoons_own_skill_rating_sets_the_rerolls_threshold():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "skill": 5, "teams": [team("a1")]}, SUPPLY))
    t.add(dig(die=4))
    t.add(reroll(die=4))
    assert not t.t("a1").dug_in and t.state.tests[-1].passed is False


def test_f_dig_1_no_reroll_once_a_team_that_tried_to_dig_has_shot():
    t = tb()
    t.add(dig(die=2))
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4)]}))
    t.refused("F-DIG-1", reroll())


def test_f_dig_13_a_failed_reroll_leaves_infantry_and_man_packed_guns_concealed_in_the_open():
    t = tb()
    t.add(dig(pl="G1", die=1))
    t.add(reroll(pl="G1", die=1))
    assert t.t("gmp").concealed and not t.t("gmp").dug_in and not t.t("gmp").bulletproof_cover
    assert not t.t("gl").concealed and not t.t("gl").dug_in


def test_f_dig_12_f_dig_15_a_passed_reroll_covers_and_conceals_by_gun_type():
    t = tb()
    t.add(dig(pl="G1", die=1))
    t.add(reroll(pl="G1", die=6))
    assert t.t("gl").concealed and t.t("gl").bulletproof_cover  # F-DIG-14
    assert t.t("gh").bulletproof_cover and not t.t("gh").concealed  # F-DIG-15


def test_f_dig_16_after_a_reroll_the_teams_that_tried_may_go_to_ground_unless_they_shot():
    t = tb()
    t.add(dig(die=2))
    t.add(reroll(die=6))
    t.add(("team_shot", {"shooter": "a2", "target": "d1", "dice": [d(4)]}))
    t.refused("F-DIG-16", ("went_to_ground", {"teams": ["a2"]}))
    t.add(("went_to_ground", {"teams": ["a1"]}))
    assert t.t("a1").gone_to_ground


def test_f_dig_10_the_reroll_is_the_platoons_sides_in_its_own_turn():
    t = tb()
    t.add(dig(die=2))
    t.end_turn()
    t.refused("S-TURN", reroll())


def test_f_dig_10_the_log_tells_the_reroll_with_what_it_needed_and_the_teams_now_dug_in():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "skill": 3, "teams": [team("a1")]}, SUPPLY))
    t.add(dig(die=2))
    t.add(reroll(die=3))
    assert last(t) == [{"kind": "roll", "test": "skill_reroll", "value": 3, "need": 3, "passed": True, "id": "A1"},
                       {"kind": "dug_in", "id": "a1"}]


def test_f_dig_10_a_log_with_the_reroll_folded_in_one_pass_equals_the_incremental_state():
    t = tb()
    t.add(dig(die=2))
    t.add(reroll(die=5))
    assert engine.state_to_json(engine.fold(t.events, ruleset="fow")) == engine.state_to_json(t.state)


def test_f_dig_10_an_independent_team_near_pioneer_supply_may_reroll_too():
    """F-DIG-10: "so may any Independent team within 2"/5 cm of a Pioneer Supply vehicle": an Independent
    team (its own platoon, no Command team of another) re-rolls its failed test, in the event or after it."""
    indep = {"id": "IND", "kind": "independent", "teams": [team("hq", independent=True)]}
    t = Table(platoons_a=(indep, SUPPLY))
    t.add(dig(pl="IND", die=2, reroll=d(5), pioneer_supply_distance=2))
    assert t.t("hq").dug_in and t.state.tests[-1].rolls == [2, 5]
    t2 = Table(platoons_a=(indep, SUPPLY))
    t2.add(dig(pl="IND", die=2))
    t2.refused("F-DIG-10", reroll(pl="IND", die=5, near=2.1))
    t2.add(reroll(pl="IND", die=5, near=2))
    assert t2.t("hq").dug_in
