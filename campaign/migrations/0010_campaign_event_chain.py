"""CampaignEvent.chain, the log's hash chain (campaign.chain), and the chains
of the events already stored, log by log (a campaign's; without a campaign, a
character's) in id order.

As battles 0012: the column is added nullable (on SQLite, ALTER TABLE ADD
COLUMN, which keeps the append-only triggers); the backfill updates stored
rows, which the triggers refuse, so they are lifted for it and installed
again in the same migration (``battles.db``, as 0006 installed them).
"""
from django.db import migrations, models

from battles.db import append_only_lifted
from campaign.chain import content_of, genesis, link

TABLE = "campaign_campaignevent"
CHUNK = 5000


def backfill(apps, schema_editor):
    CampaignEvent = apps.get_model("campaign", "CampaignEvent")
    fields = ("id", "campaign_id", "character_id", "battle_id", "source_event_id", "type", "data", "battle_number",
              "key", "recorded_by_id")
    logs = [{"campaign_id": c} for c in CampaignEvent.objects.exclude(campaign=None)
            .values_list("campaign_id", flat=True).distinct().order_by("campaign_id")]
    logs += [{"campaign_id": None, "character_id": c} for c in CampaignEvent.objects.filter(campaign=None)
             .values_list("character_id", flat=True).distinct().order_by("character_id")]
    with append_only_lifted(schema_editor, TABLE):
        for log in logs:
            previous, last = genesis(**log), 0
            while True:
                rows = list(CampaignEvent.objects.filter(**log, id__gt=last).order_by("id").only(*fields)[:CHUNK])
                if not rows:
                    break
                for row in rows:
                    previous = row.chain = link(previous, **content_of(row))
                CampaignEvent.objects.bulk_update(rows, ["chain"])
                last = rows[-1].id


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0009_merge_0008_card_design_0008_character_gender'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaignevent',
            name='chain',
            field=models.CharField(blank=True, max_length=64, null=True, verbose_name='chain'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
