"""Roster services and selectors on the database: game data defaults, drafts,
submission (V-TURN-1), permissions, re-pricing, import/export, query counts."""
from __future__ import annotations

import pytest

from config.errors import ApplicationError, Conflict, Forbidden, InvalidInput
from rosters import selectors, services
from rosters.models import (
    ArmourClass,
    GameDataVersion,
    InfantryClass,
    Roster,
    RosterRules,
    Status,
    Upgrade,
    VehicleOption,
)

from .conftest import build_squad, cls

pytestmark = pytest.mark.django_db


# --- game data ---------------------------------------------------------------------------
def test_defaults_are_shipped_and_every_gap_value_is_a_placeholder():
    """G-1, G-5, G-16 defaults ship as placeholders; V-PP-1…4 budgets are seed values."""
    classes = {c.code: c for c in InfantryClass.objects.all()}
    assert len(classes) == 15 and all(c.is_placeholder for c in classes.values())
    assert (classes["rifleman"].cost, classes["lieutenant"].cost, classes["captain"].cost) == (1, 2, 3)
    assert classes["scout"].observation_in == 24  # V-SCOUT-2, seed
    assert [a.cost for a in ArmourClass.objects.all()] == [1, 2, 3, 4, 5, 6]
    assert all(a.is_placeholder for a in ArmourClass.objects.all())
    assert not Upgrade.objects.exists()  # G-15: an empty list for the master
    rules = RosterRules.objects.get()
    assert (rules.budget_corporal, rules.budget_sergeant, rules.budget_lieutenant, rules.budget_captain,
            rules.attacker_bonus, rules.side_skirts_cost) == (8, 16, 45, 80, 40, 3)


def test_editing_a_placeholder_clears_its_marker_and_bumps_the_version():
    before = GameDataVersion.objects.count()
    row = InfantryClass.objects.get(code="sniper")
    row.cost = 3
    services.game_data_row_save(row=row, changed=["cost"])
    row.refresh_from_db()
    assert row.cost == 3 and not row.is_placeholder
    assert GameDataVersion.objects.count() == before + 1
    other = InfantryClass.objects.get(code="scout")
    services.game_data_row_save(row=other, changed=["cost", "is_placeholder"])
    other.refresh_from_db()
    assert other.is_placeholder


# --- drafts, submission, permissions ---------------------------------------------------------
def test_v_turn_1_over_budget_draft_is_saved_but_cannot_be_submitted(squad_roster, player):
    """V-TURN-1, V-PP-2: a sergeant's 16 PP; an extra 7 riflemen are saved as a draft and refused at submit."""
    squad = squad_roster.units.get()
    services.fighter_add(user=player, roster=squad_roster, infantry_class=cls("rifleman"), count=7, unit=squad,
                         fire_team=2)
    squad_roster.refresh_from_db()
    assert squad_roster.priced_total == 17 and squad_roster.status == Status.DRAFT
    with pytest.raises(ApplicationError) as exc:
        services.roster_submit(user=player, roster=squad_roster)
    rules = {v["rule_id"] for v in exc.value.extra["violations"]}
    assert {"V-PP-2", "V-SQUAD-1", "V-SQUAD-11"} <= rules
    assert exc.value.status_code == 422
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.DRAFT


def test_valid_roster_is_submitted(squad_roster, player):
    report = services.roster_submit(user=player, roster=squad_roster)
    squad_roster.refresh_from_db()
    assert report.ok and squad_roster.status == Status.SUBMITTED and squad_roster.submitted_at
    with pytest.raises(Conflict):
        services.unit_add(user=player, roster=squad_roster, kind="squad")
    services.roster_reopen(user=player, roster=squad_roster)
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.DRAFT


def test_players_edit_only_their_own_rosters(squad_roster, other_player, other_character, player):
    with pytest.raises(Forbidden):
        services.unit_add(user=other_player, roster=squad_roster, kind="squad")
    with pytest.raises(Forbidden):
        services.roster_create(user=player, character=other_character, name="чужой")
    assert list(selectors.rosters_visible(user=other_player)) == []
    assert list(selectors.rosters_visible(user=player)) == [squad_roster]


def test_game_master_sees_and_locks_all(squad_roster, game_master, player):
    assert list(selectors.rosters_visible(user=game_master)) == [squad_roster]
    with pytest.raises(Forbidden):
        services.roster_lock(user=player, roster=squad_roster)
    services.roster_lock(user=game_master, roster=squad_roster)
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.LOCKED
    for user in (player, game_master):
        with pytest.raises((Conflict, Forbidden)):
            services.unit_add(user=user, roster=squad_roster, kind="squad")
    with pytest.raises(Conflict):
        services.roster_reopen(user=player, roster=squad_roster)
    services.roster_unlock(user=game_master, roster=squad_roster)
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.DRAFT


