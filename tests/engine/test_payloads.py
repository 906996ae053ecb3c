"""Event payloads as behaviour: one declaration (a ``Payload``, a frozen msgspec Struct whose
``Annotated[..., Meta]`` gives the limits) parses, dumps and describes (``battles.engine.schema``, msgspec underneath).

A bad payload is refused with a ``PayloadError`` naming the field by its path (``data.items[1]``, a map's
key as ``data.flags.k``) in Russian and English; every limit holds exactly at both ends; an unknown field is
refused; the parsed payload dumps to the canonical form it is stored in; the published JSON Schema carries the
keys clients and forms read. Every shape a payload may use parses, dumps and replays to the same values."""
from __future__ import annotations

import copy
import json
import random
from typing import Annotated, Any, Literal

import msgspec
import pytest
from jsonschema import Draft202012Validator
from msgspec import Meta

from battles import engine
from battles.engine import PayloadError, state
from battles.engine.events import _registry
from battles.engine.fow.registry import REGISTRY as FOW_REGISTRY
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.schema import (
    Payload,
    hints,
    load,
    parse_payload,
    parse_payload_dumped,
    payload_fields,
    payload_schema,
)
from battles.engine.synthetic import synthetic_battle


class Inner(Payload):
    """An inner   object,
    documented."""

    n: Annotated[int, Meta(ge=1, le=6)]


class Outer(Payload):
    name: Annotated[str, Meta(min_length=1, max_length=5, description="A name")]
    inner: Inner
    items: Annotated[list[Annotated[int, Meta(ge=0, le=9)]], Meta(min_length=1, max_length=2)] = msgspec.field(
        default_factory=lambda: [0])
    opt: Annotated[float, Meta(ge=0.5, description="Optional")] | None = None
    mode: Literal["b", "a"] = "b"
    flags: dict[str, bool] = {}
    ratio: float = 1.0
    count: int = 0
    text: str = ""
    on: bool = False
    maybe: Inner | None = None
    pick: Literal["y", "x"] | None = None


OK = {"name": "ab", "inner": {"n": 2}}


def refused(data: Any, cls: type = Outer, path: str = "data") -> PayloadError:
    with pytest.raises(PayloadError) as exc:
        parse_payload(cls, data, path)
    return exc.value


def says(data: Any, field_: str, ru: str, en: str, cls: type = Outer) -> None:
    e = refused(data, cls)
    assert (e.field, e.message_ru, e.message_en) == (field_, f"{field_}: {ru}", f"{field_}: {en}")


# --- parsing: the payload built, defaults filled, numbers as declared ---------------------------------------


def test_a_payload_is_built_with_the_defaults_of_the_fields_left_out():
    got = parse_payload(Outer, OK)
    assert got == Outer(name="ab", inner=Inner(2), items=[0], opt=None, mode="b", flags={})
    full = parse_payload(Outer, {**OK, "items": [0, 9], "opt": 1, "mode": "a", "flags": {"k": True},
                                   "ratio": 3, "maybe": {"n": 6}})
    assert full.items == [0, 9] and full.mode == "a" and full.flags == {"k": True} and full.maybe == Inner(6)
    assert type(full.opt) is float and full.opt == 1.0 and type(full.ratio) is float  # a number is a float
    assert parse_payload(Outer, {**OK, "opt": None}).opt is None


def test_the_parsed_payload_shares_no_container_with_the_data():
    data = {**OK, "items": [1, 2], "flags": {"k": True}}
    got = parse_payload(Outer, data)
    assert got.items == data["items"] and got.items is not data["items"] and got.flags is not data["flags"]


# --- refusals: the field by its path, in Russian and English -----------------------------------------------


def test_a_missing_required_field_is_named():
    says({"inner": {"n": 1}}, "data.name", "поле обязательно", "this field is required")
    says({"name": "ab"}, "data.inner", "поле обязательно", "this field is required")
    says({**OK, "inner": {}}, "data.inner.n", "поле обязательно", "this field is required")


