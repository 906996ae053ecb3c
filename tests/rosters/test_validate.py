"""roster_validate's rules engine (rosters.domain): every `roster` rule of the
v11.2 catalog, both sides of each limit. No database."""
from __future__ import annotations

import pytest

from rosters import domain

from .builders import Build, ids


# --- budgets: V-PP, V-TURN-1 ------------------------------------------------------
def test_v_pp_1_corporal_group_fits_8_pp_and_fails_at_9():
    """V-PP-1 and V-TG-3: the example recon group (2 scouts, radio, corporal) on 8 PP."""
    for upgrade, over in (("u4", False), ("u5", True)):
        b = Build()
        g = b.unit("tactical_group", group_kind="recon", upgrades=[upgrade])
        b.add("corporal", 1, g)
        b.add("scout", 2, g)
        b.add("radio_operator", 1, g)
        report = b.report()
        assert report.budget == 8 and report.senior_rank == "corporal"
        assert report.total == 4 + int(upgrade[1:])
        assert ("V-PP-1" in ids(report)) is over
        assert report.ok is (not over)


def test_v_pp_2_sergeant_squad_budget_16():
    """V-PP-2: a sergeant's squad costs up to 16 PP."""
    for upgrade, over in (("u4", False), ("u5", True)):
        b = Build()
        b.squad(team1=6, team2=6, upgrades=[upgrade])
        report = b.report()
        assert report.budget == 16
        assert report.total == 12 + int(upgrade[1:])
        assert ("V-PP-2" in ids(report)) is over


def test_v_pp_3_lieutenant_platoon_budget_45():
    """V-PP-3: 2 (lieutenant) + 3 squads of 14 + an upgrade of 1 = 45; of 2 = 46."""
    for upgrade, over in (("u1", False), ("u2", True)):
        b = Build()
        p = b.unit("platoon")
        b.add("lieutenant", 1, p)
        b.squad(p, 7, 7, upgrades=[upgrade])
        b.squad(p, 7, 7)
        b.squad(p, 7, 7)
        report = b.report()
        assert report.budget == 45
        assert report.total == 44 + int(upgrade[1:])
        assert ("V-PP-3" in ids(report)) is over
        assert report.ok is (not over)


def _company_at(total_extra_gun: int) -> Build:
    """47 PP of company + two 6/6 tanks (24) + a 4/gun tank: 79 + gun class - 4."""
    b = Build()
    c = b.company()
    b.vehicle("tank", c, armour=6, gun=6, crew=True)
    b.vehicle("tank", c, armour=6, gun=6, crew=True)
    b.vehicle("tank", c, armour=4, gun=total_extra_gun, crew=True)
    return b


def test_v_pp_4_captain_company_budget_80():
    """V-PP-4: a captain's company on 80 PP; 81 is over."""
    ok = _company_at(5).report()
    assert (ok.total, ok.budget) == (80, 80) and ok.ok, ok.violations
    over = _company_at(6).report()
    assert over.total == 81 and "V-PP-4" in ids(over)


def test_v_pp_5_subordinate_officers_budgets_do_not_add():
    """V-PP-5: the captain's 80 only, though the company holds two lieutenants and four sergeants."""
    report = _company_at(6).report()
    assert report.budget == 80
    assert "V-PP-4" in ids(report)


def test_v_pp_5_force_without_an_officer_has_no_budget():
    b = Build()
    b.add("lieutenant", 1)
    assert b.report().ok
    b = Build()
    g = b.unit("tactical_group", group_kind="recon")
    b.add("scout", 2, g)
    report = b.report()
    assert report.budget == 0 and "V-PP-5" in ids(report)


def test_v_pp_6_attacker_in_campaign_gets_40_more():
    """V-PP-6: +40 PP for the attacking side in a campaign, never outside one or for the defender."""
    for side, in_campaign, budget in (("attacker", True, 120), ("defender", True, 80), ("attacker", False, 80)):
        b = _company_at(6)
        b.side, b.in_campaign = side, in_campaign
        report = b.report()
        assert report.budget == budget
        assert ("V-PP-4" in ids(report)) is (budget == 80)


