"""The log reads as sentences: every event type has its own, with names (not
ids), dice with their provenance, distances in inches and the deciding rule;
no raw key, enum value, dict, None or True reaches the page, in Russian or
English."""
from __future__ import annotations

import dataclasses
import re
import typing

import pytest
from django.template.loader import render_to_string

from battles import engine
from battles.engine import dump
from battles.table import report
from tests.engine.table import standard

R = {"value": 14, "source": "rolled", "rng": "secrets"}  # a die rolled by the service
E = {"value": 7, "source": "entered"}  # a die entered from the table

PAYLOADS: dict[str, dict[str, typing.Any]] = {
    "battle_started": {"attacker": "Вермахт", "defender": "РККА", "ruleset": "v11.2"},
    "turn_ended": {"side": "defender", "turn": 1},
    "player_done": {"side": "defender", "turn": 1, "player": "ivan"},
    "battle_ended": {"winner": "defender", "reason": "мост удержан"},
    "correction": {"voids_seq": 3, "reason": "не тот боец"},
    "sapper_approached": {"sapper": "d_sap", "object": "W", "distance": 3.5},
    "sapper_worked": {"sapper": "d_sap", "action": "lay", "object": "m1", "kind": "ap"},
    "mine_triggered": {"mine": "m1", "distance": 1.5, "vehicle": None, "trawl": False,
                       "victims": [{"fighter": "a1", "distance": 1.0, "on_object_base": False}]},
    "charge_detonated": {"charge": "c1", "sapper": "d_sap", "officer": "d_lt",
                         "victims": [{"fighter": "a2", "distance": 2.0, "on_object_base": True}], "objects": ["H"]},
    "mine_revealed": {"mine": "m1", "sapper": "a_sap", "distance": 5.0},
    "force_mustered": {"side": "attacker", "units": [{"id": "A", "kind": "squad"}], "vehicles": [{"id": "AT3"}],
                       "fighters": [{"id": "a1"}]},
    "terrain_placed": {"houses": ["H"], "bunkers": [], "spotter_bunkers": ["B"], "wire": ["W"], "fences": ["FN"]},
    "postures_declared": {"side": "attacker", "units": {"A": "assault", "A2": "march"}, "fighters": {"a_snp": "recon"}},
    "fighters_moved": {"side": "attacker", "fighters": ["a1", "a2"], "distance": 6.0, "road": True, "floors": 1,
                       "enter_house": "H", "leave_house": False, "through_opening": True, "obstacle_height": 1.0,
                       "wire": ["W"], "water": True, "bridge": True, "mg_spacing": 2.0},
    "vehicle_moved": {"vehicle": "AT3", "distance": 8.0, "road": True, "railway": False, "wire": ["W"],
                      "towing": "AH"},
    "fire": {"shooter": "a_hmg", "weapon": "hmg", "target": "fighters", "distance": 12.0, "target_id": "D",
             "visual_contact": True, "on_height": True, "corrected": False, "hit": R, "spot": E,
             "struck": [{"fighter": "d1", "die": E, "light_cover": True, "embrasure": False, "distance": None},
                        {"fighter": "d2", "die": R, "light_cover": False, "embrasure": True, "distance": 1.5}],
             "through_smoke": "S1", "ambush": True, "path_distance": 3.0},
    "smoke_fired": {"shooter": "DM", "officer": "d_lt", "officer_distance": 6.0, "smoke": "S1"},
    "fire_corrected": {"corrector": "a_lt", "shooter": "AH", "target": "B", "via": "radio", "distance": 3.0,
                       "radio_operators": ["a_rad", "a_rad2"], "battery_officer": "a_bo", "battery_distance": 2.0},
    "melee": {"attacker": "a1", "defender": "d1", "distance": 1.0, "rolls": [{"attacker": R, "defender": E}]},
    "wound_test": {"fighter": "d1", "die": E, "medic": "d_med", "medic_distance": 2.0, "reroll": R},
    "morale_test": {"unit": "D", "die": R, "officer_distances": {"d_lt": 14.0}, "radio_link": True,
                    "enemy_distances": {"a1": 10.0}, "new_commander": "d2"},
    "order_given": {"officer": "a_lt", "unit": "A", "distance": 8.0, "radio_operators": ["a_rad"],
                    "talk_distances": [2.0, 3.0]},
    "prisoner_taken": {"captor": "a1", "prisoner": "d1", "distance": 1.0, "nearest_fit_enemy": 7.0},
    "prisoner_handled": {"prisoner": "d1", "action": "send"},
    "prisoner_freed": {"prisoner": "d1", "officer": "d_lt", "officer_distance": 5.0, "nearest_enemy": 6.0},
    "embarked": {"vehicle": "AP", "fighters": ["a1", "a2"], "role": "riders", "in_contact": True},
    "disembarked": {"vehicle": "AP", "fighters": ["a1"], "distance": 1.0},
    "capture_attempted": {"vehicle": "DT4", "infantry": {"a1": 1.0, "a2": 1.5}, "surrounded": True,
                          "nearest_friendly": 9.0, "die": E},
    "vehicle_boarded": {"vehicle": "DT4", "fighter": "a_tp"},
    "crew_boarded": {"vehicle": "DT4", "fighters": ["a_tp", "a_pd"]},
    "crew_dismounted": {"vehicle": "DT4", "fighters": ["a_tp"], "distance": 1.0},
}

