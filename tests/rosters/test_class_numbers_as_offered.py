"""The roster builder shows each infantry class's numbers as it offers the
class: class in battle, observation, fire distance by posture, attack and
defence, from the game data the game master edits (``InfantryClass``, G-1,
G-3), in the battle page's words (``battles.engine.terms``)."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from rosters import services
from rosters.models import InfantryClass

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(player, roster):
    services.unit_add(user=player, roster=roster, kind="squad", name="1-е отделение")
    web = Client()
    web.force_login(player)

    def get(language="ru") -> str:
        return web.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    return get


def _row(html: str, code: str) -> list[str]:
    row = re.search(rf'<tr data-class="{code}">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
    return [re.sub(r"\s*\*$", "", re.sub(r"<[^>]+>", "", cell).strip()) for cell in cells]  # * : placeholder


def test_the_class_table_shows_every_class_with_the_game_masters_numbers(page):
    InfantryClass.objects.filter(code="sniper").update(observation_in=14, fire_dug_in=30, fire_march=None,
                                                       fire_recon=20, fire_assault=10, attack=2, defence=1)
    html = page()
    assert _row(html, "sniper") == ["Снайпер", "1", "снайпер", "14″", "30″", "—", "20″", "10″", "2", "1"]
    header = re.search(r'<table class="class-table">.*?</thead>', html, re.S).group(0)
    for word in ("окопано", "на марше", "разведка", "атака", "Обзор", "Оборона", "В бою"):
        assert word in header
    assert len(re.findall(r'<tr data-class="', html)) == InfantryClass.objects.count()


def test_officers_read_under_the_nations_rank_names_and_their_class_in_battle(page):
    assert _row(page(), "corporal")[:3] == ["Младший сержант", "1", "офицер"]  # G-23: СССР
    assert _row(page("en"), "corporal")[:3] == ["Junior sergeant", "1", "officer"]


def test_each_add_form_shows_the_numbers_of_the_class_it_offers_first(page):
    html = page()
    form = re.search(r'<form[^>]*class="inline live add-fighters".*?</form>', html, re.S).group(0)
    first = InfantryClass.objects.order_by("position", "id").first()
    card = re.sub(r"<[^>]+>", "", re.search(r'data-class-card>(.*?)</small>', form, re.S).group(1))
    assert card.startswith(f"{first.name_ru} — в бою: стрелок · обзор {first.observation_in}″")
    assert f"огонь по положениям: окопано {first.fire_dug_in}″ · на марше —" in card
    # every other class's card is on the page once, for the script that follows the player's choice
    cards = re.search(r'<div hidden id="class-cards">(.*?)</div>', html, re.S).group(1)
    assert re.findall(r'data-card="([\w-]+)"', cards) == list(
        InfantryClass.objects.order_by("position", "id").values_list("code", flat=True))


def test_in_english_the_numbers_read_in_english(page):
    html = page("en")
    assert "fire by posture: dug in" in html and "on the march" in html and "in battle: rifleman" in html
