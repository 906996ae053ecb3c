"""What the players build, mark and lay out with their own hands: the v11.2 rules of the catalog's *table*
kind, which no engine can check. The battle page's «At the table» box unfolds them as «Preparing the table»
before and during the battle, each in the player's language with its rule ID, so the terrain is made to
size, the figures are based and the cards and markers lie where the rules put them.

The words follow the seed (003, v11.2); sizes are the seed's inches.
"""
from __future__ import annotations

from typing import NamedTuple


class Item(NamedTuple):
    rule: str
    ru: str
    en: str


class Group(NamedTuple):
    ru: str
    en: str
    items: tuple[Item, ...]


GUIDE: tuple[Group, ...] = (
    Group("Поле боя", "The battlefield", (
        Item("V-TERR-1", "Поле и элементы ландшафта делают сами, из подручных средств.",
             "The battlefield and its terrain are home-made from whatever is at hand."),
        Item("V-TERR-2", "Реки и ручьи — полосы картона или синей ткани.",
             "Rivers and streams: strips of cardboard or of blue cloth."),
        Item("V-TERR-4", "Железнодорожное полотно — секции шириной 1″ и длиной до 24″.",
             "Railway track: sections 1″ wide and up to 24″ long."),
        Item("V-TERR-6", "Асфальтовая дорога — секции шириной 4″ и длиной до 24″.",
             "Asphalt road: sections 4″ wide and up to 24″ long."),
        Item("V-TERR-8", "Объект выше 3″ — высота.", "An object taller than 3″ is high ground."),
        Item("V-WIRE-2", "Колючая проволока и забор — секции по 4″ в длину.",
             "Barbed wire and fences: sections 4″ long."),
        Item("V-COVER-1", "Лёгкое укрытие — мешки с песком, руины домов, противотанковые ежи, деревья и кустарник, "
                          "каждое на подставке.",
             "Light cover: sandbags, house ruins, anti-tank hedgehogs, trees and bushes, each on a base."),
        Item("V-HOUSE-7", "До боя договоритесь, через какие проёмы входят в каждый дом и выходят из него.",
             "Before the battle, agree which openings of each house may be used to go in and out."),
    )),
    Group("Фигуры и техника", "Figures and vehicles", (
        Item("V-RANK-2", "У каждого персонажа своя фигурка.", "Every character has a figure of his own."),
        Item("V-VEH-5", "Модель танка — без подставки, башня (если есть) поворачивается.",
             "A tank model has no base, and its turret (if it has one) turns."),
        Item("V-VDMG-10", "Бортовые экраны ставят на саму модель.", "Side skirts are fitted on the model itself."),
        Item("V-FORM-3", "У каждой машины свой знак на корпусе (номер, рисунок, лозунг), тот же, что на её формуляре.",
             "Every vehicle carries a mark of its own on its hull (a number, a picture, a slogan), the same as on "
             "its card."),
    )),
    Group("Подставки пехоты", "Infantry bases", (
        Item("V-BASE-1", "Стрелок — только цвет отделения.", "A rifleman: the squad's colour only."),
        Item("V-BASE-2", "Другой класс пехотинца — цвет отделения и знак специализации.",
             "Any other infantry class: the squad's colour and a specialisation badge."),
        Item("V-BASE-3", "Младший сержант, унтер-офицер, капрал — цвет отделения и знак звания.",
             "A junior sergeant, Unteroffizier or corporal: the squad's colour and his rank insignia."),
        Item("V-BASE-4", "Сержант, фельдфебель — цвет отделения, знак или номер отделения (его копия на формуляре) "
                         "и личный шеврон.",
             "A sergeant or Feldwebel: the squad's colour, the squad's sign or number (copied on its card) and a "
             "personal chevron."),
        Item("V-BASE-6", "Лейтенант — два цвета подчинённых отделений и личный шеврон (два малых шеврона).",
             "A lieutenant: the colours of his two squads and a personal chevron (two small chevrons)."),
        Item("V-BASE-7", "Капитан — личный шеврон (три малых шеврона).",
             "A captain: a personal chevron (three small chevrons)."),
    )),
    Group("Формуляры и маркеры", "Cards and markers", (
        Item("V-UPG-2", "Формуляр улучшения кладут рядом с формуляром выбранной части или под него.",
             "An upgrade's card lies next to the card of the unit it was bought for, or under it."),
        Item("V-FORM-6", "Маркеры повреждений и боеприпасов кладут на формуляр машины.",
             "Damage and ammunition markers go on the vehicle's card."),
        Item("V-VDMG-7", "Повреждённому танку — маркер повреждения на формуляр; при повреждении ходовой части его "
                         "можно положить прямо под гусеницу модели.",
             "A damaged tank gets a damage marker on its card; for running-gear damage it may go under the "
             "model's track instead."),
        Item("V-MED-2", "Раненых и убитых отмечают как угодно: например, раненого кладут на спину, убитого — "
                        "на живот.",
             "Mark the wounded and the dead as you like: for example, a wounded figure on its back, a dead one "
             "on its front."),
    )),
    Group("Как мерить", "Measuring", (
        Item("V-RIDE-6", "Огонь по танковому десанту мерят до маски орудия танка.",
             "Fire at tank riders is measured to the tank's gun mantlet."),
        Item("V-BUNK-9", "Корректировку из ДОТа мерят от головы разведчика в нём.",
             "A pillbox's spotter corrects fire from the scout's head."),
        Item("V-SMOKE-4", "Дымовая завеса — 4″ в длину, 4″ в высоту и 1″ в ширину, с центром в точке попадания.",
             "A smoke screen is 4″ long, 4″ high and 1″ wide, centred on the point of impact."),
    )),
)


def guide(lang: str) -> list[dict[str, object]]:
    """The groups and their lines in ``lang`` ("ru" or "en"), for the battle page."""
    en = lang == "en"
    return [{"title": g.en if en else g.ru,
             "items": [{"rule": i.rule, "text": i.en if en else i.ru} for i in g.items]} for g in GUIDE]