def test_v_turn_1_over_budget_is_an_error_and_budget_is_game_data():
    """V-TURN-1: bought within the budget; the master may change the budget."""
    assert not _company_at(6).report().ok
    assert _company_at(6).report(budget_captain=81).ok


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


# --- infantry squad: V-SQUAD, V-RANK-5/6, V-OFF-7 ----------------------------------
@pytest.mark.parametrize("team1,team2,ok", [(5, 5, True), (7, 7, True), (4, 5, False), (5, 8, False)])
def test_v_squad_1_and_v_rank_5_two_fire_teams_of_5_to_7(team1, team2, ok):
    """V-SQUAD-1, V-RANK-5: a corporal's fire team is 5–7 men."""
    b = Build()
    b.squad(team1=team1, team2=team2)
    report = b.report()
    assert ("V-SQUAD-1" in ids(report)) is (not ok)


def test_v_squad_1_needs_a_sergeant_and_a_corporal():
    b = Build()
    s = b.unit("squad")
    b.add("sergeant", 1, s, team=1)
    b.add("rifleman", 4, s, team=1)
    b.add("rifleman", 5, s, team=2)
    assert "V-SQUAD-1" in ids(b.report())


def test_v_squad_2_corporal_leads_the_other_team_under_one_sergeant():
    """V-SQUAD-2: the corporal is subordinate to the squad's single sergeant."""
    b = Build()
    b.squad()
    assert "V-SQUAD-2" not in ids(b.report())
    b = Build()
    s = b.unit("squad")
    b.add("sergeant", 1, s, team=1)
    b.add("corporal", 1, s, team=1)
    b.add("rifleman", 3, s, team=1)
    b.add("rifleman", 5, s, team=2)
    assert "V-SQUAD-2" in ids(b.report())
    b = Build()
    s = b.squad(specials1={"sergeant": 1})
    assert "V-SQUAD-2" in ids(b.report())


def test_v_squad_3_no_more_than_two_groups():
    b = Build()
    s = b.squad()
    assert "V-SQUAD-3" not in ids(b.report())
    b.add("rifleman", 1, s, team=3)
    assert "V-SQUAD-3" in ids(b.report())


def test_v_squad_3_a_group_numbered_3_is_a_third_group_whatever_the_others_hold():
    """V-SQUAD-3: a squad's groups are its two fire teams, 1 and 2 (V-SQUAD-1); a man put in group 3 divides it
    into a third, even when group 2 is left empty."""
    b = Build()
    s = b.unit("squad")
    b.add("sergeant", 1, s, team=1)
    b.add("rifleman", 4, s, team=1)
    b.add("corporal", 1, s, team=3)
    b.add("rifleman", 4, s, team=3)
    assert "V-SQUAD-3" in ids(b.report())


LIMITS = [
    ("sniper", "V-SQUAD-7", 1), ("light_mg", "V-SQUAD-8", 2), ("heavy_mg", "V-SQUAD-8", 2),
    ("scout", "V-SQUAD-9", 2), ("sapper", "V-SQUAD-12", 2), ("medic", "V-SQUAD-13", 2),
    ("at_grenadier", "V-SQUAD-14", 2), ("flamethrower", "V-SQUAD-15", 1), ("radio_operator", "V-SQUAD-16", 1),
]


@pytest.mark.parametrize("cls,rule,limit", LIMITS)
def test_v_squad_7_to_16_per_squad_maxima(cls, rule, limit):
    """V-SQUAD-7 (snipers), -8 (MGs), -9 (scouts), -12 (sappers), -13 (medics),
    -14 (grenade launchers, AT rifles included), -15 (flamethrowers), -16 (radio)."""
    b = Build()
    b.squad(specials1={cls: limit})
    at_limit = b.report()
    assert at_limit.ok, at_limit.violations
    b = Build()
    b.squad(specials1={cls: limit + 1})
    assert rule in ids(b.report())


def test_v_squad_8_light_and_heavy_mg_count_together():
    b = Build()
    b.squad(specials1={"light_mg": 1, "heavy_mg": 2})
    assert "V-SQUAD-8" in ids(b.report())


