"""Typed event payloads: validation and JSON Schema from one declaration.

A payload is a frozen dataclass. Its annotations say the JSON types; a field's
``metadata`` may add ``min``, ``max``, ``max_length``, ``min_items``,
``max_items`` and ``doc``. Supported annotations: ``int``, ``float``, ``str``,
``bool``, ``Literal[...]``, ``list[X]``, ``dict[str, X]``, ``X | None`` and
nested payload dataclasses. This keeps the engine on the standard library
while giving clients a schema they can discover (``GET /api/event-types/``).
"""
from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

from .errors import PayloadError

_MISSING = dataclasses.MISSING


_OPTIONAL: dict[Any, tuple[bool, Any]] = {}


def _is_optional(tp: Any) -> tuple[bool, Any]:
    try:
        return _OPTIONAL[tp]
    except (KeyError, TypeError):
        pass
    found = _optional_of(tp)
    try:
        _OPTIONAL[tp] = found
    except TypeError:  # an unhashable annotation: not memoised
        pass
    return found


def _optional_of(tp: Any) -> tuple[bool, Any]:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(get_args(tp)) == 2:
            return True, args[0]
    return False, tp


def _type_error(path: str, expected_ru: str, expected_en: str) -> PayloadError:
    return PayloadError(path, f"{path}: ожидается {expected_ru}", f"{path}: expected {expected_en}")


