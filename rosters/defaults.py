"""Default game data, shared by the data migration and the post_migrate hook
(which restores it after a test database is flushed).

Everything here except the seed-given numbers (budgets, limits, side skirts)
is a PLACEHOLDER from the catalog's "v11.2 gaps" table: G-1 (infantry table),
G-3 (fire distances), G-5 (class costs), G-6 (class mappings), G-15
(upgrades: none), G-16 (bought options: 2 PP each). The scout's 24 in
observation is seed (V-SCOUT-2).
"""
from battles.engine.rules_data import INFANTRY_CLASSES

# code, ru, en, category, rank, cost, observation, fire (dug_in, march, recon, assault)
SMALL = (8, None, 8, 8)
INFANTRY = [
    ("rifleman", "Стрелок", "Rifleman", "rifleman", "", 1, 12, SMALL),
    ("sniper", "Снайпер", "Sniper", "sniper", "", 1, 12, (24, None, 24, 24)),
    ("light_mg", "Пулемётчик (ручной пулемёт)", "Light MG gunner", "mg", "", 1, 12, (12, None, 12, 12)),
    ("heavy_mg", "Пулемётчик (станковый пулемёт)", "Heavy MG gunner", "mg", "", 1, 12, (18, None, 18, 18)),
    ("scout", "Разведчик", "Scout", "scout", "", 1, 24, SMALL),  # 24 in is seed (V-SCOUT-2)
    ("sapper", "Сапёр", "Sapper", "sapper", "", 1, 12, SMALL),
    ("medic", "Медик", "Medic", "medic", "", 1, 12, SMALL),
    ("at_grenadier", "Гранатомётчик (ПТ, в т. ч. ПТР)", "AT grenadier (incl. AT rifle)", "at_grenadier", "", 1, 12,
     (6, None, 6, 6)),
    ("flamethrower", "Огнемётчик", "Flamethrower", "flamethrower", "", 1, 12, (6, None, 6, 6)),
    ("radio_operator", "Радист", "Radio operator", "radio", "", 1, 12, SMALL),
    ("personnel", "Персонал", "Personnel", "personnel", "", 1, 12, SMALL),
    ("corporal", "Капрал", "Corporal", "officer", "corporal", 1, 12, SMALL),
    ("sergeant", "Сержант", "Sergeant", "officer", "sergeant", 1, 12, SMALL),
    ("lieutenant", "Лейтенант", "Lieutenant", "officer", "lieutenant", 2, 12, SMALL),
    ("captain", "Капитан", "Captain", "officer", "captain", 3, 12, SMALL),
]
ARMOUR_MM = [0, 15, 30, 50, 80, 120]
CALIBRE_MM = [20, 45, 57, 76, 88, None]
OPTIONS = [
    ("spotter", "Корректировщик", "Spotter", "any"),
    ("tractor", "Тягач", "Tractor", "vehicle"),
    ("mine_trawl", "Минный трал", "Mine trawl", "vehicle"),
    ("aa_at_fire", "Огонь ПТ (зенитная пушка)", "AT fire (AA gun)", "aa_gun"),
]

