"""Celery tasks of the campaign app. The notification tasks live in ``notify``
(Celery looks for tasks here). A battle's conclusion in its campaign is queued
by battles (``battles.tasks``, under the names ``campaign.tasks.*``).
"""
from .notify import notify_post, notify_send, prune_webhook_deliveries  # noqa: F401  (Celery looks for tasks here; these live in notify)
