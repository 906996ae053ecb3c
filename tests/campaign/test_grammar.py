"""Russian grammar (issue 13): a character has a grammatical gender and the
chronicle's sentences agree with it (a female character «поступила», not
«поступил»); counts take the Russian plural forms («1 боец», «2 бойца»,
«5 бойцов»)."""
from __future__ import annotations

import pytest
from django.test import Client

from campaign import services
from campaign.models import Campaign, Character, Gender, Nationality
from tests.pages import visible_text


def _client(user, language="ru"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(user)
    return client


@pytest.fixture
def anna(player, game_master):
    """A female lieutenant who joined a running campaign."""
    character = services.character_create(owner=player, name="Анна Павлова", rank="lieutenant",
                                          nationality=Nationality.objects.get(code="su"), gender=Gender.FEMININE)
    campaign = Campaign.objects.create(name="Кампания", game_master=game_master)
    m = services.membership_request(campaign=campaign, character=character)
    services.membership_assign_side(membership=m, side="defender", by=game_master)
    services.campaign_start(campaign=campaign, by=game_master)
    character.campaign = campaign
    return character


def test_a_character_is_masculine_unless_told(player):
    c = services.character_create(owner=player, name="Иван", nationality=Nationality.objects.get(code="su"))
    assert c.gender == Gender.MASCULINE


def test_a_female_characters_chronicle_agrees_with_her(anna, player):
    client = _client(player)
    for url in (f"/characters/{anna.pk}/", f"/campaigns/{anna.campaign.pk}/chronicle/"):
        text = visible_text(client.get(url).content.decode())
        assert "Анна Павлова вступила в кампанию." in text, url
        assert "вступил " not in text and "вступил в" not in text, url
    text = visible_text(client.get(f"/characters/{anna.pk}/").content.decode())
    assert "Анна Павлова поступила на службу в звании: лейтенант." in text
    feed = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/campaigns/{anna.campaign.pk}/feed/").content.decode()
    assert "вступила в кампанию" in feed


def test_the_other_sentences_agree_too(anna):
    from django.utils import translation

    from campaign.chronicle import describe
    from campaign.models import CampaignEvent

    cases = {"battle_fought": ({"kills": 2, "casualties": 1}, "Анна Павлова участвовала в бою: уничтожено 2, потери 1."),
             "promotion": ({"from": "lieutenant", "to": "captain"},
                           "Анна Павлова повышена в звании: лейтенант → капитан.")}
    for type_, (data, expected) in cases.items():
        event = CampaignEvent(campaign=anna.campaign, character=anna, type=type_, data=data)
        with translation.override("ru"):
            assert describe(event) == expected
        with translation.override("en"):
            assert "Анна Павлова" in describe(event)
    with translation.override("en"):
        fought = CampaignEvent(campaign=anna.campaign, character=anna, type="battle_fought",
                               data={"kills": 1, "casualties": 1})
        assert describe(fought) == "Анна Павлова fought: kills 1, casualties 1."  # never "1 casualties"


def test_a_player_chooses_the_gender_on_creation_and_the_game_master_in_admin(player, game_master):
    response = _client(player).post("/characters/", {"name": "Мария", "nationality": Nationality.objects.get(
        code="su").pk, "rank": "corporal", "gender": "f"})
    assert response.status_code == 302
    maria = Character.objects.get(name="Мария")
    assert maria.gender == Gender.FEMININE
    page = _client(player).get("/characters/").content.decode()
    assert 'name="gender"' in page and "Грамматический род" in page
    admin = _client(game_master).get(f"/admin/campaign/character/{maria.pk}/change/").content.decode()
    assert 'name="gender"' in admin


def test_the_api_takes_and_shows_the_gender(player_client):
    r = player_client.post("/api/characters/", {"name": "Ольга", "nationality": "su", "gender": "f"},
                           format="json")
    assert r.status_code == 201, r.content
    assert r.json()["gender"] == "f"
    r = player_client.post("/api/characters/", {"name": "Ольга", "nationality": "su", "gender": "x"},
                           format="json")
    assert r.status_code == 400


@pytest.mark.parametrize("n,ru,en", [(1, "1 бой", "1 battle"), (2, "2 боя", "2 battles"), (5, "5 боёв", "5 battles"),
                                     (21, "21 бой", "21 battles"), (12, "12 боёв", "12 battles")])
def test_counts_take_the_russian_plural_forms(n, ru, en):
    from django.utils import translation

    from campaign.chronicle import describe
    from campaign.models import CampaignEvent

    with translation.override("ru"):
        assert translation.ngettext("%(n)s battle", "%(n)s battles", n) % {"n": n} == ru
    with translation.override("en"):
        assert translation.ngettext("%(n)s battle", "%(n)s battles", n) % {"n": n} == en
    event = CampaignEvent(type="command_assigned", data={"side": "attacker", "posts": {str(i): i for i in range(n)}})
    word = {1: "должность", 2: "должности", 5: "должностей", 21: "должность", 12: "должностей"}[n]
    with translation.override("ru"):
        assert describe(event) == f"Капитан (атакующие) назначил {n} {word}."
    with translation.override("en"):
        assert describe(event).endswith(f"assigned {n} post{'s' if n != 1 else ''}.")


@pytest.mark.parametrize("n,words", [(1, "1 человек"), (3, "3 человека"), (10, "10 человек")])
def test_a_units_head_count_agrees(n, words):
    from django.template import Context, Template
    from django.utils import translation

    with translation.override("ru"):
        out = Template("{% load i18n %}{% blocktranslate count n=n %}{{ n }} man{% plural %}{{ n }} men"
                       "{% endblocktranslate %}").render(Context({"n": n}))
    assert out == words


def test_the_chronicle_names_the_sides_as_the_campaign_does(anna, player):
    """People read names: «РККА», not «обороняющиеся», in every sentence that names a side."""
    from django.utils import translation

    from battles.services import battle_create
    from campaign.chronicle import describe_all
    from campaign.models import CampaignEvent

    campaign = anna.campaign
    Campaign.objects.filter(pk=campaign.pk).update(attacker_name="Вермахт", defender_name="РККА")
    battle = battle_create(campaign=campaign, name="Бой у моста")
    events = [CampaignEvent(campaign=campaign, battle=battle, type="battle_result", data={"winner": w})
              for w in ("defender", "attacker", "draw")]
    events.append(CampaignEvent(campaign=campaign, type="objective_changed", data={"objective": 1, "name": "Мост",
                                                                                   "to": "attacker"}))
    events.append(CampaignEvent(campaign=campaign, character=anna, type="side_assigned", data={"side": "defender"}))
    with translation.override("ru"):
        assert [e.text for e in describe_all(events)] == [
            "Бой «Бой у моста» выиграла сторона: РККА.", "Бой «Бой у моста» выиграла сторона: Вермахт.",
            "Бой «Бой у моста» закончился вничью.", "Объект «Мост» перешёл к стороне: Вермахт.",
            "Анна Павлова сражается за сторону: РККА."]
    with translation.override("en"):
        assert describe_all(events[:1])[0].text == "Battle «Бой у моста» was won by РККА."
