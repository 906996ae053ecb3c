"""End to end, in Chromium: the roster builder never loses what the player
typed while a live update arrives. A count sent on its own (the live forms
swap the page body) comes back while the player is typing a unit's name in
another form: the name stays as typed, with the focus and the caret where he
was. The class he picks shows its numbers under the form at once."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def draft(transactional_db):
    from django.contrib.auth.models import Group, User

    from campaign.models import Character, Nationality
    from rosters import services
    from rosters.models import InfantryClass

    user = User.objects.create_user(username="ivan", password="pw-ivan")
    user.groups.add(Group.objects.get(name="player"))
    character = Character.objects.create(owner=user, name="Иван Петров", rank="sergeant",
                                         nationality=Nationality.objects.get(code="su"))
    roster = services.roster_create(user=user, character=character, name="Черновик")
    squad = services.unit_add(user=user, roster=roster, kind="squad", name="Первое отделение")
    services.fighter_add(user=user, roster=roster, infantry_class=InfantryClass.objects.get(code="rifleman"),
                         count=4, unit=squad, fire_team=1)
    InfantryClass.objects.filter(code="sniper").update(fire_dug_in=30)
    return roster


@pytest.mark.parametrize("width", [1280, 375])
def test_typing_survives_a_live_update_and_the_class_shows_its_numbers(live_server, draft, browser_page, width):
    from playwright.sync_api import expect

    with browser_page(viewport={"width": width, "height": 900}, locale="ru-RU") as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/rosters/{draft.pk}/")
        page.fill("#id_username", "ivan")
        page.fill("#id_password", "pw-ivan")
        page.get_by_role("button", name="Войти").click()
        squad = page.locator('section[data-unit="Первое отделение"]')
        expect(squad).to_be_visible()

        add = squad.locator("form.add-fighters")
        add.locator("select[name=infantry_class]").select_option("sniper")
        expect(add.locator("[data-class-card]")).to_contain_text("Снайпер — в бою: снайпер")
        expect(add.locator("[data-class-card]")).to_contain_text("окопано 30″")

        held = []
        page.route("**/fighters/*/count/", lambda route: held.append(route))
        page.fill("#unit_name", "Второе")
        count = squad.locator("form.count input[name=count]").first
        count.fill("5")
        count.dispatch_event("change")  # sent at once, as a thumb on a phone does
        page.wait_for_timeout(200)
        assert len(held) == 1  # the update is on its way back
        page.focus("#unit_name")
        page.keyboard.press("End")
        page.keyboard.type(" отделение")
        held[0].continue_()
        expect(page.get_by_test_id("total")).to_have_text("5")
        expect(page.locator("#unit_name")).to_have_value("Второе отделение")
        expect(page.locator("#unit_name")).to_be_focused()
        page.keyboard.type("!")  # the caret stayed at the end
        expect(page.locator("#unit_name")).to_have_value("Второе отделение!")
        # the class the player picked elsewhere is still his choice, its numbers still shown
        add = page.locator('section[data-unit="Первое отделение"] form.add-fighters')
        expect(add.locator("select[name=infantry_class]")).to_have_value("sniper")
        expect(add.locator("[data-class-card]")).to_contain_text("Снайпер")
