"""Flames of War rosters: platoons of teams, priced with the FoW team types
(placeholders, G-F1/G-F3), validated by F-SPEC-1 and F-RECON-1 (catalog, seed 004);
every report line names its rule and its platoon, in both languages."""
from __future__ import annotations

import pytest

from rosters import domain, selectors, services
from rosters.models import FowTeamType, UnitKind

from .builders import fow_report, fow_rules, fow_spec, lines_of


def _ids(report: domain.Report, severity: str = "error") -> set[str]:
    return {v.rule_id for v in report.violations if v.severity == severity}


class TestRecon:
    def test_f_recon_1_a_recon_platoon_of_recon_teams_is_valid(self):
        report = domain.validate(fow_spec(("1", "recon", None, [("scout", 2), ("car", 1)])), fow_rules())
        assert report.ok and report.total == 2 * 3 + 5

    def test_f_recon_1_a_non_recon_team_in_a_recon_platoon_is_an_error_naming_it(self):
        report = domain.validate(fow_spec(("1", "recon", None, [("scout", 2), ("rifle", 1)])), fow_rules())
        [v] = [v for v in report.violations if v.rule_id == "F-RECON-1"]
        assert v.unit == "1" and "rifle" in v.message_en and "rifle" in v.message_ru and v.unit_name == "Взвод 1"

    def test_f_recon_1_recon_teams_elsewhere_break_nothing(self):
        assert domain.validate(fow_spec(("1", "infantry", None, [("rifle", 3), ("scout", 1)])), fow_rules()).ok

    def test_f_recon_1_names_every_wrong_team_type_once_in_a_list(self):
        report = fow_report(("1", "recon", None, [("scout", 1), ("tank", 1), ("rifle", 2), ("tank", 1)]))
        [v] = lines_of(report, "F-RECON-1")
        assert v.message_en.endswith(": rifle, tank.") and v.message_ru.endswith(": rifle, tank.")


