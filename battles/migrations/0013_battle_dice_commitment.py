"""Committed dice (battles.log.dice_commit): each battle's secret, its commitment
and the seq at which the secret was revealed.

Every battle already stored gets a secret and its commitment here. Its dice
already rolled were drawn from ``secrets`` (``rng: "secrets"``) and stay so:
nothing derives them, and the verifier counts them as uncommitted
(docs/verify.md). A battle whose log already holds ``battle_ended`` is
revealed from that event on, as the store would have marked it, so the new
secret derives no die of a battle that is over.
"""
from django.db import migrations, models

from battles.log.dice_commit import END, commitment, new_secret


def commit(apps, schema_editor):
    Battle = apps.get_model("battles", "Battle")
    BattleEvent = apps.get_model("battles", "BattleEvent")
    ended = dict(BattleEvent.objects.filter(type=END).values("battle_id").annotate(first=models.Min("seq"))
                 .values_list("battle_id", "first"))
    battles = list(Battle.objects.filter(dice_secret="").only("id"))
    for battle in battles:
        battle.dice_secret = new_secret()
        battle.dice_commitment = commitment(battle.dice_secret)
        battle.dice_revealed_seq = ended.get(battle.id)
    Battle.objects.bulk_update(battles, ["dice_secret", "dice_commitment", "dice_revealed_seq"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0012_battle_event_chain'),
    ]

    operations = [
        migrations.AddField(
            model_name='battle',
            name='dice_commitment',
            field=models.CharField(blank=True, editable=False, max_length=64, verbose_name='dice commitment'),
        ),
        migrations.AddField(
            model_name='battle',
            name='dice_revealed_seq',
            field=models.PositiveIntegerField(blank=True, editable=False, null=True,
                                              verbose_name='dice secret revealed at event'),
        ),
        migrations.AddField(
            model_name='battle',
            name='dice_secret',
            field=models.CharField(blank=True, editable=False, max_length=64, verbose_name='dice secret'),
        ),
        migrations.RunPython(commit, migrations.RunPython.noop),
    ]
