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

Each notification says where the battle now is (migration 0016: ``<id>:h<head
seq>`` from an entry, ``<id>:s<projection seq>`` from an outcome), so a woken
request knows without reading the battle again; a waiter told nothing (the
listener lost the database meanwhile) reads it.

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



class Watch(threading.Event):
    """Set when its battle moves, with what the notifications said: the
    highest head and projection seqs told (``None`` until one is), and
    ``lost`` when the listener lost the database meanwhile (moves may have
    gone untold: read the battle again)."""

    def __init__(self) -> None:
        super().__init__()
        self.head: int | None = None
        self.state: int | None = None
        self.lost = False

    def told(self, head: tuple[int, int]) -> tuple[int, int]:
        """``head`` (head seq, projection seq) as read, moved on by what the notifications told since."""
        return max(head[0], self.head or 0), max(head[1], self.state or 0)


_lock = threading.Lock()
_waiting: dict[int, set[Watch]] = {}
_listener: threading.Thread | None = None
_stopping = threading.Event()
_listening = threading.Event()  # set while the listener's LISTEN is in force


def available() -> bool:
    """Whether a live request may wait here (the setting, and PostgreSQL to tell it)."""
    return settings.LIVE_WAIT_SECONDS > 0 and connection.vendor == "postgresql"


@contextmanager
def watching(battle_id: int) -> Iterator[Watch]:
    """A ``Watch`` set when ``battle_id`` moves, registered before the caller
    reads the battle: a move between that read and ``park`` is not missed."""
    moved = Watch()
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


def _wake(battle_id: int | None, *, head: int | None = None, state: int | None = None) -> None:
    """Wake the waiters of ``battle_id``, telling them the ``head`` or the
    ``state`` seq it moved to; every waiter (``None``), told nothing."""
    with _lock:
        groups = list(_waiting.values()) if battle_id is None else [_waiting.get(battle_id, ())]
        for waiters in groups:
            for moved in waiters:
                if head is not None:
                    moved.head = max(moved.head or 0, head)
                if state is not None:
                    moved.state = max(moved.state or 0, state)
                if head is None and state is None:
                    moved.lost = True
                moved.set()  # (after what it tells: a waiter clears, then reads it)


def _heard(payload: str) -> None:
    """Wake the waiters of the battle a notification names (``<id>:h<seq>``,
    ``<id>:s<seq>``; a bare ``<id>`` tells no seq)."""
    battle, _, told = payload.partition(":")
    if not battle.isdigit():
        return
    seq = int(told[1:]) if told[1:].isdigit() else None
    _wake(int(battle), head=seq if told[:1] == "h" else None, state=seq if told[:1] == "s" else None)


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
                        _heard(note.payload)
        except Exception:  # the database went away: look again in a second, the waiters poll meanwhile
            logger.warning("battle-moved listener lost its connection", exc_info=True)
            time.sleep(1.0)
        finally:
            _listening.clear()
        _wake(None)


def listening(timeout: float) -> bool:
    """Whether this process's listener hears the database (waiting up to ``timeout`` for it to)."""
    return _listening.wait(timeout)
