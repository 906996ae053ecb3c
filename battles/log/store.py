"""The one way events enter a battle's log: ``append`` (docs/append.md).

Two implementations give the same answers:

* **locked** (the reference, and the only one on SQLite): lock the battle row,
  decide the batch against the state at its head, insert, commit.
* **optimistic** (PostgreSQL): decide without a lock, against the state this
  process kept after the battle's last append (``cache.STATE_CACHE``) or else
  the battle as read, and write with one statement that compares the head,
  the rules snapshot (or, for a first event, the rules data's version) and
  the campaign (compare-and-swap). Anything it cannot answer for certain
  (another head, a refusal, a failed comparison, a stored key) goes to the
  locked path, which answers.
"""
from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import msgspec
import psycopg
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max
from django.utils import timezone

from battles import access, engine
from battles.log import chain, dice_commit, replays
from battles.models import Battle, BattleEvent, LogPosition, RulesDataVersion
from battles.selectors import battle_rules, iter_engine_events, rules_snapshot
from campaign.models import Campaign
from config import rows
from config.errors import Conflict, Forbidden, NotFound, from_engine

from .cache import STATE_CACHE, Entry, rules_json
from .checks import NewEvent, check_batch, key_in_use, stored_retry
from .projections import fold_log, stored_state

OPTIMISTIC = True  # the optimistic path (PostgreSQL); off only to measure the locked path alone
# The rules data new battles snapshot, with its version, kept by this process: the optimistic statement stores it
# only while the version row holds that number; else the locked path reads the data anew, and ``cache_clear``
# lets the next first event read it too.
rules_kept = functools.cache(rules_snapshot)
# The columns of a stored event, as ``_rows`` hands them to ``Model.from_db``.
_FIELDS = ("id", "battle_id", "seq", "position", "type", "data", "schema_version", "recorded_by_id", "recorded_at",
           "key", "chain")


class AppendResult:
    """The stored events (``created``), or those a retry found stored; built as
    model instances when first read (most batch callers read none)."""

    def __init__(self, events: list[BattleEvent] | Callable[[], list[BattleEvent]], created: bool) -> None:
        self._events, self.created = events, created

    @cached_property
    def events(self) -> list[BattleEvent]:
        return self._events() if callable(self._events) else self._events


def append(*, battle_id: int, events: Sequence[NewEvent], expected_seq: int | None, recorded_by: Any = None,
           side: str | None = None, game_master: bool = False) -> AppendResult:
    """Append a batch atomically: every event gets the next seq, or nothing is
    written. ``side``: a participant's, each event checked against the state
    just before it (``engine.authorize``); ``game_master``: anything goes;
    neither (internal callers): anything but the game master's events.
    Raises InvalidInput (400), Forbidden (403), NotFound (404), Conflict (409:
    a stale ``expected_seq``, a misused key, a finished campaign) or
    RuleRefused (422)."""
    check_batch(events)
    if OPTIMISTIC and connection.vendor == "postgresql":
        result = _append_optimistic(battle_id, events, expected_seq, recorded_by, side, game_master)
        if result is not None:
            return result
    try:
        with transaction.atomic():
            return _append_locked(battle_id, events, expected_seq, recorded_by, side, game_master)
    except IntegrityError:
        # A concurrent request stored the same key between our check and insert: answer as the
        # retry it is; a key another recorder stored is refused naming nothing of his event.
        ruleset = Campaign.objects.filter(battles=battle_id).values_list("ruleset", flat=True).first() or "v11.2"
        with transaction.atomic():
            retry = stored_retry(battle_id, events, ruleset, **_retrier(recorded_by, side, game_master))
            taken = key_in_use(battle_id, events) if retry is None else None
        if taken is not None:
            raise taken from None
        if retry is None:
            raise
        return AppendResult(retry, created=False)


def _retrier(recorded_by: Any, side: str | None, game_master: bool) -> dict[str, Any]:
    """Whose stored keys make a retry (``checks.stored_retry``): his own for a participant, any else."""
    return {"anyone": game_master or side is None, "recorder_id": getattr(recorded_by, "pk", None)}


def _finished() -> Conflict:
    return Conflict("Кампания завершена: журналы её боёв закрыты.",
                    "The campaign is finished: its battle logs are closed.", code="campaign_finished")


def _battle_locked(battle_id: int) -> Battle | None:
    return (Battle.objects.select_for_update(of=("self",)).select_related("campaign")
            .only("id", "head_seq", "rules", "dice_secret", "dice_revealed_seq", "campaign_id", "campaign__status",
                  "campaign__ruleset")
            .filter(pk=battle_id).first())


