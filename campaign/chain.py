"""The hash chain of a campaign's log (docs/verify.md, "Verifying a log"),
as ``battles.log.chain`` is a battle's (campaign may not import battles: the
app layers; the form is the same).

A campaign's log is its events in append order (``CampaignEvent.id``; the
appends of a campaign are serialized on its row, so ids follow that order).
An event without a campaign (a character's enlistment) belongs to that
character's own log. Each stored event carries ``chain``: the SHA-256, in
hex, of the previous event's chain (its 32 bytes; before the first event, the
log's ``genesis``) followed by the event's canonical form: the UTF-8 JSON of
``{"campaign", "character", "battle", "source_event", "type", "data",
"battle_number", "key", "recorded_by"}`` (ids or null) with every object's
keys sorted and no spaces, non-ASCII characters as themselves
(``msgspec.json.encode(obj, order="sorted")``). Pure: no Django import.
"""
from __future__ import annotations

import hashlib
from typing import Any

import msgspec

_encode = msgspec.json.Encoder(order="sorted").encode


def genesis(*, campaign_id: int | None, character_id: int | None = None) -> str:
    """The chain before a log's first event: a campaign's, or (no campaign) a character's."""
    if campaign_id is not None:
        return hashlib.sha256(b"shtab:campaign:%d" % campaign_id).hexdigest()
    if character_id is None:
        raise ValueError("a campaign event belongs to a campaign or, without one, to a character")
    return hashlib.sha256(b"shtab:character:%d" % character_id).hexdigest()


def canonical(*, campaign_id: int | None, character_id: int | None, battle_id: int | None,
              source_event_id: int | None, type: str, data: Any, battle_number: int, key: str | None,
              recorded_by_id: int | None) -> bytes:
    return _encode({"campaign": campaign_id, "character": character_id, "battle": battle_id,
                    "source_event": source_event_id, "type": type, "data": data, "battle_number": battle_number,
                    "key": key, "recorded_by": recorded_by_id})


def link(previous: str, **content: Any) -> str:
    """The chain of one event (``canonical``'s fields), given the chain of the event before it."""
    return hashlib.sha256(bytes.fromhex(previous) + canonical(**content)).hexdigest()


def content_of(row: Any) -> dict[str, Any]:
    """``canonical``'s fields of a stored event (a model instance, or a migration's historical one)."""
    return {"campaign_id": row.campaign_id, "character_id": row.character_id, "battle_id": row.battle_id,
            "source_event_id": row.source_event_id, "type": row.type, "data": row.data,
            "battle_number": row.battle_number, "key": row.key, "recorded_by_id": row.recorded_by_id}
