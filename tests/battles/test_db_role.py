"""The production database role (V-TURN-13 at the database): the application
connects as a role that is no superuser and does not own the logs, so it can
neither switch off, drop or replace their triggers nor update, delete or
truncate them, while everything the app does still works as that role.

PostgreSQL only (SQLite has no roles); under CI=true the suite runs on
PostgreSQL, so these run there. Each run creates its own role on the test
database (``manage.py db_roles``, as the tables' owner) and drops it after,
even on failure.
"""
from __future__ import annotations

import io
import json
import os
import secrets
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
on_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="database roles and privileges are PostgreSQL's "
                                                         "(SQLite has none); CI runs these on PostgreSQL")
LOGS = ("battles_battleevent", "campaign_campaignevent")
PASSWORD_ENV = "SHTAB_TEST_APP_ROLE_PASSWORD"


@dataclass(frozen=True)
class Role:
    name: str
    password: str

    def params(self) -> dict:
        db = connection.settings_dict
        return {"host": db["HOST"] or "127.0.0.1", "port": int(db["PORT"] or 5432), "dbname": db["NAME"],
                "user": self.name, "password": self.password}

    def url(self) -> str:
        p = self.params()
        return f"postgres://{p['user']}:{p['password']}@{p['host']}:{p['port']}/{p['dbname']}"

    def connect(self):
        import psycopg

        return psycopg.connect(**self.params(), autocommit=True)


def _drop_role(name: str) -> None:
    """Disconnect the role, revoke everything it was granted here (table
    privileges, default privileges, schema usage) and drop it."""
    from psycopg import sql

    with connection.cursor() as wrapper:
        cur = wrapper.cursor
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name])
        if cur.fetchone() is None:
            return
        cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [name])
        cur.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
        cur.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


@pytest.fixture(scope="module")
def app_role(django_db_setup, django_db_blocker):
    """A fresh app role on the test database, made by the command as the
    owner would after `migrate`; dropped at the end of the module."""
    if not ON_POSTGRES:
        pytest.skip("PostgreSQL only")
    role = Role(f"shtab_app_t{os.getpid()}_{secrets.token_hex(3)}", secrets.token_urlsafe(18))
    try:
        with django_db_blocker.unblock():
            os.environ[PASSWORD_ENV] = role.password
            call_command("db_roles", app_role=role.name, password_env=PASSWORD_ENV, stdout=io.StringIO())
        yield role
    finally:
        os.environ.pop(PASSWORD_ENV, None)
        with django_db_blocker.unblock():
            _drop_role(role.name)


