"""The engine's words as people read them, in Russian and English: sides,
postures, morale results, infantry classes and ranks, vehicle kinds, weapons,
mine kinds. One table for the battle page, the battle report and the API's
messages, so no raw engine value (``dug_in``, ``defender``) reaches a reader.

Postures use the seed's own words (v11.2, «Каждый офицер…»: «окопано», «на
марше», «разведка», «атака»)."""
from __future__ import annotations

import re

TERMS: dict[str, dict[str, dict[str, str]]] = {
    "side": {
        "ru": {"attacker": "атакующие", "defender": "обороняющиеся", "draw": "ничья"},
        "en": {"attacker": "the attacker", "defender": "the defender", "draw": "a draw"},
    },
    "posture": {
        "ru": {"dug_in": "окопано", "march": "на марше", "recon": "разведка", "assault": "атака"},
        "en": {"dug_in": "dug in", "march": "on the march", "recon": "reconnaissance", "assault": "assault"},
    },
    "morale": {  # V-TEST-3..6
        "ru": {"surrendered": "сдалось в плен", "retreat": "отступает", "dug_in": "окапывается",
               "carry_on": "продолжает задачу"},
        "en": {"surrendered": "surrendered", "retreat": "retreats", "dug_in": "digs in", "carry_on": "carries on"},
    },
    "cls": {
        "ru": {"rifleman": "стрелок", "sniper": "снайпер", "lmg_gunner": "пулемётчик (ручной пулемёт)",
               "hmg_gunner": "пулемётчик (станковый пулемёт)", "hmg_assistant": "второй номер пулемёта",
               "scout": "разведчик", "sapper": "сапёр", "medic": "медик", "at_grenadier": "гранатомётчик",
               "at_rifleman": "бронебойщик", "flamethrower": "огнемётчик", "radio_operator": "радист",
               "personnel": "личный состав", "officer": "офицер"},
        "en": {"rifleman": "rifleman", "sniper": "sniper", "lmg_gunner": "light MG gunner",
               "hmg_gunner": "heavy MG gunner", "hmg_assistant": "heavy MG assistant", "scout": "scout",
               "sapper": "sapper", "medic": "medic", "at_grenadier": "AT grenadier", "at_rifleman": "AT rifleman",
               "flamethrower": "flamethrower", "radio_operator": "radio operator", "personnel": "personnel",
               "officer": "officer"},
    },
    "rank": {
        "ru": {"corporal": "капрал", "sergeant": "сержант", "lieutenant": "лейтенант", "captain": "капитан"},
        "en": {"corporal": "corporal", "sergeant": "sergeant", "lieutenant": "lieutenant", "captain": "captain"},
    },
    "unit_kind": {
        "ru": {"squad": "отделение", "fire_team": "огневая группа", "tactical_group": "тактическая группа",
               "hq": "штаб", "motorised": "моторизованное подразделение", "crew": "расчёт"},
        "en": {"squad": "squad", "fire_team": "fire team", "tactical_group": "tactical group", "hq": "HQ",
               "motorised": "motorised unit", "crew": "crew"},
    },
    "vehicle_kind": {
        "ru": {"tank": "танк", "apc": "бронетранспортёр", "car": "автомобиль", "artillery": "орудие",
               "aircraft": "самолёт"},
        "en": {"tank": "tank", "apc": "APC", "car": "car", "artillery": "gun", "aircraft": "aircraft"},
    },
    "weapon": {
        "ru": {"rifle": "винтовка", "sniper_rifle": "снайперская винтовка", "lmg": "ручной пулемёт",
               "hmg": "станковый пулемёт", "flamethrower": "огнемёт", "at_grenade_launcher": "гранатомёт",
               "at_rifle": "противотанковое ружьё", "grenade": "граната", "vehicle_mg": "пулемёт техники",
               "gun": "пушка", "at_gun": "противотанковая пушка", "howitzer": "гаубица",
               "tank_howitzer": "танковая гаубица", "heavy_howitzer": "тяжёлая гаубица",
               "heavy_tank_howitzer": "тяжёлая танковая гаубица", "infantry_howitzer": "пехотная гаубица",
               "mortar": "миномёт", "rocket_mortar": "реактивный миномёт", "aa_gun": "зенитная пушка",
               "aa_autocannon": "зенитный автомат", "ground_attack_aircraft": "штурмовик", "bomber": "бомбардировщик",
               "dive_bomber": "пикирующий бомбардировщик", "none": "без оружия"},
        "en": {"rifle": "rifle", "sniper_rifle": "sniper rifle", "lmg": "light MG", "hmg": "heavy MG",
               "flamethrower": "flamethrower", "at_grenade_launcher": "AT grenade launcher", "at_rifle": "AT rifle",
               "grenade": "grenade", "vehicle_mg": "vehicle MG", "gun": "gun", "at_gun": "AT gun",
               "howitzer": "howitzer", "tank_howitzer": "tank howitzer", "heavy_howitzer": "heavy howitzer",
               "heavy_tank_howitzer": "heavy tank howitzer", "infantry_howitzer": "infantry howitzer",
               "mortar": "mortar", "rocket_mortar": "rocket mortar", "aa_gun": "AA gun",
               "aa_autocannon": "AA autocannon", "ground_attack_aircraft": "ground-attack aircraft",
               "bomber": "bomber", "dive_bomber": "dive bomber", "none": "no weapon"},
    },
    "mine_kind": {
        "ru": {"ap": "противопехотная мина", "at": "противотанковая мина", "charge": "подрывной заряд"},
        "en": {"ap": "AP mine", "at": "AT mine", "charge": "demolition charge"},
    },
    "target": {
        "ru": {"fighters": "по пехоте", "vehicle": "по технике", "house": "по дому", "bunker": "по ДОТу",
               "aircraft": "по самолёту"},
        "en": {"fighters": "at infantry", "vehicle": "at a vehicle", "house": "at a house", "bunker": "at a pillbox",
               "aircraft": "at an aircraft"},
    },
    "status": {
        "ru": {"planned": "готовится", "running": "идёт", "ended": "окончен"},
        "en": {"planned": "planned", "running": "in progress", "ended": "over"},
    },
    "phase": {
        "ru": {"posture": "объявление положений", "move": "движение", "fire": "огонь"},
        "en": {"posture": "postures", "move": "movement", "fire": "fire"},
    },
    "aboard": {
        "ru": {"crew": "экипаж", "passenger": "пассажир", "rider": "десант на броне"},
        "en": {"crew": "crew", "passenger": "passenger", "rider": "rider"},
    },
    "drive": {
        "ru": {"tracked": "гусеничный", "half_tracked": "полугусеничный", "wheeled": "колёсный",
               "towed": "буксируемый", "none": "без хода"},
        "en": {"tracked": "tracked", "half_tracked": "half-tracked", "wheeled": "wheeled", "towed": "towed",
               "none": "immobile"},
    },
    "specialisation": {
        "ru": {"spotter": "корректировщик", "tractor": "тягач", "mine_trawl": "минный трал",
               "at_fire": "противотанковый огонь"},
        "en": {"spotter": "spotter", "tractor": "tractor", "mine_trawl": "mine trawl", "at_fire": "AT fire"},
    },
}