def _append_locked(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None, recorded_by: Any,
                   side: str | None, game_master: bool) -> AppendResult:
    battle = _battle_locked(battle_id)
    if battle is None:
        raise NotFound(f"Бой {battle_id} не найден.", f"Battle {battle_id} not found.", field="battle")
    if battle.campaign.status == "finished":
        raise _finished()
    ruleset = battle.campaign.ruleset  # the campaign's ruleset picks the engine
    # The keys are looked up after the lock is held, by a statement of their own (one riding on the locking
    # query would read the snapshot taken before it waited, blind to an identical append committed meanwhile),
    # and only when the battle holds events: at head 0 no key is stored (a battle's first batch skips it).
    retry = (stored_retry(battle_id, events, ruleset, **_retrier(recorded_by, side, game_master))
             if battle.head_seq and any(ev.key is not None for ev in events) else None)
    if retry is not None:
        return AppendResult(retry, created=False)
    if expected_seq is not None and expected_seq != battle.head_seq:
        raise Conflict(f"expected_seq {expected_seq} устарел: последнее событие боя — {battle.head_seq}. Перечитайте "
                       f"журнал.", f"expected_seq {expected_seq} is stale: the battle's last event is {battle.head_seq}. "
                       f"Re-read the log.", field="expected_seq", code="stale_seq", extra={"current_seq": battle.head_seq})
    if not game_master and side is None:
        access.refuse_game_master_only(events, ruleset)
    at = _at_head(battle, battle_rules(battle=battle), ruleset)
    try:
        decided, after = _decide(at, events, side, battle_id)
    except (engine.RuleViolation, engine.PayloadError) as exc:
        raise from_engine(exc) from exc  # the half-applied state is dropped
    if battle.rules is None and connection.vendor != "postgresql":  # (PostgreSQL: ``_write`` stores them)
        Battle.objects.filter(pk=battle_id).update(rules=at.rules)  # the battle keeps the rules it is played under
    stored = _store(battle_id, at, decided, after, events, recorded_by)
    if stored is None:  # the battle row is locked: only its campaign can have changed since it was read
        raise _finished()
    return stored


def _store(battle_id: int, at: Entry, decided: Sequence[engine.Event], after: Any, events: Sequence[NewEvent],
           recorded_by: Any, version: int | None = None) -> AppendResult | None:
    """Chain and write the batch decided ``at`` the head (``_write``), keep the
    state after it once committed, and answer the stored events; ``None`` when
    the battle is not as the batch was decided against (nothing written)."""
    now, user_id, keys = timezone.now(), getattr(recorded_by, "pk", None), [ev.key for ev in events]
    head, key = at.head, at.dice_key
    chains = chain.links(at.chain, battle_id=battle_id, events=decided, keys=keys)
    # The batch's first ``battle_ended`` reveals the dice secret (no key: revealed already, or no secret).
    reveal = next((d.seq for d in decided if d.type == dice_commit.END), None) if key is not None else None
    got = _write(battle_id, head, at.rules_json, at.ruleset, decided, keys, chains, user_id, now, reveal, version)
    if len(got) != len(decided):
        return None
    entry = Entry(head + len(decided), at.rules, at.ruleset, after, at.rules_json, chains[-1],
                  None if reveal is not None else key)
    transaction.on_commit(lambda: _committed(battle_id, entry))  # (at once outside a transaction)
    return AppendResult(lambda: _rows(got, battle_id, decided, keys, chains, user_id, now, recorded_by), True)


def _head_chain(battle_id: int, head: int) -> str:
    """The chain of the event at ``head`` (the genesis before the first), read
    after the battle row is locked: a subquery riding on the locking query
    would read the snapshot taken before it waited (see the keys above)."""
    if head == 0:
        return chain.genesis(battle_id)
    stored = BattleEvent.objects.filter(battle_id=battle_id, seq=head).values_list("chain", flat=True).first()
    if stored is None:  # a row written around the store (or none at the head): nothing sound to chain to
        raise RuntimeError(f"Battle {battle_id}: the event at seq {head} has no chain; the log was written around "
                           f"the event store. Run `manage.py verify_log --battle {battle_id}`.")
    return stored


