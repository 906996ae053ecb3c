"""The state after a battle's last append, kept by this process for its next
append to the same battle (docs/append.md, "The state cache")."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any


@dataclass
class Entry:
    """The engine state after seq ``head`` of a battle, decided under ``rules``
    (the battle's snapshot, ``None`` before its first event) and ``ruleset``."""

    head: int
    rules: dict[str, Any] | None
    ruleset: str
    state: Any
    rules_json: str | None = None  # ``rules_json(rules)``, given or worked out once
    chain: str | None = None  # the chain of the event at ``head`` (``chain.link``), kept by the store
    dice_key: bytes | None = None  # the dice secret while it derives the service's dice (else None: ``secrets``)

    def __post_init__(self) -> None:
        if self.rules_json is None:
            self.rules_json = rules_json(self.rules)


def rules_json(rules: dict[str, Any] | None) -> str:
    """The rules snapshot as text, as the optimistic statement and two entries compare it."""
    return json.dumps(rules, sort_keys=True, default=str)


class StateCache:
    """One entry per battle, the least recently used dropped past ``size``. An
    append *takes* an entry (the engine folds its state in place) and *keeps*
    the next after it commits, so no two threads share a state. An entry is
    never wrong, only maybe behind the log, which the head comparison catches."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[int, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, battle_id: int) -> Entry | None:
        with self._lock:
            return self._items.pop(battle_id, None)

    def keep(self, battle_id: int, entry: Entry) -> None:
        with self._lock:
            old = self._items.get(battle_id)
            if old is not None and old.head > entry.head:
                return  # never replace a later state with an earlier one
            self._items[battle_id] = entry
            self._items.move_to_end(battle_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


STATE_CACHE = StateCache()
