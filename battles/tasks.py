"""Celery tasks: thin wrappers over the services. They take ids, not objects.

``acks_late`` + ``reject_on_worker_lost``: a task whose worker dies is
redelivered, and replay is idempotent, so redelivery is harmless. The beat
sweep requeues any battle whose projection still lags (a Redis outage or a
lost message loses nothing: the log is the truth). Appends queue replays
coalesced, at most one pending per battle (``battles.log.replays``).

A battle that ends is concluded in its campaign (``battles.results``); those
tasks keep the names they were queued under when they lived in campaign.tasks.
"""
import logging

from celery import shared_task
from django.db import OperationalError

from . import results, services
from .log import replays


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def replay_battle(battle_id: int, rebuild: bool = False) -> dict:
    replays.started(battle_id)  # before the log is read: appends from now on queue the next replay
    r = services.battle_replay(battle_id=battle_id, rebuild=rebuild)
    return {"battle": r.battle_id, "seq": r.seq, "written": r.written, "rebuilt": r.rebuilt}


@shared_task(acks_late=True)
def sweep_lagging_projections() -> list[int]:
    return services.projections_sweep()


@shared_task(name="campaign.tasks.conclude_battle", acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def conclude_battle(battle_id: int) -> int:
    return len(results.battle_conclude(battle_id=battle_id))


@shared_task(name="campaign.tasks.sweep_unconcluded_battles", acks_late=True)
def sweep_unconcluded_battles() -> list[int]:
    """Conclude every ended battle the campaign has not recorded yet (a lost message)."""
    ids = results.battles_unconcluded()
    for battle_id in ids:
        conclude_battle.delay(battle_id)
    return ids


def conclude_battle_queue(battle_id: int) -> None:
    """A ``BATTLE_ENDED_HOOKS`` entry (registered by ``battles.apps``): queue the conclusion."""
    try:
        conclude_battle.delay(battle_id)
    except Exception:  # broker down: the sweep concludes it later
        logging.getLogger(__name__).exception("could not queue conclusion of battle %s", battle_id)