def _write(battle_id: int, head: int, rules_text: str, ruleset: str, decided: Sequence[engine.Event],
           keys: Sequence[str | None], chains: Sequence[str], user_id: int | None,
           now: Any, reveal: int | None, version: int | None = None) -> list[tuple[int, int]]:
    """Store the decided events after ``head``: the rows' (id, position) in seq order, or none when the battle
    is not as decided against (another head, other rules or, for its first events, a rules data ``version`` gone
    by, its campaign finished or of another ruleset). ``reveal`` (a ``battle_ended``'s seq) marks the dice secret
    revealed, unless it is. PostgreSQL: one statement (``_WRITE_SQL``) for both paths; SQLite (the locked path
    only, under the battle row's lock): the same steps in turn."""
    n = len(decided)
    if connection.vendor != "postgresql":
        Battle.objects.filter(pk=battle_id).update(head_seq=head + n, **(
            {} if reveal is None else {"dice_revealed_seq": reveal}))
        last = _take_positions(n)
        rows = BattleEvent.objects.bulk_create(
            BattleEvent(battle_id=battle_id, seq=d.seq, position=last - n + 1 + i, type=d.type, data=d.data,
                        schema_version=d.version, recorded_by_id=user_id, recorded_at=now, key=k, chain=c)
            for i, (d, k, c) in enumerate(zip(decided, keys, chains, strict=True)))
        return [(r.pk, r.position) for r in rows]
    rows = [[d.type, d.data, d.version, k, c] for d, k, c in zip(decided, keys, chains, strict=True)]
    params = (n, battle_id, head, rules_text, ruleset, user_id, now, reveal, version, msgspec.json.encode(rows).decode())
    with connection.wrap_database_errors:
        connection.ensure_connection()
        # psycopg's own cursor, bound on the server and prepared once per connection (Django's binds on the
        # client, so the database would parse and plan every append anew), its placeholders PostgreSQL's own.
        with psycopg.RawCursor(connection.connection) as cur:
            cur.execute(_WRITE_SQL, params, prepare=True)
            got = cur.fetchall()
    return sorted(got, key=lambda r: r[1])


def _committed(battle_id: int, entry: Entry) -> None:
    STATE_CACHE.keep(battle_id, entry)
    replays.schedule(battle_id)


def _decide(at: Entry, events: Sequence[NewEvent], side: str | None, battle_id: int) -> tuple[list[engine.Event], Any]:
    """The batch decided against the state ``at`` the head (folded in place), the service rolling the
    dice the batch asks it to (``dice_commit.service_rolls``)."""
    first, ruleset = at.head + 1, at.ruleset
    return engine.decide_and_apply(
        at.state, dice_commit.service_rolls(events, battle_id=battle_id, first_seq=first, ruleset=ruleset,
                                            key=at.dice_key),
        first_seq=first, rules=at.rules, ruleset=ruleset,
        history=lambda: [e for chunk in iter_engine_events(battle_id=battle_id, upto=at.head) for e in chunk],
        authorize=None if side is None else access.recorder_check(side, ruleset),
    )


def _at_head(battle: Battle, rules: dict[str, Any], ruleset: str) -> Entry:
    """The battle at its head, the caller's own: this process's cached state
    folded forward, or else the stored projection folded forward (the worker
    may lag), with the head's chain. Read without the lock (``_read``), the
    projection may be past the head the battle's row gave."""
    text, head = rules_json(rules), battle.head_seq
    cached, previous = STATE_CACHE.take(battle.id), None
    if cached is not None and cached.ruleset == ruleset and cached.head <= head and cached.rules_json == text:
        state, previous = cached.state, cached.chain if cached.head == head else None
    else:
        state = engine.new_state(ruleset) if head == 0 else stored_state(battle.id, ruleset)
    if state.last_seq < head:
        state = fold_log(battle.id, state, rules, upto=head, ruleset=ruleset)[0]
    return Entry(head, rules, ruleset, state, text, previous or _head_chain(battle.id, head), _dice_key(battle))


def _take_positions(n: int) -> int:
    """Reserve ``n`` global positions (SQLite, which writes one at a time); the
    last one. A lost LogPosition row restarts after the highest position."""
    if not LogPosition.objects.filter(pk=1).update(position=F("position") + n):
        top = BattleEvent.objects.aggregate(top=Max("position"))["top"] or 0
        LogPosition.objects.create(pk=1, position=top + n)
    return LogPosition.objects.values_list("position", flat=True).get(pk=1)


