"""Every write to the battle log and its projections goes through here.

``battle_event_append`` is the only way events enter the log; ``battle_replay``
is the only way projections change. Views, admin, commands and Celery tasks
all call these.
"""
from __future__ import annotations

import contextlib
import json
import logging
import pickle
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef
from django.db.models.base import ModelState
from django.utils import timezone

from battles import engine
from battles.engine.dice import fill_rolls
from battles.engine.schema import max_depth
from campaign.models import Campaign
from config import inputs
from config.errors import Conflict, Forbidden, InvalidInput, NotFound, from_engine

from .models import Battle, BattleEvent, BattleEventOutcome, BattleProjection, LogPosition, RulesDataVersion
from .selectors import battle_rules, battle_voided_seqs, iter_engine_events

log = logging.getLogger(__name__)
# Caps on one event's data (documented in README and docs/events.md): deeper or
# larger payloads are refused with a 400 naming ``events[i].data``.
EVENT_DATA_MAX_DEPTH = 32
EVENT_DATA_MAX_BYTES = 64 * 1024
SERVICE_RNG = "secrets"  # provenance recorded on dice the service rolls


@dataclass(frozen=True)
class NewEvent:
    type: Any
    data: Any
    key: str | None = None
    schema_version: int | None = None


@dataclass(frozen=True)
class AppendResult:
    events: list[BattleEvent]
    created: bool


def battle_create(*, campaign: Campaign, name: str, number: int | None = None, mission: str = "",
                  victory_conditions: str = "", objectives: Sequence[int] = (), turn_limit: int | None = None) -> Battle:
    """A new battle of the campaign, with its (empty) projection. ``objectives``
    are the campaign objectives at stake (V-TURN-7: mission and conditions)."""
    if campaign.status == "finished":
        raise Conflict("Кампания завершена.", "The campaign is finished.", code="campaign_finished")
    with transaction.atomic():
        if number is None:
            number = campaign.battles.count() + 1
        battle = Battle.objects.create(campaign=campaign, name=name, number=number, mission=mission,
                                       victory_conditions=victory_conditions, turn_limit=turn_limit)
        if objectives:
            found = list(campaign.objectives.filter(pk__in=objectives))
            if len(found) != len(set(objectives)):
                raise InvalidInput("objectives: объекты не из этой кампании.",
                                   "objectives: not objectives of this campaign.", field="objectives")
            battle.objectives.set(found)
        state = engine.new_state(campaign.ruleset)
        BattleProjection.objects.create(battle=battle, state=engine.state_to_json(state),
                                        engine_version=engine.engine_version(campaign.ruleset))
        # The state before the first event, for the first append (its rules are snapshotted then).
        meta = _Meta(None, "", campaign.ruleset, "")
        transaction.on_commit(lambda: STATE_CACHE.keep(battle.id, 0, "", state, meta))
    return battle


def _check_batch(events: Sequence[NewEvent]) -> None:
    limit = settings.SHTAB["MAX_BATCH"]
    if not events:
        raise InvalidInput("events: нужно хотя бы одно событие.", "events: at least one event is required.",
                           field="events")
    if len(events) > limit:
        raise InvalidInput(f"events: не больше {limit} событий за раз.", f"events: at most {limit} events per batch.",
                           field="events")
    seen: set[str] = set()
    for i, ev in enumerate(events):
        _check_event_input(i, ev)
        if ev.key is None:
            continue
        if not _key_fine(ev.key):
            raise InvalidInput(f"events[{i}].key: строка от 1 до {KEY_MAX_LENGTH} символов.",
                               f"events[{i}].key: a string of 1 to {KEY_MAX_LENGTH} characters.",
                               field=f"events[{i}].key")
        if ev.key in seen:
            raise InvalidInput(f"events[{i}].key: ключ повторяется в пакете.",
                               f"events[{i}].key: the key repeats within the batch.", field=f"events[{i}].key")
        seen.add(ev.key)


def _batch_shape_fine(events: Sequence[NewEvent]) -> bool:
    """What ``_check_batch`` checks of the batch as a whole (its size, its keys), without raising and
    without reading the events' data: a batch that passes may have its data checked later, chunk by
    chunk; one that does not is checked at once, so its error is the one ``_check_batch`` names."""
    if not 0 < len(events) <= settings.SHTAB["MAX_BATCH"]:
        return False
    keys = [ev.key for ev in events if ev.key is not None]
    if not keys:
        return True
    # ``_key_fine`` for each, in C loops (a str subclass is not vouched for here: _check_batch decides it),
    # and no NUL or lone surrogate: each key goes to the database with its chunk's rows, while later
    # chunks are still unchecked, so a bad one must be named by _check_batch before anything is sent
    return (set(map(type, keys)) == {str} and len(set(keys)) == len(keys)
            and min(map(len, keys)) > 0 and max(map(len, keys)) <= KEY_MAX_LENGTH
            and not any(map(inputs.bad_text, keys)))


KEY_MAX_LENGTH = BattleEvent._meta.get_field("key").max_length  # an idempotency key's characters


def _key_fine(key: Any) -> bool:
    """An idempotency key: a string of 1 to ``KEY_MAX_LENGTH`` characters."""
    return isinstance(key, str) and 0 < len(key) <= KEY_MAX_LENGTH


# ``json.dumps`` with options builds an encoder per call: one, built once.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _check_event_input(i: int, ev: NewEvent) -> None:
    """Text the database cannot store (NUL, lone surrogates) and data past the
    caps, refused before anything is looked up or written."""
    if not isinstance(ev.type, str):
        raise InvalidInput(f"events[{i}].type: ожидается строка.", f"events[{i}].type: expected a string.",
                           field=f"events[{i}].type")
    if inputs.bad_text(ev.type):  # a string: what ``inputs.refuse_bad`` checks of it
        raise inputs.text_error(f"events[{i}].type")
    if isinstance(ev.key, str) and inputs.bad_text(ev.key):
        raise inputs.text_error(f"events[{i}].key")
    path = f"events[{i}].data"
    try:
        text = _COMPACT.encode(ev.data)
    except (TypeError, ValueError, RecursionError):
        text = None
    # Fast path, the same verdict as the walk below: json escapes NUL as \u0000 and
    # leaves lone surrogates as they are; no more containers than the depth cap
    # means no deeper nesting than it. Anything suspicious takes the walk, which
    # names the exact place.
    if (text is not None and "\\u0000" not in text and not inputs.bad_text(text)
            and text.count("[") + text.count("{") <= EVENT_DATA_MAX_DEPTH):
        if len(text.encode()) > EVENT_DATA_MAX_BYTES:
            kb = EVENT_DATA_MAX_BYTES // 1024
            raise InvalidInput(f"{path}: больше {kb} KB в JSON.", f"{path}: larger than {kb} KB as JSON.",
                               field=path, code="too_large")
        return
    found = inputs.find_bad(ev.data, path, max_depth=EVENT_DATA_MAX_DEPTH)
    if found and found[1] == "depth":
        raise inputs.depth_error(path, EVENT_DATA_MAX_DEPTH)
    if found:
        raise inputs.text_error(found[0])
    size = len(json.dumps(ev.data, ensure_ascii=False, separators=(",", ":")).encode())
    if size > EVENT_DATA_MAX_BYTES:
        kb = EVENT_DATA_MAX_BYTES // 1024
        raise InvalidInput(f"{path}: больше {kb} KB в JSON.", f"{path}: larger than {kb} KB as JSON.", field=path,
                           code="too_large")


_BOUNDED: dict[tuple[str, str], int | None] = {}


def _bounded_version(ruleset: str, type_name: str) -> int | None:
    """The current schema version of an event type whose parser refuses any data nested deeper than
    ``EVENT_DATA_MAX_DEPTH`` (``schema.max_depth`` of its payload, memoised); ``None`` for a type
    nested deeper, or unknown."""
    key = (ruleset, type_name)
    if key not in _BOUNDED:
        try:
            entry = engine.lookup(type_name, ruleset)
        except engine.PayloadError:
            return None
        _BOUNDED[key] = entry.version if max_depth(entry.payload) <= EVENT_DATA_MAX_DEPTH else None
    return _BOUNDED[key]


