"""The player's evening starts at home (issue 25, section 6): signed in, the
site's root shows his characters (rank in his nation's words, nationality),
his next battle one click from its table, his rosters with their state (a
locked one names the running battle that holds it) and his awards, all by
name; the selector reads them at a fixed query count. Anonymous visitors keep
the campaigns page."""
from __future__ import annotations

import re

import pytest

from battles.home_selectors import player_home
from battles.setup import muster
from campaign import services
from campaign.models import Award, Nationality
from tests.battles.conftest import build_roster


@pytest.fixture
def evening(campaign, game_master, django_user_model):
    """ivan (lieutenant, РККА) and hans (Вермахт) with submitted rosters; «Бой у станции» mustered and
    running, «Разведка боем» scheduled with both, «Ночной бой» scheduled without ivan."""
    from django.contrib.auth.models import Group

    campaign.attacker_name, campaign.defender_name = "Вермахт", "РККА"
    campaign.save()
    ns = type("Evening", (), {})()
    for login, side, nation in (("ivan", "defender", "su"), ("hans", "attacker", "de")):
        user = django_user_model.objects.create_user(username=login, password="pw-" + login)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=f"{login.title()} Громов", rank="lieutenant",
                                              nationality=Nationality.objects.get(code=nation))
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=game_master)
        setattr(ns, login, user)
        setattr(ns, f"{login}_char", character)
    services.campaign_start(campaign=campaign, by=game_master)
    ns.campaign, ns.gm = campaign, game_master
    ns.ivan_roster = build_roster(ns.ivan, ns.ivan_char, campaign, name="Рота Громова", lieutenant=True)
    ns.hans_roster = build_roster(ns.hans, ns.hans_char, campaign, name="Kampfgruppe", lieutenant=True)
    ns.draft = build_roster(ns.ivan, ns.ivan_char, campaign, name="Черновик", lieutenant=True, submit=False)
    ns.running = muster.battle_schedule(user=game_master, campaign=campaign, name="Бой у станции")
    ns.later = muster.battle_schedule(user=game_master, campaign=campaign, name="Разведка боем")
    ns.other = muster.battle_schedule(user=game_master, campaign=campaign, name="Ночной бой")
    for battle in (ns.running, ns.later):
        muster.battle_participant_add(user=game_master, battle=battle, character=ns.ivan_char, roster=ns.ivan_roster)
        muster.battle_participant_add(user=game_master, battle=battle, character=ns.hans_char, roster=ns.hans_roster)
    muster.battle_muster(user=game_master, battle=ns.running)
    from battles.services import battle_replay

    battle_replay(battle_id=ns.running.pk)
    return ns


def _award(ns, code: str, name_ru: str, name_en: str):
    award = Award.objects.create(code=code, name_ru=name_ru, name_en=name_en)
    services.campaign_event_append(type="award_granted", campaign=ns.campaign, character=ns.ivan_char,
                                   battle=ns.running, data={"award": award.pk, "award_code": code},
                                   recorded_by=ns.gm)
    return award


def test_the_home_selector_reads_everything_at_a_fixed_query_count(evening, django_assert_num_queries):
    _award(evening, "star", "Красная Звезда", "Order of the Red Star")
    with django_assert_num_queries(5):
        one = player_home(user=evening.ivan, language="ru")
    for n in range(3):
        build_roster(evening.ivan, evening.ivan_char, evening.campaign, name=f"Запас {n}", lieutenant=True)
        _award(evening, f"medal{n}", f"Медаль {n}", f"Medal {n}")
    services.character_create(owner=evening.ivan, name="Пётр Громов", rank="corporal",
                              nationality=Nationality.objects.get(code="su"))
    with django_assert_num_queries(5):
        many = player_home(user=evening.ivan, language="ru")
    assert (len(many.rosters), len(many.awards), len(many.characters)) == \
        (len(one.rosters) + 3, len(one.awards) + 3, len(one.characters) + 1)


def test_an_anonymous_visitor_costs_the_selector_no_query():
    """No database here: a query would raise."""
    from django.contrib.auth.models import AnonymousUser

    assert player_home(user=AnonymousUser()).empty


def test_the_running_battle_comes_first_then_the_scheduled_one_and_not_a_battle_he_is_not_in(evening):
    home = player_home(user=evening.ivan, language="ru")
    assert [b.name for b in home.battles] == ["Бой у станции", "Разведка боем"]
    nxt = home.next_battle
    assert (nxt.running, nxt.turn, nxt.side_name, nxt.character_name) == (True, 1, "РККА", "Ivan Громов")
    assert nxt.his_move  # V-TURN-8: the defender moves first


def test_a_signed_in_player_sees_his_evening_by_name_with_one_click_to_the_table(evening, client):
    _award(evening, "star", "Красная Звезда", "Order of the Red Star")
    client.force_login(evening.ivan)
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    nxt = _section(html, "next-battle")
    assert "Бой у станции" in nxt and "Ivan Громов воюет за РККА" in nxt and "ходит ваша сторона" in nxt
    assert re.search(rf'href="/battles/{evening.running.pk}/"[^>]*data-testid="to-table"', nxt)
    assert "Разведка боем" in _section(html, "other-battles", tag="p")
    characters = _section(html, "home-characters")
    assert "Ivan Громов" in characters and "Лейтенант · СССР" in characters
    rosters = _section(html, "home-rosters")
    assert re.search(r"Рота Громова</a>\s*<span[^>]*>заблокирован</span>", rosters)
    assert f'в бою <a href="/battles/{evening.running.pk}/">«Бой у станции»</a>' in rosters
    assert re.search(r"Черновик</a>\s*<span[^>]*>черновик</span>", rosters)
    assert "Вермахт" not in rosters and "РККА" in rosters  # his side by its name
    assert "Красная Звезда" in _section(html, "home-awards")
    assert "Kampfgruppe" not in html and "Hans" not in html  # only his own


def test_the_english_page_names_the_same_things_in_english(evening, client):
    _award(evening, "star", "Красная Звезда", "Order of the Red Star")
    client.force_login(evening.ivan)
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ivan Громов fights for РККА" in html and "Lieutenant · USSR" in html
    assert "Order of the Red Star" in html and ">locked</span>" in html and "«Бой у станции»" in html


def test_an_anonymous_visitor_keeps_the_campaigns_page(evening, client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="home-signup"' in html and evening.campaign.name in html
    assert 'data-testid="next-battle"' not in html and "Мой штаб" not in html


def test_a_player_without_a_battle_is_told_how_one_comes(campaign, player, client):
    from campaign.models import Character

    Character.objects.create(owner=player, name="Новичок", nationality=Nationality.objects.get(code="su"))
    client.force_login(player)
    nxt = _section(client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode(), "next-battle")
    assert "Пока нет: мастер назначает бой" in nxt and "to-table" not in nxt


def _section(html: str, testid: str, tag: str = "section") -> str:
    m = re.search(rf'<{tag}[^>]*data-testid="{testid}".*?</{tag}>', html, flags=re.S)
    assert m, f"no {tag} with data-testid={testid!r} on the page"
    return m.group(0)
