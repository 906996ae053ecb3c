"""The event envelope and the registry of event types.

An ``Event`` is what the log stores: a gapless ``seq`` within its battle, a
``type``, the payload ``data`` as JSON and the payload's schema ``version``.
Each type is registered once with its payload class (``schema.Payload``), the catalog rule IDs
it involves, a check (may refuse, raising ``RuleViolation``) and a mutator
(never refuses: once accepted an event stands, V-TURN-13). Old payload
versions are upcast on read, never rewritten.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from .errors import PayloadError
from .schema import load, parse_payload, parse_payload_dumped, payload_schema

P = TypeVar("P")


class Event(msgspec.Struct, frozen=True):
    """One stored event (a msgspec Struct, as the payloads are: built for every event an append decides and
    a replay reads, at a ninth of a frozen dataclass's cost)."""

    seq: int
    type: str
    data: dict[str, Any]
    version: int = 1


Check = Callable[[Any, Any, "Context"], None]
Mutate = Callable[[Any, Any, "Context"], None]
Upcast = Callable[[dict[str, Any]], dict[str, Any]]


class Context:
    """What a check or mutator may know besides state and payload. A fold
    reuses one Context and moves ``seq`` along (cheaper than one per event);
    checks and mutators only read it."""

    __slots__ = ("seq", "rules")

    def __init__(self, seq: int, rules: dict[str, Any]) -> None:
        self.seq = seq
        self.rules = rules

    def __repr__(self) -> str:
        return f"Context(seq={self.seq})"


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
    owner: Registry | None = None  # the ruleset's registry this type belongs to

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

    def _current(self, data: Any, version: int | None) -> Any:
        """Data from outside at ``version`` (default: the current one), upcast to the current
        version; a version this type does not know is refused."""
        version = self.version if version is None else version
        if version > self.version or (version < self.version and version not in self.upcasters):
            raise PayloadError(
                "schema_version",
                f"schema_version: тип {self.name} не знает версию {version}",
                f"schema_version: type {self.name} has no version {version}",
            )
        return self.upcast(data, version) if isinstance(data, dict) else data

    def parse(self, data: Any, version: int | None = None) -> P:
        """Validate a payload from outside (append time)."""
        return parse_payload(self.payload, self._current(data, version))

    def parse_dumped(self, data: Any, version: int | None = None) -> tuple[P, Any]:
        """``parse``'s payload and its canonical dump (``state.dump``'s: the form it is stored in)."""
        return parse_payload_dumped(self.payload, self._current(data, version))

    def load(self, event: Event) -> P:
        """Rebuild a stored payload (replay time), upcast: the same payload class as at append, so a
        mutator sees the same shapes at replay."""
        return load(self.payload, event.data if event.version == self.version else self.upcast(event.data, event.version))

    def describe(self) -> dict[str, Any]:
        owner = self.owner
        if owner is None or owner.policy is None:
            from .actors import POLICY  # the recorder policy reads the rule modules, which register here

            policy = POLICY
        else:
            policy = owner.policy()
        recorder = policy.get(self.name)
        return {
            "type": self.name,
            "schema_version": self.version,
            "title_ru": self.title_ru,
            "title_en": self.title_en,
            "rules": list(self.rules),
            "game_master_only": self.game_master_only or (recorder is not None and recorder.kind == "game_master"),
            "recorded_by": recorder.describe() if recorder is not None else None,
            "schema": payload_schema(self.payload),
        }


class Registry(dict[str, EventType[Any]]):
    """One ruleset's event types by name (a dict, so ``REGISTRY[name]`` and
    ``REGISTRY.get(name)`` read as before). ``policy`` returns the ruleset's
    recorder policy (``actors.Recorder`` by type name); None means v11.2's
    ``actors.POLICY``."""

    def __init__(self, code: str, policy: Callable[[], dict[str, Any]] | None = None) -> None:
        super().__init__()
        self.code = code
        self.policy = policy

    def __hash__(self) -> int:  # a registry is one object per ruleset
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:  # dict's own __ne__ would compare contents
        return self is not other

    def event_type(
        self,
        name: str,
        payload: type[P],
        *,
        version: int = 1,
        rules: tuple[str, ...] = (),
        title_ru: str = "",
        title_en: str = "",
        game_master_only: bool = False,
    ) -> EventType[P]:
        if name in self:
            raise RuntimeError(f"event type {name} registered twice in ruleset {self.code}")
        entry = EventType(name, payload, version, rules, title_ru, title_en, game_master_only, owner=self)
        self[name] = entry
        return entry

    def lookup(self, name: Any) -> EventType[Any]:
        entry = self.get(name) if isinstance(name, str) else None
        if entry is None:
            elsewhere = [r.code for r in _REGISTRIES if r is not self and isinstance(name, str) and name in r]
            if elsewhere:
                raise PayloadError(
                    "type",
                    f"type: тип события {name!r} относится к правилам {elsewhere[0]}, а бой идёт по правилам {self.code}",
                    f"type: event type {name!r} belongs to ruleset {elsewhere[0]}; this battle is played by "
                    f"ruleset {self.code}")
            raise PayloadError("type", f"type: неизвестный тип события {name!r}", f"type: unknown event type {name!r}")
        return entry

    def vocabulary(self) -> list[dict[str, Any]]:
        return [self[name].describe() for name in sorted(self)]


_REGISTRIES: list[Registry] = []


def new_registry(code: str, policy: Callable[[], dict[str, Any]] | None = None) -> Registry:
    """A ruleset's own registry (each ruleset registers its types in its own)."""
    reg = Registry(code, policy)
    _REGISTRIES.append(reg)
    return reg


REGISTRY: Registry = new_registry("v11.2")  # the v11.2 ruleset's types (the default everywhere)


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
    """Register a v11.2 event type (another ruleset uses its registry's ``event_type``)."""
    return REGISTRY.event_type(name, payload, version=version, rules=rules, title_ru=title_ru, title_en=title_en,
                               game_master_only=game_master_only)


_BY_CODE: dict[str, Registry] = {}  # ruleset code -> its registry (the rulesets are fixed at import)


def _registry(ruleset: Any) -> Registry:
    if ruleset is None:
        return REGISTRY
    if isinstance(ruleset, Registry):
        return ruleset
    found = _BY_CODE.get(ruleset) if isinstance(ruleset, str) else None
    if found is not None:
        return found
    from .rulesets import get  # a cycle: rulesets imports this module (its REGISTRY)

    found = get(ruleset).registry
    if isinstance(ruleset, str):
        _BY_CODE[ruleset] = found
    return found


def lookup(name: Any, ruleset: Any = None) -> EventType[Any]:
    """The event type ``name`` of ``ruleset`` (default v11.2); a ``PayloadError``
    on ``type`` when the ruleset has no such type (naming the ruleset that has it)."""
    return _registry(ruleset).lookup(name)


def vocabulary(ruleset: Any = None) -> list[dict[str, Any]]:
    return _registry(ruleset).vocabulary()