def _chunk_bounded(events: Sequence[NewEvent], ruleset: str) -> bool:
    """Each event of the chunk is of a type whose parser refuses anything nested deeper than the
    depth cap, at its current schema version (no upcaster between): its depth need not be counted."""
    for ev in events:
        version = _bounded_version(ruleset, ev.type) if type(ev.type) is str else None
        if version is None or ev.schema_version not in (None, version):
            return False
    return True


def _rows_vouch(text: str) -> bool:
    """The rows text of a chunk parsed as sent (``_rows_json``: type, canonical data, version and key
    of each event) vouches for the chunk's input, so that every event passes ``_check_event_input``,
    when it holds no NUL and no lone surrogate, no ``e+`` and at most one event's cap of bytes. Every
    string of the input is in it (the type, the key, each value and mapping key; field names are the
    payload's own), and each event's data is no longer as sent than as dumped: the dump keeps every
    value and adds the defaults, and a number can only shrink in it where an integer of 17 digits or
    more became a float, which its text then writes with ``e+`` (as any float of 1e16 or more).
    ``e+`` anywhere (a number, or only a string that holds it) sends the chunk the longer way, which
    answers as before. No die of such a chunk asks to be rolled: a die that does has no value, which
    the parser requires of every die, so the chunk did not parse as sent."""
    return "e+" not in text and _json_text_fine(text)


def _json_text_fine(text: str) -> bool:
    """A JSON text (ours: NUL is written ``\\u0000``) with no NUL and no lone surrogate in what it
    says, within one event's cap in bytes."""
    if "\\u0000" in text:
        return False
    if text.isascii():  # (no surrogate in it, and as many bytes as characters)
        return len(text) <= EVENT_DATA_MAX_BYTES
    return not inputs.bad_text(text) and len(text.encode()) <= EVENT_DATA_MAX_BYTES


def _chunk_checked(events: Sequence[NewEvent], ruleset: str) -> str | None:
    """The data checks of ``_check_event_input`` for a chunk of a batch written while it is decided,
    at once: one JSON text of the chunk (types, keys and data), searched once for NUL and lone
    surrogates, its size in bytes within one event's cap (so each event's is). The depth cap is not
    counted: each event is of a type whose parser refuses anything nested deeper (``_bounded_version``),
    at its current schema version (no upcaster between), and the chunk is parsed before it is sent.
    The text (the chunk passed): every event passes ``_check_event_input``, or one is too deep and the
    parser refuses it; either way the batch's answer is the event-by-event check's. ``None``: check
    event by event."""
    if not _chunk_bounded(events, ruleset):
        return None
    try:
        text = _COMPACT.encode([[ev.type, ev.key, ev.data] for ev in events])
    except (TypeError, ValueError, RecursionError):
        return None
    return text if _json_text_fine(text) else None


def _replayed(battle_id: int, events: Sequence[NewEvent], ruleset: str | None = None) -> list[BattleEvent] | None:
    """Idempotency: if the batch's keys are already stored, return the stored
    events; refuse a key reused for a different event or a half-known batch."""
    keys = [ev.key for ev in events if ev.key is not None]
    if not keys:
        return None
    stored = {e.key: e for e in BattleEvent.objects.filter(battle_id=battle_id, key__in=keys)}
    if not stored:
        return None
    if len(stored) != len(events):
        raise Conflict("Часть событий пакета уже записана с этими ключами: повторите пакет целиком или без них.",
                       "Some events of this batch are already stored under these keys: resend the whole batch "
                       "as it was, or without them.", field="events", code="idempotency_partial")
    for i, ev in enumerate(events):
        old = stored[ev.key]
        if old.type != ev.type or _without_service_rolls(_normalised(ev, ruleset)) != _without_service_rolls(old.data):
            raise Conflict(f"events[{i}].key: ключ уже использован для другого события (seq {old.seq}).",
                           f"events[{i}].key: the key was already used for a different event (seq {old.seq}).",
                           field=f"events[{i}].key", code="idempotency_conflict")
    return [stored[ev.key] for ev in events]


def _normalised(ev: NewEvent, ruleset: str | None = None) -> Any:
    """The payload as it would be stored (defaults filled, upcast), for comparing a retry."""
    try:
        data = fill_rolls(ev.type, ev.data, lambda sides: 1, ruleset=ruleset)
        return engine.dump(engine.lookup(ev.type, ruleset).parse(data, ev.schema_version))
    except engine.PayloadError:
        return ev.data