def test_v_pp_6_attacker_in_campaign_priced_against_budget_plus_40(roster, player, campaign, enlist):
    enlist(campaign, roster.character, "attacker")
    services.roster_update(user=player, roster=roster, campaign=campaign, side="attacker")
    report = selectors.roster_report(tree=selectors.roster_tree(roster_id=roster.pk))
    assert report.budget == 0  # V-PP-5: no officer yet
    build_squad(roster, player)
    report = selectors.roster_report(tree=selectors.roster_tree(roster_id=roster.pk))
    assert report.budget == 16 + 40


# --- re-pricing ------------------------------------------------------------------------------
def test_game_data_change_never_silently_rewrites_a_saved_total(squad_roster, player):
    """A roster keeps the total and version it was priced with; the report shows the new price."""
    assert squad_roster.priced_total == 10
    old_version = squad_roster.priced_version_id
    rifleman = InfantryClass.objects.get(code="rifleman")
    rifleman.cost = 2
    services.game_data_row_save(row=rifleman, changed=["cost"])
    squad_roster.refresh_from_db()
    assert (squad_roster.priced_total, squad_roster.priced_version_id) == (10, old_version)
    report = selectors.roster_report(tree=selectors.roster_tree(roster_id=squad_roster.pk))
    assert report.total == 18
    services.roster_reprice(user=player, roster=squad_roster)
    squad_roster.refresh_from_db()
    assert squad_roster.priced_total == 18 and squad_roster.priced_version_id != old_version


# --- export, import, duplicate ------------------------------------------------------------------
def test_export_import_round_trip(squad_roster, player, character):
    tree = selectors.roster_tree(roster_id=squad_roster.pk)
    data = selectors.roster_export(tree=tree)
    copy, report = services.roster_import(user=player, character=character, data=data)
    assert copy.pk != squad_roster.pk and report.ok and report.total == 10
    again = selectors.roster_export(tree=selectors.roster_tree(roster_id=copy.pk))
    strip = lambda d: {k: v for k, v in d.items() if k not in ("units", "vehicles", "fighters", "game_data_version")}  # noqa: E731
    assert strip(again) == strip(data)
    assert [(f["class"], f["count"], f["fire_team"]) for f in again["fighters"]] == \
        [(f["class"], f["count"], f["fire_team"]) for f in data["fighters"]]


def test_import_refuses_the_whole_roster_on_any_problem(player, character):
    count = Roster.objects.count()
    data = {"format": "shtab-roster", "version": 1, "name": "Плохой", "side": "",
            "units": [{"ref": "a", "kind": "squad"}, {"ref": "b", "kind": "platoon", "parent": "zzz"},
                      {"ref": "c", "kind": "tactical_group", "group_kind": "cavalry-of-the-apocalypse"}],
            "vehicles": [],
            "fighters": [{"class": "sergeant", "unit": "a"}, {"class": "wizard", "unit": "a"},
                         {"class": "rifleman", "count": -3, "unit": "a"}]}
    with pytest.raises(InvalidInput) as exc:
        services.roster_import(user=player, character=character, data=data)
    fields = {p["field"] for p in exc.value.extra["problems"]}
    assert {"units[1]", "units[2]", "fighters[2]"} <= fields
    assert Roster.objects.count() == count
    data["units"][1]["parent"] = None
    data["units"][2]["group_kind"] = "recon"
    data["fighters"][2]["count"] = 3
    with pytest.raises(InvalidInput) as exc:
        services.roster_import(user=player, character=character, data=data)
    assert [p["field"] for p in exc.value.extra["problems"]] == ["fighters[1]"]
    assert Roster.objects.count() == count


def test_import_of_an_invalid_but_well_formed_roster_is_a_reported_draft(player, character):
    data = {"format": "shtab-roster", "version": 1, "name": "Черновик", "units": [{"ref": "a", "kind": "squad"}],
            "fighters": [{"class": "sergeant", "unit": "a", "fire_team": 1}]}
    roster, report = services.roster_import(user=player, character=character, data=data)
    assert roster.status == Status.DRAFT and not report.ok
    assert "V-SQUAD-1" in {v.rule_id for v in report.errors}


def test_duplicate_copies_everything_as_a_new_draft(squad_roster, player):
    copy = services.roster_duplicate(user=player, roster=squad_roster)
    assert copy.pk != squad_roster.pk and copy.status == Status.DRAFT
    assert copy.priced_total == squad_roster.priced_total
    assert copy.fighters.count() == squad_roster.fighters.count()


# --- query counts --------------------------------------------------------------------------------
def _grow(roster, user, squads: int):
    for i in range(squads):
        unit = build_squad(roster, user, name=f"squad {i}")
        services.vehicle_add(user=user, roster=roster, kind="car", unit=unit)


def test_roster_selectors_run_a_constant_number_of_queries(roster, player, django_assert_num_queries):
    def load():
        tree = selectors.roster_tree(roster_id=roster.pk)
        selectors.roster_report(tree=tree)

    _grow(roster, player, 1)
    with django_assert_num_queries(6 + 8) as small:  # game data: 7 + FoW team types
        load()
    _grow(roster, player, 6)
    with django_assert_num_queries(len(small.captured_queries)):
        load()


