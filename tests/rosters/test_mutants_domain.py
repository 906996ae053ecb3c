"""rosters.domain: tests written to kill mutants that survived ``make mutants``
(docs/mutants.md). Each asserts what the roster report says and cites the rule. No database."""
from __future__ import annotations

import pytest

from .builders import Build, ids


def _motor_crew(personnel: int, commanders: tuple[str, ...]) -> Build:
    b = Build()
    m = b.unit("motorised")
    v = b.vehicle("tank", m, armour=2, gun=2)
    b.add("personnel", personnel, m, vehicle=v)
    for rank in commanders:
        b.add(rank, 1, m, vehicle=v)
    b.add("lieutenant", 1)
    return b


@pytest.mark.parametrize(("commanders", "ok"), [
    (("corporal",), True),
    ((), False),  # no commander
    (("corporal", "corporal"), False),  # two commanders: the seed says one
])
def test_v_motor_6_exactly_one_corporal_commands_a_motorised_crew(commanders, ok):
    """V-MOTOR-6: each armoured vehicle's crew is 2 personnel and one corporal commander."""
    report = _motor_crew(2, commanders).report()
    assert ("V-MOTOR-6" in ids(report)) is (not ok)


@pytest.mark.parametrize("personnel", [1, 3])
def test_v_motor_6_two_personnel_not_more_not_fewer(personnel):
    assert "V-MOTOR-6" in ids(_motor_crew(personnel, ("corporal",)).report())


# --- Flames of War rosters: every report line names its rule, its platoon, in both languages -----------------
from rosters import domain  # noqa: E402

FOW_TYPES = {
    "rifle": domain.FowTeamData("rifle", "infantry", "", False, 3),
    "scout": domain.FowTeamData("scout", "infantry", "recon", False, 3),
    "tank": domain.FowTeamData("tank", "tank", "", False, 10),
    "loco": domain.FowTeamData("loco", "train", "armoured_train", True, 12),
    "wagon": domain.FowTeamData("wagon", "train", "armoured_train", False, 10),
}


def _fow(*platoons, teams=(), limit=100, **spec_kw) -> domain.Report:
    """platoons: (ref, fow_kind, parent, [(type, count)]); ``teams``: extra (type, unit, count)."""
    units = tuple(domain.UnitSpec(ref, "fow_platoon", f"Взвод {ref}", parent, fow_kind=kind)
                  for ref, kind, parent, _ in platoons)
    rows = tuple(domain.FowTeamSpec(t, ref, n) for ref, _, _, rows in platoons for t, n in rows)
    rows += tuple(domain.FowTeamSpec(t, u, n) for t, u, n in teams)
    spec = domain.RosterSpec(units=units, teams=rows, ruleset="fow", in_campaign=True, **spec_kw)
    return domain.validate(spec, domain.Rules(classes={}, armour_cost={}, gun_cost={}, fow_team_types=FOW_TYPES,
                                              fow_points_limit=limit))


def _lines(report: domain.Report, rule_id: str) -> list[domain.Violation]:
    return [v for v in report.violations if v.rule_id == rule_id]


def test_f_spec_1_a_team_outside_any_platoon_is_an_error_of_the_whole_roster():
    report = _fow(("1", "infantry", None, [("rifle", 2)]), teams=[("rifle", "nowhere", 1)])
    [v] = _lines(report, "F-SPEC-1")
    assert v.unit is None and v.severity == "error" and not report.ok
    assert report.total == 3 * 3  # the stray team is still priced


def test_f_spec_1_an_unknown_team_type_names_its_platoon_and_the_next_team_is_still_counted():
    report = _fow(("1", "infantry", None, [("ghost", 1), ("rifle", 2)]))
    [v] = _lines(report, "F-SPEC-1")
    assert v.unit == "1" and v.unit_name == "Взвод 1" and "ghost" in v.message_en and "ghost" in v.message_ru
    assert report.total == 2 * 3 and report.unit_costs == {"1": 6}


def test_f_spec_1_an_unknown_team_type_outside_a_platoon_names_no_platoon():
    report = _fow(("1", "infantry", None, [("rifle", 1)]), teams=[("ghost", "nowhere", 1)])
    assert {v.unit for v in _lines(report, "F-SPEC-1")} == {None}


def test_f_spec_1_a_platoon_without_teams_names_the_platoon():
    [v] = _lines(_fow(("1", "infantry", None, [])), "F-SPEC-1")
    assert v.unit == "1" and v.severity == "error"


