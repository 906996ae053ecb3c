"""Celery tasks of the campaign app (ids in, services do the work)."""
from celery import shared_task
from django.db import OperationalError

from . import results


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


@shared_task(acks_late=True)
def notify(kind: str, object_id: int) -> int:
    """Build the notification (names, in the configured language) and queue
    its delivery to every configured channel."""
    from . import notify as notifications

    msg = notifications.message(kind, object_id)
    if msg is None:
        return 0
    payload = notifications.as_payload(msg)
    chans = notifications.channels()
    for channel in chans:
        notify_post.delay(channel, payload)
    return len(chans)


@shared_task(bind=True, acks_late=True, max_retries=None)
def notify_post(self, channel: str, payload: dict) -> bool:
    """Deliver to one channel; on a network error, a 429 or a 5xx, retried
    with exponential back-off (2, 4, 8… s) up to ``SHTAB["NOTIFY_RETRIES"]``
    times, then logged as an error: a dead channel never blocks or fails the
    write that caused the message. Embedded (eager) mode has no broker to
    schedule a retry on, so it tries again at once, in-process."""
    from django.conf import settings

    from . import notify as notifications

    limit = settings.SHTAB.get("NOTIFY_RETRIES", 5)
    eager = bool(self.request.is_eager)
    error: Exception | None = None
    for _attempt in range(limit + 1 if eager else 1):
        try:
            notifications.post(channel, payload)
            return True
        except notifications.DeliveryError as exc:
            error = exc
            if not exc.retry:
                break
            if not eager and self.request.retries < limit:
                raise self.retry(countdown=2 ** (self.request.retries + 1)) from exc
    notifications.log.error("notification %s to %s not delivered: %s", payload.get("kind"), channel, error)
    return False
