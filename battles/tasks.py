"""Celery tasks: thin wrappers over the services. They take ids, not objects.

``acks_late`` + ``reject_on_worker_lost``: a task whose worker dies is
redelivered, and replay is idempotent, so redelivery is harmless. The beat
sweep requeues any battle whose projection still lags (a Redis outage or a
lost message loses nothing: the log is the truth). Appends queue replays
coalesced, at most one pending per battle (``battles.replays``).
"""
from celery import shared_task
from django.db import OperationalError

from . import replays, services


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def replay_battle(battle_id: int, rebuild: bool = False) -> dict:
    replays.started(battle_id)  # before the log is read: appends from now on queue the next replay
    r = services.battle_replay(battle_id=battle_id, rebuild=rebuild)
    return {"battle": r.battle_id, "seq": r.seq, "written": r.written, "rebuilt": r.rebuilt}


@shared_task(acks_late=True)
def sweep_lagging_projections() -> list[int]:
    return services.projections_sweep()
