"""The synthetic FoW battle of the bench (fow_engine_events_per_s) is a log the append gate accepts."""
from __future__ import annotations

import json

from battles import engine
from battles.engine.fow.synthetic import synthetic_fow_battle


def test_the_synthetic_fow_battle_is_deterministic_and_every_event_passes_the_engine_checks():
    events = synthetic_fow_battle(3000)
    assert [e.seq for e in events] == list(range(1, 3001))
    assert [(e.type, e.data) for e in events] == [(e.type, e.data) for e in synthetic_fow_battle(3000)]
    state = engine.new_state("fow")
    for i, e in enumerate(events):  # one at a time through the gate (checks run), like the append service
        state = engine.decide_and_apply(state, [(e.type, e.data, None)], first_seq=e.seq, ruleset="fow",
                                        history=lambda i=i: events[:i])[1]
    assert state.status == "ended" and state.applied == 3000
    assert engine.state_to_json(engine.fold(events, ruleset="fow")) == engine.state_to_json(state)
    assert json.dumps(engine.state_to_json(engine.fold(events, ruleset="fow")), sort_keys=True) == \
        json.dumps(engine.state_to_json(state), sort_keys=True)  # the same types too, not only equal values
    types = {e.type for e in events}
    assert {"team_moved", "team_shot", "dig_in_attempted", "force_mustered", "turn_ended"} <= types
    assert any(e.data.get("at_the_double") for e in events if e.type == "team_moved")
    assert state.trains and all(t.escorts for t in state.trains.values())
