"""Infantry squads (V-SQUAD, V-RANK-5/6, V-OFF-7): two fire teams under a sergeant and a corporal,
the per-squad maxima of specialists, the squad's one light vehicle or gun. rosters.domain, no database."""
from __future__ import annotations

import pytest

from .builders import Build, assert_reported_on, assert_says_it_in_both_languages, ids, lines_of


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


def test_v_squad_1_a_squad_without_a_sergeant_is_refused():
    """V-SQUAD-1: commanded by a sergeant *and* a corporal; two corporals and no sergeant is not a squad."""
    b = Build()
    s = b.unit("squad")
    b.add("corporal", 1, s, team=1)
    b.add("rifleman", 4, s, team=1)
    b.add("corporal", 1, s, team=2)
    b.add("rifleman", 4, s, team=2)
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


# --- the squad's vehicle or gun: V-SQUAD-5, V-SQUAD-6 ---------------------------------------------------
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


@pytest.mark.parametrize(("gun", "refused"), [(None, False), (1, False), (2, True)])
def test_v_squad_5_a_squad_gun_of_class_1_and_one_without_a_class_counts_as_class_1(gun, refused):
    """V-SQUAD-5 reading: a squad's gun is of class 1 at most; a gun whose class is not given counts as 1."""
    b = Build()
    s = b.squad()
    b.vehicle("artillery", s, armour=None, gun=gun)
    assert ("V-SQUAD-5" in ids(b.report())) is refused


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


def test_v_squad_6_a_squad_vehicle_with_a_bought_crew_is_named_at_the_squad_in_both_languages():
    """V-SQUAD-6: the squad's corporal and riflemen crew its vehicle; a crew bought for it is refused."""
    b = Build()
    s = b.squad()
    b.vehicle("car", s, armour=1, crew=True)
    found = lines_of(b.report(), "V-SQUAD-6")
    assert [v.unit for v in found] == [s]
    assert_says_it_in_both_languages(found[0])


# --- each broken rule is reported on the squad that breaks it, by name ---------------------------------
def _squad(**kw):
    return lambda b: b.squad(**kw)


def _squad_with(*extra):
    def build(b):
        s = b.squad(team1=5, team2=5)
        for cls, n, team in extra:
            b.add(cls, n, s, team=team)
        return s
    return build


def _squad_vehicles(n):
    def build(b):
        s = b.squad()
        for _ in range(n):
            b.vehicle("car", s, armour=1, crew=True)
        return s
    return build


def _squad_without_corporal(b):
    s = b.unit("squad")
    b.add("sergeant", 1, s, team=1)
    b.add("rifleman", 4, s, team=1)
    b.add("rifleman", 5, s, team=2)
    return s


@pytest.mark.parametrize(("rule_id", "build"), [
    ("V-SQUAD-11", _squad(team1=8, team2=8)),
    ("V-SQUAD-1", _squad(team1=4, team2=5)),
    ("V-SQUAD-7", _squad(specials1={"sniper": 2})),
    ("V-SQUAD-10", _squad_with(("sergeant", 1, 2), ("corporal", 1, 1))),
    ("V-SQUAD-3", _squad_with(("rifleman", 1, 3))),
    ("V-SQUAD-2", _squad_with(("sergeant", 1, 2))),
    ("V-SQUAD-5", _squad_vehicles(2)),
    ("V-SQUAD-1", _squad_without_corporal),  # V-SQUAD-1: a sergeant AND a corporal
])
def test_v_squad_a_broken_rule_is_reported_on_that_squad_by_name(rule_id, build):
    b = Build()
    ref = build(b)
    assert_reported_on(b.report(), rule_id, ref)


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
