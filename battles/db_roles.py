"""The application's PostgreSQL role: granted exactly what the app needs, and checked.

The append-only triggers (``battles.db``) refuse UPDATE, DELETE and TRUNCATE on
the logs to every role, but a superuser can switch them off for its session
(``SET session_replication_role = replica``) and the tables' owner can disable
or drop them. So in production the application connects as a role that is
neither: LOGIN and nothing more (no SUPERUSER, CREATEDB, CREATEROLE,
REPLICATION or BYPASSRLS), owning nothing and no member of the owner, with
SELECT and INSERT on the append-only logs and plain DML on the other tables.
The migrations run as the owner, which afterwards runs ``manage.py db_roles``
(this module) to grant the app role what the new tables need; default
privileges cover tables created in between, so the app keeps working.

``app_role_plan`` reads the catalog and returns the statements (idempotent: the
role's table privileges are revoked and granted again, so a stray grant is
taken back); ``app_role_problems`` checks the result against the policy.
PostgreSQL only: SQLite has neither roles nor privileges.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import sql

from battles.db import append_only_tables

LOG_PRIVILEGES = ("SELECT", "INSERT")
TABLE_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE")
READ_ONLY_TABLES = frozenset({"django_migrations"})  # only `migrate` (the owner) writes it
SEQUENCE_PRIVILEGES = ("USAGE", "SELECT", "UPDATE")
# Everything a role may hold on a table beyond SELECT and INSERT: none of it on a log.
LOG_REFUSED = ("UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
ATTRIBUTES = {  # pg_roles column -> the value the app role must have (and the keyword that sets it)
    "rolcanlogin": (True, "LOGIN"),
    "rolsuper": (False, "NOSUPERUSER"),
    "rolcreatedb": (False, "NOCREATEDB"),
    "rolcreaterole": (False, "NOCREATEROLE"),
    "rolreplication": (False, "NOREPLICATION"),
    "rolbypassrls": (False, "NOBYPASSRLS"),
}
TRIGGER_SUFFIXES = ("_no_change", "_no_truncate")  # battles.db._pg_sql


class RoleSetupError(Exception):
    """The database is not in a state the app role can be set up for."""


@dataclass(frozen=True)
class Catalog:
    """What the database holds now, as far as the app role is concerned."""

    database: str
    schema: str
    owner: str
    current_user: str
    tables: tuple[str, ...]  # the owner's tables in the schema, logs included
    sequences: tuple[str, ...]
    log_tables: tuple[str, ...]
    role: dict[str, Any] | None  # the role's pg_roles row, or None if it does not exist yet


def _one(cur: Any, query: str, params: Any = ()) -> Any:
    cur.execute(query, params)
    row = cur.fetchone()
    return row[0] if row is not None else None


def read_catalog(cur: Any, *, role: str, owner: str | None = None) -> Catalog:
    logs = tuple(sorted(append_only_tables()))
    schema = _one(cur, "SELECT current_schema()")
    owners = set()
    for table in logs:
        found = _one(cur, "SELECT pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                          " WHERE n.nspname = %s AND c.relname = %s AND c.relkind IN ('r', 'p')", [schema, table])
        if found is None:
            raise RoleSetupError(f"table {schema}.{table} does not exist: run `manage.py migrate` (as the owner) first")
        owners.add(found)
    if owner is None:
        if len(owners) != 1:
            raise RoleSetupError(f"the log tables have several owners ({', '.join(sorted(owners))}): name one with --owner")
        owner = owners.pop()
    cur.execute("SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = %s AND c.relkind IN ('r', 'p', 'S') AND pg_get_userbyid(c.relowner) = %s"
                " ORDER BY c.relname", [schema, owner])
    rows = cur.fetchall()
    cur.execute("SELECT rolname, " + ", ".join(ATTRIBUTES) + " FROM pg_roles WHERE rolname = %s", [role])
    found_role = cur.fetchone()
    return Catalog(
        database=_one(cur, "SELECT current_database()"),
        schema=schema,
        owner=owner,
        current_user=_one(cur, "SELECT current_user"),
        tables=tuple(name for name, kind in rows if kind != "S"),
        sequences=tuple(name for name, kind in rows if kind == "S"),
        log_tables=logs,
        role=dict(zip(["rolname", *ATTRIBUTES], found_role, strict=True)) if found_role else None,
    )


def _privs(names: tuple[str, ...]) -> sql.Composable:
    return sql.SQL(", ").join(sql.SQL(p) for p in names)


def _names(schema: str, tables: list[str] | tuple[str, ...]) -> sql.Composable:
    return sql.SQL(", ").join(sql.Identifier(schema, t) for t in tables)


def app_role_plan(cur: Any, *, role: str, password: str | None = None, owner: str | None = None) -> list[sql.Composable]:
    """The statements that create or tighten ``role`` and grant it what the app
    needs on the current database. Run by the owner (or a superuser); creating
    the role or changing its attributes or password needs CREATEROLE, the rest
    only the owner's rights. Idempotent."""
    cat = read_catalog(cur, role=role, owner=owner)
    if role in (cat.owner, cat.current_user):
        raise RoleSetupError(f"the app role must not be the tables' owner or the role running this ({role})")
    r, s = sql.Identifier(role), sql.Identifier(cat.schema)
    out: list[sql.Composable] = []
    attributes = sql.SQL(" ").join(sql.SQL(kw) for _, kw in ATTRIBUTES.values())
    secret = sql.SQL(" PASSWORD {}").format(sql.Literal(password)) if password else sql.SQL("")
    if cat.role is None:
        out.append(sql.SQL("CREATE ROLE {} WITH {}{}").format(r, attributes, secret))
    elif password or any(cat.role[col] != want for col, (want, _) in ATTRIBUTES.items()):
        out.append(sql.SQL("ALTER ROLE {} WITH {}{}").format(r, attributes, secret))
    exists = cat.role is not None
    if not (exists and _one(cur, "SELECT has_database_privilege(%s, current_database(), 'CONNECT')", [role])):
        out.append(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(cat.database), r))
    if not (exists and _one(cur, "SELECT has_schema_privilege(%s, %s, 'USAGE')", [role, cat.schema])):
        out.append(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(s, r))

    logs = [t for t in cat.tables if t in cat.log_tables]
    read_only = [t for t in cat.tables if t in READ_ONLY_TABLES]
    others = [t for t in cat.tables if t not in cat.log_tables and t not in READ_ONLY_TABLES]
    if cat.tables:  # start from nothing, so a stray grant (UPDATE on a log, say) is taken back
        out.append(sql.SQL("REVOKE ALL ON TABLE {} FROM {}").format(_names(cat.schema, cat.tables), r))
    if others:
        out.append(sql.SQL("GRANT {} ON TABLE {} TO {}").format(_privs(TABLE_PRIVILEGES), _names(cat.schema, others), r))
    if read_only:
        out.append(sql.SQL("GRANT SELECT ON TABLE {} TO {}").format(_names(cat.schema, read_only), r))
    if logs:
        out.append(sql.SQL("GRANT {} ON TABLE {} TO {}").format(_privs(LOG_PRIVILEGES), _names(cat.schema, logs), r))
        # Every role holds PUBLIC's privileges too: none beyond reading and appending on a log.
        out.append(sql.SQL("REVOKE {} ON TABLE {} FROM PUBLIC").format(_privs(LOG_REFUSED), _names(cat.schema, logs)))
    if cat.sequences:
        names = _names(cat.schema, cat.sequences)
        out.append(sql.SQL("REVOKE ALL ON SEQUENCE {} FROM {}").format(names, r))
        out.append(sql.SQL("GRANT {} ON SEQUENCE {} TO {}").format(_privs(SEQUENCE_PRIVILEGES), names, r))
    # Tables a later migration creates are usable before this is run again (a new
    # log gets its triggers from its migration; the rerun narrows it to SELECT, INSERT).
    o = sql.Identifier(cat.owner)
    out.append(sql.SQL("ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA {} GRANT {} ON TABLES TO {}")
               .format(o, s, _privs(TABLE_PRIVILEGES), r))
    out.append(sql.SQL("ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA {} GRANT {} ON SEQUENCES TO {}")
               .format(o, s, _privs(SEQUENCE_PRIVILEGES), r))
    return out


