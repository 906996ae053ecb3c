"""G-19 (composition of reinforcement groups and HQ squads) is roster rules
game data: the defaults follow the catalog's placeholder, the alternatives
take effect. No database."""
from .builders import Build, ids


def _company_with_hq(team1: int):
    b = Build()
    c = b.company()
    b.squad(c, kind="hq_squad", team1=team1)
    return b


def test_g_19_by_default_an_hq_squad_follows_the_squad_rules_v_squad_1():
    assert _company_with_hq(5).report(budget_captain=200).ok
    assert "V-SQUAD-1" in ids(_company_with_hq(3).report(budget_captain=200))


def test_g_19_an_hq_squad_left_unchecked_when_the_game_master_says_so():
    report = _company_with_hq(3).report(budget_captain=200, hq_squad_rules="free")
    assert "V-SQUAD-1" not in ids(report)


def _company_with_group(parent_is_company: bool = True):
    b = Build()
    c = b.company()
    b.group("recon", c if parent_is_company else b.units[1].ref)
    return b


def test_g_19_by_default_a_reinforcement_group_is_a_tactical_group_v_tg():
    report = _company_with_group().report(budget_captain=200)
    assert report.ok, report.violations


def test_g_19_a_reinforcement_group_checked_by_the_squad_rules_when_set():
    report = _company_with_group().report(budget_captain=200, reinforcement_group_rules="squad")
    assert "V-SQUAD-1" in ids(report)  # a recon group has no sergeant nor two fire teams


def test_g_19_a_platoons_tactical_group_stays_a_tactical_group():
    b = _company_with_group(parent_is_company=False)
    assert b.units[1].kind == "platoon"
    assert "V-SQUAD-1" not in ids(b.report(budget_captain=200, reinforcement_group_rules="squad"))
