"""One payload declaration, three readers (and the parser that also dumps) that must agree.

Every event type's payload is a dataclass from which the engine derives (1) the JSON Schema that
clients discover (``GET /api/event-types/``, ``to_json_schema``), (2) the walk that names the first
bad field (``check_value``), and (3) the compiled parser that takes every payload first and hands
anything it does not accept to the walk. The schema module promises that (3) accepts exactly what (2)
accepts and builds the same value, and the API promises that (1) describes what (2) accepts.

For every payload of every ruleset, the test builds payloads from the published schema (the least
and the most each field allows) and one-change variants of them (each bound crossed by one, each
type swapped, each required field dropped, an unknown field added, a null where none is allowed),
and checks that the three readers give the same verdict, that an accepted payload is the same
value from both parsers, and that a refusal names the field that was changed.
"""
from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from battles.engine import events, schema
from battles.engine.errors import PayloadError
from battles.engine.fow.registry import REGISTRY as FOW_REGISTRY
from battles.engine.state import dump

TYPES = sorted([(t.owner.code, name, t) for name, t in events.REGISTRY.items()]
               + [(t.owner.code, name, t) for name, t in FOW_REGISTRY.items()], key=lambda x: x[:2])
IDS = [f"{code}:{name}" for code, name, _t in TYPES]


# Values tried in every field whatever its schema says, so a bound the schema forgot to publish
# (or the parser forgot to check) shows as a disagreement.
NUMBERS = (-1000, -1, 0, 1, 2, 3, 5, 6, 7, 10, 12, 13, 24, 99, 100, 101, 1000, 10**6, 0.5, 2.5)
LENGTHS = (0, 1, 2, 3, 5, 10, 20, 32, 33, 40, 64, 65, 100, 128, 129, 200, 255, 256, 257, 500, 1000, 1001, 4000)


def _kind(s: dict) -> dict:
    """The schema of the value itself (an optional field's schema is ``anyOf: [it, null]``)."""
    return s["anyOf"][0] if "anyOf" in s else s


def example(s: dict, most: bool) -> Any:
    """The least (``most=False``: lower bounds, required fields only, no optional value) or the
    most (upper bounds, every field) that the schema ``s`` allows."""
    if "anyOf" in s:
        return example(s["anyOf"][0], most) if most else None
    if "enum" in s:
        return s["enum"][-1 if most else 0]
    t = s["type"]
    if t == "boolean":
        return most
    if t in ("integer", "number"):
        bound = s.get("maximum" if most else "minimum")
        if bound is None:
            bound = (s.get("minimum", 0) + 3) if most else min(0, s.get("maximum", 0))
        return bound
    if t == "string":
        n = s.get("maxLength", 12) if most else s.get("minLength", 0)
        return "ж" * n
    if t == "array":
        n = min(s.get("maxItems", 2), 2) if most else s.get("minItems", 0)
        n = max(n, s.get("minItems", 0))
        return [example(s["items"], most) for _ in range(n)]
    if t == "object" and "properties" in s:
        keys = s["properties"] if most else s.get("required", [])
        return {k: example(s["properties"][k], most) for k in keys}
    if t == "object":
        return {"k": example(s["additionalProperties"], most)} if most else {}
    raise AssertionError(f"unexpected schema {s}")


def variants(s: dict, value: Any, path: str):
    """(changed payload part, the path a refusal must name) pairs: one change each."""
    inner = _kind(s)
    if value is None:  # an optional field left out as null: give it a wrong value
        yield "zz", path
        return
    if "anyOf" not in s:
        yield None, path
    if "enum" in inner:
        yield "zz-not-a-choice", path
        return
    t = inner["type"]
    if t == "boolean":
        yield 1, path
        yield "true", path
    elif t in ("integer", "number"):
        yield "1", path
        yield True, path
        yield from ((n, path) for n in NUMBERS)
        if t == "integer":
            yield 1.5, path
        if "minimum" in inner:
            yield inner["minimum"] - (1 if t == "integer" else 0.5), path
        if "maximum" in inner:
            yield inner["maximum"] + (1 if t == "integer" else 0.5), path
    elif t == "string":
        yield 5, path
        yield from (("s" * n, path) for n in LENGTHS)
        if "maxLength" in inner:
            yield "x" * (inner["maxLength"] + 1), path
        if inner.get("minLength", 0) > 0:
            yield "x" * (inner["minLength"] - 1), path
    elif t == "array":
        yield "x", path
        if inner.get("minItems", 0) > 0:
            yield value[: inner["minItems"] - 1], path
        if "maxItems" in inner:
            filler = value[0] if value else example(inner["items"], True)
            yield [copy.deepcopy(filler) for _ in range(inner["maxItems"] + 1)], path
        if value:
            yield from (([copy.deepcopy(value[0]) for _ in range(n)], path) for n in LENGTHS if n <= 100)
        for i, item in enumerate(value):
            for changed, where in variants(inner["items"], item, f"{path}[{i}]"):
                yield value[:i] + [changed] + value[i + 1:], where
    elif t == "object":
        yield [], path
        if "properties" in inner:
            yield {**value, "zz_unknown": 1}, f"{path}.zz_unknown"
            for k in inner["properties"]:
                yield {x: v for x, v in value.items() if x != k}, f"{path}.{k}"
            for k, v in value.items():
                for changed, where in variants(inner["properties"][k], v, f"{path}.{k}"):
                    yield {**value, k: changed}, where
        else:
            for k, v in value.items():
                for changed, where in variants(inner["additionalProperties"], v, f"{path}.{k}"):
                    yield {**value, k: changed}, where


