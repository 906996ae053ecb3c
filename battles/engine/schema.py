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
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

from .errors import PayloadError

_MISSING = dataclasses.MISSING


def _is_optional(tp: Any) -> tuple[bool, Any]:
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
    """Build ``cls`` from a JSON object, naming the first bad field."""
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
