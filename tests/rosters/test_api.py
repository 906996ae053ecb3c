"""The roster REST API: CRUD, parts, validate, submit, lock, export/import."""
from __future__ import annotations

import pytest

from rosters.models import Roster

pytestmark = pytest.mark.django_db


def _create(client, character, name="API"):
    r = client.post("/api/rosters/", {"name": name, "character": character.pk}, format="json")
    assert r.status_code == 201, r.content
    return r.json()


def _squad(client, roster_id, riflemen=(4, 4)):
    r = client.post(f"/api/rosters/{roster_id}/units/", {"kind": "squad", "name": "Отд."}, format="json")
    unit = r.json()["units"][-1]["id"]
    for cls, count, team in (("sergeant", 1, 1), ("rifleman", riflemen[0], 1), ("corporal", 1, 2),
                             ("rifleman", riflemen[1], 2)):
        r = client.post(f"/api/rosters/{roster_id}/fighters/",
                        {"infantry_class": cls, "count": count, "unit": unit, "fire_team": team}, format="json")
        assert r.status_code == 201, r.content
    return r.json()


def test_build_validate_and_submit_a_squad(player_client, character):
    roster = _create(player_client, character)
    assert roster["status"] == "draft" and roster["report"]["budget"] == 0
    detail = _squad(player_client, roster["id"])
    assert detail["report"]["ok"] and detail["report"]["total"] == 10 and detail["priced_total"] == 10
    r = player_client.post(f"/api/rosters/{roster['id']}/validate/")
    assert r.status_code == 200 and r.json() == {"ok": True, "total": 10, "budget": 16, "senior_rank": "sergeant",
                                                 "violations": []}
    r = player_client.post(f"/api/rosters/{roster['id']}/submit/")
    assert r.status_code == 200 and r.json()["status"] == "submitted"


def test_v_pp_2_submit_over_budget_is_422_with_every_violation(player_client, character):
    """V-PP-2, V-SQUAD-11, V-TURN-1: the draft is saved; the submission is refused."""
    roster = _create(player_client, character)
    detail = _squad(player_client, roster["id"], riflemen=(6, 9))
    assert detail["priced_total"] == 16 + 1 and not detail["report"]["ok"]
    r = player_client.post(f"/api/rosters/{roster['id']}/validate/")
    rules = {v["rule_id"] for v in r.json()["violations"]}
    assert {"V-PP-2", "V-SQUAD-11", "V-SQUAD-1"} <= rules
    for v in r.json()["violations"]:
        assert v["message_ru"] and v["message_en"] and "unit" in v
    r = player_client.post(f"/api/rosters/{roster['id']}/submit/")
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "roster_invalid" and error["message_ru"] and error["message_en"]
    assert {v["rule_id"] for v in error["violations"]} == rules
    fighter = next(f for f in detail["fighters"] if f["count"] == 9)
    r = player_client.patch(f"/api/rosters/{roster['id']}/fighters/{fighter['id']}/", {"count": 4}, format="json")
    assert r.json()["report"]["ok"]
    assert player_client.post(f"/api/rosters/{roster['id']}/submit/").status_code == 200


def test_others_rosters_are_invisible_and_master_locks(player_client, gm_client, character, other_player):
    from rest_framework.test import APIClient

    roster = _create(player_client, character)
    other = APIClient()
    other.force_authenticate(other_player)
    assert other.get(f"/api/rosters/{roster['id']}/").status_code == 404
    assert other.post(f"/api/rosters/{roster['id']}/units/", {"kind": "squad"}, format="json").status_code == 404
    assert other.get("/api/rosters/").json() == []
    assert player_client.post(f"/api/rosters/{roster['id']}/lock/").status_code == 403
    assert gm_client.post(f"/api/rosters/{roster['id']}/lock/").json()["status"] == "locked"
    r = player_client.post(f"/api/rosters/{roster['id']}/units/", {"kind": "squad"}, format="json")
    assert r.status_code == 409
    assert len(gm_client.get("/api/rosters/?status=locked").json()) == 1
    assert gm_client.get("/api/rosters/?campaign=abc").status_code == 400
    assert gm_client.get("/api/rosters/?campaign=999").json() == []


