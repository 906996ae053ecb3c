"""A Flames of War log reads as sentences (issue 25, section 5): every FoW
event type has its own, naming teams and platoons by the roster (a team with
its platoon), distances in the battle's units, the dice with their values and
provenance, what the table decided where the seeds give no rule (G-F1: a
shot's hits), and the F- rule; the outcome clause tells each test's die with
the face it needed and the statuses it changed. No raw key, id, dict, None or
True reaches the reader, in Russian or English, and a tank is never an
«отделение»."""
from __future__ import annotations

import re
import typing

import pytest
from django.template.loader import render_to_string

from battles import engine
from battles.table import report
from battles.table.namer import Namer
from tests.engine.fow.table import Table as FowTable
from tests.engine.fow.table import team

R = {"value": 6, "source": "rolled", "rng": "secrets"}  # a d6 rolled by the service
E = {"value": 3, "source": "entered"}  # a d6 entered from the table
E5 = {"value": 5, "source": "entered"}

PLATOONS_A = (
    {"id": "xbp", "kind": "armoured_train", "escorts": ["xts"],
     "teams": [team("xloco", "train", armoured=True, locomotive=True), team("xw1", "train", armoured=True)]},
    {"id": "xts", "kind": "tank", "teams": [team("xt1", "tank", armoured=True, armour_top=1, armour_side=3),
                                            team("xt2", "tank", armoured=True)]},
    {"id": "xri", "kind": "infantry", "teams": [team("xr1"), team("xr2")]},
    {"id": "xrc", "kind": "recon", "teams": [team("xj1", "vehicle")]},
)
PLATOONS_D = (
    {"id": "ypz", "kind": "tank", "teams": [team("ypz1", "tank", armoured=True, armour_top=1, armour_side=3),
                                            team("ypz2", "tank", armoured=True)]},
    {"id": "ygr", "kind": "infantry", "teams": [team("ygr1"), team("ygr2")]},
    {"id": "yrc", "kind": "recon", "teams": [team("yj1", "vehicle")]},
)
NAMES = {"xbp": "Бронепоезд «Илья Муромец»", "xloco": "Паровоз", "xw1": "Артвагон", "xts": "Танковый взвод поддержки",
         "xt1": "Т-34 №1", "xt2": "Т-34 №2", "xri": "Стрелковый взвод", "xr1": "Стрелки №1", "xr2": "Стрелки №2",
         "xrc": "Разведвзвод", "xj1": "Бронеавтомобиль №1", "ypz": "Взвод Pz IV", "ypz1": "Pz IV №1",
         "ypz2": "Pz IV №2", "ygr": "Гренадеры", "ygr1": "Гренадеры №1", "ygr2": "Гренадеры №2", "yrc": "Разведка",
         "yj1": "Sd Kfz 222"}
SIDES = {"attacker": "РККА", "defender": "Вермахт"}