def test_v_squad_10_at_most_two_officers():
    b = Build()
    b.squad()
    assert "V-SQUAD-10" not in ids(b.report())
    b = Build()
    s = b.squad()
    b.add("corporal", 1, s, team=2)
    assert "V-SQUAD-10" in ids(b.report())


def test_v_squad_11_and_v_rank_6_at_most_14_men():
    """V-SQUAD-11, V-RANK-6: a sergeant commands up to 14 men."""
    b = Build()
    b.squad(team1=7, team2=7)
    assert b.report().ok
    b = Build()
    s = b.squad(team1=7, team2=7)
    b.add("rifleman", 1, s, team=2)
    assert "V-SQUAD-11" in ids(b.report())


def test_v_off_7_lieutenant_joins_a_full_squad_and_adds_his_cost():
    """V-OFF-7: a lieutenant or captain breaks neither V-SQUAD-10 nor V-SQUAD-11; his cost goes to the unit."""
    b = Build()
    s = b.squad(team1=7, team2=7)
    b.add("lieutenant", 1, s, team=1)
    b.add("captain", 1, s, team=2)
    report = b.report()
    assert not {"V-SQUAD-10", "V-SQUAD-11", "V-SQUAD-1"} & ids(report)
    assert report.unit_costs[s] == 14 + 2 + 3


def test_v_squad_5_one_class_1_vehicle_or_gun():
    b = Build()
    s = b.squad()
    b.vehicle("car", s, armour=1)
    assert "V-SQUAD-5" not in ids(b.report())
    b.vehicle("artillery", s, armour=1, gun=1)
    assert "V-SQUAD-5" in ids(b.report())
    for kind, armour, gun, ok in (("tank", 1, 1, True), ("tank", 2, None, False), ("artillery", 1, 1, True),
                                  ("artillery", 1, 2, False)):
        b = Build()
        s = b.squad()
        b.vehicle(kind, s, armour=armour, gun=gun)
        assert ("V-SQUAD-5" in ids(b.report())) is (not ok), (kind, armour, gun)


def test_v_squad_6_squad_riflemen_crew_its_vehicle():
    """V-SQUAD-6: no crew is bought for a squad's vehicle, and it needs none (no V-CREW-3 warning)."""
    b = Build()
    s = b.squad()
    b.vehicle("tank", s, armour=1, gun=1)
    report = b.report()
    assert report.ok and "V-CREW-3" not in ids(report, "warning")
    b = Build()
    s = b.squad()
    b.vehicle("tank", s, armour=1, gun=1, crew=True)
    assert "V-SQUAD-6" in ids(b.report())


# --- platoon and company: V-PLT, V-RANK-7/8 -----------------------------------------
@pytest.mark.parametrize("squads,rule", [(1, "V-PLT-1"), (2, None), (3, None), (4, "V-RANK-7")])
def test_v_plt_1_and_v_rank_7_platoon_of_two_or_three_squads(squads, rule):
    b = Build()
    b.platoon(squads=squads)
    report = b.report(budget_lieutenant=100)
    assert report.ok is (rule is None)
    if rule:
        assert rule in ids(report)


def test_v_rank_7_platoon_squad_limit_is_game_data():
    b = Build()
    b.platoon(squads=4)
    assert b.report(budget_lieutenant=100, platoon_max_squads=4).ok


def test_v_plt_1_at_most_one_tactical_group_in_a_platoon():
    b = Build()
    p = b.platoon()
    b.group("sniper", p)
    assert b.report().ok
    b.group("mg", p)
    assert "V-PLT-1" in ids(b.report())


def test_v_plt_1_an_hq_squad_does_not_make_up_the_platoons_second_squad():
    """V-PLT-1: a platoon is 2 squads (reading 2-3); an HQ squad beside one squad is not the second."""
    b = Build()
    p = b.platoon(squads=1)
    b.squad(p, kind="hq_squad")
    assert "V-PLT-1" in ids(b.report(budget_lieutenant=100))


