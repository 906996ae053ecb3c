"""A stored payload at replay (``EventType.load``): the engine rebuilds it as the same payload class
it was appended as, with the same values, nested payloads, lists and maps included. A mutator reads
the same values at append time and at replay, so a battle's state is the same whether it was decided
event by event or rebuilt from the log (the log is the truth)."""
from __future__ import annotations

import msgspec
import pytest

from battles.engine import events
from battles.engine.events import Event
from battles.engine.schema import payload_fields
from tests.engine.test_schema_agreement import IDS, TYPES, example


@pytest.mark.parametrize(("code", "name", "event_type"), TYPES, ids=IDS)
def test_a_stored_payload_replays_as_the_same_values_it_was_appended_with(code, name, event_type):
    from battles.engine import schema

    published = schema.payload_schema(event_type.payload)
    for most in (False, True):
        data = example(published, most)
        appended = event_type.parse(data)
        replayed = event_type.load(Event(seq=1, type=name, data=schema.dump(appended), version=event_type.version))
        assert type(replayed) is type(appended) is event_type.payload
        assert replayed == appended, name
        assert schema.dump(replayed) == schema.dump(appended), name


def test_a_payload_stored_without_a_field_added_later_takes_the_fields_default():
    with_defaults = [(name, t, f) for _c, name, t in TYPES for f in payload_fields(t.payload)
                     if f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT]
    assert with_defaults
    from battles.engine import schema

    for name, t, f in with_defaults:
        data = example(schema.payload_schema(t.payload), True)
        older = {k: v for k, v in data.items() if k != f.name}
        replayed = t.load(Event(seq=1, type=name, data=older, version=t.version))
        default = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
        assert getattr(replayed, f.name) == default, f"{name}.{f.name}"


def test_a_stored_payload_without_a_required_field_is_not_applied_at_replay():
    from battles.engine.fold import fold
    from battles.engine.synthetic import synthetic_battle

    log = synthetic_battle(200, seed=3)
    i, victim = next((i, e) for i, e in enumerate(log) if i > 20 and e.type == "fire")
    t = events.REGISTRY["fire"]
    broken = Event(seq=victim.seq, type="fire", data={k: v for k, v in victim.data.items() if k != "shooter"},
                   version=victim.version)
    with pytest.raises(KeyError):
        t.load(broken)
    state = fold(log[:i] + [broken] + log[i + 1:])
    assert state.unapplied == [victim.seq]
    assert fold(log).unapplied == []
