"""End to end, a player reshaping his roster in a real browser: removing a
unit asks first and says what goes with it; a unit is renamed and moved
under another unit instead of being removed and re-added, within the roster
rules (V-PLT-3). Also: messages show once, and do not linger into later actions.
"""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def platoon_roster(transactional_db):
    """A platoon of two squads (10 + 15 men), a company and a loose truck."""
    from django.contrib.auth.models import Group, User

    from campaign.models import Character, Nationality
    from rosters import services
    from rosters.models import InfantryClass

    user = User.objects.create_user(username="ivan", password="pw-ivan")
    user.groups.add(Group.objects.get(name="player"))
    character = Character.objects.create(owner=user, name="Иван Петров", rank="lieutenant",
                                         nationality=Nationality.objects.get(code="su"))
    roster = services.roster_create(user=user, character=character, name="Рота Петрова")
    company = services.unit_add(user=user, roster=roster, kind="company", name="Рота")
    platoon = services.unit_add(user=user, roster=roster, kind="platoon", name="Первый взвод")
    rifleman = InfantryClass.objects.get(code="rifleman")
    for name, men in (("Отделение А", 10), ("Отделение Б", 15)):
        squad = services.unit_add(user=user, roster=roster, kind="squad", name=name, parent=platoon)
        services.fighter_add(user=user, roster=roster, infantry_class=rifleman, count=men, unit=squad, fire_team=1)
    return {"roster": roster, "company": company, "platoon": platoon}


def _login(page, url: str) -> None:
    page.goto(url)
    page.fill("#id_username", "ivan")
    page.fill("#id_password", "pw-ivan")
    page.get_by_role("button", name="Войти").click()


def test_removing_a_unit_asks_first_and_names_what_goes(live_server, platoon_roster, browser_page):
    from playwright.sync_api import expect

    from rosters.models import Fighter, Unit

    roster = platoon_roster["roster"]
    with browser_page(locale="ru-RU") as page:
        _login(page, f"{live_server.url}/rosters/{roster.pk}/")
        platoon = page.locator('section[data-unit="Первый взвод"]')
        platoon.get_by_role("link", name="Убрать подразделение").first.click()
        summary = page.get_by_test_id("removal-summary")
        expect(summary.get_by_test_id("sub-units")).to_contain_text("2 подчинённых подразделения")
        expect(summary.get_by_test_id("sub-units")).to_contain_text("«Отделение А», «Отделение Б»")
        expect(summary.get_by_test_id("fighters")).to_have_text("25 бойцов")
        page.get_by_role("link", name="Отмена").click()  # changed his mind: nothing went
        expect(page.locator('section[data-unit="Первый взвод"] section[data-unit="Отделение Б"]')).to_be_visible()

        page.locator('section[data-unit="Первый взвод"]').get_by_role("link", name="Убрать подразделение").first.click()
        page.get_by_test_id("confirm-remove").click()
        expect(page.locator('section[data-unit="Первый взвод"]')).to_have_count(0)
        expect(page.locator(".messages li")).to_have_count(1)  # once, not twice
        expect(page.locator(".messages li")).to_contain_text("Убрано «Первый взвод»")
    assert not Unit.objects.filter(roster=roster, kind__in=["platoon", "squad"]).exists()
    assert not Fighter.objects.filter(roster=roster).exists()


def test_v_plt_3_a_unit_is_renamed_and_moved_within_the_roster_rules(live_server, platoon_roster, browser_page):
    from playwright.sync_api import expect

    from rosters.models import Unit

    roster = platoon_roster["roster"]
    with browser_page(locale="ru-RU") as page:
        _login(page, f"{live_server.url}/rosters/{roster.pk}/")
        squad = page.locator('section[data-unit="Отделение Б"]')
        squad.get_by_role("link", name="Переименовать / перенести").first.click()
        # A squad is part of a platoon or stands alone, never directly of a company (V-PLT-3).
        page.select_option("#id_parent", label="Рота")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.locator(".errorlist")).to_contain_text("нельзя поставить в «Рота»")
        expect(page.locator(".errorlist")).to_contain_text("V-PLT-3")

        page.fill("#id_name", "Отделение Б (резерв)")
        page.select_option("#id_parent", label="— верхний уровень ростера —")
        page.get_by_role("button", name="Сохранить").click()
        moved = page.locator('section[data-unit="Отделение Б (резерв)"]')
        expect(moved).to_be_visible()
        expect(moved).to_contain_text("15 человек")  # its fighters came along
        expect(page.locator('section[data-unit="Первый взвод"] section[data-unit="Отделение Б (резерв)"]')
               ).to_have_count(0)
        expect(page.locator(".messages li")).to_have_count(1)
    unit = Unit.objects.get(name="Отделение Б (резерв)")
    assert unit.parent_id is None and unit.fighters.get().count == 15


def test_a_message_does_not_linger_into_the_next_live_action(live_server, platoon_roster, browser_page):
    """«Скопировано.» after Duplicate is gone once the player changes something (JS swap)."""
    from playwright.sync_api import expect

    roster = platoon_roster["roster"]
    with browser_page(locale="ru-RU") as page:
        _login(page, f"{live_server.url}/rosters/{roster.pk}/")
        page.get_by_role("button", name="Копировать").click()
        expect(page.locator(".messages li")).to_have_count(1)
        expect(page.locator(".messages li")).to_have_text("Скопировано.")
        page.select_option("#unit_kind", "squad")
        page.fill("#unit_name", "Новое отделение")
        page.get_by_role("button", name="Добавить подразделение").click()
        expect(page.locator('section[data-unit="Новое отделение"]')).to_be_visible()
        expect(page.get_by_text("Скопировано.")).to_have_count(0)


def test_the_owner_shares_a_read_only_link_and_turns_it_off(live_server, platoon_roster, browser_page):
    from playwright.sync_api import expect

    roster = platoon_roster["roster"]
    with browser_page(locale="ru-RU") as owner:
        _login(owner, f"{live_server.url}/rosters/{roster.pk}/")
        owner.get_by_role("button", name="Поделиться ссылкой для просмотра").click()  # 1 click
        link = owner.get_by_test_id("share-url").input_value()
        assert "?share=" in link
        reader = owner.context.browser.new_context(locale="ru-RU").new_page()  # a visitor, not logged in
        reader.goto(link)
        expect(reader.get_by_test_id("read-only")).to_be_visible()
        expect(reader.locator('section[data-unit="Первый взвод"]')).to_be_visible()
        expect(reader.get_by_test_id("submit")).to_have_count(0)
        expect(reader.get_by_role("link", name="Убрать подразделение")).to_have_count(0)
        owner.get_by_role("button", name="Закрыть доступ по ссылке").click()
        expect(owner.get_by_test_id("share-url")).to_have_count(0)
        response = reader.goto(link)
        assert response.status == 404
