"""The dice fillers (``dice._filler``, used by ``fill_rolls``) on every event type of both rulesets
(V-TEST-1: a d20 rolled by the service; G-F4: a FoW d6): every die asked to be rolled, and only those,
gets a face of its own die and its provenance, everything else in the data stays as it was, and data
not shaped as the annotation says is left alone."""
from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest

from battles.engine import dice
from battles.engine.events import _registry
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.schema import Payload
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


SECRETS = {"source", "value", "rng"}


def rolled_by_service(value: Any) -> bool:
    return isinstance(value, dict) and value.keys() == SECRETS and value["source"] == "rolled" \
        and value["rng"] == "secrets"


def unrolled(value: Any) -> Any:
    """The data as it was before the service rolled its dice."""
    if rolled_by_service(value):
        return {"source": "rolled"}
    if isinstance(value, dict):
        return {k: unrolled(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unrolled(v) for v in value]
    return value


def faces(value: Any) -> list[int]:
    if rolled_by_service(value):
        return [value["value"]]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [f for v in items for f in faces(v)]


def asked(value: Any) -> int:
    """How many dice of the data ask the service to roll them."""
    if value == {"source": "rolled"}:
        return 1
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return sum(asked(v) for v in items)


def fill(payload: type, data: Any) -> tuple[Any, list[int]]:
    """The filled data and the sides of each die the service rolled, in order."""
    sides: list[int] = []
    roll = counter()
    return run(dice._filler(payload), data, lambda n: sides.append(n) or roll(n)), sides


def run(filler: Any, data: Any, roll: Any) -> Any:
    """A filler with a roll that looks at the sides only, as ``fill_rolls`` gives it."""
    return filler(data, lambda n, path: roll(n), "secrets", ())


LOGS = {"v11.2": synthetic.battle(3000, seed=3), "fow": synthetic_fow_battle(3000, seed=3)}


@pytest.mark.parametrize("code", sorted(LOGS))
def test_every_die_asked_to_be_rolled_is_rolled_with_its_own_sides_and_nothing_else_changes(code):
    registry = _registry(code)
    own = 20 if code == "v11.2" else 6
    total = 0
    for event in LOGS[code]:
        payload = registry[event.type].payload
        kept, sides = fill(payload, event.data)
        assert kept == event.data and sides == [], event.type  # entered dice: nothing to roll
        ask = rolled(event.data)
        filled, sides = fill(payload, ask)
        assert unrolled(filled) == ask, event.type
        assert sides == [own] * asked(ask) and len(faces(filled)) == len(sides), event.type
        assert all(1 <= f <= own for f in faces(filled)), event.type
        total += len(sides)
    assert total > 100  # the battles did ask for dice


@pytest.mark.parametrize("code", sorted(LOGS))
def test_data_not_shaped_as_the_annotation_says_is_left_as_it_is_but_for_its_dice(code):
    registry = _registry(code)
    for entry in registry.values():
        for name in dice._dice_fields(entry.payload):
            for odd in (None, "text", 7, [], {}, [{"source": "rolled"}, "x", None], {"source": "rolled", "value": 3}):
                data = {name: odd, "other": {"source": "rolled"}}
                filled, _sides = fill(entry.payload, data)
                assert unrolled(filled) == data, (entry.name, name, odd)
                assert filled["other"] == {"source": "rolled"}  # not a field that holds a die


def test_a_rolled_die_gets_its_face_and_provenance_and_an_entered_one_is_kept():
    roll = counter()
    filler = dice._filler(dice.Die | None)
    assert run(filler, {"source": "rolled"}, roll) == {"source": "rolled", "value": 2, "rng": "secrets"}
    entered = {"source": "entered", "value": 7}
    assert run(filler, entered, roll) is entered
    assert run(filler, None, roll) is None
    assert run(dice._filler(dice.D6), {"source": "rolled"}, lambda sides: sides) == {
        "source": "rolled", "value": 6, "rng": "secrets"}  # a d6 is rolled with six sides
    assert run(dice._filler(list[dice.Die]), [{"source": "rolled"}] * 2, counter()) == [
        {"source": "rolled", "value": 2, "rng": "secrets"}, {"source": "rolled", "value": 3, "rng": "secrets"}]
    assert run(dice._filler(dict[str, dice.Die]), {"a": {"source": "rolled"}}, counter()) == {
        "a": {"source": "rolled", "value": 2, "rng": "secrets"}}


@pytest.mark.parametrize("code", sorted(LOGS))
def test_each_rolled_die_is_handed_its_path_in_the_data_and_gets_the_provenance_asked_for(code):
    """``fill_rolls_at``: the path a die is rolled at is where it stands in the filled data (the
    committed dice are derived from it, ``battles.log.dice_commit``)."""
    registry = _registry(code)
    seen = 0
    for event in LOGS[code]:
        ask = rolled(event.data)
        paths: list[tuple] = []

        def roll(n, path, paths=paths):
            paths.append(path)
            return len(paths) % n + 1

        filled = dice.fill_rolls_at(event.type, ask, roll, ruleset=code, rng="test-rng")
        for i, path in enumerate(paths):
            at = filled
            for step in path:
                at = at[step]
            assert at == {"source": "rolled", "value": (i + 1) % (20 if code == "v11.2" else 6) + 1,
                          "rng": "test-rng"}, (event.type, path)
        assert len(set(paths)) == len(paths) == asked(ask), event.type
        seen += len(paths)
        assert registry[event.type]
    assert seen > 100



class _Shot(Payload):
    die: dice.Die


class _Volley(Payload):
    shots: list[_Shot]
    next: _Volley | None = None  # a type that holds itself


def test_a_thread_asking_whether_a_payload_holds_dice_never_reads_another_threads_answer_in_the_making(
        monkeypatch):
    """A server's threads ask at once when it starts: the answer was kept as «no dice» while being worked out
    (so a type holding itself would not recurse for ever), and a second thread read that and sent a fire
    event's dice unrolled. Both threads must hear «yes»."""
    monkeypatch.delitem(dice._DICE_IN, _Volley, raising=False)
    first_thread = threading.current_thread()
    asked, answered = threading.Event(), threading.Event()
    real = dice.hints

    def slow(cls):
        if cls is _Volley and threading.current_thread() is not first_thread:
            asked.set()
            answered.wait(0.5)  # the first thread asks meanwhile
        return real(cls)

    monkeypatch.setattr(dice, "hints", slow)
    results = []
    other = threading.Thread(target=lambda: results.append(dice._has_dice(_Volley)))
    other.start()
    assert asked.wait(5)
    try:
        mine = dice._has_dice(_Volley)
    finally:
        answered.set()
        other.join()
    assert mine is True and results == [True]


class _Link(Payload):
    n: int
    next: _Link | None = None


def test_a_type_that_holds_itself_holds_dice_only_if_a_die_is_reachable():
    assert dice._has_dice(_Volley) is True
    assert dice._has_dice(_Link) is False and dice._has_dice(list[_Link]) is False
