"""The bench's own environment: PostgreSQL and Redis up, a fresh bench database,
Django configured and migrated.

``make bench`` must work on a fresh machine without any variables set, and must
never touch the development or test databases, so everything here is explicit:
``BENCH_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/shtab_bench``)
names a database this module drops and recreates on every run (the event
table's triggers refuse DELETE and TRUNCATE, so dropping it whole is the only
clean wipe). Appends queue their replay on Redis db 3 in the ``bench`` queue,
coalesced (``battles.log.replays``: at most one pending per battle, published by a
dispatcher thread after commit), which nobody consumes except the worker of
the projection_lag case, and which is purged at the end.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/shtab_bench"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
QUEUE = "bench"


def server_env() -> dict[str, str]:
    """The variables the bench process and its server process both run under."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL),
        "REDIS_URL": REDIS_URL,
        "CELERY_QUEUE": QUEUE,
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
    }


def _maintenance_url(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name:
        raise SystemExit(f"BENCH_DATABASE_URL {url!r} names no database")
    return urlunsplit(parts._replace(path="/postgres")), name


def _pg_connect(url: str):
    import psycopg

    return psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True, connect_timeout=5)


def ensure_postgres(url: str) -> None:
    import psycopg

    admin_url, _ = _maintenance_url(url)
    try:
        _pg_connect(admin_url).close()
        return
    except psycopg.OperationalError:
        pass
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    if not versions or not shutil.which("pg_ctlcluster"):
        raise SystemExit(f"PostgreSQL is not answering at {admin_url} and no local cluster to start was found")
    print(f"bench: starting PostgreSQL {versions[-1]} (pg_ctlcluster)", flush=True)
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main", "start"], check=True)
    for _ in range(50):
        try:
            _pg_connect(admin_url).close()
            return
        except psycopg.OperationalError:
            time.sleep(0.2)
    raise SystemExit(f"PostgreSQL did not come up at {admin_url}")


def ensure_redis() -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
        return
    except redis.ConnectionError:
        pass
    if not shutil.which("redis-server"):
        raise SystemExit("Redis is not answering at 127.0.0.1:6379 and redis-server is not installed")
    print("bench: starting Redis", flush=True)
    subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379",
                    "--save", "", "--appendonly", "no"], check=True)
    for _ in range(50):
        try:
            client.ping()
            return
        except redis.ConnectionError:
            time.sleep(0.1)
    raise SystemExit("Redis did not come up at 127.0.0.1:6379")


def recreate_database(url: str) -> None:
    from psycopg import sql

    admin_url, name = _maintenance_url(url)
    with _pg_connect(admin_url) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def setup() -> str:
    """Bring everything up and return the database URL. Call before importing models."""
    env = server_env()
    os.environ.update(env)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    url = env["DATABASE_URL"]
    ensure_postgres(url)
    ensure_redis()
    recreate_database(url)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    return url


def psycopg_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def clear_pending_flags() -> int:
    """Forget replays flagged as pending (``battles.log.replays``) by earlier cases,
    whose messages nobody consumed: the worker of the lag case starts clean."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter("shtab:replay-pending:*"))
    return client.delete(*keys) if keys else 0


def purge_queue() -> int:
    from config.celery import app

    with app.connection_for_write() as conn:
        return conn.default_channel.queue_purge(QUEUE) or 0
