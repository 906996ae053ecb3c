"""Every write to the battle log and its projections goes through here.

``battle_event_append`` is the only way events enter the log (it decides who
may record, then hands the batch to ``battles.log``); ``battle_replay``
is the only way projections change. Views, admin, commands and Celery tasks
all call these.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from battles import engine
from battles.log import dice_commit
from battles.log.checks import NewEvent
from battles.log.projections import (
    BATTLE_ENDED_HOOKS,
    ReplayResult,
    battle_replay,
    battle_rules_reapply,
    projections_rebuild,
    projections_sweep,
)
from battles.log.store import AppendResult, append
from campaign.models import Campaign
from config import metrics
from config.errors import ApplicationError, Conflict, Forbidden, InvalidInput

from .models import Battle, BattleEvent, BattleProjection

log = logging.getLogger(__name__)

# (the projections' services are the log's, re-exported: callers write through this one module)
__all__ = ["BATTLE_ENDED_HOOKS", "AppendResult", "NewEvent", "ReplayResult", "battle_create", "battle_dice_commit",
           "battle_event_append", "battle_replay", "battle_rules_reapply", "projections_rebuild", "projections_sweep"]


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
    (``battles.log.dice_commit``): every battle has them from its creation, before
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
    """Append a batch atomically (``battles.log.store.append``): every event
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
        metrics.append_counted("stored", len(events))  # (all of the batch, or nothing, is stored)
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
