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
