"""End to end, the game master's everyday jobs in a real browser: deciding a
proposal on its own admin page (V-RANK-4), the to-do panel on the admin index,
and finishing a campaign while a battle still runs.

Each test counts the clicks the job takes; the README's walkthrough quotes them.
"""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def proposal(transactional_db, game_master):
    from battles.services import battle_create
    from campaign.models import AwardRule, Campaign, Character, Nationality, Proposal

    campaign = Campaign.objects.create(name="Кампания")
    battle = battle_create(campaign=campaign, name="Бой у моста")
    hans = Character.objects.create(owner=game_master, name="Ганс Вебер", rank="lieutenant",
                                    nationality=Nationality.objects.get(code="de"))
    rule = AwardRule.objects.create(metric="objectives_taken", threshold=1, promotion=True)
    return Proposal.objects.create(campaign=campaign, battle=battle, character=hans, rule=rule, to_rank="captain",
                                   facts={"metrics": {"objectives_taken": 1}, "value": 1, "threshold": 1,
                                          "source_seq": 5})


def _admin_login(page, url: str) -> None:
    page.goto(f"{url}/admin/login/")
    page.fill("#id_username", "master")
    page.fill("#id_password", "pw-master")
    page.locator("input[type=submit]").click()


@pytest.mark.parametrize("button,status", [("Одобрить", "approved"), ("Отклонить", "rejected")])
def test_v_rank_4_approve_and_reject_on_the_proposals_own_page_decide_it(live_server, proposal, browser_page,
                                                                         button, status):
    from playwright.sync_api import expect

    from campaign.models import Proposal

    with browser_page(locale="ru-RU") as page:
        _admin_login(page, live_server.url)
        page.goto(f"{live_server.url}/admin/campaign/proposal/{proposal.pk}/change/")
        page.fill("#id_decision_note", "за мост")
        page.get_by_role("button", name=button, exact=True).click()  # click 1 from the proposal's page
        expect(page.locator(".messagelist")).to_be_visible()
        expect(page.get_by_role("button", name=button, exact=True)).to_have_count(0)
    p = Proposal.objects.get(pk=proposal.pk)
    assert (p.status, p.note) == (status, "за мост")


def test_join_a_campaign_from_sign_up_to_a_side_counting_clicks(live_server, transactional_db, game_master,
                                                                browser_page):
    """A visitor signs up (with an e-mail), creates a character, asks to join;
    the page says «заявка отправлена»; a roster for the campaign is refused on
    its field until the game master accepts him from the to-do panel in one
    click. The README quotes the clicks counted here."""
    from playwright.sync_api import expect

    from campaign.models import Campaign, Membership

    campaign = Campaign.objects.create(name="Курская дуга", status="running", attacker_name="Вермахт",
                                       defender_name="РККА")
    clicks = {"player": 0, "master": 0}

    def click(who, locator):
        clicks[who] += 1
        locator.click()

    with browser_page(locale="ru-RU") as page:
        page.goto(live_server.url + "/")
        click("player", page.get_by_test_id("home-signup"))
        page.fill("#id_username", "vasya")
        page.fill("#id_email", "vasya@example.org")
        page.fill("#id_password1", "Zvezda-1943-kursk")
        page.fill("#id_password2", "Zvezda-1943-kursk")
        click("player", page.get_by_role("button", name="Зарегистрироваться"))
        page.fill("#id_name", "Вася Тёркин")
        page.select_option("#id_nationality", index=1)
        click("player", page.get_by_role("button", name="Создать"))
        click("player", page.get_by_role("link", name="Штаб", exact=True))
        click("player", page.get_by_role("link", name="Курская дуга"))
        click("player", page.get_by_role("link", name="Вступить"))
        click("player", page.get_by_role("button", name="Попросить принять"))
        expect(page.get_by_test_id("membership")).to_contain_text("заявка отправлена")
        expect(page.get_by_role("link", name="Вступить")).to_have_count(0)
        join_clicks = clicks["player"]

        page.goto(live_server.url + "/rosters/new/")  # too early: said on the field, nothing saved
        page.fill("#id_name", "Рота Тёркина")
        page.select_option("#id_campaign", label="Курская дуга")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.locator(".errorlist")).to_contain_text("ещё не принята мастером")

    with browser_page(locale="ru-RU") as page:
        _admin_login(page, live_server.url)
        expect(page.get_by_test_id("gm-todo")).to_contain_text("К решению: 1 дело")
        row = page.get_by_test_id("todo-membership").filter(has_text="Вася Тёркин")
        click("master", row.get_by_role("button", name="В «РККА»"))
        expect(page.locator(".messagelist")).to_contain_text("Вася Тёркин теперь воюет за «РККА»")
        expect(page.get_by_test_id("todo-membership")).to_have_count(0)

    with browser_page(locale="ru-RU") as page:
        page.goto(live_server.url + "/rosters/new/")
        page.fill("#id_username", "vasya")
        page.fill("#id_password", "Zvezda-1943-kursk")
        page.get_by_role("button", name="Войти").click()
        page.fill("#id_name", "Рота Тёркина")
        page.select_option("#id_campaign", label="Курская дуга")
        page.select_option("#id_side", "attacker")  # not his side: said, never silently replaced
        page.get_by_role("button", name="Сохранить").click()
        expect(page.locator(".errorlist")).to_contain_text("воюет за сторону «РККА»")
        page.select_option("#id_side", "defender")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.get_by_test_id("total")).to_have_text("0")
    m = Membership.objects.get(campaign=campaign)
    assert (m.status, m.side, m.player.email) == ("active", "defender", "vasya@example.org")
    assert (join_clicks, clicks["master"]) == (7, 1)


def test_finishing_a_campaign_with_a_battle_running_warns_and_asks(live_server, transactional_db, game_master,
                                                                   browser_page):
    from playwright.sync_api import expect

    from battles.services import NewEvent, battle_create, battle_event_append
    from campaign.models import Campaign

    campaign = Campaign.objects.create(name="Кампания с боем", status="running")
    battle = battle_create(campaign=campaign, name="Бой у переправы")
    battle_event_append(battle_id=battle.id, expected_seq=0,
                        events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    with browser_page(locale="ru-RU") as page:
        _admin_login(page, live_server.url)
        page.goto(f"{live_server.url}/admin/campaign/campaign/")
        page.locator(f"input[name=_selected_action][value='{campaign.pk}']").check()
        page.select_option("select[name=action]", "finish")
        page.locator("button[name=index]").click()
        expect(page.get_by_test_id("running-warning")).to_be_visible()
        expect(page.get_by_role("link", name="Бой у переправы")).to_be_visible()
        page.get_by_role("link", name="Нет, пусть бои сначала закончатся").click()
        expect(page.locator("#result_list")).to_contain_text("идёт")
        page.locator(f"input[name=_selected_action][value='{campaign.pk}']").check()
        page.select_option("select[name=action]", "finish")
        page.locator("button[name=index]").click()
        page.get_by_role("button", name="Всё равно завершить").click()
        expect(page.locator(".messagelist")).to_contain_text("Кампания с боем")
    campaign.refresh_from_db()
    assert campaign.status == "finished"
