"""The compiled dice fillers (``dice._filler``, used by ``fill_rolls``) return what the walk
``dice._fill`` returns: the same copies, the same dice rolled in the same order, and malformed data
left as it is, for every event type of both rulesets (V-TEST-1: a d20 rolled by the service; G-F4:
a FoW d6)."""
from __future__ import annotations

import itertools
from typing import Any

import pytest

from battles.engine import dice
from battles.engine.events import _registry
from battles.engine.fow.synthetic import synthetic_fow_battle
from bench import synthetic


def rolled(value: Any) -> Any:
    """Every die of the data asked to be rolled by the service (its value taken out)."""
    if isinstance(value, dict):
        if value.keys() >= {"value", "source"} and value.keys() <= {"value", "source", "rng"}:
            return {"source": "rolled"}
        return {k: rolled(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rolled(v) for v in value]
    return value


def counter():
    faces = itertools.count(1)
    return lambda sides: next(faces) % sides + 1


def both(payload: type, data: Any) -> tuple[Any, Any]:
    return dice._fill(payload, data, counter()), dice._filler(payload)(data, counter())


LOGS = {"v11.2": synthetic.battle(3000, seed=3), "fow": synthetic_fow_battle(3000, seed=3)}


@pytest.mark.parametrize("code", sorted(LOGS))
def test_every_event_of_a_synthetic_battle_is_filled_as_the_walk_fills_it(code):
    registry = _registry(code)
    with_dice = 0
    for event in LOGS[code]:
        payload = registry[event.type].payload
        for data in (event.data, rolled(event.data)):
            walked, compiled = both(payload, data)
            assert compiled == walked, event.type
            assert (compiled is data) == (walked is data), event.type
        if rolled(event.data) != event.data and dice._has_dice(payload):
            with_dice += 1
    assert with_dice > 100  # the comparison did roll dice


@pytest.mark.parametrize("code", sorted(LOGS))
def test_malformed_data_is_left_where_the_walk_leaves_it(code):
    registry = _registry(code)
    for entry in registry.values():
        fields = dice._dice_fields(entry.payload)
        for name in fields:
            for odd in (None, "text", 7, [], {}, [{"source": "rolled"}, "x", None], {"source": "rolled", "value": 3}):
                data = {name: odd, "other": {"source": "rolled"}}
                walked, compiled = both(entry.payload, data)
                assert compiled == walked, (entry.name, name, odd)


def test_a_rolled_die_gets_its_face_and_provenance_and_an_entered_one_is_kept():
    roll = counter()
    filler = dice._filler(dice.Die | None)
    assert filler({"source": "rolled"}, roll) == {"source": "rolled", "value": 2, "rng": "secrets"}
    entered = {"source": "entered", "value": 7}
    assert filler(entered, roll) is entered
    assert filler(None, roll) is None
    assert dice._filler(dice.D6)({"source": "rolled"}, lambda sides: sides) == {
        "source": "rolled", "value": 6, "rng": "secrets"}  # a d6 is rolled with six sides
    assert dice._filler(list[dice.Die])([{"source": "rolled"}] * 2, counter()) == [
        {"source": "rolled", "value": 2, "rng": "secrets"}, {"source": "rolled", "value": 3, "rng": "secrets"}]
    assert dice._filler(dict[str, dice.Die])({"a": {"source": "rolled"}}, counter()) == {
        "a": {"source": "rolled", "value": 2, "rng": "secrets"}}