def check_value(tp: Any, value: Any, path: str, meta: dict[str, Any] | None = None) -> Any:
    """Validate ``value`` against annotation ``tp``; return the normalised value."""
    meta = meta or {}
    optional, tp = _is_optional(tp)
    if value is None:
        if optional:
            return None
        raise PayloadError(path, f"{path}: значение обязательно", f"{path}: a value is required")
    origin = get_origin(tp)
    if origin is Literal:
        choices = get_args(tp)
        if value not in choices:
            listed = ", ".join(repr(c) for c in choices)
            raise PayloadError(path, f"{path}: допустимо одно из {listed}", f"{path}: must be one of {listed}")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise _type_error(path, "true или false", "a boolean")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _type_error(path, "целое число", "an integer")
        _check_bounds(value, path, meta)
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _type_error(path, "число", "a number")
        _check_bounds(value, path, meta)
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise _type_error(path, "строка", "a string")
        limit = meta.get("max_length")
        if limit is not None and len(value) > limit:
            raise PayloadError(path, f"{path}: не длиннее {limit} символов", f"{path}: at most {limit} characters")
        if meta.get("min_length", 0) > len(value):
            raise PayloadError(path, f"{path}: значение обязательно", f"{path}: must not be empty")
        return value
    if origin is list:
        if not isinstance(value, list):
            raise _type_error(path, "список", "a list")
        (item_tp,) = get_args(tp)
        if "min_items" in meta and len(value) < meta["min_items"]:
            raise PayloadError(path, f"{path}: не меньше {meta['min_items']} элементов", f"{path}: at least {meta['min_items']} items")
        if "max_items" in meta and len(value) > meta["max_items"]:
            raise PayloadError(path, f"{path}: не больше {meta['max_items']} элементов", f"{path}: at most {meta['max_items']} items")
        item_meta = meta.get("items", {})
        return [check_value(item_tp, v, f"{path}[{i}]", item_meta) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise _type_error(path, "объект", "an object")
        _key_tp, val_tp = get_args(tp)
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise _type_error(f"{path}.{k}", "строковый ключ", "a string key")
            out[k] = check_value(val_tp, v, f"{path}.{k}")
        return out
    if dataclasses.is_dataclass(tp):
        return parse_dataclass(tp, value, path)
    raise TypeError(f"unsupported payload annotation {tp!r} at {path}")


def _check_bounds(value: float, path: str, meta: dict[str, Any]) -> None:
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and value < lo:
        raise PayloadError(path, f"{path}: не меньше {lo}", f"{path}: must be at least {lo}")
    if hi is not None and value > hi:
        raise PayloadError(path, f"{path}: не больше {hi}", f"{path}: must be at most {hi}")


_HINTS: dict[type, dict[str, Any]] = {}


def hints(cls: type) -> dict[str, Any]:
    cached = _HINTS.get(cls)
    if cached is None:
        cached = _HINTS[cls] = typing.get_type_hints(cls)
    return cached


def parse_dataclass(cls: type, data: Any, path: str = "data") -> Any:
    """Build ``cls`` from a JSON object, naming the first bad field.

    A parser compiled once per payload class takes every payload first; it
    accepts exactly what the walk below accepts and builds the same value,
    without building a path per value. Anything it does not accept is handed
    to the walk, which names the first bad field as always."""
    got = _try_compiled(_PARSERS, _compile_dataclass, cls, data)
    return _parse_dataclass_walk(cls, data, path) if got is _NOT_TAKEN else got


def _parse_dataclass_walk(cls: type, data: Any, path: str = "data") -> Any:
    if not isinstance(data, dict):
        raise _type_error(path, "объект", "an object")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        bad = f"{path}.{unknown[0]}"
        raise PayloadError(bad, f"{bad}: неизвестное поле", f"{bad}: unknown field")
    tps = hints(cls)
    kwargs = {}
    for name, f in fields.items():
        fpath = f"{path}.{name}"
        if name not in data:
            if f.default is _MISSING and f.default_factory is _MISSING:
                raise PayloadError(fpath, f"{fpath}: поле обязательно", f"{fpath}: this field is required")
            continue
        kwargs[name] = check_value(tps[name], data[name], fpath, dict(f.metadata))
    return cls(**kwargs)


def max_depth(tp: Any) -> float:
    """The deepest nesting of JSON containers (objects and arrays, the payload's own object counted)
    that a value ``check_value`` accepts for ``tp`` can have: ``inf`` for a class that refers to
    itself or an annotation without a bound. Anything nested deeper than this is refused by the
    parser, whatever else it holds (the append path's chunk check relies on it)."""
    return _depth(tp, frozenset())


def _depth(tp: Any, seen: frozenset) -> float:
    _optional, tp = _is_optional(tp)
    origin = get_origin(tp)
    if origin is Literal or tp in (bool, int, float, str):
        return 0
    if origin is list:
        return 1 + _depth(get_args(tp)[0], seen)
    if origin is dict:
        return 1 + _depth(get_args(tp)[1], seen)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if tp in seen:
            return math.inf
        return 1 + max((_depth(t, seen | {tp}) for t in hints(tp).values()), default=0)
    return math.inf


# --- compiled parsers -----------------------------------------------------------
# One closure per payload class and annotation, built once: the same verdicts and
# values as ``check_value``/``_parse_dataclass_walk``, without the annotation
# introspection and the path strings they build for every value. A value they
# refuse raises ``_Refused`` (no message): the walk then names it.


class _Refused(Exception):
    pass


def _SLOW(data: Any) -> Any:  # noqa: N802 - marker: this class is always parsed by the walk
    raise _Refused


_PARSERS: dict[type, Any] = {}
_NOT_TAKEN = object()  # what ``_try_compiled`` gives for data the compiled function did not take


def _compiled_in(table: dict[type, Any], build: Any, cls: type) -> Any:
    """``cls``'s compiled function in ``table``, built once by ``build``; ``_SLOW`` for a class that
    refers to itself (marked while it is built) or an annotation the compiler does not know."""
    fast = table.get(cls)
    if fast is None:
        table[cls] = _SLOW
        try:
            fast = build(cls)
        except Exception:  # noqa: BLE001 - an annotation the compiler does not know: the walk decides
            fast = _SLOW
        table[cls] = fast
    return fast


def _try_compiled(table: dict[type, Any], build: Any, cls: type, data: Any) -> Any:
    """The compiled function's answer for ``data``, or ``_NOT_TAKEN`` where it refuses (or there is
    none): the caller's walk then gives the answer, or names the same error."""
    fast = _compiled_in(table, build, cls)
    if fast is not _SLOW:
        try:
            return fast(data)
        except Exception:  # noqa: BLE001 - the walk gives the answer (or the same error)
            pass
    return _NOT_TAKEN


def _compiled_parser(cls: type) -> Any:
    return _compiled_in(_PARSERS, _compile_dataclass, cls)


def _compile_dataclass(cls: type) -> Any:
    tps = hints(cls)
    specs = tuple((f.name, f.default is _MISSING and f.default_factory is _MISSING,
                   _compile(tps[f.name], dict(f.metadata))) for f in dataclasses.fields(cls))
    known = frozenset(name for name, _required, _check in specs)

    def parse(data: Any) -> Any:
        if not isinstance(data, dict) or not data.keys() <= known:
            raise _Refused
        kwargs = {}
        for name, required, check in specs:
            if name in data:
                kwargs[name] = check(data[name])
            elif required:
                raise _Refused
        return cls(**kwargs)

    return parse


def _compile(tp: Any, meta: dict[str, Any]) -> Any:
    optional, tp = _is_optional(tp)
    inner = _compile_inner(tp, meta)
    if not optional and not (get_origin(tp) is Literal and None in get_args(tp)):
        return inner  # every inner check refuses None itself: one call a value, not two

    def check(value: Any) -> Any:
        if value is None:
            if optional:
                return None
            raise _Refused
        return inner(value)

    return check


def _compile_inner(tp: Any, meta: dict[str, Any]) -> Any:  # noqa: C901 - one branch per annotation kind
    origin = get_origin(tp)
    lo, hi = meta.get("min"), meta.get("max")
    if origin is Literal:
        choices = get_args(tp)

        def literal(value: Any) -> Any:
            if value not in choices:
                raise _Refused
            return value

        return literal
    if tp is bool:
        def boolean(value: Any) -> Any:
            if not isinstance(value, bool):
                raise _Refused
            return value

        return boolean
    if tp is int or tp is float:
        wanted = int if tp is int else (int, float)
        convert = float if tp is float else None

        def number(value: Any) -> Any:
            if isinstance(value, bool) or not isinstance(value, wanted):
                raise _Refused
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise _Refused
            return value if convert is None else convert(value)

        return number
    if tp is str:
        longest, shortest = meta.get("max_length"), meta.get("min_length", 0)

        def text(value: Any) -> Any:
            if not isinstance(value, str) or (longest is not None and len(value) > longest) or shortest > len(value):
                raise _Refused
            return value

        return text
    if origin is list:
        (item_tp,) = get_args(tp)
        fewest, most = meta.get("min_items"), meta.get("max_items")
        item = _compile(item_tp, meta.get("items", {}))

        def items(value: Any) -> Any:
            if not isinstance(value, list):
                raise _Refused
            if (fewest is not None and len(value) < fewest) or (most is not None and len(value) > most):
                raise _Refused
            return [item(v) for v in value]

        return items
    if origin is dict:
        _key_tp, val_tp = get_args(tp)
        val = _compile(val_tp, {})

        def mapping(value: Any) -> Any:
            if not isinstance(value, dict):
                raise _Refused
            out = {}
            for k, v in value.items():
                if not isinstance(k, str):
                    raise _Refused
                out[k] = val(v)
            return out

        return mapping
    if dataclasses.is_dataclass(tp):
        def nested(value: Any) -> Any:
            fast = _PARSERS.get(tp) or _compiled_parser(tp)
            return fast(value)

        return nested
    raise TypeError(f"unsupported payload annotation {tp!r}")


# --- parsed and dumped in one pass ------------------------------------------------
# The append path needs each payload twice: parsed (the engine applies it) and in
# its canonical dump (``state.dump``: what is stored). ``parse_dataclass_dumped``
# builds both from the data in one walk of it, with the compiled checks above for
# every value; the dump it gives is ``state.dump``'s of the parsed payload: the same
# keys in the same order (a dataclass's fields as declared, defaults included; a
# mapping's keys sorted), the same values, and no container shared with the
# payload (the engine may keep and change the payload's lists and dicts).


def parse_dataclass_dumped(cls: type, data: Any, path: str = "data") -> tuple[Any, Any]:
    """``(parse_dataclass(cls, data, path), state.dump(of it))``, in one pass where
    the compiled parser takes the data; otherwise (a value it refuses, a class it
    cannot compile) parsed and dumped apart, so a refusal names the same field."""
    got = _try_compiled(_DUMPING, _compile_dataclass_dumping, cls, data)
    if got is not _NOT_TAKEN:
        return got
    from .state import dump

    payload = parse_dataclass(cls, data, path)
    return payload, dump(payload)


_DUMPING: dict[type, Any] = {}


def _compiled_dumping(cls: type) -> Any:
    return _compiled_in(_DUMPING, _compile_dataclass_dumping, cls)


def _default_canon(f: dataclasses.Field) -> Any:
    """A function giving the dump of a missing field's default (a new container each time)."""
    from .state import _PLAIN, dump

    if f.default is not _MISSING:
        default = f.default
        if type(default) in _PLAIN:  # its own dump
            return lambda: default
        return lambda: dump(default)
    factory = f.default_factory
    return lambda: dump(factory())


def _compile_dataclass_dumping(cls: type) -> Any:
    tps = hints(cls)
    specs = []
    for f in dataclasses.fields(cls):
        required = f.default is _MISSING and f.default_factory is _MISSING
        paired, check = _compile_dumping(tps[f.name], dict(f.metadata))
        specs.append((f.name, required, paired, check, None if required else _default_canon(f)))
    specs = tuple(specs)
    known = frozenset(spec[0] for spec in specs)

    def parse(data: Any) -> tuple[Any, Any]:
        if not isinstance(data, dict) or not data.keys() <= known:
            raise _Refused
        kwargs = {}
        canon = {}
        for name, required, paired, check, default in specs:
            if name in data:
                if paired:
                    kwargs[name], canon[name] = check(data[name])
                else:
                    kwargs[name] = canon[name] = check(data[name])
            elif required:
                raise _Refused
            else:
                canon[name] = default()
        return cls(**kwargs), canon

    return parse


def _compile_dumping(tp: Any, meta: dict[str, Any]) -> tuple[bool, Any]:
    """(paired, check): a plain value's check (``_compile``'s: the value parsed is its own
    dump), or, ``paired``, a check that returns (value parsed, its dump)."""
    optional, inner_tp = _is_optional(tp)
    origin = get_origin(inner_tp)
    if not (origin is list or origin is dict or dataclasses.is_dataclass(inner_tp)):
        return False, _compile(tp, meta)
    inner = _compile_dumping_inner(inner_tp, meta)
    if not optional:
        return True, inner

    def check(value: Any) -> tuple[Any, Any]:
        if value is None:
            return None, None
        return inner(value)

    return True, check


def _compile_dumping_inner(tp: Any, meta: dict[str, Any]) -> Any:
    origin = get_origin(tp)
    if origin is list:
        (item_tp,) = get_args(tp)
        fewest, most = meta.get("min_items"), meta.get("max_items")
        paired, item = _compile_dumping(item_tp, meta.get("items", {}))

        def items(value: Any) -> tuple[Any, Any]:
            if not isinstance(value, list):
                raise _Refused
            if (fewest is not None and len(value) < fewest) or (most is not None and len(value) > most):
                raise _Refused
            if not paired:
                parsed = [item(v) for v in value]
                return parsed, parsed.copy()
            pairs = [item(v) for v in value]
            return [p for p, _ in pairs], [c for _, c in pairs]

        return items
    if origin is dict:
        _key_tp, val_tp = get_args(tp)
        paired, val = _compile_dumping(val_tp, {})

        def mapping(value: Any) -> tuple[Any, Any]:
            if not isinstance(value, dict):
                raise _Refused
            parsed = {}
            canon = {}
            for k, v in value.items():
                if not isinstance(k, str):
                    raise _Refused
                if paired:
                    parsed[k], canon[k] = val(v)
                else:
                    parsed[k] = canon[k] = val(v)
            return parsed, {k: canon[k] for k in sorted(canon)}

        return mapping

    def nested(value: Any) -> tuple[Any, Any]:  # a payload dataclass
        fast = _DUMPING.get(tp) or _compiled_dumping(tp)
        return fast(value)

    return nested


def to_json_schema(tp: Any, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """JSON Schema (draft 2020-12 subset) for an annotation."""
    meta = meta or {}
    optional, tp = _is_optional(tp)
    origin = get_origin(tp)
    schema: dict[str, Any]
    if origin is Literal:
        schema = {"enum": list(get_args(tp))}
    elif tp is bool:
        schema = {"type": "boolean"}
    elif tp is int:
        schema = {"type": "integer"}
    elif tp is float:
        schema = {"type": "number"}
    elif tp is str:
        schema = {"type": "string"}
        if "max_length" in meta:
            schema["maxLength"] = meta["max_length"]
        if "min_length" in meta:
            schema["minLength"] = meta["min_length"]
    elif origin is list:
        (item_tp,) = get_args(tp)
        schema = {"type": "array", "items": to_json_schema(item_tp, meta.get("items"))}
        if "min_items" in meta:
            schema["minItems"] = meta["min_items"]
        if "max_items" in meta:
            schema["maxItems"] = meta["max_items"]
    elif origin is dict:
        schema = {"type": "object", "additionalProperties": to_json_schema(get_args(tp)[1])}
    elif dataclasses.is_dataclass(tp):
        schema = dataclass_schema(tp)
    else:
        raise TypeError(f"unsupported payload annotation {tp!r}")
    if "min" in meta:
        schema["minimum"] = meta["min"]
    if "max" in meta:
        schema["maximum"] = meta["max"]
    if "doc" in meta:
        schema["description"] = meta["doc"]
    if optional:
        schema = {"anyOf": [schema, {"type": "null"}], **({"description": meta["doc"]} if "doc" in meta else {})}
    return schema


def dataclass_schema(cls: type) -> dict[str, Any]:
    tps = hints(cls)
    props, required = {}, []
    for f in dataclasses.fields(cls):
        props[f.name] = to_json_schema(tps[f.name], dict(f.metadata))
        if f.default is _MISSING and f.default_factory is _MISSING:
            required.append(f.name)
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = required
    if cls.__doc__:
        schema["description"] = " ".join(cls.__doc__.split())
    return schema