def test_an_unknown_field_is_refused_at_any_depth_the_first_in_the_datas_order():
    says({**OK, "zz": 1, "aa": 2}, "data.zz", "неизвестное поле", "unknown field")
    says({"aa": 2, **OK, "zz": 1}, "data.aa", "неизвестное поле", "unknown field")
    says({**OK, "inner": {"n": 1, "x": 0}}, "data.inner.x", "неизвестное поле", "unknown field")
    says({**OK, "maybe": {"n": 1, "x": 0}}, "data.maybe.x", "неизвестное поле", "unknown field")
    e = refused({**OK, "mode": "a", "x": 0}, path="events[3].data")
    assert e.field == "events[3].data.x"


def test_what_is_not_an_object_is_refused_naming_the_path_it_was_given():
    for bad in ([], "x", None, 1):
        e = refused(bad, path="events[0].data")
        assert (e.field, e.message_ru, e.message_en) == (
            "events[0].data", "events[0].data: ожидается объект", "events[0].data: expected an object"
        ) or (bad is None and e.message_en == "events[0].data: a value is required")
    says({**OK, "inner": 3}, "data.inner", "ожидается объект", "expected an object")


def test_a_value_of_the_wrong_type_says_what_the_field_takes():
    says({**OK, "name": 5}, "data.name", "ожидается строка", "expected a string")
    says({**OK, "count": "1"}, "data.count", "ожидается целое число", "expected an integer")
    for not_an_integer in (True, 1.0, 1.5):
        says({**OK, "count": not_an_integer}, "data.count", "ожидается целое число", "expected an integer")
    for not_a_number in (True, "2.5", [1]):
        says({**OK, "ratio": not_a_number}, "data.ratio", "ожидается число", "expected a number")
    says({**OK, "opt": "x"}, "data.opt", "ожидается число", "expected a number")  # an optional one too
    for not_a_boolean in (1, 0, "true"):
        says({**OK, "on": not_a_boolean}, "data.on", "ожидается true или false", "expected a boolean")
    says({**OK, "items": "x"}, "data.items", "ожидается список", "expected a list")
    says({**OK, "flags": []}, "data.flags", "ожидается объект", "expected an object")


def test_null_is_taken_only_where_the_annotation_is_optional():
    for name in ("name", "count", "mode", "inner"):
        says({**OK, name: None}, f"data.{name}", "значение обязательно", "a value is required")
    assert parse_payload(Outer, {**OK, "maybe": None}).maybe is None


def test_a_literal_takes_only_its_choices_and_lists_them_in_their_declared_order():
    says({**OK, "mode": "c"}, "data.mode", "допустимо одно из 'b', 'a'", "must be one of 'b', 'a'")
    says({**OK, "mode": 5}, "data.mode", "допустимо одно из 'b', 'a'", "must be one of 'b', 'a'")


def test_every_bound_holds_exactly_at_both_ends():
    for n in (1, 6):
        assert parse_payload(Outer, {**OK, "inner": {"n": n}}).inner.n == n
    says({**OK, "inner": {"n": 0}}, "data.inner.n", "не меньше 1", "must be at least 1")
    says({**OK, "inner": {"n": 7}}, "data.inner.n", "не больше 6", "must be at most 6")
    assert parse_payload(Outer, {**OK, "opt": 0.5}).opt == 0.5
    says({**OK, "opt": 0.49}, "data.opt", "не меньше 0.5", "must be at least 0.5")
    assert parse_payload(Outer, {**OK, "name": "abcde"}).name == "abcde"
    assert parse_payload(Outer, {**OK, "name": "a"}).name == "a"
    says({**OK, "name": "abcdef"}, "data.name", "не длиннее 5 символов", "at most 5 characters")
    says({**OK, "name": ""}, "data.name", "значение обязательно", "must not be empty")
    assert parse_payload(Outer, {**OK, "text": "x" * 5000}).text == "x" * 5000  # no limit unless declared


def test_a_list_keeps_its_item_count_and_checks_each_item_by_its_index():
    assert parse_payload(Outer, {**OK, "items": [0, 9]}).items == [0, 9]
    says({**OK, "items": []}, "data.items", "не меньше 1 элементов", "at least 1 items")
    says({**OK, "items": [1, 2, 3]}, "data.items", "не больше 2 элементов", "at most 2 items")
    says({**OK, "items": [1, 10]}, "data.items[1]", "не больше 9", "must be at most 9")
    says({**OK, "items": [-1]}, "data.items[0]", "не меньше 0", "must be at least 0")
    says({**OK, "items": [1, "2"]}, "data.items[1]", "ожидается целое число", "expected an integer")


