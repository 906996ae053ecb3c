"""Django's database sessions (``SESSION_ENGINE = "config.sessions"``), the session of a request read by one
plain query: through the ORM the read cost 0.3 ms of the server's CPU, paid by every page and live request of
a signed-in player (bench/HISTORY.md, "Game night, eleventh session"). A session not there, or expired, is
left to Django's own read, which answers it (an empty session, the browser's key forgotten, so a session
saved next gets a new key)."""
from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connection
from django.utils import timezone


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        q, table = connection.ops.quote_name, self.model._meta.db_table
        with connection.cursor() as cur:
            cur.execute(f"SELECT {q('session_data')} FROM {q(table)} WHERE {q('session_key')} = %s "
                        f"AND {q('expire_date')} > %s",
                        [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())])
            row = cur.fetchone()
        if row is None:
            return super().load()
        return self.decode(row[0])
