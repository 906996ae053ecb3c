"""roster_validate's report as a whole (rosters.domain): every violation at once, each line with a
catalog rule ID, its subject by name and both languages, and the readings the game master may change.
The rules themselves are tested by family: test_prestige_points, test_squads, test_platoons,
test_tactical_groups, test_motorised, test_vehicles, test_upgrades, test_fow_rosters. No database."""
from __future__ import annotations

import re

import pytest

from rosters import domain

from .builders import Build, assert_says_it_in_both_languages, fow_report, ids, motorised


def test_every_violation_is_returned_at_once_with_unit_and_both_languages():
    b = Build()
    p = b.unit("platoon")  # no lieutenant (V-RANK-7), one squad (V-PLT-1)
    s = b.squad(p, team1=8, specials1={"sniper": 2})  # V-SQUAD-1 (8 men), V-SQUAD-7
    b.add("rifleman", 1)  # V-OFF-8
    report = b.report()
    assert {"V-RANK-7", "V-PLT-1", "V-SQUAD-1", "V-SQUAD-7", "V-OFF-8"} <= ids(report)
    squad_rules = {v.rule_id for v in report.for_unit(s)}
    assert {"V-SQUAD-1", "V-SQUAD-7"} <= squad_rules
    for v in report.violations:
        assert v.message_ru and v.message_en and v.message_ru != v.message_en
    assert next(v for v in report.violations if v.rule_id == "V-SQUAD-7").unit_name == s


def _reports():
    yield {ref: f"Взвод {ref}" for ref in ("1", "2", "T", "C")}, fow_report(
        ("1", "recon", None, [("scout", 1), ("rifle", 1)]), ("2", "infantry", None, []),
        ("T", "armoured_train", None, [("wagon", 1), ("rifle", 1)]), ("C", "infantry", "T", [("wagon", 1)]),
        teams=[("ghost", "nowhere", 1), ("rifle", "nowhere", 1)], limit=1,
        fighters=(domain.FighterSpec("rifleman", 1, "1"),))
    b = Build()
    m = b.unit("motorised")
    v = b.vehicle("car", m)
    b.add("personnel", 1, m, vehicle=v)
    b.add("sergeant", 3, m)
    b.squad(team1=9, team2=2)
    b.platoon(squads=1)
    b.group("at", of_kind=0)
    b.company(platoons=0)
    yield {u.ref: u.name for u in b.units} | {f"vehicle:{x.ref}": x.name for x in b.vehicles}, b.report()


def test_every_report_line_names_a_catalog_id_and_says_it_in_russian_and_english():
    for units, report in _reports():
        assert len(report.violations) >= 5
        for v in report.violations:
            assert re.fullmatch(r"[A-Z]+(-[A-Z0-9]+)+", v.rule_id), v
            assert isinstance(v.message_ru, str) and re.search("[а-яА-Я]", v.message_ru), v
            assert isinstance(v.message_en, str) and re.search("[a-zA-Z]{3}", v.message_en), v
            assert v.severity in {"error", "warning"}
            assert v.unit is None or v.unit in units, v
            assert v.unit_name == units.get(v.unit, ""), v  # people read the unit's name, not its ref


def test_violation_as_dict_is_the_api_shape():
    v = domain.Violation("V-MOTOR-6", "русский", "English", "u1", "Взвод", "warning")
    assert v.as_dict() == {"rule_id": "V-MOTOR-6", "unit": "u1", "unit_name": "Взвод", "severity": "warning",
                           "message_ru": "русский", "message_en": "English"}


# --- a pricing or structure line stands at the vehicle or unit it is about ---------------------------------
def _artillery_without_gun_class():
    b = Build()
    v = b.vehicle("artillery", armour=None, gun=None)
    return b, "V-VEH-2", f"vehicle:{v}"


def _skirts_on_a_car():
    b = Build()
    v = b.vehicle("car", armour=1, skirts=True)
    return b, "V-VDMG-9", f"vehicle:{v}"


