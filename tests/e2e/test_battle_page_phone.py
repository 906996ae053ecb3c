"""In a real browser: the battle, campaign and standings pages fit a 375 px
phone (wide tables scroll inside themselves, never the page), and the other
player's event appears on the battle page without a reload (short polling).
"""
from __future__ import annotations

import threading

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def played(transactional_db, game_master):
    from django.contrib.auth.models import Group, User

    from battles.models import BattleParticipant
    from battles.services import battle_create
    from campaign import services
    from campaign.models import Campaign, Nationality
    from tests.battles.test_battle_page import defender_mine, store

    campaign = Campaign.objects.create(name="Кампания с очень длинным названием для узкого экрана",
                                       attacker_name="Вермахт", defender_name="РККА")
    battle = battle_create(campaign=campaign, name="Бой у моста")
    users = {}
    for username, side in (("ivan", "defender"), ("hans", "attacker")):
        user = User.objects.create_user(username=username, password="pw-" + username)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=username.title(), rank="lieutenant",
                                              nationality=Nationality.objects.get(code="su"))
        BattleParticipant.objects.create(battle=battle, character=character, side=side)
        users[username] = user
    game_master.set_password("pw-master")
    game_master.save()
    table = defender_mine()
    store(battle, table.events)
    battle.table = table
    return battle


def _login(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-" + username)
    page.locator("main button[type=submit], main input[type=submit]").first.click()


@pytest.mark.parametrize("who", [None, "ivan", "master"])
def test_the_pages_fit_a_375_px_phone(live_server, played, browser_page, who):
    pages = [f"/battles/{played.id}/", f"/campaigns/{played.campaign_id}/",
             f"/campaigns/{played.campaign_id}/standings/"]
    with browser_page(viewport={"width": 375, "height": 800}, locale="ru-RU") as page:
        if who:
            _login(page, live_server.url, who)
        for url in pages:
            page.goto(live_server.url + url)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, (url, width)
        page.goto(f"{live_server.url}/battles/{played.id}/")
        assert page.locator("#state-region").is_visible() and page.locator("#log-region").is_visible()


def test_the_other_players_event_appears_without_a_reload(live_server, played, browser_page):
    from playwright.sync_api import expect

    from tests.battles.test_battle_page import store, without_tokens

    with browser_page(viewport={"width": 375, "height": 800}, locale="ru-RU") as page:
        _login(page, live_server.url, "hans")
        page.goto(f"{live_server.url}/battles/{played.id}/")
        page.evaluate("window.__marker = 1")  # gone if the page reloads
        table = played.table
        table.end_turn()
        # the other player records (the ORM runs outside Playwright's event loop)
        worker = threading.Thread(target=store, args=(played, table.events[-1:]))
        worker.start()
        worker.join()
        expect(page.locator("#log-region")).to_contain_text("«Ход»: РККА завершили ход", timeout=15000)
        assert page.evaluate("window.__marker") == 1
        assert "m1" not in without_tokens(page.content())
