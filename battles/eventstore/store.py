"""The one way events enter a battle's log: ``append`` (docs/append.md).

Two implementations give the same answers:

* **locked** (the reference, and the only one on SQLite): lock the battle row,
  decide the batch against the state at its head, insert, commit.
* **optimistic** (PostgreSQL): when this process holds the state after the
  battle's last append (``cache.STATE_CACHE``), decide against it without a
  lock and write with one statement that compares the head, the rules
  snapshot and the campaign (compare-and-swap). Anything it cannot answer
  for certain (no cached state, another head, a refusal, a failed
  comparison, a stored key) goes to the locked path, which answers.
"""
from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import psycopg
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from battles import chain, dice_commit, engine, replays
from battles.engine.dice import fill_rolls, fill_rolls_at
from battles.models import Battle, BattleEvent, BattleProjection, LogPosition
from battles.selectors import battle_rules, battle_voided_seqs, iter_engine_events
from campaign.models import Campaign
from config.errors import Conflict, Forbidden, NotFound, from_engine

from .cache import STATE_CACHE, Entry, rules_json
from .checks import NewEvent, check_batch, key_in_use, stored_retry

# The optimistic path (PostgreSQL); off only to measure the locked path alone.
OPTIMISTIC = True
# The columns of a stored event, as ``_rows`` hands them to ``Model.from_db``.
_FIELDS = ("id", "battle_id", "seq", "position", "type", "data", "schema_version", "recorded_by_id", "recorded_at",
           "key", "chain")


@dataclass(frozen=True)
class AppendResult:
    events: list[BattleEvent]
    created: bool  # False: every key was already stored, and these are the stored events (a retry)


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
    """Whose stored keys make a retry: a participant's own only; the game
    master's and trusted callers' any (``checks.stored_retry``)."""
    return {"anyone": game_master or side is None, "recorder_id": getattr(recorded_by, "pk", None)}


def stale(expected_seq: int, head: int) -> Conflict:
    return Conflict(
        f"expected_seq {expected_seq} устарел: последнее событие боя — {head}. Перечитайте журнал.",
        f"expected_seq {expected_seq} is stale: the battle's last event is {head}. Re-read the log.",
        field="expected_seq", code="stale_seq", extra={"current_seq": head},
    )


def _append_locked(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None, recorded_by: Any,
                   side: str | None, game_master: bool) -> AppendResult:
    keys = [ev.key for ev in events if ev.key is not None]
    battle = (Battle.objects.select_for_update(of=("self",)).select_related("campaign")
              .only("id", "head_seq", "rules", "dice_secret", "dice_revealed_seq", "campaign_id", "campaign__status",
                    "campaign__ruleset")
              .filter(pk=battle_id).first())
    if battle is None:
        raise NotFound(f"Бой {battle_id} не найден.", f"Battle {battle_id} not found.", field="battle")
    if battle.campaign.status == "finished":
        raise Conflict("Кампания завершена: журналы её боёв закрыты.",
                       "The campaign is finished: its battle logs are closed.", code="campaign_finished")
    ruleset = battle.campaign.ruleset  # the campaign's ruleset picks the engine
    # The keys are looked up after the lock is held, by a statement of their own: one that rode on
    # the locking query would read the snapshot taken before it waited, blind to a concurrent
    # identical append that committed meanwhile (which the engine would then refuse as a repeat).
    retry = stored_retry(battle_id, events, ruleset, **_retrier(recorded_by, side, game_master)) if keys else None
    if retry is not None:
        return AppendResult(retry, created=False)
    if expected_seq is not None and expected_seq != battle.head_seq:
        raise stale(expected_seq, battle.head_seq)
    if not game_master and side is None:
        _refuse_game_master_only(events, ruleset)
    rules = battle_rules(battle=battle)
    text = rules_json(rules)
    state, previous = _state_at_head(battle, rules, text, ruleset)
    head = battle.head_seq
    key = dice_commit.key(battle.dice_secret) if battle.dice_revealed_seq is None else None
    try:
        decided, after = _decide(state, events, head, rules, ruleset, side, battle_id, key)
    except (engine.RuleViolation, engine.PayloadError) as exc:
        raise from_engine(exc) from exc  # the half-applied state is dropped
    n = len(decided)
    if battle.rules is None and connection.vendor != "postgresql":  # (PostgreSQL: ``_write`` stores them)
        Battle.objects.filter(pk=battle_id).update(rules=rules)  # the battle keeps the rules it is played under
    now = timezone.now()
    user_id = getattr(recorded_by, "pk", None)
    keys = [ev.key for ev in events]
    chains = _chains(battle_id, _head_chain(battle_id, head) if previous is None else previous, decided, keys)
    reveal = _reveals(decided) if key is not None else None  # (no key: revealed already, or no secret)
    got = _write(battle_id, head, text, ruleset, decided, keys, chains, user_id, now, reveal)
    if len(got) != n:  # the battle row is locked: only its campaign can have changed since it was read
        raise Conflict("Кампания завершена: журналы её боёв закрыты.",
                       "The campaign is finished: its battle logs are closed.", code="campaign_finished")
    entry = Entry(head + n, rules, ruleset, after, text, chains[-1], None if reveal is not None else key)
    transaction.on_commit(lambda: _committed(battle_id, entry))
    return AppendResult(_rows(got, battle_id, decided, keys, chains, user_id, now, recorded_by), created=True)


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


