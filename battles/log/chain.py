"""The hash chain of a battle's log (docs/verify.md, "Verifying a log").

Each stored event carries ``chain``: the SHA-256, in hex, of the previous
event's chain (its 32 bytes; before the first event, the battle's
``genesis``) followed by the event's canonical form. The store computes it on
append, the verifier (``battles.selectors.battle_log_verify``) recomputes it
from the stored rows, and the migration that added it backfilled it: all
three through this module, so the form below is the only one.

The canonical form is the UTF-8 JSON of ``{"battle", "seq", "type",
"schema_version", "data", "key"}`` with every object's keys sorted and no
spaces, non-ASCII characters written as themselves
(``msgspec.json.encode(obj, order="sorted")``). Pure: no Django import.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec

_encode = msgspec.json.Encoder(order="sorted").encode


def genesis(battle_id: int) -> str:
    """The chain before a battle's first event."""
    return hashlib.sha256(b"shtab:battle:%d" % battle_id).hexdigest()


def canonical(*, battle_id: int, seq: int, type: str, schema_version: int, data: Any, key: str | None) -> bytes:
    return _encode({"battle": battle_id, "seq": seq, "type": type, "schema_version": schema_version, "data": data,
                    "key": key})


def link(previous: str, *, battle_id: int, seq: int, type: str, schema_version: int, data: Any,
         key: str | None) -> str:
    """The chain of one event, given the chain of the event before it."""
    return hashlib.sha256(bytes.fromhex(previous) + canonical(
        battle_id=battle_id, seq=seq, type=type, schema_version=schema_version, data=data, key=key)).hexdigest()


def links(previous: str, *, battle_id: int, events: Sequence[Any], keys: Sequence[str | None]) -> list[str]:
    """Each event's chain in turn (events with ``seq``, ``type``, ``version``
    and ``data``, as the engine decides them), after ``previous``: ``link``'s,
    the digest carried from one event to the next as bytes."""
    out = []
    digest, sha256 = bytes.fromhex(previous), hashlib.sha256
    for e, k in zip(events, keys, strict=True):
        digest = sha256(digest + _encode({"battle": battle_id, "seq": e.seq, "type": e.type,
                                          "schema_version": e.version, "data": e.data, "key": k})).digest()
        out.append(digest.hex())
    return out