PAYLOADS: dict[str, dict[str, typing.Any]] = {
    "battle_started": {"attacker": "РККА", "defender": "Вермахт", "ruleset": "fow", "units": "in",
                       "first_mover": "attacker"},
    "force_mustered": {"side": "attacker", "platoons": [dict(p, name=NAMES[p["id"]]) for p in PLATOONS_A]},
    "turn_ended": {"side": "attacker", "turn": 1},
    "battle_ended": {"winner": "attacker", "reason": "Бронепоезд прорвался"},
    "correction": {"voids_seq": 3, "reason": "не тот танк"},
    "status_set": {"subject": "ypz1", "status": "bailed_out", "value": True, "reason": "Т-34 №1"},
    "team_moved": {"team": "xt1", "distance": 20, "at_the_double": True, "turned_for": ["road"], "closest_enemy": 9,
                   "difficult_terrain": False, "bulletproof_cover": False},
    "team_shot": {"shooter": "xt1", "target": "ypz1", "dice": [E5, R], "kind": "direct", "distance": 14, "hits": 1,
                  "result": "destroyed", "pinned": True},
    "step_ended": {"side": "attacker", "step": "movement"},
    "assault_launched": {"teams": ["xr1", "xr2"], "against": "ygr"},
    "went_to_ground": {"teams": ["xr1", "xr2"]},
    "dig_in_attempted": {"platoon": "xri", "die": E, "reroll": R, "pioneer_supply_distance": 1.5,
                         "in_water": ["xr2"], "in_cover": []},
    "dig_in_rerolled": {"platoon": "xri", "die": R, "pioneer_supply_distance": 1.5},
    "foxholes_marked": {"platoon": "ygr"},
    "foxholes_reoccupied": {"platoon": "ygr", "teams": ["ygr1"]},
    "air_attack_resolved": {"side": "attacker", "aircraft": "Ил-2", "hits": [
        {"team": "ypz1", "weapon": "rockets", "save": E, "anti_tank": 5, "firepower": 5, "firepower_die": R},
        {"team": "ygr1", "weapon": "mg", "save": E5}]},
    "air_attack_hit": {"side": "attacker", "aircraft": "Ил-2", "hits": [
        {"team": "ypz1", "weapon": "rockets", "anti_tank": 5, "firepower": 5}, {"team": "ygr1", "weapon": "mg"}]},
    "air_save_rolled": {"aircraft": "Ил-2", "team": "ypz1", "save": E, "firepower_die": R},
    "building_placed": {"id": "xh", "name": "Мельница", "openings": [{"id": "A", "ground_floor": True, "width": 2},
                                                                      {"id": "B", "ground_floor": False}],
                        "inside": ["ygr2"]},
    "building_move": {"team": "xr1", "building": "xh", "distance": 4, "enter_by": "A", "die": E5, "base_width": 1.5},
    "railway_edges_chosen": {"side": "attacker", "edges": "east_west"},
    "railway_point_chosen": {"side": "defender", "edge": "west", "position": 14},
    "railway_line_laid": {"side": "attacker", "length": 48, "bridges": 1, "buildings_moved": ["Водокачка"],
                          "through_hills": True, "crosses_deployment_area": False},
    "train_held_back": {"train": "xbp", "held_in": "reserve"},
    "train_deployed": {"train": "xbp"},
    "train_entered": {"train": "xbp", "distance": 12, "train_length": 10, "entry": "deployment_area"},
    "train_moved": {"train": "xbp", "distance": 16, "direction": "forward", "wrecks_pushed": ["ypz2"],
                    "leaves_table": True},
    "escort_left_train": {"platoon": "xts", "distance": 4},
    "ambush_placed": {"team": "ygr2", "recon_in_sight": [{"team": "xj1", "distance": 9}]},
    "passengers_changed": {"team": "xj1", "passengers": ["xr1"]},
    "recon_deployment_started": {"first": "defender"},
    "recon_deployment_move": {"team": "xj1", "distance": 7, "at_the_double": False, "enemies": [
        {"enemy": "ygr1", "start_distance": 20, "closest": 17, "in_sight_at_start": True, "closest_in_sight": 17}]},
    "recon_deployment_ended": {"note": "оба игрока закончили"},
    "disengage_declared": {"platoon": "yrc", "shooters": ["xt1", "xt2"]},
    "disengaged": {"platoon": "yrc", "die": E5, "moves": [{"team": "yj1", "distance": 8, "further_away": True}],
                   "out_of_reach": True},
    "unarmoured_save_rolled": {"team": "yj1", "die": E, "fire": "artillery"},
}
IDS = {i for i in NAMES}  # every team's and platoon's id: never shown raw


def _state() -> dict[str, typing.Any]:
    t = FowTable(platoons_a=PLATOONS_A, platoons_d=PLATOONS_D)
    t.add(("building_placed", {"id": "xh", "name": "Мельница", "openings": [{"id": "A"}, {"id": "B"}]}))
    state = engine.state_to_json(t.state)
    state["voided"] = [3]
    return state


class _Ev:
    def __init__(self, seq: int, type_: str, data: dict[str, typing.Any]) -> None:
        self.seq, self.type, self.data = seq, type_, data


def test_every_fow_event_type_has_a_sample_payload_the_engine_accepts():
    registry = engine.RULESETS["fow"].registry
    assert set(PAYLOADS) == set(registry), "a new FoW event type needs a sentence and a sample here"
    for type_, data in PAYLOADS.items():
        registry[type_].parse(data)


