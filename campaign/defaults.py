"""Default game data the campaign app ships, shared by data migrations and the
post_migrate hook (which restores it after a test database is flushed).

Nationalities (G-23): the seed names only the Soviet junior sergeant and the
German Unteroffizier (= corporal) and Feldwebel (= sergeant); everything else
is a placeholder the game master should check.
"""

ROWS = [
    # code, ru, en, corporal, sergeant, lieutenant, captain (each ru/en), placeholder
    ("su", "СССР", "USSR", ("Младший сержант", "Junior sergeant"), ("Сержант", "Sergeant"),
     ("Лейтенант", "Lieutenant"), ("Капитан", "Captain"), True),
    ("de", "Германия", "Germany", ("Унтер-офицер", "Unteroffizier"), ("Фельдфебель", "Feldwebel"),
     ("Лейтенант", "Leutnant"), ("Гауптман", "Hauptmann"), True),
    ("us", "США", "USA", ("Капрал", "Corporal"), ("Сержант", "Sergeant"),
     ("Лейтенант", "Lieutenant"), ("Капитан", "Captain"), True),
    ("gb", "Великобритания", "Great Britain", ("Капрал", "Corporal"), ("Сержант", "Sergeant"),
     ("Лейтенант", "Lieutenant"), ("Капитан", "Captain"), True),
]


def ensure_nationalities(Nationality) -> None:  # noqa: N803 - a model class, historical or real
    for code, ru, en, cpl, sgt, lt, cpt, placeholder in ROWS:
        Nationality.objects.get_or_create(code=code, defaults=dict(
            name_ru=ru, name_en=en, corporal_ru=cpl[0], corporal_en=cpl[1], sergeant_ru=sgt[0], sergeant_en=sgt[1],
            lieutenant_ru=lt[0], lieutenant_en=lt[1], captain_ru=cpt[0], captain_en=cpt[1],
            is_placeholder=placeholder))


# Awards and the award policy (G-14: the seed lists no awards and no criteria;
# "by the master's decision"). Every row is a placeholder for the game master.
AWARDS = [
    ("for-courage", "Медаль «За отвагу»", "Medal “For Courage”"),
    ("combat-merit", "Медаль «За боевые заслуги»", "Medal “For Combat Merit”"),
    ("red-star", "Орден Красной Звезды", "Order of the Red Star"),
    ("wound-stripe", "Нашивка за ранение", "Wound stripe"),
]
AWARD_RULES = [
    # metric, threshold, award code or None for a promotion
    ("kills", 3, "for-courage"),
    ("captures", 2, "for-courage"),
    ("held_after_morale", 1, "combat-merit"),
    ("vehicles_destroyed", 1, "red-star"),
    ("vehicles_captured", 1, "red-star"),
    ("survived_wounded", 1, "wound-stripe"),
    ("objectives_taken", 1, None),
    ("battles_won", 3, None),
]


def ensure_awards(Award, AwardRule) -> None:  # noqa: N803 - model classes, historical or real
    if Award.objects.exists() or AwardRule.objects.exists():
        return  # the game master's data is his: seed only an empty table
    awards = {code: Award.objects.create(code=code, name_ru=ru, name_en=en, is_placeholder=True)
              for code, ru, en in AWARDS}
    for metric, threshold, code in AWARD_RULES:
        AwardRule.objects.create(metric=metric, threshold=threshold, award=awards.get(code),
                                 promotion=code is None, is_placeholder=True)


# Formulary cards (G-17: the seed's sample cards are missing). Colours per card
# kind: the unit card's green base is the seed's (V-FORM-7); the rest are placeholders.
CARD_COLOURS = [
    # kind, background, ink, placeholder
    ("character", "#fdf8ea", "#2a2418", True),
    ("award", "#f7edd2", "#4a3510", True),
    ("unit", "#cfe3c2", "#1f2a17", False),
    ("vehicle", "#e6e8e3", "#1f2420", True),
    ("upgrade", "#eae4f2", "#2a2233", True),
    ("air_support", "#dde7f3", "#17263a", True),
]
# Emblems shipped as SVG under campaign/static/cards/emblems/<code>.svg.
CARD_EMBLEMS = [
    ("nation-su", "Красная звезда (СССР)", "Red star (USSR)"),
    ("nation-de", "Балкенкройц (Германия)", "Balkenkreuz (Germany)"),
    ("nation-us", "Звезда (США)", "Star (USA)"),
    ("nation-gb", "Кокарда (Великобритания)", "Roundel (Great Britain)"),
    ("nation-default", "Флаг (прочие)", "Flag (others)"),
    ("arm-infantry", "Пехота", "Infantry"),
    ("arm-hq", "Штаб", "Headquarters"),
    ("arm-group", "Тактическая группа", "Tactical group"),
    ("arm-motorised", "Моторизованные части", "Motorised troops"),
    ("arm-artillery", "Артиллерия", "Artillery"),
    ("arm-air", "Авиация", "Air force"),
    # FoW platoons by their arm (issue 29): tank, infantry, recon, artillery (gun platoons), the armoured train
    ("arm-tank", "Танковые войска", "Tank troops"),
    ("arm-recon", "Разведка", "Reconnaissance"),
    ("arm-train", "Бронепоезд", "Armoured train"),
    ("award", "Награда", "Award"),
]


def ensure_card_design(CardColour, CardEmblem) -> None:  # noqa: N803 - model classes, historical or real
    for kind, background, ink, placeholder in CARD_COLOURS:
        CardColour.objects.get_or_create(kind=kind, defaults=dict(background=background, ink=ink,
                                                                  is_placeholder=placeholder))
    for code, ru, en in CARD_EMBLEMS:
        CardEmblem.objects.get_or_create(code=code, defaults=dict(name_ru=ru, name_en=en))
