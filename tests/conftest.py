"""Fixtures shared by the whole suite.

Under CI=true the suite must run against PostgreSQL, Redis and a real Celery
worker process; anything missing fails the run. On a laptop it runs embedded
(SQLite, Celery eager), and the ``replay_worker`` fixture replays in-process.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session", autouse=True)
def _ci_requires_real_services(django_db_setup, django_db_blocker):
    """Fail, never skip: under CI the suite refuses SQLite and eager Celery."""
    if not CI:
        return
    from django.db import connection

    with django_db_blocker.unblock():
        assert connection.vendor == "postgresql", "CI=true: DATABASE_URL must point at PostgreSQL"
    assert not settings.CELERY_TASK_ALWAYS_EAGER, "CI=true: Celery must not run eagerly (set REDIS_URL)"
    import redis

    assert redis.Redis.from_url(settings.REDIS_URL).ping(), "CI=true: Redis must answer PING"


@pytest.fixture(scope="session", autouse=True)
def _flush_passes_append_only_triggers():
    """Django wipes the test database between transactional tests (flush), which
    the event log's triggers refuse. Only for that wipe, the table owner
    suspends the triggers; application code has no such path."""
    from django.core.management.commands import flush
    from django.db import connections

    from battles.db import append_only_suspended

    original = flush.Command.handle

    def handle(self, **options):
        from django.db import OperationalError

        from battles.log import store
        from battles.log.cache import STATE_CACHE
        from battles.log.projections import REPLAY_CACHE

        STATE_CACHE.clear()  # ids may be reused once the database is wiped
        store.rules_kept.cache_clear()
        REPLAY_CACHE.clear()
        for attempt in range(5):
            _drain_worker()  # the worker may still be replaying what the test appended
            try:
                with append_only_suspended(connections[options.get("database", "default")]):
                    return original(self, **options)
            except Exception as exc:  # flush wraps the deadlock in a CommandError
                if attempt == 4 or not isinstance(exc.__cause__ or exc.__context__, OperationalError):
                    raise
                time.sleep(0.5)

    flush.Command.handle = handle
    yield
    flush.Command.handle = original


_WORKERS: list = []


def _drain_worker(timeout: float = 15.0) -> None:
    """Wait until the real worker (if one runs) has nothing queued or running,
    so wiping the database never races a replay still in flight."""
    if not _WORKERS:
        return
    import redis

    from config.celery import app

    broker = redis.Redis.from_url(settings.REDIS_URL)

    def idle() -> bool:
        if broker.llen(settings.CELERY_TASK_DEFAULT_QUEUE):
            return False
        active = app.control.inspect(timeout=0.3).active() or {}
        return not any(active.values())

    _poll(idle, timeout)


# --- users and clients --------------------------------------------------------
def _user(username: str, group: str | None, **extra):
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user(username=username, password="pw-" + username, **extra)
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def game_master(db):
    return _user("master", "game_master", is_staff=True)


@pytest.fixture
def player(db):
    return _user("ivan", "player")


@pytest.fixture
def outsider(db):
    return _user("stranger", None)


def _client(user=None):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def anon_client():
    return _client()


@pytest.fixture
def gm_client(game_master):
    return _client(game_master)


@pytest.fixture
def player_client(player):
    return _client(player)


@pytest.fixture
def campaign(db):
    from campaign.models import Campaign

    return Campaign.objects.create(name="Тестовая кампания")


@pytest.fixture
def battle(campaign):
    from battles.services import battle_create

    return battle_create(campaign=campaign, name="Бой 1")


# --- players of a running campaign (the campaign and the card tests) -------------------------
@pytest.fixture
def make_player(db):
    """``make(username, rank)``: a player with a character of that rank (a Soviet one)."""
    from campaign import services
    from campaign.models import Nationality

    def make(username, rank="corporal"):
        user = _user(username, "player")
        character = services.character_create(owner=user, name=f"{username.title()}", rank=rank,
                                              nationality=Nationality.objects.get(code="su"))
        return user, character

    return make


@pytest.fixture
def running(campaign, game_master, make_player):
    """A running campaign: two attackers (sergeant, corporal), two defenders."""
    from campaign import services

    cast = {}
    for username, rank, side in [("petrov", "sergeant", "attacker"), ("sidorov", "corporal", "attacker"),
                                 ("hans", "lieutenant", "defender"), ("fritz", "corporal", "defender")]:
        user, character = make_player(username, rank)
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=game_master)
        cast[username] = (user, character)
    services.campaign_start(campaign=campaign, by=game_master)
    campaign.cast = cast
    return campaign


# --- the people at a battle's table ----------------------------------------------------
def enlist_at(battle, user, side: str, rank: str = "corporal"):
    """Seat ``user`` at ``battle``'s table for ``side``: a character of his, a
    participant row (what the game master sets up before mustering)."""
    from battles.models import BattleParticipant
    from campaign.models import Character, Nationality

    character = Character.objects.create(owner=user, name=f"{user.username.title()} ({side})", rank=rank,
                                         nationality=Nationality.objects.get(code="su"))
    BattleParticipant.objects.create(battle=battle, character=character, side=side)
    return character


@pytest.fixture
def enlist(db):
    return enlist_at


@pytest.fixture
def defender(battle, player):
    """The ``player`` (ivan) fights for the defender in ``battle``."""
    enlist_at(battle, player, "defender")
    return player


@pytest.fixture
def attacker(battle):
    user = _user("otto", "player")
    enlist_at(battle, user, "attacker")
    return user


@pytest.fixture
def defender_client(defender):
    return _client(defender)


@pytest.fixture
def attacker_client(attacker):
    return _client(attacker)


# --- the replay worker -----------------------------------------------------------
class EagerReplay:
    """Embedded mode: replays run in-process at commit; waiting just checks."""

    real = False

    def wait(self, battle_id: int, seq: int, timeout: float = 30.0):
        from battles.models import BattleProjection

        return _poll(lambda: BattleProjection.objects.filter(battle_id=battle_id, seq__gte=seq).first(), timeout)


class WorkerReplay(EagerReplay):
    real = True

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc


def _poll(fn, timeout: float):
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


@pytest.fixture(scope="session")
def replay_worker(django_db_setup, django_db_blocker):
    """A real Celery worker process on the test database when REDIS_URL is set
    (always under CI); otherwise the eager in-process replay."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield EagerReplay()
        return
    from django.db import connection

    from config.celery import app

    db = connection.settings_dict
    url = f"postgres://{db['USER'] or ''}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = dict(os.environ, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings.base", DB_CONN_MAX_AGE="0")
    app.connection_for_write().default_channel.queue_purge(settings.CELERY_TASK_DEFAULT_QUEUE)
    log = open(ROOT / ".pytest_cache" / "celery-worker.log", "w") if (ROOT / ".pytest_cache").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
         "-c", "2", "-l", "info", "--without-gossip", "--without-mingle", "-n", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        ok = _poll(lambda: proc.poll() is not None or bool(app.control.ping(timeout=0.5)), 60)
        assert proc.poll() is None and ok, "the Celery worker process did not start (see .pytest_cache/celery-worker.log)"
        _WORKERS.append(proc)
        yield WorkerReplay(proc)
    finally:
        _WORKERS.clear()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(autouse=True)
def _state_caches_start_empty():
    """A rolled-back test leaves its battle ids free for the next test (SQLite
    reuses them), while a state it cached after an executed on_commit would
    stay: every test starts with empty state caches, as a fresh process does."""
    from battles.log import store, tail
    from battles.log.cache import STATE_CACHE
    from battles.log.projections import REPLAY_CACHE

    STATE_CACHE.clear()
    REPLAY_CACHE.clear()
    store.rules_kept.cache_clear()
    tail.clear()
