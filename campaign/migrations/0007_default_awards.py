"""Placeholder awards and award policy (G-14); see campaign/defaults.py."""
from django.db import migrations

from campaign.defaults import ensure_awards


def forwards(apps, schema_editor):
    ensure_awards(apps.get_model("campaign", "Award"), apps.get_model("campaign", "AwardRule"))


class Migration(migrations.Migration):
    dependencies = [("campaign", "0006_invite_tokens_and_log_triggers")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
