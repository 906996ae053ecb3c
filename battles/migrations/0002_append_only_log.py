"""The event log refuses UPDATE and DELETE (and TRUNCATE on PostgreSQL) at the
database itself, and the global position counter gets its single row."""
from django.db import migrations

from battles.db import install_append_only, uninstall_append_only

TABLE = "battles_battleevent"


def forwards(apps, schema_editor):
    install_append_only(schema_editor, TABLE)
    apps.get_model("battles", "LogPosition").objects.get_or_create(id=1, defaults={"position": 0})


def backwards(apps, schema_editor):
    uninstall_append_only(schema_editor, TABLE)


class Migration(migrations.Migration):
    dependencies = [("battles", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
