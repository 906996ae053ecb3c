"""The production HTTP server: granian serving ``config.wsgi`` (bench/HISTORY.md,
"Sixth pass: the server").

One place for the command, so the README's production shape, ``make serve``,
the bench's server and the test that runs it (``tests/test_server.py``) are
the same server with the same options::

    python -m config.serve [--host H] [--port P] [--workers W] [--threads T]

Defaults: ``SHTAB_SERVER_HOST`` (127.0.0.1), ``SHTAB_SERVER_PORT`` (8000),
``SHTAB_SERVER_WORKERS`` (4: two processes per core of the club's 2-core
machine, the GIL making a process the unit of CPU, so one waiting on
PostgreSQL leaves the core to another) and ``SHTAB_SERVER_THREADS`` (1
blocking thread a process). Measured side by side in one session after the
append's database work was cut (bench/HISTORY.md, "Seventh pass"), single-event
appends over HTTP ran 1,156 and 1,180 a second with 4 × 1 against 1,058 and
1,068 with 2 × 4 (4 × 2: 1,134 and 1,117; 3 × 2: 1,118 and 1,119): a request
now spends far more time on the CPU than waiting, and every thread more in a
process is one more waiting for its GIL. Set more threads for pages that wait
on something slow. granian parses HTTP
and keeps connections alive in Rust; the application runs in the blocking
threads and is handed each response's ``close()``, so Django's
``request_finished`` (connection recycling) runs as under any WSGI server.
Measured against gunicorn's gthread worker on the same layout, single-event
appends over HTTP went from 0.071–0.074 to 0.100–0.117 of raw inserts.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS, THREADS = 4, 1  # the default layout (see above); the bench runs the same


def argv(*, host: str, port: int, workers: int, threads: int, log_level: str = "warning") -> list[str]:
    """The server's command line (run from the project's root)."""
    return [str(Path(sys.executable).with_name("granian")), "--interface", "wsgi", "config.wsgi:application",
            "--host", host, "--port", str(port), "--workers", str(workers), "--blocking-threads", str(threads),
            "--no-ws", "--log-level", log_level]


def main(args: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve Shtab in its production shape (granian, config.wsgi).")
    env = os.environ.get
    parser.add_argument("--host", default=env("SHTAB_SERVER_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(env("SHTAB_SERVER_PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(env("SHTAB_SERVER_WORKERS", str(WORKERS))))
    parser.add_argument("--threads", type=int, default=int(env("SHTAB_SERVER_THREADS", str(THREADS))))
    parser.add_argument("--log-level", default=env("SHTAB_SERVER_LOG_LEVEL", "info"))
    ns = parser.parse_args(args)
    cmd = argv(host=ns.host, port=ns.port, workers=ns.workers, threads=ns.threads, log_level=ns.log_level)
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.execv(cmd[0], cmd)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
