"""Property: for any log and any way of cutting it into appends and replays,
incremental replay and a rebuild from scratch give the same projection."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles import engine
from battles.models import BattleProjection
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay


def next_valid(state):
    """The one non-correction event that is valid after ``state``."""
    if state.status == "planned":
        return ("battle_started", {"attacker": "A", "defender": "D"})
    return ("turn_ended", {"side": state.side_to_move, "turn": state.turn})


@st.composite
def logs(draw):
    """A valid log (voids included) as a list of batches, each followed by a replay or not."""
    n = draw(st.integers(min_value=1, max_value=25))
    events: list[engine.Event] = []
    for _ in range(n):
        seq = len(events) + 1
        state = engine.fold(events)
        set_up = state.turns[0].first_seq if state.turns else 0  # the start is never voided (V-TURN-13)
        candidates = [e.seq for e in events if e.type != "correction" and e.seq not in state.voided
                      and e.seq > set_up]
        if candidates and draw(st.integers(0, 3)) == 0:
            target = draw(st.sampled_from(candidates))
            type_, data = "correction", {"voids_seq": target, "reason": f"fix {target}"}
        else:
            type_, data = next_valid(state)
        events.append(engine.decide(state, [(type_, data, None)], first_seq=seq, history=lambda: events)[0])
    cuts = sorted(draw(st.sets(st.integers(min_value=1, max_value=len(events) - 1), max_size=6))) if n > 1 else []
    replay_after = draw(st.lists(st.booleans(), min_size=len(cuts) + 1, max_size=len(cuts) + 1))
    batches, start = [], 0
    for cut in [*cuts, len(events)]:
        batches.append([(e.type, e.data) for e in events[start:cut]])
        start = cut
    return batches, replay_after


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(plan=logs())
def test_incremental_replay_equals_rebuild_for_random_logs(campaign, plan):
    batches, replay_after = plan
    battle = battle_create(campaign=campaign, name="prop")
    expected = 0
    for batch, replay in zip(batches, replay_after, strict=True):
        battle_event_append(battle_id=battle.id, expected_seq=expected, as_game_master=True,
                            events=[NewEvent(t, d) for t, d in batch])
        expected += len(batch)
        if replay:
            battle_replay(battle_id=battle.id)
    battle_replay(battle_id=battle.id)
    incremental = BattleProjection.objects.get(battle=battle)
    battle_replay(battle_id=battle.id, rebuild=True)
    rebuilt = BattleProjection.objects.get(battle=battle)
    assert rebuilt.seq == incremental.seq == expected
    assert rebuilt.state == incremental.state
