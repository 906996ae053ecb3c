"""Upgrade cards (V-UPG): bought at their cost from the catalog, only for squads and tactical groups,
one each by the default reading. rosters.domain, no database."""
from __future__ import annotations

from .builders import Build, assert_reported_on, ids


def test_v_upg_1_upgrade_card_is_bought_at_its_cost():
    b = Build()
    s = b.squad(upgrades=["u3"])
    report = b.report()
    assert report.total == 13 and report.unit_costs[s] == 13
    b = Build()
    b.squad(upgrades=["nonexistent"])
    assert "V-UPG-1" in ids(b.report())


def test_v_upg_1_two_upgrade_cards_both_add_their_cost():
    """V-UPG-1: each upgrade card is bought at its cost; with a limit of 2 (V-UPG-4 reading) both count."""
    b = Build()
    s = b.squad(upgrades=["u3", "u4"])
    report = b.report(upgrades_per_unit=2)
    assert "V-UPG-4" not in ids(report)
    assert report.unit_costs[s] == 10 + 3 + 4


def test_v_upg_1_an_unknown_card_is_reported_on_the_squad_by_name():
    """V-UPG-1: only the catalog's cards."""
    b = Build()
    s = b.squad(upgrades=("no-such-card",))
    assert_reported_on(b.report(), "V-UPG-1", s)


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
