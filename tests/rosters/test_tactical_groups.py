"""Separate tactical groups (V-TG): a type, two of its class, one corporal, seven men at most, and a
standard cost of 8 PP that is advisory inside a larger force. rosters.domain, no database."""
from __future__ import annotations

import pytest

from .builders import Build, assert_reported_on, ids, lines_of


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


def test_v_tg_6_an_expensive_group_is_a_warning_at_the_group():
    """V-TG-6: the standard cost of a tactical group is advisory inside a larger force."""
    b = Build()
    g = b.group("recon", of_kind=2, others=1)
    lines = [v for v in b.report(tactical_group_budget=1).violations if v.rule_id == "V-TG-6"]
    assert [(v.unit, v.severity) for v in lines] == [(g, "warning")]


def test_v_tg_6_a_group_s_two_vehicles_both_count_towards_its_standard_cost():
    """V-TG-6: the group's cost, vehicles included, against the standard 8 PP (advisory)."""
    b = Build()
    g = b.group("recon")  # corporal + 2 scouts + 1 rifleman = 4 PP
    b.vehicle("car", g, armour=3)
    b.vehicle("car", g, armour=2)
    report = b.report()
    assert report.unit_costs[g] == 4 + 3 + 2
    [line] = lines_of(report, "V-TG-6")
    assert line.unit == g and line.severity == "warning"
    assert "9" in line.message_en and "9" in line.message_ru


# --- each broken rule is reported on the group that breaks it, by name ------------------------------------
def _group(kind="", of_kind=2, corporals=1, sergeants=0):
    def build(b):
        g = b.unit("tactical_group", group_kind=kind)
        if corporals:
            b.add("corporal", corporals, g)
        if sergeants:
            b.add("sergeant", sergeants, g)
        if of_kind:
            b.add("scout", of_kind, g)
        return g
    return build


@pytest.mark.parametrize(("rule_id", "build"), [
    ("V-TG-1", _group(kind="")),
    ("V-TG-2", _group(kind="recon", of_kind=1)),
    ("V-TG-4", _group(kind="recon", corporals=2)),
    ("V-TG-4", _group(kind="recon", corporals=0)),
    ("V-TG-4", _group(kind="recon", sergeants=1)),
    ("V-TG-5", _group(kind="recon", of_kind=7)),
])
def test_v_tg_a_broken_rule_is_reported_on_that_group_by_name(rule_id, build):
    b = Build()
    ref = build(b)
    assert_reported_on(b.report(), rule_id, ref)