def verdicts(event_type, data: Any) -> tuple[Any, Any, Any]:
    """(walk, compiled, schema): each the parsed value, or the refusal. The fourth reader, the
    compiled parser that also dumps (``parse_dataclass_dumped``'s one pass), is checked here
    against the walk: the same verdict, the same value, and ``state.dump``'s text of it."""
    cls = event_type.payload
    try:
        walk = schema._parse_dataclass_walk(cls, copy.deepcopy(data))
    except PayloadError as e:
        walk = e
    fast_parser = schema._compile_dataclass(cls)
    try:
        fast = fast_parser(copy.deepcopy(data))
    except Exception as e:  # noqa: BLE001 - the compiled parser refuses with a bare exception
        fast = e
    try:
        dumped = schema._compile_dataclass_dumping(cls)(copy.deepcopy(data))
    except Exception as e:  # noqa: BLE001 - as the compiled parser
        dumped = e
    if isinstance(walk, Exception):
        assert isinstance(dumped, Exception), f"the dumping parser accepts what the walk refuses: {data}"
        with pytest.raises(PayloadError) as caught:
            schema.parse_dataclass_dumped(cls, copy.deepcopy(data))
        assert caught.value.field == walk.field
    else:
        assert not isinstance(dumped, Exception), f"the dumping parser refuses {data}: {dumped!r}"
        assert repr(dumped[0]) == repr(walk)
        # the same keys in the same order and the same values (1 and 1.0 differ in the text)
        assert json.dumps(dumped[1]) == json.dumps(dump(walk)), data
        assert schema.parse_dataclass_dumped(cls, copy.deepcopy(data)) == (walk, dump(walk))
    published = Draft202012Validator(schema.dataclass_schema(cls)).is_valid(data)
    return walk, fast, published


@pytest.mark.parametrize(("code", "name", "event_type"), TYPES, ids=IDS)
def test_payload_the_published_schema_the_walk_and_the_compiled_parser_agree(code, name, event_type):
    published = schema.dataclass_schema(event_type.payload)
    Draft202012Validator.check_schema(published)
    assert published["type"] == "object" and published["additionalProperties"] is False
    assert event_type.describe()["schema"] == published
    accepted = refused = 0
    for most in (False, True):
        base = example(published, most)
        walk, fast, ok = verdicts(event_type, base)
        assert not isinstance(walk, Exception), f"{name}: the walk refuses the schema's own example {base}: {walk}"
        assert ok and repr(fast) == repr(walk), f"{name}: {base}"  # repr: 1 and 1.0 differ
        assert event_type.parse(base) == walk
        accepted += 1
        for changed, where in variants(published, base, "data"):
            walk, fast, ok = verdicts(event_type, changed)
            if isinstance(walk, Exception):
                refused += 1
                assert not ok, f"{name}: the schema accepts what the walk refuses ({walk}): {changed}"
                assert isinstance(fast, Exception), f"{name}: the compiled parser accepts {changed}"
                assert walk.field == where, f"{name}: {walk.field} named for a change at {where}"
                with pytest.raises(PayloadError) as caught:
                    schema.parse_dataclass(event_type.payload, copy.deepcopy(changed))
                assert caught.value.field == where
                assert where in caught.value.message_ru and where in caught.value.message_en
            else:
                accepted += 1
                assert ok, f"{name}: the schema refuses what the walk accepts: {changed}"
                assert repr(fast) == repr(walk), f"{name}: the compiled parser builds another value from {changed}"
    assert refused > 0 and accepted >= 2


def test_payload_an_optional_field_is_published_as_nullable_with_its_description():
    described = [(t, f) for _c, _n, t in TYPES for f in dataclasses.fields(t.payload)
                 if "doc" in f.metadata]
    assert described, "some payload field has a doc"
    for t, f in described:
        s = schema.dataclass_schema(t.payload)["properties"][f.name]
        assert s["description"] == f.metadata["doc"]
    nullable = [(t, name, s) for _c, _n, t in TYPES
                for name, s in schema.dataclass_schema(t.payload)["properties"].items() if "anyOf" in s]
    assert nullable
    for t, name, s in nullable:
        assert s["anyOf"][1] == {"type": "null"}
        assert Draft202012Validator(s).is_valid(None)
        field = next(f for f in dataclasses.fields(t.payload) if f.name == name)
        has_default = field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
        assert (name in schema.dataclass_schema(t.payload).get("required", [])) is not has_default, name


def test_payload_required_lists_exactly_the_fields_without_a_default():
    for _c, name, t in TYPES:
        wanted = [f.name for f in dataclasses.fields(t.payload)
                  if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        assert schema.dataclass_schema(t.payload).get("required", []) == wanted, name


def test_payload_a_class_docstring_is_the_schemas_description():
    for _c, name, t in TYPES:
        s = schema.dataclass_schema(t.payload)
        if t.payload.__doc__:
            assert s["description"] == " ".join(t.payload.__doc__.split()), name
