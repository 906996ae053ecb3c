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
