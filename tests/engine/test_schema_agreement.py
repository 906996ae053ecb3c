"""The published schema and the parser agree on every payload of every ruleset.

Every event type's payload is one declaration from which the engine derives the JSON Schema that
clients discover (``GET /api/event-types/``, ``schema.payload_schema``) and the parser that takes
appended payloads (``schema.parse_payload``). The API promises that the schema describes what the
parser accepts.

For every payload of every ruleset, the test builds payloads from the published schema (the least
and the most each field allows) and one-change variants of them (each bound crossed by one, each
type swapped, each required field dropped, an unknown field added, a null where none is allowed),
and checks that the schema and the parser give the same verdict, that an accepted payload dumps to
what it parses back to, and that a refusal names the field that was changed, in both languages.
"""
from __future__ import annotations

import copy
from typing import Any

import msgspec
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


def verdicts(event_type, data: Any) -> tuple[Any, bool]:
    """(the parsed payload or the refusal, whether the published schema accepts ``data``). An accepted
    payload is parsed once more from its dump: the stored form reads back as the same payload."""
    cls = event_type.payload
    try:
        parsed, dumped = schema.parse_payload_dumped(cls, copy.deepcopy(data))
    except PayloadError as e:
        parsed = e
    else:
        assert dumped == dump(parsed) and schema.parse_payload(cls, dumped) == parsed, data
    return parsed, Draft202012Validator(schema.payload_schema(cls)).is_valid(data)


@pytest.mark.parametrize(("code", "name", "event_type"), TYPES, ids=IDS)
def test_payload_the_published_schema_and_the_parser_agree(code, name, event_type):
    published = schema.payload_schema(event_type.payload)
    Draft202012Validator.check_schema(published)
    assert published["type"] == "object" and published["additionalProperties"] is False
    assert event_type.describe()["schema"] == published
    accepted = refused = 0
    for most in (False, True):
        base = example(published, most)
        parsed, ok = verdicts(event_type, base)
        assert not isinstance(parsed, Exception), f"{name}: the parser refuses the schema's own example {base}: {parsed}"
        assert ok and event_type.parse(base) == parsed, f"{name}: {base}"
        accepted += 1
        for changed, where in variants(published, base, "data"):
            parsed, ok = verdicts(event_type, changed)
            if isinstance(parsed, Exception):
                refused += 1
                assert not ok, f"{name}: the schema accepts what the parser refuses ({parsed}): {changed}"
                assert parsed.field == where, f"{name}: {parsed.field} named for a change at {where}"
                assert parsed.message_ru.startswith(f"{where}: ") and parsed.message_en.startswith(f"{where}: ")
                assert "invalid value" not in parsed.message_en, parsed.message_en
            else:
                accepted += 1
                assert ok, f"{name}: the schema refuses what the parser accepts: {changed}"
    assert refused > 0 and accepted >= 2


def test_payload_an_optional_field_is_published_as_nullable_with_its_description():
    described = [(t, name, s) for _c, _n, t in TYPES
                 for name, s in schema.payload_schema(t.payload)["properties"].items() if "description" in s]
    assert described, "some payload field has a description"
    nullable = [(t, name, s) for _c, _n, t in TYPES
                for name, s in schema.payload_schema(t.payload)["properties"].items() if "anyOf" in s]
    assert nullable and any("description" in s for _t, _n, s in nullable)
    for t, name, s in nullable:
        assert s["anyOf"][1] == {"type": "null"}
        assert Draft202012Validator(s).is_valid(None)
        field = next(f for f in schema.payload_fields(t.payload) if f.name == name)
        has_default = field.default is not msgspec.NODEFAULT or field.default_factory is not msgspec.NODEFAULT
        assert (name in schema.payload_schema(t.payload).get("required", [])) is not has_default, name


def test_payload_required_lists_exactly_the_fields_without_a_default():
    for _c, name, t in TYPES:
        wanted = [f.name for f in schema.payload_fields(t.payload)
                  if f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT]
        assert schema.payload_schema(t.payload).get("required", []) == wanted, name


def test_payload_a_class_docstring_is_the_schemas_description():
    for _c, name, t in TYPES:
        s = schema.payload_schema(t.payload)
        if t.payload.__doc__:
            assert s["description"] == " ".join(t.payload.__doc__.split()), name
