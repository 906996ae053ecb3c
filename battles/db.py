"""Database-level guarantees of the event log.

``install_append_only`` creates triggers that refuse UPDATE and DELETE (and
TRUNCATE on PostgreSQL) on a table, so not even raw SQL can rewrite history.
It is used by migrations for every append-only table. The only way past the
triggers is DDL by the table's owner (dropping or disabling them), which is a
database administrator's act, not an application path.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.apps import apps

MESSAGE = "{table} is append-only: {op} refused (append a correction event instead)"


def _pg_sql(table: str) -> list[str]:
    fn = f"{table}_refuse_change"
    return [
        f"""
        CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{table} is append-only: % refused (append a correction event instead)', TG_OP
                USING ERRCODE = 'restrict_violation';
        END
        $$;
        """,
        f"DROP TRIGGER IF EXISTS {table}_no_change ON {table};",
        f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} FOR EACH ROW EXECUTE FUNCTION {fn}();",
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};",
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {fn}();",
    ]


def _sqlite_sql(table: str) -> list[str]:
    out = []
    for op in ("UPDATE", "DELETE"):
        name = f"{table}_no_{op.lower()}"
        out.append(f"DROP TRIGGER IF EXISTS {name};")
        out.append(
            f"CREATE TRIGGER {name} BEFORE {op} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{MESSAGE.format(table=table, op=op)}'); END;"
        )
    return out


def install_append_only(schema_editor: Any, table: str) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        statements = _pg_sql(table)
    elif vendor == "sqlite":
        statements = _sqlite_sql(table)
    else:
        raise RuntimeError(f"append-only triggers are not written for {vendor}")
    for sql in statements:
        schema_editor.execute(sql, params=None)


def uninstall_append_only(schema_editor: Any, table: str) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table};")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};")
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {table}_refuse_change();")
    else:
        for op in ("update", "delete"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_{op};")


def append_only_tables() -> list[str]:
    return [m._meta.db_table for m in apps.get_models() if getattr(m, "append_only", False)]


def _lift(schema_editor: Any, tables: Sequence[str]) -> None:
    for t in tables:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE {t} DISABLE TRIGGER USER;")
        else:
            uninstall_append_only(schema_editor, t)


def _restore(schema_editor: Any, tables: Sequence[str]) -> None:
    for t in tables:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE {t} ENABLE TRIGGER USER;")
        else:
            install_append_only(schema_editor, t)


@contextmanager
def append_only_lifted(schema_editor: Any, *tables: str) -> Iterator[None]:
    """The triggers of ``tables`` off inside the block and on again after it,
    through the caller's schema editor: a migration's own, in its transaction
    (the backfill of a log's new column). Never used by application code."""
    _lift(schema_editor, tables)
    try:
        yield
    finally:
        _restore(schema_editor, tables)


@contextmanager
def append_only_suspended(connection: Any) -> Iterator[None]:
    """Owner-level escape hatch for wiping a *test* database (Django's flush)
    and for the tests that play a superuser rewriting the log. Never used by
    application code."""
    tables = append_only_tables()
    with connection.schema_editor(atomic=False) as editor:
        _lift(editor, tables)
    try:
        yield
    finally:
        with connection.schema_editor(atomic=False) as editor:
            _restore(editor, tables)
