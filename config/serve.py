"""The production HTTP server: granian serving ``config.wsgi`` (bench/HISTORY.md,
"Sixth pass: the server").

One place for the command, so the README's production shape, ``make serve``,
the bench's server and the test that runs it (``tests/test_server.py``) are
the same server with the same options::

    python -m config.serve [--host H] [--port P] [--workers W] [--threads T] [--connections C]

Defaults: ``SHTAB_SERVER_HOST`` (127.0.0.1), ``SHTAB_SERVER_PORT`` (8000),
``SHTAB_SERVER_WORKERS`` (2: one process per core of the club's 2-core machine,
the GIL making a process the unit of CPU; a process's threads leave the core to
each other while they wait on PostgreSQL. Four, two a core, were the default
until measured side by side on game night: 68 tables against 75, the pages'
p95 352–557 ms against 119–180 ms at 75 tables, bench/HISTORY.md, "Game night,
ninth session") and ``SHTAB_SERVER_THREADS`` (512
blocking threads a process at most, so 1,024 open pages in all as with four of 256, started as requests need them: a battle
page's live request waits in one until its battle moves, ``SHTAB_LIVE_WAIT``,
holding no database connection meanwhile; the process's threads share a pool
of ``SHTAB_DB_POOL`` connections). Measured side by side (bench/HISTORY.md,
"Live requests that wait"): game night served 75 tables against 68 with 4 × 1
threads and pages asking every second, the opponent's entry reaching an open
page in 0.3 s instead of 0.9 (p95), and the server spent 11–12 ms of CPU a
table-second instead of 15–18. granian parses HTTP
and keeps connections alive in Rust; the application runs in the blocking
threads and is handed each response's ``close()``, so Django's
``request_finished`` (connection recycling) runs as under any WSGI server.
Measured against gunicorn's gthread worker on the same layout, single-event
appends over HTTP went from 0.071–0.074 to 0.100–0.117 of raw inserts.

``SHTAB_SERVER_CONNECTIONS`` (4,096): the open connections a process holds
(granian's ``--backpressure``). Granian takes a permit for each connection it
accepts and keeps it for as long as the connection stays open, and left to
itself allows backlog ÷ workers, 512 a process here. An open battle page holds
two keep-alive connections (its live request waits on one), so at 200 tables
of two players and an onlooker 1,200 connections asked for 1,024 places: the
rest waited in the kernel's queue until another connection closed, and a
player's live request sent on one started up to 20 s late (bench/HISTORY.md,
"Game night, sixteenth session"). An idle connection costs the process no
thread and a few kilobytes; the threads (``SHTAB_SERVER_THREADS``) still bound
the requests that run at once. A process needs as many file descriptors as it
holds connections, and more (``ulimit -n``; systemd's ``LimitNOFILE``).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS, THREADS = 2, 512  # the default layout (see above); the bench runs the same
CONNECTIONS = 4096  # open connections a process holds (see above)
# What the server runs under unless set: a battle page's live request waits up to 20 s for the battle to
# move (battles.log.moves), in a thread of its own that holds no connection meanwhile (a pool of 8 a
# process). Threads are started as requests need them, so 512 is a ceiling: the open pages a process holds.
ENVIRONMENT = {"SHTAB_LIVE_WAIT": "20", "SHTAB_DB_POOL": "8"}


def environ(base: dict[str, str]) -> dict[str, str]:
    """The server's environment: ``base`` with ``ENVIRONMENT``'s defaults where it sets none."""
    return {**ENVIRONMENT, **base}


def argv(*, host: str, port: int, workers: int, threads: int, connections: int = CONNECTIONS,
         log_level: str = "warning") -> list[str]:
    """The server's command line (run from the project's root)."""
    return [str(Path(sys.executable).with_name("granian")), "--interface", "wsgi", "config.wsgi:application",
            "--host", host, "--port", str(port), "--workers", str(workers), "--blocking-threads", str(threads),
            "--backpressure", str(connections), "--no-ws", "--log-level", log_level]


def main(args: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve Shtab in its production shape (granian, config.wsgi).")
    env = os.environ.get
    parser.add_argument("--host", default=env("SHTAB_SERVER_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(env("SHTAB_SERVER_PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(env("SHTAB_SERVER_WORKERS", str(WORKERS))))
    parser.add_argument("--threads", type=int, default=int(env("SHTAB_SERVER_THREADS", str(THREADS))))
    parser.add_argument("--connections", type=int, default=int(env("SHTAB_SERVER_CONNECTIONS", str(CONNECTIONS))))
    parser.add_argument("--log-level", default=env("SHTAB_SERVER_LOG_LEVEL", "info"))
    ns = parser.parse_args(args)
    cmd = argv(host=ns.host, port=ns.port, workers=ns.workers, threads=ns.threads, connections=ns.connections,
               log_level=ns.log_level)
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.execve(cmd[0], cmd, environ(dict(os.environ)))
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
