"""A form whose battle moved on refreshes itself and keeps what the player
typed (issue 25, «The page stays where you play»): the opponent records while
a player is filling a form; the page's live update brings the new head and the
new choices, his input and focus survive, and his entry is stored without a
409 to read."""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import recorded
from tests.e2e.test_battle_table import _login, club  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_form_follows_the_battle_and_keeps_the_players_input(live_server, club, browser_page,  # noqa: F811
                                                                   monkeypatch):
    from playwright.sync_api import expect

    # the test itself records at the table while the browser runs (Playwright's loop is not Django's concern)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    from battles.models import Battle, BattleEvent
    from battles.services import NewEvent, battle_event_append
    from battles.setup import muster

    battle = muster.battle_schedule(user=club.gm, campaign=club.campaign, name="Бой у моста")
    for char, roster in ((club.ivan_char, club.ivan_roster), (club.hans_char, club.hans_roster)):
        muster.battle_participant_add(user=club.gm, battle=battle, character=char, roster=roster)
    muster.battle_muster(user=club.gm, battle=battle)
    base = live_server.url
    with browser_page(locale="ru-RU", viewport={"width": 1280, "height": 900}) as ivan:
        _login(ivan, base, "ivan", f"/battles/{battle.id}/")
        ivan.wait_for_url(f"**/battles/{battle.id}/")
        postures = ivan.locator("#rec-postures")
        postures.get_by_label(re.compile(r"^1-е отделение(?!,)")).select_option(label="атака")
        postures.get_by_role("button").click()
        recorded(ivan)
        head = ivan.locator("#rec-quick_move input[name=expected_seq]").get_attribute("value")
        move = ivan.locator("#rec-quick_move")
        who = move.get_by_label("Кто движется")
        who.select_option(index=1)
        chosen = who.input_value()
        distance = move.get_by_label("Пройдено, дюймы")
        distance.fill("3")  # typing, cursor in the field
        # meanwhile the game master records an off-turn entry at the table (a morale test of hans's squad)
        unit = next(u for u in Battle.objects.get(pk=battle.id).projection.state["units"] if u.startswith("hans"))
        battle_event_append(battle_id=battle.id, expected_seq=None, as_game_master=True, events=[NewEvent(
            "morale_test", {"unit": unit, "die": {"value": 12, "source": "entered"}, "officer_distances": {}})])
        new_head = str(Battle.objects.get(pk=battle.id).head_seq)
        expect(ivan.locator("#rec-quick_move input[name=expected_seq]")).to_have_value(new_head, timeout=15000)
        assert new_head != head
        move = ivan.locator("#rec-quick_move")
        expect(move.get_by_label("Кто движется")).to_have_value(chosen)  # what he chose and typed is kept
        expect(move.get_by_label("Пройдено, дюймы")).to_have_value("3")
        expect(move.get_by_label("Пройдено, дюймы")).to_be_focused()
        move.get_by_label("Пройдено, дюймы").press("Enter")
        recorded(ivan)
        expect(ivan.locator("#last-entry")).to_contain_text("передвинул")  # stored: no stale-form notice
        assert BattleEvent.objects.filter(battle_id=battle.id).order_by("-seq").first().type == "fighters_moved"
