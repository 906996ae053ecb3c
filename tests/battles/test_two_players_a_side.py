"""Two players on a side (issue 25): each records for the pieces of his own
roster (the game master for anyone), each says «Ход» for himself, and the
side's turn ends when both have (V-TURN-12)."""
from __future__ import annotations

import pytest

from battles.access import battle_role
from battles.models import BattleEvent, BattleParticipant
from battles.services import NewEvent, battle_event_append, battle_replay
from battles.setup import muster
from config.errors import Forbidden
from tests.battles.conftest import build_roster
from tests.battles.test_recording import client_for, post


@pytest.fixture
def two_defenders(table, make_member):
    """ivan and petr hold for the defender, hans attacks; mustered."""
    petr, petr_char = make_member(table.campaign, "petr", "defender", by=table.gm)
    petr_roster = build_roster(petr, petr_char, table.campaign, name="Отделение Лапина")
    for char, roster in ((table.ivan_char, table.ivan_roster), (petr_char, petr_roster),
                         (table.hans_char, table.hans_roster)):
        muster.battle_participant_add(user=table.gm, battle=table.battle, character=char, roster=roster)
    muster.battle_muster(user=table.gm, battle=table.battle)
    battle_replay(battle_id=table.battle.id)
    table.petr = petr
    table.battle.refresh_from_db()
    return table


def _state(battle):
    return battle.projection.__class__.objects.get(battle=battle).state


def _own(state, player):
    return sorted(u for u, x in state["units"].items() if x.get("player") == player)


@pytest.mark.django_db
class TestTwoPlayersASide:
    def test_the_muster_marks_each_piece_with_its_player_and_the_role_knows_his_partner(self, two_defenders):
        t = two_defenders
        state = _state(t.battle)
        assert _own(state, "ivan") and _own(state, "petr") and not set(_own(state, "ivan")) & set(_own(state, "petr"))
        assert {p.character.owner.username: p.player for p in BattleParticipant.objects.filter(battle=t.battle)} \
            == {"ivan": "ivan", "petr": "petr", "hans": "hans"}
        ivan = battle_role(battle_id=t.battle.pk, user=t.ivan)
        assert ivan.players == ("ivan",) and ivan.partners == ("petr",) and ivan.shares_side
        assert not battle_role(battle_id=t.battle.pk, user=t.hans).shares_side

    def test_a_player_records_for_his_own_units_only_and_the_game_master_for_anyone(self, two_defenders):
        t = two_defenders
        state = _state(t.battle)
        ivans, petrs = _own(state, "ivan"), _own(state, "petr")
        role = battle_role(battle_id=t.battle.pk, user=t.ivan)
        count = BattleEvent.objects.filter(battle=t.battle).count()
        postures = {u: "dug_in" for u in ivans + petrs}
        with pytest.raises(Forbidden) as exc:
            battle_event_append(battle_id=t.battle.id, events=[NewEvent("postures_declared", {
                "side": "defender", "units": postures})], expected_seq=None, recorded_by=t.ivan, role=role)
        assert exc.value.code == "not_your_pieces"
        assert BattleEvent.objects.filter(battle=t.battle).count() == count
        gm = battle_role(battle_id=t.battle.pk, user=t.gm)
        battle_event_append(battle_id=t.battle.id, events=[NewEvent("postures_declared", {
            "side": "defender", "units": postures})], expected_seq=None, recorded_by=t.gm, role=gm)
        battle_replay(battle_id=t.battle.id)
        petr_fighter = next(f for f, x in _state(t.battle)["fighters"].items() if x.get("player") == "petr")
        with pytest.raises(Forbidden):
            battle_event_append(battle_id=t.battle.id, events=[NewEvent("fighters_moved", {
                "side": "defender", "fighters": [petr_fighter], "distance": 1})], expected_seq=None,
                recorded_by=t.ivan, role=role)

    def test_v_turn_12_the_sides_turn_ends_when_both_players_pressed_hod(self, two_defenders):
        t = two_defenders
        gm = battle_role(battle_id=t.battle.pk, user=t.gm)
        state = _state(t.battle)
        battle_event_append(battle_id=t.battle.id, events=[NewEvent("postures_declared", {
            "side": "defender", "units": {u: "dug_in" for u in _own(state, "ivan") + _own(state, "petr")}})],
            expected_seq=None, recorded_by=t.gm, role=gm)
        battle_replay(battle_id=t.battle.id)
        ivan, petr = client_for(t.ivan), client_for(t.petr)
        page = ivan.get(f"/battles/{t.battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "ещё играет" in page and "Petr" in page  # who is still playing, by character name
        r = post(ivan, t.battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"}, page=page)
        assert r.status_code == 303, r.content.decode()[:2000]
        assert _state(t.battle)["side_to_move"] == "defender" and _state(t.battle)["done"] == ["ivan"]
        # ivan may not say it again for petr
        role = battle_role(battle_id=t.battle.pk, user=t.ivan)
        with pytest.raises(Forbidden):
            battle_event_append(battle_id=t.battle.id, events=[NewEvent("player_done", {
                "side": "defender", "turn": 1, "player": "petr"})], expected_seq=None, recorded_by=t.ivan, role=role)
        page = petr.get(f"/battles/{t.battle.id}/").content.decode()
        r = post(petr, t.battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"}, page=page)
        assert r.status_code == 303
        state = _state(t.battle)
        assert state["side_to_move"] == "attacker" and state["done"] == []
        types = list(BattleEvent.objects.filter(battle=t.battle).order_by("-seq").values_list("type", flat=True)[:3])
        assert types == ["turn_ended", "player_done", "player_done"]
