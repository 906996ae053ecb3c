"""The roster builder asks for the side by its name in the campaign («РККА»,
«Вермахт»), not as attacker or defender, and shows it so."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from rosters import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def red_army(campaign, character, enlist):
    campaign.attacker_name, campaign.defender_name = "Вермахт", "РККА"
    campaign.save()
    enlist(campaign, character, side="defender")
    return campaign


@pytest.fixture
def web(player):
    c = Client()
    c.force_login(player)
    return c


def _options(html: str, name: str) -> list[tuple[str, str]]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)


def test_the_edit_form_names_the_sides_of_the_rosters_campaign(web, player, character, red_army):
    roster = services.roster_create(user=player, character=character, name="Рота", campaign=red_army)
    html = web.get(f"/rosters/{roster.pk}/edit/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert _options(html, "side") == [("", "—"), ("attacker", "Вермахт"), ("defender", "РККА")]
    assert re.search(r'<option value="defender" selected>РККА</option>', html)


def test_a_new_roster_names_the_sides_of_the_campaign_chosen_and_each_campaign_carries_its_names(web, red_army):
    html = web.get("/rosters/new/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert _options(html, "side") == [("", "—"), ("attacker", "атакующая сторона"),
                                      ("defender", "обороняющаяся сторона")]  # no campaign chosen yet
    assert re.search(rf'<option value="{red_army.pk}" data-attacker="Вермахт" data-defender="РККА">', html)
    assert 'data-attacker="атакующая сторона" data-defender="обороняющаяся сторона"' in html  # the plain words back
    refused = web.post("/rosters/new/", {"name": "Рота", "character": "", "campaign": red_army.pk, "side": ""},
                       HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert _options(refused, "side")[1:] == [("attacker", "Вермахт"), ("defender", "РККА")]


def test_the_roster_page_says_the_side_by_its_name(web, player, character, red_army):
    roster = services.roster_create(user=player, character=character, name="Рота", campaign=red_army)
    html = web.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<span data-testid="side">РККА</span>' in html and "обороняющаяся" not in html
