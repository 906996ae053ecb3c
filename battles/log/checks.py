"""What the event store checks of a batch before it looks at the battle:
its size, each event's type, key and data caps, and idempotent retries."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from django.conf import settings

from battles import engine
from battles.engine.dice import fill_rolls
from battles.log import dice_commit
from battles.models import BattleEvent
from config import inputs
from config.errors import Conflict, InvalidInput

# Caps on one event's data (documented in README and docs/events.md): deeper or
# larger payloads are refused with a 400 naming ``events[i].data``.
EVENT_DATA_MAX_DEPTH = 32
EVENT_DATA_MAX_BYTES = 64 * 1024
KEY_MAX_LENGTH = BattleEvent._meta.get_field("key").max_length


@dataclass(frozen=True)
class NewEvent:
    type: Any
    data: Any
    key: str | None = None
    schema_version: int | None = None


def check_batch(events: Sequence[NewEvent]) -> None:
    """The batch's size, then each event's type, key and data, in order:
    the first fault is a 400 naming its field. Nothing is looked up."""
    limit = settings.SHTAB["MAX_BATCH"]
    if not events:
        raise InvalidInput("events: нужно хотя бы одно событие.", "events: at least one event is required.",
                           field="events")
    if len(events) > limit:
        raise InvalidInput(f"events: не больше {limit} событий за раз.", f"events: at most {limit} events per batch.",
                           field="events")
    seen: set[str] = set()
    for i, ev in enumerate(events):
        _check_event(i, ev)
        if ev.key is None:
            continue
        if not (isinstance(ev.key, str) and 0 < len(ev.key) <= KEY_MAX_LENGTH):
            raise InvalidInput(f"events[{i}].key: строка от 1 до {KEY_MAX_LENGTH} символов.",
                               f"events[{i}].key: a string of 1 to {KEY_MAX_LENGTH} characters.",
                               field=f"events[{i}].key")
        if ev.key in seen:
            raise InvalidInput(f"events[{i}].key: ключ повторяется в пакете.",
                               f"events[{i}].key: the key repeats within the batch.", field=f"events[{i}].key")
        seen.add(ev.key)


def _too_large(path: str) -> InvalidInput:
    kb = EVENT_DATA_MAX_BYTES // 1024
    return InvalidInput(f"{path}: больше {kb} KB в JSON.", f"{path}: larger than {kb} KB as JSON.", field=path,
                        code="too_large")


def _check_event(i: int, ev: NewEvent) -> None:
    """Text the database cannot store (NUL, lone surrogates) and data past the caps."""
    if not isinstance(ev.type, str):
        raise InvalidInput(f"events[{i}].type: ожидается строка.", f"events[{i}].type: expected a string.",
                           field=f"events[{i}].type")
    if inputs.bad_text(ev.type):
        raise inputs.text_error(f"events[{i}].type")
    if isinstance(ev.key, str) and inputs.bad_text(ev.key):
        raise inputs.text_error(f"events[{i}].key")
    path = f"events[{i}].data"
    try:  # msgspec refuses lone surrogates (UnicodeEncodeError) and writes NUL as \u0000
        text = msgspec.json.encode(ev.data)
    except (TypeError, ValueError, RecursionError):
        text = None
    # The common case (no NUL, fewer containers than the depth cap) in one pass over the text;
    # anything else takes the walk, which names the exact place.
    if text is not None and (b'"rolled"' in text or b'"secrets"' in text or dice_commit.RNG.encode() in text):
        dice_commit.refuse_service_dice(i, ev.data)
    if text is None or b"\\u0000" in text or (text.count(b"[") + text.count(b"{") > EVENT_DATA_MAX_DEPTH
                                              and inputs.too_deep(ev.data, EVENT_DATA_MAX_DEPTH)):
        found = inputs.find_bad(ev.data, path, max_depth=EVENT_DATA_MAX_DEPTH)
        if found:
            raise inputs.depth_error(path, EVENT_DATA_MAX_DEPTH) if found[1] == "depth" else inputs.text_error(found[0])
    size = len(text) if text is not None else len(json.dumps(ev.data, ensure_ascii=False, separators=(",", ":")).encode())
    if size > EVENT_DATA_MAX_BYTES:
        raise _too_large(path)


def stored_retry(battle_id: int, events: Sequence[NewEvent], ruleset: str, *, anyone: bool = True,
                 recorder_id: int | None = None) -> list[BattleEvent] | None:
    """Idempotency: the stored events when the batch's keys are already stored
    (a client's retry); a key reused for a different event, or a batch only
    partly stored, is refused (409); ``None`` when none of its keys is stored.

    A retry is only a retry for whoever stored it: unless ``anyone`` (the
    game master, trusted callers), only the keys ``recorder_id`` stored count.
    Another recorder's key is left alone here, so the batch is judged as a
    new one (who may record it, then the rules) and tells nothing of the
    stored event (V-MINE-14: its content may be hidden from this recorder);
    if it passes, its insert meets the key (``key_in_use``)."""
    keys = [ev.key for ev in events if ev.key is not None]
    if not keys:
        return None
    stored = {e.key: e for e in BattleEvent.objects.filter(battle_id=battle_id, key__in=keys)}
    if not anyone:
        stored = {k: e for k, e in stored.items() if e.recorded_by_id == recorder_id}
    if not stored:
        return None
    if len(stored) != len(events):
        raise Conflict("Часть событий пакета уже записана с этими ключами: повторите пакет целиком или без них.",
                       "Some events of this batch are already stored under these keys: resend the whole batch "
                       "as it was, or without them.", field="events", code="idempotency_partial")
    for i, ev in enumerate(events):
        old = stored[ev.key]
        if old.type != ev.type or dice_commit.without_service_rolls(_normalised(ev, ruleset)) != dice_commit.without_service_rolls(old.data):
            raise Conflict(f"events[{i}].key: ключ уже использован для другого события (seq {old.seq}).",
                           f"events[{i}].key: the key was already used for a different event (seq {old.seq}).",
                           field=f"events[{i}].key", code="idempotency_conflict")
    return [stored[ev.key] for ev in events]


def _normalised(ev: NewEvent, ruleset: str) -> Any:
    """The payload as it would be stored (defaults filled, upcast), for comparing a retry."""
    try:
        data = fill_rolls(ev.type, ev.data, lambda sides: 1, ruleset=ruleset)
        return engine.dump(engine.lookup(ev.type, ruleset).parse(data, ev.schema_version))
    except engine.PayloadError:
        return ev.data


def key_in_use(battle_id: int, events: Sequence[NewEvent]) -> Conflict | None:
    """The refusal of a batch whose key another recorder already stored: it
    names the key's place in the batch and nothing of the stored event."""
    keys = [ev.key for ev in events if ev.key is not None]
    taken = set(BattleEvent.objects.filter(battle_id=battle_id, key__in=keys).values_list("key", flat=True))
    for i, ev in enumerate(events):
        if ev.key in taken:
            return Conflict(f"events[{i}].key: этот ключ в бою уже занят; выберите другой.",
                            f"events[{i}].key: this key is already taken in this battle; choose another.",
                            field=f"events[{i}].key", code="idempotency_conflict")
    return None
