"""Default nationalities with rank names (G-23); see campaign/defaults.py."""
from django.db import migrations

from campaign.defaults import ensure_nationalities


def forwards(apps, schema_editor):
    ensure_nationalities(apps.get_model("campaign", "Nationality"))


class Migration(migrations.Migration):
    dependencies = [("campaign", "0003_characters")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