def _no_armour_class():
    b = Build()
    v = b.vehicle("tank", armour=None, gun=2)
    return b, "V-VDMG-1", f"vehicle:{v}"


def _unknown_fighter_class():
    b = Build()
    s = b.squad()
    b.add("grenadier_of_nowhere", 1, s, team=1)
    return b, "V-TURN-1", s


@pytest.mark.parametrize("case", [_artillery_without_gun_class, _skirts_on_a_car, _no_armour_class,
                                  _unknown_fighter_class])
def test_a_pricing_line_names_the_vehicle_or_unit_and_speaks_both_languages(case):
    """V-VEH-2, V-VDMG-9, V-VDMG-1, V-TURN-1: the roster builder shows each line at the vehicle or
    unit it is about (``vehicle:<ref>`` or the unit's ref), with its name, in Russian and in English."""
    b, rule, subject = case()
    lines = [v for v in b.report().violations if v.rule_id == rule]
    assert lines and all(v.unit == subject for v in lines), lines
    for line in lines:
        assert_says_it_in_both_languages(line)


def _unknown_vehicle_kind():
    b = Build()
    v = b.vehicle("zeppelin", armour=1)
    return b, "V-VEH-1", f"vehicle:{v}"


def _vehicle_of_a_missing_unit():
    b = Build()
    v = b.vehicle("car", "nowhere", armour=1)
    return b, "V-VEH-1", f"vehicle:{v}"


def _unit_in_a_missing_unit():
    b = Build()
    s = b.squad("nowhere")
    return b, "V-PLT-3", s


def _squad_in_a_company():
    b = Build()
    c = b.unit("company")
    b.add("captain", 1, c)
    s = b.squad(c)
    return b, "V-PLT-3", s


def _at_fire_on_a_tank():
    b = Build()
    v = b.vehicle("tank", armour=2, gun=2, options=("aa_at_fire",), crew=True)
    return b, "V-AA-7", f"vehicle:{v}"


@pytest.mark.parametrize("case", [_unknown_vehicle_kind, _vehicle_of_a_missing_unit, _unit_in_a_missing_unit,
                                  _squad_in_a_company, _at_fire_on_a_tank])
def test_a_structure_line_names_the_vehicle_or_unit_it_is_about(case):
    """V-VEH-1, V-PLT-3, V-AA-7: the line stands at the vehicle or unit it is about."""
    b, rule, subject = case()
    lines = [v for v in b.report().violations if v.rule_id == rule]
    assert lines and all(v.unit == subject for v in lines), lines


# --- readings: game data the master can change ----------------------------------------------------------
def test_readings_are_game_data_the_master_can_change():
    """V-SQUAD-5, V-SMOKE-1, V-TG-5, V-UPG-4, V-MOTOR-7 readings each follow a RosterRules field."""
    b = Build()
    s = b.squad()
    b.vehicle("tank", s, armour=2)
    assert "V-SQUAD-5" in ids(b.report()) and "V-SQUAD-5" not in ids(b.report(squad_vehicle_max_class=2))
    b = Build()
    v = b.vehicle("artillery", gun=2)
    assert not b.report().smoke[f"vehicle:{v}"] and b.report(smoke_min_gun_class=2).smoke[f"vehicle:{v}"]
    b = Build()
    b.group("recon", others=5)  # 8 with the corporal, 7 without
    assert "V-TG-5" in ids(b.report(budget_corporal=20))
    assert "V-TG-5" not in ids(b.report(budget_corporal=20, tg_max_includes_corporal=False))
    b = Build()
    b.group("recon", upgrades=["u1", "u2"])
    assert "V-UPG-4" in ids(b.report(budget_corporal=20))
    assert "V-UPG-4" not in ids(b.report(budget_corporal=20, group_upgrade_limit=False))
    b = motorised(1, extra_officers=("sergeant",))
    b.add("sergeant", 1, b.units[0].ref)
    assert "V-MOTOR-7" in ids(b.report()) and "V-MOTOR-7" not in ids(b.report(motor_max_sergeants=2))