def _without_service_rolls(data: Any) -> Any:
    """Blank the faces the service rolled, so a retry (which asks for a roll
    again) compares equal to the stored event that has the roll."""
    if isinstance(data, dict):
        if data.get("source") == "rolled" and data.get("rng") == SERVICE_RNG:
            return {**data, "value": None}
        return {k: _without_service_rolls(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_without_service_rolls(v) for v in data]
    return data


def _secure_roll(sides: int) -> int:
    """Dice rolled by the service: a secure random source, recorded as rolled."""
    return secrets.randbelow(sides) + 1


@dataclass(frozen=True)
class _Meta:
    """What a cached state was decided under: the battle's rules snapshot (as
    stored, and as the JSON text sent back to the database to compare), the
    campaign's ruleset and the cache fingerprint."""

    rules: dict[str, Any] | None  # None before the first event: the append snapshots them
    rules_json: str
    ruleset: str
    fingerprint: str


class _StateCache:
    """The state after a battle's last committed append, kept by this process
    for its next append to the same battle (an aggregate snapshot cache).

    Keyed by (battle, head seq, rules fingerprint): the state after seq N of an
    append-only log under fixed rules data is fully determined, so a hit is
    always right. Entries are stored only after commit and taken (not copied)
    by the next append, which owns them from then on.
    """

    def __init__(self, size: int = 256, *, checkpoint_every: int = 0) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[int, str, engine.BattleState, Any]] = OrderedDict()
        self._lock = threading.Lock()
        # Checkpoints (docs/append.md): every ``checkpoint_every``-th kept state of a battle is also
        # written down as a pickle, which nobody owns or changes, so a locked append that finds the
        # entry taken (another thread of this process holds it, or a failed comparison dropped it)
        # starts from a copy of it and folds only the events after it, not from the projection
        # (which no worker may have advanced) and the whole log. A pickle, not the state's JSON:
        # half the cost to write (paid by every ``checkpoint_every``-th append) and a quarter to
        # read; it never leaves this process's memory, so nothing from outside is ever unpickled.
        self.checkpoint_every = checkpoint_every
        self._checkpoints: OrderedDict[int, tuple[int, str, bytes]] = OrderedDict()
        self._kept: dict[int, int] = {}

    def take(self, battle_id: int, seq: int, fingerprint: str) -> engine.BattleState | None:
        with self._lock:
            item = self._items.pop(battle_id, None)
        if item is None or item[0] != seq or item[1] != fingerprint:
            return None
        return item[2]

    def take_upto(self, battle_id: int, seq: int, fingerprint: str) -> engine.BattleState | None:
        """The cached state at ``seq`` or before it (the caller folds the log
        from its ``last_seq`` on): the state after seq k of an append-only log
        stays the state after seq k."""
        with self._lock:
            item = self._items.get(battle_id)
            if item is None or item[0] > seq or item[1] != fingerprint:
                return None
            del self._items[battle_id]
        return item[2]

    def take_current(self, battle_id: int) -> tuple[int, engine.BattleState, _Meta] | None:
        """The entry of a battle, whatever its seq, when it carries the rules
        data and ruleset it was decided under (the optimistic append checks
        them, and the seq, against the database in its one statement)."""
        with self._lock:
            item = self._items.get(battle_id)
            if item is None or item[3] is None:
                return None
            del self._items[battle_id]
        return item[0], item[2], item[3]

    def keep(self, battle_id: int, seq: int, fingerprint: str, state: engine.BattleState,
             meta: _Meta | None = None) -> None:
        text = None
        if self.checkpoint_every:
            with self._lock:
                kept = self._kept[battle_id] = self._kept.get(battle_id, 0) + 1
            if kept % self.checkpoint_every == 0:
                # Written while the state is still the caller's own: once kept, another thread may take it.
                text = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            self._items[battle_id] = (seq, fingerprint, state, meta)
            self._items.move_to_end(battle_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
            if text is not None:
                old = self._checkpoints.get(battle_id)
                if old is None or old[1] != fingerprint or old[0] <= seq:
                    self._checkpoints[battle_id] = (seq, fingerprint, text)
                self._checkpoints.move_to_end(battle_id)
                while len(self._checkpoints) > self.size:
                    gone, _ = self._checkpoints.popitem(last=False)
                    self._kept.pop(gone, None)

    def checkpoint(self, battle_id: int, seq: int, fingerprint: str) -> engine.BattleState | None:
        """A new state (the caller's own) loaded from the battle's checkpoint at
        ``seq`` or before it, under the same rules; the caller folds the log
        from its ``last_seq`` on. ``None`` without one."""
        with self._lock:
            cp = self._checkpoints.get(battle_id)
        if cp is None or cp[0] > seq or cp[1] != fingerprint:
            return None
        return pickle.loads(cp[2])  # (this process's own bytes, written by ``keep``)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._checkpoints.clear()
            self._kept.clear()


STATE_CACHE = _StateCache(checkpoint_every=32)
# The replay worker's own: the state after its last replay of each battle (never shared with appends).
REPLAY_CACHE = _StateCache()


def _fingerprint(rules: dict[str, Any]) -> str:
    return json.dumps(rules, sort_keys=True, default=str)


class _RulesSnapshot:
    """This process's copy of ``rules_settings()`` (v11.2) with the
    ``RulesDataVersion`` it was read at. A battle's first optimistic append
    uses it without reading the three tables; its statement stores it only if
    the version row still says the same (the triggers advance the row in
    every transaction that changes the rules data), so a battle never keeps a
    snapshot older than the data at its first event. A failed statement
    forgets it. The version is read before the tables: a change committed
    between the two reads leaves a snapshot newer than its version, which the
    statement refuses, never the reverse."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value: tuple[int | None, _Meta] | None = None

    def get(self) -> tuple[int | None, _Meta]:
        with self._lock:
            value = self._value
        if value is not None:
            return value
        from .selectors import rules_settings

        version = RulesDataVersion.objects.filter(id=1).values_list("version", flat=True).first()
        if version is None and connection.vendor != "postgresql":  # no triggers there; never cached for appends
            RulesDataVersion.objects.get_or_create(id=1)
        elif version is None:  # lost (a flushed test database): recreated with a number never used before
            with connection.cursor() as cur:
                cur.execute(f"INSERT INTO {RulesDataVersion._meta.db_table} (id, version) "
                            "VALUES (1, nextval('shtab_rules_data_seq')) ON CONFLICT (id) DO NOTHING")
            version = RulesDataVersion.objects.filter(id=1).values_list("version", flat=True).first()
        rules = rules_settings()
        value = (version, _Meta(rules, json.dumps(rules), "v11.2", _fingerprint_of(rules, "v11.2")))
        with self._lock:
            self._value = value
        return value

    def forget(self) -> None:
        with self._lock:
            self._value = None


RULES_SNAPSHOT = _RulesSnapshot()


def _fingerprint_of(rules: dict[str, Any], ruleset: str) -> str:
    """The state cache key's rules part: the ruleset and its rules data."""
    return _fingerprint(rules) if ruleset == "v11.2" else f"{ruleset}:{_fingerprint(rules)}"


def _current_state(battle: Battle, rules: dict[str, Any], ruleset: str = "v11.2") -> Any:
    """The state after the battle's last event, owned by the caller: this
    process's cached state from its last append, or the stored projection plus
    whatever the log has beyond it (the worker may lag)."""
    fingerprint = _fingerprint_of(rules, ruleset)
    cached = STATE_CACHE.take_upto(battle.id, battle.head_seq, fingerprint)
    if cached is None:  # taken by another thread of this process: its last checkpoint, when close
        cached = STATE_CACHE.checkpoint(battle.id, battle.head_seq, fingerprint)
        if cached is not None and battle.head_seq - cached.last_seq > CHECKPOINT_REACH:
            cached = None  # far behind: the projection is likely closer
    if cached is not None:
        if cached.last_seq >= battle.head_seq:
            return cached
        return _fold_log(battle.id, cached, rules, upto=battle.head_seq, ruleset=ruleset)[0]
    proj = BattleProjection.objects.filter(battle=battle).values_list("seq", "state", "engine_version").first()
    state = engine.new_state(ruleset)
    if proj and proj[2] == engine.engine_version(ruleset) and (proj[1] or {}).get("ruleset", "v11.2") == ruleset:
        state = engine.state_from_json(proj[1], ruleset)
    if state.last_seq >= battle.head_seq:
        return state
    return _fold_log(battle.id, state, rules, upto=battle.head_seq, ruleset=ruleset)[0]


# How far behind the head a checkpoint may be and still be folded forward instead of
# loading the projection (folding is about as fast per event as loading a state's JSON).
CHECKPOINT_REACH = 500


def _fold_log(battle_id: int, state: Any, rules: dict[str, Any],
              upto: int | None = None, ruleset: str = "v11.2",
              effects: dict[int, list[dict[str, Any]]] | None = None) -> tuple[Any, bool]:
    """Fold the log's events after ``state`` into it, chunk by chunk. Returns
    the state and whether it had to be refolded from the first event (a
    correction voided something ``state`` had already applied, V-TURN-13).
    ``effects`` receives each folded event's outcome (``engine.effects``)."""
    # Every seq voided anywhere in the log, so chunks fold like one pass.
    skip = battle_voided_seqs(battle_id=battle_id, upto=upto)
    refold = bool(state.last_seq) and any(s <= state.last_seq for s in skip - set(state.voided))
    if refold:
        state = engine.new_state(ruleset)
        if effects is not None:
            effects.clear()
    chunk = settings.SHTAB["REPLAY_CHUNK"]
    # ``state`` is the caller's own (fresh from JSON or new): fold in place, no copy per chunk.
    for events in iter_engine_events(battle_id=battle_id, after=state.last_seq, upto=upto, chunk=chunk):
        state = engine.fold(events, state, rules, skip=skip, copy=False, ruleset=ruleset, effects=effects)
    return state, refold


def _advance(battle_id: int, head: int, n: int) -> int:
    """Move the battle's head and reserve ``n`` global positions; on PostgreSQL
    in one round trip. Returns the last reserved position."""
    if connection.vendor != "postgresql":
        Battle.objects.filter(pk=battle_id).update(head_seq=head)
        return _next_positions(n)
    battles, positions = Battle._meta.db_table, LogPosition._meta.db_table
    with connection.cursor() as cur:
        # The battle row is already locked by this transaction; the position row is locked last.
        cur.execute(f"WITH h AS (UPDATE {battles} SET head_seq = %s WHERE id = %s) "
                    f"UPDATE {positions} SET position = position + %s WHERE id = 1 RETURNING position",
                    [head, battle_id, n])
        row = cur.fetchone()
    return row[0] if row is not None else _next_positions(n)


def _next_positions(n: int) -> int:
    """Reserve ``n`` global positions; returns the last one. Takes the
    LogPosition row lock, held until commit (see LogPosition)."""
    table = LogPosition._meta.db_table
    events = BattleEvent._meta.db_table
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {table} SET position = position + %s WHERE id = 1 RETURNING position", [n])
        row = cur.fetchone()
        if row is None:
            # The migration creates the row; if it was lost, restart after the log's highest position.
            cur.execute(f"INSERT INTO {table} (id, position) SELECT 1, COALESCE(MAX(position), 0) FROM {events} WHERE TRUE "
                        "ON CONFLICT (id) DO NOTHING")
            cur.execute(f"UPDATE {table} SET position = position + %s WHERE id = 1 RETURNING position", [n])
            row = cur.fetchone()
        return row[0]


def battle_event_append(
    *,
    battle_id: int,
    events: Sequence[NewEvent],
    expected_seq: int | None,
    recorded_by: Any = None,
    as_game_master: bool = False,
    role: Any = None,
) -> AppendResult:
    """Append a batch atomically: every event gets the next seq, or nothing is
    written. ``role`` (a ``battles.access.BattleRole``) is the recorder's place
    at the table, decided by the caller before the payload is read; trusted
    internal callers (mustering, the demo, benchmarks) pass
    ``as_game_master=True`` instead. Raises InvalidInput (400), Forbidden (403), NotFound (404),
    Conflict (409, stale ``expected_seq`` or key misuse) or RuleRefused (422).

    With a ``role``: the game master records anything; a participant records
    only the events his side records (``battles.engine.actors``), each checked
    against the state just before it; anyone else is refused before the batch
    is looked at. Without a role or ``as_game_master`` (internal callers
    only: every request-facing caller passes the role), corrections are
    refused.

    Two paths give the same answers (docs/append.md): on PostgreSQL, when this
    process holds the state after the battle's last append, the batch is
    decided against it and written by one statement that compares the head,
    the rules snapshot and the campaign in the database (``_append_optimistic``);
    anything else, or a comparison that fails, takes the locked path."""
    if role is not None and not role.may_record:
        raise Forbidden("Журнал боя записывают только его участники и мастер.",
                        "Only the battle's participants and the game master record its log.",
                        code="not_a_participant")
    if role is not None and role.is_game_master:
        as_game_master = True
    side = role.side if role is not None and not as_game_master else None
    if side is not None and any(_take_back(ev) for ev in events):
        _require_own_entries(battle_id, events, recorded_by)
    if side is not None and role is not None and role.shares_side:
        _require_own_pieces(battle_id, events, role)
    optimistic = OPTIMISTIC and connection.vendor == "postgresql"
    # A large batch outside a transaction, without a correction, is written while it is decided and its
    # data checked chunk by chunk (``_write_while_deciding``); any other batch, and any batch that path
    # gives back, is checked here, first.
    speculate = (optimistic and len(events) >= SPECULATE_MIN_EVENTS and not connection.in_atomic_block
                 and not any(ev.type == "correction" for ev in events) and _batch_shape_fine(events))
    if not speculate:
        _check_batch(events)
    if optimistic:
        result = _append_optimistic(battle_id, events, expected_seq, recorded_by, as_game_master, side,
                                    speculate=speculate)
        if result is not None:
            return result
        if speculate:
            _check_batch(events)  # what the batch's data gets wrong is answered before a stale expected_seq
        if expected_seq is not None:
            _refuse_stale_committed(battle_id, events, expected_seq)
    try:
        with transaction.atomic():
            result = _append_locked(battle_id, events, expected_seq, recorded_by, as_game_master, side)
            if result.created:
                transaction.on_commit(lambda: _schedule_replay(battle_id))
            return result
    except IntegrityError:
        # A concurrent request stored the same key between our check and insert
        # (only possible without expected_seq); answer as the retry it is.
        with transaction.atomic():
            replay = _replayed(battle_id, events)
        if replay is None:
            raise
        return AppendResult(replay, created=False)


# The optimistic one-statement append (PostgreSQL); off only to measure or debug the locked path.
OPTIMISTIC = True


def _stale(expected_seq: int, head: int) -> Conflict:
    return Conflict(
        f"expected_seq {expected_seq} устарел: последнее событие боя — {head}. Перечитайте журнал.",
        f"expected_seq {expected_seq} is stale: the battle's last event is {head}. Re-read the log.",
        field="expected_seq", code="stale_seq", extra={"current_seq": head},
    )


def _refuse_stale_committed(battle_id: int, events: Sequence[NewEvent], expected_seq: int) -> None:
    """A stale ``expected_seq`` answered from a committed read, without
    queueing for the battle's row lock: the head never goes back, so a head
    already past ``expected_seq`` stays past it. A batch whose keys are stored
    goes on to the locked path, which answers it as the retry it may be; so
    do an unknown battle, a finished campaign and an ``expected_seq`` ahead
    of the head (a commit may be landing)."""
    keys = [ev.key for ev in events if ev.key is not None]
    events_table, battles, campaigns = BattleEvent._meta.db_table, Battle._meta.db_table, Campaign._meta.db_table
    with connection.cursor() as cur:
        # A finished campaign is answered by the locked path (its 409 comes before a stale seq's there).
        cur.execute(f"SELECT b.head_seq, EXISTS (SELECT 1 FROM {events_table} e WHERE e.battle_id = b.id "
                    f"AND e.key = ANY(%s)) OR c.status = 'finished' FROM {battles} b "
                    f"JOIN {campaigns} c ON c.id = b.campaign_id WHERE b.id = %s", [keys, battle_id])
        row = cur.fetchone()
    if row is not None and not row[1] and expected_seq < row[0]:
        raise _stale(expected_seq, row[0])


def _require_own_pieces(battle_id: int, events: Sequence[NewEvent], role: Any) -> None:
    """With several players on a side, each records for the pieces of his own
    roster (and says «Ход» for himself); the game master records for anyone.
    Pieces keep the player they were mustered from, so the stored projection
    answers for them; a piece it does not know is left to the engine's checks."""
    from .models import BattleProjection

    state = BattleProjection.objects.filter(battle_id=battle_id).values_list("state", flat=True).first() or {}
    owners = {pid: x.get("player", "") for group in ("units", "fighters", "vehicles")
              for pid, x in (state.get(group) or {}).items() if x.get("side") == role.side}
    for i, ev in enumerate(events):
        data = ev.data if isinstance(ev.data, dict) else {}
        if ev.type == "player_done" and data.get("player") not in role.players:
            theirs = [data.get("player")]
        else:
            theirs = [p for p in engine.actors.acting_pieces(ev.type, data) if owners.get(p) not in ("", None)
                      and owners[p] not in role.players]
        if theirs:
            raise Forbidden(f"events[{i}]: это силы вашего товарища по стороне: каждый записывает за свой ростер, "
                            f"мастер — за любого.",
                            f"events[{i}]: these are your partner's pieces: each player records for his own roster, "
                            f"the game master for anyone.", field=f"events[{i}]", code="not_your_pieces")


def _take_back(ev: NewEvent) -> bool:
    return ev.type == "correction" and isinstance(ev.data, dict) and ev.data.get("side") is not None


def _require_own_entries(battle_id: int, events: Sequence[NewEvent], recorded_by: Any) -> None:
    """A player's take-back (a correction naming his side) voids an entry he
    recorded himself (V-TURN-13; the engine decides whether it is still his
    to take back). A correction without a side is the game master's: the
    recorder policy refuses it."""
    for i, ev in enumerate(events):
        if not _take_back(ev):
            continue
        seq = ev.data.get("voids_seq") if isinstance(ev.data, dict) else None
        by = (BattleEvent.objects.filter(battle_id=battle_id, seq=seq).values_list("recorded_by_id", flat=True).first()
              if type(seq) is int else None)
        if by is None or by != getattr(recorded_by, "pk", None):
            raise Forbidden(f"events[{i}].data.voids_seq: взять назад можно только свою запись; остальные отменяет "
                            f"мастер (V-TURN-13).",
                            f"events[{i}].data.voids_seq: you may take back only an entry you recorded; the game "
                            f"master voids the others (V-TURN-13).",
                            field=f"events[{i}].data.voids_seq", code="not_your_entry")


def _refuse_game_master_only(events: Sequence[NewEvent], ruleset: str) -> None:
    for i, ev in enumerate(events):
        entry = engine.ruleset_of(ruleset).registry.get(ev.type) if isinstance(ev.type, str) else None
        if entry is not None and (entry.game_master_only or ev.type == "correction"):
            raise Forbidden(f"events[{i}].type: событие «{entry.title_ru}» может записать только мастер.",
                            f"events[{i}].type: only the game master may record «{entry.title_en}».",
                            field=f"events[{i}].type", code="game_master_only")


def _append_locked(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None,
                   recorded_by: Any, as_game_master: bool, side: str | None = None) -> AppendResult:
    keys = [ev.key for ev in events if ev.key is not None]
    qs = (Battle.objects.select_for_update(of=("self",)).select_related("campaign")
          .only("id", "head_seq", "rules", "campaign_id", "campaign__status", "campaign__ruleset").filter(pk=battle_id))
    if keys:  # the idempotency check rides on the locking query (one round trip)
        qs = qs.annotate(known=Exists(BattleEvent.objects.filter(battle=OuterRef("pk"), key__in=keys)))
    battle = qs.first()
    if battle is None:
        raise NotFound(f"Бой {battle_id} не найден.", f"Battle {battle_id} not found.", field="battle")
    if battle.campaign.status == "finished":
        raise Conflict("Кампания завершена: журналы её боёв закрыты.",
                       "The campaign is finished: its battle logs are closed.", code="campaign_finished")
    ruleset = battle.campaign.ruleset  # the campaign's ruleset picks the engine
    replay = _replayed(battle_id, events, ruleset) if getattr(battle, "known", False) else None
    if replay is not None:
        return AppendResult(replay, created=False)
    if expected_seq is not None and expected_seq != battle.head_seq:
        raise _stale(expected_seq, battle.head_seq)
    if not as_game_master and side is None:  # no role (internal callers): corrections stay the master's
        _refuse_game_master_only(events, ruleset)
    rules = battle_rules(battle=battle)
    state = _current_state(battle, rules, ruleset)
    first = battle.head_seq + 1
    try:
        decided, after = engine.decide_and_apply(
            state, [(ev.type, fill_rolls(ev.type, ev.data, _secure_roll, ruleset=ruleset), ev.schema_version)
                    for ev in events],
            first_seq=first, rules=rules,
            history=lambda: [e for chunk in iter_engine_events(battle_id=battle.id, upto=battle.head_seq) for e in chunk],
            authorize=None if side is None else _recorder_check(side, ruleset),
            ruleset=ruleset,
        )
    except (engine.RuleViolation, engine.PayloadError) as exc:
        raise from_engine(exc) from exc  # the half-applied state is dropped
    fingerprint = _fingerprint_of(rules, ruleset)
    meta = _Meta(rules, json.dumps(rules), ruleset, fingerprint)
    transaction.on_commit(lambda: STATE_CACHE.keep(battle.id, after.last_seq, fingerprint, after, meta))
    n = len(decided)
    if battle.rules is None:  # the first events: the battle keeps the rules data it is played under
        Battle.objects.filter(pk=battle.id).update(head_seq=battle.head_seq + n, rules=rules)
        last_position = _next_positions(n)
    else:
        last_position = _advance(battle.id, battle.head_seq + n, n)
    now = timezone.now()
    user_id = getattr(recorded_by, "pk", None)
    rows = [
        BattleEvent(battle_id=battle.id, seq=d.seq, position=last_position - n + 1 + i, type=d.type, data=d.data,
                    schema_version=d.version, recorded_by_id=user_id, recorded_at=now, key=ev.key)
        for i, (d, ev) in enumerate(zip(decided, events, strict=True))
    ]
    _insert_events(rows)
    if user_id is not None:
        for row in rows:  # the caller shows who recorded them: no query per row for it
            row.recorded_by = recorded_by
    return AppendResult(rows, created=True)


def _optimistic_sql(*, first: bool) -> str:
    """One statement: compare-and-swap the battle's head (with its rules
    snapshot, its campaign's status and ruleset), then take the global
    positions (the LogPosition row, locked after the battle row as on the
    locked path), then insert the rows from one JSON array. A failed
    comparison changes nothing and inserts no row. A lost LogPosition row
    leaves the positions NULL, which the NOT NULL column refuses, so the head
    never moves without its events. ``first``: the battle's first events,
    which also store its rules snapshot.

    A key already stored is refused by the unique index (battleevent_unique_key)
    as the row is inserted: the statement fails whole, nothing is written, and
    the locked path answers the retry. There is no lookup of the keys before:
    the planner, with statistics older than the battle, would check a generic
    plan's ``key = ANY(…)`` as a filter over every event of the battle
    (docs/append.md, "Seventh pass")."""
    battles, positions = Battle._meta.db_table, LogPosition._meta.db_table
    campaigns, versions = Campaign._meta.db_table, RulesDataVersion._meta.db_table
    return (
        f"WITH b AS (UPDATE {battles} SET head_seq = head_seq + %(n)s::int"
        + (", rules = %(rules)s::jsonb " if first else " ")
        + "WHERE id = %(id)s::bigint AND head_seq = %(head)s::int AND "
        + ("rules IS NULL " if first else "rules = %(rules)s::jsonb ")
        + (f"AND EXISTS (SELECT 1 FROM {versions} v WHERE v.id = 1 AND "
           "v.version IS NOT DISTINCT FROM %(rules_version)s::bigint) " if first else "")
        +
        f"AND EXISTS (SELECT 1 FROM {campaigns} c WHERE c.id = {battles}.campaign_id "
        f"AND c.status <> 'finished' AND c.ruleset = %(ruleset)s::text) RETURNING id), "
        f"p AS (UPDATE {positions} SET position = position + %(n)s::int "
        f"WHERE id = 1 AND EXISTS (SELECT 1 FROM b) RETURNING position) "
        + _insert_rows_sql(battle="b.id", source="b CROSS JOIN", join="LEFT JOIN p ON TRUE")
    )


def _insert_rows_sql(*, battle: str, source: str, offset: str = "", join: str = "", where: str = "") -> str:
    """The ``INSERT`` of the optimistic statements: the rows of ``%(rows)s`` (a JSON array of [type,
    data, schema version, key]), each at seq head + offset + i and position p.position - n + offset
    + i, ``p`` being the LogPosition row as this transaction advanced it."""
    q = connection.ops.quote_name
    events = BattleEvent._meta.db_table
    plus = f" + {offset}" if offset else ""
    return (
        f"INSERT INTO {events} (battle_id, seq, position, type, data, schema_version, recorded_by_id, "
        f"recorded_at, {q('key')}) "
        f"SELECT {battle}, %(head)s::int{plus} + r.i::int, p.position - %(n)s::int{plus} + r.i, "
        f"r.v->>0, r.v->1, (r.v->>2)::smallint, %(user)s::int, %(at)s::timestamptz, r.v->>3 "
        f"FROM {source} jsonb_array_elements(%(rows)s::jsonb) WITH ORDINALITY AS r(v, i) {join} {where}"
        f"RETURNING id, position"
    )


_OPTIMISTIC_SQL: list[str] = []


def _append_optimistic(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None,
                       recorded_by: Any, as_game_master: bool, side: str | None,
                       speculate: bool = False) -> AppendResult | None:
    """Decide against this process's state after the battle's last append and
    write in one statement; ``None`` sends the caller to the locked path (no
    cached state, an ``expected_seq`` other than the cached head, an engine or
    authorization refusal (answered there, against the state under the lock),
    or a comparison the database refused). Outside a transaction the one
    statement is the whole transaction: one round trip.

    ``speculate`` (a large batch, outside a transaction, without a
    correction, its data not checked yet): it is written while it is decided,
    its data checked chunk by chunk, and any doubt sends the batch back to the
    caller, which checks it whole and answers. Otherwise ``_check_batch`` has
    passed."""
    item = STATE_CACHE.take_current(battle_id)
    if item is None:
        return None
    head, state, meta = item
    ruleset, rules = meta.ruleset, meta.rules
    if not as_game_master and side is None:
        try:
            _refuse_game_master_only(events, ruleset)
        except Forbidden:  # answered on the locked path, after the checks that come first there
            STATE_CACHE.keep(battle_id, head, meta.fingerprint, state, meta)
            return None
    if expected_seq is not None and expected_seq < head:
        STATE_CACHE.keep(battle_id, head, meta.fingerprint, state, meta)  # untouched: leave it for the next
        return None
    if expected_seq is not None and expected_seq > head:
        # Another process appended: catch the state up from the log (no lock), then
        # compare against the head the client saw. Nothing to catch up before the first event.
        if rules is None:
            return None
        state = _fold_log(battle_id, state, rules, upto=expected_seq, ruleset=ruleset)[0]
        if state.last_seq != expected_seq:  # not committed (yet): the locked path answers
            return None
        head = expected_seq
    first = rules is None
    rules_version = None
    if first:  # the battle's first events: snapshot the rules data now, as the locked path does
        if ruleset == "v11.2":  # this process's snapshot, checked against the version row by the statement
            rules_version, meta = RULES_SNAPSHOT.get()
            rules = meta.rules
        else:
            rules = {}
            meta = _Meta(rules, json.dumps(rules), ruleset, _fingerprint_of(rules, ruleset))
    filled: list[tuple[str, Any, int | None]] = []

    def fill(lo: int, hi: int) -> list[tuple[str, Any, int | None]]:
        """Events ``lo``..``hi - 1`` with the service's dice rolled, after their data's checks."""
        text = _chunk_checked(events[lo:hi], ruleset) if speculate else None
        if speculate and text is None:
            for i in range(lo, hi):
                _check_event_input(i, events[i])
        if text is not None and '"rolled"' not in text:
            # No die of the chunk asks to be rolled (it would say "source": "rolled"): its data as sent,
            # which the parser only reads.
            chunk = [(ev.type, ev.data, ev.schema_version) for ev in events[lo:hi]]
        else:
            chunk = [(ev.type, fill_rolls(ev.type, ev.data, _secure_roll, ruleset=ruleset), ev.schema_version)
                     for ev in events[lo:hi]]
        filled.extend(chunk)
        return chunk

    def prepare(lo: int, hi: int) -> tuple[list[Any], str]:
        """Events ``lo``..``hi - 1`` of a batch written while it is decided, parsed, with the
        statement's rows text. First as sent: when the parsed rows' text vouches for the data
        (``_rows_vouch``), that is all, and the input is never encoded on its own; otherwise the
        data's checks, the service's dice and the parse as ``fill`` has them."""
        chunk = events[lo:hi]
        if _chunk_bounded(chunk, ruleset):
            sent = [(ev.type, ev.data, ev.schema_version) for ev in chunk]
            try:
                parsed = engine.parse_batch(sent, ruleset=ruleset)
            except engine.PayloadError:
                parsed = None
            if parsed is not None:
                text = _rows_json(parsed, keys[lo:hi])
                if _rows_vouch(text):
                    filled.extend(sent)
                    return parsed, text
        parsed = engine.parse_batch(fill(lo, hi), ruleset=ruleset)
        return parsed, _rows_json(parsed, keys[lo:hi])

    def decide(parsed: Any = None) -> tuple[list[engine.Event], Any]:
        return engine.decide_and_apply(
            state, filled, first_seq=head + 1, rules=rules,
            history=lambda: [e for chunk in iter_engine_events(battle_id=battle_id, upto=head) for e in chunk],
            authorize=None if side is None else _recorder_check(side, ruleset),
            ruleset=ruleset, parsed=parsed)

    now = timezone.now()
    user_id = getattr(recorded_by, "pk", None)
    keys = [ev.key for ev in events]
    n = len(events)
    params = {"n": n, "id": battle_id, "head": head, "rules": meta.rules_json, "ruleset": ruleset,
              "user": user_id, "at": now, "rows": None, "rules_version": rules_version}
    if not _OPTIMISTIC_SQL:
        _OPTIMISTIC_SQL.extend([_optimistic_sql(first=False), _optimistic_sql(first=True)])
    connection.ensure_connection()
    outer = connection.in_atomic_block
    sql = _OPTIMISTIC_SQL[first]
    if speculate:
        written = _write_while_deciding(sql, params, n, prepare, decide)
        if written is None:
            return None
        (decided, after), got = written
    else:
        fill(0, n)
        try:
            decided, after = decide()
        except (engine.RuleViolation, engine.PayloadError, Forbidden):
            return None  # the state is half-applied and dropped; the locked path decides and answers
        params["rows"] = _COMPACT.encode([[d.type, d.data, d.version, k] for d, k in zip(decided, keys, strict=True)])
        import psycopg

        try:
            got = None if outer else GROUP_COMMIT.execute(sql, params, battle_id)
            if got is None:  # inside a transaction, or the group failed: alone, on this connection
                with transaction.atomic() if outer else contextlib.nullcontext(), connection.wrap_database_errors:
                    with psycopg.Cursor(connection.connection) as cur:
                        cur.execute(sql, params, prepare=True)
                        got = cur.fetchall()
        except IntegrityError:  # (psycopg's, as Django's) a key already stored, or a lost LogPosition row:
            return None  # the locked path answers the retry, or recreates the row
    if len(got) != n:  # the head moved, the campaign finished or the rules changed: nothing was written
        if first:
            RULES_SNAPSHOT.forget()  # perhaps the rules data changed: read it again next time
        return None
    got.sort(key=lambda r: r[1])  # (id, position), in seq order

    def committed() -> None:
        STATE_CACHE.keep(battle_id, head + n, meta.fingerprint, after, meta)
        _schedule_replay(battle_id)

    if outer:
        transaction.on_commit(committed)
    else:
        committed()
    db = connection.alias
    return AppendResult(_stored_rows(recorded_by, db, battle_id, user_id, now, got, decided, keys), created=True)


# A batch of at least this many events is written while it is decided (``_write_while_deciding``);
# a smaller one is decided first and then written, through the group commit.
SPECULATE_MIN_EVENTS = 16
# The first rows sent with the compare-and-swap; each later statement carries up to twice the one before.
SPECULATE_FIRST_ROWS = 10


def _rows_json(parsed: Sequence[Any], keys: Sequence[str | None]) -> str:
    """The statement's ``rows``: [type, data, schema version, key] of each parsed event, as stored."""
    return _COMPACT.encode([[entry.name, data, entry.version, k]
                            for (entry, _payload, data), k in zip(parsed, keys, strict=True)])


def _chunks(n: int) -> list[tuple[int, int]]:
    """[lo, hi) bounds of the rows each statement carries: a small first one, so the database starts
    at once, then doubling, so parsing the next rows takes less time than inserting the last ones."""
    bounds, lo, size = [], 0, SPECULATE_FIRST_ROWS
    while lo < n:
        hi = min(n, lo + size)
        bounds.append((lo, hi))
        lo, size = hi, size * 2
    return bounds


def _more_rows_sql() -> str:
    """The rows after the first statement's, in the same transaction: their seqs follow the head the
    first statement compared, their positions the LogPosition row it advanced (this transaction's own
    update, locked until commit). Only if that statement moved the battle's head to head + n; if it
    did not (its comparison failed), nothing is inserted, or, should another process have moved the head
    to exactly that seq, the unique seq refuses the row and the transaction is rolled back."""
    battles, positions = Battle._meta.db_table, LogPosition._meta.db_table
    return _insert_rows_sql(
        battle="%(id)s::bigint", offset="%(offset)s::int", source=f"{positions} p CROSS JOIN",
        where=(f"WHERE p.id = 1 AND EXISTS (SELECT 1 FROM {battles} b WHERE b.id = %(id)s::bigint "
               f"AND b.head_seq = %(head)s::int + %(n)s::int) "))


_MORE_ROWS_SQL: list[str] = []


def _queue_command(raw: Any, command: bytes) -> None:
    """A command without parameters or rows (``BEGIN``, ``SET CONSTRAINTS``, ``COMMIT``, ``ROLLBACK``)
    queued in the connection's pipeline the way psycopg queues its own transaction commands: no
    cursor and no query conversion, a tenth of ``execute``'s cost. Its error, if any, is raised at the
    pipeline's sync, as ``execute``'s would be. ``execute`` where psycopg has no such method."""
    queue = getattr(raw, "_exec_command", None)
    if queue is None or raw._pipeline is None:
        raw.execute(command.decode())
        return
    raw.wait(queue(command))


def _write_while_deciding(sql: str, params: dict[str, Any], n: int,
                          prepare: Callable[[int, int], tuple[list[Any], str]],
                          decide: Callable[[Any], Any]) -> tuple[Any, list[tuple]] | None:
    """Write a large batch while it is parsed and decided, in one transaction
    down a pipeline: ``BEGIN`` and the optimistic statement with the first
    rows (``_chunks``), then each further chunk of rows checked and parsed
    (``prepare``: the data's caps and text, vouched for by the rows' own text
    or checked as sent, and the service's dice) and sent while the database
    inserts the last, then the engine's checks of the whole batch,
    then ``COMMIT`` (every check passed) or ``ROLLBACK`` (one refused: nothing
    is written, and the locked path decides again and answers; so does a
    payload the parser refuses). The rows stored are the parsed payloads'
    canonical dumps, the very values ``decide`` stores (the parsed batch is
    handed to it); the first statement's comparisons hold as alone, and the
    battle row and the LogPosition row stay locked until the ``COMMIT``, as
    alone. Returns ((events, state), the rows' (id, position)), or ``None`` for
    the locked path: a refusal, or a database error (rolled back)."""
    import psycopg
    from psycopg import pq

    bounds = _chunks(n)
    try:
        lo, hi = bounds[0]
        parsed, rows = prepare(lo, hi)
    except (engine.PayloadError, InvalidInput):
        return None  # the caller checks the batch whole, and the locked path answers, naming the field
    if not _MORE_ROWS_SQL:
        _MORE_ROWS_SQL.append(_more_rows_sql())
    more = _MORE_ROWS_SQL[0]
    raw = connection.connection
    decided = None
    try:
        with connection.wrap_database_errors:
            try:
                with raw.pipeline():
                    _queue_command(raw, b"BEGIN")
                    # The rows' foreign keys (deferred, as Django declares them) are checked by each
                    # statement, while the next rows are parsed, not by the COMMIT after the last.
                    _queue_command(raw, b"SET CONSTRAINTS ALL IMMEDIATE")
                    cursors = [psycopg.Cursor(raw)]
                    cursors[0].execute(sql, {**params, "rows": rows}, prepare=True)
                    try:  # the database works on the rows sent while the next ones are parsed
                        for lo, hi in bounds[1:]:
                            chunk, rows = prepare(lo, hi)
                            cur = psycopg.Cursor(raw)
                            cur.execute(more, {**params, "offset": lo, "rows": rows}, prepare=True)
                            cursors.append(cur)
                            parsed.extend(chunk)
                        decided = decide(parsed)
                    except (engine.RuleViolation, engine.PayloadError, Forbidden, InvalidInput):
                        _queue_command(raw, b"ROLLBACK")
                    else:
                        _queue_command(raw, b"COMMIT")
                if decided is None:
                    return None
                return decided, [row for cur in cursors for row in cur.fetchall()]
            finally:
                if raw.info.transaction_status != pq.TransactionStatus.IDLE:
                    raw.execute("ROLLBACK")  # a statement failed, so the pipeline skipped the COMMIT
    except (psycopg.Error, DatabaseError):
        log.info("a speculative append failed; the locked path decides it", exc_info=True)
        return None


class _Pending:
    __slots__ = ("sql", "params", "battle_id", "rows", "lead", "done")

    def __init__(self, sql: str, params: dict[str, Any], battle_id: int) -> None:
        self.sql, self.params, self.battle_id = sql, params, battle_id
        self.rows: list[tuple] | None = None  # None: not written by the group (run it alone)
        self.lead = False
        self.done = threading.Event()


class _GroupCommit:
    """Group commit of the optimistic statements of one process's threads
    (docs/append.md). Every commit holds the LogPosition row through its WAL
    flush, so appends commit one at a time; statements that arrive while one
    commit is in flight are sent together, by the first of them to arrive,
    as one transaction (one pipeline, one flush): the battle rows locked
    first in id order, then each append's own statement, which compares,
    takes its positions and inserts exactly as alone. A statement whose
    comparison fails returns no row and its append falls back as alone; if
    the group's transaction fails, every append in it runs alone."""

    LOCK_SQL = "SELECT id FROM {battles} WHERE id = ANY(%s) ORDER BY id FOR UPDATE"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: list[_Pending] = []
        self._busy = False
        self.groups = self.grouped = 0  # transactions of two or more appends, and the appends in them

    def execute(self, sql: str, params: dict[str, Any], battle_id: int) -> list[tuple] | None:
        """The statement's rows, or ``None`` when the caller must run it alone."""
        item = _Pending(sql, params, battle_id)
        with self._lock:
            self._queue.append(item)
            lead = not self._busy
            self._busy = True
        if not lead:
            item.done.wait()
            if not item.lead:
                return item.rows
        self._lead()
        return item.rows

    def _lead(self) -> None:
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            self._run(batch)
        finally:
            with self._lock:
                if self._queue:
                    self._queue[0].lead = True  # the next group's first statement sends it
                    self._queue[0].done.set()
                else:
                    self._busy = False
            for item in batch:
                if not item.lead:
                    item.done.set()
            for item in batch:
                item.lead = False

    def _run(self, batch: list[_Pending]) -> None:
        import psycopg

        if len(batch) == 1:  # the leader's own statement (it is always in its batch): alone; errors are its own
            with connection.wrap_database_errors:
                connection.ensure_connection()
                with psycopg.Cursor(connection.connection) as cur:
                    cur.execute(batch[0].sql, batch[0].params, prepare=True)
                    batch[0].rows = cur.fetchall()
            return
        try:
            with connection.wrap_database_errors:
                connection.ensure_connection()
                raw = connection.connection
                cursors = []
                with raw.pipeline(), raw.transaction():
                    # psycopg's own cursors, bound on the server and prepared: the connection's
                    # default (Django's ClientCursor) would send every statement as new text, which
                    # the database parses and plans each time.
                    psycopg.Cursor(raw).execute(self.LOCK_SQL.format(battles=Battle._meta.db_table),
                                                [sorted({i.battle_id for i in batch})], prepare=True)
                    for item in batch:
                        cur = psycopg.Cursor(raw)
                        cur.execute(item.sql, item.params, prepare=True)
                        cursors.append(cur)
                for item, cur in zip(batch, cursors, strict=True):
                    item.rows = cur.fetchall()
            self.groups += 1
            self.grouped += len(batch)
        except (psycopg.Error, IntegrityError, DatabaseError) as exc:
            # A key already stored (a client's retry, refused by the unique index) is expected; anything else is not.
            level = logging.INFO if isinstance(exc, (IntegrityError, psycopg.IntegrityError)) else logging.WARNING
            log.log(level, "a group commit of %s appends failed; each runs alone", len(batch), exc_info=True)
            for item in batch:
                item.rows = None


GROUP_COMMIT = _GroupCommit()


def _stored_rows(recorded_by: Any, db: str, battle_id: int, user_id: int | None, now: Any,
                 got: Sequence[tuple], decided: Sequence[engine.Event],
                 keys: Sequence[str | None]) -> list[BattleEvent]:
    """The stored events as model instances, without ``Model.__init__`` (its
    per-field work cost more than the insert): every concrete field is set
    from the decided event and its row's (id, position), and ``_state`` says
    stored, so ``AppendOnlyModel.save()`` refuses them."""
    new = BattleEvent.__new__
    out = []
    for (pk, position), d, k in zip(got, decided, keys, strict=True):
        row = new(BattleEvent)
        state = ModelState()
        state.adding = False
        state.db = db
        row.__dict__.update(_state=state, id=pk, battle_id=battle_id, seq=d.seq, position=position, type=d.type,
                            data=d.data, schema_version=d.version, recorded_by_id=user_id, recorded_at=now, key=k)
        if user_id is not None:
            row.recorded_by = recorded_by  # the caller shows who recorded them: no query per row
        out.append(row)
    return out


def _recorder_check(side: str, ruleset: str = "v11.2") -> Callable[[int, str, Any, Any], bool]:
    """A participant of ``side`` records his side's events and those the rules
    hand to him (``engine.actors``); anything else is 403 naming the event and
    who records it. Nothing is stored: the whole batch is refused."""

    def check(index: int, type_name: str, state: engine.BattleState, payload: Any) -> bool:
        try:
            return engine.authorize(state, type_name, payload, side=side, ruleset=ruleset)
        except engine.NotYours as exc:
            code = "game_master_only" if exc.allowed == "game_master" else "not_your_side"
            raise Forbidden(f"events[{index}]: {exc.message_ru}", f"events[{index}]: {exc.message_en}",
                            field=f"events[{index}].type", code=code,
                            extra={"index": index, "recorded_by": exc.allowed}) from None

    return check


_INSERT_FIELDS = ("battle_id", "seq", "position", "type", "data", "schema_version", "recorded_by_id",
                  "recorded_at", "key")


def _insert_events(rows: list[BattleEvent]) -> None:
    """One ``executemany`` of the batch: the same statement the database sees
    from a hand-written loader, without the ORM's per-value compilation
    (bulk_create cost more than the insert itself). Only the JSON payload and
    the timestamp need the field's adaptation; the rest are plain values. The
    rows are returned to the caller as stored and are never saved again."""
    meta = BattleEvent._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(n.removesuffix("_id")).column
                                                  if n.endswith("_id") else meta.get_field(n).column)
                        for n in _INSERT_FIELDS)
    marks = ", ".join(["%s"] * len(_INSERT_FIELDS))
    sql = f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) VALUES ({marks})"
    data_field, at_field = meta.get_field("data"), meta.get_field("recorded_at")
    at = at_field.get_db_prep_save(rows[0].recorded_at, connection)
    params = [(r.battle_id, r.seq, r.position, r.type, data_field.get_db_prep_save(r.data, connection),
               r.schema_version, r.recorded_by_id, at, r.key) for r in rows]
    if connection.vendor == "postgresql":
        # Server-side binding for this one statement (Django's default cursor
        # binds client-side, sending 100 distinct statements): psycopg sends
        # one prepared INSERT and the batch's parameters in a pipeline.
        import psycopg

        with psycopg.Cursor(connection.connection) as cur:
            cur.executemany(sql, params)
    else:
        with connection.cursor() as cur:
            cur.executemany(sql, params)
    for row in rows:
        row._state.adding = False  # stored: AppendOnlyModel.save() now refuses them