def test_a_map_names_the_key_of_a_bad_value_and_a_key_that_is_not_a_string():
    assert parse_payload(Outer, {**OK, "flags": {"a": True, "b": False}}).flags == {"a": True, "b": False}
    says({**OK, "flags": {"a": True, "b": 1}}, "data.flags.b", "ожидается true или false", "expected a boolean")
    says({**OK, "flags": {1: True}}, "data.flags.1", "ожидается строковый ключ", "expected a string key")


class Texts(Payload):
    words: list[Annotated[str, Meta(min_length=2, max_length=3)]] = []
    table: dict[str, list[Inner]] = {}
    big: float = 0.0


def test_limits_on_list_items_and_values_deep_in_maps_are_named_to_the_item():
    says({"words": ["ab", "a"]}, "data.words[1]", "не короче 2 символов", "at least 2 characters", Texts)
    says({"words": ["abcd"]}, "data.words[0]", "не длиннее 3 символов", "at most 3 characters", Texts)
    says({"table": {"x": [{"n": 1}], "y": [{"n": 1}, {"n": 9}]}}, "data.table.y[1].n", "не больше 6",
         "must be at most 6", Texts)
    says({"table": {"y": [{"n": 1, "q": 2}]}}, "data.table.y[0].q", "неизвестное поле", "unknown field", Texts)
    says({"big": 10 ** 400}, "data.big", "число вне допустимого диапазона", "a number out of range", Texts)


def test_a_bad_payload_appended_is_named_with_the_events_index():
    with pytest.raises(PayloadError) as exc:
        engine.parse_batch([("turn_ended", {"side": "defender", "turn": 1}, None),
                            ("turn_ended", {"side": "defender", "turn": 0}, None)])
    assert exc.value.field == "events[1].data.turn"
    assert exc.value.message_en == "data.turn: must be at least 1"  # the message keeps the payload's own path
    assert exc.value.as_dict() == {"field": "events[1].data.turn", "code": "invalid_event",
                                   "message_ru": "data.turn: не меньше 1", "message_en": "data.turn: must be at least 1"}


# --- every payload of the synthetic battles, and one-change mutations of them --------------------------------

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


@pytest.mark.parametrize(("ruleset", "log"), [("v11.2", synthetic_battle(600)), ("fow", synthetic_fow_battle(600))])
def test_every_payload_parses_and_every_mutation_is_accepted_by_the_schema_or_refused_naming_a_field(ruleset, log):
    """The published schema and the parser give the same verdict on each, and each refusal names, in both
    languages, a path that exists in the data (or the field that is missing there)."""
    registry = _registry(ruleset)
    validators = {name: Draft202012Validator(payload_schema(t.payload)) for name, t in registry.items()}
    rng = random.Random(7)
    compared = refused_ = 0
    for event in log:
        cls = registry[event.type].payload
        parse_payload(cls, event.data)
        for data in _mutations(event.data, rng):
            try:
                parse_payload(cls, copy.deepcopy(data))
            except PayloadError as e:
                refused_ += 1
                assert not validators[event.type].is_valid(data), (event.type, data, e.field)
                assert e.field.startswith("data") and e.message_ru.startswith(f"{e.field}: ")
                assert e.message_en.startswith(f"{e.field}: ") and e.message_ru != e.message_en
                assert "invalid value" not in e.message_en, e.message_en  # every complaint is translated
            else:
                assert validators[event.type].is_valid(data), (event.type, data)
            compared += 1
    assert compared > 8_000 and refused_ > compared // 3  # the mutations do reach the refusals


# --- parsed and dumped -----------------------------------------------------------------------------------------


BATTLES = {"v11.2": lambda: synthetic_battle(1500), "fow": lambda: synthetic_fow_battle(1500)}


def _containers(value: Any, out: list) -> list:
    if isinstance(value, (list, dict)):
        out.append(value)
        for v in value.values() if isinstance(value, dict) else value:
            _containers(v, out)
    elif isinstance(value, Payload):
        for name in value.__struct_fields__:
            _containers(getattr(value, name), out)
    return out


