"""Before the muster the log is the game master's alone (issue 27 §2): a
participant's ``battle_started`` or ``terrain_placed`` on a battle that is
scheduled but not mustered is 403 (``battles.engine.actors.authorize``,
V-TURN-2..5), nothing is written, and the game master's muster still works."""
import pytest
from rest_framework.test import APIClient

from battles.models import BattleEvent
from battles.setup import muster


@pytest.fixture
def seated(table):
    muster.battle_participant_add(user=table.gm, battle=table.battle, character=table.ivan_char,
                                  roster=table.ivan_roster)
    muster.battle_participant_add(user=table.gm, battle=table.battle, character=table.hans_char,
                                  roster=table.hans_roster)
    return table


def _post(user, battle, type_, data):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/battles/{battle.pk}/events/",
                       {"expected_seq": None, "events": [{"type": type_, "data": data, "key": f"early-{type_}"}]},
                       format="json")


@pytest.mark.django_db
@pytest.mark.parametrize("type_, data", [
    ("battle_started", {"attacker": "Вермахт", "defender": "РККА"}),
    ("terrain_placed", {"houses": ["H1"]}),
])
def test_v_turn_2_a_participant_may_not_record_before_the_muster(seated, type_, data):
    t = seated
    for user in (t.ivan, t.hans):
        r = _post(user, t.battle, type_, data)
        assert r.status_code == 403, r.json()
        err = r.json()["error"]
        assert err["code"] == "game_master_only" and err["field"] == "events[0].type"
        assert err["recorded_by"] == "game_master"
        assert err["message_ru"] != err["message_en"]
    assert not BattleEvent.objects.filter(battle=t.battle).exists()
    result = muster.battle_muster(user=t.gm, battle=t.battle)  # the muster is not blocked
    assert [e.type for e in result.events] == ["force_mustered", "force_mustered", "battle_started"]


@pytest.mark.django_db
def test_v_turn_5_after_the_muster_either_side_places_terrain(seated):
    t = seated
    muster.battle_muster(user=t.gm, battle=t.battle)
    r = _post(t.hans, t.battle, "terrain_placed", {"houses": ["H1"]})
    assert r.status_code == 201, r.json()


@pytest.mark.django_db
def test_v_turn_2_the_game_master_sets_the_table_before_the_muster(seated):
    t = seated
    r = _post(t.gm, t.battle, "terrain_placed", {"houses": ["H1"]})
    assert r.status_code == 201, r.json()
    muster.battle_muster(user=t.gm, battle=t.battle)