def _schedule_replay(battle_id: int) -> None:
    """Queue the battle's replay, coalesced: at most one pending per battle (``battles.replays``)."""
    from . import replays

    replays.schedule(battle_id)


# Called (after commit) with a battle id when a replay leaves the battle ended
# and its projection complete. The campaign app registers itself here, so the
# battle log never imports the campaign (which depends on it).
BATTLE_ENDED_HOOKS: list[Callable[[int], None]] = []


@dataclass(frozen=True)
class ReplayResult:
    battle_id: int
    seq: int
    applied: int
    written: bool
    rebuilt: bool


def battle_replay(*, battle_id: int, rebuild: bool = False) -> ReplayResult:
    """Fold the log into the battle's projection and store it with its seq in
    one transaction. Idempotent; concurrent runs never move it backwards."""
    battle = (Battle.objects.filter(pk=battle_id).select_related("campaign")
              .only("id", "head_seq", "rules", "campaign_id", "campaign__ruleset").first())
    if battle is None:
        return ReplayResult(battle_id, 0, 0, False, False)
    ruleset = battle.campaign.ruleset
    rules = battle_rules(battle=battle)
    proj = (BattleProjection.objects.filter(battle_id=battle_id)
            .values_list("seq", "state__ruleset", "engine_version").first())
    state = engine.new_state(ruleset)
    rebuilt = (rebuild or proj is None or proj[2] != engine.engine_version(ruleset)
               or (proj[1] or "v11.2") != ruleset)
    fingerprint = _fingerprint_of(rules, ruleset)
    if not rebuilt:
        # This worker's state after its last replay of the battle, when not behind the
        # stored projection, spares loading the stored state (the costly part of a replay).
        cached = REPLAY_CACHE.take_upto(battle_id, battle.head_seq, fingerprint)
        if cached is not None and cached.last_seq >= proj[0]:
            state = cached
        else:
            stored = BattleProjection.objects.filter(battle_id=battle_id).values_list("state", flat=True).first()
            state = engine.state_from_json(stored, ruleset)
    start = proj[0] if not rebuilt else 0
    effects: dict[int, list[dict[str, Any]]] = {}
    folded_from = state.last_seq  # outcomes up to here were stored with the state it came from
    state, refolded = _fold_log(battle_id, state, rules, ruleset=ruleset, effects=effects)
    rebuilt = rebuilt or refolded
    written = _projection_store(battle_id, state, allow_equal=rebuilt, engine_version=engine.engine_version(ruleset),
                                effects=effects, after=0 if rebuilt else folded_from)
    # Kept after the store: the state is the fold of the committed log up to its last_seq either way.
    transaction.on_commit(lambda: REPLAY_CACHE.keep(battle_id, state.last_seq, fingerprint, state))
    if written and state.status == "ended" and state.last_seq >= battle.head_seq:
        for hook in BATTLE_ENDED_HOOKS:
            transaction.on_commit(lambda hook=hook: hook(battle_id))
    return ReplayResult(battle_id, state.last_seq, state.last_seq - (0 if rebuilt else start), written, rebuilt)


