"""BattleEvent.chain, the log's hash chain (battles.log.chain), and the
chains of the events already stored, battle by battle in seq order.

The column is added by AddField, nullable: on SQLite that is ALTER TABLE ADD
COLUMN, which keeps the append-only triggers (a non-null column or any
AlterField would remake the table and drop them, see 0008). The backfill
updates stored rows, which the triggers refuse: they are lifted for it and
installed again in the same migration (``battles.db``).
"""
from django.db import migrations, models

from battles.db import append_only_lifted
from battles.log.chain import genesis, link

TABLE = "battles_battleevent"
CHUNK = 5000


def backfill(apps, schema_editor):
    BattleEvent = apps.get_model("battles", "BattleEvent")
    battles = BattleEvent.objects.values_list("battle_id", flat=True).distinct().order_by("battle_id")
    with append_only_lifted(schema_editor, TABLE):
        for battle_id in list(battles):
            previous, last = genesis(battle_id), 0
            while True:
                rows = list(BattleEvent.objects.filter(battle_id=battle_id, seq__gt=last).order_by("seq")
                            .only("id", "seq", "type", "schema_version", "data", "key")[:CHUNK])
                if not rows:
                    break
                for row in rows:
                    previous = row.chain = link(previous, battle_id=battle_id, seq=row.seq, type=row.type,
                                                schema_version=row.schema_version, data=row.data, key=row.key)
                BattleEvent.objects.bulk_update(rows, ["chain"])
                last = rows[-1].seq


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0011_battle_turn_limit'),
    ]

    operations = [
        migrations.AddField(
            model_name='battleevent',
            name='chain',
            field=models.CharField(blank=True, max_length=64, null=True, verbose_name='chain'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
