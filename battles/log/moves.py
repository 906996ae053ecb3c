"""«The battle moved»: a battle page's live request waits for it instead of
asking again every second (issue 25, docs/append.md "Live pages").

PostgreSQL tells: the triggers of migration 0015 send ``NOTIFY
shtab_battle_moved`` with the battle's id when its head moves (an entry) or
its projection does (the worker told the outcome), delivered at commit. One
listener thread a process (``psycopg``'s ``notifies()`` on a connection of its
own) hears it and wakes the requests waiting on that battle; a lost
connection is opened again and wakes every waiter, so none sleeps through a
move. Nothing waits where the setting ``LIVE_WAIT_SECONDS`` is 0 or the
database is SQLite: the page then asks every second, as before.

A waiting request holds no database connection (``park`` closes it; under
``SHTAB_DB_POOL`` that returns it to the process's pool) and a server
thread; ``config.serve`` gives each process the threads for it.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.db import connection

CHANNEL = "shtab_battle_moved"
logger = logging.getLogger(__name__)

_lock = threading.Lock()
_waiting: dict[int, set[threading.Event]] = {}
_listener: threading.Thread | None = None
_stopping = threading.Event()
_listening = threading.Event()  # set while the listener's LISTEN is in force


def available() -> bool:
    """Whether a live request may wait here (the setting, and PostgreSQL to tell it)."""
    return settings.LIVE_WAIT_SECONDS > 0 and connection.vendor == "postgresql"


@contextmanager
def watching(battle_id: int) -> Iterator[threading.Event]:
    """An event set when ``battle_id`` moves, registered before the caller
    reads the battle: a move between that read and ``park`` is not missed."""
    moved = threading.Event()
    if available():
        _start()
        with _lock:
            _waiting.setdefault(battle_id, set()).add(moved)
    try:
        yield moved
    finally:
        with _lock:
            waiters = _waiting.get(battle_id)
            if waiters is not None:
                waiters.discard(moved)
                if not waiters:
                    del _waiting[battle_id]


def park(moved: threading.Event, seconds: float) -> bool:
    """Wait up to ``seconds`` for ``moved`` without holding a database
    connection; whether the battle moved."""
    connection.close()
    return moved.wait(seconds)


def pause(seconds: float) -> None:
    """Sleep ``seconds`` without holding a database connection."""
    connection.close()
    time.sleep(seconds)


def _wake(battle_id: int | None) -> None:
    """Wake the waiters of ``battle_id``, or every waiter (``None``)."""
    with _lock:
        groups = list(_waiting.values()) if battle_id is None else [_waiting.get(battle_id, ())]
        for waiters in groups:
            for moved in waiters:
                moved.set()


def _start() -> None:
    global _listener
    if _listener is not None and _listener.is_alive():
        return
    with _lock:
        if _listener is None or not _listener.is_alive():
            _stopping.clear()
            _listener = threading.Thread(target=_listen, args=(connection.get_connection_params(),),
                                         name="shtab-battle-moved", daemon=True)
            _listener.start()


def stop() -> None:
    """Stop this process's listener (the tests, before their database is dropped)."""
    global _listener
    _stopping.set()
    if _listener is not None:
        _listener.join(timeout=5)
    _listener = None


def _listen(params: dict) -> None:
    """LISTEN on a connection of its own; wake the waiters of each battle named."""
    while not _stopping.is_set():
        try:
            with psycopg.connect(**{**params, "autocommit": True}) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                _wake(None)  # a move while nobody listened: every waiter reads its battle again
                _listening.set()
                while not _stopping.is_set():
                    for note in conn.notifies(timeout=1.0):
                        if note.payload.isdigit():
                            _wake(int(note.payload))
        except Exception:  # the database went away: look again in a second, the waiters poll meanwhile
            logger.warning("battle-moved listener lost its connection", exc_info=True)
            time.sleep(1.0)
        finally:
            _listening.clear()
        _wake(None)


def listening(timeout: float) -> bool:
    """Whether this process's listener hears the database (waiting up to ``timeout`` for it to)."""
    return _listening.wait(timeout)
