"""The pre-battle command is live (V-RANK-9..12): a player's page shows another player's command roll, and
the captain's posts, without a reload, though a command entry is a campaign event and moves no head, and
what he was typing in the command forms stays."""
from __future__ import annotations

import pytest

from tests.battles.conftest import make_member, table  # noqa: F401  (the fixtures two_defenders takes)
from tests.battles.test_command_on_the_page import _roll, two_defenders  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_v_rank_9_another_players_command_roll_appears_on_an_open_page(live_server, two_defenders,  # noqa: F811
                                                                       browser_page, monkeypatch):
    from django.test import Client
    from playwright.sync_api import expect

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # petr records from the test while the browser runs
    t = two_defenders
    t.petr_char = t.battle.participants.get(character__owner=t.petr).character
    ivan_client, petr = Client(), Client()
    ivan_client.force_login(t.ivan)
    petr.force_login(t.petr)
    with browser_page(locale="ru-RU", viewport={"width": 375, "height": 800}) as ivan:
        ivan.context.add_cookies([{"name": "sessionid", "value": ivan_client.cookies["sessionid"].value,
                                   "url": live_server.url}])
        ivan.goto(f"{live_server.url}/battles/{t.battle.id}/")
        command = ivan.locator("#command-region")
        expect(command).to_contain_text("Каждый игрок стороны бросает кубик")
        face = command.locator(f"input[name='roll-{t.ivan_char.pk}-value']")
        face.fill("9")  # ivan is typing his face for the next round when petr records a tie (G-13)
        assert _roll(petr, t, ivan=12, petr=12).status_code == 302
        expect(command).to_contain_text("Круг 2", timeout=10000)
        expect(face).to_have_value("9")  # what he typed is kept across the section's renewal
        assert _roll(petr, t, ivan=4, petr=17).status_code == 302  # from petr's page
        expect(command).to_contain_text("Petr командует стороной в этом бою", timeout=10000)
        expect(command).to_contain_text("Ivan: 4, Petr: 17")
        assert petr.post(f"/battles/{t.battle.id}/command/posts/", {
            "side": "defender", f"post-{t.ivan_char.pk}-post": "командир 1-го отделения",
            f"post-{t.ivan_char.pk}-rank": "sergeant"}).status_code == 302
        expect(command).to_contain_text("Ivan — командир 1-го отделения (сержант)", timeout=10000)
        expect(ivan.locator("#battle")).not_to_have_attribute("data-command", "2")  # settled: no more asking