# Flames of War team types: ALL placeholders (the seeds give no points and no
# ratings: G-F1, G-F3). Movement: the seed's examples (infantry 6"/15 cm, most
# tanks 12"/30 cm, an armoured train 16"/40 cm, F-TRAIN-19); None = the engine's default by kind.
# code, ru, en, kind, speciality, gun_size, armoured, locomotive, movement (in, cm), points
FOW_TEAM_TYPES = [
    ("rifle_team", "Стрелковое отделение", "Rifle team", "infantry", "", "", False, False, (6, 15), 3),
    ("mg_team", "Пулемётное отделение", "MG team", "infantry", "", "", False, False, (6, 15), 3),
    ("command_team", "Командное отделение", "Command team", "infantry", "", "", False, False, (6, 15), 4),
    ("sapper_team", "Сапёрное отделение", "Pioneer team", "infantry", "", "", False, False, (6, 15), 3),
    ("at_gun", "Противотанковая пушка", "Anti-tank gun", "gun", "", "medium", False, False, (None, None), 5),
    ("medium_tank", "Средний танк", "Medium tank", "tank", "", "", True, False, (12, 30), 10),
    ("scout_car", "Бронеавтомобиль разведки", "Recon armoured car", "vehicle", "recon", "", True, False,
     (None, None), 5),
    ("scout_team", "Разведывательное отделение", "Scout team", "infantry", "recon", "", False, False, (6, 15), 3),
    ("locomotive", "Бронепаровоз (Локомотив)", "Armoured locomotive", "train", "armoured_train", "", True, True,
     (16, 40), 12),
    ("artillery_wagon", "Артиллерийская бронеплощадка", "Artillery wagon", "train", "armoured_train", "", True,
     False, (16, 40), 10),
    ("cavalry_team", "Кавалерийское отделение", "Cavalry team", "infantry", "cavalry", "", False, False, (None, None),
     3),
]

# roster class code -> the engine's class (the rest are the same word)
ENGINE_CLASS = {"light_mg": "lmg_gunner", "heavy_mg": "hmg_gunner", "corporal": "officer", "sergeant": "officer",
                "lieutenant": "officer", "captain": "officer"}


def engine_class_of(code: str) -> str:
    cls = ENGINE_CLASS.get(code, code)
    return cls if cls in INFANTRY_CLASSES else "rifleman"


def ensure_game_data(get) -> None:
    """``get(app_label, model_name)`` returns a model class, historical or real."""
    get("rosters", "RosterRules").objects.get_or_create(pk=1)
    # Only a fresh (or flushed test) database gets the defaults: rows the game
    # master deleted never come back on the next migrate.
    if get("rosters", "GameDataVersion").objects.exists():
        return
    get("rosters", "GameDataVersion").objects.create(note="defaults")
    InfantryClass = get("rosters", "InfantryClass")
    # Historical models before rosters 0004 have no engine class (that migration fills it).
    has_engine_class = any(f.name == "engine_class" for f in InfantryClass._meta.get_fields())
    for position, (code, ru, en, category, rank, cost, obs, fire) in enumerate(INFANTRY):
        extra = {"engine_class": engine_class_of(code)} if has_engine_class else {}
        InfantryClass.objects.get_or_create(code=code, defaults=dict(
            name_ru=ru, name_en=en, category=category, rank=rank, cost=cost, observation_in=obs,
            fire_dug_in=fire[0], fire_march=fire[1], fire_recon=fire[2], fire_assault=fire[3],
            attack=0, defence=0, is_placeholder=True, position=position, **extra))
    for n in range(1, 7):
        get("rosters", "ArmourClass").objects.get_or_create(
            number=n, defaults=dict(cost=n, min_front_mm=ARMOUR_MM[n - 1], is_placeholder=True))
        get("rosters", "GunClass").objects.get_or_create(
            number=n, defaults=dict(cost=n, max_calibre_mm=CALIBRE_MM[n - 1], is_placeholder=True))
    for code, ru, en, applies in OPTIONS:
        get("rosters", "VehicleOption").objects.get_or_create(
            code=code, defaults=dict(name_ru=ru, name_en=en, applies_to=applies, cost=2, is_placeholder=True))
    try:
        get("rosters", "FowTeamType")
    except LookupError:  # historical models before rosters 0005
        return
    ensure_fow_team_types(get)



def ensure_fow_team_types(get) -> None:
    """The FoW team types (placeholders), created only where none exist yet."""
    FowTeamType = get("rosters", "FowTeamType")
    if FowTeamType.objects.exists():
        return
    for position, (code, ru, en, kind, spec, gun, armoured, loco, move, cost) in enumerate(FOW_TEAM_TYPES):
        FowTeamType.objects.create(code=code, name_ru=ru, name_en=en, kind=kind, speciality=spec, gun_size=gun,
                                   armoured=armoured, locomotive=loco, movement_in=move[0], movement_cm=move[1],
                                   cost=cost, is_placeholder=True, position=position)