@pytest.mark.parametrize("ruleset", sorted(BATTLES))
def test_parse_batch_gives_each_payload_and_its_canonical_dump_sharing_no_container(ruleset):
    log = BATTLES[ruleset]()
    parsed = engine.parse_batch([(e.type, copy.deepcopy(e.data), e.version) for e in log], ruleset=ruleset)
    types = set()
    for e, (entry, payload, dumped) in zip(log, parsed, strict=True):
        assert payload == entry.parse(copy.deepcopy(e.data), e.version), e.type
        assert json.dumps(dumped) == json.dumps(state.dump(payload)), e.type  # keys, order and values as stored
        ids = {id(c) for c in _containers(payload, [])}
        assert not any(id(c) in ids for c in _containers(dumped, [])), f"{e.type}: a container is shared"
        types.add(e.type)
    assert len(types) >= 8


def test_the_dump_has_every_field_in_declared_order_with_fresh_defaults_and_sorted_map_keys():
    data = {**OK, "flags": {"z": True, "b": False}}
    (one, d1), (_two, d2) = (parse_payload_dumped(Outer, copy.deepcopy(data)) for _ in range(2))
    assert list(d1) == list(Outer.__struct_fields__)
    assert d1 == {"name": "ab", "inner": {"n": 2}, "items": [0], "opt": None, "mode": "b",
                  "flags": {"b": False, "z": True}, "ratio": 1.0, "count": 0, "text": "", "on": False, "maybe": None,
                  "pick": None}
    assert list(d1["flags"]) == ["b", "z"] and list(one.flags) == ["z", "b"]  # the payload keeps them as sent
    assert d1["items"] is not d2["items"] and type(d1["ratio"]) is float
    one.items.append(5)
    assert d1["items"] == [0]  # the engine may change the payload after the rows are written


def test_a_refused_payload_is_refused_by_the_dumping_parse_naming_the_same_field():
    with pytest.raises(PayloadError) as exc:
        parse_payload_dumped(Outer, {**OK, "items": [1, 10]})
    assert exc.value.field == "data.items[1]"


# --- the published schema ------------------------------------------------------------------------------------


def test_the_schema_gives_types_limits_required_fields_enums_and_descriptions():
    schema = payload_schema(Outer)
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["required"] == ["name", "inner"]
    props = schema["properties"]
    assert list(props) == list(Outer.__struct_fields__)
    assert props["name"] == {"type": "string", "maxLength": 5, "minLength": 1, "description": "A name"}
    inner = props["inner"]
    assert (inner["type"], inner["required"], inner["additionalProperties"]) == ("object", ["n"], False)
    assert inner["properties"]["n"] == {"type": "integer", "minimum": 1, "maximum": 6}
    assert inner["description"] == "An inner object, documented."  # a docstring's lines as one paragraph
    assert props["items"]["type"] == "array" and (props["items"]["minItems"], props["items"]["maxItems"]) == (1, 2)
    assert props["items"]["items"] == {"type": "integer", "minimum": 0, "maximum": 9}
    assert props["opt"]["description"] == "Optional"  # an optional field's description beside its anyOf
    assert props["opt"]["anyOf"] == [{"type": "number", "minimum": 0.5}, {"type": "null"}]
    assert props["mode"]["enum"] == ["b", "a"]  # in the declared order: a form offers the first
    assert props["pick"]["anyOf"] == [{"enum": ["y", "x"]}, {"type": "null"}] and "enum" not in props["pick"]
    assert props["flags"]["type"] == "object" and props["flags"]["additionalProperties"] == {"type": "boolean"}
    assert "description" not in props["maybe"]  # the field has none of its own (its class's is inside)
    assert props["maybe"]["anyOf"][0]["description"] == "An inner object, documented."


def test_the_published_schema_is_what_describe_serves_and_what_forms_read():
    for registry in (engine.REGISTRY, FOW_REGISTRY):
        for name, t in registry.items():
            published = payload_schema(t.payload)
            assert t.describe()["schema"] == published, name
            assert published["type"] == "object" and "properties" in published, name
            assert published.get("required", []) == [
                f.name for f in payload_fields(t.payload)
                if f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT], name
    fire = engine.REGISTRY["fire"].describe()["schema"]["properties"]
    assert fire["weapon"]["enum"][0] == "rifle" and fire["distance"]["minimum"] == 0
    die = fire["hit"]["anyOf"][0]
    assert set(die["properties"]) == {"value", "source", "rng"}  # how the form layer knows a die
    assert (die["properties"]["value"]["minimum"], die["properties"]["value"]["maximum"]) == (1, 20)
    assert engine.REGISTRY["battle_started"].describe()["schema"]["properties"]["attacker"]["maxLength"] == 200


