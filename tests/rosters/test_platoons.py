"""Platoons and companies (V-PLT, V-RANK-7/8) and the chain of command (V-PLT-3, V-OFF-8): two or
three squads under a lieutenant, two or three platoons under a captain, officers outside units.
rosters.domain, no database."""
from __future__ import annotations

import pytest

from .builders import Build, assert_reported_on, ids


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


def test_v_plt_1_a_platoon_may_have_vehicles():
    """V-PLT-1: "optionally plus a separate tactical group and vehicles": a platoon with a tank is valid."""
    b = Build()
    p = b.platoon()
    b.vehicle("tank", p, armour=2, gun=2, crew=True)
    report = b.report()
    assert report.ok, report.violations


def test_v_rank_7_platoon_commanded_by_one_lieutenant():
    b = Build()
    p = b.unit("platoon")
    b.squad(p)
    b.squad(p)
    b.add("captain", 1)
    assert "V-RANK-7" in ids(b.report())


def test_v_rank_7_and_v_off_7_a_second_lieutenant_joins_a_platoon_without_breaking_it():
    """V-RANK-7 «Лейтенант командует взводом» names the platoon's commander and sets no cap on lieutenants;
    V-OFF-7 «Их можно вводить в состав любого подразделения»: a lieutenant may join any unit, a platoon
    included. So a platoon with its own lieutenant and an attached second one is valid, and the second's cost
    is the platoon's; a platoon with none is still refused (V-RANK-7)."""
    b = Build()
    p = b.platoon()
    alone = b.report(budget_lieutenant=100).unit_costs[p]
    b.add("lieutenant", 1, p)
    report = b.report(budget_lieutenant=100)
    assert report.ok and "V-RANK-7" not in ids(report), report.violations
    assert report.unit_costs[p] == alone + 2  # G-5: a lieutenant costs 2 PP
    b = Build()
    p = b.unit("platoon")
    b.squad(p)
    b.squad(p)
    b.add("lieutenant", 1)  # outside the platoon (V-OFF-8): the platoon still has no lieutenant
    assert [v.unit for v in b.report().violations if v.rule_id == "V-RANK-7"] == [p]


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


def test_v_off_8_only_lieutenants_and_captains_stand_outside_units():
    for cls, ok in (("lieutenant", True), ("captain", True), ("sergeant", False), ("rifleman", False)):
        b = Build()
        b.platoon()
        b.add(cls, 1)
        assert ("V-OFF-8" in ids(b.report(budget_lieutenant=100))) is (not ok)


# --- each broken rule is reported on the platoon or company that breaks it, by name ---------------------
def _company(platoons=2, groups=0, hq=0, captains=1):
    def build(b):
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
    return build


def _platoon(squads=2, groups=0, lieutenants=1):
    def build(b):
        p = b.unit("platoon")
        if lieutenants:
            b.add("lieutenant", lieutenants, p)
        for _ in range(squads):
            b.squad(p)
        for _ in range(groups):
            b.group("recon", parent=p)
        return p
    return build


@pytest.mark.parametrize(("rule_id", "build"), [
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
])
def test_v_plt_and_v_rank_a_broken_rule_is_reported_on_that_platoon_or_company_by_name(rule_id, build):
    b = Build()
    ref = build(b)
    assert_reported_on(b.report(), rule_id, ref)


def test_v_plt_1_an_hq_squad_does_not_make_up_the_platoons_second_squad():
    """V-PLT-1: a platoon is 2 squads (reading 2-3); an HQ squad beside one squad is not the second."""
    b = Build()
    p = b.platoon(squads=1)
    b.squad(p, kind="hq_squad")
    assert "V-PLT-1" in ids(b.report(budget_lieutenant=100))


def test_v_rank_7_a_captain_attached_to_the_platoon_does_not_stand_in_for_its_lieutenant():
    """V-RANK-7: a lieutenant commands the platoon; a captain attached to it (V-OFF-7) is not its
    lieutenant."""
    b = Build()
    p = b.unit("platoon")
    b.squad(p)
    b.squad(p)
    b.add("captain", 1, p)
    assert "V-RANK-7" in ids(b.report(budget_lieutenant=200, budget_captain=200))