# Flames of War (catalog glossary, part F): a FoW «отделение» is a team, never a tank or a vehicle,
# so a team is named by its kind; statuses are the rulebook's own terms, with the English beside them.
TERMS.update({
    "fow_team_kind": {
        "ru": {"infantry": "пехотное отделение", "gun": "орудийное отделение", "tank": "танк", "vehicle": "машина",
               "train": "вагон бронепоезда"},
        "en": {"infantry": "infantry team", "gun": "gun team", "tank": "tank", "vehicle": "vehicle",
               "train": "armoured train wagon"},
    },
    "fow_team_kinds": {  # counted: «танков — 2»
        "ru": {"infantry": "пехотных отделений", "gun": "орудийных отделений", "tank": "танков", "vehicle": "машин",
               "train": "вагонов бронепоезда"},
        "en": {"infantry": "infantry teams", "gun": "gun teams", "tank": "tanks", "vehicle": "vehicles",
               "train": "armoured train wagons"},
    },
    "fow_platoon_kind": {
        "ru": {"infantry": "пехотный взвод", "gun": "орудийный взвод", "tank": "танковый взвод",
               "recon": "разведывательный взвод", "armoured_train": "бронепоезд", "independent": "независимые отделения",
               "other": "взвод"},
        "en": {"infantry": "infantry platoon", "gun": "gun platoon", "tank": "tank platoon", "recon": "reconnaissance platoon",
               "armoured_train": "armoured train", "independent": "independent teams", "other": "platoon"},
    },
    "fow_status": {
        "ru": {"bogged": "Застрявший (Bogged Down)", "bailed_out": "Покинутый (Bailed Out)",
               "destroyed": "Уничтоженный (Destroyed)", "gone_to_ground": "Залёгший (Gone to Ground)",
               "concealed": "Сокрытый (Concealed)", "bulletproof_cover": "в Пуленепробиваемом Укрытии (Bulletproof Cover)",
               "dug_in": "Окопанный (Dug In)", "pinned": "Прижатый Огнём (Pinned Down)", "wreck": "Обломки (Wreckage)"},
        "en": {"bogged": "Bogged Down", "bailed_out": "Bailed Out", "destroyed": "Destroyed",
               "gone_to_ground": "Gone to Ground", "concealed": "Concealed", "bulletproof_cover": "in Bulletproof Cover",
               "dug_in": "Dug In", "pinned": "Pinned Down", "wreck": "Wreckage"},
    },
    "fow_step": {  # the Steps of a turn (fow/rules/steps.py)
        "ru": {"movement": "Шаг Движения (Movement Step)", "shooting": "Шаг Стрельбы (Shooting Step)",
               "assault": "Шаг Ближнего Боя (Assault Step)"},
        "en": {"movement": "Movement Step", "shooting": "Shooting Step", "assault": "Assault Step"},
    },
    "fow_fire": {
        "ru": {"direct": "стрельба", "artillery": "Артобстрел", "aircraft": "воздушный налёт"},
        "en": {"direct": "shooting", "artillery": "Artillery Bombardment", "aircraft": "air attack"},
    },
    "fow_result": {  # what the table decided for a shot's target (G-F1)
        "ru": {"miss": "промах", "saved": "попадание отражено спасброском", "bailed_out": "цель Покинута (Bailed Out)",
               "destroyed": "цель Уничтожена (Destroyed)"},
        "en": {"miss": "a miss", "saved": "hit but saved", "bailed_out": "the target Bailed Out",
               "destroyed": "the target Destroyed"},
    },
    "fow_turn_reason": {
        "ru": {"difficult_terrain": "Труднопроходимая Местность", "road": "Дорога", "enemy": "враг", "other": "другое"},
        "en": {"difficult_terrain": "Difficult Terrain", "road": "a Road", "enemy": "the enemy", "other": "other"},
    },
    "fow_air_weapon": {
        "ru": {"bombs": "Бомбы", "rockets": "Реактивные Снаряды", "cannon": "Пушки", "mg": "Пулемёты"},
        "en": {"bombs": "Bombs", "rockets": "Rockets", "cannon": "Cannon", "mg": "Machine-guns"},
    },
    "fow_edges": {
        "ru": {"north_south": "северный и южный", "east_west": "восточный и западный"},
        "en": {"north_south": "north and south", "east_west": "east and west"},
    },
    "fow_edge": {  # «на северном краю»
        "ru": {"north": "северном", "south": "южном", "east": "восточном", "west": "западном"},
        "en": {"north": "north", "south": "south", "east": "east", "west": "west"},
    },
})

