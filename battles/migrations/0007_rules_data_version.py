"""The rules data's change counter (``RulesDataVersion``) and, on PostgreSQL,
the statement triggers that give it a new number whenever the rules data a battle
snapshots changes (issue 14: the first append uses a cached snapshot and
checks this row instead of reading three tables)."""
from django.db import migrations, models

TABLES = ("battles_rulessetting", "rosters_infantryclass", "rosters_rosterrules")

# Versions come from a sequence, which a rollback never gives back: a version a rolled-back
# transaction wrote (and a process may have cached with the data it saw) is never seen again.
FUNCTION = """
CREATE SEQUENCE IF NOT EXISTS shtab_rules_data_seq;
CREATE OR REPLACE FUNCTION shtab_rules_data_changed() RETURNS trigger AS $$
BEGIN
    UPDATE battles_rulesdataversion SET version = nextval('shtab_rules_data_seq') WHERE id = 1;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""


def create_row(apps, schema_editor):
    apps.get_model("battles", "RulesDataVersion").objects.get_or_create(id=1, defaults={"version": 0})


def triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # SQLite never uses a cached snapshot: every first append reads the tables
    schema_editor.execute(FUNCTION)
    schema_editor.execute("UPDATE battles_rulesdataversion SET version = nextval('shtab_rules_data_seq') WHERE id = 1")
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_rules_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION shtab_rules_data_changed()")


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_rules_data_changed ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS shtab_rules_data_changed()")
    schema_editor.execute("DROP SEQUENCE IF EXISTS shtab_rules_data_seq")


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0006_participants"),
        ("rosters", "0009_roster_share_token"),
    ]

    operations = [
        migrations.CreateModel(
            name="RulesDataVersion",
            fields=[
                ("id", models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False)),
                ("version", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(create_row, migrations.RunPython.noop),
        migrations.RunPython(triggers, drop_triggers),
    ]
