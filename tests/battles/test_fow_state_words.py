"""A Flames of War battle's state region speaks Flames of War (issue 25,
section 5): platoons and teams, Bailed Out, Destroyed, Pinned Down, Gone to
Ground, Dug In, in Russian with the English term (in English on an English
page); never v11.2's «Боец», «Класс», «ранены», «в плену», and a tank is a
tank, never an «отделение»."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.models import BattleParticipant
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from campaign.models import Campaign
from tests.battles.test_battle_page import _player

D = {"value": 5, "source": "entered"}
EVENTS = [
    ("battle_started", {"attacker": "РККА", "defender": "Вермахт", "ruleset": "fow", "units": "in"}),
    ("force_mustered", {"side": "attacker", "platoons": [
        {"id": "TS", "kind": "tank", "name": "Танковый взвод", "teams": [
            {"id": "ts1", "kind": "tank", "armoured": True, "name": "Т-34 №1"},
            {"id": "ts2", "kind": "tank", "armoured": True, "name": "Т-34 №2"}]},
        {"id": "RI", "kind": "infantry", "name": "Стрелковый взвод", "teams": [
            {"id": "ri1", "kind": "infantry", "name": "Стрелки №1"}, {"id": "ri2", "kind": "infantry"}]}]}),
    ("force_mustered", {"side": "defender", "platoons": [
        {"id": "PZ", "kind": "tank", "name": "Взвод Pz IV", "teams": [
            {"id": "pz1", "kind": "tank", "armoured": True, "name": "Pz IV №1"},
            {"id": "pz2", "kind": "tank", "armoured": True}]},
        {"id": "GR", "kind": "infantry", "name": "Гренадеры", "teams": [{"id": "gr1", "kind": "infantry"}]}]}),
    ("dig_in_attempted", {"platoon": "RI", "die": D}),  # F-DIG-3: 5 passes 4+
    ("team_shot", {"shooter": "ts1", "target": "pz1", "dice": [D, D], "hits": 2, "result": "destroyed",
                   "pinned": True}),  # G-F1: the table decided
    ("status_set", {"subject": "pz2", "status": "bailed_out"}),
    ("turn_ended", {"side": "attacker", "turn": 1}),
    ("went_to_ground", {"teams": ["gr1"]}),
]


@pytest.fixture
def fow_page(db, client, game_master):
    campaign = Campaign.objects.create(name="Курская дуга", ruleset="fow", attacker_name="РККА",
                                       defender_name="Вермахт")
    battle = battle_create(campaign=campaign, name="Прохоровка")
    user, character = _player("ivanov")
    BattleParticipant.objects.create(battle=battle, character=character, side="attacker")
    battle_event_append(battle_id=battle.id, events=[NewEvent(t, d) for t, d in EVENTS], expected_seq=None,
                        as_game_master=True)
    battle_replay(battle_id=battle.id)
    client.force_login(user)

    def state_region(lang: str) -> str:
        html = client.get(reverse("battle-detail", args=[battle.id]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        region = html.split('id="state-region"', 1)[1].split('id="log-region"', 1)[0]
        return region

    return state_region


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_state_names_platoons_teams_and_fow_statuses_in_russian_with_the_english_term(fow_page):
    text = _text(fow_page("ru"))
    for words in ("Танковый взвод (танковый взвод)", "Отделение или техника (team)", "Т-34 №1",
                  "Уничтоженный (Destroyed)", "Обломки (Wreckage)", "Покинутый (Bailed Out)",
                  "Прижатый Огнём (Pinned Down)", "Залёгший (Gone to Ground)", "Окопанный (Dug In)",
                  "Гренадеры (пехотный взвод)"):
        assert words in text, words
    for v11 in ("Боец", "Класс", "ранены", "в плену", "убиты"):
        assert v11 not in text, v11


def test_a_tank_row_is_a_tank_never_an_otdelenie(fow_page):
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", fow_page("ru"), re.S)
    tanks = [_text(r) for r in rows if "Т-34" in r or "Pz IV" in r or "pz2" in r]
    assert len(tanks) == 4
    assert all("танк" in r and "отделени" not in r.lower() for r in tanks), tanks
    infantry = [_text(r) for r in rows if "Стрелки" in r or "ri2" in r]
    assert all("пехотное отделение" in r for r in infantry), infantry  # a FoW infantry team is an «отделение»


def test_an_english_page_reads_the_rulebooks_english_terms(fow_page):
    text = _text(fow_page("en"))
    for words in ("Team", "tank platoon", "Destroyed", "Bailed Out", "Pinned Down", "Gone to Ground", "Dug In",
                  "in action"):
        assert words in text, words
    assert "(Dug In)" not in text and "Окопан" not in text  # no Russian on an English page


def test_the_fow_report_table_and_checklist_speak_fow_for_battle_detail_to_include():
    from django.template.loader import render_to_string
    from django.utils import translation

    from battles import engine
    from battles.table.board import board
    from battles.table.report import final_state
    from tests.engine.fow.table import Table as FowTable

    state = engine.state_to_json(FowTable().state)
    for lang, words, v11 in (("ru", ("Выставлено отделений и техники", "Уничтоженные (Destroyed)", "F-TRAIN-3…7"),
                              ("Ранено", "В плену", "V-TURN")),
                             ("en", ("Teams mustered", "Destroyed", "recon deployment move"),
                              ("Wounded", "Captured", "V-TURN"))):
        with translation.override(lang):
            b = board(state, names={}, language=lang, sides={"attacker": "РККА", "defender": "Вермахт"},
                      vehicle_reserve=0)
            final = [{**row, "name": row["side"]} for row in final_state(state)]
            html = render_to_string("battles/_report_fow.html", {"board": b, "final": final})
            html += render_to_string("battles/_checklist_fow.html", {"battle": {"mission": ""}})
        text = _text(html)
        assert all(w in text for w in words), (words, text)
        assert not any(w in text for w in v11), text


def test_g_f1_the_state_shows_the_steps_of_the_turn_and_marks_the_current_one(fow_page):
    """G-F1 (the turn sequence, issue 28): the defender has Gone to Ground, so its Shooting Step is on."""
    ru = fow_page("ru")
    steps = re.search(r'<p class="fow-steps[^"]*">(.*?)</p>', ru, re.S)
    assert steps, "no Steps line in the FoW state region"
    assert _text(steps.group(1)).split() == "Шаги хода: Шаг Движения (Movement Step) → Шаг Стрельбы (Shooting Step) → Шаг Ближнего Боя (Assault Step)".split()
    assert re.search(r'<strong class="badge" aria-current="step">Шаг Стрельбы \(Shooting Step\)</strong>', ru)
    en = _text(fow_page("en"))
    assert "Steps of the turn: Movement Step → Shooting Step → Assault Step" in en


def test_the_game_master_of_a_fow_battle_is_told_of_no_hidden_mines(db, client, game_master):
    """FoW has no hidden mines (they are v11.2's, V-MINE-14): his notice does not speak of them."""
    campaign = Campaign.objects.create(name="Курская дуга", ruleset="fow", game_master=game_master)
    battle = battle_create(campaign=campaign, name="Прохоровка")
    battle_event_append(battle_id=battle.id, events=[NewEvent(t, d) for t, d in EVENTS], expected_seq=None,
                        as_game_master=True)
    battle_replay(battle_id=battle.id)
    client.force_login(game_master)
    text = _text(client.get(reverse("battle-detail", args=[battle.id]), HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert "Вы — мастер: вам видно всё." in text and "мины" not in text
