"""Who records an event (the recorder policy, battles/engine/actors.py) for the events whose recorder
is decided from the state, and the engine's refusals as the apps receive them (errors.as_dict)."""
from __future__ import annotations

from types import SimpleNamespace as P

import pytest

from battles import engine
from battles.engine import actors, events
from battles.engine.errors import EngineError, PayloadError, RuleViolation
from battles.engine.fow import registry as fow_registry
from battles.engine.fow.state import FowState, Platoon, Team
from battles.engine.state import BattleState, Bunker, Fighter, Vehicle


def _state() -> BattleState:
    s = BattleState(status="running", attacker="A", defender="D", side_to_move="attacker")
    s.fighters["a_lt"] = Fighter("a_lt", "attacker", rank="lieutenant")
    s.fighters["d_pr"] = Fighter("d_pr", "defender", captured=True, captor_side="attacker")
    s.vehicles["a_gun"] = Vehicle("a_gun", "attacker", kind="artillery")
    s.vehicles["d_spot"] = Vehicle("d_spot", "defender", kind="car")
    s.bunkers["pb"] = Bunker("pb", spotter=True)
    return s


@pytest.mark.parametrize(("corrector", "shooter", "side"), [
    ("a_lt", "a_gun", "attacker"),        # an officer corrects for his own side
    ("d_spot", "a_gun", "defender"),      # a spotter vehicle: its own side, whatever battery is named
    ("pb", "a_gun", "attacker"),          # V-BUNK-8: a pillbox has no side; the battery decides
    ("pb", "ghost", actors.UNKNOWN),      # ... an unknown battery: left to the engine's checks
    ("ghost", "a_gun", actors.UNKNOWN),   # an unknown corrector: left to the engine's checks
])
def test_v_corr_3_the_corrections_recorder_is_the_correctors_side_or_for_a_pillbox_the_batterys(
        corrector, shooter, side):
    assert actors.recorder(_state(), "fire_corrected", P(corrector=corrector, shooter=shooter)) == side


def test_v_capt_3_a_capture_is_recorded_by_the_vehicle_owners_enemy():
    s = _state()
    assert actors.recorder(s, "capture_attempted", P(vehicle="a_gun")) == "defender"
    assert actors.recorder(s, "capture_attempted", P(vehicle="d_spot")) == "attacker"
    assert actors.recorder(s, "capture_attempted", P(vehicle="ghost")) == actors.UNKNOWN
    s.vehicles["odd"] = Vehicle("odd", "nobody")
    assert actors.recorder(s, "capture_attempted", P(vehicle="odd")) == actors.UNKNOWN


def test_v_pow_2_a_prisoner_is_handled_by_the_side_that_took_him_and_nobody_else():
    s = _state()
    assert actors.recorder(s, "prisoner_handled", P(prisoner="d_pr")) == "attacker"
    assert actors.recorder(s, "prisoner_handled", P(prisoner="a_lt")) == actors.UNKNOWN  # not a prisoner
    assert actors.recorder(s, "prisoner_handled", P(prisoner="ghost")) == actors.UNKNOWN
    s.fighters["d_pr"].captor_side = ""
    assert actors.recorder(s, "prisoner_handled", P(prisoner="d_pr")) == actors.UNKNOWN
    s.fighters["d_pr"].captor_side = "attacker"
    s.fighters["d_pr"].dead = True
    assert actors.recorder(s, "prisoner_handled", P(prisoner="d_pr")) == actors.UNKNOWN


@pytest.mark.parametrize("name", ["turn_ended", "postures_declared", "fighters_moved"])
def test_v_turn_12_the_named_side_records_its_own_turn_end_postures_and_moves(name):
    for side in ("attacker", "defender"):
        assert actors.recorder(_state(), name, P(side=side)) == side
    with pytest.raises(actors.NotYours) as denied:
        actors.authorize(_state(), name, P(side="defender"), side="attacker")
    assert denied.value.allowed == "defender" and denied.value.type_name == name
    assert "(D)" in denied.value.message_ru and "(D)" in denied.value.message_en
    title = events.REGISTRY[name]
    assert f"«{title.title_ru}»" in denied.value.message_ru and f"«{title.title_en}»" in denied.value.message_en


def test_the_game_master_only_events_name_the_game_master_in_both_languages():
    with pytest.raises(actors.NotYours) as denied:
        actors.authorize(_state(), "correction", P(), side="attacker")
    assert denied.value.allowed == actors.GAME_MASTER
    assert denied.value.message_ru.endswith("записывает только мастер.")
    assert denied.value.message_en.endswith("is recorded by the game master only.")
    assert denied.value.as_dict() == {"code": "not_your_event", "message_ru": denied.value.message_ru,
                                      "message_en": denied.value.message_en}


def test_fow_a_subject_is_a_team_or_a_platoon_and_its_side_records():
    s = FowState()
    s.teams["t1"] = Team("t1", "defender")
    s.platoons["p1"] = Platoon("p1", "attacker")
    assert fow_registry.subject_side(s, P(subject="t1")) == "defender"
    assert fow_registry.subject_side(s, P(subject="p1")) == "attacker"
    assert fow_registry.subject_side(s, P(subject="ghost")) == actors.UNKNOWN
    s.platoons["t1"] = Platoon("t1", "attacker")  # a team's id wins over a platoon of the same id
    assert fow_registry.subject_side(s, P(subject="t1")) == "defender"


def test_errors_reach_the_apps_as_their_code_rule_or_field_and_both_messages():
    base = EngineError("ру", "en")
    assert base.as_dict() == {"code": "engine_error", "message_ru": "ру", "message_en": "en"}
    assert str(base) == "en"
    rule = RuleViolation("V-MED-1", "Два ранения.", "Two wounds.")
    assert rule.as_dict() == {"rule_id": "V-MED-1", "code": "rule_violation", "message_ru": "Два ранения.",
                              "message_en": "Two wounds."}
    assert str(rule) == "V-MED-1: Two wounds."
    bad = PayloadError("data.turn", "data.turn: ожидается целое число", "data.turn: expected an integer")
    assert bad.as_dict() == {"field": "data.turn", "code": "invalid_event",
                             "message_ru": "data.turn: ожидается целое число",
                             "message_en": "data.turn: expected an integer"}
    assert str(bad) == "data.turn: data.turn: expected an integer"


def test_each_ruleset_has_its_own_engine_version_and_registry_identity():
    assert engine.engine_version() == engine.engine_version("v11.2")
    assert isinstance(engine.engine_version("fow"), int) and engine.engine_version("fow") >= 1
    v11, fow = events.REGISTRY, fow_registry.REGISTRY
    assert len({v11, fow, v11}) == 2  # hashable, one object per ruleset
    assert v11 == v11 and (v11 == fow) is False and (fow == dict(fow)) is False
    twin = events.Registry("v11.2")
    assert (twin == events.Registry("v11.2")) is False and hash(twin) == id(twin)
    # != agrees with == (dict's own __ne__ compares contents: two empty registries are "equal")
    assert (twin != events.Registry("v11.2")) is True and (v11 != v11) is False and (fow != dict(fow)) is True
