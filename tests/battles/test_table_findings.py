"""What the end-to-end battle (tests/e2e/test_battle_table.py) found awkward
for a player, each pinned by a focused test: refusals name the pieces, a
refused form opens where it was sent, postures read alike in the form and on
the page, a plain move is no "through an opening", the page polls soon while
the state lags behind the log."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from battles.engine.terms import readable, term
from battles.table.choices import Table
from battles.table.forms import EventForm
from battles.table.report import sentence

from .test_recording import FORCES, SIDES, START, client_for, declare, fold, post, table_battle  # noqa: F401


def test_readable_names_the_pieces_an_engine_refusal_gives_by_id():
    names = {"ivan-s1-f1": "Стрелок №1", "ivan-s1-f10": "Медик №1"}
    assert readable('Боец ivan-s1-f10 может пройти не более 0.0" в этом положении.', names=names) == \
        'Боец Медик №1 может пройти не более 0" в этом положении.'
    assert readable("Боец 'ivan-s1-f1' не найден.", names=names) == "Боец «Стрелок №1» не найден."
    assert readable("Дистанция огня rifle — не более 8.0\".", names={}) == "Дистанция огня винтовка — не более 8\"."
    assert readable("Fighter ivan-s1-f1 cannot fire rifle.", names=names, language="en") == \
        "Fighter Стрелок №1 cannot fire rifle."


@pytest.mark.django_db(transaction=True)
def test_v_turn_10_a_refused_move_names_the_fighter_and_opens_at_the_refused_form(table_battle):  # noqa: F811
    battle, users = table_battle
    c = client_for(users["defender"])
    declare(c, battle)  # the squad in reconnaissance: 6 in at most (V-TURN-10)
    page = c.get(f"/battles/{battle.id}/").content.decode()
    assert f'action="/battles/{battle.id}/record/#rec-quick_move"' in page
    with translation.override("ru"):
        r = post(c, battle, "quick_move", {"quick_move-who": "f:d-r1", "quick_move-distance": "9"})
    html = r.content.decode()
    refusal = re.search(r'<p class="refusal"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert r.status_code == 422 and "V-TURN-10" in refusal
    assert "Рядовой Козлов" in refusal and "d-r1" not in refusal


def test_v_turn_9_the_postures_form_offers_the_words_the_page_shows():
    state = fold([*FORCES, START])
    table = Table(state, "defender", {"def-sq": "Взвод Орлова"}, SIDES)
    for language in ("ru", "en"):
        with translation.override(language):
            form = EventForm(event_type="postures_declared", table=table, side_choices=[("defender", "РККА")])
            choices = [str(label) for value, label in form.fields["units__0"].choices]
            assert choices == [term("posture", p, language) for p in ("dug_in", "march", "recon", "assault")]


@pytest.mark.parametrize(("morale", "held"), [("dug_in", "dug_in"), ("retreat", "march")])
def test_v_morale_2_a_unit_held_by_its_morale_result_is_offered_that_posture_alone(morale, held):
    """The postures form offers what the engine accepts: a unit whose morale test dug it in (or sent it back)
    keeps that posture, so its select holds that one posture, its help saying why; its value is what the check takes."""
    state = fold([*FORCES, START])
    state["units"]["def-sq"]["morale"] = morale
    table = Table(state, "defender", {"def-sq": "Взвод Орлова"}, SIDES)
    with translation.override("ru"):
        form = EventForm(event_type="postures_declared", table=table, side_choices=[("defender", "РККА")])
        field = form.fields["units__0"]
        assert [(v, str(label)) for v, label in field.choices] == [(held, term("posture", held, "ru"))]
        assert field.initial == held and str(field.help_text) == "Так велит результат теста морали (V-MORALE-2)."
    state["units"]["def-sq"]["morale"] = ""
    free = EventForm(event_type="postures_declared", table=Table(state, "defender", {}, SIDES),
                     side_choices=[("defender", "РККА")])
    assert [v for v, _ in free.fields["units__0"].choices] == ["dug_in", "march", "recon", "assault"]
    assert not free.fields["units__0"].help_text


def test_a_move_in_the_open_says_nothing_of_an_opening():
    data = {"side": "defender", "fighters": ["d-r1"], "distance": 5, "through_opening": True}  # the default
    text = sentence("fighters_moved", data, "ru", names={"d-r1": "Козлов"}, sides=SIDES)
    assert "Козлов" in text and "5″" in text and "проём" not in text
    inside = sentence("fighters_moved", {**data, "enter_house": "H1"}, "ru", names={}, sides=SIDES)
    assert "через проём (V-HOUSE-8)" in inside


def test_the_page_polls_soon_while_the_state_lags_behind_the_log():
    from django.contrib.staticfiles import finders

    with open(finders.find("battles/table.js"), encoding="utf-8") as script:  # the page's script (issue 30)
        source = script.read()
    assert "root.dataset.state !== root.dataset.head" in source and "return 500" in source
