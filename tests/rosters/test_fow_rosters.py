"""Flames of War rosters: platoons of teams, priced with the FoW team types
(placeholders, G-F1/G-F3), validated by F-SPEC-1 and F-RECON-1 (catalog, seed 004)."""
from __future__ import annotations

import pytest

from rosters import domain, selectors, services
from rosters.models import FowTeamType, UnitKind

TYPES = {
    "rifle": domain.FowTeamData("rifle", "infantry", "", False, 3),
    "scout": domain.FowTeamData("scout", "infantry", "recon", False, 3),
    "car": domain.FowTeamData("car", "vehicle", "recon", False, 5),
    "tank": domain.FowTeamData("tank", "tank", "", False, 10),
    "loco": domain.FowTeamData("loco", "train", "armoured_train", True, 12),
    "wagon": domain.FowTeamData("wagon", "train", "armoured_train", False, 10),
    "cossack": domain.FowTeamData("cossack", "infantry", "cavalry", False, 3),
}


def _rules(limit: int = 100) -> domain.Rules:
    return domain.Rules(classes={}, armour_cost={}, gun_cost={}, fow_team_types=TYPES, fow_points_limit=limit)


def _spec(*platoons, limit=None) -> domain.RosterSpec:
    """platoons: (ref, fow_kind, parent, [(type, count)])."""
    units = tuple(domain.UnitSpec(ref, "fow_platoon", f"Взвод {ref}", parent, fow_kind=kind)
                  for ref, kind, parent, _ in platoons)
    teams = tuple(domain.FowTeamSpec(t, ref, n) for ref, _, _, rows in platoons for t, n in rows)
    return domain.RosterSpec(units=units, teams=teams, ruleset="fow", in_campaign=True)


def _ids(report: domain.Report, severity: str = "error") -> set[str]:
    return {v.rule_id for v in report.violations if v.severity == severity}


class TestRecon:
    def test_f_recon_1_a_recon_platoon_of_recon_teams_is_valid(self):
        report = domain.validate(_spec(("1", "recon", None, [("scout", 2), ("car", 1)])), _rules())
        assert report.ok and report.total == 2 * 3 + 5

    def test_f_recon_1_a_non_recon_team_in_a_recon_platoon_is_an_error_naming_it(self):
        report = domain.validate(_spec(("1", "recon", None, [("scout", 2), ("rifle", 1)])), _rules())
        [v] = [v for v in report.violations if v.rule_id == "F-RECON-1"]
        assert v.unit == "1" and "rifle" in v.message_en and "rifle" in v.message_ru and v.unit_name == "Взвод 1"

    def test_f_recon_1_recon_teams_elsewhere_break_nothing(self):
        assert domain.validate(_spec(("1", "infantry", None, [("rifle", 3), ("scout", 1)])), _rules()).ok


class TestSpecialisedTroops:
    def test_f_spec_1_troops_without_rules_in_the_seeds_are_a_warning_naming_g_f2(self):
        report = domain.validate(_spec(("1", "infantry", None, [("cossack", 3)])), _rules())
        assert report.ok
        [w] = [v for v in report.violations if v.rule_id == "F-SPEC-1"]
        assert w.severity == "warning" and "G-F2" in w.message_en and "кавалерия" in w.message_ru

    def test_f_spec_1_v11_2_units_fighters_and_unknown_team_types_are_errors(self):
        spec = domain.RosterSpec(units=(domain.UnitSpec("1", "squad", "Отделение"),),
                                 fighters=(domain.FighterSpec("rifleman", 5, "1"),),
                                 teams=(domain.FowTeamSpec("ghost", "1"),), ruleset="fow")
        report = domain.validate(spec, _rules())
        assert {v.rule_id for v in report.errors} == {"F-SPEC-1"} and len(report.errors) == 3

    def test_f_spec_1_a_platoon_needs_a_type_and_a_team(self):
        report = domain.validate(_spec(("1", "", None, [])), _rules())
        assert [v.rule_id for v in report.errors] == ["F-SPEC-1", "F-SPEC-1"]

    def test_f_spec_1_a_v11_2_vehicle_alone_is_an_error_too(self):
        """F-SPEC-1: FoW troops are teams; a v11.2 vehicle (with no v11.2 fighter beside it) is not bought."""
        spec = _spec(("1", "infantry", None, [("rifle", 1)]))
        spec = domain.RosterSpec(units=spec.units, teams=spec.teams, vehicles=(domain.VehicleSpec("v", "tank"),),
                                 ruleset="fow", in_campaign=True)
        assert "F-SPEC-1" in _ids(domain.validate(spec, _rules()))


