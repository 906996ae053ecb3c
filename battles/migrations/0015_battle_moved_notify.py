"""PostgreSQL tells a server's waiting live requests that a battle moved (battles.log.moves): NOTIFY
shtab_battle_moved with the battle's id when its head moves (an entry stored) or its projection does (the
worker told the outcome), sent at commit. SQLite has no such thing: its pages ask every second."""
from django.db import migrations

CHANNEL = "shtab_battle_moved"
FUNCTION = (
    "CREATE OR REPLACE FUNCTION shtab_battle_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF TG_TABLE_NAME = 'battles_battle' THEN "
    f"PERFORM pg_notify('{CHANNEL}', NEW.id::text); "
    f"ELSE PERFORM pg_notify('{CHANNEL}', NEW.battle_id::text); END IF; "
    "RETURN NULL; END $$"
)
TRIGGERS = {
    "battles_battle_moved": "AFTER UPDATE OF head_seq ON battles_battle FOR EACH ROW "
                            "WHEN (OLD.head_seq IS DISTINCT FROM NEW.head_seq)",
    "battles_projection_moved": "AFTER INSERT OR UPDATE OF seq ON battles_battleprojection FOR EACH ROW",
}


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION)
    for name, when in TRIGGERS.items():
        schema_editor.execute(f"CREATE TRIGGER {name} {when} EXECUTE FUNCTION shtab_battle_moved()")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, when in TRIGGERS.items():
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name} ON {when.split(' ON ')[1].split()[0]}")
    schema_editor.execute("DROP FUNCTION IF EXISTS shtab_battle_moved()")


class Migration(migrations.Migration):
    dependencies = [("battles", "0014_projection_state_lz4")]
    operations = [migrations.RunPython(forwards, backwards)]