def test_g_f3_an_armoured_train_of_wagons_and_one_locomotive_is_valid():
    report = _fow(("T", "armoured_train", None, [("loco", 1), ("wagon", 2)]),
                  ("E", "tank", "T", [("tank", 2)]))
    assert report.ok, report.violations
    assert report.unit_costs == {"T": 12 + 20, "E": 20}


@pytest.mark.parametrize(("rows", "locos"), [([("wagon", 2)], 0), ([("loco", 2), ("wagon", 1)], 2)])
def test_g_f3_an_armoured_train_has_exactly_one_locomotive(rows, locos):
    [v] = _lines(_fow(("T", "armoured_train", None, rows)), "G-F3")
    assert v.unit == "T" and f"{locos}" in v.message_en and f"{locos}" in v.message_ru


def test_g_f3_an_armoured_train_is_wagons_only():
    [v] = _lines(_fow(("T", "armoured_train", None, [("loco", 1), ("rifle", 2)])), "G-F3")
    assert v.unit == "T"


def test_g_f3_wagons_belong_only_in_an_armoured_train():
    [v] = _lines(_fow(("1", "infantry", None, [("rifle", 1), ("wagon", 1)])), "G-F3")
    assert v.unit == "1"


@pytest.mark.parametrize(("parent_kind", "kind", "ok"), [
    ("armoured_train", "tank", True), ("armoured_train", "infantry", False), ("infantry", "tank", False),
])
def test_g_f3_only_a_tank_platoon_escorts_a_train(parent_kind, kind, ok):
    rows = [("loco", 1)] if parent_kind == "armoured_train" else [("rifle", 1)]
    report = _fow(("P", parent_kind, None, rows), ("C", kind, "P", [("tank" if kind == "tank" else "rifle", 1)]))
    lines = _lines(report, "G-F3")
    assert (not lines) is ok
    assert all(v.unit == "C" for v in lines)


def test_g_f3_a_platoon_whose_parent_is_missing_is_an_error():
    [v] = _lines(_fow(("C", "tank", "gone", [("tank", 1)])), "G-F3")
    assert v.unit == "C"


def test_f_spec_1_v11_2_fighters_in_a_fow_roster_are_an_error_of_the_whole_roster():
    report = _fow(("1", "infantry", None, [("rifle", 1)]), fighters=(domain.FighterSpec("rifleman", 1, "1"),))
    [v] = _lines(report, "F-SPEC-1")
    assert v.unit is None and not report.ok


def test_g_f1_the_points_limit_binds_above_not_at():
    assert _fow(("1", "infantry", None, [("rifle", 2)]), limit=6).ok
    [v] = _lines(_fow(("1", "infantry", None, [("rifle", 2)]), limit=5), "G-F1")
    assert v.unit is None and "6" in v.message_en and "5" in v.message_ru


