"""The event envelope and the registry of event types.

An ``Event`` is what the log stores: a gapless ``seq`` within its battle, a
``type``, the payload ``data`` as JSON and the payload's schema ``version``.
Each type is registered once with its payload dataclass, the catalog rule IDs
it involves, a check (may refuse, raising ``RuleViolation``) and a mutator
(never refuses: once accepted an event stands, V-TURN-13). Old payload
versions are upcast on read, never rewritten.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import PayloadError
from .schema import dataclass_schema, parse_dataclass

P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    type: str
    data: dict[str, Any]
    version: int = 1


Check = Callable[[Any, Any, "Context"], None]
Mutate = Callable[[Any, Any, "Context"], None]
Upcast = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Context:
    """What a check or mutator may know besides state and payload."""

    seq: int
    rules: dict[str, Any]


@dataclass(slots=True)
class EventType(Generic[P]):
    name: str
    payload: type[P]
    version: int = 1
    rules: tuple[str, ...] = ()
    title_ru: str = ""
    title_en: str = ""
    game_master_only: bool = False
    checks: list[Check] = field(default_factory=list)
    mutate: Mutate | None = None
    upcasters: dict[int, Upcast] = field(default_factory=dict)
    _build: Callable[[dict[str, Any]], Any] | None = None

    # decorators -----------------------------------------------------------
    def check(self, fn: Check) -> Check:
        self.checks.append(fn)
        return fn

    def mutator(self, fn: Mutate) -> Mutate:
        if self.mutate is not None:
            raise RuntimeError(f"event type {self.name} already has a mutator")
        self.mutate = fn
        return fn

    def upcaster(self, from_version: int) -> Callable[[Upcast], Upcast]:
        def register(fn: Upcast) -> Upcast:
            self.upcasters[from_version] = fn
            return fn

        return register

    # payloads -------------------------------------------------------------
    def upcast(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        while version < self.version:
            data = self.upcasters[version](data)
            version += 1
        return data

    def parse(self, data: Any, version: int | None = None) -> P:
        """Validate a payload from outside (append time)."""
        version = self.version if version is None else version
        if version > self.version or (version < self.version and version not in self.upcasters):
            raise PayloadError(
                "schema_version",
                f"schema_version: тип {self.name} не знает версию {version}",
                f"schema_version: type {self.name} has no version {version}",
            )
        if isinstance(data, dict):
            data = self.upcast(data, version)
        return parse_dataclass(self.payload, data)

    def load(self, event: Event) -> P:
        """Rebuild a stored payload (replay time): trusted, upcast, not re-validated.
        Nested payload dataclasses (dice, targets) are rebuilt too, so a mutator
        sees the same shapes at replay as at append."""
        data = event.data if event.version == self.version else self.upcast(event.data, event.version)
        build = self._build
        if build is None:
            build = self._build = builder(self.payload)
        return build(data)

    def describe(self) -> dict[str, Any]:
        return {
            "type": self.name,
            "schema_version": self.version,
            "title_ru": self.title_ru,
            "title_en": self.title_en,
            "rules": list(self.rules),
            "game_master_only": self.game_master_only,
            "schema": dataclass_schema(self.payload),
        }


def _value_builder(tp: Any) -> Callable[[Any], Any] | None:
    """A converter for JSON of annotation ``tp`` into payload objects, or None
    when the JSON value can be used as it is."""
    import dataclasses
    import types
    from typing import Union, get_args, get_origin

    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        inner = _value_builder(args[0]) if len(args) == 1 else None
        if inner is None:
            return None
        return lambda v: None if v is None else inner(v)
    if origin is list:
        inner = _value_builder(get_args(tp)[0])
        return None if inner is None else (lambda v: [inner(x) for x in v])
    if origin is dict:
        inner = _value_builder(get_args(tp)[1])
        return None if inner is None else (lambda v: {k: inner(x) for k, x in v.items()})
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return builder(tp)
    return None


def builder(cls: type) -> Callable[[dict[str, Any]], Any]:
    """Fast constructor of ``cls`` from its stored JSON form (no validation)."""
    from .schema import hints

    nested = [(name, b) for name, tp in hints(cls).items() if (b := _value_builder(tp)) is not None]
    if not nested:
        return lambda data: cls(**data)

    def build(data: dict[str, Any]) -> Any:
        data = dict(data)
        for name, b in nested:
            if name in data:
                data[name] = b(data[name])
        return cls(**data)

    return build


REGISTRY: dict[str, EventType[Any]] = {}


def event_type(
    name: str,
    payload: type[P],
    *,
    version: int = 1,
    rules: tuple[str, ...] = (),
    title_ru: str = "",
    title_en: str = "",
    game_master_only: bool = False,
) -> EventType[P]:
    if name in REGISTRY:
        raise RuntimeError(f"event type {name} registered twice")
    entry = EventType(name, payload, version, rules, title_ru, title_en, game_master_only)
    REGISTRY[name] = entry
    return entry


def lookup(name: Any) -> EventType[Any]:
    entry = REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise PayloadError("type", f"type: неизвестный тип события {name!r}", f"type: unknown event type {name!r}")
    return entry


def vocabulary() -> list[dict[str, Any]]:
    return [REGISTRY[name].describe() for name in sorted(REGISTRY)]
