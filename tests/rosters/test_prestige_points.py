"""Prestige points (V-PP) and what a roster may buy (V-TURN-1): the senior officer's budget, the
attacker's bonus, and the units the game knows. rosters.domain, no database."""
from __future__ import annotations

import pytest

from rosters import domain

from .builders import Build, ids, lines_of, rules


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


def test_v_turn_1_an_unknown_unit_type_is_reported_at_that_unit_in_both_languages():
    """V-TURN-1: troops are bought as the known units; a unit of an unknown type is named, with its type."""
    spec = domain.RosterSpec(
        units=(domain.UnitSpec("P1", "platoon", "1-й взвод"), domain.UnitSpec("B1", "brigade", "Бригада")),
        fighters=(domain.FighterSpec("lieutenant", 1, "P1"),),
    )
    [line] = lines_of(domain.validate(spec, rules()), "V-TURN-1")
    assert (line.unit, line.unit_name, line.severity) == ("B1", "Бригада", "error")
    assert line.message_ru == "Неизвестный вид подразделения: brigade."
    assert line.message_en == "Unknown unit type: brigade."


@pytest.mark.django_db
def test_v_pp_3_the_clubs_game_data_gives_a_lieutenant_45_pp_stored_or_not():
    """V-PP-3 with the game data a new club starts with (the stored row), and with none stored (the rules
    fall back on the model's defaults, ``selectors._rules_load``)."""
    from rosters import selectors
    from rosters.models import RosterRules

    assert selectors.game_rules_current().budget_for("lieutenant") == 45
    RosterRules.objects.all().delete()
    assert selectors.game_rules_current().budget_for("lieutenant") == 45
