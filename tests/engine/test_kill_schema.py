"""The payload validator (``schema.check_value``, ``_check_bounds``, ``_parse_dataclass_walk``) and
``dataclass_schema``, as behaviour: bad input is refused naming the field (STYLE.md: a clear 400 naming
the field), in Russian and English, and both bounds of every limit are exact (the value just inside is
accepted, just outside refused); a JSON Schema says the same limits and which fields are required."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pytest

from battles.engine import PayloadError
from battles.engine.schema import _check_bounds, _parse_dataclass_walk, check_value, dataclass_schema


def refused(tp, value, path="data.x", meta=None) -> PayloadError:
    with pytest.raises(PayloadError) as exc:
        check_value(tp, value, path, meta)
    return exc.value


@dataclass(frozen=True)
class Inner:
    """An inner   object,
    documented."""

    n: int = field(metadata={"min": 1, "max": 6})


@dataclass(frozen=True)
class Outer:
    name: str = field(metadata={"max_length": 5, "min_length": 1, "doc": "A name"})
    inner: Inner
    items: list[int] = field(default_factory=list, metadata={"min_items": 1, "max_items": 2,
                                                              "items": {"min": 0, "max": 9}})
    opt: float | None = field(default=None, metadata={"min": 0.5, "doc": "Optional"})
    mode: Literal["a", "b"] = "a"
    flags: dict[str, bool] = field(default_factory=dict)


# --- check_value -------------------------------------------------------------------------------------


def test_none_is_accepted_only_where_the_annotation_is_optional():
    assert check_value(int | None, None, "data.x") is None
    assert check_value(int | None, 3, "data.x") == 3
    e = refused(int, None)
    assert (e.field, e.message_ru, e.message_en) == ("data.x", "data.x: значение обязательно",
                                                      "data.x: a value is required")
    e = refused(str | None, 5, "data.y")
    assert e.field == "data.y" and e.message_en == "data.y: expected a string"


def test_a_literal_takes_only_its_choices_and_lists_them():
    assert check_value(Literal["a", "b"], "b", "data.m") == "b"
    e = refused(Literal["a", "b"], "c", "data.m")
    assert e.field == "data.m"
    assert e.message_en == "data.m: must be one of 'a', 'b'"
    assert e.message_ru == "data.m: допустимо одно из 'a', 'b'"
    assert refused(Literal[1, 2], "1").message_en == "data.x: must be one of 1, 2"


def test_a_boolean_is_only_true_or_false():
    assert check_value(bool, True, "p") is True and check_value(bool, False, "p") is False
    for bad in (1, 0, "true", None, 1.0):
        e = refused(bool, bad, "data.b") if bad is not None else refused(bool, bad, "data.b")
        assert e.field == "data.b"
    e = refused(bool, 1, "data.b")
    assert (e.message_ru, e.message_en) == ("data.b: ожидается true или false", "data.b: expected a boolean")


def test_an_integer_is_not_a_bool_nor_a_float_and_keeps_its_bounds():
    assert check_value(int, 7, "p") == 7 and type(check_value(int, 7, "p")) is int
    for bad in (True, False, 1.0, "1", [1]):
        e = refused(int, bad, "data.i")
        assert (e.field, e.message_en, e.message_ru) == ("data.i", "data.i: expected an integer",
                                                          "data.i: ожидается целое число")
    meta = {"min": 1, "max": 6}
    assert check_value(int, 1, "p", meta) == 1 and check_value(int, 6, "p", meta) == 6
    lo, hi = refused(int, 0, "data.i", meta), refused(int, 7, "data.i", meta)
    assert (lo.field, lo.message_en, lo.message_ru) == ("data.i", "data.i: must be at least 1", "data.i: не меньше 1")
    assert (hi.field, hi.message_en, hi.message_ru) == ("data.i", "data.i: must be at most 6", "data.i: не больше 6")


def test_a_number_takes_ints_and_floats_as_a_float_with_its_bounds():
    out = check_value(float, 3, "p")
    assert out == 3.0 and type(out) is float
    assert check_value(float, 2.5, "p") == 2.5
    for bad in (True, "2.5", None, [2.5]):
        e = refused(float, bad, "data.f")
        assert e.field == "data.f"
    e = refused(float, False, "data.f")
    assert (e.message_en, e.message_ru) == ("data.f: expected a number", "data.f: ожидается число")
    meta = {"min": 0.5, "max": 2.5}
    assert check_value(float, 0.5, "p", meta) == 0.5 and check_value(float, 2.5, "p", meta) == 2.5
    assert refused(float, 0.49, "data.f", meta).message_en == "data.f: must be at least 0.5"
    assert refused(float, 2.51, "data.f", meta).message_en == "data.f: must be at most 2.5"


def test_a_string_keeps_its_length_limits():
    assert check_value(str, "", "p") == ""
    e = refused(str, 5, "data.s")
    assert (e.field, e.message_en, e.message_ru) == ("data.s", "data.s: expected a string", "data.s: ожидается строка")
    meta = {"max_length": 3, "min_length": 2}
    assert check_value(str, "abc", "p", meta) == "abc" and check_value(str, "ab", "p", meta) == "ab"
    long = refused(str, "abcd", "data.s", meta)
    assert (long.field, long.message_en, long.message_ru) == (
        "data.s", "data.s: at most 3 characters", "data.s: не длиннее 3 символов")
    short = refused(str, "a", "data.s", meta)
    assert (short.field, short.message_en, short.message_ru) == (
        "data.s", "data.s: must not be empty", "data.s: значение обязательно")
    assert check_value(str, "x" * 1000, "p", {}) == "x" * 1000  # no limit without max_length
    assert check_value(str, "", "p", {"max_length": 0}) == ""
    assert refused(str, "x", "data.s", {"max_length": 0}).message_en == "data.s: at most 0 characters"


def test_a_list_keeps_its_item_count_limits_and_checks_each_item_by_its_index():
    meta = {"min_items": 1, "max_items": 2, "items": {"min": 0, "max": 9}}
    assert check_value(list[int], [0, 9], "data.l", meta) == [0, 9]
    assert check_value(list[int], [5], "data.l", meta) == [5]
    e = refused(list[int], (1,), "data.l")
    assert (e.field, e.message_en, e.message_ru) == ("data.l", "data.l: expected a list", "data.l: ожидается список")
    few = refused(list[int], [], "data.l", meta)
    assert (few.field, few.message_en, few.message_ru) == (
        "data.l", "data.l: at least 1 items", "data.l: не меньше 1 элементов")
    many = refused(list[int], [1, 2, 3], "data.l", meta)
    assert (many.field, many.message_en, many.message_ru) == (
        "data.l", "data.l: at most 2 items", "data.l: не больше 2 элементов")
    item = refused(list[int], [1, 10], "data.l", meta)
    assert (item.field, item.message_en) == ("data.l[1]", "data.l[1]: must be at most 9")
    assert refused(list[int], [-1], "data.l", meta).field == "data.l[0]"
    assert refused(list[int], [1, "2"], "data.l").field == "data.l[1]"
    assert check_value(list[int], [-5, 50], "data.l", {}) == [-5, 50]  # no item bounds without "items"
    out = check_value(list[float], [1], "data.l")
    assert out == [1.0] and type(out[0]) is float


def test_a_map_has_string_keys_and_checks_each_value_by_its_key():
    assert check_value(dict[str, int], {"a": 1, "b": 2}, "data.d") == {"a": 1, "b": 2}
    e = refused(dict[str, int], [("a", 1)], "data.d")
    assert (e.field, e.message_en, e.message_ru) == ("data.d", "data.d: expected an object", "data.d: ожидается объект")
    k = refused(dict[str, int], {1: 1}, "data.d")
    assert (k.field, k.message_en, k.message_ru) == ("data.d.1", "data.d.1: expected a string key",
                                                      "data.d.1: ожидается строковый ключ")
    v = refused(dict[str, int], {"a": 1, "b": "x"}, "data.d")
    assert (v.field, v.message_en) == ("data.d.b", "data.d.b: expected an integer")
    out = check_value(dict[str, float], {"a": 1}, "data.d")
    assert out == {"a": 1.0} and type(out["a"]) is float


def test_a_nested_dataclass_is_parsed_and_named_from_its_path():
    assert check_value(Inner, {"n": 3}, "data.in") == Inner(3)
    e = refused(Inner, {"n": 9}, "data.in")
    assert (e.field, e.message_en) == ("data.in.n", "data.in.n: must be at most 6")
    assert refused(Inner, 3, "data.in").field == "data.in"


def test_an_annotation_the_schema_does_not_know_is_a_programming_error():
    with pytest.raises(TypeError, match="unsupported payload annotation .* at data.z"):
        check_value(set[int], {1}, "data.z")
    with pytest.raises(TypeError):
        check_value(tuple, (1,), "data.z")


def test_check_bounds_is_inclusive_at_both_ends_and_needs_neither():
    _check_bounds(5, "p", {})
    _check_bounds(1, "p", {"min": 1})
    _check_bounds(6, "p", {"max": 6})
    _check_bounds(-100, "p", {"max": 6})
    _check_bounds(100, "p", {"min": 1})
    with pytest.raises(PayloadError) as lo:
        _check_bounds(0, "data.q", {"min": 1})
    assert (lo.value.field, lo.value.message_ru, lo.value.message_en) == (
        "data.q", "data.q: не меньше 1", "data.q: must be at least 1")
    with pytest.raises(PayloadError) as hi:
        _check_bounds(7, "data.q", {"max": 6})
    assert (hi.value.field, hi.value.message_ru, hi.value.message_en) == (
        "data.q", "data.q: не больше 6", "data.q: must be at most 6")
    with pytest.raises(PayloadError) as zero:
        _check_bounds(-1, "data.q", {"min": 0})
    assert zero.value.message_en == "data.q: must be at least 0"
    with pytest.raises(PayloadError):
        _check_bounds(1, "data.q", {"max": 0})


# --- the walk ----------------------------------------------------------------------------------------


def test_the_walk_builds_the_dataclass_with_defaults_for_omitted_fields():
    got = _parse_dataclass_walk(Outer, {"name": "ab", "inner": {"n": 2}, "items": [3]})
    assert got == Outer(name="ab", inner=Inner(2), items=[3], opt=None, mode="a", flags={})
    full = _parse_dataclass_walk(Outer, {"name": "abcde", "inner": {"n": 6}, "items": [0, 9], "opt": 1,
                                         "mode": "b", "flags": {"k": True}}, "p")
    assert full == Outer("abcde", Inner(6), [0, 9], 1.0, "b", {"k": True}) and type(full.opt) is float


def test_the_walk_names_the_first_unknown_field_in_sorted_order():
    with pytest.raises(PayloadError) as exc:
        _parse_dataclass_walk(Inner, {"n": 1, "zz": 1, "aa": 2}, "data")
    assert (exc.value.field, exc.value.message_ru, exc.value.message_en) == (
        "data.aa", "data.aa: неизвестное поле", "data.aa: unknown field")


def test_the_walk_refuses_what_is_not_an_object():
    for bad in ([], "x", None, 1):
        with pytest.raises(PayloadError) as exc:
            _parse_dataclass_walk(Inner, bad, "events[0].data")
        assert (exc.value.field, exc.value.message_en, exc.value.message_ru) == (
            "events[0].data", "events[0].data: expected an object", "events[0].data: ожидается объект")


def test_the_walk_names_a_missing_required_field_and_the_first_bad_one_with_its_limits():
    with pytest.raises(PayloadError) as exc:
        _parse_dataclass_walk(Outer, {"inner": {"n": 1}}, "data")
    assert (exc.value.field, exc.value.message_ru, exc.value.message_en) == (
        "data.name", "data.name: поле обязательно", "data.name: this field is required")
    with pytest.raises(PayloadError) as exc:
        _parse_dataclass_walk(Outer, {"name": "ab"})
    assert exc.value.field == "data.inner"
    cases = [({"name": "abcdef"}, "data.name", "at most 5 characters"),
             ({"name": ""}, "data.name", "must not be empty"),
             ({"inner": {"n": 0}}, "data.inner.n", "must be at least 1"),
             ({"items": []}, "data.items", "at least 1 items"),
             ({"items": [1, 2, 3]}, "data.items", "at most 2 items"),
             ({"items": [10]}, "data.items[0]", "must be at most 9"),
             ({"opt": 0.4}, "data.opt", "must be at least 0.5"),
             ({"mode": "c"}, "data.mode", "must be one of 'a', 'b'"),
             ({"flags": {"k": 1}}, "data.flags.k", "expected a boolean")]
    for change, path, message in cases:
        data = {"name": "ab", "inner": {"n": 1}, **change}
        with pytest.raises(PayloadError) as exc:
            _parse_dataclass_walk(Outer, data)
        assert (exc.value.field, exc.value.message_en) == (path, f"{path}: {message}")
    assert _parse_dataclass_walk(Outer, {"name": "ab", "inner": {"n": 1}, "opt": 0.5}).opt == 0.5
    assert _parse_dataclass_walk(Outer, {"name": "ab", "inner": {"n": 1}, "opt": None}).opt is None


def test_a_field_with_a_default_factory_is_not_required():
    @dataclass
    class F:
        a: list[int] = field(default_factory=lambda: [7])

    F.__doc__ = None
    assert _parse_dataclass_walk(F, {}) == F([7])
    assert dataclass_schema(F) == {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}},
                                   "additionalProperties": False}


# --- dataclass_schema --------------------------------------------------------------------------------


def test_dataclass_schema_lists_properties_required_fields_limits_and_the_docstring():
    schema = dataclass_schema(Outer)
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["required"] == ["name", "inner"]
    assert list(schema["properties"]) == ["name", "inner", "items", "opt", "mode", "flags"]
    assert schema["properties"]["name"] == {"type": "string", "maxLength": 5, "minLength": 1, "description": "A name"}
    assert schema["properties"]["inner"] == {
        "type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 6}},
        "additionalProperties": False, "required": ["n"], "description": "An inner object, documented."}
    assert schema["properties"]["items"] == {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9},
                                             "minItems": 1, "maxItems": 2}
    assert schema["properties"]["opt"] == {"anyOf": [{"type": "number", "minimum": 0.5, "description": "Optional"},
                                                     {"type": "null"}], "description": "Optional"}
    assert schema["properties"]["mode"] == {"enum": ["a", "b"]}
    assert schema["properties"]["flags"] == {"type": "object", "additionalProperties": {"type": "boolean"}}
    assert schema["description"] == " ".join((Outer.__doc__ or "").split())  # the generated signature


def test_dataclass_schema_without_required_fields_or_docstring_says_neither():
    @dataclass
    class Bare:
        a: int = 1

    Bare.__doc__ = None
    assert dataclass_schema(Bare) == {"type": "object", "properties": {"a": {"type": "integer"}},
                                      "additionalProperties": False}