@pytest.mark.parametrize("type_", sorted(engine.RULESETS["fow"].registry))
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_each_fow_event_type_has_its_own_sentence_not_the_bare_title(type_, lang):
    entry = engine.RULESETS["fow"].registry[type_]
    title = entry.title_ru if lang == "ru" else entry.title_en
    text = report.sentence(type_, PAYLOADS[type_], lang, names=NAMES, state=_state(), sides=SIDES)
    # the generic fallback reads «<title>: <names>.»
    assert not re.fullmatch(rf"{re.escape(title)}(: [^.;()]*)?\.", text) and len(text) > 20, text
    for token in ("{", "}", "None", "True", "False", "[", "'", "_", "неизвестно", "unknown"):
        assert token not in text, (token, text)
    leaked = {i for i in IDS if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}
    assert not leaked, (leaked, text)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_fow_log_with_every_event_type_renders_without_raw_values(lang):
    state = _state()
    events = [_Ev(i, t, d) for i, (t, d) in enumerate(PAYLOADS.items(), start=1)]
    chapters = report.report(events, state, lang, names=NAMES, sides=SIDES)
    html = render_to_string("battles/_log.html", {"chapters": chapters, "campaign": {
        "attacker_name": "РККА", "defender_name": "Вермахт"}})
    text = re.sub(r"<[^>]+>", " ", html)
    for token in ("{", "}", "None", "True", "False", "[", "'", "_"):
        assert token not in text, (token, text)


def test_g_f1_a_shot_states_target_range_dice_and_what_the_table_decided():
    text = report.sentence("team_shot", PAYLOADS["team_shot"], "ru", names=NAMES, state=_state(), sides=SIDES)
    assert text == ("Т-34 №1, Танковый взвод поддержки: стрельба по цели Pz IV №1, Взвод Pz IV на 14″; кубиков — 2: "
                    "с кубиков за столом 5; броски сервиса 6; решение стола: попаданий — 1, цель Уничтожена "
                    "(Destroyed), взвод цели Прижат Огнём (Pinned Down) (G-F1).")
    en = report.sentence("team_shot", {"shooter": "xt1", "target": "ypz1", "dice": [E5]}, "en", names=NAMES,
                         state=_state())
    assert en.endswith("dice (1): table dice 5; the table decides the hits and what they do (G-F1).")


def test_a_centimetre_battle_states_its_distances_in_centimetres():
    state = _state()
    state["measure"] = "cm"
    text = report.sentence("team_moved", {"team": "xr1", "distance": 15}, "ru", names=NAMES, state=state)
    assert text == "Стрелки №1, Стрелковый взвод: движение на 15 см (G-F1)."
    assert "15 cm" in report.sentence("team_moved", {"team": "xr1", "distance": 15}, "en", names=NAMES, state=state)


def test_an_unnamed_tank_is_a_tank_never_an_otdelenie():
    text = report.sentence("team_moved", {"team": "ypz2", "distance": 6}, "ru", names={}, state=_state())
    assert text.startswith("танк ypz2") and "отделение" not in text
    text = report.sentence("went_to_ground", {"teams": ["ygr1"]}, "ru", names={}, state=_state())
    assert "пехотное отделение ygr1" in text


def test_f_dig_3_the_outcome_tells_the_skill_test_with_its_need_and_who_dug_in():
    effects = [{"kind": "roll", "test": "skill", "value": 3, "need": 4, "passed": False, "id": "xri"},
               {"kind": "roll", "test": "skill_reroll", "value": 6, "need": 4, "passed": True, "id": "xri"},
               {"kind": "dug_in", "id": "xr1"}]
    n = Namer(NAMES, _state(), "ru", SIDES)
    assert report.outcome(effects, n) == (
        "Итог: тест на Умение, Стрелковый взвод: 3 — не пройден, нужно ≥ 4; переброс теста на Умение, Стрелковый "
        "взвод: 6 — пройден, нужно ≥ 4; Стрелки №1, Стрелковый взвод — окопался (Dug In).")
    n_en = report.Namer(NAMES, _state(), "en", SIDES)
    assert report.outcome([{"kind": "pinned", "id": "ypz"}, {"kind": "train_left", "id": "xbp"}], n_en) == (
        "Result: Взвод Pz IV — Pinned Down; Бронепоезд «Илья Муромец» — left the table for good (F-TRAIN-22).")
