"""The proposal's admin page, as the game master reaches it from the battle
page: its Approve/Reject buttons submit a form that exists (not one nested in
the change form, which browsers drop), and the facts read as words."""
from __future__ import annotations

import pytest


@pytest.fixture
def proposal(db, game_master):
    from battles.services import battle_create
    from campaign.models import AwardRule, Campaign, Character, Nationality, Proposal

    campaign = Campaign.objects.create(name="Кампания")
    battle = battle_create(campaign=campaign, name="Бой у моста")
    hans = Character.objects.create(owner=game_master, name="Ганс Вебер", rank="lieutenant",
                                    nationality=Nationality.objects.get(code="de"))
    rule = AwardRule.objects.create(metric="objectives_taken", threshold=1, promotion=True)
    return Proposal.objects.create(campaign=campaign, battle=battle, character=hans, rule=rule, to_rank="captain",
                                   facts={"metrics": {"objectives_taken": 1, "battles_won": 1, "casualties": 0},
                                          "value": 1, "threshold": 1, "source_seq": 5})


def test_v_rank_4_the_decision_form_stands_outside_the_change_form(client, game_master, proposal):
    client.force_login(game_master)
    html = client.get(f"/admin/campaign/proposal/{proposal.pk}/change/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    change_form_end = html.index("</form>", html.index('id="proposal_form"'))
    assert html.index('<form id="decide-form"') > change_form_end, "a nested form is dropped by the browser"
    assert 'form="decide-form"' in html
    r = client.post(f"/admin/campaign/proposal/{proposal.pk}/decide/", {"approve": "1"})
    proposal.refresh_from_db()
    assert r.status_code == 302 and proposal.status == "approved"


def test_the_facts_and_the_title_read_as_words_not_keys(client, game_master, proposal):
    client.force_login(game_master)
    html = client.get(f"/admin/campaign/proposal/{proposal.pk}/change/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for key in ("objectives_taken", "battles_won", "casualties", "→ captain"):
        assert key not in html, key
    assert "объектов взято его стороной" in html and "→ капитан" in html