def test_roster_validate_fast_path_equals_the_page_report(roster, player, django_assert_num_queries):
    """The values-only loader gives the same report as the page's model tree."""
    _grow(roster, player, 2)
    unit = roster.units.first()
    up = Upgrade.objects.create(code="grenades", name_ru="Гранаты", name_en="Grenades", cost=2)
    services.unit_upgrades_set(user=player, roster=roster, unit=unit, upgrades=[up])
    services.vehicle_add(user=player, roster=roster, kind="tank", armour_class=3,
                         options=list(VehicleOption.objects.filter(code="spotter")))
    game = selectors.game_data_current()
    with django_assert_num_queries(6):
        fast = selectors.roster_validate(roster=roster.pk, game=game)
    slow = selectors.roster_report(tree=selectors.roster_tree(roster_id=roster.pk), game=game)
    assert fast.total == slow.total == 10 * 2 + 1 + 1 + 2 + 3 + 2
    assert fast.violations == slow.violations and fast.unit_costs == slow.unit_costs


def test_defaults_are_restored_only_on_an_empty_database():
    """Rows the master deleted do not come back on the next migrate (post_migrate)."""
    from django.apps import apps

    from rosters.defaults import ensure_game_data

    VehicleOption.objects.filter(code="tractor").delete()
    ensure_game_data(apps.get_model)
    assert not VehicleOption.objects.filter(code="tractor").exists()
    GameDataVersion.objects.all().delete()
    ensure_game_data(apps.get_model)
    assert VehicleOption.objects.filter(code="tractor").exists()


def test_roster_page_selector_runs_14_queries_whatever_the_size(roster, player, django_assert_num_queries):
    """6 for the roster (with its units, upgrades, vehicles, options, fighters) + 8 for the game data
    (with the FoW team types)."""
    _grow(roster, player, 1)
    with django_assert_num_queries(14):
        small = selectors.roster_page(roster_id=roster.pk)
    _grow(roster, player, 9)
    with django_assert_num_queries(14):
        large = selectors.roster_page(roster_id=roster.pk, language="en")
    assert len(small["top_units"]) == 1 and len(large["top_units"]) == 10
    assert large["top_units"][0].subtotal == 11 and large["report"].total == 110


def test_rules_fast_loader_equals_the_full_game_data(django_assert_num_queries):
    Upgrade.objects.create(code="grenades", name_ru="Гранаты", name_en="Grenades", cost=2)
    with django_assert_num_queries(7):  # 6 + the FoW team types
        fast = selectors.game_rules_current()
    assert fast == selectors.game_data_current().rules
    assert fast.upgrades == {"grenades": 2} and fast.classes["captain"].cost == 3 and fast.budget_captain == 80


@pytest.mark.django_db(transaction=True)
def test_rules_are_cached_per_game_data_version_outside_transactions(django_assert_num_queries):
    """1 query while the game data is unchanged; a change (a new version, or any save here) is seen at once."""
    first = selectors.game_rules_current()
    with django_assert_num_queries(1):
        assert selectors.game_rules_current() is first
    row = InfantryClass.objects.get(code="rifleman")
    row.cost = 5
    services.game_data_row_save(row=row, changed=["cost"])
    assert selectors.game_rules_current().classes["rifleman"].cost == 5
    InfantryClass.objects.filter(code="rifleman").update(cost=6)  # like another process: no signal here
    assert selectors.game_rules_current().classes["rifleman"].cost == 5  # cached until the version moves
    GameDataVersion.objects.bulk_create([GameDataVersion(note="bumped by another process")])  # no signal either
    assert selectors.game_rules_current().classes["rifleman"].cost == 6


def test_v_pp_6_a_campaign_roster_takes_its_characters_side(roster, player, campaign, enlist, game_master):
    """The side (and so the +40 of the attacker) follows the campaign membership,
    which the game master assigns, not what the player types."""
    from config.errors import InvalidInput

    with pytest.raises(InvalidInput) as exc:
        services.roster_update(user=player, roster=roster, campaign=campaign)
    assert exc.value.field == "campaign"  # not a member of that campaign
    m = enlist(campaign, roster.character, "defender")
    with pytest.raises(InvalidInput) as exc:  # not his side: said plainly, never silently replaced
        services.roster_update(user=player, roster=roster, campaign=campaign, side="attacker")
    assert exc.value.field == "side" and "Обороняющиеся" in exc.value.message_ru
    services.roster_update(user=player, roster=roster, campaign=campaign, side="")
    roster.refresh_from_db()
    assert roster.side == "defender"
    build_squad(roster, player)
    from campaign import services as campaign_services

    campaign_services.membership_assign_side(membership=m, side="attacker", by=game_master)
    roster.refresh_from_db()
    assert roster.side == "attacker"
    assert selectors.roster_report(tree=selectors.roster_tree(roster_id=roster.pk)).budget == 16 + 40