def test_v_rank_7_platoon_commanded_by_one_lieutenant():
    b = Build()
    p = b.unit("platoon")
    b.squad(p)
    b.squad(p)
    b.add("captain", 1)
    assert "V-RANK-7" in ids(b.report())


@pytest.mark.parametrize("officers", [(("lieutenant", 2),), (("captain", 1),)])
def test_v_rank_7_exactly_one_lieutenant_and_a_captain_in_the_platoon_is_not_it(officers):
    """V-RANK-7: a lieutenant commands the platoon: two lieutenants are one too many, and a captain attached
    to the platoon does not stand in for its lieutenant."""
    b = Build()
    p = b.unit("platoon")
    b.squad(p)
    b.squad(p)
    for rank, n in officers:
        b.add(rank, n, p)
    assert "V-RANK-7" in ids(b.report(budget_lieutenant=200, budget_captain=200))


@pytest.mark.parametrize("platoons,rule", [(1, "V-PLT-2"), (2, None), (3, None), (4, "V-RANK-8")])
def test_v_plt_2_and_v_rank_8_company_of_two_or_three_platoons(platoons, rule):
    b = Build()
    b.company(platoons)
    report = b.report(budget_captain=200)
    assert report.ok is (rule is None), report.violations
    if rule:
        assert rule in ids(report)


def test_v_rank_8_two_reinforcement_groups_or_one_hq_squad():
    """V-RANK-8 reading: up to 2 groups (G-19: separate tactical groups), or 1 HQ squad in their place."""
    def company(groups: int, hq: int):
        b = Build()
        c = b.company()
        for _ in range(groups):
            b.group("recon", c)
        for _ in range(hq):
            b.squad(c, kind="hq_squad")
        return b.report(budget_captain=200)

    assert company(2, 0).ok
    assert company(0, 1).ok
    for groups, hq in ((3, 0), (0, 2), (1, 1)):
        assert "V-RANK-8" in ids(company(groups, hq)), (groups, hq)


def test_v_plt_3_standard_company_1_captain_2_lieutenants_4_sergeants_4_corporals():
    b = Build()
    b.company()
    report = b.report()
    assert report.ok
    ranks = [f.cls for f in b.fighters if f.cls in ("captain", "lieutenant", "sergeant", "corporal")]
    assert [ranks.count(r) for r in ("captain", "lieutenant", "sergeant", "corporal")] == [1, 2, 4, 4]
    b = Build()
    c = b.company()
    b.add("captain", 1, c)
    assert "V-PLT-3" in ids(b.report(budget_captain=200))


# --- separate tactical groups: V-TG ----------------------------------------------------
@pytest.mark.parametrize("kind", ["at", "recon", "medical", "sniper", "mg", "flame"])
def test_v_tg_1_each_group_type_with_two_of_its_class(kind):
    """V-TG-1, V-TG-2."""
    b = Build()
    b.group(kind)
    assert b.report().ok
    b = Build()
    b.group(kind, of_kind=1, others=2)
    assert "V-TG-2" in ids(b.report())


def test_v_tg_1_group_needs_a_type():
    b = Build()
    g = b.unit("tactical_group")
    b.add("corporal", 1, g)
    b.add("scout", 2, g)
    assert "V-TG-1" in ids(b.report())


def test_v_tg_3_example_recon_group_is_valid():
    b = Build()
    g = b.unit("tactical_group", group_kind="recon")
    b.add("scout", 2, g)
    b.add("radio_operator", 1, g)
    b.add("corporal", 1, g)
    assert b.report().violations == []


def test_v_tg_4_commanded_by_one_corporal():
    for extra, ok in ((None, True), ("corporal", False), ("sergeant", False)):
        b = Build()
        g = b.group("recon")
        if extra:
            b.add(extra, 1, g)
        assert ("V-TG-4" in ids(b.report(budget_corporal=20, budget_sergeant=20))) is (not ok)
    b = Build()
    g = b.unit("tactical_group", group_kind="recon")
    b.add("scout", 2, g)
    b.add("lieutenant", 1)
    assert "V-TG-4" in ids(b.report())