@pytest.fixture
def logs(transactional_db, campaign):
    """A committed event in each log (appended by the owner, through the services)."""
    from battles.services import NewEvent, battle_create, battle_event_append
    from campaign.services import campaign_event_append

    battle = battle_create(campaign=campaign, name="Бой у переправы")
    battle_event_append(battle_id=battle.id, expected_seq=0, as_game_master=True,
                        events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    campaign_event_append(type="campaign_started", campaign=campaign, data={})
    return battle


def _log_rows() -> dict[str, int]:
    with connection.cursor() as cur:
        out = {}
        for table in LOGS:
            cur.execute(f"SELECT count(*) FROM {table}")
            out[table] = cur.fetchone()[0]
        return out


def _trigger_states(table: str) -> dict[str, str]:
    with connection.cursor() as cur:
        cur.execute("SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal", [table])
        return dict(cur.fetchall())


def _problems(role: Role) -> list[str]:
    from battles.db_roles import app_role_problems

    with connection.cursor() as wrapper:
        return app_role_problems(wrapper.cursor, role=role.name)


ESCAPES = [
    "SET session_replication_role = replica",
    "ALTER TABLE {t} DISABLE TRIGGER USER",
    "ALTER TABLE {t} DISABLE TRIGGER {t}_no_change",
    "DROP TRIGGER {t}_no_change ON {t}",
    "DROP TRIGGER {t}_no_truncate ON {t}",
    "CREATE OR REPLACE FUNCTION {t}_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
    "ALTER TABLE {t} OWNER TO CURRENT_USER",
    "UPDATE {t} SET data = '{{}}'",
    "DELETE FROM {t}",
    "TRUNCATE {t}",
]


@on_postgres
@pytest.mark.parametrize("table", LOGS)
def test_the_app_role_can_neither_switch_off_the_log_triggers_nor_rewrite_the_log(app_role, logs, table):
    """V-TURN-13: each escape a superuser or the owner has is refused to the app
    role for lack of privilege, and the log and its triggers are untouched."""
    import psycopg

    before = _log_rows()
    assert all(before.values()), before
    refused = []
    with app_role.connect() as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == app_role.name
        for statement in ESCAPES:
            try:
                conn.execute(statement.format(t=table))
            except psycopg.errors.InsufficientPrivilege:
                refused.append(statement)
        assert conn.execute("SHOW session_replication_role").fetchone()[0] == "origin"
    assert refused == ESCAPES, f"the app role was allowed: {sorted(set(ESCAPES) - set(refused))}"
    assert _log_rows() == before
    assert _trigger_states(table) == {f"{table}_no_change": "O", f"{table}_no_truncate": "O"}


@on_postgres
def test_the_app_role_appends_reads_and_projects_through_the_real_services(app_role, logs):
    """The app itself, configured with DATABASE_URL as the role (a separate
    process, eager replay): append battle events (log position, battle head),
    replay and rebuild the projection, append to the campaign log and fold its
    standings; then read them back."""
    from battles.models import BattleEvent, BattleProjection, LogPosition
    from campaign.models import CampaignEvent, CampaignProjection

    battle = logs
    script = textwrap.dedent(f"""
        import json
        import django
        django.setup()
        from django.db import connection
        from battles.models import BattleEvent, BattleProjection
        from battles.services import NewEvent, battle_event_append, projections_rebuild
        from campaign.models import Campaign
        from campaign.services import campaign_event_append, campaign_projections_rebuild

        appended = battle_event_append(battle_id={battle.id}, expected_seq=1, as_game_master=True, events=[
            NewEvent("turn_ended", {{"side": "defender", "turn": 1}}),
            NewEvent("turn_ended", {{"side": "attacker", "turn": 1}}),
        ])
        replayed = BattleProjection.objects.get(battle_id={battle.id}).seq
        rebuilt = projections_rebuild(battle_id={battle.id})[0].seq
        campaign = Campaign.objects.get(pk={battle.campaign_id})
        event = campaign_event_append(type="objective_changed", campaign=campaign,
                                      data={{"objective": 0, "name": "Переправа", "from": "", "to": "attacker"}})
        campaign_projections_rebuild(campaign=campaign)
        # The rules data's triggers run as the role too (a new version number from their sequence),
        # and a new battle's first append stores the rules as they now are.
        from battles.models import RulesSetting
        from battles.services import battle_create
        RulesSetting.objects.update_or_create(key="talk_distance", defaults={{"value": 8.5}})
        fresh = battle_create(campaign=campaign, name="role rules")
        battle_event_append(battle_id=fresh.id, expected_seq=0, as_game_master=True,
                            events=[NewEvent("battle_started", {{"attacker": "A", "defender": "D"}})])
        fresh.refresh_from_db()
        with connection.cursor() as cur:
            cur.execute("SELECT current_user")
            user = cur.fetchone()[0]
        print(json.dumps({{"user": user, "seqs": [e.seq for e in appended.events], "replayed": replayed,
                           "rebuilt": rebuilt, "campaign_event": event.pk, "fresh_rules": fresh.rules["talk_distance"],
                           "read": list(BattleEvent.objects.filter(battle_id={battle.id}).values_list("type", flat=True))}}))
    """)
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CI", "DJANGO_SETTINGS_MODULE"}}
    env.update(DATABASE_URL=app_role.url(), DJANGO_SETTINGS_MODULE="config.settings.base", DB_CONN_MAX_AGE="0")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["user"] == app_role.name
    assert out["seqs"] == [2, 3]
    assert out["replayed"] == 3 and out["rebuilt"] == 3
    assert out["fresh_rules"] == 8.5
    assert out["read"] == ["battle_started", "turn_ended", "turn_ended"]
    assert BattleProjection.objects.get(battle=battle).seq == 3
    assert list(BattleEvent.objects.filter(battle=battle).values_list("seq", flat=True)) == [1, 2, 3]
    assert LogPosition.objects.get(pk=1).position == BattleEvent.objects.order_by("-position").first().position
    assert CampaignEvent.objects.get(pk=out["campaign_event"]).type == "objective_changed"
    assert CampaignProjection.objects.get(campaign_id=battle.campaign_id).last_event_id == out["campaign_event"]


@on_postgres
def test_a_table_a_later_migration_creates_is_usable_by_the_app_role_before_the_command_runs_again(app_role,
                                                                                                   transactional_db):
    """Default privileges: the owner creates a table (as a migration would);
    the app role reads and writes it at once."""
    with connection.cursor() as cur:
        cur.execute("CREATE TABLE shtab_later_table (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n int)")
    try:
        with app_role.connect() as conn:
            conn.execute("INSERT INTO shtab_later_table (n) VALUES (1)")
            conn.execute("UPDATE shtab_later_table SET n = 2")
            assert conn.execute("SELECT n FROM shtab_later_table").fetchone()[0] == 2
            conn.execute("DELETE FROM shtab_later_table")
    finally:
        with connection.cursor() as cur:
            cur.execute("DROP TABLE shtab_later_table")


@on_postgres
def test_db_roles_takes_back_a_stray_grant_on_a_log_that_check_reports(app_role, transactional_db):
    """Re-running the command (as after every migrate) restores the policy; --check
    names what breaks it and changes nothing."""
    from psycopg import sql

    with connection.cursor() as wrapper:
        wrapper.cursor.execute(sql.SQL("GRANT UPDATE, DELETE, TRUNCATE, TRIGGER ON battles_battleevent TO {}")
                               .format(sql.Identifier(app_role.name)))
    try:
        with pytest.raises(CommandError) as refused:
            call_command("db_roles", app_role=app_role.name, check=True, stdout=io.StringIO())
        for privilege in ("UPDATE", "DELETE", "TRUNCATE", "TRIGGER"):
            assert f"holds {privilege} on the append-only battles_battleevent" in str(refused.value)
        assert _problems(app_role)  # --check changed nothing
    finally:
        call_command("db_roles", app_role=app_role.name, stdout=io.StringIO())
    assert _problems(app_role) == []
    out = io.StringIO()
    call_command("db_roles", app_role=app_role.name, check=True, stdout=out)
    assert "no problems" in out.getvalue()


@on_postgres
def test_db_roles_refuses_an_app_role_that_is_a_member_of_the_owner(app_role, transactional_db):
    """Membership of the owner carries the owner's right to drop or disable the
    triggers: the command refuses it and rolls back."""
    from psycopg import sql

    owner = connection.settings_dict["USER"] or "postgres"
    grant = sql.SQL("GRANT {} TO {}").format(sql.Identifier(owner), sql.Identifier(app_role.name))
    with connection.cursor() as wrapper:
        wrapper.cursor.execute(grant)
    try:
        with pytest.raises(CommandError, match=f"{app_role.name} is a member of the tables' owner"):
            call_command("db_roles", app_role=app_role.name, stdout=io.StringIO())
    finally:
        with connection.cursor() as wrapper:
            wrapper.cursor.execute(sql.SQL("REVOKE {} FROM {}").format(sql.Identifier(owner),
                                                                       sql.Identifier(app_role.name)))
    assert _problems(app_role) == []


@on_postgres
def test_check_reports_a_switched_off_log_trigger(app_role, transactional_db):
    with connection.cursor() as cur:
        cur.execute("ALTER TABLE campaign_campaignevent DISABLE TRIGGER campaign_campaignevent_no_truncate")
    try:
        assert _problems(app_role) == ["trigger campaign_campaignevent_no_truncate on campaign_campaignevent is disabled"]
    finally:
        with connection.cursor() as cur:
            cur.execute("ALTER TABLE campaign_campaignevent ENABLE TRIGGER campaign_campaignevent_no_truncate")
    assert _problems(app_role) == []


@on_postgres
def test_db_roles_refuses_to_turn_the_owner_or_the_caller_into_the_app_role(transactional_db):
    me = connection.settings_dict["USER"] or "postgres"
    with pytest.raises(CommandError, match="must not be the tables' owner or the role running this"):
        call_command("db_roles", app_role=me, stdout=io.StringIO())
    with connection.cursor() as cur:
        cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        assert cur.fetchone()[0] is True


@on_postgres
def test_db_roles_refuses_an_empty_password_variable(transactional_db, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    with pytest.raises(CommandError, match=PASSWORD_ENV):
        call_command("db_roles", app_role="shtab_never_created", password_env=PASSWORD_ENV, stdout=io.StringIO())
    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = 'shtab_never_created'")
        assert cur.fetchone() is None


@pytest.mark.skipif(ON_POSTGRES, reason="checks the SQLite refusal")
@pytest.mark.django_db
def test_db_roles_says_it_is_for_postgresql_on_sqlite():
    with pytest.raises(CommandError, match="PostgreSQL"):
        call_command("db_roles", app_role="shtab_app", stdout=io.StringIO())