NAMES = {"d_sap": "Кузнецов", "a_sap": "Вебер", "a1": "Мюллер", "a2": "Шмидт", "d1": "Иванов", "d2": "Петров",
         "d_lt": "Лейтенант Орлов", "a_lt": "Лейтенант Фогель", "a_hmg": "Бауэр", "d_med": "Сидоров",
         "A": "Штурмгруппа", "A2": "Огневая группа 2", "D": "1-е отделение", "AT3": "Pz III «121»",
         "AP": "SdKfz 251", "AH": "leFH 18", "DT4": "Т-34 «Гроза»", "DM": "Миномёт 82-мм", "a_snp": "Кёниг",
         "a_rad": "Хоффман", "a_rad2": "Вольф", "a_bo": "Лейтенант Краус", "a_tp": "Рихтер", "a_pd": "Кох"}


def _state() -> dict[str, typing.Any]:
    state = dump(standard().state)
    state["mines"] = {"m1": {"id": "m1", "side": "defender", "kind": "ap", "laid_by": "d_sap", "active": False,
                             "revealed": True},
                      "c1": {"id": "c1", "side": "defender", "kind": "charge", "laid_by": "d_sap", "active": False,
                             "revealed": True}}
    state["smoke"] = {"S1": {"id": "S1", "side": "defender", "ply": 1, "by": "DM"}}
    state["voided"] = [3]
    return state


def _raw_words() -> set[str]:
    """Every payload key and every enum value of every event type."""
    words: set[str] = set()

    def walk(tp: typing.Any) -> None:
        if typing.get_origin(tp) is typing.Literal:
            words.update(str(a) for a in typing.get_args(tp) if a)
        elif dataclasses.is_dataclass(tp):
            hints = typing.get_type_hints(tp)
            for f in dataclasses.fields(tp):
                words.add(f.name)
                walk(hints[f.name])
        else:
            for arg in typing.get_args(tp):
                walk(arg)

    for entry in engine.REGISTRY.values():
        walk(entry.payload)
    return words - {"v11.2"}


class _Ev:
    def __init__(self, seq: int, type_: str, data: dict[str, typing.Any]) -> None:
        self.seq, self.type, self.data = seq, type_, data


def test_every_event_type_has_a_sample_payload_that_the_engine_accepts_as_well_formed():
    assert set(PAYLOADS) == set(engine.REGISTRY), "a new event type needs a sentence and a sample here"
    for type_, data in PAYLOADS.items():
        engine.REGISTRY[type_].parse(data)


@pytest.mark.parametrize("type_", sorted(PAYLOADS))
def test_each_event_type_has_its_own_sentence_not_the_generic_title(type_):
    entry = engine.REGISTRY[type_]
    for lang, title in (("ru", entry.title_ru), ("en", entry.title_en)):
        text = report.sentence(type_, PAYLOADS[type_], lang, names=NAMES, state=_state())
        assert text not in (f"{title}.", title) and len(text) > 20, text


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_log_with_every_event_type_leaks_no_raw_key_dict_or_literal(lang, settings):
    state = _state()
    events = [_Ev(i, t, d) for i, (t, d) in enumerate(PAYLOADS.items(), start=1)]
    chapters = report.report(events, state, lang, names=NAMES, sides={"attacker": "Вермахт", "defender": "РККА"})
    html = render_to_string("battles/_log.html", {"chapters": chapters, "campaign": {
        "attacker_name": "Вермахт", "defender_name": "РККА"}})
    text = re.sub(r"<[^>]+>", " ", html)
    for token in ("{", "}", "None", "True", "False", "[", "'", "_"):
        assert token not in text, (token, text)
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9_.]*", text))
    leaked = words & _raw_words()
    if lang == "en":  # keys and values are English words; only the codes that are not must be absent
        leaked &= {"ap", "hq", "apc", "lmg", "hmg", "recon", "ply", "rng", "secrets", "rolled"}
    assert not leaked, leaked
    # names, not ids; dice with provenance; inches; rules; the voided entry struck through
    for expected in (("Кузнецов", "Т-34 «Гроза»", "Штурмгруппа"),
                     ("бросок сервиса 14", "с кубика за столом 7") if lang == "ru" else ("service roll 14",
                                                                                     "table die 7"),
                     ("12″", "V-MG-1", "V-MINE-4", "V-POW-5", "V-TURN-13")):
        for s in expected:
            assert s in text, s
    assert '<li id="seq3" value="3"><del class="voided"' in html


def test_a_redacted_sappers_work_reads_as_hidden_work():
    text = report.sentence("sapper_worked", {"sapper": "d_sap", "redacted": True}, "ru", names=NAMES, state=_state())
    assert "Кузнецов" in text and "скрытой работой" in text and "m1" not in text


def test_a_mortar_shot_names_the_vehicles_in_its_radius_v_mort_4():
    data = {"shooter": "DM", "weapon": "mortar", "target": "fighters", "distance": 10, "target_id": "pt",
            "hit": {"value": 15, "source": "entered"}, "vehicles_struck": [{"vehicle": "AT3", "distance": 0.5}]}
    ru = report.sentence("fire", data, "ru", names=NAMES, state=_state())
    en = report.sentence("fire", data, "en", names=NAMES, state=_state())
    assert "техника в радиусе" in ru and "V-MORT-4" in ru
    assert "vehicles in the radius" in en and "0.5" in en
