"""End to end, in a real browser against a live server: a player builds a
valid squad, pushes it over budget, sees the error, fixes it and submits.

Rules exercised: V-PP-2 (a sergeant's 16 PP), V-SQUAD-1 (fire teams of 5–7),
V-SQUAD-11 (at most 14 men), V-TURN-1 (bought within the budget).
"""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sergeant(transactional_db):
    from django.contrib.auth.models import Group, User

    from campaign.models import Character, Nationality

    user = User.objects.create_user(username="ivan", password="pw-ivan")
    user.groups.add(Group.objects.get(name="player"))
    Character.objects.create(owner=user, name="Иван Петров", nationality=Nationality.objects.get(code="su"),
                             rank="sergeant")
    return user


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_build_a_squad_exceed_the_budget_fix_it_and_submit(live_server, sergeant, browser_page, javascript):
    """With JavaScript the forms update the page in place; without it every form posts and redirects."""
    from playwright.sync_api import expect

    from rosters.models import Roster  # noqa: F401 - imported before the browser starts

    with browser_page(viewport={"width": 390, "height": 844}, locale="ru-RU",  # a phone at the table
                      java_script_enabled=javascript) as page:
        page.goto(f"{live_server.url}/rosters/")  # redirected to the project's login page
        page.fill("#id_username", "ivan")
        page.fill("#id_password", "pw-ivan")
        page.get_by_role("button", name="Войти").click()
        expect(page.get_by_role("heading", name="Мои ростеры")).to_be_visible()

        page.get_by_role("link", name="Новый ростер").click()
        page.fill("#id_name", "Отделение Петрова")
        page.select_option("#id_character", label="Иван Петров")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.get_by_test_id("total")).to_have_text("0")

        page.select_option("#unit_kind", "squad")
        page.fill("#unit_name", "Первое отделение")
        page.get_by_role("button", name="Добавить подразделение").click()
        squad = page.locator('section[data-unit="Первое отделение"]')
        expect(squad).to_be_visible()

        def add(cls: str, count: int, team: int, total: str) -> None:
            form = squad.locator("form.add-fighters")
            form.locator("select[name=infantry_class]").select_option(cls)
            form.locator("input[name=count]").fill(str(count))
            form.locator("select[name=fire_team]").select_option(str(team))
            form.get_by_role("button", name="Добавить").click()
            expect(page.get_by_test_id("total")).to_have_text(total)

        add("sergeant", 1, 1, "1")
        add("rifleman", 4, 1, "5")
        add("corporal", 1, 2, "6")
        add("rifleman", 4, 2, "10")
        expect(page.get_by_test_id("valid")).to_be_visible()
        expect(page.get_by_test_id("budget")).to_contain_text("16")

        if javascript:  # a changed count is sent on its own, no button needed
            count = squad.locator("tr[data-class=rifleman] input[type=number]").first
            count.fill("5")
            count.press("Tab")
            expect(page.get_by_test_id("total")).to_have_text("11")
            count = squad.locator("tr[data-class=rifleman] input[type=number]").first
            count.fill("4")
            count.press("Tab")
            expect(page.get_by_test_id("total")).to_have_text("10")

        # Over budget: 7 more riflemen in fire team 2 -> 17 PP > 16 (V-PP-2), 11 men in a team (V-SQUAD-1).
        add("rifleman", 7, 2, "17")
        expect(page.get_by_test_id("budget")).to_have_class(re.compile(r"\bover\b"))
        expect(page.locator('[data-rule="V-PP-2"]')).to_contain_text("превышает бюджет 16")
        expect(squad.locator('[data-rule="V-SQUAD-1"]')).to_be_visible()
        expect(squad.locator('[data-rule="V-SQUAD-11"]')).to_be_visible()

        page.get_by_test_id("submit").click()
        expect(page.locator(".messages .error")).to_contain_text("нельзя подать")
        expect(page.get_by_test_id("status")).to_have_text("черновик")

        # Fix it: set the line of 7 riflemen to 0.
        line = squad.locator("tr[data-class=rifleman]").filter(has=page.locator("input[type=number][value='7']"))
        line.locator("input[type=number]").fill("0")
        line.get_by_role("button", name="Задать").click()
        expect(page.get_by_test_id("total")).to_have_text("10")
        expect(page.get_by_test_id("valid")).to_be_visible()
        expect(page.locator("[data-rule]")).to_have_count(0)

        page.get_by_test_id("submit").click()
        expect(page.get_by_test_id("status")).to_have_text("подан")
        expect(page.locator(".messages .success")).to_contain_text("подан на бой")


def test_game_master_locks_a_submitted_roster_and_the_player_can_no_longer_change_it(
        live_server, sergeant, game_master, browser_page):
    from playwright.sync_api import expect

    from campaign.models import Character
    from rosters import services
    from rosters.models import InfantryClass

    roster = services.roster_create(user=sergeant, character=Character.objects.get(owner=sergeant), name="Подан")
    squad = services.unit_add(user=sergeant, roster=roster, kind="squad", name="Отделение")
    for cls, count, team in (("sergeant", 1, 1), ("rifleman", 4, 1), ("corporal", 1, 2), ("rifleman", 4, 2)):
        services.fighter_add(user=sergeant, roster=roster, infantry_class=InfantryClass.objects.get(code=cls),
                             count=count, unit=squad, fire_team=team)
    services.roster_submit(user=sergeant, roster=roster)
    url = f"{live_server.url}/rosters/{roster.pk}/"

    def login(page, username: str, password: str) -> None:
        page.goto(url)
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.get_by_role("button", name="Войти").click()
        expect(page.get_by_test_id("status")).to_be_visible()

    with browser_page(locale="ru-RU") as page:
        login(page, "master", "pw-master")
        expect(page.get_by_test_id("status")).to_have_text("подан")
        page.get_by_role("button", name="Заблокировать").click()
        expect(page.get_by_test_id("status")).to_have_text("заблокирован")
    with browser_page(locale="ru-RU") as page:
        login(page, "ivan", "pw-ivan")
        expect(page.get_by_test_id("status")).to_have_text("заблокирован")
        expect(page.get_by_test_id("submit")).to_have_count(0)
        expect(page.locator("form.add-fighters")).to_have_count(0)
        expect(page.get_by_role("button", name="Вернуть в черновик")).to_have_count(0)
