"""Every write to the battle log and its projections goes through here.

``battle_event_append`` is the only way events enter the log (it decides who
may record, then hands the batch to ``battles.eventstore``); ``battle_replay``
is the only way projections change. Views, admin, commands and Celery tasks
all call these.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from battles import dice_commit, engine, replays
from battles.eventstore import AppendResult, NewEvent, append, fold_log
from battles.eventstore.cache import Entry, StateCache, rules_json
from campaign.models import Campaign
from config import metrics
from config.errors import ApplicationError, Conflict, Forbidden, InvalidInput

from .models import Battle, BattleEvent, BattleEventOutcome, BattleProjection
from .selectors import battle_rules, battles_lagging, rules_settings

log = logging.getLogger(__name__)

__all__ = ["AppendResult", "NewEvent", "ReplayResult", "battle_create", "battle_dice_commit", "battle_event_append",
           "battle_replay",
           "battle_rules_reapply", "projections_rebuild", "projections_sweep"]

def battle_create(*, campaign: Campaign, name: str, number: int | None = None, mission: str = "",
                  victory_conditions: str = "", objectives: Sequence[int] = (), turn_limit: int | None = None) -> Battle:
    """A new battle of the campaign, with its (empty) projection and its dice
    committed (``battle_dice_commit``). ``objectives`` are the campaign
    objectives at stake (V-TURN-7: mission and conditions)."""
    if campaign.status == "finished":
        raise Conflict("Кампания завершена.", "The campaign is finished.", code="campaign_finished")
    with transaction.atomic():
        if number is None:
            number = campaign.battles.count() + 1
        battle = battle_dice_commit(battle=Battle(campaign=campaign, name=name, number=number, mission=mission,
                                                  victory_conditions=victory_conditions, turn_limit=turn_limit))
        battle.save(force_insert=True)
        if objectives:
            found = list(campaign.objectives.filter(pk__in=objectives))
            if len(found) != len(set(objectives)):
                raise InvalidInput("objectives: объекты не из этой кампании.",
                                   "objectives: not objectives of this campaign.", field="objectives")
            battle.objectives.set(found)
        state = engine.new_state(campaign.ruleset)
        BattleProjection.objects.create(battle=battle, state=engine.state_to_json(state),
                                        engine_version=engine.engine_version(campaign.ruleset))
    return battle


def battle_dice_commit(*, battle: Battle) -> Battle:
    """Give a battle not yet saved its dice secret and commitment
    (``battles.dice_commit``): every battle has them from its creation, before
    any die is rolled. The caller saves it (``battle_create``, the admin's add
    form)."""
    if battle.pk is not None or battle.dice_secret:
        raise ValueError("battle_dice_commit: only a new battle is committed; a secret is never replaced.")
    battle.dice_secret = dice_commit.new_secret()
    battle.dice_commitment = dice_commit.commitment(battle.dice_secret)
    return battle


def battle_event_append(
    *,
    battle_id: int,
    events: Sequence[NewEvent],
    expected_seq: int | None,
    recorded_by: Any = None,
    as_game_master: bool = False,
    role: Any = None,
) -> AppendResult:
    """Append a batch atomically (``battles.eventstore.append``): every event
    gets the next seq, or nothing is written. ``role`` (a
    ``battles.access.BattleRole``) is the recorder's place at the table,
    decided by the caller before the payload is read; trusted internal callers
    (mustering, the demo, benchmarks) pass ``as_game_master=True`` instead.
    Raises InvalidInput (400), Forbidden (403), NotFound (404), Conflict (409,
    stale ``expected_seq`` or key misuse) or RuleRefused (422).

    With a ``role``: the game master records anything; a participant records
    only the events his side records (``battles.engine.actors``), each checked
    against the state just before it, and, when he shares his side, only for
    his own roster's pieces; a take-back only of his own entry. Anyone else is
    refused before the batch is looked at. Without a role or
    ``as_game_master`` (internal callers only), corrections are refused.
    Each call is counted by outcome (``config.metrics``: /metrics)."""
    try:
        result = _append(battle_id, events, expected_seq, recorded_by, as_game_master, role)
    except ApplicationError as exc:
        metrics.append_counted("stale" if exc.code == "stale_seq" else "refused")
        raise
    except Exception:
        metrics.append_counted("error")
        raise
    if result.created:
        metrics.append_counted("stored", len(result.events))
    else:
        metrics.append_counted("retry")
    return result


def _append(battle_id: int, events: Sequence[NewEvent], expected_seq: int | None, recorded_by: Any,
            as_game_master: bool, role: Any) -> AppendResult:
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
    return append(battle_id=battle_id, events=events, expected_seq=expected_seq, recorded_by=recorded_by,
                  side=side, game_master=as_game_master)


def _require_own_pieces(battle_id: int, events: Sequence[NewEvent], role: Any) -> None:
    """With several players on a side, each records for the pieces of his own
    roster (and says «Ход» for himself); the game master records for anyone.
    Pieces keep the player they were mustered from, so the stored projection
    answers for them; a piece it does not know is left to the engine's checks."""
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


# The replay worker's own: the state after its last replay of each battle (never shared with appends).
REPLAY_CACHE = StateCache()


def _schedule_replay(battle_id: int) -> None:
    """Queue the battle's replay, coalesced: at most one pending per battle (``battles.replays``)."""
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
    if not rebuilt:
        # This worker's state after its last replay of the battle, when not behind the
        # stored projection, spares loading the stored state (the costly part of a replay).
        cached = REPLAY_CACHE.take(battle_id)
        if (cached is not None and cached.ruleset == ruleset and cached.rules_json == rules_json(rules)
                and proj[0] <= cached.head <= battle.head_seq):
            state = cached.state
        else:
            stored = BattleProjection.objects.filter(battle_id=battle_id).values_list("state", flat=True).first()
            state = engine.state_from_json(stored, ruleset)
    start = proj[0] if not rebuilt else 0
    effects: dict[int, list[dict[str, Any]]] = {}
    folded_from = state.last_seq  # outcomes up to here were stored with the state it came from
    state, refolded = fold_log(battle_id, state, rules, ruleset=ruleset, effects=effects)
    rebuilt = rebuilt or refolded
    written = _projection_store(battle_id, state, allow_equal=rebuilt, engine_version=engine.engine_version(ruleset),
                                effects=effects, after=0 if rebuilt else folded_from)
    # Kept after the store: the state is the fold of the committed log up to its last_seq either way.
    entry = Entry(state.last_seq, rules, ruleset, state)
    transaction.on_commit(lambda: REPLAY_CACHE.keep(battle_id, entry))
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
    Battle.objects.filter(pk=battle_id).update(rules=rules_settings())
    battle_replay(battle_id=battle_id, rebuild=True)


def projections_sweep() -> list[int]:
    """Queue a replay for every battle whose projection lags its log."""
    ids = list(battles_lagging().values_list("id", flat=True))
    for battle_id in ids:
        _schedule_replay(battle_id)
    return ids


def projections_rebuild(*, battle_id: int | None = None) -> list[ReplayResult]:
    ids = [battle_id] if battle_id is not None else list(Battle.objects.order_by("id").values_list("id", flat=True))
    return [battle_replay(battle_id=i, rebuild=True) for i in ids]
