"""An air attack's saves one at a time (F-AIR): ``air_attack_hit`` records the hits with no dice,
``air_save_rolled`` one save each, resolved exactly as ``air_attack_resolved`` resolves a hit."""
from __future__ import annotations

from typing import Any

import pytest

from battles import engine

from .table import d
from .test_aircraft import air, hit, tb
from .test_shot_result_and_outcomes import last


def hits(*rows: dict[str, Any], aircraft: str = "Ju 87", side: str = "attacker") -> tuple[str, dict[str, Any]]:
    return ("air_attack_hit", {"side": side, "aircraft": aircraft, "hits": list(rows)})


def row(tid: str, weapon: str = "bombs", **kw: Any) -> dict[str, Any]:
    return {"team": tid, "weapon": weapon, **kw}


def save(tid: str, die: int | dict, fp: int | None = None, aircraft: str = "Ju 87") -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {"aircraft": aircraft, "team": tid, "save": die if isinstance(die, dict) else d(die)}
    if fp is not None:
        data["firepower_die"] = d(fp)
    return ("air_save_rolled", data)


def test_f_air_1_each_hit_teams_save_is_its_own_event_and_decides_as_in_one_event():
    one = tb()
    one.add(air(hit("i1", 2), hit("tk", 3, anti_tank=5, fp=4), hit("g1", 5)))
    apart = tb()
    apart.add(hits(row("i1"), row("tk", anti_tank=5), row("g1")))
    apart.add(save("i1", 2))
    assert apart.t("i1").destroyed and apart.t("i1").removed and not apart.t("tk").bailed_out  # the tank not yet
    apart.add(save("tk", 3, fp=4))
    apart.add(save("g1", 5))
    for tid in ("i1", "tk", "g1"):
        for attr in ("destroyed", "bailed_out", "removed", "wreck"):
            assert getattr(apart.t(tid), attr) == getattr(one.t(tid), attr), (tid, attr)
    assert [(h.team, h.outcome) for h in apart.state.air_attacks[-1].hits] == [
        (h.team, h.outcome) for h in one.state.air_attacks[-1].hits]


@pytest.mark.parametrize(("die", "destroyed"), [(2, True), (3, False)])
def test_f_air_10_one_infantry_save_3_plus_both_sides(die, destroyed):
    t = tb()
    t.add(hits(row("i1")))
    t.add(save("i1", die))
    assert t.t("i1").destroyed is destroyed
    assert last(t)[0] == {"kind": "roll", "test": "save", "value": die, "need": 3, "passed": not destroyed, "id": "i1"}


def test_f_air_15_every_platoon_hit_is_pinned_when_the_hits_are_recorded_saved_or_not():
    t = tb()
    t.add(hits(row("i1"), row("tk", anti_tank=1)))
    assert t.state.platoons["DI"].pinned and t.state.platoons["DT"].pinned and not t.state.platoons["DX"].pinned
    t.add(save("i1", 6))
    assert t.state.platoons["DI"].pinned and not t.t("i1").destroyed


def test_f_air_16_the_aircraft_leave_when_the_last_save_is_in_and_attack_once_a_turn():
    t = tb()
    t.add(hits(row("i1"), row("i2")))
    plane = t.state.aircraft["Ju 87"]
    assert (plane.where, plane.attacks) == ("attacking", 0)
    t.add(save("i1", 6))
    assert t.state.aircraft["Ju 87"].where == "attacking"
    t.add(save("i2", 6))
    assert (t.state.aircraft["Ju 87"].where, t.state.aircraft["Ju 87"].attacks) == ("base", 1)
    t.refused("F-AIR-16", hits(row("i1")))
    t.refused("F-AIR-16", air(hit("i1", 6)))


def test_f_air_1_the_turn_does_not_end_and_no_other_attack_comes_before_every_save_is_in():
    t = tb()
    t.add(hits(row("i1")))
    t.refused("F-AIR-1", ("turn_ended", {"side": "attacker", "turn": 1}))
    t.refused("F-AIR-1", hits(row("i2"), aircraft="Il-2"))
    t.add(save("i1", 6))
    t.end_turn()


def test_f_air_1_a_save_answers_a_hit_waiting_for_it_and_only_once():
    t = tb()
    t.refused("F-AIR-1", save("i1", 6))  # no attack
    t.add(hits(row("i1")))
    t.refused("F-AIR-1", save("i2", 6))  # not hit
    t.refused("F-AIR-1", save("i1", 6, aircraft="Il-2"))  # not that aircraft's
    t.add(save("i1", 6))
    t.refused("F-AIR-1", save("i1", 6))  # already saved


def test_f_air_1_a_team_destroyed_by_one_save_takes_nothing_more_from_its_other_hits():
    t = tb()
    t.add(hits(row("i1"), row("i1", "mg"), row("i2")))
    t.add(save("i1", 1))
    assert t.t("i1").destroyed
    t.refused("F-AIR-1", save("i1", 6))  # its second hit is spent
    assert [(h.team, h.outcome) for h in t.state.air_attacks[-1].hits] == [
        ("i1", "destroyed"), ("i1", "already_destroyed")]
    t.add(save("i2", 6))
    assert t.state.aircraft["Ju 87"].where == "base"


@pytest.mark.parametrize(("fp", "bailed"), [(4, True), (3, False)])
def test_f_air_6_an_equal_total_needs_the_firepower_test_with_the_save(fp, bailed):
    t = tb()
    t.add(hits(row("tk", anti_tank=4)))  # top armour 1 + 3 = 4
    t.refused("F-AIR-6", save("tk", 3))
    t.add(save("tk", 3, fp=fp))
    assert t.t("tk").bailed_out is bailed and not t.t("tk").destroyed


def test_f_air_2_f_air_4_the_hits_are_checked_when_recorded():
    t = tb()
    t.refused("F-AIR-4", hits(row("tk")))  # no Anti-tank rating against an armoured vehicle
    t.refused("F-AIR-3", hits(row("bare", "cannon", anti_tank=5)))  # no Side armour given
    t.refused("S-TARGET", hits(row("a1")))  # one's own team


def test_f_air_1_the_owner_records_the_save_in_the_attackers_turn_and_the_service_may_roll_it():
    t = tb()
    t.add(hits(row("i1")))
    filled = engine.fill_rolls("air_save_rolled", save("i1", {"source": "rolled"})[1], lambda sides: sides,
                               ruleset="fow")
    assert filled["save"]["value"] == 6
    t.add(("air_save_rolled", filled))
    assert not t.t("i1").destroyed
    policy = engine.RULESETS["fow"].policy["air_save_rolled"]
    assert policy.resolve(t.state, engine.lookup("air_save_rolled", "fow").parse(filled)) == "defender"


def test_f_air_1_saves_one_at_a_time_fold_the_same_in_one_pass():
    t = tb()
    t.add(hits(row("i1"), row("tk", anti_tank=5)))
    t.add(save("tk", 3, fp=4))
    t.add(save("i1", 2))
    assert engine.state_to_json(engine.fold(t.events, ruleset="fow")) == engine.state_to_json(t.state)
