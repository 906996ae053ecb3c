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


@pytest.mark.parametrize("width", [375, 1280])
def test_the_header_keeps_one_row_and_folds_the_rest_behind_the_menu(live_server, played, browser_page, width):
    """Issue 25 §4: at 375 px the header is one row (the brand and «Меню»), nothing in it lies beyond the
    screen's edge, and «Меню» unfolds the links, «Выйти» and the language; on a desktop they are all in the row."""
    from playwright.sync_api import expect

    with browser_page(viewport={"width": width, "height": 800}, locale="ru-RU") as page:
        page.goto(f"{live_server.url}/battles/{played.id}/")
        expect(page.locator("header").get_by_role("link", name="Войти")).to_be_visible()  # a visitor: in the row
        _login(page, live_server.url, "ivan")
        page.goto(f"{live_server.url}/battles/{played.id}/")
        header, toggle = page.locator("header"), page.locator("header .nav-toggle")
        logout = header.get_by_role("button", name="Выйти (ivan)")
        assert header.bounding_box()["height"] < 56
        assert header.evaluate("h => h.scrollWidth <= h.clientWidth")
        if width > 500:
            expect(toggle).to_be_hidden()
            expect(logout).to_be_visible()
            return
        expect(logout).to_be_hidden()
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        for item in (header.get_by_role("link", name="Ростеры"), logout, header.locator("select[name=language]")):
            expect(item).to_be_in_viewport()
        expect(header.get_by_role("link", name="Ростеры")).to_be_focused()
        page.keyboard.press("Escape")
        expect(logout).to_be_hidden()
        expect(toggle).to_be_focused()
        toggle.click()
        page.mouse.click(200, 500)  # a tap elsewhere on the page folds it too
        expect(logout).to_be_hidden()


def the_other_player_ends_his_turn(played, page) -> None:
    """РККА's «Ход» stored by the other player (in a thread: the ORM runs outside Playwright's event
    loop); the open page shows it without reloading (``window.__marker``, set by the test, survives)."""
    from playwright.sync_api import expect

    from tests.battles.test_battle_page import store

    table = played.table
    table.end_turn()
    worker = threading.Thread(target=store, args=(played, table.events[-1:]))
    worker.start()
    worker.join()
    expect(page.locator("#log-region")).to_contain_text("«Ход»: РККА завершили ход", timeout=15000)
    assert page.evaluate("window.__marker") == 1


def test_the_other_players_event_appears_without_a_reload(live_server, played, browser_page):
    from tests.battles.test_battle_page import without_tokens

    with browser_page(viewport={"width": 375, "height": 800}, locale="ru-RU") as page:
        _login(page, live_server.url, "hans")
        page.goto(f"{live_server.url}/battles/{played.id}/")
        page.evaluate("window.__marker = 1")  # gone if the page reloads
        the_other_player_ends_his_turn(played, page)
        assert "m1" not in without_tokens(page.content())


def test_where_the_server_waits_the_page_waits_with_it_and_the_other_players_entry_arrives(
        live_server, played, browser_page, settings):
    """Issue 25 (battles.log.moves, PostgreSQL): the page's live request waits at the server instead of
    asking every second, and the other player's entry still reaches the page without a reload."""
    from django.db import connection

    from battles.log import moves

    if connection.vendor != "postgresql":
        pytest.skip("a live request waits on PostgreSQL's NOTIFY")
    settings.LIVE_WAIT_SECONDS = 20
    try:
        with browser_page(viewport={"width": 375, "height": 800}, locale="ru-RU") as page:
            _login(page, live_server.url, "hans")
            live = []
            page.context.on("request", lambda r: live.append(r.url) if "/live/" in r.url else None)
            page.goto(f"{live_server.url}/battles/{played.id}/")
            assert page.locator("#battle").get_attribute("data-wait") == "20"
            page.evaluate("window.__marker = 1")
            page.wait_for_timeout(3500)  # nothing moves: one request waits (asking every second would have sent three)
            assert 1 <= len(live) <= 2 and all("wait=20" in u for u in live), live
            the_other_player_ends_his_turn(played, page)
    finally:
        moves.stop()


def test_the_game_masters_proposal_link_stays_on_a_375_px_screen(live_server, played, browser_page):
    """The game master's proposals on the battle page: each one's link to decide it in the admin sits under
    the proposal, on the screen at 375 px (in a column of its own it was past the table's scroll edge)."""
    from campaign.models import AwardRule, Proposal

    rule = AwardRule.objects.create(campaign=played.campaign, metric="objectives_taken", threshold=1, promotion=True)
    Proposal.objects.create(campaign=played.campaign, battle=played, rule=rule, to_rank="captain",
                            character=played.participants.get(side="defender").character)
    with browser_page(viewport={"width": 375, "height": 800}, locale="ru-RU") as page:
        _login(page, live_server.url, "master")
        page.goto(f"{live_server.url}/battles/{played.id}/")
        link = page.locator("#proposals-region tr", has_text="Ivan").get_by_role("link", name="решить в админке")
        page.locator("#proposals-region h3").scroll_into_view_if_needed()  # the page, not the table, scrolled
        box = link.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= 375, box
        link.click()
        page.wait_for_url("**/admin/campaign/proposal/*/change/")
