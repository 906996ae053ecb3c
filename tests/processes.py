"""What tests that start other processes (a server, a worker, Redis) share:
a free local port and the test database's URL for the child's DATABASE_URL."""
from __future__ import annotations

import socket

from django.db import connection


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The test database (PostgreSQL) as a URL, for a child process's DATABASE_URL."""
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    auth = f"{user}:{db['PASSWORD']}@" if db["PASSWORD"] else f"{user}@"
    return f"postgres://{auth}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
