"""One click does not ruin a battle (issue 25): a player sees his last entry with
its outcome and takes it back while the turn is his and nothing followed it
(V-TURN-13); «Ход» asks to confirm and names what the side left unused."""
from __future__ import annotations

import re

import pytest

from battles.models import BattleEvent
from tests.battles import test_recording
from tests.battles.test_recording import client_for, declare, last, post, visible_text

table_battle = test_recording.table_battle  # the same fixture: a mustered battle, a player on each side


def _declared(table_battle):
    """The defender's player has declared his postures: (battle, users, his client)."""
    battle, users = table_battle
    c = client_for(users["defender"])
    declare(c, battle)
    return battle, users, c


def _shot(c, battle):
    return post(c, battle, "quick_fire", {"quick_fire-shooter": "d-r1", "quick_fire-target": "f:a-r1",
                                          "quick_fire-distance": "7", "quick_fire-die__source": "entered",
                                          "quick_fire-die__value": "17"})


@pytest.mark.django_db(transaction=True)
class TestTakeBack:
    def test_v_turn_13_the_reply_shows_the_die_large_with_its_meaning_and_a_take_back(self, table_battle):
        battle, users, c = _declared(table_battle)
        assert _shot(c, battle).status_code == 303
        html = c.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        card = html.split('id="last-entry"', 1)[1].split("</div>", 1)[0]
        assert re.search(r'<span class="die"[^>]*>17</span>', card)
        assert "17 — " in visible_text(card) and "нужно ≥" in visible_text(card)
        assert "Взять назад" in card

    def test_v_turn_13_a_player_takes_back_his_last_entry_and_the_log_keeps_it(self, table_battle):
        battle, users, c = _declared(table_battle)
        _shot(c, battle)
        shot = last(battle)
        r = c.post(f"/battles/{battle.id}/take-back/", {"seq": str(shot.seq)})
        assert r.status_code == 303
        fix = last(battle)
        assert fix.type == "correction" and fix.data["voids_seq"] == shot.seq and fix.data["side"] == "defender"
        assert fix.recorded_by == users["defender"]
        html = visible_text(c.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode())
        assert f"РККА взяли назад свою запись №{shot.seq}" in html

    def test_v_turn_13_refused_once_the_opponent_recorded_after_it(self, table_battle):
        battle, users, c = _declared(table_battle)
        _shot(c, battle)
        shot = last(battle)
        # the attacker records a morale test in the defender's turn (off-turn, V-MORALE-1)
        them = client_for(users["attacker"])
        form = them.get(f"/battles/{battle.id}/?record=morale_test").content.decode()
        r = post(them, battle, "morale_test", {"morale_test-unit": "att-sq", "morale_test-die__source": "entered",
                                               "morale_test-die__value": "12"}, page=form)
        assert last(battle).type == "morale_test", r.content.decode()[:2000]
        count = BattleEvent.objects.filter(battle=battle).count()
        r = c.post(f"/battles/{battle.id}/take-back/", {"seq": str(shot.seq)})
        assert r.status_code in (403, 409, 422)
        assert BattleEvent.objects.filter(battle=battle).count() == count
        assert "Взять назад" not in c.get(f"/battles/{battle.id}/").content.decode()

    def test_v_turn_13_nobody_takes_back_the_other_players_entry(self, table_battle):
        battle, users, c = _declared(table_battle)
        entry = last(battle)
        count = BattleEvent.objects.filter(battle=battle).count()
        r = client_for(users["attacker"]).post(f"/battles/{battle.id}/take-back/", {"seq": str(entry.seq)})
        assert r.status_code in (403, 422)
        assert BattleEvent.objects.filter(battle=battle).count() == count


@pytest.mark.django_db(transaction=True)
class TestTurnEnd:
    def test_v_turn_12_hod_asks_to_confirm_and_names_the_units_that_did_nothing(self, table_battle):
        battle, users, c = _declared(table_battle)
        html = c.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        turn = html.split('id="rec-quick_turn"', 1)[1].split("</section>", 1)[0]
        assert "<details" in turn and "Да, завершить ход" in turn
        text = visible_text(turn)
        assert "Взвод Орлова" in text and "Снайпер Зайцев" in text
        _shot(c, battle)
        turn = c.get(f"/battles/{battle.id}/").content.decode().split('id="rec-quick_turn"', 1)[1]
        text = visible_text(turn.split("</section>", 1)[0])
        assert "Взвод Орлова" not in text  # a fighter of the squad fired
        assert "Снайпер Зайцев" in text


@pytest.mark.django_db(transaction=True)
class TestWoundTestFollowsTheHit:
    def test_v_med_3_the_wound_test_is_offered_in_the_owners_next_turn_and_its_defaults_are_accepted(
            self, table_battle):
        battle, users, c = _declared(table_battle)
        _shot(c, battle)  # 17 wounds a-r1
        hans = client_for(users["attacker"])
        assert 'id="rec-wound_test"' not in hans.get(f"/battles/{battle.id}/").content.decode()
        post(c, battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"})
        page = hans.get(f"/battles/{battle.id}/").content.decode()
        post(hans, battle, "postures", {"postures-side": "attacker", "postures-units__0": "recon"}, page=page)
        page = hans.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        quick = page.split('id="rec-wound_test"', 1)[1].split("</section>", 1)[0]
        assert "Тесты на ранение" in page and "Стрелок Мюллер" in quick  # the struck man, pre-filled
        # the defaults as offered (his name, the service's die, no medic re-roll) are what the engine takes
        fields = dict(re.findall(r'name="(wound_test-[^"]+)"[^>]*?value="([^"]*)"', quick))
        selected = dict(re.findall(r'name="(wound_test-[^"]+)"[^>]*>\s*(?:<option value="[^"]*">[^<]*</option>\s*)*'
                                   r'<option value="([^"]*)" selected', quick))
        r = post(hans, battle, "wound_test", {**fields, **selected}, page=page)
        assert r.status_code == 303, r.content.decode()[:3000]
        assert last(battle).type == "wound_test" and last(battle).data["fighter"] == "a-r1"
        assert last(battle).data.get("reroll") is None