def _chains(battle_id: int, previous: str, decided: Sequence[engine.Event], keys: Sequence[str | None]) -> list[str]:
    """Each decided event's chain (``chain.link``), after the head's ``previous``."""
    out = []
    for d, k in zip(decided, keys, strict=True):
        previous = chain.link(previous, battle_id=battle_id, seq=d.seq, type=d.type, schema_version=d.version,
                              data=d.data, key=k)
        out.append(previous)
    return out


def _reveals(decided: Sequence[engine.Event]) -> int | None:
    """The seq of the batch's first ``battle_ended``: storing it reveals the dice secret."""
    return next((d.seq for d in decided if d.type == dice_commit.END), None)


def _write(battle_id: int, head: int, rules_text: str, ruleset: str, decided: Sequence[engine.Event],
           keys: Sequence[str | None], chains: Sequence[str], user_id: int | None,
           now: Any, reveal: int | None) -> list[tuple[int, int]]:
    """Store the decided events after ``head``; the rows' (id, position) in seq
    order, or none when the battle is not as the caller decided it (another
    head, other rules, its campaign finished or of another ruleset). With
    ``reveal`` (a ``battle_ended``'s seq), the battle's dice secret is marked
    revealed from that seq, in the same write, unless it already is.

    On PostgreSQL one statement (``_WRITE_SQL``) compares, moves the head,
    takes the positions and inserts, for both paths: the locked path holds the
    battle row, so its comparison can only fail on the campaign. On SQLite
    (the locked path only) the same steps one by one."""
    n = len(decided)
    if connection.vendor != "postgresql":
        # (the locked path only: it read the battle row under its lock, unrevealed when ``reveal`` is given)
        Battle.objects.filter(pk=battle_id).update(head_seq=head + n, **(
            {} if reveal is None else {"dice_revealed_seq": reveal}))
        last = _take_positions(n)
        rows = BattleEvent.objects.bulk_create(
            BattleEvent(battle_id=battle_id, seq=d.seq, position=last - n + 1 + i, type=d.type, data=d.data,
                        schema_version=d.version, recorded_by_id=user_id, recorded_at=now, key=k, chain=c)
            for i, (d, k, c) in enumerate(zip(decided, keys, chains, strict=True)))
        return [(r.pk, r.position) for r in rows]
    params = {"n": n, "id": battle_id, "head": head, "rules": rules_text, "ruleset": ruleset, "user": user_id,
              "at": now, "reveal": reveal, "rows": msgspec.json.encode([[d.type, d.data, d.version, k, c] for d, k, c
                                                      in zip(decided, keys, chains, strict=True)]).decode()}
    with connection.wrap_database_errors:
        connection.ensure_connection()
        # psycopg's own cursor, bound on the server and prepared once per connection (Django's
        # binds on the client, so the database would parse and plan every append anew).
        with psycopg.Cursor(connection.connection) as cur:
            cur.execute(_WRITE_SQL, params, prepare=True)
            got = cur.fetchall()
    return sorted(got, key=lambda r: r[1])