class TestSpecialisedTroops:
    def test_f_spec_1_troops_without_rules_in_the_seeds_are_a_warning_naming_g_f2(self):
        report = domain.validate(fow_spec(("1", "infantry", None, [("cossack", 3)])), fow_rules())
        assert report.ok
        [w] = [v for v in report.violations if v.rule_id == "F-SPEC-1"]
        assert w.severity == "warning" and "G-F2" in w.message_en and "кавалерия" in w.message_ru

    def test_f_spec_1_troops_without_seed_rules_warn_on_their_platoon(self):
        """G-F2: the warning names the platoon whose teams have no rules in the seeds."""
        spec = domain.RosterSpec(units=(domain.UnitSpec("1", "fow_platoon", "Взвод 1", None, fow_kind="infantry"),),
                                 teams=(domain.FowTeamSpec("cossack", "1", 2),), ruleset="fow", in_campaign=True)
        report = domain.validate(spec, fow_rules())
        [w] = lines_of(report, "F-SPEC-1")
        assert (w.unit, w.unit_name, w.severity) == ("1", "Взвод 1", "warning") and report.ok

    def test_f_spec_1_v11_2_units_fighters_and_unknown_team_types_are_errors(self):
        spec = domain.RosterSpec(units=(domain.UnitSpec("1", "squad", "Отделение"),),
                                 fighters=(domain.FighterSpec("rifleman", 5, "1"),),
                                 teams=(domain.FowTeamSpec("ghost", "1"),), ruleset="fow")
        report = domain.validate(spec, fow_rules())
        assert {v.rule_id for v in report.errors} == {"F-SPEC-1"} and len(report.errors) == 3

    def test_f_spec_1_v11_2_fighters_in_a_fow_roster_are_an_error_of_the_whole_roster(self):
        report = fow_report(("1", "infantry", None, [("rifle", 1)]), fighters=(domain.FighterSpec("rifleman", 1, "1"),))
        [v] = lines_of(report, "F-SPEC-1")
        assert v.unit is None and not report.ok

    def test_f_spec_1_a_v11_2_unit_in_a_fow_roster_is_an_error_on_that_unit(self):
        spec = domain.RosterSpec(units=(domain.UnitSpec("s", "squad", "Отделение Петрова"),
                                        domain.UnitSpec("1", "fow_platoon", "Взвод 1", None, fow_kind="infantry")),
                                 teams=(domain.FowTeamSpec("rifle", "1", 1),), ruleset="fow", in_campaign=True)
        report = domain.validate(spec, fow_rules())
        [v] = lines_of(report, "F-SPEC-1")
        assert (v.unit, v.unit_name, v.severity) == ("s", "Отделение Петрова", "error")
        assert "Отделение Петрова" in v.message_ru and "Отделение Петрова" in v.message_en

    def test_f_spec_1_a_platoon_needs_a_type_and_a_team(self):
        report = domain.validate(fow_spec(("1", "", None, [])), fow_rules())
        assert [v.rule_id for v in report.errors] == ["F-SPEC-1", "F-SPEC-1"]

    def test_f_spec_1_a_platoon_without_teams_names_the_platoon(self):
        [v] = lines_of(fow_report(("1", "infantry", None, [])), "F-SPEC-1")
        assert v.unit == "1" and v.severity == "error"

    def test_f_spec_1_a_platoon_without_a_type_and_the_platoons_after_a_wrong_unit_are_still_checked(self):
        spec = domain.RosterSpec(units=(domain.UnitSpec("s", "squad", "Отделение"),
                                        domain.UnitSpec("1", "fow_platoon", "Взвод 1", None, fow_kind=""),
                                        domain.UnitSpec("2", "fow_platoon", "Взвод 2", None, fow_kind="infantry")),
                                 teams=(domain.FowTeamSpec("rifle", "1", 1),), ruleset="fow", in_campaign=True)
        report = domain.validate(spec, fow_rules())
        by_unit = {v.unit: v for v in lines_of(report, "F-SPEC-1")}
        assert set(by_unit) == {"s", "1", "2"}  # the squad; the platoon without a type; the platoon without teams
        assert by_unit["1"].unit_name == "Взвод 1" and by_unit["1"].message_ru and by_unit["1"].message_en
        assert by_unit["1"].message_en != by_unit["2"].message_en

    def test_f_spec_1_a_team_outside_any_platoon_is_an_error_of_the_whole_roster(self):
        report = fow_report(("1", "infantry", None, [("rifle", 2)]), teams=[("rifle", "nowhere", 1)])
        [v] = lines_of(report, "F-SPEC-1")
        assert v.unit is None and v.severity == "error" and not report.ok
        assert report.total == 3 * 3  # the stray team is still priced

    def test_f_spec_1_an_unknown_team_type_names_its_platoon_and_the_next_team_is_still_counted(self):
        report = fow_report(("1", "infantry", None, [("ghost", 1), ("rifle", 2)]))
        [v] = lines_of(report, "F-SPEC-1")
        assert v.unit == "1" and v.unit_name == "Взвод 1" and "ghost" in v.message_en and "ghost" in v.message_ru
        assert report.total == 2 * 3 and report.unit_costs == {"1": 6}

    def test_f_spec_1_an_unknown_team_type_outside_a_platoon_names_no_platoon(self):
        report = fow_report(("1", "infantry", None, [("rifle", 1)]), teams=[("ghost", "nowhere", 1)])
        assert {v.unit for v in lines_of(report, "F-SPEC-1")} == {None}

    def test_f_spec_1_a_v11_2_vehicle_alone_is_an_error_too(self):
        """F-SPEC-1: FoW troops are teams; a v11.2 vehicle (with no v11.2 fighter beside it) is not bought."""
        spec = fow_spec(("1", "infantry", None, [("rifle", 1)]))
        spec = domain.RosterSpec(units=spec.units, teams=spec.teams, vehicles=(domain.VehicleSpec("v", "tank"),),
                                 ruleset="fow", in_campaign=True)
        assert "F-SPEC-1" in _ids(domain.validate(spec, fow_rules()))


