"""The mission's turn limit and objectives at the table (issue 25, V-TURN-7):
the game master sets the turns when he schedules; the page counts them and
offers the end once they are played; each objective at stake shows who holds it."""
from __future__ import annotations

import re

import pytest

from battles.models import Battle
from battles.services import NewEvent, battle_event_append, battle_replay
from battles.setup import muster
from tests.battles.test_recording import client_for, visible_text


@pytest.mark.django_db
class TestTurnLimit:
    def test_v_turn_7_scheduled_with_a_turn_limit_the_page_counts_and_offers_the_end(self, table):
        from campaign.models import Objective

        hill = Objective.objects.create(campaign=table.campaign, name="Высота 252.2", initial_holder="defender")
        gm = client_for(table.gm)
        r = gm.post(f"/campaigns/{table.campaign.id}/battles/new/", {
            "name": "Бой за высоту", "turn_limit": "2", "objectives": [str(hill.pk)]})
        assert r.status_code == 302, r.content.decode()[:2000]
        battle = Battle.objects.get(name="Бой за высоту")
        assert battle.turn_limit == 2
        for char, roster in ((table.ivan_char, table.ivan_roster), (table.hans_char, table.hans_roster)):
            muster.battle_participant_add(user=table.gm, battle=battle, character=char, roster=roster)
        muster.battle_muster(user=table.gm, battle=battle)

        def page():
            battle_replay(battle_id=battle.id)
            html = gm.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
            return re.sub(r"\s+", " ", visible_text(html))

        text = page()
        assert "Ход 1 из 2 по заданию" in text and "Высота 252.2 (удерживает: РККА)" in text
        assert "Все ходы задания сыграны" not in text
        for turn in (1, 2):
            battle_event_append(battle_id=battle.id, expected_seq=None, as_game_master=True, events=[
                NewEvent("turn_ended", {"side": "defender", "turn": turn}),
                NewEvent("turn_ended", {"side": "attacker", "turn": turn})])
            text = page()
            assert ("Все ходы задания сыграны" in text) is (turn == 2)
            # an open page hears it too: the count is in the state region of every live answer
            live = gm.get(f"/battles/{battle.id}/live/?since=0&state=0", HTTP_ACCEPT_LANGUAGE="ru").json()
            state = re.sub(r"\s+", " ", visible_text(live["state_html"]))
            assert (f"Ход {turn + 1} из 2 по заданию" in state) is (turn < 2)  # never «Ход 3 из 2»
            assert ("Все ходы задания сыграны" in state) is (turn == 2)

    def test_a_turn_limit_off_the_range_is_refused_naming_the_field(self, table):
        r = client_for(table.gm).post(f"/campaigns/{table.campaign.id}/battles/new/",
                                      {"name": "Бой", "turn_limit": "0"}, HTTP_ACCEPT_LANGUAGE="ru")
        assert r.status_code == 400 and not Battle.objects.filter(name="Бой").exists()