FALLBACK = {"ru": "неизвестно", "en": "unknown"}


def lang_of(language: str | None) -> str:
    """``ru`` unless the language is English (Russian first)."""
    return "en" if (language or "ru").lower().startswith("en") else "ru"


def term(group: str, value: str | None, language: str | None = "ru") -> str:
    """The reader's word for an engine value; an unknown value reads as
    «неизвестно», never as the raw key."""
    lang = lang_of(language)
    if value in (None, ""):
        return ""
    return TERMS[group][lang].get(str(value), FALLBACK[lang])


def readable(message: str, *, names: dict[str, str], language: str | None = "ru") -> str:
    """An engine message as a player reads it: the pieces it names by their
    roster names instead of their ids (``'ivan-s1-f10'`` -> «Стрелок №7»),
    and, in Russian, the weapon and class keys in words. The engine knows no
    names (it is pure); the pages call this before showing a refusal."""
    if names:
        ids = sorted(names, key=len, reverse=True)
        alternatives = "|".join(map(re.escape, ids))
        pattern = re.compile(rf"'({alternatives})'|(?<![\w-])({alternatives})(?![\w-])")

        def name(m: re.Match[str]) -> str:
            return f"«{names[m.group(1)]}»" if m.group(1) else names[m.group(2)]

        message = pattern.sub(name, message)
    if lang_of(language) == "ru":
        # Sides too: a refusal read «Сейчас ходит defender, а не attacker».
        words = {**TERMS["cls"]["ru"], **TERMS["weapon"]["ru"],
                 "attacker": TERMS["side"]["ru"]["attacker"], "defender": TERMS["side"]["ru"]["defender"]}
        keys = "|".join(sorted(words, key=len, reverse=True))
        message = re.sub(rf"(?<![\w-])({keys})(?![\w-])", lambda m: words[m.group(1)], message)
    return re.sub(r'(\d+)\.0(?=["″])', r"\1", message)
