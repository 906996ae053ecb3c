"""A roster that a running battle has locked is refused at muster, and the
refusal names that battle (by its name, in Russian and English), so the game
master knows which table to finish first (issue 25, section 6)."""
from __future__ import annotations

import pytest

from battles.models import BattleEvent
from battles.setup import muster
from config.errors import Conflict
from rosters.models import Status

from .conftest import build_roster


@pytest.fixture
def two_battles(table):
    """Both battles have ivan and hans with their rosters; the first is mustered and running."""
    t = table
    t.second = muster.battle_schedule(user=t.gm, campaign=t.campaign, name="Разведка боем")
    for battle in (t.battle, t.second):
        muster.battle_participant_add(user=t.gm, battle=battle, character=t.ivan_char, roster=t.ivan_roster)
        muster.battle_participant_add(user=t.gm, battle=battle, character=t.hans_char, roster=t.hans_roster)
    muster.battle_muster(user=t.gm, battle=t.battle)
    t.ivan_roster.refresh_from_db()
    assert t.ivan_roster.status == Status.LOCKED
    return t


def test_mustering_a_roster_locked_by_a_running_battle_is_refused_naming_that_battle(two_battles):
    t = two_battles
    with pytest.raises(Conflict) as err:
        muster.battle_muster(user=t.gm, battle=t.second)
    e = err.value
    assert e.code == "roster_locked" and e.status_code == 409
    assert "«Бой у станции»" in e.message_ru and "Рота Громова" in e.message_ru
    assert "'Бой у станции'" in e.message_en and "Рота Громова" in e.message_en
    assert e.extra == {"locked_by": "Бой у станции"}
    assert not BattleEvent.objects.filter(battle=t.second).exists()


def test_adding_a_participant_with_a_roster_locked_by_a_running_battle_names_that_battle(table):
    t = table
    muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
    muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.hans_char, roster=t.hans_roster)
    muster.battle_muster(user=t.gm, battle=t.battle)
    second = muster.battle_schedule(user=t.gm, campaign=t.campaign, name="Второй бой")
    t.ivan_roster.refresh_from_db()
    with pytest.raises(Conflict) as err:
        muster.battle_participant_add(user=t.gm, battle=second, character=t.ivan_char, roster=t.ivan_roster)
    assert err.value.field == "roster" and err.value.code == "roster_locked"
    assert "«Бой у станции»" in err.value.message_ru and "'Бой у станции'" in err.value.message_en


def test_the_api_answers_409_with_the_battle_named_in_the_readers_language(two_battles, client):
    t = two_battles
    client.force_login(t.gm)
    r = client.post(f"/api/battles/{t.second.pk}/muster/", {}, content_type="application/json",
                    HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 409
    error = r.json()["error"]
    assert error["code"] == "roster_locked" and "'Бой у станции'" in error["message"]
    assert "«Бой у станции»" in error["message_ru"]


def test_a_roster_the_game_master_locked_by_hand_is_refused_as_locked_by_him(table):
    from rosters import services

    t = table
    roster = build_roster(t.ivan, t.ivan_char, t.campaign, name="Запасной", lieutenant=True)
    services.roster_lock(user=t.gm, roster=roster)
    with pytest.raises(Conflict) as err:
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=roster)
    assert err.value.code == "roster_locked" and "мастер" in err.value.message_ru
    assert "game master" in err.value.message_en


def test_the_roster_page_names_the_running_battle_that_holds_it(two_battles, client):
    t = two_battles
    client.force_login(t.ivan)
    html = client.get(f"/rosters/{t.ivan_roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert (f'<span data-testid="locked-by">в бою <a href="/battles/{t.battle.pk}/">«Бой у станции»</a></span>'
            in html)