def _committed(battle_id: int, entry: Entry) -> None:
    STATE_CACHE.keep(battle_id, entry)
    replays.schedule(battle_id)


def _decide(state: Any, events: Sequence[NewEvent], head: int, rules: dict[str, Any], ruleset: str,
            side: str | None, battle_id: int, key: bytes | None) -> tuple[list[engine.Event], Any]:
    """The batch decided against ``state`` (the state at ``head``, folded in place), the service
    rolling the dice the batch asks it to (``_rolled``)."""
    return engine.decide_and_apply(
        state, _rolled(events, head, ruleset, battle_id, key),
        first_seq=head + 1, rules=rules, ruleset=ruleset,
        history=lambda: [e for chunk in iter_engine_events(battle_id=battle_id, upto=head) for e in chunk],
        authorize=None if side is None else _recorder_check(side, ruleset),
    )


def _rolled(events: Sequence[NewEvent], head: int, ruleset: str, battle_id: int,
            key: bytes | None) -> list[tuple[Any, Any, int | None]]:
    """The batch with the dice it asks the service to roll filled: each derived
    from the battle's secret ``key`` and its place (battle, seq, path;
    ``battles.dice_commit``), or, with no secret to derive from (revealed, or
    a battle without one), drawn from ``secrets``. A ``battle_ended`` reveals
    the secret: no die after it in the batch is derived."""
    out = []
    for i, ev in enumerate(events):
        if ev.type == dice_commit.END:
            key = None
        if key is None:
            data = fill_rolls(ev.type, ev.data, _secure_roll, ruleset=ruleset)
        else:
            data = fill_rolls_at(ev.type, ev.data, _deriver(key, battle_id, head + 1 + i), ruleset=ruleset,
                                 rng=dice_commit.RNG)
        out.append((ev.type, data, ev.schema_version))
    return out


def _deriver(key: bytes, battle_id: int, seq: int) -> Callable[[int, tuple[str | int, ...]], int]:
    def roll(sides: int, path: tuple[str | int, ...]) -> int:
        return dice_commit.derive(key, battle_id=battle_id, seq=seq, path=path, sides=sides)

    return roll


def _secure_roll(sides: int) -> int:
    """Dice drawn by the service without a commitment: a secure random source, recorded as rolled."""
    return secrets.randbelow(sides) + 1


def _state_at_head(battle: Battle, rules: dict[str, Any], rules_text: str, ruleset: str) -> tuple[Any, str | None]:
    """The state after the battle's last event, the caller's own: this
    process's cached state folded forward, or else the stored projection
    folded forward (the worker may lag); with the head's chain when the
    cached entry is at the head (else ``None``: the caller reads it)."""
    entry = STATE_CACHE.take(battle.id)
    previous = None
    if (entry is not None and entry.ruleset == ruleset and entry.head <= battle.head_seq
            and entry.rules_json == rules_text):
        state = entry.state
        if entry.head == battle.head_seq:
            previous = entry.chain
    elif battle.head_seq == 0:  # a new battle: nothing to read
        return engine.new_state(ruleset), None
    else:
        proj = BattleProjection.objects.filter(battle=battle).values_list("state", "engine_version").first()
        state = engine.new_state(ruleset)
        if proj and proj[1] == engine.engine_version(ruleset) and (proj[0] or {}).get("ruleset", "v11.2") == ruleset:
            state = engine.state_from_json(proj[0], ruleset)
    if state.last_seq >= battle.head_seq:
        return state, previous
    return fold_log(battle.id, state, rules, upto=battle.head_seq, ruleset=ruleset)[0], previous


