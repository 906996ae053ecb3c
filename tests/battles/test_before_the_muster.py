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



# --- the page says what comes next (V-TURN-2..8) --------------------------------------------------
def _page(user, battle, lang="ru"):
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    r = client.get(f"/battles/{battle.pk}/")
    assert r.status_code == 200
    return r.content.decode()


def _live_record(user, battle):
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(user)
    r = client.get(f"/battles/{battle.pk}/live/?since=-1&state=-1")
    assert r.status_code == 200
    return r.json().get("record_html")


SETUP_LINK = 'href="/battles/{}/setup/"'
WAITING = "Бой ещё не начался: мастер выставит силы"


@pytest.mark.django_db
def test_v_turn_2_before_the_muster_the_game_master_is_sent_to_the_set_up_and_a_player_told_to_wait(seated, outsider):
    t = seated
    gm = _page(t.gm, t.battle)
    assert 'id="before-battle"' in gm and SETUP_LINK.format(t.battle.pk) in gm and "К подготовке боя" in gm
    assert WAITING not in gm
    assert "Записать</h2>" in gm and "Записать · " not in gm  # his set-up events are no side's
    for player in (t.ivan, t.hans):
        page = _page(player, t.battle)
        assert 'id="before-battle"' in page and WAITING in page and "V-TURN-2…8" in page
        assert SETUP_LINK.format(t.battle.pk) not in page  # the set-up is the game master's
        assert WAITING in _live_record(player, t.battle)  # the live answer brings it too
    for onlooker in (outsider, None):  # not at the table: the status says «готовится», nothing more
        assert 'id="before-battle"' not in _page(onlooker, t.battle)
    english = _page(t.ivan, t.battle, "en")
    assert "The battle has not started yet" in english and WAITING not in english


@pytest.mark.django_db
def test_v_turn_8_once_mustered_the_notice_gives_way_to_the_forms(seated):
    from battles.services import battle_replay

    t = seated
    muster.battle_muster(user=t.gm, battle=t.battle)
    battle_replay(battle_id=t.battle.pk)  # (the worker's part: a test's transaction never commits)
    assert "Записать · РККА" in _page(t.gm, t.battle)  # the side to move, once there is one
    for user in (t.gm, t.ivan, t.hans):
        assert 'id="before-battle"' not in _page(user, t.battle)
        assert 'id="before-battle"' not in _live_record(user, t.battle)
    assert 'id="record"' in _live_record(t.ivan, t.battle)  # the defender moves first: his forms are there
