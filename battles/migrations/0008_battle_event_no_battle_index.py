"""BattleEvent.battle loses its one-column index: battleevent_unique_seq
(battle, seq) serves every lookup by battle, and the narrower index tempted the
planner, with stale statistics, to check an append's idempotency keys by
reading every event of the battle (bench/HISTORY.md, "Seventh pass").

The index is dropped by name, not through AlterField: on SQLite AlterField
remakes the table, which would drop its append-only triggers with it.
"""
from django.db import migrations, models
import django.db.models.deletion

TABLE = "battles_battleevent"


def _battle_index(schema_editor):
    """The name of the one-column, non-unique index on battle_id, if any."""
    with schema_editor.connection.cursor() as cursor:
        constraints = schema_editor.connection.introspection.get_constraints(cursor, TABLE)
    for name, c in constraints.items():
        if c["index"] and not c["unique"] and not c["primary_key"] and c["columns"] == ["battle_id"]:
            return name
    return None


def drop_index(apps, schema_editor):
    name = _battle_index(schema_editor)
    if name is not None:
        schema_editor.execute(f"DROP INDEX {schema_editor.quote_name(name)}")


def create_index(apps, schema_editor):
    if _battle_index(schema_editor) is None:
        schema_editor.execute(f"CREATE INDEX battles_battleevent_battle_id_429fa85b ON {TABLE} (battle_id)")


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0007_rules_data_version'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='battleevent',
                    name='battle',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT,
                                            related_name='events', to='battles.battle', verbose_name='battle'),
                ),
            ],
            database_operations=[migrations.RunPython(drop_index, create_index)],
        ),
    ]