def test_anonymous_gets_nothing(anon_client):
    assert anon_client.get("/api/rosters/").status_code in (401, 403)


def test_vehicle_with_options_and_game_data_placeholders(player_client, character):
    roster = _create(player_client, character)
    r = player_client.post(f"/api/rosters/{roster['id']}/vehicles/",
                           {"kind": "tank", "name": "Т-34", "armour_class": 3, "gun_class": 4, "side_skirts": True,
                            "options": ["spotter"]}, format="json")
    assert r.status_code == 201
    assert r.json()["vehicles"][0]["options"] == ["spotter"]
    assert r.json()["report"]["total"] == 3 + 4 + 3 + 2  # V-VEH-3, V-VDMG-9, V-VEH-7 (G-16)
    game = player_client.get("/api/game-data/").json()
    assert all(c["is_placeholder"] for c in game["infantry_classes"])
    assert game["rules"]["budget_captain"] == 80


def test_export_and_import_via_api(player_client, character):
    roster = _create(player_client, character)
    _squad(player_client, roster["id"])
    data = player_client.get(f"/api/rosters/{roster['id']}/export/").json()
    assert data["format"] == "shtab-roster" and len(data["fighters"]) == 4
    r = player_client.post("/api/rosters/import/", {"character": character.pk, "data": data}, format="json")
    assert r.status_code == 201 and r.json()["report"]["ok"]
    before = Roster.objects.count()
    data["fighters"][0]["class"] = "dragon"
    r = player_client.post("/api/rosters/import/", {"character": character.pk, "data": data}, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "import_invalid"
    assert r.json()["error"]["problems"][0]["field"] == "fighters[0]"
    assert Roster.objects.count() == before


def test_duplicate_and_delete(player_client, character):
    roster = _create(player_client, character)
    _squad(player_client, roster["id"])
    r = player_client.post(f"/api/rosters/{roster['id']}/duplicate/")
    assert r.status_code == 201 and r.json()["id"] != roster["id"] and len(r.json()["fighters"]) == 4
    assert player_client.delete(f"/api/rosters/{roster['id']}/").status_code == 204
    assert not Roster.objects.filter(pk=roster["id"]).exists()


def test_v_upg_4_patch_unit_upgrades_and_move_fighters_between_teams(player_client, character):
    """V-UPG-4: one card per squad; V-SQUAD-1: moving riflemen unbalances the fire teams."""
    from rosters.models import Upgrade

    Upgrade.objects.create(code="a", name_ru="А", name_en="A", cost=1)
    Upgrade.objects.create(code="b", name_ru="Б", name_en="B", cost=1)
    roster = _create(player_client, character)
    detail = _squad(player_client, roster["id"])
    unit = detail["units"][0]["id"]
    url = f"/api/rosters/{roster['id']}/units/{unit}/"
    r = player_client.patch(url, {"upgrades": ["a"], "name": "Штурмовое"}, format="json")
    assert r.json()["units"][0]["name"] == "Штурмовое" and r.json()["report"]["ok"]
    r = player_client.patch(url, {"upgrades": ["a", "b"]}, format="json")
    assert [v["rule_id"] for v in r.json()["report"]["violations"]] == ["V-UPG-4"]
    player_client.patch(url, {"upgrades": []}, format="json")
    line = next(f for f in detail["fighters"] if f["infantry_class"] == "rifleman" and f["fire_team"] == 2)
    r = player_client.patch(f"/api/rosters/{roster['id']}/fighters/{line['id']}/", {"count": 4, "fire_team": 1},
                            format="json")
    assert {v["rule_id"] for v in r.json()["report"]["violations"]} == {"V-SQUAD-1"}
