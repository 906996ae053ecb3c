"""Event payloads: one declaration gives parsing, the stored form and the JSON Schema (msgspec).

A payload is a ``Payload``: a frozen msgspec ``Struct`` that refuses a field it does not declare. Its
annotations say the JSON types, and ``Annotated[T, Meta(...)]`` adds the limits (``ge``, ``le``;
``min_length``, ``max_length`` of a string's characters or a list's items) and the ``description``.
Supported annotations: ``int``, ``float``, ``str``, ``bool``, ``Literal[...]``, ``list[X]``,
``dict[str, X]``, ``X | None`` and nested payloads. msgspec parses a payload (``parse``), dumps it to
the canonical form it is stored in (``state.dump``), rebuilds it from that form at replay and
describes it (``payload_schema``, served by ``GET /api/event-types/``).

What msgspec leaves to its caller is added here: a number no payload holds is refused (an integer
beyond ``MAX_INT``, a float that is not finite: Python's JSON reads ``1e400`` as infinity, which no
JSON writer can write back), by the ``__post_init__`` a payload class gets when its annotations leave
a number unbounded, and msgspec's ``ValidationError`` becomes a ``PayloadError`` naming the field
(``data.struck[0].die.value``, a map's key as ``data.units.U1``) in Russian and English.
"""
from __future__ import annotations

import functools
import math
import re
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