def test_every_payload_class_is_a_frozen_payload_refusing_unknown_fields():
    """Each class inside a payload is a ``Payload``: frozen (a mutator cannot change what the log says) and
    refusing a field it does not declare, at any depth."""
    seen: set[type] = set()

    def walk(tp: Any) -> None:
        for arg in getattr(tp, "__args__", ()) or ():
            walk(arg)
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and tp not in seen:
            seen.add(tp)
            assert issubclass(tp, Payload) and tp.__struct_config__.frozen, tp
            assert tp.__struct_config__.forbid_unknown_fields, tp
            for sub in hints(tp).values():
                walk(sub)

    for registry in (engine.REGISTRY, FOW_REGISTRY):
        for t in registry.values():
            walk(t.payload)
    assert len(seen) > 60


# --- every annotation shape, not only those used today -------------------------------------------------------


class Leaf(Payload):
    n: int
    tag: Literal["a", "b"] = "a"


class Shapes(Payload):
    leaves: list[Leaf]
    maybe_leaves: list[Leaf | None]
    by_name: dict[str, Leaf]
    maybe_by_name: dict[str, Leaf | None]
    grid: list[list[Leaf]]
    groups: dict[str, list[Leaf]]
    one: Leaf | None
    plain: dict[str, int]
    words: list[str]
    ratio: float = 0.5
    later: list[Leaf] = []


STORED = {
    "leaves": [{"n": 1}, {"n": 2, "tag": "b"}],
    "maybe_leaves": [None, {"n": 3}],
    "by_name": {"x": {"n": 4}, "y": {"n": 5, "tag": "b"}},
    "maybe_by_name": {"x": None, "y": {"n": 6}},
    "grid": [[{"n": 7}], [], [{"n": 8}, {"n": 9}]],
    "groups": {"g": [{"n": 10}], "h": []},
    "one": {"n": 11},
    "plain": {"k": 1},
    "words": ["w"],
    "ratio": 2,
}


def test_every_shape_parses_dumps_and_replays_as_it_was_appended():
    appended, dumped = parse_payload_dumped(Shapes, STORED)
    assert appended.grid[2][1] == Leaf(9) and appended.maybe_by_name["x"] is None and appended.ratio == 2.0
    assert dumped["by_name"] == {"x": {"n": 4, "tag": "a"}, "y": {"n": 5, "tag": "b"}} and dumped["ratio"] == 2.0
    assert parse_payload(Shapes, dumped) == appended
    replayed = load(Shapes, dumped)
    assert replayed == appended
    assert type(replayed.grid[0][0]) is Leaf and replayed.by_name["y"].tag == "b"
    assert replayed.maybe_leaves[0] is None and replayed.maybe_by_name["x"] is None and replayed.later == []
    for bad, where in ((["x"], "data.grid[0]"), ({"x": [{"n": 1, "q": 0}]}, "data.groups.x[0].q")):
        key = "grid" if where.startswith("data.grid") else "groups"
        with pytest.raises(PayloadError) as exc:
            parse_payload(Shapes, {**STORED, key: bad})
        assert exc.value.field == where


class _Leaf(Payload):
    n: int


class _Branch(Payload):
    leaves: list[_Leaf]
    parent: _Branch | None = None  # a class that refers to itself


def test_a_class_that_refers_to_itself_parses_and_refuses_an_unknown_field_deep_inside():
    data = {"leaves": [{"n": 1}], "parent": {"leaves": [], "parent": None}}
    assert parse_payload(_Branch, data) == _Branch([_Leaf(1)], _Branch([], None))
    with pytest.raises(PayloadError) as refused:
        parse_payload(_Branch, {"leaves": [], "parent": {"leaves": [{"n": 1, "x": 2}]}})
    assert refused.value.field == "data.parent.leaves[0].x"
