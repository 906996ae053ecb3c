"""``state.dump`` takes the hot shapes first (a dataclass met before, a plain list, tuple or dict) and
plain values without a call; it must give exactly what the general form gives, as JSON text too (the
stored payloads, the projections and the checkpoints are that text)."""
from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass, field

import pytest

from battles import engine
from battles.engine import state
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.synthetic import synthetic_battle


def general(obj):
    """The general form alone, as ``dump`` was before its fast paths (and as ``_dump_other`` recurses)."""
    import dataclasses

    if type(obj) in state._PLAIN:
        return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: general(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if dataclasses.is_dataclass(obj):
        return {f.name: general(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): general(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [general(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(general(v) for v in obj)
    return obj


def text(value):
    return json.dumps(value, ensure_ascii=False)  # key order kept: the canonical order is part of the form


@pytest.mark.parametrize("ruleset, log", [(None, synthetic_battle(1500, seed=3)),
                                          ("fow", synthetic_fow_battle(800))])
def test_every_payload_and_the_state_dump_as_the_general_form_does(ruleset, log):
    parsed = engine.parse_batch([(e.type, e.data, e.version) for e in log], ruleset=ruleset)
    for _entry, payload, data in parsed:
        assert text(data) == text(general(payload)) == text(state.dump(payload))
    folded = engine.fold(log, ruleset=ruleset)
    assert text(state.dump(folded)) == text(general(folded))


@dataclass
class One:
    only: object


@dataclass
class Empty:
    pass


@dataclass
class Mixed:
    name: str
    items: list = field(default_factory=list)
    table: dict = field(default_factory=dict)
    tags: frozenset = frozenset()


class Tup(tuple):
    pass


def test_the_odd_shapes_dump_as_the_general_form_does():
    values = [
        One(One(1.5)), One((1, "a", None)), Empty(), [Empty(), One(True)],
        Mixed("x", [One(2), [3, {"b": 1, "a": One("z")}]], {2: "two", 1: [One(None)]}, frozenset({3, 1, 2})),
        OrderedDict([("b", One(1)), ("a", 2)]), Tup((One(1), 2)), {"k": (1, [2, (3,)])},
        [True, 1, 1.0, "1", None],
    ]
    for v in values:
        assert text(state.dump(v)) == text(general(v)), v
    assert state.dump(One(1.0)) == {"only": 1.0} and type(state.dump(One(1.0))["only"]) is float
    assert state.dump({2: "b", 1: "a"}) == {"1": "a", "2": "b"} and list(state.dump({2: "b", 1: "a"})) == ["1", "2"]