def _projection_store(battle_id: int, state: Any, *, allow_equal: bool,
                      engine_version: int = engine.ENGINE_VERSION,
                      effects: dict[int, list[dict[str, Any]]] | None = None, after: int = 0) -> bool:
    """Store the state (never backwards) and, in the same transaction, the
    outcomes of the events folded after seq ``after`` (all of them again when
    ``after`` is 0: a rebuild)."""
    payload = engine.state_to_json(state)
    with transaction.atomic():
        qs = BattleProjection.objects.filter(battle_id=battle_id)
        qs = qs.filter(seq__lte=state.last_seq) if allow_equal else qs.filter(seq__lt=state.last_seq)
        updated = qs.update(seq=state.last_seq, state=payload, engine_version=engine_version,
                            updated_at=timezone.now())
        if not updated:
            if BattleProjection.objects.filter(battle_id=battle_id).exists():
                return False
            try:
                with transaction.atomic():
                    BattleProjection.objects.create(battle_id=battle_id, seq=state.last_seq, state=payload,
                                                    engine_version=engine_version)
            except IntegrityError:
                return False
        if effects is not None:
            _outcomes_store(battle_id, effects, after=after)
        return True


def _outcomes_store(battle_id: int, effects: dict[int, list[dict[str, Any]]], *, after: int) -> None:
    """The outcome rows are a projection too: replaced from ``after`` on."""
    BattleEventOutcome.objects.filter(battle_id=battle_id, seq__gt=after).delete()
    BattleEventOutcome.objects.bulk_create(
        [BattleEventOutcome(battle_id=battle_id, seq=seq, effects=found) for seq, found in sorted(effects.items())])


def battle_rules_reapply(*, battle_id: int) -> None:
    """The game master's explicit choice: replay a battle under today's rules
    data (its snapshot is replaced and its projection rebuilt)."""
    from .selectors import rules_settings

    Battle.objects.filter(pk=battle_id).update(rules=rules_settings())
    battle_replay(battle_id=battle_id, rebuild=True)


def projections_sweep() -> list[int]:
    """Queue a replay for every battle whose projection lags its log."""
    from .selectors import battles_lagging

    ids = list(battles_lagging().values_list("id", flat=True))
    for battle_id in ids:
        _schedule_replay(battle_id)
    return ids


def projections_rebuild(*, battle_id: int | None = None) -> list[ReplayResult]:
    ids = [battle_id] if battle_id is not None else list(Battle.objects.order_by("id").values_list("id", flat=True))
    return [battle_replay(battle_id=i, rebuild=True) for i in ids]
