"""Dates read the same everywhere (issue 13): 01.12.2026 in Russian on the
chronicle, the service record and the battle setup page (FORMAT_MODULE_PATH,
config/formats), 01 Dec 2026 in English; the Atom feed's are RFC 3339."""
from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from freezegun import freeze_time

from campaign import services
from campaign.models import Campaign, Nationality
from tests.pages import visible_text

OTHER_FORMATS = [r"\d{1,2}/\d{1,2}/\d{4}", r"\d{4}-\d{2}-\d{2}", r"\d{1,2} (декабря|December|Dec\.)",
                 r"[ap]\.m\.", r"\bг\.", r"\d{1,2}\.\d{1,2}\.\d{2}\b(?!\d)"]


@pytest.fixture
def dated(player, game_master):
    with freeze_time(datetime(2026, 12, 1, 11, 5, tzinfo=UTC)):  # 14:05 in Moscow
        character = services.character_create(owner=player, name="Анна", rank="lieutenant",
                                              nationality=Nationality.objects.get(code="su"))
        campaign = Campaign.objects.create(name="Кампания", game_master=game_master)
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side="defender", by=game_master)
        services.campaign_start(campaign=campaign, by=game_master)
        from battles.setup.muster import battle_schedule

        battle = battle_schedule(user=game_master, campaign=campaign, name="Бой",
                                 scheduled_for=datetime(2026, 12, 5, 15, 30, tzinfo=UTC))
    return character, campaign, battle


def _get(user, url, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return visible_text(client.get(url).content.decode())


@pytest.mark.parametrize("language,day,when,scheduled", [
    ("ru", "01.12.2026", "01.12.2026 14:05", "05.12.2026 18:30"),
    ("en", "01 Dec 2026", "01 Dec 2026 14:05", "05 Dec 2026 18:30"),
])
def test_one_date_format_on_every_page(dated, player, game_master, language, day, when, scheduled):
    character, campaign, battle = dated
    pages = {f"/characters/{character.pk}/": (player, day), f"/campaigns/{campaign.pk}/chronicle/": (None, when),
             f"/battles/{battle.pk}/setup/": (game_master, scheduled)}
    for url, (user, expected) in pages.items():
        text = _get(user, url, language)
        assert expected in text, (url, text)
        for pattern in OTHER_FORMATS:
            assert not re.search(pattern, text), (url, pattern, re.search(pattern, text).group(0))


def test_the_feed_dates_are_rfc_3339(dated):
    import feedparser

    _character, campaign, _battle = dated
    feed = feedparser.parse(Client().get(f"/campaigns/{campaign.pk}/feed/").content)
    for entry in feed.entries:
        assert entry.updated_parsed[:5] == (2026, 12, 1, 11, 5)
