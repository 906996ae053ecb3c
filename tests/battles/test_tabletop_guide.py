"""The v11.2 rules the players carry out with their own hands (the catalog's *table* kind): the battle
page's «At the table» box lists them, in the reader's language, each with its rule ID and the sizes the
seed gives, under the group where a player preparing the evening looks for it."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.services import battle_create
from campaign.models import Campaign

# (rule, group, what the Russian line must say, what the English line must say)
GUIDE = [
    ("V-TERR-1", "Поле боя", "из подручных средств", "home-made"),
    ("V-TERR-2", "Поле боя", "синей ткани", "blue cloth"),
    ("V-TERR-4", "Поле боя", "шириной 1″ и длиной до 24″", "1″ wide and up to 24″ long"),
    ("V-TERR-6", "Поле боя", "шириной 4″ и длиной до 24″", "4″ wide and up to 24″ long"),
    ("V-TERR-8", "Поле боя", "выше 3″ — высота", "taller than 3″ is high ground"),
    ("V-WIRE-2", "Поле боя", "секции по 4″", "sections 4″ long"),
    ("V-COVER-1", "Поле боя", "противотанковые ежи, деревья и кустарник, каждое на подставке", "each on a base"),
    ("V-HOUSE-7", "Поле боя", "До боя договоритесь, через какие проёмы", "Before the battle, agree which openings"),
    ("V-RANK-2", "Фигуры и техника", "своя фигурка", "a figure of his own"),
    ("V-VEH-5", "Фигуры и техника", "без подставки, башня (если есть) поворачивается", "no base, and its turret"),
    ("V-VDMG-10", "Фигуры и техника", "Бортовые экраны ставят на саму модель", "Side skirts are fitted on the model"),
    ("V-FORM-3", "Фигуры и техника", "тот же, что на её формуляре", "the same as on its card"),
    ("V-BASE-1", "Подставки пехоты", "Стрелок — только цвет отделения", "A rifleman: the squad's colour only"),
    ("V-BASE-2", "Подставки пехоты", "цвет отделения и знак специализации", "a specialisation badge"),
    ("V-BASE-3", "Подставки пехоты", "капрал — цвет отделения и знак звания", "corporal: the squad's colour and his rank"),
    ("V-BASE-4", "Подставки пехоты", "знак или номер отделения (его копия на формуляре) и личный шеврон",
     "sign or number (copied on its card) and a personal chevron"),
    ("V-BASE-6", "Подставки пехоты", "Лейтенант — два цвета подчинённых отделений и личный шеврон (два малых",
     "(two small chevrons)"),
    ("V-BASE-7", "Подставки пехоты", "Капитан — личный шеврон (три малых шеврона)", "(three small chevrons)"),
    ("V-UPG-2", "Формуляры и маркеры", "рядом с формуляром выбранной части или под него", "or under it"),
    ("V-FORM-6", "Формуляры и маркеры", "Маркеры повреждений и боеприпасов", "Damage and ammunition markers"),
    ("V-VDMG-7", "Формуляры и маркеры", "прямо под гусеницу модели", "under the model's track"),
    ("V-MED-2", "Формуляры и маркеры", "раненого кладут на спину, убитого — на живот", "on its back, a dead one on its front"),
    ("V-RIDE-6", "Как мерить", "до маски орудия танка", "to the tank's gun mantlet"),
    ("V-BUNK-9", "Как мерить", "от головы разведчика", "from the scout's head"),
    ("V-SMOKE-4", "Как мерить", "4″ в длину, 4″ в высоту и 1″ в ширину, с центром в точке попадания",
     "4″ long, 4″ high and 1″ wide, centred on the point of impact"),
]
GROUPS_EN = {"Поле боя": "The battlefield", "Фигуры и техника": "Figures and vehicles",
             "Подставки пехоты": "Infantry bases", "Формуляры и маркеры": "Cards and markers",
             "Как мерить": "Measuring"}


def _guide(html: str) -> dict[str, dict[str, str]]:
    """{group title: {rule: its line's text}} of the page's «Preparing the table»."""
    box = html.split('id="tabletop"', 1)[1].split("</details>", 1)[0]
    out: dict[str, dict[str, str]] = {}
    for title, items in re.findall(r"<h3>(.*?)</h3>\s*<ul[^>]*>(.*?)</ul>", box, flags=re.S):
        out[title] = {rule: text.strip() for text, rule in
                      re.findall(r'<li>(.*?) <span class="muted rule">([A-Z]+-[A-Z0-9]+-\d+)</span></li>', items)}
    return out


@pytest.fixture
def planned(db):
    return battle_create(campaign=Campaign.objects.create(name="Кампания"), name="Бой у моста")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_battle_page_lists_every_table_rule_in_its_group_with_the_seeds_sizes(planned, lang):
    html = Client().get(f"/battles/{planned.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    guide = _guide(html)
    expected_groups = list(dict.fromkeys(g for _, g, _, _ in GUIDE))
    assert list(guide) == (expected_groups if lang == "ru" else [GROUPS_EN[g] for g in expected_groups])
    for rule, group, ru, en in GUIDE:
        lines = guide[group if lang == "ru" else GROUPS_EN[group]]
        assert rule in lines, (rule, group)
        assert (ru if lang == "ru" else en) in lines[rule].replace("&#x27;", "'"), (rule, lines[rule])
    assert sum(len(lines) for lines in guide.values()) == len(GUIDE)  # each rule once


def test_the_checklist_still_says_to_lay_the_cards_at_the_table_edge(planned):
    """V-TURN-4 stays in the numbered list (what to do, in order); the guide says how."""
    html = Client().get(f"/battles/{planned.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    checklist = html.split('<ol class="checklist">', 1)[1].split("</ol>", 1)[0]
    assert re.search(r"формуляры героев, техники и подразделений[^<]*<span class=\"muted\">V-TURN-4</span>",
                     checklist, flags=re.I)


def test_a_flames_of_war_battle_has_no_v11_guide(db):
    fow = battle_create(campaign=Campaign.objects.create(name="FoW", ruleset="fow"), name="Бой у разъезда")
    html = Client().get(f"/battles/{fow.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="tabletop"' not in html and "V-BASE-1" not in html


@pytest.mark.parametrize("riding", [True, False])
def test_the_fire_form_says_where_fire_at_tank_riders_is_measured_only_while_an_enemy_rides(riding):
    """V-RIDE-6 where the distance is typed: shown to the side whose enemy has riders on a tank, not before."""
    from django.utils import translation

    from battles.table.choices import Table
    from battles.table.recording import QuickFireForm
    from tests.battles.test_recording import FORCES, SIDES, START, fold

    state = fold([*FORCES, START])
    if riding:
        state["fighters"]["a-r1"]["aboard_as"] = "rider"
        state["fighters"]["a-r1"]["aboard"] = "att-tank"
    with translation.override("ru"):
        mine = QuickFireForm(table=Table(state, "defender", {}, SIDES)).fields["distance"]
        theirs = QuickFireForm(table=Table(state, "attacker", {}, SIDES)).fields["distance"]
        assert str(theirs.help_text) == ""  # the riders are his own
        if riding:
            assert str(mine.help_text) == "До десанта на броне — до маски орудия танка (V-RIDE-6)."
        else:
            assert str(mine.help_text) == ""
