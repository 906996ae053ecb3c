"""FoW rosters through the REST API: platoons with their fow_kind, a platoon's
teams (list, add, update, remove), the team types in the game data, and the
export, import and duplicate of a FoW roster."""
from __future__ import annotations

import pytest

from rosters import selectors, services
from rosters.models import FowTeam, FowTeamType, Roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for_other(other_player):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(other_player)
    return client


@pytest.fixture
def fow_roster(player, character, campaign, enlist):
    campaign.ruleset = "fow"
    campaign.save()
    enlist(campaign, character, "defender")
    return services.roster_create(user=player, character=character, name="Бронепоезд «Ильич»", campaign=campaign)


def _platoon(client, roster_id, fow_kind, **extra):
    r = client.post(f"/api/rosters/{roster_id}/units/", {"kind": "fow_platoon", "fow_kind": fow_kind, **extra},
                    format="json")
    assert r.status_code == 201, r.content
    return r.json()["units"][-1]


def _add_team(client, roster_id, unit, team_type, count=1):
    return client.post(f"/api/rosters/{roster_id}/teams/", {"unit": unit, "team_type": team_type, "count": count},
                       format="json")


def test_a_fow_platoon_is_added_with_its_type_and_shown_with_it(player_client, fow_roster):
    unit = _platoon(player_client, fow_roster.pk, "recon")
    assert unit["kind"] == "fow_platoon" and unit["fow_kind"] == "recon" and unit["name"]


