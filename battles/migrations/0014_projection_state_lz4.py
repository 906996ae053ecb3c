"""The projection's state is rewritten by every replay (tens of KB of JSON on a battle of a few hundred
events, compressed when stored out of line): on PostgreSQL built with lz4, compress it with lz4 rather than
pglz, a millisecond less a replay (bench/HISTORY.md, "Issue 26, fifth session"). Rows already stored keep
their compression until their next replay; a server without lz4 keeps pglz."""
from django.db import migrations

TABLE, COLUMN = "battles_battleprojection", "state"


def lz4(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)")
        if cur.fetchone() is None:
            return
    schema_editor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN {COLUMN} SET COMPRESSION lz4")


def pglz(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN {COLUMN} SET COMPRESSION pglz")


class Migration(migrations.Migration):
    dependencies = [("battles", "0013_battle_dice_commitment")]
    operations = [migrations.RunPython(lz4, pglz)]