def fold_log(battle_id: int, state: Any, rules: dict[str, Any], upto: int | None = None, ruleset: str = "v11.2",
             effects: dict[int, list[dict[str, Any]]] | None = None) -> tuple[Any, bool]:
    """Fold the log's events after ``state`` into it (in place), chunk by chunk.
    Returns the state and whether it had to be refolded from the first event
    (a correction voided something ``state`` had already applied, V-TURN-13).
    ``effects`` receives each folded event's outcome (``engine.effects``)."""
    skip = battle_voided_seqs(battle_id=battle_id, upto=upto)  # every seq voided anywhere in the log
    refold = bool(state.last_seq) and any(s <= state.last_seq for s in skip - set(state.voided))
    if refold:
        state = engine.new_state(ruleset)
        if effects is not None:
            effects.clear()
    chunk = settings.SHTAB["REPLAY_CHUNK"]
    for events in iter_engine_events(battle_id=battle_id, after=state.last_seq, upto=upto, chunk=chunk):
        state = engine.fold(events, state, rules, skip=skip, copy=False, ruleset=ruleset, effects=effects)
    return state, refold


def _take_positions(n: int) -> int:
    """Reserve ``n`` global positions; returns the last one. Takes the
    LogPosition row lock, held until commit (see LogPosition)."""
    table, events = LogPosition._meta.db_table, BattleEvent._meta.db_table
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {table} SET position = position + %s WHERE id = 1 RETURNING position", [n])
        row = cur.fetchone()
        if row is None:  # the migration creates the row; if it was lost, restart after the highest position
            cur.execute(f"INSERT INTO {table} (id, position) SELECT 1, COALESCE(MAX(position), 0) FROM {events} "
                        "WHERE TRUE ON CONFLICT (id) DO NOTHING")
            cur.execute(f"UPDATE {table} SET position = position + %s WHERE id = 1 RETURNING position", [n])
            row = cur.fetchone()
    return row[0]


def _refuse_game_master_only(events: Sequence[NewEvent], ruleset: str) -> None:
    for i, ev in enumerate(events):
        entry = engine.ruleset_of(ruleset).registry.get(ev.type)
        if entry is not None and (entry.game_master_only or ev.type == "correction"):
            raise Forbidden(f"events[{i}].type: событие «{entry.title_ru}» может записать только мастер.",
                            f"events[{i}].type: only the game master may record «{entry.title_en}».",
                            field=f"events[{i}].type", code="game_master_only")


def _recorder_check(side: str, ruleset: str) -> Callable[[int, str, Any, Any], bool]:
    """A participant of ``side`` records his side's events and those the rules
    hand to him (``engine.actors``); anything else is 403 naming the event and
    who records it."""

    def check(index: int, type_name: str, state: engine.BattleState, payload: Any) -> bool:
        try:
            return engine.authorize(state, type_name, payload, side=side, ruleset=ruleset)
        except engine.NotYours as exc:
            code = "game_master_only" if exc.allowed == "game_master" else "not_your_side"
            raise Forbidden(f"events[{index}]: {exc.message_ru}", f"events[{index}]: {exc.message_en}",
                            field=f"events[{index}].type", code=code,
                            extra={"index": index, "recorded_by": exc.allowed}) from None

    return check


