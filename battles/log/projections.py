"""The battle's projections: its state and each event's outcome, folded from
the log by the replay worker (``battle_replay``), never backwards, and
rebuilt from the log at will, identically (docs/append.md, "Projections").

Only the replay writes them; ``battles.log.replays`` queues it after every
append, and the sweep (``projections_sweep``) catches any battle left behind.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import JSONField, TextField, Value
from django.db.models.functions import Cast
from django.utils import timezone

from battles import engine
from battles.models import Battle, BattleEventOutcome, BattleProjection
from battles.selectors import battles_lagging, iter_engine_events, rules_settings, snapshot_rules
from campaign.models import Campaign

from . import replays
from .cache import Entry, StateCache, rules_json

# The replay worker's own: the state after its last replay of each battle (never shared with appends).
REPLAY_CACHE = StateCache()


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
    row = _one(_sql()["head"], [battle_id])  # (the battle, its campaign's ruleset, its projection)
    if row is None:
        return ReplayResult(battle_id, 0, 0, False, False)
    head, ruleset = row[0], row[2]
    rules = snapshot_rules(rules=_json(row[1]), ruleset=ruleset)
    text = rules_json(rules)
    proj = row[3:] if row[3] is not None else None
    state = engine.new_state(ruleset)
    rebuilt = (rebuild or proj is None or proj[2] != engine.engine_version(ruleset)
               or (proj[1] or "v11.2") != ruleset)
    if not rebuilt:
        # This worker's state after its last replay of the battle, when not behind the
        # stored projection, spares loading the stored state (the costly part of a replay).
        cached = REPLAY_CACHE.take(battle_id)
        if (cached is not None and cached.ruleset == ruleset and cached.rules_json == text
                and proj[0] <= cached.head <= head):
            state = cached.state
        else:
            stored = BattleProjection.objects.filter(battle_id=battle_id).values_list("state", flat=True).first()
            state = engine.state_from_json(stored, ruleset)
    start = proj[0] if not rebuilt else 0
    effects: dict[int, list[dict[str, Any]]] = {}
    folded_from = state.last_seq  # outcomes up to here were stored with the state it came from
    state, refolded = fold_log(battle_id, state, rules, ruleset=ruleset, effects=effects)
    rebuilt = rebuilt or refolded
    # (a replay that finds nothing past the stored projection, one that an append queued while the one
    # before it was already reading the log, has nothing to write)
    written = (rebuilt or state.last_seq > start) and projection_store(
        battle_id, state, allow_equal=rebuilt, engine_version=engine.engine_version(ruleset), effects=effects,
        after=0 if rebuilt else folded_from)
    # Kept after the store: the state is the fold of the committed log up to its last_seq either way.
    entry = Entry(state.last_seq, rules, ruleset, state, text)
    transaction.on_commit(lambda: REPLAY_CACHE.keep(battle_id, entry))
    if written and state.status == "ended" and state.last_seq >= head:
        for hook in BATTLE_ENDED_HOOKS:
            transaction.on_commit(lambda hook=hook: hook(battle_id))
    return ReplayResult(battle_id, state.last_seq, state.last_seq - (0 if rebuilt else start), written, rebuilt)


def projection_store(battle_id: int, state: Any, *, allow_equal: bool,
                     engine_version: int = engine.ENGINE_VERSION,
                     effects: dict[int, list[dict[str, Any]]] | None = None, after: int = 0) -> bool:
    """Store the state (never backwards) and, in the same transaction, the
    outcomes of the events folded after seq ``after`` (all of them again when
    ``after`` is 0: a rebuild)."""
    # The state as text, cast to the column's type (msgspec writes it; Django's JSONField would dump the dict
    # with ``json``, a millisecond of a replay's twenty on a battle of a few hundred events).
    text = engine.state_to_json_text(state)
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute(_sql()["update_equal" if allow_equal else "update"],
                        [state.last_seq, text, engine_version, connection.ops.adapt_datetimefield_value(timezone.now()),
                         battle_id, state.last_seq])
            updated = cur.rowcount
        if not updated:
            if BattleProjection.objects.filter(battle_id=battle_id).exists():
                return False
            try:
                with transaction.atomic():
                    BattleProjection.objects.create(
                        battle_id=battle_id, seq=state.last_seq, engine_version=engine_version,
                        state=Cast(Value(text, output_field=TextField()), JSONField()))
            except IntegrityError:
                return False
        if effects is not None:
            _outcomes_store(battle_id, effects, after=after)
        return True


def _outcomes_store(battle_id: int, effects: dict[int, list[dict[str, Any]]], *, after: int) -> None:
    """The outcome rows are a projection too: replaced from ``after`` on."""
    with connection.cursor() as cur:
        cur.execute(_sql()["outcomes_delete"], [battle_id, after])
        if effects:
            cur.executemany(_sql()["outcome_insert"], [(battle_id, seq, msgspec.json.encode(found).decode())
                                                        for seq, found in sorted(effects.items())])


def battle_rules_reapply(*, battle_id: int) -> None:
    """The game master's explicit choice: replay a battle under today's rules
    data (its snapshot is replaced and its projection rebuilt)."""
    Battle.objects.filter(pk=battle_id).update(rules=rules_settings())
    battle_replay(battle_id=battle_id, rebuild=True)


def projections_sweep() -> list[int]:
    """Queue a replay for every battle whose projection lags its log."""
    ids = list(battles_lagging().values_list("id", flat=True))
    for battle_id in ids:
        replays.schedule(battle_id)
    return ids


def projections_rebuild(*, battle_id: int | None = None) -> list[ReplayResult]:
    ids = [battle_id] if battle_id is not None else list(Battle.objects.order_by("id").values_list("id", flat=True))
    return [battle_replay(battle_id=i, rebuild=True) for i in ids]


def fold_log(battle_id: int, state: Any, rules: dict[str, Any], upto: int | None = None, ruleset: str = "v11.2",
             effects: dict[int, list[dict[str, Any]]] | None = None) -> tuple[Any, bool]:
    """Fold the log's events after ``state`` into it (in place). Returns the
    state and whether it had to be refolded from the first event (a correction
    among them voided something ``state`` had already applied, V-TURN-13).
    ``effects`` receives each folded event's outcome (``engine.effects``).

    What to skip comes from the events read: the corrections folded before
    are in ``state.voided`` already, and those among the new events void what
    the fold must skip (a correction is never voided, V-TURN-13)."""
    events = _events(battle_id, state.last_seq, upto)
    refold = bool(state.last_seq) and any(s <= state.last_seq for s in engine.voided_by(events))
    if refold:
        state = engine.new_state(ruleset)
        if effects is not None:
            effects.clear()
        events = _events(battle_id, 0, upto)
    if events:
        state = engine.fold(events, state, rules, skip=engine.voided_by(events), copy=False, ruleset=ruleset,
                            effects=effects)
    return state, refold


def _events(battle_id: int, after: int, upto: int | None) -> list[Any]:
    chunk = settings.SHTAB["REPLAY_CHUNK"]
    return [e for part in iter_engine_events(battle_id=battle_id, after=after, upto=upto, chunk=chunk) for e in part]


@functools.cache  # (built once a process: the replay's statements, which the ORM would compile at each call)
def _sql() -> dict[str, str]:
    """The replay's statements, in plain SQL: a replay of one event is a handful
    of small queries, and the ORM building them anew took most of its CPU
    (bench/HISTORY.md, "Issue 26, twentieth session")."""
    q = connection.ops.quote_name
    battles, campaigns = q(Battle._meta.db_table), q(Campaign._meta.db_table)
    projections, outcomes = q(BattleProjection._meta.db_table), q(BattleEventOutcome._meta.db_table)
    as_json = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
    ruleset = "p.state ->> 'ruleset'" if connection.vendor == "postgresql" else "JSON_EXTRACT(p.state, '$.ruleset')"
    update = (f"UPDATE {projections} SET seq = %s, state = {as_json}, engine_version = %s, updated_at = %s "
              f"WHERE battle_id = %s AND seq ")
    return {
        "head": (f"SELECT b.head_seq, b.rules, c.ruleset, p.seq, {ruleset}, p.engine_version FROM {battles} b "
                 f"JOIN {campaigns} c ON c.id = b.campaign_id LEFT JOIN {projections} p ON p.battle_id = b.id "
                 f"WHERE b.id = %s"),
        "update": update + "< %s",
        "update_equal": update + "<= %s",
        "outcomes_delete": f"DELETE FROM {outcomes} WHERE battle_id = %s AND seq > %s",
        "outcome_insert": f"INSERT INTO {outcomes} (battle_id, seq, effects) VALUES (%s, %s, {as_json})",
    }


def _one(sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()


def _json(value: Any) -> Any:
    """A JSON column's value as ``JSONField.from_db_value`` gives it (the backend may hand over its text)."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def stored_state(battle_id: int, ruleset: str) -> Any:
    """The battle's stored projection as a state (a new state when it is
    missing, or was folded by another engine version or ruleset)."""
    proj = BattleProjection.objects.filter(battle_id=battle_id).values_list("state", "engine_version").first()
    if proj and proj[1] == engine.engine_version(ruleset) and (proj[0] or {}).get("ruleset", "v11.2") == ruleset:
        return engine.state_from_json(proj[0], ruleset)
    return engine.new_state(ruleset)
