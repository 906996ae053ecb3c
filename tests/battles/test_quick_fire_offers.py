"""The quick «Огонь» and «Движение» forms offer only what the rules let a piece do now (issue 25 §3: players
do not learn the rules by refusal): no target inside a vehicle (V-TRANS-7), no vehicle short of the crew firing
needs (V-CREW-4, V-CREW-5), no vehicle move once the side fired (V-TURN-10); a form sent from an older page naming one still gets the engine's refusal by its
rule, in words, not «select a valid choice»."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.battles import test_recording
from tests.battles.test_recording import client_for, declare, post

table_battle = test_recording.table_battle  # the defender to move; the attacker's tank has a crew of two


def options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"', select)


@pytest.mark.django_db(transaction=True)
def test_v_trans_7_a_tanks_crew_is_not_offered_as_a_target_and_is_refused_by_its_rule(table_battle):
    battle, users = table_battle
    c = client_for(users["defender"])
    declare(c, battle)
    with translation.override("ru"):
        page = c.get(f"/battles/{battle.id}/").content.decode()
    targets = options(page, "quick_fire-target")
    assert {"f:a-r1", "f:a-r2", "f:a-sgt", "v:att-tank"} <= set(targets)
    assert "f:a-tc" not in targets and "f:a-tp" not in targets  # inside the tank
    r = post(c, battle, "quick_fire", {"quick_fire-shooter": "d-r1", "quick_fire-target": "f:a-tc",
                                       "quick_fire-distance": "5", "quick_fire-die__source": "rolled"}, page=page)
    body = r.content.decode()
    assert r.status_code == 422 and "V-TRANS-7" in body and "внутри техники" in body
    assert "Выберите корректный вариант" not in body
    assert 'value="f:a-tc" selected' in body  # what he picked stays picked beside the reason


@pytest.mark.django_db(transaction=True)
def test_v_crew_4_a_tank_left_with_one_crewman_is_not_offered_to_fire(table_battle):
    from battles.services import NewEvent, battle_event_append
    from tests.battles.test_recording import _replayed, last

    battle, users = table_battle
    defender, attacker = client_for(users["defender"]), client_for(users["attacker"])
    declare(defender, battle)
    assert post(defender, battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"}).status_code == 303
    r = post(attacker, battle, "postures", {"postures-side": "attacker", "postures-units__0": "recon"})
    assert r.status_code == 303, r.content.decode()[:2000]
    page = attacker.get(f"/battles/{battle.id}/").content.decode()
    assert "att-tank" in options(page, "quick_fire-shooter")
    battle_event_append(battle_id=battle.id, expected_seq=last(battle).seq, as_game_master=True,
                        events=[NewEvent("crew_dismounted", {"vehicle": "att-tank", "fighters": ["a-tp"],
                                                             "distance": 1})])
    _replayed(battle)
    page = attacker.get(f"/battles/{battle.id}/").content.decode()
    assert "att-tank" not in options(page, "quick_fire-shooter")  # one man left: it may only move
    assert "a-r1" in options(page, "quick_fire-shooter")
    r = post(attacker, battle, "quick_fire", {"quick_fire-shooter": "att-tank", "quick_fire-target": "f:d-r1",
                                              "quick_fire-distance": "5", "quick_fire-die__source": "rolled"})
    assert r.status_code == 422 and "V-CREW-4" in r.content.decode()  # an older page's choice: the rule, in words


def attackers_turn(battle, users, posture: str):
    """The defender's first turn over, the attacker's squad declared in ``posture``: the attacker's client."""
    defender, attacker = client_for(users["defender"]), client_for(users["attacker"])
    declare(defender, battle)
    assert post(defender, battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"}).status_code == 303
    assert post(attacker, battle, "postures", {"postures-side": "attacker", "postures-units__0": posture}).status_code == 303
    return attacker


@pytest.mark.django_db(transaction=True)
def test_v_turn_10_the_move_form_offers_no_vehicle_once_the_side_fired(table_battle):
    """«Движение» offers a vehicle only while its move's own checks take one: after the side fired, its move
    phase is over (V-TURN-10), and an older page's choice gets that rule's refusal in words."""
    from tests.battles.test_recording import _replayed

    battle, users = table_battle
    attacker = attackers_turn(battle, users, "recon")
    with translation.override("ru"):
        before = attacker.get(f"/battles/{battle.id}/").content.decode()
    assert "v:att-tank" in options(before, "quick_move-who")
    assert "Сейчас двигается только техника" not in before  # his recon squad moves too: no help to read
    assert post(attacker, battle, "quick_fire", {"quick_fire-shooter": "a-r1", "quick_fire-target": "f:d-r1",
                                                 "quick_fire-distance": "5",
                                                 "quick_fire-die__source": "rolled"}).status_code == 303
    _replayed(battle)
    page = attacker.get(f"/battles/{battle.id}/").content.decode()
    assert "v:att-tank" not in options(page, "quick_move-who")
    with translation.override("ru"):
        r = post(attacker, battle, "quick_move", {"quick_move-who": "v:att-tank", "quick_move-distance": "2"},
                 page=page)  # (the tank picked on an older page, sent at today's seq)
    body = r.content.decode()
    assert r.status_code == 422 and "V-TURN-10" in body and "Выберите корректный вариант" not in body


@pytest.mark.django_db(transaction=True)
def test_g_4_a_dug_in_side_is_told_only_its_vehicles_may_move_and_why_its_men_may_not(table_battle):
    """«Движение» with every unit dug in (G-4: no move allowance) still offers the tank; the field's help says
    that only vehicles may move now and why the men on foot are not offered, not that nobody may move."""
    battle, users = table_battle
    attacker = attackers_turn(battle, users, "dug_in")
    with translation.override("ru"):
        page = attacker.get(f"/battles/{battle.id}/").content.decode()
    who = [o for o in options(page, "quick_move-who") if o]
    assert who == ["v:att-tank"]  # no unit, no rifleman: dug in (G-4)
    assert "Сейчас двигается только техника" in page and "(G-4, V-MED-3)" in page


@pytest.mark.django_db(transaction=True)
def test_the_rules_offers_are_worked_out_only_for_a_panel_that_shows_the_quick_forms(table_battle, monkeypatch):
    """The engine's state behind the offers (``recording.RulesTable``) is built for the side to move's panel,
    whose quick forms show them, and not for the waiting player's, which has none."""
    from battles import engine

    battle, users = table_battle
    mover, waiting = client_for(users["defender"]), client_for(users["attacker"])
    declare(mover, battle)
    built = []
    real = engine.state_from_json
    monkeypatch.setattr(engine, "state_from_json", lambda *a, **k: built.append(1) or real(*a, **k))

    page = waiting.get(f"/battles/{battle.id}/").content.decode()
    assert 'name="quick_fire-shooter"' not in page and built == []
    page = mover.get(f"/battles/{battle.id}/").content.decode()
    assert "d-r1" in options(page, "quick_fire-shooter") and "f:a-tc" not in options(page, "quick_fire-target")
    assert built == [1]  # once for all of the panel's forms
