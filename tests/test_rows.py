"""config.rows: a battle and its campaign read by one plain query are the ORM's own instances."""
import datetime

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle
from campaign.models import Campaign
from config import rows


def _fields(instance):
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.mark.django_db
def test_every_field_as_the_orm_reads_it(battle):
    when = timezone.now().replace(microsecond=0) + datetime.timedelta(days=3)
    Battle.objects.filter(pk=battle.pk).update(scheduled_for=when, rules={"vehicle_reserve": 4, "names": ["Т-34"]},
                                               turn_limit=6, mission="Удержать мост")
    Campaign.objects.filter(pk=battle.campaign_id).update(attacker_name="Вермахт", defender_name="РККА")
    orm = Battle.objects.select_related("campaign").get(pk=battle.pk)

    read = rows.with_parent(Battle, battle.pk, "campaign")

    assert _fields(read) == _fields(orm)
    assert read.scheduled_for == when and timezone.is_aware(read.scheduled_for)  # (SQLite sends text: converted)
    assert read.rules == {"vehicle_reserve": 4, "names": ["Т-34"]}  # (JSON decoded, not its text)
    assert _fields(read.campaign) == _fields(orm.campaign)
    assert read.campaign.attacker_name == "Вермахт"
    assert not read._state.adding and read._state.db == orm._state.db  # (saved through the ORM as usual)


@pytest.mark.django_db
def test_one_query_and_the_campaign_without_another(battle):
    with CaptureQueriesContext(connection) as queries:
        read = rows.with_parent(Battle, battle.pk, "campaign")
        assert read.campaign.name == battle.campaign.name
    assert len(queries) == 1


@pytest.mark.django_db
def test_a_battle_that_does_not_exist(battle):
    assert rows.with_parent(Battle, battle.pk + 1000, "campaign") is None
    with pytest.raises(Http404):
        rows.with_parent_or_404(Battle, battle.pk + 1000, "campaign")
    assert rows.with_parent_or_404(Battle, battle.pk, "campaign").pk == battle.pk


@pytest.mark.django_db
def test_a_read_battle_saves_as_one_the_orm_read(battle):
    read = rows.with_parent(Battle, battle.pk, "campaign")
    read.name = "Бой у переправы"
    read.save(update_fields=["name"])
    assert Battle.objects.get(pk=battle.pk).name == "Бой у переправы"


@pytest.mark.django_db
def test_the_log_rows_with_their_recorder_or_none(battle, game_master):
    from battles import services
    from battles.models import BattleEvent
    from bench import synthetic

    opening = [services.NewEvent(type=e.type, data=e.data, schema_version=e.version) for e in synthetic.battle(2)]
    services.battle_event_append(battle_id=battle.pk, expected_seq=0, as_game_master=True, recorded_by=game_master,
                                 events=opening[:1])
    services.battle_event_append(battle_id=battle.pk, expected_seq=1, as_game_master=True, recorded_by=None,
                                 events=opening[1:])
    orm = list(BattleEvent.objects.filter(battle_id=battle.pk).select_related("recorded_by").order_by("seq"))
    q = connection.ops.quote_name

    with CaptureQueriesContext(connection) as queries:
        read = rows.select_with_parent(BattleEvent, "recorded_by", f"a.{q('battle_id')} = %s ORDER BY a.{q('seq')} DESC",
                                       [battle.pk])
        recorders = [e.recorded_by for e in read]
    assert len(queries) == 1
    assert [_fields(e) for e in read] == [_fields(e) for e in reversed(orm)]  # (in the order asked for)
    assert recorders[0] is None and recorders[1].username == game_master.username
    assert read[1].data == orm[0].data and read[1].recorded_at == orm[0].recorded_at


@pytest.mark.django_db
def test_a_battles_objectives_in_their_campaigns_order_and_only_its_own(battle):
    from battles import selectors
    from campaign.models import Objective

    bridge = Objective.objects.create(campaign=battle.campaign, name="Мост", order=2)
    hill = Objective.objects.create(campaign=battle.campaign, name="Высота 252.2", order=1, initial_holder="defender")
    Objective.objects.create(campaign=battle.campaign, name="Станция", order=0)  # not at stake in this battle
    battle.objectives.set([bridge, hill])

    read = selectors.battle_objectives(battle_id=battle.pk)

    assert [o.name for o in read] == ["Высота 252.2", "Мост"] == [o.name for o in battle.objectives.all()]
    assert read[0].initial_holder == "defender"
