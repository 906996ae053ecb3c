"""A FoW shot states what the table decided (G-F1: the seeds give no to-hit
numbers, saves or Firepower tests for shooting), and every FoW event's
outcome tells its dice with the face they needed: Skill tests (F-DIG-3,
F-DIG-10, F-BLD-8, F-RECON-18), saves (F-RECON-2, F-AIR-4, F-AIR-8..11) and
Firepower tests (F-AIR-6, F-AIR-7, F-AIR-12); a train that ran off the table
has left it (F-TRAIN-22)."""
from __future__ import annotations

from typing import Any

from battles.engine import fold

from .recon_helpers import tb as recon_table
from .table import Table, d, team
from .test_aircraft import air, hit
from .test_aircraft import tb as air_table
from .trains_helpers import move, on_table


def outcomes(t: Table) -> dict[int, list[dict[str, Any]]]:
    """The whole log folded again, keeping each event's effects; recording them changes nothing."""
    out: dict[int, list[dict[str, Any]]] = {}
    state = fold(t.events, None, None, ruleset="fow", effects=out)
    assert state.teams == t.state.teams and state.platoons == t.state.platoons
    return out


def last(t: Table) -> list[dict[str, Any]]:
    return outcomes(t).get(t.state.last_seq, [])


def shot(**kw: Any) -> tuple[str, dict[str, Any]]:
    return ("team_shot", {"shooter": "t1", "target": "d1", "dice": [d(5), d(2)], **kw})


# --- the table's result of a shot (G-F1) -----------------------------------------------------------
def test_g_f1_a_shot_the_table_says_destroyed_destroys_the_target_and_tells_it():
    t = Table()
    t.add(shot(distance=14, hits=1, result="destroyed"))
    assert t.t("d1").destroyed and t.t("t1").shot_ply == t.state.ply
    assert last(t) == [{"kind": "destroyed", "id": "d1"}]


def test_g_f1_a_shot_can_bail_out_a_vehicle_and_pin_the_platoon():
    t = Table(platoons_d=({"id": "DT", "kind": "tank", "teams": [team("dt", "tank", armoured=True)]},))
    t.add(("team_shot", {"shooter": "a1", "target": "dt", "dice": [d(6), d(6)], "hits": 2, "result": "bailed_out",
                         "pinned": True}))
    assert t.t("dt").bailed_out and not t.t("dt").destroyed and t.state.platoons["DT"].pinned
    assert last(t) == [{"kind": "bailed_out", "id": "dt"}, {"kind": "pinned", "id": "DT"}]


def test_g_f1_a_destroyed_armoured_target_is_a_wreck_as_with_status_set():
    t = Table(platoons_d=({"id": "DT", "kind": "tank", "teams": [team("dt", "tank", armoured=True)]},))
    t.add(("team_shot", {"shooter": "a1", "target": "dt", "dice": [d(6), d(6)], "hits": 1, "result": "destroyed"}))
    assert t.t("dt").wreck


def test_g_f1_a_shot_without_a_result_changes_no_target_and_tells_nothing():
    t = Table()
    t.add(shot())
    t.add(("team_shot", {"shooter": "a2", "target": "d2", "dice": [d(1), d(1)], "hits": 0, "result": "miss"}))
    assert not t.t("d1").destroyed and not t.t("d2").destroyed
    assert last(t) == []


def test_g_f1_saved_changes_nothing_but_needs_a_hit():
    t = Table()
    t.refused("G-F1", shot(hits=0, result="saved"))
    t.add(shot(hits=1, result="saved"))
    assert not t.t("d1").destroyed


def test_g_f1_the_tables_result_must_hang_together():
    t = Table()
    t.refused("G-F1", shot(hits=3))  # two dice, three hits
    t.refused("G-F1", shot(hits=1, result="miss"))
    t.refused("G-F1", shot(hits=0, result="destroyed"))
    t.refused("G-F1", shot(hits=1, result="bailed_out"))  # infantry is never Bailed Out
    t.add(shot(hits=2, result="destroyed"))


# --- dice with the face they needed ---------------------------------------------------------------
def test_f_dig_3_and_f_dig_10_the_skill_test_and_its_re_roll_state_what_they_needed():
    t = Table(platoons_a=({"id": "A1", "kind": "infantry", "skill": 3, "teams": [team("a1"), team("a2")]},
                          {"id": "PS", "kind": "other", "teams": [team("ps", "vehicle", pioneer_supply=True)]}))
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(2), "reroll": d(3), "pioneer_supply_distance": 1}))
    got = last(t)
    assert got[:2] == [
        {"kind": "roll", "test": "skill", "value": 2, "need": 3, "passed": False, "id": "A1"},
        {"kind": "roll", "test": "skill_reroll", "value": 3, "need": 3, "passed": True, "id": "A1"}]
    assert {"kind": "dug_in", "id": "a1"} in got and {"kind": "dug_in", "id": "a2"} in got


def test_f_dig_3_the_default_skill_test_is_4_plus():
    t = Table()
    t.add(("dig_in_attempted", {"platoon": "A1", "die": d(3)}))
    assert last(t) == [{"kind": "roll", "test": "skill", "value": 3, "need": 4, "passed": False, "id": "A1"}]


def test_f_recon_2_an_unarmoured_recon_vehicle_save_needs_3_and_a_failed_one_destroys():
    t = recon_table()
    t.add(("unarmoured_save_rolled", {"team": "raj", "die": d(2)}))
    assert last(t) == [{"kind": "roll", "test": "save", "value": 2, "need": 3, "passed": False, "id": "raj"},
                       {"kind": "destroyed", "id": "raj"}]
    t.add(("unarmoured_save_rolled", {"team": "truck", "die": d(5)}))
    assert last(t) == [{"kind": "roll", "test": "save", "value": 5, "need": 5, "passed": True, "id": "truck"}]


def test_f_air_4_an_armoured_vehicle_needs_armour_plus_die_above_anti_tank_then_f_air_7_firepower():
    t = air_table()
    t.add(air(hit("tk", 2, "bombs", anti_tank=5, fp=5), hit("i1", 3)))  # 2 + Top 1 = 3 < 5; infantry 3+ (F-AIR-10)
    got = last(t)
    assert got[:3] == [
        {"kind": "roll", "test": "save", "value": 2, "need": 5, "passed": False, "id": "tk"},
        {"kind": "roll", "test": "firepower", "value": 5, "need": 4, "passed": True, "id": "tk"},
        {"kind": "roll", "test": "save", "value": 3, "need": 3, "passed": True, "id": "i1"}]
    assert {"kind": "destroyed", "id": "tk"} in got and {"kind": "pinned", "id": "DT"} in got  # F-AIR-7, F-AIR-15


def test_f_air_1_a_second_hit_on_a_team_already_destroyed_rolls_nothing_more():
    t = air_table()
    t.add(air(hit("truck", 1), hit("truck", 6)))  # 5+ (F-AIR-8): destroyed by the first
    rolls = [e for e in last(t) if e["kind"] == "roll"]
    assert rolls == [{"kind": "roll", "test": "save", "value": 1, "need": 5, "passed": False, "id": "truck"}]


def test_f_train_22_a_train_that_runs_off_the_table_has_left_it():
    t = on_table(line=20, at=16)
    t.add(move(5))
    assert t.state.trains["BP"].where == "left"
    assert last(t) == [{"kind": "train_left", "id": "BP"}]
