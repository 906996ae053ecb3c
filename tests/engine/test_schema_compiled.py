"""The compiled payload parsers (``schema.parse_dataclass``'s fast path) give
exactly the walk's verdicts: the same value for a payload it accepts, the
same PayloadError (field and both messages) for one it refuses. Checked on
every payload of the synthetic battles of both rulesets and on mutations of
them (wrong types, missing, unknown and null fields, out-of-range numbers,
bools for integers); and ``dump`` writes what the original walk wrote."""
from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from battles.engine import PayloadError
from battles.engine.events import _registry
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.schema import _parse_dataclass_walk, parse_dataclass
from battles.engine.state import dump
from battles.engine.synthetic import synthetic_battle


def _verdict(fn, cls: type, data: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(cls, data)
    except PayloadError as exc:
        return "refused", (exc.field, exc.message_ru, exc.message_en)


def _reference_dump(obj: Any) -> Any:
    """``dump`` as it was before field names were looked up once per class."""
    if dataclasses.is_dataclass(obj):
        return {f.name: _reference_dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _reference_dump(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [_reference_dump(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(_reference_dump(v) for v in obj)
    return obj


_ODD = [None, True, False, 0, -1, 10**6, 1.5, "", "x" * 300, [], {}, [1], {"a": 1}]


def _mutations(data: dict[str, Any], rng: random.Random) -> list[Any]:
    out: list[Any] = [[], "text", None, {**data, "no_such_field": 1}]
    for key in data:
        out.append({k: v for k, v in data.items() if k != key})  # missing
        for odd in rng.sample(_ODD, 5):
            out.append({**data, key: odd})
        value = data[key]
        if isinstance(value, list) and value:
            bad = copy.deepcopy(value)
            bad[0] = rng.choice(_ODD)
            out.append({**data, key: bad})
            if isinstance(value[0], dict) and value[0]:
                inner = copy.deepcopy(value)
                inner[0][rng.choice(sorted(inner[0]))] = rng.choice(_ODD)
                out.append({**data, key: inner})
        if isinstance(value, dict) and value:
            inner = copy.deepcopy(value)
            inner[rng.choice(sorted(inner))] = rng.choice(_ODD)
            out.append({**data, key: inner})
    return out


@pytest.mark.parametrize(("ruleset", "events"), [("v11.2", synthetic_battle(1500)),
                                                 ("fow", synthetic_fow_battle(1500))])
def test_compiled_parser_gives_the_walks_verdicts_on_valid_and_mutated_payloads(ruleset, events):
    registry = _registry(ruleset)
    rng = random.Random(7)
    compared = refused = 0
    for event in events:
        cls = registry[event.type].payload
        for data in [event.data, *_mutations(event.data, rng)]:
            fast, walk = _verdict(parse_dataclass, cls, data), _verdict(_parse_dataclass_walk, cls, data)
            assert fast == walk, (event.type, data)
            if fast[0] == "ok":
                assert dump(fast[1]) == _reference_dump(walk[1])
            else:
                refused += 1
            compared += 1
    assert compared > 10_000 and refused > compared // 3  # the mutations do reach the refusals


def test_dump_matches_the_walk_on_states():
    from battles import engine

    state = engine.fold(synthetic_battle(800))
    assert dump(state) == _reference_dump(state)


def test_load_of_a_dump_is_the_same_state_in_both_rulesets():
    from battles import engine

    for ruleset, events in (("v11.2", synthetic_battle(800)), ("fow", synthetic_fow_battle(800))):
        state = engine.fold(events, ruleset=ruleset)
        again = engine.state_from_json(engine.state_to_json(state), ruleset)
        assert type(again) is type(state) and _reference_dump(again) == _reference_dump(state)
