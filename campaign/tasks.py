"""Celery tasks of the campaign app (ids in, services do the work)."""
from celery import shared_task
from django.db import OperationalError

from . import results
from .notify import notify_post, notify_send  # noqa: F401  (Celery looks for tasks here; these live in notify)


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def conclude_battle(battle_id: int) -> int:
    return len(results.battle_conclude(battle_id=battle_id))


@shared_task(acks_late=True)
def sweep_unconcluded_battles() -> list[int]:
    """Conclude every ended battle the campaign has not recorded yet (a lost message)."""
    ids = results.battles_unconcluded()
    for battle_id in ids:
        conclude_battle.delay(battle_id)
    return ids