class TestArmouredTrain:
    def test_g_f3_a_train_with_one_locomotive_and_a_tank_escort_is_valid(self):
        spec = _spec(("1", "armoured_train", None, [("loco", 1), ("wagon", 2)]),
                     ("2", "tank", "1", [("tank", 2)]))
        report = domain.validate(spec, _rules())
        assert report.ok and report.total == 12 + 20 + 20 and report.unit_costs == {"1": 32, "2": 20}

    @pytest.mark.parametrize("rows", [[("wagon", 2)], [("loco", 2)], [("loco", 1), ("tank", 1)]])
    def test_g_f3_wagons_only_and_exactly_one_locomotive(self, rows):
        assert "G-F3" in _ids(domain.validate(_spec(("1", "armoured_train", None, rows)), _rules()))

    def test_g_f3_only_a_tank_platoon_escorts_and_only_a_train(self):
        spec = _spec(("1", "infantry", None, [("rifle", 1)]), ("2", "tank", "1", [("tank", 1)]),
                     ("3", "armoured_train", None, [("loco", 1)]), ("4", "infantry", "3", [("rifle", 1)]))
        bad = {v.unit for v in domain.validate(spec, _rules()).errors if v.rule_id == "G-F3"}
        assert bad == {"2", "4"}

    def test_g_f3_wagons_outside_a_train_are_an_error(self):
        assert "G-F3" in _ids(domain.validate(_spec(("1", "tank", None, [("wagon", 1)])), _rules()))


def test_g_f1_the_points_limit_is_game_data_both_sides():
    spec = _spec(("1", "tank", None, [("tank", 3)]))
    assert domain.validate(spec, _rules(limit=30)).ok
    assert "G-F1" in _ids(domain.validate(spec, _rules(limit=29)))


def test_a_v11_2_roster_keeps_its_rules_and_refuses_a_fow_platoon():
    spec = domain.RosterSpec(units=(domain.UnitSpec("1", "fow_platoon", "Взвод", fow_kind="tank"),))
    assert "V-TURN-1" in {v.rule_id for v in domain.validate(spec, _rules()).errors}


# --- through the services and the pages -------------------------------------------------------
@pytest.fixture
def fow_roster(player, character, campaign, enlist):
    campaign.ruleset = "fow"
    campaign.save()
    enlist(campaign, character, "defender")
    return services.roster_create(user=player, character=character, name="Бронепоезд «Ильич»", campaign=campaign)


def test_the_default_team_types_are_placeholders(db):
    assert FowTeamType.objects.filter(locomotive=True).exists()
    assert not FowTeamType.objects.filter(is_placeholder=False).exists()


def test_f_recon_1_a_fow_roster_built_by_the_services_is_validated_and_priced(fow_roster, player):
    recon = services.unit_add(user=player, roster=fow_roster, kind=UnitKind.FOW_PLATOON, fow_kind="recon")
    services.fow_team_add(user=player, roster=fow_roster, unit=recon,
                          team_type=FowTeamType.objects.get(code="scout_car"), count=2)
    rifle = services.fow_team_add(user=player, roster=fow_roster, unit=recon,
                                  team_type=FowTeamType.objects.get(code="rifle_team"))
    report = selectors.roster_validate(roster=fow_roster)
    assert [v.rule_id for v in report.errors] == ["F-RECON-1"]
    assert report == selectors.roster_report(tree=selectors.roster_tree(roster_id=fow_roster.pk))
    services.fow_team_update(user=player, roster=fow_roster, team=rifle, count=0)
    fow_roster.refresh_from_db()
    assert selectors.roster_validate(roster=fow_roster).ok and fow_roster.priced_total == 2 * 5


def test_a_fow_platoon_needs_its_type_and_teams_go_only_into_fow_platoons(fow_roster, player):
    from config.errors import InvalidInput

    with pytest.raises(InvalidInput) as exc:
        services.unit_add(user=player, roster=fow_roster, kind=UnitKind.FOW_PLATOON)
    assert exc.value.field == "fow_kind"
    squad = services.unit_add(user=player, roster=fow_roster, kind="squad")
    with pytest.raises(InvalidInput):
        services.fow_team_add(user=player, roster=fow_roster, unit=squad, team_type=FowTeamType.objects.first())


def test_the_builder_page_builds_a_fow_roster_without_javascript(client, player, fow_roster):
    client.force_login(player)
    page = client.get(f"/rosters/{fow_roster.pk}/")
    assert page.status_code == 200 and 'name="fow_kind"' in page.content.decode()
    r = client.post(f"/rosters/{fow_roster.pk}/units/add/", {"kind": "fow_platoon", "fow_kind": "recon",
                                                            "name": "Разведка"})
    assert r.status_code == 302
    unit = fow_roster.units.get()
    r = client.post(f"/rosters/{fow_roster.pk}/teams/add/", {"unit": unit.pk, "team_type": "rifle_team",
                                                            "count": 2})
    assert r.status_code == 302 and fow_roster.fow_teams.get().count == 2
    html = client.get(f"/rosters/{fow_roster.pk}/").content.decode()
    assert "F-RECON-1" in html and "Разведка" in html
    team = fow_roster.fow_teams.get()
    client.post(f"/rosters/{fow_roster.pk}/teams/{team.pk}/count/", {"count": 0})
    assert not fow_roster.fow_teams.exists()
