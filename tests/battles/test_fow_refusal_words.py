"""A Flames of War refusal names what to do in words, never by an internal
name (issue 25, section 5: «(escort_left_train)» reached the page): the
event a player should record instead is named by its title, in Russian and
English, and no FoW refusal text carries a code identifier."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from battles import engine
from battles.services import battle_create
from campaign.models import Campaign
from tests.battles.test_fow_train_scenario import EDGES, OPPONENT_POINT, OWN_POINT_AND_LINE, SETUP
from tests.engine.fow.trains_helpers import enter, lay, on_table, table

FOW = Path(engine.__file__).parent / "fow"
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # dig_in_attempted, escort_left_train, bailed_out...


def _refusal_texts() -> list[tuple[str, int, str]]:
    """The literal text of every ``refuse(rule, ru, en)`` in the FoW engine (an f-string's fixed parts)."""
    out = []
    for path in sorted(FOW.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "refuse":
                for arg in node.args[1:]:
                    parts = [arg] if isinstance(arg, ast.Constant) else [
                        v for v in ast.walk(arg) if isinstance(v, ast.Constant) and isinstance(v.value, str)]
                    out.append((path.name, node.lineno, "".join(str(p.value) for p in parts)))
    return out


def test_no_fow_refusal_text_names_a_code_identifier():
    texts = _refusal_texts()
    assert len(texts) > 100  # every refusal of every FoW area was read
    types = set(engine.RULESETS["fow"].registry)
    leaks = [(f, line, text) for f, line, text in texts
             if IDENTIFIER.search(text) or any(re.search(rf"\b{t}\b", text) for t in types)]
    assert not leaks, leaks


def test_f_train_25_an_escort_aboard_is_told_to_record_leaving_the_train_by_its_title():
    t = table()
    lay(t)
    t.add(enter(12, 10))
    exc = t.refused("F-TRAIN-25", ("team_moved", {"team": "ts1", "distance": 2}))
    title = engine.lookup("escort_left_train", "fow")
    assert f"«{title.title_ru}»" in exc.message_ru and f"«{title.title_en}»" in exc.message_en
    assert "escort_left_train" not in exc.message_ru + exc.message_en


def test_f_train_21_a_wagon_moved_alone_is_told_to_move_the_train_by_its_title():
    t = on_table()
    exc = t.refused("F-TRAIN-21", ("team_moved", {"team": "w1", "distance": 2}))
    assert "«Бронепоезд передвинулся»" in exc.message_ru and "«Armoured train moved»" in exc.message_en
    assert "train_moved" not in exc.message_ru + exc.message_en


@pytest.mark.django_db
def test_the_api_refusal_reads_in_words_with_the_platoons_name(game_master):
    campaign = Campaign.objects.create(name="Бронепоезда", ruleset="fow", attacker_name="РККА",
                                       defender_name="Вермахт")
    battle = battle_create(campaign=campaign, name="Бой у разъезда")
    gm = APIClient()
    gm.force_authenticate(game_master)
    events = [*SETUP, *EDGES, *OPPONENT_POINT, *OWN_POINT_AND_LINE,
              {"type": "train_entered", "data": {"train": "BP", "distance": 12, "train_length": 10}}]
    r = gm.post(f"/api/battles/{battle.id}/events/", {"expected_seq": 0, "events": events}, format="json")
    assert r.status_code == 201, r.json()
    r = gm.post(f"/api/battles/{battle.id}/events/", {"expected_seq": len(events), "events": [
        {"type": "team_moved", "data": {"team": "ts1", "distance": 3}}]}, format="json")
    assert r.status_code == 422, r.json()
    err = r.json()["error"]
    assert err["rule_id"] == "F-TRAIN-25"
    assert "«Танковый Взвод Поддержки сошёл с поезда»" in err["message_ru"]
    assert "«Tank Support Platoon left the train»" in err["message_en"]
    assert not IDENTIFIER.search(err["message_ru"]) and not IDENTIFIER.search(err["message_en"])
