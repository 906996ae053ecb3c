"""Ruleset dispatch in the engine: each ruleset folds its own vocabulary; a
type of one is refused in the other, naming both rulesets."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles import engine
from battles.engine.docs import render

from .table import Table, d

ROOT = Path(__file__).resolve().parents[3]


def test_docs_events_fow_md_is_generated_from_the_fow_registry():
    doc = (ROOT / "docs" / "events-fow.md").read_text(encoding="utf-8")
    assert doc == render("fow"), "run `python -m battles.engine.docs fow > docs/events-fow.md`"


def test_a_v11_event_type_is_refused_in_a_fow_battle_naming_the_rulesets():
    tb = Table()
    with pytest.raises(engine.PayloadError) as exc:
        engine.decide(tb.state, [("fire", {}, None)], first_seq=tb.state.last_seq + 1, ruleset="fow")
    assert exc.value.field == "events[0].type"
    assert "v11.2" in exc.value.message_en and "fow" in exc.value.message_en


def test_a_fow_event_type_is_refused_in_a_v11_battle():
    state = engine.BattleState()
    with pytest.raises(engine.PayloadError) as exc:
        engine.decide(state, [("dig_in_attempted", {}, None)], first_seq=1)
    assert "fow" in exc.value.message_en


def test_fold_dispatches_on_the_ruleset_and_v11_is_the_default():
    tb = Table()
    assert isinstance(engine.fold(tb.events, ruleset="fow"), engine.RULESETS["fow"].state_cls)
    assert isinstance(engine.fold([]), engine.BattleState)
    assert engine.vocabulary() == engine.REGISTRY.vocabulary()
    assert {e["type"] for e in engine.vocabulary("fow")} >= {"dig_in_attempted", "team_moved", "force_mustered"}


def test_unknown_ruleset_is_refused():
    with pytest.raises(engine.PayloadError):
        engine.ruleset_of("warhammer")


def test_fill_rolls_rolls_a_d6_for_fow_dice():
    data = engine.fill_rolls("dig_in_attempted", {"platoon": "A1", "die": {"source": "rolled"}}, lambda s: s,
                             ruleset="fow")
    assert data["die"]["value"] == 6


def test_a_fow_correction_voids_an_event_and_the_fold_skips_it():
    tb = Table()
    ev = tb.add(("dig_in_attempted", {"platoon": "A1", "die": d(5)}))
    assert tb.t("a1").dug_in
    tb.add(("correction", {"voids_seq": ev.seq, "reason": "wrong platoon"}))
    assert not tb.t("a1").dug_in
    assert not engine.fold(tb.events, ruleset="fow").teams["a1"].dug_in
    tb.refused("S-CORRECTION", ("correction", {"voids_seq": ev.seq, "reason": "again"}))


def test_fow_recorders_cover_every_fow_type():
    assert set(engine.RULESETS["fow"].policy) == set(engine.RULESETS["fow"].registry)
    tb = Table()
    with pytest.raises(engine.NotYours):
        engine.authorize(tb.state, "team_moved", engine.lookup("team_moved", "fow").parse(
            {"team": "a1", "distance": 1}), side="defender", ruleset="fow")


@pytest.mark.parametrize(("type_name", "data"), [
    ("assault_launched", {"teams": ["a1"], "against": "D1"}),
    ("went_to_ground", {"teams": ["a1", "a2"]}),
])
def test_fow_events_naming_several_teams_are_recorded_by_the_first_teams_side(type_name, data):
    """The recorder policy: an assault or going to ground is recorded by the side of the teams it names."""
    tb = Table()
    p = engine.lookup(type_name, "fow").parse(data)
    with pytest.raises(engine.NotYours):
        engine.authorize(tb.state, type_name, p, side="defender", ruleset="fow")
    assert engine.authorize(tb.state, type_name, p, side="attacker", ruleset="fow") is False


ACTIONS = st.lists(st.tuples(st.sampled_from(["move", "double", "dig", "shoot", "ground", "end", "void"]),
                             st.sampled_from(["a1", "a2", "d1", "d2"]), st.integers(1, 6)), max_size=25)


@settings(max_examples=60, deadline=None)
@given(ACTIONS, st.sampled_from(["in", "cm"]))
def test_property_a_fow_log_folded_at_once_or_in_chunks_equals_the_incremental_state(actions, units):
    tb = Table(units=units)
    for kind, tid, n in actions:
        platoon = "A1" if tid.startswith("a") else "D1"
        enemy = "d1" if tid.startswith("a") else "a1"
        item = {
            "move": ("team_moved", {"team": tid, "distance": n}),
            "double": ("team_moved", {"team": tid, "distance": n * 2, "at_the_double": True, "closest_enemy": 30}),
            "dig": ("dig_in_attempted", {"platoon": platoon, "die": d(n)}),
            "shoot": ("team_shot", {"shooter": tid, "target": enemy, "dice": [d(n)] * (n % 4 + 1)}),
            "ground": ("went_to_ground", {"teams": [tid]}),
            "end": ("turn_ended", {"side": tb.state.side_to_move, "turn": tb.state.turn}),
            "void": ("correction", {"voids_seq": max(1, tb.state.last_seq - n), "reason": "r"}),
        }[kind]
        try:
            tb.add(item)
        except (engine.RuleViolation, engine.PayloadError):
            pass
    whole = engine.state_to_json(engine.fold(tb.events, ruleset="fow"))
    assert whole == engine.state_to_json(tb.state)
    voided = engine.voided_by(tb.events)
    cut = len(tb.events) // 2
    part = engine.fold(tb.events[:cut], ruleset="fow", skip=voided)
    part = engine.fold(tb.events[cut:], part, ruleset="fow", skip=voided)
    assert engine.state_to_json(part) == whole
    assert engine.state_to_json(engine.state_from_json(whole, "fow")) == whole