class Payload(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event's payload, or a part of one (a die, a target). Subclasses declare fields only.

    A class with a number its annotation leaves unbounded gets ``_check_numbers`` as its
    ``__post_init__`` (msgspec calls it after parsing, and reports what it raises at the payload's place);
    the others get none, and cost nothing more."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        try:
            checks = _NUMBER_CHECKS[cls] = _number_checks(cls)
        except NameError:  # an annotation names a class defined later in its module: worked out at first use
            checks = None
        if checks != ():
            cls.__post_init__ = _check_numbers  # type: ignore[attr-defined]


_NUMBER_CHECKS: dict[type, tuple[tuple[str, Callable[[Any, str], None]], ...]] = {}


def _check_numbers(self: Payload) -> None:
    cls = type(self)
    checks = _NUMBER_CHECKS.get(cls)
    if checks is None:
        checks = _NUMBER_CHECKS[cls] = _number_checks(cls)
    for name, check in checks:
        value = getattr(self, name)
        if value is not None:
            check(value, name)


def is_payload(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, msgspec.Struct)


@functools.cache  # msgspec resolves the annotations at each call (0.27 ms); a form asks at every render
def payload_fields(cls: type) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``cls``'s fields in declared order (name, type, ``default``/``default_factory`` or ``NODEFAULT``)."""
    return msgspec.structs.fields(cls)


# --- annotations ------------------------------------------------------------------------------------

_HINTS: dict[type, dict[str, Any]] = {}


def hints(cls: type) -> dict[str, Any]:
    """``cls``'s resolved field annotations without their ``Annotated`` limits (memoised)."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = {k: v for k, v in typing.get_type_hints(cls).items() if k in cls.__struct_fields__}
    return found


_DECLARED: dict[type, dict[str, Any]] = {}


def declared(cls: type) -> dict[str, Any]:
    """``cls``'s resolved field annotations with their ``Annotated`` limits (memoised)."""
    found = _DECLARED.get(cls)
    if found is None:
        found = _DECLARED[cls] = {k: v for k, v in typing.get_type_hints(cls, include_extras=True).items()
                                  if k in cls.__struct_fields__}
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


def parse_payload(cls: type, data: Any, path: str = "data") -> Any:
    """Build payload ``cls`` from JSON ``data``; a ``PayloadError`` names the first bad field under ``path``."""
    try:
        return msgspec.convert(data, cls, strict=True)
    except msgspec.ValidationError as exc:
        raise _refusal(cls, data, str(exc), path) from exc


def parse_payload_dumped(cls: type, data: Any, path: str = "data") -> tuple[Any, Any]:
    """``parse_payload``'s payload and its canonical dump (``state.dump``: what is stored)."""
    payload = parse_payload(cls, data, path)
    return payload, dump(payload)


def load(cls: type, data: Any) -> Any:
    """Rebuild a stored payload (replay): trusted, so not explained; a stored payload this class cannot
    take (a required field missing) raises ``KeyError``, which the fold records as nothing to act on."""
    try:
        return msgspec.convert(data, cls, strict=True)
    except msgspec.ValidationError as exc:
        raise KeyError(str(exc)) from exc


# msgspec bounds no number its annotation leaves open: ``Payload.__post_init__`` checks those fields, and
# msgspec reports what they raise at the payload's place (``_refusal`` adds the field to it).


def _int_in_bounds(value: Any, name: str) -> None:
    if not -MAX_INT <= value <= MAX_INT:
        raise ValueError(f"Integer out of range in field `{name}`")


def _finite(value: Any, name: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):  # an int here is one msgspec took as a float
        raise ValueError(f"Number out of range in field `{name}`")


def _each(check: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    def items(value: Any, name: str) -> None:
        for key, v in (value.items() if isinstance(value, dict) else enumerate(value)):
            if v is not None:
                check(v, f"{name}[{key}]" if isinstance(key, int) else f"{name}.{key}")

    return items


def _number_check(tp: Any) -> Callable[[Any, str], None] | None:
    tp, limits = _bare(tp)
    origin = get_origin(tp)
    if origin is list or origin is dict:
        inner = _number_check(get_args(tp)[-1])
        return None if inner is None else _each(inner)
    if tp is int or tp is float:
        if -MAX_INT <= limits.get("ge", -math.inf) and limits.get("le", math.inf) <= MAX_INT:
            return None  # its own limits bound it (msgspec checks them), infinity included
        return _int_in_bounds if tp is int else _finite
    return None  # a nested payload checks its own fields


def _number_checks(cls: type) -> tuple[tuple[str, Callable[[Any, str], None]], ...]:
    """The fields of ``cls`` whose numbers msgspec leaves unbounded, with their checks (read from the
    annotations directly: ``__init_subclass__`` asks before msgspec has finished the class)."""
    found = typing.get_type_hints(cls, include_extras=True)
    return tuple((name, check) for name, tp in found.items() if (check := _number_check(tp)) is not None)


# --- refusals ---------------------------------------------------------------------------------------
# msgspec says what is wrong and where in English ("Expected `int` >= 1 - at `$.struck[0].die.value`");
# the path is walked here through the data and the annotations, so the refusal can name a map's key
# (msgspec writes ``[...]``) and say in both languages what the annotation allows.

_UNKNOWN = re.compile(r"Object contains unknown field `(?P<name>[^`]+)`")
_NUMBER = re.compile(r"(?P<kind>Integer|Number) out of range in field `(?P<name>[^`]+)`")
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
    unknown = _UNKNOWN.match(what)
    if unknown:
        path = f"{path}.{unknown['name']}"
        return PayloadError(path, f"{path}: неизвестное поле", f"{path}: unknown field")
    number = _NUMBER.match(what)
    if number:
        field = f"{path}.{number['name']}"
        if number["kind"] == "Integer":
            return PayloadError(field, f"{field}: допустимо целое от -{MAX_INT} до {MAX_INT}",
                                f"{field}: must be an integer from -{MAX_INT} to {MAX_INT}")
        return PayloadError(field, f"{field}: число вне допустимого диапазона", f"{field}: a number out of range")
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
    if expected is None and is_payload(bare):
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
def payload_schema(cls: type) -> dict[str, Any]:
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
    elif is_payload(bare) and "properties" in schema:
        annotations = declared(bare)
        for name, sub in schema["properties"].items():
            _declared_order(sub, annotations[name])
    return schema
