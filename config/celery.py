"""The Celery app. Without REDIS_URL, tasks run eagerly in-process (see settings)."""
import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("shtab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _connections_as_around_a_request(sender=None, **kwargs):
    """A worker's task is to its database connections what a request is to the
    server's: Django's ``close_old_connections`` drops one that is older than
    CONN_MAX_AGE or broken (a PostgreSQL restart, a killed backend), before and
    after each task. Celery's own fixup, left to itself, closed every one after
    every task (``CELERY_DB_REUSE_MAX`` in the settings stops that). An eager
    task runs inside its caller, whose connection (maybe in a transaction) is
    the caller's."""
    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()
