"""The replay twin of every payload (``events.builder``): at replay the engine rebuilds a stored
payload without validating it again, as a slotted object with the same attribute names, nested
twins for nested payloads, and lists and maps of them. A mutator reads the same values at append
time (the real frozen dataclass) and at replay (its twin), so a battle's state is the same whether
it was decided event by event or rebuilt from the log (the log is the truth)."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from battles.engine import events
from battles.engine.events import Event
from tests.engine.test_schema_agreement import IDS, TYPES, example


def same(twin: Any, real: Any, where: str) -> None:
    if dataclasses.is_dataclass(real):
        assert type(twin).__name__ == f"{type(real).__name__}Replay", where
        assert type(twin).__doc__ == type(real).__doc__, where
        names = [f.name for f in dataclasses.fields(real)]
        assert type(twin).__slots__ == tuple(names), where
        for name in names:
            same(getattr(twin, name), getattr(real, name), f"{where}.{name}")
        shown = ", ".join(f"{n}={getattr(twin, n)!r}" for n in names)
        assert repr(twin) == f"{type(real).__name__}Replay({shown})", where
        with pytest.raises(AttributeError):
            twin.not_a_field = 1  # slotted: no attribute outside the payload's fields
    elif isinstance(real, list):
        assert isinstance(twin, list) and len(twin) == len(real), where
        for i, (a, b) in enumerate(zip(twin, real, strict=True)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(real, dict):
        assert isinstance(twin, dict) and sorted(twin) == sorted(real), where
        for k in real:
            same(twin[k], real[k], f"{where}.{k}")
    else:
        assert twin == real, where


@pytest.mark.parametrize(("code", "name", "event_type"), TYPES, ids=IDS)
def test_a_stored_payload_replays_as_the_same_values_it_was_appended_with(code, name, event_type):
    from battles.engine import schema

    published = schema.dataclass_schema(event_type.payload)
    for most in (False, True):
        data = example(published, most)
        appended = event_type.parse(data)
        replayed = event_type.load(Event(seq=1, type=name, data=data, version=event_type.version))
        same(replayed, appended, name)
        # the builder is the type's own and is reused (one per payload class)
        assert events.builder(event_type.payload) is events.builder(event_type.payload)


def test_a_payload_stored_without_a_field_added_later_takes_the_fields_default():
    with_defaults = [(name, t, f) for _c, name, t in TYPES for f in dataclasses.fields(t.payload)
                     if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING]
    assert with_defaults
    from battles.engine import schema

    for name, t, f in with_defaults:
        data = example(schema.dataclass_schema(t.payload), True)
        older = {k: v for k, v in data.items() if k != f.name}
        replayed = t.load(Event(seq=1, type=name, data=older, version=t.version))
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
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