def _write_sql() -> str:
    """Compare-and-swap the battle's head (with its rules snapshot, which the
    first events store, and its campaign's status and ruleset), take the
    global positions (the LogPosition row, locked after the battle row), and
    insert the rows from one JSON array. A failed comparison changes nothing
    and inserts no row; a stored key fails the statement on the unique index."""
    battles, positions, campaigns = Battle._meta.db_table, LogPosition._meta.db_table, Campaign._meta.db_table
    events = BattleEvent._meta.db_table
    return (
        f"WITH b AS (UPDATE {battles} SET head_seq = head_seq + %(n)s::int, rules = COALESCE(rules, %(rules)s::jsonb), "
        f"dice_revealed_seq = COALESCE(dice_revealed_seq, %(reveal)s::int) "
        f"WHERE id = %(id)s::bigint AND head_seq = %(head)s::int "
        f"AND (rules = %(rules)s::jsonb OR rules IS NULL) "
        f"AND EXISTS (SELECT 1 FROM {campaigns} c WHERE c.id = {battles}.campaign_id "
        f"AND c.status <> 'finished' AND c.ruleset = %(ruleset)s::text) RETURNING id), "
        # (the migration creates the row; one lost, say to a flush, restarts after the highest position)
        f"p AS (INSERT INTO {positions} AS lp (id, position) "
        f"SELECT 1, COALESCE((SELECT MAX(position) FROM {events}), 0) + %(n)s::int FROM b "
        f"ON CONFLICT (id) DO UPDATE SET position = lp.position + %(n)s::int RETURNING position) "
        f"INSERT INTO {events} (battle_id, seq, position, type, data, schema_version, "
        f"recorded_by_id, recorded_at, \"key\", chain) "
        f"SELECT b.id, %(head)s::int + r.i::int, p.position - %(n)s::int + r.i, r.v->>0, r.v->1, "
        f"(r.v->>2)::smallint, %(user)s::int, %(at)s::timestamptz, r.v->>3, r.v->>4 "
        f"FROM b CROSS JOIN jsonb_array_elements(%(rows)s::jsonb) WITH ORDINALITY AS r(v, i) CROSS JOIN p "
        f"RETURNING id, position"
    )


def _append_optimistic(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None, recorded_by: Any,
                       side: str | None, game_master: bool) -> AppendResult | None:
    """The batch decided against this process's cached state and written by
    one statement (outside a transaction, one round trip); ``None`` sends the
    caller to the locked path, which answers."""
    entry = STATE_CACHE.take(battle_id)
    if entry is None:
        return None
    if entry.rules is None or entry.chain is None or (expected_seq is not None and expected_seq != entry.head):
        STATE_CACHE.keep(battle_id, entry)  # untouched: the locked path folds it forward
        return None
    if not game_master and side is None:
        try:
            _refuse_game_master_only(events, entry.ruleset)
        except Forbidden:
            STATE_CACHE.keep(battle_id, entry)
            return None
    head, n = entry.head, len(events)
    try:
        decided, after = _decide(entry.state, events, head, entry.rules, entry.ruleset, side, battle_id,
                                 entry.dice_key)
    except (engine.RuleViolation, engine.PayloadError, Forbidden):
        return None  # the state was folded in place and is dropped; the locked path decides and answers
    now = timezone.now()
    user_id = getattr(recorded_by, "pk", None)
    keys = [ev.key for ev in events]
    chains = _chains(battle_id, entry.chain, decided, keys)
    # (an entry without a key is a battle already revealed, or without a secret: nothing to mark)
    reveal = _reveals(decided) if entry.dice_key is not None else None
    try:
        # A savepoint inside a caller's transaction, so a failed statement leaves it usable.
        with transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext():
            got = _write(battle_id, head, entry.rules_json, entry.ruleset, decided, keys, chains, user_id, now,
                         reveal)
    except IntegrityError:  # a key already stored: the locked path answers
        return None
    if len(got) != n:  # the head moved, the campaign finished or the rules changed: nothing was written
        return None
    done = Entry(head + n, entry.rules, entry.ruleset, after, entry.rules_json, chains[-1],
                 None if reveal is not None else entry.dice_key)
    transaction.on_commit(lambda: _committed(battle_id, done))  # (at once outside a transaction)
    return AppendResult(_rows(got, battle_id, decided, keys, chains, user_id, now, recorded_by), created=True)


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
