"""A FoW battle page gives the side to move the quick panel of common actions
(issue 25, section 5) instead of a wall of links: move, shoot, assault, Dig
In, Go to Ground and «Ход» in view, the rarer events one click away. A shot
sent from the panel rolls exactly the dice the rules give (G-F1) and its log
sentence says what the table decided; «Ход» names the teams left unused."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from battles.models import BattleEvent, BattleParticipant
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from campaign.models import Campaign
from tests.battles.test_battle_page import _player

EVENTS = [
    ("battle_started", {"attacker": "РККА", "defender": "Вермахт", "ruleset": "fow", "units": "in"}),
    ("force_mustered", {"side": "attacker", "platoons": [
        {"id": "TS", "kind": "tank", "name": "Танковый взвод", "teams": [
            {"id": "ts1", "kind": "tank", "armoured": True, "name": "Т-34 №1"},
            {"id": "ts2", "kind": "tank", "armoured": True, "name": "Т-34 №2"}]},
        {"id": "RI", "kind": "infantry", "name": "Стрелковый взвод", "teams": [
            {"id": "ri1", "kind": "infantry", "name": "Стрелки №1"}]}]}),
    ("force_mustered", {"side": "defender", "platoons": [
        {"id": "PZ", "kind": "tank", "name": "Взвод Pz IV", "teams": [
            {"id": "pz1", "kind": "tank", "armoured": True, "name": "Pz IV №1"}]}]}),
]


@pytest.fixture
def fow_battle(db, game_master):
    campaign = Campaign.objects.create(name="Курская дуга", ruleset="fow", attacker_name="РККА",
                                       defender_name="Вермахт")
    battle = battle_create(campaign=campaign, name="Прохоровка")
    users = {}
    for username, side in (("ivanov", "attacker"), ("hans", "defender")):
        user, character = _player(username)
        BattleParticipant.objects.create(battle=battle, character=character, side=side)
        users[side] = user
    battle_event_append(battle_id=battle.id, events=[NewEvent(t, d) for t, d in EVENTS], expected_seq=None,
                        as_game_master=True)
    battle_replay(battle_id=battle.id)
    return battle, users


def page(client, battle, user):
    client.force_login(user)
    with translation.override("ru"):
        return client.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def test_the_side_to_move_gets_the_fow_quick_panel_and_the_rarer_events_one_click_away(client, fow_battle):
    battle, users = fow_battle
    html = page(client, battle, users["attacker"])
    for form_id in ("fow_move", "fow_shot", "fow_assault", "fow_dig", "fow_ground", "quick_turn"):
        assert f'id="rec-{form_id}"' in html, form_id
    assert "Т-34 №1, Танковый взвод — 2 куб." in html  # the dice beside the shooter (G-F1)
    assert "?record=status_set" in html and "?record=team_shot" not in html  # the six-dice form is gone
    assert "Стрелки №1, Стрелковый взвод" in re.search(r'id="rec-quick_turn".*?</section>', html, re.S).group(0)
    theirs = page(client, battle, users["defender"])
    assert 'id="rec-fow_shot"' not in theirs


def test_a_shot_from_the_panel_rolls_the_rules_dice_and_the_log_states_what_the_table_decided(client, fow_battle):
    battle, users = fow_battle
    html = page(client, battle, users["attacker"])
    r = client.post(f"/battles/{battle.id}/record/", {
        "form": "fow_shot", "expected_seq": hidden(html, "expected_seq"), "token": hidden(html, "token"),
        "fow_shot-shooter": "ts1", "fow_shot-target": "pz1", "fow_shot-kind": "direct",
        "fow_shot-dice__source": "rolled", "fow_shot-distance": "14", "fow_shot-hits": "1",
        "fow_shot-result": "destroyed"})
    assert r.status_code == 303, r.content.decode()[:2000]
    battle_replay(battle_id=battle.id)
    shot = BattleEvent.objects.filter(battle=battle).order_by("-seq").first()
    assert shot.type == "team_shot" and len(shot.data["dice"]) == 2
    assert all(1 <= die["value"] <= 6 and die["source"] == "rolled" for die in shot.data["dice"])
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(client, battle, users["attacker"])))
    assert ("Т-34 №1, Танковый взвод: стрельба по цели Pz IV №1, Взвод Pz IV на 14″; кубиков — 2: броски сервиса"
            in text)
    assert "решение стола: попаданий — 1, цель Уничтожена (Destroyed) (G-F1)." in text
    assert "Итог: Pz IV №1, Взвод Pz IV — уничтожен (Destroyed)." in text


def test_a_wrong_count_of_entered_dice_is_answered_in_the_form_and_nothing_is_stored(client, fow_battle):
    battle, users = fow_battle
    html = page(client, battle, users["attacker"])
    head = BattleEvent.objects.filter(battle=battle).count()
    r = client.post(f"/battles/{battle.id}/record/", {
        "form": "fow_shot", "expected_seq": hidden(html, "expected_seq"), "token": hidden(html, "token"),
        "fow_shot-shooter": "ts1", "fow_shot-target": "pz1", "fow_shot-kind": "direct",
        "fow_shot-dice__source": "entered", "fow_shot-dice__faces": "6 5 4 3 2 1"})
    assert r.status_code == 400
    assert "Стрелок бросает 2 куб. (G-F1): значений от 1 до 6 нужно ровно 2." in r.content.decode()
    assert BattleEvent.objects.filter(battle=battle).count() == head


def test_a_move_at_the_double_from_the_panel_is_stored_and_the_team_is_not_offered_again(client, fow_battle):
    battle, users = fow_battle
    html = page(client, battle, users["attacker"])
    r = client.post(f"/battles/{battle.id}/record/", {
        "form": "fow_move", "expected_seq": hidden(html, "expected_seq"), "token": hidden(html, "token"),
        "fow_move-team": "ri1", "fow_move-distance": "12", "fow_move-at_the_double": "on"})
    assert r.status_code == 303, r.content.decode()[:2000]
    battle_replay(battle_id=battle.id)
    moved = BattleEvent.objects.filter(battle=battle).order_by("-seq").first()
    assert (moved.type, moved.data["team"], moved.data["at_the_double"]) == ("team_moved", "ri1", True)
    html = page(client, battle, users["attacker"])
    options = re.search(r'name="fow_move-team".*?</select>', html, re.S).group(0)
    assert 'value="ri1"' not in options and 'value="ts1"' in options


def test_a_fow_panel_form_posted_to_a_v11_battle_is_refused(client, db, game_master):
    from tests.battles.test_battle_page import _player as player

    battle = battle_create(campaign=Campaign.objects.create(name="v11", attacker_name="A", defender_name="D"),
                           name="Бой")
    user, character = player("petrov")
    BattleParticipant.objects.create(battle=battle, character=character, side="defender")
    client.force_login(user)
    r = client.post(f"/battles/{battle.id}/record/", {"form": "fow_shot", "expected_seq": "0", "token": "t"})
    assert r.status_code == 403