def test_a_fow_platoon_without_its_type_is_refused_naming_fow_kind(player_client, fow_roster):
    r = player_client.post(f"/api/rosters/{fow_roster.pk}/units/", {"kind": "fow_platoon"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "fow_kind"
    r = player_client.post(f"/api/rosters/{fow_roster.pk}/units/", {"kind": "fow_platoon", "fow_kind": "zeppelin"},
                           format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "fow_kind"


def test_f_recon_1_teams_are_added_listed_updated_and_removed(player_client, fow_roster):
    """F-RECON-1: a recon platoon of recon teams only; a rifle team in it is a violation."""
    unit = _platoon(player_client, fow_roster.pk, "recon")["id"]
    r = _add_team(player_client, fow_roster.pk, unit, "scout_car", 2)
    assert r.status_code == 201, r.content
    body = r.json()
    assert [(t["unit"], t["team_type"], t["count"]) for t in body["teams"]] == [(unit, "scout_car", 2)]
    assert body["teams"][0]["team_type_name"] == FowTeamType.objects.get(code="scout_car").name_ru
    assert body["report"]["ok"] and body["priced_total"] == 2 * FowTeamType.objects.get(code="scout_car").cost
    body = _add_team(player_client, fow_roster.pk, unit, "rifle_team").json()
    assert "F-RECON-1" in {v["rule_id"] for v in body["report"]["violations"]}
    rifle = body["teams"][-1]["id"]

    listed = player_client.get(f"/api/rosters/{fow_roster.pk}/teams/", {"unit": unit})
    assert listed.status_code == 200 and [t["team_type"] for t in listed.json()] == ["scout_car", "rifle_team"]

    r = player_client.patch(f"/api/rosters/{fow_roster.pk}/teams/{body['teams'][0]['id']}/", {"count": 3},
                            format="json")
    assert r.status_code == 200 and r.json()["teams"][0]["count"] == 3
    r = player_client.delete(f"/api/rosters/{fow_roster.pk}/teams/{rifle}/")
    assert r.status_code == 200 and [t["team_type"] for t in r.json()["teams"]] == ["scout_car"]
    assert r.json()["report"]["ok"]
    r = player_client.patch(f"/api/rosters/{fow_roster.pk}/teams/{r.json()['teams'][0]['id']}/", {"count": 0},
                            format="json")
    assert r.status_code == 200 and r.json()["teams"] == [] and not FowTeam.objects.exists()


def test_teams_go_only_into_a_fow_platoon_of_the_same_roster(player_client, fow_roster, other_player,
                                                            other_character):
    squad = player_client.post(f"/api/rosters/{fow_roster.pk}/units/", {"kind": "squad"},
                               format="json").json()["units"][-1]["id"]
    r = _add_team(player_client, fow_roster.pk, squad, "rifle_team")
    assert r.status_code == 400 and r.json()["error"]["field"] == "unit"
    r = _add_team(player_client, fow_roster.pk, squad, "no_such_type")
    assert r.status_code == 400 and "team_type" in r.content.decode()
    other = services.roster_create(user=other_player, character=other_character, name="Чужой")
    foreign = services.unit_add(user=other_player, roster=other, kind="fow_platoon", fow_kind="tank")
    r = _add_team(player_client, fow_roster.pk, foreign.pk, "medium_tank")
    assert r.status_code == 404 and r.json()["error"]["field"] == "unit"
    assert not FowTeam.objects.exists()


def test_another_players_roster_teams_are_not_found(client_for_other, fow_roster, player):
    unit = services.unit_add(user=player, roster=fow_roster, kind="fow_platoon", fow_kind="tank")
    team = services.fow_team_add(user=player, roster=fow_roster, unit=unit,
                                 team_type=FowTeamType.objects.get(code="medium_tank"))
    assert client_for_other.get(f"/api/rosters/{fow_roster.pk}/teams/").status_code == 404
    r = client_for_other.patch(f"/api/rosters/{fow_roster.pk}/teams/{team.pk}/", {"count": 5}, format="json")
    assert r.status_code == 404
    team.refresh_from_db()
    assert team.count == 1


def test_a_submitted_rosters_teams_cannot_change(player_client, fow_roster, player):
    unit = services.unit_add(user=player, roster=fow_roster, kind="fow_platoon", fow_kind="tank")
    team = services.fow_team_add(user=player, roster=fow_roster, unit=unit,
                                 team_type=FowTeamType.objects.get(code="medium_tank"))
    services.roster_submit(user=player, roster=fow_roster)
    r = player_client.patch(f"/api/rosters/{fow_roster.pk}/teams/{team.pk}/", {"count": 5}, format="json")
    assert r.status_code == 409
    assert _add_team(player_client, fow_roster.pk, unit.pk, "medium_tank").status_code == 409


def test_the_game_data_lists_the_fow_team_types_as_placeholders(anon_client):
    r = anon_client.get("/api/game-data/")
    assert r.status_code == 200
    types = {t["code"]: t for t in r.json()["fow_team_types"]}
    assert set(types) == set(FowTeamType.objects.values_list("code", flat=True)) and types
    loco = next(t for t in types.values() if t["locomotive"])
    assert loco["kind"] == "train" and loco["speciality"] == "armoured_train"
    assert all(t["is_placeholder"] for t in types.values())  # G-F1: the seeds give no points table
    FowTeamType.objects.filter(code=loco["code"]).update(is_placeholder=False, cost=99)
    again = {t["code"]: t for t in anon_client.get("/api/game-data/").json()["fow_team_types"]}
    assert again[loco["code"]]["is_placeholder"] is False and again[loco["code"]]["cost"] == 99


# --- export, import, duplicate ---------------------------------------------------------------
def _train_roster(player, roster):
    t = {x.code: x for x in FowTeamType.objects.all()}
    train = services.unit_add(user=player, roster=roster, kind="fow_platoon", fow_kind="armoured_train",
                              name="Бронепоезд «Ильич»")
    services.fow_team_add(user=player, roster=roster, unit=train, team_type=t["locomotive"])
    services.fow_team_add(user=player, roster=roster, unit=train, team_type=t["artillery_wagon"], count=2)
    escort = services.unit_add(user=player, roster=roster, kind="fow_platoon", fow_kind="tank", parent=train,
                               name="Танковый десант")
    services.fow_team_add(user=player, roster=roster, unit=escort, team_type=t["medium_tank"], count=2)
    recon = services.unit_add(user=player, roster=roster, kind="fow_platoon", fow_kind="recon")
    services.fow_team_add(user=player, roster=roster, unit=recon, team_type=t["scout_car"], count=3)
    return roster


def _shape(roster_id):
    """A roster's content without its ids: platoons (path of names, type) and teams."""
    tree = selectors.roster_tree(roster_id=roster_id)
    by_pk = {u.pk: u for u in tree.units}
    units = [(u.kind, u.fow_kind, u.name, by_pk[u.parent_id].name if u.parent_id else None) for u in tree.units]
    teams = [(by_pk[t.unit_id].name, t.team_type.code, t.count) for t in tree.teams]
    return units, teams, tree.roster.priced_total


def test_export_then_import_gives_an_equal_fow_roster(player_client, fow_roster, player, character, campaign):
    _train_roster(player, fow_roster)
    exported = player_client.get(f"/api/rosters/{fow_roster.pk}/export/").json()
    assert {u["fow_kind"] for u in exported["units"]} == {"armoured_train", "tank", "recon"}
    assert sorted((t["type"], t["count"]) for t in exported["teams"]) == [
        ("artillery_wagon", 2), ("locomotive", 1), ("medium_tank", 2), ("scout_car", 3)]
    r = player_client.post("/api/rosters/import/", {"character": character.pk, "campaign": campaign.pk,
                                                    "data": exported}, format="json")
    assert r.status_code == 201, r.content
    copy = r.json()
    assert copy["id"] != fow_roster.pk and len(copy["teams"]) == 4
    assert _shape(copy["id"]) == _shape(fow_roster.pk)


def test_a_fow_export_imported_outside_a_campaign_keeps_its_teams(player_client, fow_roster, player, character):
    _train_roster(player, fow_roster)
    exported = player_client.get(f"/api/rosters/{fow_roster.pk}/export/").json()
    r = player_client.post("/api/rosters/import/", {"character": character.pk, "data": exported}, format="json")
    assert r.status_code == 201 and len(r.json()["teams"]) == 4
    assert _shape(r.json()["id"])[:2] == _shape(fow_roster.pk)[:2]


@pytest.mark.parametrize("damage, field", [
    (lambda d: d["teams"][0].update(type="zeppelin"), "teams[0]"),
    (lambda d: d["teams"][0].update(unit="u999999"), "teams[0]"),
    (lambda d: d["teams"][0].update(count=0), "teams[0]"),
    (lambda d: d.update(teams="many"), "teams"),
    (lambda d: d["units"][0].update(fow_kind="zeppelin"), "units[0]"),
    (lambda d: d["units"][0].update(fow_kind=""), "units[0]"),
])
def test_a_malformed_fow_import_is_refused_whole_naming_the_place(player_client, fow_roster, player, character,
                                                                  damage, field):
    _train_roster(player, fow_roster)
    data = player_client.get(f"/api/rosters/{fow_roster.pk}/export/").json()
    damage(data)
    before = Roster.objects.count()
    r = player_client.post("/api/rosters/import/", {"character": character.pk, "data": data}, format="json")
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == "import_invalid" and field in {p["field"] for p in error["problems"]}
    assert Roster.objects.count() == before


def test_a_v11_2_export_without_teams_still_imports(player_client, roster, character):
    data = player_client.get(f"/api/rosters/{roster.pk}/export/").json()
    assert data["teams"] == []
    data.pop("teams")
    r = player_client.post("/api/rosters/import/", {"character": character.pk, "data": data}, format="json")
    assert r.status_code == 201 and r.json()["teams"] == []


def test_duplicate_copies_the_fow_platoons_and_their_teams(player_client, fow_roster, player):
    _train_roster(player, fow_roster)
    r = player_client.post(f"/api/rosters/{fow_roster.pk}/duplicate/")
    assert r.status_code == 201, r.content
    copy = r.json()
    assert copy["name"].startswith(fow_roster.name) and len(copy["teams"]) == 4
    assert _shape(copy["id"]) == _shape(fow_roster.pk)
    assert FowTeam.objects.filter(roster_id=copy["id"]).count() == 4
