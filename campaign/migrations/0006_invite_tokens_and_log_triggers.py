"""Give each existing campaign its own invitation token (AddField evaluated the
default once), make tokens unique, and make the campaign log append-only at
the database (like the battle log)."""
import uuid

from django.db import migrations, models

from battles.db import install_append_only, uninstall_append_only

TABLE = "campaign_campaignevent"


def fill_tokens(apps, schema_editor):
    Campaign = apps.get_model("campaign", "Campaign")
    for campaign in Campaign.objects.all():
        campaign.invite_token = uuid.uuid4()
        campaign.save(update_fields=["invite_token"])


def triggers(apps, schema_editor):
    install_append_only(schema_editor, TABLE)


def no_triggers(apps, schema_editor):
    uninstall_append_only(schema_editor, TABLE)


class Migration(migrations.Migration):
    dependencies = [("campaign", "0005_campaign_log")]
    operations = [
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="campaign", name="invite_token",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True, verbose_name="invitation token"),
        ),
        migrations.RunPython(triggers, no_triggers),
    ]