class TestArmouredTrain:
    def test_g_f3_a_train_with_one_locomotive_and_a_tank_escort_is_valid(self):
        spec = fow_spec(("1", "armoured_train", None, [("loco", 1), ("wagon", 2)]),
                        ("2", "tank", "1", [("tank", 2)]))
        report = domain.validate(spec, fow_rules())
        assert report.ok and report.total == 12 + 20 + 20 and report.unit_costs == {"1": 32, "2": 20}

    def test_g_f3_an_armoured_train_of_wagons_and_one_locomotive_is_valid(self):
        report = fow_report(("T", "armoured_train", None, [("loco", 1), ("wagon", 2)]),
                            ("E", "tank", "T", [("tank", 2)]))
        assert report.ok, report.violations
        assert report.unit_costs == {"T": 12 + 20, "E": 20}

    @pytest.mark.parametrize("rows", [[("wagon", 2)], [("loco", 2)], [("loco", 1), ("tank", 1)]])
    def test_g_f3_wagons_only_and_exactly_one_locomotive(self, rows):
        assert "G-F3" in _ids(domain.validate(fow_spec(("1", "armoured_train", None, rows)), fow_rules()))

    @pytest.mark.parametrize(("rows", "locos"), [([("wagon", 2)], 0), ([("loco", 2), ("wagon", 1)], 2)])
    def test_g_f3_an_armoured_train_has_exactly_one_locomotive(self, rows, locos):
        [v] = lines_of(fow_report(("T", "armoured_train", None, rows)), "G-F3")
        assert v.unit == "T" and f"{locos}" in v.message_en and f"{locos}" in v.message_ru

    def test_g_f3_an_armoured_train_is_wagons_only(self):
        [v] = lines_of(fow_report(("T", "armoured_train", None, [("loco", 1), ("rifle", 2)])), "G-F3")
        assert v.unit == "T"

    def test_g_f3_only_a_tank_platoon_escorts_and_only_a_train(self):
        spec = fow_spec(("1", "infantry", None, [("rifle", 1)]), ("2", "tank", "1", [("tank", 1)]),
                        ("3", "armoured_train", None, [("loco", 1)]), ("4", "infantry", "3", [("rifle", 1)]))
        bad = {v.unit for v in domain.validate(spec, fow_rules()).errors if v.rule_id == "G-F3"}
        assert bad == {"2", "4"}

    @pytest.mark.parametrize(("parent_kind", "kind", "ok"), [
        ("armoured_train", "tank", True), ("armoured_train", "infantry", False), ("infantry", "tank", False),
    ])
    def test_g_f3_only_a_tank_platoon_escorts_a_train(self, parent_kind, kind, ok):
        rows = [("loco", 1)] if parent_kind == "armoured_train" else [("rifle", 1)]
        report = fow_report(("P", parent_kind, None, rows),
                            ("C", kind, "P", [("tank" if kind == "tank" else "rifle", 1)]))
        lines = lines_of(report, "G-F3")
        assert (not lines) is ok
        assert all(v.unit == "C" for v in lines)

    def test_g_f3_a_platoon_whose_parent_is_missing_is_an_error(self):
        [v] = lines_of(fow_report(("C", "tank", "gone", [("tank", 1)])), "G-F3")
        assert v.unit == "C"

    def test_g_f3_wagons_outside_a_train_are_an_error(self):
        assert "G-F3" in _ids(domain.validate(fow_spec(("1", "tank", None, [("wagon", 1)])), fow_rules()))

    def test_g_f3_wagons_belong_only_in_an_armoured_train(self):
        [v] = lines_of(fow_report(("1", "infantry", None, [("rifle", 1), ("wagon", 1)])), "G-F3")
        assert v.unit == "1"


def test_g_f1_the_points_limit_is_game_data_both_sides():
    spec = fow_spec(("1", "tank", None, [("tank", 3)]))
    assert domain.validate(spec, fow_rules(limit=30)).ok
    assert "G-F1" in _ids(domain.validate(spec, fow_rules(limit=29)))


def test_g_f1_the_points_limit_binds_above_not_at():
    assert fow_report(("1", "infantry", None, [("rifle", 2)]), limit=6).ok
    [v] = lines_of(fow_report(("1", "infantry", None, [("rifle", 2)]), limit=5), "G-F1")
    assert v.unit is None and "6" in v.message_en and "5" in v.message_ru


def test_a_fow_report_prices_no_vehicles_and_offers_no_smoke():
    report = fow_report(("1", "infantry", None, [("rifle", 2)]))
    assert report.vehicle_costs == {} and report.smoke == {} and report.senior_rank is None


def test_a_v11_2_roster_keeps_its_rules_and_refuses_a_fow_platoon():
    spec = domain.RosterSpec(units=(domain.UnitSpec("1", "fow_platoon", "Взвод", fow_kind="tank"),))
    assert "V-TURN-1" in {v.rule_id for v in domain.validate(spec, fow_rules()).errors}


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
