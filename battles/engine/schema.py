"""Event payloads: one declaration gives parsing, the stored form and the JSON Schema (msgspec).

A payload is a frozen dataclass with ``slots=True``. Its annotations say the JSON types, and
``Annotated[T, Meta(...)]`` adds the limits (``ge``, ``le``; ``min_length``, ``max_length`` of a
string's characters or a list's items) and the ``description``. Supported annotations: ``int``,
``float``, ``str``, ``bool``, ``Literal[...]``, ``list[X]``, ``dict[str, X]``, ``X | None`` and nested
payload dataclasses. msgspec parses a payload (``parse``), dumps it to the canonical form it is stored
in (``state.dump``) and describes it (``dataclass_schema``, served by ``GET /api/event-types/``).

What msgspec leaves to its caller is added here: an unknown field is refused (msgspec ignores one in a
dataclass), so is a number no payload holds (an integer beyond ``MAX_INT``, a float that is not finite:
Python's JSON reads ``1e400`` as infinity, which no JSON writer can write back), and msgspec's ``ValidationError`` becomes a ``PayloadError`` naming the field
(``data.struck[0].die.value``, a map's key as ``data.units.U1``) in Russian and English. Slots matter:
msgspec dumps a dataclass without them from its ``__dict__``, where the defaults it never set are
missing.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
import threading
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec

from .errors import PayloadError
from .state import dump

# Largest integer a payload holds, either sign: I-JSON's (RFC 7493), what every JSON reader, a browser's
# included, keeps exactly. No count, turn or distance comes near it; beyond it is a typing accident.
MAX_INT = 2**53 - 1

# --- annotations ------------------------------------------------------------------------------------

_HINTS: dict[type, dict[str, Any]] = {}


def hints(cls: type) -> dict[str, Any]:
    """``cls``'s resolved field annotations without their ``Annotated`` limits (memoised)."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


_DECLARED: dict[type, dict[str, Any]] = {}


def declared(cls: type) -> dict[str, Any]:
    """``cls``'s resolved field annotations with their ``Annotated`` limits (memoised)."""
    found = _DECLARED.get(cls)
    if found is None:
        found = _DECLARED[cls] = typing.get_type_hints(cls, include_extras=True)
    return found