def test_v_tg_5_at_most_7_men_including_the_corporal():
    """V-TG-5, V-RANK-5: up to 7 men; an attached lieutenant does not count (V-OFF-7)."""
    b = Build()
    g = b.group("recon", others=4)
    b.add("lieutenant", 1, g)
    assert "V-TG-5" not in ids(b.report())
    b = Build()
    b.group("recon", others=5)
    assert "V-TG-5" in ids(b.report(budget_corporal=20))


def test_v_tg_6_standard_group_cost_8_is_advisory_inside_a_larger_force():
    b = Build()
    p = b.platoon()
    b.group("recon", p, others=3, upgrades=["u2"])  # 1 + 2 + 3 + 2 = 8
    assert "V-TG-6" not in ids(b.report(), "warning")
    b = Build()
    p = b.platoon()
    b.group("recon", p, others=3, upgrades=["u3"])  # 9
    report = b.report()
    assert "V-TG-6" in ids(report, "warning") and report.ok


# --- motorised units: V-MOTOR ---------------------------------------------------------
def _motorised(vehicles: int, kinds=("tank",), extra_officers: tuple[str, ...] = ()) -> Build:
    b = Build()
    m = b.unit("motorised")
    for i in range(vehicles):
        b.vehicle(kinds[i % len(kinds)], m, armour=2, gun=2, crew=True)
    for rank in extra_officers:
        b.add(rank, 1, m)
    b.add("lieutenant", 1)
    return b


def test_v_motor_1_needs_armoured_vehicles():
    b = Build()
    m = b.unit("motorised")
    b.vehicle("car", m, crew=True)
    b.add("lieutenant", 1)
    assert "V-MOTOR-1" in ids(b.report())
    assert _motorised(1).report().ok


def test_v_motor_1_reading_the_crews_are_its_infantry_and_more_infantry_may_join():
    """V-MOTOR-1 (reading): armour with its crews (V-MOTOR-6) is a motorised unit, as the seed's "tank squad";
    riflemen beside them are allowed, not required."""
    b = _motorised(1)
    assert b.report().ok
    b.add("rifleman", 4, b.units[0].ref)
    assert b.report().ok
    b = Build()
    m = b.unit("motorised")
    b.add("rifleman", 4, m)
    b.add("lieutenant", 1)
    assert "V-MOTOR-1" in ids(b.report())  # infantry alone is not motorised


def test_v_motor_3_and_v_motor_5_any_armour_up_to_three_vehicles():
    """V-MOTOR-3 (reading): any armour type; V-MOTOR-5 binds: at most 3."""
    report = _motorised(3, ("tank", "tank", "tank"), ()).report()
    assert report.ok, report.violations
    assert "V-MOTOR-5" in ids(_motorised(4).report())


def test_v_motor_4_tanks_with_apcs_is_a_warning_only():
    report = _motorised(2, ("tank", "apc")).report()
    assert "V-MOTOR-4" in ids(report, "warning") and report.ok
    assert "V-MOTOR-4" not in ids(_motorised(2, ("apc",)).report(), "warning")


def test_v_motor_6_crew_of_two_personnel_and_a_corporal_and_v_crew_2_free():
    """V-MOTOR-6; V-CREW-2: the crew costs nothing."""
    b = _motorised(1)
    report = b.report()
    assert report.ok and report.total == 2 + 2 + 2  # armour 2 + gun 2 + lieutenant; crew free
    b = Build()
    m = b.unit("motorised")
    v = b.vehicle("tank", m, armour=2)
    b.add("personnel", 1, m, vehicle=v)
    b.add("corporal", 1, m, vehicle=v)
    b.add("lieutenant", 1)
    assert "V-MOTOR-6" in ids(b.report())


def test_v_motor_7_at_most_a_sergeant_and_two_corporals():
    """V-MOTOR-7 reading: with 3 vehicles the sergeant commands one of them."""
    b = Build()
    m = b.unit("motorised")
    for rank in ("sergeant", "corporal", "corporal"):
        v = b.vehicle("tank", m, armour=2)
        b.add("personnel", 2, m, vehicle=v)
        b.add(rank, 1, m, vehicle=v)
    b.add("lieutenant", 1)
    assert b.report().ok
    assert "V-MOTOR-7" in ids(_motorised(3, extra_officers=("corporal",)).report())
    assert "V-MOTOR-7" in ids(_motorised(1, extra_officers=("sergeant", "sergeant")).report())


