"""Default game data (placeholders for the catalog's gaps); see rosters/defaults.py."""
from django.db import migrations

from rosters.defaults import ensure_game_data


def forwards(apps, schema_editor):
    ensure_game_data(apps.get_model)


class Migration(migrations.Migration):
    dependencies = [("rosters", "0001_initial")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