# --- every report line, v11.2 and FoW: a catalog ID, Russian and English text, a real subject ----------------
def _reports():
    yield {ref: f"Взвод {ref}" for ref in ("1", "2", "T", "C")}, _fow(("1", "recon", None, [("scout", 1), ("rifle", 1)]), ("2", "infantry", None, []),
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
    import re

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


def test_v_veh_4_g6_no_class_below_the_first_armour_bound_or_above_the_last_calibre_bound():
    """V-VEH-4 / G-6: the suggested class is None (not 0, not ''), so the form suggests nothing."""
    assert domain.class_for_value(5, {1: 10, 2: 20}, upper=False) is None
    assert domain.class_for_value(10, {1: 10, 2: 20}, upper=False) == 1
    assert domain.class_for_value(200, {1: 20, 2: 76}, upper=True) is None
    assert domain.class_for_value(200, {1: 20, 2: None}, upper=True) == 2


def test_f_spec_1_troops_without_seed_rules_warn_on_their_platoon():
    """G-F2: the warning names the platoon whose teams have no rules in the seeds."""
    types = dict(FOW_TYPES, cossack=domain.FowTeamData("cossack", "infantry", "cavalry", False, 3))
    spec = domain.RosterSpec(units=(domain.UnitSpec("1", "fow_platoon", "Взвод 1", None, fow_kind="infantry"),),
                             teams=(domain.FowTeamSpec("cossack", "1", 2),), ruleset="fow", in_campaign=True)
    report = domain.validate(spec, domain.Rules(classes={}, armour_cost={}, gun_cost={}, fow_team_types=types,
                                                fow_points_limit=100))
    [w] = _lines(report, "F-SPEC-1")
    assert (w.unit, w.unit_name, w.severity) == ("1", "Взвод 1", "warning") and report.ok


def test_f_recon_1_names_every_wrong_team_type_once_in_a_list():
    report = _fow(("1", "recon", None, [("scout", 1), ("tank", 1), ("rifle", 2), ("tank", 1)]))
    [v] = _lines(report, "F-RECON-1")
    assert v.message_en.endswith(": rifle, tank.") and v.message_ru.endswith(": rifle, tank.")


def test_f_spec_1_a_v11_2_unit_in_a_fow_roster_is_an_error_on_that_unit():
    spec = domain.RosterSpec(units=(domain.UnitSpec("s", "squad", "Отделение Петрова"),
                                    domain.UnitSpec("1", "fow_platoon", "Взвод 1", None, fow_kind="infantry")),
                             teams=(domain.FowTeamSpec("rifle", "1", 1),), ruleset="fow", in_campaign=True)
    report = domain.validate(spec, domain.Rules(classes={}, armour_cost={}, gun_cost={}, fow_team_types=FOW_TYPES,
                                                fow_points_limit=100))
    [v] = _lines(report, "F-SPEC-1")
    assert (v.unit, v.unit_name, v.severity) == ("s", "Отделение Петрова", "error")
    assert "Отделение Петрова" in v.message_ru and "Отделение Петрова" in v.message_en


# --- v11.2: each rule's report line is on the unit that breaks it, named, in both languages ------------------
def _case_group(kind="", of_kind=2, corporals=1, sergeants=0):
    def build():
        b = Build()
        g = b.unit("tactical_group", group_kind=kind)
        if corporals:
            b.add("corporal", corporals, g)
        if sergeants:
            b.add("sergeant", sergeants, g)
        if of_kind:
            b.add("scout", of_kind, g)
        return b, g
    return build


def _case_motorised(vehicles=("tank",), crew=True, members=()):
    def build():
        b = Build()
        m = b.unit("motorised")
        for kind in vehicles:
            b.vehicle(kind, m, armour=2, gun=2, crew=crew)
        for rank in members:
            b.add(rank, 1, m)
        b.add("lieutenant", 1)
        return b, m
    return build


CASES = [
    ("V-TG-1", _case_group(kind="")),
    ("V-TG-2", _case_group(kind="recon", of_kind=1)),
    ("V-TG-4", _case_group(kind="recon", corporals=2)),
    ("V-TG-4", _case_group(kind="recon", corporals=0)),
    ("V-TG-4", _case_group(kind="recon", sergeants=1)),
    ("V-MOTOR-1", _case_motorised(vehicles=())),
    ("V-MOTOR-5", _case_motorised(vehicles=("tank",) * 4)),
    ("V-MOTOR-6", _case_motorised(crew=False)),
    ("V-MOTOR-7", _case_motorised(vehicles=("tank", "tank"), members=("sergeant", "corporal"))),
    ("V-MOTOR-7", _case_motorised(members=("sergeant", "sergeant"))),
]


@pytest.mark.parametrize(("rule_id", "build"), CASES)
def test_a_rule_broken_by_one_unit_is_reported_on_that_unit_by_name(rule_id, build):
    import re

    b, ref = build()
    lines = _lines(b.report(), rule_id)
    assert lines, f"{rule_id} not reported"
    for v in lines:
        assert (v.unit, v.unit_name, v.severity) == (ref, ref, "error"), v
        assert isinstance(v.message_ru, str) and re.search("[а-яА-Я]", v.message_ru), v
        assert isinstance(v.message_en, str) and re.search("[a-zA-Z]{3}", v.message_en), v


def test_v_motor_4_tanks_with_apcs_warn_on_the_unit():
    b, ref = _case_motorised(vehicles=("tank", "apc"))()
    [v] = _lines(b.report(), "V-MOTOR-4")
    assert (v.unit, v.unit_name, v.severity) == (ref, ref, "warning") and v.message_ru and v.message_en


def test_v_motor_7_a_sergeant_counts_among_the_three_command_staff():
    """V-MOTOR-7: a sergeant and corporals, three at most: two crews' corporals + a sergeant is three."""
    b, _ = _case_motorised(vehicles=("tank", "tank"), members=("sergeant",))()
    assert "V-MOTOR-7" not in ids(b.report())
    b, _ = _case_motorised(vehicles=("tank", "tank", "tank"), members=("sergeant",))()
    assert "V-MOTOR-7" in ids(b.report())


def _case(fn):
    """A builder for CASES: ``fn(b)`` builds into a fresh Build and returns the offending unit's ref."""
    def build():
        b = Build()
        return b, fn(b)
    return build


def _company(platoons=2, groups=0, hq=0, captains=1):
    def fn(b):
        c = b.unit("company")
        if captains:
            b.add("captain", captains, c)
        for _ in range(platoons):
            b.platoon(c)
        for _ in range(groups):
            b.group("recon", parent=c)
        for _ in range(hq):
            b.squad(c, kind="hq_squad")
        return c
    return _case(fn)


def _platoon(squads=2, groups=0, lieutenants=1):
    def fn(b):
        p = b.unit("platoon")
        if lieutenants:
            b.add("lieutenant", lieutenants, p)
        for _ in range(squads):
            b.squad(p)
        for _ in range(groups):
            b.group("recon", parent=p)
        return p
    return _case(fn)


def _squad(**kw):
    def fn(b):
        return b.squad(**kw)
    return _case(fn)


def _squad_with(*extra):
    def fn(b):
        s = b.squad(team1=5, team2=5)
        for cls, n, team in extra:
            b.add(cls, n, s, team=team)
        return s
    return _case(fn)


def _squad_vehicles(n):
    def fn(b):
        s = b.squad()
        for _ in range(n):
            b.vehicle("car", s, armour=1, crew=True)
        return s
    return _case(fn)


CASES += [
    ("V-PLT-2", _company(platoons=1)),
    ("V-RANK-8", _company(platoons=4)),
    ("V-RANK-8", _company(groups=3)),
    ("V-RANK-8", _company(groups=1, hq=1)),
    ("V-PLT-3", _company(captains=2)),
    ("V-PLT-3", _company(captains=0)),
    ("V-PLT-1", _platoon(squads=1)),
    ("V-RANK-7", _platoon(squads=4)),
    ("V-PLT-1", _platoon(groups=2)),
    ("V-RANK-7", _platoon(lieutenants=0)),
    ("V-SQUAD-11", _squad(team1=8, team2=8)),
    ("V-SQUAD-1", _squad(team1=4, team2=5)),
    ("V-SQUAD-7", _squad(specials1={"sniper": 2})),
    ("V-SQUAD-10", _squad_with(("sergeant", 1, 2), ("corporal", 1, 1))),
    ("V-SQUAD-3", _squad_with(("rifleman", 1, 3))),
    ("V-SQUAD-2", _squad_with(("sergeant", 1, 2))),
    ("V-SQUAD-5", _squad_vehicles(2)),
]


@pytest.mark.parametrize(("includes_corporal", "others", "over"), [
    (True, 6, False), (True, 7, True), (False, 7, False), (False, 8, True),
])
def test_v_tg_5_at_most_7_men_with_or_without_the_corporal_by_the_reading(includes_corporal, others, over):
    """V-TG-5 reading (tg_max_includes_corporal): the 7 men include the corporal, or not."""
    b = Build()
    g = b.unit("tactical_group", group_kind="recon")
    b.add("corporal", 1, g)
    b.add("scout", 2, g)
    b.add("rifleman", others - 2, g)
    assert ("V-TG-5" in ids(b.report(tg_max_includes_corporal=includes_corporal))) is over


CASES += [("V-TG-5", _case_group(kind="recon", of_kind=7))]


def test_f_spec_1_a_platoon_without_a_type_and_the_platoons_after_a_wrong_unit_are_still_checked():
    spec = domain.RosterSpec(units=(domain.UnitSpec("s", "squad", "Отделение"),
                                    domain.UnitSpec("1", "fow_platoon", "Взвод 1", None, fow_kind=""),
                                    domain.UnitSpec("2", "fow_platoon", "Взвод 2", None, fow_kind="infantry")),
                             teams=(domain.FowTeamSpec("rifle", "1", 1),), ruleset="fow", in_campaign=True)
    report = domain.validate(spec, domain.Rules(classes={}, armour_cost={}, gun_cost={}, fow_team_types=FOW_TYPES,
                                                fow_points_limit=100))
    by_unit = {v.unit: v for v in _lines(report, "F-SPEC-1")}
    assert set(by_unit) == {"s", "1", "2"}  # the squad; the platoon without a type; the platoon without teams
    assert by_unit["1"].unit_name == "Взвод 1" and by_unit["1"].message_ru and by_unit["1"].message_en
    assert by_unit["1"].message_en != by_unit["2"].message_en


def test_a_fow_report_prices_no_vehicles_and_offers_no_smoke():
    report = _fow(("1", "infantry", None, [("rifle", 2)]))
    assert report.vehicle_costs == {} and report.smoke == {} and report.senior_rank is None


# --- second pass (a sampled run): a line names its subject and says its rule in both languages ---------------
CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def _says_it_in_both_languages(line: domain.Violation) -> None:
    assert CYRILLIC & set(line.message_ru.lower()), line
    assert not CYRILLIC & set(line.message_en.lower()) and line.message_en, line


def _squad_vehicle_with_bought_crew():
    b = Build()
    s = b.squad()
    b.vehicle("car", s, armour=1, crew=True)
    return b, s, s


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
        _says_it_in_both_languages(line)


def test_v_squad_6_a_squad_vehicle_with_a_bought_crew_is_named_at_the_squad_in_both_languages():
    """V-SQUAD-6: the squad's corporal and riflemen crew its vehicle; a crew bought for it is refused."""
    b, s, _ = _squad_vehicle_with_bought_crew()
    lines = [v for v in b.report().violations if v.rule_id == "V-SQUAD-6"]
    assert [v.unit for v in lines] == [s]
    _says_it_in_both_languages(lines[0])


def test_v_upg_1_two_upgrade_cards_both_add_their_cost():
    """V-UPG-1: each upgrade card is bought at its cost; with a limit of 2 (V-UPG-4 reading) both count."""
    b = Build()
    s = b.squad(upgrades=["u3", "u4"])
    report = b.report(upgrades_per_unit=2)
    assert "V-UPG-4" not in ids(report)
    assert report.unit_costs[s] == 10 + 3 + 4


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


def test_v_tg_6_an_expensive_group_is_a_warning_at_the_group():
    """V-TG-6: the standard cost of a tactical group is advisory inside a larger force."""
    b = Build()
    g = b.group("recon", of_kind=2, others=1)
    lines = [v for v in b.report(tactical_group_budget=1).violations if v.rule_id == "V-TG-6"]
    assert [(v.unit, v.severity) for v in lines] == [(g, "warning")]


@pytest.mark.parametrize(("crew", "warned", "cannot_move"), [
    ((), True, True),  # no crew: it can neither fire nor move
    (("personnel",), True, False),  # one man: may move, not fire (V-CREW-4)
    (("corporal",), True, False),  # one officer alone: still not 2
    (("personnel", "personnel"), True, False),  # two, no officer
    (("personnel", "corporal"), False, False),
])
def test_v_crew_3_a_vehicle_without_two_crew_and_an_officer_is_warned_and_told_what_it_cannot_do(
        crew, warned, cannot_move):
    """V-CREW-3 (optional crew: a warning), V-CREW-4/5: fewer than 2 or no officer: no fire; nobody: no move."""
    b = Build()
    v = b.vehicle("tank", armour=2, gun=2)
    for cls in crew:
        b.add(cls, 1, vehicle=v)
    lines = [x for x in b.report().violations if x.rule_id == "V-CREW-3"]
    assert bool(lines) is warned
    if lines:
        (line,) = lines
        assert line.severity == "warning" and line.unit == f"vehicle:{v}"
        assert line.message_en.endswith(" or move.") is cannot_move
        assert line.message_ru.endswith(" и двигаться.") is cannot_move


# --- third pass (a fresh sample, seed 2, docs/mutants.md) -------------------------------------------------
def _squad_without_corporal():
    def fn(b):
        s = b.unit("squad")
        b.add("sergeant", 1, s, team=1)
        b.add("rifleman", 4, s, team=1)
        b.add("rifleman", 5, s, team=2)
        return s
    return _case(fn)


CASES += [
    ("V-SQUAD-1", _squad_without_corporal()),  # V-SQUAD-1: a sergeant AND a corporal
    ("V-UPG-1", _case(lambda b: b.squad(upgrades=("no-such-card",)))),  # V-UPG-1: only the catalog's cards
]


@pytest.mark.parametrize(("gun", "refused"), [(None, False), (1, False), (2, True)])
def test_v_squad_5_a_squad_gun_of_class_1_and_one_without_a_class_counts_as_class_1(gun, refused):
    """V-SQUAD-5 reading: a squad's gun is of class 1 at most; a gun whose class is not given counts as 1."""
    b = Build()
    s = b.squad()
    b.vehicle("artillery", s, armour=None, gun=gun)
    assert ("V-SQUAD-5" in ids(b.report())) is refused