# --- vehicles, crews and options: V-VEH, V-VDMG, V-CREW, V-PERS, V-AA-7, V-BUNK-7 ---------
def test_v_veh_3_vehicle_costs_armour_plus_gun_from_game_data():
    """V-VEH-3 and V-VEH-2: two characteristics, summed; a tank may have no gun."""
    b = Build()
    v = b.vehicle("tank", armour=3, gun=4, crew=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[v] == 7
    assert domain.validate(b.spec(), _rules_with_armour_cost(3, 10)).vehicle_costs[v] == 14
    b = Build()
    v = b.vehicle("tank", armour=3)
    assert b.report().vehicle_costs[v] == 3


def _rules_with_armour_cost(number: int, cost: int) -> domain.Rules:
    from .builders import rules

    r = rules()
    return domain.Rules(**{**r.__dict__, "armour_cost": {**r.armour_cost, number: cost}})


def test_v_veh_1_unknown_vehicle_type_is_refused():
    for kind, ok in (("car", True), ("tank", True), ("apc", True), ("artillery", True), ("submarine", False)):
        b = Build()
        b.vehicle(kind, armour=1, gun=1)
        b.add("lieutenant", 1)
        assert ("V-VEH-1" in ids(b.report())) is (not ok)


def test_v_veh_2_gun_class_must_exist_and_artillery_needs_one():
    for kind, gun, ok in (("tank", 6, True), ("tank", 7, False), ("artillery", None, False), ("car", None, True)):
        b = Build()
        b.vehicle(kind, armour=1, gun=gun)
        b.add("lieutenant", 1)
        assert ("V-VEH-2" in ids(b.report())) is (not ok)


def test_v_vdmg_1_every_vehicle_has_an_armour_class_from_the_table():
    for armour, ok in ((6, True), (7, False), (None, False)):
        b = Build()
        b.vehicle("tank", armour=armour)
        b.add("lieutenant", 1)
        assert ("V-VDMG-1" in ids(b.report())) is (not ok)


def test_v_vdmg_9_side_skirts_add_3_pp_on_armour_only():
    b = Build()
    v = b.vehicle("tank", armour=2, skirts=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[v] == 5 and "V-VDMG-9" not in ids(report)
    b = Build()
    b.vehicle("car", armour=1, skirts=True)
    b.add("lieutenant", 1)
    assert "V-VDMG-9" in ids(b.report())


def test_v_veh_4_suggested_armour_and_gun_class_from_millimetres():
    """V-VEH-4 (G-6 placeholder mapping)."""
    armour = {1: 0, 2: 15, 3: 30, 4: 50, 5: 80, 6: 120}
    assert [domain.class_for_value(mm, armour, upper=False) for mm in (14, 15, 29, 30, 119, 120)] == [1, 2, 2, 3, 5, 6]
    calibre = {1: 20, 2: 45, 3: 57, 4: 76, 5: 88, 6: None}
    assert [domain.class_for_value(mm, calibre, upper=True) for mm in (20, 21, 76, 77, 88, 152)] == [1, 2, 4, 5, 5, 6]


def test_v_veh_6_and_v_veh_7_specialisations_are_bought():
    b = Build()
    v = b.vehicle("tank", armour=2, options=["spotter", "tractor", "mine_trawl"], crew=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[v] == 2 + 6 and report.ok
    for options in (["rocket"], ["spotter", "spotter"]):
        b = Build()
        b.vehicle("tank", armour=2, options=options)
        assert "V-VEH-7" in ids(b.report())


def test_v_bunk_7_a_pillbox_may_buy_spotter_only():
    b = Build()
    b.vehicle("pillbox", armour=3, options=["spotter"])
    assert "V-BUNK-7" not in ids(b.report())
    b = Build()
    b.vehicle("pillbox", armour=3, options=["tractor"])
    assert "V-BUNK-7" in ids(b.report())


@pytest.mark.django_db
def test_v_bunk_7_the_clubs_default_game_data_lets_a_pillbox_buy_spotter_only():
    """V-BUNK-7 with the game data a new club starts with (rosters.defaults): Spotter is open to a pillbox,
    a vehicle-only specialisation is not."""
    from rosters import selectors

    rules_ = selectors.game_rules_current()
    for option, ok in (("spotter", True), ("tractor", False)):
        spec = domain.RosterSpec(vehicles=(domain.VehicleSpec("p", "pillbox", armour_class=3, options=(option,)),))
        assert ("V-BUNK-7" not in ids(domain.validate(spec, rules_))) is ok


def test_v_veh_1_a_car_is_not_an_armoured_vehicle():
    """V-VEH-1: cars, armoured vehicles and artillery are three types: a car takes no side skirts (V-VDMG-9)
    and is no armour for a motorised unit (V-MOTOR-1)."""
    b = Build()
    b.vehicle("car", skirts=True)
    assert "V-VDMG-9" in ids(b.report())
    b = Build()
    m = b.unit("motorised")
    b.vehicle("car", unit=m)
    assert "V-MOTOR-1" in ids(b.report())


def test_v_veh_1_an_unknown_gun_type_is_refused():
    b = Build()
    b.vehicle("tank", armour=3, gun=3, gun_type="laser")
    assert "V-VEH-1" in ids(b.report())


@pytest.mark.django_db
def test_v_pp_3_the_clubs_game_data_gives_a_lieutenant_45_pp_stored_or_not():
    """V-PP-3 with the game data a new club starts with (the stored row), and with none stored (the rules
    fall back on the model's defaults, ``selectors._rules_load``)."""
    from rosters import selectors
    from rosters.models import RosterRules

    assert selectors.game_rules_current().budget_for("lieutenant") == 45
    RosterRules.objects.all().delete()
    assert selectors.game_rules_current().budget_for("lieutenant") == 45


def test_v_aa_7_at_fire_only_for_aa_guns_not_autocannons():
    for kind, gun_type, ok in (("artillery", "aa", True), ("artillery", "aa_autocannon", False),
                               ("tank", "", False)):
        b = Build()
        v = b.vehicle(kind, armour=1, gun=3, gun_type=gun_type, options=["aa_at_fire"])
        report = b.report()
        assert ("V-AA-7" in ids(report)) is (not ok)
        assert report.vehicle_costs[v] == 1 + 3 + 2


def test_v_crew_1_and_v_pers_1_crews_are_personnel_and_one_officer():
    """V-CREW-1, V-PERS-1: rank-and-file gun crews are personnel."""
    for cls, count, ok in (("personnel", 3, True), ("rifleman", 1, False), ("corporal", 1, False)):
        b = Build()
        v = b.vehicle("artillery", armour=1, gun=2, crew=True)
        b.add(cls, count, vehicle=v)
        b.add("lieutenant", 1)
        assert ("V-CREW-1" in ids(b.report())) is (not ok), cls


def test_v_crew_2_gun_crew_is_paid_vehicle_crew_is_free():
    b = Build()
    gun = b.vehicle("artillery", armour=1, gun=2, crew=True)
    tank = b.vehicle("tank", armour=1, gun=2, crew=True)
    b.add("lieutenant", 1)
    report = b.report()
    assert report.vehicle_costs[gun] == 3 + 3  # armour 1 + gun 2, crew of 2 personnel + corporal
    assert report.vehicle_costs[tank] == 3


def test_v_crew_3_crew_is_optional_but_warned():
    b = Build()
    b.vehicle("tank", armour=1)
    b.add("lieutenant", 1)
    report = b.report()
    assert "V-CREW-3" in ids(report, "warning") and report.ok
    b = Build()
    b.vehicle("tank", armour=1, crew=True)
    assert "V-CREW-3" not in ids(b.report(), "warning")


def test_v_smoke_1_who_gets_smoke():
    b = Build()
    p = b.platoon()
    g = b.group("recon", p)
    s = b.squad(p)
    guns = {
        b.vehicle("artillery", p, gun=3): True, b.vehicle("artillery", p, gun=2): False,
        b.vehicle("artillery", p, gun=4, gun_type="at"): False, b.vehicle("artillery", p, gun=1, gun_type="howitzer"): True,
        b.vehicle("artillery", p, gun=1, gun_type="mortar"): True, b.vehicle("tank", p, armour=3, gun=5): True,
    }
    smoke = b.report().smoke
    assert smoke[g] and smoke[s] and not smoke[p]
    for ref, has in guns.items():
        assert smoke[f"vehicle:{ref}"] is has


# --- officers and upgrades: V-OFF-8, V-UPG -------------------------------------------------
def test_v_off_8_only_lieutenants_and_captains_stand_outside_units():
    for cls, ok in (("lieutenant", True), ("captain", True), ("sergeant", False), ("rifleman", False)):
        b = Build()
        b.platoon()
        b.add(cls, 1)
        assert ("V-OFF-8" in ids(b.report(budget_lieutenant=100))) is (not ok)


def test_v_upg_1_upgrade_card_is_bought_at_its_cost():
    b = Build()
    s = b.squad(upgrades=["u3"])
    report = b.report()
    assert report.total == 13 and report.unit_costs[s] == 13
    b = Build()
    b.squad(upgrades=["nonexistent"])
    assert "V-UPG-1" in ids(b.report())


def test_v_upg_3_upgrades_only_for_squads_and_tactical_groups():
    b = Build()
    b.squad(upgrades=["u1"])
    b.group("recon", upgrades=["u1"])
    assert "V-UPG-3" not in ids(b.report())
    for kind in ("platoon", "company", "motorised"):
        b = Build()
        ref = b.unit(kind, upgrades=["u1"])
        assert [v.unit for v in b.report().violations if v.rule_id == "V-UPG-3"] == [ref]


def test_v_upg_4_one_upgrade_per_squad_or_group():
    b = Build()
    b.squad(upgrades=["u1"])
    assert "V-UPG-4" not in ids(b.report())
    b = Build()
    b.squad(upgrades=["u1", "u2"])
    b.group("mg", upgrades=["u1", "u2"])
    assert [v.rule_id for v in b.report().violations].count("V-UPG-4") == 2


def test_v_plt_3_units_stand_in_the_command_chain():
    """V-PLT-3 (reading): platoons in a company, squads in a platoon, an HQ squad in a company."""
    b = Build()
    b.company()
    assert "V-PLT-3" not in ids(b.report())
    for child, parent in (("squad", "squad"), ("platoon", "platoon"), ("hq_squad", "platoon"), ("company", "company")):
        b = Build()
        p = b.unit(parent)
        b.unit(child, p)
        assert "V-PLT-3" in ids(b.report()), (child, parent)


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
    b = _motorised(1, extra_officers=("sergeant",))
    b.add("sergeant", 1, b.units[0].ref)
    assert "V-MOTOR-7" in ids(b.report()) and "V-MOTOR-7" not in ids(b.report(motor_max_sergeants=2))


def test_v_smoke_1_an_aa_autocannon_gets_no_smoke_and_v_rocket_1_a_rocket_mortar_does():
    """V-AA-5: an AA autocannon is a heavy MG, not a gun of class 3+; V-ROCKET-1: a rocket mortar is a howitzer.
    The roster report reads the engine's weapon table (battles.engine.weapons)."""
    b = Build()
    p = b.platoon()
    autocannon = b.vehicle("artillery", p, gun=4, gun_type="aa_autocannon")
    aa_gun = b.vehicle("artillery", p, gun=4, gun_type="aa")
    rocket = b.vehicle("artillery", p, gun=1, gun_type="rocket_mortar")
    report = b.report()
    assert not report.smoke[f"vehicle:{autocannon}"] and report.smoke[f"vehicle:{aa_gun}"]
    assert report.smoke[f"vehicle:{rocket}"]
    assert "V-VEH-1" not in ids(report)  # a rocket mortar is a known gun type