def _write_sql() -> str:
    """Compare-and-swap the battle's head (with its rules snapshot, which the
    first events store, and its campaign's status and ruleset), take the
    global positions (the LogPosition row, locked after the battle row), and
    insert the rows from one JSON array. A failed comparison changes nothing
    and inserts no row; a stored key fails the statement on the unique index."""
    battles, positions, campaigns = Battle._meta.db_table, LogPosition._meta.db_table, Campaign._meta.db_table
    # the parameters, in ``_write``'s order, as PostgreSQL's own placeholders (psycopg's ``RawCursor``)
    n, bid, head, rules, ruleset, user, at, reveal, version, rows = (f"${i}" for i in range(1, 11))
    events, versions = BattleEvent._meta.db_table, RulesDataVersion._meta.db_table
    return (
        f"WITH b AS (UPDATE {battles} SET head_seq = head_seq + {n}::int, rules = COALESCE(rules, {rules}::jsonb), "
        f"dice_revealed_seq = COALESCE(dice_revealed_seq, {reveal}::int) "
        f"WHERE id = {bid}::bigint AND head_seq = {head}::int "
        f"AND (rules = {rules}::jsonb OR rules IS NULL AND ({version}::bigint IS NULL OR EXISTS (SELECT 1 "
        f"FROM {versions} v WHERE v.id = 1 AND v.version = {version}::bigint))) "
        f"AND EXISTS (SELECT 1 FROM {campaigns} c WHERE c.id = {battles}.campaign_id "
        f"AND c.status <> 'finished' AND c.ruleset = {ruleset}::text) RETURNING id), "
        # (the migration creates the row; one lost, say to a flush, restarts after the highest position)
        f"p AS (INSERT INTO {positions} AS lp (id, position) "
        f"SELECT 1, COALESCE((SELECT MAX(position) FROM {events}), 0) + {n}::int FROM b "
        f"ON CONFLICT (id) DO UPDATE SET position = lp.position + {n}::int RETURNING position) "
        f"INSERT INTO {events} (battle_id, seq, position, type, data, schema_version, "
        f"recorded_by_id, recorded_at, \"key\", chain) "
        f"SELECT b.id, {head}::int + r.i::int, p.position - {n}::int + r.i, r.v->>0, r.v->1, "
        f"(r.v->>2)::smallint, {user}::int, {at}::timestamptz, r.v->>3, r.v->>4 "
        f"FROM b CROSS JOIN jsonb_array_elements({rows}::jsonb) WITH ORDINALITY AS r(v, i) CROSS JOIN p "
        f"RETURNING id, position"
    )


def _append_optimistic(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None, recorded_by: Any,
                       side: str | None, game_master: bool) -> AppendResult | None:
    """The batch decided against this process's cached state, or else the
    battle as read (``_read``), and written by one statement (outside a
    transaction, one round trip); ``None`` sends the caller to the locked
    path, which answers."""
    entry, version = STATE_CACHE.take(battle_id), None
    if entry is None:
        entry, version = _read(battle_id)
        if entry is None:
            return None
    unsure = entry.rules is None or entry.chain is None or (expected_seq is not None and expected_seq != entry.head)
    if not unsure and not game_master and side is None:
        try:
            access.refuse_game_master_only(events, entry.ruleset)
        except Forbidden:
            unsure = True
    if unsure:  # untouched: the locked path folds it forward (an entry on the kept rules data is never kept)
        if version is None:
            STATE_CACHE.keep(battle_id, entry)
        return None
    try:
        decided, after = _decide(entry, events, side, battle_id)
    except (engine.RuleViolation, engine.PayloadError, Forbidden):
        return None  # the state was folded in place and is dropped; the locked path decides and answers
    try:
        # A savepoint inside a caller's transaction, so a failed statement leaves it usable.
        with transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext():
            # (None: the head moved, the campaign finished or the rules changed; nothing was written)
            stored = _store(battle_id, entry, decided, after, events, recorded_by, version)
    except IntegrityError:  # a key already stored: the locked path answers
        return None
    if stored is None and version is not None:
        rules_kept.cache_clear()  # (maybe the rules data changed: the next first event reads it anew)
    return stored


def _read(battle_id: int) -> tuple[Entry | None, int | None]:
    """The battle read without a lock, as an entry at its head, with the
    rules data's version when its first events take this process's snapshot
    (``rules_kept``); no entry when the battle is not there to decide on
    (unknown, its campaign finished, its projection read past the head)."""
    battle = rows.with_parent(Battle, battle_id, "campaign")  # (one plain query, built once a process)
    if battle is None or battle.campaign.status == "finished":
        return None, None
    ruleset, rules, version = battle.campaign.ruleset, battle.rules, None
    if rules is None and ruleset == "v11.2":
        version, rules = rules_kept()
    at = _at_head(battle, battle_rules(battle=battle) if rules is None else rules, ruleset)
    return (at, version) if at.state.last_seq == battle.head_seq else (None, None)


def _dice_key(battle: Battle) -> bytes | None:
    return dice_commit.key(battle.dice_secret) if battle.dice_revealed_seq is None else None


_WRITE_SQL = _write_sql()


def _rows(got: Sequence[tuple[int, int]], battle_id: int, decided: Sequence[engine.Event],
          keys: Sequence[str | None], chains: Sequence[str], user_id: int | None, now: Any,
          recorded_by: Any) -> list[BattleEvent]:
    """The stored events as model instances (stored: ``AppendOnlyModel.save()`` refuses them)."""
    db = connection.alias
    out = []
    for (pk, position), d, k, c in zip(got, decided, keys, chains, strict=True):
        row = BattleEvent.from_db(db, _FIELDS, (pk, battle_id, d.seq, position, d.type, d.data, d.version, user_id,
                                                now, k, c))
        if user_id is not None:
            row.recorded_by = recorded_by
        out.append(row)
    return out
