"""The append path keeps the state after a committed append for the next one
(a snapshot cache); a hit must always be the true state of the log."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import engine
from battles.models import Battle, BattleEvent
from battles.services import STATE_CACHE, NewEvent, _fingerprint, battle_create, battle_event_append
from config.errors import RuleRefused

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})


def fp(battle):
    """The cache key's rules part: the battle's snapshot (the game data and rules settings it started under)."""
    return _fingerprint(Battle.objects.get(pk=battle.pk).rules)


def fold_log(battle):
    return engine.fold([engine.Event(e.seq, e.type, e.data, e.schema_version)
                        for e in BattleEvent.objects.filter(battle=battle).order_by("seq")])


@pytest.mark.django_db(transaction=True)
def test_a_committed_append_leaves_the_true_state_for_the_next(campaign):
    battle = battle_create(campaign=campaign, name="cache")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    cached = STATE_CACHE.take(battle.id, 1, fp(battle))
    assert cached is not None and engine.dump(cached) == engine.dump(fold_log(battle))
    STATE_CACHE.keep(battle.id, 1, fp(battle), cached)
    with CaptureQueriesContext(connection) as ctx:
        battle_event_append(battle_id=battle.id, expected_seq=1,
                            events=[NewEvent("turn_ended", {"side": "defender", "turn": 1})])
    sql = [q["sql"] for q in ctx.captured_queries]
    append = sql[:next(i for i, q in enumerate(sql) if "battles_logposition" in q)]  # up to the insert
    assert not any("battles_battleprojection" in q for q in append), "a cache hit needs no projection read"
    after = STATE_CACHE.take(battle.id, 2, fp(battle))
    assert engine.dump(after) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_a_refused_append_leaves_nothing_in_the_cache(campaign):
    battle = battle_create(campaign=campaign, name="refused")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    with pytest.raises(RuleRefused):
        battle_event_append(battle_id=battle.id, expected_seq=1,
                            events=[NewEvent("turn_ended", {"side": "attacker", "turn": 1})])
    assert STATE_CACHE.take(battle.id, 1, fp(battle)) is None  # taken by the refused append and dropped
    ok = battle_event_append(battle_id=battle.id, expected_seq=1,
                             events=[NewEvent("turn_ended", {"side": "defender", "turn": 1})])
    assert ok.created and engine.dump(STATE_CACHE.take(battle.id, 2, fp(battle))) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_a_state_for_another_seq_or_other_rules_is_never_used(campaign):
    battle = battle_create(campaign=campaign, name="stale")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    wrong = engine.BattleState()  # not the state after seq 1
    STATE_CACHE.keep(battle.id, 1, '{"talk_distance": 9}', wrong)
    battle_event_append(battle_id=battle.id, expected_seq=1,
                        events=[NewEvent("turn_ended", {"side": "defender", "turn": 1})])
    assert battle.events.count() == 2  # checked against the real state, not the stale one
    assert engine.dump(STATE_CACHE.take(battle.id, 2, fp(battle))) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_an_append_that_finds_the_entry_taken_starts_from_the_checkpoint_not_the_whole_log(campaign):
    """Another thread holds the battle's entry (or a failed comparison dropped it):
    the locked path loads the process's last checkpoint (every
    ``checkpoint_every``-th kept state: 32) and folds only the events after it;
    no projection read, the true state."""
    from bench import synthetic

    every = STATE_CACHE.checkpoint_every
    head = every + 4
    script = synthetic.battle(head + 1, types=synthetic.TURNS_ONLY)
    battle = battle_create(campaign=campaign, name="checkpoint")
    for e in script[:head]:
        battle_event_append(battle_id=battle.id, expected_seq=e.seq - 1, events=[NewEvent(e.type, e.data)])
    taken = STATE_CACHE.take(battle.id, head, fp(battle))  # another thread of this process holds it now
    assert taken is not None
    with CaptureQueriesContext(connection) as ctx:
        battle_event_append(battle_id=battle.id, expected_seq=head,
                            events=[NewEvent(script[head].type, script[head].data)])
    sql = [q["sql"] for q in ctx.captured_queries]
    append = sql[:next(i for i, q in enumerate(sql) if "battles_logposition" in q)]
    assert not any("battles_battleprojection" in q for q in append), "the checkpoint spares the projection"
    reads = [q for q in append if "battles_battleevent" in q and '"seq" >' in q]
    # only the events after it (the kept states count from the battle's first append, at seq 1)
    assert reads and all(f"> {every - 1}" in q or f"> {every}" in q for q in reads), reads
    assert engine.dump(STATE_CACHE.take(battle.id, head + 1, fp(battle))) == engine.dump(fold_log(battle))


@pytest.mark.parametrize("ruleset", ["v11.2", "fow"])
def test_a_checkpoint_loads_as_the_state_it_was_written_from_and_a_copy_of_it(ruleset):
    """What the locked path starts from is the kept state itself, not a view of
    it: changing the state after it was kept (the next append owns it) leaves
    the checkpoint as it was, and each load is a new copy."""
    from battles.engine.fow.synthetic import synthetic_fow_battle
    from battles.services import _StateCache
    from bench import synthetic

    events = synthetic.battle(400) if ruleset == "v11.2" else synthetic_fow_battle(400)
    state = engine.fold(events[:300], ruleset=ruleset)
    cache = _StateCache(checkpoint_every=1)
    cache.keep(7, 300, "fp", state)
    before = engine.state_to_json(state)
    engine.fold(events[300:], state, copy=False, ruleset=ruleset)  # the owner goes on with it
    assert engine.state_to_json(state) != before
    first, second = cache.checkpoint(7, 300, "fp"), cache.checkpoint(7, 300, "fp")
    assert type(first) is type(state) and engine.state_to_json(first) == before
    assert first is not second and first == second
    engine.fold(events[300:], first, copy=False, ruleset=ruleset)
    assert engine.state_to_json(first) == engine.state_to_json(state)  # it folds on as the original did
    assert engine.state_to_json(second) == before
    assert cache.checkpoint(7, 300, "other rules") is None and cache.checkpoint(7, 299, "fp") is None
