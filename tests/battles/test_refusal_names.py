"""Refusals name pieces as people read them: the engine knows ids, the page
and the API answer with the roster's names (principle: people read names)."""
from __future__ import annotations

import pytest

from battles.engine.terms import readable
from battles.services import NewEvent, battle_event_append

NAMES = {"d-r1": "Стрелок №1", "d-r10": "Стрелок №10", "d": "Отделение"}


def test_ids_quoted_or_bare_become_names_longest_first():
    text = "Боец 'd-r10' не найден; боец d-r1 погиб; d-r1x и xd-r1 не трогаем."
    out = readable(text, names=NAMES, language="en")
    assert out == "Боец «Стрелок №10» не найден; боец Стрелок №1 погиб; d-r1x и xd-r1 не трогаем."


def test_a_text_without_ids_is_returned_as_it_was():
    assert readable("Бой окончен.", names=NAMES, language="en") == "Бой окончен."
    assert readable("Боец d-r1 ранен.", names={}, language="en") == "Боец d-r1 ранен."


@pytest.mark.django_db
def test_v_turn_10_api_refusal_names_the_fighter_not_its_id(battle, defender, defender_client):
    """A move too long for the posture (V-TURN-10, G-4) is refused with the fighter's name."""
    forces = [
        {"type": "force_mustered", "data": {"side": "defender", "units": [{"id": "d", "name": "Отделение"}],
                                            "fighters": [{"id": "d-r1", "unit": "d", "name": "Стрелок №1"}]}},
        {"type": "force_mustered", "data": {"side": "attacker", "units": [{"id": "a"}],
                                            "fighters": [{"id": "a-r1", "unit": "a"}]}},
        {"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}},
        {"type": "postures_declared", "data": {"side": "defender", "units": {"d": "dug_in"}}},
    ]
    battle_event_append(battle_id=battle.id, events=[NewEvent(e["type"], e["data"]) for e in forces],
                        expected_seq=None, as_game_master=True)
    r = defender_client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": None, "events": [
        {"type": "fighters_moved", "data": {"side": "defender", "fighters": ["d-r1"], "distance": 30}}]},
        format="json")
    assert r.status_code == 422, r.content
    err = r.json()["error"]
    assert "Стрелок №1" in err["message_ru"] and "Стрелок №1" in err["message_en"]
    assert "d-r1" not in err["message_ru"] and "d-r1" not in err["message_en"]