def _is_optional(tp: Any) -> tuple[bool, Any]:
    """(True, X) for ``X | None``; (False, tp) for anything else."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(get_args(tp)) == 2:
            return True, args[0]
    return False, tp


def _bare(tp: Any) -> tuple[Any, dict[str, Any]]:
    """The annotation without ``| None`` and ``Annotated``, and the limits its ``Meta`` set."""
    limits: dict[str, Any] = {}
    while True:
        if get_origin(tp) is Annotated:
            for meta in tp.__metadata__:
                if isinstance(meta, msgspec.Meta):
                    limits.update({k: getattr(meta, k) for k in ("ge", "le", "min_length", "max_length")
                                   if getattr(meta, k) is not None})
            tp = tp.__origin__
            continue
        optional, inner = _is_optional(tp)
        if not optional:
            return tp, limits
        tp = inner


# --- parsing ----------------------------------------------------------------------------------------


def parse_dataclass(cls: type, data: Any, path: str = "data") -> Any:
    """Build payload ``cls`` from JSON ``data``; a ``PayloadError`` names the first bad field under ``path``."""
    try:
        payload = msgspec.convert(data, cls, strict=True)
    except msgspec.ValidationError as exc:
        raise _refusal(cls, data, str(exc), path) from exc
    (_UNKNOWN.get(cls) or _unknown_fields(cls))(data, path)
    return payload


def parse_dataclass_dumped(cls: type, data: Any, path: str = "data") -> tuple[Any, Any]:
    """``parse_dataclass``'s payload and its canonical dump (``state.dump``: what is stored), which
    shares no container with the payload (the engine may keep and change the payload's lists)."""
    payload = parse_dataclass(cls, data, path)
    return payload, dump(payload)


# msgspec ignores a key a dataclass does not declare, and bounds no number its annotation leaves open:
# one check a class, built once, looks for an unknown key or a number out of bounds in data msgspec has
# accepted (so its shapes are the annotation's).
Check = Callable[[Any, str], None]
_UNKNOWN: dict[type, Check] = {}
# The checks being built, with their classes' placeholders, until the outermost class's is done.
_BUILDING: dict[type, Check] = {}
_BUILDING_LOCK = threading.RLock()


def _no_objects(value: Any, path: str) -> None:
    pass


def _int_in_bounds(value: Any, path: str) -> None:
    if not -MAX_INT <= value <= MAX_INT:
        raise PayloadError(path, f"{path}: допустимо целое от -{MAX_INT} до {MAX_INT}",
                           f"{path}: must be an integer from -{MAX_INT} to {MAX_INT}")


def _finite(value: Any, path: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):  # an int here is one msgspec took as a float
        raise PayloadError(path, f"{path}: число вне допустимого диапазона", f"{path}: a number out of range")


_NUMBERS: dict[Any, Check] = {int: _int_in_bounds, float: _finite}


def _unknown_fields(tp: Any) -> Check:
    tp, limits = _bare(tp)
    origin = get_origin(tp)
    if origin is list or origin is dict:
        each = _unknown_fields(get_args(tp)[-1])
        if each is _no_objects:
            return _no_objects
        if origin is list:
            def items(value: Any, path: str) -> None:
                for i, v in enumerate(value):
                    if v is not None:
                        each(v, f"{path}[{i}]")

            return items

        def mapping(value: Any, path: str) -> None:
            for k, v in value.items():
                if v is not None:
                    each(v, f"{path}.{k}")

        return mapping
    if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
        if -MAX_INT <= limits.get("ge", -math.inf) and limits.get("le", math.inf) <= MAX_INT:
            return _no_objects  # its own limits bound it (msgspec checks them), infinity included
        return _NUMBERS.get(tp, _no_objects)
    found = _UNKNOWN.get(tp)
    if found is not None:
        return found
    # Built under a lock and published only whole: a server's threads parse their first payloads at
    # once, and one that found another's placeholder (below) called it, and it itself, for ever.
    with _BUILDING_LOCK:
        found = _UNKNOWN.get(tp) or _BUILDING.get(tp)
        if found is not None:
            return found
        outermost = not _BUILDING
        _BUILDING[tp] = lambda value, path: _UNKNOWN[tp](value, path)  # a class that refers to itself
        try:
            found = _BUILDING[tp] = _object_check(tp)
            if outermost:
                _UNKNOWN.update(_BUILDING)
        finally:
            if outermost:
                _BUILDING.clear()
    return found


def _object_check(cls: type) -> Check:
    known = frozenset(f.name for f in dataclasses.fields(cls))
    nested = [(name, check) for name, check in ((name, _unknown_fields(tp)) for name, tp in hints(cls).items())
              if check is not _no_objects]

    def check(value: Any, path: str) -> None:
        if not value.keys() <= known:
            bad = f"{path}.{min((k for k in value if k not in known), key=str)}"
            raise PayloadError(bad, f"{bad}: неизвестное поле", f"{bad}: unknown field")
        for name, each in nested:
            v = value.get(name)
            if v is not None:
                each(v, f"{path}.{name}")

    return check


# --- refusals ---------------------------------------------------------------------------------------
# msgspec says what is wrong and where in English ("Expected `int` >= 1 - at `$.struck[0].die.value`");
# the path is walked here through the data and the annotations, so the refusal can name a map's key
# (msgspec writes ``[...]``) and say in both languages what the annotation allows.

_WHERE = re.compile(r"^(?P<what>.*?)(?: - at (?P<key>`key` in )?`(?P<where>\$[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_MISSING_FIELD = re.compile(r"Object missing required field `(?P<name>[^`]+)`")
_BOUND = re.compile(r"Expected `(?P<kind>\w+)`(?P<length> of length)? (?P<op>>=|<=) ")


def _refusal(cls: type, data: Any, message: str, path: str) -> PayloadError:
    m = _WHERE.match(message)
    what, where = (m["what"], m["where"] or "$") if m else (message, "$")
    path, tp, value = _locate(cls, data, where, path)
    if m and m["key"]:  # a map with a key that is not a string
        bad = f"{path}.{next(k for k in value if not isinstance(k, str))}"
        return PayloadError(bad, f"{bad}: ожидается строковый ключ", f"{bad}: expected a string key")
    missing = _MISSING_FIELD.match(what)
    if missing:
        path = f"{path}.{missing['name']}"
        return PayloadError(path, f"{path}: поле обязательно", f"{path}: this field is required")
    ru, en = _explain(what, tp)
    return PayloadError(path, f"{path}: {ru}", f"{path}: {en}")


def _locate(cls: type, data: Any, where: str, path: str) -> tuple[str, Any, Any]:
    """(our path, annotation, value) at msgspec's ``where`` (``$.units[0].x``, ``$.fighters[...]``)."""
    tp, value = cls, data
    for name, index in _STEP.findall(where[1:]):
        bare, _limits = _bare(tp)
        if name:
            tp, value, path = declared(bare)[name], value.get(name), f"{path}.{name}"
        elif index == "...":  # the first of the map's values that its annotation refuses
            tp = get_args(bare)[1]
            key = next(k for k, v in value.items() if not _fits(v, tp))
            value, path = value[key], f"{path}.{key}"
        else:
            tp, value, path = get_args(bare)[0], value[int(index)], f"{path}[{index}]"
    return path, tp, value


def _fits(value: Any, tp: Any) -> bool:
    try:
        msgspec.convert(value, tp, strict=True)
    except msgspec.ValidationError:
        return False
    return True


def _explain(what: str, tp: Any) -> tuple[str, str]:
    """What ``tp`` allows, in Russian and English, for msgspec's complaint ``what``."""
    bare, limits = _bare(tp)
    if what.endswith("got `null`"):
        return "значение обязательно", "a value is required"
    bound = _BOUND.match(what)
    if bound and bound["length"]:
        least = bound["op"] == ">="
        n = limits["min_length" if least else "max_length"]
        if bound["kind"] == "str":
            if least:
                return ("значение обязательно", "must not be empty") if n == 1 else (
                    f"не короче {n} символов", f"at least {n} characters")
            return f"не длиннее {n} символов", f"at most {n} characters"
        return (f"не меньше {n} элементов", f"at least {n} items") if least else (
            f"не больше {n} элементов", f"at most {n} items")
    if bound:
        if bound["op"] == ">=":
            return f"не меньше {limits['ge']}", f"must be at least {limits['ge']}"
        return f"не больше {limits['le']}", f"must be at most {limits['le']}"
    if what == "Number out of range":
        return "число вне допустимого диапазона", "a number out of range"
    if get_origin(bare) is Literal:
        listed = ", ".join(repr(c) for c in get_args(bare))
        return f"допустимо одно из {listed}", f"must be one of {listed}"
    expected = _EXPECTED.get(bare) or _EXPECTED.get(get_origin(bare))
    if expected is None and dataclasses.is_dataclass(bare):
        expected = _EXPECTED[dict]
    if expected is None:  # a complaint this module does not know: msgspec's own words, the field named
        return f"недопустимое значение ({what})", f"invalid value ({what})"
    return f"ожидается {expected[0]}", f"expected {expected[1]}"


_EXPECTED: dict[Any, tuple[str, str]] = {
    bool: ("true или false", "a boolean"), int: ("целое число", "an integer"), float: ("число", "a number"),
    str: ("строка", "a string"), list: ("список", "a list"), dict: ("объект", "an object"),
}


# --- JSON Schema ------------------------------------------------------------------------------------


@functools.cache
def dataclass_schema(cls: type) -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of payload ``cls``, worked out once per class (every recording form
    reads it; callers share the one object and must not change it): msgspec's, with its nested objects written in
    place (clients and forms read one object), ``additionalProperties: false`` on each object (an
    unknown field is refused), an optional field's description beside its ``anyOf``, a docstring's
    lines as one paragraph, and each
    ``enum`` in its declared order (msgspec sorts it; a form offers the first choice)."""
    (schema,), defs = msgspec.json.schema_components([cls], ref_template="{name}")
    return _declared_order(_inline(schema, defs), cls)


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    if not isinstance(node, dict):
        return node
    if "anyOf" in node and "description" not in node:  # the field's own description, not its class's
        described = next((s for s in node["anyOf"] if "description" in s), None)
        if described is not None:
            node = {"description": described["description"], **node,
                    "anyOf": [{k: v for k, v in s.items() if k != "description"} if s is described else s
                              for s in node["anyOf"]]}
    out = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
    if "$ref" in node:
        out = {**_inline(defs[node["$ref"]], defs), **out}  # the field's own description wins
    if out.get("type") == "object" and "properties" in out:
        out["additionalProperties"] = False
    if isinstance(out.get("description"), str):  # a docstring's lines as one paragraph
        out["description"] = " ".join(out["description"].split())
    return out


def _declared_order(schema: dict[str, Any], tp: Any) -> dict[str, Any]:
    bare, _limits = _bare(tp)
    if "anyOf" in schema:  # ``X | None``: X's schema is a member
        for member in schema["anyOf"]:
            if member.get("type") != "null":
                _declared_order(member, bare)
        return schema
    origin = get_origin(bare)
    if origin is Literal:
        schema["enum"] = list(get_args(bare))
    elif origin is list and "items" in schema:
        _declared_order(schema["items"], get_args(bare)[0])
    elif origin is dict and isinstance(schema.get("additionalProperties"), dict):
        _declared_order(schema["additionalProperties"], get_args(bare)[1])
    elif isinstance(bare, type) and dataclasses.is_dataclass(bare) and "properties" in schema:
        annotations = declared(bare)
        for name, sub in schema["properties"].items():
            _declared_order(sub, annotations[name])
    return schema