def app_role_problems(cur: Any, *, role: str, owner: str | None = None) -> list[str]:
    """Everything about ``role`` that breaks the policy (empty: it is the
    production shape): attributes, membership of the owner, privileges on the
    logs and the other tables, and the logs' triggers themselves."""
    cat = read_catalog(cur, role=role, owner=owner)
    if cat.role is None:
        return [f"role {role} does not exist"]
    problems = [f"role {role} must be {kw}" for col, (want, kw) in ATTRIBUTES.items() if cat.role[col] != want]
    if _one(cur, "SELECT pg_has_role(%s, %s, 'MEMBER')", [role, cat.owner]):
        problems.append(f"role {role} is a member of the tables' owner {cat.owner}: it could drop or disable "
                        "the log triggers")
    if _one(cur, "SELECT current_setting('server_version_num')::int") >= 150000 and _one(
            cur, "SELECT has_parameter_privilege(%s, 'session_replication_role', 'SET')", [role]):
        problems.append(f"role {role} may SET session_replication_role (it would switch the log triggers off)")

    def has(table: str, privilege: str) -> bool:
        return bool(_one(cur, "SELECT has_table_privilege(%s, %s, %s)", [role, f'"{cat.schema}"."{table}"', privilege]))

    for table in cat.tables:
        if table in cat.log_tables:
            wanted, refused = LOG_PRIVILEGES, LOG_REFUSED
        elif table in READ_ONLY_TABLES:
            wanted, refused = ("SELECT",), ()
        else:
            wanted, refused = TABLE_PRIVILEGES, ()
        problems += [f"role {role} lacks {p} on {table}" for p in wanted if not has(table, p)]
        problems += [f"role {role} holds {p} on the append-only {table}" for p in refused if has(table, p)]
    for seq in cat.sequences:
        if not _one(cur, "SELECT has_sequence_privilege(%s, %s, 'USAGE')", [role, f'"{cat.schema}"."{seq}"']):
            problems.append(f"role {role} lacks USAGE on sequence {seq}")
    for table in cat.log_tables:
        cur.execute("SELECT t.tgname, t.tgenabled FROM pg_trigger t WHERE t.tgrelid = %s::regclass AND NOT t.tgisinternal",
                    [f'"{cat.schema}"."{table}"'])
        enabled = {name: state for name, state in cur.fetchall()}
        for suffix in TRIGGER_SUFFIXES:
            name = table + suffix
            if enabled.get(name) not in ("O", "A"):  # O: fires (origin/local), A: always; D/R: switched off
                problems.append(f"trigger {name} on {table} is {'disabled' if name in enabled else 'missing'}")
    return problems

